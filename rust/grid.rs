//! The 12 × 12 castle grid as a bitboard (R-AVAIL-1 in a few shifts).
//!
//! Three 64-bit words hold five 12-column rows each (bits 60..63 unused), so
//! bit `s % 60` of word `s / 60` is castle space `s = row * 12 + col`: the set
//! bits come out in space order, which is action-id order.

use crate::layout::{MAX_COLS, MAX_ROWS, SPACES};

const WORDS: usize = 3;
const SPACES_PER_WORD: usize = 60;
/// Column 0 of each of a word's five rows.
const COL0: u64 = {
    let mut m = 0u64;
    let mut r = 0;
    while r < 5 {
        m |= 1 << (r * MAX_COLS);
        r += 1;
    }
    m
};
const COL11: u64 = COL0 << (MAX_COLS - 1);

/// A set of castle spaces as a bitboard; its spaces come out in ascending order, which is
/// action-id order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Hash)]
pub struct Grid([u64; WORDS]);

impl Grid {
    /// The empty set.
    pub const EMPTY: Grid = Grid([0; WORDS]);

    /// Add `space` (`row * 12 + col`).
    #[inline]
    pub fn set(&mut self, space: usize) {
        debug_assert!(space < SPACES);
        self.0[space / SPACES_PER_WORD] |= 1 << (space % SPACES_PER_WORD);
    }

    /// Remove `space`.
    #[inline]
    pub fn clear(&mut self, space: usize) {
        self.0[space / SPACES_PER_WORD] &= !(1 << (space % SPACES_PER_WORD));
    }

    /// Whether `space` is in the set.
    #[inline]
    pub fn contains(&self, space: usize) -> bool {
        self.0[space / SPACES_PER_WORD] >> (space % SPACES_PER_WORD) & 1 != 0
    }

    /// Whether the set holds no space.
    #[inline]
    pub fn is_empty(&self) -> bool {
        (self.0[0] | self.0[1] | self.0[2]) == 0
    }

    /// Spaces in the set.
    #[cfg(test)]
    pub fn count(&self) -> u32 {
        self.0.iter().map(|w| w.count_ones()).sum()
    }

    /// The spaces of `self` with a long side (west or east) outside `self`:
    /// for the top floor, exactly its Available tiles (R-AVAIL-1), since no
    /// neighbour is higher.
    #[inline]
    pub fn with_free_long_side(&self) -> Grid {
        let mut out = [0u64; WORDS];
        for (o, &m) in out.iter_mut().zip(self.0.iter()) {
            // West neighbour in `self`: the bit one column lower; column 0
            // has none (the shift brings in the previous row's column 11).
            let west = (m << 1) & !COL0;
            let east = (m >> 1) & !COL11;
            *o = m & !(west & east);
        }
        Grid(out)
    }

    /// The spaces of `self` with a short side (north or south) outside
    /// `self`: for the top floor, the tiles with a free short side
    /// (R-AVAIL-3), since no neighbour is higher.
    #[inline]
    pub fn with_free_short_side(&self) -> Grid {
        let row = MAX_COLS;
        let last_row = (SPACES_PER_WORD - row) as u32; // 48: a word's fifth row
        let row_mask = (1u64 << row) - 1;
        let m = self.0;
        let mut out = [0u64; WORDS];
        for w in 0..WORDS {
            // North neighbour in `self`: one row lower, the row above a
            // word's first row being the previous word's fifth.
            let from_prev = if w > 0 { m[w - 1] >> last_row } else { 0 };
            let north = ((m[w] << row) | from_prev) & ((1 << SPACES_PER_WORD) - 1);
            let from_next = if w + 1 < WORDS { (m[w + 1] & row_mask) << last_row } else { 0 };
            let south = (m[w] >> row) | from_next;
            out[w] = m[w] & !(north & south);
        }
        Grid(out)
    }

    /// The spaces in `self` and not in `other`.
    #[inline]
    pub fn minus(&self, other: &Grid) -> Grid {
        Grid([self.0[0] & !other.0[0], self.0[1] & !other.0[1], self.0[2] & !other.0[2]])
    }

