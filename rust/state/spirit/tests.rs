use super::*;
use crate::cards::Cards;
use crate::groups::SETS;
use crate::rng::SplitMix64;
use crate::setup::Setup;

/// R-SPIRIT-1 as written: pay, then ask whether the effect can apply,
/// by enumeration (what the fast masks of [`State::payments`] compute).
fn applies_after_paying(s: &State, card: u8, phase: Phase, pay: Option<u8>) -> bool {
    let p = &s.players[s.current as usize];
    let mut realm = p.realm;
    let mut pool = p.shrine_pool;
    match pay {
        Some(c) => {
            realm.discard_top(c as usize);
        }
        None => pool -= 1,
    }
    let room = count16(realm.placeable()) >= 2;
    let c = &s.castle;
    let settled = |r: &Realm| r.types_with_groups(&SETS) == 0;
    match card {
        BEAUTY => realm.beauty_groups() != 0,
        ELEGANCE if phase == Phase::Action => c.top_spaces().iter().any(|sp| s.elegance_only(sp)),
        ELEGANCE => room && {
            let mut any = false;
            c.tops_of(s.held[0], |sp| any |= s.elegance_only(sp));
            any
        },
        WIND => realm.face_up() != 0 || realm.movable_shrines() != 0,
        DECEPTION => room && s.deception_candidates().iter().any(|x| x.is_some()),
        STRENGTH => realm.strength_sources(None) != 0,
        CHANGE => (0..CELLS).any(|cell| (0..6).any(|t| s.change_group(&realm, pool, cell, t).is_some())),
        FAITH => {
            let placing = phase == Phase::Place || (phase == Phase::Shrine && s.turn_cards.resume == Resume::Place);
            let spare = !placing || count16(realm.placeable()) > u32::from(s.held_len - s.placed);
            pool >= 1 && (spare && s.set_cells() & !realm.shrines() & realm.face_down() != 0 || !settled(&realm))
        }
        DESTRUCTION => c.spaces().any(|sp| c.is_available(sp)),
        DEEP => {
            let ty = s.held[0].tile_type();
            room && c.spaces().any(|sp| c.top(sp).map(|t| t.tile_type()) == Some(ty) && s.pickable(sp))
        }
        CUNNING => realm.cunning_groups() != 0,
        _ => false,
    }
}

/// The fast payment masks equal the definition for every card, in the
/// decision points of random card games (sparing with activations so
/// that Realms fill up and sets form).
#[test]
fn payments_follow_the_definition() {
    let mut buf = ActionList::default();
    let mut checked = 0;
    for seed in 0..300u64 {
        let mut rng = SplitMix64::new(seed);
        let players = 1 + (seed % 4) as usize;
        let spirits = Cards::Draw(1 + (seed % 10) as usize);
        let mut s = Setup::new(players, seed).with_cards(spirits, Cards::None).state().unwrap();
        while !s.is_over() {
            let phase = s.phase();
            if matches!(phase, Phase::Action | Phase::Complete | Phase::Place | Phase::Spirits | Phase::Shrine | Phase::EndTurn)
                && !s.pick_pending()
            {
                for card in 0..10u8 {
                    if matches!(card, DECEPTION | DEEP) && phase != Phase::Complete
                        || card == ELEGANCE && !matches!(phase, Phase::Action | Phase::Complete)
                    {
                        continue;
                    }
                    let (cells, shrine) = s.payments(card, phase);
                    let p = &s.players[s.current as usize];
                    for c in 0..CELLS as u8 {
                        let want = p.realm.face_up() >> c & 1 != 0 && applies_after_paying(&s, card, phase, Some(c));
                        assert_eq!(cells >> c & 1 != 0, want, "card {card} pay {c} in {phase:?}, seed {seed}\n{}", p.realm.to_text());
                    }
                    let want = p.shrine_pool > 0 && applies_after_paying(&s, card, phase, None);
                    assert_eq!(shrine, want, "card {card} pay Shrine in {phase:?}, seed {seed}\n{}", p.realm.to_text());
                    checked += 1;
                }
            }
            s.legal_actions_into(&mut buf);
            let spirit = |a: &Action| matches!(a, Action::Spirit { .. }) && phase != Phase::Cunning;
            let others: Vec<Action> = buf.iter().copied().filter(|a| !spirit(a)).collect();
            let a = if others.is_empty() || rng.below(8) == 0 {
                buf[rng.below(buf.len() as u64) as usize]
            } else {
                others[rng.below(others.len() as u64) as usize]
            };
            s.apply_unchecked(a);
        }
    }
    assert!(checked > 10_000, "{checked}");
}

