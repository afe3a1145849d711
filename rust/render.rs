//! Pictures of a game: a text picture (`str(game)`) and an SVG (`_repr_svg_`).
//! Presentation only; the rules are elsewhere.
//!
//! The text picture is `text`; this module draws the SVG, its seats' panels
//! in `panels`.

mod panels;
mod text;

pub use text::text;

use std::fmt::Write;

use crate::action::Action;
use crate::game::Game;
use crate::coords::{Cell, Space};
use crate::tile::{Tile, TileType};
use crate::state::State;
use panels::{dragon_panel, panel};

/// Okabe & Ito's palette, which readers with any common colour-vision
/// deficiency can tell apart, one colour per tile type (Merchant, Soldier,
/// Farmer, Season, Wind, Dragon). Black text reads on all six; the tile code
/// printed on every face-up tile tells the type without colour.
const TYPE_FILL: [&str; TileType::COUNT] = ["#E69F00", "#D55E00", "#009E73", "#56B4E9", "#F0E442", "#CC79A7"];
/// The seventh Okabe–Ito colour, left free for the last move.
const MARK: &str = "#0072B2";
const TYPE_NAME: [&str; TileType::COUNT] = ["Merchant", "Soldier", "Farmer", "Season", "Wind", "Dragon"];
const FACE_DOWN: &str = "#595959";

const PAD: usize = 12;
/// Castle space pitch and top tile size.
const CELL: usize = 40;
const TILE: usize = 30;
/// Realm cell pitch.
const RCELL: usize = 30;
const HEADER_H: usize = 64;
const SIDE_W: usize = 210;
const PANEL_W: usize = 184;
const PANEL_GAP: usize = 8;
const CARD_W: usize = 156;
/// Shrine icons drawn for a Shrine Pool (the number is always written).
const POOL_ICONS: usize = 11;

/// The decision before a picture: the state it was taken in, who took it,
/// and the solo Dragon of Ingenuity's actions that followed it.
#[derive(Clone, Debug)]
pub struct LastMove {
    /// The state before the action.
    pub before: State,
    /// The seat that took it.
    pub seat: usize,
    /// The player's action.
    pub action: Action,
    /// The Dragon of Ingenuity's actions played right after it (solo).
    pub dragon: Vec<Action>,
}

impl LastMove {
    /// The last player action of `g` and the state before it, or `None` at
    /// the start (or at the floor of a game copied without history).
    pub fn of(g: &Game) -> Option<LastMove> {
        let mut before = g.clone();
        let action = before.undo()?;
        let seat = before.state().current_player();
        let dragon: Vec<Action> = g.actions_with_author().skip(before.history_len() + 1).map(|(a, _)| a).collect();
        Some(LastMove { before: *before.state(), seat, action, dragon })
    }
}

/// An SVG picture of a position without its last move (see [`svg_with`]).
pub fn svg(s: &State) -> String {
    svg_with(s, None)
}

/// An SVG picture of `g` with its last player action marked.
pub fn game_svg(g: &Game) -> String {
    svg_with(g.state(), LastMove::of(g).as_ref())
}

