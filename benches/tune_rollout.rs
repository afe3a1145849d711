//! Tuning the heuristic rollout policy's weights on solo games: the policy
//! alone plays `GAMES` seeded solo games per candidate; coordinate search keeps
//! improvements. `cargo bench --bench tune_rollout` (a few minutes).
//! `MODE=rivals` tunes them on 2-player games of the policy against itself, and
//! `MODE=sweep PLAYERS=2` judges them by 2-player games of the search
//! (`docs/experiments/2026-12-05-rival-rollouts.md`).
//! `MODE=sweep` judges weight sets by today's default search instead, paired
//! on the same deals and both cores (`docs/experiments/2026-11-30-search-tuning.md`);
//! with `PLAN=LEVEL,ITERATIONS` it judges them as the solo planner's bias
//! instead: one nested search of that shape on each true deal
//! (`docs/experiments/2026-12-03-planner-bias.md`).

use _core::agents::heuristic::{choose, Weights};
use _core::rng::SplitMix64;

/// A coordinate-search candidate's mean solo score: the policy alone on deals
/// `0..games`, or with MODE=mcts the default search using it for its rollouts
/// (ITERATIONS per decision, default 300) on deals `10000..`: slower, but it
/// measures what the weights are for.
fn mean_score(w: &Weights, games: u64) -> f64 {
    let (first, iterations) = if std::env::var("MODE").as_deref() == Ok("mcts") {
        (10_000, std::env::var("ITERATIONS").ok().and_then(|v| v.parse().ok()).unwrap_or(300))
    } else {
        (0, 0)
    };
    let scores = solo_scores(w, first, games, iterations, 1);
    scores.iter().map(|&x| x as f64).sum::<f64>() / games as f64
}

/// The weights a nudge moves (all but the Shrine cap), each up and down.
const NUDGES: usize = 20;

/// `w` with weight `k / 2` (in the order of [`parse_weights`], the Shrine cap
/// left out) up by `step` for an even `k`, down for an odd one; `k` < [`NUDGES`].
fn nudge(w: Weights, k: usize, step: f64) -> Weights {
    assert!(k < NUDGES, "nudge {k} of {NUDGES}");
    let mut c = w;
    let d = if k % 2 == 0 { step } else { -step };
    match k / 2 {
        0 => c.group[0] += d,
        1 => c.group[1] += d,
        2 => c.group[2] += d,
        3 => c.pool += d,
        4 => c.held_match += d,
        5 => c.held_new += d,
        6 => c.height += d,
        7 => c.free += d,
        8 => c.summon += d,
        _ => c.discard += d,
    }
    c
}

/// The Shrine caps that MODE=sweep and MODE=rivals try.
const SHRINE_CAPS: [u8; 4] = [0, 1, 2, 3];
/// The Shrine caps of the solo climb, as in its logged runs.
const SOLO_CLIMB_CAPS: [u8; 4] = [1, 2, 3, 4];

/// Neighbour `k` of `w` (`k` < [`NUDGES`] + `caps.len()`): for `k` < [`NUDGES`],
/// a weight up or down by `step` ([`nudge`]); past them, `w` with Shrine cap
/// `caps[k - NUDGES]` (which is `w` itself when the cap is its own).
fn neighbour(w: Weights, k: usize, step: f64, caps: &[u8]) -> Weights {
    if k < NUDGES { nudge(w, k, step) } else { Weights { pool_cap: caps[k - NUDGES], ..w } }
}

/// Coordinate search from `w`: for each step in turn, the neighbours (every
/// weight up and down by it, then every other Shrine cap of `caps`), each built
/// from the weights as they are after the gains before it, pass after pass
/// until one keeps nothing. `better(incumbent, candidate, step)` judges.
fn climb(mut w: Weights, steps: &[f64], caps: &[u8], mut better: impl FnMut(&Weights, &Weights, f64) -> bool) -> Weights {
    for &step in steps {
        let mut improved = true;
        while improved {
            improved = false;
            for k in 0..NUDGES + caps.len() {
                let c = neighbour(w, k, step, caps);
                if c != w && better(&w, &c, step) {
                    w = c;
                    improved = true;
                }
            }
        }
    }
    w
}

