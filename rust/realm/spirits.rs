//! What the Spirits do to a Realm and ask of it: a tile paid or lifted and
//! put down, a Shrine moved (Wind, Strength), and the groups Beauty and
//! Cunning Consolidate.

use super::{groups_of, with_another, Realm};
use crate::grid::count16;
use crate::groups::GroupTable;
use crate::tile::Tile;

impl Realm {
    /// Discard the face-up top tile of `cell` (a Spirit's price, R-SPIRIT-1):
    /// the face-down tile under it, if any, becomes the top.
    pub fn discard_top(&mut self, cell: usize) -> Tile {
        debug_assert!(self.face_up & (1 << cell) != 0);
        let t = self.top[cell];
        self.turn_down(1 << cell);
        self.height[cell] -= 1;
        t
    }

    /// Lift the top tile of `cell` (Strength): `Some(tile)` if face up, `None`
    /// if face down. The tile under it, face down, becomes the top.
    pub fn lift(&mut self, cell: usize) -> Option<Tile> {
        debug_assert!(self.height[cell] > 0 && self.shrine & (1 << cell) == 0);
        let up = self.face_up_tile(cell);
        if up.is_some() {
            self.turn_down(1 << cell);
        }
        self.height[cell] -= 1;
        up
    }

    /// Put a lifted tile on `cell` (R-PLACE-1), keeping its side.
    pub fn put(&mut self, cell: usize, tile: Option<Tile>) {
        debug_assert!(self.placeable() & (1 << cell) != 0);
        match tile {
            Some(t) => self.place(cell, t),
            None => self.height[cell] += 1,
        }
    }

    /// Wind: move a built Shrine.
    pub fn move_shrine(&mut self, from: usize, to: usize) {
        self.shrine = (self.shrine & !(1 << from)) | 1 << to;
    }

    /// Wind: built Shrines that have another face-down top without a Shrine to go to.
    pub fn movable_shrines(&self) -> u16 {
        with_another(self.shrine, self.shrine_spots())
    }

    /// Strength: stacks without a Shrine (not `last`, the tile just moved)
    /// with another placeable cell to go to.
    pub fn strength_sources(&self, last: Option<u8>) -> u16 {
        let mut from = self.occupied() & !self.shrine;
        if let Some(l) = last {
            from &= !(1 << l);
        }
        with_another(from, self.placeable())
    }

    /// Beauty: the lowest cell of each maximal group of >= 4 face-up Faction
    /// tiles with the same number.
    pub fn beauty_groups(&self) -> u16 {
        if count16(self.faction_up()) < 4 {
            return 0;
        }
        self.by_number()[1..].iter().fold(0, |m, &n| m | groups_of(n, 4..=16))
    }

    /// Cunning: the lowest cell of each maximal group of exactly 3 face-up
    /// tiles of one type.
    pub fn cunning_groups(&self) -> u16 {
        self.by_type.iter().fold(0, |m, &t| m | groups_of(t, 3..=3))
    }

    /// Types (bit per [`TileType`](crate::tile::TileType) index) with a face-up group of `table`'s sizes.
    pub fn types_with_groups(&self, table: &GroupTable) -> u8 {
        let mut out = 0u8;
        for (k, &t) in self.by_type.iter().enumerate() {
            if table.has(t) {
                out |= 1 << k;
            }
        }
        out
    }
}
