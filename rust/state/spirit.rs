//! The Spirit cards in a turn (R-SPIRIT-1, R-SPIRIT-2, `docs/cards.md`):
//! which activations are legal and what each effect does. The turn's flow
//! around them (Consolidation, Shrine steps, where play resumes) is `turn.rs`.
//!
//! Activations are offered at every decision point of the mover's turn, so
//! their legality is decided per card with bit masks: a payment only takes
//! one face-up tile out of its type's (and number's) mask, so most conditions
//! are judged once on the unpaid Realm and re-judged only for the few cells
//! whose tile the condition rests on (`docs/design.md`).

use super::memo::{remembered, Key};
use super::{Phase, State, MAX_SETS};
use crate::action::{Action, ActionKind, ActionList};
use crate::cards::spirit::*;
use crate::coords::Space;
use crate::grid::count16;
use crate::groups::{GroupTable, SETS, THREES};
use crate::realm::{flood, neighbours, set_vp, with_another, ConsolidatedSet, Realm, CELLS};
use crate::tile::TileType;

/// How the second tile of a Pair is chosen.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Second {
    /// The base game's Pair: a tile identical to the first.
    #[default]
    Identical,
    /// Deception: a tile that touched the first (a neighbour on its floor, or the tile under it).
    Deception,
    /// Deep: a tile of the first tile's type.
    Deep,
}

impl Second {
    /// The name the observation's `second_pick` shows (`IDENTICAL`, `DECEPTION`, `DEEP`).
    pub const fn name(self) -> &'static str {
        match self {
            Second::Identical => "IDENTICAL",
            Second::Deception => "DECEPTION",
            Second::Deep => "DEEP",
        }
    }
}

/// Where play goes when a Shrine step is left (`docs/cards.md`, "resume").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Resume {
    /// After the Consolidation step: `END_TURN` while an activation is legal.
    #[default]
    End,
    /// Back to `ACTION`: the Spirit came before the first pick.
    Action,
    /// Back to `COMPLETE`: the Spirit came between the two picks.
    Complete,
    /// Back to `PLACE`: the Spirit came before or between the placements.
    Place,
    /// Back to `SPIRITS` while an activation is legal, else as `End`.
    Spirits,
}

/// The Spirits' memory of one turn; all of it is cleared when the turn ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct TurnCards {
    /// Spirits activated this turn (mask over card indices).
    pub used: u16,
    /// Elegance is active: for the rest of the turn a pick may take a tile with a free short side
    /// (R-AVAIL-3).
    pub elegance: bool,
    /// The next pick must use Elegance.
    pub must_elegance: bool,
    /// How the second tile of the Pair is chosen (Deception and Deep change it).
    pub second: Second,
    /// Castle space and floor of the first pick (Deception).
    pub first_space: u8,
    /// The first pick's floor: its stack's height before it left.
    pub first_floor: u8,
    /// Faith's extra Shrine, not yet built.
    pub faith_extra: u8,
    /// The phase the card under way was activated in.
    pub origin: Phase,
    /// Where the current Shrine step resumes.
    pub resume: Resume,
    /// A Spirit was activated between the two placements (R-PLACE-3 no
    /// longer orders identical tiles).
    pub apart: bool,
    /// Wind has flipped a tile in this effect (only a Shrine move may follow).
    pub wind_flipped: bool,
    /// Strength's moves made in this effect (0 to 2).
    pub moves: u8,
    /// Strength's last destination cell, while `moves > 0`: that tile may not move again.
    pub last_to: u8,
    /// Cells Strength put a face-up tile on during this effect.
    pub moved: u16,
    /// The cell whose Shrine (Wind) or tile (Strength) is lifted.
    pub lifted: u8,
    /// Beauty or Cunning, for the `Set` phase.
    pub set_card: u8,
    /// Change's group of 3 waiting for Cunning, and its type.
    pub pending: u16,
    /// The type Change gives that group ([`TileType`] index).
    pub pending_type: u8,
}

