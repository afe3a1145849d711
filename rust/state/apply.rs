//! Performing decisions. `apply` checks; `apply_unchecked` is what search uses.

use super::{Phase, State, MAX_SETS};
use crate::action::Action;
use crate::error::Error;
use crate::realm::ConsolidatedSet;

impl State {
    /// Apply `a` if legal; otherwise return why not and leave the state as it was.
    pub fn apply(&mut self, a: Action) -> Result<(), Error> {
        self.check_legal(a)?;
        self.apply_unchecked(a);
        Ok(())
    }

    /// Apply an action known to be legal (from [`State::legal_actions`]).
    pub fn apply_unchecked(&mut self, a: Action) {
        self.dragon_log_len = 0;
        let seat = self.current as usize;
        match a {
            Action::Take(s) => {
                let t = self.castle.remove_top(s as usize);
                self.turn_pick = Some(t.tile_type());
                self.held[self.held_len as usize] = t;
                self.held_len += 1;
                self.phase = if self.held_len == 1 { Phase::Complete } else { Phase::Place };
            }
            Action::TakeShrine => {
                self.general_shrines -= 1;
                self.players[seat].shrine_pool += 1;
                self.phase = Phase::Place;
            }
            Action::Discard => {
                self.held_len = 0;
                self.discarded += 1;
                self.players[seat].vp += 1;
                self.end_turn();
            }
            Action::Summon => {
                self.players[seat].countdown += 1;
                self.take_countdown_token();
                self.end_turn();
            }
            Action::Place(c) => {
                let t = self.held[self.placed as usize];
                self.players[seat].realm.place(c as usize, t);
                if self.placed == 0 {
                    self.first_cell = c;
                }
                self.placed += 1;
                if self.placed == self.held_len {
                    self.consolidate();
                }
            }
            Action::Shrine(c) => {
                let p = &mut self.players[seat];
                p.shrine_pool -= 1;
                p.realm.build_shrine(c as usize);
                let n = self.n_sets as usize;
                if let Some(set) = self.sets[..n].iter_mut().find(|s| s.cells & (1 << c) != 0) {
                    set.allowance -= 1;
                }
                if self.shrine_cells() == 0 {
                    self.end_turn();
                }
            }
            Action::Done => self.end_turn(),
            // No Spirit card is in play in the base game; legal_actions never lists one.
            Action::Spirit { .. } => {}
        }
    }

    /// R-CONS-1..4 after the last tile is placed, then the Shrine step if any
    /// Shrine can be built (R-SHRINE-1), else the turn ends.
    fn consolidate(&mut self) {
        let seat = self.current as usize;
        let mut sets = [ConsolidatedSet::default(); MAX_SETS];
        let (n, vp) = self.players[seat].realm.consolidate(self.rules.dragon_set_bonus, &mut sets);
        self.players[seat].vp += vp as u16;
        self.sets = sets;
        self.n_sets = n as u8;
        if n > 0 && self.shrine_cells() != 0 {
            self.phase = Phase::Shrine;
        } else {
            self.end_turn();
        }
    }

    /// R-END-1: the last token of the track shows the mark (N-th, 3rd in solo).
    pub(crate) fn take_countdown_token(&mut self) {
        self.tokens_taken += 1;
        if self.tokens_taken == self.track {
            self.end_triggered = true;
        }
    }

    /// R-END-1: after the trigger the round is completed up to the last seat. In
    /// solo the Dragon of Ingenuity then plays its turn at once (R-SOLO-2).
    pub(crate) fn end_turn(&mut self) {
        self.last_pick[self.current as usize] = self.turn_pick.take();
        // Clear the per-turn scratch fully so equal positions compare equal.
        self.held = [crate::tile::Tile::from_index_unchecked(0); 2];
        self.held_len = 0;
        self.placed = 0;
        self.first_cell = 0;
        self.n_sets = 0;
        self.sets = [ConsolidatedSet::default(); MAX_SETS];
        self.turn += 1;
        if self.end_triggered && self.current + 1 == self.n {
            self.phase = Phase::GameOver;
        } else {
            self.current = (self.current + 1) % self.n;
            self.phase = Phase::Action;
            if self.solo && self.current == 1 {
                self.play_dragon_turn();
            }
        }
    }
}