/// An SVG picture of everything public in `s`: who moves and the phase, the
/// castle (stack heights, top tiles, Available tiles), the tiles in hand,
/// each seat's Realm with its Shrines, Shrine Pool, VP and Countdown tokens
/// and score, the cards in play with their effect as a tooltip, and, given
/// `last`, what the last move changed (taken spaces, placed or moved cells,
/// tiles turned face down, Shrines built). Covered castle tiles and the faces
/// of face-down Realm tiles are never drawn.
///
/// Each top-level element is on a line of its own, so that a page holding
/// many pictures can share the lines that repeat (`dragoncastle replay`).
/// Each castle space drawn is a `<g data-space="r,c">` and each Realm cell a
/// `<g data-seat="k" data-cell="r,c">`, so that a page can map a click to
/// the moves that name it (`dragoncastle serve`).
pub fn svg_with(s: &State, last: Option<&LastMove>) -> String {
    let c = s.castle();
    let before = last.map(|l| &l.before);
    let castle_w = c.cols() * CELL;
    let panels = s.players() + usize::from(s.is_solo());
    let width = (PAD + castle_w + 14 + SIDE_W).max(PAD + panels * (PANEL_W + PANEL_GAP)).max(660) + PAD;
    let castle_top = HEADER_H + PAD;
    let panels_top = castle_top + (c.rows() * CELL).max(side_height(s)) + 14;
    let dragons = s.dragons().count_ones() as usize;
    let panel_h = 226 + 18 * usize::from(dragons > 0 || (s.is_solo() && s.has_cards()));
    let cards = (s.spirits().count_ones() + s.dragons().count_ones()) as usize;
    let per_row = ((width - 2 * PAD) / (CARD_W + 6)).max(1);
    let cards_top = panels_top + panel_h + 12;
    let cards_h = if cards == 0 { 0 } else { 18 + cards.div_ceil(per_row) * 30 };
    let legend_top = cards_top + cards_h;
    let height = legend_top + 92;

    let mut o = String::with_capacity(16 * 1024);
    let _ = write!(
        o,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" font-family="Helvetica,Arial,sans-serif" font-size="11" role="img">"#
    );
    o.push('\n');
    let _ = writeln!(o, r##"<title>{}</title><rect width="{width}" height="{height}" fill="#fff"/>"##, status_line(s));
    header(&mut o, s, last);
    castle(&mut o, s, before, castle_top);
    side(&mut o, s, before, PAD + castle_w + 14, castle_top);
    for seat in 0..s.players() {
        panel(&mut o, s, last, seat, PAD + seat * (PANEL_W + PANEL_GAP), panels_top, panel_h);
    }
    if s.is_solo() {
        dragon_panel(&mut o, s, PAD + PANEL_W + PANEL_GAP, panels_top, panel_h);
    }
    if cards > 0 {
        cards_row(&mut o, s, cards_top, per_row);
    }
    legend(&mut o, legend_top);
    o.push_str("</svg>");
    o
}

/// Height of the column beside the castle: facts, tiles in hand.
fn side_height(s: &State) -> usize {
    96 + if s.held().is_empty() { 0 } else { 18 + TILE }
}

/// `Turn 12 · seat 0 to move · PLACE`, or the result when the game is over.
fn status_line(s: &State) -> String {
    if s.is_over() {
        if s.is_solo() {
            let score = s.score(0);
            return format!("Game over after {} turns · score {score}, rank {}", s.turn(), crate::solo::rank(score as i64));
        }
        let w: Vec<String> = s.winners().iter().map(|w| w.to_string()).collect();
        let who = if w.len() == 1 { format!("winner: seat {}", w[0]) } else { format!("shared victory: seats {}", w.join(", ")) };
        return format!("Game over after {} turns · {who}", s.turn());
    }
    let last = if s.end_triggered() { " · last round" } else { "" };
    format!("Turn {} · seat {} to move · {}{last}", s.turn() + 1, s.current_player(), s.phase().name())
}

fn header(o: &mut String, s: &State, last: Option<&LastMove>) {
    let _ = writeln!(o, r#"<text x="{PAD}" y="{}" font-size="15" font-weight="bold">{}</text>"#, PAD + 12, status_line(s));
    // The prompt alone: it is at most 120 characters, what the header holds (a render test).
    let line2 = if s.is_over() { "" } else { s.phase().prompt() };
    if !line2.is_empty() {
        let _ = writeln!(o, r#"<text x="{PAD}" y="{}" font-size="12">{line2}</text>"#, PAD + 29);
    }
    let line3 = match last {
        None => "Last move: none (start of the game)".to_string(),
        Some(l) => {
            let mut t = format!("Last move: seat {} {}", l.seat, l.action);
            if !l.dragon.is_empty() {
                let d: Vec<String> = l.dragon.iter().map(|a| a.to_string()).collect();
                let _ = write!(t, "; then the Dragon of Ingenuity: {}", d.join(", "));
            }
            t
        }
    };
    let _ = writeln!(o, r#"<text x="{PAD}" y="{}" font-size="12" fill="{MARK}" font-weight="bold">{line3}</text>"#, PAD + 46);
}

/// How a tile face is drawn: its size, its code's font size, whether it is
/// faded (not Available), and its outline.
#[derive(Clone, Copy)]
struct Face {
    size: usize,
    font: usize,
    faded: bool,
    stroke: &'static str,
    stroke_width: f32,
}

impl Face {
    const fn new(size: usize, font: usize) -> Face {
        Face { size, font, faded: false, stroke: "#333", stroke_width: 1.0 }
    }
    const fn outline(self, stroke: &'static str, stroke_width: f32) -> Face {
        Face { stroke, stroke_width, ..self }
    }
}

/// A tile face: coloured square, code, and an outline.
fn tile_face(o: &mut String, x: usize, y: usize, t: Tile, f: Face) {
    let Face { size, font, faded, stroke, stroke_width } = f;
    let _ = write!(
        o,
        r#"<rect x="{x}" y="{y}" width="{size}" height="{size}" rx="3" fill="{}"{} stroke="{stroke}" stroke-width="{stroke_width}"/><text x="{}" y="{}" text-anchor="middle" font-size="{font}" font-weight="bold">{t}</text>"#,
        TYPE_FILL[t.tile_type().index()],
        if faded { r#" fill-opacity="0.4""# } else { "" },
        x + size / 2,
        y + size / 2 + font * 2 / 5,
    );
}

/// A Shrine: a roof over a small hall, centred on `(x, y)`.
fn shrine_icon(o: &mut String, x: usize, y: usize, fill: &str) {
    let _ = write!(
        o,
        r##"<path transform="translate({x} {y})" d="M-8 -1L0 -8L8 -1ZM-5 -1V6H5V-1Z" fill="{fill}" stroke="#000" stroke-width="1"/>"##
    );
}

/// The numbers that move texts use ("take 2,5", "place 3,1") beside a grid
/// whose cell `(r, c)` is drawn at `(left + c * pitch, top + r * pitch)`, `size`
/// wide: column numbers at `col_y`, row numbers right of the grid.
fn coordinates(o: &mut String, (left, top): (usize, usize), pitch: usize, size: usize, (rows, cols): (usize, usize), col_y: usize) {
    for c in 0..cols {
        let _ = write!(o, r##"<text x="{}" y="{col_y}" font-size="8" fill="#888" text-anchor="middle">{c}</text>"##, left + c * pitch + size / 2);
    }
    for r in 0..rows {
        let _ = write!(o, r##"<text x="{}" y="{}" font-size="8" fill="#888">{r}</text>"##, left + (cols - 1) * pitch + size + 3, top + r * pitch + size / 2 + 3);
    }
    o.push('\n');
}

fn castle(o: &mut String, s: &State, before: Option<&State>, top: usize) {
    let c = s.castle();
    coordinates(o, (PAD, top), CELL, TILE, (c.rows(), c.cols()), top - 3);
    for r in 0..c.rows() {
        for col in 0..c.cols() {
            let sp = Space::of(r, col).index();
            let (x, y) = (PAD + col * CELL, top + r * CELL);
            let h = c.height(sp) as usize;
            let taken = before.is_some_and(|b| (b.castle().height(sp) as usize) > h);
            if h == 0 && !taken {
                continue;
            }
            // The space, for a page that maps a click to a move (`dragoncastle serve`).
            let _ = write!(o, r#"<g data-space="{r},{col}">"#);
            // The layers under the top tile, one offset outline each (at most 3).
            for k in (1..h.min(4)).rev() {
                let _ = write!(o, r##"<rect x="{}" y="{}" width="{TILE}" height="{TILE}" rx="3" fill="#ddd" stroke="#888"/>"##, x + 3 * k, y + 3 * k);
            }
            if let Some(t) = c.top(sp) {
                let avail = c.is_available(sp);
                let (stroke, w) = if avail { ("#000", 2.5) } else { ("#777", 1.0) };
                tile_face(o, x, y, t, Face { faded: !avail, ..Face::new(TILE, 11).outline(stroke, w) });
                let _ = write!(o, r#"<text x="{}" y="{}" font-size="8">{h}</text>"#, x + 2, y + 8);
            }
            if taken {
                let _ = write!(
                    o,
                    r#"<rect x="{}" y="{}" width="{}" height="{}" rx="4" fill="none" stroke="{MARK}" stroke-width="3" stroke-dasharray="5 3"/>"#,
                    x as i64 - 3,
                    y as i64 - 3,
                    TILE + 12,
                    TILE + 12
                );
            }
            o.push_str("</g>\n");
        }
    }
}

/// The column beside the castle: its counts, and the tiles in hand.
fn side(o: &mut String, s: &State, before: Option<&State>, x: usize, top: usize) {
    let c = s.castle();
    let mut lines = vec![
        format!("Castle: top floor {}, {} tiles", c.top_floor(), c.remaining()),
        format!("Countdown tokens left: {}", s.countdown_left()),
        format!("General Shrine supply: {}", s.general_shrines()),
        format!("Tiles out of the game: {}", s.discarded()),
    ];
    if s.end_triggered() {
        lines.push("End triggered".into());
    }
    for (k, l) in lines.iter().enumerate() {
        let _ = writeln!(o, r#"<text x="{x}" y="{}">{l}</text>"#, top + 10 + 16 * k);
    }
    let held = s.held();
    if held.is_empty() {
        return;
    }
    let y = top + 96;
    let _ = write!(o, r#"<text x="{x}" y="{}" font-weight="bold">In hand (seat {})</text>"#, y, s.current_player());
    let new_from = before.map_or(held.len(), |b| if held.len() > b.held().len() { b.held().len() } else { held.len() });
    for (k, &t) in held.iter().enumerate() {
        let (stroke, w) = if k >= new_from { (MARK, 3.0) } else { ("#000", 1.0) };
        tile_face(o, x + k * (TILE + 8), y + 8, t, Face::new(TILE, 11).outline(stroke, w));
    }
    o.push('\n');
}
/// The cards in play, each with its effect as a tooltip.
fn cards_row(o: &mut String, s: &State, top: usize, per_row: usize) {
    use crate::cards::{DRAGONS, DRAGON_CARDS, DRAGON_EFFECTS, SPIRITS, SPIRIT_CARDS, SPIRIT_EFFECTS};
    let _ = writeln!(o, r#"<text x="{PAD}" y="{}" font-weight="bold">Cards in play (hover for the effect)</text>"#, top + 10);
    let used = s.turn_cards().used;
    let spirits = (0..SPIRIT_CARDS).filter(|k| s.spirits() & (1 << k) != 0).map(|k| ("Spirit", SPIRITS[k], SPIRIT_EFFECTS[k], used & (1 << k) != 0));
    let dragons = (0..DRAGON_CARDS).filter(|k| s.dragons() & (1 << k) != 0).map(|k| ("Dragon", DRAGONS[k], DRAGON_EFFECTS[k], false));
    for (i, (kind, name, effect, is_used)) in spirits.chain(dragons).enumerate() {
        let (x, y) = (PAD + (i % per_row) * (CARD_W + 6), top + 18 + (i / per_row) * 30);
        let (fill, dash, note) = match (kind, is_used) {
            (_, true) => ("#eee", r#" stroke-dasharray="4 2""#, " (used this turn)"),
            ("Spirit", _) => ("#e8f1f8", "", ""),
            _ => ("#f8ece8", "", ""),
        };
        let _ = writeln!(
            o,
            r##"<g><title>{effect}</title><rect x="{x}" y="{y}" width="{CARD_W}" height="24" rx="4" fill="{fill}" stroke="#333"{dash}/><text x="{}" y="{}">{kind} <tspan font-weight="bold">{name}</tspan>{note}</text></g>"##,
            x + 6,
            y + 16
        );
    }
}

/// Colours with their letters, and what the marks mean.
fn legend(o: &mut String, top: usize) {
    for t in TileType::ALL {
        let x = PAD + t.index() * 106;
        let _ = write!(
            o,
            r##"<rect x="{x}" y="{}" width="22" height="16" rx="2" fill="{}" stroke="#333"/><text x="{}" y="{}" font-size="9" font-weight="bold">{}</text><text x="{}" y="{}">{}</text>"##,
            top + 4,
            TYPE_FILL[t.index()],
            x + 4,
            top + 15,
            t.prefix(),
            x + 26,
            top + 16,
            TYPE_NAME[t.index()]
        );
    }
    o.push('\n');
    let _ = writeln!(
        o,
        r#"<text x="{PAD}" y="{}">Castle: the number is the stack's height; thick black border: Available; faded: not Available.</text>"#,
        top + 36
    );
    let _ = writeln!(
        o,
        r#"<text x="{PAD}" y="{}" fill="{MARK}">Last move, in blue: dashed in the castle, tiles taken; in a Realm, cells changed</text>"#,
        top + 52
    );
    // Two lines: the picture is at least 660 wide, and one line did not fit it.
    let _ = writeln!(
        o,
        r#"<text x="{PAD}" y="{}" fill="{MARK}">(a white dashed square: turned face down).</text>"#,
        top + 66
    );
    let _ = writeln!(o, r#"<text x="{PAD}" y="{}">Grey numbers: the rows and columns that moves name ("take 2,5" is row 2, column 5).</text>"#, top + 82);
}

#[cfg(test)]
mod tests;
