//! The rule-state flags of a position string (`extra;bound:26`) against a
//! rule set: each flag records state that one rule makes, and under rules
//! without it the flag means nothing. A position that has one could never
//! arise, and what the engine would make of it is not what the writer
//! meant, so it is refused wherever a position string is read: the
//! `Position` tag, a `[%pos]` and `--position`.
//!
//! Stage: a position string that [`Position::parse`] read (its shape is
//! right) and a [`Ruleset`] → the first flag the rules give no meaning,
//! with its place in the string and the rule it needs. Every flag the
//! string knows is judged here, in the order it is written:
//!
//! | flag | needs |
//! |---|---|
//! | `extra` | a rule that gives another throw |
//! | `held` | `lost rest holds extra throw` |
//! | `fwd`, `back` | `one direction per turn` |
//! | `bound:N` | `extra throw bound to piece` on N (a square's, or the entry's), and a piece of the side to move on N |
//! | `skip:w`, `skip:b` | `miss next turn` on a square, or a lock's `release misses next turn` |
//! | `wait:w`, `wait:b` | `first move needs throw V` for that side |
//! | `mark:N` | a lock's `moved piece binds next ply`, a piece on N, and N a square that lock moves a piece out to |
//! | `hand:W-B` | `enter from hand on ...` |
//! | `q:...` | a queue (`relocate to S else queue`) |

use crate::diag::Span;
use crate::engine::{Position, Relocation, Ruleset, Side};

/// A flag of a position string that means nothing under the rules.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IdleFlag {
    /// The flag as written (`mark:15`).
    pub flag: String,
    /// Its byte offset in the position string.
    pub at: usize,
    /// Why it means nothing here, after "but ".
    pub why: String,
    /// The help line: the rule the flag needs, in the words of a rule
    /// file, and what to write instead.
    pub help: String,
}

impl IdleFlag {
    /// The flag's span in a source where the position string starts at
    /// `start`.
    pub fn span(&self, start: usize) -> Span {
        Span::new(start + self.at, start + self.at + self.flag.len())
    }
}

/// The first rule-state flag of `text` (a position string that reads as
/// `p`) that the rules give no meaning, in the order written.
pub fn idle_flag(rules: &Ruleset, p: &Position, text: &str) -> Option<IdleFlag> {
    let (state_at, state) = state_field(text)?;
    let mut at = state_at;
    for flag in state.split(';') {
        if let Some(idle) = judge(rules, p, flag) {
            let (why, help) = match idle {
                Idle::NoRule { why, needs } => (
                    why,
                    format!(
                        "`{flag}` is for rule sets with {needs}; the rules `{}` never set it: leave it out of the rule state",
                        rules.meta.name
                    ),
                ),
                Idle::Misplaced { why, needs } => (
                    why,
                    format!("`{flag}` names {needs}; correct the square or leave the flag out"),
                ),
            };
            return Some(IdleFlag {
                flag: flag.to_string(),
                at,
                why,
                help,
            });
        }
        at += flag.len() + 1;
    }
    None
}

/// The fourth field of a position string and its offset; `None` for `-`.
fn state_field(text: &str) -> Option<(usize, &str)> {
    let mut at = 0;
    for (i, field) in text.split(' ').enumerate() {
        if i == 3 {
            return (field != "-").then_some((at, field));
        }
        at += field.len() + 1;
    }
    None
}

