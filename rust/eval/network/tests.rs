use std::sync::Arc;

use super::*;
use crate::action::ActionList;
use crate::eval::rollout::RolloutEval;
use crate::rng::SplitMix64;
use crate::search::Evaluator;
use crate::state::observe::COMPACT_OBSERVATION_SIZE;

/// A network with small pseudo-random weights.
pub(crate) fn random_network(seed: u64, hidden: usize, hidden2: usize) -> Network {
    let header = Header::new(hidden, hidden2, serde_json::json!({"command": "test", "seed": seed}));
    let mut rng = SplitMix64::new(seed);
    let arrays = Network::shapes(&header).iter().map(|(r, c)| (0..r * c).map(|_| (rng.unit() as f32 - 0.5) * 0.2).collect()).collect();
    Network::from_arrays(header, arrays).unwrap()
}

#[test]
fn weights_round_trip_and_bad_files_are_refused() {
    let net = random_network(1, 16, 8);
    let bytes = net.to_bytes();
    assert_eq!(Network::from_bytes(&bytes).unwrap(), net);
    assert!(Network::from_bytes(b"hello\n{}\n").unwrap_err().contains("not a dragoncastle weights file"));
    assert!(Network::from_bytes(&bytes[..bytes.len() - 4]).unwrap_err().contains("bytes of weights"));
    let mut h = net.header.clone();
    h.observation_version = 2;
    let other = Network { header: h, ..net.clone() }.to_bytes();
    assert!(Network::from_bytes(&other).unwrap_err().contains("observation version 2"));
    let mut h = net.header.clone();
    h.feature_fingerprint = "0".into();
    assert!(Network::from_bytes(&Network { header: h, ..net.clone() }.to_bytes()).unwrap_err().contains("other input features"));
}

