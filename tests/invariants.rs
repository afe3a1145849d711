//! Invariants over many random games: `check_invariants()` after every step, undo
//! restores the identical state, JSON round-trips, legal lists are sorted and
//! agree with `is_legal`, and every game ends.

use _core::{Action, ActionList, NUM_ACTIONS};
use _core::agents::random_action;
use _core::rng::SplitMix64;
use _core::cards::Cards;
use _core::{Game, Phase, Rules, Setup, State};

/// The random policy's choice, checked against its definition: `buf` gets
/// the legal list, and the closed-form pick of `random_action` must be
/// `legal[below(len)]` with the same draws.
fn random_pick(s: &State, rng: &mut SplitMix64, buf: &mut ActionList) -> Option<Action> {
    s.legal_actions_into(buf);
    let mut twin = *rng;
    let expected = if buf.is_empty() { None } else { Some(buf[twin.below(buf.len() as u64) as usize]) };
    let a = random_action(s, rng, &mut ActionList::default());
    assert_eq!(a, expected, "closed-form random pick in {:?}", s.phase());
    assert_eq!(*rng, twin, "the same draws");
    a
}

fn games() -> u64 {
    // Debug builds are slow; CI plays 2,000 games per player count, `DC_GAMES` asks for more.
    std::env::var("DC_GAMES").ok().and_then(|v| v.parse().ok()).unwrap_or(2000)
}

#[test]
fn random_games_keep_every_invariant() {
    let mut buf = ActionList::default();
    for players in 1..=4 {
        for seed in 0..games() {
            let mut g = Game::new(players, seed, None, Rules::default(), None).unwrap();
            let mut rng = SplitMix64::new(seed ^ 0xABCD);
            let mut steps = 0;
            while let Some(a) = random_pick(g.state(), &mut rng, &mut buf) {
                let legal: Vec<Action> = buf.to_vec();
                assert!(legal.len() <= 117, "docs/actions.md proves at most 117 legal actions");
                assert!(legal.windows(2).all(|w| w[0].id() < w[1].id()), "legal list not sorted");
                // A sample of the action space: listed <=> accepted.
                let probe = rng.below(NUM_ACTIONS as u64) as i64;
                if let Ok(p) = Action::from_id(probe) {
                    let mut copy = g.clone();
                    assert_eq!(copy.apply(p).is_ok(), legal.contains(&p), "{p} in {:?}", g.state().phase());
                }
                if steps % 29 == 0 {
                    // Every id: the direct legality test agrees with the list.
                    for id in 0..NUM_ACTIONS as i64 {
                        if let Ok(p) = Action::from_id(id) {
                            assert_eq!(g.state().is_legal(p), legal.contains(&p), "{p} in {:?}", g.state().phase());
                        }
                    }
                }
                let before = *g.state();
                g.apply(a).unwrap();
                if players == 1 && !g.state().is_over() {
                    assert_eq!(g.state().current_player(), 0, "solo: the player is always to move");
                }
                if let Err(e) = g.state().check_invariants() {
                    panic!("players {players} seed {seed} step {steps} after {a}: {e}");
                }
                if steps % 17 == 0 {
                    let mut back = g.clone();
                    back.undo().unwrap();
                    assert_eq!(*back.state(), before);
                }
                steps += 1;
                assert!(steps < 2000, "game did not end");
            }
            assert_eq!(g.state().phase(), Phase::GameOver);
            assert!(
                g.memory_bytes() <= 4096 + 64 * g.history_len(),
                "{} bytes for {} decisions",
                g.memory_bytes(),
                g.history_len()
            );
            if seed % 25 == 0 {
                let j = g.to_json();
                let back = Game::from_json(&j).unwrap();
                assert_eq!(back, g);
                assert_eq!(back.to_json(), j);
            }
        }
    }
}

#[test]
fn a_rejected_action_changes_nothing() {
    let mut g = Game::new(2, 3, None, Rules::default(), None).unwrap();
    let before = g.clone();
    for id in 0..NUM_ACTIONS as i64 {
        if let Ok(a) = Action::from_id(id) {
            let mut copy = g.clone();
            if copy.apply(a).is_err() {
                assert_eq!(copy, before);
                assert_eq!(copy.history_len(), 0);
            }
        }
    }
    assert!(g.apply(Action::Summon).is_err());
}

