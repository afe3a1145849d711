//! Information-set Monte Carlo tree search (single-observer ISMCTS, Cowling,
//! Powley & Whitehouse 2012), generic over the game and the leaf evaluation,
//! with no Python types and no Dragon Castle.
//!
//! The search is written against two small traits: [`SearchGame`] (who moves,
//! the legal moves, playing one, a determinization of the hidden information)
//! and [`Evaluator`] (a value per seat for a leaf and, optionally, priors over
//! its legal moves). Dragon Castle implements both in `crate::eval`.
//!
//! Every iteration starts from a fresh determinization of the root for the
//! player to move ([`SearchGame::determinize`]), so no iteration ever sees the
//! true hidden information. A move may be legal in one determinization and not
//! in another, so selection counts availability: UCB1 with `ln(available)` in
//! place of `ln(parent visits)` when the evaluator gives no priors, PUCT
//! (AlphaZero) with `sqrt(available)` when it does. Leaves are evaluated in
//! batches of [`Evaluator::batch_size`], kept apart by a virtual loss. Each
//! node backs up one value per seat and chooses for the seat to move.
//! `docs/search.md` describes the algorithm and its tuning.

mod tree;
#[cfg(test)]
mod toy;

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crate::rng::{stream, SplitMix64};
pub use tree::Tree;

/// Seats a search game may have (values are kept in fixed arrays).
pub const MAX_SEATS: usize = 4;

/// What the search needs from a game: who moves, the legal moves, playing one,
/// a determinization of the hidden information, and the utilities of an end.
pub trait SearchGame: Copy + Send + Sync {
    /// A decision of the game (Dragon Castle: [`crate::Action`]).
    type Move: Copy + Eq + Send + Sync + std::fmt::Debug;
    /// A buffer of moves with a fixed capacity (no allocation per decision).
    type Moves: Default + Clone + Send + std::ops::Deref<Target = [Self::Move]>;
    /// Moves have dense indices below this bound.
    const NUM_MOVES: usize;

    /// The dense index of `m`, below [`SearchGame::NUM_MOVES`]: priors are laid out by it
    /// (Dragon Castle: the action id).
    fn move_index(m: Self::Move) -> usize;
    /// The seat that decides now: a node chooses among its children for this seat.
    fn seat_to_move(&self) -> usize;
    /// Whether the game has ended; the search then values it with [`Evaluator::terminal`].
    fn is_over(&self) -> bool;
    /// The legal moves, in a deterministic order.
    fn legal_moves(&self, out: &mut Self::Moves);
    /// Play a legal move.
    fn play(&mut self, m: Self::Move);
    /// A copy whose hidden information is re-drawn from what the player to move
    /// knows. It must not depend on the true hidden information.
    fn determinize(&self, rng: &mut SplitMix64) -> Self;
    /// The utility per seat of a finished game, in `[0, 1]`.
    fn returns(&self, out: &mut [f64; MAX_SEATS]);
}

pub use crate::error::EvalError;

/// How the search values its leaves: a value per seat for every leaf and,
/// when [`Evaluator::gives_priors`], a prior per legal move (PUCT selection).
/// Without priors the search selects by UCB1 and widens the tree in the
/// order of [`Evaluator::order`].
pub trait Evaluator<G: SearchGame>: Send + Sync {
    /// Whether [`Evaluator::evaluate`] writes priors.
    fn gives_priors(&self) -> bool {
        false
    }
    /// Leaves evaluated per call (at least 1).
    fn batch_size(&self) -> usize {
        1
    }
    /// Evaluate unfinished leaves: write `values[i]` (one utility per seat,
    /// in `[0, 1]`) and, with priors, `priors[i * G::NUM_MOVES + move_index(m)]`
    /// for the legal moves `m` of leaf `i` (the rest is ignored; the search
    /// normalises over the legal moves). A leaf may be played on in place.
    fn evaluate(&self, leaves: &mut [G], rng: &mut SplitMix64, values: &mut [[f64; MAX_SEATS]], priors: &mut [f32]) -> Result<(), EvalError>;
    /// The value of a finished game (the game's own returns unless the
    /// evaluator scores ends differently).
    fn terminal(&self, g: &G, out: &mut [f64; MAX_SEATS]) {
        g.returns(out);
    }
    /// A heuristic value of playing `m` (higher first), for progressive
    /// widening without priors.
    fn order(&self, _g: &G, _m: G::Move) -> f64 {
        0.0
    }
}

