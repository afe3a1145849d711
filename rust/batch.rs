//! Many whole games in Rust threads: throughput without a Python call per step.
//!
//! Game `k` of a batch with seed `s` is dealt with seed `s + k`; a random or
//! greedy playout draws from `SplitMix64::stream(s + k, stream::PLAYOUT)`,
//! other agents by the seed rule of `agents::spec`, so results do not depend
//! on the number of threads.

use std::sync::atomic::AtomicBool;


use crate::agents::spec::Agent;
use crate::arena::play_game;
use crate::agents::{greedy_action, random_playout};
use crate::error::Error;
use crate::rng::{stream, SplitMix64};
use crate::search::EvalError;
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

/// Play the game of `setup` to the end with `policy` in every seat. An error
/// is a network's that stopped a search.
pub fn play_one(setup: &Setup, policy: &Agent, stop: &AtomicBool) -> Result<Outcome, EvalError> {
    let players = setup.players;
    if policy.searches() {
        let g = play_game(&vec![policy.clone(); players], setup, stop)?;
        return Ok(Outcome { scores: g.scores, winners: g.winners, decisions: g.decisions.iter().sum() });
    }
    let game_seed = setup.seed;
    // The setup was validated by the caller, so this cannot fail.
    let Ok(mut s) = setup.state() else { return Ok(Outcome::default()) };
    let mut rng = SplitMix64::stream(game_seed, stream::PLAYOUT);
    let mut decisions = 0;
    if *policy == Agent::Random {
        decisions = random_playout(&mut s, &mut rng);
    }
    loop {
        let a = match policy {
            Agent::Greedy => greedy_action(&s, &mut rng),
            Agent::Dragon => s.dragon_action(),
            Agent::Random | Agent::Mcts { .. } | Agent::Plan { .. } => None, // played above
        };
        let Some(a) = a else { break };
        s.apply_unchecked(a);
        decisions += 1;
    }
    let (scores, winners) = s.final_scores();
    Ok(Outcome { scores, winners, decisions })
}

/// Play `out.len()` games on `threads` threads: game `k` is `setup` dealt
/// (and its cards drawn) from seed `setup.seed + k`. Setting `stop` ends the
/// run after the games in hand (the rest of `out` is then left as it was); so
/// does a network that stops a search, whose error is returned.
pub fn playouts(setup: &Setup, policy: &Agent, threads: usize, out: &mut [Option<Outcome>], stop: &AtomicBool) -> Result<(), Error> {
    let table = crate::run::table(setup, out.len(), threads)?;
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
