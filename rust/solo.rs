//! Solo mode: the Dragon of Ingenuity (R-SOLO-1..5).
//!
//! The Dragon is a pure function of the visible state: its choice depends only
//! on top tiles, availability, and the type the previous seat picked last turn.

use crate::action::Action;
use crate::state::State;
use crate::tile::{Tile, TileType};

/// Countdown tokens on the track in solo (R-SOLO-1): the third one triggers the end.
pub const SOLO_TRACK: u8 = 3;

/// R-SOLO-5: rank names by final score.
pub fn rank(score: i64) -> &'static str {
    match score {
        i64::MIN..=39 => "Student",
        40..=45 => "Devotee",
        46..=49 => "Master",
        50..=52 => "Grand Master",
        53..=54 => "Dragon",
        55..=56 => "Silver Dragon",
        57..=58 => "Gold Dragon",
        59 => "Jade Dragon",
        _ => "Diamond Dragon",
    }
}

/// The categories the Dragon tries, in order (R-SOLO-3), after Summon.
fn wanted(category: usize, last: Option<TileType>, t: Tile) -> bool {
    let ty = t.tile_type();
    match category {
        0 => Some(ty) == last,
        1 => ty == TileType::Dragon,
        2 => !ty.is_faction(),
        _ => ty.is_faction(),
    }
}

impl State {
    /// The Dragon's first pick (R-SOLO-3, R-SOLO-4): the first category with a
    /// candidate among the Available top-floor tiles, the northernmost then
    /// westernmost of them (lowest space id). `None` when the castle is empty.
    pub fn dragon_first_pick(&self) -> Option<Action> {
        let c = &self.castle;
        // The Available top-floor tiles (R-ACT-1), ascending: northernmost first.
        let candidates = c.top_floor_available();
        let last = self.last_pick_of(self.previous_seat());
        // The first candidate of each category: one pass instead of four.
        let mut first = [None; 4];
        for s in candidates.iter() {
            let Some(t) = c.top(s) else { continue };
            for (category, slot) in first.iter_mut().enumerate() {
                if slot.is_none() && wanted(category, last, t) {
                    *slot = Some(s);
                }
            }
            if first[0].is_some() {
                break;
            }
        }
        first.into_iter().flatten().next().map(|s| Action::Take(s as u8))
    }

    /// R-SOLO-4: the northernmost, then westernmost Available tile identical to
    /// `first`, judged with `first` already gone.
    pub fn dragon_second_pick(&self, first: Tile) -> Option<Action> {
        let c = &self.castle;
        // Copies are numbered in space order, so the lowest Available copy is the northernmost.
        match c.available_copies(first) {
            0 => None,
            mask => Some(Action::Take(c.copy_space(first, mask.trailing_zeros() as usize))),
        }
    }

    /// What the Dragon of Ingenuity would do now, as the seat to move (the
    /// `DragonOfIngenuity` agent, usable in any seat). With a Realm to fill it
    /// completes a pair when it may, else discards, places on the lowest cell
    /// and builds every Shrine it may.
    pub fn dragon_action(&self) -> Option<Action> {
        use crate::state::Phase;
        match self.phase {
            Phase::Action if self.can_summon() => Some(Action::Summon),
            Phase::Action => self.dragon_first_pick(),
            Phase::Complete => {
                let legal = self.legal_actions();
                let pair = self.dragon_second_pick(self.held[0]).filter(|a| legal.contains(*a));
                Some(pair.unwrap_or(Action::Discard))
            }
            Phase::GameOver => None,
            // It activates no Spirit: `done` comes before every activation.
            _ => self.legal_actions().first().copied(),
        }
    }

    /// R-SOLO-2..4: play the Dragon's whole turn; its tiles leave the game and its
    /// actions are logged for the record (`dragon_log`).
    pub(crate) fn play_dragon_turn(&mut self) {
        let seat = self.current as usize;
        if self.can_summon() {
            self.log_dragon(Action::Summon);
            self.players[seat].countdown += 1;
            self.take_countdown_token();
        } else if let Some(first) = self.dragon_first_pick() {
            self.log_dragon(first);
            let Action::Take(s) = first else { return };
            let t = self.castle.remove_top(s as usize);
            self.dragon_keeps(t);
            self.turn_pick = Some(t.tile_type());
            match self.dragon_second_pick(t) {
                Some(second @ Action::Take(s2)) => {
                    self.log_dragon(second);
                    let t2 = self.castle.remove_top(s2 as usize);
                    self.dragon_keeps(t2);
                }
                _ => self.log_dragon(Action::Done),
            }
        }
        self.end_turn();
    }

    fn log_dragon(&mut self, a: Action) {
        let n = self.dragon_log_len as usize;
        if n < self.dragon_log.len() {
            self.dragon_log[n] = a;
            self.dragon_log_len += 1;
        }
    }

    fn dragon_keeps(&mut self, t: Tile) {
        self.dragon_tiles[t.index() as usize] += 1;
    }

    /// Tiles the Dragon of Ingenuity took, by symbol (R-SOLO-2: kept for the record).
    pub fn dragon_tiles(&self) -> &[u8; Tile::SYMBOLS] {
        &self.dragon_tiles
    }

    /// The Dragon's actions during the last `apply` (empty if it did not move).
    pub fn dragon_log(&self) -> &[Action] {
        &self.dragon_log[..self.dragon_log_len as usize]
    }
}

#[cfg(test)]
mod tests {
    use super::rank;

    #[test]
    fn rank_boundaries() {
        // R-SOLO-5
        let cases = [
            (0, "Student"),
            (39, "Student"),
            (40, "Devotee"),
            (45, "Devotee"),
            (46, "Master"),
            (49, "Master"),
            (50, "Grand Master"),
            (52, "Grand Master"),
            (53, "Dragon"),
            (54, "Dragon"),
            (55, "Silver Dragon"),
            (56, "Silver Dragon"),
            (57, "Gold Dragon"),
            (58, "Gold Dragon"),
            (59, "Jade Dragon"),
            (60, "Diamond Dragon"),
            (99, "Diamond Dragon"),
        ];
        for (score, name) in cases {
            assert_eq!(rank(score), name, "{score}");
        }
    }
}
