//! Dragon Castle for the planner (`crate::plan`): the solo game as a
//! single-seat problem. A move's code is its phase, its action id and the
//! tile it concerns; its bias is the rollout policy's value of it
//! ([`heuristic::move_values`] with [`Weights::TUNED`]).
//!
//! The planner's moves are the position's legal actions. The `plan` agent
//! makes its root [`State::never_activate`], so it plans without the Spirit
//! cards: planning with them was not stronger at one second per decision
//! (`docs/experiments/2026-12-05-planner-spirits.md`). From a root that may
//! activate, plans use the Spirits (R-SPIRIT-1), an activation's bias its
//! value one decision ahead less a price ([`price_activations`]).

use crate::action::{Action, ActionList, NUM_ACTIONS};
use crate::agents::heuristic::{self, Weights};
use crate::plan::{Nested, PlanGame};
use crate::rng::SplitMix64;
use crate::search::SearchGame;
use crate::state::{Phase, State};

/// Phases a code tells apart: Action, Complete, Place, the rest.
const PHASES: usize = 4;
/// Action ids that can occur (the rest of the id space is reserved).
const IDS: usize = 704;
/// What a move concerns: a tile symbol (0–28), a Shrine's stack height
/// (29–31 for heights 1, 2, 3 or more), or nothing (32).
const CONCERNS: usize = 33;
const NOTHING: usize = 32;
const _: () = assert!(IDS <= NUM_ACTIONS);

impl PlanGame for State {
    type Move = Action;
    type Moves = ActionList;
    const NUM_CODES: usize = PHASES * IDS * CONCERNS;

    #[inline]
    fn is_over(&self) -> bool {
        State::is_over(self)
    }
    #[inline]
    fn legal_moves(&self, out: &mut ActionList) {
        self.legal_actions_into(out);
    }
    #[inline]
    fn play(&mut self, m: Action) {
        self.apply_unchecked(m);
    }
    /// The solo score (the variant's −15 included).
    #[inline]
    fn score(&self) -> f64 {
        self.score(0) as f64
    }
    fn determinize(&self, rng: &mut SplitMix64) -> State {
        <State as SearchGame>::determinize(self, rng)
    }
    fn codes_and_biases(&self, moves: &[Action], codes: &mut [u32], biases: &mut [f64]) {
        codes_and_biases(self, &Weights::TUNED, moves, codes, biases);
    }
}

/// Dragon Castle for the planner with another bias: the rollout policy's
/// move values under `weights` instead of [`Weights::TUNED`] (for tuning the
/// bias, `benches/tune_rollout.rs`). Plays, scores and codes as [`State`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WithBias {
    /// The position.
    pub state: State,
    /// The weights whose move values are the bias.
    pub weights: &'static Weights,
}

impl PlanGame for WithBias {
    type Move = Action;
    type Moves = ActionList;
    const NUM_CODES: usize = <State as PlanGame>::NUM_CODES;

    fn is_over(&self) -> bool {
        State::is_over(&self.state)
    }
    fn legal_moves(&self, out: &mut ActionList) {
        PlanGame::legal_moves(&self.state, out);
    }
    fn play(&mut self, m: Action) {
        PlanGame::play(&mut self.state, m);
    }
    fn score(&self) -> f64 {
        PlanGame::score(&self.state)
    }
    fn determinize(&self, rng: &mut SplitMix64) -> WithBias {
        WithBias { state: PlanGame::determinize(&self.state, rng), weights: self.weights }
    }
    fn codes_and_biases(&self, moves: &[Action], codes: &mut [u32], biases: &mut [f64]) {
        codes_and_biases(&self.state, self.weights, moves, codes, biases);
    }
}

/// Each move's code (its phase, action id and the tile it concerns) and its
/// bias (the rollout policy's value of it under `w`).
fn codes_and_biases(s: &State, w: &Weights, moves: &[Action], codes: &mut [u32], biases: &mut [f64]) {
    let phase = match s.phase() {
        Phase::Action => 0,
        Phase::Complete => 1,
        Phase::Place => 2,
        _ => 3,
    };
    for (c, &m) in codes.iter_mut().zip(moves) {
        *c = ((phase * IDS + (m.id() as usize).min(IDS - 1)) * CONCERNS + concern(s, m)) as u32;
    }
    let mut values = [None; crate::action::MAX_LEGAL];
    let values = &mut values[..moves.len()];
    heuristic::move_values(s, moves, w, values);
    for (b, v) in biases.iter_mut().zip(values.iter()) {
        *b = v.unwrap_or(f64::NEG_INFINITY);
    }
    price_activations(moves, biases);
}

