//! The spanned syntax tree of a rule file: what the text says, with byte
//! spans, and no game knowledge. Square references are not resolved yet
//! (a house name is still a name) and nothing is range-checked; that is the
//! work of [`super::lower`].

pub use crate::diag::Span;
use crate::engine::{Backward, Lapse, Reach, Side};

/// A value and where it was written.
#[derive(Debug, Clone, PartialEq)]
pub struct Spanned<T> {
    pub node: T,
    pub span: Span,
}

impl<T> Spanned<T> {
    pub fn new(node: T, span: Span) -> Spanned<T> {
        Spanned { node, span }
    }
}

/// A parsed rule file.
#[derive(Debug, Clone, PartialEq)]
pub struct RuleFile {
    pub extends: Vec<Spanned<String>>,
    pub decls: Vec<Decl>,
    pub options: Vec<OptionDecl>,
}

/// `option T-9b "..." requires X { ... }`.
#[derive(Debug, Clone, PartialEq)]
pub struct OptionDecl {
    pub name: Spanned<String>,
    pub description: String,
    pub requires: Vec<Spanned<String>>,
    /// The option's own statement that it changes no legal unit alone.
    pub inert: Option<Spanned<Inert>>,
    pub decls: Vec<Decl>,
    pub span: Span,
}

/// An option that changes no legal unit on its own, as its file says.
#[derive(Debug, Clone, PartialEq)]
pub enum Inert {
    /// `names only`: it only names squares.
    NamesOnly,
    /// `changes nothing unless combined with A-2`: alone it restates the
    /// default; with one of these options it changes moves.
    UnlessCombined(Vec<Spanned<String>>),
}

/// One declaration with the clauses it cites.
#[derive(Debug, Clone, PartialEq)]
pub struct Decl {
    pub kind: DeclKind,
    pub clauses: Vec<Spanned<String>>,
    pub span: Span,
}

/// A square as written: a number or a house name.
#[derive(Debug, Clone, PartialEq)]
pub enum SquareRef {
    Number(u32),
    House(String),
}

/// An item of a square set: one square or a range.
#[derive(Debug, Clone, PartialEq)]
pub enum SquareItem {
    One(Spanned<SquareRef>),
    Range(Spanned<SquareRef>, Spanned<SquareRef>),
}

pub type SquareSetAst = Vec<SquareItem>;

/// Where a relocated piece goes, as written.
#[derive(Debug, Clone, PartialEq)]
pub enum RelocationAst {
    LowestEmpty,
    Hand,
    To(Spanned<SquareRef>, Option<Fallback>),
    Stay,
    /// `back 5` (`back` true) or `forward 3`: from the square landed on.
    By {
        back: bool,
        squares: Spanned<u32>,
        fallback: Option<Fallback>,
    },
}

/// What happens when the relocation square is taken.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fallback {
    CountingDown,
    CountingUp,
    LowestEmpty,
    Queue,
}

/// A set of throw values: a list, or any throw.
#[derive(Debug, Clone, PartialEq)]
pub enum ThrowSet {
    Any,
    Values(Vec<Spanned<u32>>),
}

/// One part of a `lock:` effect.
#[derive(Debug, Clone, PartialEq)]
pub enum LockPart {
    Release(RelocationAst),
    Exit(ThrowSet),
    Otherwise(RelocationAst),
    FailureEndsTurn(bool),
    ExitNoExtra,
    ReleaseMissesTurn,
    /// `pass allowed` (HK-2): the `otherwise` move may be passed instead.
    PassAllowed,
    /// `no extra throw` (LK-6): no ply of the lock gives another throw.
    NoExtra,
    /// `moved piece binds next ply` (LK-12).
    BindsNextPly,
    /// `refused exit passes` (LK-14).
    RefusedExitPasses,
}

/// What a square does (`at 27: ...`).
#[derive(Debug, Clone, PartialEq)]
pub enum Effect {
    Relocate(RelocationAst),
    Gate,
    Truncate,
    Immobile,
    Priority,
    ExitWith(ThrowSet),
    ExitOnlyFromTurnStart,
    ExitNoExtra,
    /// The square a hit piece goes to; `true`: when it is taken, the
    /// landing is forbidden (else an ordinary swap).
    /// The second `true`: forward moves only (HK-5).
    HitSendsTo(Spanned<SquareRef>, bool, bool),
    DivertTo(Spanned<SquareRef>),
    /// `taken target diverts mover to SQUARE [else ...]`: a move onto the
    /// square while it is taken ends on SQUARE instead.
    DivertWhenTaken(Spanned<SquareRef>, Option<Fallback>),
    /// `stay, moving with VALUES to SQUARE [else ...]`: the piece stays
    /// where it lands, and with one of these throws moves to SQUARE.
    StayMoving {
        throws: Vec<Spanned<u32>>,
        to: Spanned<SquareRef>,
        fallback: Option<Fallback>,
    },
    BoundExtra,
    ExtraThrow,
    /// `extra throw on bearing off`.
    OffExtra,
    StuckToHand,
    NoBackward,
    /// `no forward move` (HM-9b): off or backward only.
    NoForward,
    MissTurn,
    Lock(Vec<Spanned<LockPart>>),
    /// `overshoot drops to 27`, with `when empty` (LK-16) or without.
    OvershootTo(Spanned<SquareRef>, bool),
}

