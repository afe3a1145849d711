//! Legal decisions, generated in id order into a caller's buffer.
//!
//! A random one is drawn without the list by `pick`.

mod pick;

use super::{Phase, State};
use crate::action::{Action, ActionList};
use crate::error::Error;
use crate::layout::SPACES;
use crate::realm::CELLS;
use crate::action::ActionKind;
use crate::grid::{count16, Grid};
use crate::tile::{Tile, TileType};

impl State {
    /// The legal decisions of the seat to move, sorted by id; empty once the game is over.
    pub fn legal_actions(&self) -> ActionList {
        let mut out = ActionList::default();
        self.legal_actions_into(&mut out);
        out
    }

    /// Fill `out` with the legal actions, sorted by id.
    pub fn legal_actions_into(&self, out: &mut ActionList) {
        self.legal_into(out, true);
    }

    /// The legal actions except the optional Spirit activations (a rollout
    /// policy that never activates a Spirit need not pay to list them).
    pub fn legal_actions_without_spirits_into(&self, out: &mut ActionList) {
        self.legal_into(out, false);
    }

    // Out of line: the closed-form picks of `legal_pick` are the hot path.
    #[inline(never)]
    fn legal_into(&self, out: &mut ActionList, spirits: bool) {
        out.clear();
        match self.phase {
            Phase::Action => self.legal_first_picks(out, spirits),
            Phase::Complete => self.legal_completions(out, spirits),
            Phase::Place => {
                let mut cells = self.placement_cells();
                while cells != 0 {
                    out.push(Action::Place(cells.trailing_zeros() as u8));
                    cells &= cells - 1;
                }
                if spirits && self.spirits != 0 {
                    self.legal_activations(out);
                }
            }
            Phase::Shrine => {
                let mut cells = self.shrine_cells();
                while cells != 0 {
                    out.push(Action::Shrine(cells.trailing_zeros() as u8));
                    cells &= cells - 1;
                }
                out.push(Action::Done);
                if spirits {
                    self.legal_activations(out);
                }
            }
            Phase::Spirits | Phase::EndTurn => {
                out.push(Action::Done);
                if spirits {
                    self.legal_activations(out);
                }
            }
            Phase::GameOver => {}
            _ => self.legal_follow_ups(out),
        }
    }

    /// R-ACT-1..3 first pick: an Available tile on the top floor; R-ACT-5 Summon;
    /// Spirits (R-SPIRIT-2). A pending Elegance pick is the only choice.
    fn legal_first_picks(&self, out: &mut ActionList, spirits: bool) {
        self.take_spaces().for_each(|s| out.push(Action::Take(s as u8)));
        if self.summon_legal() {
            out.push(Action::Summon);
        }
        if spirits && self.spirits != 0 {
            self.legal_activations(out);
        }
    }

    /// The castle spaces a `TAKE` may name now: the one check of picks that
    /// the listing, [`State::is_legal`] and the reasons share. R-ACT-1..3
    /// (the first pick on the top floor, the second identical and
    /// Available, with room for 2, R-PLACE-2), widened by Elegance, or the
    /// second pick of Deception or Deep.
    pub(crate) fn take_spaces(&self) -> Grid {
        use super::spirit::Second;
        let c = &self.castle;
        let mut out = Grid::EMPTY;
        match (self.phase, self.turn_cards.second) {
            (Phase::Action, _) if self.turn_cards.must_elegance => return c.elegance_first_picks(),
            // The base game's case, the hottest of the core: a few shifts.
            (Phase::Action, _) if !self.turn_cards.elegance => return c.top_floor_available(),
            (Phase::Action, _) => return c.top_floor_available().union(&c.elegance_first_picks()),
            (Phase::Complete, Second::Deception) => self.deception_candidates().into_iter().flatten().for_each(|s| out.set(s)),
            (Phase::Complete, Second::Deep) => self.deep_picks().for_each(|s| out.set(s)),
            (Phase::Complete, Second::Identical) if self.mover_free() >= 2 => {
                let first = self.held[0];
                if self.turn_cards.must_elegance {
                    c.tops_of(first, |s| {
                        if self.elegance_only(s) {
                            out.set(s);
                        }
                    });
                } else if !self.turn_cards.elegance {
                    // The copies `legal_pick` chooses among, in the same order.
                    let copies = c.available_copies(first);
                    for j in (0..Tile::COPIES).filter(|j| copies >> j & 1 != 0) {
                        out.set(c.copy_space(first, j) as usize);
                    }
                } else {
                    c.tops_of(first, |s| {
                        if self.pickable(s) {
                            out.set(s);
                        }
                    });
                }
            }
            _ => {}
        }
        out
    }

    /// Free cells of the mover's Realm (R-PLACE-1).
    fn mover_free(&self) -> u32 {
        count16(self.mover().realm.placeable())
    }

    /// R-ACT-5 now: the first pick's decision, no Elegance pick pending.
    fn summon_legal(&self) -> bool {
        self.phase == Phase::Action && !self.turn_cards.must_elegance && self.can_summon()
    }

