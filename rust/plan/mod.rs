//! Nested rollout policy adaptation (NRPA, Rosin 2011) and its generalized
//! form with a bias (GNRPA, Cazenave 2020) for single-seat decision problems,
//! generic over the problem, with no Python types and no Dragon Castle.
//!
//! A playout draws each move with probability `softmax(w[code] + bias)`,
//! `w` the policy's weight of the move's code and `bias` the problem's prior
//! value of the move (already divided by a temperature). A level-`l` search
//! runs `iterations` searches of level `l - 1`, each from a copy of its own
//! policy, keeps the best sequence found and after each one adapts its
//! policy toward that sequence ([`adapt`]); level 0 is one playout.
//! [`pimc`] plans over determinizations of hidden information.
//! `docs/plan.md` describes the algorithm and its tuning.

mod memo;
pub mod pimc;
mod policy;
#[cfg(test)]
mod toy;


use crate::rng::SplitMix64;
use memo::{Memo, Path};
pub use policy::adapt;
use policy::{draw, scale_biases};
#[cfg(test)]
use policy::exp_to_zero;

/// What a planner needs from a problem: the legal moves, playing one, the
/// score of an end, a determinization of the hidden information, and each
/// move's code and bias.
pub trait PlanGame: Copy + PartialEq + Send + Sync {
    /// A decision of the problem (Dragon Castle: [`crate::Action`]).
    type Move: Copy + Eq + Send + Sync + std::fmt::Debug;
    /// A buffer of moves with a fixed capacity (no allocation per decision).
    type Moves: Default + Clone + Send + std::ops::Deref<Target = [Self::Move]>;
    /// Codes are below this bound: the policy is a dense table of weights.
    const NUM_CODES: usize;

    /// Whether the problem has ended.
    fn is_over(&self) -> bool;
    /// The legal moves, in a deterministic order (empty once over).
    fn legal_moves(&self, out: &mut Self::Moves);
    /// Play a legal move.
    fn play(&mut self, m: Self::Move);
    /// The score to maximise, read at the end.
    fn score(&self) -> f64;
    /// A copy whose hidden information is re-drawn from what the player
    /// knows. It must not depend on the true hidden information.
    fn determinize(&self, rng: &mut SplitMix64) -> Self;
    /// For each legal move of `moves` (in order): its code (below
    /// [`PlanGame::NUM_CODES`]: the policy learns one weight per code, so a
    /// code should carry the context a move's worth depends on) and its bias
    /// (higher is better; the planner divides it by its temperature).
    /// `f64::NEG_INFINITY` is a move never to play.
    fn codes_and_biases(&self, moves: &[Self::Move], codes: &mut [u32], biases: &mut [f64]);
}

/// How a nested search is shaped.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Nested {
    /// Nesting level, at least 1 (level 1: `iterations` adapted playouts).
    pub level: u32,
    /// Searches of the level below per level (100 in the literature).
    pub iterations: u32,
    /// The adaptation step α.
    pub alpha: f64,
    /// The bias's temperature τ: a move's logit is `w + bias / τ`;
    /// `f64::INFINITY` ignores the bias (plain NRPA).
    pub temperature: f64,
}

impl Default for Nested {
    /// The calibration's GNRPA (`docs/plan.md`): level 1, 100 iterations, α = 1, τ = 0.25.
    fn default() -> Self {
        Nested { level: 1, iterations: 100, alpha: 1.0, temperature: 0.25 }
    }
}

impl Nested {
    /// Playouts of one whole search: `iterations ^ level`.
    pub fn playouts(&self) -> u64 {
        (self.iterations as u64).saturating_pow(self.level)
    }
    /// Refuses a shape no search can run.
    pub fn check(&self) -> Result<(), String> {
        if !(1..=MAX_LEVEL).contains(&self.level) {
            return Err(format!("level must be in 1..={MAX_LEVEL}; got {}", self.level));
        }
        if self.iterations == 0 {
            return Err("iterations must be at least 1".into());
        }
        if !(self.alpha.is_finite() && self.alpha > 0.0) {
            return Err(format!("alpha must be a positive number; got {}", self.alpha));
        }
        if !(self.temperature > 0.0) {
            return Err(format!("the temperature must be positive (inf for no bias); got {}", self.temperature));
        }
        Ok(())
    }
}

/// Nesting levels a search may have (a level-5 search of 100 iterations is 10^10 playouts).
pub const MAX_LEVEL: u32 = 5;