/// The default search with rollout weights `w`, `iterations` per decision.
fn search_agent(w: &Weights, iterations: u64) -> _core::arena::Agent {
    use _core::eval::{LeafEval, Rollout, RolloutEval};
    let config = _core::search::Config { iterations: Some(iterations), ..Default::default() };
    let eval = LeafEval::Rollout(RolloutEval { rollout: Rollout::Policy(*w), ..RolloutEval::default() });
    _core::arena::Agent::Mcts { config, eval, reuse: _core::search::DEFAULT_REUSE, exploration: None }
}

/// The solo scores on deals `first..first + games` of the search with
/// rollout weights `w` (`iterations` per decision; 0: the policy alone,
/// without a search), `threads` games at a time. Each decision's draws
/// depend on the deal, the seat and the decision only, so two weight sets
/// meet the same deals and the same random streams: their scores pair.
fn solo_scores(w: &Weights, first: u64, games: u64, iterations: u64, threads: usize) -> Vec<u32> {
    if let Ok(shape) = std::env::var("PLAN") {
        return plan_scores(w, &shape, first, games, threads);
    }
    if iterations == 0 {
        // The policy alone, no search: thousands of games a second.
        return (first..first + games)
            .map(|seed| {
                let mut s = _core::Setup::new(1, seed).state().expect("a solo deal");
                let mut rng = SplitMix64::new(seed ^ 0xABCD);
                while let Some(a) = choose(&s, &mut rng, w) {
                    s.apply_unchecked(a);
                }
                s.score(0) as u32
            })
            .collect();
    }
    use _core::arena::play_game;
    use std::sync::atomic::{AtomicU64, Ordering};
    let agents = [search_agent(w, iterations)];
    let stop = std::sync::atomic::AtomicBool::new(false);
    let next = AtomicU64::new(0);
    let mut scores = vec![0u32; games as usize];
    let parts: Vec<Vec<(usize, u32)>> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|_| {
                scope.spawn(|| {
                    let mut out = Vec::new();
                    loop {
                        let k = next.fetch_add(1, Ordering::Relaxed);
                        if k >= games {
                            return out;
                        }
                        let game = play_game(&agents, &_core::Setup::new(1, first + k), &stop, 0).unwrap_or_else(|e| panic!("{e}"));
                        out.push((k as usize, game.scores[0] as u32));
                    }
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().expect("a game thread")).collect()
    });
    for (k, score) in parts.into_iter().flatten() {
        scores[k] = score;
    }
    scores
}

/// The best score of one nested search (`shape`: "LEVEL,ITERATIONS") on each
/// true deal `first..first + games`, with the move values under `w` as its
/// bias; each search seeded by its deal, so two weight sets pair.
fn plan_scores(w: &Weights, shape: &str, first: u64, games: u64, threads: usize) -> Vec<u32> {
    use _core::eval::plan::WithBias;
    use _core::plan::{Budget, Nested, Planner};
    use std::sync::atomic::{AtomicU64, Ordering};
    let v: Vec<u32> = shape.split(',').map(|x| x.trim().parse().expect("PLAN=LEVEL,ITERATIONS")).collect();
    let nested = Nested { level: v[0], iterations: v[1], ..Nested::default() };
    // The planner's problem holds its weights by reference; a run judges a few dozen sets.
    let weights: &'static Weights = Box::leak(Box::new(*w));
    let next = AtomicU64::new(0);
    let parts: Vec<Vec<(u64, u32)>> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|_| {
                scope.spawn(|| {
                    let mut planner: Planner<WithBias> = Planner::new(nested);
                    let mut out = Vec::new();
                    loop {
                        let k = next.fetch_add(1, Ordering::Relaxed);
                        if k >= games {
                            return out;
                        }
                        let mut state = _core::Setup::new(1, first + k).state().expect("a solo deal");
                        state.never_activate();
                        planner.policy_mut().fill(0.0);
                        let root = WithBias { state, weights };
                        let best = planner.search(&root, &mut SplitMix64::new(first + k), &Budget::default(), None);
                        out.push((k, best.score as u32));
                    }
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().expect("a planner thread")).collect()
    });
    let mut scores = vec![0u32; games as usize];
    for (k, s) in parts.into_iter().flatten() {
        scores[k as usize] = s;
    }
    scores
}

fn parse_weights(text: &str) -> Weights {
    text.parse().unwrap_or_else(|e| panic!("WEIGHTS: {e}"))
}

