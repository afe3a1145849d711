//! Built-in policies that run inside Rust (playouts, the demo, benchmarks).

use crate::action::{Action, ActionList};
use crate::realm::flood;
use crate::rng::SplitMix64;
use crate::state::State;
use crate::tile::TileType;

/// A uniformly random legal action; `None` when the game is over.
#[inline]
pub fn random_action(s: &State, rng: &mut SplitMix64, buf: &mut ActionList) -> Option<Action> {
    s.legal_actions_into(buf);
    if buf.is_empty() {
        None
    } else {
        Some(buf[rng.below(buf.len() as u64) as usize])
    }
}

/// Play random legal actions to the end of the game.
pub fn random_playout(s: &mut State, rng: &mut SplitMix64) -> u32 {
    let mut buf = ActionList::default();
    let mut steps = 0;
    while let Some(a) = random_action(s, rng, &mut buf) {
        s.apply_unchecked(a);
        steps += 1;
    }
    steps
}

/// The greedy heuristic's value of a position for `seat` (`docs/agents.md`):
/// score, plus progress towards sets, plus Shrines in the pool, plus tiles in hand.
pub fn greedy_value(s: &State, seat: usize) -> f64 {
    let p = s.player(seat);
    let mut v = s.score(seat) as f64;
    for t in TileType::ALL {
        let mut left = p.realm.of_type(t);
        while left != 0 {
            let g = flood(left & left.wrapping_neg(), left);
            left &= !g;
            v += match g.count_ones() {
                1 => 0.2,
                2 => 0.7,
                _ => 1.5,
            };
        }
    }
    v += 0.8 * f64::from(p.shrine_pool.min(2));
    if s.current_player() == seat {
        for t in s.held() {
            v += if p.realm.of_type(t.tile_type()) != 0 { 1.0 } else { 0.6 };
        }
    }
    v
}

/// The legal action with the best [`greedy_value`] one decision ahead; ties go to
/// the `rng`.
pub fn greedy_action(s: &State, rng: &mut SplitMix64) -> Option<Action> {
    let list = s.legal_actions();
    let seat = s.current_player();
    let mut best = f64::NEG_INFINITY;
    let mut chosen = None;
    let mut ties = 0u64;
    for &a in list.iter() {
        let mut next = *s;
        next.apply_unchecked(a);
        let v = greedy_value(&next, seat);
        if v > best + 1e-9 {
            best = v;
            chosen = Some(a);
            ties = 1;
        } else if (v - best).abs() <= 1e-9 {
            // Reservoir sampling keeps a uniform choice among equal values.
            ties += 1;
            if rng.below(ties) == 0 {
                chosen = Some(a);
            }
        }
    }
    chosen
}
