//! R-SPIRIT-1's payments: the face-up cells, and whether the Shrine Pool,
//! that may pay for each card so that its effect can still apply after.

use crate::state::memo::{remembered, Key};
use crate::state::{Phase, State};
use super::{cells_of, Resume};
use crate::cards::spirit::*;
use crate::grid::count16;
use crate::groups::{GroupTable, SETS, THREES};
use crate::realm::{with_another, Realm};

/// Which cells may pay (R-SPIRIT-1) so that a face-up group of `table`'s
/// sizes is left, the groups being those of each class of tiles (a type, or
/// a Faction number for Beauty): `classes[k]` holds class `k`'s face-up
/// tiles. Also whether such a group exists unpaid. Paying takes one tile out
/// of its own class only: a class keeps its answer when another class has a
/// group, and otherwise it is the table's. A cell in no class may pay iff a
/// group exists.
fn payers_keeping(classes: &[u16], table: &GroupTable) -> (u16, bool) {
    let (mut with, mut members) = (0u32, 0u16);
    for &m in classes {
        with += u32::from(table.has(m));
        members |= m;
    }
    let mut cells = if with > 0 { !members } else { 0 };
    for &m in classes {
        cells |= if with > u32::from(table.has(m)) { m } else { table.keeping(m) };
    }
    (cells, with > 0)
}

/// The cards whose payments [`State::remembered_payments`] keeps.
const REMEMBERED: u16 = 1 << BEAUTY | 1 << CUNNING | 1 << STRENGTH | 1 << CHANGE;

/// Wind's payments: a face-up tile to flip must stay after paying, or a
/// Shrine must be able to move.
#[inline(never)]
fn wind_payments(realm: &Realm, pool: u8) -> (u16, bool) {
    let up = realm.face_up();
    let shrine = pool > 0 && (up != 0 || realm.movable_shrines() != 0);
    let cells = match count16(up) {
        0 => 0,
        // Another face-up tile stays to flip.
        2.. => up,
        // The only face-up tile: a Shrine must be able to move, maybe
        // onto the face-down tile the payment uncovers.
        _ => {
            let c = up.trailing_zeros() as usize;
            let uncovered = if realm.height(c) >= 2 { up } else { 0 };
            if with_another(realm.shrines(), realm.shrine_spots() | uncovered) != 0 {
                up
            } else {
                0
            }
        }
    };
    (cells, shrine)
}

/// Strength's payments: after paying, a top tile without a Shrine must have
/// somewhere else to go.
fn strength_payments(realm: &Realm, pool: u8) -> (u16, bool) {
    let occupied = realm.occupied();
    let (shrines, free) = (realm.shrines(), realm.placeable());
    let movable = occupied & !shrines;
    let shrine = pool > 0 && with_another(movable, free) != 0;
    // Paying face-up `c` leaves the tiles of `movable` but `c` (and `c` too
    // on a stack of 2 or more), with `free` and `c`'s cell to go to: a tile
    // other than `c` always has somewhere to go, and `c`'s own stack too when
    // another cell is free. So only a Realm with one movable stack is judged
    // cell by cell (`strength_payments_by_cell`, which debug builds compare).
    let up = realm.face_up();
    let cells = if count16(movable) >= 2 {
        up
    } else if movable == 0 {
        0
    } else {
        let tall = free != 0 && realm.height(movable.trailing_zeros() as usize) >= 2;
        (up & !movable) | if tall { up & movable } else { 0 }
    };
    debug_assert_eq!(cells, strength_payments_by_cell(realm), "{realm:?}");
    (cells, shrine)
}

/// [`strength_payments`]'s cells by their definition, one cell at a time.
#[cfg_attr(not(debug_assertions), allow(dead_code))]
fn strength_payments_by_cell(realm: &Realm) -> u16 {
    let occupied = realm.occupied();
    let (shrines, free) = (realm.shrines(), realm.placeable());
    let mut cells = 0;
    for c in cells_of(realm.face_up()) {
        let b = 1u16 << c;
        let left = if realm.height(c) >= 2 { occupied } else { occupied & !b };
        if with_another(left & !shrines, free | b) != 0 {
            cells |= b;
        }
    }
    cells
}

