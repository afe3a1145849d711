use crate::coords::Cell;
use super::*;
use crate::realm::CELLS;

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

/// The definitions of R-DRAGON-1..10 as written, cell by cell.
fn by_definition(card: u8, realms: &[Realm], seat: usize) -> u32 {
    let r = &realms[seat];
    let adjacent = |c: usize| (0..CELLS).filter(move |&n| neighbours(1 << c) & (1 << n) != 0);
    let h = |c: usize| r.height(c);
    let shrine_cells = || (0..CELLS).filter(|&c| r.has_shrine(c));
    match card {
        HUMILITY => shrine_cells().filter(|&c| adjacent(c).any(|n| h(n) > h(c))).count() as u32,
        TRANQUILITY => groups(r.face_down()),
        BRAVERY => (0..CELLS).filter(|&c| h(c) > 0 && adjacent(c).all(|n| h(n) == 0 || h(n) < h(c))).count() as u32,
        MAJESTY => [TileType::Merchant, TileType::Soldier, TileType::Farmer]
            .iter()
            .map(|&t| {
                (0..CELLS)
                    .filter(|&c| r.of_type(t) & (1 << c) != 0 && h(c) >= 3)
                    .filter_map(|c| r.face_up_tile(c).and_then(|x| x.number()))
                    .max()
                    .unwrap_or(0) as u32
            })
            .sum(),
        HARMONY => {
            // Mirrored left to right, and top to bottom.
            let mv = |c: usize| Cell::of(Cell::at(c).row(), SIDE - 1 - Cell::at(c).col()).index();
            let mh = |c: usize| Cell::of(SIDE - 1 - Cell::at(c).row(), Cell::at(c).col()).index();
            let mut total = 0;
            for m in [&mv as &dyn Fn(usize) -> usize, &mh] {
                if r.occupied() != 0 && (0..CELLS).all(|c| h(c) == h(m(c))) {
                    total += 4;
                }
                if r.shrines() != 0
                    && (0..CELLS).all(|c| r.has_shrine(c) == r.has_shrine(m(c)) && (!r.has_shrine(c) || h(c) == h(m(c))))
                {
                    total += 2;
                }
            }
            total
        }
        KNOWLEDGE => {
            let symbols: std::collections::BTreeSet<u8> =
                (0..CELLS).filter_map(|c| r.face_up_tile(c)).filter(|t| !t.tile_type().is_faction()).map(|t| t.index()).collect();
            2 * symbols.len() as u32
        }
        DEVOTION => shrine_cells().filter(|&c| adjacent(c).any(|n| r.of_type(TileType::Dragon) & (1 << n) != 0)).count() as u32,
        FORTITUDE => shrine_cells()
            .filter(|&c| {
                let (row, col) = Cell::at(c).row_col();
                row == 0 || row == SIDE - 1 || col == 0 || col == SIDE - 1
            })
            .count() as u32,
        RIGHTEOUSNESS => {
            let line = |cells: Vec<usize>| {
                let k = cells.iter().filter(|&&c| r.has_shrine(c)).count() as u32;
                k + if k == SIDE as u32 { 2 } else { 0 }
            };
            let row = (0..SIDE).map(|i| line((0..SIDE).map(|j| Cell::of(i, j).index()).collect())).max().unwrap_or(0);
            let col = (0..SIDE).map(|j| line((0..SIDE).map(|i| Cell::of(i, j).index()).collect())).max().unwrap_or(0);
            row + col
        }
        POWER => power_by_definition(realms, seat),
        _ => unreachable!("card {card}"),
    }
}

/// Power as written: the best group sum per Faction against
/// each neighbouring rival's.
fn power_by_definition(realms: &[Realm], seat: usize) -> u32 {
    let r = &realms[seat];
    // The best group sum per Faction, tile by tile.
    let totals = |r: &Realm| -> Vec<Option<u32>> {
        [TileType::Merchant, TileType::Soldier, TileType::Farmer]
            .iter()
            .map(|&t| {
                let mut left = r.of_type(t);
                let mut best = None;
                while left != 0 {
                    let g = flood(left & left.wrapping_neg(), left);
                    left &= !g;
                    let sum: u32 = (0..CELLS)
                        .filter(|c| g & (1 << c) != 0)
                        .filter_map(|c| r.face_up_tile(c).and_then(|x| x.number()))
                        .map(u32::from)
                        .sum();
                    best = Some(best.map_or(sum, |b: u32| b.max(sum)));
                }
                best
            })
            .collect()
    };
    let n = realms.len();
    let mut rivals = vec![];
    if n >= 2 {
        rivals.push((seat + 1) % n);
        if (seat + n - 1) % n != (seat + 1) % n {
            rivals.push((seat + n - 1) % n);
        }
    }
    let mine = totals(r);
    rivals
        .iter()
        .map(|&o| {
            let theirs = totals(&realms[o]);
            (0..3)
                .map(|k| match (mine[k], theirs[k]) {
                    (None, _) => 0,
                    (Some(m), Some(t)) if t > m => 0,
                    (Some(m), Some(t)) if t == m => 1,
                    _ => 2,
                })
                .sum::<u32>()
        })
        .sum()
}

/// The bitboard scoring equals the definitions on the Realms of random
/// card games.
#[test]
fn bitboards_follow_the_definitions() {
    use crate::agents::random_action;
    use crate::cards::Cards;
    use crate::rng::SplitMix64;
    let mut buf = crate::action::ActionList::default();
    let mut checked = 0;
    for seed in 0..60u64 {
        let mut rng = SplitMix64::new(seed);
        let mut s = crate::setup::Setup::new(1 + (seed % 4) as usize, seed).with_cards(Cards::Draw(2), Cards::None).state().unwrap();
        while let Some(a) = random_action(&s, &mut rng, &mut buf) {
            s.apply_unchecked(a);
            let realms: Vec<Realm> = (0..s.players()).map(|p| s.player(p).realm).collect();
            for card in 0..DRAGON_CARDS as u8 {
                for seat in 0..realms.len() {
                    assert_eq!(dragon_points(card, &realms, seat), by_definition(card, &realms, seat), "card {card}\n{}", realms[seat].to_text());
                    checked += 1;
                }
            }
        }
    }
    assert!(checked > 100_000);
}

/// Stacks have no height limit (R-REALM-1): floors past 16 count too
/// (found in review: the floor bitboards stopped at 16).
#[test]
fn tall_stacks_score_by_definition() {
    for text in ["17# 16# . .\n. . . .\n. . . .\n. . . .", "17# . . 17#\n. . . .\n. . . .\n. . . .", "16S 17# . .\n. . . .\n. . . .\n. . . .", "40S 116# . .\n. . . .\n. . . .\n. . . ."] {
        let r = realm(text);
        for card in 0..DRAGON_CARDS as u8 {
            assert_eq!(dragon_points(card, &[r], 0), by_definition(card, &[r], 0), "card {card}: {text}");
        }
    }
    assert_eq!(dragon_points(BRAVERY, &[realm("17# 16# . .\n. . . .\n. . . .\n. . . .")], 0), 1);
}

#[test]
fn power_without_a_faction_cannot_tie() {
    let a = realm("1Me3 . . .\n. . . .\n. . . .\n. . . .");
    let b = realm(". . . .\n. . . .\n. . . .\n. . . .");
    assert_eq!(dragon_points(POWER, &[a, b], 0), 2);
    assert_eq!(dragon_points(POWER, &[a, b], 1), 0);
    assert_eq!(dragon_points(POWER, &[b, b], 0), 0);
}
