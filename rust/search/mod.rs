//! Information-set Monte Carlo tree search (single-observer ISMCTS, Cowling,
//! Powley & Whitehouse 2012), with no Python types.
//!
//! The search is written against the small [`SearchGame`] trait, so it never
//! names the rules; [`crate::State`] implements it in [`dragon_castle`]. Every
//! iteration starts from a fresh determinization of the root for the player to
//! move ([`SearchGame::determinize`]), so no iteration ever sees the true hidden
//! tiles. A move may be legal in one determinization and not in another, so
//! selection uses availability counts (UCB1 with `ln(available)` in place of
//! `ln(parent visits)`). Each node backs up one reward per seat and chooses for
//! the seat to move. `docs/search.md` describes the algorithm and its tuning.

pub mod dragon_castle;
mod tree;

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crate::agents::heuristic as policy;
use crate::rng::SplitMix64;
pub use tree::Tree;

/// Seats a search game may have (rewards are kept in fixed arrays).
pub const MAX_SEATS: usize = 4;

/// What the search needs from a game: who moves, the legal moves, playing one,
/// a determinization of the hidden information, rollouts and utilities.
pub trait SearchGame: Copy + Send + Sync {
    type Move: Copy + Eq + Send + Sync + std::fmt::Debug;
    /// A buffer of moves with a fixed capacity (no allocation per decision).
    type Moves: Default + std::ops::Deref<Target = [Self::Move]>;
    /// Moves have dense indices below this bound.
    const NUM_MOVES: usize;

    fn move_index(m: Self::Move) -> usize;
    fn seat_to_move(&self) -> usize;
    fn is_over(&self) -> bool;
    /// The legal moves, in a deterministic order.
    fn legal_moves(&self, out: &mut Self::Moves);
    /// Play a legal move.
    fn play(&mut self, m: Self::Move);
    /// A copy whose hidden information is re-drawn from what the player to move
    /// knows. It must not depend on the true hidden information.
    fn determinize(&self, rng: &mut SplitMix64) -> Self;
    /// Play on with the rollout policy (to the end, or for `depth` decisions and
    /// then evaluate) and write one utility in `[0, 1]` per seat.
    fn rollout(&mut self, cfg: &Config, rng: &mut SplitMix64, out: &mut [f64; MAX_SEATS]);
    /// A heuristic value of playing `m` (higher first), for progressive widening.
    fn prior(&self, m: Self::Move) -> f64;
}

/// How a finished (or cut-off) game is turned into one utility per seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reward {
    /// 1 for a win, split among tied winners, 0 otherwise (`Game.returns()`).
    Win,
    /// `0.5 + (own score - best other score) / 80`, clipped to `[0, 1]`.
    Margin,
}

/// Rollout policies; all allocation-free.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Rollout {
    /// Uniformly random legal actions.
    Random,
    /// One decision of look-ahead with a weighted position value
    /// ([`policy::choose`]); with probability `epsilon` a uniformly random
    /// action instead.
    Policy { epsilon: f32, weights: policy::Weights },
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
    pub const fn name(self) -> &'static str {
        match self {
            Reward::Win => "win",
            Reward::Margin => "margin",
        }
    }
}

impl Rollout {
    /// `random`, `greedy` or `tuned`, with `epsilon` in [0, 1] (a random
    /// rollout has no use for it).
    pub fn parse(name: &str, epsilon: f32) -> Result<Rollout, String> {
        if !(0.0..=1.0).contains(&epsilon) {
            return Err(format!("epsilon must be in [0, 1]; got {epsilon}"));
        }
        match name {
            "random" => Ok(Rollout::Random),
            "greedy" => Ok(Rollout::greedy(epsilon)),
            "tuned" => Ok(Rollout::tuned(epsilon)),
            _ => Err(format!("rollout is 'random', 'greedy' or 'tuned'; got {name:?}")),
        }
    }
    /// The name [`Rollout::parse`] takes, and the epsilon.
    pub fn name(&self) -> (&'static str, f32) {
        match *self {
            Rollout::Random => ("random", 0.0),
            Rollout::Policy { epsilon, weights } if weights == policy::Weights::GREEDY => ("greedy", epsilon),
            Rollout::Policy { epsilon, .. } => ("tuned", epsilon),
        }
    }
    /// The greedy agent's evaluation (`docs/agents.md`).
    pub const fn greedy(epsilon: f32) -> Rollout {
        Rollout::Policy { epsilon, weights: policy::Weights::GREEDY }
    }
    /// The evaluation tuned for rollouts (`docs/search.md`).
    pub const fn tuned(epsilon: f32) -> Rollout {
        Rollout::Policy { epsilon, weights: policy::Weights::TUNED }
    }
}

