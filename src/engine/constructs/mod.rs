//! Rule constructs, one module each: a construct's model data with its
//! clauses, how the engine resolves it and how it reads (the `rules show`
//! sentence, the `rules summary` token, the sentence for a move it
//! refuses) live together, so that adding a variant of a construct touches
//! its module, its grammar rule and its lowering only.
//!
//! Stage: handed span-free values by the rules compiler (`crate::rules`),
//! used by move generation and play (`super::movegen`) and, for their
//! words, by `senet rules show`, `senet::rules::summary`, the
//! explanations of `senet check`, `replay` and `moves --why`, and the
//! replay gloss.

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

use crate::engine::{Forbid, Position, Refusal, Ruleset, UnitKind};
pub use words::PlayedUnit;
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
        }
    }
}

impl PlayedUnit<'_> {
    /// What the unit did, in words, one clause each (the gloss of `senet
    /// replay`): what the unit is, then what each construct that acted
    /// did, in this order.
    pub fn gloss(&self) -> Vec<String> {
        let u = self.unit;
        let mut out = Vec::new();
        match u.kind {
            UnitKind::Skip => squares::glossed_skip(self, &mut out),
            UnitKind::Pass => movement::glossed_pass(self, &mut out),
            UnitKind::NoThrow => lock::glossed_release(self, &mut out),
            UnitKind::Move if u.from == 0 => entry::glossed(self, &mut out),
            UnitKind::Move if u.to == 0 && !u.off => squares::glossed_stuck(self, &mut out),
            UnitKind::Move => match &u.split {
                Some(second) => movement::glossed_split(self, second, &mut out),
                None if u.off => bear_off::glossed(self, &mut out),
                None => movement::glossed_move(self, &mut out),
            },
        }
        squares::glossed_truncation(self, &mut out);
        movement::glossed_hit(self, &mut out);
        if !relocation::glossed(self, &mut out) {
            lock::glossed_water(self, &mut out);
        }
        relocation::glossed_queue(self, &mut out);
        squares::glossed_landing(self, &mut out);
        end::glossed(self, &mut out);
        end::glossed_turn(self, &mut out);
        out
    }
}
