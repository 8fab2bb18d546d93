//! Simulation: computer players over the engine, seeded throws, statistics.
//!
//! Chance is an input: every game draws its throws from its own generator,
//! seeded from the run's seed and the game's index, so a game is the same
//! whatever the number of threads and whichever thread plays it. The
//! generator is named in each record (`ThrowSource "rng:pcg64:<seed>"`).
//!
//! Stage: `Ruleset` → played games (units, outcome, events) → records and
//! statistics for the CLI.

use crate::engine::{Effects, Position, Ruleset, Side, Starter, Unit};
use rand::RngCore;
use rand_pcg::Pcg64;
use serde::Serialize;

/// The name of the throw generator as written in `ThrowSource`.
pub const RNG_NAME: &str = "pcg64";

/// A computer player. The command line reads it with [`std::str::FromStr`],
/// so that the library does not need clap.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Player {
    /// Uniform among the legal units of the throw.
    Random,
    /// Takes the unit that most improves a simple race count.
    Greedy,
    /// Takes the best unit by the evaluator, searching this many throws
    /// (`crate::analysis::Settings::for_player`).
    Expectimax(u8),
}

impl Player {
    /// The name as written on the command line and in records:
    /// `random`, `greedy`, `expectimax:2`.
    pub fn name(&self) -> String {
        match self {
            Player::Random => "random".into(),
            Player::Greedy => "greedy".into(),
            Player::Expectimax(d) => format!("expectimax:{d}"),
        }
    }
}

impl std::str::FromStr for Player {
    type Err = String;
    /// `random`, `greedy`, `expectimax` (depth 1) or `expectimax:DEPTH`.
    fn from_str(s: &str) -> Result<Player, String> {
        match s.split_once(':') {
            None if s == "random" => Ok(Player::Random),
            None if s == "greedy" => Ok(Player::Greedy),
            None if s == "expectimax" => Ok(Player::Expectimax(1)),
            Some(("expectimax", d)) => match d.parse::<u8>() {
                Ok(d @ 1..=4) => Ok(Player::Expectimax(d)),
                _ => Err(format!("`{s}`: the depth of expectimax is 1 to 4")),
            },
            _ => Err(format!(
                "`{s}`: the players are random, greedy and expectimax[:DEPTH]"
            )),
        }
    }
}

/// The throw generator of one game: PCG-XSL-RR 128/64 (`rand_pcg::Pcg64`),
/// state and stream derived from the game seed with SplitMix64, so the
/// stream is fixed by this code, not by a library's seeding helper.
pub fn game_rng(game_seed: u64) -> Pcg64 {
    let a = splitmix64(game_seed);
    let b = splitmix64(a);
    let c = splitmix64(b);
    let d = splitmix64(c);
    Pcg64::new(
        ((a as u128) << 64) | b as u128,
        ((c as u128) << 64) | d as u128,
    )
}

/// The seed of game `index` (0-based) of a run seeded with `seed`.
pub fn game_seed(seed: u64, index: u64) -> u64 {
    splitmix64(seed ^ splitmix64(index.wrapping_add(0x5EE7)))
}

