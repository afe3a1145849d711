//! Criterion benchmarks of the Rust core alone (`cargo bench --bench core`).

use std::hint::black_box;

use _core::ActionList;
use _core::agents::{random_action, random_playout};
use _core::rng::SplitMix64;
use _core::{Game, Rules, State};
use criterion::{criterion_group, criterion_main, Criterion};

/// The state after `steps` random decisions of seeded game `seed`.
fn position(players: usize, seed: u64, steps: usize) -> State {
    let g = Game::new(players, seed, None, Rules::default(), None).expect("standard setup");
    let mut s = *g.state();
    let mut rng = SplitMix64::new(seed);
    let mut buf = ActionList::default();
    for _ in 0..steps {
        match random_action(&s, &mut rng, &mut buf) {
            Some(a) => s.apply_unchecked(a),
            None => break,
        }
    }
    s
}

fn legal(c: &mut Criterion) {
    let mut g = c.benchmark_group("legal actions");
    for (name, steps) in [("opening", 0), ("mid", 60), ("late", 110)] {
        let s = position(2, 2, steps);
        let mut buf = ActionList::default();
        g.bench_function(name, |b| b.iter(|| black_box(&s).legal_actions_into(&mut buf)));
    }
    g.finish();
}

fn apply(c: &mut Criterion) {
    let s = position(3, 3, 61);
    let a = s.legal_actions()[0];
    c.bench_function("copy + apply_unchecked", |b| {
        b.iter(|| {
            let mut t = *black_box(&s);
            t.apply_unchecked(a);
            t
        })
    });
    c.bench_function("availability of every castle space", |b| {
        b.iter(|| black_box(&s).castle().spaces().filter(|&sp| s.castle().is_available(sp)).count())
    });
}

fn scoring(c: &mut Criterion) {
    let s = position(4, 4, 10_000);
    c.bench_function("final scores and winners, 4 players", |b| {
        b.iter(|| (0..4).map(|p| black_box(&s).score(p)).sum::<i32>() + i32::from(s.winners_mask()))
    });
}

fn playouts(c: &mut Criterion) {
    let mut g = c.benchmark_group("random game");
    for players in [1usize, 2, 3, 4] {
        let start = *Game::new(players, 9, None, Rules::default(), None).expect("standard setup").state();
        let mut seed = 0u64;
        g.bench_function(format!("{players} players"), |b| {
            b.iter(|| {
                seed += 1;
                let mut s = start.determinize(seed);
                random_playout(&mut s, &mut SplitMix64::new(seed))
            })
        });
    }
    g.finish();
}

criterion_group!(benches, legal, apply, scoring, playouts);
criterion_main!(benches);
