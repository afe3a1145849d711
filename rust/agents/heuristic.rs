//! One decision of look-ahead with a weighted position value: the greedy agent
//! ([`Weights::GREEDY`], `docs/agents.md`) and the search's rollout policy
//! ([`Weights::TUNED`], tuned on solo games, `docs/search.md`).

use crate::action::Action;
use crate::groups::GROUP_SIZES;
use crate::rng::SplitMix64;
use crate::state::{Phase, State};
use crate::tile::TileType;

/// Weights of the position value (score counts 1).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Weights {
    /// A face-up group of one type with 1, 2, 3 or more tiles.
    pub group: [f64; 3],
    /// Per Shrine in the pool, up to `pool_cap`.
    pub pool: f64,
    /// Shrines in the pool that count for `pool`, at most.
    pub pool_cap: u8,
    /// A tile in hand whose type the Realm already shows, or not.
    pub held_match: f64,
    /// The same for a tile in hand whose type the Realm does not show yet.
    pub held_new: f64,
    /// Per face-up tile, per floor it stands above the ground (up to 2): the
    /// Shrine it may carry once consolidated is worth its height.
    pub height: f64,
    /// Per Realm cell where a tile may still be placed.
    pub free: f64,
    /// Added to the value of Summoning (beyond its 2 points).
    pub summon: f64,
    /// Added to the value of Discarding (beyond its 1 point).
    pub discard: f64,
}

impl Weights {
    /// The greedy agent's evaluation.
    pub const GREEDY: Weights =
        Weights { group: [0.2, 0.7, 1.5], pool: 0.8, pool_cap: 2, held_match: 1.0, held_new: 0.6, height: 0.0, free: 0.0, summon: 0.0, discard: 0.0 };
    /// Tuned for rollouts in two rounds of coordinate search
    /// (`cargo bench --bench tune_rollout`, `docs/search.md`): first on the
    /// policy's own solo games, then on the solo games of MCTS using it.
    pub const TUNED: Weights =
        Weights { group: [-0.3, 1.2, 1.5], pool: 1.8, pool_cap: 1, held_match: 2.0, held_new: 0.1, height: 0.0, free: 0.0, summon: 0.0, discard: 0.0 };
}

/// Weights as text, in the order of their fields: `g1,g2,g3,pool,cap,match,new,height,free,summon,discard`
/// (the tuning benches read and write them so).
///
/// ```
/// use _core::agents::heuristic::Weights;
/// let w: Weights = Weights::TUNED.to_string().parse().unwrap();
/// assert_eq!(w, Weights::TUNED);
/// assert!("1,2".parse::<Weights>().is_err());
/// ```
impl std::fmt::Display for Weights {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let w = self;
        write!(
            f,
            "{},{},{},{},{},{},{},{},{},{},{}",
            w.group[0], w.group[1], w.group[2], w.pool, w.pool_cap, w.held_match, w.held_new, w.height, w.free, w.summon, w.discard
        )
    }
}

impl std::str::FromStr for Weights {
    type Err = String;
    fn from_str(text: &str) -> Result<Weights, String> {
        let v: Vec<f64> = text.split(',').map(|x| x.trim().parse::<f64>().map_err(|_| format!("not a number: {x:?}"))).collect::<Result<_, _>>()?;
        let [g1, g2, g3, pool, cap, held_match, held_new, height, free, summon, discard] = v[..] else {
            return Err(format!("11 weights: g1,g2,g3,pool,cap,match,new,height,free,summon,discard; got {}", v.len()));
        };
        if !(0.0..=255.0).contains(&cap) || cap.fract() != 0.0 {
            return Err(format!("the Shrine cap is a whole number from 0 to 255; got {cap}"));
        }
        Ok(Weights { group: [g1, g2, g3], pool, pool_cap: cap as u8, held_match, held_new, height, free, summon, discard })
    }
}

/// The value of the position for `seat` under `w`.
pub fn value(s: &State, seat: usize, w: &Weights) -> f64 {
    let mut v = base_value(s, seat, w);
    if s.current_player() == seat {
        for t in s.held() {
            v += held(s, seat, t.tile_type(), w);
        }
    }
    v
}

fn base_value(s: &State, seat: usize, w: &Weights) -> f64 {
    let p = s.player(seat);
    let r = &p.realm;
    let mut v = s.score(seat) as f64;
    for t in TileType::ALL {
        for size in GROUP_SIZES.of(r.of_type(t)) {
            v += w.group[size as usize - 1];
        }
    }
    v += w.pool * f64::from(p.shrine_pool.min(w.pool_cap));
    if w.height != 0.0 {
        let mut up = r.face_up();
        let mut floors = 0u32;
        while up != 0 {
            let c = up.trailing_zeros() as usize;
            floors += u32::from(r.height(c).saturating_sub(1).min(2));
            up &= up - 1;
        }
        v += w.height * floors as f64;
    }
    if w.free != 0.0 {
        v += w.free * r.placeable().count_ones() as f64;
    }
    v
}

