use super::*;

#[test]
fn kinds_are_listed_in_index_order() {
    for (i, k) in ActionKind::ALL.iter().enumerate() {
        assert_eq!(*k as usize, i, "{}", k.name());
    }
}

#[test]
fn ids_round_trip() {
    for id in 0..NUM_ACTIONS as i64 {
        match Action::from_id(id) {
            Ok(a) => {
                assert_eq!(a.id() as i64, id);
                assert_eq!(Action::parse(&a.to_string()).unwrap(), a, "{a}");
            }
            Err(_) => assert!(id >= RESERVED0 as i64),
        }
    }
    assert!(Action::from_id(-1).is_err());
    assert!(Action::from_id(NUM_ACTIONS as i64).is_err());
}

#[test]
#[should_panic(expected = "legal-action list overflow")]
fn an_overflow_fails_loudly() {
    let mut list = ActionList::default();
    for _ in 0..=MAX_LEGAL {
        list.push(Action::Done);
    }
}

#[test]
fn parse_rejects_garbage() {
    for t in ["", "take", "take 12,0", "take 0,12", "place 4,0", "take a,b", "summon now", "fly", "spirit", "spirit x 1,1", "change 1,1", "change 1,1 elf", "destroy 12,0", "flip 4,4"] {
        assert!(Action::parse(t).is_err(), "{t:?}");
    }
    assert_eq!(Action::parse(" TAKE 2 , 5 ").unwrap(), Action::Take(29));
}