/// A fresh directory for a test's files.
fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("dc-network-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn only_regular_files_of_a_bounded_size_are_read() {
    let dir = scratch("files");
    let net = random_network(3, 8, 4);
    let good = dir.join("good.dcnet");
    std::fs::write(&good, net.to_bytes()).unwrap();
    let loaded = Network::load(good.to_str().unwrap()).unwrap();
    assert_eq!((loaded.source.as_str(), loaded.arrays()), (good.to_str().unwrap(), net.arrays()));
    let refused = |path: &std::path::Path| Network::load(path.to_str().unwrap()).unwrap_err();
    assert!(refused(std::path::Path::new("/dev/zero")).contains("not a regular file (it is a device)"));
    assert!(refused(&dir).contains("a directory"));
    // Bigger than any weights file: refused by its size, unread.
    let huge = dir.join("huge.dcnet");
    std::fs::File::create(&huge).unwrap().set_len(1 << 30).unwrap();
    let e = refused(&huge);
    assert!(e.contains("1073741824 bytes") && e.contains("at most"), "{e}");
    // A header that promises more than the file holds, or less.
    let bytes = net.to_bytes();
    std::fs::write(&huge, &bytes[..bytes.len() - 8]).unwrap();
    assert!(refused(&huge).contains("bytes of weights"));
    std::fs::write(&huge, [&bytes[..], &[0; 4]].concat()).unwrap();
    assert!(refused(&huge).contains("bytes of weights"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_header_line_is_read_with_a_bound() {
    let long = [format!("{MAGIC}\n").into_bytes(), vec![b' '; MAX_HEADER_BYTES + 10]].concat();
    assert!(Network::from_bytes(&long).unwrap_err().contains("longer than"));
    assert!(Network::from_bytes(format!("{MAGIC}\n").as_bytes()).unwrap_err().contains("ends before its header"));
    assert!(Network::from_bytes(&[0; 100]).unwrap_err().contains("not a dragoncastle weights file"));
    assert!(Network::max_file_bytes() < 64 << 20);
    assert_eq!(builtin().unwrap().source, "builtin");
}

#[test]
fn the_search_runs_on_the_network() {
    let net = Arc::new(random_network(2, 32, 16));
    let eval = NetworkEval { net, rollout: RolloutEval::default(), rollout_weight: 0.0, priors: true, cutoff: None };
    for players in 1..=4 {
        let s = crate::setup::Setup::new(players, 3).state().unwrap();
        let cfg = crate::search::Config { iterations: Some(300), exploration: 1.0, ..Default::default() };
        let r = crate::search::search(&s, &cfg, &eval).unwrap();
        assert_eq!(r.iterations, 300);
        assert!(s.is_legal(r.best.unwrap()));
    }
}

#[test]
fn a_learned_cutoff_values_the_position_the_rollout_reached() {
    let mut n = random_network(5, 16, 8);
    // Solo values inside (0, 1), where they are not clipped.
    n.bv[0] = 0.4;
    n.wv.iter_mut().for_each(|w| *w *= 0.01);
    let net = Arc::new(n);
    let s = crate::setup::Setup::new(1, 8).state().unwrap();
    let value = |e: &NetworkEval, seed: u64| {
        let mut leaves = [s];
        let mut v = [[0.0; MAX_SEATS]];
        e.evaluate(&mut leaves, &mut SplitMix64::new(seed), &mut v, &mut []).unwrap();
        (v[0][0], leaves[0])
    };
    let plain = NetworkEval { net: net.clone(), rollout: RolloutEval::default(), rollout_weight: 0.0, priors: false, cutoff: None };
    // A cut-off of 0 decisions is the network at the leaf.
    let zero = NetworkEval { cutoff: Some(0), ..plain.clone() };
    assert_eq!(value(&zero, 1).0, value(&plain, 1).0);
    // After d decisions: the network's value of the position the rollout policy reached.
    let four = NetworkEval { cutoff: Some(4), ..plain.clone() };
    let (v4, reached) = value(&four, 3);
    let mut rolled = s;
    RolloutEval { depth: Some(4), ..RolloutEval::default() }.roll(&mut rolled, &mut SplitMix64::new(3), &mut [0.0; MAX_SEATS]);
    assert_eq!(reached, rolled, "the same rollout, the same draws");
    assert_ne!(reached, s);
    let mut obs = [0u8; COMPACT_OBSERVATION_SIZE];
    rolled.compact_observation(0, &mut obs);
    let mut raw = [0f32; MAX_SEATS];
    net.forward(&obs, &ActionList::default(), &mut raw, &mut []);
    let mut want = [0.0; MAX_SEATS];
    Network::seat_values(&raw, 1, 0, &mut want);
    assert_eq!(v4, want[0]);
    assert_ne!(v4, value(&plain, 3).0);
    // A cut-off past the end is the game's own result, as the rollout's.
    let end = NetworkEval { cutoff: Some(10_000), ..plain.clone() };
    let (v_end, over) = value(&end, 7);
    assert!(over.is_over());
    let mut r = [0.0; MAX_SEATS];
    RolloutEval::default().roll(&mut s.clone(), &mut SplitMix64::new(7), &mut r);
    assert_eq!(v_end, r[0]);
    // Mixed: the rollout goes on from the cut to the end.
    let mixed = NetworkEval { rollout_weight: 0.5, ..four.clone() };
    let (vm, end_state) = value(&mixed, 3);
    assert!(end_state.is_over());
    assert!((vm - (0.5 * v4 + 0.5 * end_state.returns()[0])).abs() < 1e-9);
}

/// Finite weights whose outputs overflow to infinity (and NaN after the softmax).
fn overflowing_network() -> Arc<Network> {
    let header = Header::new(8, 4, serde_json::json!({"command": "test"}));
    let arrays = Network::shapes(&header).iter().map(|(r, c)| vec![1e30; r * c]).collect();
    Arc::new(Network { source: "huge.dcnet".into(), ..Network::from_arrays(header, arrays).unwrap() })
}

#[test]
fn a_network_that_overflows_stops_every_runner() {
    let net = overflowing_network();
    let cfg = crate::search::Config { iterations: Some(50), exploration: 1.0, ..Default::default() };
    for (priors, cutoff) in [(true, None), (false, None), (false, Some(2))] {
        let eval = NetworkEval { net: net.clone(), rollout: RolloutEval::default(), rollout_weight: 0.0, priors, cutoff };
        for players in [1, 2] {
            let s = crate::setup::Setup::new(players, 3).state().unwrap();
            let e = crate::search::search(&s, &cfg, &eval).unwrap_err();
            assert!(e.0.contains("\"huge.dcnet\"") && e.0.contains("inf"), "{}", e.0);
        }
    }
    let spec = crate::arena::Agent::Mcts {
        config: cfg,
        eval: crate::eval::LeafEval::Network(NetworkEval::new(net, RolloutEval::default(), None, None, None)),
        reuse: true,
        exploration: None,
    };
    let (stop, done) = (std::sync::atomic::AtomicBool::new(false), std::sync::atomic::AtomicUsize::new(0));
    let setup = crate::setup::Setup::new(2, 1);
    let arena = crate::arena::run(&[spec.clone(), crate::arena::Agent::Greedy], 3, &setup, 2, &done, &stop, 0);
    assert!(matches!(arena, Err(crate::error::Error::Eval(ref m)) if m.contains("huge.dcnet")), "{arena:?}");
    let mut out = vec![Default::default(); 3];
    let batch = crate::batch::playouts(&setup, &spec, 2, &mut out, &stop);
    assert!(matches!(batch, Err(crate::error::Error::Eval(_))), "{batch:?}");
    let selfplay = crate::selfplay::run(&setup, 2, &spec, 1, &done, &stop, None);
    assert!(matches!(selfplay, Err(crate::error::Error::Eval(_))));
}

#[test]
fn seat_values_are_absolute() {
    let mut out = [0.0; MAX_SEATS];
    Network::seat_values(&[2.0, 0.0, 0.0, 9.0], 3, 2, &mut out);
    assert!(out[2] > out[0] && (out[0] - out[1]).abs() < 1e-12 && out[3] == 0.0);
    assert!((out.iter().sum::<f64>() - 1.0).abs() < 1e-9);
    Network::seat_values(&[0.47, 5.0, 0.0, 0.0], 1, 0, &mut out);
    assert!((out[0] - 0.47).abs() < 1e-6);
}