#[inline]
fn held(s: &State, seat: usize, t: TileType, w: &Weights) -> f64 {
    if s.player(seat).realm.of_type(t) != 0 {
        w.held_match
    } else {
        w.held_new
    }
}

/// The value of playing `a` (legal) for the seat to move, as [`choose`] sees it.
pub fn move_value(s: &State, a: Action, w: &Weights) -> f64 {
    let mut next = *s;
    next.apply_unchecked(a);
    if next.phase() == Phase::Spirits && s.phase() != Phase::Spirits {
        // The placements are over and a Spirit may be used before
        // Consolidation: value the move with the Consolidation that `done`
        // would bring, as in a game without Spirits.
        next.apply_unchecked(Action::Done);
    }
    let seat = s.current_player();
    value(&next, seat, w)
        + match a {
            Action::Summon => w.summon,
            Action::Discard => w.discard,
            _ => 0.0,
        }
}

/// Phases inside a Spirit's effect: their choices pay off only when the effect
/// is complete.
fn in_effect(s: &State) -> bool {
    !matches!(
        s.phase(),
        Phase::Action | Phase::Complete | Phase::Place | Phase::Shrine | Phase::Spirits | Phase::EndTurn | Phase::GameOver
    )
}

/// What an activation costs beyond what the position value sees: a paid tile
/// or Shrine was worth more than the value's weights say (a tile is a future
/// set, a Shrine future points). Measured on greedy solo games (`docs/agents.md`).
pub(crate) const SPIRIT_PRICE: f64 = 1.0;

/// A decision point where a Spirit's effect is over and play is back to the
/// turn's regular choices.
fn settled(s: &State) -> bool {
    let tc = s.turn_cards();
    let pending = tc.must_elegance || tc.second != crate::state::spirit::Second::Identical;
    match s.phase() {
        Phase::Action | Phase::Complete | Phase::Spirits => !pending,
        Phase::Place | Phase::Shrine | Phase::EndTurn | Phase::GameOver => true,
        _ => false,
    }
}

/// The value of a Spirit's activation or follow-up `a`: the effect is played
/// out greedily (without further Spirits) until play is back to a regular
/// choice. Back in the phase it started from, that choice is valued one
/// decision ahead, like the alternatives to the Spirit; so the price paid is
/// weighed against what the effect gained.
fn effect_value(s: &State, a: Action, w: &Weights) -> f64 {
    let seat = s.current_player();
    let turn = s.turn();
    let mut next = *s;
    next.apply_unchecked(a);
    let mut rng = SplitMix64::new(0);
    for _ in 0..8 {
        if next.turn() != turn || settled(&next) {
            break;
        }
        let Some(b) = pick(&next, &mut rng, w, false) else { break };
        next.apply_unchecked(b);
    }
    let price = if matches!(a, Action::Spirit { .. }) { SPIRIT_PRICE } else { 0.0 };
    // Back where it started, or at the Shrine step the effect opened (Faith's
    // extra Shrine is worth its building).
    let back = next.turn() == turn && (next.phase() == s.phase() || next.phase() == Phase::Shrine) && matches!(
            next.phase(),
            Phase::Action | Phase::Complete | Phase::Place | Phase::Spirits | Phase::Shrine | Phase::EndTurn
        );
    let v = if back {
        // The best regular choice from here, valued as the alternatives are.
        let mut rng = SplitMix64::new(0);
        match pick(&next, &mut rng, w, false) {
            Some(b) => one_step(&next, b, w),
            None => value(&next, seat, w),
        }
    } else {
        value(&next, seat, w)
    };
    v - price
}

/// The value of `a` one decision ahead, as [`pick`] rates a regular choice.
fn one_step(s: &State, a: Action, w: &Weights) -> f64 {
    let seat = s.current_player();
    match a {
        Action::Take(space) if matches!(s.phase(), Phase::Action | Phase::Complete) => {
            let Some(t) = s.castle().top(space as usize) else { return value(s, seat, w) };
            value(s, seat, w) + held(s, seat, t.tile_type(), w)
        }
        _ => move_value(s, a, w),
    }
}

/// The legal action with the best [`value`] one decision ahead; ties go to the
/// `rng`. A Spirit is weighed by playing its effect out greedily (`effect_value`).
pub fn choose(s: &State, rng: &mut SplitMix64, w: &Weights) -> Option<Action> {
    pick(s, rng, w, true)
}

/// The rollout policy's choice: as [`choose`] but it never activates a Spirit
/// (weighing an activation plays its effect out, too slow for rollouts); a
/// Spirit's follow-ups reached from the tree are valued one decision ahead.
pub fn choose_without_spirits(s: &State, rng: &mut SplitMix64, w: &Weights) -> Option<Action> {
    pick(s, rng, w, false)
}

