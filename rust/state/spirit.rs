//! The Spirit cards in a turn (R-SPIRIT-1, R-SPIRIT-2, `docs/cards.md`):
//! which activations are legal, what each effect does, and how the turn goes
//! on afterwards (Consolidation, the Shrine step, the window it came from).

use super::{Phase, State, MAX_SETS};
use crate::action::{Action, ActionList};
use crate::cards::{spirit::*, window};
use crate::layout::{MAX_COLS, MAX_ROWS};
use crate::realm::{flood, set_vp, ConsolidatedSet, Realm, CELLS};
use crate::tile::TileType;

/// How the second tile of a Pair is chosen.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Second {
    #[default]
    Identical,
    Deception,
    Deep,
}

impl Second {
    pub const fn name(self) -> &'static str {
        match self {
            Second::Identical => "IDENTICAL",
            Second::Deception => "DECEPTION",
            Second::Deep => "DEEP",
        }
    }
}

/// Where play goes after a Consolidation and its Shrine step.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Resume {
    #[default]
    End,
    Action,
    Spirits,
}

/// The four windows of R-SPIRIT-2.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Window {
    #[default]
    Start,
    Picked,
    Placed,
    Shrines,
}

impl Window {
    const fn cards(self) -> u16 {
        match self {
            Window::Start => window::START,
            Window::Picked => window::PICKED,
            Window::Placed => window::PLACED,
            Window::Shrines => window::SHRINES,
        }
    }
}

/// The Spirits' memory of one turn; all of it is cleared when the turn ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct TurnCards {
    /// Spirits activated this turn (mask over card indices).
    pub used: u16,
    pub elegance: bool,
    /// The next pick must use Elegance.
    pub must_elegance: bool,
    pub second: Second,
    /// Castle space and floor of the first pick (Deception).
    pub first_space: u8,
    pub first_floor: u8,
    /// Faith's extra Shrine, not yet built.
    pub faith_extra: u8,
    /// The window of the card whose effect is under way.
    pub window: Window,
    pub resume: Resume,
    pub wind_flipped: bool,
    pub moves: u8,
    pub last_to: u8,
    /// The cell whose Shrine (Wind) or tile (Strength) is lifted.
    pub lifted: u8,
    /// Beauty or Cunning, for the `Set` phase.
    pub set_card: u8,
    /// Change's group of 3 waiting for Cunning, and its type.
    pub pending: u16,
    pub pending_type: u8,
}

impl State {
    fn mover_realm(&self) -> &Realm {
        &self.players[self.current as usize].realm
    }

    /// The window the current phase offers, if any Spirit may be activated now.
    fn open_window(&self) -> Option<Window> {
        if self.tc.must_elegance || self.tc.second != Second::Identical {
            return None;
        }
        match self.phase {
            Phase::Action => Some(Window::Start),
            Phase::Complete => Some(Window::Picked),
            Phase::Spirits => Some(Window::Placed),
            Phase::Shrine => Some(Window::Shrines),
            _ => None,
        }
    }

    /// Push the legal activations of the current window, in id order.
    pub(crate) fn legal_activations(&self, out: &mut ActionList) {
        let Some(w) = self.open_window() else { return };
        for card in self.cards_open(w) {
            self.payments(card, w, |pay| {
                out.push(Action::Spirit { card, pay });
                true
            });
        }
    }

    /// Cards in play, not used this turn, whose window is `w`, in card order.
    fn cards_open(&self, w: Window) -> impl Iterator<Item = u8> {
        let cards = self.spirits & w.cards() & !self.tc.used;
        (0..10u8).filter(move |c| cards & (1 << c) != 0)
    }

