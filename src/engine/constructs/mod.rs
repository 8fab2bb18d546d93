//! Rule constructs, one module each: a construct's model data with its
//! clauses, how the engine resolves it and how it reads (the `rules show`
//! sentence, the `rules summary` token, the sentence for a move it
//! refuses) live together, so that adding a variant of a construct touches
//! its module, its grammar rule and its lowering only.
//!
//! Stage: handed span-free values by the rules compiler (`crate::rules`),
//! used by move generation and play (`super::movegen`) and, for their
//! words, by `senet rules show`, `senet::rules::summary` and the
//! explanations of `senet check`, `replay` and `moves --why`.

pub mod bear_off;
pub mod blockade;
pub mod board;
pub mod end;
pub mod entry;
pub mod lock;
pub mod movement;
pub mod opening;
pub mod protection;
pub mod relocation;
pub mod squares;
pub mod throws;
pub mod words;

pub use bear_off::{BearOff, Reach};
pub use blockade::{Blockade, BlockadeKind};
pub use board::{Board, House};
pub use end::{EndRules, Goal, TurnRules};
pub use entry::Entry;
pub use lock::{Lock, LockDecl};
pub use movement::{Backward, Hit, Movement};
pub use opening::{Lapse, OpeningRule, Starter};
pub use protection::{Pred, Protection};
pub use relocation::{Landing, Relocation, WhenTaken};
pub use squares::SquareRule;
pub use throws::Throws;

use crate::engine::{Forbid, Position, Refusal, Ruleset};
use words::{Refused, Said};

impl Refusal {
    /// How this refusal reads, in the position it was refused in with this
    /// throw: the words of the construct that refused it.
    pub fn words(&self, rules: &Ruleset, position: &Position, throw: u8) -> Said {
        let cx = Refused {
            rules,
            position,
            refusal: self,
            throw,
        };
        match self.forbid {
            Forbid::NoPiece
            | Forbid::OwnPiece
            | Forbid::Occupied
            | Forbid::Backward
            | Forbid::BeforeStart
            | Forbid::BackwardOntoPiece
            | Forbid::Guard
            | Forbid::Direction => movement::refused(&cx),
            Forbid::Protected => protection::refused(&cx),
            Forbid::Blockade(i) => blockade::refused(&cx, i),
            Forbid::Gate(_)
            | Forbid::Immobile
            | Forbid::Priority
            | Forbid::NoBackward
            | Forbid::MissedTurn => squares::refused(&cx),
            Forbid::BeyondEnd | Forbid::ExitThrow | Forbid::NotAllIn | Forbid::ArrivedThisTurn => {
                bear_off::refused(&cx)
            }
            Forbid::Opening => opening::refused(&cx),
            Forbid::StartingThrow => opening::refused_start(&cx),
            Forbid::Bound => entry::refused_bound(&cx),
            Forbid::Locked => lock::refused(&cx),
            Forbid::RelocationBlocked => relocation::refused(&cx),
            Forbid::HitSendsTaken => squares::refused_hit(&cx),
        }
    }
}
