//! The heuristic rollout as an [`Evaluator`]: a leaf is valued by playing
//! the game on with a fast policy (uniformly random, or one decision of
//! look-ahead with the tuned position value) and scoring the end.

use super::{estimate, utilities};
use crate::action::ActionList;
use crate::agents::heuristic as policy;
use crate::rng::SplitMix64;
use crate::search::{EvalError, Evaluator, MAX_SEATS};
use crate::state::State;

/// How a finished (or cut-off) game is turned into one utility per seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reward {
    /// 1 for a win, split among tied winners, 0 otherwise (`Game.returns()`).
    Win,
    /// `0.5 + (own score - best other score) / 80`, clipped to `[0, 1]`, the
    /// winner's score a point higher (so a tie-break counts, R-END-3).
    Margin,
}

/// Rollout policies; all allocation-free.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Rollout {
    /// Uniformly random legal actions.
    Random,
    /// One decision of look-ahead with a position value of these weights
    /// ([`policy::choose`]).
    Policy(policy::Weights),
}

impl Reward {
    /// `win` or `margin`.
    pub fn parse(name: &str) -> Result<Reward, String> {
        match name {
            "win" => Ok(Reward::Win),
            "margin" => Ok(Reward::Margin),
            _ => Err(format!("reward is 'win' or 'margin'; got {name:?}")),
        }
    }
    /// The name [`Reward::parse`] takes.
    pub const fn name(self) -> &'static str {
        match self {
            Reward::Win => "win",
            Reward::Margin => "margin",
        }
    }
}

