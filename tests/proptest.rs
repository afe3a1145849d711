//! Property tests (issue 12): random layouts, deals, action sequences and
//! JSON bytes. Whatever the input: no panic, `check_invariants()` after every step,
//! undo restores exactly, and an action is accepted exactly when it is listed,
//! for every one of the 1,024 ids.
//!
//! CI runs proptest's default budget; `PROPTEST_CASES=20000 cargo test
//! --release --test proptest` is the long run.

use _core::{Action, NUM_ACTIONS};
use _core::cards::Cards;
use _core::{Game, Layout, Setup, Tile};
use proptest::prelude::*;

/// A layout of 116 tiles on a random grid: random stack heights 1..=max,
/// the last ones trimmed or padded so that the total is exactly 116.
fn layout_text() -> impl Strategy<Value = String> {
    (4usize..=12, 4usize..=12, 1u8..=9, proptest::collection::vec(0u8..=9, 144)).prop_filter_map(
        "the grid must hold 116 tiles",
        |(rows, cols, max, raw)| {
            let mut h: Vec<u8> = raw[..rows * cols].iter().map(|&x| x.min(max)).collect();
            let mut total: i32 = h.iter().map(|&x| x as i32).sum();
            // Pad or trim cell by cell until the castle holds exactly 116 tiles.
            let mut i = 0;
            while total != 116 && i < 10 * h.len() {
                let k = i % h.len();
                if total < 116 && h[k] < 9 {
                    h[k] += 1;
                    total += 1;
                } else if total > 116 && h[k] > 0 {
                    h[k] -= 1;
                    total -= 1;
                }
                i += 1;
            }
            if total != 116 {
                return None;
            }
            let text: Vec<String> = h
                .chunks(cols)
                .map(|row| row.iter().map(|&x| if x == 0 { '.' } else { (b'0' + x) as char }).collect())
                .collect();
            Some(text.join("\n"))
        },
    )
}

fn deal() -> impl Strategy<Value = Vec<Tile>> {
    let tiles: Vec<Tile> = (0..Tile::TOTAL).map(|i| Tile::from_index((i / Tile::COPIES) as u8).unwrap()).collect();
    Just(tiles).prop_shuffle()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    /// Random layouts, deals, card counts and action choices.
    #[test]
    fn random_games_keep_every_property(
        players in 1usize..=4,
        layout in layout_text(),
        deal in deal(),
        spirits in 0usize..=3,
        dragons in 0usize..=3,
        seed in any::<u64>(),
        choices in proptest::collection::vec(any::<u32>(), 0..400),
    ) {
        let layout = Layout::parse(&layout).expect("the strategy makes valid layouts");
        let setup = Setup {
            layout: Some(layout),
            deal: Some(deal),
            ..Setup::new(players, seed).with_cards(Cards::Draw(spirits), Cards::Draw(dragons))
        };
        let mut g = Game::from_setup(&setup).unwrap();
        for (step, c) in choices.iter().enumerate() {
            let s = *g.state();
            if s.is_over() {
                break;
            }
            let legal = s.legal_actions();
            prop_assert!(!legal.is_empty());
            if step % 16 == 0 {
                for id in 0..NUM_ACTIONS as i64 {
                    if let Ok(a) = Action::from_id(id) {
                        let mut copy = g.clone();
                        prop_assert_eq!(copy.apply(a).is_ok(), legal.contains(a), "{} in {:?}", a, s.phase());
                        prop_assert_eq!(s.is_legal(a), legal.contains(a));
                    }
                }
            }
            let a = legal[*c as usize % legal.len()];
            g.apply(a).unwrap();
            if let Err(e) = g.state().check_invariants() {
                prop_assert!(false, "step {}: {}", step, e);
            }
            if step % 7 == 0 {
                let mut back = g.clone();
                back.undo().unwrap();
                prop_assert_eq!(*back.state(), s);
            }
        }
        let again = Game::from_json(&g.to_json()).unwrap();
        prop_assert!(again == g);
    }

    /// Arbitrary bytes, and a real game's JSON with bytes flipped, never panic.
    #[test]
    fn any_json_is_an_error_or_a_game(bytes in proptest::collection::vec(any::<u8>(), 0..300), flips in proptest::collection::vec((any::<usize>(), any::<u8>()), 1..6)) {
        let _ = Game::from_json(&String::from_utf8_lossy(&bytes));
        let g = Game::new(2, 3, None, Default::default(), None).unwrap();
        let mut text = g.to_json().into_bytes();
        for (at, b) in flips {
            let n = text.len();
            text[at % n] = b;
        }
        if let Ok(back) = Game::from_json(&String::from_utf8_lossy(&text)) {
            prop_assert!(back.state().check_invariants().is_ok());
        }
    }

    /// Any layout text is a layout or an error.
    #[test]
    fn any_layout_text_is_a_layout_or_an_error(text in "[0-9.\n ]{0,200}") {
        if let Ok(l) = Layout::parse(&text) {
            prop_assert_eq!(l.total_tiles(), 116);
        }
    }
}
