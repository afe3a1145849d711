//! Self-play: whole games played by the search for every seat, each decision
//! recorded as a training example (what the mover saw, its legal actions, the
//! search's visit distribution), with the final returns of every seat.
//!
//! Self-play is the arena's loop with a recorder: the same seed rule and
//! the same decisions (tree reuse included when the agent keeps its tree),
//! so a run's records depend neither on the thread count nor on how a run
//! is split into shards.

use std::sync::atomic::{AtomicBool, AtomicUsize};

use crate::action::{Action, ActionList, NUM_ACTIONS};
use crate::agents::player::{Agent, Explore, Player, Stats};
use crate::error::Error;
use crate::search::{self, SearchResult};
use crate::setup::Setup;
use crate::state::observe::COMPACT_OBSERVATION_SIZE;
use crate::state::{State, MAX_PLAYERS};

/// The examples of one game, one row per decision of a player.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct GameRecord {
    /// The game's seed.
    pub seed: u64,
    /// Players in the game (1 in solo).
    pub players: usize,
    /// Rows of [`COMPACT_OBSERVATION_SIZE`] bytes: the mover's compact observation.
    pub observations: Vec<u8>,
    /// Rows of [`NUM_ACTIONS`]: the legal actions.
    pub masks: Vec<bool>,
    /// Rows of [`NUM_ACTIONS`]: the root's visit distribution (a forced move
    /// is searched by nobody and gets all the mass).
    pub policies: Vec<f32>,
    /// Per row: the seat that decided.
    pub to_move: Vec<u8>,
    /// The action played (its id).
    pub actions: Vec<u16>,
    /// The search's value of the position for the mover: the visit-weighted
    /// mean of the root's moves (NaN for a forced move, which is not searched).
    pub values: Vec<f32>,
    /// The game's final returns (`State::returns`), one per seat.
    pub returns: [f64; MAX_PLAYERS],
    /// Sibling targets, recorded only when asked ([`Children`]): rows of
    /// [`COMPACT_OBSERVATION_SIZE`] bytes, the position after a well-visited
    /// root move, seen by the seat to move there (as a search sees a leaf; in
    /// solo, and when the game ends, the seat that moved).
    pub child_observations: Vec<u8>,
    /// Per child: the seat that moved, relative to the seat that sees the
    /// child (`(mover - viewer) mod players`): which of a network's relative
    /// values `child_values` is a target for. Always 0 in solo.
    pub child_seats: Vec<u8>,
    /// Per child: the decision (row of this game) it is a child of.
    pub child_rows: Vec<u32>,
    /// Per child: the root move (its id).
    pub child_actions: Vec<u16>,
    /// Per child: the root's visits of that move.
    pub child_visits: Vec<u32>,
    /// Per child: the search's mean value of that move for the mover (its Q).
    pub child_values: Vec<f32>,
}

/// Which root moves of a searched decision also give a training row (sibling
/// targets: the children of one position share its phase, so their values
/// teach the differences between moves that a search needs).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Children {
    /// A move is recorded when its visits are at least this share of the root's.
    pub min_share: f64,
    /// At most this many moves per decision, the most visited first.
    pub max: usize,
}

impl GameRecord {
    /// Decisions recorded.
    pub fn len(&self) -> usize {
        self.to_move.len()
    }
    /// Whether no decision was recorded.
    pub fn is_empty(&self) -> bool {
        self.to_move.is_empty()
    }
}

/// Play one game of `setup` with `agent`, a search, in every seat (the
/// arena's loop, [`crate::run::play`], with a recorder). `None` when `stop`
/// ended it early. With `children`, the root's well-visited moves are
/// recorded too ([`Children`]).
pub fn play<E: Explore>(setup: &Setup, agent: &Agent<E>, stop: &AtomicBool, children: Option<Children>) -> Result<Option<GameRecord>, Error>
where
    Agent<E>: Clone,
{
    let mut rec = GameRecord { seed: setup.seed, players: setup.players, ..GameRecord::default() };
    let mut players: Vec<Player<E>> = (0..setup.players).map(|_| Player::new(agent.clone())).collect();
    let mut obs = [0u8; COMPACT_OBSERVATION_SIZE];
    let mut legal = ActionList::default();
    let played = crate::run::play(&mut players, setup, stop, false, |s, seat, best, stats| {
        let Stats::Search(r) = stats else { return };
        s.compact_observation(seat, &mut obs);
        rec.observations.extend_from_slice(&obs);
        s.legal_actions_into(&mut legal);
        let row = rec.masks.len();
        rec.masks.resize(row + NUM_ACTIONS, false);
        for a in legal.iter() {
            rec.masks[row + a.id() as usize] = true;
        }
        let row = rec.policies.len();
        rec.policies.resize(row + NUM_ACTIONS, 0.0);
        r.visit_policy(|m| m.id() as usize, &mut rec.policies[row..]);
        record_values(&mut rec, s, seat, r, children, &mut obs);
        rec.to_move.push(seat as u8);
        rec.actions.push(best.id());
    })?;
    if !played.state.is_over() {
        return Ok(None);
    }
    rec.returns = played.state.returns();
    Ok(Some(rec))
}

