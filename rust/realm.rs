//! A player's Realm: a 4 × 4 grid of stacks as bitboards (R-REALM-1, R-REALM-2).
//!
//! Bit `row * 4 + col` stands for a cell. Only the top tile of a stack matters to
//! the rules: face-down tiles never turn face up again and their symbols never
//! count, so a cell is its height, its top tile if face up, and a Shrine flag.
//!
//! What the Spirits do to a Realm is in `spirits`, its text form in `text`.

mod spirits;
mod text;

use crate::grid::count16;
use crate::tile::{Tile, TileType};

/// Side of a Realm: 4 × 4 cells (R-REALM-1).
pub const SIDE: usize = 4;
/// Cells of a Realm, numbered `row * 4 + col` (bit `cell` of the Realm masks).
pub const CELLS: usize = SIDE * SIDE;
/// Mask of every Realm cell.
pub const ALL: u16 = 0xFFFF;
const COL0: u16 = 0x1111;
const COL3: u16 = 0x8888;

/// R-ADJ-1: cells sharing an edge with any cell of `m`.
#[inline]
pub const fn neighbours(m: u16) -> u16 {
    ((m << 1) & !COL0) | ((m >> 1) & !COL3) | (m << 4) | (m >> 4)
}

/// The connected component of `within` that contains the lowest bit of `seed`.
#[inline]
pub const fn flood(seed: u16, within: u16) -> u16 {
    let mut grown = seed & within;
    loop {
        let next = (grown | neighbours(grown)) & within;
        if next == grown {
            return grown;
        }
        grown = next;
    }
}

/// The cells of `from` that have a cell of `to` other than themselves to go to.
#[inline]
pub fn with_another(from: u16, to: u16) -> u16 {
    match to.count_ones() {
        0 => 0,
        1 => from & !to,
        _ => from,
    }
}

/// The lowest cell of each connected group of `of` whose size is in `sizes`.
pub fn groups_of(of: u16, sizes: std::ops::RangeInclusive<u32>) -> u16 {
    let mut out = 0u16;
    let mut left = of;
    while left != 0 {
        let low = left & left.wrapping_neg();
        let g = flood(low, left);
        left &= !g;
        if sizes.contains(&g.count_ones()) {
            out |= low;
        }
    }
    out
}

/// R-CONS-2: VP for consolidating a set of `n` tiles (n >= 4).
pub const fn set_vp(n: u32) -> u32 {
    match n {
        0..=3 => 0,
        4 => 2,
        5 => 3,
        6 => 5,
        7 => 6,
        _ => n, // 8 -> 8, and each tile beyond 8 adds 1
    }
}

/// R-SHRINE-2: a Shrine on a stack of height h is worth min(h, 3).
pub const fn shrine_value(height: u8) -> u32 {
    if height >= 3 {
        3
    } else {
        height as u32
    }
}

/// A set Consolidated this turn, with the Shrines it still allows (R-SHRINE-1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct ConsolidatedSet {
    /// The set's tiles, as a mask of Realm cells.
    pub cells: u16,
    /// The type the set counts as ([`TileType`] index): its tiles' type, the type Change gave,
    /// or Dragon for Beauty ("as if they were Dragons").
    pub tile_type: u8,
    /// Shrines still allowed on its tiles: 1 for a Faction set, 2 for a Special one, all ended
    /// when the Shrine step is left (R-SHRINE-1).
    pub allowance: u8,
}

