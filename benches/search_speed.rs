//! MCTS iterations per second in Rust alone (no Python): `cargo bench --bench search_speed`.
//! The side-by-side figures with Python tiers are in `benches/search.py`.

use std::time::Instant;

use _core::Layout;
use _core::eval::{Rollout, RolloutEval};
use _core::search::{search, Config};
use _core::{seeded_deal, Rules, State};

fn main() {
    for players in [1usize, 2] {
        let s = State::new(players, &Layout::for_players(players), &seeded_deal(1), Rules::default()).unwrap();
        for (name, rollout) in [("random", Rollout::Random), ("greedy", Rollout::GREEDY), ("tuned", Rollout::TUNED)] {
            for threads in [1usize, 2] {
                let cfg = Config { iterations: Some(20_000), threads, ..Config::default() };
                let eval = RolloutEval { rollout, ..RolloutEval::default() };
                let t = Instant::now();
                let r = search(&s, &cfg, &eval).expect("a rollout never fails");
                let secs = t.elapsed().as_secs_f64();
                println!("{players}p opening, {name:6} rollouts, {threads} thread(s): {:>8.0} iterations/s", r.iterations as f64 / secs);
            }
        }
    }
}
