//! Pictures of a game: a text picture (`str(game)`) and an SVG (`_repr_svg_`).
//! Presentation only; the rules are elsewhere.

use std::fmt::Write;

use crate::layout::MAX_COLS;
use crate::realm::{CELLS, SIDE};
use crate::state::{Phase, State};

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
    o.push_str("    ");
    for col in 0..c.cols() {
        let _ = write!(o, "{col:^6}");
    }
    o.push('\n');
    for r in 0..c.rows() {
        let _ = write!(o, "{r:>2}  ");
        for col in 0..c.cols() {
            let sp = r * MAX_COLS + col;
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
    if !s.held().is_empty() {
        let held: Vec<String> = s.held().iter().map(|t| t.code()).collect();
        let _ = writeln!(o, "In hand: {}", held.join(" "));
    }
    for seat in 0..s.players() {
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
                let cell = r * SIDE + col;
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
    o
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

const COLOURS: [&str; 6] = ["#c0392b", "#2471a3", "#229954", "#d4ac0d", "#7d3c98", "#117a65"];

/// An SVG picture: the castle (shade = height, Available tiles outlined) and the Realms.
pub fn svg(s: &State) -> String {
    let c = s.castle();
    let cell = 34;
    let realm_w = SIDE * 26 + 20;
    let width = (c.cols() * cell).max(s.players() * realm_w) + 20;
    let height = c.rows() * cell + SIDE * 26 + 84;
    let mut o = String::new();
    let _ = write!(
        o,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" font-family="monospace" font-size="10">"#
    );
    for r in 0..c.rows() {
        for col in 0..c.cols() {
            let sp = r * MAX_COLS + col;
            let (x, y) = (10 + col * cell, 10 + r * cell);
            if let Some(t) = c.top(sp) {
                let h = c.height(sp);
                let stroke = if c.is_available(sp) { "#000" } else { "#bbb" };
                let _ = write!(
                    o,
                    r#"<rect x="{x}" y="{y}" width="{}" height="{}" fill="{}" fill-opacity="{:.2}" stroke="{stroke}" stroke-width="2"/><text x="{}" y="{}">{t}</text><text x="{}" y="{}" font-size="8">{h}</text>"#,
                    cell - 4,
                    cell - 4,
                    COLOURS[t.tile_type().index()],
                    0.25 + 0.25 * h as f32,
                    x + 5,
                    y + 17,
                    x + 3,
                    y + 9
                );
            }
        }
    }
    let top = 20 + c.rows() * cell;
    for seat in 0..s.players() {
        let p = s.player(seat);
        let x0 = 10 + seat * realm_w;
        let _ = write!(o, r#"<text x="{x0}" y="{}">seat {seat}: {}</text>"#, top + 8, s.score(seat));
        for cl in 0..CELLS {
            let (x, y) = (x0 + (cl % SIDE) * 26, top + 14 + (cl / SIDE) * 26);
            let h = p.realm.height(cl);
            let (fill, label) = match (h, p.realm.face_up_tile(cl)) {
                (0, _) => ("#fff".to_string(), String::new()),
                (_, Some(t)) => (COLOURS[t.tile_type().index()].to_string(), t.code()),
                (_, None) => ("#555".to_string(), if p.realm.has_shrine(cl) { "S".into() } else { String::new() }),
            };
            let _ = write!(
                o,
                r##"<rect x="{x}" y="{y}" width="24" height="24" fill="{fill}" stroke="#333"/><text x="{}" y="{}" fill="#fff">{label}</text>"##,
                x + 2,
                y + 15
            );
        }
    }
    if let Some(line) = cards_line(s) {
        let _ = write!(o, r#"<text x="10" y="{}">{line}</text>"#, height - 18);
    }
    if s.phase() == Phase::GameOver {
        let _ = write!(o, r#"<text x="10" y="{}">game over</text>"#, height - 4);
    }
    o.push_str("</svg>");
    o
}
