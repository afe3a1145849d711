//! The text picture (`str(game)`): the castle's grid, each seat's Realm and
//! score, and the outcome.

use std::fmt::Write;

use crate::coords::{Cell, Space};
use crate::realm::SIDE;
use crate::state::State;

/// Castle cells read `hSSS`: height, then the top tile, with `*` when Available.
/// Realm cells read `hSSS` for a face-up tile, `h## ` face down, `h#S ` with a
/// Shrine, ` .  ` empty.
pub fn text(s: &State) -> String {
    let c = s.castle();
    let mut o = String::new();
    let status = if s.is_over() {
        "game over".to_string()
    } else {
        format!("seat {} to move, phase {}", s.current_player(), s.phase().name())
    };
    let who = if s.is_solo() { "solo against the Dragon of Ingenuity".to_string() } else { format!("{} players", s.players()) };
    let _ = writeln!(
        o,
        "Dragon Castle: {who}, {} turns played (g.turn), {status}; top floor {}, {} tiles left, Countdown {} left{}",
        s.turn(),
        c.top_floor(),
        c.remaining(),
        s.countdown_left(),
        if s.end_triggered() { " (end triggered)" } else { "" }
    );
    if let Some(line) = cards_line(s) {
        let _ = writeln!(o, "{line}");
    }
    castle_grid(&mut o, s);
    if !s.held().is_empty() {
        let held: Vec<String> = s.held().iter().map(|t| t.code()).collect();
        let _ = writeln!(o, "In hand: {}", held.join(" "));
    }
    for seat in 0..s.players() {
        seat_lines(&mut o, s, seat);
    }
    outcome(&mut o, s);
    o
}

/// The castle, a row of text per row of spaces under a header of columns.
fn castle_grid(o: &mut String, s: &State) {
    let c = s.castle();
    o.push_str("    ");
    for col in 0..c.cols() {
        let _ = write!(o, "{col:^6}");
    }
    o.push('\n');
    for r in 0..c.rows() {
        let _ = write!(o, "{r:>2}  ");
        for col in 0..c.cols() {
            let sp = Space::of(r, col).index();
            match c.top(sp) {
                None => o.push_str("  .   "),
                Some(t) => {
                    let mark = if c.is_available(sp) { '*' } else { ' ' };
                    let _ = write!(o, "{}{}{mark} ", c.height(sp), t);
                }
            }
        }
        o.push('\n');
    }
}

/// A seat's score line, then its Realm a row of cells per line.
fn seat_lines(o: &mut String, s: &State, seat: usize) {
    let p = s.player(seat);
    let b = s.breakdown(seat);
    let _ = writeln!(
        o,
        "Seat {seat}{}: score {} (VP {}, Shrines {}, Countdown {}{}{}); Shrine Pool {}",
        if seat == s.current_player() && !s.is_over() { " (to move)" } else { "" },
        b.total,
        b.vp,
        b.shrines,
        b.countdown,
        dragon_points_text(s, &b),
        if b.variant != 0 { format!(", solo variant {}", b.variant) } else { String::new() },
        p.shrine_pool
    );
    for r in 0..SIDE {
        o.push_str("    ");
        for col in 0..SIDE {
            let cell = Cell::of(r, col).index();
            let h = p.realm.height(cell);
            match (h, p.realm.face_up_tile(cell)) {
                (0, _) => o.push_str(" .   "),
                (_, Some(t)) => {
                    let _ = write!(o, "{h}{t} ");
                }
                (_, None) if p.realm.has_shrine(cell) => {
                    let _ = write!(o, "{h}#S  ");
                }
                (_, None) => {
                    let _ = write!(o, "{h}##  ");
                }
            }
        }
        o.push('\n');
    }
}

/// Solo: the Dragon of Ingenuity's tiles and the final rank; else the winners.
fn outcome(o: &mut String, s: &State) {
    if s.is_solo() {
        let taken: Vec<String> = crate::tile::Tile::all()
            .filter(|t| s.dragon_tiles()[t.index() as usize] > 0)
            .map(|t| format!("{}x{}", t, s.dragon_tiles()[t.index() as usize]))
            .collect();
        let _ = writeln!(o, "Dragon of Ingenuity took: {}", if taken.is_empty() { "nothing yet".into() } else { taken.join(" ") });
        if s.is_over() {
            let score = s.score(0);
            let _ = writeln!(o, "Final score {score}: rank {}", crate::solo::rank(score as i64));
        }
    } else if s.is_over() {
        let w: Vec<String> = s.winners().iter().map(|w| w.to_string()).collect();
        let _ = writeln!(o, "Winner(s): seat {}", w.join(", "));
    }
}

/// `Spirits: wind (used), faith  Dragons: harmony`, or nothing without cards.
fn cards_line(s: &State) -> Option<String> {
    use crate::cards::{names, DRAGONS, SPIRITS};
    if !s.has_cards() {
        return None;
    }
    let used = s.turn_cards().used;
    let spirits: Vec<String> = (0..SPIRITS.len())
        .filter(|k| s.spirits() & (1 << k) != 0)
        .map(|k| if used & (1 << k) != 0 { format!("{} (used)", SPIRITS[k]) } else { SPIRITS[k].to_string() })
        .collect();
    let or_none = |v: Vec<String>| if v.is_empty() { "none".to_string() } else { v.join(", ") };
    let dragons = names(s.dragons(), &DRAGONS).into_iter().map(String::from).collect();
    Some(format!("Spirits: {}  Dragons: {}", or_none(spirits), or_none(dragons)))
}

fn dragon_points_text(s: &State, b: &crate::state::score::Breakdown) -> String {
    (0..crate::cards::DRAGON_CARDS)
        .filter(|k| s.dragons() & (1 << k) != 0)
        .map(|k| format!(", {} {}", crate::cards::DRAGONS[k], b.dragons[k]))
        .collect()
}
