//! Tuning the heuristic rollout policy's weights on solo games: the policy
//! alone plays `GAMES` seeded solo games per candidate; coordinate search keeps
//! improvements. `cargo bench --bench tune_rollout` (a few minutes).

use _core::layout::Layout;
use _core::rng::SplitMix64;
use _core::search::policy::{choose, Weights};
use _core::state::{seeded_deal, Rules, State};

fn mean_score(w: &Weights, games: u64, players: usize) -> f64 {
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

fn main() {
    let games: u64 = std::env::var("GAMES").ok().and_then(|v| v.parse().ok()).unwrap_or(400);
    let mut w = if std::env::var("FROM").as_deref() == Ok("tuned") { Weights::TUNED } else { Weights::GREEDY };
    let mut best = mean_score(&w, games, 1);
    println!("greedy: {best:.3}");
    let steps = [1.0, 0.5, 0.25, 0.1];
    for &step in &steps {
        let mut improved = true;
        while improved {
            improved = false;
            for k in 0..10 {
                for sign in [1.0, -1.0] {
                    let mut c = w;
                    let d = sign * step;
                    match k {
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
                    let m = mean_score(&c, games, 1);
                    if m > best + 0.05 {
                        best = m;
                        w = c;
                        improved = true;
                        println!("{best:.3} {w:?}");
                    }
                }
            }
            for cap in [1u8, 2, 3, 4] {
                let c = Weights { pool_cap: cap, ..w };
                let m = mean_score(&c, games, 1);
                if m > best + 0.05 {
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
