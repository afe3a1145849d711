//! Scores and the winner (R-END-2, R-END-3).

use super::{State, MAX_PLAYERS};

/// Solo utility scale: `returns()` is the final score / 100.
pub const SOLO_RETURN_SCALE: f64 = 100.0;

/// One player's score by source.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Breakdown {
    pub vp: u32,
    pub shrines: u32,
    pub countdown: u32,
    pub total: u32,
}

impl State {
    pub fn breakdown(&self, seat: usize) -> Breakdown {
        let p = &self.players[seat];
        let vp = p.vp as u32;
        let shrines = p.realm.shrine_points();
        let countdown = 2 * p.countdown as u32;
        Breakdown { vp, shrines, countdown, total: vp + shrines + countdown }
    }

    /// R-END-2, current or final.
    pub fn score(&self, seat: usize) -> u32 {
        self.breakdown(seat).total
    }

    /// The tie-break key of R-END-3: score, then face-down stacks, then Shrines built.
    pub fn rank_key(&self, seat: usize) -> (u32, u32, u32) {
        let r = &self.players[seat].realm;
        (self.score(seat), r.face_down_stacks(), r.shrine_count())
    }

    /// Winning seats after the tie breaks (shared victory lists several), as a bitmask.
    pub fn winners_mask(&self) -> u8 {
        let n = self.players();
        let best = (0..n).map(|s| self.rank_key(s)).max().unwrap_or_default();
        (0..n).filter(|&s| self.rank_key(s) == best).fold(0, |m, s| m | 1 << s)
    }

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
        let mask = self.winners_mask();
        let k = mask.count_ones() as f64;
        for (p, o) in out.iter_mut().enumerate().take(self.players()) {
            if mask & (1 << p) != 0 {
                *o = 1.0 / k;
            }
        }
        out
    }
}
