//! The SGN syntax tree: what the reader hands on, before any game knowledge.
//!
//! Stage: text → **spanned syntax** → replay (units resolved against the
//! engine). Every item carries a [`Span`], a byte range into the file it was
//! read from, so that the replay can point at the exact unit it rejects.
//! Nothing here knows the rules: `3:12-15` is only a throw of 3 and two
//! square numbers, and `x` versus `-` is kept as written.
//!
//! Movetext is a flat list of [`Node`]s in text order, as in PGN: turn
//! numbers, units, comments, NAGs and variations. The meaning of a comment
//! or NAG comes from its place (docs/sgn.md): a comment before the first
//! unit belongs to the game ([`Game::intro`]), a comment right after `(`
//! labels the variation, any other comment and every NAG belong to the unit
//! before it; a variation is an alternative to the unit before it.

use std::fmt;

pub use crate::diag::Span;

/// One game of a file: tags, movetext and the result token.
#[derive(Debug, Clone, PartialEq)]
pub struct Game {
    /// 1-based number of the game in its file (counting games that failed
    /// to read).
    pub index: usize,
    /// Escape lines (`%…`) before the movetext: before, between or right
    /// after the tags. They carry no meaning and are kept.
    pub leading: Vec<Escape>,
    /// Tags in the order written.
    pub tags: Vec<Tag>,
    /// Comments before the first turn number or unit: they belong to the game.
    pub intro: Vec<Comment>,
    /// The movetext after the intro comments, in text order.
    pub nodes: Vec<Node>,
    pub result: ResultToken,
    pub result_span: Span,
    /// From the first tag (or first movetext item) to the end of the result.
    pub span: Span,
}

impl Game {
    /// The value of the first tag called `name`.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|t| t.name == name)
            .map(|t| t.value.as_str())
    }

    /// The same game with every span set to `0..0`: two games that differ
    /// only in layout compare equal after this.
    pub fn without_spans(&self) -> Game {
        let mut g = self.clone();
        g.erase_spans();
        g
    }

    fn erase_spans(&mut self) {
        self.span = Span::default();
        self.result_span = Span::default();
        for e in &mut self.leading {
            e.span = Span::default();
        }
        for t in &mut self.tags {
            t.span = Span::default();
            t.name_span = Span::default();
            t.value_span = Span::default();
        }
        for c in &mut self.intro {
            c.erase_spans();
        }
        erase_nodes(&mut self.nodes);
    }

    /// Every unit of the main line (variations left out), in order.
    pub fn main_line_units(&self) -> impl Iterator<Item = &UnitSyntax> {
        self.nodes.iter().filter_map(|n| match n {
            Node::Unit(u) => Some(u),
            _ => None,
        })
    }
}

fn erase_nodes(nodes: &mut [Node]) {
    for n in nodes {
        match n {
            Node::TurnNumber { span, .. } | Node::Nag { span, .. } => *span = Span::default(),
            Node::Unit(u) => u.span = Span::default(),
            Node::Comment(c) => c.erase_spans(),
            Node::Variation(v) => {
                v.span = Span::default();
                erase_nodes(&mut v.nodes);
            }
            Node::Escape(e) => e.span = Span::default(),
        }
    }
}

/// `[Name "value"]`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tag {
    pub name: String,
    /// The value with `\"` and `\\` unescaped.
    pub value: String,
    /// The whole tag, `[` to `]`.
    pub span: Span,
    pub name_span: Span,
    /// The value inside the quotes.
    pub value_span: Span,
}

/// The result token that ends a game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ResultToken {
    /// `1-0`
    WhiteWins,
    /// `0-1`
    BlackWins,
    /// `1/2-1/2`: a finished game with no winner (BL-7), as in PGN. An
    /// extension of SGN 1.
    Draw,
    /// `*`: unfinished or unknown.
    Unknown,
}