fn splitmix64(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// One throw: each stick shows its marked side with probability 1/2, or
/// each face of a die comes up equally often.
pub fn throw_sticks(rules: &Ruleset, rng: &mut impl RngCore) -> u8 {
    rules.throws.from_bits(rng.next_u32())
}

/// The throw of each pattern of up to eight sticks, so that a playout
/// looks its throws up instead of counting bits: [`Throws::from_bits`]
/// reads only the low `sticks` bits, and without the `popcnt` instruction
/// (not in the baseline x86-64 a distributed binary targets) counting them
/// is a dozen instructions.
///
/// Public so that a playout loop written over the engine (the throughput
/// bench) throws exactly as the simulator does.
///
/// [`Throws::from_bits`]: crate::engine::Throws::from_bits
pub struct ThrowTable {
    /// `Some(mask)`: the throw is `values[bits & mask]`; `None` (a die, or
    /// more than eight sticks): ask `from_bits`. A byte, so that the
    /// index is below 256 by its type and the lookup needs no bounds
    /// check.
    mask: Option<u8>,
    values: [u8; 256],
}

impl ThrowTable {
    pub fn new(rules: &Ruleset) -> ThrowTable {
        let t = rules.throws();
        let mut values = [0u8; 256];
        if t.die || t.sticks > 8 {
            return ThrowTable { mask: None, values };
        }
        let mask = ((1u32 << t.sticks) - 1) as u8;
        for bits in 0..=mask {
            values[usize::from(bits)] = t.from_bits(u32::from(bits));
        }
        ThrowTable {
            mask: Some(mask),
            values,
        }
    }

    /// The same value as [`throw_sticks`] for the same draw.
    #[inline(always)]
    pub fn throw(&self, rules: &Ruleset, draws: &mut Draws) -> u8 {
        let bits = draws.rng.next_u32();
        match self.mask {
            Some(mask) => self.values[usize::from(bits as u8 & mask)],
            None => rules.throws.from_bits(bits),
        }
    }
}

/// A game's draws from its generator, made exactly as `rand` 0.9 makes
/// `random::<bool>()` and `random_range(0..n)` (so every published seed
/// keeps its games), written out so that nothing but the generator step
/// and a multiplication is left on the playout's path. Public so that a
/// playout loop written over the engine (the throughput bench) plays the
/// simulator's games.
pub struct Draws {
    rng: Pcg64,
}

impl Draws {
    /// The draws of the game seeded with `game_seed` ([`game_seed`]).
    pub fn new(game_seed: u64) -> Draws {
        Draws {
            rng: game_rng(game_seed),
        }
    }

    /// Even odds: the top bit of a 32-bit draw.
    #[inline(always)]
    pub fn coin(&mut self) -> bool {
        (self.rng.next_u32() as i32) < 0
    }

    /// An index below `n` (`0 < n < 2^32`), every index equally likely but
    /// for a bias below 2^-32: the high word of a 32 × 32-bit product, and,
    /// only when the low word says the result may be one too low, a second
    /// draw to settle it (Canon's method, as in `rand`).
    #[inline(always)]
    pub fn index(&mut self, n: usize) -> usize {
        debug_assert!(n > 0 && n <= u32::MAX as usize);
        let range = n as u32;
        let m = u64::from(self.rng.next_u32()) * u64::from(range);
        let (mut hi, lo) = ((m >> 32) as u32, m as u32);
        if lo > range.wrapping_neg() {
            let next = ((u64::from(self.rng.next_u32()) * u64::from(range)) >> 32) as u32;
            hi += lo.checked_add(next).is_none() as u32;
        }
        hi as usize
    }
}

/// Events counted per game for `--stats`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize)]
pub struct Events {
    pub swap: u32,
    pub water: u32,
    pub bear_off: u32,
    pub pass: u32,
    pub skip: u32,
    pub backward: u32,
    pub truncation: u32,
    pub queue_join: u32,
}

impl Events {
    #[inline(always)]
    fn add(&mut self, fx: &Effects) {
        self.swap += fx.swap as u32;
        self.water += fx.water as u32;
        self.bear_off += fx.bear_off as u32;
        self.pass += fx.pass as u32;
        self.skip += fx.skip as u32;
        self.backward += fx.backward as u32;
        self.truncation += fx.truncation as u32;
        self.queue_join += fx.queue_join as u32;
    }
}

/// A played game.
#[derive(Debug, Clone)]
pub struct Played {
    pub seed: u64,
    pub first: Side,
    /// Each unit with the side that played it and the turn number.
    pub units: Vec<(Side, u32, Unit)>,
    pub winner: Option<Side>,
    /// The game ended (a win or a draw) before the unit cap.
    pub finished: bool,
    pub score: Option<(Side, u32)>,
    pub turns: u32,
    /// Units played (also when `units` was not kept).
    pub unit_count: u32,
    pub events: Events,
    pub final_position: Position,
}

/// Plays one game from the standard setup.
pub fn play_game(
    rules: &Ruleset,
    players: [Player; 2],
    game_seed: u64,
    max_units: usize,
    keep_units: bool,
) -> Played {
    let throws = ThrowTable::new(rules);
    play_one(rules, &throws, players, game_seed, max_units, keep_units)
}

/// [`play_game`] with the run's throw table.
fn play_one(
    rules: &Ruleset,
    throws: &ThrowTable,
    players: [Player; 2],
    game_seed: u64,
    max_units: usize,
    keep_units: bool,
) -> Played {
    // The loop is compiled once per shape of rule set, each with the one
    // copy of the generator that shape needs: two copies in one loop cost
    // the other rule sets registers (15 to 17 instructions per unit). The
    // same for the two copies of the plain play (about 7).
    // And once more for games of random players only (`RANDOM`), whose
    // loop holds no other player's code (about 15 instructions per unit
    // on the plain shape's rule sets). The grouped shape (`macabot`) has
    // a copy of its own, as the plain shape has.
    let random = players.iter().all(|&p| p == Player::Random);
    let shape = (rules.plain_shape(), rules.grouped_shape());
    let play = match (shape, rules.plain_bare(), random) {
        ((true, _), true, true) => play_one_fast::<true, false, true, true>,
        ((true, _), false, true) => play_one_fast::<true, false, false, true>,
        ((false, true), true, true) => play_one_fast::<false, true, true, true>,
        ((false, true), false, true) => play_one_fast::<false, true, false, true>,
        ((false, false), true, true) => play_one_fast::<false, false, true, true>,
        ((false, false), false, true) => play_one_fast::<false, false, false, true>,
        ((true, _), true, false) => play_one_fast::<true, false, true, false>,
        ((true, _), false, false) => play_one_fast::<true, false, false, false>,
        ((false, true), true, false) => play_one_fast::<false, true, true, false>,
        ((false, true), false, false) => play_one_fast::<false, true, false, false>,
        ((false, false), true, false) => play_one_fast::<false, false, true, false>,
        ((false, false), false, false) => play_one_fast::<false, false, false, false>,
    };
    play(rules, throws, players, game_seed, max_units, keep_units)
}

/// [`play_one_shaped`] in the copy compiled with the CPU's bit
/// instructions where it has them (`engine::with_bit_instructions`).
fn play_one_fast<const PLAIN: bool, const GROUPED: bool, const BARE: bool, const RANDOM: bool>(
    rules: &Ruleset,
    throws: &ThrowTable,
    players: [Player; 2],
    game_seed: u64,
    max_units: usize,
    keep_units: bool,
) -> Played {
    crate::engine::with_bit_instructions(
        #[inline(always)]
        || {
            play_one_shaped::<PLAIN, GROUPED, BARE, RANDOM>(
                rules, throws, players, game_seed, max_units, keep_units,
            )
        },
    )
}

/// [`play_one`] for rule sets of the plain shape (`PLAIN`), of the
/// grouped shape (`GROUPED`) or any other (`Ruleset::pick_known`),
/// whose plain units are bare (`BARE`, `Tables::plain_bare`) or not, in games
/// of random players only (`RANDOM`) or not.
#[inline(always)]
fn play_one_shaped<const PLAIN: bool, const GROUPED: bool, const BARE: bool, const RANDOM: bool>(
    rules: &Ruleset,
    throws: &ThrowTable,
    players: [Player; 2],
    game_seed: u64,
    max_units: usize,
    keep_units: bool,
) -> Played {
    let mut draws = Draws::new(game_seed);
    let first = match &rules.starter {
        Starter::Fixed(side, _) => *side,
        Starter::ByLot(_) => {
            if draws.coin() {
                Side::White
            } else {
                Side::Black
            }
        }
    };
    let mut pos = Position::start(rules, first);
    let mut evaluators = players.map(|p| match p {
        Player::Expectimax(depth) => Some(crate::analysis::Evaluator::new(
            rules,
            crate::analysis::Settings::for_player(depth, game_seed),
        )),
        _ => None,
    });
    let mut buf: Vec<Unit> = Vec::with_capacity(16);
    let mut units = Vec::new();
    let mut events = Events::default();
    let mut count = 0usize;
    // A game ends only when a side has no piece on the board (and none in
    // hand or in the queue): that test, one comparison per side, spares
    // the full one (which counts pieces) on every other unit.
    // A turn limit (LK-19) ends a game with pieces on the board, from the
    // turn `turn_limit_from` on.
    let limit_from = rules.turn_limit_from();
    let over = |pos: &Position| {
        ((pos.pieces[0].0 == 0) | (pos.pieces[1].0 == 0) | (pos.turn >= limit_from))
            && rules.game_over(pos)
    };
    while count < max_units && !over(&pos) {
        let side = pos.to_move;
        let player = players[side.index()];
        // The unit is played where the engine wrote it, by reference: the
        // engine writes a unit field by field, and copying it out whole
        // right after stalls the CPU on the store-to-load forward.
        // The random player plays one unit without looking at the others
        // (`draw_unit`); the others choose among the units listed.
        let random = RANDOM || player == Player::Random;
        let drawn =
            draw_unit::<PLAIN, GROUPED>(rules, throws, &mut draws, &pos, random, &mut buf, |buf| {
                match player {
                    Player::Random => unreachable!("the random player draws its unit"),
                    Player::Greedy => greedy(rules, &pos, buf),
                    Player::Expectimax(_) => evaluators[side.index()]
                        .as_mut()
                        .expect("made above for this player")
                        .best_index(&pos, buf),
                }
            });
        let Some(unit) = drawn else {
            // No unit at all for this throw (cannot happen from the
            // standard setup: an opening's throw is taken from the rules).
            break;
        };
        let turn = pos.turn;
        // What the unit did is counted where `apply` makes it, with no
        // `Effects` returned through memory. (Not the turns ended: those
        // are counted once, from the last position: see `turns`
        // below.)
        let played = rules.apply_tallied::<BARE>(&mut pos, unit, |fx| events.add(fx));
        if played.is_err() {
            break;
        }
        if keep_units {
            units.push((side, turn, *unit));
        }
        count += 1;
    }
    Played {
        seed: game_seed,
        first,
        units,
        winner: rules.winner(&pos),
        finished: rules.game_over(&pos),
        score: rules.score(&pos),
        // Every unit that ends a turn passes it to the other side
        // (`Position::end_turn_if`, the only place either changes), so the
        // turns ended are the turns played the last position counts.
        // Counted once per game rather than per unit from
        // `Effects::turn_ended`: the driver's loop that added the latter
        // branched on whether the turn ended (the throw's extra mark),
        // which follows the throws, where the bench loop's play does not.
        turns: rules.turns_played(&pos),
        unit_count: count as u32,
        events,
        final_position: pos,
    }
}

/// The unit the random player plays in `pos`, drawn from `draws` as the
/// simulator's driver draws it (`senet simulate` with the random player):
/// a unit due without a choice (`skip`, a bear-off without a throw) is
/// played; a unit due without a throw (a release, B-12) is played on a
/// coin's head, one drawn among them; else the throw is drawn (or the
/// opening's fixed one taken) and a unit drawn uniformly among those
/// [`Ruleset::legal_units`] would list, with its `+`. `None` when there
/// is none (which cannot happen from the standard setup). The unit is
/// written into `buf`, perhaps with others.
///
/// The unit is drawn as [`Ruleset::pick_unit`] draws it, by the same
/// code: where a calm position's units can be counted, only the one
/// drawn is written. Public so that a
/// playout loop written over the engine (the throughput bench) plays the
/// simulator's games by the same code.
#[inline(always)]
pub fn random_unit<'a>(
    rules: &Ruleset,
    throws: &ThrowTable,
    draws: &mut Draws,
    pos: &Position,
    buf: &'a mut Vec<Unit>,
) -> Option<&'a Unit> {
    let chosen = |_: &mut [Unit]| -> usize { unreachable!("the random player draws its unit") };
    if rules.plain_shape() {
        draw_unit::<true, false>(rules, throws, draws, pos, true, buf, chosen)
    } else if rules.grouped_shape() {
        draw_unit::<false, true>(rules, throws, draws, pos, true, buf, chosen)
    } else {
        draw_unit::<false, false>(rules, throws, draws, pos, true, buf, chosen)
    }
}

