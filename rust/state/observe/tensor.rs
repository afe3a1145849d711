//! The observation tensor: planes over the castle grid, version 1's and the
//! planes each later version appends (`docs/observation.md`).

use super::{checked_observation_shape, OBSERVATION_SIZE};
use crate::castle::MAX_FLOOR;
use crate::coords::Cell;
use crate::layout::SPACES;
use crate::realm::CELLS;
use crate::state::{Phase, State, COUNTDOWN_TOKENS, SHRINES};
use crate::tile::Tile;

impl State {
    /// The tensor of layout `version` (1 to [`OBSERVATION_VERSION`](super::OBSERVATION_VERSION)) for
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
        out.iter_mut().for_each(|x| *x = 0.0);
        self.castle_planes(out);
        self.seat_planes(seat, out);
        self.global_planes(out);
        self.card_planes(out);
        self.end_turn_planes(out);
    }

    /// Version 1: the castle's spaces, heights, Available tiles, top floor and top tiles.
    fn castle_planes(&self, out: &mut [f32]) {
        use super::planes::*;
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
    }

    /// Version 1: each seat's Realm and tokens, seen from `seat`.
    fn seat_planes(&self, seat: usize, out: &mut [f32]) {
        use super::planes::*;
        let mut set = |plane: usize, space: usize, v: f32| out[plane * SPACES + space] = v;
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
    }

    /// Version 1: the pools, the Countdown, the base phases, the tiles in hand and the hidden ones.
    fn global_planes(&self, out: &mut [f32]) {
        use super::planes::*;
        let mut set = |plane: usize, space: usize, v: f32| out[plane * SPACES + space] = v;
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
    }

    /// Version 2: the cards and the Spirits' turn.
    fn card_planes(&self, out: &mut [f32]) {
        use super::planes::*;
        let mut set = |plane: usize, space: usize, v: f32| out[plane * SPACES + space] = v;
        let phase_index = self.phase.index();
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
            (tc.second == crate::state::spirit::Second::Deception) as u8 as f32,
            (tc.second == crate::state::spirit::Second::Deep) as u8 as f32,
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
    }

    /// Version 3: the `END_TURN` phase and a Spirit between the placements.
    fn end_turn_planes(&self, out: &mut [f32]) {
        use super::planes::*;
        let mut set = |plane: usize, space: usize, v: f32| out[plane * SPACES + space] = v;
        let tc = &self.turn_cards;
        for s in 0..SPACES {
            if self.phase == Phase::EndTurn {
                set(END_TURN, s, 1.0);
            }
            if tc.apart {
                set(BETWEEN, s, 1.0);
            }
        }
    }
}