impl Rollout {
    /// The policies by name, the default first (the settings table offers them in this order).
    pub const NAMED: [(&'static str, Rollout); 3] = [("tuned", Rollout::TUNED), ("greedy", Rollout::GREEDY), ("random", Rollout::Random)];
    /// The names of [`Rollout::NAMED`].
    pub const NAMES: [&'static str; 3] = [Self::NAMED[0].0, Self::NAMED[1].0, Self::NAMED[2].0];

    /// The policy of one of [`Rollout::NAMES`].
    ///
    /// ```
    /// use _core::eval::Rollout;
    /// assert_eq!(Rollout::parse("greedy").unwrap().name(), "greedy");
    /// assert!(Rollout::parse("smart").is_err());
    /// ```
    pub fn parse(name: &str) -> Result<Rollout, String> {
        Self::NAMED.iter().find(|(n, _)| *n == name).map(|&(_, r)| r).ok_or_else(|| format!("rollout is one of {}; got {name:?}", Self::NAMES.join(", ")))
    }
    /// The name [`Rollout::parse`] takes; weights of no name (the tuning benches') are `tuned`.
    pub fn name(&self) -> &'static str {
        Self::NAMED.iter().find(|(_, r)| r == self).map_or("tuned", |(n, _)| n)
    }
    /// The greedy agent's evaluation (`docs/agents.md`).
    pub const GREEDY: Rollout = Rollout::Policy(policy::Weights::GREEDY);
    /// The evaluation tuned for rollouts (`docs/search.md`).
    pub const TUNED: Rollout = Rollout::Policy(policy::Weights::TUNED);
}

/// The rollout evaluator: a [`Reward`], a [`Rollout`] policy and an optional
/// cut-off after `depth` decisions (then the static estimate). It gives no
/// priors, so the search selects by UCB1 and widens in the order of the tuned
/// move value.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RolloutEval {
    /// How the end (or the cut-off) is turned into one utility per seat.
    pub reward: Reward,
    /// The policy that plays a leaf on.
    pub rollout: Rollout,
    /// Decisions after which a rollout stops and the position is valued by the static estimate
    /// (the greedy evaluation in place of final scores); `None` plays to the end.
    pub depth: Option<u32>,
    /// Heuristic rollouts: [`policy::choose`] instead of [`policy::choose_without_spirits`]
    /// (setting `rollout_spirits`; experimental). The turn is not made passive, so the turn's
    /// Spirit decision points count towards `depth`. With the tuned weights the weighing hardly
    /// ever finds an activation worth its price (`docs/experiments/2026-12-05-spirit-rollouts.md`).
    pub spirits: bool,
}

impl Default for RolloutEval {
    fn default() -> Self {
        RolloutEval { reward: Reward::Win, rollout: Rollout::TUNED, depth: None, spirits: false }
    }
}

impl RolloutEval {
    /// Play `s` on to the end (or the cut-off) and write its utilities.
    pub fn roll(&self, s: &mut State, rng: &mut SplitMix64, out: &mut [f64; MAX_SEATS]) {
        let mut buf = ActionList::default();
        if matches!(self.rollout, Rollout::Policy(_)) && !self.spirits {
            // Without activations the turn need not ask for them.
            s.never_activate();
        }
        let mut steps = 0u32;
        while !s.is_over() {
            if self.depth.is_some_and(|d| steps >= d) {
                estimate(s, self.reward, out);
                return;
            }
            match self.rollout {
                Rollout::Policy(weights) => {
                    let a = if self.spirits { policy::choose(s, rng, &weights) } else { policy::choose_without_spirits(s, rng, &weights) };
                    let Some(a) = a else { break };
                    s.apply_unchecked(a);
                }
                Rollout::Random => {
                    if s.step_pick(&mut buf, |n| rng.pick(n)).is_none() {
                        break;
                    }
                }
            }
            steps += 1;
        }
        utilities(s, self.reward, out);
    }
}

impl Evaluator<State> for RolloutEval {
    fn evaluate(&self, leaves: &mut [State], rng: &mut SplitMix64, values: &mut [[f64; MAX_SEATS]], _priors: &mut [f32]) -> Result<(), EvalError> {
        for (s, v) in leaves.iter_mut().zip(values) {
            self.roll(s, rng, v);
        }
        Ok(())
    }
    fn terminal(&self, s: &State, out: &mut [f64; MAX_SEATS]) {
        utilities(s, self.reward, out);
    }
    #[inline]
    fn order(&self, s: &State, m: crate::Action) -> f64 {
        policy::move_value(s, m, &policy::Weights::TUNED)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::action::Action;
    use crate::cards::Cards;
    use crate::setup::Setup;

    /// With `spirits`, a rollout's step is the tuned policy's choice among every
    /// legal move (R-SPIRIT-1), a Spirit's effect weighed by playing it out;
    /// without, the choice of the game without activations. Positions inside
    /// effects (an activation drawn at random where one is offered) are where
    /// the two differ.
    #[test]
    fn rollouts_weigh_spirits_only_when_told() {
        let w = policy::Weights::TUNED;
        let mut differ = 0;
        for seed in 0..20 {
            let mut s = Setup::new(2, seed).with_cards(Cards::Draw(1), Cards::Draw(1)).state().unwrap();
            let mut rng = SplitMix64::new(seed);
            while !s.is_over() {
                let weighed = policy::choose(&s, &mut rng.clone(), &w).unwrap();
                let mut with = s;
                with.apply_unchecked(weighed);
                let mut without = s;
                without.never_activate();
                let plain = policy::choose_without_spirits(&without, &mut rng.clone(), &w).unwrap();
                without.apply_unchecked(plain);
                differ += usize::from(weighed != plain);
                for (spirits, expected) in [(true, with), (false, without)] {
                    let one = RolloutEval { depth: Some(1), spirits, ..RolloutEval::default() };
                    let mut rolled = s;
                    one.roll(&mut rolled, &mut rng.clone(), &mut [0.0; MAX_SEATS]);
                    assert!(rolled == expected, "seed {seed}: spirits={spirits} at\n{}", crate::render::text(&s));
                }
                let moves = s.legal_actions();
                let spirit = moves.iter().copied().filter(|m| matches!(m, Action::Spirit { .. })).nth(rng.below(4) as usize);
                s.apply_unchecked(spirit.unwrap_or_else(|| policy::choose(&s, &mut rng, &w).unwrap()));
            }
        }
        assert!(differ > 0, "some step differs between the two rollouts");
    }
}