/// The unit a player plays in `pos`: with `random`, the random player's
/// ([`random_unit`]); else the one `choose` picks among the units listed
/// for the drawn throw (their `+` complete), its index returned. The units
/// due without a throw are drawn as the random player draws them, for
/// every player. `PLAIN` and `GROUPED` as in `Ruleset::pick_known`.
///
/// A calm position in a rule set with tables (`Ruleset::calm_and_free`,
/// most positions) has no unit due without a throw and no opening's
/// throw: one test decides the three, and the stages are told the answer.
#[inline(always)]
fn draw_unit<'a, const PLAIN: bool, const GROUPED: bool>(
    rules: &Ruleset,
    throws: &ThrowTable,
    draws: &mut Draws,
    pos: &Position,
    random: bool,
    buf: &'a mut Vec<Unit>,
    choose: impl FnOnce(&mut [Unit]) -> usize,
) -> Option<&'a Unit> {
    let (throw, calm) = if rules.calm_and_free(pos) {
        debug_assert_throw_due(rules, pos);
        (throws.throw(rules, draws), true)
    } else if rules.calm_waiting(pos) {
        // A piece waiting for a bear-off without a throw that cannot be
        // due (`macabot`): no rule state, no unit due, no opening's throw.
        // (A branch of its own: joined to the first test with `||`, the
        // driver read 0.98 on `macabot`, timed.)
        debug_assert_throw_due(rules, pos);
        (throws.throw(rules, draws), true)
    } else {
        rules.free_units(pos, buf);
        if crate::engine::constructs::auto_off::due_without_choice(buf) {
            return Some(&buf[0]);
        }
        if !buf.is_empty() && draws.coin() {
            // A choice between a no-throw unit and throwing (B-12): even odds.
            let i = draws.index(buf.len());
            return Some(&buf[i]);
        }
        let throw = match rules.opening_throw(pos) {
            Some(t) => t,
            None => throws.throw(rules, draws),
        };
        (throw, rules.calm_but_untabled(pos))
    };
    // Inlined here, as a playout loop written over the engine would have
    // it, once for every player (two copies of the generator in a loop
    // cost registers and code). The random player plays one unit drawn
    // without looking at the others (`Ruleset::pick_unit`'s way); the
    // others choose among the units listed.
    rules.pick_known::<PLAIN, GROUPED>(pos, throw, calm, random, buf, |n| draws.index(n), choose)
}

