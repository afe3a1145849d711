//! The picks the Spirits allow: Elegance's free short side, Deep's tile of
//! the first's type, Deception's tile that touched the first.

use crate::state::State;
use crate::coords::Space;

impl State {
    /// A tile a pick may take: Available, or with Elegance a free short side.
    #[inline]
    pub(crate) fn pickable(&self, s: usize) -> bool {
        self.castle.is_available(s) || (self.turn_cards.elegance && self.castle.has_free_short_side(s))
    }

    /// A pick only Elegance allows: not Available, a free short side.
    #[inline]
    pub(crate) fn elegance_only(&self, s: usize) -> bool {
        !self.castle.is_available(s) && self.castle.has_free_short_side(s)
    }

    /// Whether an Elegance first pick exists: a top-floor tile only Elegance allows.
    pub(super) fn has_elegance_first_pick(&self) -> bool {
        !self.castle.elegance_first_picks().is_empty()
    }

    /// Whether an Elegance second pick exists: a tile identical to the first
    /// that only Elegance allows.
    pub(super) fn has_elegance_second_pick(&self) -> bool {
        let mut any = false;
        self.castle.tops_of(self.held[0], |s| any |= self.elegance_only(s));
        any
    }

    /// Deep's second picks: the pickable top tiles of the first's type.
    #[inline]
    pub(crate) fn deep_picks(&self) -> impl Iterator<Item = usize> + '_ {
        self.castle.tops_of_type(self.held[0].tile_type()).filter(|&s| self.pickable(s))
    }

    /// Deception's candidates in id order: the north, west, own (the revealed
    /// tile), east and south space of the first pick.
    #[inline(always)]
    pub(crate) fn deception_candidates(&self) -> [Option<usize>; 5] {
        let s0 = self.turn_cards.first_space as usize;
        let f = self.turn_cards.first_floor;
        let (row, col) = Space::at(s0).row_col();
        let h = |s: usize| self.castle.height(s);
        let touching = |s: usize| if h(s) == f { Some(s) } else { None };
        [
            if row > 0 { touching(s0 - Space::COLS) } else { None },
            if col > 0 { touching(s0 - 1) } else { None },
            // The tile directly under the first (not one Destruction uncovered since).
            if f >= 2 && h(s0) == f - 1 { Some(s0) } else { None },
            if col + 1 < Space::COLS { touching(s0 + 1) } else { None },
            if row + 1 < Space::ROWS { touching(s0 + Space::COLS) } else { None },
        ]
    }
}
