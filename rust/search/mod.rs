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

mod root;
mod tree;
#[cfg(test)]
mod toy;

use std::sync::atomic::AtomicBool;
use std::time::Instant;

use crate::rng::SplitMix64;
pub use root::{search, search_until};
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

pub(crate) use crate::budget::Budget;

/// A search's budget: its share of the iterations and the config's time limit.
pub(crate) fn budget<'a>(cfg: &Config, share: u64, start: Instant, stop: Option<&'a AtomicBool>) -> Budget<'a> {
    Budget::new(Some(share), cfg.time_limit, start, stop)
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
