//! The network as the search's evaluator.

use std::sync::Arc;

use super::Network;
use crate::action::{Action, ActionList, NUM_ACTIONS};
use crate::eval::rollout::RolloutEval;
use crate::rng::SplitMix64;
use crate::search::{EvalError, Evaluator, MAX_SEATS};
use crate::state::observe::COMPACT_OBSERVATION_SIZE;
use crate::state::State;

/// The network as the search's evaluator: priors (softmax of the legal
/// actions' logits) and values, with rollouts mixed in at `rollout_weight`.
#[derive(Clone, Debug)]
pub struct NetworkEval {
    /// The weights, shared by every search that uses them.
    pub net: Arc<Network>,
    /// The rollout evaluator mixed into the values when `rollout_weight > 0`.
    pub rollout: RolloutEval,
    /// The rollout's share of a leaf's value: `(1 - w) * network + w * rollout`; 0 uses the network
    /// alone and plays no rollout.
    pub rollout_weight: f64,
    /// Select by PUCT with the network's priors; without, the values alone
    /// replace the rollout in the rollout search's selection (UCB1, widening
    /// in the tuned heuristic's order).
    pub priors: bool,
    /// A learned cut-off (AlphaGo's value network at the end of a short
    /// rollout): play this many decisions with the rollout policy first, then
    /// value the position reached with the network (a game that ends sooner
    /// has its returns). With `rollout_weight > 0` the rollout then goes on to
    /// the end and is mixed in as usual. `None`: the network values the leaf.
    pub cutoff: Option<u32>,
}

impl NetworkEval {
    /// The network as a search's evaluator. `priors` and `rollout_weight`
    /// left out are those the network was trained with
    /// ([`Network::trained_use`]).
    pub fn new(net: Arc<Network>, rollout: RolloutEval, priors: Option<bool>, rollout_weight: Option<f64>, cutoff: Option<u32>) -> NetworkEval {
        let (trained_priors, trained_weight) = net.trained_use();
        NetworkEval { net, rollout, rollout_weight: rollout_weight.unwrap_or(trained_weight), priors: priors.unwrap_or(trained_priors), cutoff }
    }

    /// A solo value (a score) and a value with rivals (chances to win) are
    /// different quantities: weights trained for one are refused in the other.
    pub fn check_players(&self, players: usize) -> Result<(), String> {
        match self.net.solo {
            Some(solo) if solo != (players == 1) => Err(format!(
                "the network {:?} was trained for {}; this game has {} player{}",
                self.net.source,
                if solo { "solo games" } else { "games with rivals" },
                players,
                if players == 1 { "" } else { "s" }
            )),
            _ => Ok(()),
        }
    }
}

impl NetworkEval {
    /// Finite weights can still overflow to an infinite or NaN output, which
    /// the search cannot rank moves by (its values would be NaN, its root
    /// empty): such an answer stops the search, naming the network.
    fn finite(&self, values: &[f32], logits: &[f32]) -> Result<(), EvalError> {
        let bad = |what: &str, x: f32| EvalError(format!("the network {:?} gave {what} {x}: its weights overflow on this position", self.net.source));
        match (values.iter().find(|x| !x.is_finite()), logits.iter().find(|x| !x.is_finite())) {
            (Some(&x), _) => Err(bad("the value", x)),
            (None, Some(&x)) => Err(bad("the prior logit", x)),
            (None, None) => Ok(()),
        }
    }
}

impl Evaluator<State> for NetworkEval {
    fn gives_priors(&self) -> bool {
        self.priors
    }
    #[inline]
    fn order(&self, s: &State, m: Action) -> f64 {
        crate::agents::heuristic::move_value(s, m, &crate::agents::heuristic::Weights::TUNED)
    }
    fn evaluate(&self, leaves: &mut [State], rng: &mut SplitMix64, values: &mut [[f64; MAX_SEATS]], priors: &mut [f32]) -> Result<(), EvalError> {
        if let Some(s) = leaves.first() {
            self.check_players(s.players()).map_err(EvalError)?;
        }
        let mut obs = [0u8; COMPACT_OBSERVATION_SIZE];
        let mut legal = ActionList::default();
        let mut logits = [0f32; crate::action::MAX_LEGAL];
        for (i, (s, v)) in leaves.iter_mut().zip(values.iter_mut()).enumerate() {
            let mut raw = [0f32; MAX_SEATS];
            if self.priors {
                // The leaf's priors (and, without a cut-off, its value).
                let mover = s.current_player();
                s.compact_observation(mover, &mut obs);
                s.legal_actions_into(&mut legal);
                self.net.forward(&obs, &legal, &mut raw, &mut logits[..legal.len()]);
                self.finite(&raw[..s.players()], &logits[..legal.len()])?;
                Network::seat_values(&raw, s.players(), mover, v);
                let top = logits[..legal.len()].iter().copied().fold(f32::NEG_INFINITY, f32::max);
                let row = &mut priors[i * NUM_ACTIONS..(i + 1) * NUM_ACTIONS];
                for (a, &l) in legal.iter().zip(&logits[..legal.len()]) {
                    row[a.id() as usize] = (l - top).exp();
                }
            }
            if let Some(d) = self.cutoff {
                // Roll `d` decisions (the static estimate a cut rollout writes is replaced).
                RolloutEval { depth: Some(d), ..self.rollout }.roll(s, rng, v);
                if s.is_over() {
                    continue;
                }
            }
            if self.cutoff.is_some() || !self.priors {
                let mover = s.current_player();
                s.compact_observation(mover, &mut obs);
                legal.clear();
                self.net.forward(&obs, &legal, &mut raw, &mut logits[..0]);
                self.finite(&raw[..s.players()], &[])?;
                Network::seat_values(&raw, s.players(), mover, v);
            }
            if self.rollout_weight > 0.0 {
                let mut r = [0f64; MAX_SEATS];
                // After a learned cut-off the rollout goes on from where it stopped, to the end.
                let rollout = if self.cutoff.is_some() { RolloutEval { depth: None, ..self.rollout } } else { self.rollout };
                rollout.roll(s, rng, &mut r);
                for (x, y) in v.iter_mut().zip(r) {
                    *x = (1.0 - self.rollout_weight) * *x + self.rollout_weight * y;
                }
            }
        }
        Ok(())
    }
    fn terminal(&self, s: &State, out: &mut [f64; MAX_SEATS]) {
        *out = s.returns();
    }
}
