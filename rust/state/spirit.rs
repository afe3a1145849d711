//! The Spirit cards in a turn (R-SPIRIT-1, R-SPIRIT-2, `docs/cards.md`):
//! which activations are legal and what each effect does. The turn's flow
//! around them (Consolidation, Shrine steps, where play resumes) is `turn.rs`.
//!
//! Activations are offered at every decision point of the mover's turn, so
//! their legality is decided per card with bit masks: a payment only takes
//! one face-up tile out of its type's (and number's) mask, so most conditions
//! are judged once on the unpaid Realm and re-judged only for the few cells
//! whose tile the condition rests on (`docs/design.md`).
//!
//! One module per concern: `payments` (who may pay for a card), `change`
//! (Change's choices), `picks` (the picks Elegance, Deep and Deception
//! allow), `follow_ups` (the decisions inside an effect), `effects` (what
//! an activation and its follow-ups do).

mod change;
mod effects;
mod follow_ups;
mod payments;
mod picks;

use super::{Phase, State};
use crate::action::{Action, ActionList};
use crate::cards::spirit::*;
use crate::grid::count16;
use crate::realm::{Realm, CELLS};

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
    /// The first of two identical tiles was placed while a Spirit could still
    /// come between the placements, and the player then stopped using Spirits
    /// ([`State::never_activate`]): the two orders stay different moves
    /// (R-PLACE-3), the second tile may go to any free cell.
    pub unordered: bool,
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
    /// The type Change gives that group ([`TileType`](crate::tile::TileType) index).
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
}

#[cfg(test)]
mod tests;
