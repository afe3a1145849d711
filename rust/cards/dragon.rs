//! The Dragon cards' end-of-game bonuses (R-DRAGON-1..10, `docs/cards.md`).
//!
//! Each is a pure function of the Realms: adjacency is orthogonal and ignores
//! floors (R-ADJ-1), a stack's height counts tiles only.

use crate::realm::{flood, neighbours, Realm, SIDE};
use crate::tile::TileType;

/// Dragon cards in the game: ten end-of-game bonuses (R-DRAGON-1..10).
pub const DRAGON_CARDS: usize = 10;
/// Dragon card names in card-index order.
pub const DRAGONS: [&str; DRAGON_CARDS] =
    ["humility", "tranquility", "righteousness", "bravery", "majesty", "power", "harmony", "knowledge", "devotion", "fortitude"];

/// What each Dragon card scores, in one line for people (the picture's tooltips), in card-index order.
pub const DRAGON_EFFECTS: [&str; DRAGON_CARDS] = [
    "Humility: +1 per Shrine whose stack is next to a higher stack.",
    "Tranquility: +1 per connected group of cells whose top tile is face down.",
    "Righteousness: the Shrines of your best row plus your best column, +2 per line with 4 Shrines.",
    "Bravery: +1 per stack with no neighbouring stack as high or higher.",
    "Majesty: per Faction, its highest face-up number on floor 3 or above.",
    "Power: per Faction, your best connected group's sum against each neighbouring seat's: +2 if higher, +1 if equal.",
    "Harmony: +4 per centre line the stack heights mirror about, +2 per centre line the Shrines mirror about.",
    "Knowledge: +2 per distinct face-up Special symbol.",
    "Devotion: +1 per Shrine next to a face-up Dragon tile.",
    "Fortitude: +1 per Shrine on one of the 12 edge cells.",
];

/// Humility (R-DRAGON-1): +1 per Shrine whose stack is next to a higher stack.
pub const HUMILITY: u8 = 0;
/// Tranquility (R-DRAGON-2): +1 per connected group of cells with a face-down top.
pub const TRANQUILITY: u8 = 1;
/// Righteousness (R-DRAGON-3): the Shrines of the best row plus the best column, +2 per full line.
pub const RIGHTEOUSNESS: u8 = 2;
/// Bravery (R-DRAGON-4): +1 per stack with no neighbouring stack as high or higher.
pub const BRAVERY: u8 = 3;
/// Majesty (R-DRAGON-5): per Faction, its highest face-up number on floor 3 or above.
pub const MAJESTY: u8 = 4;
/// Power (R-DRAGON-6): per Faction, the best connected group's sum against the neighbouring seats'.
pub const POWER: u8 = 5;
/// Harmony (R-DRAGON-7): +4 per centre line the heights mirror about, +2 per one the Shrines do.
pub const HARMONY: u8 = 6;
/// Knowledge (R-DRAGON-8): +2 per distinct face-up Special symbol.
pub const KNOWLEDGE: u8 = 7;
/// Devotion (R-DRAGON-9): +1 per Shrine next to a face-up Dragon tile.
pub const DEVOTION: u8 = 8;
/// Fortitude (R-DRAGON-10): +1 per Shrine on one of the 12 edge cells.
pub const FORTITUDE: u8 = 9;

/// The 12 cells on the Realm's edge.
const EDGE: u16 = 0xF99F;
const ROW0: u16 = 0x000F;
const COL0: u16 = 0x1111;

/// Points of Dragon `card` for `realms[seat]`; Power compares with the seats
/// to the left and right in `realms` (R-DRAGON-6).
pub fn dragon_points(card: u8, realms: &[Realm], seat: usize) -> u32 {
    points(card, &realms[seat], &Levels::of(&realms[seat]), rivals(seat, realms.len(), |s| &realms[s]))
}

