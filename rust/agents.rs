//! Built-in policies that run inside Rust (playouts, the demo, benchmarks).

use crate::action::{Action, ActionList};
use crate::realm::flood;
use crate::rng::SplitMix64;
use crate::state::{Phase, State};
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
    let mut v = value_without_held(s, seat);
    if s.current_player() == seat {
        for t in s.held() {
            v += held_bonus(s, seat, t.tile_type());
        }
    }
    v
}

fn value_without_held(s: &State, seat: usize) -> f64 {
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
    v + 0.8 * f64::from(p.shrine_pool.min(2))
}

#[inline]
fn held_bonus(s: &State, seat: usize, t: TileType) -> f64 {
    if s.player(seat).realm.of_type(t) != 0 {
        1.0
    } else {
        0.6
    }
}

/// The legal action with the best [`greedy_value`] one decision ahead; ties go to
/// the `rng`.
pub fn greedy_action(s: &State, rng: &mut SplitMix64) -> Option<Action> {
    let list = s.legal_actions();
    let seat = s.current_player();
    // A castle pick changes nothing the value reads but the tiles in hand, so
    // picks are valued without playing them (the same sums in the same order as
    // `greedy_value`, hence the same choices): the rollouts of the search spend
    // most of their time here.
    let picking = matches!(s.phase(), Phase::Action | Phase::Complete);
    let base = if picking { value_without_held(s, seat) } else { 0.0 };
    let mut best = f64::NEG_INFINITY;
    let mut chosen = None;
    let mut ties = 0u64;
    for &a in list.iter() {
        let v = match a {
            Action::Take(space) if picking => {
                let Some(t) = s.castle().top(space as usize) else { continue };
                let mut v = base;
                for h in s.held() {
                    v += held_bonus(s, seat, h.tile_type());
                }
                v + held_bonus(s, seat, t.tile_type())
            }
            _ => {
                let mut next = *s;
                next.apply_unchecked(a);
                greedy_value(&next, seat)
            }
        };
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::layout::Layout;
    use crate::state::{seeded_deal, Rules};

    /// The plain definition: play every action and value the result.
    fn greedy_by_playing(s: &State, rng: &mut SplitMix64) -> Option<Action> {
        let seat = s.current_player();
        let (mut best, mut chosen, mut ties) = (f64::NEG_INFINITY, None, 0u64);
        for &a in s.legal_actions().iter() {
            let mut next = *s;
            next.apply_unchecked(a);
            let v = greedy_value(&next, seat);
            if v > best + 1e-9 {
                (best, chosen, ties) = (v, Some(a), 1);
            } else if (v - best).abs() <= 1e-9 {
                ties += 1;
                if rng.below(ties) == 0 {
                    chosen = Some(a);
                }
            }
        }
        chosen
    }

    #[test]
    fn fast_greedy_chooses_exactly_as_the_definition() {
        for players in 1..=4 {
            for seed in 0..6 {
                let mut s = State::new(players, &Layout::for_players(players), &seeded_deal(seed), Rules::default()).unwrap();
                let mut walk = SplitMix64::new(seed + 100);
                let mut buf = ActionList::default();
                let mut k = 0u64;
                while !s.is_over() {
                    let (mut a, mut b) = (SplitMix64::new(k), SplitMix64::new(k));
                    assert_eq!(greedy_action(&s, &mut a), greedy_by_playing(&s, &mut b));
                    assert_eq!(a, b, "the same random draws");
                    let m = random_action(&s, &mut walk, &mut buf).unwrap();
                    s.apply_unchecked(m);
                    k += 1;
                }
            }
        }
    }
}
