//! Two toy games with known best moves, so the search is tested as a generic
//! algorithm: Nim (two seats, perfect information) and Guess (one seat, a
//! hidden card).

use super::*;
use std::sync::atomic::Ordering;

/// A fixed-capacity move list for the toys.
#[derive(Clone, Default)]
pub struct Moves {
    m: [u8; 4],
    len: usize,
}

impl std::ops::Deref for Moves {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        &self.m[..self.len]
    }
}

impl Moves {
    fn push(&mut self, m: u8) {
        self.m[self.len] = m;
        self.len += 1;
    }
}

/// Nim with one heap: take 1 to 3 stones; who takes the last stone wins. A
/// heap that is a multiple of 4 is lost for the player to move; otherwise
/// the winning move leaves a multiple of 4.
#[derive(Clone, Copy, Debug)]
pub struct Nim {
    pub stones: u8,
    pub to_move: u8,
}

impl SearchGame for Nim {
    type Move = u8;
    type Moves = Moves;
    const NUM_MOVES: usize = 4;
    fn move_index(m: u8) -> usize {
        m as usize
    }
    fn seat_to_move(&self) -> usize {
        self.to_move as usize
    }
    fn is_over(&self) -> bool {
        self.stones == 0
    }
    fn legal_moves(&self, out: &mut Moves) {
        out.len = 0;
        for take in 1..=self.stones.min(3) {
            out.push(take);
        }
    }
    fn play(&mut self, m: u8) {
        self.stones -= m;
        self.to_move ^= 1;
    }
    fn determinize(&self, _rng: &mut SplitMix64) -> Nim {
        *self
    }
    fn returns(&self, out: &mut [f64; MAX_SEATS]) {
        // The player who just moved took the last stone.
        *out = [0.0; MAX_SEATS];
        out[(self.to_move ^ 1) as usize] = 1.0;
    }
}

/// Guess a hidden card in 0..3, dealt 0, 1, 2 with chances 5, 3 and 2 in 10:
/// a right guess wins. Knowing only the odds, the best guess is 0 (worth
/// 0.5) whatever the card is.
#[derive(Clone, Copy, Debug)]
pub struct Guess {
    pub card: u8,
    pub guess: Option<u8>,
}

impl SearchGame for Guess {
    type Move = u8;
    type Moves = Moves;
    const NUM_MOVES: usize = 4;
    fn move_index(m: u8) -> usize {
        m as usize
    }
    fn seat_to_move(&self) -> usize {
        0
    }
    fn is_over(&self) -> bool {
        self.guess.is_some()
    }
    fn legal_moves(&self, out: &mut Moves) {
        out.len = 0;
        if self.guess.is_none() {
            for m in 0..3 {
                out.push(m);
            }
        }
    }
    fn play(&mut self, m: u8) {
        self.guess = Some(m);
    }
    fn determinize(&self, rng: &mut SplitMix64) -> Guess {
        let card = match rng.below(10) {
            0..=4 => 0,
            5..=7 => 1,
            _ => 2,
        };
        Guess { card, ..*self }
    }
    fn returns(&self, out: &mut [f64; MAX_SEATS]) {
        *out = [0.0; MAX_SEATS];
        out[0] = f64::from(u8::from(self.guess == Some(self.card)));
    }
}

/// Uniformly random play to the end.
pub struct RandomRollout;

impl<G: SearchGame> Evaluator<G> for RandomRollout {
    fn evaluate(&self, leaves: &mut [G], rng: &mut SplitMix64, values: &mut [[f64; MAX_SEATS]], _: &mut [f32]) -> Result<(), EvalError> {
        let mut moves = G::Moves::default();
        for (g, v) in leaves.iter_mut().zip(values) {
            while !g.is_over() {
                g.legal_moves(&mut moves);
                g.play(moves[rng.below(moves.len() as u64) as usize]);
            }
            g.returns(v);
        }
        Ok(())
    }
}

/// Priors from a table (the same for every leaf) and a fixed value; counts
/// its calls and the leaves it saw.
pub struct Table {
    pub priors: [f32; 4],
    pub value: f64,
    pub batch: usize,
    pub calls: std::sync::atomic::AtomicUsize,
    pub leaves: std::sync::atomic::AtomicUsize,
}