/// Search parameters. `iterations` and `time_limit` are budgets: whichever is
/// reached first ends the search (at least one must be set).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Config {
    pub iterations: Option<u64>,
    pub time_limit: Option<f64>,
    /// Root-parallel trees; their root statistics are merged.
    pub threads: usize,
    pub seed: u64,
    /// UCT exploration constant `c` in `mean + c * sqrt(ln(available) / visits)`.
    pub exploration: f64,
    pub reward: Reward,
    pub rollout: Rollout,
    /// Stop a rollout after this many decisions and use the static evaluation.
    pub rollout_depth: Option<u32>,
    /// Search the true state instead of determinizations (measurement only: it
    /// reads hidden tiles, so no agent should play with it).
    pub determinize: bool,
    /// Nodes per tree; past it the tree stops growing and iterations only roll out.
    pub max_nodes: usize,
    /// Progressive widening (default `k = 1`): a node visited `n` times may have
    /// at most `1 + floor(k * sqrt(n))` children legal in the current
    /// determinization, added best [`SearchGame::prior`] first. `None` tries
    /// every legal move, in random order.
    pub widening: Option<f64>,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            iterations: Some(DEFAULT_ITERATIONS),
            time_limit: None,
            threads: 1,
            seed: 0,
            exploration: 0.5,
            reward: Reward::Win,
            rollout: Rollout::tuned(0.0),
            rollout_depth: None,
            determinize: true,
            max_nodes: 4_000_000,
            widening: Some(1.0),
        }
    }
}

/// Root statistics of one move.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MoveStats<M> {
    pub mv: M,
    pub visits: u64,
    /// Mean utility for the seat to move at the root.
    pub value: f64,
}

/// What a search found.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchResult<M> {
    /// The most visited root move (ties: the higher mean value, then the first).
    pub best: Option<M>,
    /// Every root move tried, in the order of the legal list.
    pub root: Vec<MoveStats<M>>,
    /// Most visited moves from the root down (of the first tree when several).
    pub pv: Vec<M>,
    pub iterations: u64,
    pub seconds: f64,
    pub nodes: usize,
}

/// A thread-local budget check that reads the clock only every few iterations.
struct Budget<'a> {
    iterations: u64,
    deadline: Option<Instant>,
    /// Set from outside (Ctrl-C) to end the search early.
    stop: Option<&'a AtomicBool>,
}