/// A player's Realm (R-REALM-1): per cell the stack height, the top tile if it is face up, and
/// whether a Shrine stands on it. A face-down tile's symbol is not kept: it never counts again.
///
/// ```
/// use _core::Realm;
/// use _core::{Tile, TileType};
///
/// // `3Me2`: height 3, a face-up Me2 on top; `2#`: height 2, face down; `2S`: the same with a
/// // Shrine; `.`: empty.
/// let realm = Realm::parse(
///     "3Me2 2#  .  .
///      1So4 2S  .  .
///      .    .   .  .
///      .    .   .  1Dr1",
/// )
/// .unwrap();
/// assert_eq!(realm.height(0), 3);
/// assert_eq!(realm.face_up_tile(0), Some(Tile::parse("Me2").unwrap()));
/// assert_eq!(realm.face_up_tile(1), None); // face down: its symbol is gone
/// assert!(realm.has_shrine(5)); // cell = row * 4 + col
/// assert_eq!(realm.tiles(), 9);
/// assert_eq!(realm.shrine_points(), 2); // a Shrine on a stack of 2 (R-SHRINE-2)
/// assert_eq!(realm.of_type(TileType::Dragon), 1 << 15);
/// assert_eq!(Realm::parse(&realm.to_text()).unwrap(), realm);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Realm {
    height: [u8; CELLS],
    /// Top tile of each cell; meaningful only where `face_up` is set.
    top: [Tile; CELLS],
    face_up: u16,
    shrine: u16,
    /// Face-up cells by tile type: derived from `top` and `face_up`, kept for the
    /// flood fill.
    by_type: [u16; TileType::COUNT],
}

impl Default for Realm {
    fn default() -> Self {
        Realm {
            height: [0; CELLS],
            top: [Tile::from_index_unchecked(0); CELLS],
            face_up: 0,
            shrine: 0,
            by_type: [0; TileType::COUNT],
        }
    }
}

impl Realm {
    /// Stack height of `cell` in tiles (a Shrine does not count).
    #[inline]
    pub fn height(&self, cell: usize) -> u8 {
        self.height[cell]
    }
    /// `(tile, face_up)`: a face-down top tile is reported without its symbol.
    pub fn top(&self, cell: usize) -> Option<(Option<Tile>, bool)> {
        if self.height[cell] == 0 {
            None
        } else if self.face_up & (1 << cell) != 0 {
            Some((Some(self.top[cell]), true))
        } else {
            Some((None, false))
        }
    }
    /// The top tile of `cell` if it is face up; `None` for an empty cell or a face-down top.
    pub fn face_up_tile(&self, cell: usize) -> Option<Tile> {
        if self.face_up & (1 << cell) != 0 {
            Some(self.top[cell])
        } else {
            None
        }
    }
    /// Cells whose top tile is face up, as a mask.
    pub fn face_up(&self) -> u16 {
        self.face_up
    }
    /// Cells with a Shrine, as a mask.
    pub fn shrines(&self) -> u16 {
        self.shrine
    }
    /// Whether a Shrine stands on `cell`.
    pub fn has_shrine(&self, cell: usize) -> bool {
        self.shrine & (1 << cell) != 0
    }
    /// Cells with a stack, as a mask.
    #[inline]
    pub fn occupied(&self) -> u16 {
        self.cells_at_least(1)
    }
    /// Cells whose face-up top tile is of type `t`, as a mask.
    pub fn of_type(&self, t: TileType) -> u16 {
        self.by_type[t.index()]
    }
    /// Tiles in the Realm, every floor of every stack.
    pub fn tiles(&self) -> u32 {
        self.height.iter().map(|&h| h as u32).sum()
    }

    /// R-PLACE-1: empty cells and face-down tops without a Shrine.
    #[inline]
    pub fn placeable(&self) -> u16 {
        !(self.face_up | self.shrine)
    }

    /// Put `t` face up on `cell`, which must be placeable (R-PLACE-1); Consolidation is separate.
    #[inline]
    pub fn place(&mut self, cell: usize, t: Tile) {
        debug_assert!(self.placeable() & (1 << cell) != 0);
        self.height[cell] += 1;
        self.top[cell] = t;
        self.face_up |= 1 << cell;
        self.by_type[t.tile_type().index()] |= 1 << cell;
    }

    /// R-CONS-1, R-CONS-4: flip every group of >= 4 orthogonally adjacent face-up
    /// tiles of one type. Writes the sets into `out` and returns how many; their VP
    /// (R-CONS-2, R-CONS-3) is the second value.
    pub fn consolidate(&mut self, dragon_bonus: bool, out: &mut [ConsolidatedSet]) -> (usize, u32) {
        self.consolidate_around(ALL, dragon_bonus, out)
    }