    /// The Action may be completed by Tile and Shrine or Discard now (no
    /// Spirit's second pick pending).
    fn completes(&self) -> bool {
        self.phase == Phase::Complete && !self.pick_pending()
    }

    /// R-ACT-2 with R-PLACE-2: a Shrine in the general pool, a cell for the tile.
    fn take_shrine_legal(&self) -> bool {
        self.completes() && self.general_shrines > 0 && self.mover_free() >= 1
    }

    /// `DONE` ends an optional step: the Shrine step, the decision points
    /// after the placements, Wind after its flip, Strength after a move.
    pub(crate) fn done_legal(&self) -> bool {
        match self.phase {
            Phase::Shrine | Phase::Spirits | Phase::EndTurn => true,
            Phase::Wind => self.turn_cards.wind_flipped,
            Phase::Strength => self.turn_cards.moves > 0,
            _ => false,
        }
    }

    /// R-ACT-5: every castle tile on the ground floor, and a token to take.
    pub(crate) fn can_summon(&self) -> bool {
        self.castle.top_floor() <= 1 && self.tokens_taken < super::COUNTDOWN_TOKENS
    }

    /// R-ACT-1 second tile (identical, Available after the first left), R-ACT-2,
    /// R-ACT-3, each subject to R-PLACE-2.
    /// With Deception, Deep or Elegance pending, only their second pick.
    fn legal_completions(&self, out: &mut ActionList, spirits: bool) {
        self.take_spaces().for_each(|s| out.push(Action::Take(s as u8)));
        if self.take_shrine_legal() {
            out.push(Action::TakeShrine);
        }
        if self.completes() {
            out.push(Action::Discard);
        }
        if spirits && self.spirits != 0 {
            self.legal_activations(out);
        }
    }

    /// R-PLACE-1 with R-PLACE-3: when two identical tiles are placed, the first
    /// goes to a lower cell than the second, so each unordered pair is listed
    /// once (unless a Spirit may come between the placements).
    pub(crate) fn placement_cells(&self) -> u16 {
        let free = self.mover().realm.placeable();
        if !self.pair_is_one_move() {
            free
        } else if self.placed == 0 {
            let highest = 15 - free.leading_zeros();
            free & !(1u16 << highest)
        } else {
            // One tile placed: the second goes above the first's cell. The
            // first was placed in this order too (`pair_is_one_move` holds
            // from the first placement on), so it is not on the highest cell
            // (15) and the mask cannot overflow.
            free & !((2u16 << self.placed_cells.trailing_zeros()) - 1)
        }
    }

    /// R-PLACE-3: the two identical tiles in hand are placed as one move, lower
    /// cell first. The two orders are the same move only while no Spirit can
    /// come between the placements: none usable in PLACE is left this turn
    /// (or the player never uses one), none came (`apart`), and the order was
    /// already in force when the first tile was placed (`unordered`: a state
    /// made [`State::never_activate`] between the placements).
    pub(crate) fn pair_is_one_move(&self) -> bool {
        self.held_len == 2
            && self.held[0] == self.held[1]
            && !self.turn_cards.apart
            && !self.turn_cards.unordered
            && (self.spirits & !self.turn_cards.used & !crate::cards::spirit::PICKS == 0 || self.passive)
    }

    /// R-SHRINE-1: tiles of a set Consolidated this turn whose allowance is not
    /// used up, without a Shrine, while the Shrine Pool is not empty.
    /// Faith's extra Shrine opens every tile of this turn's sets.
    pub(crate) fn shrine_cells(&self) -> u16 {
        let p = self.mover();
        if p.shrine_pool == 0 {
            return 0;
        }
        // R-PLACE-2: while collected tiles wait to be placed, a Shrine (which
        // takes a free cell) may not leave fewer free cells than tiles in hand.
        if self.turn_cards.resume == super::spirit::Resume::Place
            && count16(p.realm.placeable()) <= u32::from(self.held_len - self.placed)
        {
            return 0;
        }
        let mut cells = 0u16;
        for set in self.consolidated_sets() {
            if set.allowance > 0 || self.turn_cards.faith_extra > 0 {
                cells |= set.cells;
            }
        }
        cells & !p.realm.shrines() & p.realm.face_down()
    }

