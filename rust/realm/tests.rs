use super::*;

#[test]
fn parse_refuses_a_stack_taller_than_the_game() {
    let row = ". . . .";
    let text = |cell: &str| format!("{cell} . . .\n{row}\n{row}\n{row}");
    assert!(Realm::parse(&text("116#")).is_ok());
    let err = Realm::parse(&text("117#")).unwrap_err();
    assert!(err.contains("the game has 116"), "{err}");
    assert!(Realm::parse(&text("200Me1")).is_err());
}

#[test]
fn vp_table() {
    // R-CONS-2
    let expect = [(4, 2), (5, 3), (6, 5), (7, 6), (8, 8), (9, 9), (12, 12), (16, 16)];
    for (n, vp) in expect {
        assert_eq!(set_vp(n), vp, "set of {n}");
    }
}

#[test]
fn neighbours_do_not_wrap() {
    // Cell (0,3) = bit 3 and cell (1,0) = bit 4 are not adjacent (R-ADJ-1).
    assert_eq!(neighbours(1 << 3) & (1 << 4), 0);
    assert_eq!(neighbours(1 << 4) & (1 << 3), 0);
    assert_eq!(neighbours(1 << 5), (1 << 1) | (1 << 4) | (1 << 6) | (1 << 9));
}