impl ResultToken {
    pub const fn as_str(self) -> &'static str {
        match self {
            ResultToken::WhiteWins => "1-0",
            ResultToken::BlackWins => "0-1",
            ResultToken::Draw => "1/2-1/2",
            ResultToken::Unknown => "*",
        }
    }
    /// Reads `1-0`, `0-1`, `1/2-1/2` or `*` (for the `Result` tag).
    pub fn parse(s: &str) -> Option<ResultToken> {
        match s {
            "1-0" => Some(ResultToken::WhiteWins),
            "0-1" => Some(ResultToken::BlackWins),
            "1/2-1/2" => Some(ResultToken::Draw),
            "*" => Some(ResultToken::Unknown),
            _ => None,
        }
    }
}

impl fmt::Display for ResultToken {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One item of movetext.
#[derive(Debug, Clone, PartialEq)]
pub enum Node {
    /// `7.` (White's turn) or `7...` (`black`: Black's turn).
    TurnNumber {
        number: u32,
        black: bool,
        span: Span,
    },
    Unit(UnitSyntax),
    Comment(Comment),
    /// `$n`; the suffixes `!` `?` `!!` `??` `!?` `?!` are read as `$1`..`$6`.
    Nag {
        n: u16,
        span: Span,
    },
    /// `( … )`: an alternative to the unit before it.
    Variation(Variation),
    /// A line starting with `%`.
    Escape(Escape),
}

impl Node {
    pub fn span(&self) -> Span {
        match self {
            Node::TurnNumber { span, .. } | Node::Nag { span, .. } => *span,
            Node::Unit(u) => u.span,
            Node::Comment(c) => c.span,
            Node::Variation(v) => v.span,
            Node::Escape(e) => e.span,
        }
    }
}

/// `( … )`, possibly nested.
#[derive(Debug, Clone, PartialEq)]
pub struct Variation {
    pub nodes: Vec<Node>,
    /// `(` to `)`.
    pub span: Span,
}

/// An escape line `%…`: kept, otherwise ignored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Escape {
    /// The line after the `%`, without the line end.
    pub line: String,
    pub span: Span,
}

/// `{ … }` or `; …` to the end of the line.
#[derive(Debug, Clone, PartialEq)]
pub struct Comment {
    /// The text between the delimiters, trimmed, line ends as `\n`.
    /// Commands stay in the text; [`Comment::commands`] is a parsed view.
    pub text: String,
    pub commands: Vec<Command>,
    /// Delimiters included.
    pub span: Span,
}

impl Comment {
    fn erase_spans(&mut self) {
        self.span = Span::default();
        for c in &mut self.commands {
            c.span = Span::default();
            c.name_span = Span::default();
            c.args_span = Span::default();
        }
    }
    /// The first command of this kind's name (`"pos"`, `"src"`, …).
    pub fn command(&self, name: &str) -> Option<&Command> {
        self.commands.iter().find(|c| c.name == name)
    }
    /// The raw position string of the first `[%pos …]`, with its span.
    pub fn pos(&self) -> Option<(&str, Span)> {
        self.commands
            .iter()
            .find(|c| c.kind == CommandKind::Pos)
            .map(|c| (c.args.as_str(), c.args_span))
    }
}

/// `[%name args]` inside a comment.
#[derive(Debug, Clone, PartialEq)]
pub struct Command {
    /// `pos`, `src`, `conf`, `rule`, `played-illegal`, `eval`, or another name.
    pub name: std::borrow::Cow<'static, str>,
    /// The arguments as written, trimmed (for `src`, with the quotes).
    pub args: String,
    pub kind: CommandKind,
    /// `[%` to `]`.
    pub span: Span,
    pub name_span: Span,
    pub args_span: Span,
}

