//! Perfect Information Monte Carlo over nested searches: each decision
//! runs nested searches ([`Planner::search`]) on determinizations of the
//! position, in one of three [`Mode`]s: the planner's (`follow`, one policy
//! shared by the searches), the per-move mean (`per_move`) and the oracle on
//! the true deal (`oracle`).
//!
//! Determinization `d` of a decision draws from its own stream of the
//! decision's seed, and the results are combined in determinization order,
//! so with a playout budget the decision does not depend on the thread count.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use super::{adapt, replay, Budget, Nested, PlanGame, Planner, Sequence};
use crate::rng::SplitMix64;
use crate::limits::{MAX_THREADS, MAX_TIME_LIMIT};

/// How a decision uses its budget. `docs/plan.md` has the measurements
/// behind each; [`Mode::Follow`] is the planner, the others are for
/// comparison and analysis.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Nested searches from the position one after another, each on a
    /// determinization of its own, all starting from one shared policy,
    /// which adapts toward a search's plan when it scores at least the mean
    /// so far; the move is the first of most plans (`follow`). One thread.
    Follow,
    /// Every legal move searched on the same determinizations; the move with
    /// the best mean score of its searches (`per_move`).
    Mean,
    /// Plans on the true deal, reading the covered tiles (analysis only): one
    /// plan from the whole budget, followed while it stays legal (`oracle`).
    Oracle,
}

impl Mode {
    /// Every mode, in the order of [`Mode::name`]'s names.
    pub const ALL: [Mode; 3] = [Mode::Follow, Mode::Mean, Mode::Oracle];
    /// `follow`, `mean` or `oracle`.
    pub const fn name(self) -> &'static str {
        match self {
            Mode::Follow => "follow",
            Mode::Mean => "mean",
            Mode::Oracle => "oracle",
        }
    }
}

/// A decision's budgets and shape. `playouts` and `time_limit` are budgets:
/// whichever is reached first ends the decision (at least one is set).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Config {
    /// The nested search run from the position (or after each move, [`Mode::Mean`]).
    pub nested: Nested,
    /// Playouts per decision in all; `None`: only the time limit counts.
    /// [`Mode::Mean`] gives each determinization a whole search per legal
    /// move, so a decision with `n` legal moves runs
    /// `ceil(playouts / (n * nested.playouts()))` of them; the other modes
    /// run searches until the budget is spent, the last one possibly cut short.
    pub playouts: Option<u64>,
    /// Seconds of wall-clock time per decision; `None`: only the playouts count.
    pub time_limit: Option<f64>,
    /// Threads sharing the searches ([`Mode::Mean`], [`Mode::Oracle`]);
    /// [`Mode::Follow`]'s searches follow one another on one thread.
    pub threads: usize,
    /// How the decision spends its budget.
    pub mode: Mode,
    /// [`Mode::Follow`]: the shared policy goes on to the next decision
    /// instead of starting from zero; `None`: the mode's default (on).
    pub warm: Option<bool>,
}

impl Config {
    /// Refuses settings no decision can run with.
    pub fn check(&self) -> Result<(), String> {
        self.nested.check()?;
        if self.playouts.is_none() && self.time_limit.is_none() {
            return Err("give a playout budget or a time limit".into());
        }
        if self.playouts == Some(0) {
            return Err("playouts must be at least 1".into());
        }
        if let Some(t) = self.time_limit {
            if !(t > 0.0 && t <= MAX_TIME_LIMIT) {
                return Err(format!("time must be in (0, {MAX_TIME_LIMIT}] seconds; got {t}"));
            }
        }
        if !(1..=MAX_THREADS).contains(&self.threads) {
            return Err(format!("threads must be in 1..={MAX_THREADS}; got {}", self.threads));
        }
        if self.mode == Mode::Follow && self.threads > 1 {
            return Err(format!("mode=follow plans on one thread (each search starts from the policy the one before left); got threads={}", self.threads));
        }
        if self.mode != Mode::Follow && self.warm.is_some() {
            return Err(format!("warm applies to mode=follow only; got mode={}", self.mode.name()));
        }
        Ok(())
    }
}

/// What a planner carries from one decision to the next of the same game.
#[derive(Clone, Debug)]
pub struct Memory<M> {
    /// [`Mode::Follow`] with `warm`: the shared policy as the decision left it.
    pub policy: Option<Vec<f32>>,
    /// [`Mode::Oracle`]: the plan's moves after the one chosen.
    pub plan: Vec<M>,
}

impl<M> Default for Memory<M> {
    fn default() -> Self {
        Memory { policy: None, plan: Vec::new() }
    }
}

