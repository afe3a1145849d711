//! The search of one position: its trees (one per thread, or a kept one),
//! their root statistics merged, and the move chosen from them.

use std::sync::atomic::AtomicBool;
use std::time::Instant;

use super::{Config, EvalError, Evaluator, MoveStats, SearchGame, SearchResult, Tree};
use crate::rng::{stream, SplitMix64};

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
    let (trees, done) = if threads == 1 {
        let mut trees: Vec<Tree<G::Move>> = Vec::with_capacity(threads);
        let mut done = vec![0u64; threads];
        let mut t = match reuse.filter(|t| t.observer() == observer) {
            Some(mut t) => {
                t.discount(cfg.reuse_weight);
                t
            }
            None => Tree::new(observer),
        };
        let mut rng = SplitMix64::stream(cfg.seed, stream::SEARCH);
        done[0] = t.run(root, cfg, eval, &mut rng, &super::budget(cfg, total, start, stop))?;
        trees.push(t);
        (trees, done)
    } else {
        search_threads(root, cfg, eval, total, start, stop)?
    };
    let stats = merged_root_stats(&trees, &moves, observer);
    let best = choose(&stats, cfg).or_else(|| moves.first().copied());
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

/// The trees of a search and the iterations each ran.
type Trees<M> = (Vec<Tree<M>>, Vec<u64>);

/// Root-parallel search: `cfg.threads` fresh trees, each with its share of
/// the `total` iterations and a search stream of its own. Returns the trees
/// and the iterations each ran, or the first evaluator's error.
fn search_threads<G: SearchGame, E: Evaluator<G>>(
    root: &G,
    cfg: &Config,
    eval: &E,
    total: u64,
    start: Instant,
    stop: Option<&AtomicBool>,
) -> Result<Trees<G::Move>, EvalError> {
    let observer = root.seat_to_move();
    let threads = cfg.threads.max(1);
    let mut trees: Vec<Tree<G::Move>> = Vec::with_capacity(threads);
    let mut done = vec![0u64; threads];
    let mut failed = None;
    std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|k| {
                // Split the iteration budget evenly; the first threads take the remainder.
                let share = if total == u64::MAX { total } else { total / threads as u64 + u64::from((k as u64) < total % threads as u64) };
                scope.spawn(move || {
                    let mut t = Tree::new(observer);
                    let mut rng = SplitMix64::stream(cfg.seed, stream::SEARCH + k as u64);
                    let n = if share == 0 { Ok(0) } else { t.run(root, cfg, eval, &mut rng, &super::budget(cfg, share, start, stop)) };
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
    Ok((trees, done))
}

/// The root statistics of the legal `moves` tried, summed over the trees, in
/// the order of the legal list.
fn merged_root_stats<M: Copy + Eq + std::fmt::Debug>(trees: &[Tree<M>], moves: &[M], observer: usize) -> Vec<MoveStats<M>> {
    let mut stats: Vec<MoveStats<M>> = Vec::new();
    for &m in moves.iter() {
        let (mut v, mut w) = (0u64, 0f64);
        for t in trees {
            if let Some((n, sum)) = t.root_child(m, observer) {
                v += n;
                w += sum;
            }
        }
        if v > 0 {
            stats.push(MoveStats { mv: m, visits: v, value: w / v as f64 });
        }
    }
    stats
}

/// The move chosen from the root statistics: drawn by visits at a positive
/// temperature, else the most visited (ties: the higher mean value, then the
/// first).
fn choose<M: Copy>(stats: &[MoveStats<M>], cfg: &Config) -> Option<M> {
    if cfg.temperature > 0.0 {
        sample_by_visits(stats, cfg.temperature, &mut SplitMix64::stream(cfg.seed, stream::CHOICE))
    } else {
        let mut best: Option<&MoveStats<M>> = None;
        for s in stats {
            if best.is_none_or(|b| s.visits > b.visits || (s.visits == b.visits && s.value > b.value)) {
                best = Some(s);
            }
        }
        best.map(|s| s.mv)
    }
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
