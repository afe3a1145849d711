//! Small puzzles with known optima for the planner's own tests, as
//! `search/toy.rs` is for the search.

use super::pimc::{self, Memory, Mode};
use super::*;
use std::sync::atomic::AtomicBool;

/// An assignment puzzle: put items `0..N` in positions `0..N`, one per move
/// (the move is the item for the next position); the score is the sum of
/// `gain[item][position]`. Its optimum is found by trying every permutation.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Assign {
    gain: [[i32; N]; N],
    used: u16,
    placed: usize,
    score: i32,
    /// With a hint, the bias of a move is its gain (a good but myopic prior).
    hint: bool,
}

const N: usize = 8;

#[derive(Clone, Default)]
struct Items(Vec<u8>);

impl std::ops::Deref for Items {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        &self.0
    }
}

impl Assign {
    fn new(seed: u64, hint: bool) -> Self {
        let mut rng = SplitMix64::new(seed);
        let mut gain = [[0; N]; N];
        for row in &mut gain {
            for g in row.iter_mut() {
                *g = rng.below(100) as i32;
            }
        }
        Assign { gain, used: 0, placed: 0, score: 0, hint }
    }

    fn optimum(&self) -> i32 {
        fn go(a: &Assign, used: u16, pos: usize) -> i32 {
            if pos == N {
                return 0;
            }
            (0..N).filter(|i| used & (1 << i) == 0).map(|i| a.gain[i][pos] + go(a, used | 1 << i, pos + 1)).max().unwrap()
        }
        go(self, 0, 0)
    }
}

impl PlanGame for Assign {
    type Move = u8;
    type Moves = Items;
    const NUM_CODES: usize = N * N;

    fn is_over(&self) -> bool {
        self.placed == N
    }
    fn legal_moves(&self, out: &mut Items) {
        out.0.clear();
        if self.placed < N {
            out.0.extend((0..N as u8).filter(|&i| self.used & (1 << i) == 0));
        }
    }
    fn play(&mut self, m: u8) {
        self.score += self.gain[m as usize][self.placed];
        self.used |= 1 << m;
        self.placed += 1;
    }
    fn score(&self) -> f64 {
        self.score as f64
    }
    fn determinize(&self, _rng: &mut SplitMix64) -> Self {
        *self
    }
    fn codes_and_biases(&self, moves: &[u8], codes: &mut [u32], biases: &mut [f64]) {
        for ((c, b), &m) in codes.iter_mut().zip(biases.iter_mut()).zip(moves) {
            *c = (m as usize * N + self.placed) as u32;
            *b = if self.hint { self.gain[m as usize][self.placed] as f64 / 100.0 } else { 0.0 };
        }
    }
}

fn best_of(root: &Assign, nested: Nested, seed: u64) -> f64 {
    let mut p: Planner<Assign> = Planner::new(nested);
    let mut rng = SplitMix64::new(seed);
    p.search(root, &mut rng, &Budget::default(), None).score
}

#[test]
fn nrpa_and_gnrpa_find_the_optimum_of_small_assignments() {
    for seed in 0..5 {
        let plain = Assign::new(seed, false);
        let want = plain.optimum() as f64;
        let nrpa = Nested { level: 3, iterations: 30, alpha: 1.0, temperature: f64::INFINITY };
        assert_eq!(best_of(&plain, nrpa, seed), want, "NRPA, puzzle {seed}");
        let hinted = Assign::new(seed, true);
        let gnrpa = Nested { level: 3, iterations: 30, alpha: 1.0, temperature: 0.1 };
        assert_eq!(best_of(&hinted, gnrpa, seed), want, "GNRPA, puzzle {seed}");
    }
}

#[test]
fn a_level_one_search_is_no_better_than_level_two() {
    // The nesting does something: on average over puzzles, level 1 of the same
    // playout count's root is weaker than level 2 (and never above the optimum).
    let (mut one, mut two) = (0.0, 0.0);
    for seed in 10..20 {
        let a = Assign::new(seed, false);
        let l1 = best_of(&a, Nested { level: 1, iterations: 100, alpha: 1.0, temperature: f64::INFINITY }, seed);
        let l2 = best_of(&a, Nested { level: 2, iterations: 100, alpha: 1.0, temperature: f64::INFINITY }, seed);
        assert!(l1 <= a.optimum() as f64 && l2 <= a.optimum() as f64);
        one += l1;
        two += l2;
    }
    assert!(two > one, "level 2 {two} against level 1 {one}");
}

