//! The Dragon Castle: stacks of face-up tiles on a grid (R-CASTLE-1, R-AVAIL-1..3).
//!
//! Stacks live in one flat array in dealing order (stacks row-major, each bottom
//! to top), so a stack is a slice `tiles[start .. start + height]` and taking the
//! top tile is `height -= 1`. Nothing moves and nothing allocates.

use crate::layout::{Layout, MAX_COLS, MAX_ROWS, SPACES};
use crate::tile::Tile;

/// Tallest stack a layout can describe (one digit).
pub const MAX_FLOOR: usize = 9;
const NO_TILE: u8 = u8::MAX;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Castle {
    height: [u8; SPACES],
    start: [u8; SPACES],
    tiles: [Tile; Tile::TOTAL],
    /// Index of each stack's top tile, `NO_TILE` when empty: derived from the
    /// stacks, kept because legal-move generation reads tops in its inner loop
    /// (callgrind: the lookup through `start` and `height` was the hot spot).
    top: [u8; SPACES],
    /// `on_floor[f]`: stacks of height >= f, i.e. tiles on floor `f` (index 0 unused).
    /// Kept so that the top floor is found without scanning the grid.
    on_floor: [u8; MAX_FLOOR + 1],
    rows: u8,
    cols: u8,
    remaining: u8,
}

impl Castle {
    /// Deal `deal` (116 tiles, dealing order) into `layout`. The layout is valid
    /// by construction ([`Layout::parse`] checks the 116 tiles).
    pub fn new(layout: &Layout, deal: &[Tile; Tile::TOTAL]) -> Castle {
        let mut c = Castle {
            height: *layout.heights(),
            start: [0; SPACES],
            tiles: *deal,
            top: [NO_TILE; SPACES],
            on_floor: [0; MAX_FLOOR + 1],
            rows: layout.rows() as u8,
            cols: layout.cols() as u8,
            remaining: Tile::TOTAL as u8,
        };
        let mut next = 0u8;
        for s in 0..SPACES {
            c.start[s] = next;
            next += c.height[s];
        }
        c.on_floor = c.count_floors();
        c.refresh_tops();
        c
    }

    fn computed_top(&self, space: usize) -> u8 {
        match self.height[space] {
            0 => NO_TILE,
            h => self.tiles[(self.start[space] + h - 1) as usize].index(),
        }
    }

    /// Recompute the cached top tiles (after the covered tiles were re-dealt).
    pub(crate) fn refresh_tops(&mut self) {
        for s in 0..SPACES {
            self.top[s] = self.computed_top(s);
        }
    }

    fn count_floors(&self) -> [u8; MAX_FLOOR + 1] {
        let mut on = [0u8; MAX_FLOOR + 1];
        for &h in self.height.iter() {
            for count in on.iter_mut().take(h as usize + 1).skip(1) {
                *count += 1;
            }
        }
        on
    }

    pub fn rows(&self) -> usize {
        self.rows as usize
    }
    pub fn cols(&self) -> usize {
        self.cols as usize
    }
    /// Tiles still in the castle.
    pub fn remaining(&self) -> usize {
        self.remaining as usize
    }
    pub fn is_empty(&self) -> bool {
        self.remaining == 0
    }

    #[inline]
    pub fn height(&self, space: usize) -> u8 {
        self.height[space]
    }

    #[inline]
    pub fn top(&self, space: usize) -> Option<Tile> {
        Tile::from_index(self.top[space])
    }

    /// Whether the top tile of `space` is `t` (the inner test of pair completion).
    #[inline]
    pub fn top_is(&self, space: usize, t: Tile) -> bool {
        self.top[space] == t.index()
    }


    /// Height of `space` at the deal (the layout), derived from the stack offsets.
    pub fn original_height(&self, space: usize) -> u8 {
        let end = if space + 1 < SPACES { self.start[space + 1] } else { Tile::TOTAL as u8 };
        end - self.start[space]
    }

