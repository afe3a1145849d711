//! Many games between built-in agents, MCTS included, in Rust threads.
//!
//! Game `k` of a run with seed `s` is dealt with seed `s + k`, and the seats are
//! rotated by that game seed: seat `i` is played by agent `(i + s + k) mod n`.
//! Every random draw of an agent comes from the game seed, its seat and the
//! decision number, so a game's result never depends on the thread count, on
//! which thread plays it, or on how a run is split into shards.

use std::sync::atomic::{AtomicBool, AtomicUsize};

use crate::action::Action;
pub use crate::agents::spec::{Agent, AgentSpec};
use crate::agents::{Player, Stats};
use crate::error::Error;
use crate::search::{MoveStats, SearchResult};
use crate::setup::Setup;
use crate::state::MAX_PLAYERS;

/// One finished game of an arena.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ArenaGame {
    /// The game's seed: its deal, its cards and every agent's draws come from it.
    pub seed: u64,
    /// `agent_of_seat[i]`: index into the arena's agents of the one in seat `i`;
    /// 0 beyond the player count.
    pub agent_of_seat: [u8; MAX_PLAYERS],
    /// Score of each seat when the game ended (R-END-2); 0 beyond the player count.
    pub scores: [i32; MAX_PLAYERS],
    /// The winning seats as a bitmask, bit `i` for seat `i` (a shared victory sets several, R-END-3).
    pub winners: u8,
    /// Every decision of the players in order (not the solo Dragon's moves,
    /// which `apply` replays).
    pub actions: Vec<Action>,
    /// Per seat: decisions taken and seconds spent choosing them.
    pub decisions: [u32; MAX_PLAYERS],
    /// Per seat: seconds spent choosing those decisions.
    pub seconds: [f64; MAX_PLAYERS],
    /// When asked for (`top_moves > 0`), one entry per decision of `actions`:
    /// the search's root statistics, `None` for an agent that does not search.
    /// Empty otherwise.
    pub search: Vec<Option<DecisionStats>>,
}

impl ArenaGame {
    /// The share of this game won by agent `agent`: 1 for a sole winner, split
    /// in a shared victory (R-END-3), 0 for a loss or an agent without a seat.
    /// A solo game's one agent always gets 1 (its result is its score).
    ///
    /// ```
    /// let g = _core::arena::ArenaGame { agent_of_seat: [1, 0, 0, 0], winners: 0b11, ..Default::default() };
    /// assert_eq!((g.share_of(0), g.share_of(1), g.share_of(2)), (0.5, 0.5, 0.0));
    /// ```
    pub fn share_of(&self, agent: usize) -> f64 {
        // Seats past the player count hold 0, but agent 0 always sits in an
        // earlier, real seat, so the first match is the agent's own seat.
        let seat = self.agent_of_seat.iter().position(|&a| a as usize == agent);
        seat.map_or(0.0, |seat| crate::state::score::win_shares(self.winners)[seat])
    }
}

/// What a search saw at the root of one decision, for a record.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct DecisionStats {
    /// Iterations run (0 for a forced move, which is not searched).
    pub iterations: u64,
    /// The most visited root moves, most visited first (ties: the higher
    /// mean value, then the legal order, as the search chooses its move).
    pub top: Vec<MoveStats<Action>>,
}

impl DecisionStats {
    /// The `k` most visited root moves of `r`.
    pub fn of(r: &SearchResult<Action>, k: usize) -> DecisionStats {
        let mut top = r.root.clone();
        // A stable sort keeps the legal order among equals.
        top.sort_by(|a, b| b.visits.cmp(&a.visits).then(b.value.total_cmp(&a.value)));
        top.truncate(k);
        DecisionStats { iterations: r.iterations, top }
    }
}