/// The search's value of the decision and, when asked, its well-visited children.
fn record_values(rec: &mut GameRecord, s: &State, seat: usize, r: &SearchResult<Action>, children: Option<Children>, obs: &mut [u8; COMPACT_OBSERVATION_SIZE]) {
    let total: u64 = r.root.iter().map(|m| m.visits).sum();
    if total == 0 {
        rec.values.push(f32::NAN);
        return;
    }
    let q: f64 = r.root.iter().map(|m| m.value * m.visits as f64).sum::<f64>() / total as f64;
    rec.values.push(q as f32);
    let Some(c) = children else { return };
    let mut kept: Vec<_> = r.root.iter().filter(|m| m.visits > 0 && m.visits as f64 >= c.min_share * total as f64).collect();
    // Most visited first; ties in the legal order (a stable sort).
    kept.sort_by_key(|m| std::cmp::Reverse(m.visits));
    for m in kept.into_iter().take(c.max) {
        let mut child = *s;
        child.apply_unchecked(m.mv);
        let viewer = if child.is_over() { seat } else { child.current_player() };
        child.compact_observation(viewer, obs);
        rec.child_observations.extend_from_slice(obs);
        rec.child_seats.push(((seat + rec.players - viewer) % rec.players) as u8);
        rec.child_rows.push(rec.to_move.len() as u32);
        rec.child_actions.push(m.mv.id());
        rec.child_visits.push(m.visits.min(u32::MAX as u64) as u32);
        rec.child_values.push(m.value as f32);
    }
}