/// The debug check of `draw_unit`'s two quick tests: a position either
/// takes as calm has no unit due without a throw and no opening's throw.
fn debug_assert_throw_due(rules: &Ruleset, pos: &Position) {
    debug_assert!(rules.opening_throw(pos).is_none(), "an opening's throw");
    debug_assert!(
        {
            let mut free = Vec::new();
            rules.free_units(pos, &mut free);
            free.is_empty()
        },
        "a unit due without a throw"
    );
}

/// A race count: how far the side's pieces have come, minus the opponent's.
fn race(rules: &Ruleset, pos: &Position, side: Side) -> i32 {
    let off = rules.board.off() as i32;
    let mut total = 0i32;
    for (s, sign) in [(side, 1), (side.other(), -1)] {
        let on_board: i32 = pos.pieces[s.index()].iter().map(|q| q as i32).sum();
        total += sign * (on_board + pos.off[s.index()] as i32 * off);
    }
    total
}

/// The index of the unit that most improves the race count (the first
/// such unit on a tie); `units` is not empty. Also the rollout policy of
/// the evaluator.
pub fn greedy(rules: &Ruleset, pos: &Position, units: &[Unit]) -> usize {
    let side = pos.to_move;
    let mut best = 0;
    let mut best_score = i32::MIN;
    for (i, u) in units.iter().enumerate() {
        if let Ok((next, _)) = rules.play(pos, u) {
            let s = race(rules, &next, side);
            if s > best_score {
                best_score = s;
                best = i;
            }
        }
    }
    best
}

