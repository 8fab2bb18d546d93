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

pub mod auto_off;
pub mod bear_off;
pub mod blockade;
pub mod board;
pub mod end;
pub mod entry;
pub mod groups;
pub mod halfway;
pub mod lock;
pub mod movement;
pub mod opening;
pub mod protection;
pub mod relocation;
pub mod squares;
pub mod target_blockade;
pub mod throws;
pub mod words;

pub use bear_off::{BearOff, Reach};
pub use blockade::{Blockade, BlockadeKind};
pub use board::{Board, House};
pub use end::{EndRules, Goal, TurnRules};
pub use entry::Entry;
pub use halfway::HalfwayBlockade;
pub use lock::{Lock, LockDecl};
pub use movement::{Backward, Hit, Movement};
pub use opening::{Lapse, OpeningRule, Starter};
pub use protection::{Pred, Protection};
pub use relocation::{Landing, Relocation, WhenTaken};
pub use squares::{Leave, SquareRule};
pub use target_blockade::{Onto, TargetBlockade, TargetCase};
pub use throws::Throws;

use crate::engine::{Clause, Forbid, Position, Refusal, Ruleset, UnitKind};
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
            Forbid::Halfway => halfway::refused(&cx),
            Forbid::TargetBlockade(i) => target_blockade::refused(&cx, i),
            Forbid::Gate(_)
            | Forbid::Immobile
            | Forbid::Priority
            | Forbid::NoBackward
            | Forbid::NoForward
            | Forbid::MissedTurn => squares::refused(&cx),
            Forbid::BeyondEnd | Forbid::ExitThrow | Forbid::NotAllIn | Forbid::ArrivedThisTurn => {
                bear_off::refused(&cx)
            }
            Forbid::Opening => opening::refused(&cx),
            Forbid::StartingThrow => opening::refused_start(&cx),
            Forbid::Bound => entry::refused_bound(&cx),
            Forbid::Locked => lock::refused(&cx),
            Forbid::Released => lock::refused_released(&cx),
            Forbid::RelocationBlocked => relocation::refused(&cx),
            Forbid::HitSendsTaken => squares::refused_hit(&cx),
            Forbid::DropTaken(over) => squares::refused_drop(&cx, over),
            Forbid::BearOffDue => auto_off::refused(&cx),
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
            UnitKind::NoThrow if u.off => auto_off::glossed(self, &mut out),
            UnitKind::NoThrow => lock::glossed_release(self, &mut out),
            UnitKind::Move if u.from == 0 => entry::glossed(self, &mut out),
            UnitKind::Move if u.to == 0 && !u.off => squares::glossed_stuck(self, &mut out),
            UnitKind::Move if !u.off && self.rules.squares[u.from as usize].lock.is_some() => {
                lock::glossed_relocation(self, &mut out)
            }
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

// The clause a refusal cites: like its words, by the refusing construct.

impl Ruleset {
    /// The clause a refusal cites, from the rule file's provenance.
    pub fn clause_of(&self, refusal: &Refusal, pos: &Position) -> Clause {
        let sq = |s: u8| self.squares.get(s as usize);
        match refusal.forbid {
            Forbid::NoPiece => String::new(),
            Forbid::OwnPiece => self.movement.own_clause.clone(),
            Forbid::BackwardOntoPiece | Forbid::BeforeStart => {
                self.movement.backward_clause.clone()
            }
            Forbid::Protected => self.protection_clause(pos, refusal.to),
            Forbid::Blockade(i) => self.blockades[i as usize].clause.clone(),
            Forbid::TargetBlockade(i) => self.target_blockade_clause(i),
            Forbid::Halfway => self
                .halfway
                .as_ref()
                .map(|h| h.clause.clone())
                .unwrap_or_default(),
            Forbid::Gate(_) => self.movement.gate_clause.clone(),
            Forbid::Immobile => self.movement.immobile_clause.clone(),
            Forbid::BeyondEnd | Forbid::BearOffDue => self.bear_off.clause.clone(),
            Forbid::ExitThrow => sq(refusal.from)
                .map(|s| s.exit_clause.clone())
                .unwrap_or_default(),
            Forbid::NotAllIn => self.bear_off.all_in_clause.clone(),
            Forbid::ArrivedThisTurn => sq(refusal.from)
                .map(|s| s.exit_from_turn_start_clause.clone())
                .unwrap_or_default(),
            Forbid::Priority => self.movement.priority_clause.clone(),
            // A backward move while a forward one exists: the compulsory
            // forward move forbids it (B-8), or backward moves never happen.
            Forbid::Backward => {
                if self.movement.backward == Backward::Never
                    || !self.movement.compulsory_clause.is_empty()
                {
                    self.movement.compulsory_clause.clone()
                } else {
                    self.movement.backward_clause.clone()
                }
            }
            Forbid::Guard => self.movement.setup_guard_clause.clone(),
            Forbid::StartingThrow => self.movement.start_throw_clause.clone(),
            Forbid::Occupied => self.movement.swap_clause.clone(),
            Forbid::Direction => self.movement.one_direction_clause.clone(),
            Forbid::NoBackward => self.movement.no_backward_clause.clone(),
            Forbid::NoForward => self.movement.no_forward_clause.clone(),
            Forbid::Opening => self
                .opening
                .iter()
                .find(|o| o.side == pos.to_move)
                .map(|o| o.clause.clone())
                .unwrap_or_default(),
            // R-11's square, or the entry that bound the throw (PC-2).
            Forbid::Bound => sq(pos.bound.unwrap_or(0))
                .map(|s| s.bound_clause.clone())
                .filter(|c| !c.is_empty())
                .or_else(|| self.entry.as_ref().map(|e| e.clause.clone()))
                .unwrap_or_default(),
            Forbid::Locked | Forbid::Released => self
                .squares
                .iter()
                .find_map(|s| s.lock.as_ref().map(|l| l.clause.clone()))
                .unwrap_or_default(),
            Forbid::HitSendsTaken => sq(refusal.to)
                .map(|s| s.hit_clause.clone())
                .unwrap_or_default(),
            Forbid::DropTaken(over) => sq(over)
                .map(|s| s.overshoot_clause.clone())
                .unwrap_or_default(),
            Forbid::RelocationBlocked => sq(refusal.to)
                .and_then(|s| {
                    s.on_land
                        .as_ref()
                        .or(s.divert_when_taken.as_ref())
                        .map(|l| l.clause.clone())
                })
                .or_else(|| {
                    sq(refusal.from).and_then(|s| s.leave.as_ref().map(|l| l.to.clause.clone()))
                })
                .unwrap_or_default(),
            Forbid::MissedTurn => self
                .squares
                .iter()
                .find(|s| s.miss_turn)
                .map(|s| s.miss_clause.clone())
                .unwrap_or_default(),
        }
    }
}