/// GNRPA's update by hand: two decisions, α = 1, the policy zero before.
/// Decision 1: codes 0 and 1, biases 0 and ln 3, so p = (1/4, 3/4); code 0
/// chosen: w0 += 1 - 1/4, w1 -= 3/4. Decision 2: codes 1 and 2, no bias, so
/// p = (1/2, 1/2) under the policy before the update (w1 was 0); code 1
/// chosen: w1 += 1 - 1/2, w2 -= 1/2. So w = (0.75, -0.25, -0.5).
#[test]
fn the_policy_update_matches_a_hand_computation() {
    let seq: Sequence<u8> = Sequence {
        moves: vec![0, 1],
        steps: vec![(0, 2, 0), (2, 2, 0)],
        codes: vec![0, 1, 1, 2],
        biases: vec![0.0, 3f64.ln(), 0.0, 0.0],
        score: 1.0,
    };
    let mut w = vec![0f32; 3];
    adapt(&mut w, &seq, 1.0, &mut Vec::new());
    for (got, want) in w.iter().zip([0.75f32, -0.25, -0.5]) {
        assert!((got - want).abs() < 1e-6, "{w:?}");
    }
    // Half the step moves half as far.
    let mut half = vec![0f32; 3];
    adapt(&mut half, &seq, 0.5, &mut Vec::new());
    assert!((half[0] - 0.375).abs() < 1e-6);
}

/// The softmax's exponential agrees with libm's to 1e-9 relative over the
/// whole range it is used on, and is exactly 0 for a move never to play.
#[test]
fn the_fast_exponential_is_accurate() {
    let mut x = 0.0f64;
    while x > -700.0 {
        let (got, want) = (exp_to_zero(x), x.exp());
        assert!((got - want).abs() <= 1e-9 * want, "e^{x}: {got} against {want}");
        x -= 0.0137;
    }
    assert_eq!(exp_to_zero(0.0), 1.0);
    assert_eq!(exp_to_zero(f64::NEG_INFINITY), 0.0);
    assert_eq!(exp_to_zero(-1e6), 0.0);
}

#[test]
fn searches_are_seeded_and_budgets_hold() {
    let a = Assign::new(3, true);
    let nested = Nested { level: 2, iterations: 30, ..Nested::default() };
    let run = |seed| {
        let mut p: Planner<Assign> = Planner::new(nested);
        let s = p.search(&a, &mut SplitMix64::new(seed), &Budget::default(), None).clone();
        (s.moves, s.score, p.playouts)
    };
    assert_eq!(run(1), run(1));
    assert_eq!(run(1).2, 900);
    let mut p: Planner<Assign> = Planner::new(nested);
    p.search(&a, &mut SplitMix64::new(1), &Budget { count: Some(77), ..Budget::default() }, None);
    assert_eq!(p.playouts, 77);
    let stop = AtomicBool::new(true);
    let mut p: Planner<Assign> = Planner::new(nested);
    let s = p.search(&a, &mut SplitMix64::new(1), &Budget { stop: Some(&stop), ..Budget::default() }, None);
    assert_eq!((s.score, p.playouts), (f64::NEG_INFINITY, 0));
}

/// The memo only saves work: with or without it a search plays the same
/// playouts (same best sequence, score and adapted policy), over searches
/// from two roots in turn (paths from one root never answer for the other)
/// and with the tests' arena small enough to be emptied many times.
#[test]
fn the_memo_changes_nothing_but_speed() {
    for hint in [false, true] {
        let roots = [Assign::new(6, hint), Assign::new(7, hint)];
        let nested = Nested { level: 2, iterations: 40, ..Nested::default() };
        let mut with: Planner<Assign> = Planner::new(nested);
        let mut without: Planner<Assign> = Planner::without_memo(nested);
        for (k, r) in [0, 0, 1, 1, 0, 1].into_iter().enumerate() {
            let a = with.search(&roots[r], &mut SplitMix64::new(k as u64), &Budget::default(), None).clone();
            let b = without.search(&roots[r], &mut SplitMix64::new(k as u64), &Budget::default(), None).clone();
            assert_eq!((&a.moves, a.score), (&b.moves, b.score), "search {k}");
            assert_eq!(with.policy_mut(), without.policy_mut(), "search {k}");
        }
    }
}

#[test]
fn a_kept_sequence_is_never_lost() {
    // Seeded with the optimum, a tiny search returns it (or an equal one).
    let a = Assign::new(4, false);
    let want = a.optimum() as f64;
    let mut big: Planner<Assign> = Planner::new(Nested { level: 2, iterations: 100, alpha: 1.0, temperature: f64::INFINITY });
    let opt = big.search(&a, &mut SplitMix64::new(0), &Budget::default(), None).clone();
    assert_eq!(opt.score, want);
    let mut seq = Sequence::default();
    assert!(replay(&a, &opt.moves, f64::INFINITY, &mut seq));
    assert_eq!(seq.score, want);
    let mut small: Planner<Assign> = Planner::new(Nested { level: 1, iterations: 3, alpha: 1.0, temperature: f64::INFINITY });
    assert_eq!(small.search(&a, &mut SplitMix64::new(9), &Budget::default(), Some(&seq)).score, want);
    // A sequence with an illegal move, or one that stops short, does not replay.
    assert!(!replay(&a, &[0, 0], 1.0, &mut seq));
    assert!(!replay(&a, &opt.moves[..3], 1.0, &mut seq));
}

