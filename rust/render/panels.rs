//! The seats' panels of the SVG picture: each Realm with its tokens and pool,
//! and the solo Dragon of Ingenuity's tiles.

use std::fmt::Write;

use super::*;
use crate::realm::{CELLS, SIDE};

/// One seat: title, score, Realm, tokens and pool.
pub(super) fn panel(o: &mut String, s: &State, last: Option<&LastMove>, seat: usize, x: usize, y: usize, h: usize) {
    let p = s.player(seat);
    let b = s.breakdown(seat);
    let moving = !s.is_over() && s.current_player() == seat;
    let won = s.is_over() && !s.is_solo() && s.winners_mask() & (1 << seat) != 0;
    let (stroke, w, fill) = if moving { ("#000", 3, "#fff8dc") } else { ("#999", 1, "#fafafa") };
    let _ = write!(o, r#"<rect x="{x}" y="{y}" width="{PANEL_W}" height="{h}" rx="6" fill="{fill}" stroke="{stroke}" stroke-width="{w}"/>"#);
    let title = match (moving, won) {
        (true, _) => format!("Seat {seat} \u{25B6} to move"),
        (_, true) => format!("Seat {seat} \u{2605} winner"),
        _ => format!("Seat {seat}"),
    };
    let _ = write!(o, r#"<text x="{}" y="{}" font-size="13" font-weight="bold">{title}</text>"#, x + 8, y + 17);
    let mut why = format!("score {} = VP tokens {} + Shrines {} + Countdown {}", b.total, b.vp, b.shrines, b.countdown);
    for k in (0..crate::cards::DRAGON_CARDS).filter(|k| s.dragons() & (1 << k) != 0) {
        let _ = write!(why, " + {} {}", crate::cards::DRAGONS[k], b.dragons[k]);
    }
    if b.variant != 0 {
        let _ = write!(why, " {} (solo variant)", b.variant);
    }
    let delta = last.map_or(0, |l| b.total - l.before.breakdown(seat).total);
    let delta = if delta != 0 { format!(r#"<tspan fill="{MARK}"> ({delta:+})</tspan>"#) } else { String::new() };
    let _ = writeln!(o, r#"<text x="{}" y="{}" font-size="15" font-weight="bold"><title>{why}</title>Score {}{delta}</text>"#, x + 8, y + 36, b.total);
    let realm_before = last.map(|l| &l.before.player(seat).realm);
    let placing = last.is_some_and(|l| matches!(l.action, Action::Place(_)));
    for cell in 0..CELLS {
        let (row, col) = Cell::at(cell).row_col();
        let _ = write!(o, r#"<g data-seat="{seat}" data-cell="{row},{col}">"#);
        realm_cell(o, &p.realm, realm_before, placing, cell, x + 8 + col * RCELL, y + 44 + row * RCELL);
    }
    coordinates(o, (x + 8, y + 44), RCELL, RCELL - 2, (SIDE, SIDE), y + 44 + SIDE * RCELL + 7);
    let ty = y + 44 + SIDE * RCELL + 16;
    let _ = write!(o, r#"<text x="{}" y="{ty}">VP tokens {} · Countdown {}</text>"#, x + 8, p.vp, p.countdown);
    let _ = write!(o, r#"<text x="{}" y="{}">Shrine Pool {}</text>"#, x + 8, ty + 17, p.shrine_pool);
    for k in 0..(p.shrine_pool as usize).min(POOL_ICONS) {
        shrine_icon(o, x + 16 + 15 * k, ty + 31, "#fff");
    }
    let mut extra = Vec::new();
    for k in (0..crate::cards::DRAGON_CARDS).filter(|k| s.dragons() & (1 << k) != 0) {
        extra.push(format!("{} +{}", crate::cards::DRAGONS[k], b.dragons[k]));
    }
    if b.variant != 0 {
        extra.push(format!("variant {}", b.variant));
    }
    if !extra.is_empty() {
        let _ = write!(o, r#"<text x="{}" y="{}">{}</text>"#, x + 8, ty + 54, extra.join(" · "));
    }
    o.push('\n');
}

/// One Realm cell: empty, a face-up tile, or a face-down tile (its face
/// unknown) with perhaps a Shrine; marked when the last move changed it.
/// It closes the cell's `<g data-seat data-cell>`, opened by the caller.
fn realm_cell(o: &mut String, realm: &crate::realm::Realm, before: Option<&crate::realm::Realm>, placing: bool, cell: usize, x: usize, y: usize) {
    let size = RCELL - 2;
    let h = realm.height(cell);
    let up = realm.face_up_tile(cell);
    match up {
        _ if h == 0 => {
            let _ = write!(o, r##"<rect x="{x}" y="{y}" width="{size}" height="{size}" rx="3" fill="#fff" stroke="#ccc"/>"##);
        }
        Some(t) => tile_face(o, x, y, t, Face::new(size, 10)),
        None => {
            let _ = write!(o, r##"<rect x="{x}" y="{y}" width="{size}" height="{size}" rx="3" fill="{FACE_DOWN}" stroke="#222"/>"##);
        }
    }
    if h > 0 {
        let ink = if up.is_some() { "#000" } else { "#fff" };
        let _ = write!(o, r#"<text x="{}" y="{}" font-size="8" fill="{ink}">{h}</text>"#, x + 2, y + 8);
    }
    let new_shrine = before.is_some_and(|b| !b.has_shrine(cell)) && realm.has_shrine(cell);
    if realm.has_shrine(cell) {
        shrine_icon(o, x + size / 2, y + size / 2 + 2, if new_shrine { MARK } else { "#fff" });
    }
    if let Some(b) = before {
        let (h0, up0) = (b.height(cell), b.face_up_tile(cell));
        let changed = h != h0 || (up.is_some() && up != up0) || new_shrine;
        // Turned face down by this move: a set Consolidated (or Wind's flip),
        // the tile just placed included.
        let down = h > 0 && up.is_none() && ((h == h0 && up0.is_some()) || (h > h0 && placing));
        if changed {
            let _ = write!(o, r#"<rect x="{}" y="{}" width="{}" height="{}" rx="4" fill="none" stroke="{MARK}" stroke-width="3"/>"#, x as i64 - 1, y as i64 - 1, size + 2, size + 2);
        }
        if down {
            // White: the cell is face down, so its fill is dark.
            let _ = write!(
                o,
                r##"<rect x="{}" y="{}" width="{}" height="{}" rx="2" fill="none" stroke="#fff" stroke-width="2" stroke-dasharray="3 2"/>"##,
                x + 6,
                y + 6,
                size - 12,
                size - 12
            );
        }
    }
    o.push_str("</g>\n");
}

/// The solo Dragon of Ingenuity: the tiles it took, by symbol.
pub(super) fn dragon_panel(o: &mut String, s: &State, x: usize, y: usize, h: usize) {
    let _ = write!(o, r##"<rect x="{x}" y="{y}" width="{PANEL_W}" height="{h}" rx="6" fill="#fafafa" stroke="#999"/>"##);
    let _ = write!(o, r#"<text x="{}" y="{}" font-size="13" font-weight="bold">Dragon of Ingenuity</text>"#, x + 8, y + 17);
    let taken: Vec<(Tile, u8)> = Tile::all().map(|t| (t, s.dragon_tiles()[t.index() as usize])).filter(|&(_, n)| n > 0).collect();
    let total: u32 = taken.iter().map(|&(_, n)| n as u32).sum();
    let _ = write!(o, r#"<text x="{}" y="{}">took {total} tiles</text>"#, x + 8, y + 34);
    for (k, (t, n)) in taken.iter().enumerate() {
        let (cx, cy) = (x + 8 + (k % 4) * 43, y + 42 + (k / 4) * 20);
        let _ = write!(
            o,
            r##"<rect x="{cx}" y="{cy}" width="40" height="17" rx="3" fill="{}" stroke="#333"/><text x="{}" y="{}" font-size="10" font-weight="bold">{t}×{n}</text>"##,
            TYPE_FILL[t.tile_type().index()],
            cx + 3,
            cy + 12
        );
    }
    o.push('\n');
}