/// A shared evaluator (a model loaded once, used by many searches).
impl<G: SearchGame, E: Evaluator<G> + ?Sized> Evaluator<G> for std::sync::Arc<E> {
    fn gives_priors(&self) -> bool {
        (**self).gives_priors()
    }
    fn batch_size(&self) -> usize {
        (**self).batch_size()
    }
    fn evaluate(&self, leaves: &mut [G], rng: &mut SplitMix64, values: &mut [[f64; MAX_SEATS]], priors: &mut [f32]) -> Result<(), EvalError> {
        (**self).evaluate(leaves, rng, values, priors)
    }
    fn terminal(&self, g: &G, out: &mut [f64; MAX_SEATS]) {
        (**self).terminal(g, out)
    }
    fn order(&self, g: &G, m: G::Move) -> f64 {
        (**self).order(g, m)
    }
}

/// A guiding evaluator (priors and values) whose values are mixed with a
/// second one's, usually a rollout: `(1 - weight) * guide + weight * rollout`
/// (AlphaGo's λ).
#[derive(Clone, Debug)]
pub struct Mixed<A, B> {
    /// Gives the priors, the batch size and the values of finished games.
    pub guide: A,
    /// Its values are mixed into the guide's at `weight`.
    pub rollout: B,
    /// λ in `[0, 1]`: 0 takes the guide's values alone (no rollout is played).
    pub weight: f64,
}

impl<G: SearchGame, A: Evaluator<G>, B: Evaluator<G>> Evaluator<G> for Mixed<A, B> {
    fn gives_priors(&self) -> bool {
        self.guide.gives_priors()
    }
    fn batch_size(&self) -> usize {
        self.guide.batch_size()
    }
    fn evaluate(&self, leaves: &mut [G], rng: &mut SplitMix64, values: &mut [[f64; MAX_SEATS]], priors: &mut [f32]) -> Result<(), EvalError> {
        self.guide.evaluate(&mut leaves.to_vec(), rng, values, priors)?;
        if self.weight > 0.0 {
            let mut rolled = vec![[0.0; MAX_SEATS]; leaves.len()];
            self.rollout.evaluate(leaves, rng, &mut rolled, &mut [])?;
            for (v, r) in values.iter_mut().zip(&rolled) {
                for (x, y) in v.iter_mut().zip(r) {
                    *x = (1.0 - self.weight) * *x + self.weight * y;
                }
            }
        }
        Ok(())
    }
    fn terminal(&self, g: &G, out: &mut [f64; MAX_SEATS]) {
        self.guide.terminal(g, out);
    }
}

