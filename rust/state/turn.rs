//! The turn's flow after the Action (`docs/cards.md`, "The turn with cards,
//! step by step"): the Consolidation step (R-CONS-1..4), Shrine steps
//! (R-SHRINE-1), where play resumes after a Spirit's effect (R-SPIRIT-2) and
//! the end of the turn (R-END-1). A game without Spirit cards goes straight
//! from the last placement through Consolidation and its Shrine step to the
//! next turn.

use super::spirit::{Resume, TurnCards};
use super::{Phase, State, MAX_SETS};
use crate::realm::ConsolidatedSet;
use crate::tile::Tile;

impl State {
    /// The Action is complete (the last placement, a Discard or a Summon):
    /// `SPIRITS` while an activation is legal, else the Consolidation step.
    // Inlined by force: left to itself the compiler keeps this (and the
    // card test it holds) out of line, which cost the base game 5
    // instructions per random decision (306 against 301, callgrind).
    #[inline(always)]
    pub(crate) fn after_action(&mut self) {
        if self.spirits != 0 && !self.passive && self.any_activation(Phase::Spirits) {
            self.phase = Phase::Spirits;
        } else {
            self.consolidation_step();
        }
    }

    /// `done` in `SPIRITS`: the Consolidation step. If it Consolidates no set
    /// the turn ends at once: `END_TURN` would offer the very position
    /// `SPIRITS` just did.
    pub(crate) fn close_spirits(&mut self) {
        let before = self.n_sets;
        self.consolidation_step();
        if self.phase == Phase::EndTurn && self.n_sets == before {
            self.end_turn();
        }
    }

    /// R-CONS-1..4: Consolidate every set, then its Shrine step; the turn
    /// then ends (or waits in `END_TURN` while a Spirit may still be used).
    pub(crate) fn consolidation_step(&mut self) {
        let seat = self.current as usize;
        // A Realm is settled after every turn, and a Spirit's effect
        // Consolidates the sets it makes at once (`finish_card`); a payment or
        // a flip only turns tiles face down. So a set still to Consolidate
        // holds a placed tile: flood from those cells alone (a Discard or a
        // Summon places none).
        if self.placed > 0 {
            self.consolidate_from(seat, self.placed_cells);
        }
        debug_assert_eq!(self.players[seat].realm.types_with_groups(&crate::groups::SETS), 0, "a set left unconsolidated");
        self.turn_cards.resume = Resume::End;
        if self.n_sets == 0 && self.spirits == 0 {
            self.end_turn(); // the base game's turn without a set: nothing to close
        } else {
            self.shrine_step();
        }
    }

    /// A Spirit's effect is complete: the sets it created are Consolidated at
    /// once, with a Shrine step, and play resumes where it was activated.
    /// Between the two placements a group made by the first waits for the
    /// Consolidation step; only groups with a tile Strength moved are new.
    pub(crate) fn finish_card(&mut self) {
        let seat = self.current as usize;
        let seeds = if self.between_placements() { self.turn_cards.moved } else { crate::realm::ALL };
        self.turn_cards.moved = 0;
        self.consolidate_from(seat, seeds);
        // A Spirit used during a Shrine step returns to that step, which
        // keeps where it resumes.
        self.turn_cards.resume = match self.turn_cards.origin {
            Phase::Shrine => self.turn_cards.resume,
            Phase::Action => Resume::Action,
            Phase::Complete => Resume::Complete,
            Phase::Place => Resume::Place,
            Phase::Spirits => Resume::Spirits,
            _ => Resume::End,
        };
        self.shrine_step();
    }

    /// Consolidate the groups of >= 4 that contain a cell of `seeds` into this
    /// turn's sets, scoring them.
    fn consolidate_from(&mut self, seat: usize, seeds: u16) {
        let first = self.n_sets as usize;
        let (n, vp) =
            self.players[seat].realm.consolidate_around(seeds, self.rules.dragon_set_bonus, &mut self.sets[first..]);
        self.players[seat].vp += vp as u16;
        self.n_sets += n as u8;
    }

    /// R-SHRINE-1: a Shrine step while a Shrine can be built, else play resumes.
    fn shrine_step(&mut self) {
        if self.n_sets != 0 && self.shrine_cells() != 0 {
            self.phase = Phase::Shrine;
        } else {
            self.leave_shrines();
        }
    }

    /// After a Shrine is built: the step goes on while another can be built.
    pub(crate) fn after_shrine(&mut self) {
        if self.shrine_cells() == 0 {
            self.leave_shrines();
        }
    }

    /// The Shrine step is over: the allowances end and play resumes.
    pub(crate) fn leave_shrines(&mut self) {
        for set in self.sets[..self.n_sets as usize].iter_mut() {
            set.allowance = 0;
        }
        self.resume(self.turn_cards.resume);
    }

    /// Play goes on at `to` (`docs/cards.md`, "resume").
    fn resume(&mut self, to: Resume) {
        match to {
            Resume::Action => self.phase = Phase::Action,
            Resume::Complete => self.phase = Phase::Complete,
            Resume::Place => self.phase = Phase::Place,
            // The Realm was just Consolidated: the Consolidation step has
            // nothing left to do.
            Resume::Spirits if !self.passive && self.any_activation(Phase::Spirits) => self.phase = Phase::Spirits,
            Resume::Spirits | Resume::End => {
                if self.spirits != 0 && !self.passive && self.any_activation(Phase::EndTurn) {
                    self.phase = Phase::EndTurn;
                } else {
                    self.end_turn();
                }
            }
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
        self.held = [Tile::from_index_unchecked(0); 2];
        self.held_len = 0;
        self.placed = 0;
        self.placed_cells = 0;
        self.n_sets = 0;
        self.sets = [ConsolidatedSet::default(); MAX_SETS];
        self.turn_cards = TurnCards::default();
        self.turn += 1;
        if self.end_triggered && self.current + 1 == self.seats {
            self.phase = Phase::GameOver;
        } else {
            // Not `% n`: a division per turn showed in the profile.
            let next = self.current + 1;
            self.current = if next == self.seats { 0 } else { next };
            self.phase = Phase::Action;
            if self.solo && self.current == 1 {
                self.play_dragon_turn();
            }
        }
    }
}
