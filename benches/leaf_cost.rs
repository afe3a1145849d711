//! The cost of valuing one leaf, side by side in one run: the tuned rollout
//! and the network (`docs/training.md`). `cargo bench --bench leaf_cost [-- WEIGHTS]`
//! (without a weights file, a network of the default sizes with random weights:
//! its cost does not depend on the values of its weights).

use std::time::Instant;

use _core::eval::network::{Header, Network, NetworkEval};
use _core::eval::RolloutEval;
use _core::rng::SplitMix64;
use _core::search::{Evaluator, MAX_SEATS};
use _core::Setup;
use _core::State;
use _core::NUM_ACTIONS;

fn positions(players: usize, n: usize) -> Vec<State> {
    let mut out = Vec::new();
    let mut rng = SplitMix64::new(9);
    let mut buf = _core::ActionList::default();
    let mut seed = 0;
    while out.len() < n {
        let mut s = Setup::new(players, seed).state().unwrap();
        seed += 1;
        while !s.is_over() {
            out.push(s);
            let a = _core::agents::random_action(&s, &mut rng, &mut buf).unwrap();
            s.apply_unchecked(a);
        }
    }
    out.truncate(n);
    out
}

fn per_leaf<E: Evaluator<State>>(eval: &E, leaves: &[State], repeats: usize) -> (f64, f64) {
    let mut times = Vec::new();
    let mut values = vec![[0f64; MAX_SEATS]; 1];
    let mut priors = vec![0f32; NUM_ACTIONS];
    let mut rng = SplitMix64::new(1);
    for _ in 0..repeats {
        let start = Instant::now();
        for s in leaves {
            let mut leaf = [*s];
            eval.evaluate(&mut leaf, &mut rng, &mut values, &mut priors).unwrap();
        }
        times.push(start.elapsed().as_secs_f64() * 1e6 / leaves.len() as f64);
    }
    times.sort_by(|a, b| a.total_cmp(b));
    (times[0], times[times.len() / 2])
}

fn main() {
    let path = std::env::args().skip(1).find(|a| !a.starts_with("--"));
    let net = match &path {
        Some(p) => Network::from_bytes(&std::fs::read(p).expect("read the weights")).expect("a weights file"),
        None => {
            let header = Header::new(64, 32, serde_json::Value::Null);
            let mut rng = SplitMix64::new(1);
            let arrays = Network::shapes(&header).iter().map(|(r, c)| (0..r * c).map(|_| (rng.unit() as f32 - 0.5) * 0.1).collect()).collect();
            Network::from_arrays(header, arrays).unwrap()
        }
    };
    println!("network: hidden {}, hidden2 {}, {} features", net.header.hidden, net.header.hidden2, net.header.features);
    let net = NetworkEval { net: std::sync::Arc::new(net), rollout: RolloutEval::default(), rollout_weight: 0.0, priors: true, cutoff: None };
    let rollout = RolloutEval::default();
    for players in [1usize, 2] {
        let leaves = positions(players, 4000);
        let (rb, rm) = per_leaf(&rollout, &leaves, 5);
        let (nb, nm) = per_leaf(&net, &leaves, 5);
        println!("{players} player(s), {} positions of random games: tuned rollout {rb:.2} µs best, {rm:.2} median; network {nb:.2} µs best, {nm:.2} median per leaf", leaves.len());
    }
}
