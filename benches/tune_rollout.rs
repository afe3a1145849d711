//! Tuning the heuristic rollout policy's weights on solo games: the policy
//! alone plays `GAMES` seeded solo games per candidate; coordinate search keeps
//! improvements. `cargo bench --bench tune_rollout` (a few minutes).

use _core::Layout;
use _core::rng::SplitMix64;
use _core::agents::heuristic::{choose, Weights};
use _core::{seeded_deal, Rules, State};

/// With MODE=mcts a candidate is judged by the solo games of MCTS using it for
/// its rollouts (ITERATIONS per decision, tree reuse, c = 0.05, widening 1):
/// slower, but it measures what the weights are for.
fn mean_score(w: &Weights, games: u64, players: usize) -> f64 {
    if std::env::var("MODE").as_deref() == Ok("mcts") {
        return mcts_score(w, games);
    }
    let layout = Layout::for_players(players);
    let mut total = 0u64;
    for seed in 0..games {
        let mut s = State::new(players, &layout, &seeded_deal(seed), Rules::default()).unwrap();
        let mut rng = SplitMix64::new(seed ^ 0xABCD);
        while let Some(a) = choose(&s, &mut rng, w) {
            s.apply_unchecked(a);
        }
        total += s.score(0) as u64;
    }
    total as f64 / games as f64
}

fn mcts_score(w: &Weights, games: u64) -> f64 {
    use _core::arena::{play_game, AgentSpec};
    use _core::eval::{LeafEval, Rollout, RolloutEval};
    use _core::search::Config;
    let iterations: u64 = std::env::var("ITERATIONS").ok().and_then(|v| v.parse().ok()).unwrap_or(300);
    let config = Config {
        iterations: Some(iterations),
        exploration: 0.05,
        widening: Some(1.0),
        ..Config::default()
    };
    let eval = LeafEval::Rollout(RolloutEval { rollout: Rollout::Policy { epsilon: 0.0, weights: *w }, ..RolloutEval::default() });
    let agents = [AgentSpec::Mcts { config, eval, reuse: true, exploration: None }];
    let stop = std::sync::atomic::AtomicBool::new(false);
    let total: u64 = (0..games).map(|seed| play_game(&agents, &_core::Setup::new(1, 10_000 + seed), &stop).scores[0] as u64).sum();
    total as f64 / games as f64
}

fn main() {
    let games: u64 = std::env::var("GAMES").ok().and_then(|v| v.parse().ok()).unwrap_or(400);
    let mut w = if std::env::var("FROM").as_deref() == Ok("tuned") { Weights::TUNED } else { Weights::GREEDY };
    // WEIGHTS="g1,g2,g3,pool,cap,match,new,height,free,summon,discard": judge these only.
    if let Ok(text) = std::env::var("WEIGHTS") {
        let v: Vec<f64> = text.split(',').map(|x| x.trim().parse().expect("a number")).collect();
        w = Weights {
            group: [v[0], v[1], v[2]],
            pool: v[3],
            pool_cap: v[4] as u8,
            held_match: v[5],
            held_new: v[6],
            height: v[7],
            free: v[8],
            summon: v[9],
            discard: v[10],
        };
        println!("{:.3} {w:?}", mean_score(&w, games, 1));
        return;
    }
    let mut best = mean_score(&w, games, 1);
    println!("start: {best:.3}");
    let mcts = std::env::var("MODE").as_deref() == Ok("mcts");
    // MCTS scores are noisier: bigger steps, and an improvement must be clear.
    let steps: &[f64] = if mcts { &[0.5, 0.25] } else { &[1.0, 0.5, 0.25, 0.1] };
    let margin = if mcts { 0.4 } else { 0.05 };
    for &step in steps {
        let mut improved = true;
        while improved {
            improved = false;
            // The neighbours of the current weights, one at a time (each built
            // from the weights as they are after the gains before it): every
            // weight up and down by `step`, then every Shrine cap.
            for k in 0..24 {
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
                    9 => c.discard += d,
                    _ => c.pool_cap = (k - 19) as u8, // k = 20..23: caps 1..4
                }
                let m = mean_score(&c, games, 1);
                if m > best + margin {
                    best = m;
                    w = c;
                    improved = true;
                    println!("{best:.3} {w:?}");
                }
            }
        }
    }
    println!("final {best:.3} {w:?}");
    println!("check on other seeds: {:.3} (greedy {:.3})", mean_score(&w, games * 2, 1), mean_score(&Weights::GREEDY, games * 2, 1));
}
