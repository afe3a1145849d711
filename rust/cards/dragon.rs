//! The Dragon cards' end-of-game bonuses (R-DRAGON-1..10, `docs/cards.md`).
//!
//! Each is a pure function of the Realms: adjacency is orthogonal and ignores
//! floors (R-ADJ-1), a stack's height counts tiles only.

use crate::realm::{flood, neighbours, Realm, CELLS, SIDE};
use crate::tile::TileType;

pub const DRAGON_CARDS: usize = 10;
/// Dragon card names in card-index order.
pub const DRAGONS: [&str; DRAGON_CARDS] =
    ["humility", "tranquility", "righteousness", "bravery", "majesty", "power", "harmony", "knowledge", "devotion", "fortitude"];

pub const HUMILITY: u8 = 0;
pub const TRANQUILITY: u8 = 1;
pub const RIGHTEOUSNESS: u8 = 2;
pub const BRAVERY: u8 = 3;
pub const MAJESTY: u8 = 4;
pub const POWER: u8 = 5;
pub const HARMONY: u8 = 6;
pub const KNOWLEDGE: u8 = 7;
pub const DEVOTION: u8 = 8;
pub const FORTITUDE: u8 = 9;

/// The 12 cells on the Realm's edge.
const EDGE: u16 = 0xF99F;
const ROW0: u16 = 0x000F;
const COL0: u16 = 0x1111;

/// Points of Dragon `card` for `realms[seat]`; Power compares with the seats
/// beside it in `realms` (left = next, right = previous).
pub fn dragon_points(card: u8, realms: &[Realm], seat: usize) -> u32 {
    let r = &realms[seat];
    match card {
        HUMILITY => count_shrines(r, |c| adjacent(c).any(|n| r.height(n) > r.height(c))),
        TRANQUILITY => groups(r.face_down()),
        RIGHTEOUSNESS => righteousness(r),
        BRAVERY => (0..CELLS).filter(|&c| r.height(c) > 0 && adjacent(c).all(|n| r.height(n) == 0 || r.height(n) < r.height(c))).count() as u32,
        MAJESTY => majesty(r),
        POWER => power(realms, seat),
        HARMONY => harmony(r),
        KNOWLEDGE => knowledge(r),
        DEVOTION => {
            let dragons = r.of_type(TileType::Dragon);
            count_shrines(r, |c| neighbours(1 << c) & dragons != 0)
        }
        FORTITUDE => (r.shrines() & EDGE).count_ones(),
        _ => 0,
    }
}

fn adjacent(c: usize) -> impl Iterator<Item = usize> {
    let m = neighbours(1 << c);
    (0..CELLS).filter(move |n| m & (1 << n) != 0)
}

