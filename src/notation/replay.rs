//! Replay: resolve each written unit of a game against the engine.
//!
//! Stage: spanned syntax ([`Game`]) + [`Ruleset`] → positions and
//! [`Finding`]s. The reader never judges legality; this module does, unit by
//! unit, and adds the span of the written unit to everything the engine
//! says. Header checks (tags, rule set, options, result, score) live in
//! [`crate::notation::check`]; this module replays movetext from a start
//! position.

use super::syntax::{
    CommandKind, Comment, Game, LaterParts, MoveSep, Node, PartSyntax, Reloc, ResultToken, Span,
    Target, UnitBody, UnitSyntax,
};
use crate::engine::constructs::words::Names;
use crate::engine::{Effects, Forbid, Position, Refusal, Relocated, Ruleset, Side, Unit, UnitKind};

pub use super::finding::{Code, Finding, Severity};

mod illegal;

/// What the replay saw at one unit, for `senet replay` and statistics.
#[derive(Debug, Clone)]
pub struct Step<'g> {
    pub written: &'g UnitSyntax,
    pub before: Position,
    pub after: Position,
    pub unit: Unit,
    pub effects: Effects,
    pub in_variation: bool,
}

/// The outcome of replaying a game's movetext.
#[derive(Debug, Clone, Default)]
pub struct Replayed {
    pub findings: Vec<Finding>,
    /// Units of the main line resolved and played.
    pub units: usize,
    /// The position after the last main-line unit, if the replay reached it
    /// in step with the record.
    pub final_position: Option<Position>,
    /// The replay of the main line lost step (an illegal unit or `--`) and
    /// did not resynchronise.
    pub lost: bool,
    /// Findings past the cap that were not recorded.
    pub suppressed: usize,
}

/// Replays movetext against a rule set.
pub struct Replayer<'r, 'v> {
    rules: &'r Ruleset,
    max_errors: usize,
    out: Replayed,
    buf: Vec<Unit>,
    visit: Option<&'v mut dyn FnMut(&Step<'_>)>,
    errors: usize,
    /// Bit `v` set for each throw value `v < 64` the rules have: the check
    /// "is this throw possible" runs once per unit.
    throw_values: u64,
    /// The last unit played and the position before it: what a turn
    /// number written too early says gave another throw.
    last: Option<(Unit, Position)>,
}

impl<'r, 'v> Replayer<'r, 'v> {
    pub fn new(rules: &'r Ruleset, max_errors: usize) -> Replayer<'r, 'v> {
        let throw_values = rules
            .throws
            .values
            .iter()
            .filter(|&&v| v < 64)
            .fold(0u64, |m, &v| m | 1 << v);
        Replayer {
            rules,
            max_errors,
            out: Replayed::default(),
            buf: Vec::with_capacity(16),
            visit: None,
            errors: 0,
            throw_values,
            last: None,
        }
    }

