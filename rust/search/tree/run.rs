//! The iterations of a search on one tree: a descent per determinization,
//! leaves valued one at a time or in the evaluator's batches.

use super::{gamma, Tree};
use crate::rng::SplitMix64;
use crate::search::{Budget, Config, EvalError, Evaluator, SearchGame, MAX_SEATS};

/// The leaves of one batch waiting for their values, and the evaluator's
/// answers (buffers kept for the whole search).
struct Batch<G: SearchGame> {
    leaves: Vec<G>,
    ids: Vec<u32>,
    /// A guided leaf's legal moves and mover, for its expansion.
    leaf_moves: Vec<(G::Moves, u8)>,
    values: Vec<[f64; MAX_SEATS]>,
    priors: Vec<f32>,
}

impl<M: Copy + Eq + std::fmt::Debug> Tree<M> {
    /// Run iterations from `root` until the budget is spent; returns how many.
    /// Leaves are gathered in batches of the evaluator's size, each path
    /// holding a virtual loss (a visit without value) until its value is backed
    /// up; a batch ends early when a descent reaches a leaf already waiting.
    pub(in crate::search) fn run<G: SearchGame<Move = M>, E: Evaluator<G>>(
        &mut self,
        root: &G,
        cfg: &Config,
        eval: &E,
        rng: &mut SplitMix64,
        budget: &Budget,
    ) -> Result<u64, EvalError> {
        if self.legal_stamp.len() < G::NUM_MOVES {
            self.legal_stamp = vec![0; G::NUM_MOVES];
            self.child_stamp = vec![0; G::NUM_MOVES];
        }
        let guided = eval.gives_priors();
        let batch = eval.batch_size().max(1);
        if batch == 1 && !guided {
            return self.run_sequential(root, cfg, eval, rng, budget);
        }
        let mut moves = G::Moves::default();
        let mut b = Batch {
            leaves: Vec::with_capacity(batch),
            ids: Vec::with_capacity(batch),
            leaf_moves: Vec::new(),
            values: vec![[0f64; MAX_SEATS]; batch],
            priors: if guided { vec![0f32; batch * G::NUM_MOVES] } else { Vec::new() },
        };
        let mut value = [0f64; MAX_SEATS];
        let (mut before, mut done) = (0u64, 0u64);
        while !budget.done(before, done) {
            let want = (budget.count.unwrap_or(u64::MAX) - done).min(batch as u64);
            let mut taken = 0u64;
            while taken < want {
                let mut g = if cfg.determinize { root.determinize(rng) } else { *root };
                let leaf = self.descend(&mut g, cfg, eval, guided, rng, &mut moves);
                if g.is_over() {
                    self.visit(leaf);
                    eval.terminal(&g, &mut value);
                    self.backup(leaf, &value);
                } else if self.nodes[leaf as usize].pending {
                    // Collision: this leaf waits for its value already.
                    break;
                } else {
                    self.visit(leaf);
                    self.nodes[leaf as usize].pending = true;
                    if guided {
                        let entry = (moves.clone(), g.seat_to_move() as u8);
                        if b.leaf_moves.len() <= b.ids.len() {
                            b.leaf_moves.push(entry);
                        } else {
                            b.leaf_moves[b.ids.len()] = entry;
                        }
                    }
                    b.leaves.push(g);
                    b.ids.push(leaf);
                }
                taken += 1;
            }
            if !b.leaves.is_empty() {
                self.evaluate_batch(&mut b, cfg, eval, rng, guided)?;
            }
            if taken == 0 {
                break; // cannot happen: a round's first descent finds no leaf waiting
            }
            before = done;
            done += taken;
        }
        Ok(done)
    }