fn count_shrines(r: &Realm, f: impl Fn(usize) -> bool) -> u32 {
    (0..CELLS).filter(|&c| r.has_shrine(c) && f(c)).count() as u32
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

/// R-DRAGON-3: the best row plus the best column; a full line adds 2.
fn righteousness(r: &Realm) -> u32 {
    let line = |m: u16| {
        let k = (r.shrines() & m).count_ones();
        k + if k == SIDE as u32 { 2 } else { 0 }
    };
    let best_row = (0..SIDE).map(|i| line(ROW0 << (4 * i))).max().unwrap_or(0);
    let best_col = (0..SIDE).map(|i| line(COL0 << i)).max().unwrap_or(0);
    best_row + best_col
}

/// R-DRAGON-5: per Faction the highest number face up on floor 3 or higher.
fn majesty(r: &Realm) -> u32 {
    let mut total = 0;
    for t in [TileType::Merchant, TileType::Soldier, TileType::Farmer] {
        let best = (0..CELLS)
            .filter(|&c| r.of_type(t) & (1 << c) != 0 && r.height(c) >= 3)
            .filter_map(|c| r.face_up_tile(c).and_then(|x| x.number()))
            .max()
            .unwrap_or(0);
        total += best as u32;
    }
    total
}

/// Per Faction, the best connected group's sum of numbers; `None` without a
/// face-up tile of it.
pub fn power_totals(r: &Realm) -> [Option<u32>; 3] {
    let mut out = [None; 3];
    for (k, t) in [TileType::Merchant, TileType::Soldier, TileType::Farmer].into_iter().enumerate() {
        let mut left = r.of_type(t);
        while left != 0 {
            let g = flood(left & left.wrapping_neg(), left);
            left &= !g;
            let sum: u32 = (0..CELLS).filter(|c| g & (1 << c) != 0).filter_map(|c| r.face_up_tile(c).and_then(|x| x.number())).map(u32::from).sum();
            out[k] = Some(out[k].map_or(sum, |b: u32| b.max(sum)));
        }
    }
    out
}

/// R-DRAGON-6: against the left and the right neighbour (once if they are
/// the same seat, nobody alone): +2 higher, +1 tied, nothing without the Faction.
fn power(realms: &[Realm], seat: usize) -> u32 {
    let n = realms.len();
    if n < 2 {
        return 0;
    }
    let left = (seat + 1) % n;
    let right = (seat + n - 1) % n;
    let mine = power_totals(&realms[seat]);
    let mut total = 0;
    let mut versus = |other: usize| {
        let theirs = power_totals(&realms[other]);
        for k in 0..3 {
            if let Some(m) = mine[k] {
                match theirs[k] {
                    Some(o) if o > m => {}
                    Some(o) if o == m => total += 1,
                    _ => total += 2,
                }
            }
        }
    };
    versus(left);
    if right != left {
        versus(right);
    }
    total
}

/// R-DRAGON-7: mirror symmetry about the vertical and the horizontal centre line.
fn harmony(r: &Realm) -> u32 {
    let mirror_v = |c: usize| (c / SIDE) * SIDE + (SIDE - 1 - c % SIDE);
    let mirror_h = |c: usize| (SIDE - 1 - c / SIDE) * SIDE + c % SIDE;
    let mut total = 0;
    for m in [&mirror_v as &dyn Fn(usize) -> usize, &mirror_h] {
        if r.occupied() != 0 && (0..CELLS).all(|c| r.height(c) == r.height(m(c))) {
            total += 4;
        }
        if r.shrines() != 0 && (0..CELLS).all(|c| r.has_shrine(c) == r.has_shrine(m(c)) && (!r.has_shrine(c) || r.height(c) == r.height(m(c)))) {
            total += 2;
        }
    }
    total
}

/// R-DRAGON-8: 2 per distinct Special symbol face up.
fn knowledge(r: &Realm) -> u32 {
    let mut seen = 0u32;
    let mut up = r.face_up();
    while up != 0 {
        let c = up.trailing_zeros() as usize;
        if let Some(t) = r.face_up_tile(c) {
            if !t.tile_type().is_faction() {
                seen |= 1 << t.index();
            }
        }
        up &= up - 1;
    }
    2 * seen.count_ones()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn realm(text: &str) -> Realm {
        Realm::parse(text).unwrap()
    }

    #[test]
    fn faq_cases() {
        // Humility: one higher stack serves two Shrines; many higher count once.
        let r = realm("1S 3# 1S .\n. . . .\n. . . .\n. . . .");
        assert_eq!(dragon_points(HUMILITY, &[r], 0), 2);
        // Tranquility: a face-up tile splits a face-down group.
        let r = realm("1# 1Me1 2# .\n. . . .\n. . . .\n. . . .");
        assert_eq!(dragon_points(TRANQUILITY, &[r], 0), 2);
        // Righteousness: a shared Shrine counts twice; a full line adds 2.
        let r = realm("1S 1S 1S 1S\n1S . . .\n. . . .\n. . . .");
        assert_eq!(dragon_points(RIGHTEOUSNESS, &[r], 0), 6 + 2);
        // Knowledge: two Winds of different symbols are 4.
        let r = realm("1Wi1 1Wi2 1Wi1 1Me1\n. . . .\n. . . .\n. . . .");
        assert_eq!(dragon_points(KNOWLEDGE, &[r], 0), 4);
    }

    #[test]
    fn power_without_a_faction_cannot_tie() {
        let a = realm("1Me3 . . .\n. . . .\n. . . .\n. . . .");
        let b = realm(". . . .\n. . . .\n. . . .\n. . . .");
        assert_eq!(dragon_points(POWER, &[a, b], 0), 2);
        assert_eq!(dragon_points(POWER, &[a, b], 1), 0);
        assert_eq!(dragon_points(POWER, &[b, b], 0), 0);
    }
}