    /// The spaces in `self` or in `other`.
    #[inline]
    pub fn union(&self, other: &Grid) -> Grid {
        Grid([self.0[0] | other.0[0], self.0[1] | other.0[1], self.0[2] | other.0[2]])
    }

    /// The spaces of `self` with a long side (west or east) outside `within`
    /// (`self` a subset of `within`).
    #[inline]
    pub fn with_free_long_side_within(&self, within: &Grid) -> Grid {
        let mut out = [0u64; WORDS];
        for ((o, &s), &m) in out.iter_mut().zip(self.0.iter()).zip(within.0.iter()) {
            let west = (m << 1) & !COL0;
            let east = (m >> 1) & !COL11;
            *o = s & !(west & east);
        }
        Grid(out)
    }

    /// The spaces `s` with `values[s] == v` (written so that it vectorises:
    /// byte compares folded into each word's mask).
    pub fn where_equal(values: &[u8; SPACES], v: u8) -> Grid {
        Grid::where_equal_in_rows(values, v, MAX_ROWS)
    }

    /// [`Grid::where_equal`] in the first `rows` rows only (the castle's
    /// layout; the rows below hold no stack): fewer bytes to compare.
    #[inline]
    pub fn where_equal_in_rows(values: &[u8; SPACES], v: u8, rows: usize) -> Grid {
        let mut out = [0u64; WORDS];
        let pattern = u64::from(v) * ONES;
        // Eight bytes at a time (SWAR): a zero byte of `x ^ pattern` is an
        // equal value; its high bit is gathered into bit i by a multiply.
        for (i, chunk) in values.chunks_exact(8).take((rows.min(MAX_ROWS) * MAX_COLS).div_ceil(8)).enumerate() {
            let x = u64::from_le_bytes([chunk[0], chunk[1], chunk[2], chunk[3], chunk[4], chunk[5], chunk[6], chunk[7]]) ^ pattern;
            let low7 = 0x7F7F_7F7F_7F7F_7F7F;
            let zero = !(((x & low7) + low7) | x | low7);
            let byte_mask = (zero >> 7).wrapping_mul(0x0102_0408_1020_4080) >> 56;
            let s = i * 8;
            let (w, b) = (s / SPACES_PER_WORD, s % SPACES_PER_WORD);
            out[w] |= byte_mask << b;
            if b + 8 > SPACES_PER_WORD {
                out[w + 1] |= byte_mask >> (SPACES_PER_WORD - b);
            }
        }
        for o in out.iter_mut() {
            *o &= (1 << SPACES_PER_WORD) - 1;
        }
        Grid(out)
    }

    /// The words with their rank data, to count and then select (a random
    /// pick does both; they share the popcounts).
    #[inline]
    pub fn ranked(&self) -> RankedGrid {
        // Rows 10 and 11 are empty in most layouts (all standard ones).
        let last = if self.0[2] == 0 { Ranked { bits: 0, sums: 0 } } else { Ranked::new(self.0[2]) };
        RankedGrid([Ranked::new(self.0[0]), Ranked::new(self.0[1]), last])
    }

    /// The spaces in increasing order.
    #[inline]
    pub fn for_each(&self, mut f: impl FnMut(usize)) {
        for (w, &word) in self.0.iter().enumerate() {
            let mut bits = word;
            while bits != 0 {
                f(w * SPACES_PER_WORD + bits.trailing_zeros() as usize);
                bits &= bits - 1;
            }
        }
    }

    /// The spaces in the set, ascending.
    pub fn iter(&self) -> impl Iterator<Item = usize> + '_ {
        self.0.iter().enumerate().flat_map(|(w, &word)| {
            let mut bits = word;
            std::iter::from_fn(move || {
                if bits == 0 {
                    return None;
                }
                let b = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                Some(w * SPACES_PER_WORD + b)
            })
        })
    }
}

/// A [`Grid`] ready for counting and selecting.
#[derive(Clone, Copy, Debug)]
pub struct RankedGrid([Ranked; WORDS]);

impl RankedGrid {
    /// Spaces in the grid.
    #[inline]
    pub fn count(&self) -> u32 {
        self.0[0].count() + self.0[1].count() + self.0[2].count()
    }

