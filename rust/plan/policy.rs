//! The planner's policy: a softmax over a weight per move code plus the
//! move's bias, drawn from, and adapted toward a sequence (GNRPA's step).
//! The nested searches ([`super::Planner`]) play it.

use super::Sequence;
use crate::rng::SplitMix64;

/// Biases over the temperature: `inv_t` is `1 / τ`, 0 for plain NRPA (a
/// move never to play stays `-inf`).
#[inline]
pub(super) fn scale_biases(biases: &mut [f64], inv_t: f64) {
    for b in biases {
        if b.is_finite() {
            *b *= inv_t;
        }
    }
}

/// Softmax probabilities of `w[codes[i]] + biases[i]` into `out` (as long as
/// `codes`); uniform when every move's bias is `-inf`.
fn softmax(policy: &[f32], codes: &[u32], biases: &[f64], out: &mut [f64]) {
    for ((o, &c), &b) in out.iter_mut().zip(codes).zip(biases) {
        *o = policy[c as usize] as f64 + b;
    }
    let top = out.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    if top == f64::NEG_INFINITY {
        out.fill(1.0 / codes.len() as f64);
        return;
    }
    for x in out.iter_mut() {
        *x = exp_to_zero(*x - top);
    }
    let total: f64 = out.iter().sum();
    let scale = 1.0 / total;
    for x in out.iter_mut() {
        *x *= scale;
    }
}

/// `e^x` for `x <= 0` (`-inf` gives 0) to about 1e-9 relative, without a
/// call into libm: branch-free, so the softmax loop vectorises. A draw needs
/// no more precision, and the exponentials were a tenth of a playout.
///
/// `x = n ln 2 + r` with `|r| <= ln 2 / 2`; `e^r` by its Taylor series to
/// degree 8 (error below `r^9 / 9!`, about 2e-10) and `2^n` built in the
/// exponent bits.
#[inline]
pub(super) fn exp_to_zero(x: f64) -> f64 {
    // A NaN logit is a bug upstream (a bias or a weight gone wrong): `max` below would hide it.
    debug_assert!(!x.is_nan(), "a NaN logit");
    // Below this, e^x is subnormal or 0 and counts as 0.
    const LOW: f64 = -708.0;
    let clamped = x.max(LOW);
    // Truncating `y - 0.5` rounds `y <= 0` to nearest without a call to libm's round.
    let n = (clamped * std::f64::consts::LOG2_E - 0.5) as i64 as f64;
    let r = clamped - n * std::f64::consts::LN_2;
    let mut p = 1.0 / 40320.0;
    for k in [5040.0, 720.0, 120.0, 24.0, 6.0, 2.0, 1.0, 1.0] {
        p = p * r + 1.0 / k;
    }
    let two_n = f64::from_bits(((n as i64 + 1023) as u64) << 52);
    if x < LOW {
        0.0
    } else {
        p * two_n
    }
}

/// Draw an index with probability `softmax(w[codes[i]] + biases[i])`.
pub(super) fn draw(policy: &[f32], codes: &[u32], biases: &[f64], scratch: &mut Vec<f64>, rng: &mut SplitMix64) -> usize {
    scratch.resize(codes.len(), 0.0);
    softmax(policy, codes, biases, scratch);
    let mut u = rng.unit();
    for (i, p) in scratch.iter().enumerate() {
        u -= p;
        if u < 0.0 {
            return i;
        }
    }
    // Rounding left `u` a hair above 0: the last move with any chance.
    scratch.iter().rposition(|&p| p > 0.0).unwrap_or(0)
}

/// GNRPA's adaptation toward `best`: at each of its decisions, the chosen
/// move's weight rises by `alpha` and every legal move's falls by
/// `alpha * p`, `p` its probability under the policy as it was before the
/// adaptation (so the decisions do not see each other's changes).
pub fn adapt<M: Copy>(policy: &mut [f32], best: &Sequence<M>, alpha: f64, scratch: &mut Vec<f64>) {
    // All probabilities first, under the old policy: a code may recur along the sequence.
    scratch.clear();
    scratch.resize(best.codes.len(), 0.0);
    for &(start, len, _) in &best.steps {
        let (a, b) = (start as usize, (start + len) as usize);
        softmax(policy, &best.codes[a..b], &best.biases[a..b], &mut scratch[a..b]);
    }
    for &(start, len, chosen) in &best.steps {
        let (a, b) = (start as usize, (start + len) as usize);
        policy[best.codes[a + chosen as usize] as usize] += alpha as f32;
        for i in a..b {
            policy[best.codes[i] as usize] -= (alpha * scratch[i]) as f32;
        }
    }
}