    /// Calls `visit` for every unit played, main line and variations.
    pub fn visiting(mut self, visit: &'v mut dyn FnMut(&Step<'_>)) -> Self {
        self.visit = Some(visit);
        self
    }

    /// Replays the game's movetext from `start`.
    pub fn replay(mut self, game: &Game, start: Position) -> Replayed {
        let mut end = self.line(&game.nodes, Some(start), false);
        // A game that ends with a result while a bear-off without a throw
        // is due left it out: the finding says so, and the result is
        // judged after it. A game recorded `*` may stop anywhere.
        if let Some(p) = end
            && game.result != ResultToken::Unknown
            && let Some(from) = self.rules.auto_off_due(&p)
        {
            let written = (game.result.as_str(), "the game ends");
            self.bear_off_due_before(&p, from, written, game.result_span, false);
            end = self.due_bear_off_played(&p, from);
        }
        self.out.lost = end.is_none();
        self.out.final_position = end;
        self.out
    }

    fn report(&mut self, f: Finding) {
        if f.severity == Severity::Error {
            self.errors += 1;
        }
        if self.out.findings.len() >= self.max_errors {
            self.out.suppressed += 1;
        } else {
            self.out.findings.push(f);
        }
    }

    /// Replays one line (main line or variation). Returns the final position
    /// when the line stayed in step.
    fn line(&mut self, nodes: &[Node], start: Option<Position>, var: bool) -> Option<Position> {
        let mut pos = start;
        // The position before the last unit: where its variations start.
        let mut before_last: Option<Position> = None;
        let mut pending_turn_number: Option<(u32, bool, Span)> = None;
        let mut i = 0;
        while i < nodes.len() {
            match &nodes[i] {
                Node::TurnNumber {
                    number,
                    black,
                    span,
                } => {
                    if let Some(p) = pos {
                        // A line that starts in the middle of a turn (a
                        // `Position` with a pending throw, or a variation of
                        // a later unit of a turn) may restate that turn.
                        let side = if *black { Side::Black } else { Side::White };
                        let restated = before_last.is_none()
                            && p.extra
                            && *number == p.turn
                            && side == p.to_move;
                        // The number the game expects needs no call.
                        let expected = !p.extra && *number == p.turn && side == p.to_move;
                        if !restated && !expected {
                            pos = self.turn_number(&p, *number, *black, *span, var);
                        }
                    }
                    pending_turn_number = Some((*number, *black, *span));
                }
                Node::Unit(u) => {
                    // Comments and NAGs that follow belong to this unit.
                    let mut j = i + 1;
                    let mut illegal_ok = false;
                    let mut nags: Vec<(u16, Span)> = Vec::new();
                    while j < nodes.len() {
                        match &nodes[j] {
                            Node::Comment(c) => {
                                illegal_ok |= c
                                    .commands
                                    .iter()
                                    .any(|c| c.kind == CommandKind::PlayedIllegal)
                            }
                            Node::Nag { n, span } => nags.push((*n, *span)),
                            _ => break,
                        }
                        j += 1;
                    }
                    before_last = pos;
                    if let (Some(p), Some(live)) = (&before_last, &mut pos) {
                        // A bear-off without a throw that is due belongs
                        // to the turn of the move that made it due.
                        if pending_turn_number.is_none()
                            && !p.extra
                            && !var
                            && self.rules.auto_off_due(p).is_none()
                        {
                            self.missing_turn_number(p, u);
                        }
                        if !self.unit(p, live, u, illegal_ok, &nags, var) {
                            pos = None;
                        }
                    } else if !var && !matches!(u.body, UnitBody::Gap) {
                        // Out of step: nothing to judge until a [%pos].
                    }
                    if matches!(u.body, UnitBody::Gap) {
                        pos = None;
                    }
                    pending_turn_number = None;
                }
                Node::Comment(c) => {
                    pos = self.comment(c, pos, var);
                }
                Node::Variation(v) => {
                    if let Some(b) = before_last {
                        self.line(&v.nodes, Some(b), true);
                    }
                }
                Node::Nag { .. } | Node::Escape(_) => {}
            }
            i += 1;
        }
        pos
    }

    /// A turn number that is not the one the game expects next. Where the
    /// record left out a bear-off without a throw that was due, the
    /// finding says so, and the line reads on as the rules have it: the
    /// piece leaves, and when that ends the turn the number is judged
    /// against the position after it. When the turn would go on (the move
    /// before gave another throw), the record left out more than the
    /// bear-off, and the line is out of step until a `[%pos]`. Returns the
    /// position the line goes on from.
    fn turn_number(
        &mut self,
        p: &Position,
        number: u32,
        black: bool,
        span: Span,
        var: bool,
    ) -> Option<Position> {
        let Some(from) = self.rules.auto_off_due(p) else {
            self.check_turn_number(p, number, black, span, var);
            return Some(*p);
        };
        let written = if black {
            format!("{number}...")
        } else {
            format!("{number}.")
        };
        self.bear_off_due_before(p, from, (&written, "the turn goes on"), span, var);
        let next = self.due_bear_off_played(p, from).filter(|q| !q.extra)?;
        let side = if black { Side::Black } else { Side::White };
        if number != next.turn || side != next.to_move {
            self.check_turn_number(&next, number, black, span, var);
        }
        Some(next)
    }

    /// The position after the bear-off without a throw from `from` that is
    /// due in `p`, which a record left out: the rules leave no choice, so
    /// the line can read on from it.
    fn due_bear_off_played(&self, p: &Position, from: u8) -> Option<Position> {
        let mut next = *p;
        self.rules
            .apply(&mut next, &self.rules.auto_off_unit(from))
            .ok()?;
        Some(next)
    }

    fn check_turn_number(&mut self, p: &Position, number: u32, black: bool, span: Span, var: bool) {
        let side = if black { Side::Black } else { Side::White };
        if !p.extra && number == p.turn && side == p.to_move {
            return;
        }
        let written = if black {
            format!("{number}...")
        } else {
            format!("{number}.")
        };
        let expected = turn_label(p);
        if p.extra {
            let f = Finding::error(
                Code::TurnNotOver,
                format!(
                    "{} is still in turn {}: its last throw gave another throw",
                    p.to_move, p.turn
                ),
                span,
            )
            .label(format!("{written} starts a new turn too early"));
            let rules = self.rules;
            let values = self.extra_values();
            // A move may give another throw by what it did (a landing, an
            // entry, a backward move): then the help names that unit and
            // the finding cites the clause that gave the throw.
            let by_move = self
                .last
                .filter(|(g, _)| g.kind == UnitKind::Move && !rules.throws.gives_extra(g.throw));
            let f = if let Some((g, before)) = by_move {
                f.help(format!(
                    "{}'s last unit, `{g}`, gave another throw; write {}'s next unit before `{written}`",
                    p.to_move, p.to_move
                ))
                .clause(&self.extra_clause_of(&g, &before))
            } else if values.is_empty() {
                f.help(format!(
                    "{}'s last unit gave another throw; write {}'s next unit before `{written}`",
                    p.to_move, p.to_move
                ))
                .clause(&rules.throws.extra_clause)
            } else {
                f.help(format!(
                    "a throw of {values} gives another throw; write {}'s next unit before `{written}`",
                    p.to_move
                ))
                .clause(&rules.throws.extra_clause)
            };
            self.report(self.context(f, p, var));
        } else if number != p.turn || side != p.to_move {
            let f = Finding::error(
                Code::TurnNumber,
                format!("turn number `{written}` does not match the game: the next turn is `{expected}` ({} to move)", p.to_move),
                span,
            )
            .label(format!("expected `{expected}`"))
            .help(format!("write `{expected}`; turns count rounds: White's turn N, then Black's turn N, then White's N+1"));
            self.report(self.context(f, p, var));
        }
    }

    /// A turn number (or the result) written while a bear-off without a
    /// throw is due: the record left out the unit `0:30-off` that ends or
    /// goes on with the turn. `written` is what stands in its place, and
    /// `before` what the bear-off comes before (the turn going on, the
    /// game ending).
    fn bear_off_due_before(
        &mut self,
        p: &Position,
        from: u8,
        (written, before): (&str, &str),
        span: Span,
        var: bool,
    ) {
        let f = Finding::error(
            Code::BearOffDue,
            format!(
                "{}'s piece on {from} leaves the board without a throw before {before}: all {}'s pieces are home",
                p.to_move, p.to_move
            ),
            span,
        )
        .label(format!("`0:{from}-off` is missing before `{written}`"))
        .help(format!(
            "write `0:{from}-off` right after the move that brought the last piece home; it is a unit without a throw"
        ))
        .clause(&self.rules.bear_off.clause);
        self.report(self.context(f, p, var));
    }

    fn missing_turn_number(&mut self, p: &Position, u: &UnitSyntax) {
        let expected = turn_label(p);
        let f = Finding::warning(
            Code::TurnNumberMissing,
            format!(
                "{}'s new turn starts here without its turn number",
                p.to_move
            ),
            u.span,
        )
        .label(format!("`{expected}` expected before this unit"))
        .help(format!(
            "write `{expected} {u}`; the previous turn ended (no pending extra throw)"
        ));
        self.report(self.context(f, p, false));
    }

    fn extra_values(&self) -> String {
        let v: Vec<String> = (0..32u8)
            .filter(|&v| self.rules.throws.gives_extra(v))
            .map(|v| v.to_string())
            .collect();
        join_or(&v)
    }

    /// Fills the turn, side and position of a finding.
    fn context(&self, mut f: Finding, p: &Position, var: bool) -> Finding {
        f.turn = Some(p.turn);
        f.side = Some(p.to_move);
        f.position = Some(p.write(self.rules.board.len, self.rules.board.row_len));
        f.in_variation = var;
        f
    }

    fn comment(&mut self, c: &Comment, pos: Option<Position>, var: bool) -> Option<Position> {
        let Some((text, span)) = c.pos() else {
            return pos;
        };
        let board = self.rules.board;
        match Position::parse(text, board.len, board.row_len) {
            Err(e) => {
                let at = Span::new(span.start + e.at, span.start + e.at + e.len);
                let f = Finding::error(Code::Position, format!("bad position string: {}", e.message), at)
                    .label("here")
                    .help("a position string is `<30 squares as 3 groups of 10> <w|b> <W-B off> <state> <turn>`, e.g. `WBWBWBWBWB/10/10 w 0-0 - 1`");
                self.report(f);
                pos
            }
            Ok(asserted) if super::header::foreign_state(self.rules, &asserted).is_some() => {
                // As for the Position tag: rule state these rules never set
                // (pieces in hand without an entry, a turn's direction).
                let (flag, why) =
                    super::header::foreign_state(self.rules, &asserted).expect("just tested");
                let f = Finding::error(
                    Code::Position,
                    format!("the position has the flag `{flag}`, but {why}"),
                    span,
                )
                .label("[%pos]")
                .help(format!(
                    "leave `{flag}` out of the rule state: the rules `{}` never set it",
                    self.rules.meta.name
                ));
                self.report(f);
                pos
            }
            // A flag the rules give no meaning (`held` where no extra
            // throw is held, `bound:26` with no piece on 26, ...): the
            // assertion says nothing the replay could compare or resume
            // from.
            Ok(asserted)
                if let Some(idle) = super::state_flags::idle_flag(self.rules, &asserted, text) =>
            {
                let f = super::header::idle_flag_finding(&idle, "position", span.start);
                self.report(f);
                pos
            }
            // Where the replay has a position, a wrong count is a mismatch
            // (below); where the assertion resynchronises the replay, its
            // count is checked as the Position tag's is.
            Ok(asserted)
                if pos.is_none()
                    && let Some(wrong) =
                        super::header::wrong_piece_count(self.rules, &asserted) =>
            {
                let f = Finding::error(Code::Position, format!("the position has {wrong}"), span)
                    .label("[%pos]")
                    .help(super::header::PIECE_COUNT_HELP);
                self.report(f);
                pos
            }
            Ok(asserted) => {
                if let Some(p) = pos {
                    let actual = p.write(board.len, board.row_len);
                    if actual != text {
                        let f = Finding::error(
                            Code::PosMismatch,
                            "the asserted position differs from the replayed one",
                            span,
                        )
                        .label(format!("the replay reaches `{actual}`"))
                        .help(describe_difference(&p, &asserted, board.len));
                        let mut f = self.context(f, &p, var);
                        f.position = Some(actual);
                        self.report(f);
                    }
                }
                // A [%pos] resynchronises the replay (after `--` or an
                // illegal unit), and after a mismatch the record's own
                // position is what later units are written against.
                let mut asserted = asserted;
                if let Some(p) = pos {
                    asserted.arrived = p.arrived;
                    asserted.origin = p.origin;
                    asserted.first = p.first;
                }
                Some(asserted)
            }
        }
    }

    /// Judges unit `u` in position `p` and, when it is legal (or played
    /// illegal on purpose), plays it on `next`, which holds `p` on entry.
    /// `false`: the line cannot go on. The position is played in place
    /// rather than returned: a 56-byte copy of a position just written
    /// field by field costs a stall per unit.
    fn unit(
        &mut self,
        p: &Position,
        next: &mut Position,
        u: &UnitSyntax,
        illegal_ok: bool,
        nags: &[(u16, Span)],
        var: bool,
    ) -> bool {
        let rules = self.rules;
        // While both sides have a piece on the board neither has 0 pieces in
        // play, so the game is not over under either goal: the full test is
        // needed only once a side's board is empty.
        // LK-19: a game that ran into its turn limit is over with pieces on
        // the board.
        if rules.turn_limit_reached(p) {
            let f = Finding::error(
                Code::AfterEnd,
                format!(
                    "the game is already over: {} turns have been played, and the game is drawn",
                    rules.end.turn_limit.unwrap_or(0)
                ),
                u.span,
            )
            .label("unit after the end of the game")
            .help("remove the units after the turn limit, and write the result `1/2-1/2`")
            .clause(&rules.end.turn_limit_clause);
            self.report(self.context(f, p, var));
            return false;
        }
        if (p.pieces[0].is_empty() || p.pieces[1].is_empty()) && rules.game_over(p) {
            let f = match rules.end.goal {
                crate::engine::Goal::BearOffAll => Finding::error(
                    Code::AfterEnd,
                    "the game is already over: a side has borne off all its pieces",
                    u.span,
                )
                .label("unit after the end of the game")
                .help("remove the units after the winning unit, and check the result"),
                // BL-7: the end is an empty board, whoever bore off more.
                crate::engine::Goal::MostBorneOff => Finding::error(
                    Code::AfterEnd,
                    format!(
                        "the game is already over: no piece is left on the board ({})",
                        ending(rules, p)
                    ),
                    u.span,
                )
                .label("unit after the end of the game")
                .help("remove the units after the last piece left the board, and check the result")
                .clause(&rules.end.goal_clause),
            };
            self.report(self.context(f, p, var));
            return false;
        }
        if matches!(u.body, UnitBody::Gap) {
            return false;
        }
        // The throw: value, faces, `+`.
        let throw = match self.resolve_throw(p, u, var) {
            Ok(t) => t,
            Err(()) => return false,
        };
        let free = matches!(u.body, UnitBody::Skip) || throw == Some(0);
        let mut units = std::mem::take(&mut self.buf);
        if free {
            rules.free_units(p, &mut units);
        } else {
            rules.legal_units(p, throw.unwrap_or(0), &mut units);
        }
        // A written move can only be a generated unit from the same square:
        // that cheap test rejects most candidates before `same_unit`.
        let found = match u.body {
            // The common unit (`3:12-15`, `4+:9x12`, `2:29-off`): `same_unit`
            // for this shape, spelled out.
            UnitBody::Move {
                from,
                sep,
                to,
                reloc: None,
                split: None,
            } if u.throw != Some(0) => units.iter().find(|g| {
                // `&`, not `&&`: which test fails follows the record, and a
                // branch per test would be mispredicted.
                let to_ok = match to {
                    Target::Off => g.off,
                    Target::Square(s) => !g.off & (g.to == s),
                    Target::Hand => !g.off & (g.to == 0),
                };
                (g.from == from)
                    & (g.kind == UnitKind::Move)
                    & g.split.is_none()
                    & g.relocated.is_none()
                    & to_ok
                    & ((sep == MoveSep::Dash) | g.hit)
            }),
            UnitBody::Move { from, .. } => units.iter().find(|g| g.from == from && same_unit(u, g)),
            _ => units.iter().find(|g| same_unit(u, g)),
        };
        let result = match found {
            Some(g) => {
                if u.plus && !g.extra_mark {
                    if throw.is_some_and(|t| rules.throws.gives_extra(t)) {
                        // The throw gives another throw, but this unit ends
                        // the turn (A-8: the bear-off from a lock square;
                        // PC-5: the return to the hand; a lock's plies,
                        // LK-6).
                        self.ends_turn_mark(p, u, g, var);
                    } else if rules.tables.move_marks {
                        // Neither the throw nor the move gives one. (Where
                        // no move can give one by what it does, a `+` on a
                        // throw that never gives one is reported in
                        // `resolve_throw`.)
                        self.no_extra_mark(p, u, g, var);
                    }
                }
                if let (
                    UnitBody::Move {
                        sep: MoveSep::Dash, ..
                    },
                    true,
                ) = (u.body, g.hit)
                {
                    // `-` for a swap is accepted on input; fmt writes `x`.
                }
                self.check_nags(p, u, nags, &units, var);
                match rules.apply(next, g) {
                    Ok(fx) => {
                        self.visit_step(u, p, next, *g, fx, var);
                        if !var {
                            self.last = Some((*g, *p));
                        }
                        if !var {
                            self.out.units += 1;
                        }
                        true
                    }
                    Err(_) => false,
                }
            }
            None => {
                let f = self.illegal(p, u, throw, free, &units, illegal_ok);
                let f = self.context(f, p, var);
                let due = (f.code == Code::BearOffDue && !illegal_ok && !free)
                    .then(|| rules.auto_off_due(p))
                    .flatten();
                self.report(f);
                if let Some(from) = due {
                    // A throw written where a bear-off without a throw was
                    // due: the rules leave no choice, so the line reads on
                    // past the bear-off and judges the throw after it, when
                    // the turn goes on (the move before gave another
                    // throw). When the bear-off ends the turn, the throw
                    // belongs to no turn the record wrote: out of step.
                    // The throw is not a step the record shows as written
                    // (it follows a unit it does not write): no visit.
                    self.buf = units;
                    return match self.due_bear_off_played(p, from) {
                        Some(q) if q.extra && q.to_move == p.to_move => {
                            *next = q;
                            let visit = self.visit.take();
                            let played = self.unit(&q, next, u, illegal_ok, nags, var);
                            self.visit = visit;
                            played
                        }
                        _ => false,
                    };
                }
                let forced = if illegal_ok {
                    self.force(p, u, throw, var)
                } else {
                    None
                };
                match forced {
                    Some(forced) => {
                        *next = forced;
                        true
                    }
                    None => false,
                }
            }
        };
        self.buf = units;
        result
    }

    fn visit_step(
        &mut self,
        u: &UnitSyntax,
        p: &Position,
        next: &Position,
        g: Unit,
        fx: Effects,
        var: bool,
    ) {
        if let Some(v) = self.visit.as_mut() {
            v(&Step {
                written: u,
                before: *p,
                after: *next,
                unit: g,
                effects: fx,
                in_variation: var,
            });
        }
    }

    /// Plays a unit the record marks `[%played-illegal]` as written.
    fn force(
        &mut self,
        p: &Position,
        u: &UnitSyntax,
        throw: Option<u8>,
        var: bool,
    ) -> Option<Position> {
        let UnitBody::Move {
            from,
            to,
            reloc,
            split: None,
            ..
        } = u.body
        else {
            if matches!(u.body, UnitBody::Move { .. }) {
                // A split throw is not applied by force: checking resumes at
                // the next `[%pos]`.
                return None;
            }
            // A pass or skip that the rules forbid: the turn simply ends.
            let mut next = *p;
            next.end_turn();
            return Some(next);
        };
        let in_hand = p.hand[p.to_move.index()] > 0;
        if if from == 0 {
            !in_hand
        } else {
            p.at(from) != Some(p.to_move)
        } {
            return None;
        }
        let off = self.rules.board.off();
        let to = match to {
            Target::Square(s) if s <= self.rules.board.len => s,
            Target::Off => off,
            Target::Hand if from != 0 => 0,
            _ => return None,
        };
        let hit = to != off && p.at(to) == Some(p.to_move.other());
        if to != off && p.at(to) == Some(p.to_move) {
            return None;
        }
        let unit = Unit {
            kind: UnitKind::Move,
            throw: throw.unwrap_or(0),
            from,
            to,
            relocated: reloc.map(reloc_of),
            hit: hit && to != 0,
            extra_mark: throw.is_some_and(|t| self.rules.throws.gives_extra(t)),
            off: to == off,
            forced: false,
            split: None,
            more: crate::engine::MoreParts::default(),
        };
        let (next, fx) = self.rules.play(p, &unit).ok()?;
        self.visit_step(u, p, &next, unit, fx, var);
        if !var {
            self.out.units += 1;
        }
        Some(next)
    }

    /// A `+` on a unit after which the turn ends although its throw
    /// usually gives another one: the bear-off from a lock square whose
    /// rule says the turn ends there.
    fn ends_turn_mark(&mut self, p: &Position, u: &UnitSyntax, g: &Unit, var: bool) {
        let rules = self.rules;
        let square = &rules.squares[g.from as usize];
        let held = g.kind == UnitKind::Move
            && rules.turn.held_extra
            && !rules.uses_whole_throw(g)
            && g.parts().any(|q| {
                let l = rules.landed_by(&q);
                l.extra | l.bound
            });
        // The clause that takes the throw's extra throw away.
        let clause = match square.lock.as_ref() {
            Some(l) if !l.exit_extra_clause.is_empty() => &l.exit_extra_clause,
            Some(l) => &l.clause,
            None if g.forced && square.stuck_to_hand => &square.stuck_clause,
            None if held => &rules.turn.held_extra_clause,
            // LK-12: the move of a piece a lock moved out gives none.
            None => match p.marked.filter(|&m| m == g.from).and_then(|_| {
                rules
                    .squares
                    .iter()
                    .filter_map(|s| s.lock.as_ref())
                    .find(|l| l.binds_next)
            }) {
                Some(l) => &l.clause,
                None => &rules.throws.extra_clause,
            },
        };
        let t = g.throw;
        let f = Finding::error(
            Code::ExtraMark,
            "`+` marks a unit after which the turn goes on, and after this one it ends",
            u.span,
        )
        .label(format!("`{t}+`"))
        .help(format!(
            "write `{t}:`; a throw of {t} gives another throw, but not after this move"
        ))
        .clause(clause);
        let mut f = self.context(f, p, var);
        f.throw = Some(t);
        f.unit = Some(u.to_string());
        self.report(f);
    }

    /// A `+` on a unit whose throw gives no other throw, under rules where
    /// a move may give one by what it does (a landing, an entry, a
    /// bear-off; PC-6, LP-8, R-11): the help names the throw and what
    /// gives one, and the finding cites the clause that decides: a held
    /// extra throw's (LP-11d) when the move earned one and lost the rest
    /// of its throw, the landings' when a move could have earned one, the
    /// throw's otherwise.
    fn no_extra_mark(&mut self, p: &Position, u: &UnitSyntax, g: &Unit, var: bool) {
        let rules = self.rules;
        let t = g.throw;
        let value_clause = &rules.throws.extra_clause;
        let by_value = match self.extra_values() {
            v if v.is_empty() => format!(
                "no throw gives another throw by its value{}",
                cited(value_clause)
            ),
            v if v.contains(' ') => format!("only {v} give another throw{}", cited(value_clause)),
            v => format!(
                "only a throw of {v} gives another throw{}",
                cited(value_clause)
            ),
        };
        let earned = g.parts().any(|q| {
            let l = rules.landed_by(&q);
            l.extra | l.bound
        });
        let (help, clause) = if earned && g.kind == UnitKind::Move && rules.turn.held_extra {
            (
                format!(
                    "write `{t}:`; this move earned another throw but left part of its throw of {t} unused, so the game holds that throw for the next move that uses a whole throw{}",
                    cited(&rules.turn.held_extra_clause)
                ),
                rules.turn.held_extra_clause.clone(),
            )
        } else {
            match (g.kind, self.bonus_words(g)) {
                (UnitKind::Move, Some((words, clause))) => (
                    format!(
                        "write `{t}:`; {by_value}, and of such moves only {words} gives one{}",
                        cited(&clause)
                    ),
                    clause,
                ),
                _ => (format!("write `{t}:`; {by_value}"), value_clause.clone()),
            }
        };
        let f = Finding::error(
            Code::ExtraMark,
            "`+` marks a unit after which the turn goes on, and after this one it ends",
            u.span,
        )
        .label(format!("`{t}+`"))
        .help(help)
        .clause(&clause);
        let mut f = self.context(f, p, var);
        f.throw = Some(t);
        f.unit = Some(u.to_string());
        self.report(f);
    }

    /// The clause by which the move `g`, played in `before`, gave another
    /// throw although its value gives none: a throw bound to the piece (an
    /// entry's, a square's), a landing's or a bear-off's extra throw, the
    /// one the game held, a backward move's.
    fn extra_clause_of(&self, g: &Unit, before: &Position) -> String {
        let rules = self.rules;
        for q in g.parts() {
            let l = rules.landed_by(&q);
            if l.bound {
                return if q.from == 0 {
                    rules
                        .entry
                        .as_ref()
                        .map(|e| e.clause.clone())
                        .unwrap_or_default()
                } else {
                    rules.squares[q.to as usize].bound_clause.clone()
                };
            }
            if l.extra {
                let sq = if q.off {
                    &rules.squares[q.from as usize].off_extra_clause
                } else {
                    &rules.squares[q.to as usize].extra_clause
                };
                return sq.clone();
            }
        }
        if rules.turn.held_extra && before.held {
            return rules.turn.held_extra_clause.clone();
        }
        if rules.movement.backward_extra && g.to < g.from && !g.off {
            return rules.movement.backward_extra_clause.clone();
        }
        rules.throws.extra_clause.clone()
    }

    /// The moves of the kinds `g`'s parts are (a move on the board, a
    /// bear-off, an entry) that give another throw by what they do, in
    /// words (`a move onto 15 or 26`), with their clauses; `None` when no
    /// such move does.
    fn bonus_words(&self, g: &Unit) -> Option<(String, String)> {
        let entry_part = g.parts().any(|q| q.from == 0);
        let off_part = g.parts().any(|q| q.off);
        let board_part = g.parts().any(|q| q.from != 0 && !q.off);
        let rules = self.rules;
        let mut words = Vec::new();
        let mut clauses: Vec<&str> = Vec::new();
        let squares = |f: &dyn Fn(&crate::engine::SquareRule) -> bool| -> Vec<u8> {
            (1..=rules.board.len)
                .filter(|&s| f(&rules.squares[s as usize]))
                .collect()
        };
        let onto = squares(&|q| q.extra_throw || q.bound_extra);
        if board_part && !onto.is_empty() {
            words.push(format!("a move onto {}", or_list(&onto)));
            for &s in &onto {
                let q = &rules.squares[s as usize];
                for c in [&q.extra_clause, &q.bound_clause] {
                    clauses.extend(c.split(", ").filter(|c| !c.is_empty()));
                }
            }
        }
        let off = squares(&|q| q.off_extra);
        if off_part && !off.is_empty() {
            words.push(format!("a bear-off from {}", or_list(&off)));
            for &s in &off {
                clauses.extend(
                    rules.squares[s as usize]
                        .off_extra_clause
                        .split(", ")
                        .filter(|c| !c.is_empty()),
                );
            }
        }
        if let Some(e) = rules.entry.as_ref().filter(|e| entry_part && e.bound_extra) {
            words.push("an entry from the hand".to_string());
            clauses.extend(e.clause.split(", ").filter(|c| !c.is_empty()));
        }
        if words.is_empty() {
            return None;
        }
        let mut seen = Vec::new();
        for c in clauses {
            if !seen.contains(&c) {
                seen.push(c);
            }
        }
        Some((join_or(&words), seen.join(", ")))
    }

    /// The throw value of a unit, checking faces and the `+` mark.
    fn resolve_throw(&mut self, p: &Position, u: &UnitSyntax, var: bool) -> Result<Option<u8>, ()> {
        let rules = self.rules;
        let throws = &rules.throws;
        if matches!(u.body, UnitBody::Skip) {
            return Ok(None);
        }
        let mut value = u.throw;
        if let Some(faces) = u.faces {
            if faces.len() != throws.sticks as usize {
                let f = Finding::error(
                    Code::Faces,
                    format!(
                        "{} stick faces written, but the rules throw {} sticks",
                        faces.len(),
                        throws.sticks
                    ),
                    u.span,
                )
                .label("stick faces")
                .help(format!(
                    "write one digit per stick, {} digits, 1 for the marked side",
                    throws.sticks
                ))
                .clause(&throws.clause);
                self.report(self.context(f, p, var));
                return Err(());
            }
            let derived = throws.values[faces.marked() as usize];
            match value {
                Some(v) if v != derived => {
                    let f = Finding::error(
                        Code::FacesMismatch,
                        format!("the faces `_{faces}` give {derived} under these rules, not {v}"),
                        u.span,
                    )
                    .label(format!("{} marked sides up → {derived}", faces.marked()))
                    .help(format!("write `{derived}_{faces}:` or correct the faces"))
                    .clause(&throws.clause);
                    let mut f = self.context(f, p, var);
                    f.throw = Some(v);
                    f.unit = Some(u.to_string());
                    self.report(f);
                    return Err(());
                }
                _ => value = Some(derived),
            }
        }
        let Some(v) = value else {
            return Ok(None);
        };
        if v == 0 {
            return Ok(Some(0));
        }
        let possible = if v < 64 {
            self.throw_values & (1 << v) != 0
        } else {
            throws.values.contains(&v)
        };
        if !possible {
            let vals: Vec<String> = throws
                .distinct_values()
                .iter()
                .map(|v| v.to_string())
                .collect();
            let f = Finding::error(
                Code::ImpossibleThrow,
                format!("a throw of {v} is impossible under these rules"),
                u.span,
            )
            .label(format!("throw {v}"))
            .help(format!("the throws are {}", join_or(&vals)))
            .clause(&throws.clause);
            let mut f = self.context(f, p, var);
            f.throw = Some(v);
            f.unit = Some(u.to_string());
            self.report(f);
            return Err(());
        }
        // A backward move may give another throw whatever its value.
        let backward_plus = rules.movement.backward_extra
            && matches!(u.body, UnitBody::Move { from, to: Target::Square(to), .. } if to < from);
        // Where a move may give another throw by what it does (a landing,
        // an entry, a bear-off), the unit found decides (`no_extra_mark`).
        if u.plus && !throws.gives_extra(v) && !backward_plus && !rules.tables.move_marks {
            let f = Finding::error(
                Code::ExtraMark,
                format!("`+` marks a throw that gives another throw, and {v} does not"),
                u.span,
            )
            .label(format!("`{v}+`"))
            .help({
                let values = self.extra_values();
                if values.is_empty() {
                    format!("write `{v}:`; no throw gives another throw under these rules")
                } else if values.contains(' ') {
                    format!("write `{v}:`; only {values} give another throw")
                } else {
                    format!("write `{v}:`; only a throw of {values} gives another throw")
                }
            })
            .clause(&throws.extra_clause);
            let mut f = self.context(f, p, var);
            f.throw = Some(v);
            f.unit = Some(u.to_string());
            self.report(f);
        }
        Ok(Some(v))
    }

    fn check_nags(
        &mut self,
        p: &Position,
        u: &UnitSyntax,
        nags: &[(u16, Span)],
        legal: &[Unit],
        var: bool,
    ) {
        for &(n, span) in nags {
            if (n == 7 || n == 8) && legal.len() != 1 {
                let what = if n == 7 {
                    "a forced move"
                } else {
                    "the only move"
                };
                let f = Finding::warning(
                    Code::NotForced,
                    format!(
                        "`${n}` claims {what}, but {} units were legal with this throw",
                        legal.len()
                    ),
                    span,
                )
                .label(format!("${n}"))
                .help("remove the claim, or check the throw and the position");
                let mut f = self.context(f, p, var);
                f.unit = Some(u.to_string());
                f.legal = legal.iter().map(|g| g.to_string()).collect();
                self.report(f);
            }
        }
    }
}