/// R-DRAGON-6: the Realms Power compares with, the left and the right
/// neighbour of `seat` among `n` players (one with 2 players, none in solo).
pub fn rivals<'a>(seat: usize, n: usize, realm: impl Fn(usize) -> &'a Realm) -> (Option<&'a Realm>, Option<&'a Realm>) {
    if n < 2 {
        return (None, None);
    }
    let (left, right) = ((seat + 1) % n, (seat + n - 1) % n);
    (Some(realm(left)), if right != left { Some(realm(right)) } else { None })
}

/// Floors a Realm stack may reach, and one more: no height limit
/// (R-REALM-1) but the 116 tiles.
const LEVELS: usize = crate::tile::Tile::TOTAL + 2;

/// The stack heights of a Realm as bitboards: `at_least[k]` holds the cells
/// whose stack has at least `k` tiles. Most bonuses compare heights of
/// neighbours, which then takes a few shifts per floor instead of a walk
/// over cells and their neighbours (the search scores every candidate move).
pub struct Levels {
    at_least: [u16; LEVELS],
    top: usize,
}

/// The cards whose points read stack heights ([`Levels`]); the others need none.
pub const READ_HEIGHTS: u16 = 1 << HUMILITY | 1 << TRANQUILITY | 1 << BRAVERY | 1 << MAJESTY | 1 << HARMONY;

impl Levels {
    /// No stack at all: what the cards that do not read heights are given.
    pub const NONE: Levels = Levels { at_least: [0; LEVELS], top: 0 };

    /// The levels of Realm `r`'s stacks.
    pub fn of(r: &Realm) -> Levels {
        let mut at_least = [0u16; LEVELS];
        at_least[0] = crate::realm::ALL;
        let mut top = 0;
        while top + 1 < LEVELS - 1 {
            let next = r.cells_at_least(top as u8 + 1);
            if next == 0 {
                break;
            }
            top += 1;
            at_least[top] = next;
        }
        Levels { at_least, top }
    }

    /// Cells whose stack has exactly `k` tiles (`k >= 1`).
    #[inline]
    fn exactly(&self, k: usize) -> u16 {
        self.at_least[k] & !self.at_least[k + 1]
    }
}

/// Points of Dragon `card` for the Realm `r` (its [`Levels`] `l`); `rivals`
/// are the left and right neighbours' Realms for Power (the right one
/// `None` with 2 players, both `None` in solo).
pub fn points(card: u8, r: &Realm, l: &Levels, rivals: (Option<&Realm>, Option<&Realm>)) -> u32 {
    let shrines = r.shrines();
    let per_floor = |f: &dyn Fn(usize) -> u16| (1..=l.top).map(|k| f(k).count_ones()).sum::<u32>();
    match card {
        // A Shrine on a stack of k tiles next to a stack of more.
        HUMILITY => per_floor(&|k| shrines & l.exactly(k) & neighbours(l.at_least[k + 1])),
        TRANQUILITY => groups(l.at_least[1] & !r.face_up()),
        RIGHTEOUSNESS => righteousness(r),
        // A stack of k tiles with no neighbour of k or more.
        BRAVERY => per_floor(&|k| l.exactly(k) & !neighbours(l.at_least[k])),
        MAJESTY => majesty(r, l),
        POWER => power(r, rivals),
        HARMONY => harmony(r, l),
        KNOWLEDGE => knowledge(r),
        DEVOTION => (shrines & neighbours(r.of_type(TileType::Dragon))).count_ones(),
        FORTITUDE => (shrines & EDGE).count_ones(),
        _ => 0,
    }
}

/// Connected groups of `cells`.
fn groups(cells: u16) -> u32 {
    let mut left = cells;
    let mut n = 0;
    while left != 0 {
        left &= !flood(left & left.wrapping_neg(), left);
        n += 1;
    }
    n
}

/// R-DRAGON-3: the best row and the best column.
fn righteousness(r: &Realm) -> u32 {
    let line = |m: u16| {
        let k = (r.shrines() & m).count_ones();
        k + if k == SIDE as u32 { 2 } else { 0 }
    };
    let best_row = (0..SIDE).map(|i| line(ROW0 << (4 * i))).max().unwrap_or(0);
    let best_col = (0..SIDE).map(|i| line(COL0 << i)).max().unwrap_or(0);
    best_row + best_col
}

