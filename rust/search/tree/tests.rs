use super::super::toy::{Nim, RandomRollout};
use super::super::{search_until, Config};

#[test]
fn discount_scales_every_count_and_keeps_every_mean() {
    let cfg = Config { iterations: Some(5000), widening: None, exploration: 0.7, ..Config::default() };
    let (_, tree) = search_until(&Nim { stones: 11, to_move: 0 }, &cfg, &RandomRollout, None, None).unwrap();
    let before = tree.unwrap();
    let mut after = before.clone();
    after.discount(0.3);
    assert_eq!(before.nodes.len(), after.nodes.len());
    for (a, b) in before.nodes.iter().zip(&after.nodes) {
        let visits = if a.visits == 0 { 0 } else { ((a.visits as f64 * 0.3).round() as u32).max(1) };
        assert_eq!(b.visits, visits);
        assert_eq!(b.available, ((a.available as f64 * 0.3).round() as u32).max(visits));
        assert!(b.available >= b.visits);
        for (x, y) in a.value.iter().zip(&b.value) {
            if a.visits > 0 {
                assert!((x / a.visits as f64 - y / b.visits as f64).abs() < 1e-12);
            } else {
                assert_eq!((*x, *y), (0.0, 0.0));
            }
        }
    }
}
