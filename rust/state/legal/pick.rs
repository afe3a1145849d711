//! One legal decision drawn at random without listing the others: the
//! random playouts' hot path.

use crate::action::{Action, ActionList};
use crate::grid::{count16, Ranked16, RankedGrid};
use crate::state::{Phase, State};

impl State {
    /// `legal[draw(legal.len())]` for `legal` the list [`State::legal_actions_into`]
    /// would make, or `None` once the game is over. The common phases count
    /// their actions in closed form and pick the one drawn without listing the
    /// others (a random game's decisions are mostly these); the Spirit
    /// activations, which come after every other action of a phase, are
    /// counted per card. The rest fill `buf`. `draw(n)` must return an index
    /// below `n`.
    #[inline(always)]
    pub fn legal_pick(&self, buf: &mut ActionList, draw: impl FnOnce(usize) -> usize) -> Option<Action> {
        // Without Spirit cards no Spirit flag is ever set and no activation is listed.
        let plain = self.spirits == 0;
        // Elegance widens the picks and a pending pick is all there is: listed.
        let closed = || !(self.turn_cards.elegance || self.pick_pending());
        match self.phase {
            Phase::Action if plain => {
                let (takes, summon) = self.first_pick_choices();
                let n = takes.count() as usize + summon as usize;
                if n == 0 {
                    return None; // never in a running game (`check_invariants`)
                }
                Some(Self::nth_first_pick(&takes, draw(n)))
            }
            Phase::Action if closed() => {
                let (takes, summon) = self.first_pick_choices();
                let base = takes.count() as usize + summon as usize;
                Some(self.pick_or_activate(base, draw, |k| Self::nth_first_pick(&takes, k)))
            }
            Phase::Complete if plain => {
                let (pairs, shrine) = self.completion_choices();
                let k = draw(pairs.count() as usize + shrine as usize + 1);
                Some(self.nth_completion(&pairs, shrine, k))
            }
            Phase::Complete if closed() => {
                let (pairs, shrine) = self.completion_choices();
                let base = pairs.count() as usize + shrine as usize + 1;
                Some(self.pick_or_activate(base, draw, |k| self.nth_completion(&pairs, shrine, k)))
            }
            Phase::Place if plain => {
                let cells = Ranked16::new(self.placement_cells());
                if cells.count() == 0 {
                    return None;
                }
                let k = draw(cells.count() as usize);
                Some(Action::Place(cells.select(k as u32) as u8))
            }
            Phase::Place => {
                let cells = Ranked16::new(self.placement_cells());
                Some(self.pick_or_activate(cells.count() as usize, draw, |k| Action::Place(cells.select(k as u32) as u8)))
            }
            Phase::Shrine if plain => {
                let cells = Ranked16::new(self.shrine_cells());
                let k = draw(cells.count() as usize + 1) as u32;
                Some(if k < cells.count() { Action::Shrine(cells.select(k) as u8) } else { Action::Done })
            }
            Phase::Shrine => {
                let cells = Ranked16::new(self.shrine_cells());
                let base = cells.count() as usize + 1;
                Some(self.pick_or_activate(base, draw, |k| {
                    if k + 1 < base { Action::Shrine(cells.select(k as u32) as u8) } else { Action::Done }
                }))
            }
            Phase::Spirits | Phase::EndTurn => Some(self.pick_or_activate(1, draw, |_| Action::Done)),
            Phase::Wind | Phase::Strength | Phase::WindTo | Phase::StrengthTo | Phase::Set => self.cell_follow_up_pick(draw),
            Phase::Destroy => {
                let spaces = self.castle.available().ranked();
                let k = draw(spaces.count() as usize);
                spaces.nth(k as u32).map(|s| Action::Destroy(s as u8))
            }
            Phase::GameOver => None,
            _ => {
                self.legal_into(buf, true);
                if buf.is_empty() {
                    return None;
                }
                buf.get(draw(buf.len())).copied()
            }
        }
    }

    /// The `draw`n follow-up of a phase whose choices are Realm cells
    /// ([`State::cell_follow_ups`]).
    #[inline(always)]
    fn cell_follow_up_pick(&self, draw: impl FnOnce(usize) -> usize) -> Option<Action> {
        let (done, [(a, on_a), (b, on_b)]) = self.cell_follow_ups()?;
        let (a, b) = (Ranked16::new(a), Ranked16::new(b));
        let n = done as u32 + a.count() + b.count();
        if n == 0 {
            return None;
        }
        let k = draw(n as usize) as u32;
        Some(match k.checked_sub(done as u32) {
            None => Action::Done,
            Some(k) if k < a.count() => on_a(a.select(k) as u8),
            Some(k) => on_b(b.select(k - a.count()) as u8),
        })
    }

    /// The `draw`n one of a phase's `base` regular actions (`regular(k)`, `k <
    /// base`) followed by its Spirit activations. About a quarter of a
    /// standard game's decision points have no card open (used, a pick
    /// pending, or a card that acts on picks only): they are asked nothing more.
    #[inline(always)]
    fn pick_or_activate(&self, base: usize, draw: impl FnOnce(usize) -> usize, regular: impl FnOnce(usize) -> Action) -> Action {
        let open = self.open_cards(self.phase);
        if open == 0 {
            return regular(draw(base));
        }
        if open.is_power_of_two() {
            // One card open (the standard game's one Spirit): its payments
            // are all there is to count, without the `Offered` table.
            let card = open.trailing_zeros() as u8;
            let (cells, shrine) = self.payments(card, self.phase);
            let cells = Ranked16::new(cells);
            let k = draw(base + cells.count() as usize + usize::from(shrine));
            return if k < base { regular(k) } else { crate::state::spirit::activation(card, cells, k - base) };
        }
        let offered = self.offered(open);
        let k = draw(base + offered.count());
        if k < base { regular(k) } else { offered.nth(k - base) }
    }

    /// R-ACT-1..3, R-ACT-5 without Elegance: the Available top-floor tiles,
    /// and whether Summon is allowed.
    #[inline(always)]
    fn first_pick_choices(&self) -> (RankedGrid, bool) {
        (self.castle.top_floor_available().ranked(), self.can_summon())
    }

    #[inline(always)]
    fn nth_first_pick(takes: &RankedGrid, k: usize) -> Action {
        match takes.nth(k as u32) {
            Some(s) => Action::Take(s as u8),
            None => Action::Summon,
        }
    }

    /// R-ACT-1..3 with R-PLACE-2, the second pick identical and Available:
    /// the copies that may be taken, and whether Tile and Shrine is possible
    /// (Discard always is).
    #[inline(always)]
    fn completion_choices(&self) -> (Ranked16, bool) {
        let free = count16(self.mover().realm.placeable());
        let pairs = Ranked16::new(if free >= 2 { self.castle.available_copies(self.held[0]) as u16 } else { 0 });
        (pairs, self.general_shrines > 0 && free >= 1)
    }

    #[inline(always)]
    fn nth_completion(&self, pairs: &Ranked16, shrine: bool, k: usize) -> Action {
        let n = pairs.count() as usize;
        if k < n {
            Action::Take(self.castle.copy_space(self.held[0], pairs.select(k as u32) as usize))
        } else if shrine && k == n {
            Action::TakeShrine
        } else {
            Action::Discard
        }
    }
}
