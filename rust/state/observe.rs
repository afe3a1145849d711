//! What one player may know: observations and determinization.
//!
//! Covered castle tiles (below a top tile) are the only hidden information of
//! the base game. Every tile that left the castle was seen by all when taken, so
//! the *multiset* of covered tiles is public; only their order is unknown.
//!
//! The tensor is written by `tensor`, the JSON-like observation by `json`.

mod json;
mod tensor;

use super::{Phase, State};
use crate::layout::{MAX_COLS, MAX_ROWS, SPACES};
use crate::realm::CELLS;
use crate::rng::SplitMix64;
use crate::tile::Tile;

/// Planes of the observation tensor, each `12 × 12` (`docs/observation.md`).
pub mod planes {
    /// Plane 0: the castle space exists in the layout.
    pub const CASTLE_SPACE: usize = 0;
    /// Plane 1: stack height / 9.
    pub const CASTLE_HEIGHT: usize = 1;
    /// Plane 2: the top tile is Available (R-AVAIL-1).
    pub const CASTLE_AVAILABLE: usize = 2;
    /// Plane 3: the stack is on the top floor.
    pub const CASTLE_TOP_FLOOR: usize = 3;
    /// 29 planes: the symbol of each visible top tile.
    pub const CASTLE_TOP: usize = 4;
    /// Per seat, relative to the observer (observer first), 33 planes in the
    /// north-west 4 × 4 corner: height, 29 face-up symbols, face-down top, Shrine,
    /// Shrine may be built now.
    pub const REALMS: usize = CASTLE_TOP + 29; // 33
    /// Planes per relative seat's Realm.
    pub const REALM_PLANES: usize = 33;
    /// Per relative seat, constant planes: seat in game, VP, Shrine Pool, Countdown tokens.
    pub const SEATS: usize = REALMS + 4 * REALM_PLANES; // 165
    /// Constant planes per relative seat.
    pub const SEAT_PLANES: usize = 4;
    /// Constant planes: general Shrines, Countdown left, end triggered, phase one-hot (5).
    pub const GLOBAL: usize = SEATS + 4 * SEAT_PLANES; // 181
    /// 29 planes: tiles in hand (constant: count / 2).
    pub const HELD: usize = GLOBAL + 8; // 189
    /// 29 planes: covered tiles of each symbol (constant: count / 4).
    pub const HIDDEN: usize = HELD + 29; // 218
    /// Version 1 ends here.
    pub const COUNT_V1: usize = HIDDEN + 29; // 247
    /// Version 2 (`docs/cards.md`): constant phase one-hot over all 14 phases.
    pub const PHASE: usize = COUNT_V1; // 247
    /// Constant: Spirit card k in play; used this turn; Dragon card k in play.
    pub const SPIRITS_IN_PLAY: usize = PHASE + 14; // 261
    /// 10 planes: Spirit card k used this turn.
    pub const SPIRITS_USED: usize = SPIRITS_IN_PLAY + 10; // 271
    /// 10 planes: Dragon card k in play.
    pub const DRAGONS_IN_PLAY: usize = SPIRITS_USED + 10; // 281
    /// Constant turn flags: Elegance active, Elegance pick pending, Deception
    /// pending, Deep pending, Faith's extra Shrine, Wind's flip done, Strength's moves / 2.
    pub const TURN_FLAGS: usize = DRAGONS_IN_PLAY + 10; // 291
    /// Castle grid: the first pick's space (phase COMPLETE).
    pub const FIRST_PICK: usize = TURN_FLAGS + 7; // 298
    /// The mover's Realm: the lifted cell, or Strength's last destination.
    pub const LIFTED: usize = FIRST_PICK + 1; // 299
    /// The mover's Realm: tiles of this turn's sets.
    pub const TURN_SETS: usize = LIFTED + 1; // 300
    /// The mover's Realm: Change's group waiting for Cunning.
    pub const CUNNING_GROUP: usize = TURN_SETS + 1; // 301
    /// Version 2 ends here.
    pub const COUNT_V2: usize = CUNNING_GROUP + 1; // 302
    /// Version 3 (R-SPIRIT-2 at any time): constant, the phase is `END_TURN`
    /// (version 2's one-hot knows 14 phases only).
    pub const END_TURN: usize = COUNT_V2; // 302
    /// Constant: a Spirit came between the two placements (R-PLACE-3 no
    /// longer orders identical tiles).
    pub const BETWEEN: usize = END_TURN + 1; // 303
    /// Planes of the version-3 tensor: 304.
    pub const COUNT: usize = BETWEEN + 1; // 304
}