impl Table {
    pub fn new(priors: [f32; 4], value: f64, batch: usize) -> Table {
        Table { priors, value, batch, calls: Default::default(), leaves: Default::default() }
    }
}

impl<G: SearchGame> Evaluator<G> for Table {
    fn gives_priors(&self) -> bool {
        true
    }
    fn batch_size(&self) -> usize {
        self.batch
    }
    fn evaluate(&self, leaves: &mut [G], _: &mut SplitMix64, values: &mut [[f64; MAX_SEATS]], priors: &mut [f32]) -> Result<(), EvalError> {
        self.calls.fetch_add(1, Ordering::Relaxed);
        self.leaves.fetch_add(leaves.len(), Ordering::Relaxed);
        assert!(leaves.len() <= self.batch);
        for (i, v) in values.iter_mut().enumerate().take(leaves.len()) {
            *v = [self.value; MAX_SEATS];
            priors[i * G::NUM_MOVES..(i + 1) * G::NUM_MOVES].copy_from_slice(&self.priors[..G::NUM_MOVES]);
        }
        Ok(())
    }
}

/// The exact value of every Nim position for both seats, with uniform priors.
pub struct NimOracle;

impl Evaluator<Nim> for NimOracle {
    fn gives_priors(&self) -> bool {
        true
    }
    fn evaluate(&self, leaves: &mut [Nim], _: &mut SplitMix64, values: &mut [[f64; MAX_SEATS]], priors: &mut [f32]) -> Result<(), EvalError> {
        for (i, (g, v)) in leaves.iter().zip(values.iter_mut()).enumerate() {
            let mover_wins = g.stones % 4 != 0;
            let m = g.to_move as usize;
            *v = [0.0; MAX_SEATS];
            v[m] = f64::from(u8::from(mover_wins));
            v[1 - m] = 1.0 - v[m];
            priors[i * 4..i * 4 + 4].fill(1.0);
        }
        Ok(())
    }
}

/// Fails on its `fail_at`-th call.
pub struct Failing {
    pub fail_at: usize,
    pub calls: std::sync::atomic::AtomicUsize,
}

impl<G: SearchGame> Evaluator<G> for Failing {
    fn gives_priors(&self) -> bool {
        true
    }
    fn batch_size(&self) -> usize {
        4
    }
    fn evaluate(&self, leaves: &mut [G], _: &mut SplitMix64, values: &mut [[f64; MAX_SEATS]], priors: &mut [f32]) -> Result<(), EvalError> {
        if self.calls.fetch_add(1, Ordering::Relaxed) + 1 == self.fail_at {
            return Err(EvalError("the network is down".into()));
        }
        for v in values.iter_mut().take(leaves.len()) {
            *v = [0.5; MAX_SEATS];
        }
        priors.fill(1.0);
        Ok(())
    }
}

fn cfg(iterations: u64, exploration: f64) -> Config {
    Config { iterations: Some(iterations), exploration, seed: 7, ..Config::default() }
}

fn visits<M: PartialEq>(r: &SearchResult<M>, m: M) -> u64 {
    r.root.iter().find(|s| s.mv == m).map_or(0, |s| s.visits)
}

#[test]
fn uct_with_rollouts_finds_the_winning_nim_moves() {
    for (stones, best) in [(5, 1), (6, 2), (7, 3), (9, 1), (10, 2)] {
        let r = search(&Nim { stones, to_move: 0 }, &Config { widening: None, ..cfg(3000, 0.7) }, &RandomRollout).unwrap();
        assert_eq!(r.best, Some(best), "{stones} stones: {:?}", r.root);
    }
}

#[test]
fn puct_with_rollout_values_finds_the_winning_nim_moves() {
    // Uniform priors and rollout values: PUCT alone must find the wins.
    let eval = Mixed { guide: Table::new([1.0; 4], 0.5, 1), rollout: RandomRollout, weight: 1.0 };
    for (stones, best) in [(5, 1), (6, 2), (7, 3), (9, 1)] {
        let r = search(&Nim { stones, to_move: 1 }, &cfg(3000, 1.0), &eval).unwrap();
        assert_eq!(r.best, Some(best), "{stones} stones: {:?}", r.root);
    }
}