/// Search parameters. `iterations` and `time_limit` are budgets: whichever is
/// reached first ends the search (at least one must be set). How leaves are
/// valued is the [`Evaluator`]'s business, not the config's.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Config {
    /// Iterations in all, split among the threads; `None`: only the time limit counts.
    pub iterations: Option<u64>,
    /// Seconds of wall-clock time, at most [`MAX_TIME_LIMIT`]; `None`: only the iterations count.
    pub time_limit: Option<f64>,
    /// Root-parallel trees; their root statistics are merged.
    pub threads: usize,
    /// Seed of the search's draws (tree `k` uses stream `SEARCH + k`, a temperature draw `CHOICE`):
    /// with one thread and no time limit, the same seed gives the same result.
    pub seed: u64,
    /// The exploration constant: UCT's `c` in `mean + c * sqrt(ln(available) / visits)`,
    /// or PUCT's in `mean + c * prior * sqrt(available) / (1 + visits)`.
    pub exploration: f64,
    /// Search the true state instead of determinizations (measurement only: it
    /// reads hidden information, so no agent should play with it).
    pub determinize: bool,
    /// Nodes per tree; past it the tree stops growing and iterations only evaluate.
    pub max_nodes: usize,
    /// Progressive widening without priors (default `k = 1`): a node visited
    /// `n` times may have at most `1 + floor(k * sqrt(n))` children legal in
    /// the current determinization, added best [`Evaluator::order`] first.
    /// `None` tries every legal move, in random order.
    pub widening: Option<f64>,
    /// Dirichlet noise on the root's priors for self-play: `(alpha, fraction)`,
    /// priors become `(1 - fraction) * p + fraction * Dir(alpha)`. Off by default.
    pub noise: Option<(f64, f64)>,
    /// The final choice: 0 takes the most visited move; `t > 0` draws a root
    /// move with probability proportional to `visits^(1/t)` (self-play).
    pub temperature: f64,
    /// The weight in `(0, 1]` of a kept tree's statistics when a search
    /// continues it ([`Tree::discount`]); 1 keeps them whole.
    pub reuse_weight: f64,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            iterations: Some(DEFAULT_ITERATIONS),
            time_limit: None,
            threads: 1,
            seed: 0,
            exploration: 0.5,
            determinize: true,
            max_nodes: DEFAULT_MAX_NODES,
            widening: Some(DEFAULT_WIDENING),
            noise: None,
            temperature: 0.0,
            reuse_weight: DEFAULT_REUSE_WEIGHT,
        }
    }
}

/// Root statistics of one move.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MoveStats<M> {
    /// The root move.
    pub mv: M,
    /// Iterations that chose it at the root, summed over the trees.
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
    /// Iterations run, summed over the threads (0 for a forced move, which is not searched).
    pub iterations: u64,
    /// Wall-clock seconds the search took.
    pub seconds: f64,
    /// Nodes in all the trees together.
    pub nodes: usize,
}

impl<M: Copy> SearchResult<M> {
    /// The root's visit distribution (a training target), written into `out`
    /// at each move's index `index(move)`, the rest zero: visits over their
    /// total; without any visit (a forced move is not searched), all on the
    /// move chosen.
    ///
    /// ```
    /// use _core::search::{MoveStats, SearchResult};
    /// let stats = |mv, visits| MoveStats { mv, visits, value: 0.0 };
    /// let r = SearchResult { best: Some(2usize), root: vec![stats(0, 1), stats(2, 3)], pv: vec![], iterations: 4, seconds: 0.0, nodes: 3 };
    /// let mut p = [9.0f32; 4];
    /// r.visit_policy(|m| m, &mut p);
    /// assert_eq!(p, [0.25, 0.0, 0.75, 0.0]);
    /// ```
    pub fn visit_policy(&self, index: impl Fn(M) -> usize, out: &mut [f32]) {
        out.fill(0.0);
        let total: u64 = self.root.iter().map(|m| m.visits).sum();
        if total == 0 {
            if let Some(b) = self.best {
                out[index(b)] = 1.0;
            }
            return;
        }
        for m in &self.root {
            out[index(m.mv)] = m.visits as f32 / total as f32;
        }
    }
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
    /// Whether to stop after `done` iterations, `before` of them done when
    /// last asked: the clock and the stop flag are read each time the count
    /// passes a multiple of 8 (batches may step over the multiples themselves).
    #[inline]
    fn done(&self, before: u64, done: u64) -> bool {
        // At least one iteration, whatever the clock says.
        done >= self.iterations
            || (done > 0
                && done / 8 != before / 8
                && (self.deadline.is_some_and(|d| Instant::now() >= d) || self.stop.is_some_and(|s| s.load(Ordering::Relaxed))))
    }
}