/// Summary statistics of a run, with exactly the key names of `--stats`.
#[derive(Debug, Clone, Serialize)]
pub struct Stats {
    pub games: u64,
    pub unfinished: u64,
    /// Finished games with no winner (BL-7).
    pub draws: u64,
    pub units_mean: f64,
    pub units_median: f64,
    pub turns_mean: f64,
    /// White's share of the decided games (won by either side), with its
    /// 95% interval: draws and unfinished games count for neither side.
    pub white_win_rate: WinRate,
    pub events_per_game: EventsMean,
}

/// A win rate with its 95% Wilson score interval.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct WinRate {
    pub rate: f64,
    pub low: f64,
    pub high: f64,
}

/// Mean events per game.
#[derive(Debug, Clone, Serialize)]
pub struct EventsMean {
    pub swap: f64,
    pub water: f64,
    pub bear_off: f64,
    pub pass: f64,
    pub skip: f64,
    pub backward: f64,
    pub truncation: f64,
    pub queue_join: f64,
}

/// One game's figures for [`Stats`].
#[derive(Debug, Clone, Copy)]
pub struct GameFigures {
    pub units: u32,
    /// The game reached its end (a win or a draw), not the unit cap.
    pub finished: bool,
    pub turns: u32,
    pub winner: Option<Side>,
    pub events: Events,
}

