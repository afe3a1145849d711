//! The workload whose instructions `benches/instructions.py` counts under
//! callgrind: `GAMES` seeded random games exactly as `dc.playouts(policy="random")`
//! plays them (set-up and deal included), one thread.
//!
//! `cargo bench --bench instructions -- PLAYERS GAMES [CARDS [SPIRIT]]` prints the
//! decisions taken, so the script can divide; run it with `GAMES=0` to measure
//! what the process costs without a game.

use std::sync::atomic::AtomicBool;

use _core::agents::spec::Agent;
use _core::batch::play_one;
use _core::cards::Cards;
use _core::Setup;

/// `search SEED STEPS CARDS ITERATIONS`: one search of the default `mcts`
/// agent (one thread, seed 1) on deal `SEED` for 2 players after `STEPS`
/// seeded random decisions, with `CARDS` Spirits and Dragons; 0 iterations
/// builds the position only, so the script can subtract.
fn search(args: &[String]) {
    use _core::agents::random_action;
    use _core::rng::SplitMix64;
    let arg = |i: usize| args.get(i).and_then(|v| v.parse::<u64>().ok()).unwrap_or(0);
    let (seed, steps, cards, iterations) = (arg(0), arg(1), arg(2) as usize, arg(3));
    let cards = if cards == 0 { Cards::None } else { Cards::Draw(cards) };
    let Ok(mut s) = Setup::new(2, seed).with_cards(cards.clone(), cards).state() else { return };
    let (mut rng, mut buf) = (SplitMix64::new(seed), _core::ActionList::default());
    for _ in 0..steps {
        let Some(a) = random_action(&s, &mut rng, &mut buf) else { break };
        s.apply_unchecked(a);
    }
    s.legal_actions_into(&mut buf);
    println!("legal {}", buf.len());
    if iterations == 0 || buf.len() < 2 {
        return;
    }
    let Ok(Agent::Mcts { mut config, eval, .. }) = Agent::parse(&format!("mcts:iterations={iterations}")) else { return };
    config.seed = 1;
    if let Ok(r) = _core::search::search(&s, &config, &eval) {
        println!("iterations {} best {:?}", r.iterations, r.best);
    }
}

/// `plan SEED PLAYOUTS`: the solo planner's work from the opening of deal
/// `SEED`: nested searches of the `plan` spec's shape (level 2, 30
/// iterations, one thread) on determinizations, one after another, until
/// `PLAYOUTS` playouts; prints the playouts, the moves they played and the
/// seconds. 0 playouts builds the position only, so the script can subtract.
fn plan(args: &[String]) {
    use _core::plan::{Budget, Planner, PlanGame};
    use _core::rng::SplitMix64;
    let arg = |i: usize| args.get(i).and_then(|v| v.parse::<u64>().ok()).unwrap_or(0);
    let (seed, playouts) = (arg(0), arg(1));
    let Ok(mut root) = Setup::new(1, seed).state() else { return };
    root.never_activate(); // the planner plans without Spirits (`eval/plan.rs`)
    let mut planner: Planner<_core::State> = Planner::new(_core::agents::spec::PLAN_DEFAULT.nested);
    let (mut rng, started) = (SplitMix64::new(seed), std::time::Instant::now());
    let budget = Budget { count: Some(playouts), ..Budget::default() };
    while planner.playouts < playouts {
        let det = <_core::State as PlanGame>::determinize(&root, &mut rng);
        planner.search(&det, &mut rng, &budget, None);
    }
    println!("playouts {} moves {} seconds {:.6}", planner.playouts, planner.played, started.elapsed().as_secs_f64());
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).filter(|a| !a.starts_with("--")).collect();
    if args.first().map(String::as_str) == Some("search") {
        return search(&args[1..]);
    }
    if args.first().map(String::as_str) == Some("plan") {
        return plan(&args[1..]);
    }
    let arg = |i: usize, default: u64| args.get(i).and_then(|v| v.parse().ok()).unwrap_or(default);
    let (players, games, cards) = (arg(0, 2) as usize, arg(1, 1000), arg(2, 0) as usize);
    let cards = if cards == 0 { Cards::None } else { Cards::Draw(cards) };
    // A fourth argument names one Spirit by index, played with the first Dragon.
    let (spirits, dragons) = match args.get(3).and_then(|v| v.parse::<u8>().ok()) {
        Some(k) => (Cards::Named(vec![k]), Cards::Named(vec![0])),
        None => (cards.clone(), cards),
    };
    let stop = AtomicBool::new(false);
    let mut setup = Setup::new(players, 0).with_cards(spirits, dragons);
    setup.layout = Some(setup.layout());
    let (mut decisions, mut digest) = (0u64, 0u64);
    for seed in 0..games {
        setup.seed = seed;
        let o = play_one(&setup, &Agent::Random, &stop).unwrap_or_else(|e| panic!("{e}"));
        decisions += o.decisions as u64;
        // A digest of every outcome: the same seeds must give the same games
        // whatever the core's data structures.
        for v in o.scores.iter().map(|&s| s as u64).chain([o.winners as u64, o.decisions as u64]) {
            digest = (digest ^ v).wrapping_mul(0x100_0000_01B3);
        }
    }
    println!("decisions {decisions} digest {digest:016x}");
}