    /// Feed `f` the payments for `card` after which its effect can apply (cells
    /// in id order, then the Shrine Pool), while `f` returns true.
    fn payments(&self, card: u8, w: Window, mut f: impl FnMut(Option<u8>) -> bool) {
        let p = &self.players[self.current as usize];
        let mut up = p.realm.face_up();
        while up != 0 {
            let c = up.trailing_zeros() as u8;
            up &= up - 1;
            let mut realm = p.realm;
            realm.discard_top(c as usize);
            if self.effect_possible(card, w, &realm, p.shrine_pool) && !f(Some(c)) {
                return;
            }
        }
        if p.shrine_pool > 0 && self.effect_possible(card, w, &p.realm, p.shrine_pool - 1) {
            f(None);
        }
    }

    /// Whether some activation of the window is legal now (stops at the first).
    pub(crate) fn any_activation(&self, w: Window) -> bool {
        let mut any = false;
        for card in self.cards_open(w) {
            self.payments(card, w, |_| {
                any = true;
                false
            });
            if any {
                return true;
            }
        }
        false
    }

    /// R-SPIRIT-1: can `card`'s effect apply in window `w` once paid, the Realm
    /// and Shrine Pool then being `realm` and `pool`?
    fn effect_possible(&self, card: u8, w: Window, realm: &Realm, pool: u8) -> bool {
        let room = realm.placeable().count_ones() >= 2;
        match card {
            BEAUTY => beauty_groups(realm) != 0,
            ELEGANCE if w == Window::Start => self.has_elegance_first_pick(),
            ELEGANCE => room && {
                let mut any = false;
                self.castle.tops_of(self.held[0], |s| any |= self.elegance_only(s));
                any
            },
            WIND => realm.face_up() != 0 || movable_shrines(realm) != 0,
            DECEPTION => room && self.deception_candidates().iter().any(|s| s.is_some()),
            STRENGTH => strength_sources(realm, None) != 0,
            CHANGE => (0..CELLS).any(|c| (0..6).any(|t| self.change_group(realm, pool, c, t).is_some())),
            FAITH if w == Window::Shrines => pool >= 1 && self.set_cells() & !realm.shrines() & realm.face_down() != 0,
            FAITH => pool >= 1 && has_set_to_consolidate(realm),
            DESTRUCTION => {
                let c = &self.castle;
                c.spaces().any(|s| c.is_available(s))
            }
            DEEP => {
                let ty = self.held[0].tile_type();
                room && self.castle.spaces().any(|s| self.castle.top(s).map(|t| t.tile_type()) == Some(ty) && self.pickable(s))
            }
            CUNNING => cunning_groups(realm) != 0,
            _ => false,
        }
    }

    /// A tile a pick may take: Available, or with Elegance a free short side.
    #[inline]
    pub(crate) fn pickable(&self, s: usize) -> bool {
        self.castle.is_available(s) || (self.tc.elegance && self.castle.has_free_short_side(s))
    }

    /// A pick only Elegance allows: not Available, a free short side.
    #[inline]
    pub(crate) fn elegance_only(&self, s: usize) -> bool {
        !self.castle.is_available(s) && self.castle.has_free_short_side(s)
    }

    /// Whether an Elegance first pick exists: a top-floor tile only Elegance allows.
    fn has_elegance_first_pick(&self) -> bool {
        self.castle.top_spaces().iter().any(|s| self.elegance_only(s))
    }

