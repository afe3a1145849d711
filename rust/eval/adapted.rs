//! Playout policy adaptation (PPA, Cazenave 2015) as the search's leaf
//! evaluation: a rollout draws each seat's moves from a policy of its own,
//! `softmax(w[code] + bias / τ)` with the solo planner's codes and biases
//! (`crate::eval::plan`), and after each rollout the winner's policy adapts
//! toward the moves it played there (GNRPA's step, [`crate::plan::adapt`]).
//! So within one search the rollouts learn which moves win, seat by seat;
//! where move averages (MAST) broke ties the same way in every rollout, a
//! policy stays a distribution. The policies start from zero at each search
//! ([`Evaluator::begin`]).
//!
//! ```
//! use _core::eval::adapted::AdaptedEval;
//! use _core::eval::Reward;
//! use _core::search::{search, Config};
//! use _core::{Game, Rules};
//!
//! let game = Game::new(2, 7, None, Rules::default(), None).unwrap();
//! let cfg = Config { iterations: Some(64), seed: 1, ..Config::default() };
//! let eval = AdaptedEval::new(Reward::Win);
//! let best = search(game.state(), &cfg, &eval).unwrap().best.unwrap();
//! assert!(game.state().legal_actions().contains(best));
//! // One thread, a fixed seed, policies afresh at each search: the same move again.
//! assert_eq!(search(game.state(), &cfg, &eval).unwrap().best, Some(best));
//! ```

use std::sync::Mutex;

use super::{utilities, Reward};
use crate::action::{Action, ActionList};
use crate::agents::heuristic::{self, Weights};
use crate::plan::{adapt, scale_biases, PlanGame, Sequence};
use crate::rng::SplitMix64;
use crate::search::{EvalError, Evaluator, MAX_SEATS};
use crate::state::State;

/// The adaptation step α and the bias's temperature τ, screened with two
/// players against the default search
/// (`docs/experiments/2026-12-05-adapted-rollouts.md`).
pub const ALPHA: f64 = 0.5;
/// See [`ALPHA`].
pub const TEMPERATURE: f64 = 0.1;

/// The adapted rollout evaluator: a [`Reward`] and the adaptation's step α
/// and temperature τ ([`ALPHA`], [`TEMPERATURE`]). Its policies
/// are one search's working memory: a clone starts with none, and one
/// evaluator serves one search on one thread. Root-parallel trees
/// (`threads > 1`) would share and mix its policies and take turns at its
/// lock, so the agent spec refuses `rollout=ppa` with more than one thread.
#[derive(Debug)]
pub struct AdaptedEval {
    /// How a finished game is turned into one utility per seat.
    pub reward: Reward,
    /// The adaptation step α.
    pub alpha: f64,
    /// The bias's temperature τ.
    pub temperature: f64,
    /// Boxed: a seat's record holds a whole rollout, and [`LeafEval`](super::LeafEval) stays small.
    work: Box<Mutex<Work>>,
}

/// A search's policies, one per seat, and a rollout's record per seat.
#[derive(Default)]
struct Work {
    policies: Vec<Vec<f32>>,
    played: [Sequence<Action>; MAX_SEATS],
    moves: ActionList,
    codes: Vec<u32>,
    biases: Vec<f64>,
    scratch: Vec<f64>,
    /// Solo: the sum and count of the search's rollout scores (a rollout at
    /// least as good as their mean is the one adapted toward, as `follow` does).
    sum: f64,
    rollouts: u64,
}

impl AdaptedEval {
    /// Adapted rollouts scored by `reward`, with the screened α and τ.
    pub fn new(reward: Reward) -> AdaptedEval {
        AdaptedEval { reward, alpha: ALPHA, temperature: TEMPERATURE, work: Box::default() }
    }

    /// Play `s` to its end with the seats' policies, write its utilities and
    /// adapt the winners' policies toward their moves.
    fn roll(&self, w: &mut Work, s: &mut State, rng: &mut SplitMix64, out: &mut [f64; MAX_SEATS]) {
        // Like the heuristic rollouts, these never activate a Spirit.
        s.never_activate();
        if w.policies.len() < s.players() {
            w.policies.resize_with(s.players(), || vec![0.0; <State as PlanGame>::NUM_CODES]);
        }
        w.played.iter_mut().for_each(Sequence::clear);
        let inv_t = 1.0 / self.temperature;
        while !s.is_over() {
            s.legal_actions_into(&mut w.moves);
            let n = w.moves.len();
            if n <= 1 {
                let Some(&m) = w.moves.first() else { break };
                s.apply_unchecked(m);
                continue;
            }
            let seat = s.current_player();
            w.codes.resize(n, 0);
            w.biases.resize(n, 0.0);
            super::plan::codes_and_biases(s, &Weights::TUNED, &w.moves, &mut w.codes, &mut w.biases);
            scale_biases(&mut w.biases, inv_t);
            let m = w.played[seat].draw_step(&w.moves, &w.codes, &w.biases, &w.policies[seat], &mut w.scratch, rng);
            s.apply_unchecked(m);
        }
        utilities(s, self.reward, out);
        for seat in winners(s, w) {
            adapt(&mut w.policies[seat], &w.played[seat], self.alpha, &mut w.scratch);
        }
    }
}

