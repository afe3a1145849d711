"""Rule tests. Each cites the rule ids of docs/rules.md it checks, and runs
against every engine of ``conftest.ENGINES``."""

from __future__ import annotations

import pytest

from dragoncastle.agents import RandomAgent
from helpers import FLAT, Sandbox, game, play_out, texts


def first_picks(g) -> set[tuple[int, int]]:
    return {a.space for a in g.legal_actions() if a.kind.name == "TAKE"}


# ---------------------------------------------------------------- castle

# A castle with a 2-3-2 row and a 2-2-2 row (then fillers of height 1).
ROWS = "232.222.....\n" + "111111111111\n" * 8 + "1111111.....\n"


def test_availability_on_a_2_3_2_row_and_after_removals(dc):
    """R-AVAIL-1: a top tile is Available iff its west or east neighbour stack is lower."""
    g = game(dc, ROWS, {})
    assert [g.castle_height((0, c)) for c in range(7)] == [2, 3, 2, 0, 2, 2, 2]
    # 2-3-2: the 3 is higher than both neighbours; each 2 has a free outer side.
    assert [g.is_available((0, c)) for c in range(3)] == [True, True, True]
    # 2-2-2: only the ends have a free long side.
    assert [g.is_available((0, c)) for c in range(4, 7)] == [True, False, True]
    # A row of equal height-1 stacks: only its ends.
    assert [g.is_available((1, c)) for c in range(12)] == [True] + [False] * 10 + [True]
    # R-AVAIL-2: the top floor is 3; only (0,1) can be a first pick.
    assert g.top_floor == 3
    assert first_picks(g) == {(0, 1)}
    g.apply("take 0,1")
    g.apply("discard")
    # Now the 3-stack is a 2 between two 2s: blocked on both long sides.
    assert g.castle_height((0, 1)) == 2 and not g.is_available((0, 1))
    assert g.top_floor == 2
    assert first_picks(g) == {(0, 0), (0, 2), (0, 4), (0, 6)}
    g.apply("take 0,4")
    g.apply("discard")
    # Removing the west end of 2-2-2 frees the middle's west side.
    assert g.is_available((0, 5))
    assert (0, 5) in first_picks(g)


def test_second_pick_is_judged_after_the_first_leaves(dc):
    """R-ACT-1 [ruling]: the tile revealed under the first pick, and a neighbour it
    freed, may be the second tile."""
    layout = "222.2.......\n" + "111111111111\n" * 9  # 8 + 108 = 116
    fixed = {(0, 0, 2): "Dr1", (0, 0, 1): "Dr1", (0, 1, 2): "Dr1", (0, 2, 2): "Se1", (0, 4, 2): "Se1"}
    g = game(dc, layout, fixed)
    assert not g.is_available((0, 1))
    g.apply("take 0,0")
    assert g.phase.name == "COMPLETE"
    seconds = {a.space for a in g.legal_actions() if a.kind.name == "TAKE"}
    # (0,0) now shows the Dr1 beneath; (0,1) lost its west neighbour's height.
    assert seconds == {(0, 0), (0, 1)}


def test_second_pick_must_be_identical_any_floor(dc):
    """R-ACT-1, R-TILE-2: same symbol, not merely same type; any floor."""
    layout = "2.2.2.1.....\n" + "111111111111\n" * 9 + "1...........\n"  # 7 + 108 + 1 = 116
    fixed = {(0, 0, 2): "Me3", (0, 2, 2): "Me4", (0, 4, 2): "Me3", (0, 6, 1): "Me3"}
    g = game(dc, layout, fixed)
    g.apply("take 0,0")
    seconds = {a.space for a in g.legal_actions() if a.kind.name == "TAKE"}
    assert seconds == {(0, 4), (0, 6)}  # Me4 is the same type only; (0,6) is on floor 1
    with pytest.raises(dc.IllegalActionError, match="not identical"):
        g.apply("take 0,2")


def test_first_pick_only_from_the_top_floor(dc):
    """R-ACT-1..3, R-AVAIL-2: the first tile comes from the top floor."""
    g = game(dc, ROWS, {})
    assert g.is_available((0, 0))  # Available, but on floor 2 < 3
    with pytest.raises(dc.IllegalActionError, match="top floor"):
        g.apply("take 0,0")


def test_summon_only_when_top_floor_at_most_one(dc):
    """R-ACT-5: Summon needs every castle tile on the ground floor."""
    layout = "2...........\n" + "111111111111\n" * 9 + "111111......\n"
    g = game(dc, layout, {})
    assert "summon" not in texts(g)
    with pytest.raises(dc.IllegalActionError, match="ground floor"):
        g.apply("summon")
    g.apply("take 0,0")  # the only tile on floor 2
    g.apply("discard")
    assert g.top_floor == 1
    assert "summon" in texts(g)
    g.apply("summon")
    assert g.countdown_tokens(1) == 1
    assert g.scores()[1] == 2  # R-END-2: 2 VP per token


