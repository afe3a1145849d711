//! Groups of every Realm mask, precomputed at compile time: whether a mask
//! holds a group of some sizes, and which of its cells can leave it with
//! such a group still there.
//!
//! Spirits are offered at every decision point of a turn (R-SPIRIT-2), and
//! whether Beauty, Cunning, Faith or Change can apply after a payment is a
//! question about groups of a Realm with one tile taken away (R-SPIRIT-1).
//! A Realm is 16 cells, so each answer is one lookup in a table of 2^16
//! masks instead of a flood fill per cell (`docs/design.md`).
//!
//! ```
//! use _core::{SETS, THREES};
//! // A row of four: a set; without an end tile, a group of 3.
//! let row = 0b1111;
//! assert!(SETS.has(row) && !THREES.has(row));
//! assert_eq!(SETS.keeping(row), 0);
//! assert_eq!(THREES.keeping(row), 0b1001);
//! // Cunning's quick test: a group of 3 there, or one a payment leaves.
//! assert!(THREES.reachable(row) && !THREES.reachable(0b0101));
//! ```

use crate::realm::flood;

const MASKS: usize = 1 << 16;

/// For every mask of Realm cells: whether it holds a connected group with a
/// size in one range, and the cells whose removal leaves one.
pub struct GroupTable {
    has: [u64; MASKS / 64],
    keeping: [u16; MASKS],
    /// `has(m) || keeping(m) != 0`, one bit per mask: whether a payment
    /// of `m`'s class can leave such a group (Cunning's quick refusal).
    reachable: [u64; MASKS / 64],
}

/// Groups of 4 or more: sets (R-CONS-1), and Beauty's groups of one number.
// Two million steps of the compiler's interpreter, about a second of build time:
// tables computed once, with the Realm's own `flood`, need no build script.
#[allow(long_running_const_eval)]
pub static SETS: GroupTable = GroupTable::build(4, 16);
/// Groups of exactly 3: Cunning's.
#[allow(long_running_const_eval)]
pub static THREES: GroupTable = GroupTable::build(3, 3);

/// For every mask of Realm cells, the sizes of its connected groups (1, 2,
/// or 3 for three and more) in the order a flood fill from the lowest cell
/// finds them: the position value's group terms (`agents::heuristic`) in one
/// look-up instead of a flood fill per group, summed in the same order, so
/// values are the same to the last bit.
pub struct GroupSizes([u16; MASKS]);

/// The [`GroupSizes`] of every mask, computed at compile time.
///
/// ```
/// use _core::GROUP_SIZES;
/// // A row of three, a pair and a lone cell, lowest cell first.
/// assert!(GROUP_SIZES.of(0b1000_0011_0000_0111).eq([3, 2, 1]));
/// assert_eq!(GROUP_SIZES.of(0).count(), 0);
/// ```
#[allow(long_running_const_eval)]
pub static GROUP_SIZES: GroupSizes = GroupSizes::build();

impl GroupSizes {
    /// The sizes (1, 2, or 3 for three and more) of the groups of `m`, lowest cell first.
    #[inline]
    pub fn of(&self, m: u16) -> impl Iterator<Item = u8> {
        let mut code = self.0[m as usize];
        std::iter::from_fn(move || {
            let size = (code & 3) as u8;
            code >>= 2;
            (size != 0).then_some(size)
        })
    }

    const fn build() -> GroupSizes {
        // Two bits a group, the first group lowest; a 4x4 Realm holds at most 8 groups.
        let mut t = [0u16; MASKS];
        let mut m = 1usize;
        while m < MASKS {
            // The lowest group and the rest: the rest is a smaller mask, already known.
            let low = m & m.wrapping_neg();
            let group = flood(low as u16, m as u16) as usize;
            let size = if group.count_ones() >= 3 { 3 } else { group.count_ones() as u16 };
            t[m] = size | t[m & !group] << 2;
            m += 1;
        }
        GroupSizes(t)
    }
}

impl GroupTable {
    /// Whether `m` holds a connected group whose size is in the table's range.
    #[inline]
    pub fn has(&self, m: u16) -> bool {
        self.has[m as usize >> 6] >> (m & 63) & 1 != 0
    }

    /// The cells `c` of `m` such that `m` without `c` holds such a group.
    #[inline]
    pub fn keeping(&self, m: u16) -> u16 {
        self.keeping[m as usize]
    }

    /// Whether `m` holds such a group or some cell's removal leaves one:
    /// `has(m) || keeping(m) != 0` in one look-up.
    #[inline]
    pub fn reachable(&self, m: u16) -> bool {
        self.reachable[m as usize >> 6] >> (m & 63) & 1 != 0
    }

    const fn build(min: u32, max: u32) -> GroupTable {
        let mut has = [0u64; MASKS / 64];
        // A mask's lowest group and the rest: the rest is a smaller mask, already known.
        let mut m = 1usize;
        while m < MASKS {
            let low = m & m.wrapping_neg();
            let group = flood(low as u16, m as u16) as usize;
            let size = group.count_ones();
            let rest = m & !group;
            if (size >= min && size <= max) || has[rest >> 6] >> (rest & 63) & 1 != 0 {
                has[m >> 6] |= 1 << (m & 63);
            }
            m += 1;
        }
        let mut keeping = [0u16; MASKS];
        let mut reachable = [0u64; MASKS / 64];
        let mut m = 1usize;
        while m < MASKS {
            let mut left = m;
            while left != 0 {
                let c = left.trailing_zeros();
                left &= left - 1;
                let without = m & !(1 << c);
                if has[without >> 6] >> (without & 63) & 1 != 0 {
                    keeping[m] |= 1 << c;
                }
            }
            if keeping[m] != 0 || has[m >> 6] >> (m & 63) & 1 != 0 {
                reachable[m >> 6] |= 1 << (m & 63);
            }
            m += 1;
        }
        GroupTable { has, keeping, reachable }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::realm::{flood, groups_of};

    /// The sizes of the groups of `m` (3 for three and more), one flood fill each, lowest first.
    fn flood_sizes(m: u16) -> Vec<u8> {
        let (mut left, mut sizes) = (m, Vec::new());
        while left != 0 {
            let g = flood(left & left.wrapping_neg(), left);
            left &= !g;
            sizes.push(g.count_ones().min(3) as u8);
        }
        sizes
    }

    /// Every mask: the sizes, and their order, are the flood fill's.
    #[test]
    fn group_sizes_follow_the_flood_fill() {
        for m in 0..=u16::MAX {
            assert!(GROUP_SIZES.of(m).eq(flood_sizes(m)), "{m:016b}");
        }
    }

    #[test]
    fn tables_follow_the_flood_fill() {
        // Every mask would take seconds in a debug build; a stride covers all shapes of rows and columns.
        for m in (0..=u16::MAX).step_by(7) {
            for (table, sizes) in [(&SETS, 4..=16), (&THREES, 3..=3)] {
                assert_eq!(table.has(m), groups_of(m, sizes.clone()) != 0, "{m:016b}");
                let keeping = (0..16).filter(|c| m >> c & 1 != 0 && groups_of(m & !(1 << c), sizes.clone()) != 0).fold(0, |k, c| k | 1 << c);
                assert_eq!(table.keeping(m), keeping, "{m:016b}");
                assert_eq!(table.reachable(m), table.has(m) || keeping != 0, "{m:016b}");
            }
        }
    }
}