#[test]
fn an_exact_evaluator_needs_few_iterations() {
    for (stones, best) in [(5, 1), (6, 2), (7, 3), (13, 1), (14, 2), (15, 3)] {
        let r = search(&Nim { stones, to_move: 0 }, &cfg(12, 1.0), &NimOracle).unwrap();
        assert_eq!(r.best, Some(best), "{stones} stones: {:?}", r.root);
    }
}

#[test]
fn determinizations_hide_the_card() {
    // The card is 2, but the player knows only the odds: the best guess is 0,
    // worth 0.5; reading the true card (measurement only) would guess 2.
    let g = Guess { card: 2, guess: None };
    let r = search(&g, &Config { widening: None, ..cfg(4000, 0.3) }, &RandomRollout).unwrap();
    assert_eq!(r.best, Some(0), "{:?}", r.root);
    let value = r.root.iter().find(|s| s.mv == 0).unwrap().value;
    assert!((value - 0.5).abs() < 0.05, "guessing 0 is worth 0.5, got {value}");
    let cheat = search(&g, &Config { determinize: false, widening: None, ..cfg(400, 0.3) }, &RandomRollout).unwrap();
    assert_eq!(cheat.best, Some(2));
}

#[test]
fn puct_follows_the_prior_where_values_are_equal() {
    // Every position has the same value: visits go where the prior points.
    for favourite in 1..=3u8 {
        let mut priors = [0.1f32; 4];
        priors[favourite as usize] = 0.7;
        let r = search(&Nim { stones: 40, to_move: 0 }, &cfg(500, 1.0), &Table::new(priors, 0.5, 1)).unwrap();
        assert_eq!(r.best, Some(favourite));
        let v = visits(&r, favourite);
        assert!(v > 300, "{v} of 500 visits on the favoured move: {:?}", r.root);
    }
}

#[test]
fn batches_gather_distinct_leaves_and_count_every_iteration() {
    let eval = Table::new([1.0; 4], 0.5, 8);
    let r = search(&Nim { stones: 40, to_move: 0 }, &cfg(1000, 1.0), &eval).unwrap();
    assert_eq!(r.iterations, 1000);
    assert_eq!(r.root.iter().map(|s| s.visits).sum::<u64>(), 999, "every iteration but the root's first visit");
    let (calls, leaves) = (eval.calls.load(Ordering::Relaxed), eval.leaves.load(Ordering::Relaxed));
    assert_eq!(leaves, 1000, "one evaluation per iteration (no terminal leaf this shallow)");
    assert!(calls < 1000 / 4, "batched: {calls} calls for {leaves} leaves");
}

#[test]
fn an_evaluator_error_ends_the_search() {
    let eval = Failing { fail_at: 3, calls: Default::default() };
    let r = search(&Nim { stones: 30, to_move: 0 }, &cfg(1000, 1.0), &eval);
    assert_eq!(r.unwrap_err(), EvalError("the network is down".into()));
    assert_eq!(eval.calls.load(Ordering::Relaxed), 3);
}

#[test]
fn temperature_draws_moves_by_visits_and_zero_takes_the_most_visited() {
    let g = Nim { stones: 40, to_move: 0 };
    let eval = Table::new([0.0, 0.5, 0.3, 0.2], 0.5, 1);
    let mut seen = [0u32; 4];
    let r = search(&g, &cfg(100, 1.0), &eval).unwrap();
    let total = r.root.iter().map(|s| s.visits).sum::<u64>() as f64;
    for seed in 0..2000 {
        let r = search(&g, &Config { seed, temperature: 1.0, ..cfg(100, 1.0) }, &eval).unwrap();
        seen[r.best.unwrap() as usize] += 1;
    }
    // Each move is drawn about as often as its share of the visits.
    for s in &r.root {
        let p = s.visits as f64 / total;
        let sd = (2000.0 * p * (1.0 - p)).sqrt();
        assert!((seen[s.mv as usize] as f64 - 2000.0 * p).abs() < 4.0 * sd, "{seen:?} against {:?}", r.root);
    }
    let r = search(&g, &cfg(100, 1.0), &eval).unwrap();
    assert_eq!(r.best, Some(1));
}