def test_summon_is_the_only_action_when_the_castle_is_empty(dc):
    """R-ACT-5: with no tile left in the castle, Summon is mandatory."""
    g = game(dc, FLAT, {})
    while g.castle_tiles > 0:
        take = next(a for a in g.legal_actions() if a.kind.name == "TAKE")
        g.apply(take)
        g.apply("discard")
    assert texts(g) == ["summon"]


def test_tile_and_shrine_needs_a_shrine_in_the_general_pool(dc):
    """R-ACT-2, R-POOL-1: the general pool has 40 - N Shrines at the start."""
    g = dc.Game(players=3, seed=1)
    assert g.general_shrines == 37
    assert [g.shrine_pool(p) for p in range(3)] == [1, 1, 1]  # R-SETUP-1
    g.apply(g.legal_actions()[0])
    assert "take-shrine" in texts(g)


def test_discard_gives_one_vp(dc):
    """R-ACT-3"""
    g = dc.Game(players=2, seed=2)
    g.apply(g.legal_actions()[0])
    g.apply("discard")
    assert g.vp_tokens(0) == 1 and g.current_player == 1


# ---------------------------------------------------------------- placement

def test_placement_spaces_and_pair_needs_two(dc):
    """R-PLACE-1, R-PLACE-2 [ruling]: tiles go on empty or face-down, Shrine-free
    tops; a Pair needs 2 such spaces, Tile and Shrine 1; Discard is always possible."""
    cells = [(r, c) for r in range(4) for c in range(4)]
    # Checkerboard of Merchants and Soldiers: no two same-type tiles touch.
    codes = ["Me1" if (r + c) % 2 == 0 else "So1" for r, c in cells]
    codes = [c if i < 8 or c != "Me1" else "Me2" for i, c in enumerate(codes)]  # only 4 of each symbol
    codes = [c if i < 8 or c != "So1" else "So2" for i, c in enumerate(codes)]
    sb = Sandbox(dc, codes + ["Se1", "Se1"])
    for cell in cells[:15]:
        sb.single(cell)
    g = sb.g
    assert g.realm(0).placeable() == [(3, 3)]
    with pytest.raises(dc.IllegalActionError):
        g.apply("place 3,3")  # wrong phase
    sb.take()  # a Me2 with nowhere to put a second tile
    legal = texts(g)
    assert "take-shrine" in legal and "discard" in legal
    assert not any(t.startswith("take ") for t in legal)
    g.apply("take-shrine")
    assert texts(g) == ["place 3,3"]
    g.apply("place 3,3")
    sb.opponent_discards()
    sb.take()
    assert texts(g) == ["discard"]


def test_identical_pair_placements_listed_once(dc):
    """R-PLACE-3 [ruling]: (a, b) and (b, a) are one move: the first tile goes to
    the lower cell."""
    sb = Sandbox(dc, ["Wi2", "Wi2"])
    sb.take()
    sb.take()
    g = sb.g
    firsts = [a.cell for a in g.legal_actions()]
    assert len(firsts) == 15 and (3, 3) not in firsts
    g.apply("place 1,2")
    seconds = [a.cell for a in g.legal_actions()]
    assert seconds == [(r, c) for r in range(4) for c in range(4) if r * 4 + c > 6]
    with pytest.raises(dc.IllegalActionError, match="R-PLACE-3"):
        g.apply("place 0,0")
    total = sum(15 - i for i in range(15))
    assert total == 120  # C(16, 2) unordered pairs


# ---------------------------------------------------------------- consolidation

# Groups of at most 3 Merchants around the cell (1,1), pairwise not adjacent.
ARM_N = [(0, 1)]
ARM_W = [(1, 0)]
ARM_E = [(1, 2), (1, 3), (0, 3)]
ARM_S = [(2, 1), (3, 1), (3, 0)]
SIZES = {
    4: ARM_E,
    5: ARM_E + ARM_N,
    6: ARM_E + ARM_N + ARM_W,
    7: ARM_E + ARM_S,
    8: ARM_E + ARM_S + ARM_N,
    9: ARM_E + ARM_S + ARM_N + ARM_W,
}
MERCHANTS = [f"Me{n}" for n in range(1, 7) for _ in range(4)]