/// What one root move got over the determinizations: in [`Mode::Mean`],
/// the searches run after it; in the other modes, the plans that began with it.
#[derive(Clone, Debug, PartialEq)]
pub struct RootMove<M> {
    /// The move.
    pub action: M,
    /// Searches that count for it.
    pub tried: u32,
    /// The mean of their scores.
    pub mean: f64,
    /// The best of their scores.
    pub best: f64,
}

impl<M> RootMove<M> {
    fn untried(action: M) -> Self {
        RootMove { action, tried: 0, mean: 0.0, best: f64::NEG_INFINITY }
    }
    /// One more search that scored `score`; `mean` holds the sum until [`means`].
    fn count(&mut self, score: f64) {
        self.tried += 1;
        self.mean += score;
        self.best = self.best.max(score);
    }
}

/// A decision's result.
#[derive(Clone, Debug, PartialEq)]
pub struct Decision<M> {
    /// The move chosen; `None` when the game is over.
    pub best: Option<M>,
    /// Per legal move (in legal order): what the determinizations found.
    pub root: Vec<RootMove<M>>,
    /// Playouts run.
    pub playouts: u64,
    /// Determinizations searched (the last one possibly cut short by the clock).
    pub determinizations: u64,
    /// Wall-clock seconds.
    pub seconds: f64,
    /// The best sequence found that starts with the chosen move, whole (the chosen move first).
    pub plan: Vec<M>,
}

/// One determinization's findings in [`Mode::Mean`].
struct Found {
    det: u64,
    /// Per root move, the best score its search reached (`-inf`: not searched).
    scores: Vec<f64>,
}

/// Per root move, the best sequence found after it.
struct Kept<M> {
    score: f64,
    det: u64,
    moves: Vec<M>,
}

/// One thread's share of [`Mode::Mean`]: its determinizations' findings,
/// the best sequence after each move, and the playouts run.
type Share<M> = (Vec<Found>, Vec<Option<Kept<M>>>, u64);

/// Stream keys of a decision's determinizations (`SplitMix64::stream(seed, DET + d)`).
const DET: u64 = 0xDE7_0000;

/// Plan one decision of `root` (see [`Mode`]). `memory` is read (the warm
/// policy, the oracle's plan) and replaced by this decision's.
pub fn decide<G: PlanGame>(root: &G, cfg: &Config, seed: u64, memory: &mut Memory<G::Move>, stop: Option<&AtomicBool>) -> Decision<G::Move> {
    let started = Instant::now();
    let mut legal = G::Moves::default();
    root.legal_moves(&mut legal);
    let mut out = Decision { best: None, root: Vec::new(), playouts: 0, determinizations: 0, seconds: 0.0, plan: Vec::new() };
    match legal.len() {
        0 => return out,
        1 => {
            // A forced move needs no plan; the oracle's goes on past it.
            out.best = Some(legal[0]);
            if memory.plan.first() == Some(&legal[0]) {
                memory.plan.remove(0);
            } else {
                memory.plan.clear();
            }
            out.plan = vec![legal[0]];
            return out;
        }
        _ => {}
    }
    let deadline = cfg.time_limit.map(|t| started + Duration::from_secs_f64(t));
    match cfg.mode {
        Mode::Follow => follow(root, &legal, cfg, seed, memory, Budget { count: cfg.playouts, deadline, stop }, &mut out),
        Mode::Oracle => oracle(root, &legal, cfg, seed, memory, Budget { count: cfg.playouts, deadline, stop }, &mut out),
        Mode::Mean => per_move(root, &legal, cfg, seed, memory, Budget { count: None, deadline, stop }, &mut out),
    }
    out.seconds = started.elapsed().as_secs_f64();
    out
}