/// Play `games` self-play games of `setup` with `agent` (a search) on
/// `threads` threads; game `k` from seed `setup.seed + k`, recording sibling
/// targets when `children` says so ([`play`]). `done` counts finished games;
/// `stop` ends the run early (unfinished games are left out). An
/// evaluator's error ends the run and is returned.
#[allow(clippy::too_many_arguments)]
pub fn run<E: Explore>(setup: &Setup, games: usize, agent: &Agent<E>, threads: usize, done: &AtomicUsize, stop: &AtomicBool, children: Option<Children>) -> Result<Vec<GameRecord>, Error>
where
    Agent<E>: Clone,
{
    let Agent::Mcts { config, .. } = agent else {
        return Err(Error::Setup("self-play records a search's visits: its agent is an mcts".into()));
    };
    if let Some(c) = children {
        if !(c.min_share.is_finite() && (0.0..=1.0).contains(&c.min_share) && c.max >= 1) {
            return Err(Error::Setup(format!("children need a share in [0, 1] and at most >= 1; got {} and {}", c.min_share, c.max)));
        }
    }
    let table = crate::run::table(setup, games, threads)?;
    search::check(config).map_err(Error::Setup)?;
    let mut out: Vec<Option<GameRecord>> = Vec::new();
    out.try_reserve_exact(games).map_err(|_| Error::Setup(format!("{games} games do not fit in memory")))?;
    out.resize_with(games, || None);
    crate::run::games(&table, &mut out, 1, threads, Some(done), stop, |_, t| play(t, agent, stop, children))?;
    Ok(out.into_iter().flatten().collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::{LeafEval, Rollout, RolloutEval};
    use crate::search::Config;

    fn agent(cfg: &Config, eval: &RolloutEval, c: f64) -> Agent {
        Agent::Mcts { config: *cfg, eval: LeafEval::Rollout(*eval), reuse: false, exploration: Some(c) }
    }

    #[test]
    fn records_are_consistent_and_seeded() {
        let setup = Setup::new(2, 40);
        let cfg = Config { iterations: Some(30), ..Config::default() };
        let eval = RolloutEval { rollout: Rollout::Random, ..RolloutEval::default() };
        let stop = AtomicBool::new(false);
        let run1 = run(&setup, 3, &agent(&cfg, &eval, 0.5), 2, &AtomicUsize::new(0), &stop, None).unwrap();
        let run2 = run(&setup, 3, &agent(&cfg, &eval, 0.5), 1, &AtomicUsize::new(0), &stop, None).unwrap();
        // Compared by bits: a forced move's value is NaN, which equals nothing.
        let bits = |r: &[GameRecord]| r.iter().map(|g| (g.actions.clone(), g.values.iter().map(|v| v.to_bits()).collect::<Vec<_>>(), g.observations.clone())).collect::<Vec<_>>();
        assert_eq!(bits(&run1), bits(&run2), "thread count does not matter");
        for (k, rec) in run1.iter().enumerate() {
            assert_eq!(rec.seed, 40 + k as u64);
            // Every row is the position reached by replaying the actions before it.
            let mut s = setup.reseeded(rec.seed).state().unwrap();
            let n = rec.len();
            assert!(n > 10);
            assert_eq!((rec.observations.len(), rec.actions.len(), rec.values.len()), (n * COMPACT_OBSERVATION_SIZE, n, n));
            assert!(rec.values.iter().all(|v| v.is_nan() || (0.0..=1.0).contains(v)));
            let mut obs = [0u8; COMPACT_OBSERVATION_SIZE];
            for i in 0..n {
                assert_eq!(s.current_player(), rec.to_move[i] as usize);
                s.compact_observation(s.current_player(), &mut obs);
                assert_eq!(&rec.observations[i * COMPACT_OBSERVATION_SIZE..(i + 1) * COMPACT_OBSERVATION_SIZE], &obs[..]);
                let p = &rec.policies[i * NUM_ACTIONS..(i + 1) * NUM_ACTIONS];
                let m = &rec.masks[i * NUM_ACTIONS..(i + 1) * NUM_ACTIONS];
                let legal = s.legal_actions();
                assert_eq!(m.iter().filter(|&&x| x).count(), legal.len());
                assert!(legal.iter().all(|a| m[a.id() as usize]));
                assert!((p.iter().sum::<f32>() - 1.0).abs() < 1e-4);
                assert!(p.iter().zip(m).all(|(&x, &legal)| x == 0.0 || legal), "mass only on legal actions");
                s.apply(crate::Action::from_id(rec.actions[i] as i64).unwrap()).unwrap();
            }
            assert!(s.is_over());
            assert_eq!(s.returns(), rec.returns);
            assert!((rec.returns[..2].iter().sum::<f64>() - 1.0).abs() < 1e-9);
        }
    }

    #[test]
    fn children_are_the_well_visited_root_moves_and_change_nothing_else() {
        let setup = Setup::new(1, 60);
        let cfg = Config { iterations: Some(60), ..Config::default() };
        let eval = RolloutEval { rollout: Rollout::Random, ..RolloutEval::default() };
        let stop = AtomicBool::new(false);
        let c = Children { min_share: 0.1, max: 3 };
        let plain = run(&setup, 2, &agent(&cfg, &eval, 0.05), 1, &AtomicUsize::new(0), &stop, None).unwrap();
        let with = run(&setup, 2, &agent(&cfg, &eval, 0.05), 2, &AtomicUsize::new(0), &stop, Some(c)).unwrap();
        for (p, w) in plain.iter().zip(&with) {
            assert_eq!((&p.actions, &p.observations, &p.policies), (&w.actions, &w.observations, &w.policies), "the game is the same");
            assert!(p.child_rows.is_empty() && p.child_observations.is_empty());
            let n = w.child_rows.len();
            assert!(n > w.len(), "several children per searched decision");
            assert_eq!((w.child_observations.len(), w.child_actions.len(), w.child_visits.len(), w.child_values.len()), (n * COMPACT_OBSERVATION_SIZE, n, n, n));
            let mut s = setup.reseeded(w.seed).state().unwrap();
            let mut obs = [0u8; COMPACT_OBSERVATION_SIZE];
            let mut k = 0;
            for i in 0..w.len() {
                let mine: Vec<usize> = (k..n).take_while(|&j| w.child_rows[j] as usize == i).collect();
                k += mine.len();
                let p = &w.policies[i * NUM_ACTIONS..(i + 1) * NUM_ACTIONS];
                if w.values[i].is_nan() {
                    assert!(mine.is_empty(), "a forced move has no children");
                } else {
                    assert!(!mine.is_empty() && mine.len() <= c.max);
                    let total = cfg.iterations.unwrap() as f32;
                    // The most visited moves come first (the move played is one of them).
                    assert_eq!(w.child_visits[mine[0]] as f32, p[w.actions[i] as usize] * total);
                    let mut last = u32::MAX;
                    for &j in &mine {
                        let a = w.child_actions[j] as usize;
                        assert!((p[a] - w.child_visits[j] as f32 / total).abs() < 1e-6);
                        assert!(p[a] >= c.min_share as f32 - 1e-6 && w.child_visits[j] <= last);
                        last = w.child_visits[j];
                        assert!((0.0..=1.0).contains(&w.child_values[j]));
                        let mut child = s;
                        child.apply(crate::Action::from_id(a as i64).unwrap()).unwrap();
                        child.compact_observation(0, &mut obs);
                        assert_eq!(&w.child_observations[j * COMPACT_OBSERVATION_SIZE..(j + 1) * COMPACT_OBSERVATION_SIZE], &obs[..]);
                    }
                    // The visit-weighted mean of every root move is the row's value; the kept ones are a part of it.
                    let kept: f32 = mine.iter().map(|&j| w.child_visits[j] as f32).sum();
                    assert!(kept <= total);
                }
                s.apply(crate::Action::from_id(w.actions[i] as i64).unwrap()).unwrap();
            }
            assert_eq!(k, n);
        }
        let bad = Children { min_share: 1.5, max: 3 };
        assert!(run(&setup, 1, &agent(&cfg, &eval, 0.05), 1, &AtomicUsize::new(0), &stop, Some(bad)).is_err());
    }
}