/// A sentence on why the move from `r.from` is refused: the words of the
/// construct that refused it.
pub fn refusal_reason(rules: &Ruleset, p: &Position, r: &Refusal, throw: u8) -> String {
    r.words(rules, p, throw).sentence
}

/// "square 27 (House of Water)".
pub fn square_name(rules: &Ruleset, s: u8) -> String {
    Names {
        houses: rules.houses(),
    }
    .sq(s)
}

fn reloc_of(r: Reloc) -> Relocated {
    match r {
        Reloc::Square(s) => Relocated::Square(s),
        Reloc::Queue => Relocated::Queue,
        Reloc::Hand => Relocated::Hand,
    }
}

/// Whether a written part is this generated part.
fn same_part(w: &PartSyntax, g: &crate::engine::Part) -> bool {
    let to_ok = match w.to {
        Target::Off => g.off,
        Target::Hand => !g.off && g.to == 0,
        Target::Square(s) => !g.off && s == g.to,
    };
    w.from == g.from
        && to_ok
        && w.reloc.map(reloc_of) == g.relocated
        && (w.sep == MoveSep::Dash || g.hit)
}

/// Whether a written unit is this generated unit. `-` is accepted for a swap
/// and `+` is optional; everything else must be as the rules place it.
#[inline]
pub fn same_unit(u: &UnitSyntax, g: &Unit) -> bool {
    match (u.body, g.kind) {
        (UnitBody::Skip, UnitKind::Skip) => true,
        (UnitBody::Pass, UnitKind::Pass) => true,
        (
            UnitBody::Move {
                from,
                sep,
                to,
                reloc,
                split,
            },
            UnitKind::Move | UnitKind::NoThrow,
        ) => {
            if (u.throw == Some(0)) != (g.kind == UnitKind::NoThrow) || from != g.from {
                return false;
            }
            let first = PartSyntax {
                from,
                sep,
                to,
                reloc,
                later: LaterParts::default(),
            };
            same_part(&first, &g.first_part())
                && match (split, &g.split) {
                    (None, None) => true,
                    (Some(w), Some(gp)) => same_part(&w, gp),
                    _ => false,
                }
                && split.map_or(0, |w| w.later.len()) == g.more.len()
                && split.is_none_or(|w| {
                    w.later
                        .iter()
                        .zip(g.more.iter())
                        .all(|(w, gp)| same_part(&w, &gp))
                })
        }
        _ => false,
    }
}