@pytest.mark.parametrize("size, vp", [(4, 2), (5, 3), (6, 5), (7, 6), (8, 8), (9, 9)])
def test_vp_table(dc, size, vp):
    """R-CONS-1, R-CONS-2, R-CONS-4: the last tile joins groups into one set of
    `size`, scored by the table (9+ -> 8 + 1 per tile beyond 8)."""
    arms = SIZES[size]
    sb = Sandbox(dc, MERCHANTS[: size])
    for cell in arms:
        sb.single(cell)
    g = sb.g
    assert g.vp_tokens(0) == 0
    sb.take()
    g.apply("take-shrine")
    g.apply("place 1,1")
    # One merged set: one Faction allowance, offered on all of its tiles.
    assert g.phase.name == "SHRINE"
    shrine_cells = {a.cell for a in g.legal_actions() if a.kind.name == "SHRINE"}
    assert shrine_cells == set(arms) | {(1, 1)}
    g.apply("shrine 1,1")
    assert g.current_player == 1  # allowance used: the turn ends
    assert g.vp_tokens(0) == vp
    realm = g.realm(0)
    assert all(realm.top(c) == (None, False) for c in arms)


# Groups of at most 3 Merchants that a placed pair (x, y) joins into one set.
BRIDGED = {
    10: ((2, 1), (3, 1), [(0, 1), (0, 2), (1, 1), (1, 3), (2, 0), (2, 2), (2, 3), (3, 0)]),
    11: ((2, 1), (2, 3), [(0, 2), (0, 3), (1, 1), (1, 3), (2, 0), (2, 2), (3, 0), (3, 1), (3, 3)]),
    12: ((1, 1), (1, 3), [(0, 0), (0, 1), (0, 3), (1, 2), (2, 0), (2, 1), (2, 3), (3, 0), (3, 2), (3, 3)]),
}


@pytest.mark.parametrize("size", sorted(BRIDGED))
def test_vp_beyond_nine(dc, size):
    """R-CONS-2, R-CONS-4: sets of 10, 11, 12 made by a pair that bridges several
    groups score 8 + (n - 8)."""
    x, y, cells = BRIDGED[size]
    sb = Sandbox(dc, MERCHANTS[:size])
    for cell in cells:
        sb.single(cell)
    g = sb.g
    assert g.vp_tokens(0) == 0
    sb.pair((x, y))
    assert g.vp_tokens(0) == size


def test_two_sets_in_one_turn_and_allowances_do_not_pool(dc):
    """R-CONS-4, R-SHRINE-1: two sets in one turn are scored apart; each Faction set
    allows 1 Shrine on its own tiles."""
    a = [(0, 0), (0, 1), (0, 2)]
    b = [(3, 1), (3, 2), (3, 3)]
    sb = Sandbox(dc, MERCHANTS[:6] + ["Me6", "Me6"])
    for cell in a + b:
        sb.single(cell)  # six Tile-and-Shrine turns: Shrine Pool 7
    g = sb.g
    assert g.shrine_pool(0) == 7
    sb.take()
    sb.take()
    g.apply("place 1,0")
    g.apply("place 2,3")
    assert g.vp_tokens(0) == 4  # 2 + 2, not 3 for one set of 8
    set_a = set(a) | {(1, 0)}
    set_b = set(b) | {(2, 3)}
    assert {x.cell for x in g.legal_actions() if x.kind.name == "SHRINE"} == set_a | set_b
    g.apply("shrine 0,0")
    # Set A's allowance is used; set B's is still there, and A's tiles are no longer offered.
    assert {x.cell for x in g.legal_actions() if x.kind.name == "SHRINE"} == set_b
    with pytest.raises(dc.IllegalActionError):
        g.apply("shrine 0,1")
    g.apply("shrine 3,3")
    assert g.current_player == 1
    assert g.shrine_pool(0) == 5


def test_special_sets_allow_two_shrines(dc):
    """R-SHRINE-1: a Special set allows 2 Shrines; Done stops early."""
    winds = ["Wi1", "Wi2", "Wi3", "Wi4"]
    sb = Sandbox(dc, winds)
    for cell in [(0, 0), (0, 1), (0, 2)]:
        sb.single(cell)
    g = sb.g
    sb.take()
    g.apply("take-shrine")
    g.apply("place 0,3")
    assert g.vp_tokens(0) == 2
    g.apply("shrine 0,0")
    assert g.phase.name == "SHRINE"
    assert "done" in texts(g)
    g.apply("shrine 0,3")
    assert g.current_player == 1
    assert g.realm(0).has_shrine((0, 0)) and g.realm(0).has_shrine((0, 3))