impl Stats {
    pub fn from_games(games: &[GameFigures]) -> Stats {
        let n = games.len() as f64;
        let mean = |f: &dyn Fn(&GameFigures) -> f64| {
            if games.is_empty() {
                0.0
            } else {
                games.iter().map(f).sum::<f64>() / n
            }
        };
        let mut units: Vec<u32> = games.iter().map(|g| g.units).collect();
        units.sort_unstable();
        let median = match units.len() {
            0 => 0.0,
            l if l % 2 == 1 => units[l / 2] as f64,
            l => (units[l / 2 - 1] as f64 + units[l / 2] as f64) / 2.0,
        };
        // The win rate counts decided games: draws and unfinished games
        // have no winner and count for neither side.
        let decided = games.iter().filter(|g| g.winner.is_some()).count() as f64;
        let white = games
            .iter()
            .filter(|g| g.winner == Some(Side::White))
            .count() as f64;
        let rate = if decided > 0.0 { white / decided } else { 0.0 };
        Stats {
            games: games.len() as u64,
            unfinished: games.iter().filter(|g| !g.finished).count() as u64,
            draws: games
                .iter()
                .filter(|g| g.finished && g.winner.is_none())
                .count() as u64,
            units_mean: mean(&|g| g.units as f64),
            units_median: median,
            turns_mean: mean(&|g| g.turns as f64),
            white_win_rate: {
                let [low, high] = wilson(white, decided);
                WinRate { rate, low, high }
            },
            events_per_game: EventsMean {
                swap: mean(&|g| g.events.swap as f64),
                water: mean(&|g| g.events.water as f64),
                bear_off: mean(&|g| g.events.bear_off as f64),
                pass: mean(&|g| g.events.pass as f64),
                skip: mean(&|g| g.events.skip as f64),
                backward: mean(&|g| g.events.backward as f64),
                truncation: mean(&|g| g.events.truncation as f64),
                queue_join: mean(&|g| g.events.queue_join as f64),
            },
        }
    }
}

