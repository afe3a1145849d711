//! Selection: the walk down a tree over the children legal in one
//! determinization, adding the moves it reveals.

use super::{Tree, NONE};
use crate::rng::SplitMix64;
use crate::search::{Config, Evaluator, SearchGame};

impl<M: Copy + Eq + std::fmt::Debug> Tree<M> {
    /// Selection: walk down over the children legal in this determinization
    /// and return the leaf to evaluate, `g` being its position. Without
    /// priors (UCT), one untried move is added as a new leaf, subject to
    /// progressive widening; with priors (PUCT), the walk ends at the first
    /// node not yet expanded (`moves` then holds its legal moves), and moves a
    /// determinization reveals at an expanded node join it with a uniform prior.
    pub(super) fn descend<G: SearchGame<Move = M>, E: Evaluator<G>>(
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
            let stamp = self.mark_legal::<G>(moves);
            let parent = &self.nodes[n as usize];
            // PUCT's value of an unvisited child: the parent's mean for the mover.
            let mover = g.seat_to_move();
            let fpu = if parent.visits > 0 { parent.value[mover] / parent.visits as f64 } else { 0.5 };
            let (mut best, best_score, legal_children) = self.best_legal_child::<G>(n, stamp, fpu, guided, cfg);
            let untried = moves.iter().filter(|&&m| self.child_stamp[G::move_index(m)] != stamp).count();
            if guided {
                if untried > 0 && self.nodes.len() + untried <= cfg.max_nodes {
                    best = self.add_revealed::<G>(n, moves, mover as u8, stamp, fpu, cfg, (best, best_score));
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
                let Some(m) = self.untried_move(g, moves, stamp, untried, cfg, eval, rng) else { return n };
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

    /// A new iteration stamp, with `moves` marked legal under it.
    #[inline(always)]
    fn mark_legal<G: SearchGame<Move = M>>(&mut self, moves: &G::Moves) -> u32 {
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
        stamp
    }

    /// One pass over the children of `n`: mark existing ones, count
    /// availability, and keep the best score among those legal now. Returns
    /// the best child (`NONE` if none is legal), its score, and how many
    /// children are legal.
    #[inline(always)]
    fn best_legal_child<G: SearchGame<Move = M>>(&mut self, n: u32, stamp: u32, fpu: f64, guided: bool, cfg: &Config) -> (u32, f64, u32) {
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
        (best, best_score, legal_children)
    }

    /// PUCT: the moves this determinization reveals at `n` join it with a
    /// uniform prior among the moves legal now, and a first visit's urgency.
    /// Returns the best child, `(best, best_score)` being the best so far.
    #[inline(always)]
    fn add_revealed<G: SearchGame<Move = M>>(
        &mut self,
        n: u32,
        moves: &G::Moves,
        mover: u8,
        stamp: u32,
        fpu: f64,
        cfg: &Config,
        (mut best, mut best_score): (u32, f64),
    ) -> u32 {
        let p = 1.0 / moves.len() as f32;
        let score = fpu + cfg.exploration * p as f64 / 1.0;
        for k in 0..moves.len() {
            let m = moves[k];
            if self.child_stamp[G::move_index(m)] != stamp {
                let id = self.add_child(n, m, mover, 1, p);
                if score > best_score {
                    best_score = score;
                    best = id;
                }
            }
        }
        best
    }

    /// UCT: the untried move to add, of the `untried` ones legal now.
    #[inline(always)]
    fn untried_move<G: SearchGame<Move = M>, E: Evaluator<G>>(
        &self,
        g: &G,
        moves: &G::Moves,
        stamp: u32,
        untried: usize,
        cfg: &Config,
        eval: &E,
        rng: &mut SplitMix64,
    ) -> Option<M> {
        let is_untried = |m: &G::Move| self.child_stamp[G::move_index(*m)] != stamp;
        if cfg.widening.is_some() {
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
        }
    }
}
