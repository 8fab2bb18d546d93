//! The compiled rule set: what the rules compiler hands to the engine.
//!
//! A [`Ruleset`] is plain data with precomputed tables and no spans. Every
//! square number in it comes from a rule file; the engine attaches meaning to
//! a square only through these tables. Each constraint carries the clause id
//! (`K-9a`) that the rule file cited for it, so that the engine can say which
//! rule forbids a move.

use super::constructs::{
    auto_off, bear_off, blockade, entry, groups, lock, movement, opening, protection, squares,
    target_blockade,
};
use super::play::{MarkSquares, PlainSquares};
use super::{
    BearOff, Blockade, Board, EndRules, Entry, HalfwayBlockade, House, Movement, OpeningRule,
    Protection, SquareRule, Starter, TargetBlockade, Throws, TurnRules,
};

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
    /// The blockade at half the throw (LJ-4), if declared.
    pub(crate) halfway: Option<HalfwayBlockade>,
    /// The blockade on forward moves by target, if declared.
    pub(crate) target_blockade: Option<TargetBlockade>,
    /// Per-square rules, indexed by square number (index 0 unused).
    pub(crate) squares: Vec<SquareRule>,
    /// Bearing off.
    pub(crate) bear_off: BearOff,
    /// Turn structure.
    pub(crate) turn: TurnRules,
    /// How a game ends and is scored.
    pub(crate) end: EndRules,
    /// The tables the generator's stages and plain play read, derived
    /// from the fields above when the rule file is compiled
    /// ([`Tables::compile`]). The fields are private so that they cannot
    /// change under it: only the rules compiler builds a rule set.
    pub(crate) tables: Tables,
}

