//! The Dragon Castle: stacks of face-up tiles on a grid (R-CASTLE-1, R-AVAIL-1..3).
//!
//! Stacks live in one flat array in dealing order (stacks row-major, each bottom
//! to top), so a stack is a slice `tiles[start .. start + height]` and taking the
//! top tile is `height -= 1`. Nothing moves and nothing allocates.
//!
//! Two derived structures serve legal-move generation, which is most of a
//! random game's work (`docs/design.md`): the top floor as a [`Grid`], so its
//! Available tiles are a few shifts, and each symbol's four slots in the deal,
//! so the copies identical to a first pick are four look-ups, not a grid scan.
//! [`Castle::check_invariants`] recomputes both.

use crate::grid::Grid;
use crate::layout::{Layout, MAX_COLS, MAX_ROWS, SPACES};
use crate::tile::{Tile, TileType};

/// Tallest stack a layout can describe (one digit).
pub const MAX_FLOOR: usize = 9;

/// Masks by space: all ones where the space has a west (east) neighbour in
/// the grid, so that a neighbour's height is read without a branch or a
/// division by 12.
static HAS_WEST: [u8; SPACES] = edge_masks(false);
static HAS_EAST: [u8; SPACES] = edge_masks(true);

const fn edge_masks(east: bool) -> [u8; SPACES] {
    let mut m = [0u8; SPACES];
    let mut s = 0;
    while s < SPACES {
        let col = s % MAX_COLS;
        if (east && col + 1 < MAX_COLS) || (!east && col > 0) {
            m[s] = 0xFF;
        }
        s += 1;
    }
    m
}