/// Undo walks the whole history back through shared segments, state by
/// state, and copies taken on the way are unaffected by each other.
#[test]
fn undo_replays_every_state_exactly() {
    let mut buf = ActionList::default();
    for players in 1..=4 {
        for seed in 0..games() / 50 {
            // Every other game with two Spirits and two Dragons drawn.
            let cards = if seed % 2 == 1 { Cards::Draw(2) } else { Cards::None };
            let setup = Setup::new(players, seed).with_cards(cards.clone(), cards);
            let mut g = Game::from_setup(&setup).unwrap();
            let mut rng = SplitMix64::new(seed);
            let (mut states, mut copies) = (vec![*g.state()], Vec::new());
            while let Some(a) = random_action(g.state(), &mut rng, &mut buf) {
                g.apply(a).unwrap();
                states.push(*g.state());
                if states.len() % 23 == 0 {
                    copies.push((states.len(), g.clone(), g.to_json()));
                }
            }
            let record: Vec<_> = g.actions_with_author().collect();
            let mut k = states.len() - 1;
            while g.undo().is_some() {
                k -= 1;
                assert_eq!(*g.state(), states[k], "players {players} seed {seed}: undo to state {k}");
            }
            assert_eq!(k, 0);
            assert_eq!(g, Game::from_setup(&setup).unwrap());
            // The copies still hold their own history, and its actions.
            for (len, mut c, json) in copies {
                assert_eq!(*c.state(), states[len - 1]);
                assert_eq!(c.to_json(), json);
                assert!(c.actions_with_author().eq(record[..c.history_len()].iter().copied()));
                let mut fresh = c.clone_without_history();
                assert!(fresh.undo().is_none(), "no undo past a history-less copy");
                c.undo().unwrap();
                assert_eq!(*c.state(), states[len - 2]);
                if let Some(a) = random_action(fresh.state(), &mut rng, &mut buf) {
                    fresh.apply(a).unwrap();
                    fresh.undo().unwrap();
                    assert_eq!(*fresh.state(), states[len - 1]);
                }
            }
        }
    }
}

#[test]
fn determinize_keeps_what_anyone_has_seen() {
    let mut g = Game::new(3, 11, None, Rules::default(), None).unwrap();
    let mut rng = SplitMix64::new(5);
    let mut buf = ActionList::default();
    for _ in 0..60 {
        let a = random_action(g.state(), &mut rng, &mut buf).unwrap();
        g.apply(a).unwrap();
    }
    let d = g.determinize(99);
    assert_eq!(d.state().observation(0), g.state().observation(0));
    assert_eq!(d.state().hidden_counts(), g.state().hidden_counts());
    d.state().check_invariants().unwrap();
    // Undo in the copy never restores the true covered tiles.
    let mut u = d.clone();
    while u.undo().is_some() {}
    assert_eq!(u.state().castle().hidden_count(), 116 - u.state().castle().spaces().filter(|&s| u.state().castle().height(s) > 0).count());
    assert_eq!(Game::from_json(&d.to_json()).unwrap(), d);
}

/// A random player that activates Spirits sparingly: a fully random one pays
/// for a Spirit at almost every decision point (R-SPIRIT-2) and its Realm
/// never holds a set or a Shrine for long, so some effects would never be
/// seen. It still checks the closed-form pick of [`random_pick`].
fn sparing_pick(s: &State, rng: &mut SplitMix64, buf: &mut ActionList, one_in: u64) -> Option<Action> {
    let any = random_pick(s, rng, buf)?;
    let spirit = |a: &Action| matches!(a, Action::Spirit { .. }) && s.phase() != Phase::Cunning;
    let (activations, others): (Vec<Action>, Vec<Action>) = buf.iter().copied().partition(spirit);
    Some(if activations.is_empty() || others.is_empty() {
        any
    } else if rng.below(one_in) == 0 {
        activations[rng.below(activations.len() as u64) as usize]
    } else {
        others[rng.below(others.len() as u64) as usize]
    })
}

/// Where each Spirit can apply (docs/cards.md, R-SPIRIT-2): the decision
/// points in which random games must activate it.
fn decision_points(card: u8) -> &'static [Phase] {
    const ALL: &[Phase] = &[Phase::Action, Phase::Complete, Phase::Place, Phase::Spirits, Phase::Shrine, Phase::EndTurn];
    match card {
        1 => &[Phase::Action, Phase::Complete], // Elegance: a pick to come
        3 | 8 => &[Phase::Complete],            // Deception, Deep: the second pick
        // Faith needs a set of this turn: before the Action only after
        // another Spirit's set, too rare to ask of random games.
        6 => &[Phase::Place, Phase::Spirits, Phase::Shrine, Phase::EndTurn],
        // Beauty, Change and Cunning during or after a Shrine step need a
        // second group beside the set just made, too rare in random games:
        // `tests/test_spirits_any_time.py` builds such positions.
        0 | 5 | 9 => &[Phase::Action, Phase::Complete, Phase::Place, Phase::Spirits],
        _ => ALL,
    }
}