/// One played sequence: the moves, and for each decision that had a choice
/// the codes and logit biases of its legal moves, which move was chosen, and
/// the score at the end. Its vectors keep their capacity between playouts.
#[derive(Clone, Debug)]
pub struct Sequence<M> {
    /// Every move played, forced ones included (a sequence replays from its start).
    pub moves: Vec<M>,
    /// Per decision with a choice: `(start, len, chosen)` into `codes` and `biases`.
    steps: Vec<(u32, u32, u32)>,
    codes: Vec<u32>,
    biases: Vec<f64>,
    /// The score at the end; `-inf` for no sequence yet.
    pub score: f64,
}

impl<M> Default for Sequence<M> {
    fn default() -> Self {
        Sequence { moves: Vec::new(), steps: Vec::new(), codes: Vec::new(), biases: Vec::new(), score: f64::NEG_INFINITY }
    }
}

impl<M: Copy> Sequence<M> {
    fn clear(&mut self) {
        self.moves.clear();
        self.steps.clear();
        self.codes.clear();
        self.biases.clear();
        self.score = f64::NEG_INFINITY;
    }
    /// Copy `other` into `self` without allocating once the capacity suffices.
    pub fn copy_from(&mut self, other: &Sequence<M>) {
        self.moves.clone_from(&other.moves);
        self.steps.clone_from(&other.steps);
        self.codes.clone_from(&other.codes);
        self.biases.clone_from(&other.biases);
        self.score = other.score;
    }
    /// The first move of the sequence, if any.
    pub fn first(&self) -> Option<M> {
        self.moves.first().copied()
    }
}

/// When a planner stops: a playout budget, a deadline, a stop flag;
/// whichever comes first, checked between playouts.
pub use crate::budget::Budget;

/// The working memory of nested searches on one problem: a policy and a best
/// sequence per level, a playout's record and scratch space, allocated once
/// and reused by every search (no allocation per playout).
pub struct Planner<G: PlanGame> {
    /// `policies[l]`: the policy of the level-`l` search under way (index 0 unused).
    policies: Vec<Vec<f32>>,
    /// `best[l]`: the best sequence of the level-`l` search under way.
    best: Vec<Sequence<G::Move>>,
    playout: Sequence<G::Move>,
    moves: G::Moves,
    logits: Vec<f64>,
    /// Playouts run since the planner was made.
    pub playouts: u64,
    /// Moves those playouts played, forced ones included (`benches/instructions.py --plan`).
    pub played: u64,
    nested: Nested,
    /// What the positions reached from `root` offer, by path (`memo.rs`).
    memo: Memo<G::Move>,
    root: Option<G>,
    roots: u64,
    root_path: Path,
    /// Tests turn the memo off to check that results do not depend on it.
    memo_off: bool,
}

impl<G: PlanGame> Planner<G> {
    /// Buffers for searches shaped by `nested`, their policies zero.
    pub fn new(nested: Nested) -> Self {
        let levels = nested.level as usize + 1;
        Planner {
            policies: vec![vec![0.0; G::NUM_CODES]; levels],
            best: (0..levels).map(|_| Sequence::default()).collect(),
            playout: Sequence::default(),
            moves: G::Moves::default(),
            logits: Vec::new(),
            playouts: 0,
            played: 0,
            nested,
            memo: Memo::new(nested.playouts()),
            root: None,
            roots: 0,
            root_path: Path::root(0),
            memo_off: false,
        }
    }

    /// The same planner without its memo (for tests: results must not change).
    #[cfg(test)]
    pub(crate) fn without_memo(nested: Nested) -> Self {
        Planner { memo_off: true, ..Self::new(nested) }
    }

    /// The policy the next [`Planner::search`] starts from (zero at first; a
    /// search leaves its adapted policy here).
    pub fn policy_mut(&mut self) -> &mut [f32] {
        &mut self.policies[self.nested.level as usize]
    }

    /// One nested search from `root` at the planner's level, its policy
    /// starting from [`Planner::policy_mut`], until done or the budget is
    /// spent (the best so far is kept). `start`, if given, is the best
    /// sequence to begin with (a plan kept from elsewhere: the search adapts
    /// toward it first). Returns the best sequence found.
    pub fn search(&mut self, root: &G, rng: &mut SplitMix64, budget: &Budget, start: Option<&Sequence<G::Move>>) -> &Sequence<G::Move> {
        let top = self.nested.level as usize;
        if self.root.as_ref() != Some(root) {
            // Paths from another root name other positions.
            self.roots += 1;
            self.root_path = Path::root(self.roots);
            self.root = Some(*root);
        }
        self.best[top].clear();
        if let Some(s) = start {
            self.best[top].copy_from(s);
        }
        self.level(top, root, rng, budget);
        &self.best[top]
    }

