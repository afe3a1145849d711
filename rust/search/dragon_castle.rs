//! [`State`] as a [`SearchGame`]: determinization from public information,
//! rollout policies and utilities.

use super::{Config, Reward, Rollout, SearchGame, MAX_SEATS};
use crate::action::{Action, ActionList, NUM_ACTIONS};
use crate::agents::heuristic as policy;
use crate::agents::greedy_value;
use crate::rng::SplitMix64;
use crate::state::State;

/// Solo utility: final score / 100, as `Game.returns()`; 55 points is 0.55.
pub const SOLO_SCALE: f64 = crate::state::score::SOLO_RETURN_SCALE;
/// Margin utility: `0.5 + (own - best other) / (2 * MARGIN_SCALE)`, clipped.
pub const MARGIN_SCALE: f64 = 40.0;
/// Temperature of the soft win estimate used when a rollout is cut off.
const WIN_TEMPERATURE: f64 = 3.0;

/// The exploration constant that suits a reward: utilities in solo and margin
/// games differ by hundredths between moves, so they want a small constant
/// (`docs/search.md` has the calibration behind these numbers).
pub fn default_exploration(solo: bool, reward: Reward) -> f64 {
    match (solo, reward) {
        (true, _) | (false, Reward::Margin) => 0.05,
        (false, Reward::Win) => 0.5,
    }
}

impl SearchGame for State {
    type Move = Action;
    type Moves = ActionList;
    const NUM_MOVES: usize = NUM_ACTIONS;

    #[inline]
    fn move_index(m: Action) -> usize {
        m.id() as usize
    }
    #[inline]
    fn seat_to_move(&self) -> usize {
        self.current_player()
    }
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

    /// The covered tiles are a public multiset; only their order is hidden. Lay
    /// them out in code order, then shuffle, so that the result depends on the
    /// seed and the public information only, never on the true order.
    fn determinize(&self, rng: &mut SplitMix64) -> State {
        // Fisher–Yates with the fast bounded draw: not the documented deal
        // procedure, which only `determinize(seed)` must reproduce.
        self.redeal_covered(|tiles| {
            for i in (1..tiles.len()).rev() {
                tiles.swap(i, rng.pick(i + 1));
            }
        })
    }

    fn prior(&self, m: Action) -> f64 {
        policy::move_value(self, m, &policy::Weights::TUNED)
    }

    fn rollout(&mut self, cfg: &Config, rng: &mut SplitMix64, out: &mut [f64; MAX_SEATS]) {
        let mut buf = ActionList::default();
        if matches!(cfg.rollout, Rollout::Policy { .. }) {
            // The rollout policy never activates a Spirit: nor need the turn ask.
            self.never_activate();
        }
        let mut steps = 0u32;
        while !State::is_over(self) {
            if cfg.rollout_depth.is_some_and(|d| steps >= d) {
                estimate(self, cfg.reward, out);
                return;
            }
            match cfg.rollout {
                Rollout::Policy { epsilon, weights } if epsilon <= 0.0 || rng.unit() >= epsilon as f64 => {
                    let Some(a) = policy::choose_without_spirits(self, rng, &weights) else { break };
                    self.apply_unchecked(a);
                }
                _ => {
                    if self.step_pick(&mut buf, |n| rng.pick(n)).is_none() {
                        break;
                    }
                }
            }
            steps += 1;
        }
        utilities(self, cfg.reward, out);
    }
}

/// Utilities of a finished game; see [`Reward`]. The win reward (and solo)
/// is the game's own [`State::returns`].
pub fn utilities(s: &State, reward: Reward, out: &mut [f64; MAX_SEATS]) {
    if reward == Reward::Win || s.is_solo() {
        *out = s.returns();
        return;
    }
    let mut scores = [0f64; MAX_SEATS];
    for (p, v) in scores.iter_mut().enumerate().take(s.players()) {
        *v = s.score(p) as f64;
    }
    from_scores(s, reward, &scores, out);
}

/// A static estimate for a cut-off rollout: the greedy evaluation (score plus
/// progress towards sets) in place of final scores.
pub fn estimate(s: &State, reward: Reward, out: &mut [f64; MAX_SEATS]) {
    let mut values = [0f64; MAX_SEATS];
    for (p, v) in values.iter_mut().enumerate().take(s.players()) {
        *v = greedy_value(s, p);
    }
    from_scores(s, reward, &values, out);
}

/// Utilities from (final or estimated) scores: solo and margin as in
/// [`Reward`]; for the win reward, a softmax of the estimates.
fn from_scores(s: &State, reward: Reward, scores: &[f64; MAX_SEATS], out: &mut [f64; MAX_SEATS]) {
    *out = [0.0; MAX_SEATS];
    let n = s.players();
    if s.is_solo() {
        out[0] = (scores[0] / SOLO_SCALE).clamp(0.0, 1.0);
        return;
    }
    match reward {
        Reward::Win => {
            let top = scores[..n].iter().copied().fold(f64::NEG_INFINITY, f64::max);
            let mut total = 0.0;
            for p in 0..n {
                out[p] = ((scores[p] - top) / WIN_TEMPERATURE).exp();
                total += out[p];
            }
            for o in out.iter_mut().take(n) {
                *o /= total;
            }
        }
        Reward::Margin => {
            for p in 0..n {
                let best_other = (0..n).filter(|&q| q != p).map(|q| scores[q]).fold(f64::NEG_INFINITY, f64::max);
                out[p] = (0.5 + (scores[p] - best_other) / (2.0 * MARGIN_SCALE)).clamp(0.0, 1.0);
            }
        }
    }
}
