//! One search tree: nodes in a flat arena, children as sibling lists (an
//! information-set node gains children as determinizations reveal new moves).
//!
//! The iterations are `run`, their walk down the tree `select`.

mod run;
mod select;

use super::MAX_SEATS;
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
mod tests;
