//! One search tree: nodes in a flat arena, children as sibling lists (an
//! information-set node gains children as determinizations reveal new moves).

use super::{Budget, Config, EvalError, Evaluator, SearchGame, MAX_SEATS};
use crate::rng::SplitMix64;

const NONE: u32 = u32::MAX;

#[derive(Clone, Copy, Debug)]
struct Node<M> {
    /// The move that leads here from the parent (unused at the root).
    mv: Option<M>,
    parent: u32,
    first_child: u32,
    next_sibling: u32,
    /// Seat that played `mv`; the parent chooses among its children for it.
    mover: u8,
    /// PUCT: the node has children for its legal moves, with priors.
    expanded: bool,
    /// The node waits in a batch for its value.
    pending: bool,
    /// Visits, virtual ones (a path waiting for its value) included.
    visits: u32,
    /// Times this node's move was legal when its parent was visited (ISMCTS).
    available: u32,
    /// The parent's evaluator's prior of `mv` (PUCT).
    prior: f32,
    /// Sum of backed-up utilities, one per seat.
    value: [f64; MAX_SEATS],
}

/// An ISMCTS tree for the seat to move at its root (the observer).
#[derive(Clone, Debug)]
pub struct Tree<M> {
    nodes: Vec<Node<M>>,
    observer: usize,
    /// Per move index: the iteration stamp when it was last seen legal, and
    /// when it was last seen as an existing child (so untried moves are found in
    /// one pass, without clearing arrays between iterations).
    legal_stamp: Vec<u32>,
    child_stamp: Vec<u32>,
    stamp: u32,
}

impl<M: Copy + Eq + std::fmt::Debug> Tree<M> {
    /// An empty tree (its root alone) for a search by seat `observer`.
    pub fn new(observer: usize) -> Tree<M> {
        let root = Node {
            mv: None,
            parent: NONE,
            first_child: NONE,
            next_sibling: NONE,
            mover: 0,
            expanded: false,
            pending: false,
            visits: 0,
            available: 0,
            prior: 0.0,
            value: [0.0; MAX_SEATS],
        };
        Tree { nodes: vec![root], observer, legal_stamp: Vec::new(), child_stamp: Vec::new(), stamp: 0 }
    }

