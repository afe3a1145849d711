//! Castle layouts as data (R-LAYOUT-1): a grid of stack heights, at most 12 × 12.
//!
//! Text form: one row per line, one character per space: a digit `1`–`9` is a
//! stack of that many tiles, `.` or `0` is no space. Blank leading/trailing lines
//! and trailing spaces are ignored; every row must have the same length (pad
//! with `.`), so a typo that shifts a row is an error, not a different castle.

use crate::error::Error;
use crate::grid::Grid;
use crate::tile::Tile;

/// Rows a layout may have: the castle grid is at most 12 × 12 (R-LAYOUT-1).
pub const MAX_ROWS: usize = 12;
/// Columns a layout may have; castle spaces are numbered `row * 12 + col`.
pub const MAX_COLS: usize = 12;
/// Castle spaces are numbered `row * 12 + col` whatever the layout's size, so
/// that action ids do not depend on the layout.
pub const SPACES: usize = MAX_ROWS * MAX_COLS;

/// A castle layout: the height of the stack on each space at the deal (R-LAYOUT-1). Always
/// holds exactly 116 tiles; the rulebook's size advice is only [`Layout::warnings`].
///
/// ```
/// use _core::Layout;
///
/// // The standard layout for two players, `standard-2p`.
/// let layout = Layout::for_players(2);
/// assert_eq!(layout, Layout::standard("standard-2p").unwrap());
/// assert_eq!((layout.rows(), layout.cols()), (7, 10));
/// assert_eq!(layout.total_tiles(), 116);
/// assert_eq!(layout.ground_floor(), 70); // the rulebook advises 65-80 for 2 players
/// assert!(layout.warnings(Some(2)).is_empty());
/// assert_eq!(Layout::parse(&layout.to_text()).unwrap(), layout);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Layout {
    rows: u8,
    cols: u8,
    heights: [u8; SPACES],
    /// Where each stack starts in the deal and the stack of each slot of the
    /// deal, computed once: a castle copies them at every deal.
    start: [u8; SPACES],
    space_of: [u8; Tile::TOTAL],
    /// The highest floor and its spaces, computed once: every deal starts there.
    top: (u8, Grid),
}

/// The standard layouts are our own (the printed boards are not in the rulebook),
/// honouring its advice: ground-floor counts 2p 65–80, 3p 50–70, 4p 40–55, and no
/// upper-floor row of 6 or more adjacent tiles.
pub const STANDARD_2P: &str = "\
1222112221
1232112321
1222112221
1221111221
1232112321
1222112221
1232112321
";
/// `standard-3p`, our 3-player layout: 60 ground-floor tiles (advice 50–70). Solo uses it too
/// (R-SOLO-1).
pub const STANDARD_3P: &str = "\
1223122321
2232112232
1223122321
2232112232
1223122321
2232111232
";
/// `standard-4p`, our 4-player layout: 48 ground-floor tiles (advice 40–55).
pub const STANDARD_4P: &str = "\
33313331
23313321
13331333
23313321
33313331
13331333
";

impl Layout {
    /// Parse the text form of the module docs. A layout that does not hold exactly 116 tiles, is
    /// larger than 12 × 12, has rows of unequal length or a bad character is an [`Error::Setup`]
    /// (R-LAYOUT-1).
    pub fn parse(text: &str) -> Result<Layout, Error> {
        let lines: Vec<&str> = text.lines().map(|l| l.trim_end()).collect();
        let first = lines.iter().position(|l| !l.is_empty());
        let last = lines.iter().rposition(|l| !l.is_empty());
        let (first, last) = match (first, last) {
            (Some(a), Some(b)) => (a, b),
            _ => return Err(Error::Setup("layout is empty".into())),
        };
        let rows = &lines[first..=last];
        if rows.len() > MAX_ROWS {
            return Err(Error::Setup(format!("layout has {} rows; at most {MAX_ROWS}", rows.len())));
        }
        let mut heights = [0u8; SPACES];
        let mut cols = 0usize;
        for (r, line) in rows.iter().enumerate() {
            let line = line.trim_start_matches('\u{feff}');
            if line.chars().count() > MAX_COLS {
                return Err(Error::Setup(format!(
                    "layout row {r} has {} columns; at most {MAX_COLS}",
                    line.chars().count()
                )));
            }
            for (c, ch) in line.chars().enumerate() {
                let h = match ch {
                    '.' | '0' => 0,
                    '1'..='9' => ch as u8 - b'0',
                    _ => {
                        return Err(Error::Setup(format!(
                            "layout row {r} column {c}: bad character {ch:?} (use 1-9 for a stack, '.' for no space)"
                        )))
                    }
                };
                heights[crate::coords::Space::of(r, c).index()] = h;
            }
            let len = line.chars().count();
            if r > 0 && len != cols {
                return Err(Error::Setup(format!(
                    "layout row {r} has {len} columns but row 0 has {cols}; rows must be equally long (pad with '.')"
                )));
            }
            cols = len;
        }
        let total: usize = heights.iter().map(|&h| h as usize).sum();
        if total != Tile::TOTAL {
            return Err(Error::Setup(format!("layout holds {total} tiles; it must hold exactly {}", Tile::TOTAL)));
        }
        let (mut start, mut space_of) = ([0u8; SPACES], [0u8; Tile::TOTAL]);
        let mut next = 0u8;
        for s in 0..SPACES {
            start[s] = next;
            for slot in next..next + heights[s] {
                space_of[slot as usize] = s as u8;
            }
            next += heights[s];
        }
        let top_floor = heights.iter().copied().max().unwrap_or(0);
        let top = (top_floor, if top_floor > 0 { Grid::where_equal(&heights, top_floor) } else { Grid::EMPTY });
        Ok(Layout { rows: rows.len() as u8, cols: cols as u8, heights, start, space_of, top })
    }

