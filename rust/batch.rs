//! Many whole games in Rust threads: throughput without a Python call per step.
//!
//! Game `k` of a batch with seed `s` is dealt with seed `s + k` and its agent
//! draws from `SplitMix64::stream(s + k, AGENTS)`, so results do not depend on
//! the number of threads.

use std::sync::atomic::{AtomicBool, Ordering};

use crate::action::ActionList;
use crate::arena::{play_game, AgentSpec};
use crate::agents::{greedy_action, random_action};
use crate::error::Error;
use crate::layout::Layout;
use crate::rng::SplitMix64;
use crate::state::{seeded_deal, Rules, State, MAX_PLAYERS};

const AGENTS: u64 = 3;

/// A built-in policy for every seat.
#[derive(Clone, Copy, Debug, PartialEq)]
#[allow(clippy::large_enum_variant)] // one per batch: size does not matter
pub enum Policy {
    Random,
    Greedy,
    Dragon,
    /// Any other agent spec (`mcts:...`), played as the arena plays it.
    Agent(AgentSpec),
}

impl Policy {
    /// `random`, `greedy`, `dragon`, or any agent spec of [`AgentSpec::parse`].
    pub fn parse(name: &str) -> Result<Policy, Error> {
        match name {
            "random" => Ok(Policy::Random),
            "greedy" => Ok(Policy::Greedy),
            "dragon" => Ok(Policy::Dragon),
            _ => AgentSpec::parse(name).map(Policy::Agent),
        }
    }
}

/// One finished game: scores by seat, winners as a bitmask, decisions taken.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Outcome {
    pub scores: [u32; MAX_PLAYERS],
    pub winners: u8,
    pub decisions: u32,
}

/// Play game `k` of a batch to the end.
pub fn play_one(players: usize, layout: &Layout, seed: u64, policy: Policy, rules: Rules, stop: &AtomicBool) -> Outcome {
    if let Policy::Agent(spec) = policy {
        let g = play_game(&[spec; MAX_PLAYERS][..players], layout, rules, seed, stop);
        return Outcome { scores: g.scores, winners: g.winners, decisions: g.decisions.iter().sum() };
    }
    let game_seed = seed;
    let deal = seeded_deal(game_seed);
    // The layout and deal are valid by construction, so this cannot fail.
    let Ok(mut s) = State::new(players, layout, &deal, rules) else { return Outcome::default() };
    let mut rng = SplitMix64::stream(game_seed, AGENTS);
    let mut buf = ActionList::default();
    let mut decisions = 0;
    loop {
        let a = match policy {
            Policy::Random => random_action(&s, &mut rng, &mut buf),
            Policy::Greedy => greedy_action(&s, &mut rng),
            Policy::Dragon => s.dragon_action(),
            Policy::Agent(_) => None, // played above
        };
        let Some(a) = a else { break };
        s.apply_unchecked(a);
        decisions += 1;
    }
    let mut scores = [0; MAX_PLAYERS];
    for (p, score) in scores.iter_mut().enumerate().take(s.players()) {
        *score = s.score(p);
    }
    Outcome { scores, winners: s.winners_mask(), decisions }
}

/// Play `out.len()` games (game `k` seeded `seed + k`) on `threads` threads.
/// Setting `stop` ends the run after the games in hand (the rest of `out` is
/// then left as it was).
pub fn playouts(
    players: usize,
    seed: u64,
    policy: Policy,
    rules: Rules,
    threads: usize,
    out: &mut [Outcome],
    stop: &AtomicBool,
) -> Result<(), Error> {
    if !(1..=MAX_PLAYERS).contains(&players) {
        return Err(Error::Setup(format!("players must be 1 (solo) to 4; got {players}")));
    }
    let layout = Layout::for_players(players);
    let threads = threads.max(1);
    let chunk = out.len().div_ceil(threads).max(1);
    std::thread::scope(|scope| {
        for (t, part) in out.chunks_mut(chunk).enumerate() {
            let layout = &layout;
            scope.spawn(move || {
                for (i, o) in part.iter_mut().enumerate() {
                    if stop.load(Ordering::Relaxed) {
                        return;
                    }
                    let k = (t * chunk + i) as u64;
                    *o = play_one(players, layout, seed.wrapping_add(k), policy, rules, stop);
                }
            });
        }
    });
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thread_count_does_not_change_results() {
        let mut a = vec![Outcome::default(); 37];
        let mut b = a.clone();
        playouts(3, 5, Policy::Random, Rules::default(), 1, &mut a, &AtomicBool::new(false)).unwrap();
        playouts(3, 5, Policy::Random, Rules::default(), 4, &mut b, &AtomicBool::new(false)).unwrap();
        assert_eq!(a, b);
        assert!(a.iter().all(|o| o.decisions > 0 && o.winners != 0));
    }
}