/// The tensor's layout version: a new plane never silently shifts a trained
/// model's input (`docs/observation.md`).
pub const OBSERVATION_VERSION: u32 = 3;
/// Shape of the observation tensor (version 3): `[304, 12, 12]`, planes over the castle grid.
pub const OBSERVATION_SHAPE: [usize; 3] = [planes::COUNT, MAX_ROWS, MAX_COLS];
/// Floats in the observation tensor: 304 planes of 144.
pub const OBSERVATION_SIZE: usize = planes::COUNT * SPACES;

/// [`observation_shape`], with an error that says which versions exist.
pub fn checked_observation_shape(version: u32) -> Result<[usize; 3], crate::Error> {
    observation_shape(version)
        .ok_or_else(|| crate::Error::Setup(format!("observation version {version} does not exist (1 or {OBSERVATION_VERSION})")))
}

/// The shape of the tensor of layout `version` (1, 2 or 3): each version
/// is the one before with planes appended.
pub const fn observation_shape(version: u32) -> Option<[usize; 3]> {
    match version {
        1 => Some([planes::COUNT_V1, MAX_ROWS, MAX_COLS]),
        2 => Some([planes::COUNT_V2, MAX_ROWS, MAX_COLS]),
        3 => Some(OBSERVATION_SHAPE),
        _ => None,
    }
}

/// The compact observation (`docs/observation.md`, "Compact encoding"): the
/// information of the version-3 planes as small integers, one byte each, in
/// 1,190 bytes instead of 175 KB. Each field is derived from planes of the
/// tensor, so the two never disagree (tested in both engines).
pub mod compact {
    /// 144 each, by castle space: in the layout, height, Available, on the
    /// top floor, top tile's symbol + 1 (0: none).
    pub const CASTLE_SPACE: usize = 0;
    /// Stack height, 0 to 9.
    pub const CASTLE_HEIGHT: usize = 144;
    /// The top tile is Available (R-AVAIL-1).
    pub const CASTLE_AVAILABLE: usize = 288;
    /// The stack is on the top floor.
    pub const CASTLE_TOP_FLOOR: usize = 432;
    /// The top tile's symbol index + 1, 0 for none.
    pub const CASTLE_TOP: usize = 576;
    /// Per relative seat (observer first), 80: by Realm cell, height (at
    /// most 8, as the plane), face-up symbol + 1, face-down top, Shrine,
    /// Shrine may be built now; 16 each.
    pub const REALMS: usize = 720;
    /// Bytes per relative seat's Realm: 5 fields of 16 cells.
    pub const REALM_SIZE: usize = 80;
    /// Per relative seat, 4: in the game, VP (at most 255), Shrine Pool, Countdown tokens.
    pub const SEATS: usize = REALMS + 4 * REALM_SIZE; // 1040
    /// General Shrines, Countdown tokens left, end triggered, phase index.
    pub const GLOBAL: usize = SEATS + 16; // 1056
    /// 29 each: tiles in hand, covered tiles, by symbol.
    pub const HELD: usize = GLOBAL + 4; // 1060
    /// 29: covered castle tiles, by symbol.
    pub const HIDDEN: usize = HELD + 29; // 1089
    /// 10 each: Spirit in play, Spirit used this turn, Dragon in play.
    pub const SPIRITS_IN_PLAY: usize = HIDDEN + 29; // 1118
    /// 10: Spirit card used this turn.
    pub const SPIRITS_USED: usize = SPIRITS_IN_PLAY + 10; // 1128
    /// 10: Dragon card in play.
    pub const DRAGONS_IN_PLAY: usize = SPIRITS_USED + 10; // 1138
    /// The 7 turn flags of the planes, as counts (Strength's moves 0..2).
    pub const TURN_FLAGS: usize = DRAGONS_IN_PLAY + 10; // 1148
    /// First pick's space + 1 (phase COMPLETE; else 0), lifted cell + 1.
    pub const FIRST_PICK: usize = TURN_FLAGS + 7; // 1155
    /// The lifted cell (Wind, Strength) or Strength's last destination, + 1; else 0.
    pub const LIFTED: usize = FIRST_PICK + 1; // 1156
    /// 16 each, by the mover's Realm cell: this turn's sets, Change's group.
    pub const TURN_SETS: usize = LIFTED + 1; // 1157
    /// 16: Change's group waiting for Cunning.
    pub const CUNNING_GROUP: usize = TURN_SETS + 16; // 1173
    /// A Spirit came between the two placements (version 3).
    pub const BETWEEN: usize = CUNNING_GROUP + 16; // 1189
    /// Bytes of the compact observation: 1,190.
    pub const SIZE: usize = BETWEEN + 1; // 1190
}
/// Bytes of the compact observation (`compact::SIZE`, 1,190).
pub const COMPACT_OBSERVATION_SIZE: usize = compact::SIZE;