    /// `standard-2p`, `standard-3p`, `standard-4p`.
    pub fn standard(name: &str) -> Result<Layout, Error> {
        let text = match name {
            "standard-2p" => STANDARD_2P,
            "standard-3p" => STANDARD_3P,
            "standard-4p" => STANDARD_4P,
            _ => {
                return Err(Error::Setup(format!(
                    "unknown layout {name:?} (standard-2p, standard-3p, standard-4p, or layout text)"
                )))
            }
        };
        Layout::parse(text)
    }

    /// The default layout for a player count (solo uses the 3-player one, R-SOLO-1).
    pub fn for_players(players: usize) -> Layout {
        let name = match players {
            2 => "standard-2p",
            4 => "standard-4p",
            _ => "standard-3p",
        };
        Layout::standard(name).expect("standard layouts are valid") // checked by tests
    }

    /// Rows of the layout (1 to 12).
    pub fn rows(&self) -> usize {
        self.rows as usize
    }
    /// Columns of the layout (1 to 12).
    pub fn cols(&self) -> usize {
        self.cols as usize
    }
    /// Stack height of `(row, col)` at the deal: 0 where there is no space, or outside the grid.
    pub fn height(&self, row: usize, col: usize) -> u8 {
        crate::coords::Space::new(row, col).map_or(0, |s| self.heights[s.index()])
    }
    /// Stack heights at the deal by castle space (`row * 12 + col`), 0 for no space.
    pub fn heights(&self) -> &[u8; SPACES] {
        &self.heights
    }
    /// The highest floor at the deal and its spaces.
    pub(crate) fn top(&self) -> (u8, Grid) {
        self.top
    }
    /// First slot of each stack in a deal (stacks row-major, bottom to top).
    pub fn starts(&self) -> &[u8; SPACES] {
        &self.start
    }
    /// The stack of each slot of a deal.
    pub fn space_of_slots(&self) -> &[u8; Tile::TOTAL] {
        &self.space_of
    }
    /// Tiles the layout holds: 116 for every parsed layout.
    pub fn total_tiles(&self) -> usize {
        self.heights.iter().map(|&h| h as usize).sum()
    }
    /// Spaces with a stack: the ground-floor tiles of the rulebook's advice (R-LAYOUT-1).
    pub fn ground_floor(&self) -> usize {
        self.heights.iter().filter(|&&h| h > 0).count()
    }

    /// Soft advice (R-LAYOUT-1): warnings, never errors.
    pub fn warnings(&self, players: Option<usize>) -> Vec<String> {
        let mut out = Vec::new();
        let ground = self.ground_floor();
        let advice = match players {
            Some(2) => Some((65, 80)),
            Some(3) | Some(1) => Some((50, 70)),
            Some(4) => Some((40, 55)),
            _ => None,
        };
        if let (Some((lo, hi)), Some(p)) = (advice, players) {
            if ground < lo || ground > hi {
                out.push(format!(
                    "{ground} ground-floor tiles; the rulebook advises {lo}-{hi} for {p} player(s)"
                ));
            }
        }
        for floor in 2..=9u8 {
            for r in 0..self.rows() {
                let mut run = 0;
                for c in 0..=self.cols() {
                    if c < self.cols() && self.height(r, c) >= floor {
                        run += 1;
                    } else {
                        if run >= 6 {
                            out.push(format!(
                                "row {r} has {run} adjacent tiles on floor {floor} (ending at column {}); \
                                 long upper-floor rows leave few Available tiles",
                                c - 1
                            ));
                        }
                        run = 0;
                    }
                }
            }
        }
        out
    }

    /// The text form, one row per line and `.` for no space; [`Layout::parse`] reads it back.
    pub fn to_text(&self) -> String {
        let mut s = String::new();
        for r in 0..self.rows() {
            for c in 0..self.cols() {
                let h = self.height(r, c);
                s.push(if h == 0 { '.' } else { (b'0' + h) as char });
            }
            s.push('\n');
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn standard_layouts_follow_the_advice() {
        // R-LAYOUT-1: 116 tiles, ground floor within the advice, no long upper rows.
        for (p, name) in [(2, "standard-2p"), (3, "standard-3p"), (4, "standard-4p")] {
            let l = Layout::standard(name).unwrap();
            assert_eq!(l.total_tiles(), 116, "{name}");
            assert!(l.warnings(Some(p)).is_empty(), "{name}: {:?}", l.warnings(Some(p)));
        }
    }

    #[test]
    fn bad_layouts_are_errors() {
        assert!(Layout::parse("").is_err());
        assert!(Layout::parse("1111").is_err()); // not 116 tiles
        assert!(Layout::parse("11x1").is_err());
        assert!(Layout::parse(&"1".repeat(13)).is_err());
        let too_many_rows = "1\n".repeat(13);
        assert!(Layout::parse(&too_many_rows).is_err());
        // 116 tiles, but the last row is shorter than the others.
        let ragged = "2".repeat(12) + &"\n111111111111".repeat(7) + "\n11111111";
        assert!(Layout::parse(&ragged).unwrap_err().to_string().contains("equally long"));
    }

    #[test]
    fn long_upper_rows_warn() {
        let mut text = String::from("222222......\n");
        // Fill up to 116 tiles with single stacks.
        let rest = 116 - 12;
        for r in 0..(rest / 12) {
            let _ = r;
            text.push_str("111111111111\n");
        }
        text.push_str(&format!("{:.<12}", "1".repeat(rest % 12)));
        let l = Layout::parse(&text).unwrap();
        assert!(l.warnings(None).iter().any(|w| w.contains("floor 2")));
    }
}