/// MODE=sweep: the default search (today's `mcts` defaults, ITERATIONS per
/// decision; 0: the rollout policy alone) with the incumbent weights
/// (WEIGHTS, default the tuned ones) and with each neighbour (every weight up and down by STEP, every other Shrine
/// cap), or with each of CANDIDATES ("w;w;..."), on the same GAMES deals from
/// SEED, THREADS games at a time. Prints every candidate's mean and its paired
/// difference with the incumbent (± its standard error), a line each, so a
/// run in the background can be read as it goes. It judges; it keeps nothing.
/// With PLAYERS=2 each candidate's search plays the incumbent's instead, on
/// 2-player deals with the seats rotated, and its share of wins is printed.
fn sweep() {
    let var = |k: &str, d: &str| std::env::var(k).unwrap_or_else(|_| d.to_string());
    let games: u64 = var("GAMES", "100").parse().expect("GAMES");
    let iterations: u64 = var("ITERATIONS", "2000").parse().expect("ITERATIONS");
    let first: u64 = var("SEED", "10000").parse().expect("SEED");
    let threads: usize = var("THREADS", "2").parse().expect("THREADS");
    let step: f64 = var("STEP", "0.5").parse().expect("STEP");
    let w = std::env::var("WEIGHTS").map(|t| parse_weights(&t)).unwrap_or(Weights::TUNED);
    let candidates: Vec<Weights> = match std::env::var("CANDIDATES") {
        Ok(text) => text.split(';').map(parse_weights).collect(),
        Err(_) => (0..NUDGES + SHRINE_CAPS.len()).map(|k| neighbour(w, k, step, &SHRINE_CAPS)).filter(|c| *c != w).collect(),
    };
    let players = var("PLAYERS", "1");
    assert!(players == "1" || players == "2", "PLAYERS is 1 or 2; got {players:?}");
    if players == "2" {
        assert!(iterations > 0 && std::env::var("PLAN").is_err(), "PLAYERS=2 judges by the search: ITERATIONS > 0, no PLAN (MODE=rivals plays the policy alone)");
        // Each candidate's search against the incumbent's, on the same deals.
        println!("incumbent {w} ({games} 2-player games from {first}, {iterations} iterations)");
        for c in candidates {
            let t = std::time::Instant::now();
            let share = rival_search_share(&c, &w, first, games, iterations, threads);
            println!("candidate {c} share {share:.3} ({:.0} s)", t.elapsed().as_secs_f64());
        }
        return;
    }
    let t0 = std::time::Instant::now();
    let base = solo_scores(&w, first, games, iterations, threads);
    let mean = |v: &[u32]| v.iter().map(|&x| x as f64).sum::<f64>() / v.len() as f64;
    let judge = std::env::var("PLAN").map_or_else(|_| format!("{iterations} iterations"), |p| format!("planner {p}"));
    println!("incumbent {} mean {:.3} ({games} deals from {first}, {judge}, {:.0} s)", w, mean(&base), t0.elapsed().as_secs_f64());
    println!("scores {}", base.iter().map(|x| x.to_string()).collect::<Vec<_>>().join(","));
    for c in candidates {
        let t = std::time::Instant::now();
        let s = solo_scores(&c, first, games, iterations, threads);
        let d: Vec<f64> = s.iter().zip(&base).map(|(&a, &b)| a as f64 - b as f64).collect();
        let n = d.len() as f64;
        let md = d.iter().sum::<f64>() / n;
        let se = (d.iter().map(|x| (x - md).powi(2)).sum::<f64>() / (n - 1.0) / n).sqrt();
        let better = d.iter().filter(|&&x| x > 0.0).count();
        let worse = d.iter().filter(|&&x| x < 0.0).count();
        println!("scores {}", s.iter().map(|x| x.to_string()).collect::<Vec<_>>().join(","));
        println!(
            "candidate {} mean {:.3} diff {:+.3} se {:.3} better {better} worse {worse} ({:.0} s)",
            c,
            mean(&s),
            md,
            se,
            t.elapsed().as_secs_f64()
        );
    }
}

/// The share of 2-player games the policy `c` wins against the policy `w`,
/// both without a search, on deals `first..first + deals`, each dealt twice with
/// the seats swapped; ties split.
fn rival_share(c: &Weights, w: &Weights, first: u64, deals: u64) -> f64 {
    let mut won = 0.0;
    for seed in first..first + deals {
        for seat in 0..2 {
            let mut s = _core::Setup::new(2, seed).state().expect("a 2-player deal");
            let mut rng = SplitMix64::new(seed ^ 0xABCD);
            loop {
                let mover = s.current_player();
                let Some(a) = choose(&s, &mut rng, if mover == seat { c } else { w }) else { break };
                s.apply_unchecked(a);
            }
            won += s.returns()[seat];
        }
    }
    won / (2 * deals) as f64
}