/// The 95% Wilson score interval for `k` successes in `n` trials.
pub fn wilson(k: f64, n: f64) -> [f64; 2] {
    if n == 0.0 {
        return [0.0, 1.0];
    }
    let z = 1.959_964f64;
    let p = k / n;
    let denom = 1.0 + z * z / n;
    let centre = (p + z * z / (2.0 * n)) / denom;
    let half = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt() / denom;
    [(centre - half).max(0.0), (centre + half).min(1.0)]
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::Rng;

    /// The copy of the playout loop compiled with the CPU's bit
    /// instructions plays the very games of the copy built for the
    /// baseline, in every built-in rule set, for the random and the greedy
    /// player; and the loop for games of random players only plays the
    /// games of the loop for any players. (On a CPU without the instructions both calls take the
    /// baseline copy, and the test says so.)
    #[test]
    fn both_copies_of_the_loop_play_the_same_games() {
        if !crate::engine::bit_instructions_in_use() {
            eprintln!("this CPU lacks the bit instructions: one copy compared with itself");
        }
        let (mut games, mut units) = (0, 0);
        for name in crate::rules::builtin_names() {
            let rules = crate::rules::load(name, None, &[]).expect("built-in compiles");
            let throws = ThrowTable::new(&rules);
            for players in [
                [Player::Random, Player::Random],
                [Player::Greedy, Player::Random],
            ] {
                for g in 0..12 {
                    let seed = game_seed(5, g);
                    let (max, keep) = (3000, true);
                    let fast = play_one(&rules, &throws, players, seed, max, keep);
                    // Called here, outside `with_bit_instructions`: the
                    // copy built for the baseline, and the one for any
                    // players (`play_one` takes the one for random players
                    // only where both are random), and for a rule set of
                    // the grouped shape the general copy of the stages
                    // (`play_one` takes the grouped shape's).
                    let base = match (rules.plain_shape(), rules.plain_bare()) {
                        (true, true) => play_one_shaped::<true, false, true, false>,
                        (true, false) => play_one_shaped::<true, false, false, false>,
                        (false, true) => play_one_shaped::<false, false, true, false>,
                        (false, false) => play_one_shaped::<false, false, false, false>,
                    }(&rules, &throws, players, seed, max, keep);
                    assert_eq!(format!("{fast:?}"), format!("{base:?}"), "{name} game {g}");
                    games += 1;
                    units += fast.unit_count;
                }
            }
        }
        assert!(
            games >= 18 * 24 && units > 100_000,
            "{games} games, {units} units"
        );
    }

    /// The turns a game's record counts, taken from its last position
    /// (`Ruleset::turns_played`), are the units whose play ended a turn, in every
    /// built-in rule set (among them rule sets where Black starts and
    /// where the first side is drawn).
    #[test]
    fn turns_ended_counts_the_units_that_end_a_turn() {
        for name in crate::rules::builtin_names() {
            let rules = crate::rules::load(name, None, &[]).expect("built-in compiles");
            for g in 0..12 {
                let played = play_game(&rules, [Player::Random; 2], game_seed(9, g), 3000, true);
                let mut pos = Position::start(&rules, played.first);
                let mut ended = 0;
                for (_, _, unit) in &played.units {
                    ended += rules.apply(&mut pos, unit).expect("played").turn_ended as u32;
                }
                assert_eq!(pos, played.final_position, "{name} game {g}");
                assert_eq!(played.turns, ended, "{name} game {g}");
            }
        }
    }

    #[test]
    fn seeds_are_fixed_by_this_code() {
        // These values pin the generator: a change here breaks every
        // published seed, so it must never happen silently.
        let mut rng = game_rng(game_seed(1, 0));
        let first: Vec<u32> = (0..3).map(|_| rng.next_u32()).collect();
        let mut again = game_rng(game_seed(1, 0));
        assert_eq!(first, (0..3).map(|_| again.next_u32()).collect::<Vec<_>>());
        assert_ne!(game_seed(1, 0), game_seed(1, 1));
        assert_ne!(game_seed(1, 0), game_seed(2, 0));
    }

    #[test]
    fn draws_are_rands_draws() {
        // Records name the generator and the seed, not how a draw is made
        // from it: `Draws` must make exactly the draws `rand` made when the
        // records were first written, or every published seed changes
        // meaning. Lengths up to 64 and some large ones, whose second draw
        // (the low word close to the top) comes often.
        for seed in 0..40u64 {
            let mut ours = Draws {
                rng: game_rng(game_seed(seed, 3)),
            };
            let mut theirs = game_rng(game_seed(seed, 3));
            for n in (1..=64usize).chain([1000, 65_537, 0x7fff_ffff, 0xffff_fffe, 0xffff_ffff]) {
                for _ in 0..50 {
                    assert_eq!(
                        ours.index(n),
                        theirs.random_range(0..n),
                        "seed {seed}, n {n}"
                    );
                    assert_eq!(ours.coin(), theirs.random::<bool>(), "seed {seed}");
                }
            }
        }
    }

    #[test]
    fn throw_table_is_from_bits() {
        for name in crate::rules::builtin_names() {
            let rules = crate::rules::load(name, None, &[]).expect("a built-in rule set");
            let table = ThrowTable::new(&rules);
            let mut ours = Draws {
                rng: game_rng(game_seed(5, 0)),
            };
            let mut theirs = game_rng(game_seed(5, 0));
            for _ in 0..2000 {
                assert_eq!(
                    table.throw(&rules, &mut ours),
                    throw_sticks(&rules, &mut theirs),
                    "{name}"
                );
            }
        }
    }

    #[test]
    fn wilson_interval_brackets_the_rate() {
        let [lo, hi] = wilson(50.0, 100.0);
        assert!(lo < 0.5 && hi > 0.5 && lo > 0.39 && hi < 0.61, "{lo} {hi}");
        assert_eq!(wilson(0.0, 0.0), [0.0, 1.0]);
    }
}