/// Play one game: `agents.len()` players (1 is solo against the Dragon of
/// Ingenuity), seats rotated by the game seed, keeping the `top_moves` most
/// visited root moves of every search decision in [`ArenaGame::search`]
/// (none when 0; recording reads the search's result after the decision is
/// timed and changes no draw, so the game is the same either way). When
/// `stop` becomes true the game is abandoned (and returned unfinished).
pub fn play_game(agents: &[Agent], setup: &Setup, stop: &AtomicBool, top_moves: usize) -> Result<ArenaGame, Error> {
    let n = agents.len();
    let mut out = ArenaGame { seed: setup.seed, ..ArenaGame::default() };
    for seat in 0..n {
        out.agent_of_seat[seat] = ((seat as u64 + setup.seed % n as u64) % n as u64) as u8;
    }
    let mut players: Vec<Player> = (0..n).map(|seat| Player::new(agents[out.agent_of_seat[seat] as usize].clone())).collect();
    let mut search = Vec::new();
    let played = crate::run::play(&mut players, &Setup { players: n, ..setup.clone() }, stop, true, |_, _, _, stats| {
        if top_moves > 0 {
            search.push(match stats {
                Stats::Search(r) => Some(DecisionStats::of(r, top_moves)),
                _ => None,
            });
        }
    })?;
    (out.scores, out.winners) = played.state.final_scores();
    (out.actions, out.decisions, out.seconds, out.search) = (played.actions, played.decisions, played.seconds, search);
    Ok(out)
}

/// Play `games` games between `agents` (1 to 4; one agent is a solo game) on
/// `threads` threads. `done` counts finished games as they end; setting `stop`
/// ends the run early (unfinished games are then missing from the result); so
/// does a network that stops a search, whose error is returned.
/// Game `k` is `setup` (its players set to `agents.len()`) dealt, and its
/// cards drawn, from seed `setup.seed + k`.
/// With `top_moves` > 0 every search decision keeps its most visited root
/// moves ([`play_game`]); the games are the same.
pub fn run(
    agents: &[Agent],
    games: usize,
    setup: &Setup,
    threads: usize,
    done: &AtomicUsize,
    stop: &AtomicBool,
    top_moves: usize,
) -> Result<Vec<ArenaGame>, Error> {
    if !(1..=MAX_PLAYERS).contains(&agents.len()) {
        return Err(Error::Setup(format!("an arena needs 1 to 4 agents; got {}", agents.len())));
    }
    crate::run::check_seats(agents, agents.len())?;
    let table = crate::run::table(&Setup { players: agents.len(), ..setup.clone() }, games, threads)?;
    let mut out: Vec<Option<ArenaGame>> = Vec::new();
    out.try_reserve_exact(games).map_err(|_| Error::Setup(format!("{games} games do not fit in memory")))?;
    out.resize_with(games, || None);
    // Games are handed out one at a time so long MCTS games balance out.
    crate::run::games(&table, &mut out, 1, threads, Some(done), stop, |_, t| play_game(agents, t, stop, top_moves).map(Some))?;
    Ok(out.into_iter().flatten().collect())
}