/// What a command says, for the commands SGN 1 defines.
#[derive(Debug, Clone, PartialEq)]
pub enum CommandKind {
    /// `[%pos <position>]`: the position string is [`Command::args`], to be
    /// read with `engine::Position::parse`.
    Pos,
    /// `[%src "…"]`: the source, unescaped.
    Src(String),
    /// `[%conf low|medium|high]`.
    Conf(Confidence),
    /// `[%rule K-9a]`: the clause id is [`Command::args`].
    Rule,
    /// `[%played-illegal]`.
    PlayedIllegal,
    /// `[%eval 0.63]`: a win probability for the side that just moved.
    Eval(f64),
    /// Any other command: kept as written.
    Other,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Confidence {
    Low,
    Medium,
    High,
}

impl Confidence {
    pub const fn as_str(self) -> &'static str {
        match self {
            Confidence::Low => "low",
            Confidence::Medium => "medium",
            Confidence::High => "high",
        }
    }
}

/// Stick faces `_0111`: one flag per stick, `true` = marked side up.
/// Compact (up to 16 sticks) so that a unit stays `Copy`-sized and reading
/// one never allocates.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Faces {
    bits: u16,
    len: u8,
}

impl Faces {
    /// The most sticks a record can show.
    pub const MAX: usize = 16;

    /// `None` for more than [`Faces::MAX`] sticks or none.
    pub fn new(faces: &[bool]) -> Option<Faces> {
        if faces.is_empty() || faces.len() > Self::MAX {
            return None;
        }
        let mut bits = 0u16;
        for (i, &f) in faces.iter().enumerate() {
            if f {
                bits |= 1 << i;
            }
        }
        Some(Faces {
            bits,
            len: faces.len() as u8,
        })
    }
    pub(crate) fn from_bits(bits: u16, len: u8) -> Faces {
        Faces { bits, len }
    }
    pub const fn len(&self) -> usize {
        self.len as usize
    }
    pub const fn is_empty(&self) -> bool {
        self.len == 0
    }
    /// Stick `i`, in the order written.
    pub const fn get(&self, i: usize) -> bool {
        self.bits & (1 << i) != 0
    }
    /// How many sticks show the marked side (`k` in docs/sources/README.md).
    pub const fn marked(&self) -> u32 {
        self.bits.count_ones()
    }
    pub fn iter(&self) -> impl Iterator<Item = bool> + '_ {
        (0..self.len()).map(|i| self.get(i))
    }
    pub fn to_vec(&self) -> Vec<bool> {
        self.iter().collect()
    }
}

impl fmt::Display for Faces {
    /// The digits as written, without the `_`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for b in self.iter() {
            f.write_str(if b { "1" } else { "0" })?;
        }
        Ok(())
    }
}

/// One unit as written: a throw and what was done with it.
///
/// `throw` is `Some(0)` for a move without a throw (`0:27-15`), `None` when
/// only faces are given (`_0000:`) or the unit has no throw (`skip`, `--`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct UnitSyntax {
    pub span: Span,
    pub throw: Option<u8>,
    pub faces: Option<Faces>,
    /// `+` after the throw: the writer claims it gives another throw.
    pub plus: bool,
    pub body: UnitBody,
}

/// What was done with the throw.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum UnitBody {
    /// `12-15`, `12x15`, `29-off`, `25-27=15`, `25-27=Q`, `hand-1`,
    /// `1-hand`, `25-27=hand`; with a second part for a split throw,
    /// `12-14:20-23`. `from` 0 is the hand.
    Move {
        from: u8,
        sep: MoveSep,
        to: Target,
        reloc: Option<Reloc>,
        split: Option<PartSyntax>,
    },
    /// `pass`.
    Pass,
    /// `skip`: the rules took the turn away. No throw.
    Skip,
    /// `--`: an unknown or illegible unit. No throw.
    Gap,
}

/// The second part of a split throw as written (`20-23` in `5:12-14:20-23`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct PartSyntax {
    /// 0 is the hand.
    pub from: u8,
    pub sep: MoveSep,
    pub to: Target,
    pub reloc: Option<Reloc>,
    /// In the second part of a throw split into any number of parts, the
    /// parts written after it (`13-14:20-23` in `5:12-13:13-14:20-23`);
    /// empty otherwise.
    pub later: LaterParts,
}