/// How a run of games is played.
#[derive(Debug, Clone)]
pub struct RunConfig {
    pub players: [Player; 2],
    pub games: u64,
    pub seed: u64,
    pub threads: usize,
    pub max_units: usize,
    /// Keep every game's units (for records).
    pub keep_units: bool,
}

/// Plays `config.games` games over `config.threads` threads. The games come
/// back in index order and do not depend on the thread count. `progress`
/// is called with the number of games finished so far.
pub fn run(rules: &Ruleset, config: &RunConfig, progress: &(dyn Fn(u64) + Sync)) -> Vec<Played> {
    use std::sync::Mutex;
    use std::sync::atomic::{AtomicU64, Ordering};
    let next = AtomicU64::new(0);
    let done = AtomicU64::new(0);
    let results: Mutex<Vec<(u64, Played)>> = Mutex::new(Vec::with_capacity(config.games as usize));
    let threads = config.threads.max(1);
    let throws = ThrowTable::new(rules);
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| {
                let mut mine = Vec::new();
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= config.games {
                        break;
                    }
                    let g = play_one(
                        rules,
                        &throws,
                        config.players,
                        game_seed(config.seed, i),
                        config.max_units,
                        config.keep_units,
                    );
                    mine.push((i, g));
                    let d = done.fetch_add(1, Ordering::Relaxed) + 1;
                    progress(d);
                }
                results
                    .lock()
                    .expect("no thread panics while holding the lock")
                    .extend(mine);
            });
        }
    });
    let mut all = results.into_inner().expect("threads joined");
    all.sort_by_key(|(i, _)| *i);
    all.into_iter().map(|(_, g)| g).collect()
}

/// Plays `config.games` games as [`run`] does, and hands each to `each`
/// in index order as soon as it and those before it are played, instead
/// of keeping them all: a run that writes its records holds only the
/// games finished out of turn. The games do not depend on the thread
/// count.
pub fn run_each<E>(
    rules: &Ruleset,
    config: &RunConfig,
    progress: &(dyn Fn(u64) + Sync),
    mut each: impl FnMut(u64, Played) -> Result<(), E>,
) -> Result<(), E> {
    use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
    let next = AtomicU64::new(0);
    let done = AtomicU64::new(0);
    let stop = AtomicBool::new(false);
    let threads = config.threads.max(1);
    let throws = ThrowTable::new(rules);
    // A bounded queue: players wait while the writer is behind.
    let (tx, rx) = std::sync::mpsc::sync_channel::<(u64, Played)>(4 * threads);
    std::thread::scope(|scope| {
        for _ in 0..threads {
            let tx = tx.clone();
            let (next, done, stop, throws) = (&next, &done, &stop, &throws);
            scope.spawn(move || {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= config.games || stop.load(Ordering::Relaxed) {
                        break;
                    }
                    let g = play_one(
                        rules,
                        throws,
                        config.players,
                        game_seed(config.seed, i),
                        config.max_units,
                        config.keep_units,
                    );
                    if tx.send((i, g)).is_err() {
                        break;
                    }
                    progress(done.fetch_add(1, Ordering::Relaxed) + 1);
                }
            });
        }
        drop(tx);
        let mut waiting = std::collections::BTreeMap::new();
        let mut due = 0u64;
        for (i, g) in rx {
            waiting.insert(i, g);
            while let Some(g) = waiting.remove(&due) {
                if let Err(e) = each(due, g) {
                    stop.store(true, Ordering::Relaxed);
                    return Err(e);
                }
                due += 1;
            }
        }
        Ok(())
    })
}

impl Played {
    /// The figures `--stats` needs.
    pub fn figures(&self) -> GameFigures {
        GameFigures {
            units: self.unit_count,
            finished: self.finished,
            turns: self.turns,
            winner: self.winner,
            events: self.events,
        }
    }
}
