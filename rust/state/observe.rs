//! What one player may know: observations and determinization.
//!
//! Covered castle tiles (below a top tile) are the only hidden information of
//! the base game. Every tile that left the castle was seen by all when taken, so
//! the *multiset* of covered tiles is public; only their order is unknown.

use serde_json::{json, Value};

use super::{Phase, State, COUNTDOWN_TOKENS, SHRINES};
use crate::castle::MAX_FLOOR;
use crate::coords::{Cell, Space};
use crate::layout::{MAX_COLS, MAX_ROWS, SPACES};
use crate::realm::{CELLS, SIDE};
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

    /// The tensor of layout `version` (1 to [`OBSERVATION_VERSION`]) for
    /// `seat`, flat, and its shape: each version is the one before with
    /// planes appended, so an older one is the newest cut short.
    pub fn observation_tensor_of(&self, seat: usize, version: u32) -> Result<(Vec<f32>, [usize; 3]), crate::Error> {
        let shape = checked_observation_shape(version)?;
        let mut v = vec![0f32; OBSERVATION_SIZE];
        self.observation_tensor(seat, &mut v);
        v.truncate(shape.iter().product());
        Ok((v, shape))
    }

    /// Fill `out` (length [`OBSERVATION_SIZE`]) with what `seat` may know.
    pub fn observation_tensor(&self, seat: usize, out: &mut [f32]) {
        use planes::*;
        out.iter_mut().for_each(|x| *x = 0.0);
        let mut set = |plane: usize, space: usize, v: f32| out[plane * SPACES + space] = v;
        let c = &self.castle;
        let top = c.top_floor();
        for s in 0..SPACES {
            if c.original_height(s) > 0 {
                set(CASTLE_SPACE, s, 1.0);
            }
            let h = c.height(s);
            if h == 0 {
                continue;
            }
            set(CASTLE_HEIGHT, s, h as f32 / MAX_FLOOR as f32);
            if c.is_available(s) {
                set(CASTLE_AVAILABLE, s, 1.0);
            }
            if h == top {
                set(CASTLE_TOP_FLOOR, s, 1.0);
            }
            if let Some(t) = c.top(s) {
                set(CASTLE_TOP + t.index() as usize, s, 1.0);
            }
        }
        let n = self.players();
        let shrine_now = if self.phase == Phase::Shrine { self.shrine_cells() } else { 0 };
        for rel in 0..n {
            let abs = (seat + rel) % n;
            let p = &self.players[abs];
            let base = REALMS + rel * REALM_PLANES;
            for cell in 0..CELLS {
                let space = Cell::at(cell).space().index();
                let h = p.realm.height(cell);
                if h == 0 {
                    continue;
                }
                set(base, space, (h as f32 / 8.0).min(1.0));
                match p.realm.face_up_tile(cell) {
                    Some(t) => set(base + 1 + t.index() as usize, space, 1.0),
                    None => set(base + 30, space, 1.0),
                }
                if p.realm.has_shrine(cell) {
                    set(base + 31, space, 1.0);
                }
                if abs == self.current as usize && shrine_now & (1 << cell) != 0 {
                    set(base + 32, space, 1.0);
                }
            }
            let sbase = SEATS + rel * SEAT_PLANES;
            let vals = [1.0, p.vp as f32 / 50.0, p.shrine_pool as f32 / 10.0, p.countdown as f32 / COUNTDOWN_TOKENS as f32];
            for (k, v) in vals.into_iter().enumerate() {
                for s in 0..SPACES {
                    set(sbase + k, s, v);
                }
            }
        }
        let mut globals = [0.0f32; 8];
        globals[0] = self.general_shrines as f32 / SHRINES as f32;
        globals[1] = self.countdown_left() as f32 / COUNTDOWN_TOKENS as f32;
        globals[2] = self.end_triggered as u8 as f32;
        let phase_index = self.phase.index();
        if phase_index < 5 {
            globals[3 + phase_index] = 1.0; // version 1's one-hot knows the base phases only
        }
        let mut held = [0.0f32; Tile::SYMBOLS];
        for t in self.held() {
            held[t.index() as usize] += 0.5;
        }
        let hidden = self.hidden_counts();
        for s in 0..SPACES {
            for (k, v) in globals.iter().enumerate() {
                set(GLOBAL + k, s, *v);
            }
            for k in 0..Tile::SYMBOLS {
                set(HELD + k, s, held[k]);
                set(HIDDEN + k, s, hidden[k] as f32 / 4.0);
            }
        }
        // Version 2: the cards and the Spirits' turn.
        let tc = &self.turn_cards;
        let mut constant = [0.0f32; COUNT - PHASE];
        if phase_index < SPIRITS_IN_PLAY - PHASE {
            constant[phase_index] = 1.0; // version 2's one-hot knows 14 phases
        }
        for k in 0..10 {
            constant[SPIRITS_IN_PLAY - PHASE + k] = (self.spirits >> k & 1) as f32;
            constant[SPIRITS_USED - PHASE + k] = (tc.used >> k & 1) as f32;
            constant[DRAGONS_IN_PLAY - PHASE + k] = (self.dragons >> k & 1) as f32;
        }
        let flags = [
            tc.elegance as u8 as f32,
            tc.must_elegance as u8 as f32,
            (tc.second == super::spirit::Second::Deception) as u8 as f32,
            (tc.second == super::spirit::Second::Deep) as u8 as f32,
            tc.faith_extra as f32,
            tc.wind_flipped as u8 as f32,
            tc.moves as f32 / 2.0,
        ];
        constant[TURN_FLAGS - PHASE..TURN_FLAGS - PHASE + 7].copy_from_slice(&flags);
        for s in 0..SPACES {
            for (k, v) in constant[..FIRST_PICK - PHASE].iter().enumerate() {
                if *v != 0.0 {
                    set(PHASE + k, s, *v);
                }
            }
        }
        if self.phase == Phase::Complete {
            set(FIRST_PICK, tc.first_space as usize, 1.0);
        }
        let realm_space = |cell: usize| Cell::at(cell).space().index();
        match self.phase {
            Phase::WindTo | Phase::StrengthTo => set(LIFTED, realm_space(tc.lifted as usize), 1.0),
            Phase::Strength if tc.moves > 0 => set(LIFTED, realm_space(tc.last_to as usize), 1.0),
            _ => {}
        }
        let turn_sets = self.set_cells();
        for cell in 0..CELLS {
            if turn_sets & (1 << cell) != 0 {
                set(TURN_SETS, realm_space(cell), 1.0);
            }
            if self.phase == Phase::Cunning && tc.pending & (1 << cell) != 0 {
                set(CUNNING_GROUP, realm_space(cell), 1.0);
            }
        }
        // Version 3.
        for s in 0..SPACES {
            if self.phase == Phase::EndTurn {
                set(END_TURN, s, 1.0);
            }
            if tc.apart {
                set(BETWEEN, s, 1.0);
            }
        }
    }

    /// The observation of `seat` as JSON-like data (`observation(player)` in Python).
    pub fn observation(&self, seat: usize) -> Value {
        let c = &self.castle;
        let grid = |f: &dyn Fn(usize) -> Value| -> Value {
            (0..c.rows())
                .map(|r| (0..c.cols()).filter_map(|col| Space::new(r, col)).map(|s| f(s.index())).collect::<Vec<_>>())
                .collect::<Vec<_>>()
                .into()
        };
        let dragons_of = |seat: usize| -> Value {
            let b = self.breakdown(seat);
            let m: serde_json::Map<String, Value> = (0..crate::cards::DRAGON_CARDS)
                .filter(|k| self.dragons & (1 << k) != 0)
                .map(|k| (crate::cards::DRAGONS[k].to_string(), b.dragons[k].into()))
                .collect();
            Value::Object(m)
        };
        let realm = |seat: usize| -> Value {
            let p = &self.players[seat];
            let cells = |f: &dyn Fn(usize) -> Value| -> Value {
                (0..SIDE).map(|r| (0..SIDE).filter_map(|col| Cell::new(r, col)).map(|c| f(c.index())).collect::<Vec<_>>()).collect::<Vec<_>>().into()
            };
            json!({
                "heights": cells(&|i| p.realm.height(i).into()),
                "tops": cells(&|i| p.realm.face_up_tile(i).map(|t| t.code()).into()),
                "face_up": cells(&|i| (p.realm.face_up() & (1 << i) != 0).into()),
                "shrines": cells(&|i| p.realm.has_shrine(i).into()),
                "shrine_pool": p.shrine_pool,
                "vp": p.vp,
                "countdown": p.countdown,
                "score": self.score(seat),
                "dragons": dragons_of(seat),
            })
        };
        let hidden = self.hidden_counts();
        let hidden: serde_json::Map<String, Value> = Tile::all()
            .filter(|t| hidden[t.index() as usize] > 0)
            .map(|t| (t.code(), hidden[t.index() as usize].into()))
            .collect();
        let dragon: serde_json::Map<String, Value> = Tile::all()
            .filter(|t| self.dragon_tiles[t.index() as usize] > 0)
            .map(|t| (t.code(), self.dragon_tiles[t.index() as usize].into()))
            .collect();
        json!({
            "player": seat,
            "players": self.players(),
            "solo": self.solo,
            "dragon_tiles": dragon,
            "last_pick": (0..self.seats()).map(|p| self.last_pick[p].map(|t| t.name())).collect::<Vec<_>>(),
            "current_player": self.current,
            "phase": self.phase.name(),
            "turn": self.turn,
            "top_floor": c.top_floor(),
            "castle": {
                "rows": c.rows(),
                "cols": c.cols(),
                "heights": grid(&|s| c.height(s).into()),
                "tops": grid(&|s| c.top(s).map(|t| t.code()).into()),
                "available": grid(&|s| c.is_available(s).into()),
            },
            "hidden_tiles": hidden,
            "realms": (0..self.players()).map(realm).collect::<Vec<_>>(),
            "held": self.held().iter().map(|t| t.code()).collect::<Vec<_>>(),
            "general_shrines": self.general_shrines,
            "countdown_left": self.countdown_left(),
            "end_triggered": self.end_triggered,
            "discarded": self.discarded,
            "spirits": crate::cards::names(self.spirits, &crate::cards::SPIRITS),
            "dragons": crate::cards::names(self.dragons, &crate::cards::DRAGONS),
            "spirits_used": crate::cards::names(self.turn_cards.used, &crate::cards::SPIRITS),
            "elegance": self.turn_cards.elegance,
            "second_pick": self.turn_cards.second.name(),
            "faith_extra": self.turn_cards.faith_extra,
            "spirit_between_placements": self.turn_cards.apart,
        })
    }
}
