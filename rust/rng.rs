//! The one PRNG of the project and the one shuffle (R-SEED-1).
//!
//! Both engines implement exactly this, so a seed means the same game in Rust and
//! in pure Python. The procedure is written down in `docs/seeding.md`; change it
//! only together with the reference engine and the docs.
//!
//! * Generator: SplitMix64 (Steele, Lea, Flood 2014). State `s: u64`; each draw does
//!   `s += 0x9E3779B97F4A7C15`, then mixes `z = s` with
//!   `z = (z ^ z>>30) * 0xBF58476D1CE4E5B9; z = (z ^ z>>27) * 0x94D049BB133111EB; z ^ z>>31`
//!   (all arithmetic modulo 2^64).
//! * Uniform integer in `0..n`: draw `x`; reject while `x >= 2^64 - (2^64 mod n)`;
//!   answer `x mod n`. Unbiased and trivially portable.
//! * Shuffle: Fisher–Yates from the end: for `i` from `len-1` down to `1`,
//!   `j = below(i+1)`, swap `a[i]` and `a[j]`.
//! * Streams: the deal uses `SplitMix64::new(seed)`; other uses derive their own
//!   state with [`SplitMix64::stream`].

/// The project's one generator (module docs): deals, card draws and `determinize(seed)` draw from
/// it identically in both engines (R-SEED-1); the search and the agents use it too.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SplitMix64 {
    state: u64,
}

/// Stream keys, so that, say, card draws never share numbers with the deal.
pub mod stream {
    /// The deal: key 0 is `SplitMix64::new(seed)` itself (`docs/seeding.md`).
    pub const DEAL: u64 = 0;
    /// The draw of the Spirit and Dragon cards in play (R-SETUP-3, `docs/seeding.md`).
    pub const CARDS: u64 = 1;
    /// Reserved for determinization, as in the reference engine's table; `determinize(seed)` draws
    /// from `SplitMix64::new(seed)` itself (`docs/seeding.md`), so no draw uses this key now.
    pub const DETERMINIZE: u64 = 2;
    /// A search's first tree; tree `k` of a root-parallel search uses `SEARCH + k`.
    pub const SEARCH: u64 = 0x5EA2C4;
    /// A search's final choice when it draws one (a temperature).
    pub const CHOICE: u64 = 0xC401CE;
    /// The per-decision seeds of built-in agents (`agents::spec::decision_rng`).
    pub const AGENT: u64 = 0xA6E7;
    /// A batch playout of `random` or `greedy`: one stream per game.
    pub const PLAYOUT: u64 = 3;
    /// A vectorized environment's action sampler.
    pub const SAMPLE: u64 = 0x5A3;
}

impl SplitMix64 {
    /// A generator whose state starts at `seed` (the deal's generator).
    pub const fn new(seed: u64) -> Self {
        SplitMix64 { state: seed }
    }

    /// An independent generator for purpose `key` of the same seed: the seed is
    /// first passed through one SplitMix64 step keyed by `key`.
    pub fn stream(seed: u64, key: u64) -> Self {
        if key == 0 {
            return SplitMix64::new(seed);
        }
        let mut g = SplitMix64::new(seed ^ key.wrapping_mul(0xD1B5_4A32_D192_ED03));
        SplitMix64::new(g.next_u64())
    }

    /// The next 64-bit draw (the mixing steps of the module docs).
    #[inline]
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        mix(self.state)
    }

    /// Uniform in `0..n` by rejection (see the module docs). `n` must be > 0.
    #[inline]
    pub fn below(&mut self, n: u64) -> u64 {
        debug_assert!(n > 0);
        // The rejection zone is the top `2^64 mod n < n` values: for the small
        // `n` of shuffles and legal lists a draw below `2^64 - 2^16` is never
        // in it, which spares computing the zone (two divisions) per draw.
        let x = self.next_u64();
        if n <= 1 << 16 && x < 0u64.wrapping_sub(1 << 16) {
            return x % n;
        }
        self.below_slow(n, x)
    }

    #[cold]
    fn below_slow(&mut self, n: u64, first: u64) -> u64 {
        // 2^64 mod n, computed without 128-bit arithmetic.
        let rem = (u64::MAX % n + 1) % n;
        let limit = 0u64.wrapping_sub(rem); // 2^64 - rem; 0 stands for 2^64 when rem == 0
        let mut x = first;
        loop {
            if rem == 0 || x < limit {
                return x % n;
            }
            x = self.next_u64();
        }
    }

    /// A fast draw in `0..n` (Lemire's multiply-shift; bias below `n / 2^64`)
    /// for search and rollouts, where speed matters and bit-exact portability
    /// does not. Never used for deals or `determinize(seed)`. `n` must be > 0.
    #[inline]
    pub fn pick(&mut self, n: usize) -> usize {
        ((self.next_u64() as u128 * n as u128) >> 64) as usize
    }

    /// Uniform in `[0, 1)` with 53 random bits.
    #[inline]
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }

    /// Fisher–Yates from the end with [`SplitMix64::below`]: the documented shuffle of deals and
    /// card draws (R-SEED-1).
    pub fn shuffle<T>(&mut self, a: &mut [T]) {
        for i in (1..a.len()).rev() {
            let j = self.below(i as u64 + 1) as usize;
            a.swap(i, j);
        }
    }
}

/// SplitMix64's finaliser: every input bit moves every output bit (the
/// generator's output step, and a hash for the planner's memo).
#[inline]
pub fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splitmix_reference_values() {
        // First outputs for seed 0 as published with the algorithm; the Python
        // reference engine checks the same numbers.
        let mut g = SplitMix64::new(0);
        assert_eq!(g.next_u64(), 0xE220_A839_7B1D_CDAF);
        assert_eq!(g.next_u64(), 0x6E78_9E6A_A1B9_65F4);
        assert_eq!(g.next_u64(), 0x06C4_5D18_8009_454F);
    }

    #[test]
    fn below_stays_in_range() {
        let mut g = SplitMix64::new(42);
        for n in 1..200u64 {
            for _ in 0..20 {
                assert!(g.below(n) < n);
            }
        }
        assert!(g.below(u64::MAX) < u64::MAX);
    }

    /// The fast path answers exactly what the documented rejection does.
    #[test]
    fn below_fast_path_is_the_documented_procedure() {
        fn documented(g: &mut SplitMix64, n: u64) -> u64 {
            let rem = (u64::MAX % n + 1) % n;
            let limit = 0u64.wrapping_sub(rem);
            loop {
                let x = g.next_u64();
                if rem == 0 || x < limit {
                    return x % n;
                }
            }
        }
        for n in (1..300u64).chain([65_535, 65_536, 65_537, 1 << 40, u64::MAX / 3, u64::MAX]) {
            let (mut a, mut b) = (SplitMix64::new(n), SplitMix64::new(n));
            for _ in 0..50 {
                assert_eq!(a.below(n), documented(&mut b, n), "n = {n}");
            }
        }
        // Draws in the rejection zone of n = 3 (2^64 mod 3 = 1: only u64::MAX
        // is rejected) and near it, through the slow path directly.
        let mut g = SplitMix64::new(0);
        assert_eq!(g.below_slow(3, u64::MAX - 1), (u64::MAX - 1) % 3);
        let mut h = SplitMix64::new(0);
        let next = h.next_u64();
        assert_eq!(g.below_slow(3, u64::MAX), next % 3, "a rejected draw takes the next one");
    }
}