impl State {
    /// R-SPIRIT-1: the payments after which `card`'s effect can apply in
    /// `phase`: face-up cells of the mover's Realm (a mask) and the Shrine Pool.
    /// Paying a tile discards it (the tile under it, face down, or nothing is
    /// left); paying a Shrine leaves the Realm as it is.
    #[inline]
    pub(crate) fn payments(&self, card: u8, phase: Phase) -> (u16, bool) {
        let p = self.mover();
        // A condition that no payment changes: every payment, or none.
        let every = |ok: bool| if ok { (p.realm.face_up(), p.shrine_pool > 0) } else { (0, false) };
        // No guards on the arms: one jump on the card, which with several
        // cards in play is asked a few times per decision point.
        match card {
            // A non-empty castle has an Available tile (the west end of the top floor).
            DESTRUCTION => every(!self.castle.is_empty()),
            ELEGANCE => {
                if phase == Phase::Action {
                    every(self.has_elegance_first_pick())
                } else {
                    self.second_pick_payments(card)
                }
            }
            DECEPTION | DEEP => self.second_pick_payments(card),
            WIND => wind_payments(&p.realm, p.shrine_pool),
            FAITH => self.faith_payments(phase),
            // Quick refusals before the memo's key is built. In random games
            // 96-99% of the questions to Beauty and Cunning have no payment,
            // and most fail these necessary conditions (one look-up per type):
            // a group of 4 Faction tiles, which Beauty's group of one number
            // is; a group of exactly 3 of a type, or one a payment leaves.
            // Change needs a face-up Special (a finer test, out of line or
            // not, cost more than it saved).
            BEAUTY if !SETS.has(p.realm.faction_up()) => (0, false),
            CUNNING if !p.realm.by_type().iter().any(|&m| THREES.reachable(m)) => (0, false),
            CHANGE if p.realm.special_up() == 0 => (0, false),
            BEAUTY | CUNNING | STRENGTH | CHANGE => self.grouped_payments(card, phase),
            _ => (0, false),
        }
    }

    /// Beauty's, Cunning's, Strength's and Change's payments. The cards that
    /// take many look-ups are remembered while only one of them is in play:
    /// with several, the look-ups cost more time than they save (`memo.rs`).
    #[inline]
    fn grouped_payments(&self, card: u8, phase: Phase) -> (u16, bool) {
        if (self.spirits & REMEMBERED).is_power_of_two() {
            self.remembered_payments(card, phase)
        } else {
            self.group_payments(card, phase)
        }
    }

    /// [`State::payments`] of Beauty, Cunning, Strength and Change,
    /// remembered (`memo.rs`) under a key of all they read.
    #[inline(never)]
    fn remembered_payments(&self, card: u8, phase: Phase) -> (u16, bool) {
        let p = self.mover();
        let flags = match card {
            // Whether `settled` looks at the Realm, and whether Cunning is ready
            // (in play that makes two remembered cards, so no memo, but the
            // tests ask Change's payments with Cunning alone in play).
            CHANGE => u16::from(self.may_be_unsettled(phase)) | u16::from(self.cunning_ready()) << 1,
            _ => 0,
        };
        let realm = &p.realm;
        // Strength reads where stacks stand and how high, the others which tiles are face up.
        let words = if card == STRENGTH { realm.heights_words() } else { realm.tops_words() };
        let cells = u32::from(realm.face_up()) | u32::from(realm.shrines()) << 16;
        let key = Key::new(words, cells, card, u16::from(p.shrine_pool) | flags << 8);
        remembered(key, || self.group_payments(card, phase))
    }