#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::Ordering;

    fn specs(texts: &[&str]) -> Vec<Agent> {
        texts.iter().map(|t| Agent::parse(t).unwrap()).collect()
    }

    #[test]
    fn results_do_not_depend_on_threads_or_shards() {
        let agents = specs(&["mcts:iterations=30,rollout=random,reuse=true", "greedy"]);
        let (d, stop) = (AtomicUsize::new(0), AtomicBool::new(false));
        let a = run(&agents, 6, &Setup::new(0, 10), 1, &d, &stop, 0).unwrap();
        let b = run(&agents, 6, &Setup::new(0, 10), 3, &d, &stop, 0).unwrap();
        let c1 = run(&agents, 2, &Setup::new(0, 10), 2, &d, &stop, 0).unwrap();
        let c2 = run(&agents, 4, &Setup::new(0, 12), 2, &d, &stop, 0).unwrap();
        let strip = |v: &[ArenaGame]| v.iter().map(|g| (g.seed, g.agent_of_seat, g.scores, g.winners, g.actions.clone())).collect::<Vec<_>>();
        assert_eq!(strip(&a), strip(&b));
        assert_eq!(strip(&a), strip(&[c1, c2].concat()));
        assert_eq!(d.load(Ordering::Relaxed), 18);
        // Seats rotate with the game seed.
        assert_ne!(a[0].agent_of_seat[0], a[1].agent_of_seat[0]);
    }

    #[test]
    fn recording_the_search_changes_no_game() {
        let agents = specs(&["mcts:iterations=40,rollout=random,reuse=true", "mcts:iterations=30", "greedy"]);
        let (d, stop) = (AtomicUsize::new(0), AtomicBool::new(false));
        let plain = run(&agents, 3, &Setup::new(0, 5), 2, &d, &stop, 0).unwrap();
        let recorded = run(&agents, 3, &Setup::new(0, 5), 2, &d, &stop, 3).unwrap();
        let strip = |v: &[ArenaGame]| v.iter().map(|g| (g.seed, g.agent_of_seat, g.scores, g.winners, g.actions.clone(), g.decisions)).collect::<Vec<_>>();
        assert_eq!(strip(&plain), strip(&recorded));
        assert!(plain.iter().all(|g| g.search.is_empty()));
        for g in &recorded {
            assert_eq!(g.search.len(), g.actions.len());
            let mut s = Setup::new(3, g.seed).state().unwrap();
            let mut searched = 0;
            for (a, stats) in g.actions.iter().zip(&g.search) {
                let seat = s.current_player();
                let searches = matches!(agents[g.agent_of_seat[seat] as usize], Agent::Mcts { .. });
                assert_eq!(stats.is_some(), searches);
                if let Some(st) = stats {
                    // The move played is the most visited, listed first.
                    assert_eq!(st.top[0].mv, *a);
                    assert!(st.top.len() <= 3 && st.top.windows(2).all(|w| w[0].visits >= w[1].visits));
                    let legal = s.legal_actions();
                    assert!(st.top.iter().all(|m| legal.contains(m.mv)));
                    if legal.len() > 1 {
                        searched += 1;
                        // (A reused tree's visits may exceed this search's iterations.)
                        assert!(st.iterations > 0 && st.top[0].visits > 0);
                    } else {
                        assert_eq!(st.iterations, 0);
                    }
                }
                s.apply(*a).unwrap();
            }
            assert!(searched > 20);
        }
    }

    #[test]
    fn share_of_is_each_seats_return() {
        let agents = specs(&["mcts:iterations=30", "greedy", "random"]);
        let (d, stop) = (AtomicUsize::new(0), AtomicBool::new(false));
        for g in run(&agents, 3, &Setup::new(0, 5), 2, &d, &stop, 0).unwrap() {
            let mut s = Setup::new(3, g.seed).state().unwrap();
            for &a in &g.actions {
                s.apply(a).unwrap();
            }
            // Seat 3 holds 0 past the player count: agent 0 must still be found in its own seat.
            for (&agent, &r) in g.agent_of_seat.iter().zip(&s.returns()).take(agents.len()) {
                assert_eq!(g.share_of(agent as usize), r);
            }
            assert_eq!(g.share_of(agents.len()), 0.0);
        }
        // A shared victory of seats 0 and 2 (R-END-3), built by hand: deals rarely tie.
        let g = ArenaGame { agent_of_seat: [2, 0, 1, 0], winners: 0b101, ..ArenaGame::default() };
        assert_eq!([g.share_of(0), g.share_of(1), g.share_of(2)], [0.0, 0.5, 0.5]);
    }

    #[test]
    fn solo_arena_and_replay() {
        let agents = specs(&["mcts:iterations=20"]);
        let (d, stop) = (AtomicUsize::new(0), AtomicBool::new(false));
        let games = run(&agents, 2, &Setup::new(0, 3), 2, &d, &stop, 0).unwrap();
        for g in &games {
            let mut game = crate::Game::new(1, g.seed, None, crate::Rules::default(), None).unwrap();
            for &a in &g.actions {
                game.apply(a).unwrap();
            }
            assert!(game.state().is_over());
            assert_eq!(game.state().score(0), g.scores[0]);
        }
    }
}