    /// Whether `a` is in [`State::legal_actions`]: one check per kind of
    /// action, the masks the listing is made from (every Python `apply` asks).
    pub fn is_legal(&self, a: Action) -> bool {
        let cell = |m: u16, c: u8| (c as usize) < CELLS && m >> c & 1 != 0;
        match a {
            Action::Take(s) => (s as usize) < SPACES && self.take_spaces().contains(s as usize),
            Action::Summon => self.summon_legal(),
            Action::TakeShrine => self.take_shrine_legal(),
            Action::Discard => self.completes(),
            Action::Place(c) => self.phase == Phase::Place && cell(self.placement_cells(), c),
            Action::Shrine(c) => self.phase == Phase::Shrine && cell(self.shrine_cells(), c),
            Action::Done => self.done_legal(),
            Action::Spirit { card, pay } if self.phase == Phase::Cunning => {
                card == crate::cards::spirit::CUNNING
                    && match pay {
                        Some(c) => cell(self.follow_up_cells(ActionKind::Spirit), c),
                        None => self.mover().shrine_pool > 0,
                    }
            }
            Action::Spirit { card, pay } => self.activation_legal(card, pay),
            Action::Destroy(s) => self.phase == Phase::Destroy && (s as usize) < SPACES && self.castle.available().contains(s as usize),
            Action::Flip(c) | Action::ShrineFrom(c) | Action::ShrineTo(c) | Action::MoveFrom(c) | Action::MoveTo(c) | Action::Set(c) => {
                cell(self.follow_up_cells(a.kind()), c)
            }
            Action::Change { cell: c, ty } => {
                cell(self.follow_up_cells(ActionKind::Change), c) && (ty as usize) < TileType::COUNT && self.change_types(c as usize) >> ty & 1 != 0
            }
        }
    }

    /// Why `a` is not legal now, in a player's words.
    pub(crate) fn illegal_reason(&self, a: Action) -> String {
        let p = self.mover();
        let kind = a.kind();
        let expected = self.phase.expects();
        if let Action::Spirit { card, .. } = a {
            let Some(name) = crate::cards::SPIRITS.get(card as usize).copied() else {
                return format!("there is no Spirit card {card}");
            };
            return if self.spirits & (1 << card) == 0 {
                format!("the Spirit of {name} is not in play")
            } else if self.turn_cards.used & (1 << card) != 0 {
                format!("the Spirit of {name} was already activated this turn (R-SPIRIT-1)")
            } else {
                format!(
                    "the Spirit of {name} cannot be activated now: a pick is pending, \
                     the payment is missing, or its effect could not apply after paying (R-SPIRIT-1, R-SPIRIT-2)"
                )
            };
        }
        // The phase's own kinds (`Phase::kinds`): inside a Spirit's effect
        // (or after the placements) a wrong choice of the right kind is not
        // one of the Spirit's choices; elsewhere the reasons below say why.
        let takes = self.phase.kinds().contains(&kind);
        let follow_up = takes && self.phase.is_spirit_phase();
        let fits = takes && !follow_up;
        if follow_up {
            return format!("{a} is not one of this Spirit's choices now (docs/cards.md)");
        }
        if !fits {
            return format!("this phase expects {expected}");
        }
        if self.turn_cards.must_elegance || self.turn_cards.second != super::spirit::Second::Identical {
            return "a Spirit's pick is pending: the next pick must use it (docs/cards.md)".into();
        }
        match a {
            Action::Take(s) if s as usize >= SPACES => format!("there is no castle space {s}"),
            Action::Take(s) => {
                let s = s as usize;
                let (r, c) = crate::coords::Space::at(s).row_col();
                let Some(t) = self.castle.top(s) else {
                    return format!("castle space ({r},{c}) holds no tile");
                };
                if !self.castle.is_available(s) {
                    return format!("{t} at ({r},{c}) is not Available: both long sides are blocked (R-AVAIL-1)");
                }
                if self.phase == Phase::Action {
                    format!(
                        "{t} at ({r},{c}) is on floor {}, not the top floor {} (R-ACT-1)",
                        self.castle.height(s),
                        self.castle.top_floor()
                    )
                } else if t != self.held[0] {
                    format!("{t} is not identical to the first tile {} (R-TILE-2)", self.held[0])
                } else {
                    "your Realm has fewer than 2 spaces to place a pair (R-PLACE-2)".into()
                }
            }
            Action::Summon if self.castle.top_floor() > 1 => {
                format!("the castle still has tiles above the ground floor (top floor {}) (R-ACT-5)", self.castle.top_floor())
            }
            Action::Summon => "no Countdown token is left".into(),
            Action::TakeShrine if self.general_shrines == 0 => "the general pool has no Shrine (R-ACT-2)".into(),
            Action::TakeShrine => "your Realm has no space for the tile (R-PLACE-2)".into(),
            Action::Place(c) if c as usize >= CELLS => "no such Realm cell".into(),
            Action::Place(c) => {
                if p.realm.placeable() & (1 << c) == 0 {
                    "that cell holds a face-up tile or a Shrine (R-PLACE-1)".into()
                } else {
                    "two identical tiles are placed lower cell first (R-PLACE-3)".into()
                }
            }
            Action::Shrine(_) if p.shrine_pool == 0 => "your Shrine Pool is empty".into(),
            Action::Shrine(_) => {
                "that cell is not a tile of a set Consolidated this turn with Shrine allowance left, or has a Shrine (R-SHRINE-1)"
                    .into()
            }
            _ => format!("not legal now; this phase expects {expected}"),
        }
    }

    pub(crate) fn check_legal(&self, a: Action) -> Result<(), Error> {
        if self.is_legal(a) {
            Ok(())
        } else {
            Err(Error::Illegal { action: a.to_string(), phase: self.phase.name(), reason: self.illegal_reason(a) })
        }
    }
}
