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
//! With `BIAS=g1,g2,...` (the 11 weights of `agents::heuristic::Weights` as
//! text) a `plan` spec plays with its bias under those weights instead of the
//! tuned ones, by the same decision seeds (so `BIAS` set to the tuned weights
//! plays the spec's own games); each line then records `bias`.
//! With `SPIRITS=1` a `plan` spec plans with the Spirit cards' activations
//! (its root not made [`_core::State::never_activate`]), by the same decision
//! seeds; each line then records `spirits`
//! (`docs/experiments/2026-12-05-planner-spirits.md`).
//! With `POLICY_OUT=FILE` a `plan` spec's games append the shared policy
//! after decisions 5, 15, 25, … to `FILE`; with `PRIOR=FILE` (made from those
//! by `benches/plan_prior.py`) each game starts from that policy instead of
//! zero (`docs/experiments/2026-12-05-planner-prior.md`). Neither is recorded
//! in the lines: give such runs an output file of their own.

use std::io::{BufRead, Write};
use std::sync::atomic::AtomicBool;

use _core::agents::heuristic::Weights;
use _core::agents::spec::{decision_rng, AgentSpec};
use _core::arena::{play_game, Agent};
use _core::eval::plan::WithBias;
use _core::plan::pimc::{self, Memory};
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
    let bias: Option<&'static Weights> =
        std::env::var("BIAS").ok().map(|t| &*Box::leak(Box::new(t.parse::<Weights>().unwrap_or_else(|e| panic!("BIAS: {e}")))));
    let spirits = std::env::var("SPIRITS").is_ok_and(|v| v == "1");
    let experiment = bias.is_some() || spirits || std::env::var("PRIOR").is_ok() || std::env::var("POLICY_OUT").is_ok();
    let plan = match (experiment, AgentSpec::parse(spec)) {
        (true, Ok(AgentSpec::Plan(config))) => Some(config),
        (true, _) => panic!("BIAS, SPIRITS, PRIOR and POLICY_OUT need a plan spec"),
        (false, _) => None,
    };
    let bias_text = bias.map(|w| w.to_string());
    let done = done(out, spec, cards, bias_text.as_deref(), spirits);
    let stop = AtomicBool::new(false);
    for seed in (from..to).filter(|s| !done.contains(s)) {
        let mut setup = Setup::new(1, seed);
        if cards {
            setup = setup.with_cards(Cards::Draw(1), Cards::Draw(1));
        }
        let (score, decisions, seconds) = match &plan {
            Some(config) => play_planner(&setup, config, bias.unwrap_or(&Weights::TUNED), spirits),
            None => {
                let g = play_game(std::slice::from_ref(&agent), &setup, &stop, 0).unwrap_or_else(|e| panic!("{spec}: {e}"));
                (g.scores[0], g.decisions[0], g.seconds[0])
            }
        };
        let mut line = serde_json::json!({
            "spec": spec, "seed": seed, "cards": cards, "score": score, "decisions": decisions, "seconds": seconds,
        });
        if let Some(b) = &bias_text {
            line["bias"] = b.as_str().into();
        }
        if spirits {
            line["spirits"] = true.into();
        }
        let mut f = std::fs::OpenOptions::new().create(true).append(true).open(out).expect("cannot open the output");
        writeln!(f, "{line}").expect("cannot write the output");
        eprintln!("{spec} seed {seed}: {score} ({seconds:.1} s)");
    }
}

/// Deals already in `out` for `spec`, `cards`, the bias (`None`: the spec's own) and `spirits`.
fn done(out: &str, spec: &str, cards: bool, bias: Option<&str>, spirits: bool) -> std::collections::HashSet<u64> {
    let Ok(f) = std::fs::File::open(out) else { return Default::default() };
    let bias: serde_json::Value = bias.into();
    std::io::BufReader::new(f)
        .lines()
        .map_while(Result::ok)
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(&l).ok())
        .filter(|v| v["spec"] == spec && v["cards"] == cards && v["bias"] == bias && v["spirits"].as_bool().unwrap_or(false) == spirits)
        .filter_map(|v| v["seed"].as_u64())
        .collect()
}

/// One game of the planner with its bias under `w`, by the decision seeds of
/// `arena::play_game` for seat 0, planning with the Spirits' activations if
/// `spirits` (else as the `plan` agent plays): (score, decisions, seconds).
fn play_planner(setup: &Setup, config: &pimc::Config, w: &'static Weights, spirits: bool) -> (i32, u32, f64) {
    let mut s = setup.state().expect("a solo deal");
    if !spirits {
        s.never_activate();
    }
    let mut memory = Memory::default();
    if let Ok(path) = std::env::var("PRIOR") {
        memory.policy = Some(read_prior(&path));
    }
    let out = std::env::var("POLICY_OUT").ok();
    let (started, mut decisions) = (std::time::Instant::now(), 0u32);
    while !s.is_over() {
        let mut rng = decision_rng(setup.seed, 0, decisions);
        let d = pimc::decide(&WithBias { state: s, weights: w }, config, rng.next_u64(), &mut memory, None);
        s.apply_unchecked(d.best.expect("a move while the game runs"));
        decisions += 1;
        if let (Some(out), Some(p)) = (&out, &memory.policy) {
            if decisions % 10 == 5 {
                let sparse: Vec<(usize, f32)> = p.iter().enumerate().filter(|(_, &w)| w != 0.0).map(|(c, &w)| (c, w)).collect();
                let mut f = std::fs::OpenOptions::new().create(true).append(true).open(out).unwrap();
                writeln!(f, "{}", serde_json::json!({"seed": setup.seed, "decision": decisions, "policy": sparse})).unwrap();
            }
        }
    }
    (s.score(0), decisions, started.elapsed().as_secs_f64())
}

/// A starting policy: `{"scale": s, "policy": [[code, w], ...]}`, dense, each weight times `s`.
fn read_prior(path: &str) -> Vec<f32> {
    use _core::plan::PlanGame;
    let v: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(path).expect("PRIOR")).expect("PRIOR json");
    let scale = v["scale"].as_f64().unwrap_or(1.0) as f32;
    let mut p = vec![0.0f32; <_core::State as PlanGame>::NUM_CODES];
    for e in v["policy"].as_array().expect("policy") {
        p[e[0].as_u64().unwrap() as usize] = e[1].as_f64().unwrap() as f32 * scale;
    }
    p
}