    /// Nodes in the tree, the root included.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }
    /// Whether the tree has no node: never, since it keeps its root.
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }
    /// The seat this tree searches for: the seat to move at its root.
    pub fn observer(&self) -> usize {
        self.observer
    }
    /// Iterations that went through the root.
    pub fn root_visits(&self) -> u64 {
        self.nodes[0].visits as u64
    }

    fn children(&self, n: u32) -> impl Iterator<Item = u32> + '_ {
        let mut c = self.nodes[n as usize].first_child;
        std::iter::from_fn(move || {
            if c == NONE {
                None
            } else {
                let out = c;
                c = self.nodes[c as usize].next_sibling;
                Some(out)
            }
        })
    }

    fn child_with(&self, n: u32, m: M) -> Option<u32> {
        self.children(n).find(|&c| self.nodes[c as usize].mv == Some(m))
    }

    /// `(visits, sum of utilities for seat)` of the root child reached by `m`.
    pub fn root_child(&self, m: M, seat: usize) -> Option<(u64, f64)> {
        self.child_with(0, m).map(|c| {
            let n = &self.nodes[c as usize];
            (n.visits as u64, n.value[seat])
        })
    }

    /// The most visited path from the root, starting with `first` if given.
    pub fn principal_variation(&self, first: Option<M>) -> Vec<M> {
        let mut pv = Vec::new();
        let mut n = 0u32;
        if let Some(m) = first {
            match self.child_with(0, m) {
                Some(c) => {
                    pv.push(m);
                    n = c;
                }
                None => return vec![m],
            }
        }
        loop {
            let best = self.children(n).max_by_key(|&c| self.nodes[c as usize].visits);
            match best {
                Some(c) if self.nodes[c as usize].visits > 0 => {
                    if let Some(m) = self.nodes[c as usize].mv {
                        pv.push(m);
                    }
                    n = c;
                }
                _ => return pv,
            }
        }
    }

    /// Re-root the tree at the node reached by `path` from the root, keeping
    /// that subtree only. False (and the tree untouched) when the path leaves
    /// the tree.
    pub fn advance(&mut self, path: &[M]) -> bool {
        let mut n = 0u32;
        for &m in path {
            match self.child_with(n, m) {
                Some(c) => n = c,
                None => return false,
            }
        }
        if n == 0 {
            return true;
        }
        // Copy the subtree breadth-first into a fresh arena.
        let mut nodes = Vec::with_capacity(self.nodes.len());
        let mut old_of = vec![n];
        let mut root = self.nodes[n as usize];
        root.mv = None;
        root.parent = NONE;
        root.next_sibling = NONE;
        nodes.push(root);
        let mut k = 0;
        while k < nodes.len() {
            let kids: Vec<u32> = self.children(old_of[k]).collect();
            let base = nodes.len();
            for (j, &c) in kids.iter().enumerate() {
                let mut node = self.nodes[c as usize];
                node.parent = k as u32;
                node.first_child = NONE;
                node.next_sibling = if j + 1 < kids.len() { (base + j + 1) as u32 } else { NONE };
                nodes.push(node);
                old_of.push(c);
            }
            nodes[k].first_child = if kids.is_empty() { NONE } else { base as u32 };
            k += 1;
        }
        self.nodes = nodes;
        true
    }

    /// Weigh the kept statistics by `weight` in `(0, 1]` before a new search
    /// continues the tree: visits, availability and value sums shrink by it,
    /// every mean stays as it was, and a visited node keeps at least one visit
    /// (UCB1 reads an unvisited child's mean as 0). A re-rooted tree's counts
    /// come from determinizations that the moves since may have contradicted
    /// (a covered tile uncovered); at full weight a long search's
    /// kept visits outnumber the next search's and decide its move.
    pub fn discount(&mut self, weight: f64) {
        if weight >= 1.0 {
            return;
        }
        for node in &mut self.nodes {
            if node.visits > 0 {
                let kept = ((node.visits as f64 * weight).round() as u32).max(1);
                let f = kept as f64 / node.visits as f64;
                node.value.iter_mut().for_each(|v| *v *= f);
                node.visits = kept;
            }
            node.available = ((node.available as f64 * weight).round() as u32).max(node.visits);
        }
    }

    /// Run iterations from `root` until the budget is spent; returns how many.
    /// Leaves are gathered in batches of the evaluator's size, each path
    /// holding a virtual loss (a visit without value) until its value is backed
    /// up; a batch ends early when a descent reaches a leaf already waiting.
    pub(super) fn run<G: SearchGame<Move = M>, E: Evaluator<G>>(
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
        let mut moves = G::Moves::default();
        let mut leaves: Vec<G> = Vec::with_capacity(batch);
        let mut ids: Vec<u32> = Vec::with_capacity(batch);
        let mut leaf_moves: Vec<(G::Moves, u8)> = Vec::new();
        let mut values = vec![[0f64; MAX_SEATS]; batch];
        let mut priors = if guided { vec![0f32; batch * G::NUM_MOVES] } else { Vec::new() };
        let mut value = [0f64; MAX_SEATS];
        let (mut before, mut done) = (0u64, 0u64);
        if batch == 1 && !guided {
            // The sequential search: one leaf at a time, no virtual loss to
            // take back, the value backed up with its visit in one pass. (The
            // batched loop below gives the same result here, about 2% slower.)
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
            return Ok(done);
        }
        while !budget.done(before, done) {
            let want = (budget.iterations - done).min(batch as u64);
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
                        if leaf_moves.len() <= ids.len() {
                            leaf_moves.push(entry);
                        } else {
                            leaf_moves[ids.len()] = entry;
                        }
                    }
                    leaves.push(g);
                    ids.push(leaf);
                }
                taken += 1;
            }
            if !leaves.is_empty() {
                let n = leaves.len();
                let result = eval.evaluate(&mut leaves, rng, &mut values[..n], if guided { &mut priors[..n * G::NUM_MOVES] } else { &mut [] });
                if let Err(e) = result {
                    // Leave the tree consistent (no waiting leaves, no virtual loss).
                    for &leaf in &ids {
                        self.nodes[leaf as usize].pending = false;
                        self.unvisit(leaf);
                    }
                    return Err(e);
                }
                for (i, &leaf) in ids.iter().enumerate() {
                    self.nodes[leaf as usize].pending = false;
                    if guided {
                        let p = &priors[i * G::NUM_MOVES..(i + 1) * G::NUM_MOVES];
                        self.expand::<G>(leaf, &leaf_moves[i], p, cfg, rng);
                    }
                    self.backup(leaf, &values[i]);
                }
                leaves.clear();
                ids.clear();
            }
            if taken == 0 {
                break; // cannot happen: a round's first descent finds no leaf waiting
            }
            before = done;
            done += taken;
        }
        Ok(done)
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

    /// Selection: walk down over the children legal in this determinization
    /// and return the leaf to evaluate, `g` being its position. Without
    /// priors (UCT), one untried move is added as a new leaf, subject to
    /// progressive widening; with priors (PUCT), the walk ends at the first
    /// node not yet expanded (`moves` then holds its legal moves), and moves a
    /// determinization reveals at an expanded node join it with a uniform prior.
    fn descend<G: SearchGame<Move = M>, E: Evaluator<G>>(
        &mut self,
        g: &mut G,
        cfg: &Config,
        eval: &E,
        guided: bool,
        rng: &mut SplitMix64,
        moves: &mut G::Moves,
    ) -> u32 {
        let mut n = 0u32;
        loop {
            if g.is_over() {
                return n;
            }
            g.legal_moves(moves);
            if guided && !self.nodes[n as usize].expanded {
                return n;
            }
            self.stamp = self.stamp.wrapping_add(1);
            if self.stamp == 0 {
                // Stamps wrapped: forget old marks so none is mistaken for current.
                self.legal_stamp.iter_mut().for_each(|x| *x = 0);
                self.child_stamp.iter_mut().for_each(|x| *x = 0);
                self.stamp = 1;
            }
            let stamp = self.stamp;
            for &m in moves.iter() {
                self.legal_stamp[G::move_index(m)] = stamp;
            }
            let parent = &self.nodes[n as usize];
            // PUCT's value of an unvisited child: the parent's mean for the mover.
            let mover = g.seat_to_move();
            let fpu = if parent.visits > 0 { parent.value[mover] / parent.visits as f64 } else { 0.5 };
            // One pass over the children: mark existing ones, count availability,
            // and keep the best score among those legal now.
            let mut best = NONE;
            let mut best_score = f64::NEG_INFINITY;
            let mut legal_children = 0u32;
            let mut c = self.nodes[n as usize].first_child;
            while c != NONE {
                let node = &mut self.nodes[c as usize];
                let Some(m) = node.mv else { break };
                let i = G::move_index(m);
                self.child_stamp[i] = stamp;
                if self.legal_stamp[i] == stamp {
                    legal_children += 1;
                    node.available += 1;
                    let score = if guided {
                        let q = if node.visits > 0 { node.value[node.mover as usize] / node.visits as f64 } else { fpu };
                        q + cfg.exploration * node.prior as f64 * (node.available as f64).sqrt() / (1.0 + node.visits as f64)
                    } else {
                        let v = node.visits.max(1) as f64;
                        let mean = node.value[node.mover as usize] / v;
                        mean + cfg.exploration * ((node.available as f64).ln() / v).sqrt()
                    };
                    if score > best_score {
                        best_score = score;
                        best = c;
                    }
                }
                c = node.next_sibling;
            }
            let untried = moves.iter().filter(|&&m| self.child_stamp[G::move_index(m)] != stamp).count();
            if guided {
                if untried > 0 && self.nodes.len() + untried <= cfg.max_nodes {
                    // Moves this determinization reveals: a uniform prior among
                    // the moves legal now, and a first visit's urgency.
                    let p = 1.0 / moves.len() as f32;
                    let score = fpu + cfg.exploration * p as f64 / 1.0;
                    for k in 0..moves.len() {
                        let m = moves[k];
                        if self.child_stamp[G::move_index(m)] != stamp {
                            let id = self.add_child(n, m, mover as u8, 1, p);
                            if score > best_score {
                                best_score = score;
                                best = id;
                            }
                        }
                    }
                }
                if best == NONE {
                    return n; // the tree is full and no child is legal here
                }
                if let Some(m) = self.nodes[best as usize].mv {
                    g.play(m);
                }
                n = best;
                continue;
            }
            let room = match cfg.widening {
                None => true,
                Some(k) => best == NONE || (legal_children as f64) < 1.0 + (k * (self.nodes[n as usize].visits as f64).sqrt()).floor(),
            };
            if untried > 0 && room && self.nodes.len() < cfg.max_nodes {
                let is_untried = |m: &G::Move| self.child_stamp[G::move_index(*m)] != stamp;
                let m = if cfg.widening.is_some() {
                    // Widening adds the most promising move first.
                    let mut best_m = None;
                    let mut best_v = f64::NEG_INFINITY;
                    for &m in moves.iter().filter(|m| is_untried(m)) {
                        let v = eval.order(g, m);
                        if v > best_v {
                            best_v = v;
                            best_m = Some(m);
                        }
                    }
                    best_m
                } else {
                    // Otherwise one at random, so that no move order is
                    // favoured; availability of the others was counted.
                    let pick = rng.below(untried as u64) as usize;
                    moves.iter().copied().filter(is_untried).nth(pick)
                };
                let Some(m) = m else { return n };
                g.play(m);
                return self.add_child(n, m, mover as u8, 1, 0.0);
            }
            if best == NONE {
                return n; // the tree is full and no child is legal here
            }
            if let Some(m) = self.nodes[best as usize].mv {
                g.play(m);
            }
            n = best;
        }
    }

    /// A new first child of `parent`, reached by `m` played by `mover`.
    fn add_child(&mut self, parent: u32, m: M, mover: u8, available: u32, prior: f32) -> u32 {
        let id = self.nodes.len() as u32;
        let head = self.nodes[parent as usize].first_child;
        self.nodes.push(Node {
            mv: Some(m),
            parent,
            first_child: NONE,
            next_sibling: head,
            mover,
            expanded: false,
            pending: false,
            visits: 0,
            available,
            prior,
            value: [0.0; MAX_SEATS],
        });
        self.nodes[parent as usize].first_child = id;
        id
    }

    /// Count a visit on the path from `n` to the root (a virtual loss until
    /// [`Tree::backup`] adds its value).
    fn visit(&mut self, mut n: u32) {
        while n != NONE {
            let node = &mut self.nodes[n as usize];
            node.visits += 1;
            n = node.parent;
        }
    }

    /// Take back [`Tree::visit`] (an evaluation that failed).
    fn unvisit(&mut self, mut n: u32) {
        while n != NONE {
            let node = &mut self.nodes[n as usize];
            node.visits -= 1;
            n = node.parent;
        }
    }

    /// Count a visit with its value on the path from `n` to the root.
    fn record(&mut self, mut n: u32, value: &[f64; MAX_SEATS]) {
        while n != NONE {
            let node = &mut self.nodes[n as usize];
            node.visits += 1;
            for (v, r) in node.value.iter_mut().zip(value) {
                *v += r;
            }
            n = node.parent;
        }
    }

    /// Add a visited leaf's value on its path to the root.
    fn backup(&mut self, mut n: u32, value: &[f64; MAX_SEATS]) {
        while n != NONE {
            let node = &mut self.nodes[n as usize];
            for (v, r) in node.value.iter_mut().zip(value) {
                *v += r;
            }
            n = node.parent;
        }
    }
}