impl<'a> Budget<'a> {
    fn new(cfg: &Config, share: u64, start: Instant, stop: Option<&'a AtomicBool>) -> Budget<'a> {
        Budget {
            iterations: share,
            // `check` bounds the time limit, so this cannot overflow.
            deadline: cfg.time_limit.and_then(|t| start.checked_add(Duration::from_secs_f64(t.clamp(0.0, MAX_TIME_LIMIT)))),
            stop,
        }
    }
    #[inline]
    fn done(&self, done: u64) -> bool {
        // At least one iteration, whatever the clock says.
        done >= self.iterations
            || (done > 0
                && done % 8 == 0
                && (self.deadline.is_some_and(|d| Instant::now() >= d) || self.stop.is_some_and(|s| s.load(Ordering::Relaxed))))
    }
}

/// Iterations per search when neither budget is given.
pub const DEFAULT_ITERATIONS: u64 = 1000;
/// The longest time limit accepted: a day.
pub const MAX_TIME_LIMIT: f64 = 86_400.0;
/// Threads a search (or an arena, or a batch) may use.
pub const MAX_THREADS: usize = 256;
/// Bounds of `max_nodes`: room for every root move, and node ids in 31 bits.
pub const MIN_NODES: usize = 1024;
pub const MAX_NODES: usize = 1 << 31;

/// Check a configuration before searching.
pub fn check(cfg: &Config) -> Result<(), String> {
    if cfg.iterations.is_none() && cfg.time_limit.is_none() {
        return Err("set iterations, time_limit or both".into());
    }
    if cfg.iterations == Some(0) {
        return Err("iterations must be at least 1".into());
    }
    if let Some(t) = cfg.time_limit {
        if !(t.is_finite() && t > 0.0 && t <= MAX_TIME_LIMIT) {
            return Err(format!("time_limit must be a number of seconds in (0, {MAX_TIME_LIMIT}]; got {t}"));
        }
    }
    if !(1..=MAX_THREADS).contains(&cfg.threads) {
        return Err(format!("threads must be 1 to {MAX_THREADS}; got {}", cfg.threads));
    }
    if !(cfg.exploration.is_finite() && cfg.exploration >= 0.0) {
        return Err(format!("exploration must be a number >= 0; got {}", cfg.exploration));
    }
    if let Rollout::Policy { epsilon, .. } = cfg.rollout {
        if !(0.0..=1.0).contains(&epsilon) {
            return Err(format!("epsilon must be in [0, 1]; got {epsilon}"));
        }
    }
    if cfg.widening.is_some_and(|k| !(k.is_finite() && k > 0.0)) {
        return Err("widening must be a positive number".into());
    }
    if !(MIN_NODES..=MAX_NODES).contains(&cfg.max_nodes) {
        return Err(format!("max_nodes must be {MIN_NODES} to {MAX_NODES}; got {}", cfg.max_nodes));
    }
    Ok(())
}

/// Search `root` for the seat to move. With `threads == 1` and a fixed seed the
/// result depends only on the position's public information and the config.
/// A position with a single legal move returns it without searching.
pub fn search<G: SearchGame>(root: &G, cfg: &Config) -> SearchResult<G::Move> {
    search_until(root, cfg, None, None).0
}

/// [`search`], continuing from `reuse` (a tree re-rooted at this position with
/// [`Tree::advance`]) when given and `threads == 1`, and ending early when
/// `stop` becomes true (checked every 8 iterations; the result then reflects
/// the iterations done). Returns the first tree too, for the next move.
pub fn search_until<G: SearchGame>(
    root: &G,
    cfg: &Config,
    reuse: Option<Tree<G::Move>>,
    stop: Option<&AtomicBool>,
) -> (SearchResult<G::Move>, Option<Tree<G::Move>>) {
    let start = Instant::now();
    let mut moves = G::Moves::default();
    root.legal_moves(&mut moves);
    if root.is_over() || moves.len() <= 1 {
        let best = moves.first().copied();
        let root_stats = best.map(|m| vec![MoveStats { mv: m, visits: 0, value: 0.0 }]).unwrap_or_default();
        let r = SearchResult { best, root: root_stats, pv: best.into_iter().collect(), iterations: 0, seconds: 0.0, nodes: 0 };
        // A forced move is not searched; a kept tree stays for the next search.
        return (r, reuse);
    }
    let observer = root.seat_to_move();
    let threads = cfg.threads.max(1);
    let total = cfg.iterations.unwrap_or(u64::MAX);
    let mut trees: Vec<Tree<G::Move>> = Vec::with_capacity(threads);
    let mut done = vec![0u64; threads];
    if threads == 1 {
        let mut t = reuse.filter(|t| t.observer() == observer).unwrap_or_else(|| Tree::new(observer));
        let mut rng = SplitMix64::stream(cfg.seed, SEARCH_STREAM);
        done[0] = t.run(root, cfg, &mut rng, &Budget::new(cfg, total, start, stop));
        trees.push(t);
    } else {
        std::thread::scope(|scope| {
            let handles: Vec<_> = (0..threads)
                .map(|k| {
                    // Split the iteration budget evenly; the first threads take the remainder.
                    let share = if total == u64::MAX { total } else { total / threads as u64 + u64::from((k as u64) < total % threads as u64) };
                    scope.spawn(move || {
                        let mut t = Tree::new(observer);
                        let mut rng = SplitMix64::stream(cfg.seed, SEARCH_STREAM + k as u64);
                        let n = if share == 0 { 0 } else { t.run(root, cfg, &mut rng, &Budget::new(cfg, share, start, stop)) };
                        (t, n)
                    })
                })
                .collect();
            for (k, h) in handles.into_iter().enumerate() {
                // A search thread only panics on a bug: pass it on rather than
                // return a result built on missing iterations.
                let (t, n) = h.join().unwrap_or_else(|e| std::panic::resume_unwind(e));
                trees.push(t);
                done[k] = n;
            }
        });
    }
    let mut stats: Vec<MoveStats<G::Move>> = Vec::new();
    for &m in moves.iter() {
        let (mut v, mut w) = (0u64, 0f64);
        for t in &trees {
            if let Some((n, sum)) = t.root_child(m, observer) {
                v += n;
                w += sum;
            }
        }
        if v > 0 {
            stats.push(MoveStats { mv: m, visits: v, value: w / v as f64 });
        }
    }
    let mut best: Option<&MoveStats<G::Move>> = None;
    for s in &stats {
        if best.is_none_or(|b| s.visits > b.visits || (s.visits == b.visits && s.value > b.value)) {
            best = Some(s);
        }
    }
    let best = best.map(|s| s.mv).or_else(|| moves.first().copied());
    let pv = trees.first().map(|t| t.principal_variation(best)).unwrap_or_default();
    let result = SearchResult {
        best,
        root: stats,
        pv,
        iterations: done.iter().sum(),
        seconds: start.elapsed().as_secs_f64(),
        nodes: trees.iter().map(|t| t.len()).sum(),
    };
    (result, trees.into_iter().next())
}

/// Random stream of a search's first tree (thread k uses `SEARCH_STREAM + k`).
const SEARCH_STREAM: u64 = 0x5EA2C4;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::layout::Layout;
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
            let a = search(&s, &cfg);
            let b = search(&s, &cfg);
            assert_eq!(a.best, b.best);
            assert_eq!(a.root, b.root);
            assert_eq!(a.iterations, 300);
            assert!(s.is_legal(a.best.unwrap()));
            assert_eq!(a.root.iter().map(|m| m.visits).sum::<u64>(), 300);
            assert_eq!(a.pv.first(), a.best.as_ref());
        }
    }

    #[test]
    fn threads_merge_root_visits() {
        let s = opening(2, 4);
        let cfg = Config { iterations: Some(401), threads: 3, seed: 1, rollout: Rollout::Random, ..Config::default() };
        let r = search(&s, &cfg);
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
                let r = search(&s, &Config::default());
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
        let mut t: Tree<Action> = Tree::new(0);
        let cfg = Config { iterations: Some(2000), rollout: Rollout::Random, ..Config::default() };
        let mut rng = SplitMix64::new(1);
        t.run(&s, &cfg, &mut rng, &Budget::new(&cfg, 2000, std::time::Instant::now(), None));
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
