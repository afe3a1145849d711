//! The two grids' numbering, in one place: a castle [`Space`] is
//! `row * 12 + col` whatever the layout's size (R-LAYOUT-1), so action ids
//! and observation planes do not depend on it; a Realm [`Cell`] is
//! `row * 4 + col` (R-REALM-1). Everything else keeps plain indices and bit
//! masks for speed and converts here.
//!
//! ```
//! use _core::{Cell, Space};
//! let s = Space::new(2, 5).unwrap();
//! assert_eq!((s.index(), s.row(), s.col()), (29, 2, 5));
//! assert_eq!(Space::new(12, 0), None);
//! assert_eq!(Cell::at(6).row_col(), (1, 2));
//! assert_eq!(Cell::at(6).space(), Space::new(1, 2).unwrap());
//! ```

use crate::layout::{MAX_COLS, MAX_ROWS};
use crate::realm::SIDE;

macro_rules! square {
    ($(#[$doc:meta])* $name:ident, $rows:expr, $cols:expr) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub struct $name(u8);

        impl $name {
            /// Rows of the grid.
            pub const ROWS: usize = $rows;
            /// Columns of the grid.
            pub const COLS: usize = $cols;

            /// The square at `row`, `col`; `None` outside the grid.
            pub const fn new(row: usize, col: usize) -> Option<Self> {
                if row < Self::ROWS && col < Self::COLS {
                    Some(Self((row * Self::COLS + col) as u8))
                } else {
                    None
                }
            }
            /// The square at `row`, `col`, which the caller's own bounds guarantee are in the grid.
            #[inline]
            pub const fn of(row: usize, col: usize) -> Self {
                debug_assert!(row < Self::ROWS && col < Self::COLS);
                Self((row * Self::COLS + col) as u8)
            }
            /// The square numbered `index`, which the caller's own tables guarantee is in the grid.
            #[inline]
            pub const fn at(index: usize) -> Self {
                debug_assert!(index < Self::ROWS * Self::COLS);
                Self(index as u8)
            }
            /// The square's number.
            #[inline]
            pub const fn index(self) -> usize {
                self.0 as usize
            }
            /// Its row.
            #[inline]
            pub const fn row(self) -> usize {
                self.0 as usize / Self::COLS
            }
            /// Its column.
            #[inline]
            pub const fn col(self) -> usize {
                self.0 as usize % Self::COLS
            }
            /// `(row, col)`.
            #[inline]
            pub const fn row_col(self) -> (usize, usize) {
                (self.row(), self.col())
            }
            /// The `(row, col)` that number `index` stands for, checked by
            /// nobody: what an action's text shows even for a payload off
            /// the grid, which legality then refuses.
            #[inline]
            pub const fn row_col_of(index: usize) -> (usize, usize) {
                (index / Self::COLS, index % Self::COLS)
            }
            /// Every square in number order (row-major).
            pub fn all() -> impl Iterator<Item = Self> {
                (0..Self::ROWS * Self::COLS).map(Self::at)
            }
        }
    };
}

square!(
    /// A castle space: `row * 12 + col` on the 12 × 12 grid of every layout (R-LAYOUT-1).
    Space,
    MAX_ROWS,
    MAX_COLS
);

square!(
    /// A Realm cell: `row * 4 + col` on the 4 × 4 Realm (R-REALM-1).
    Cell,
    SIDE,
    SIDE
);

impl Cell {
    /// The castle space at the same row and column: where the observation's
    /// planes draw a Realm.
    #[inline]
    pub const fn space(self) -> Space {
        Space::at(self.row() * MAX_COLS + self.col())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbering_round_trips_and_stays_on_the_grid() {
        for s in Space::all() {
            assert_eq!(Space::new(s.row(), s.col()), Some(s));
        }
        assert_eq!(Space::all().count(), 144);
        assert_eq!(Cell::all().count(), 16);
        assert_eq!((Cell::new(4, 0), Cell::new(3, 3).map(Cell::index)), (None, Some(15)));
        assert_eq!(Cell::new(3, 1).unwrap().space(), Space::new(3, 1).unwrap());
    }
}