def test_shrines_only_on_this_turns_sets(dc):
    """R-SHRINE-1: no Shrine on tiles Consolidated in earlier turns."""
    sb = Sandbox(dc, ["Se1", "Se2", "Se3", "Se4", "So1", "So1", "So1", "So1"])
    for cell in [(0, 0), (0, 1), (0, 2), (0, 3)]:
        sb.single(cell, shrines=None)  # declines the Shrines
    g = sb.g
    assert g.realm(0).top((0, 0)) == (None, False)
    # Next consolidation elsewhere offers only its own tiles.
    for cell in [(2, 0), (2, 1), (2, 2)]:
        sb.single(cell)
    sb.take()
    g.apply("take-shrine")
    g.apply("place 2,3")
    offered = {x.cell for x in g.legal_actions() if x.kind.name == "SHRINE"}
    assert offered == {(2, 0), (2, 1), (2, 2), (2, 3)}


def test_dragon_set_bonus_option(dc):
    """R-CONS-3 [option]: +1 VP for a Dragon set, unless switched off."""
    for bonus, vp in ((True, 3), (False, 2)):
        sb = Sandbox(dc, ["Dr1", "Dr2", "Dr3", "Dr1"], rules=dc.Rules(dragon_set_bonus=bonus))
        for cell in [(0, 0), (1, 0), (2, 0), (3, 0)]:
            sb.single(cell)
        assert sb.g.vp_tokens(0) == vp
        assert sb.g.rules.dragon_set_bonus is bonus


def test_no_placement_on_face_up_tiles_or_shrines(dc):
    """R-PLACE-1, R-REALM-2: face-down tops without a Shrine take new tiles."""
    sb = Sandbox(dc, ["Wi1", "Wi2", "Wi3", "Wi4", "Fa1"])
    for cell in [(0, 0), (0, 1), (0, 2)]:
        sb.single(cell)
    sb.single((0, 3), shrines=[(0, 0)])
    g = sb.g
    sb.take()
    g.apply("take-shrine")
    cells = {a.cell for a in g.legal_actions()}
    assert (0, 0) not in cells  # Shrine
    assert {(0, 1), (0, 2), (0, 3)} <= cells  # face down, no Shrine
    g.apply("place 0,1")
    assert g.realm(0).height((0, 1)) == 2


# ---------------------------------------------------------------- worked example

def test_janet_worked_example(dc):
    """Rulebook example (Janet): a set of 5 Dragons scores 3 + 1 VP (R-CONS-2,
    R-CONS-3); Shrines built on floors 2 and 3 are worth 2 + 3 = 5 (R-SHRINE-2)."""
    stage1 = ["Me1", "Me2", "Me3", "Me4"]  # on (0,0) (0,1) (1,0) (1,1): height 1
    stage2 = ["So1", "So2", "So3", "So4"]  # on (0,0) (0,1) (0,2) (0,3): (0,0) height 2
    dragons = ["Dr1", "Dr2", "Dr3", "Dr1", "Dr2"]
    sb = Sandbox(dc, stage1 + stage2 + dragons)
    for cell in [(0, 0), (0, 1), (1, 0), (1, 1)]:
        sb.single(cell)  # declines Shrines
    for cell in [(0, 0), (0, 1), (0, 2), (0, 3)]:
        sb.single(cell)
    g = sb.g
    assert g.vp_tokens(0) == 4
    assert g.realm(0).height((0, 0)) == 2 and g.realm(0).height((1, 0)) == 1
    # Two groups of 2 Dragons, (1,0) (2,0) and (0,1) (0,2), joined by (0,0):
    # (0,0) is on floor 3, (1,0) on floor 2.
    for cell in [(1, 0), (2, 0), (0, 1), (0, 2)]:
        sb.single(cell)
    sb.take()
    g.apply("take-shrine")
    g.apply("place 0,0")
    assert g.vp_tokens(0) == 4 + 3 + 1
    assert g.realm(0).height((0, 0)) == 3 and g.realm(0).height((1, 0)) == 2
    g.apply("shrine 0,0")
    g.apply("shrine 1,0")
    b = g.score_breakdown(0)
    assert b["shrines"] == 5
    assert b["total"] == b["vp"] + 5 + b["countdown"]