/// `12.` or `12...` for the turn the side to move is about to start.
pub fn turn_label(p: &Position) -> String {
    match p.to_move {
        Side::White => format!("{}.", p.turn),
        Side::Black => format!("{}...", p.turn),
    }
}

fn join_or(items: &[String]) -> String {
    match items.len() {
        0 => String::new(),
        1 => items[0].clone(),
        n => format!("{} or {}", items[..n - 1].join(", "), items[n - 1]),
    }
}

/// What differs between two positions, in words.
fn describe_difference(actual: &Position, asserted: &Position, len: u8) -> String {
    let mut parts = Vec::new();
    for s in 1..=len {
        let (a, b) = (actual.at(s), asserted.at(s));
        if a != b {
            let name = |x: Option<Side>| x.map_or("empty".to_string(), |s| s.to_string());
            parts.push(format!(
                "square {s}: replay {}, record {}",
                name(a),
                name(b)
            ));
        }
    }
    if actual.to_move != asserted.to_move {
        parts.push(format!(
            "to move: replay {}, record {}",
            actual.to_move, asserted.to_move
        ));
    }
    if actual.off != asserted.off {
        parts.push(format!(
            "borne off: replay {}-{}, record {}-{}",
            actual.off[0], actual.off[1], asserted.off[0], asserted.off[1]
        ));
    }
    if actual.turn != asserted.turn {
        parts.push(format!(
            "turn: replay {}, record {}",
            actual.turn, asserted.turn
        ));
    }
    if actual.hand != asserted.hand {
        parts.push(format!(
            "in hand: replay {}-{}, record {}-{}",
            actual.hand[0], actual.hand[1], asserted.hand[0], asserted.hand[1]
        ));
    }
    if actual.heading != asserted.heading {
        let way = |h: crate::engine::Heading| match h {
            crate::engine::Heading::Any => "no move yet (no flag)",
            crate::engine::Heading::Forward => "forward (`fwd`)",
            crate::engine::Heading::Backward => "backward (`back`)",
        };
        parts.push(format!(
            "this turn's direction: replay {}, record {}",
            way(actual.heading),
            way(asserted.heading)
        ));
    }
    if actual.waiting != asserted.waiting {
        parts.push("the starting throw still due (`wait:`) differs".into());
    }
    if actual.marked != asserted.marked {
        parts.push("the piece a lock's move marked (`mark:`) differs".into());
    }
    if (actual.extra, actual.bound, actual.skip, actual.queue)
        != (
            asserted.extra,
            asserted.bound,
            asserted.skip,
            asserted.queue,
        )
    {
        parts.push("rule state (extra throw, bound piece, missed turn or queue) differs".into());
    }
    if parts.is_empty() {
        "the two strings describe the same position, but only the canonical string is accepted (flags in their order, `hand:0-0` left out): copy the replay's".into()
    } else {
        format!(
            "{}; the replay continues from the record's position",
            parts.join("; ")
        )
    }
}

