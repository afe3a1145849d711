//! Perfect Information Monte Carlo over nested searches: each decision
//! draws determinizations of the position one after another and, in each,
//! runs one nested search ([`Planner::search`]) after each legal move, so
//! that every move gets the same effort on the same deal; then it combines
//! the scores each move's searches reached. [`Aggregate::Follow`] decides
//! otherwise: one search after another from the position, each on its own
//! determinization, all sharing one policy (see `follow`).
//!
//! Determinization `d` of a decision draws from its own stream of the
//! decision's seed, and the results are combined in determinization order,
//! so with a playout budget the decision does not depend on the thread count.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use super::{adapt, replay, Budget, Nested, PlanGame, Planner, Sequence};
use crate::rng::SplitMix64;
// The search's bounds on time and threads hold for every agent.
use crate::search::{MAX_THREADS, MAX_TIME_LIMIT};

/// How the determinizations' findings choose the move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Aggregate {
    /// The best mean over the determinizations of the score its search reached
    /// (moves searched in fewer determinizations than the most searched, which
    /// the clock cut short, are left out).
    Mean,
    /// The move best in the most determinizations (ties: the mean).
    Vote,
    /// The move whose search reached the best score anywhere (for the true
    /// deal, where every "determinization" is the same deal).
    Best,
    /// No moves searched apart: nested searches from the position one after
    /// another, each (with hidden tiles) on a determinization of its own,
    /// all starting from one shared policy, which adapts toward a search's
    /// plan when it scores at least the mean so far. The move is the first
    /// of most plans; with `warm` the policy goes on to the next decision
    /// (`follow`).
    Follow,
}

impl Aggregate {
    /// `mean`, `vote`, `best` or `follow`.
    pub fn parse(text: &str) -> Result<Aggregate, String> {
        match text {
            "mean" => Ok(Aggregate::Mean),
            "vote" => Ok(Aggregate::Vote),
            "best" => Ok(Aggregate::Best),
            "follow" => Ok(Aggregate::Follow),
            _ => Err(format!("aggregate is 'mean', 'vote', 'best' or 'follow'; got {text:?}")),
        }
    }
    /// The name [`Aggregate::parse`] takes.
    pub const fn name(self) -> &'static str {
        match self {
            Aggregate::Mean => "mean",
            Aggregate::Vote => "vote",
            Aggregate::Best => "best",
            Aggregate::Follow => "follow",
        }
    }
}

/// A decision's budgets and shape. `playouts` and `time_limit` are budgets:
/// whichever is reached first ends the decision (at least one is set).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Config {
    /// The nested search run on each determinization.
    pub nested: Nested,
    /// Playouts per decision in all; `None`: only the time limit counts.
    /// Each determinization gets a whole search per move still in play, so a
    /// decision with `n` legal moves and no pruning runs
    /// `ceil(playouts / (n * nested.playouts()))` of them. With
    /// [`Aggregate::Follow`], searches from the position run until the budget
    /// is spent, and the last one, which the budget may cut short, counts
    /// like the others (it found a real plan, only a shorter search's).
    pub playouts: Option<u64>,
    /// Seconds of wall-clock time per decision; `None`: only the playouts count.
    pub time_limit: Option<f64>,
    /// Threads sharing the determinizations.
    pub threads: usize,
    /// How the determinizations choose.
    pub aggregate: Aggregate,
    /// Start each decision's searches from the policy the last decision's
    /// chosen plan was found with, instead of from zero.
    pub warm: bool,
    /// Begin each search with the plan kept from the last decision when all
    /// of it is legal in the determinization.
    pub keep: bool,
    /// Plan on determinizations (true) or on the position as given, hidden
    /// information included (false, the oracle: analysis only, it reads what
    /// a player cannot see; it makes one plan and follows it, see `oracle`;
    /// with [`Aggregate::Follow`] it plans again at every decision).
    pub determinize: bool,
    /// Successive halving over the moves: after rounds of 1, 1, 2, 4, ...
    /// determinizations, only the better half of the moves (at least two) is
    /// searched on, so the closest choices get the most determinizations.
    pub prune: bool,
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
                return Err(format!("the time limit must be in (0, {MAX_TIME_LIMIT}] seconds; got {t}"));
            }
        }
        if !(1..=MAX_THREADS).contains(&self.threads) {
            return Err(format!("threads must be in 1..={MAX_THREADS}; got {}", self.threads));
        }
        if self.aggregate == Aggregate::Follow {
            // Each search starts from the policy the one before it left.
            if self.threads > 1 {
                return Err(format!("aggregate=follow plans on one thread; got threads={}", self.threads));
            }
            // It compares no moves after searches of their own, and a plan is one determinization's.
            if self.keep || self.prune {
                return Err("aggregate=follow carries a policy, not a plan, and searches no move apart: keep and prune do not apply".into());
            }
        }
        Ok(())
    }
}