/// Progressive widening's constant unless set (`docs/search.md`).
pub const DEFAULT_WIDENING: f64 = 1.0;
/// Whether an agent keeps its tree between its moves unless told
/// (`reuse_tree`, `reuse`): with the kept statistics discounted to
/// [`DEFAULT_REUSE_WEIGHT`] it was stronger than a fresh search at the
/// budgets that tell them apart, and no weaker at the others (`docs/experiments/2026-11-30-search-tuning.md`,
/// `docs/experiments/2026-12-02-reuse-at-one-second.md`).
pub const DEFAULT_REUSE: bool = true;
/// The weight of a kept tree's statistics unless set: at full weight a long
/// search's kept visits, from determinizations the moves since contradict,
/// outnumber the next search's and decide its move (`docs/search.md`,
/// "Budgets, threads, determinism").
pub const DEFAULT_REUSE_WEIGHT: f64 = 0.2;
/// Nodes per tree unless set.
pub const DEFAULT_MAX_NODES: usize = 4_000_000;
/// Iterations per search when neither budget is given.
pub const DEFAULT_ITERATIONS: u64 = 1000;
pub use crate::limits::{MAX_THREADS, MAX_TIME_LIMIT};
/// Bounds of `max_nodes`: room for every root move, and node ids in 31 bits.
pub const MIN_NODES: usize = 1024;
/// Largest `max_nodes`: node ids fit in 31 bits.
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
    if let Some((alpha, fraction)) = cfg.noise {
        if !(alpha.is_finite() && alpha > 0.0 && (0.0..=1.0).contains(&fraction)) {
            return Err(format!("noise needs alpha > 0 and a fraction in [0, 1]; got ({alpha}, {fraction})"));
        }
    }
    if !(cfg.temperature.is_finite() && cfg.temperature >= 0.0) {
        return Err(format!("temperature must be a number >= 0; got {}", cfg.temperature));
    }
    if !(cfg.reuse_weight > 0.0 && cfg.reuse_weight <= 1.0) {
        return Err(format!("reuse_weight must be in (0, 1]; got {}", cfg.reuse_weight));
    }
    if cfg.widening.is_some_and(|k| !(k.is_finite() && k > 0.0)) {
        return Err("widening must be a positive number".into());
    }
    if !(MIN_NODES..=MAX_NODES).contains(&cfg.max_nodes) {
        return Err(format!("max_nodes must be {MIN_NODES} to {MAX_NODES}; got {}", cfg.max_nodes));
    }
    Ok(())
}

/// Search `root` for the seat to move, valuing leaves with `eval`. With
/// `threads == 1` and a fixed seed the result depends only on the position's
/// public information, the config and the evaluator. A position with a single
/// legal move returns it without searching.
///
/// ```
/// use _core::eval::RolloutEval;
/// use _core::search::{search, Config};
/// use _core::{Game, Rules};
///
/// let game = Game::new(2, 7, None, Rules::default(), None).unwrap();
/// let cfg = Config { iterations: Some(64), seed: 1, ..Config::default() };
/// // Each iteration re-deals the covered castle tiles and values a leaf by a rollout.
/// let result = search(game.state(), &cfg, &RolloutEval::default()).unwrap();
/// let best = result.best.unwrap();
/// assert!(game.state().legal_actions().contains(best));
/// assert!(result.root.iter().any(|m| m.mv == best && m.visits > 0));
/// // One thread and a fixed seed: the same search gives the same move.
/// assert_eq!(search(game.state(), &cfg, &RolloutEval::default()).unwrap().best, Some(best));
/// ```
pub fn search<G: SearchGame, E: Evaluator<G>>(root: &G, cfg: &Config, eval: &E) -> Result<SearchResult<G::Move>, EvalError> {
    search_until(root, cfg, eval, None, None).map(|r| r.0)
}

