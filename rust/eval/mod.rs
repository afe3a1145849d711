//! Dragon Castle for the generic search (`crate::search`): [`State`] as a
//! [`SearchGame`] (determinization from public information, utilities) and
//! the evaluators that value its leaves: the heuristic rollout
//! ([`rollout::RolloutEval`]) and a trained network
//! ([`network::NetworkEval`], on the [`features`] of the compact observation).

pub mod features;
pub mod guided;
pub mod network;
pub mod plan;
pub mod rollout;

use crate::action::{Action, ActionList, NUM_ACTIONS};
use crate::agents::greedy_value;
use crate::rng::SplitMix64;
use crate::search::{SearchGame, MAX_SEATS};
use crate::state::State;
pub use rollout::{Reward, Rollout, RolloutEval};

use crate::search::{EvalError, Evaluator};
use network::NetworkEval;

/// The built-in leaf evaluations an agent spec names: rollouts, or a
/// network (`model=`).
#[derive(Clone, Debug)]
pub enum LeafEval {
    /// Rollouts to the end of the game (or a cut-off) with a fast policy.
    Rollout(RolloutEval),
    /// A trained network's values and, when asked, its priors.
    Network(NetworkEval),
}

impl PartialEq for LeafEval {
    fn eq(&self, other: &Self) -> bool {
        match (self, other) {
            (LeafEval::Rollout(a), LeafEval::Rollout(b)) => a == b,
            (LeafEval::Network(a), LeafEval::Network(b)) => {
                std::sync::Arc::ptr_eq(&a.net, &b.net) && a.rollout == b.rollout && a.rollout_weight == b.rollout_weight && a.priors == b.priors && a.cutoff == b.cutoff
            }
            _ => false,
        }
    }
}

/// PUCT's exploration constant with a network, unless set: values with
/// rivals are chances to win; solo values are scores / 100, whose
/// differences between moves are a few hundredths, so they want less.
pub const NETWORK_EXPLORATION: (f64, f64) = (0.25, 1.0);

impl LeafEval {
    /// The exploration constant that suits this evaluation in a solo game or not.
    pub fn default_exploration(&self, solo: bool) -> f64 {
        match self {
            LeafEval::Rollout(r) => default_exploration(solo, r.reward),
            // Without priors the network's values take the rollout's place in UCB1.
            LeafEval::Network(n) if !n.priors => default_exploration(solo, Reward::Win),
            LeafEval::Network(_) if solo => NETWORK_EXPLORATION.0,
            LeafEval::Network(_) => NETWORK_EXPLORATION.1,
        }
    }
}

impl Evaluator<State> for LeafEval {
    fn gives_priors(&self) -> bool {
        match self {
            LeafEval::Rollout(_) => false,
            LeafEval::Network(n) => n.priors,
        }
    }
    fn evaluate(&self, leaves: &mut [State], rng: &mut SplitMix64, values: &mut [[f64; MAX_SEATS]], priors: &mut [f32]) -> Result<(), EvalError> {
        match self {
            LeafEval::Rollout(r) => r.evaluate(leaves, rng, values, priors),
            LeafEval::Network(n) => n.evaluate(leaves, rng, values, priors),
        }
    }
    fn terminal(&self, s: &State, out: &mut [f64; MAX_SEATS]) {
        match self {
            LeafEval::Rollout(r) => r.terminal(s, out),
            LeafEval::Network(n) => n.terminal(s, out),
        }
    }
    #[inline]
    fn order(&self, s: &State, m: Action) -> f64 {
        match self {
            LeafEval::Rollout(r) => r.order(s, m),
            LeafEval::Network(n) => n.order(s, m),
        }
    }
}

/// Solo utility: final score / 100, as `Game.returns()`; 55 points is 0.55.
pub const SOLO_SCALE: f64 = crate::state::score::SOLO_RETURN_SCALE;
/// Margin utility: `0.5 + (own - best other) / (2 * MARGIN_SCALE)`, clipped
/// (a finished game's scores with [`TIEBREAK_POINTS`] to the winner).
pub const MARGIN_SCALE: f64 = 40.0;
/// Points the margin reward adds to a finished game's winner (split in a shared
/// victory). With them a sole winner's utility is always above 0.5 and a
/// loser's below, as the game's result has it: a tie on score decided by the
/// tie-break (R-END-3) is no longer worth 0.5 to both
/// (`docs/experiments/2026-12-05-margin-tiebreak.md`).
pub const TIEBREAK_POINTS: f64 = 1.0;
/// Temperature of the soft win estimate used when a rollout is cut off.
const WIN_TEMPERATURE: f64 = 3.0;

