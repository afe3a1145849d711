//! Random-playout throughput of the Rust core, one thread (`cargo bench`).
//! Prints games/s and decisions/s for 2, 3 and 4 players. Plain timing on
//! purpose: a criterion suite comes with the benchmarks issue.

use std::time::Instant;

use _core::agents::random_playout;
use _core::rng::SplitMix64;
use _core::{Game, Rules};

fn main() {
    let secs: f64 = std::env::var("DC_BENCH_SECONDS").ok().and_then(|v| v.parse().ok()).unwrap_or(2.0);
    for players in 2..=4 {
        // Set-up (the seeded deal) is part of a game, as it is for users.
        let start = Instant::now();
        let (mut games, mut steps) = (0u64, 0u64);
        while start.elapsed().as_secs_f64() < secs {
            for _ in 0..100 {
                let g = Game::new(players, games, None, Rules::default(), None).unwrap();
                let mut s = *g.state();
                let mut rng = SplitMix64::new(games);
                steps += random_playout(&mut s, &mut rng) as u64;
                games += 1;
            }
        }
        let t = start.elapsed().as_secs_f64();
        println!(
            "random playout, {players} players: {:>9.0} games/s  {:>11.0} decisions/s  ({:.1} decisions/game)",
            games as f64 / t,
            steps as f64 / t,
            steps as f64 / games as f64
        );
    }
}