#[test]
fn pimc_results_do_not_depend_on_the_thread_count() {
    let a = Assign::new(5, true);
    let cfg = |threads| pimc::Config {
        nested: Nested { level: 1, iterations: 50, ..Nested::default() },
        playouts: Some(1000),
        time_limit: None,
        threads,
        mode: Mode::Mean,
        warm: None,
    };
    let timeless = |threads| pimc::Decision { seconds: 0.0, ..pimc::decide(&a, &cfg(threads), 7, &mut Memory::default(), None) };
    let (one, three) = (timeless(1), timeless(3));
    assert_eq!(one, three);
    // 8 moves, a 50-playout search after each: 400 playouts a determinization.
    assert_eq!((one.playouts, one.determinizations), (1200, 3));
    assert_eq!(one.plan.first(), one.best.as_ref());
    // Every mode chooses a legal move; the oracle's is the first move of its plan.
    for mode in pimc::Mode::ALL {
        let threads = if mode == Mode::Follow { 1 } else { 2 };
        let d = pimc::decide(&a, &pimc::Config { mode, threads, ..cfg(1) }, 7, &mut Memory::default(), None);
        assert!(d.best.is_some_and(|m| (m as usize) < N));
        assert_eq!(d.plan.first(), d.best.as_ref());
    }
}

#[test]
fn following_the_kept_plan_reaches_its_score() {
    // Decision after decision, the oracle following its plan: the game
    // ends at least as well as the first decision's plan promised.
    let mut a = Assign::new(6, true);
    let cfg = pimc::Config {
        nested: Nested { level: 2, iterations: 20, ..Nested::default() },
        playouts: Some(400),
        time_limit: None,
        threads: 1,
        mode: Mode::Oracle,
        warm: None,
    };
    let mut memory = Memory::default();
    let first = pimc::decide(&a, &cfg, 1, &mut memory, None);
    let promised = first.root.iter().map(|r| r.best).fold(f64::NEG_INFINITY, f64::max);
    a.play(first.best.unwrap());
    while !a.is_over() {
        let d = pimc::decide(&a, &cfg, 2, &mut memory, None);
        a.play(d.best.unwrap());
    }
    assert!(a.score() >= promised, "{} < {promised}", a.score());
}

#[test]
fn follow_counts_every_plan_and_plays_a_whole_game_near_the_optimum() {
    let cfg = pimc::Config {
        nested: Nested { level: 1, iterations: 20, ..Nested::default() },
        playouts: Some(400),
        time_limit: None,
        threads: 1,
        mode: Mode::Follow,
        warm: Some(true),
    };
    for seed in [8, 9, 10] {
        let mut a = Assign::new(seed, true);
        let mut memory = Memory::default();
        let first = pimc::decide(&a, &cfg, 3, &mut memory, None);
        // 400 playouts: 20 searches of 20, each plan a vote for its first move.
        assert_eq!((first.playouts, first.determinizations), (400, 20));
        assert_eq!(first.root.iter().map(|r| r.tried).sum::<u32>(), 20);
        let chosen = first.root.iter().find(|r| Some(r.action) == first.best).unwrap();
        assert!(first.root.iter().all(|r| r.tried <= chosen.tried));
        assert!(memory.policy.is_some() && memory.plan.is_empty());
        let again = pimc::decide(&a, &cfg, 3, &mut Memory::default(), None);
        assert_eq!(pimc::Decision { seconds: 0.0, ..again }, pimc::Decision { seconds: 0.0, ..first.clone() });
        // The whole game, the policy carried: better than taking the best
        // gain at each step (the bias alone), and near the optimum.
        let myopic = {
            let mut g = a;
            while !g.is_over() {
                let pos = g.placed;
                let best = (0..N as u8).filter(|&i| g.used & (1 << i) == 0).max_by_key(|&i| g.gain[i as usize][pos]).unwrap();
                g.play(best);
            }
            g.score()
        };
        a.play(first.best.unwrap());
        while !a.is_over() {
            let d = pimc::decide(&a, &cfg, 4, &mut memory, None);
            a.play(d.best.unwrap());
        }
        let optimum = Assign::new(seed, true).optimum() as f64;
        assert!(a.score() > myopic && a.score() >= 0.95 * optimum, "{} (myopic {myopic}, optimum {optimum})", a.score());
    }
}
