//! One search tree: nodes in a flat arena, children as sibling lists (an
//! information-set node gains children as determinizations reveal new moves).

use super::{Budget, Config, SearchGame, MAX_SEATS};
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
    visits: u32,
    /// Times this node's move was legal when its parent was visited (ISMCTS).
    available: u32,
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
    pub fn new(observer: usize) -> Tree<M> {
        let root = Node {
            mv: None,
            parent: NONE,
            first_child: NONE,
            next_sibling: NONE,
            mover: 0,
            visits: 0,
            available: 0,
            value: [0.0; MAX_SEATS],
        };
        Tree { nodes: vec![root], observer, legal_stamp: Vec::new(), child_stamp: Vec::new(), stamp: 0 }
    }

    pub fn len(&self) -> usize {
        self.nodes.len()
    }
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }
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

    /// Run iterations from `root` until the budget is spent; returns how many.
    pub(super) fn run<G: SearchGame<Move = M>>(&mut self, root: &G, cfg: &Config, rng: &mut SplitMix64, budget: &Budget) -> u64 {
        if self.legal_stamp.len() < G::NUM_MOVES {
            self.legal_stamp = vec![0; G::NUM_MOVES];
            self.child_stamp = vec![0; G::NUM_MOVES];
        }
        let mut moves = G::Moves::default();
        let mut reward = [0f64; MAX_SEATS];
        let mut done = 0u64;
        while !budget.done(done) {
            let mut g = if cfg.determinize { root.determinize(rng) } else { *root };
            let leaf = self.descend(&mut g, cfg, rng, &mut moves);
            g.rollout(cfg, rng, &mut reward);
            self.backup(leaf, &reward);
            done += 1;
        }
        done
    }

    /// Selection and expansion: walk down by UCB over the children that are
    /// legal in this determinization, add one untried move, return the leaf.
    fn descend<G: SearchGame<Move = M>>(&mut self, g: &mut G, cfg: &Config, rng: &mut SplitMix64, moves: &mut G::Moves) -> u32 {
        let mut n = 0u32;
        loop {
            if g.is_over() {
                return n;
            }
            g.legal_moves(moves);
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
            // One pass over the children: mark existing ones, count availability,
            // and keep the best UCB among those legal now.
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
                    let v = node.visits.max(1) as f64;
                    let mean = node.value[node.mover as usize] / v;
                    let score = mean + cfg.exploration * ((node.available as f64).ln() / v).sqrt();
                    if score > best_score {
                        best_score = score;
                        best = c;
                    }
                }
                c = node.next_sibling;
            }
            let untried = moves.iter().filter(|&&m| self.child_stamp[G::move_index(m)] != stamp).count();
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
                        let v = g.prior(m);
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
                let mover = g.seat_to_move() as u8;
                g.play(m);
                let id = self.nodes.len() as u32;
                let head = self.nodes[n as usize].first_child;
                self.nodes.push(Node {
                    mv: Some(m),
                    parent: n,
                    first_child: NONE,
                    next_sibling: head,
                    mover,
                    visits: 0,
                    available: 1,
                    value: [0.0; MAX_SEATS],
                });
                self.nodes[n as usize].first_child = id;
                return id;
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

    fn backup(&mut self, mut n: u32, reward: &[f64; MAX_SEATS]) {
        while n != NONE {
            let node = &mut self.nodes[n as usize];
            node.visits += 1;
            for (v, r) in node.value.iter_mut().zip(reward) {
                *v += r;
            }
            n = node.parent;
        }
    }
}