    fn level(&mut self, l: usize, root: &G, rng: &mut SplitMix64, budget: &Budget) {
        let n = self.nested.iterations;
        for _ in 0..n {
            if budget.spent(self.playouts) {
                return;
            }
            let found = if l == 1 {
                // A playout reads the level's policy and changes nothing: no copy.
                self.play_out(root, rng);
                &self.playout
            } else {
                let (upper, lower) = self.policies.split_at_mut(l);
                upper[l - 1].copy_from_slice(&lower[0]);
                self.best[l - 1].clear();
                self.level(l - 1, root, rng, budget);
                &self.best[l - 1]
            };
            if found.score >= self.best[l].score && !found.moves.is_empty() {
                let (lo, hi) = self.best.split_at_mut(l);
                hi[0].copy_from(if l == 1 { &self.playout } else { &lo[l - 1] });
            }
            if self.best[l].score > f64::NEG_INFINITY {
                adapt(&mut self.policies[l], &self.best[l], self.nested.alpha, &mut self.logits);
            }
        }
    }

    /// One playout from `root` with the level-1 policy into `self.playout`.
    /// A position met before (by the same path from the same root) takes
    /// its moves, codes and biases from the memo.
    fn play_out(&mut self, root: &G, rng: &mut SplitMix64) {
        let inv_t = 1.0 / self.nested.temperature;
        let Planner { policies, playout: seq, moves, logits, memo, root_path, memo_off, .. } = self;
        let policy = &policies[1];
        seq.clear();
        let mut s = *root;
        let mut path = *root_path;
        loop {
            let start = seq.codes.len();
            let (m, chosen) = match if *memo_off { None } else { memo.get(path) } {
                Some((known, codes, biases)) => {
                    let n = known.len();
                    if n == 0 {
                        break;
                    }
                    let chosen = if n == 1 {
                        0
                    } else {
                        seq.codes.extend_from_slice(codes);
                        seq.biases.extend_from_slice(biases);
                        let c = draw(policy, codes, biases, logits, rng);
                        seq.steps.push((start as u32, n as u32, c as u32));
                        c
                    };
                    (known[chosen], chosen)
                }
                None => {
                    s.legal_moves(moves);
                    let n = moves.len();
                    let chosen = if n <= 1 {
                        memo.put(path, moves, &[], &[]);
                        0
                    } else {
                        seq.codes.resize(start + n, 0);
                        seq.biases.resize(start + n, 0.0);
                        s.codes_and_biases(moves, &mut seq.codes[start..], &mut seq.biases[start..]);
                        scale_biases(&mut seq.biases[start..], inv_t);
                        memo.put(path, moves, &seq.codes[start..], &seq.biases[start..]);
                        let c = draw(policy, &seq.codes[start..], &seq.biases[start..], logits, rng);
                        seq.steps.push((start as u32, n as u32, c as u32));
                        c
                    };
                    if n == 0 {
                        break;
                    }
                    (moves[chosen], chosen)
                }
            };
            s.play(m);
            seq.moves.push(m);
            path = path.then(chosen);
        }
        seq.score = s.score();
        self.playouts += 1;
        self.played += seq.moves.len() as u64;
    }
}

/// Replay `moves` from `root` as a [`Sequence`] (codes, biases and score
/// recomputed there): false when one of them is not legal there or they
/// do not reach the end.
pub fn replay<G: PlanGame>(root: &G, moves: &[G::Move], temperature: f64, out: &mut Sequence<G::Move>) -> bool {
    out.clear();
    let inv_t = 1.0 / temperature;
    let mut s = *root;
    let mut buf = G::Moves::default();
    for &m in moves {
        s.legal_moves(&mut buf);
        let Some(i) = buf.iter().position(|&x| x == m) else { return false };
        if buf.len() > 1 {
            let start = out.codes.len();
            out.codes.resize(start + buf.len(), 0);
            out.biases.resize(start + buf.len(), 0.0);
            s.codes_and_biases(&buf, &mut out.codes[start..], &mut out.biases[start..]);
            scale_biases(&mut out.biases[start..], inv_t);
            out.steps.push((start as u32, buf.len() as u32, i as u32));
        }
        s.play(m);
        out.moves.push(m);
    }
    if !s.is_over() {
        return false;
    }
    out.score = s.score();
    true
}