/// How a finished game ended, for a message: `White bore off all its
/// pieces`; under [`Goal::MostBorneOff`](crate::engine::Goal::MostBorneOff), the counts (BL-7).
pub fn ending(rules: &Ruleset, end: &Position) -> String {
    let [w, b] = end.off;
    // LK-19: the turn limit ended the game.
    if rules.turn_limit_reached(end) {
        return format!(
            "{} turns have been played, the turn limit",
            rules.end.turn_limit.unwrap_or(0)
        );
    }
    match (rules.end.goal, rules.winner(end)) {
        (crate::engine::Goal::BearOffAll, Some(s)) => format!("{s} bore off all its pieces"),
        (crate::engine::Goal::MostBorneOff, Some(s)) => {
            let (mine, theirs) = if s == Side::White { (w, b) } else { (b, w) };
            format!("{s} bore off more pieces, {mine} to {theirs}")
        }
        (_, None) if w == b => format!("both sides bore off {}", pieces(w)),
        (_, None) => format!("White bore off {} and Black {b}", pieces(w)),
    }
}

fn pieces(n: u8) -> String {
    if n == 1 {
        "1 piece".to_string()
    } else {
        format!("{n} pieces")
    }
}

/// ` (K-6)`, or nothing for an empty clause.
fn cited(clause: &str) -> String {
    if clause.is_empty() {
        String::new()
    } else {
        format!(" ({clause})")
    }
}

/// `15`, `15 or 26`, `15, 26 or 28`.
fn or_list(squares: &[u8]) -> String {
    let v: Vec<String> = squares.iter().map(|s| s.to_string()).collect();
    join_or(&v)
}