/// The exploration constant that suits a reward: utilities in solo and margin
/// games differ by hundredths between moves, so they want a small constant
/// (`docs/experiments/2026-11-30-search-tuning.md` has the calibration behind these numbers).
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

    #[inline]
    fn returns(&self, out: &mut [f64; MAX_SEATS]) {
        *out = State::returns(self);
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
    let (points, winners) = s.final_scores();
    let won = crate::state::score::win_shares(winners);
    for (p, v) in scores.iter_mut().enumerate().take(s.players()) {
        *v = points[p] as f64 + TIEBREAK_POINTS * won[p];
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::layout::Layout;
    use crate::search::{search, Config, Tree};
    use crate::state::{seeded_deal, Rules, State};
    use crate::Action;

    fn opening(players: usize, seed: u64) -> State {
        State::new(players, &Layout::for_players(players), &seeded_deal(seed), Rules::default()).unwrap()
    }

    #[test]
    fn search_returns_a_legal_move_and_is_seeded() {
        for players in 1..=4 {
            let s = opening(players, 3);
            let cfg = Config { iterations: Some(300), seed: 9, ..Config::default() };
            let a = search(&s, &cfg, &RolloutEval::default()).unwrap();
            let b = search(&s, &cfg, &RolloutEval::default()).unwrap();
            assert_eq!(a.best, b.best);
            assert_eq!(a.root, b.root);
            assert_eq!(a.iterations, 300);
            assert!(s.is_legal(a.best.unwrap()));
            assert_eq!(a.root.iter().map(|m| m.visits).sum::<u64>(), 300);
            assert_eq!(a.pv.first(), a.best.as_ref());
        }
    }

    #[test]
    fn margin_counts_the_tie_break() {
        // Greedy 2-player games until one ends tied on score with one winner by
        // the tie-break (R-END-3): the margin reward must prefer that winner.
        let w = crate::agents::heuristic::Weights::GREEDY;
        let tied = (0..500)
            .map(|seed| {
                let mut s = opening(2, seed);
                let mut rng = crate::rng::SplitMix64::new(seed);
                while let Some(a) = crate::agents::heuristic::choose(&s, &mut rng, &w) {
                    s.apply_unchecked(a);
                }
                s
            })
            .find(|s| s.score(0) == s.score(1) && s.returns()[0] != s.returns()[1])
            .expect("a greedy game tied on score in 500 deals");
        let mut out = [0.0; MAX_SEATS];
        utilities(&tied, Reward::Margin, &mut out);
        let winner = if tied.returns()[0] == 1.0 { 0 } else { 1 };
        assert!(out[winner] > 0.5 && out[1 - winner] < 0.5, "{out:?}");
        assert!((out[0] + out[1] - 1.0).abs() < 1e-12);
    }

    #[test]
    fn threads_merge_root_visits() {
        let s = opening(2, 4);
        let cfg = Config { iterations: Some(401), threads: 3, seed: 1, ..Config::default() };
        let r = search(&s, &cfg, &RolloutEval { rollout: Rollout::Random, ..RolloutEval::default() }).unwrap();
        assert_eq!(r.iterations, 401);
        assert_eq!(r.root.iter().map(|m| m.visits).sum::<u64>(), 401);
    }

    #[test]
    fn one_legal_move_needs_no_search() {
        let mut s = opening(2, 5);
        // Take a first tile, then discard is always legal; find a position with one move.
        let a = s.legal_actions()[0];
        s.apply(a).unwrap();
        let mut found = false;
        for _ in 0..400 {
            if s.is_over() {
                break;
            }
            let legal = s.legal_actions();
            if legal.len() == 1 {
                let r = search(&s, &Config::default(), &RolloutEval::default()).unwrap();
                assert_eq!(r.best, Some(legal[0]));
                assert_eq!(r.iterations, 0);
                found = true;
                break;
            }
            s.apply_unchecked(legal[legal.len() - 1]);
        }
        assert!(found);
        let _ = Action::Done;
    }

    #[test]
    fn tree_reuse_keeps_the_subtree() {
        let s = opening(2, 6);
        let cfg = Config { iterations: Some(2000), ..Config::default() };
        let eval = RolloutEval { rollout: Rollout::Random, ..RolloutEval::default() };
        let r = crate::search::search_until(&s, &cfg, &eval, None, None).unwrap();
        let mut t: Tree<Action> = r.1.unwrap();
        let pv = t.principal_variation(None);
        let visits_before = t.root_child(pv[0], 0).unwrap().0;
        let len = t.len();
        assert!(t.advance(&pv[..1]));
        assert_eq!(t.root_visits(), visits_before);
        assert!(t.len() < len);
        // The copied subtree is consistent: every child points at its parent.
        let pv2 = t.principal_variation(None);
        assert_eq!(pv2.as_slice(), &pv[1..pv2.len() + 1]);
    }
}