    /// [`Realm::consolidate`] of the groups that contain a cell of `seeds`:
    /// the same sets in the same order (by type, then by lowest cell) when
    /// every other group is smaller than 4.
    pub fn consolidate_around(&mut self, seeds: u16, dragon_bonus: bool, out: &mut [ConsolidatedSet]) -> (usize, u32) {
        let mut n = 0;
        let mut vp = 0;
        for t in TileType::ALL {
            let all = self.by_type[t.index()];
            let mut left = all & seeds;
            if left == 0 || count16(all) < 4 {
                continue;
            }
            let first = n;
            while left != 0 {
                let group = flood(left & left.wrapping_neg(), all);
                left &= !group;
                let size = group.count_ones();
                if size < 4 {
                    continue;
                }
                vp += set_vp(size) + u32::from(dragon_bonus && t == TileType::Dragon);
                assert!(n < out.len(), "more sets in one Consolidation than the proven bound");
                out[n] = ConsolidatedSet { cells: group, tile_type: t as u8, allowance: if t.is_faction() { 1 } else { 2 } };
                n += 1;
            }
            // Seeds in cell order can reach a group in another order than
            // its lowest cell; the sets of a type are listed by lowest cell.
            out[first..n].sort_unstable_by_key(|s| s.cells.trailing_zeros());
            for set in &out[first..n] {
                // Face-down symbols never count again; forget them so equal
                // positions compare equal however they were reached.
                self.turn_down(set.cells);
            }
        }
        (n, vp)
    }

    /// Turn the face-up tiles of `cells` face down (a Consolidation, or Wind's
    /// flip); their symbols are forgotten like every face-down symbol.
    pub fn turn_down(&mut self, cells: u16) {
        debug_assert!(cells & !self.face_up == 0);
        self.face_up &= !cells;
        for t in self.by_type.iter_mut() {
            *t &= !cells;
        }
        let mut g = cells;
        while g != 0 {
            self.top[g.trailing_zeros() as usize] = Tile::from_index_unchecked(0);
            g &= g - 1;
        }
    }

    /// Cells whose top is face down (with or without a Shrine).
    pub fn face_down(&self) -> u16 {
        self.occupied() & !self.face_up
    }

    /// The top tiles, packed into two words for a memo key (`state/memo.rs`):
    /// with [`Realm::face_up`] they are every face-up tile, since a face-down
    /// top's symbol is forgotten (it reads as tile 0).
    #[inline]
    pub(crate) fn tops_words(&self) -> [u64; 2] {
        let tops: [u8; CELLS] = std::array::from_fn(|i| self.top[i].index() as u8);
        [u64::from_le_bytes(std::array::from_fn(|i| tops[i])), u64::from_le_bytes(std::array::from_fn(|i| tops[8 + i]))]
    }

    /// The stacks' heights, packed into two words for a memo key.
    #[inline]
    pub(crate) fn heights_words(&self) -> [u64; 2] {
        let h = &self.height;
        [u64::from_le_bytes(std::array::from_fn(|i| h[i])), u64::from_le_bytes(std::array::from_fn(|i| h[8 + i]))]
    }

    /// Face-up Faction tiles by number (index 1..=6; 0 unused), in one pass
    /// (Spirit of Beauty).
    pub fn by_number(&self) -> [u16; 7] {
        let mut m = [0u16; 7];
        let mut up = self.faction_up();
        while up != 0 {
            let c = up.trailing_zeros() as usize;
            m[self.faction_number(c) as usize] |= 1 << c;
            up &= up - 1;
        }
        m
    }

    /// Face-up tiles by type ([`TileType`] index).
    #[inline]
    pub fn by_type(&self) -> [u16; TileType::COUNT] {
        self.by_type
    }

