//! Many whole games in Rust threads: throughput without a Python call per step.
//!
//! Game `k` of a batch with seed `s` is dealt with seed `s + k`, and every
//! agent draws by the seed rule of `agents::player`, as in the arena, so
//! results depend neither on the number of threads nor on the runner. One
//! exception, for speed: a batch of `random` games, the core's throughput
//! benchmark, draws from one stream per game,
//! `SplitMix64::stream(s + k, stream::PLAYOUT)`, inside the state's fused
//! pick-and-apply step; through the one decision path the same games cost
//! 1.7 times the instructions (`docs/experiments/2026-12-04-one-player.md`).

use std::sync::atomic::AtomicBool;


use crate::agents::{random_playout, Agent, Player};
use crate::rng::{stream, SplitMix64};
use crate::error::Error;
use crate::setup::Setup;
use crate::state::MAX_PLAYERS;

/// One finished game: scores by seat, winners as a bitmask, decisions taken.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Outcome {
    /// Final score of each seat (R-END-2); 0 beyond the player count.
    pub scores: [i32; MAX_PLAYERS],
    /// The winning seats as a bitmask, bit `i` for seat `i` (a shared victory sets several, R-END-3).
    pub winners: u8,
    /// Decisions taken in the game, all seats together.
    pub decisions: u32,
}

/// Play the game of `setup` to the end with `policy` in every seat, each
/// seat drawing by the seed rule ([`crate::agents::decision_rng`]), as in
/// every runner; `random` alone draws from one stream per game (see the
/// module). An error is a setup's or an evaluator's.
pub fn play_one(setup: &Setup, policy: &Agent, stop: &AtomicBool) -> Result<Outcome, Error> {
    if *policy == Agent::Random {
        let mut s = setup.state()?;
        let decisions = random_playout(&mut s, &mut SplitMix64::stream(setup.seed, stream::PLAYOUT));
        let (scores, winners) = s.final_scores();
        return Ok(Outcome { scores, winners, decisions });
    }
    let mut players = vec![Player::new(policy.clone()); setup.players];
    let g = crate::run::play(&mut players, setup, stop, false, |_, _, _, _| {})?;
    let (scores, winners) = g.state.final_scores();
    Ok(Outcome { scores, winners, decisions: g.decisions.iter().sum() })
}

/// Play `out.len()` games on `threads` threads: game `k` is `setup` dealt
/// (and its cards drawn) from seed `setup.seed + k`. Setting `stop` ends the
/// run after the games in hand (the rest of `out` is then left as it was); so
/// does a network that stops a search, whose error is returned.
pub fn playouts(setup: &Setup, policy: &Agent, threads: usize, out: &mut [Option<Outcome>], stop: &AtomicBool) -> Result<(), Error> {
    let table = crate::run::table(setup, out.len(), threads)?;
    crate::run::check_seats([policy], setup.players)?;
    // Short games: hand them out 64 at a time.
    crate::run::games(&table, out, 64, threads, None, stop, |_, game| play_one(game, policy, stop).map(Some))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thread_count_does_not_change_results() {
        let mut a = vec![None; 37];
        let mut b = a.clone();
        let setup = Setup::new(3, 5).with_cards(crate::cards::Cards::Draw(2), crate::cards::Cards::Draw(2));
        playouts(&setup, &Agent::Random, 1, &mut a, &AtomicBool::new(false)).unwrap();
        playouts(&setup, &Agent::Random, 4, &mut b, &AtomicBool::new(false)).unwrap();
        assert_eq!(a, b);
        assert!(a.iter().all(|o| o.is_some_and(|o| o.decisions > 0 && o.winners != 0)));
    }
}