    /// The `k`-th space, without a branch on `k`: a random pick's `k` is
    /// unpredictable, and a mispredicted branch costs more than this
    /// whole function (`docs/design.md`).
    #[inline]
    pub fn nth(&self, k: u32) -> Option<usize> {
        let c0 = self.0[0].count();
        let c01 = c0 + self.0[1].count();
        let w = (k >= c0) as usize + (k >= c01) as usize;
        let before = [0, c0, c01][w];
        let word = self.0[w];
        if k - before >= word.count() {
            return None;
        }
        Some(w * SPACES_PER_WORD + word.select(k - before) as usize)
    }
}

/// A word with the bytewise prefix sums of its popcount (Vigna's broadword
/// rank/select): the count is the top byte, and the `k`-th set bit is found
/// without a branch.
#[derive(Clone, Copy, Debug)]
pub struct Ranked {
    bits: u64,
    /// Byte `i`: the set bits in bytes `0..=i` (at most 64: no byte overflows).
    sums: u64,
}

const ONES: u64 = 0x0101_0101_0101_0101;
const HIGH: u64 = 0x8080_8080_8080_8080;

impl Ranked {
    /// `bits` with its bytewise prefix counts, computed once for any number of selects.
    #[inline]
    pub fn new(bits: u64) -> Ranked {
        let mut s = bits - ((bits >> 1) & 0x5555_5555_5555_5555);
        s = (s & 0x3333_3333_3333_3333) + ((s >> 2) & 0x3333_3333_3333_3333);
        s = (s + (s >> 4)) & 0x0F0F_0F0F_0F0F_0F0F;
        Ranked { bits, sums: s.wrapping_mul(ONES) }
    }

    /// Set bits of the word.
    #[inline]
    pub fn count(&self) -> u32 {
        (self.sums >> 56) as u32
    }

    /// Position of the `k`-th set bit (`k < self.count()`): the bytes wholly
    /// below it by a bytewise compare, then a table within its byte.
    #[inline]
    pub fn select(&self, k: u32) -> u32 {
        // Byte i's high bit: k >= sums[i], i.e. bit k lies above byte i.
        let above = (((u64::from(k) * ONES) | HIGH) - self.sums) & HIGH;
        let place = ((above >> 7).wrapping_mul(ONES) >> 56) as u32 * 8;
        let rank_before = ((self.sums << 8) >> place) as u32 & 0xFF;
        let in_byte = (self.bits >> place) as usize & 0xFF;
        place + SELECT_IN_BYTE[(k - rank_before) as usize & 7][in_byte] as u32
    }
}

/// A 16-bit mask (a Realm's cells) ranked by two byte look-ups.
#[derive(Clone, Copy, Debug)]
pub struct Ranked16 {
    bits: u16,
    low: u32,
}

impl Ranked16 {
    /// `bits` with its low byte's count, computed once for any number of selects.
    #[inline]
    pub fn new(bits: u16) -> Ranked16 {
        Ranked16 { bits, low: POPCOUNT8[bits as usize & 0xFF] as u32 }
    }

    /// Set bits of the mask.
    #[inline]
    pub fn count(&self) -> u32 {
        self.low + POPCOUNT8[(self.bits >> 8) as usize] as u32
    }

    /// Position of the `k`-th set bit (`k < self.count()`), branch-free.
    #[inline]
    pub fn select(&self, k: u32) -> u32 {
        let high = (k >= self.low) as u32;
        let byte = (self.bits >> (8 * high)) as usize & 0xFF;
        8 * high + SELECT_IN_BYTE[(k - high * self.low) as usize & 7][byte] as u32
    }
}

/// Set bits of a 16-bit mask by two table look-ups (the portable
/// `count_ones` is a dozen instructions without the POPCNT instruction).
#[inline]
pub fn count16(bits: u16) -> u32 {
    POPCOUNT8[bits as usize & 0xFF] as u32 + POPCOUNT8[(bits >> 8) as usize] as u32
}

static POPCOUNT8: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut b = 0;
    while b < 256 {
        t[b] = (b as u8).count_ones() as u8;
        b += 1;
    }
    t
};