/// A protection condition.
#[derive(Debug, Clone, PartialEq)]
pub enum PredAst {
    RunAtLeast(Spanned<u32>),
    RunExactly(Spanned<u32>),
    RunIn(Vec<Spanned<u32>>),
    Middle,
    /// `end of run`: the first or the last piece of its run.
    EndOfRun,
    /// `inner of run`: a piece of its run that is neither first nor last.
    InnerOfRun,
    On(SquareSetAst),
    Taken(SquareSetAst),
    OwnerOn(SquareSetAst),
    OwnerSkips,
    /// `owner beside in row` (LJ-5).
    OwnerBeside,
    /// `group >= N`: the target's group through grid neighbours.
    GroupAtLeast(Spanned<u32>),
    And(Vec<PredNode>),
    Or(Vec<PredNode>),
    Not(Box<PredNode>),
}

/// A protection condition with its own clauses and span.
#[derive(Debug, Clone, PartialEq)]
pub struct PredNode {
    pub pred: PredAst,
    pub clauses: Vec<Spanned<String>>,
    pub span: Span,
}

/// One case of a blockade on forward moves by target: `onto 26 passing
/// inner of run` (`onto` given), or `otherwise passing run >= 2`.
#[derive(Debug, Clone, PartialEq)]
pub struct TargetCaseAst {
    pub onto: Option<TargetOnto>,
    pub passing: PredNode,
}

/// What a case's target meets: one of these squares, or a condition.
#[derive(Debug, Clone, PartialEq)]
pub enum TargetOnto {
    Squares(SquareSetAst),
    Pred(PredNode),
}

/// A blockade as written: `3 opposing`.
#[derive(Debug, Clone, PartialEq)]
pub struct BlockadeAst {
    pub length: Spanned<u32>,
    pub of: crate::engine::BlockadeKind,
    /// `where runs count`: only pieces where runs count form it.
    pub where_runs: bool,
}

/// The statement of a declaration.
#[derive(Debug, Clone, PartialEq)]
pub enum DeclKind {
    Title(String),
    Source(String),
    Status(String),
    Board {
        len: Spanned<u32>,
        row_len: Spanned<u32>,
    },
    House {
        ident: Spanned<String>,
        square: Spanned<u32>,
        name: String,
        glyph: Option<String>,
    },
    Pieces(Spanned<u32>),
    /// `setup white on ...`; no squares: `setup white in hand`.
    Setup {
        side: Side,
        squares: SquareSetAst,
    },
    Enter {
        square: Spanned<SquareRef>,
        throws: Vec<Spanned<u32>>,
        bound: bool,
    },
    /// `split throw between two pieces` (`any`: false) or `split throw
    /// into any number of parts` (true).
    Split {
        any: bool,
    },
    OneDirection,
    /// `backward move gives extra throw`.
    BackwardExtra,
    /// `last piece on SQUARES moves to SQUARE when no other move` (HK-6).
    LastPiece {
        from: SquareSetAst,
        to: Spanned<SquareRef>,
    },
    StarterFixed(Side),
    StarterByLot,
    Opening {
        side: Side,
        throw: Option<Spanned<u32>>,
        from: Option<Spanned<SquareRef>>,
        lapse: Lapse,
    },
    Throws {
        sticks: Spanned<u32>,
        map: Vec<(Spanned<u32>, Spanned<u32>)>,
    },
    Die {
        faces: Spanned<u32>,
        values: Vec<Spanned<u32>>,
    },
    Extra(Vec<Spanned<u32>>),
    Backward(Backward),
    Compulsory,
    Pass {
        voluntary: bool,
    },
    OwnPieceForbidden,
    Opposing(crate::engine::Hit),
    Protect(Option<PredNode>),
    /// `runs count on SQUARES [except runs reaching SQUARES]`.
    Runs(SquareSetAst, Option<SquareSetAst>),
    /// `blockade on forward moves: onto ... passing ...; otherwise passing ...`.
    TargetBlockade(Vec<TargetCaseAst>),
    Blockades(Vec<BlockadeAst>),
    At {
        squares: SquareSetAst,
        effect: Effect,
    },
    BearOffAllIn(SquareSetAst),
    BearOff(Reach),
    /// `bear off without a throw from SQUARE when all pieces on SQUARES`.
    BearOffWithoutThrow {
        from: Spanned<SquareRef>,
        region: SquareSetAst,
    },
    PassExtra {
        forced: bool,
        keeps: bool,
    },
    BoundThrow {
        ends_turn: bool,
    },
    Goal(crate::engine::Goal),
    /// `guard: ... needs next square empty`: on the side's setup squares
    /// (`None`), or on these squares.
    Guard(Option<SquareSetAst>),
    /// `blockade at half the throw: 3 any in one row, on 4, 6` (LJ-4).
    HalfwayBlockade {
        length: Spanned<u32>,
        throws: Vec<Spanned<u32>>,
    },
    /// `draw when last bear off gives extra throw` (LJ-9).
    DrawOnExtra,
    /// `draw after N turns` (LK-19).
    TurnLimit(Spanned<u32>),
    /// `lost rest holds extra throw`.
    HeldExtra,
    /// `pass when no move but entering`.
    PassBesideEntry,
    BearOffVoluntary,
    /// `first move needs throw N [for SIDE] [, counted when thrown]`.
    StartThrow(Spanned<u32>, Option<Side>, bool),
    Score(Option<Vec<Spanned<u32>>>),
    /// `drop ...`: removes an inherited declaration.
    Drop(DropTarget),
}

/// What a `drop` declaration removes.
#[derive(Debug, Clone, PartialEq)]
pub enum DropTarget {
    /// A declaration there is one of per rule set, by its first words with
    /// single spaces (`one direction per turn`).
    Named(String),
    /// The rules of these squares: every kind, or the kind named by the
    /// effect's first words (`priority`, `exit with`).
    At {
        squares: SquareSetAst,
        kind: Option<String>,
    },
    House(Spanned<String>),
    /// One side's opening, or both.
    Opening(Option<Side>),
    Setup(Side),
    /// What a forced (or voluntary) pass does to an extra throw.
    PassExtra {
        forced: bool,
    },
}
