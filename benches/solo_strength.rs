//! Solo games of one agent spec over a range of deals, one game per line
//! appended to a JSON-lines file, resumable: deals already in the file are
//! skipped. Used for the planner's measurements (`docs/experiments/`):
//!
//! ```sh
//! cargo bench --bench solo_strength -- plan:time=1 20000 20100 results.jsonl [cards]
//! ```
//!
//! One game at a time on one thread (time per decision by the clock, one
//! core per game); run one process per core for two agents side by side.
//! With `cards`, each game is the standard solo game: one Spirit and one
//! Dragon drawn from its seed, the −15 variant applied (R-SOLO-1).

use std::io::{BufRead, Write};
use std::sync::atomic::AtomicBool;

use _core::arena::{play_game, Agent};
use _core::cards::Cards;
use _core::Setup;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).filter(|a| a != "--bench").collect();
    let [spec, from, to, out, rest @ ..] = args.as_slice() else {
        eprintln!("usage: solo_strength SPEC FIRST_SEED END_SEED OUT.jsonl [cards]");
        std::process::exit(2);
    };
    let cards = rest.first().is_some_and(|a| a == "cards");
    let agent = Agent::parse(spec).unwrap_or_else(|e| panic!("{e}"));
    let (from, to): (u64, u64) = (from.parse().unwrap(), to.parse().unwrap());
    let done: std::collections::HashSet<u64> = std::fs::File::open(out)
        .map(|f| {
            std::io::BufReader::new(f)
                .lines()
                .map_while(Result::ok)
                .filter_map(|l| serde_json::from_str::<serde_json::Value>(&l).ok())
                .filter(|v| v["spec"] == spec.as_str() && v["cards"] == cards)
                .filter_map(|v| v["seed"].as_u64())
                .collect()
        })
        .unwrap_or_default();
    let stop = AtomicBool::new(false);
    for seed in (from..to).filter(|s| !done.contains(s)) {
        let mut setup = Setup::new(1, seed);
        if cards {
            setup = setup.with_cards(Cards::Draw(1), Cards::Draw(1));
        }
        let g = play_game(std::slice::from_ref(&agent), &setup, &stop).unwrap_or_else(|e| panic!("{spec}: {}", e.0));
        let line = serde_json::json!({
            "spec": spec, "seed": seed, "cards": cards, "score": g.scores[0],
            "decisions": g.decisions[0], "seconds": g.seconds[0],
        });
        let mut f = std::fs::OpenOptions::new().create(true).append(true).open(out).expect("cannot open the output");
        writeln!(f, "{line}").expect("cannot write the output");
        eprintln!("{spec} seed {seed}: {} ({:.1} s)", g.scores[0], g.seconds[0]);
    }
}