/// [`Mode::Mean`]: determinizations until the budget is spent, each searched
/// after every legal move by `threads` threads; the move with the best mean.
fn per_move<G: PlanGame>(root: &G, legal: &[G::Move], cfg: &Config, seed: u64, memory: &mut Memory<G::Move>, clock: Budget, out: &mut Decision<G::Move>) {
    let per_det = cfg.nested.playouts().saturating_mul(legal.len() as u64).max(1);
    let mut found: Vec<Found> = Vec::new();
    let mut kept: Vec<Option<Kept<G::Move>>> = (0..legal.len()).map(|_| None).collect();
    let mut lo = 0;
    loop {
        // What the playout budget leaves (so the count does not depend on the threads;
        // a move that ends the game runs no playouts, hence more rounds).
        let hi = cfg.playouts.map_or(u64::MAX, |p| lo + p.saturating_sub(out.playouts).div_ceil(per_det));
        if hi <= lo || (lo > 0 && clock.spent(0)) {
            break;
        }
        let next = AtomicU64::new(lo);
        let results: Vec<Share<G::Move>> = std::thread::scope(|scope| {
            let work = |_| run_thread(root, legal, cfg, seed, &next, hi, &clock);
            let handles: Vec<_> = (1..cfg.threads.max(1)).map(|t| scope.spawn(move || work(t))).collect();
            let mut all = vec![work(0)];
            all.extend(handles.into_iter().map(|h| h.join().expect("a planner thread panicked")));
            all
        });
        for (f, k, playouts) in results {
            found.extend(f);
            out.playouts += playouts;
            for (slot, k) in kept.iter_mut().zip(k).filter_map(|(s, k)| k.map(|k| (s, k))) {
                if slot.as_ref().is_none_or(|s| (k.score, std::cmp::Reverse(k.det)) > (s.score, std::cmp::Reverse(s.det))) {
                    *slot = Some(k);
                }
            }
        }
        lo = hi;
    }
    found.sort_by_key(|f| f.det);
    out.determinizations = found.len() as u64;
    out.root = legal.iter().map(|&action| RootMove::untried(action)).collect();
    for f in &found {
        for (r, &b) in out.root.iter_mut().zip(&f.scores).filter(|(_, &b)| b > f64::NEG_INFINITY) {
            r.count(b);
        }
    }
    let chosen = finish(out, legal, Mode::Mean);
    out.plan = kept[chosen].take().map(|k| k.moves).unwrap_or_else(|| vec![legal[chosen]]);
    *memory = Memory::default();
}

/// The oracle's decision ([`Mode::Oracle`]): on the true position there
/// is nothing to average, so it follows the plan it kept while that plan is
/// legal to the end, and otherwise makes one: on each of `threads` threads,
/// nested searches from the position one after another until the budget is
/// spent, each beginning from the best plan so far (seeded apart; the best
/// of the threads wins, the first of equals). So on a solo deal the whole
/// budget is spent on the first decision and the game follows that plan.
fn oracle<G: PlanGame>(root: &G, legal: &[G::Move], cfg: &Config, seed: u64, memory: &mut Memory<G::Move>, budget: Budget, out: &mut Decision<G::Move>) {
    let mut kept = Sequence::default();
    let plan = if replay(root, &memory.plan, cfg.nested.temperature, &mut kept) {
        kept
    } else {
        let found: Vec<(Sequence<G::Move>, u64)> = std::thread::scope(|scope| {
            let search = |t: u64| {
                let mut planner: Planner<G> = Planner::new(cfg.nested);
                let mut best = Sequence::default();
                for k in 0.. {
                    if k > 0 && budget.spent(planner.playouts) {
                        break;
                    }
                    let mut rng = SplitMix64::stream(seed, DET + (t << 32) + k);
                    let start = (best.score > f64::NEG_INFINITY).then(|| best.clone());
                    let found = planner.search(root, &mut rng, &budget, start.as_ref());
                    if found.score > best.score {
                        best = found.clone();
                    }
                }
                (best, planner.playouts)
            };
            let handles: Vec<_> = (1..cfg.threads.max(1) as u64).map(|t| scope.spawn(move || search(t))).collect();
            let mut all = vec![search(0)];
            all.extend(handles.into_iter().map(|h| h.join().expect("a planner thread panicked")));
            all
        });
        out.playouts = found.iter().map(|f| f.1).sum();
        out.determinizations = found.len() as u64;
        found.into_iter().map(|f| f.0).fold(Sequence::default(), |best, s| if s.score > best.score { s } else { best })
    };
    let first = plan.first().filter(|m| legal.contains(m)).unwrap_or(legal[0]);
    out.best = Some(first);
    out.root = legal.iter().map(|&action| RootMove::untried(action)).collect();
    if plan.score > f64::NEG_INFINITY {
        if let Some(r) = out.root.iter_mut().find(|r| r.action == first) {
            r.count(plan.score);
        }
    }
    out.plan = if plan.first() == Some(first) { plan.moves } else { vec![first] };
    memory.plan = out.plan[1..].to_vec();
}