def test_shrine_values_by_height(dc):
    """R-SHRINE-2: Shrines on stacks of 1, 2, 3 and 4 tiles are worth 1, 2, 3, 3."""
    stages = [
        ("Me", [(0, 0), (0, 1), (0, 2), (0, 3)], []),
        ("So", [(0, 0), (0, 1), (0, 2), (0, 3)], [(0, 3)]),  # floor 2
        ("Fa", [(0, 0), (0, 1), (0, 2), (1, 2)], [(0, 2)]),  # floor 3
        ("Wi", [(0, 0), (0, 1), (1, 1), (1, 0)], [(0, 0), (1, 1)]),  # floors 4 and 1
    ]
    tops = [f"{kind}{n}" for kind, _, _ in stages for n in range(1, 5)]
    sb = Sandbox(dc, tops)
    for _, cells, shrines in stages:
        for cell in cells[:-1]:
            sb.single(cell)
        sb.single(cells[-1], shrines=shrines)
    realm = sb.g.realm(0)
    assert [realm.height(c) for c in [(1, 1), (0, 3), (0, 2), (0, 0)]] == [1, 2, 3, 4]
    assert sb.g.score_breakdown(0)["shrines"] == 1 + 2 + 3 + 3


def test_shrine_values_in_played_games(dc):
    """R-SHRINE-2 on played games, against the Realm's own heights."""
    seen: set[int] = set()
    for seed in range(300):
        g = play_out(dc.Game(players=2, seed=seed), [RandomAgent(seed), RandomAgent(seed + 1)])
        for p in range(2):
            realm = g.realm(p)
            cells = [(r, c) for r in range(4) for c in range(4) if realm.has_shrine((r, c))]
            expect = sum(min(realm.height(c), 3) for c in cells)
            assert g.score_breakdown(p)["shrines"] == expect
            seen |= {min(realm.height(c), 4) for c in cells}
        if seen >= {1, 2, 3}:
            break
    assert seen >= {1, 2, 3}, seen


# ---------------------------------------------------------------- end of the game

@pytest.mark.parametrize("players", [2, 3, 4])
def test_end_round_completes_for_a_trigger_in_each_seat(dc, players):
    """R-END-1 [ruling]: the N-th Countdown token triggers the end; play goes on
    until the last seat has played; a trigger by the last seat ends at once.
    Later Summons take the tokens left (R-SETUP-2: 7 tokens)."""
    for trigger in range(players):
        g = game(dc, FLAT, {}, players=players)
        turns = 0

        def discard():
            g.apply(next(a for a in g.legal_actions() if a.kind.name == "TAKE"))
            g.apply("discard")

        # N - 1 Summons from seats 0.., then discards until `trigger` moves.
        for _ in range(players - 1):
            g.apply("summon")
            turns += 1
        while g.current_player != trigger:
            discard()
            turns += 1
        assert not g.end_triggered
        g.apply("summon")
        turns += 1
        assert g.end_triggered
        assert g.countdown_left == 7 - players
        after = 0
        while not g.is_over:
            g.apply("summon")  # later Summons still take tokens
            after += 1
        assert after == players - 1 - trigger
        assert g.current_player == players - 1
        assert sum(g.countdown_tokens(p) for p in range(players)) == players + after
        assert g.legal_actions() == []


def test_scores_add_up(dc):
    """R-END-2: VP tokens + Shrine values + 2 per Countdown token."""
    g = play_out(dc.Game(players=3, seed=5), [RandomAgent(i) for i in range(3)])
    for p in range(3):
        b = g.score_breakdown(p)
        assert b["vp"] == g.vp_tokens(p)
        assert b["countdown"] == 2 * g.countdown_tokens(p)
        assert b["total"] == b["vp"] + b["shrines"] + b["countdown"] == g.scores()[p]


def test_tie_breaks(dc):
    """R-END-3: ties go to most face-down stacks, then most Shrines, else shared.
    Checked against a recomputation from the Realms over many finished games,
    until a score tie broken by each rule has been seen."""
    seen = set()
    # A tie broken by the Shrines is rare with the Rust engine's seed-rule draws (none in seeds 0-7286; 12412 has one).
    for seed in range(12000, 15000):
        g = play_out(dc.Game(players=2, seed=seed), [RandomAgent(seed), RandomAgent(seed + 7)])
        keys = []
        for p in range(2):
            realm = g.realm(p)
            cells = [(r, c) for r in range(4) for c in range(4)]
            down = sum(1 for c in cells if realm.top(c) is not None and not realm.top(c)[1])
            shrines = sum(1 for c in cells if realm.has_shrine(c))
            keys.append((g.scores()[p], down, shrines))
        best = max(keys)
        assert g.winners() == [p for p in range(2) if keys[p] == best]
        s0, s1 = keys
        if s0[0] == s1[0]:
            seen.add("face-down" if s0[1] != s1[1] else "shrines" if s0[2] != s1[2] else "shared")
        if seen >= {"face-down", "shrines", "shared"}:
            break
    assert seen >= {"face-down", "shrines"}, seen