/// `SELECT_IN_BYTE[j][b]`: position of the `j`-th set bit of byte `b` (8 if none).
static SELECT_IN_BYTE: [[u8; 256]; 8] = {
    let mut t = [[8u8; 256]; 8];
    let mut b = 0;
    while b < 256 {
        let (mut j, mut bit) = (0, 0);
        while bit < 8 {
            if b >> bit & 1 == 1 {
                t[j][b] = bit as u8;
                j += 1;
            }
            bit += 1;
        }
        b += 1;
    }
    t
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spaces_round_trip_in_order() {
        let mut g = Grid::EMPTY;
        let spaces = [0, 11, 12, 59, 60, 71, 119, 120, 143];
        for &s in spaces.iter().rev() {
            g.set(s);
        }
        assert_eq!(g.iter().collect::<Vec<_>>(), spaces);
        let mut seen = Vec::new();
        g.for_each(|s| seen.push(s));
        assert_eq!(seen, spaces);
        assert!(spaces.iter().all(|&s| g.contains(s)) && !g.contains(1));
        assert_eq!(g.count(), spaces.len() as u32);
        for (k, &s) in spaces.iter().enumerate() {
            assert_eq!(g.ranked().nth(k as u32), Some(s));
        }
        assert_eq!(g.ranked().nth(spaces.len() as u32), None);
    }

    #[test]
    fn nth_bit_is_the_kth_set_bit() {
        let mut rng = crate::rng::SplitMix64::new(9);
        for i in 0..20_000 {
            let bits = match i % 4 {
                0 => rng.next_u64(),
                1 => rng.next_u64() & rng.next_u64() & rng.next_u64(),
                2 => u64::MAX,
                _ => 1 << (i % 64) | 1 << 63,
            };
            let mut rest = bits;
            for k in 0..bits.count_ones() {
                assert_eq!(Ranked::new(bits).select(k), rest.trailing_zeros(), "bits {bits:#x} k {k}");
                rest &= rest - 1;
            }
        }
    }

    #[test]
    fn ranked16_counts_and_selects() {
        for bits in 0..=u16::MAX {
            let r = Ranked16::new(bits);
            assert_eq!(r.count(), bits.count_ones());
            let mut rest = bits;
            for k in 0..bits.count_ones() {
                assert_eq!(r.select(k), rest.trailing_zeros());
                rest &= rest - 1;
            }
        }
    }

    #[test]
    fn where_equal_in_rows_stops_at_the_rows() {
        let mut heights = [0u8; SPACES];
        heights[13] = 2; // row 1
        heights[5 * MAX_COLS] = 2; // row 5
        assert_eq!(Grid::where_equal_in_rows(&heights, 2, 2).count(), 1);
        assert_eq!(Grid::where_equal_in_rows(&heights, 2, 6).count(), 2);
        assert_eq!(Grid::where_equal(&heights, 2).count(), 2);
    }

    #[test]
    fn where_equal_marks_exactly_the_equal_values() {
        let mut values = [0u8; SPACES];
        let mut rng = crate::rng::SplitMix64::new(4);
        for v in values.iter_mut() {
            *v = [0, 1, 2, 3, 9, 128, 255][rng.below(7) as usize];
        }
        for v in [0, 1, 2, 3, 9, 128, 255, 4] {
            let g = Grid::where_equal(&values, v);
            assert!((0..SPACES).all(|s| g.contains(s) == (values[s] == v)));
        }
    }

    #[test]
    fn free_long_side_matches_the_neighbours() {
        // Every pattern of three adjacent columns at every row edge, and rows
        // that straddle two words.
        let mut rng = crate::rng::SplitMix64::new(3);
        for _ in 0..2000 {
            let mut g = Grid::EMPTY;
            for s in 0..SPACES {
                if rng.below(2) == 0 {
                    g.set(s);
                }
            }
            let free = g.with_free_long_side();
            for s in 0..SPACES {
                let col = s % MAX_COLS;
                let west = col > 0 && g.contains(s - 1);
                let east = col + 1 < MAX_COLS && g.contains(s + 1);
                assert_eq!(free.contains(s), g.contains(s) && !(west && east), "space {s}");
            }
        }
    }
}