/// A Gamma(`alpha`, 1) draw (Marsaglia & Tsang 2000; for `alpha < 1`, the
/// boost `Gamma(alpha + 1) * U^(1/alpha)`), for Dirichlet noise.
pub(super) fn gamma(alpha: f64, rng: &mut SplitMix64) -> f64 {
    if alpha < 1.0 {
        let u = rng.unit().max(f64::MIN_POSITIVE);
        return gamma(alpha + 1.0, rng) * u.powf(1.0 / alpha);
    }
    let d = alpha - 1.0 / 3.0;
    let c = 1.0 / (9.0 * d).sqrt();
    loop {
        // A standard normal by Box–Muller.
        let (u1, u2) = (rng.unit().max(f64::MIN_POSITIVE), rng.unit());
        let x = (-2.0 * u1.ln()).sqrt() * (std::f64::consts::TAU * u2).cos();
        let v = (1.0 + c * x).powi(3);
        if v <= 0.0 {
            continue;
        }
        let u = rng.unit().max(f64::MIN_POSITIVE);
        if u.ln() < 0.5 * x * x + d - d * v + d * v.ln() {
            return d * v;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::toy::{Nim, RandomRollout};
    use super::super::{search_until, Config};

    #[test]
    fn discount_scales_every_count_and_keeps_every_mean() {
        let cfg = Config { iterations: Some(5000), widening: None, exploration: 0.7, ..Config::default() };
        let (_, tree) = search_until(&Nim { stones: 11, to_move: 0 }, &cfg, &RandomRollout, None, None).unwrap();
        let before = tree.unwrap();
        let mut after = before.clone();
        after.discount(0.3);
        assert_eq!(before.nodes.len(), after.nodes.len());
        for (a, b) in before.nodes.iter().zip(&after.nodes) {
            let visits = if a.visits == 0 { 0 } else { ((a.visits as f64 * 0.3).round() as u32).max(1) };
            assert_eq!(b.visits, visits);
            assert_eq!(b.available, ((a.available as f64 * 0.3).round() as u32).max(visits));
            assert!(b.available >= b.visits);
            for (x, y) in a.value.iter().zip(&b.value) {
                if a.visits > 0 {
                    assert!((x / a.visits as f64 - y / b.visits as f64).abs() < 1e-12);
                } else {
                    assert_eq!((*x, *y), (0.0, 0.0));
                }
            }
        }
    }
}
