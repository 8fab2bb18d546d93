//! The compiled rule set: what the rules compiler hands to the engine.
//!
//! A [`Ruleset`] is plain data with precomputed tables and no spans. Every
//! square number in it comes from a rule file; the engine attaches meaning to
//! a square only through these tables. Each constraint carries the clause id
//! (`K-9a`) that the rule file cited for it, so that the engine can say which
//! rule forbids a move.

use super::{Relocation, Side, SquareSet};

/// A clause id cited by a rule file (`K-9a`), or empty when none was given.
pub type Clause = String;

/// The compiled, checked rule set.
#[derive(Debug, Clone, PartialEq)]
pub struct Ruleset {
    /// Provenance: the rule file's header and the options selected.
    pub(crate) meta: Meta,
    /// Board geometry: track length and row width.
    pub(crate) board: Board,
    /// Named houses (squares with a name and glyph), for display and messages.
    pub(crate) houses: Vec<House>,
    /// Pieces per side.
    pub(crate) pieces: u8,
    /// Starting squares per side, `[white, black]`, each ascending.
    pub(crate) setup: [Vec<u8>; 2],
    /// How pieces enter from the hand, if pieces start or return there (PC-2).
    pub(crate) entry: Option<Entry>,
    /// Who moves first.
    pub(crate) starter: Starter,
    /// Constraints on the first unit(s) of a game from the standard setup.
    pub(crate) opening: Vec<OpeningRule>,
    /// Throw values and extra throws.
    pub(crate) throws: Throws,
    /// Movement rules: direction, compulsion, passing, priority.
    pub(crate) movement: Movement,
    /// When an opposing piece cannot be hit.
    pub(crate) protection: Protection,
    /// Blockades: runs of pieces that no move may pass over.
    pub(crate) blockades: Vec<Blockade>,
    /// Per-square rules, indexed by square number (index 0 unused).
    pub(crate) squares: Vec<SquareRule>,
    /// Bearing off.
    pub(crate) bear_off: BearOff,
    /// Turn structure.
    pub(crate) turn: TurnRules,
    /// How a game ends and is scored.
    pub(crate) end: EndRules,
    /// Tables for the fast path, derived from the fields above when the
    /// rule file is compiled (`FastTables::compile`; see `fast_path_gate`).
    /// The fields are private so that they cannot change under it: only
    /// the rules compiler builds a rule set.
    pub(crate) fast: super::FastTables,
}

/// Read access to the compiled rules; a rule set is built only by the rules
/// compiler (`crate::rules`), so its derived tables always match its rules.
impl Ruleset {
    /// Provenance: the rule file's header and the options selected.
    pub fn meta(&self) -> &Meta {
        &self.meta
    }
    /// Board geometry: track length and row width.
    pub fn board(&self) -> Board {
        self.board
    }
    /// Named houses, for display and messages.
    pub fn houses(&self) -> &[House] {
        &self.houses
    }
    /// Pieces per side.
    pub fn pieces(&self) -> u8 {
        self.pieces
    }
    /// Starting squares per side, `[white, black]`, each ascending.
    pub fn setup(&self) -> &[Vec<u8>; 2] {
        &self.setup
    }
    /// How pieces enter from the hand, if they start or return there (PC-2).
    pub fn entry(&self) -> Option<&Entry> {
        self.entry.as_ref()
    }
    /// Who moves first.
    pub fn starter(&self) -> &Starter {
        &self.starter
    }
    /// Constraints on the first unit(s) of a game.
    pub fn opening(&self) -> &[OpeningRule] {
        &self.opening
    }
    /// Throw values and extra throws.
    pub fn throws(&self) -> &Throws {
        &self.throws
    }
    /// Movement rules: direction, compulsion, passing, priority.
    pub fn movement(&self) -> &Movement {
        &self.movement
    }
    /// When an opposing piece cannot be hit.
    pub fn protection(&self) -> &Protection {
        &self.protection
    }
    /// Blockades: runs of pieces that no move may pass over.
    pub fn blockades(&self) -> &[Blockade] {
        &self.blockades
    }
    /// Per-square rules, indexed by square number (index 0 unused).
    pub fn squares(&self) -> &[SquareRule] {
        &self.squares
    }
    /// Bearing off.
    pub fn bear_off(&self) -> &BearOff {
        &self.bear_off
    }
    /// Turn structure.
    pub fn turn(&self) -> &TurnRules {
        &self.turn
    }
    /// How a game ends and is scored.
    pub fn end(&self) -> &EndRules {
        &self.end
    }
}

