//! The spec parser's tests: settings parsed and refused, the round trip.

use super::*;

#[test]
fn specs_parse_and_reject() {
    assert_eq!(Agent::parse("greedy").unwrap(), Agent::Greedy);
    let Agent::Mcts {
        config,
        eval,
        reuse,
        ..
    } = Agent::parse("mcts:iterations=50,c=0.3,rollout=random,reuse=true").unwrap()
    else {
        panic!()
    };
    let LeafEval::Rollout(eval) = eval else {
        panic!()
    };
    assert_eq!(
        (config.iterations, config.exploration, eval.rollout, reuse),
        (Some(50), 0.3, Rollout::Random, true)
    );
    // Tree reuse with the kept statistics weighed 0.2 unless told otherwise.
    let reuse_of = |text: &str| match Agent::parse(text).unwrap() {
        Agent::Mcts { config, reuse, .. } => (reuse, config.reuse_weight),
        _ => panic!(),
    };
    assert_eq!(reuse_of("mcts"), (true, 0.2));
    assert_eq!(reuse_of("mcts:reuse=false"), (false, 0.2));
    assert_eq!(reuse_of("mcts:reuse_weight=1"), (true, 1.0));
    for bad in [
        "plan:threads=2",
        "plan:mode=mean,warm=true",
        "plan:aggregate=vote",
        "plan:keep=true",
        "plan:prune=true",
        "plan:oracle=true,mode=mean",
        "mcts:iterations=x",
        "mcts:foo=1",
        "greedy:x=1",
        "mcts:iterations",
        "mcts:iterations=0",
        "mcts:time=-1",
        "nobody",
        // Deleted, measured weaker (docs/experiments/2026-12-07-rival-epsilon.md).
        "mcts:epsilon=0.1",
        "mcts:time=1e300",
        "mcts:max_nodes=2",
        "mcts:reuse_weight=0",
        "mcts:reuse_weight=1.5",
        "mcts:model=/nonexistent",
        "mcts:rollout_weight=0.5",
        "mcts:cutoff=4",
        "mcts:cutoff=x",
        "mcts:rollout=nobody",
        "mcts:rollout=random,rollout_spirits=true",
    ] {
        assert!(Agent::parse(bad).is_err(), "{bad}");
    }
}

#[test]
fn decisions_draw_from_the_game_the_seat_and_the_decision_only() {
    let a = decision_rng(7, 1, 3).next_u64();
    assert_eq!(a, decision_rng(7, 1, 3).next_u64());
    assert_ne!(a, decision_rng(7, 2, 3).next_u64());
    assert_ne!(a, decision_rng(7, 1, 4).next_u64());
    assert_ne!(a, decision_rng(8, 1, 3).next_u64());
}

mod round_trip {
    use super::super::*;
    use proptest::prelude::*;

    fn mcts() -> impl Strategy<Value = AgentSpec> {
        let budget = (prop::option::of(1u64..1_000_000), prop::option::of(prop::sample::select(vec![0.01, 0.5, 1.0, 2.5])));
        let search = (1usize..9, prop::option::of(0.01f64..5.0), any::<bool>(), prop::sample::select(vec![0.1, 0.2, 1.0]), 1024usize..10_000_000);
        let tuning = (
            prop::option::of(0.01f64..3.0),
            any::<bool>(),
            prop::option::of((0.01f64..1.0, 0.0f64..1.0)),
            0.0f64..2.0,
            prop::sample::select(vec!["tuned", "greedy", "random"]),
            prop::option::of(1u32..200),
        );
        let net = prop::option::of((prop::option::of(0.0f64..1.0), prop::option::of(any::<bool>()), prop::option::of(1u32..9)));
        (budget, search, tuning, net, (any::<bool>(), any::<bool>())).prop_map(|((iterations, time), s, t, net, (margin, spirits))| {
            let mut m = MctsSpec::default();
            (m.config.iterations, m.config.time_limit) = (iterations, time);
            (m.config.threads, m.exploration, m.reuse, m.config.reuse_weight, m.config.max_nodes) = s;
            let (widening, determinize, noise, temperature, rollout, depth) = t;
            (m.config.widening, m.config.determinize, m.config.noise, m.config.temperature) = (widening, determinize, noise, temperature);
            m.rollout = RolloutEval { rollout: Rollout::parse(rollout).unwrap(), depth, reward: if margin { Reward::Margin } else { Reward::Win }, spirits: spirits && rollout != "random", ..m.rollout };
            if let Some((weight, priors, cutoff)) = net {
                (m.model, m.rollout_weight, m.priors, m.cutoff) = (Some("weights/a.dcnet".into()), weight, priors, cutoff);
            }
            AgentSpec::Mcts(m)
        })
    }

    fn plan() -> impl Strategy<Value = AgentSpec> {
        let budget = (prop::option::of(prop::sample::select(vec![0.1, 1.0, 3.0])), prop::option::of(1u64..10_000_000), 1usize..9);
        let shape = (1u32..4, 1u32..200, prop::sample::select(vec![0.5, 1.0]), prop::sample::select(vec![0.1, 0.25, f64::INFINITY]));
        (budget, shape, 0usize..3, prop::option::of(any::<bool>())).prop_map(|((time_limit, playouts, threads), (level, iterations, alpha, temperature), mode, warm)| {
            let mode = Mode::ALL[mode];
            let follow = mode == Mode::Follow;
            AgentSpec::Plan(pimc::Config {
                nested: Nested { level, iterations, alpha, temperature },
                playouts,
                time_limit,
                // Follow plans on one thread; warm is follow's (`Config::check`).
                threads: if follow { 1 } else { threads },
                mode,
                warm: warm.filter(|_| follow),
            })
        })
    }

    proptest! {
        /// `parse(display(s)) == s` for every agent (issue 38).
        #[test]
        fn specs_round_trip_as_text(s in prop_oneof![mcts(), plan(), Just(AgentSpec::Random), Just(AgentSpec::Greedy), Just(AgentSpec::Dragon)]) {
            let text = s.to_string();
            prop_assert_eq!(AgentSpec::parse(&text).unwrap(), s, "{}", text);
        }
    }

    #[test]
    fn parsing_opens_nothing() {
        // A model that does not exist parses (nothing is read) and fails to load.
        let s = AgentSpec::parse("mcts:iterations=5,model=/nonexistent/w.dcnet").unwrap();
        assert_eq!(s.to_string(), "mcts:iterations=5,model=/nonexistent/w.dcnet");
        assert!(s.load().unwrap_err().to_string().contains("/nonexistent/w.dcnet"));
        assert_eq!(AgentSpec::parse("mcts:time_limit=1,exploration=0.3,tau=1").unwrap().to_string(), "mcts:time=1,c=0.3,temperature=1");
        // The plan spec's defaults are the strongest planner measured; `oracle=true` spells `mode=oracle`.
        assert_eq!(AgentSpec::parse("plan:time=1,level=2,iterations=30,mode=follow").unwrap().to_string(), "plan:time=1");
        assert_eq!(AgentSpec::parse("plan:oracle=true").unwrap(), AgentSpec::parse("plan:mode=oracle").unwrap());
    }
}
