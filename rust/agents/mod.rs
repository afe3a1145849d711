//! Built-in policies that run inside Rust (playouts, the demo, benchmarks).

pub mod heuristic;
pub mod player;
pub mod settings;
pub mod spec;

use crate::action::{Action, ActionList};
use crate::rng::SplitMix64;
use crate::state::State;
pub use heuristic::Weights;
pub use player::{check_table, decision_rng, Agent, Player, Stats};
pub use spec::AgentSpec;

/// A uniformly random legal action; `None` when the game is over.
#[inline]
pub fn random_action(s: &State, rng: &mut SplitMix64, buf: &mut ActionList) -> Option<Action> {
    s.legal_pick(buf, |n| rng.below(n as u64) as usize)
}

/// Play random legal actions to the end of the game.
pub fn random_playout(s: &mut State, rng: &mut SplitMix64) -> u32 {
    let mut buf = ActionList::default();
    let mut steps = 0;
    while s.step_pick(&mut buf, |n| rng.below(n as u64) as usize).is_some() {
        steps += 1;
    }
    steps
}

/// The greedy heuristic's value of a position for `seat` (`docs/agents.md`):
/// score, plus progress towards sets, plus Shrines in the pool, plus tiles in hand.
pub fn greedy_value(s: &State, seat: usize) -> f64 {
    heuristic::value(s, seat, &Weights::GREEDY)
}

/// The legal action with the best [`greedy_value`] one decision ahead; ties go to
/// the `rng`.
pub fn greedy_action(s: &State, rng: &mut SplitMix64) -> Option<Action> {
    heuristic::choose(s, rng, &Weights::GREEDY)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::layout::Layout;
    use crate::state::{seeded_deal, Rules};

    /// The plain definition: play every action and value the result.
    fn greedy_by_playing(s: &State, rng: &mut SplitMix64) -> Option<Action> {
        let seat = s.current_player();
        let (mut best, mut chosen, mut ties) = (f64::NEG_INFINITY, None, 0u64);
        for &a in s.legal_actions().iter() {
            let mut next = *s;
            next.apply_unchecked(a);
            let v = greedy_value(&next, seat);
            if v > best + 1e-9 {
                (best, chosen, ties) = (v, Some(a), 1);
            } else if (v - best).abs() <= 1e-9 {
                ties += 1;
                if rng.below(ties) == 0 {
                    chosen = Some(a);
                }
            }
        }
        chosen
    }

    /// The bar: greedy games activate every Spirit card.
    #[test]
    fn greedy_activates_every_spirit() {
        use crate::setup::Setup;
        use crate::cards::Cards;
        let mut counts = [0u32; 10];
        for card in 0..10u8 {
            for seed in 0..12 {
                let players = 1 + (seed % 4) as usize;
                let mut s = Setup::new(players, seed).with_cards(Cards::Named(vec![card]), Cards::None).state().unwrap();
                let mut rng = SplitMix64::new(seed);
                while let Some(a) = greedy_action(&s, &mut rng) {
                    if let Action::Spirit { card: c, .. } = a {
                        counts[c as usize] += 1;
                    }
                    s.apply_unchecked(a);
                }
            }
        }
        eprintln!("greedy activations per Spirit: {counts:?}");
        assert!(counts.iter().all(|&n| n > 0), "{counts:?}");
    }

    #[test]
    fn fast_greedy_chooses_exactly_as_the_definition() {
        for players in 1..=4 {
            for seed in 0..6 {
                let mut s = State::new(players, &Layout::for_players(players), &seeded_deal(seed), Rules::default()).unwrap();
                let mut walk = SplitMix64::new(seed + 100);
                let mut buf = ActionList::default();
                let mut k = 0u64;
                while !s.is_over() {
                    let (mut a, mut b) = (SplitMix64::new(k), SplitMix64::new(k));
                    assert_eq!(greedy_action(&s, &mut a), greedy_by_playing(&s, &mut b));
                    assert_eq!(a, b, "the same random draws");
                    let m = random_action(&s, &mut walk, &mut buf).unwrap();
                    s.apply_unchecked(m);
                    k += 1;
                }
            }
        }
    }
}
