//! Performing decisions. `apply` checks; `apply_unchecked` is what search uses.

use super::{Phase, State};
use crate::action::{Action, ActionList};
use crate::error::Error;

impl State {
    /// Apply `a` if legal; otherwise return why not and leave the state as it was.
    pub fn apply(&mut self, a: Action) -> Result<(), Error> {
        self.check_legal(a)?;
        self.apply_unchecked(a);
        Ok(())
    }

    /// Apply an action known to be legal (from [`State::legal_actions`]),
    /// without checking: the search's hot path. An illegal action leaves a
    /// state that breaks the game's invariants (tiles may be lost, a phase
    /// may have no decision); debug builds check legality first and panic.
    pub fn apply_unchecked(&mut self, a: Action) {
        debug_assert!(self.is_legal(a), "apply_unchecked({a}) is illegal in phase {:?}", self.phase);
        self.apply_inline(a)
    }

    /// A random policy's whole step: [`State::legal_pick`] and the action
    /// applied. Both are inlined here so that the compiler sees which kind
    /// of action each phase picked and jumps straight to its effect (a
    /// second dispatch on the kind was the costliest misprediction of a
    /// random game, `docs/design.md`).
    #[inline]
    pub fn step_pick(&mut self, buf: &mut ActionList, draw: impl FnOnce(usize) -> usize) -> Option<Action> {
        let a = self.legal_pick(buf, draw)?;
        self.apply_inline(a);
        Some(a)
    }

    #[inline(always)]
    fn apply_inline(&mut self, a: Action) {
        self.dragon_log_len = 0;
        let seat = self.current as usize;
        match a {
            Action::Take(s) => {
                if self.held_len == 0 {
                    // The first pick: Deception needs where it was; the solo
                    // Dragon follows its type (docs/cards.md).
                    self.turn_cards.first_space = s;
                    self.turn_cards.first_floor = self.castle.height(s as usize);
                    self.turn_cards.must_elegance = false;
                }
                let t = self.castle.remove_top(s as usize);
                if self.held_len == 0 {
                    self.turn_pick = Some(t.tile_type());
                } else {
                    self.turn_cards.must_elegance = false;
                    self.turn_cards.second = super::spirit::Second::Identical;
                }
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
                self.after_action();
            }
            Action::Summon => {
                self.players[seat].countdown += 1;
                self.take_countdown_token();
                self.after_action();
            }
            Action::Place(c) => {
                let t = self.held[self.placed as usize];
                self.players[seat].realm.place(c as usize, t);
                self.placed_cells |= 1 << c;
                self.placed += 1;
                // A tile of a set Consolidated earlier this turn (by a Spirit)
                // is covered and leaves its set.
                for set in self.sets[..self.n_sets as usize].iter_mut() {
                    set.cells &= !(1 << c);
                }
                if self.placed == self.held_len {
                    self.after_action();
                }
            }
            Action::Shrine(c) => {
                let p = &mut self.players[seat];
                p.shrine_pool -= 1;
                p.realm.build_shrine(c as usize);
                let n = self.n_sets as usize;
                // The set's own allowance first, then Faith's extra Shrine.
                match self.sets[..n].iter_mut().find(|s| s.cells & (1 << c) != 0 && s.allowance > 0) {
                    Some(set) => set.allowance -= 1,
                    None => self.turn_cards.faith_extra -= 1,
                }
                self.after_shrine();
            }
            Action::Done => match self.phase {
                Phase::Shrine => self.leave_shrines(),
                Phase::Spirits => self.close_spirits(),
                Phase::EndTurn => self.end_turn(),
                _ => self.finish_card(),
            },
            Action::Spirit { card, pay } => self.activate(card, pay),
            _ => self.apply_follow_up(a),
        }
    }
}
