//! The decisions inside a Spirit's effect (Destruction, Wind, Strength,
//! Beauty, Cunning, Change): which are legal now.

use crate::state::{Phase, State};
use super::cells_of;
use crate::action::{Action, ActionKind, ActionList};
use crate::cards::spirit::*;
use crate::tile::TileType;

impl State {
    /// The Realm cells a follow-up of `kind` may name now, 0 outside its
    /// phase: the one check the listing, `is_legal` and the reasons share.
    /// (`CHANGE` also names a type, [`State::change_types`]; Cunning's
    /// activation in `CUNNING` pays with these cells or a Shrine.)
    pub(crate) fn follow_up_cells(&self, kind: ActionKind) -> u16 {
        use ActionKind as K;
        let realm = self.mover_realm();
        let lifted = 1u16 << self.turn_cards.lifted;
        match (self.phase, kind) {
            // Wind: the flip comes first, at most one.
            (Phase::Wind, K::Flip) if !self.turn_cards.wind_flipped => realm.face_up(),
            (Phase::Wind, K::ShrineFrom) => realm.movable_shrines(),
            (Phase::WindTo, K::ShrineTo) => realm.shrine_spots() & !lifted,
            (Phase::Strength, K::MoveFrom) => realm.strength_sources(self.last_moved()),
            (Phase::StrengthTo, K::MoveTo) => realm.placeable() & !lifted,
            (Phase::Set, K::Set) if self.turn_cards.set_card == BEAUTY => realm.beauty_groups(),
            (Phase::Set, K::Set) => realm.cunning_groups(),
            (Phase::Change, K::Change) => cells_of(realm.special_up()).filter(|&c| self.change_types(c) != 0).fold(0, |m, c| m | 1 << c),
            // Cunning's payment for Change's group of 3: a tile outside it.
            (Phase::Cunning, K::Spirit) => realm.face_up() & !self.turn_cards.pending,
            _ => 0,
        }
    }

    /// The follow-ups whose choices are cells of the mover's Realm (Wind,
    /// Strength and their second steps, Beauty's and Cunning's set), in
    /// listing order: whether `DONE` comes first, then up to two kinds'
    /// cells with the action naming each. The listing and the random pick
    /// share it. `None` in the other phases.
    #[inline]
    pub(crate) fn cell_follow_ups(&self) -> Option<(bool, [(u16, fn(u8) -> Action); 2])> {
        use ActionKind as K;
        let cells = |kind| self.follow_up_cells(kind);
        let nothing: (u16, fn(u8) -> Action) = (0, Action::Set);
        Some(match self.phase {
            Phase::Wind => (self.done_legal(), [(cells(K::Flip), Action::Flip), (cells(K::ShrineFrom), Action::ShrineFrom)]),
            Phase::Strength => (self.done_legal(), [(cells(K::MoveFrom), Action::MoveFrom), nothing]),
            Phase::WindTo => (false, [(cells(K::ShrineTo), Action::ShrineTo), nothing]),
            Phase::StrengthTo => (false, [(cells(K::MoveTo), Action::MoveTo), nothing]),
            Phase::Set => (false, [(cells(K::Set), Action::Set), nothing]),
            _ => return None,
        })
    }

    pub(crate) fn legal_follow_ups(&self, out: &mut ActionList) {
        use ActionKind as K;
        if let Some((done, kinds)) = self.cell_follow_ups() {
            if done {
                out.push(Action::Done);
            }
            for (cells, f) in kinds {
                cells_of(cells).for_each(|c| out.push(f(c as u8)));
            }
            return;
        }
        match self.phase {
            Phase::Destroy => self.castle.available().for_each(|s| out.push(Action::Destroy(s as u8))),
            Phase::Change => {
                for c in cells_of(self.follow_up_cells(K::Change)) {
                    let types = self.change_types(c);
                    for t in (0..TileType::COUNT).filter(|t| types >> t & 1 != 0) {
                        out.push(Action::Change { cell: c as u8, ty: t as u8 });
                    }
                }
            }
            Phase::Cunning => {
                cells_of(self.follow_up_cells(K::Spirit)).for_each(|c| out.push(Action::Spirit { card: CUNNING, pay: Some(c as u8) }));
                if self.mover().shrine_pool > 0 {
                    out.push(Action::Spirit { card: CUNNING, pay: None });
                }
            }
            _ => {}
        }
    }

    fn last_moved(&self) -> Option<u8> {
        if self.turn_cards.moves > 0 {
            Some(self.turn_cards.last_to)
        } else {
            None
        }
    }

}