/// [`Mode::Follow`]'s decision: one policy for all the searches. Each
/// nested search runs on a determinization of its own, starting from that
/// policy, which then adapts toward the plan the search found when it
/// scores at least the mean of the plans so far. Not toward the best plan,
/// as a nested level does: scores on different deals do not compare, and
/// not toward every plan either: a move common to many plans (discarding)
/// then takes over whatever the scores say. The move chosen is the first of
/// most plans (ties: their mean); with `warm` the policy goes on to the
/// next decision. Its searches follow one another, so it runs on one thread.
fn follow<G: PlanGame>(root: &G, legal: &[G::Move], cfg: &Config, seed: u64, memory: &mut Memory<G::Move>, budget: Budget, out: &mut Decision<G::Move>) {
    let mut planner: Planner<G> = Planner::new(cfg.nested);
    let warm = cfg.warm.unwrap_or(true);
    let mut policy = memory.policy.take().filter(|_| warm).unwrap_or_else(|| vec![0.0; G::NUM_CODES]);
    out.root = legal.iter().map(|&action| RootMove::untried(action)).collect();
    let (mut scratch, mut sum, mut plans) = (Vec::new(), 0.0, 0u32);
    for k in 0.. {
        if k > 0 && budget.spent(planner.playouts) {
            break;
        }
        let mut rng = SplitMix64::stream(seed, DET + k);
        let det = root.determinize(&mut rng);
        planner.policy_mut().copy_from_slice(&policy);
        let found = planner.search(&det, &mut rng, &budget, None);
        let Some(i) = found.first().and_then(|m| legal.iter().position(|&x| x == m)) else { continue };
        out.root[i].count(found.score);
        (sum, plans) = (sum + found.score, plans + 1);
        if found.score * plans as f64 >= sum {
            adapt(&mut policy, found, cfg.nested.alpha, &mut scratch);
        }
        out.determinizations += 1;
    }
    out.playouts = planner.playouts;
    let chosen = finish(out, legal, Mode::Follow);
    out.plan = vec![legal[chosen]];
    *memory = Memory { policy: warm.then_some(policy), plan: Vec::new() };
}

/// One thread's share of [`Mode::Mean`]: determinizations taken in turn
/// from `next` until the budget is spent; a determinization the clock cut
/// short is left out (unless it is the decision's first, which then counts
/// whatever it reached).
fn run_thread<G: PlanGame>(root: &G, legal: &[G::Move], cfg: &Config, seed: u64, next: &AtomicU64, end: u64, clock: &Budget) -> Share<G::Move> {
    let mut planner: Planner<G> = Planner::new(cfg.nested);
    let mut found = Vec::new();
    let mut kept: Vec<Option<Kept<G::Move>>> = (0..legal.len()).map(|_| None).collect();
    loop {
        let d = next.fetch_add(1, Ordering::Relaxed);
        if d >= end || (d > 0 && clock.spent(0)) {
            break;
        }
        let mut rng = SplitMix64::stream(seed, DET + d);
        let det = root.determinize(&mut rng);
        let mut scores = vec![f64::NEG_INFINITY; legal.len()];
        let mut cut = false;
        for (i, &m) in legal.iter().enumerate() {
            let before = planner.playouts;
            let mut child = det;
            child.play(m);
            planner.policy_mut().fill(0.0);
            let budget = Budget { count: Some(planner.playouts + cfg.nested.playouts()), ..*clock };
            let best = planner.search(&child, &mut rng, &budget, None);
            // A move that ends the game has its score and needs no search.
            scores[i] = if child.is_over() { child.score() } else { best.score };
            if scores[i] > kept[i].as_ref().map_or(f64::NEG_INFINITY, |s| s.score) {
                let mut moves = vec![m];
                if !child.is_over() {
                    moves.extend_from_slice(&best.moves);
                }
                kept[i] = Some(Kept { score: scores[i], det: d, moves });
            }
            if clock.spent(0) {
                cut = i + 1 < legal.len() || (planner.playouts - before < cfg.nested.playouts() && !child.is_over());
                break;
            }
        }
        if !cut || d == 0 {
            found.push(Found { det: d, scores });
        }
        if clock.spent(0) {
            break;
        }
    }
    (found, kept, planner.playouts)
}

/// Turns each root move's sum of scores into its mean, chooses, and sets
/// `out.best`; returns the chosen move's index. [`Mode::Mean`] chooses the
/// best mean among the moves searched on every determinization (the clock
/// may cut the last short); the others the first move of most plans, then
/// their mean. The first of equals in legal order.
fn finish<M: Copy>(out: &mut Decision<M>, legal: &[M], mode: Mode) -> usize {
    for r in out.root.iter_mut().filter(|r| r.tried > 0) {
        r.mean /= r.tried as f64;
    }
    let most = out.root.iter().map(|r| r.tried).max().unwrap_or(0);
    let key = |r: &RootMove<M>| match mode {
        Mode::Mean if r.tried < most => (f64::NEG_INFINITY, 0.0),
        Mode::Mean => (r.mean, r.tried as f64),
        Mode::Follow | Mode::Oracle => (r.tried as f64, r.mean),
    };
    let mut best = 0;
    if most > 0 {
        for i in 1..out.root.len() {
            if key(&out.root[i]).partial_cmp(&key(&out.root[best])) == Some(std::cmp::Ordering::Greater) {
                best = i;
            }
        }
    }
    out.best = Some(legal[best]);
    best
}