/// [`search`], continuing from `reuse` (a tree re-rooted at this position with
/// [`Tree::advance`]) when given and `threads == 1`, and ending early when
/// `stop` becomes true (checked every 8 iterations; the result then reflects
/// the iterations done). Returns the first tree too, for the next move. An
/// evaluator's error ends the search and is returned.
pub fn search_until<G: SearchGame, E: Evaluator<G>>(
    root: &G,
    cfg: &Config,
    eval: &E,
    reuse: Option<Tree<G::Move>>,
    stop: Option<&AtomicBool>,
) -> Result<(SearchResult<G::Move>, Option<Tree<G::Move>>), EvalError> {
    let start = Instant::now();
    let mut moves = G::Moves::default();
    root.legal_moves(&mut moves);
    if root.is_over() || moves.len() <= 1 {
        let best = moves.first().copied();
        let root_stats = best.map(|m| vec![MoveStats { mv: m, visits: 0, value: 0.0 }]).unwrap_or_default();
        let r = SearchResult { best, root: root_stats, pv: best.into_iter().collect(), iterations: 0, seconds: 0.0, nodes: 0 };
        // A forced move is not searched; a kept tree stays for the next search.
        return Ok((r, reuse));
    }
    let observer = root.seat_to_move();
    let threads = cfg.threads.max(1);
    let total = cfg.iterations.unwrap_or(u64::MAX);
    let mut trees: Vec<Tree<G::Move>> = Vec::with_capacity(threads);
    let mut done = vec![0u64; threads];
    if threads == 1 {
        let mut t = match reuse.filter(|t| t.observer() == observer) {
            Some(mut t) => {
                t.discount(cfg.reuse_weight);
                t
            }
            None => Tree::new(observer),
        };
        let mut rng = SplitMix64::stream(cfg.seed, stream::SEARCH);
        done[0] = t.run(root, cfg, eval, &mut rng, &Budget::new(cfg, total, start, stop))?;
        trees.push(t);
    } else {
        let mut failed = None;
        std::thread::scope(|scope| {
            let handles: Vec<_> = (0..threads)
                .map(|k| {
                    // Split the iteration budget evenly; the first threads take the remainder.
                    let share = if total == u64::MAX { total } else { total / threads as u64 + u64::from((k as u64) < total % threads as u64) };
                    scope.spawn(move || {
                        let mut t = Tree::new(observer);
                        let mut rng = SplitMix64::stream(cfg.seed, stream::SEARCH + k as u64);
                        let n = if share == 0 { Ok(0) } else { t.run(root, cfg, eval, &mut rng, &Budget::new(cfg, share, start, stop)) };
                        (t, n)
                    })
                })
                .collect();
            for (k, h) in handles.into_iter().enumerate() {
                // A search thread only panics on a bug: pass it on rather than
                // return a result built on missing iterations.
                let (t, n) = h.join().unwrap_or_else(|e| std::panic::resume_unwind(e));
                trees.push(t);
                match n {
                    Ok(n) => done[k] = n,
                    Err(e) => {
                        failed.get_or_insert(e);
                    }
                }
            }
        });
        if let Some(e) = failed {
            return Err(e);
        }
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
    let best = if cfg.temperature > 0.0 {
        sample_by_visits(&stats, cfg.temperature, &mut SplitMix64::stream(cfg.seed, stream::CHOICE))
    } else {
        let mut best: Option<&MoveStats<G::Move>> = None;
        for s in &stats {
            if best.is_none_or(|b| s.visits > b.visits || (s.visits == b.visits && s.value > b.value)) {
                best = Some(s);
            }
        }
        best.map(|s| s.mv)
    };
    let best = best.or_else(|| moves.first().copied());
    let pv = trees.first().map(|t| t.principal_variation(best)).unwrap_or_default();
    let result = SearchResult {
        best,
        root: stats,
        pv,
        iterations: done.iter().sum(),
        seconds: start.elapsed().as_secs_f64(),
        nodes: trees.iter().map(|t| t.len()).sum(),
    };
    Ok((result, trees.into_iter().next()))
}

/// A root move drawn with probability proportional to `visits^(1/t)`.
fn sample_by_visits<M: Copy>(stats: &[MoveStats<M>], t: f64, rng: &mut SplitMix64) -> Option<M> {
    let top = stats.iter().map(|s| s.visits).max()? as f64;
    // Relative to the most visited move, so small temperatures do not overflow.
    let weights: Vec<f64> = stats.iter().map(|s| (s.visits as f64 / top).powf(1.0 / t)).collect();
    let total: f64 = weights.iter().sum();
    let mut x = rng.unit() * total;
    for (s, w) in stats.iter().zip(&weights) {
        if x < *w {
            return Some(s.mv);
        }
        x -= w;
    }
    stats.last().map(|s| s.mv)
}