/// Tables derived from a [`Ruleset`] when it is compiled, each by the
/// construct whose stage reads it: square sets (bit `s` = square `s`) and
/// flags that let a stage cost one test in the rule sets without its
/// construct. A default value has `enabled == false`: every move then goes
/// through `attempt` and every unit through the general `play` (the
/// referee of the tables in the engine's tests).
///
/// The tables are derived data: they take no part in comparing rule sets
/// (`PartialEq` is always true, so two rule sets are equal when their rules
/// are) and print as `Tables { enabled }` only.
#[derive(Clone, Default)]
pub(crate) struct Tables {
    /// The tables were compiled (always, for a compiled rule set).
    pub enabled: bool,
    /// Which units the rule set plays by `play_plain` (`plays_plainly`),
    /// as square sets: none where the game holds an extra throw or a
    /// bear-off earns one, which only the general `play` knows, nor
    /// without tables.
    pub plain: PlainSquares,
    /// The plain units of the rule set (those `plain` lets
    /// `play_plain` play) change only the pieces, the squares reached this
    /// turn, the pieces borne off, the starting throw's wait and the turn:
    /// no square makes its owner miss
    /// a turn or binds a throw to its piece, no move is
    /// truncated, no hit piece goes to the lowest empty square (JQ-6), a
    /// last bear-off never draws (LJ-9) and a turn's moves may go both
    /// ways (PC-4), and no landing in the region of a bear-off without a
    /// throw (`plain_home`). (Like every plain play, it also clears a
    /// bound throw and sets whether the turn goes on.) `play_plain` then
    /// runs without the tests of these.
    pub plain_bare: bool,
    /// The plain units are bare but for the landings in the region of a
    /// bear-off without a throw (MC-8), which may make it due: they play
    /// plainly by the bare copy that sees to the due, inlined like the
    /// others (a landing relocated to a square stays out of line) (`macabot`: out
    /// of line, as they were, about a third of its units paid for the
    /// call, and the test that sent them there was mispredicted).
    /// `plain_bare` is then false, so that the bare rule sets' copy
    /// holds no test of the due.
    pub plain_home: bool,
    /// The per-throw square sets of stages 6 and 11 (`constructs/movement.rs`).
    pub steps: movement::Steps,
    /// The protection rule's masks (`constructs/protection.rs`).
    pub protection: protection::Masks,
    /// A single blockade of consecutive pieces as masks
    /// (`constructs/blockade.rs`).
    pub blockade: blockade::BlockadeRuns,
    /// The lock squares (`constructs/lock.rs`).
    pub lock: lock::LockSquares,
    /// The grid neighbours of the board's squares, for groups
    /// (`constructs/groups.rs`).
    pub grid: groups::Grid,
    /// The protection by groups and the group blockade asked together
    /// (`macabot`; `constructs/groups.rs`).
    pub grouped: Option<groups::GroupedSteps>,
    /// The blockade on forward moves by target, as masks
    /// (`constructs/target_blockade.rs`).
    pub target: target_blockade::Masks,
    /// What landing on a square does (`constructs/squares.rs`).
    pub squares: squares::Landings,
    /// The squares a bear-off is sure from (`constructs/bear_off.rs`).
    pub bear_off: bear_off::BearOffSquares,
    /// The opening's stages may apply (`constructs/opening.rs`).
    pub opening: bool,
    /// Stage 9 runs: entries from the hand or split throws
    /// (`constructs/entry.rs`).
    pub hand_stage: bool,
    /// The rule set has none of the setup guard, blockades (including
    /// one on forward moves by target with masks), the blockade at half
    /// the throw, a bear-off region, priority squares, the hand's
    /// stage and the last piece's move: its calm positions are generated
    /// by a copy of stages 6 to 12 without their tests (`move_stages`).
    pub plain_shape: bool,
    /// The rule set asks the protection and the blockade together
    /// (`grouped`, `macabot`) and has none of the setup guard, the
    /// blockade at half the throw, a bear-off region, priority squares,
    /// the hand's stage and the last piece's move: its calm positions
    /// are generated by a copy of stages 6 to 12 of their own, with that
    /// one look at the opposing groups inlined and without the tests of
    /// the constructs it lacks (`move_stages`), chosen once per rule set
    /// as the plain shape's is. (Inlined into the general copy, which
    /// the other blocking rule sets run, it cost them 1 to 2.5 % of
    /// their instructions.)
    pub grouped_shape: bool,
    /// No stage after the forward one adds a unit to a calm position's
    /// ordinary steps but a voluntary pass (T-10): no hand's stage
    /// (entries, split throws) and no pass beside entering only. (A pass beside bearing off only, KD-6, is never beside an
    /// ordinary step.) Where the forward stage then gives ordinary steps
    /// only, they are the whole list, followed by the pass where
    /// `pass_beside_steps` (but for priority squares, which
    /// `Ruleset::forward_stage` tests): a playout may count them rather
    /// than write them.
    pub steps_alone: bool,
    /// The hand's stage has split throws whose units the square sets may
    /// decide (`Steps::split_masks`), and no stage after the forward one
    /// adds a unit to a calm position's ordinary steps or removes one but
    /// an entry from the hand, the split units and a voluntary pass (no
    /// priority squares, no last piece's move; a diverted move, backward
    /// moves and the other passes come only where no move is listed).
    /// Where the forward stage gives ordinary steps only and the split
    /// units are counted (`Ruleset::split_count`,
    /// `Ruleset::any_split_count`), the steps are counted beside them: a
    /// playout writes neither (`Listed::Splits`).
    pub steps_beside_splits: bool,
    /// A voluntary pass (T-10) follows the ordinary steps of a calm
    /// position (`steps_alone`).
    pub pass_beside_steps: bool,
    /// The sure bear-offs of a calm position may be counted beside its
    /// ordinary steps (`steps_alone`, and some square's bear-off is sure,
    /// `BearOffSquares::sure`): `Ruleset::forward_stage` looks for them
    /// only then.
    pub count_offs: bool,
    /// Squares whose piece may take the position out of the calm state:
    /// the lock squares and the square of a bear-off without a throw
    /// (`constructs/auto_off.rs`).
    pub held: u64,
    /// Squares whose piece may have a unit without a throw: a lock's
    /// release, or a bear-off without a throw.
    pub free_from: u64,
    /// A bear-off without a throw as masks, for the positions with a piece
    /// on its square: whether it may be due (`constructs/auto_off.rs`).
    pub auto_off: auto_off::AutoOffSquares,
    /// Whether a move gives another throw also by what it does, not only
    /// by its throw and its stage: a landing or bear-off that gives one or
    /// binds one, the extra throw the game holds, a return to the hand
    /// (`Ruleset::gives_another_throw`). The generator then marks its
    /// moves by that; other rule sets pay one test per throw.
    pub move_marks: bool,
    /// What a move's parts give by their squares, for those marks
    /// (`play.rs`).
    pub marks: MarkSquares,
}