    /// [`State::payments`] of the cards [`State::remembered_payments`] keeps,
    /// decided afresh (out of line, so that a remembered answer is quick).
    #[inline(never)]
    fn group_payments(&self, card: u8, phase: Phase) -> (u16, bool) {
        let p = self.mover();
        let (realm, pool) = (&p.realm, p.shrine_pool);
        let up = realm.face_up();
        match card {
            STRENGTH => strength_payments(realm, pool),
            BEAUTY => {
                if count16(realm.faction_up()) < 4 {
                    return (0, false);
                }
                let nums = realm.by_number();
                let (cells, any) = payers_keeping(&nums[1..], &SETS);
                (cells & up, pool > 0 && any)
            }
            CUNNING => {
                let (cells, any) = payers_keeping(&realm.by_type(), &THREES);
                (cells & up, pool > 0 && any)
            }
            CHANGE if self.settled(phase) => self.change_payments_settled(realm, pool),
            CHANGE => self.change_payments(realm, pool),
            _ => (0, false),
        }
    }

    /// Elegance's, Deception's and Deep's payments outside the Action: the
    /// second pick they allow must exist, and the Realm must keep room for 2
    /// tiles (R-PLACE-2), a paid tile freeing its cell.
    #[inline(never)]
    fn second_pick_payments(&self, card: u8) -> (u16, bool) {
        let pick = match card {
            ELEGANCE => self.has_elegance_second_pick(),
            DECEPTION => self.deception_candidates().iter().any(|s| s.is_some()),
            _ => self.deep_picks().next().is_some(),
        };
        if !pick {
            return (0, false);
        }
        let p = self.mover();
        let free = count16(p.realm.placeable());
        (if free >= 1 { p.realm.face_up() } else { 0 }, p.shrine_pool > 0 && free >= 2)
    }

    /// Faith's payments: a set of this turn without a Shrine to build on, or
    /// a group waiting for Consolidation that keeps its size after a payment.
    #[inline(never)]
    fn faith_payments(&self, phase: Phase) -> (u16, bool) {
        let p = self.mover();
        let (realm, pool) = (&p.realm, p.shrine_pool);
        if pool == 0 {
            return (0, false);
        }
        let up = realm.face_up();
        let unbuilt = self.set_cells() & !up & !realm.shrines() != 0;
        // Most decision points: no set to build on, and no group can wait.
        if !unbuilt && !self.may_be_unsettled(phase) {
            return (0, false);
        }
        // R-PLACE-2: while tiles wait to be placed, a Shrine needs a
        // free cell to spare, and a paid tile frees one.
        let (free, hand) = (count16(realm.placeable()), self.tiles_to_place(phase));
        let (by_tile, by_shrine) = (unbuilt && free + 1 > hand, unbuilt && free > hand);
        let (cells, waiting) =
            if by_tile || self.settled(phase) { (0, false) } else { payers_keeping(&realm.by_type(), &SETS) };
        (if by_tile { up } else { cells & up }, pool >= 2 && (by_shrine || waiting))
    }

    /// Tiles in hand that a decision point of `phase` leaves to place: in
    /// `PLACE`, or in a Shrine step that goes back to it.
    fn tiles_to_place(&self, phase: Phase) -> u32 {
        let placing = phase == Phase::Place || (phase == Phase::Shrine && self.turn_cards.resume == Resume::Place);
        if placing {
            u32::from(self.held_len - self.placed)
        } else {
            0
        }
    }

    /// Whether the mover's Realm holds no face-up group of >= 4 at a decision
    /// point of `phase`: only a placement's group waits for Consolidation,
    /// between the placements or in `SPIRITS` (`State::check_invariants` checks the
    /// rest), and there the Realm is looked at.
    #[inline]
    fn settled(&self, phase: Phase) -> bool {
        !self.may_be_unsettled(phase) || self.mover_realm().types_with_groups(&SETS) == 0
    }

    /// Whether a face-up group of >= 4 may wait for Consolidation at a
    /// decision point of `phase` ([`State::settled`]).
    #[inline]
    fn may_be_unsettled(&self, phase: Phase) -> bool {
        phase == Phase::Spirits || self.between_placements()
    }

    /// Every cell of this turn's sets.
    pub(crate) fn set_cells(&self) -> u16 {
        self.consolidated_sets().iter().fold(0, |m, s| m | s.cells)
    }
}