/// The seats whose rollout is adapted toward: with rivals, the winners
/// (the game's returns, ties broken as R-END-3 says, a tie that stands
/// shared); solo, the player when it scored at least the
/// mean of the search's rollouts so far.
fn winners(s: &State, w: &mut Work) -> impl Iterator<Item = usize> {
    let returns = s.returns();
    let top = returns.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let taught = if s.is_solo() {
        let score = s.score(0) as f64;
        (w.sum, w.rollouts) = (w.sum + score, w.rollouts + 1);
        score * w.rollouts as f64 >= w.sum
    } else {
        true
    };
    (0..s.players()).filter(move |&p| taught && returns[p] == top)
}

impl std::fmt::Debug for Work {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Work").field("seats", &self.policies.len()).field("rollouts", &self.rollouts).finish_non_exhaustive()
    }
}

impl Clone for AdaptedEval {
    /// The same settings, with no policies yet.
    fn clone(&self) -> Self {
        AdaptedEval { work: Box::default(), ..*self }
    }
}

impl PartialEq for AdaptedEval {
    fn eq(&self, other: &Self) -> bool {
        (self.reward, self.alpha, self.temperature) == (other.reward, other.alpha, other.temperature)
    }
}

impl Evaluator<State> for AdaptedEval {
    fn begin(&self) {
        let mut w = self.work.lock().unwrap_or_else(|e| e.into_inner());
        w.policies.iter_mut().for_each(|p| p.fill(0.0));
        (w.sum, w.rollouts) = (0.0, 0);
    }
    fn evaluate(&self, leaves: &mut [State], rng: &mut SplitMix64, values: &mut [[f64; MAX_SEATS]], _priors: &mut [f32]) -> Result<(), EvalError> {
        // A rollout that panicked left the policies as they were mid-adaptation: still a policy.
        let mut w = self.work.lock().unwrap_or_else(|e| e.into_inner());
        for (s, v) in leaves.iter_mut().zip(values) {
            self.roll(&mut w, s, rng, v);
        }
        Ok(())
    }
    fn terminal(&self, s: &State, out: &mut [f64; MAX_SEATS]) {
        utilities(s, self.reward, out);
    }
    #[inline]
    fn order(&self, s: &State, m: Action) -> f64 {
        heuristic::move_value(s, m, &Weights::TUNED)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::setup::Setup;

    /// One rollout from the start of a 2-player game: the winner's policy
    /// moved (R-END-2, R-END-3), the loser's did not, and a
    /// new search starts both from zero.
    #[test]
    fn a_rollout_adapts_the_winner_and_a_search_starts_afresh() {
        let eval = AdaptedEval::new(Reward::Win);
        let mut rng = SplitMix64::new(3);
        let start = Setup::new(2, 5).state().unwrap();
        let (mut leaf, mut v) = ([start], [[0.0; MAX_SEATS]]);
        eval.evaluate(&mut leaf, &mut rng, &mut v, &mut []).unwrap();
        let moved = |seat: usize| eval.work.lock().unwrap().policies[seat].iter().any(|&w| w != 0.0);
        let winner = if v[0][0] > v[0][1] { 0 } else { 1 };
        assert!(leaf[0].is_over() && v[0][winner] > 0.0);
        assert!(moved(winner));
        assert_eq!(moved(1 - winner), v[0][0] == v[0][1], "only a winner's policy moves");
        eval.begin();
        assert!(!moved(0) && !moved(1));
        assert!(eval.clone().work.lock().unwrap().policies.is_empty(), "a clone has no policies");
    }

    /// Solo: a rollout scoring below the mean of the search's rollouts so far
    /// teaches nothing; the first one always does.
    #[test]
    fn solo_rollouts_below_the_mean_teach_nothing() {
        let eval = AdaptedEval::new(Reward::Win);
        let mut rng = SplitMix64::new(1);
        let start = Setup::new(1, 4).state().unwrap();
        let mut taught = 0;
        let mut sum = 0.0;
        for k in 1..=30 {
            let before = eval.work.lock().unwrap().policies.first().cloned();
            let (mut leaf, mut v) = ([start], [[0.0; MAX_SEATS]]);
            eval.evaluate(&mut leaf, &mut rng, &mut v, &mut []).unwrap();
            let score = leaf[0].score(0) as f64;
            sum += score;
            let after = eval.work.lock().unwrap().policies[0].clone();
            let moved = before.is_none_or(|b| b != after);
            assert_eq!(moved, score * k as f64 >= sum, "rollout {k}: {score} against a mean of {}", sum / k as f64);
            taught += moved as u32;
        }
        assert!(taught > 1 && taught < 30);
    }
}