#[test]
fn root_noise_spreads_visits() {
    let g = Nim { stones: 40, to_move: 0 };
    let eval = Table::new([0.0, 1.0, 0.0, 0.0], 0.5, 1);
    let plain = search(&g, &cfg(200, 1.0), &eval).unwrap();
    assert_eq!(plain.root.len(), 1, "a zero prior is never tried: {:?}", plain.root);
    let noisy = search(&g, &Config { noise: Some((0.3, 0.5)), ..cfg(200, 1.0) }, &eval).unwrap();
    assert!(noisy.root.len() > 1, "{:?}", noisy.root);
}

#[test]
fn gamma_draws_have_the_right_mean() {
    let mut rng = SplitMix64::new(3);
    for alpha in [0.3, 1.0, 2.5] {
        let n = 20_000;
        let mean = (0..n).map(|_| tree::gamma(alpha, &mut rng)).sum::<f64>() / n as f64;
        assert!((mean - alpha).abs() < 0.05 * alpha.max(1.0), "alpha {alpha}: mean {mean}");
    }
}

#[test]
fn a_time_limit_ends_a_batched_search() {
    // Batches of 3 step over most multiples of 8, where the clock is read.
    let start = std::time::Instant::now();
    let cfg = Config { iterations: None, time_limit: Some(0.05), ..cfg(1, 1.0) };
    let r = search(&Nim { stones: 60, to_move: 0 }, &cfg, &Table::new([1.0; 4], 0.5, 3)).unwrap();
    assert!(r.iterations > 0);
    assert!(start.elapsed().as_secs_f64() < 2.0);
}

#[test]
fn a_kept_tree_is_discounted_with_its_means_unchanged() {
    // Grow a Nim tree, re-root it two moves down (the same seat to move),
    // then continue it at weight 0.1: the continued root's counts are the new
    // iterations plus a tenth of the kept ones, and every kept child's mean is
    // as it was.
    let g = Nim { stones: 13, to_move: 0 };
    let (first, tree) = search_until(&g, &Config { widening: None, ..cfg(20_000, 0.7) }, &RandomRollout, None, None).unwrap();
    let mut tree = tree.unwrap();
    let path = &first.pv[..2];
    assert!(tree.advance(path));
    let after = Nim { stones: 13 - path[0] - path[1], to_move: 0 };
    let kept = tree.root_visits();
    let before: Vec<_> = (1..=3).filter_map(|k| tree.root_child(k, 0).map(|(n, w)| (k, n, w / n as f64))).collect();
    assert!(kept > 1000 && !before.is_empty(), "{kept} visits kept");
    let mut shrunk = tree.clone();
    shrunk.discount(0.1);
    assert_eq!(shrunk.root_visits(), (kept as f64 * 0.1).round() as u64);
    for &(k, n, mean) in &before {
        let (n2, w2) = shrunk.root_child(k, 0).unwrap();
        assert_eq!(n2, ((n as f64 * 0.1).round() as u64).max(1));
        assert!((w2 / n2 as f64 - mean).abs() < 1e-12);
    }
    // The search continues the discounted tree: its root holds the new
    // iterations on top of the shrunk counts.
    let c = Config { widening: None, reuse_weight: 0.1, ..cfg(500, 0.7) };
    let (_, next) = search_until(&after, &c, &RandomRollout, Some(tree), None).unwrap();
    assert_eq!(next.unwrap().root_visits(), (kept as f64 * 0.1).round() as u64 + 500);
    // Weight 1 keeps the counts whole; a weight outside (0, 1] is refused.
    let mut whole = shrunk.clone();
    whole.discount(1.0);
    assert_eq!(whole.root_visits(), shrunk.root_visits());
    for w in [0.0, -1.0, 1.5, f64::NAN] {
        assert!(check(&Config { reuse_weight: w, ..cfg(10, 0.7) }).is_err(), "{w}");
    }
}