/// The bitboard answers equal the per-space definitions (R-AVAIL-1, R-AVAIL-3).
#[test]
fn castle_grids_follow_the_definitions() {
    let mut buf = ActionList::default();
    for seed in 0..40u64 {
        let mut rng = SplitMix64::new(seed);
        let mut s = Setup::new(2 + (seed % 3) as usize, seed).state().unwrap();
        while !s.is_over() {
            let c = &s.castle;
            for sp in c.spaces() {
                assert_eq!(c.available().contains(sp), c.is_available(sp), "space {sp}");
                let top = c.height(sp) == c.top_floor() && c.height(sp) > 0;
                assert_eq!(c.elegance_first_picks().contains(sp), top && s.elegance_only(sp), "space {sp}");
            }
            let a = crate::agents::random_action(&s, &mut rng, &mut buf).unwrap();
            s.apply_unchecked(a);
        }
    }
}

/// The second placement of two identical tiles after the first, seen by a
/// copy made [`State::never_activate`]: its legal actions are those of the
/// state itself without the Spirits' activations (R-PLACE-1: every free
/// cell when the first went down while a Spirit could come between), never
/// empty. Returns whether the first tile lies on the highest free cell.
fn check_second_placement(s: &State) -> bool {
    let mut twin = *s;
    twin.never_activate();
    let listed = s.legal_actions();
    let want: Vec<Action> = listed.iter().copied().filter(|a| !matches!(a, Action::Spirit { .. })).collect();
    assert_eq!(twin.legal_actions().to_vec(), want, "R-PLACE-1, R-PLACE-3: the second placement");
    assert!(!want.is_empty(), "no placement for the second tile");
    let mut buf = ActionList::default();
    twin.legal_actions_without_spirits_into(&mut buf);
    assert_eq!(buf.to_vec(), want);
    for &a in &want {
        assert!(twin.is_legal(a), "{a}");
    }
    let free = s.mover().realm.placeable();
    s.placed_cells > free
}

/// R-PLACE-1, R-PLACE-3, R-SPIRIT-2: while a Spirit usable in PLACE is
/// unused, the two orders of identical tiles are different moves, so the
/// first may go on the highest free cell and the second on any free cell.
/// A rollout that stops using Spirits between the two placements
/// ([`State::never_activate`]) must keep that: it once ordered the second
/// tile above the first, which panicked in debug builds when the first was
/// on cell 15 ("attempt to subtract with overflow") and listed no placement
/// in release builds.
#[test]
fn a_player_who_stops_using_spirits_between_identical_placements_keeps_every_free_cell() {
    let mut buf = ActionList::default();
    let (mut checked, mut above_all) = (0, 0);
    for seed in 0..400u64 {
        let mut rng = SplitMix64::new(seed ^ 0x91AC);
        let setup = Setup::new(2 + (seed % 3) as usize, seed).with_cards(Cards::Draw(3), Cards::Draw(3));
        let mut s = setup.state().unwrap();
        while !s.is_over() {
            let ordered = s.pair_is_one_move();
            if s.phase == Phase::Place && s.held_len == 2 && s.placed == 0 && s.held[0] == s.held[1] && !ordered {
                for a in s.legal_actions().iter().copied().filter(|a| matches!(a, Action::Place(_))) {
                    let mut first = s;
                    first.apply(a).unwrap();
                    assert!(first.between_placements());
                    above_all += usize::from(check_second_placement(&first));
                    checked += 1;
                    // The rollout plays on to the end.
                    first.never_activate();
                    let mut roll = SplitMix64::new(seed);
                    while let Some(b) = crate::agents::random_action(&first, &mut roll, &mut buf) {
                        first.apply(b).unwrap();
                    }
                }
            }
            s.legal_actions_into(&mut buf);
            let spirit = |a: &Action| matches!(a, Action::Spirit { .. }) && s.phase != Phase::Cunning;
            let others: Vec<Action> = buf.iter().copied().filter(|a| !spirit(a)).collect();
            let a = if others.is_empty() || rng.below(8) == 0 {
                buf[rng.below(buf.len() as u64) as usize]
            } else {
                others[rng.below(others.len() as u64) as usize]
            };
            s.apply(a).unwrap();
        }
    }
    assert!(checked > 200 && above_all > 20, "{checked} second placements, {above_all} above every free cell");
}

/// The same rule where the reviewer met it: 3 Spirits (Wind, Deception and
/// Change) and 3 Dragons, 18 random moves, then a 300-iteration search whose
/// rollouts stop using Spirits between two identical placements
/// (R-PLACE-1, R-PLACE-3). Debug builds panicked in `placement_cells`.
#[test]
fn searches_with_three_spirits_place_identical_tiles_in_either_order() {
    use crate::eval::RolloutEval;
    use crate::search::{search, Config};
    let mut buf = ActionList::default();
    for seed in [6u64, 11] {
        let mut s = Setup::new(3, 2).with_cards(Cards::Draw(3), Cards::Draw(3)).state().unwrap();
        let mut rng = SplitMix64::new(seed);
        for _ in 0..18 {
            let a = crate::agents::random_action(&s, &mut rng, &mut buf).unwrap();
            s.apply(a).unwrap();
        }
        let cfg = Config { iterations: Some(300), ..Default::default() };
        let best = search(&s, &cfg, &RolloutEval::default()).unwrap().best.unwrap();
        assert!(s.is_legal(best));
    }
}
