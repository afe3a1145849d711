use super::*;
use crate::action::ActionList;
use crate::cards::{Cards, DRAGON_EFFECTS, SPIRIT_EFFECTS};
use crate::realm::CELLS;
use crate::rng::SplitMix64;
use crate::setup::Setup;

/// Random games of every player count, with and without cards, each
/// position's game after every decision.
fn positions(mut f: impl FnMut(&Game)) {
    for (players, cards) in [(1, 0), (2, 0), (2, 2), (3, 1), (4, 0)] {
        let setup = Setup::new(players, 40 + players as u64).with_cards(Cards::draw(cards, "Spirit").unwrap(), Cards::draw(cards, "Dragon").unwrap());
        let mut g = Game::from_setup(&setup).unwrap();
        let (mut rng, mut buf) = (SplitMix64::new(players as u64), ActionList::default());
        f(&g);
        while let Some(a) = crate::agents::random_action(g.state(), &mut rng, &mut buf) {
            g.apply(a).unwrap();
            f(&g);
        }
    }
}

#[test]
fn the_picture_reads_nothing_hidden() {
    // A determinization re-deals every covered castle tile (and rewrites
    // the history to match): a picture that read one would differ.
    let mut n = 0;
    positions(|g| {
        n += 1;
        if n % 7 == 0 {
            assert_eq!(game_svg(g), game_svg(&g.determinize(n)), "turn {}", g.state().turn());
        }
    });
}

#[test]
fn the_picture_shows_the_turn_the_last_move_and_the_cards() {
    let mut taken = 0;
    let mut turned_down = 0;
    positions(|g| {
        let s = g.state();
        let svg = game_svg(g);
        assert!(svg.starts_with("<svg ") && svg.ends_with("</svg>"));
        // One top-level element per line: the replay page shares repeated lines.
        assert!(svg.lines().count() > 20);
        assert_eq!(svg.matches("<g>").count() + svg.matches("<g ").count(), svg.matches("</g>").count());
        assert!(svg.contains(&status_line(s)));
        if !s.is_over() && s.current_player() < s.players() {
            assert!(svg.contains(&format!("Seat {} \u{25B6} to move", s.current_player())));
        }
        match LastMove::of(g) {
            None => assert!(svg.contains("Last move: none")),
            Some(l) => {
                assert!(svg.contains(&format!("Last move: seat {} {}", l.seat, l.action)));
                if matches!(l.action, Action::Take(_)) {
                    taken += 1;
                    assert!(svg.contains(r#"stroke-dasharray="5 3""#), "a taken tile is marked");
                }
                if svg.contains(r#"stroke-dasharray="3 2""#) {
                    turned_down += 1;
                }
            }
        }
        for (k, effect) in SPIRIT_EFFECTS.iter().enumerate() {
            assert_eq!(s.spirits() & (1 << k) != 0, svg.contains(&format!("<title>{effect}</title>")));
        }
        for (k, effect) in DRAGON_EFFECTS.iter().enumerate() {
            assert_eq!(s.dragons() & (1 << k) != 0, svg.contains(&format!("<title>{effect}</title>")));
        }
        for seat in 0..s.players() {
            assert!(svg.contains(&format!("Shrine Pool {}", s.player(seat).shrine_pool)));
        }
    });
    assert!(taken > 100 && turned_down > 5, "{taken} takes, {turned_down} Consolidations seen");
}

#[test]
fn castle_spaces_and_realm_cells_are_tagged_for_clicks() {
    positions(|g| {
        let s = g.state();
        let svg = game_svg(g);
        let c = s.castle();
        for r in 0..c.rows() {
            for col in 0..c.cols() {
                let tagged = svg.contains(&format!(r#"<g data-space="{r},{col}">"#));
                assert!(tagged || c.top(Space::of(r, col).index()).is_none(), "space {r},{col}");
            }
        }
        for seat in 0..s.players() {
            for cell in 0..CELLS {
                let (r, col) = Cell::at(cell).row_col();
                assert_eq!(svg.matches(&format!(r#"<g data-seat="{seat}" data-cell="{r},{col}">"#)).count(), 1);
            }
        }
        assert!(!svg.contains(&format!(r#"data-seat="{}""#, s.players())));
    });
}

#[test]
fn shrines_are_drawn_on_their_cells() {
    let mut seen = false;
    positions(|g| {
        let s = g.state();
        let shrines: u32 = (0..s.players()).map(|p| s.player(p).realm.shrines().count_ones()).sum();
        let pools: u32 = (0..s.players()).map(|p| (s.player(p).shrine_pool as usize).min(POOL_ICONS) as u32).sum();
        seen |= shrines > 0;
        assert_eq!(svg(s).matches("M-8 -1L0 -8L8 -1Z").count() as u32, shrines + pools);
    });
    assert!(seen);
}

#[test]
fn every_phase_prompt_fits_the_header() {
    // The picture is at least 660 wide; its 12 px header line holds about 120 characters.
    for p in crate::state::Phase::ALL {
        assert!(p.prompt().chars().count() <= 120, "{}: {}", p.name(), p.prompt());
    }
}

#[test]
fn the_grids_carry_the_numbers_that_moves_name() {
    // "take r,c" and "place r,c": every castle row and column, and a Realm's 0 to 3, are numbered.
    let g = Game::from_setup(&Setup::new(2, 3)).unwrap();
    let svg = game_svg(&g);
    let c = g.state().castle();
    for col in 0..c.cols() {
        assert!(svg.contains(&format!(r#"text-anchor="middle">{col}</text>"#)), "column {col}");
    }
    for row in 0..c.rows() {
        assert!(svg.contains(&format!(r##"fill="#888">{row}</text>"##)), "row {row}");
    }
    // Each Realm's columns 0 to 3 too: the castle's column 3 and one per seat.
    assert_eq!(svg.matches(r#"text-anchor="middle">3</text>"#).count(), 1 + g.state().players());
    assert!(svg.contains("Grey numbers: the rows and columns that moves name"));
}