/// The header of a rule file plus the options that were selected.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Meta {
    /// Short name (`kendall`): the stem of the rule file.
    pub name: String,
    /// Human title.
    pub title: String,
    /// Where the rules come from.
    pub source: String,
    /// `default readings`, `reconstruction`, `variant`, ...
    pub status: String,
    /// Options declared in the file: (name, description).
    pub options: Vec<(String, String)>,
    /// Options selected when this rule set was compiled.
    pub selected: Vec<String>,
    /// Every declaration in words with its clause, for `senet rules show`.
    pub explained: Vec<(String, Clause)>,
}

/// Board geometry. Squares are numbered `1..=len` along the track; the track
/// runs boustrophedon in rows of `row_len`. Off the board is `len + 1`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Board {
    pub len: u8,
    pub row_len: u8,
}

impl Board {
    /// The step just past the last square: where borne-off pieces go.
    pub fn off(&self) -> u8 {
        self.len + 1
    }
    /// Number of rows.
    pub fn rows(&self) -> u8 {
        self.len.div_ceil(self.row_len)
    }
    /// The row (0-based from the start of the track) of a square.
    pub fn row_of(&self, square: u8) -> u8 {
        (square - 1) / self.row_len
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct House {
    pub square: u8,
    pub name: String,
    pub glyph: Option<String>,
    pub clause: Clause,
}

/// How a piece in hand enters the board (PC-2).
#[derive(Debug, Clone, PartialEq)]
pub struct Entry {
    /// The square a piece enters on; it must be empty.
    pub square: u8,
    /// Throws (bit `v`) that enter a piece; only a whole throw enters.
    pub throws: u32,
    /// Entering gives another throw, which must be used by the entered piece.
    pub bound_extra: bool,
    pub clause: Clause,
}

/// Who moves first.
#[derive(Debug, Clone, PartialEq)]
pub enum Starter {
    /// Always this side.
    Fixed(Side, Clause),
    /// Decided by lot: the record must name the first player.
    ByLot(Clause),
}

/// A constraint on the opening of a game from the standard setup (K-5, K-7).
#[derive(Debug, Clone, PartialEq)]
pub struct OpeningRule {
    /// Whose first turn this binds.
    pub side: Side,
    /// The throw value the first unit must have (K-5: the roll-off's 1).
    pub throw: Option<u8>,
    /// The square the first unit must move from.
    pub from: Option<u8>,
    /// What happens when the constrained move is impossible.
    pub lapse: Lapse,
    pub clause: Clause,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lapse {
    /// The constraint lapses: any legal unit (A-10 default).
    AnyMove,
    /// The unit is a pass.
    Pass,
}

/// Throw values. With sticks, `values[k]` is the value when `k` sticks show
/// the marked side; with a die (`die`), `values` lists its faces, each
/// equally likely, and `sticks` is 0.
#[derive(Debug, Clone, PartialEq)]
pub struct Throws {
    pub sticks: u8,
    pub values: Vec<u8>,
    /// The throw is one die whose faces are `values` (BL-2), not sticks.
    pub die: bool,
    /// Bit `v` set: a throw of value `v` gives another throw.
    pub extra: u32,
    pub clause: Clause,
    pub extra_clause: Clause,
}

impl Throws {
    pub fn gives_extra(&self, value: u8) -> bool {
        value < 32 && self.extra & (1 << value) != 0
    }
    /// The value of one throw from 32 random bits: each stick shows its
    /// marked side with one bit (the low `sticks` bits), or the die shows
    /// one of its faces, each equally likely. For simulators: a rule set
    /// with a die (BL-2) has `sticks == 0`, so counting bits alone would
    /// always give its first face.
    ///
    /// ```
    /// let bell = senet::rules::load("bell", None, &[]).unwrap();
    /// let faces: Vec<u8> = [0u32, 1 << 30, 2 << 30, 3 << 30].iter().map(|&r| bell.throws().from_bits(r)).collect();
    /// assert_eq!(faces, [1, 2, 3, 4]);
    /// let thai = senet::rules::load("thai", None, &[]).unwrap();
    /// assert_eq!(thai.throws().from_bits(0b0000), 5);
    /// assert_eq!(thai.throws().from_bits(0b1011), 3);
    /// ```
    pub fn from_bits(&self, bits: u32) -> u8 {
        if self.die {
            let face = (bits as u64 * self.values.len() as u64) >> 32;
            return self.values[face as usize];
        }
        let mask = (1u64 << self.sticks) - 1;
        self.values[(bits as u64 & mask).count_ones() as usize]
    }
    /// The distinct throw values, ascending.
    pub fn distinct_values(&self) -> Vec<u8> {
        let mut v = self.values.clone();
        v.sort_unstable();
        v.dedup();
        v
    }
    /// Number of stick faces (out of `2^sticks`) that give `value`; for a
    /// die, the number of its faces that show `value` (out of `values.len()`).
    pub fn weight(&self, value: u8) -> u32 {
        if self.die {
            return self.values.iter().filter(|&&v| v == value).count() as u32;
        }
        let n = self.sticks as u32;
        self.values
            .iter()
            .enumerate()
            .filter(|&(_, &v)| v == value)
            .map(|(k, _)| binomial(n, k as u32))
            .sum()
    }
}

fn binomial(n: u32, k: u32) -> u32 {
    (0..k).fold(1u32, |acc, i| acc * (n - i) / (i + 1))
}

#[derive(Debug, Clone, PartialEq)]
pub struct Movement {
    pub backward: Backward,
    pub backward_clause: Clause,
    /// A forward move is compulsory when one exists (B-8). Always true in
    /// effect when backward moves are never allowed.
    pub compulsory_clause: Clause,
    /// A player may pass voluntarily at any unit (T-10).
    pub voluntary_pass: bool,
    pub voluntary_pass_clause: Clause,
    /// Squares whose pieces must be moved first when any of them can (R-2).
    pub priority: SquareSet,
    pub priority_clause: Clause,
    /// Squares that no move may pass over; a move must land on them exactly
    /// (T-13, B-11). Indexed by the bit of the square.
    pub gates: SquareSet,
    pub gate_clause: Clause,
    /// Squares at which a move that would pass them stops (R-13).
    pub truncate_at: SquareSet,
    pub truncate_clause: Clause,
    /// Squares from which a piece never moves along the track, only off (T-15).
    pub immobile: SquareSet,
    pub immobile_clause: Clause,
    /// Squares from which a piece never moves backward (PC-4).
    pub no_backward: SquareSet,
    pub no_backward_clause: Clause,
    /// Clause forbidding landing on one's own piece (T-7, K-8).
    pub own_clause: Clause,
    /// What landing on an opposing piece does (where no square rule says
    /// otherwise): swap (T-6), send it to the lowest empty square (JQ-6) or
    /// capture it (BL-4).
    pub hit: Hit,
    /// Clause for what landing on an opposing piece does (T-6, K-9, JQ-6).
    pub swap_clause: Clause,
    /// Squares of a move that would pass them send the piece to another
    /// square instead (`SquareRule::overshoot_to`, KD-10 Trap).
    pub overshoot: SquareSet,
    /// A piece on one of its side's setup squares may move only when the
    /// next square is empty (JQ-4); `setup_squares` holds those squares.
    pub setup_guard: bool,
    pub setup_guard_clause: Clause,
    /// The setup squares, `[white, black]`, as sets.
    pub setup_squares: [SquareSet; 2],
    /// When every legal unit bears a piece off, the player may pass instead
    /// (KD-6 "bearing off is never compulsory").
    pub bear_off_voluntary: bool,
    pub bear_off_voluntary_clause: Clause,
    /// A side whose pieces all still stand on its setup squares (none borne
    /// off) moves only with this throw; other throws are passes (KD-10
    /// Starting Throw).
    pub start_throw: Option<u8>,
    pub start_throw_clause: Clause,
    /// A throw may be split between two pieces, each moving forward by its
    /// part (PC-3): a unit then has two parts, `5:12-14:20-23`.
    pub split: bool,
    pub split_clause: Clause,
    /// All the moves of a turn go in one direction (PC-4): after a forward
    /// move only forward moves, after a backward one only backward ones.
    pub one_direction: bool,
    pub one_direction_clause: Clause,
}

/// What landing on an opposing piece does to it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Hit {
    /// It goes to the square the mover came from (T-6).
    Swap,
    /// It goes to the lowest-numbered empty square (JQ-6).
    LowestEmpty,
    /// It is removed from the game (BL-4).
    Capture,
    /// No move may land on it (PC-3: no two pieces on one square).
    Forbidden,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Backward {
    /// Forward moves only.
    Never,
    /// A backward move by the throw when no forward move exists (T-9b, B-9).
    WhenNoForward,
    /// A backward move of one square, whatever the throw, when no forward
    /// move exists (MB-1).
    OneSquareWhenNoForward,
    /// A backward move by the throw onto an empty square only, when no
    /// forward move exists (JQ-7).
    ToEmptyWhenNoForward,
}

/// Protection: when an opposing piece on the target square cannot be hit.
#[derive(Debug, Clone, PartialEq)]
pub struct Protection {
    /// The predicate; `None` means nothing is protected.
    pub rule: Option<Pred>,
    /// Squares on which runs are counted; pieces elsewhere never form or
    /// extend a run (T-11).
    pub run_squares: SquareSet,
}

/// A protection predicate over the target piece, composed with and/or/not.
#[derive(Debug, Clone, PartialEq)]
pub enum Pred {
    /// The length of the target's run (counted on `run_squares`) is in this set
    /// (bit `n` = length `n`).
    RunLength {
        lengths: u64,
        clause: Clause,
    },
    /// The target is the middle piece of its run (odd length).
    Middle {
        clause: Clause,
    },
    /// The target stands on one of these squares.
    OnSquare {
        squares: SquareSet,
        clause: Clause,
    },
    /// Some piece, of either side, stands on one of these squares (KD-9).
    Taken {
        squares: SquareSet,
        clause: Clause,
    },
    /// The target's owner has a piece on one of these squares (KD-9).
    OwnerOn {
        squares: SquareSet,
        clause: Clause,
    },
    /// The target's owner is to miss their next turn (KD-9).
    OwnerSkips {
        clause: Clause,
    },
    And(Vec<Pred>),
    Or(Vec<Pred>),
    Not(Box<Pred>),
}

/// A blockade: a run of `length` pieces that no move may pass over.
#[derive(Debug, Clone, PartialEq)]
pub struct Blockade {
    pub length: u8,
    pub of: BlockadeKind,
    pub clause: Clause,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BlockadeKind {
    /// Pieces of the mover's opponent (K-10).
    Opposing,
    /// Pieces all of one colour, either colour (R-5).
    OneColour,
    /// Any pieces, mixed colours (R-5b).
    Any,
}

/// What a square does.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct SquareRule {
    /// What happens to a piece that lands here.
    pub on_land: Option<Landing>,
    /// Bear off from this square only with these throws (bit `v`), whatever
    /// the distance; `None`: the general bear-off rule.
    pub exit_throws: Option<u32>,
    pub exit_clause: Clause,
    /// An opposing piece hit here is sent to this square (then that square's
    /// landing rule applies) instead of swapping (T-18, B-15).
    pub hit_sends_to: Option<u8>,
    pub hit_clause: Clause,
    /// When a move targets a protected opposing piece here and the mover has
    /// no other forward move, the mover goes to this square instead (B-13).
    pub divert_when_protected: Option<u8>,
    pub divert_clause: Clause,
    /// A piece that moves here gives its owner an extra throw that must be
    /// used by this piece (R-11).
    pub bound_extra: bool,
    pub bound_clause: Clause,
    /// A piece that moves here makes its owner miss the next turn (R-10).
    pub miss_turn: bool,
    pub miss_clause: Clause,
    /// A piece here may bear off only if it already stood here when the turn
    /// began (A-14 alternative of B-11). Added by the rules compiler.
    pub exit_from_turn_start: bool,
    pub exit_from_turn_start_clause: Clause,
    /// While its owner has a piece here, the owner's other pieces cannot move
    /// and each unit deals with this piece (B-12).
    pub lock: Option<Lock>,
    /// A forward move that would pass this square ends on this other square
    /// instead, whose landing rule then applies (KD-10 Trap).
    pub overshoot_to: Option<u8>,
    pub overshoot_clause: Clause,
    /// A piece that lands here gives its owner another throw, taken once the
    /// current throw is fully used (PC-6).
    pub extra_throw: bool,
    pub extra_clause: Clause,
    /// When a throw gives its owner no legal unit, a piece here goes back to
    /// the hand instead of the pass (PC-5: `3:1-hand`).
    pub stuck_to_hand: bool,
    pub stuck_clause: Clause,
}

/// What happens to a piece that lands on a square.
#[derive(Debug, Clone, PartialEq)]
pub struct Landing {
    pub effect: Relocation,
    pub clause: Clause,
    /// When `effect` is `To(s)` and `s` is occupied: `None`, the move is
    /// illegal; `Some(r)`, the piece is relocated by `r` instead (A-3
    /// alternative "lowest empty square": `Some(LowestEmpty)`). Added by the
    /// rules compiler.
    pub when_taken: Option<Relocation>,
}

/// A square that locks its owner (B-12).
#[derive(Debug, Clone, PartialEq)]
pub struct Lock {
    /// A move without a throw to this square (if empty), which ends the turn.
    pub release_to: Option<u8>,
    /// When `release_to` is occupied: `None`, the release is unavailable
    /// (B-12 default); `Some(r)`, the piece is relocated by `r` instead
    /// (A-3 alternatives: `LowestEmpty`, `Queue(release_to)`). Added by the rules
    /// compiler.
    pub release_when_taken: Option<Relocation>,
    /// Throws that bear the piece off.
    pub exit_throws: u32,
    /// What any other throw does to the piece.
    pub otherwise: Relocation,
    /// Whether a failed throw ends the turn.
    pub fail_ends_turn: bool,
    /// The release also makes the owner miss their next turn (KD-8).
    pub release_misses_turn: bool,
    /// Whether an exit throw gives another throw as any throw of its value
    /// does (A-8 default `true`); `false`: the turn ends after it (A-8 "no").
    /// Added by the rules compiler.
    pub exit_gives_extra: bool,
    pub clause: Clause,
}

#[derive(Debug, Clone, PartialEq)]
pub struct BearOff {
    /// A piece may bear off only while all its side's pieces on the board are
    /// on these squares (K-13); `None`: always.
    pub all_in: Option<SquareSet>,
    pub all_in_clause: Clause,
    /// The step a bearing-off move must reach.
    pub reach: Reach,
    pub clause: Clause,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reach {
    /// Exactly one step past the last square (A-2 default).
    ExactPast,
    /// Exactly the last square: reaching it removes the piece (A-2 alternative).
    ExactLast,
    /// Any move beyond the last square (JQ-9).
    Beyond,
}

#[derive(Debug, Clone, PartialEq)]
pub struct TurnRules {
    /// A forced pass keeps a pending extra throw (A-1 alternative).
    pub forced_pass_keeps_extra: bool,
    pub forced_pass_clause: Clause,
    /// A voluntary pass keeps the extra throw (A-11 default).
    pub voluntary_pass_keeps_extra: bool,
    /// A throw bound to a piece that cannot be used ends the turn (A-13 alt.)
    pub bound_pass_ends_turn: bool,
}

#[derive(Debug, Clone, PartialEq)]
pub struct EndRules {
    /// How the game is won.
    pub goal: Goal,
    /// Points per opposing piece left, by row from the start of the track
    /// (K-14: `[3, 2, 1]`); `None`: the rule set does not score.
    pub score_by_row: Option<Vec<u8>>,
    pub clause: Clause,
    pub goal_clause: Clause,
}

/// How a game is won.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Goal {
    /// The first side to bear off all its pieces wins (K-4).
    BearOffAll,
    /// The game ends when neither side has a piece in play (pieces can be
    /// captured); the side that bore off more wins, equal counts draw (BL-7).
    MostBorneOff,
}