/// The castle in play: the dealt stacks, whose tiles are taken from the top (R-CASTLE-1). Every
/// tile under a top tile is covered: the only hidden information of the base game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Castle {
    height: [u8; SPACES],
    start: [u8; SPACES],
    tiles: [Tile; Tile::TOTAL],
    /// Space of each slot of `tiles`: fixed by the layout.
    space_of: [u8; Tile::TOTAL],
    /// The four slots of each symbol, ascending: since slots are in space
    /// order, so are the spaces they name. Fixed by the deal (and re-derived
    /// when covered tiles are re-dealt).
    copies: [[u8; Tile::COPIES]; Tile::SYMBOLS],
    /// Spaces whose stack is as high as the highest (R-AVAIL-2).
    top_spaces: Grid,
    top_floor: u8,
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
            start: *layout.starts(),
            tiles: *deal,
            space_of: *layout.space_of_slots(),
            copies: [[0; Tile::COPIES]; Tile::SYMBOLS],
            top_spaces: Grid::EMPTY,
            top_floor: 0,
            rows: layout.rows() as u8,
            cols: layout.cols() as u8,
            remaining: Tile::TOTAL as u8,
        };
        c.copies = c.computed_copies();
        (c.top_floor, c.top_spaces) = layout.top();
        c
    }

    fn computed_copies(&self) -> [[u8; Tile::COPIES]; Tile::SYMBOLS] {
        let mut copies = [[0u8; Tile::COPIES]; Tile::SYMBOLS];
        let mut seen = [0usize; Tile::SYMBOLS];
        for (slot, t) in self.tiles.iter().enumerate() {
            let i = t.index() as usize;
            // A deal holds each symbol exactly 4 times (checked at set-up).
            copies[i][seen[i] & 3] = slot as u8;
            seen[i] += 1;
        }
        copies
    }

    fn computed_top(&self) -> (u8, Grid) {
        let top = self.height.iter().copied().max().unwrap_or(0);
        let g = if top > 0 { Grid::where_equal(&self.height, top) } else { Grid::EMPTY };
        (top, g)
    }

    /// Re-derive what depends on which tile lies where (after covered tiles
    /// were re-dealt with [`Castle::set_slot`]).
    pub(crate) fn refresh(&mut self) {
        self.copies = self.computed_copies();
    }

    /// Rows of the layout (at most 12).
    pub fn rows(&self) -> usize {
        self.rows as usize
    }
    /// Columns of the layout (at most 12).
    pub fn cols(&self) -> usize {
        self.cols as usize
    }
    /// Tiles still in the castle.
    pub fn remaining(&self) -> usize {
        self.remaining as usize
    }
    /// Whether every tile has left the castle (Summon is then the only action, R-ACT-5).
    pub fn is_empty(&self) -> bool {
        self.remaining == 0
    }

    /// Stack height of `space` (`row * 12 + col`); 0 where no tile is left or there is no space.
    #[inline]
    pub fn height(&self, space: usize) -> u8 {
        self.height[space]
    }

    /// The visible top tile of `space`, `None` where no tile is left.
    #[inline]
    pub fn top(&self, space: usize) -> Option<Tile> {
        match self.height[space] {
            0 => None,
            h => Some(self.tiles[(self.start[space] + h - 1) as usize]),
        }
    }

    /// Whether the top tile of `space` is `t`.
    #[inline]
    pub fn top_is(&self, space: usize, t: Tile) -> bool {
        self.top(space) == Some(t)
    }

    /// The space of castle slot `slot`, and whether the slot is its stack's
    /// top tile: the stack ends right above it.
    #[inline(always)]
    fn slot_on_top(&self, slot: u8) -> (usize, bool) {
        let s = self.space_of[slot as usize] as usize;
        (s, self.start[s] + self.height[s] == slot + 1)
    }

    /// The spaces whose top tile is `t`, in space order.
    #[inline]
    pub fn tops_of(&self, t: Tile, mut f: impl FnMut(usize)) {
        for &slot in &self.copies[t.index() as usize] {
            if let (s, true) = self.slot_on_top(slot) {
                f(s);
            }
        }
    }

    /// The spaces of the top tiles of type `ty` (the copies of its symbols,
    /// which are numbered together), in slot order.
    #[inline]
    pub fn tops_of_type(&self, ty: TileType) -> impl Iterator<Item = usize> + '_ {
        let first = ty.first() as usize;
        let slots = self.copies[first..first + ty.symbols() as usize].as_flattened();
        slots.iter().filter_map(|&slot| match self.slot_on_top(slot) {
            (s, true) => Some(s),
            _ => None,
        })
    }

    /// Which of the four copies of `t` (in slot order, so in space order)
    /// are Available top tiles, as a 4-bit mask: tested without a branch,
    /// since which copies are on top is unpredictable in a random game.
    /// [`Castle::copy_space`] names the space of copy `j`.
    #[inline]
    pub fn available_copies(&self, t: Tile) -> u8 {
        let mut mask = 0u8;
        for (j, &slot) in self.copies[t.index() as usize].iter().enumerate() {
            let (s, top) = self.slot_on_top(slot);
            mask |= u8::from(top & self.is_available(s)) << j;
        }
        mask
    }

    /// The space of copy `j` (0..4) of `t`.
    #[inline]
    pub fn copy_space(&self, t: Tile, j: usize) -> u8 {
        self.space_of[self.copies[t.index() as usize][j & 3] as usize]
    }

    /// Height of `space` at the deal (the layout), derived from the stack offsets.
    pub fn original_height(&self, space: usize) -> u8 {
        self.end(space) - self.start[space]
    }

    /// The slot after the stack of `space` (where the next stack starts).
    fn end(&self, space: usize) -> u8 {
        if space + 1 < SPACES {
            self.start[space + 1]
        } else {
            Tile::TOTAL as u8
        }
    }

    /// R-AVAIL-2: the greatest stack height (0 when the castle is empty).
    #[inline]
    pub fn top_floor(&self) -> u8 {
        self.top_floor
    }

    /// The stacks on the top floor.
    #[inline]
    pub fn top_spaces(&self) -> &Grid {
        &self.top_spaces
    }

    /// R-ACT-1: the Available tiles of the top floor, by bitboard.
    #[inline]
    pub fn top_floor_available(&self) -> Grid {
        self.top_spaces.with_free_long_side()
    }

    /// R-AVAIL-1: a top tile is Available iff a long side (west or east) is
    /// free. Branch-free (masks instead of tests at the grid's edges): which
    /// tiles are Available is unpredictable in a random game.
    #[inline]
    pub fn is_available(&self, space: usize) -> bool {
        let h = self.height[space];
        let w = self.height[space.saturating_sub(1)] & HAS_WEST[space];
        let e = self.height[(space + 1).min(SPACES - 1)] & HAS_EAST[space];
        (h > 0) & ((w < h) | (e < h))
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

    /// The spaces of the layout's rectangle, row-major (spaces without a stack included).
    #[inline]
    pub fn spaces(&self) -> impl Iterator<Item = usize> + '_ {
        let cols = self.cols as usize;
        (0..self.rows as usize).flat_map(move |r| (r * MAX_COLS)..(r * MAX_COLS + cols))
    }

    /// R-AVAIL-1 for every stack at once: the Available top tiles on any
    /// floor (Destruction), floor by floor with bitboards.
    pub fn available(&self) -> Grid {
        let mut out = Grid::EMPTY;
        let mut higher = Grid::EMPTY; // stacks at least as high as the floor
        for floor in (1..=self.top_floor).rev() {
            let here = if floor == self.top_floor { self.top_spaces } else { Grid::where_equal_in_rows(&self.height, floor, self.rows()) };
            higher = higher.union(&here);
            out = out.union(&here.with_free_long_side_within(&higher));
        }
        out
    }

    /// Top-floor tiles that only Elegance may take: not Available, with a
    /// free short side (R-AVAIL-3).
    pub fn elegance_first_picks(&self) -> Grid {
        self.top_spaces.with_free_short_side().minus(&self.top_floor_available())
    }

    /// Take the top tile of `space`. The caller has checked it is there.
    #[inline]
    pub fn remove_top(&mut self, space: usize) -> Tile {
        let h = self.height[space];
        debug_assert!(h > 0);
        let t = self.tiles[(self.start[space] + h - 1) as usize];
        self.height[space] = h - 1;
        self.remaining -= 1;
        if h == self.top_floor {
            self.top_spaces.clear(space);
            if self.top_spaces.is_empty() {
                self.floor_emptied();
            }
        }
        t
    }

    /// The top floor just emptied (a few times a game, out of the hot path):
    /// the floor below is the new top, since the stack just lowered stands
    /// on it, and one scan of the layout's rows finds its spaces.
    #[cold]
    #[inline(never)]
    fn floor_emptied(&mut self) {
        self.top_floor -= 1;
        self.top_spaces =
            if self.top_floor > 0 { Grid::where_equal_in_rows(&self.height, self.top_floor, self.rows()) } else { Grid::EMPTY };
        debug_assert_eq!((self.top_floor, self.top_spaces), self.computed_top());
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

    /// How many covered tiles of each symbol there are (public knowledge).
    pub fn hidden_counts(&self) -> [u8; Tile::SYMBOLS] {
        let mut n = [0u8; Tile::SYMBOLS];
        self.for_each_space(|s| {
            let base = self.start[s] as usize;
            for t in &self.tiles[base..base + self.height[s].saturating_sub(1) as usize] {
                n[t.index() as usize] += 1;
            }
        });
        n
    }

    /// The castle's fields of the compact observation, 144 bytes each by
    /// space: in the layout, height, Available, on the top floor, top
    /// symbol + 1; `out` comes zeroed. One pass over the layout's rectangle
    /// (measured faster than whole-grid loops that vectorise).
    pub(crate) fn compact_fields(&self, out: &mut [u8]) {
        let (space, rest) = out.split_at_mut(SPACES);
        let (height, rest) = rest.split_at_mut(SPACES);
        let (available, rest) = rest.split_at_mut(SPACES);
        let (top_floor, top) = rest.split_at_mut(SPACES);
        let t = self.top_floor;
        // Stacks only stand inside the layout's rectangle (`validate`).
        self.for_each_space(|s| {
            space[s] = u8::from(self.original_height(s) != 0);
            if let Some(tile) = self.top(s) {
                let h = self.height[s];
                height[s] = h;
                available[s] = u8::from(self.is_available(s));
                top_floor[s] = u8::from(h == t);
                top[s] = tile.index() + 1;
            }
        });
    }

    /// How many tiles are covered (under a top tile): the hidden tiles (`docs/observation.md`).
    pub fn hidden_count(&self) -> usize {
        self.hidden_slots().count()
    }

    pub(crate) fn slot(&self, index: usize) -> Tile {
        self.tiles[index]
    }
    /// Put `t` in slot `index`; call [`Castle::refresh`] after the last one.
    pub(crate) fn set_slot(&mut self, index: usize, t: Tile) {
        self.tiles[index] = t;
    }

    /// Recompute every derived structure from the stacks and compare.
    pub fn check_invariants(&self) -> Result<(), String> {
        if (self.top_floor, self.top_spaces) != self.computed_top() {
            return Err(format!("top floor {} and its spaces disagree with the heights", self.top_floor));
        }
        if self.copies != self.computed_copies() {
            return Err("the slots of each symbol disagree with the deal".into());
        }
        for s in 0..SPACES {
            let end = self.end(s);
            if self.start[s] > end || self.height[s] > end - self.start[s] {
                return Err(format!("stack {s} is higher than it was dealt"));
            }
            if (self.start[s]..end).any(|slot| self.space_of[slot as usize] as usize != s) {
                return Err(format!("the slots of stack {s} do not map back to it"));
            }
        }
        let n: usize = self.height.iter().map(|&h| h as usize).sum();
        if n != self.remaining as usize {
            return Err(format!("remaining {} != sum of heights {n}", self.remaining));
        }
        for s in 0..SPACES {
            let (row, col) = crate::coords::Space::at(s).row_col();
            if self.height[s] > 0 && (row >= self.rows() || col >= self.cols()) {
                return Err(format!("stack outside the grid at space {s}"));
            }
        }
        Ok(())
    }
}