    /// Deception's candidates in id order: the north, west, own (the revealed
    /// tile), east and south space of the first pick.
    pub(crate) fn deception_candidates(&self) -> [Option<usize>; 5] {
        let s0 = self.tc.first_space as usize;
        let f = self.tc.first_floor;
        let (row, col) = (s0 / MAX_COLS, s0 % MAX_COLS);
        let h = |s: usize| self.castle.height(s);
        let touching = |s: usize| if h(s) == f { Some(s) } else { None };
        [
            if row > 0 { touching(s0 - MAX_COLS) } else { None },
            if col > 0 { touching(s0 - 1) } else { None },
            // The tile directly under the first (not one Destruction uncovered since).
            if f >= 2 && h(s0) == f - 1 { Some(s0) } else { None },
            if col + 1 < MAX_COLS { touching(s0 + 1) } else { None },
            if row + 1 < MAX_ROWS { touching(s0 + MAX_COLS) } else { None },
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
        // Not to prevent a set: the tile must not be in a set of its own type.
        if flood(1 << cell, realm.of_type(t)).count_ones() >= 4 {
            return None;
        }
        let g = flood(1 << cell, realm.of_type(target) | 1 << cell);
        // It must complete the set: no group of that type it touches is a set
        // already ("only if, by doing so, you are able to Consolidate a set").
        if groups_of(g & !(1 << cell), 4..=16) != 0 {
            return None;
        }
        match g.count_ones() {
            n if n >= 4 => Some((g, false)),
            3 if self.spirits & (1 << CUNNING) != 0
                && self.tc.used & (1 << CUNNING) == 0
                && (pool >= 1 || realm.face_up() & !g != 0) =>
            {
                Some((g, true))
            }
            _ => None,
        }
    }

    // ------------------------------------------------------------ legal follow-ups

    pub(crate) fn legal_follow_ups(&self, out: &mut ActionList, spirits: bool) {
        let realm = self.mover_realm();
        let cells = |m: u16, out: &mut ActionList, f: fn(u8) -> Action| {
            let mut m = m;
            while m != 0 {
                out.push(f(m.trailing_zeros() as u8));
                m &= m - 1;
            }
        };
        match self.phase {
            Phase::Spirits => {
                out.push(Action::Done);
                if spirits {
                    self.legal_activations(out);
                }
            }
            Phase::Destroy => {
                let c = &self.castle;
                c.for_each_space(|s| {
                    if c.is_available(s) {
                        out.push(Action::Destroy(s as u8));
                    }
                });
            }
            Phase::Wind => {
                if self.tc.wind_flipped {
                    out.push(Action::Done);
                } else {
                    cells(realm.face_up(), out, Action::Flip);
                }
                cells(movable_shrines(realm), out, Action::ShrineFrom);
            }
            Phase::WindTo => cells(shrine_spots(realm) & !(1 << self.tc.lifted), out, Action::ShrineTo),
            Phase::Strength => {
                if self.tc.moves > 0 {
                    out.push(Action::Done);
                }
                cells(strength_sources(realm, self.last_moved()), out, Action::MoveFrom);
            }
            Phase::StrengthTo => cells(realm.placeable() & !(1 << self.tc.lifted), out, Action::MoveTo),
            Phase::Set => {
                let m = if self.tc.set_card == BEAUTY { beauty_groups(realm) } else { cunning_groups(realm) };
                cells(m, out, Action::Set);
            }
            Phase::Change => {
                let pool = self.players[self.current as usize].shrine_pool;
                for c in 0..CELLS {
                    for t in 0..TileType::COUNT {
                        if self.change_group(realm, pool, c, t).is_some() {
                            out.push(Action::Change { cell: c as u8, ty: t as u8 });
                        }
                    }
                }
            }
            Phase::Cunning => {
                cells(realm.face_up() & !self.tc.pending, out, |c| Action::Spirit { card: CUNNING, pay: Some(c) });
                if self.players[self.current as usize].shrine_pool > 0 {
                    out.push(Action::Spirit { card: CUNNING, pay: None });
                }
            }
            _ => {}
        }
    }

    fn last_moved(&self) -> Option<u8> {
        if self.tc.moves > 0 {
            Some(self.tc.last_to)
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
        self.tc.used |= 1 << card;
        if self.phase == Phase::Cunning {
            // Change's group of 3 becomes a Cunning set of its changed type.
            let ty = TileType::ALL[self.tc.pending_type as usize];
            let bonus = u32::from(self.rules.dragon_set_bonus && ty == TileType::Dragon);
            self.consolidate_set(self.tc.pending, 2 + bonus, ty);
            self.tc.pending = 0;
            return self.finish_card();
        }
        self.tc.window = match self.phase {
            Phase::Action => Window::Start,
            Phase::Complete => Window::Picked,
            Phase::Spirits => Window::Placed,
            _ => Window::Shrines,
        };
        match card {
            BEAUTY | CUNNING => {
                self.tc.set_card = card;
                self.phase = Phase::Set;
            }
            ELEGANCE => {
                self.tc.elegance = true;
                self.tc.must_elegance = true;
            }
            WIND => {
                self.tc.wind_flipped = false;
                self.phase = Phase::Wind;
            }
            DECEPTION => self.tc.second = Second::Deception,
            DEEP => self.tc.second = Second::Deep,
            STRENGTH => {
                self.tc.moves = 0;
                self.phase = Phase::Strength;
            }
            CHANGE => self.phase = Phase::Change,
            FAITH => {
                self.tc.faith_extra = 1;
                if self.phase == Phase::Spirits {
                    self.settle(Resume::Spirits);
                }
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
                self.phase = if self.held_len == 0 { Phase::Action } else { Phase::Complete };
            }
            Action::Flip(c) => {
                self.players[seat].realm.turn_down(1 << c);
                self.tc.wind_flipped = true;
                if movable_shrines(&self.players[seat].realm) == 0 {
                    self.finish_card();
                }
            }
            Action::ShrineFrom(c) => {
                self.tc.lifted = c;
                self.phase = Phase::WindTo;
            }
            Action::ShrineTo(c) => {
                self.players[seat].realm.move_shrine(self.tc.lifted as usize, c as usize);
                self.finish_card();
            }
            Action::MoveFrom(c) => {
                self.tc.lifted = c;
                self.phase = Phase::StrengthTo;
            }
            Action::MoveTo(to) => {
                let from = self.tc.lifted;
                let realm = &mut self.players[seat].realm;
                let tile = realm.lift(from as usize);
                realm.put(to as usize, tile);
                // Sets follow their tiles: the covered tile leaves its set, the
                // moved one takes its set (if any) along.
                for set in self.sets[..self.n_sets as usize].iter_mut() {
                    set.cells &= !(1 << to);
                    if set.cells & (1 << from) != 0 {
                        set.cells = (set.cells & !(1 << from)) | 1 << to;
                    }
                }
                self.tc.moves += 1;
                self.tc.last_to = to;
                if self.tc.moves == 2 || strength_sources(&self.players[seat].realm, Some(to)) == 0 {
                    self.finish_card();
                } else {
                    self.phase = Phase::Strength;
                }
            }
            Action::Set(c) => {
                let realm = &self.players[seat].realm;
                let (group, vp, ty) = if self.tc.set_card == BEAUTY {
                    let n = realm.face_up_tile(c as usize).and_then(|t| t.number()).unwrap_or(0);
                    let g = flood(1 << c, realm.numbered(n));
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
                        self.tc.pending = group;
                        self.tc.pending_type = ty;
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

    /// A card's effect is complete: Consolidate, then back to its window.
    pub(crate) fn finish_card(&mut self) {
        let resume = if self.tc.window == Window::Start { Resume::Action } else { Resume::Spirits };
        self.settle(resume);
    }

    /// The Action is complete (all tiles placed): window (c), or Consolidation.
    pub(crate) fn after_action(&mut self) {
        if self.spirits & window::PLACED != 0 && self.any_activation(Window::Placed) {
            self.phase = Phase::Spirits;
        } else {
            self.settle(Resume::End);
        }
    }

    /// Consolidate every set (R-CONS-1..4); the Shrine step for the sets not yet
    /// offered one (R-SHRINE-1), else play resumes.
    pub(crate) fn settle(&mut self, resume: Resume) {
        let seat = self.current as usize;
        // Consolidate straight into this turn's list (the hot path of every turn).
        // A Realm is settled after every turn: only placed tiles or a Spirit can
        // have made a set (a Discard or a Summon alone cannot).
        if self.placed > 0 || self.tc.used != 0 {
            let first = self.n_sets as usize;
            let realm = &mut self.players[seat].realm;
            let bonus = self.rules.dragon_set_bonus;
            // Without a Spirit only the placed tiles changed the Realm, so a
            // new set contains one of them: flood from those cells alone.
            let (n, vp) = if self.tc.used == 0 {
                realm.consolidate_around(self.placed_cells, bonus, &mut self.sets[first..])
            } else {
                realm.consolidate(bonus, &mut self.sets[first..])
            };
            self.players[seat].vp += vp as u16;
            self.n_sets += n as u8;
        }
        self.tc.resume = resume;
        if self.n_sets > self.sets_done && (self.shrine_cells() != 0 || self.any_activation(Window::Shrines)) {
            self.phase = Phase::Shrine;
        } else if self.n_sets == 0 && resume == Resume::End {
            self.end_turn(); // nothing Consolidated this turn: nothing to close
        } else {
            self.leave_shrines();
        }
    }

    /// The Shrine step is over: the allowances end and play resumes.
    pub(crate) fn leave_shrines(&mut self) {
        for set in self.sets[..self.n_sets as usize].iter_mut() {
            set.allowance = 0;
        }
        self.sets_done = self.n_sets;
        match self.tc.resume {
            Resume::End => self.end_turn(),
            Resume::Action => self.phase = Phase::Action,
            Resume::Spirits => {
                if self.any_activation(Window::Placed) {
                    self.phase = Phase::Spirits;
                } else {
                    self.end_turn();
                }
            }
        }
    }

    /// After a Shrine is built: stay while another can be built or Faith
    /// activated.
    pub(crate) fn after_shrine(&mut self) {
        if self.shrine_cells() == 0 && !self.any_activation(Window::Shrines) {
            self.leave_shrines();
        }
    }
}

/// The cells of `from` that have a cell of `to` other than themselves to go to.
fn with_another(from: u16, to: u16) -> u16 {
    match to.count_ones() {
        0 => 0,
        1 => from & !to,
        _ => from,
    }
}

/// Wind: built Shrines that have another face-down top without a Shrine to go to.
fn movable_shrines(realm: &Realm) -> u16 {
    with_another(realm.shrines(), shrine_spots(realm))
}

/// Face-down tops without a Shrine.
fn shrine_spots(realm: &Realm) -> u16 {
    realm.face_down() & !realm.shrines()
}

/// Strength: stacks without a Shrine (not the tile just moved) with another
/// placeable cell to go to.
fn strength_sources(realm: &Realm, last: Option<u8>) -> u16 {
    let mut from = realm.occupied() & !realm.shrines();
    if let Some(l) = last {
        from &= !(1 << l);
    }
    with_another(from, realm.placeable())
}

/// Lowest cells of the groups in `of` (each group once) of size in `sizes`.
fn groups_of(of: u16, sizes: std::ops::RangeInclusive<u32>) -> u16 {
    let mut out = 0u16;
    let mut left = of;
    while left != 0 {
        let low = left & left.wrapping_neg();
        let g = flood(low, left);
        left &= !g;
        if sizes.contains(&g.count_ones()) {
            out |= low;
        }
    }
    out
}

/// Beauty: maximal groups of >= 4 face-up Faction tiles with the same number.
fn beauty_groups(realm: &Realm) -> u16 {
    (1..=6).fold(0, |m, n| m | groups_of(realm.numbered(n), 4..=16))
}

/// Cunning: maximal groups of exactly 3 face-up tiles of one type.
fn cunning_groups(realm: &Realm) -> u16 {
    TileType::ALL.iter().fold(0, |m, &t| m | groups_of(realm.of_type(t), 3..=3))
}

/// A face-up group of >= 4 of one type, waiting for Consolidation.
fn has_set_to_consolidate(realm: &Realm) -> bool {
    TileType::ALL.iter().any(|&t| groups_of(realm.of_type(t), 4..=16) != 0)
}
