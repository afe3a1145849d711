//! Scores and the winner (R-END-2, R-END-3).

use super::{State, MAX_PLAYERS};
use crate::cards::dragon::{points, rivals, Levels, READ_HEIGHTS};
use crate::cards::DRAGON_CARDS;

/// R-SOLO-1: the Spirits & Dragons solo variant subtracts 15.
pub const SOLO_VARIANT: i32 = -15;

/// Solo utility scale: `returns()` is the final score / 100.
pub const SOLO_RETURN_SCALE: f64 = 100.0;

/// What the Dragon cards that read no height are given.
static NO_LEVELS: Levels = Levels::NONE;

/// One player's score by source.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Breakdown {
    /// VP tokens: Consolidated sets and Discards.
    pub vp: u32,
    /// Shrine points: 1, 2 or 3 per Shrine by its stack's height (R-SHRINE-2).
    pub shrines: u32,
    /// 2 per Countdown token (R-END-2).
    pub countdown: u32,
    /// Points of each Dragon card (0 for cards not in play).
    pub dragons: [u32; DRAGON_CARDS],
    /// The solo variant's −15 (R-SOLO-1), else 0.
    pub variant: i32,
    /// The score, the sum of the above (R-END-2); it may be negative in the solo variant.
    pub total: i32,
}

impl State {
    /// The score of `seat` by source, current or final.
    pub fn breakdown(&self, seat: usize) -> Breakdown {
        let p = &self.players[seat];
        let vp = p.vp as u32;
        let shrines = p.realm.shrine_points();
        let countdown = 2 * p.countdown as u32;
        let mut dragons = [0; DRAGON_CARDS];
        self.dragon_points(seat, |card, v| dragons[card] = v);
        let variant = self.variant();
        let total = (vp + shrines + countdown + dragons.iter().sum::<u32>()) as i32 + variant;
        Breakdown { vp, shrines, countdown, dragons, variant, total }
    }

    /// The points of each Dragon card in play for `seat`, given to `f` with
    /// the card's index. The search scores every candidate move, so heights
    /// are read only for the cards that need them ([`READ_HEIGHTS`]).
    fn dragon_points(&self, seat: usize, mut f: impl FnMut(usize, u32)) {
        if self.dragons == 0 {
            return;
        }
        let realm = &self.players[seat].realm;
        let rivals = rivals(seat, self.players(), |s| &self.players[s].realm);
        let owned;
        let levels = if self.dragons & READ_HEIGHTS != 0 {
            owned = Levels::of(realm);
            &owned
        } else {
            &NO_LEVELS
        };
        for card in 0..DRAGON_CARDS {
            if self.dragons & (1 << card) != 0 {
                f(card, points(card as u8, realm, levels, rivals));
            }
        }
    }

    /// R-SOLO-1's −15 in a solo game with cards, else 0.
    fn variant(&self) -> i32 {
        if self.solo && self.has_cards() {
            SOLO_VARIANT
        } else {
            0
        }
    }

    /// R-END-2, current or final (Dragon cards included; the solo variant's
    /// −15 too, so it may be negative): [`State::breakdown`]'s total.
    pub fn score(&self, seat: usize) -> i32 {
        if self.dragons == 0 && !self.has_cards() {
            let p = &self.players[seat];
            return (p.vp as u32 + p.realm.shrine_points() + 2 * p.countdown as u32) as i32;
        }
        self.score_with_cards(seat)
    }

    // Out of line: the base game's score above stays small enough to inline.
    #[inline(never)]
    fn score_with_cards(&self, seat: usize) -> i32 {
        let p = &self.players[seat];
        let mut total = p.vp as u32 + p.realm.shrine_points() + 2 * p.countdown as u32;
        self.dragon_points(seat, |_, v| total += v);
        total as i32 + self.variant()
    }

    /// The tie-break key of R-END-3: score, then face-down stacks, then Shrines built.
    pub fn rank_key(&self, seat: usize) -> (i32, u32, u32) {
        let r = &self.players[seat].realm;
        (self.score(seat), r.face_down_stacks(), r.shrine_count())
    }

    /// Winning seats after the tie breaks (shared victory lists several), as a bitmask.
    pub fn winners_mask(&self) -> u8 {
        self.final_scores().1
    }

    /// Every seat's score (0 past the players) and the winners' mask, each
    /// score computed once: a score with Dragon cards is a few hundred
    /// instructions, and a game's end asks both.
    ///
    /// ```
    /// use _core::Setup;
    /// let s = Setup::new(3, 7).state().unwrap();
    /// let (scores, winners) = s.final_scores();
    /// assert_eq!(scores[..3], [s.score(0), s.score(1), s.score(2)]);
    /// assert_eq!((scores[3], winners), (0, s.winners_mask()));
    /// ```
    pub fn final_scores(&self) -> ([i32; MAX_PLAYERS], u8) {
        let n = self.players();
        let mut keys = [(i32::MIN, 0, 0); MAX_PLAYERS];
        for (s, k) in keys.iter_mut().enumerate().take(n) {
            *k = self.rank_key(s);
        }
        let best = keys[..n].iter().copied().max().unwrap_or_default();
        let winners = (0..n).filter(|&s| keys[s] == best).fold(0, |m, s| m | 1 << s);
        let mut scores = [0; MAX_PLAYERS];
        for (score, k) in scores.iter_mut().zip(&keys).take(n) {
            *score = k.0;
        }
        (scores, winners)
    }

    /// The winning seats in seat order after the tie breaks (R-END-3); several on a shared victory.
    pub fn winners(&self) -> Vec<usize> {
        let m = self.winners_mask();
        (0..self.players()).filter(|s| m & (1 << s) != 0).collect()
    }

    /// One utility per seat, as OpenSpiel's `Returns()`: 0 for everyone while
    /// the game runs; at the end 1 for a win, split equally among tied winners
    /// (after the tie breaks), 0 otherwise. Solo: the final score / 100.
    pub fn returns(&self) -> [f64; MAX_PLAYERS] {
        let mut out = [0.0; MAX_PLAYERS];
        if !self.is_over() {
            return out;
        }
        if self.is_solo() {
            out[0] = self.score(0) as f64 / SOLO_RETURN_SCALE;
            return out;
        }
        win_shares(self.winners_mask())
    }
}

/// Each seat's share of a victory: `1 / k` for each of the `k` winning seats
/// of the mask (a shared victory splits, R-END-3), 0 for the others.
///
/// ```
/// assert_eq!(_core::win_shares(0b101)[..3], [0.5, 0.0, 0.5]);
/// ```
pub fn win_shares(winners: u8) -> [f64; MAX_PLAYERS] {
    let k = winners.count_ones() as f64;
    std::array::from_fn(|p| if winners & (1 << p) != 0 { 1.0 / k } else { 0.0 })
}