    /// The sequential search: one leaf at a time, no virtual loss to take
    /// back, the value backed up with its visit in one pass. (The batched
    /// loop of [`Tree::run`] gives the same result here, about 2% slower.)
    fn run_sequential<G: SearchGame<Move = M>, E: Evaluator<G>>(
        &mut self,
        root: &G,
        cfg: &Config,
        eval: &E,
        rng: &mut SplitMix64,
        budget: &Budget,
    ) -> Result<u64, EvalError> {
        let mut moves = G::Moves::default();
        let mut value = [0f64; MAX_SEATS];
        let (mut before, mut done) = (0u64, 0u64);
        while !budget.done(before, done) {
            let mut g = if cfg.determinize { root.determinize(rng) } else { *root };
            let leaf = self.descend(&mut g, cfg, eval, false, rng, &mut moves);
            if g.is_over() {
                eval.terminal(&g, &mut value);
            } else {
                eval.evaluate(std::slice::from_mut(&mut g), rng, std::slice::from_mut(&mut value), &mut [])?;
            }
            self.record(leaf, &value);
            before = done;
            done += 1;
        }
        Ok(done)
    }

    /// Value the batch's leaves, expand them (guided) and back their values
    /// up; the batch is left empty.
    fn evaluate_batch<G: SearchGame<Move = M>, E: Evaluator<G>>(
        &mut self,
        b: &mut Batch<G>,
        cfg: &Config,
        eval: &E,
        rng: &mut SplitMix64,
        guided: bool,
    ) -> Result<(), EvalError> {
        let n = b.leaves.len();
        let priors = if guided { &mut b.priors[..n * G::NUM_MOVES] } else { &mut [] };
        let result = eval.evaluate(&mut b.leaves, rng, &mut b.values[..n], priors);
        if let Err(e) = result {
            // Leave the tree consistent (no waiting leaves, no virtual loss).
            for &leaf in &b.ids {
                self.nodes[leaf as usize].pending = false;
                self.unvisit(leaf);
            }
            return Err(e);
        }
        for (i, &leaf) in b.ids.iter().enumerate() {
            self.nodes[leaf as usize].pending = false;
            if guided {
                let p = &b.priors[i * G::NUM_MOVES..(i + 1) * G::NUM_MOVES];
                self.expand::<G>(leaf, &b.leaf_moves[i], p, cfg, rng);
            }
            self.backup(leaf, &b.values[i]);
        }
        b.leaves.clear();
        b.ids.clear();
        Ok(())
    }

    /// Give `leaf`'s node children for its legal `moves` with the evaluator's
    /// priors, normalised over them (uniform if they carry no mass), and at
    /// the root the configured Dirichlet noise.
    fn expand<G: SearchGame<Move = M>>(&mut self, leaf: u32, (moves, mover): &(G::Moves, u8), priors: &[f32], cfg: &Config, rng: &mut SplitMix64) {
        let node = &self.nodes[leaf as usize];
        if node.expanded || self.nodes.len() + moves.len() > cfg.max_nodes {
            return;
        }
        let total: f64 = moves.iter().map(|&m| priors[G::move_index(m)].max(0.0) as f64).sum();
        let uniform = 1.0 / moves.len().max(1) as f64;
        // Dirichlet noise on the root's priors (self-play): allocated once per search.
        let noise: Vec<f64> = match cfg.noise {
            Some((alpha, _)) if leaf == 0 => {
                let draws: Vec<f64> = moves.iter().map(|_| gamma(alpha, rng)).collect();
                let sum: f64 = draws.iter().sum();
                draws.iter().map(|x| if sum > 0.0 { x / sum } else { uniform }).collect()
            }
            _ => Vec::new(),
        };
        let noisy = !noise.is_empty();
        for (k, &m) in moves.iter().enumerate() {
            let mut p = if total > 0.0 && total.is_finite() { priors[G::move_index(m)].max(0.0) as f64 / total } else { uniform };
            if noisy {
                let (_, fraction) = cfg.noise.unwrap_or_default();
                p = (1.0 - fraction) * p + fraction * noise[k];
            }
            self.add_child(leaf, m, *mover, 0, p as f32);
        }
        self.nodes[leaf as usize].expanded = true;
    }
}
