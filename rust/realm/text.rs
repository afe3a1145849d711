//! The Realm's text form, for tests and experiments.

use super::{Realm, SIDE};
use crate::tile::Tile;

impl Realm {
    /// Text form for tests and experiments: 4 lines of 4 cells separated by
    /// spaces; `.` empty, `3Me2` height 3 with a face-up `Me2`, `2#` height 2
    /// face down, `2S` height 2 face down with a Shrine.
    pub fn parse(text: &str) -> Result<Realm, String> {
        let lines: Vec<&str> = text.lines().map(str::trim).filter(|l| !l.is_empty()).collect();
        if lines.len() != SIDE {
            return Err(format!("a Realm has {SIDE} rows; got {}", lines.len()));
        }
        let mut r = Realm::default();
        for (row, line) in lines.iter().enumerate() {
            let cells: Vec<&str> = line.split_whitespace().collect();
            if cells.len() != SIDE {
                return Err(format!("row {row} has {} cells, not {SIDE}", cells.len()));
            }
            for (col, cell) in cells.iter().enumerate() {
                let i = crate::coords::Cell::of(row, col).index();
                if *cell == "." {
                    continue;
                }
                let digits = cell.chars().take_while(|c| c.is_ascii_digit()).count();
                let h: u8 = cell[..digits].parse().map_err(|_| format!("cell {cell:?} does not start with its height"))?;
                if h == 0 {
                    return Err(format!("cell {cell:?}: write an empty cell as '.'"));
                }
                // The game has 116 tiles, and the Realm's byte-wise height
                // tests (`cells_at_least`) rely on heights below 128.
                if h as usize > Tile::TOTAL {
                    return Err(format!("cell {cell:?}: a stack of {h} tiles; the game has {}", Tile::TOTAL));
                }
                r.height[i] = h;
                match &cell[digits..] {
                    "#" => {}
                    "S" => r.shrine |= 1 << i,
                    code => {
                        let t = Tile::parse(code).map_err(|e| format!("cell {cell:?}: {e}"))?;
                        r.face_up |= 1 << i;
                        r.top[i] = t;
                        r.by_type[t.tile_type().index()] |= 1 << i;
                    }
                }
            }
        }
        Ok(r)
    }

    /// The text of [`Realm::parse`].
    pub fn to_text(&self) -> String {
        let mut out = String::new();
        for row in 0..SIDE {
            let cells: Vec<String> = (0..SIDE)
                .map(|col| {
                    let i = crate::coords::Cell::of(row, col).index();
                    match self.top(i) {
                        None => ".".into(),
                        Some((Some(t), _)) => format!("{}{t}", self.height[i]),
                        Some((None, _)) if self.has_shrine(i) => format!("{}S", self.height[i]),
                        Some((None, _)) => format!("{}#", self.height[i]),
                    }
                })
                .collect();
            out.push_str(&cells.join(" "));
            out.push('\n');
        }
        out
    }
}
