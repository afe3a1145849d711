//! A search guided by a network the core does not own (a Python callable,
//! say): the built-in evaluation alone, the guide alone, or the guide's
//! values mixed with rollouts (`rollout_weight`, AlphaGo's λ). The bindings
//! supply the guide; how the three combine is written once, here.

use crate::action::Action;
use crate::rng::SplitMix64;
use crate::search::{EvalError, Evaluator, Mixed, MAX_SEATS};
use crate::state::State;

use super::{LeafEval, RolloutEval};

/// PUCT's exploration constant for a guide that gives priors, when none is given (`docs/search.md`).
pub const DEFAULT_PUCT: f64 = 1.0;

/// A leaf evaluation with an outside guide `G`.
#[derive(Clone)]
pub enum Guided<G> {
    /// A built-in evaluation (rollouts or a weights file).
    Leaf(LeafEval),
    /// The guide's priors and values.
    Guide(G),
    /// The guide's priors; its values mixed with rollouts'.
    Mixed(Mixed<G, RolloutEval>),
}

impl<G> Guided<G> {
    /// The guide alone, or mixed with `rollout` at `weight` (0: the guide alone).
    pub fn new(guide: G, rollout: RolloutEval, weight: f64) -> Guided<G> {
        if weight == 0.0 {
            Guided::Guide(guide)
        } else {
            Guided::Mixed(Mixed { guide, rollout, weight })
        }
    }

    /// The guide, if there is one.
    pub fn guide(&self) -> Option<&G> {
        match self {
            Guided::Guide(g) | Guided::Mixed(Mixed { guide: g, .. }) => Some(g),
            Guided::Leaf(_) => None,
        }
    }

    /// The same composition with the guide replaced by `f(guide)`.
    pub fn map_guide<H>(&self, f: impl FnOnce(&G) -> H) -> Guided<H> {
        match self {
            Guided::Leaf(l) => Guided::Leaf(l.clone()),
            Guided::Guide(g) => Guided::Guide(f(g)),
            Guided::Mixed(m) => Guided::Mixed(Mixed { guide: f(&m.guide), rollout: m.rollout, weight: m.weight }),
        }
    }

    /// The exploration constant for a game (solo or not) when none is given.
    pub fn default_exploration(&self, solo: bool) -> f64 {
        match self {
            Guided::Leaf(l) => l.default_exploration(solo),
            _ => DEFAULT_PUCT,
        }
    }

    /// Refuses a table a weights file cannot play (solo weights with rivals,
    /// or the other way round); a guide's fitness is its owner's business.
    pub fn check_players(&self, players: usize) -> Result<(), String> {
        match self {
            Guided::Leaf(LeafEval::Network(n)) => n.check_players(players),
            _ => Ok(()),
        }
    }
}

impl<G: Evaluator<State>> Evaluator<State> for Guided<G> {
    fn gives_priors(&self) -> bool {
        match self {
            Guided::Leaf(l) => l.gives_priors(),
            _ => true,
        }
    }
    fn batch_size(&self) -> usize {
        match self {
            Guided::Leaf(l) => l.batch_size(),
            Guided::Guide(g) => g.batch_size(),
            Guided::Mixed(m) => m.batch_size(),
        }
    }
    fn evaluate(&self, leaves: &mut [State], rng: &mut SplitMix64, values: &mut [[f64; MAX_SEATS]], priors: &mut [f32]) -> Result<(), EvalError> {
        match self {
            Guided::Leaf(l) => l.evaluate(leaves, rng, values, priors),
            Guided::Guide(g) => g.evaluate(leaves, rng, values, priors),
            Guided::Mixed(m) => m.evaluate(leaves, rng, values, priors),
        }
    }
    fn terminal(&self, s: &State, out: &mut [f64; MAX_SEATS]) {
        match self {
            Guided::Leaf(l) => l.terminal(s, out),
            Guided::Guide(g) => g.terminal(s, out),
            Guided::Mixed(m) => m.terminal(s, out),
        }
    }
    fn order(&self, s: &State, m: Action) -> f64 {
        match self {
            Guided::Leaf(l) => l.order(s, m),
            _ => 0.0,
        }
    }
}