fn pick(s: &State, rng: &mut SplitMix64, w: &Weights, spirits: bool) -> Option<Action> {
    let mut list = crate::action::ActionList::default();
    if spirits {
        s.legal_actions_into(&mut list);
    } else {
        s.legal_actions_without_spirits_into(&mut list);
    }
    let valuer = Valuer::new(s, w, spirits);
    let mut best = f64::NEG_INFINITY;
    let mut chosen = None;
    let mut ties = 0usize;
    for &a in list.iter() {
        let Some(v) = valuer.of(a) else { continue };
        if v > best + 1e-9 {
            best = v;
            chosen = Some(a);
            ties = 1;
        } else if (v - best).abs() <= 1e-9 {
            ties += 1;
            // Reservoir sampling keeps a uniform choice among equal values.
            if rng.below(ties as u64) == 0 {
                chosen = Some(a);
            }
        }
    }
    chosen
}

/// The values the rollout policy ([`choose_without_spirits`]) compares, one
/// per move of `moves` (legal in `s`), into `out`: a planner's bias. An
/// optional Spirit activation, which that policy never plays, is valued one
/// decision ahead like a placement: its payment made, its effect still to
/// come, no price taken (the planner sets its own).
///
/// ```
/// use _core::agents::heuristic::{move_values, Weights};
/// let s = _core::Setup::new(1, 7).state().unwrap();
/// let moves = s.legal_actions();
/// let mut values = vec![None; moves.len()];
/// move_values(&s, &moves, &Weights::TUNED, &mut values);
/// assert!(values.iter().all(|v| v.is_some()));
/// ```
pub fn move_values(s: &State, moves: &[Action], w: &Weights, out: &mut [Option<f64>]) {
    let valuer = Valuer::new(s, w, false);
    for (o, &a) in out.iter_mut().zip(moves) {
        *o = match a {
            // Played out (`effect_value`) it would cost a greedy game per payment.
            Action::Spirit { .. } => Some(move_value(s, a, w)),
            _ => valuer.of(a),
        };
    }
}

/// How [`pick`] values each legal move of one position.
struct Valuer<'a> {
    s: &'a State,
    w: &'a Weights,
    spirits: bool,
    /// Inside a Spirit's effect, every choice is played out ([`effect_value`]).
    effect: bool,
    seat: usize,
    /// A castle pick changes nothing the value reads but the tiles in hand, so
    /// picks are valued without playing them, from `base`.
    picking: bool,
    base: f64,
}

impl<'a> Valuer<'a> {
    fn new(s: &'a State, w: &'a Weights, spirits: bool) -> Self {
        let seat = s.current_player();
        let picking = matches!(s.phase(), Phase::Action | Phase::Complete);
        let mut base = if picking { base_value(s, seat, w) } else { 0.0 };
        if picking {
            for h in s.held() {
                base += held(s, seat, h.tile_type(), w);
            }
        }
        Valuer { s, w, spirits, effect: spirits && in_effect(s), seat, picking, base }
    }

    #[inline]
    fn of(&self, a: Action) -> Option<f64> {
        let (s, w) = (self.s, self.w);
        Some(match a {
            Action::Take(space) if self.picking => {
                let t = s.castle().top(space as usize)?;
                self.base + held(s, self.seat, t.tile_type(), w)
            }
            // The inner look-ahead activates no further Spirit (but pays for
            // the Cunning that Change asked for).
            Action::Spirit { .. } if !self.spirits && s.phase() != Phase::Cunning => return None,
            Action::Spirit { .. } if !self.spirits => move_value(s, a, w),
            Action::Spirit { .. } => effect_value(s, a, w),
            _ if self.effect => effect_value(s, a, w),
            _ => move_value(s, a, w),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::realm::flood;

    /// The group terms as they were summed before the table: a flood fill
    /// per group, lowest cell first, type by type.
    fn flood_value(s: &State, seat: usize, w: &Weights) -> f64 {
        let r = &s.player(seat).realm;
        let mut v = s.score(seat) as f64;
        for t in TileType::ALL {
            let mut left = r.of_type(t);
            while left != 0 {
                let g = flood(left & left.wrapping_neg(), left);
                left &= !g;
                v += w.group[(g.count_ones() as usize).clamp(1, 3) - 1];
            }
        }
        v + w.pool * f64::from(s.player(seat).shrine_pool.min(w.pool_cap))
    }

    /// `GROUP_SIZES` changes no value, not even in the last bit, so seeded
    /// games of every agent that uses the value stay the same.
    #[test]
    fn the_group_table_gives_the_flood_fills_values_to_the_bit() {
        let mut realms = 0;
        for seed in 0..12 {
            let players = 1 + (seed as usize % 4);
            let mut s = crate::Setup::new(players, seed).state().unwrap();
            let mut rng = SplitMix64::new(seed);
            while !s.is_over() {
                for w in [Weights::TUNED, Weights::GREEDY] {
                    for seat in 0..players {
                        assert_eq!(base_value(&s, seat, &w).to_bits(), flood_value(&s, seat, &w).to_bits(), "seed {seed}");
                        realms += 1;
                    }
                }
                let moves = s.legal_actions();
                s.apply_unchecked(moves[rng.pick(moves.len())]);
            }
        }
        assert!(realms > 5_000);
    }
}