/// R-DRAGON-5: per Faction, the highest number face up on floor 3 or higher.
fn majesty(r: &Realm, l: &Levels) -> u32 {
    let high = l.at_least[3];
    let mut total = 0;
    for t in [TileType::Merchant, TileType::Soldier, TileType::Farmer] {
        let mut best = 0;
        let mut m = r.of_type(t) & high;
        while m != 0 {
            let c = m.trailing_zeros() as usize;
            best = best.max(r.face_up_tile(c).and_then(|x| x.number()).unwrap_or(0));
            m &= m - 1;
        }
        total += best as u32;
    }
    total
}

/// R-DRAGON-6: per Faction, the best sum of numbers of a connected group of
/// face-up tiles (None: no tile of it).
pub fn power_totals(r: &Realm) -> [Option<u32>; 3] {
    let mut out = [None; 3];
    for (k, t) in [TileType::Merchant, TileType::Soldier, TileType::Farmer].into_iter().enumerate() {
        let mut left = r.of_type(t);
        while left != 0 {
            let g = flood(left & left.wrapping_neg(), left);
            left &= !g;
            let mut sum = 0u32;
            let mut m = g;
            while m != 0 {
                sum += u32::from(r.faction_number(m.trailing_zeros() as usize));
                m &= m - 1;
            }
            out[k] = Some(out[k].map_or(sum, |b: u32| b.max(sum)));
        }
    }
    out
}

fn power(r: &Realm, rivals: (Option<&Realm>, Option<&Realm>)) -> u32 {
    let mine = power_totals(r);
    let mut total = 0;
    for other in [rivals.0, rivals.1].into_iter().flatten() {
        let theirs = power_totals(other);
        for k in 0..3 {
            if let Some(m) = mine[k] {
                match theirs[k] {
                    Some(o) if o > m => {}
                    Some(o) if o == m => total += 1,
                    _ => total += 2,
                }
            }
        }
    }
    total
}

/// R-DRAGON-7: heights (and Shrines with their heights) symmetric about the
/// vertical and the horizontal centre line, the bitboards of each floor
/// mirrored.
fn harmony(r: &Realm, l: &Levels) -> u32 {
    let shrines = r.shrines();
    let mut total = 0;
    for mirror in [mirror_vertical, mirror_horizontal] {
        let heights_match = (1..=l.top).all(|k| mirror(l.at_least[k]) == l.at_least[k]);
        if l.top > 0 && heights_match {
            total += 4;
        }
        let shrines_match = mirror(shrines) == shrines
            && (1..=l.top).all(|k| mirror(shrines & l.at_least[k]) == shrines & l.at_least[k]);
        if shrines != 0 && shrines_match {
            total += 2;
        }
    }
    total
}

/// Cell `(row, col)` to `(row, 3 - col)`.
const fn mirror_vertical(m: u16) -> u16 {
    // Reverse the 4 bits of each row (nibble).
    let m = ((m & 0x5555) << 1) | ((m >> 1) & 0x5555);
    ((m & 0x3333) << 2) | ((m >> 2) & 0x3333)
}

/// Cell `(row, col)` to `(3 - row, col)`.
const fn mirror_horizontal(m: u16) -> u16 {
    // Reverse the order of the rows (nibbles).
    let m = ((m & 0x0F0F) << 4) | ((m >> 4) & 0x0F0F);
    m.rotate_left(8)
}

/// R-DRAGON-8: distinct Special symbols face up.
fn knowledge(r: &Realm) -> u32 {
    let mut seen = 0u32;
    let mut up = r.special_up();
    while up != 0 {
        if let Some(t) = r.face_up_tile(up.trailing_zeros() as usize) {
            seen |= 1 << t.index();
        }
        up &= up - 1;
    }
    2 * seen.count_ones()
}

#[cfg(test)]
mod tests;