/// Why a flag means nothing.
enum Idle {
    /// The rules lack the rule that sets it (`needs`).
    NoRule { why: String, needs: &'static str },
    /// The rules have it, but not for this square or piece; `needs` says
    /// what the flag names.
    Misplaced { why: String, needs: &'static str },
}

/// Why `flag` means nothing under `rules` in `p`; `None` when it means
/// what it says.
fn judge(rules: &Ruleset, p: &Position, flag: &str) -> Option<Idle> {
    let name = &rules.meta.name;
    let no_rule = |why: String, needs| Some(Idle::NoRule { why, needs });
    let side_of = |c: &str| if c == "w" { Side::White } else { Side::Black };
    const BOUND: &str = "the square of the piece, of the side to move, that earned the throw by moving onto a square with `extra throw bound to piece` (R-11) or by entering with it (PC-2)";
    const MARK: &str = "the square a lock with `moved piece binds next ply` moved a piece out to, while that piece stands there (LK-12)";
    match flag.split_once(':') {
        None if flag == "extra" && !gives_extra(rules) => no_rule(
            format!("no throw, square or move under `{name}` gives another throw"),
            "a throw that gives another (`extra throw on VALUES`) or a square's `extra throw`",
        ),
        None if flag == "held" && !rules.turn.held_extra => no_rule(
            format!("`{name}` holds no extra throw for the game"),
            "`lost rest holds extra throw` (LP-8)",
        ),
        None if (flag == "fwd" || flag == "back") && !rules.movement.one_direction => no_rule(
            format!("`{name}` does not keep the moves of a turn in one direction"),
            "`one direction per turn` (PC-4)",
        ),
        None => None,
        Some(("bound", n)) => {
            let s: u8 = n.parse().ok()?;
            let squares = binding_squares(rules);
            if squares.is_empty() {
                no_rule(
                    format!("no move under `{name}` earns a throw bound to a piece"),
                    "`extra throw bound to piece` on a square (R-11) or on the entry (PC-2)",
                )
            } else if !squares.contains(&s) {
                Some(Idle::Misplaced {
                    why: format!(
                        "under `{name}` only a piece on {} takes a bound throw, not one on {s}",
                        list(&squares)
                    ),
                    needs: BOUND,
                })
            } else {
                (p.at(s) != Some(p.to_move)).then(|| Idle::Misplaced {
                    why: format!(
                        "no piece of {}'s, the side to move, stands on {s} to take the bound throw",
                        p.to_move
                    ),
                    needs: BOUND,
                })
            }
        }
        Some(("skip", c)) if !misses_turns(rules) => no_rule(
            format!(
                "nothing under `{name}` makes a side miss a turn, so {} has none to miss",
                side_of(c)
            ),
            "`miss next turn` on a square (R-10) or a lock's `release misses next turn` (KD-8)",
        ),
        Some(("skip", _)) => None,
        Some(("wait", c)) => {
            let side = side_of(c);
            if rules.movement.start_throw_due_for(side) {
                None
            } else if rules.movement.start_throw.is_some() {
                no_rule(
                    format!(
                        "under `{name}` only {} waits for its starting throw",
                        side.other()
                    ),
                    "a starting throw for both sides, or for this one: `first move needs throw V` (KD-10), `, SIDE only` (LK-15)",
                )
            } else {
                no_rule(
                    format!("`{name}` has no starting throw"),
                    "a starting throw: `first move needs throw V` (KD-10), `, SIDE only` for one side (LK-15)",
                )
            }
        }
        Some(("mark", n)) => {
            let s: u8 = n.parse().ok()?;
            match mark_squares(rules) {
                None => no_rule(
                    format!("no lock under `{name}` binds the piece it moves out"),
                    "a lock with `moved piece binds next ply` (LK-12)",
                ),
                Some(squares) if !squares.is_empty() && !squares.contains(&s) => {
                    Some(Idle::Misplaced {
                        why: format!(
                            "the lock under `{name}` moves a piece out to {}, not to {s}",
                            list(&squares)
                        ),
                        needs: MARK,
                    })
                }
                Some(_) if p.at(s).is_none() => Some(Idle::Misplaced {
                    why: format!(
                        "no piece stands on {s}, and the mark ends when its piece leaves the square"
                    ),
                    needs: MARK,
                }),
                Some(_) => None,
            }
        }
        Some(("hand", _)) if rules.entry.is_none() && p.hand != [0, 0] => no_rule(
            format!("`{name}` has no pieces in hand"),
            "pieces in hand and `enter from hand on SQUARE with VALUES` (PC-1, PC-2)",
        ),
        Some(("hand", _)) => None,
        Some(("q", _)) if rules.queue_square().is_none() => no_rule(
            format!("`{name}` has no queue of dead pieces"),
            "a queue: `relocate to SQUARE else queue` (R-12)",
        ),
        Some(_) => None,
    }
}

/// Whether anything under the rules gives another throw: a throw's value,
/// a backward move, a square landed on or borne off from, a bound throw
/// of a square or of the entry.
fn gives_extra(rules: &Ruleset) -> bool {
    rules
        .throws
        .values
        .iter()
        .any(|&v| rules.throws.gives_extra(v))
        || rules.movement.backward_extra
        || rules
            .squares
            .iter()
            .any(|s| s.extra_throw || s.off_extra || s.bound_extra)
        || rules.entry.as_ref().is_some_and(|e| e.bound_extra)
}

/// The squares a piece stands on when it has earned a bound throw: those
/// with `extra throw bound to piece`, and the entry square when entering
/// binds the throw.
fn binding_squares(rules: &Ruleset) -> Vec<u8> {
    let mut out: Vec<u8> = (1..=rules.board.len)
        .filter(|&s| rules.squares[s as usize].bound_extra)
        .collect();
    if let Some(e) = rules.entry.as_ref().filter(|e| e.bound_extra) {
        out.push(e.square);
    }
    out
}

/// Whether a side can come to miss a turn: a square's `miss next turn`
/// or a lock's release that costs the next turn (KD-8).
fn misses_turns(rules: &Ruleset) -> bool {
    rules
        .squares
        .iter()
        .any(|s| s.miss_turn || s.lock.as_ref().is_some_and(|l| l.release_misses_turn))
}

/// The squares a lock that binds the piece it moves out (LK-12) moves a
/// piece to; `None` without such a lock, empty when one of them may move
/// a piece to more than one square.
fn mark_squares(rules: &Ruleset) -> Option<Vec<u8>> {
    let mut any = false;
    let mut out = Vec::new();
    for lock in rules.squares.iter().filter_map(|s| s.lock.as_ref()) {
        if !lock.binds_next {
            continue;
        }
        any = true;
        match lock.otherwise {
            Relocation::To(s) => out.push(s),
            _ => return Some(Vec::new()),
        }
    }
    any.then_some(out)
}

fn list(squares: &[u8]) -> String {
    let words: Vec<String> = squares.iter().map(u8::to_string).collect();
    words.join(", ")
}

/// A rule-state flag that means nothing under the rules, in a position
/// string given on the command line (`--position`), with the string as its
/// source.
#[derive(Debug, thiserror::Error)]
#[error("the position has the flag `{flag}`, but {why}")]
pub struct PositionFlagError {
    flag: String,
    why: String,
    help: String,
    src: String,
    span: Span,
}

impl PositionFlagError {
    pub fn new(text: &str, idle: &IdleFlag) -> PositionFlagError {
        PositionFlagError {
            flag: idle.flag.clone(),
            why: idle.why.clone(),
            help: idle.help.clone(),
            src: text.to_string(),
            span: idle.span(0),
        }
    }

    /// What the error says beyond its message ([`crate::diag::Diagnostic`]).
    fn parts(&self) -> crate::diag::Parts<'_> {
        crate::diag::Parts::new("senet::position::flag")
            .text(&self.src)
            .label(self.span, "this flag")
            .help(self.help.as_str())
    }
}

crate::diag::diagnostic_from_parts!(PositionFlagError);
