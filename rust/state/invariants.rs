//! The conservation laws and the phase-dependent shape of a position,
//! checked from scratch (after every step in tests).

use super::{Phase, Player, State, COUNTDOWN_TOKENS, MAX_SETS, SHRINES};
use crate::realm::Realm;
use crate::tile::Tile;

impl State {
    /// Recompute every derived structure from scratch and check the conservation
    /// laws; used after every step in tests.
    pub fn check_invariants(&self) -> Result<(), String> {
        self.castle.check_invariants()?;
        let n = self.players();
        let dragon: usize = self.dragon_tiles.iter().map(|&k| k as usize).sum();
        let mut tiles = self.castle.remaining() + self.discarded as usize + self.held().len() + dragon;
        let mut shrines = self.general_shrines as u32;
        let mut tokens = 0;
        for (i, p) in self.players.iter().enumerate() {
            if i >= n {
                if i < self.seats() {
                    tokens += p.countdown as u32; // the Dragon of Ingenuity's Summons
                    if p.realm != Realm::default() || p.shrine_pool != 0 || p.vp != 0 {
                        return Err("the Dragon of Ingenuity has a Realm, Shrines or VP".into());
                    }
                } else if *p != (Player { shrine_pool: 1, ..Player::default() }) {
                    return Err(format!("unused seat {i} is not pristine"));
                }
                continue;
            }
            // Mid-turn phases may hold an unconsolidated group (between or
            // after the placements, a Spirit's effect under way).
            let between = self.between_placements();
            let placing = i == self.current as usize
                && match self.phase {
                    Phase::Action | Phase::Complete | Phase::EndTurn | Phase::GameOver => false,
                    Phase::Shrine => between,
                    Phase::Destroy => between || self.turn_cards.origin == Phase::Spirits,
                    _ => true,
                };
            p.realm.check_invariants(!placing).map_err(|e| format!("seat {i}: {e}"))?;
            tiles += p.realm.tiles() as usize;
            shrines += p.shrine_pool as u32 + p.realm.shrine_count();
            tokens += p.countdown as u32;
        }
        if tiles != Tile::TOTAL {
            return Err(format!("{tiles} tiles accounted for, not {}", Tile::TOTAL));
        }
        if shrines != SHRINES as u32 {
            return Err(format!("{shrines} Shrines accounted for, not {SHRINES}"));
        }
        if tokens != self.tokens_taken as u32 || self.tokens_taken > COUNTDOWN_TOKENS {
            return Err("Countdown tokens do not add up".into());
        }
        if self.end_triggered != (self.tokens_taken >= self.track) {
            return Err("end trigger disagrees with the Countdown track (R-END-1)".into());
        }
        if self.current as usize >= self.seats() || (self.solo && self.current != 0 && !self.is_over()) {
            return Err("current seat out of range (in solo the player is always to move)".into());
        }
        let expect_held = match self.phase {
            Phase::Complete => self.held_len == 1 && self.placed == 0,
            Phase::Place => self.held_len >= 1 && self.placed < self.held_len,
            Phase::Action | Phase::Spirits | Phase::EndTurn | Phase::GameOver => self.held().is_empty(),
            // A Spirit's effect or a Shrine step may come between the picks
            // or the placements.
            _ => self.held_len <= 2 && self.placed <= self.held_len,
        };
        if !expect_held {
            return Err(format!("held tiles {:?} do not fit phase {:?}", self.held(), self.phase));
        }
        if self.turn_cards.used == 0 && self.placed_cells.count_ones() != self.placed as u32 {
            return Err("the cells placed this turn disagree with the tiles placed".into());
        }
        if self.n_sets as usize > MAX_SETS {
            return Err("consolidated set counts out of range".into());
        }
        if self.phase == Phase::Action && self.n_sets != 0 && self.turn_cards.used == 0 {
            return Err("sets at the start of a turn without a Spirit".into());
        }
        if !self.is_over() && self.legal_actions().is_empty() {
            return Err("no legal action in a running game".into());
        }
        Ok(())
    }
}