/// What a planner carries from one decision to the next of the same game.
#[derive(Clone, Debug)]
pub struct Memory<M> {
    /// The policy the chosen plan was found with; with [`Aggregate::Follow`],
    /// the shared policy as the decision left it ([`Config::warm`]).
    pub policy: Option<Vec<f32>>,
    /// The chosen plan's moves after the chosen one ([`Config::keep`]).
    pub plan: Vec<M>,
}

impl<M> Default for Memory<M> {
    fn default() -> Self {
        Memory { policy: None, plan: Vec::new() }
    }
}

/// What one root move got over the determinizations.
#[derive(Clone, Debug, PartialEq)]
pub struct RootMove<M> {
    /// The move.
    pub action: M,
    /// Determinizations where it was searched.
    pub tried: u32,
    /// The mean over those of the best score its search reached.
    pub mean: f64,
    /// Determinizations where it reached the best score of all moves.
    pub votes: u32,
    /// The best score reached after it anywhere.
    pub best: f64,
}

impl<M> RootMove<M> {
    fn untried(action: M) -> Self {
        RootMove { action, tried: 0, mean: 0.0, votes: 0, best: f64::NEG_INFINITY }
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

/// One determinization's findings.
struct Found {
    det: u64,
    /// Per root move, the best score its search reached (`-inf`: not searched).
    scores: Vec<f64>,
}

/// Per root move, the best sequence found after it and the policy that found it.
struct Kept<M> {
    score: f64,
    det: u64,
    moves: Vec<M>,
    policy: Option<Vec<f32>>,
}

/// Stream keys of a decision's determinizations (`SplitMix64::stream(seed, DET + d)`).
const DET: u64 = 0xDE7_0000;

/// Plan one decision of `root` (see the module). `memory` is read (warm start,
/// kept plan) and replaced by this decision's.
pub fn decide<G: PlanGame>(root: &G, cfg: &Config, seed: u64, memory: &mut Memory<G::Move>, stop: Option<&AtomicBool>) -> Decision<G::Move> {
    let started = Instant::now();
    let mut legal = G::Moves::default();
    root.legal_moves(&mut legal);
    let mut out = Decision { best: None, root: Vec::new(), playouts: 0, determinizations: 0, seconds: 0.0, plan: Vec::new() };
    match legal.len() {
        0 => return out,
        1 => {
            // A forced move needs no plan; the kept one goes on past it.
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
    if cfg.aggregate == Aggregate::Follow {
        follow(root, &legal, cfg, seed, memory, deadline, stop, &mut out);
        out.seconds = started.elapsed().as_secs_f64();
        return out;
    }
    if !cfg.determinize {
        oracle(root, &legal, cfg, seed, memory, deadline, stop, &mut out);
        out.seconds = started.elapsed().as_secs_f64();
        return out;
    }
    let n = legal.len();
    let legal: &[G::Move] = &legal;
    let memory_read: &Memory<G::Move> = memory;
    let mut found: Vec<Found> = Vec::new();
    let mut kept: Vec<Option<Kept<G::Move>>> = (0..n).map(|_| None).collect();
    let mut alive = vec![true; n];
    let clock = Budget { playouts: None, deadline, stop };
    let (mut lo, mut round) = (0u64, 0u32);
    loop {
        // Determinizations of this round: what the playout budget leaves for
        // the moves alive (so the count does not depend on the threads), and
        // with pruning 1, 1, 2, 4, ... per round.
        let per_det = cfg.nested.playouts().saturating_mul(alive.iter().filter(|&&a| a).count() as u64).max(1);
        let mut hi = cfg.playouts.map_or(u64::MAX, |p| lo + p.saturating_sub(out.playouts).div_ceil(per_det));
        if cfg.prune {
            hi = hi.min(lo + (1u64 << round.saturating_sub(1).min(62)));
        }
        if hi <= lo || (lo > 0 && clock.spent(0)) {
            break;
        }
        let next = AtomicU64::new(lo);
        let alive_now: &[bool] = &alive;
        let results: Vec<(Vec<Found>, Vec<Option<Kept<G::Move>>>, u64)> = std::thread::scope(|scope| {
            let work = |_| run_thread(root, legal, alive_now, cfg, seed, memory_read, &next, hi, deadline, stop);
            let handles: Vec<_> = (1..cfg.threads.max(1)).map(|t| scope.spawn(move || work(t))).collect();
            let mut all = vec![work(0)];
            all.extend(handles.into_iter().map(|h| h.join().expect("a planner thread panicked")));
            all
        });
        for (f, k, playouts) in results {
            found.extend(f);
            out.playouts += playouts;
            for (slot, k) in kept.iter_mut().zip(k) {
                if let Some(k) = k {
                    if slot.as_ref().is_none_or(|s| (k.score, std::cmp::Reverse(k.det)) > (s.score, std::cmp::Reverse(s.det))) {
                        *slot = Some(k);
                    }
                }
            }
        }
        if cfg.prune {
            prune(&mut alive, &summarise(legal, &found));
        }
        lo = hi;
        round += 1;
    }
    found.sort_by_key(|f| f.det);
    out.determinizations = found.len() as u64;
    out.root = summarise(legal, &found);
    let chosen = choose(&out.root, cfg.aggregate).unwrap_or(0);
    out.best = Some(legal[chosen]);
    let mem = kept[chosen].take();
    out.plan = mem.as_ref().map(|k| k.moves.clone()).unwrap_or_else(|| vec![legal[chosen]]);
    *memory = Memory { policy: mem.and_then(|k| k.policy), plan: out.plan[1..].to_vec() };
    out.seconds = started.elapsed().as_secs_f64();
    out
}

/// The oracle's decision (`determinize` false): on the true position there
/// is nothing to average, so it follows the plan it kept while that plan is
/// legal to the end, and otherwise makes one: on each of `threads` threads,
/// nested searches from the position one after another until the budget is
/// spent, each beginning from the best plan so far (seeded apart; the best
/// of the threads wins, the first of equals). So on a solo deal the whole
/// budget is spent on the first decision and the game follows that plan.
#[allow(clippy::too_many_arguments)]
fn oracle<G: PlanGame>(
    root: &G,
    legal: &[G::Move],
    cfg: &Config,
    seed: u64,
    memory: &mut Memory<G::Move>,
    deadline: Option<Instant>,
    stop: Option<&AtomicBool>,
    out: &mut Decision<G::Move>,
) {
    let mut kept = Sequence::default();
    let plan = if replay(root, &memory.plan, cfg.nested.temperature, &mut kept) {
        kept
    } else {
        let budget = Budget { playouts: cfg.playouts, deadline, stop };
        let found: Vec<(Sequence<G::Move>, u64)> = std::thread::scope(|scope| {
            // Each thread runs searches one after another until the budget is
            // spent, each beginning from the best plan so far.
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
        let mut best = Sequence::default();
        for (s, _) in found {
            if s.score > best.score {
                best = s;
            }
        }
        best
    };
    let first = plan.first().filter(|m| legal.contains(m)).unwrap_or(legal[0]);
    out.best = Some(first);
    out.root = legal
        .iter()
        .map(|&action| {
            let ours = action == first && plan.score > f64::NEG_INFINITY;
            let score = if ours { plan.score } else { f64::NEG_INFINITY };
            RootMove { action, tried: u32::from(ours), mean: if ours { score } else { 0.0 }, votes: u32::from(ours), best: score }
        })
        .collect();
    out.plan = if plan.first() == Some(first) { plan.moves } else { vec![first] };
    memory.plan = out.plan[1..].to_vec();
}

/// [`Aggregate::Follow`]'s decision: one policy for all the searches.
/// Each nested search runs on a determinization of its own (the true
/// position for the oracle), starting from that policy, which then adapts
/// toward the plan the search found when it scores at least the mean of the
/// plans so far. Not toward the best plan, as a nested level does: scores
/// on different deals do not compare, and not toward every plan either: a
/// move common to many plans (discarding) then takes over whatever the
/// scores say. The move chosen is the first of most plans (ties: their
/// mean); with `warm` the policy goes on to the next decision. Its searches
/// follow one another, so it runs on one thread.
#[allow(clippy::too_many_arguments)]
fn follow<G: PlanGame>(
    root: &G,
    legal: &[G::Move],
    cfg: &Config,
    seed: u64,
    memory: &mut Memory<G::Move>,
    deadline: Option<Instant>,
    stop: Option<&AtomicBool>,
    out: &mut Decision<G::Move>,
) {
    let mut planner: Planner<G> = Planner::new(cfg.nested);
    let mut policy = memory.policy.take().filter(|_| cfg.warm).unwrap_or_else(|| vec![0.0; G::NUM_CODES]);
    let budget = Budget { playouts: cfg.playouts, deadline, stop };
    let mut root_moves: Vec<RootMove<G::Move>> = legal.iter().map(|&action| RootMove::untried(action)).collect();
    let (mut scratch, mut sum, mut plans) = (Vec::new(), 0.0, 0u32);
    for k in 0.. {
        if k > 0 && budget.spent(planner.playouts) {
            break;
        }
        let mut rng = SplitMix64::stream(seed, DET + k);
        let det = if cfg.determinize { root.determinize(&mut rng) } else { *root };
        planner.policy_mut().copy_from_slice(&policy);
        let found = planner.search(&det, &mut rng, &budget, None);
        let Some(i) = found.first().and_then(|m| legal.iter().position(|&x| x == m)) else { continue };
        let r = &mut root_moves[i];
        r.votes += 1;
        r.tried += 1;
        r.mean += found.score;
        r.best = r.best.max(found.score);
        (sum, plans) = (sum + found.score, plans + 1);
        if found.score * plans as f64 >= sum {
            adapt(&mut policy, found, cfg.nested.alpha, &mut scratch);
        }
        out.determinizations += 1;
    }
    out.playouts = planner.playouts;
    means(&mut root_moves);
    let chosen = choose(&root_moves, Aggregate::Follow).unwrap_or(0);
    out.best = Some(legal[chosen]);
    out.plan = vec![legal[chosen]];
    out.root = root_moves;
    *memory = Memory { policy: cfg.warm.then_some(policy), plan: Vec::new() };
}

/// One thread's share: determinizations taken in turn from `next` until the
/// budget is spent; a determinization the clock cut short is left out (unless
/// it is the decision's first, which then counts whatever it reached).
#[allow(clippy::too_many_arguments)]
fn run_thread<G: PlanGame>(
    root: &G,
    legal: &[G::Move],
    alive: &[bool],
    cfg: &Config,
    seed: u64,
    memory: &Memory<G::Move>,
    next: &AtomicU64,
    end: u64,
    deadline: Option<Instant>,
    stop: Option<&AtomicBool>,
) -> (Vec<Found>, Vec<Option<Kept<G::Move>>>, u64) {
    let mut planner: Planner<G> = Planner::new(cfg.nested);
    let mut found = Vec::new();
    let mut kept: Vec<Option<Kept<G::Move>>> = (0..legal.len()).map(|_| None).collect();
    let mut start = Sequence::default();
    let clock = Budget { playouts: None, deadline, stop };
    loop {
        let d = next.fetch_add(1, Ordering::Relaxed);
        if d >= end || (d > 0 && clock.spent(0)) {
            break;
        }
        let mut rng = SplitMix64::stream(seed, DET + d);
        let det = if cfg.determinize { root.determinize(&mut rng) } else { *root };
        let mut scores = vec![f64::NEG_INFINITY; legal.len()];
        let mut cut = false;
        let last = alive.iter().rposition(|&a| a).unwrap_or(0);
        for (i, &m) in legal.iter().enumerate().filter(|&(i, _)| alive[i]) {
            let before = planner.playouts;
            let mut child = det;
            child.play(m);
            match (&memory.policy, cfg.warm) {
                (Some(p), true) => planner.policy_mut().copy_from_slice(p),
                _ => planner.policy_mut().fill(0.0),
            }
            let seeded = cfg.keep
                && memory.plan.first() == Some(&m)
                && replay(&child, &memory.plan[1..], cfg.nested.temperature, &mut start);
            let budget = Budget { playouts: Some(planner.playouts + cfg.nested.playouts()), ..clock };
            let best = planner.search(&child, &mut rng, &budget, seeded.then_some(&start));
            // A move that ends the game has its score and needs no search.
            scores[i] = if child.is_over() { child.score() } else { best.score };
            let slot = &mut kept[i];
            if scores[i] > slot.as_ref().map_or(f64::NEG_INFINITY, |s| s.score) {
                let mut moves = Vec::with_capacity(best.moves.len() + 1);
                moves.push(m);
                if !child.is_over() {
                    moves.extend_from_slice(&best.moves);
                }
                let policy = cfg.warm.then(|| planner.policy_mut().to_vec());
                *slot = Some(Kept { score: scores[i], det: d, moves, policy });
            }
            if clock.spent(0) {
                cut = i < last || (planner.playouts - before < cfg.nested.playouts() && !child.is_over());
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

fn summarise<M: Copy>(legal: &[M], found: &[Found]) -> Vec<RootMove<M>> {
    let mut root: Vec<RootMove<M>> = legal.iter().map(|&action| RootMove::untried(action)).collect();
    for f in found {
        let top = f.scores.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        // The first of the best moves of this determinization gets its vote.
        let winner = f.scores.iter().position(|&x| x == top && x > f64::NEG_INFINITY);
        for (i, (r, &b)) in root.iter_mut().zip(&f.scores).enumerate() {
            if b > f64::NEG_INFINITY {
                r.tried += 1;
                r.mean += b;
                r.best = r.best.max(b);
            }
            if Some(i) == winner {
                r.votes += 1;
            }
        }
    }
    means(&mut root);
    root
}

/// Each root move's sum of scores (in `mean`) divided by its count.
fn means<M>(root: &mut [RootMove<M>]) {
    for r in root {
        if r.tried > 0 {
            r.mean /= r.tried as f64;
        }
    }
}

/// Successive halving: keep the better half of the moves alive (at least
/// two) by their mean so far. The moves alive were searched on the same
/// determinizations, so the comparison is paired.
fn prune<M>(alive: &mut [bool], root: &[RootMove<M>]) {
    let mut order: Vec<usize> = (0..alive.len()).filter(|&i| alive[i]).collect();
    if order.len() <= 2 {
        return;
    }
    order.sort_by(|&a, &b| root[b].mean.total_cmp(&root[a].mean).then(a.cmp(&b)));
    let keep = order.len().div_ceil(2).max(2);
    for &i in &order[keep..] {
        alive[i] = false;
    }
}

/// The index of the chosen root move; `None` when nothing was tried.
fn choose<M>(root: &[RootMove<M>], aggregate: Aggregate) -> Option<usize> {
    let most = root.iter().map(|r| r.tried).max()?;
    if most == 0 {
        return None;
    }
    let key = |r: &RootMove<M>| -> (f64, f64, u32) {
        match aggregate {
            Aggregate::Mean if r.tried < most => (f64::NEG_INFINITY, 0.0, 0),
            Aggregate::Mean => (r.mean, r.tried as f64, 0),
            Aggregate::Vote => (r.votes as f64, r.mean, r.tried),
            Aggregate::Best => (r.best, r.mean, r.tried),
            // Every plan is a vote and a try for its first move.
            Aggregate::Follow => (r.votes as f64, r.mean, r.tried),
        }
    };
    // The first of equals in legal order.
    let mut best = 0;
    for i in 1..root.len() {
        if key(&root[i]).partial_cmp(&key(&root[best])) == Some(std::cmp::Ordering::Greater) {
            best = i;
        }
    }
    Some(best)
}