    /// The number (1–6) of the face-up Faction tile on `cell`, read without
    /// a check that it is one (the Faction symbols come first, 6 each).
    #[inline]
    pub fn faction_number(&self, cell: usize) -> u8 {
        debug_assert!(self.faction_up() & (1 << cell) != 0);
        self.top[cell].index() % 6 + 1
    }

    /// Cells whose stack has at least `k` tiles (`1 <= k <= 127`), eight
    /// heights at a time: a byte `b < 128` is at least `k` iff
    /// `b + 128 - k` has its high bit set.
    #[inline]
    pub fn cells_at_least(&self, k: u8) -> u16 {
        const ONES: u64 = 0x0101_0101_0101_0101;
        const HIGH: u64 = 0x8080_8080_8080_8080;
        let add = u64::from(128 - k) * ONES;
        let mut out = 0u16;
        for (i, half) in self.height.chunks_exact(8).enumerate() {
            let x = u64::from_le_bytes([half[0], half[1], half[2], half[3], half[4], half[5], half[6], half[7]]);
            // Heights never reach 128 (116 tiles): no byte carries into the next.
            let m = ((x & !HIGH) + add) & HIGH;
            let bits = ((m >> 7).wrapping_mul(0x0102_0408_1020_4080) >> 56) as u16;
            out |= bits << (8 * i);
        }
        out
    }

    /// Face-up Faction tiles.
    #[inline]
    pub fn faction_up(&self) -> u16 {
        self.by_type[0] | self.by_type[1] | self.by_type[2]
    }

    /// Face-up Special tiles (Season, Wind, Dragon).
    #[inline]
    pub fn special_up(&self) -> u16 {
        self.by_type[3] | self.by_type[4] | self.by_type[5]
    }

    /// Face-down tops without a Shrine: where a Shrine may be built or moved.
    #[inline]
    pub fn shrine_spots(&self) -> u16 {
        self.face_down() & !self.shrine
    }
    /// Build a Shrine on `cell` (the caller checks R-SHRINE-1: a face-down top without a Shrine).
    #[inline]
    pub fn build_shrine(&mut self, cell: usize) {
        self.shrine |= 1 << cell;
    }

    /// Shrines built in the Realm (R-END-3's second tie break).
    pub fn shrine_count(&self) -> u32 {
        self.shrine.count_ones()
    }

    /// R-SHRINE-2 summed over the Realm.
    pub fn shrine_points(&self) -> u32 {
        let mut s = self.shrine;
        let mut total = 0;
        while s != 0 {
            let c = s.trailing_zeros() as usize;
            total += shrine_value(self.height[c]);
            s &= s - 1;
        }
        total
    }

    /// R-END-3 first tie break: stacks whose top tile is face down.
    pub fn face_down_stacks(&self) -> u32 {
        (self.occupied() & !self.face_up).count_ones()
    }

    /// `settled`: no tile placement is under way, so no set of 4 may be left face up.
    pub fn check_invariants(&self, settled: bool) -> Result<(), String> {
        let occ = self.occupied();
        if self.face_up & !occ != 0 {
            return Err("face-up flag on an empty cell".into());
        }
        if self.shrine & !occ != 0 || self.shrine & self.face_up != 0 {
            return Err("Shrine on an empty cell or on a face-up tile".into());
        }
        let mut by_type = [0u16; TileType::COUNT];
        for c in 0..CELLS {
            if self.face_up & (1 << c) == 0 && self.top[c].index() != 0 {
                return Err(format!("cell {c} remembers the symbol of a face-down tile"));
            }
            if self.face_up & (1 << c) != 0 {
                by_type[self.top[c].tile_type().index()] |= 1 << c;
            }
        }
        if by_type != self.by_type {
            return Err(format!("type bitboards {:?} != recomputed {by_type:?}", self.by_type));
        }
        for t in TileType::ALL {
            if !settled {
                break;
            }
            let mut left = by_type[t.index()];
            while left != 0 {
                let g = flood(left & left.wrapping_neg(), left);
                left &= !g;
                if g.count_ones() >= 4 {
                    return Err(format!("an unconsolidated set of {} {:?} tiles", g.count_ones(), t));
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests;
