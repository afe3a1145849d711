//! The workload whose instructions `benches/instructions.py` counts under
//! callgrind: `GAMES` seeded random games exactly as `dc.playouts(policy="random")`
//! plays them (set-up and deal included), one thread.
//!
//! `cargo bench --bench instructions -- PLAYERS GAMES [CARDS [SPIRIT]]` prints the
//! decisions taken, so the script can divide; run it with `GAMES=0` to measure
//! what the process costs without a game.

use std::sync::atomic::AtomicBool;

use _core::agents::spec::AgentSpec;
use _core::batch::play_one;
use _core::cards::Cards;
use _core::Setup;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).filter(|a| !a.starts_with("--")).collect();
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
        let o = play_one(&setup, &AgentSpec::Random, &stop);
        decisions += o.decisions as u64;
        // A digest of every outcome: the same seeds must give the same games
        // whatever the core's data structures.
        for v in o.scores.iter().map(|&s| s as u64).chain([o.winners as u64, o.decisions as u64]) {
            digest = (digest ^ v).wrapping_mul(0x100_0000_01B3);
        }
    }
    println!("decisions {decisions} digest {digest:016x}");
}