/// An activation's bias: its one-step value less the greedy player's price
/// ([`heuristic::SPIRIT_PRICE`]: the tile or Shrine paid was worth more than
/// the value's weights say; the screens could not rank other prices), and less
/// `τ ln k` for the `k` payments offered, so that the activations of a
/// decision together weigh as one move, however many tiles could pay: a
/// playout that activated a Spirit at every chance would pay away its Realm.
/// τ is the default temperature (a problem's bias knows no planner); under
/// another, the activations weigh as `k^(1 - τ₀/τ)` moves.
fn price_activations(moves: &[Action], biases: &mut [f64]) {
    let k = moves.iter().filter(|m| matches!(m, Action::Spirit { .. })).count();
    // Only activations (Change's Cunning, a choice among payments): nothing to weigh them against.
    if k == 0 || k == moves.len() {
        return;
    }
    let price = heuristic::SPIRIT_PRICE + Nested::default().temperature * (k as f64).ln();
    for (b, m) in biases.iter_mut().zip(moves) {
        if matches!(m, Action::Spirit { .. }) {
            *b -= price;
        }
    }
}

/// The tile a move concerns: the one taken, placed or paid for a Spirit,
/// or the height of the stack a Shrine goes on.
fn concern(s: &State, m: Action) -> usize {
    match m {
        Action::Take(space) => s.castle().top(space as usize).map_or(NOTHING, |t| t.index() as usize),
        Action::Place(_) => s.held().first().map_or(NOTHING, |t| t.index() as usize),
        Action::Spirit { pay: Some(cell), .. } => {
            s.player(s.current_player()).realm.face_up_tile(cell as usize).map_or(NOTHING, |t| t.index() as usize)
        }
        Action::Shrine(cell) => 29 + (s.player(s.current_player()).realm.height(cell as usize).clamp(1, 3) as usize - 1),
        _ => NOTHING,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::Cards;
    use crate::plan::pimc::{self, Memory, Mode};
    use crate::plan::{Nested, PlanGame};
    use crate::setup::Setup;

    fn cfg(determinize: bool) -> pimc::Config {
        pimc::Config {
            nested: Nested { level: 1, iterations: 20, ..Nested::default() },
            playouts: Some(200),
            time_limit: None,
            threads: 1,
            mode: if determinize { Mode::Mean } else { Mode::Oracle },
            warm: None,
        }
    }

    /// The standard solo game of `seed` (R-SOLO-1): one Spirit, one Dragon.
    fn standard(seed: u64) -> State {
        Setup::new(1, seed).with_cards(Cards::Draw(1), Cards::Draw(1)).state().unwrap()
    }

    /// Every legal move, Spirit activations included (R-SPIRIT-1), gets a
    /// code of its own in range and a finite bias, in games with and without cards.
    #[test]
    fn codes_are_in_range_and_tell_tiles_apart() {
        let mut codes = [0u32; crate::action::MAX_LEGAL];
        let mut biases = [0f64; crate::action::MAX_LEGAL];
        let mut activations = 0;
        for mut s in [Setup::new(1, 3).state().unwrap(), standard(3), standard(4)] {
            let mut rng = SplitMix64::new(0);
            while !PlanGame::is_over(&s) {
                let mut moves = ActionList::default();
                PlanGame::legal_moves(&s, &mut moves);
                assert_eq!(&moves[..], &s.legal_actions()[..], "the planner's moves are the legal actions");
                let n = moves.len();
                s.codes_and_biases(&moves, &mut codes[..n], &mut biases[..n]);
                assert!(codes[..n].iter().all(|&c| (c as usize) < State::NUM_CODES));
                let mut sorted = codes[..n].to_vec();
                sorted.sort_unstable();
                sorted.dedup();
                assert_eq!(sorted.len(), n);
                assert!(biases[..n].iter().all(|b| b.is_finite()));
                activations += moves.iter().filter(|m| matches!(m, Action::Spirit { .. })).count();
                s.apply_unchecked(moves[rng.pick(n)]);
            }
        }
        assert!(activations > 0, "the games with cards offered activations");
    }

    /// The best final score reachable from `s` on its true deal, every line
    /// tried; `None` when that visits more than `*nodes` positions.
    fn exact(s: &State, nodes: &mut u32) -> Option<f64> {
        if PlanGame::is_over(s) {
            return Some(PlanGame::score(s));
        }
        *nodes = nodes.checked_sub(1)?;
        let mut best = f64::NEG_INFINITY;
        for &m in s.legal_actions().iter() {
            let mut next = *s;
            next.apply_unchecked(m);
            best = best.max(exact(&next, nodes)?);
        }
        Some(best)
    }

    /// Near the end of standard solo games played half greedily, half at random, the first
    /// position where a Spirit activation scores more than every other move
    /// (R-SPIRIT-1, R-SPIRIT-2; found by trying every line to the end): the
    /// planner, with hidden tiles and with the oracle, activates it.
    #[test]
    fn the_planner_activates_a_spirit_where_it_pays() {
        let found = (0..300).find_map(|seed| {
            let mut s = standard(seed);
            let mut rng = SplitMix64::new(seed);
            while !PlanGame::is_over(&s) {
                let moves = s.legal_actions();
                if s.tokens_taken() >= 2 && moves.iter().any(|m| matches!(m, Action::Spirit { .. })) {
                    let mut nodes = 200_000;
                    let values: Option<Vec<f64>> = moves
                        .iter()
                        .map(|&m| {
                            let mut next = s;
                            next.apply_unchecked(m);
                            exact(&next, &mut nodes)
                        })
                        .collect();
                    if let Some(values) = values {
                        let best = |spirit: bool| {
                            moves.iter().zip(&values).filter(|(m, _)| matches!(m, Action::Spirit { .. }) == spirit).map(|(_, v)| *v).fold(f64::NEG_INFINITY, f64::max)
                        };
                        if best(true) > best(false) {
                            return Some(s);
                        }
                    }
                }
                // Half the moves at random: greedy play alone rarely leaves a Spirit worth its price.
                let m = if rng.below(2) == 0 { moves[rng.pick(moves.len())] } else { crate::agents::heuristic::choose(&s, &mut rng, &Weights::TUNED).unwrap() };
                s.apply_unchecked(m);
            }
            None
        });
        let s = found.expect("a position where an activation pays in 300 standard games");
        for mode in [Mode::Follow, Mode::Oracle] {
            let config = pimc::Config { playouts: Some(2_000), mode, ..cfg(true) };
            let d = pimc::decide(&s, &config, 3, &mut Memory::default(), None);
            assert!(matches!(d.best, Some(Action::Spirit { .. })), "{mode:?} played {:?} at\n{}", d.best, crate::render::text(&s));
        }
    }

    /// The planner's memo of positions (`plan/memo.rs`) saves work and
    /// changes nothing, on Dragon Castle's deals too (R-SOLO-2: the Dragon's
    /// turns inside `play` are deterministic, so a path names a position).
    #[test]
    fn the_memo_changes_no_plan() {
        use crate::plan::{Budget, Planner};
        for (seed, s) in [(2, Setup::new(1, 2).state().unwrap()), (3, standard(3))] {
            let nested = Nested { level: 2, iterations: 6, ..Nested::default() };
            let mut with: Planner<State> = Planner::new(nested);
            let mut without: Planner<State> = Planner::without_memo(nested);
            let a = with.search(&s, &mut SplitMix64::new(seed), &Budget::default(), None).clone();
            let b = without.search(&s, &mut SplitMix64::new(seed), &Budget::default(), None).clone();
            assert_eq!((&a.moves, a.score), (&b.moves, b.score));
            assert_eq!(with.policy_mut(), without.policy_mut());
        }
    }

    /// The hidden-information control (R-CASTLE-1): two positions that
    /// differ only in the order of the covered tiles give the same decision,
    /// with the same findings for every move; the oracle, which reads them,
    /// does not.
    #[test]
    fn decisions_never_read_a_hidden_tile() {
        for (mut s, seed, cards) in [(Setup::new(1, 5).state().unwrap(), 1, false), (standard(3), 3, true)] {
            let mut rng = SplitMix64::new(seed);
            let mut activations = 0;
            for step in 0..60 {
                let offers = s.legal_actions().iter().any(|m| matches!(m, Action::Spirit { .. }));
                // With cards, the first decision with activations too (R-SPIRIT-1).
                if step % 20 == 0 || (offers && activations == 0) {
                    activations += usize::from(offers);
                    never_reads_a_hidden_tile(&s);
                }
                let moves = s.legal_actions();
                s.apply_unchecked(moves[rng.pick(moves.len())]);
            }
            assert!(!cards || activations > 0, "the standard game offered activations");
        }
    }

    fn never_reads_a_hidden_tile(s: &State) {
        let twin = s.redeal_covered(|tiles| tiles.reverse());
        assert_ne!(*s, twin, "the twin differs in hidden tiles");
        let da = pimc::decide(s, &cfg(true), 11, &mut Memory::default(), None);
        let db = pimc::decide(&twin, &cfg(true), 11, &mut Memory::default(), None);
        assert_eq!((da.best, &da.root, &da.plan), (db.best, &db.root, &db.plan));
        assert!(da.root.iter().filter(|r| r.tried > 0).count() > 1);
        // One policy over the determinizations, carried to the next decision: the same too.
        let follow = pimc::Config { mode: Mode::Follow, warm: Some(true), ..cfg(true) };
        let (mut ma, mut mb) = (Memory::default(), Memory::default());
        let fa = pimc::decide(s, &follow, 11, &mut ma, None);
        let fb = pimc::decide(&twin, &follow, 11, &mut mb, None);
        assert_eq!((fa.best, &fa.root, &ma.policy), (fb.best, &fb.root, &mb.policy));
        assert!(fa.determinizations > 1 && ma.policy.is_some());
        let oa = pimc::decide(s, &cfg(false), 11, &mut Memory::default(), None);
        let ob = pimc::decide(&twin, &cfg(false), 11, &mut Memory::default(), None);
        assert_ne!(oa.root, ob.root);
    }
}
