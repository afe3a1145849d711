//! What the Spirits do: the payment and the start of an effect, then its
//! follow-up decisions and the sets they Consolidate.

use crate::state::{Phase, State, MAX_SETS};
use super::Second;
use crate::action::Action;
use crate::cards::spirit::*;
use crate::realm::{flood, set_vp, ConsolidatedSet};
use crate::tile::TileType;

impl State {
    /// `Spirit { card, pay }`: pay (R-SPIRIT-1), then start the effect.
    pub(crate) fn activate(&mut self, card: u8, pay: Option<u8>) {
        let seat = self.current as usize;
        match pay {
            Some(c) => {
                self.players[seat].realm.discard_top(c as usize);
                self.discarded += 1;
            }
            None => {
                self.players[seat].shrine_pool -= 1;
                self.general_shrines += 1;
            }
        }
        self.turn_cards.used |= 1 << card;
        if self.phase == Phase::Cunning {
            // Change's group of 3 becomes a Cunning set of its changed type.
            let ty = TileType::ALL[self.turn_cards.pending_type as usize];
            let bonus = u32::from(self.rules.dragon_set_bonus && ty == TileType::Dragon);
            self.consolidate_set(self.turn_cards.pending, 2 + bonus, ty);
            self.turn_cards.pending = 0;
            return self.finish_card();
        }
        self.turn_cards.origin = self.phase;
        if self.phase == Phase::Place && self.placed > 0 {
            self.turn_cards.apart = true;
        }
        match card {
            BEAUTY | CUNNING => {
                self.turn_cards.set_card = card;
                self.phase = Phase::Set;
            }
            ELEGANCE => {
                self.turn_cards.elegance = true;
                self.turn_cards.must_elegance = true;
            }
            WIND => {
                self.turn_cards.wind_flipped = false;
                self.phase = Phase::Wind;
            }
            DECEPTION => self.turn_cards.second = Second::Deception,
            DEEP => self.turn_cards.second = Second::Deep,
            STRENGTH => {
                self.turn_cards.moves = 0;
                self.turn_cards.moved = 0;
                self.phase = Phase::Strength;
            }
            CHANGE => self.phase = Phase::Change,
            FAITH => {
                self.turn_cards.faith_extra = 1;
                self.finish_card();
            }
            DESTRUCTION => self.phase = Phase::Destroy,
            _ => {}
        }
    }

    /// The follow-up decisions of the Spirits.
    pub(crate) fn apply_follow_up(&mut self, a: Action) {
        let seat = self.current as usize;
        match a {
            Action::Destroy(s) => {
                self.castle.remove_top(s as usize);
                self.discarded += 1;
                self.finish_card();
            }
            Action::Flip(c) => {
                self.players[seat].realm.turn_down(1 << c);
                self.turn_cards.wind_flipped = true;
                if self.players[seat].realm.movable_shrines() == 0 {
                    self.finish_card();
                }
            }
            Action::ShrineFrom(c) => {
                self.turn_cards.lifted = c;
                self.phase = Phase::WindTo;
            }
            Action::ShrineTo(c) => {
                self.players[seat].realm.move_shrine(self.turn_cards.lifted as usize, c as usize);
                self.finish_card();
            }
            Action::MoveFrom(c) => {
                self.turn_cards.lifted = c;
                self.phase = Phase::StrengthTo;
            }
            Action::MoveTo(to) => self.strength_move_to(to),
            Action::Set(c) => self.consolidate_chosen_set(c),
            Action::Change { cell, ty } => self.change_tile(cell, ty),
            _ => {}
        }
    }

    /// Strength puts the lifted tile on `to`; a second move may follow.
    fn strength_move_to(&mut self, to: u8) {
        let seat = self.current as usize;
        let from = self.turn_cards.lifted;
        let realm = &mut self.players[seat].realm;
        let tile = realm.lift(from as usize);
        if tile.is_some() {
            self.turn_cards.moved |= 1 << to;
        }
        self.turn_cards.moved &= !(1 << from);
        realm.put(to as usize, tile);
        // Sets follow their tiles: the covered tile leaves its set, the
        // moved one takes its set (if any) along.
        for set in self.sets[..self.n_sets as usize].iter_mut() {
            set.cells &= !(1 << to);
            if set.cells & (1 << from) != 0 {
                set.cells = (set.cells & !(1 << from)) | 1 << to;
            }
        }
        self.turn_cards.moves += 1;
        self.turn_cards.last_to = to;
        if self.turn_cards.moves == 2 || self.players[seat].realm.strength_sources(Some(to)) == 0 {
            self.finish_card();
        } else {
            self.phase = Phase::Strength;
        }
    }

    /// Beauty's or Cunning's set: the group of cell `c`, Consolidated now.
    fn consolidate_chosen_set(&mut self, c: u8) {
        let seat = self.current as usize;
        let realm = &self.players[seat].realm;
        let (group, vp, ty) = if self.turn_cards.set_card == BEAUTY {
            let n = realm.face_up_tile(c as usize).and_then(|t| t.number()).unwrap_or(0);
            let g = flood(1 << c, realm.by_number()[n as usize]);
            // Beauty: "+1 VP, up to 2 Shrines, as if they were Dragons".
            (g, set_vp(g.count_ones()) + 1, TileType::Dragon)
        } else {
            let ty = realm.face_up_tile(c as usize).map(|t| t.tile_type()).unwrap_or(TileType::Merchant);
            let g = flood(1 << c, realm.of_type(ty));
            (g, 2 + u32::from(self.rules.dragon_set_bonus && ty == TileType::Dragon), ty)
        };
        self.consolidate_set(group, vp, ty);
        self.finish_card();
    }

    /// Change turns the Special tile of `cell` into type `ty`; a group of 3
    /// waits for Cunning.
    fn change_tile(&mut self, cell: u8, ty: u8) {
        let seat = self.current as usize;
        let pool = self.players[seat].shrine_pool;
        let realm = self.players[seat].realm;
        if let Some((group, needs_cunning)) = self.change_group(&realm, pool, cell as usize, ty as usize) {
            if needs_cunning {
                self.turn_cards.pending = group;
                self.turn_cards.pending_type = ty;
                self.phase = Phase::Cunning;
            } else {
                let t = TileType::ALL[ty as usize];
                let bonus = u32::from(self.rules.dragon_set_bonus && t == TileType::Dragon);
                self.consolidate_set(group, set_vp(group.count_ones()) + bonus, t);
                self.finish_card();
            }
        }
    }

    /// A Spirit's own set (Beauty, Cunning, Change): turned face down and
    /// scored now, its Shrines built in the Shrine step that follows.
    fn consolidate_set(&mut self, cells: u16, vp: u32, as_type: TileType) {
        let seat = self.current as usize;
        self.players[seat].realm.turn_down(cells);
        self.players[seat].vp += vp as u16;
        self.push_set(ConsolidatedSet { cells, tile_type: as_type as u8, allowance: if as_type.is_faction() { 1 } else { 2 } });
    }

    pub(crate) fn push_set(&mut self, set: ConsolidatedSet) {
        let n = self.n_sets as usize;
        assert!(n < MAX_SETS, "more sets in one turn than the proven bound");
        self.sets[n] = set;
        self.n_sets += 1;
    }
}