impl Tables {
    /// Every construct's tables, from the finished rule set: the one place
    /// they are compiled.
    pub(crate) fn compile(rules: &Ruleset) -> Tables {
        let lock = lock::LockSquares::compile(&rules.squares[..=rules.board.len as usize]);
        let auto_off = auto_off::AutoOffSquares::compile(rules.bear_off.reach);
        // The blockade on forward moves by target clears ordinary steps by
        // its masks, where it has them: the steps are compiled knowing
        // whether it does.
        let mut target = target_blockade::Masks::compile(rules);
        let steps = movement::Steps::compile(rules, target.tabled);
        let hand_stage = entry::hand_stage(rules);
        // (The forward stage also clears the steps the blockade on forward
        // moves by target blocks, where it has masks.)
        let steps_blocks = steps.blocks;
        let steps_alone = !hand_stage && !rules.movement.pass_beside_entry;
        let steps_beside_splits = (rules.movement.split || rules.movement.split_any)
            && steps.split_masks
            && rules.movement.priority.0 == 0
            && rules.movement.last_piece.is_none();
        let squares = squares::Landings::compile(rules);
        let bear_off = bear_off::BearOffSquares::compile(rules);
        let protection = protection::Masks::compile(&rules.protection);
        target.share_protection(&protection);
        let grid = groups::Grid::compile(rules.board);
        let grouped = groups::GroupedSteps::compile(rules, &protection, &grid, target.tabled);
        let bare = squares.miss_squares == 0
            && squares.bound_squares == 0
            && rules.movement.truncate_at.0 == 0
            && !steps.hit_lowest
            && !rules.end.draw_on_extra
            && !rules.movement.one_direction;
        let plain_home = bare && squares.land_home != 0;
        Tables {
            enabled: true,
            // (A piece that leaves a square for another, `stay, moving
            // with`, moves forward whatever square it reaches, a lower one
            // among them: the general `play` tells it from a backward move.
            // `PlainSquares::from` leaves out those squares; the rule
            // set's other units may play plainly.)
            plain: PlainSquares::compile(
                rules,
                !rules.turn.held_extra && !rules.squares.iter().any(|sq| sq.off_extra),
                &squares,
                &steps,
                &lock,
                plain_home,
            ),
            plain_bare: bare && !plain_home,
            plain_home,
            blockade: blockade::BlockadeRuns::compile(&rules.blockades, steps.throws),
            steps,
            protection,
            grid,
            grouped,
            target,
            squares,
            count_offs: steps_alone && bear_off.sure != 0,
            bear_off,
            opening: opening::has_stages(rules),
            hand_stage,
            plain_shape: !rules.movement.setup_guard
                && rules.blockades.is_empty()
                && !steps_blocks
                && rules.halfway.is_none()
                && rules.bear_off.all_in.is_none()
                && rules.movement.priority.0 == 0
                && !hand_stage
                && rules.movement.last_piece.is_none(),
            grouped_shape: grouped.is_some()
                && !rules.movement.setup_guard
                && rules.halfway.is_none()
                && rules.bear_off.all_in.is_none()
                && rules.movement.priority.0 == 0
                && !hand_stage
                && !steps_beside_splits
                && rules.movement.last_piece.is_none(),
            steps_alone,
            steps_beside_splits,
            pass_beside_steps: rules.movement.voluntary_pass,
            held: lock.squares | auto_off.from,
            free_from: lock.releases | auto_off.from,
            auto_off,
            move_marks: rules.entry.as_ref().is_some_and(|e| e.bound_extra)
                || rules.turn.held_extra
                || rules
                    .squares
                    .iter()
                    .any(|sq| sq.bound_extra || sq.extra_throw || sq.off_extra || sq.stuck_to_hand),
            marks: MarkSquares::compile(rules),
            lock,
        }
    }
}

impl PartialEq for Tables {
    fn eq(&self, _: &Tables) -> bool {
        true
    }
}

impl std::fmt::Debug for Tables {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Tables")
            .field("enabled", &self.enabled)
            .finish_non_exhaustive()
    }
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

    /// The blockade at half the throw (LJ-4), if declared.
    pub fn halfway(&self) -> Option<&HalfwayBlockade> {
        self.halfway.as_ref()
    }
    /// The blockade on forward moves by target, if declared.
    pub fn target_blockade(&self) -> Option<&TargetBlockade> {
        self.target_blockade.as_ref()
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