/// The parts a unit may write after the second (as the engine's
/// `MoreParts`).
pub const MORE_PARTS: usize = crate::engine::MoreParts::CAPACITY;

/// The parts written after the second part of a throw split into any
/// number of parts, in the order played.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct LaterParts(pub [Option<LaterPart>; MORE_PARTS]);

impl LaterParts {
    /// The parts, in the order written.
    pub fn iter(&self) -> impl Iterator<Item = PartSyntax> + '_ {
        self.0.iter().map_while(|p| p.map(LaterPart::part))
    }
    pub fn len(&self) -> usize {
        self.iter().count()
    }
    pub fn is_empty(&self) -> bool {
        self.0[0].is_none()
    }
}

/// One part after the second, as written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct LaterPart {
    pub from: u8,
    pub sep: MoveSep,
    pub to: Target,
    pub reloc: Option<Reloc>,
}

impl LaterPart {
    /// The part as a [`PartSyntax`] with no parts after it.
    pub fn part(self) -> PartSyntax {
        PartSyntax {
            from: self.from,
            sep: self.sep,
            to: self.to,
            reloc: self.reloc,
            later: LaterParts::default(),
        }
    }
    /// The part of a [`PartSyntax`], without the parts after it.
    pub fn of(p: &PartSyntax) -> LaterPart {
        LaterPart {
            from: p.from,
            sep: p.sep,
            to: p.to,
            reloc: p.reloc,
        }
    }
}

impl fmt::Display for PartSyntax {
    /// `20-23`, `hand-1`, `1-hand`, `25-27=hand`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.from == 0 {
            f.write_str("hand")?;
        } else {
            write!(f, "{}", self.from)?;
        }
        f.write_str(if self.sep == MoveSep::Cross { "x" } else { "-" })?;
        match self.to {
            Target::Square(s) => write!(f, "{s}")?,
            Target::Off => f.write_str("off")?,
            Target::Hand => f.write_str("hand")?,
        }
        match self.reloc {
            Some(Reloc::Square(s)) => write!(f, "={s}"),
            Some(Reloc::Queue) => f.write_str("=Q"),
            Some(Reloc::Hand) => f.write_str("=hand"),
            None => Ok(()),
        }
    }
}

/// `-` or `x` between the squares of a move.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MoveSep {
    Dash,
    Cross,
}

/// Where a move ends as written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Target {
    Square(u8),
    /// Borne off.
    Off,
    /// Back to the hand (PC-5).
    Hand,
}

/// Where the rules moved the piece on to after landing: `=15` or `=Q`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Reloc {
    Square(u8),
    /// Joined the dead-piece queue.
    Queue,
    /// Went back to its owner's hand (PC-7).
    Hand,
}

impl fmt::Display for UnitSyntax {
    /// The canonical form: `3:12-15`, `4+:9x12`, `3_0111:12-15`, `0:27-15`,
    /// `3:pass`, `skip`, `--`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.body {
            UnitBody::Skip => return f.write_str("skip"),
            UnitBody::Gap => return f.write_str("--"),
            _ => {}
        }
        if let Some(t) = self.throw {
            write!(f, "{t}")?;
        }
        if let Some(faces) = self.faces {
            write!(f, "_{faces}")?;
        }
        if self.plus {
            f.write_str("+")?;
        }
        f.write_str(":")?;
        match self.body {
            UnitBody::Move {
                from,
                sep,
                to,
                reloc,
                split,
            } => {
                PartSyntax {
                    from,
                    sep,
                    to,
                    reloc,
                    later: LaterParts::default(),
                }
                .fmt(f)?;
                if let Some(part) = split {
                    write!(f, ":{part}")?;
                    for later in part.later.iter() {
                        write!(f, ":{later}")?;
                    }
                }
                Ok(())
            }
            _ => f.write_str("pass"),
        }
    }
}