    /// R-AVAIL-2: the greatest stack height (0 when the castle is empty).
    #[inline]
    pub fn top_floor(&self) -> u8 {
        let mut f = MAX_FLOOR;
        while f > 0 && self.on_floor[f] == 0 {
            f -= 1;
        }
        f as u8
    }

    #[inline]
    fn west_east(&self, space: usize) -> (u8, u8) {
        let col = space % MAX_COLS;
        let w = if col > 0 { self.height[space - 1] } else { 0 };
        let e = if col + 1 < MAX_COLS { self.height[space + 1] } else { 0 };
        (w, e)
    }

    /// R-AVAIL-1: a top tile is Available iff a long side (west or east) is free.
    #[inline]
    pub fn is_available(&self, space: usize) -> bool {
        let h = self.height[space];
        let (w, e) = self.west_east(space);
        h > 0 && (w < h || e < h)
    }


    /// R-AVAIL-3: a short side (north or south) is free, i.e. that neighbour
    /// stack is lower (Spirit of Elegance).
    #[inline]
    pub fn has_free_short_side(&self, space: usize) -> bool {
        let h = self.height[space];
        let row = space / MAX_COLS;
        let n = if row > 0 { self.height[space - MAX_COLS] } else { 0 };
        let s = if row + 1 < MAX_ROWS { self.height[space + MAX_COLS] } else { 0 };
        h > 0 && (n < h || s < h)
    }

    /// Spaces of the grid that can hold stacks, row-major: the loops of the rules
    /// only walk this rectangle.
    #[inline]
    pub fn for_each_space(&self, mut f: impl FnMut(usize)) {
        for r in 0..self.rows as usize {
            for s in r * MAX_COLS..r * MAX_COLS + self.cols as usize {
                f(s);
            }
        }
    }

    #[inline]
    pub fn spaces(&self) -> impl Iterator<Item = usize> + '_ {
        let cols = self.cols as usize;
        (0..self.rows as usize).flat_map(move |r| (r * MAX_COLS)..(r * MAX_COLS + cols))
    }

    /// Take the top tile of `space`. The caller has checked it is there.
    #[inline]
    pub fn remove_top(&mut self, space: usize) -> Tile {
        let h = self.height[space];
        debug_assert!(h > 0);
        let t = self.tiles[(self.start[space] + h - 1) as usize];
        self.on_floor[h as usize] -= 1;
        self.height[space] = h - 1;
        self.remaining -= 1;
        self.top[space] = self.computed_top(space);
        t
    }

    /// Positions of the covered tiles (below a top tile), in dealing order, as
    /// indices into the deal. These are the tiles nobody has seen.
    pub fn hidden_slots(&self) -> impl Iterator<Item = usize> + '_ {
        (0..SPACES).flat_map(move |s| {
            let h = self.height[s];
            let base = self.start[s] as usize;
            base..base + h.saturating_sub(1) as usize
        })
    }

    pub fn hidden_count(&self) -> usize {
        self.hidden_slots().count()
    }

    pub(crate) fn slot(&self, index: usize) -> Tile {
        self.tiles[index]
    }
    pub(crate) fn set_slot(&mut self, index: usize, t: Tile) {
        self.tiles[index] = t;
    }

    /// Recompute the floor counts and the tile count from the heights.
    pub fn validate(&self) -> Result<(), String> {
        if self.on_floor != self.count_floors() {
            return Err(format!("floor counts {:?} != recomputed {:?}", self.on_floor, self.count_floors()));
        }
        if (0..SPACES).any(|s| self.top[s] != self.computed_top(s)) {
            return Err("cached top tiles disagree with the stacks".into());
        }
        let n: usize = self.height.iter().map(|&h| h as usize).sum();
        if n != self.remaining as usize {
            return Err(format!("remaining {} != sum of heights {n}", self.remaining));
        }
        for s in 0..SPACES {
            if self.height[s] > 0 && (s / MAX_COLS >= self.rows() || s % MAX_COLS >= self.cols()) {
                return Err(format!("stack outside the grid at space {s}"));
            }
        }
        Ok(())
    }
}