/// The legal activations of a decision point, per card in play: the cells
/// that may pay and whether the Shrine Pool may (in id order: card, then
/// cell, then the Shrine).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Offered {
    cards: [(u8, u16, bool); crate::cards::SPIRIT_CARDS],
    len: u8,
    total: u16,
}

impl Offered {
    /// How many activations are offered.
    #[inline]
    pub(crate) fn count(&self) -> usize {
        self.total as usize
    }

    /// The `k`-th activation in id order (`k < count()`).
    pub(crate) fn nth(&self, mut k: usize) -> Action {
        for &(card, cells, shrine) in &self.cards[..self.len as usize] {
            let n = count16(cells) as usize + usize::from(shrine);
            if k < n {
                return activation(card, crate::grid::Ranked16::new(cells), k);
            }
            k -= n;
        }
        unreachable!("an activation beyond those offered")
    }
}

/// `card`'s `k`-th activation in id order: by the `k`-th paying cell, or
/// past them by the Shrine Pool.
#[inline]
pub(crate) fn activation(card: u8, cells: crate::grid::Ranked16, k: usize) -> Action {
    let pay = (k < cells.count() as usize).then(|| cells.select(k as u32) as u8);
    Action::Spirit { card, pay }
}

/// The cells of a mask, lowest first.
#[inline]
fn cells_of(mut m: u16) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (m != 0).then(|| {
            let c = m.trailing_zeros() as usize;
            m &= m - 1;
            c
        })
    })
}

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
    fn mover_realm(&self) -> &Realm {
        &self.mover().realm
    }

    /// After Elegance, Deception or Deep the very next decision is the pick.
    #[inline]
    pub(crate) fn pick_pending(&self) -> bool {
        self.turn_cards.must_elegance || self.turn_cards.second != Second::Identical
    }

    /// R-SPIRIT-2: the Spirits that `phase` may offer now: in play, unused this
    /// turn, at a decision point of the turn, no pick pending.
    #[inline]
    pub(crate) fn open_cards(&self, phase: Phase) -> u16 {
        let cards = self.spirits & !self.turn_cards.used;
        if cards == 0 || self.passive || self.pick_pending() {
            return 0;
        }
        match phase {
            Phase::Action => cards & !SECOND_PICKS,
            Phase::Complete => cards,
            Phase::Place | Phase::Spirits | Phase::Shrine | Phase::EndTurn => cards & !PICKS,
            _ => 0,
        }
    }

    /// Push the legal activations of the current phase, in id order.
    pub(crate) fn legal_activations(&self, out: &mut ActionList) {
        for card in cells_of(self.open_cards(self.phase)) {
            let card = card as u8;
            let (cells, shrine) = self.payments(card, self.phase);
            for c in cells_of(cells) {
                out.push(Action::Spirit { card, pay: Some(c as u8) });
            }
            if shrine {
                out.push(Action::Spirit { card, pay: None });
            }
        }
    }

    /// The activations offered now by the `open` cards
    /// ([`State::open_cards`] of the phase), counted without listing them (a
    /// random pick draws one of them by rank).
    pub(crate) fn offered(&self, open: u16) -> Offered {
        let mut o = Offered::default();
        for card in cells_of(open) {
            let (cells, shrine) = self.payments(card as u8, self.phase);
            let n = count16(cells) as u16 + u16::from(shrine);
            if n > 0 {
                o.cards[o.len as usize] = (card as u8, cells, shrine);
                o.len += 1;
                o.total += n;
            }
        }
        o
    }

    /// Whether some activation would be legal in `phase` now.
    pub(crate) fn any_activation(&self, phase: Phase) -> bool {
        // The costliest cards to judge (their payments ask about groups after
        // a payment) are asked last, when no other card applies.
        const GROUPS: u16 = 1 << BEAUTY | 1 << CUNNING | 1 << CHANGE;
        let open = self.open_cards(phase);
        cells_of(open & !GROUPS).chain(cells_of(open & GROUPS)).any(|card| self.payments(card as u8, phase) != (0, false))
    }

    /// Whether `Spirit { card, pay }` is a legal activation now.
    pub(crate) fn activation_legal(&self, card: u8, pay: Option<u8>) -> bool {
        if card as usize >= crate::cards::SPIRIT_CARDS || self.open_cards(self.phase) & (1 << card) == 0 {
            return false;
        }
        let (cells, shrine) = self.payments(card, self.phase);
        match pay {
            Some(c) => (c as usize) < CELLS && cells >> c & 1 != 0,
            None => shrine,
        }
    }

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

    /// Cunning is in play and unused: Change may complete a group of 3.
    fn cunning_ready(&self) -> bool {
        self.spirits & !self.turn_cards.used & (1 << CUNNING) != 0
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

    /// Change's payments in a settled Realm (no face-up group of >= 4): a
    /// choice is then legal iff its group is big enough, and a payment only
    /// matters when it is a tile of that group.
    fn change_payments_settled(&self, realm: &Realm, pool: u8) -> (u16, bool) {
        let up = realm.face_up();
        let specials = realm.special_up();
        if specials == 0 {
            return (0, false);
        }
        let cunning = self.cunning_ready();
        if !cunning {
            // Every group is below 4, so the Special on `s` completes a set of
            // `ty` iff `ty`'s tiles with it hold a group of 4, and a payment
            // keeps that choice iff it leaves one: two table look-ups.
            let (mut cells, mut any) = (0u16, false);
            for ty in TileType::ALL {
                let of = realm.of_type(ty);
                // Fewer than 3 tiles: no group of 4 with one Special.
                let two_cleared = of & of.wrapping_sub(1);
                if two_cleared & two_cleared.wrapping_sub(1) == 0 {
                    continue;
                }
                // With every Special beside it at once no group of 4: with one, none either.
                let beside = neighbours(of) & specials & !of;
                if beside == 0 || !SETS.has(of | beside) {
                    continue;
                }
                for s in cells_of(beside) {
                    let with = of | 1 << s;
                    if SETS.has(with) {
                        any = true;
                        cells |= (up & !with) | (SETS.keeping(with) & of);
                    }
                }
            }
            return (cells, pool >= 1 && any);
        }
        // With Cunning ready, a group of 3 will do too.
        let (mut cells, mut shrine) = (0u16, false);
        // Enough tiles of `ty` in a group with the Special on `s`: 4, or 3
        // with Cunning paid next by a tile outside the group or a Shrine.
        let enough = |g: u16, up: u16, pool: u8| match g.count_ones() {
            n if n >= 4 => true,
            3 => pool >= 1 || up & !g != 0,
            _ => false,
        };
        for ty in TileType::ALL {
            let of = realm.of_type(ty);
            if of.count_ones() < 2 {
                continue;
            }
            for s in cells_of(neighbours(of) & specials & !of) {
                let g = flood(1 << s, of | 1 << s);
                if g.count_ones() < 3 {
                    continue;
                }
                shrine |= pool >= 1 && enough(g, up, pool - 1);
                // A tile outside the group leaves it whole.
                let outside = up & !g;
                // (With 3, Cunning is paid next: a Shrine, or another tile outside.)
                if g.count_ones() >= 4 || pool >= 1 || outside.count_ones() >= 2 {
                    cells |= outside;
                }
                // A tile of the group shrinks it, or splits it (a group of
                // exactly 4 then has 3: too few without Cunning).
                for c in cells_of(g & up & !(cells | 1 << s)) {
                    let b = 1u16 << c;
                    if enough(flood(1 << s, (of & !b) | 1 << s), up & !b, pool) {
                        cells |= b;
                    }
                }
            }
            if cells == up && (shrine || pool == 0) {
                break;
            }
        }
        (cells, shrine)
    }

    /// Change's payments while a group waits for Consolidation. Each choice
    /// (a Special tile and a type) rests on a region of the Realm: the group
    /// it would complete and the tile's own type's group. A payment outside
    /// the region keeps the unpaid answer (but for Cunning's own payment,
    /// outside a group of 3); inside it, the choice is judged again.
    fn change_payments(&self, realm: &Realm, pool: u8) -> (u16, bool) {
        let up = realm.face_up();
        let need = if self.cunning_ready() { 2 } else { 3 };
        let (mut cells, mut shrine) = (0u16, false);
        for ty in TileType::ALL {
            let of = realm.of_type(ty);
            if of.count_ones() < need {
                continue;
            }
            for s in cells_of(neighbours(of) & realm.special_up() & !of) {
                let Some(own_type) = realm.face_up_tile(s).map(|t| t.tile_type()) else { continue };
                let own = realm.of_type(own_type);
                let region = flood(1 << s, of | 1 << s) | flood(1 << s, own);
                if let Some((g, three)) = self.change_fits(s, own, of, up, pool) {
                    let outside = up & !g;
                    if !three || pool >= 1 || outside.count_ones() >= 2 {
                        cells |= up & !region;
                    }
                    shrine |= pool >= 1 && (!three || pool >= 2 || outside != 0);
                }
                for c in cells_of(region & up & !(cells | 1 << s)) {
                    let b = 1u16 << c;
                    if self.change_fits(s, own & !b, of & !b, up & !b, pool).is_some() {
                        cells |= b;
                    }
                }
            }
        }
        (cells, shrine)
    }

    /// A tile a pick may take: Available, or with Elegance a free short side.
    #[inline]
    pub(crate) fn pickable(&self, s: usize) -> bool {
        self.castle.is_available(s) || (self.turn_cards.elegance && self.castle.has_free_short_side(s))
    }

    /// A pick only Elegance allows: not Available, a free short side.
    #[inline]
    pub(crate) fn elegance_only(&self, s: usize) -> bool {
        !self.castle.is_available(s) && self.castle.has_free_short_side(s)
    }

    /// Whether an Elegance first pick exists: a top-floor tile only Elegance allows.
    fn has_elegance_first_pick(&self) -> bool {
        !self.castle.elegance_first_picks().is_empty()
    }

    /// Whether an Elegance second pick exists: a tile identical to the first
    /// that only Elegance allows.
    fn has_elegance_second_pick(&self) -> bool {
        let mut any = false;
        self.castle.tops_of(self.held[0], |s| any |= self.elegance_only(s));
        any
    }

    /// Deep's second picks: the pickable top tiles of the first's type.
    #[inline]
    pub(crate) fn deep_picks(&self) -> impl Iterator<Item = usize> + '_ {
        self.castle.tops_of_type(self.held[0].tile_type()).filter(|&s| self.pickable(s))
    }

    /// Deception's candidates in id order: the north, west, own (the revealed
    /// tile), east and south space of the first pick.
    #[inline(always)]
    pub(crate) fn deception_candidates(&self) -> [Option<usize>; 5] {
        let s0 = self.turn_cards.first_space as usize;
        let f = self.turn_cards.first_floor;
        let (row, col) = Space::at(s0).row_col();
        let h = |s: usize| self.castle.height(s);
        let touching = |s: usize| if h(s) == f { Some(s) } else { None };
        [
            if row > 0 { touching(s0 - Space::COLS) } else { None },
            if col > 0 { touching(s0 - 1) } else { None },
            // The tile directly under the first (not one Destruction uncovered since).
            if f >= 2 && h(s0) == f - 1 { Some(s0) } else { None },
            if col + 1 < Space::COLS { touching(s0 + 1) } else { None },
            if row + 1 < Space::ROWS { touching(s0 + Space::COLS) } else { None },
        ]
    }

    /// Every cell of this turn's sets.
    pub(crate) fn set_cells(&self) -> u16 {
        self.consolidated_sets().iter().fold(0, |m, s| m | s.cells)
    }

    /// Change: the group the Special tile of `cell` completes as type `ty`, and
    /// whether it needs Cunning (a group of 3). `pool` is the Shrine Pool.
    pub(crate) fn change_group(&self, realm: &Realm, pool: u8, cell: usize, ty: usize) -> Option<(u16, bool)> {
        let t = realm.face_up_tile(cell)?.tile_type();
        let target = TileType::from_index(ty)?;
        if t.is_faction() || t == target {
            return None;
        }
        self.change_fits(cell, realm.of_type(t), realm.of_type(target), realm.face_up(), pool)
    }

    /// [`State::change_group`] on masks: the face-up tiles of the Special's
    /// own type (`own`), of the type it stands for (`of`), and all (`up`).
    fn change_fits(&self, cell: usize, own: u16, of: u16, up: u16, pool: u8) -> Option<(u16, bool)> {
        // Not to prevent a set: the tile must not be in a set of its own type.
        if flood(1 << cell, own).count_ones() >= 4 {
            return None;
        }
        let g = flood(1 << cell, of | 1 << cell);
        // It must complete the set: no group of that type it touches is a set
        // already ("only if, by doing so, you are able to Consolidate a set").
        if SETS.has(g & !(1 << cell)) {
            return None;
        }
        match g.count_ones() {
            n if n >= 4 => Some((g, false)),
            3 if self.cunning_ready() && (pool >= 1 || up & !g != 0) => Some((g, true)),
            _ => None,
        }
    }

    // ------------------------------------------------------------ legal follow-ups

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

    /// The types (a bit per [`TileType`] index) Change may turn the Special
    /// tile of `cell` into now.
    pub(crate) fn change_types(&self, cell: usize) -> u8 {
        let realm = self.mover_realm();
        let pool = self.mover().shrine_pool;
        if !self.cunning_ready() && realm.types_with_groups(&SETS) == 0 {
            // Every group below 4: a type is a choice iff its tiles with this
            // Special hold a group of 4 (`change_fits`, as in `change_payments_settled`).
            let Some(own) = realm.face_up_tile(cell).map(|t| t.tile_type()) else { return 0 };
            if own.is_faction() {
                return 0;
            }
            return TileType::ALL
                .iter()
                .filter(|&&t| t != own && SETS.has(realm.of_type(t) | 1 << cell))
                .fold(0, |m, &t| m | 1 << t.index());
        }
        (0..TileType::COUNT).filter(|&t| self.change_group(realm, pool, cell, t).is_some()).fold(0, |m, t| m | 1 << t)
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

    // ------------------------------------------------------------ effects

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
            Action::MoveTo(to) => {
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
            Action::Set(c) => {
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
            Action::Change { cell, ty } => {
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
            _ => {}
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::Cards;
    use crate::rng::SplitMix64;
    use crate::setup::Setup;

    /// R-SPIRIT-1 as written: pay, then ask whether the effect can apply,
    /// by enumeration (what the fast masks of [`State::payments`] compute).
    fn applies_after_paying(s: &State, card: u8, phase: Phase, pay: Option<u8>) -> bool {
        let p = &s.players[s.current as usize];
        let mut realm = p.realm;
        let mut pool = p.shrine_pool;
        match pay {
            Some(c) => {
                realm.discard_top(c as usize);
            }
            None => pool -= 1,
        }
        let room = count16(realm.placeable()) >= 2;
        let c = &s.castle;
        let settled = |r: &Realm| r.types_with_groups(&SETS) == 0;
        match card {
            BEAUTY => realm.beauty_groups() != 0,
            ELEGANCE if phase == Phase::Action => c.top_spaces().iter().any(|sp| s.elegance_only(sp)),
            ELEGANCE => room && {
                let mut any = false;
                c.tops_of(s.held[0], |sp| any |= s.elegance_only(sp));
                any
            },
            WIND => realm.face_up() != 0 || realm.movable_shrines() != 0,
            DECEPTION => room && s.deception_candidates().iter().any(|x| x.is_some()),
            STRENGTH => realm.strength_sources(None) != 0,
            CHANGE => (0..CELLS).any(|cell| (0..6).any(|t| s.change_group(&realm, pool, cell, t).is_some())),
            FAITH => {
                let placing = phase == Phase::Place || (phase == Phase::Shrine && s.turn_cards.resume == Resume::Place);
                let spare = !placing || count16(realm.placeable()) > u32::from(s.held_len - s.placed);
                pool >= 1 && (spare && s.set_cells() & !realm.shrines() & realm.face_down() != 0 || !settled(&realm))
            }
            DESTRUCTION => c.spaces().any(|sp| c.is_available(sp)),
            DEEP => {
                let ty = s.held[0].tile_type();
                room && c.spaces().any(|sp| c.top(sp).map(|t| t.tile_type()) == Some(ty) && s.pickable(sp))
            }
            CUNNING => realm.cunning_groups() != 0,
            _ => false,
        }
    }

    /// The fast payment masks equal the definition for every card, in the
    /// decision points of random card games (sparing with activations so
    /// that Realms fill up and sets form).
    #[test]
    fn payments_follow_the_definition() {
        let mut buf = ActionList::default();
        let mut checked = 0;
        for seed in 0..300u64 {
            let mut rng = SplitMix64::new(seed);
            let players = 1 + (seed % 4) as usize;
            let spirits = Cards::Draw(1 + (seed % 10) as usize);
            let mut s = Setup::new(players, seed).with_cards(spirits, Cards::None).state().unwrap();
            while !s.is_over() {
                let phase = s.phase();
                if matches!(phase, Phase::Action | Phase::Complete | Phase::Place | Phase::Spirits | Phase::Shrine | Phase::EndTurn)
                    && !s.pick_pending()
                {
                    for card in 0..10u8 {
                        if matches!(card, DECEPTION | DEEP) && phase != Phase::Complete
                            || card == ELEGANCE && !matches!(phase, Phase::Action | Phase::Complete)
                        {
                            continue;
                        }
                        let (cells, shrine) = s.payments(card, phase);
                        let p = &s.players[s.current as usize];
                        for c in 0..CELLS as u8 {
                            let want = p.realm.face_up() >> c & 1 != 0 && applies_after_paying(&s, card, phase, Some(c));
                            assert_eq!(cells >> c & 1 != 0, want, "card {card} pay {c} in {phase:?}, seed {seed}\n{}", p.realm.to_text());
                        }
                        let want = p.shrine_pool > 0 && applies_after_paying(&s, card, phase, None);
                        assert_eq!(shrine, want, "card {card} pay Shrine in {phase:?}, seed {seed}\n{}", p.realm.to_text());
                        checked += 1;
                    }
                }
                s.legal_actions_into(&mut buf);
                let spirit = |a: &Action| matches!(a, Action::Spirit { .. }) && phase != Phase::Cunning;
                let others: Vec<Action> = buf.iter().copied().filter(|a| !spirit(a)).collect();
                let a = if others.is_empty() || rng.below(8) == 0 {
                    buf[rng.below(buf.len() as u64) as usize]
                } else {
                    others[rng.below(others.len() as u64) as usize]
                };
                s.apply_unchecked(a);
            }
        }
        assert!(checked > 10_000, "{checked}");
    }

    /// The bitboard answers equal the per-space definitions (R-AVAIL-1, R-AVAIL-3).
    #[test]
    fn castle_grids_follow_the_definitions() {
        let mut buf = ActionList::default();
        for seed in 0..40u64 {
            let mut rng = SplitMix64::new(seed);
            let mut s = Setup::new(2 + (seed % 3) as usize, seed).state().unwrap();
            while !s.is_over() {
                let c = &s.castle;
                for sp in c.spaces() {
                    assert_eq!(c.available().contains(sp), c.is_available(sp), "space {sp}");
                    let top = c.height(sp) == c.top_floor() && c.height(sp) > 0;
                    assert_eq!(c.elegance_first_picks().contains(sp), top && s.elegance_only(sp), "space {sp}");
                }
                let a = crate::agents::random_action(&s, &mut rng, &mut buf).unwrap();
                s.apply_unchecked(a);
            }
        }
    }
}