/// Random games with random card sets (1–3 Spirits, 1–3 Dragons, 1–4 players):
/// every invariant holds, the legal lists stay within the proven bound
/// (`docs/actions.md`), every game ends, every Spirit is activated and every
/// follow-up kind is played.
#[test]
fn random_card_games_keep_every_invariant() {
    use _core::ActionKind;
    let mut buf = ActionList::default();
    let mut activated = 0u16;
    let mut kinds = std::collections::HashSet::new();
    let mut longest = 0;
    for seed in 0..games() / 2 {
        let mut pick = SplitMix64::new(seed ^ 0x5EED);
        let players = 1 + pick.below(4) as usize;
        // Half the games activate whenever the random draw says so, the
        // others sparingly.
        let sparing = seed % 2 == 0;
        let spirits = Cards::Draw(1 + pick.below(3) as usize);
        let dragons = Cards::Draw(1 + pick.below(3) as usize);
        let mut g = Game::from_setup(&Setup::new(players, seed).with_cards(spirits, dragons)).unwrap();
        let mut rng = SplitMix64::new(seed ^ 0xC4D5);
        let mut steps = 0;
        loop {
            let a = if sparing { sparing_pick(g.state(), &mut rng, &mut buf, 6) } else { random_pick(g.state(), &mut rng, &mut buf) };
            let Some(a) = a else { break };
            longest = longest.max(buf.len());
            assert!(buf.len() <= _core::LEGAL_BOUND, "{} legal actions in {:?}", buf.len(), g.state().phase());
            assert!(buf.windows(2).all(|w| w[0].id() < w[1].id()), "legal list not sorted in {:?}", g.state().phase());
            let probe = rng.below(NUM_ACTIONS as u64) as i64;
            if let Ok(p) = Action::from_id(probe) {
                let mut copy = g.clone();
                assert_eq!(copy.apply(p).is_ok(), buf.contains(p), "{p} in {:?}", g.state().phase());
            }
            if let Action::Spirit { card, .. } = a {
                activated |= 1 << card;
            }
            kinds.insert(a.kind());
            let before = *g.state();
            g.apply(a).unwrap();
            if let Err(e) = g.state().check_invariants() {
                panic!("players {players} seed {seed} step {steps} after {a}: {e}\n{}", g.to_json());
            }
            if steps % 13 == 0 {
                let mut back = g.clone();
                back.undo().unwrap();
                assert_eq!(*back.state(), before);
            }
            steps += 1;
            assert!(steps < 4000, "game did not end");
        }
        assert_eq!(g.state().phase(), Phase::GameOver);
        if seed % 10 == 0 {
            let j = g.to_json();
            let back = Game::from_json(&j).unwrap();
            assert_eq!(back, g);
            assert_eq!(back.to_json(), j);
        }
    }
    assert_eq!(activated, (1 << 10) - 1, "every Spirit activated at least once");
    for k in [ActionKind::Destroy, ActionKind::Flip, ActionKind::ShrineFrom, ActionKind::ShrineTo, ActionKind::MoveFrom, ActionKind::MoveTo, ActionKind::Set, ActionKind::Change] {
        assert!(kinds.contains(&k), "{k:?} never played");
    }
    eprintln!("longest legal list: {longest}");
}

/// R-SPIRIT-2: each Spirit alone in play, random games (sparing with
/// activations, more or less from game to game) activate it in every kind
/// of decision point where its effect can apply: before the Action, between
/// the picks, before and between the placements, before Consolidation,
/// during the Shrine step and after it.
#[test]
fn every_spirit_is_activated_at_every_decision_point() {
    let mut buf = ActionList::default();
    for card in 0..10u8 {
        let mut seen = std::collections::HashSet::new();
        let mut between = false;
        for seed in 0..games() / 8 {
            let players = 1 + (seed % 4) as usize;
            let mut s = Setup::new(players, seed).with_cards(Cards::Named(vec![card]), Cards::None).state().unwrap();
            let mut rng = SplitMix64::new(seed ^ 0xB0B);
            while let Some(a) = sparing_pick(&s, &mut rng, &mut buf, 2 + seed % 16) {
                if let Action::Spirit { card: c, .. } = a {
                    if s.phase() != Phase::Cunning {
                        assert_eq!(c, card);
                        seen.insert(s.phase());
                        between |= s.phase() == Phase::Place && s.held().len() == 1 && s.turn_cards().used & (1 << c) == 0 && {
                            let mut t = s;
                            t.apply_unchecked(a);
                            t.turn_cards().apart
                        };
                    }
                }
                s.apply_unchecked(a);
            }
        }
        for phase in decision_points(card) {
            assert!(seen.contains(phase), "Spirit {card} never activated in {phase:?}; seen {seen:?}");
        }
        // Beauty, Change and Cunning between two placements need a group beside
        // the first: `tests/test_spirits_any_time.py` builds one for Strength's set.
        if decision_points(card).contains(&Phase::Place) && !matches!(card, 0 | 5 | 9) {
            assert!(between, "Spirit {card} never activated between two placements");
        }
    }
}

/// Actions built in Rust with payloads no id names are refused with a reason,
/// not a panic (a review finding).
#[test]
fn out_of_range_payloads_are_refused() {
    let mut g = Game::new(2, 1, None, Rules::default(), None).unwrap();
    let before = *g.state();
    for a in [Action::Take(200), Action::Take(144), Action::Place(16), Action::Shrine(40), Action::Spirit { card: 20, pay: Some(0) }] {
        assert!(g.apply(a).is_err(), "{a:?}");
        assert_eq!(*g.state(), before);
    }
}