/// The share of 2-player games (deals `first..first + games`, seats rotated,
/// `games` even so each search sits in each seat as often) that the default
/// search with rollout weights `c` wins against the same search with `w`,
/// `iterations` per decision each, `threads` games at a time; ties split.
fn rival_search_share(c: &Weights, w: &Weights, first: u64, games: u64, iterations: u64, threads: usize) -> f64 {
    assert!(games % 2 == 0, "PLAYERS=2 needs an even GAMES (each search in each seat alike); got {games}");
    let (done, stop) = (Default::default(), Default::default());
    let agents = [search_agent(c, iterations), search_agent(w, iterations)];
    let played = _core::arena::run(&agents, games as usize, &_core::Setup::new(2, first), threads, &done, &stop, 0).unwrap_or_else(|e| panic!("{e}"));
    played.iter().map(|g| g.share_of(0)).sum::<f64>() / played.len() as f64
}

/// MODE=rivals: coordinate search on 2-player games of the policy alone (both
/// seats without a search), from the tuned weights or WEIGHTS, each neighbour
/// against the incumbent on DEALS fresh deals dealt twice with the seats
/// swapped; one that wins more than MARGIN above half replaces it. Deals from
/// SEED come in blocks of DEALS: the first four for the final check against
/// the tuned weights, then one block per comparison (the first is block 5).
fn rivals() {
    const CHECK_BLOCKS: u64 = 4;
    let var = |k: &str, d: &str| std::env::var(k).unwrap_or_else(|_| d.to_string());
    let deals: u64 = var("DEALS", "5000").parse().expect("DEALS");
    let first: u64 = var("SEED", "700000").parse().expect("SEED");
    let margin: f64 = var("MARGIN", "0.01").parse().expect("MARGIN");
    let start = std::env::var("WEIGHTS").map(|t| parse_weights(&t)).unwrap_or(Weights::TUNED);
    let mut block = CHECK_BLOCKS;
    let w = climb(start, &[0.5, 0.25, 0.1], &SHRINE_CAPS, |w, c, step| {
        block += 1;
        let share = rival_share(c, w, first + block * deals, deals);
        println!("step {step} candidate {c} share {share:.4}");
        let keep = share > 0.5 + margin;
        if keep {
            println!("kept {c}");
        }
        keep
    });
    let check = rival_share(&w, &Weights::TUNED, first, deals * CHECK_BLOCKS);
    println!("final {w} against the tuned weights on deals from {first}: {check:.4}");
}

fn main() {
    if std::env::var("MODE").as_deref() == Ok("sweep") {
        return sweep();
    }
    if std::env::var("MODE").as_deref() == Ok("rivals") {
        return rivals();
    }
    let games: u64 = std::env::var("GAMES").ok().and_then(|v| v.parse().ok()).unwrap_or(400);
    let mut w = if std::env::var("FROM").as_deref() == Ok("tuned") { Weights::TUNED } else { Weights::GREEDY };
    // WEIGHTS="g1,g2,g3,pool,cap,match,new,height,free,summon,discard": judge these only.
    if let Ok(text) = std::env::var("WEIGHTS") {
        w = parse_weights(&text);
        println!("{:.3} {w:?}", mean_score(&w, games));
        return;
    }
    let mut best = mean_score(&w, games);
    println!("start: {best:.3}");
    let mcts = std::env::var("MODE").as_deref() == Ok("mcts");
    // MCTS scores are noisier: bigger steps, and an improvement must be clear.
    let steps: &[f64] = if mcts { &[0.5, 0.25] } else { &[1.0, 0.5, 0.25, 0.1] };
    let margin = if mcts { 0.4 } else { 0.05 };
    w = climb(w, steps, &SOLO_CLIMB_CAPS, |_, c, _| {
        let m = mean_score(c, games);
        let keep = m > best + margin;
        if keep {
            best = m;
            println!("{best:.3} {c:?}");
        }
        keep
    });
    println!("final {best:.3} {w:?}");
    println!("check on other seeds: {:.3} (greedy {:.3})", mean_score(&w, games * 2), mean_score(&Weights::GREEDY, games * 2));
}