impl State {
    /// Fill `out` (length [`COMPACT_OBSERVATION_SIZE`]) with the compact
    /// observation of `seat`: what [`State::observation_tensor`] says, as
    /// bytes, written directly (a vectorized environment writes one per step).
    pub fn compact_observation(&self, seat: usize, out: &mut [u8]) {
        use compact::*;
        out[..SIZE].fill(0);
        self.castle.compact_fields(&mut out[CASTLE_SPACE..REALMS]);
        let n = self.players();
        let shrine_now = if self.phase == Phase::Shrine { self.shrine_cells() } else { 0 };
        for rel in 0..n {
            let abs = (seat + rel) % n;
            let p = &self.players[abs];
            let base = REALMS + rel * REALM_SIZE;
            for cell in 0..CELLS {
                let h = p.realm.height(cell);
                if h == 0 {
                    continue;
                }
                out[base + cell] = h.min(8);
                match p.realm.face_up_tile(cell) {
                    Some(t) => out[base + 16 + cell] = t.index() + 1,
                    None => out[base + 32 + cell] = 1,
                }
                out[base + 48 + cell] = u8::from(p.realm.has_shrine(cell));
                out[base + 64 + cell] = u8::from(abs == self.current as usize && shrine_now & (1 << cell) != 0);
            }
            let seats = SEATS + rel * 4;
            out[seats..seats + 4].copy_from_slice(&[1, p.vp.min(255) as u8, p.shrine_pool, p.countdown]);
        }
        out[GLOBAL..GLOBAL + 4].copy_from_slice(&[
            self.general_shrines,
            self.countdown_left(),
            u8::from(self.end_triggered),
            self.phase.index() as u8,
        ]);
        for t in self.held() {
            out[HELD + t.index() as usize] += 1;
        }
        out[HIDDEN..HIDDEN + Tile::SYMBOLS].copy_from_slice(&self.hidden_counts());
        let tc = &self.turn_cards;
        for k in 0..10 {
            out[SPIRITS_IN_PLAY + k] = (self.spirits >> k & 1) as u8;
            out[SPIRITS_USED + k] = (tc.used >> k & 1) as u8;
            out[DRAGONS_IN_PLAY + k] = (self.dragons >> k & 1) as u8;
        }
        out[TURN_FLAGS..TURN_FLAGS + 7].copy_from_slice(&[
            u8::from(tc.elegance),
            u8::from(tc.must_elegance),
            u8::from(tc.second == super::spirit::Second::Deception),
            u8::from(tc.second == super::spirit::Second::Deep),
            tc.faith_extra,
            u8::from(tc.wind_flipped),
            tc.moves,
        ]);
        if self.phase == Phase::Complete {
            out[FIRST_PICK] = tc.first_space + 1;
        }
        out[LIFTED] = match self.phase {
            Phase::WindTo | Phase::StrengthTo => tc.lifted + 1,
            Phase::Strength if tc.moves > 0 => tc.last_to + 1,
            _ => 0,
        };
        let turn_sets = self.set_cells();
        for cell in 0..CELLS {
            out[TURN_SETS + cell] = (turn_sets >> cell & 1) as u8;
            out[CUNNING_GROUP + cell] = u8::from(self.phase == Phase::Cunning && tc.pending & (1 << cell) != 0);
        }
        out[BETWEEN] = u8::from(tc.apart);
    }

    /// How many covered tiles of each symbol remain (public knowledge).
    pub fn hidden_counts(&self) -> [u8; Tile::SYMBOLS] {
        self.castle.hidden_counts()
    }

    /// A copy whose covered tiles are re-dealt uniformly among the covered
    /// positions: the covered tiles sorted in code order, then Fisher–Yates with
    /// SplitMix64(seed) (`docs/seeding.md`). Sorting first makes the copy depend
    /// on the public multiset of covered tiles only, never on their true order.
    pub fn determinize(&self, seed: u64) -> State {
        self.redeal_covered(|tiles| SplitMix64::new(seed).shuffle(tiles))
    }

    /// A copy whose covered tiles, laid out in code order, are permuted by
    /// `shuffle` and put back on the covered positions in dealing order. Both
    /// `determinize` and the search's own re-deal go through here, so neither
    /// can see the true order of the covered tiles.
    pub(crate) fn redeal_covered(&self, shuffle: impl FnOnce(&mut [Tile])) -> State {
        let mut s = *self;
        let mut slots = [0u8; Tile::TOTAL];
        let mut tiles = [Tile::from_index_unchecked(0); Tile::TOTAL];
        let mut n = 0;
        for i in self.castle.hidden_slots() {
            slots[n] = i as u8;
            tiles[n] = self.castle.slot(i);
            n += 1;
        }
        tiles[..n].sort_unstable();
        shuffle(&mut tiles[..n]);
        for k in 0..n {
            s.castle.set_slot(slots[k] as usize, tiles[k]);
        }
        s.castle.refresh();
        s
    }
}
