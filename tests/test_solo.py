"""Solo mode against the Dragon of Ingenuity (R-SOLO-1..5), on both engines."""

from __future__ import annotations

import pytest

from dragoncastle.agents import DragonOfIngenuity, RandomAgent
from helpers import CODES, FLAT, SANDBOX_STACKS, SANDBOX, play_out

SPECIALS = [c for c in CODES if c[:2] in ("Se", "Wi", "Dr")]
FACTIONS = [c for c in CODES if c not in SPECIALS]


def sandbox_deal(tops: dict[int, str], bottoms: dict[int, str] | None = None, spare_tops: list[str] | None = None) -> list[str]:
    """A SANDBOX deal (58 isolated stacks of 2): fixed tops and bottoms by stack
    number; the other tops take `spare_tops` (default: Faction tiles), the other
    bottoms everything left."""
    bottoms = bottoms or {}
    pool = [c for c in CODES for _ in range(4)]
    for code in list(tops.values()) + list(bottoms.values()):
        pool.remove(code)
    fill_tops = list(spare_tops) if spare_tops is not None else [c for c in pool if c in FACTIONS]
    top = []
    for k in range(58):
        if k in tops:
            top.append(tops[k])
        else:
            code = fill_tops.pop(0)
            pool.remove(code)
            top.append(code)
    deal = []
    for k in range(58):
        deal.append(bottoms[k] if k in bottoms else pool.pop(0))
        deal.append(top[k])
    assert not pool
    return deal


def space(k: int) -> str:
    r, c = SANDBOX_STACKS[k]
    return f"{r},{c}"


def dragon_moves(g) -> list[str]:
    """The actions of the Dragon's last turn."""
    moves = []
    for action, by_dragon in zip(reversed(g.history), reversed(g.history_by_dragon)):
        if not by_dragon:
            break
        moves.append(str(action))
    return moves[::-1]


def test_solo_setup(dc):
    """R-SOLO-1: the 3-player layout, 1 Realm, 1 Shrine; R-SOLO-2: the player first."""
    g = dc.Game(players=1, seed=4)
    assert g.players == 1 and g.is_solo and g.current_player == 0
    assert g.layout == dc.Layout.standard("standard-3p")
    assert g.shrine_pool(0) == 1 and g.general_shrines == 39
    assert g.scores() == [0]
    with pytest.raises(ValueError):
        g.realm(1)


def test_jebediah_worked_example(dc):
    """Rulebook example: Jebediah takes a pair of Seasons. The Dragon cannot Summon
    and finds no Season, Dragon or other Special tile on the top floor, so it takes
    the northernmost, then westernmost Faction tile, and completes a pair with the
    northernmost identical Available tile (R-SOLO-3, R-SOLO-4)."""
    # Stack 0 (0,0) and stack 5 (0,10) show Fa3; Jebediah's Seasons are stacks 10 and 11.
    tops = {0: "Fa3", 5: "Fa3", 10: "Se1", 11: "Se1", 30: "Fa3"}
    spare = [c for c in FACTIONS if c != "Fa3"] * 4
    g = dc.Game(players=1, layout=SANDBOX, deal=sandbox_deal(tops, spare_tops=spare))
    g.apply(f"take {space(10)}")
    g.apply(f"take {space(11)}")
    g.apply("place 0,0")
    g.apply("place 0,1")
    assert dragon_moves(g) == [f"take {space(0)}", f"take {space(5)}"]
    assert g.dragon_tiles == {"Fa3": 2}
    assert g.current_player == 0 and g.castle_top((0, 10)) != dc.Tile("Fa3")
    assert "Dragon of Ingenuity took: Fa3x2" in str(g)


def test_dragon_follows_the_type_the_player_took(dc):
    """R-SOLO-3: first the type the player took last turn (here Wind, via Tile and
    Shrine), even with Dragon tiles on offer."""
    tops = {0: "Dr1", 1: "Se2", 3: "Wi2", 8: "Wi1", 9: "Wi3"}
    g = dc.Game(players=1, layout=SANDBOX, deal=sandbox_deal(tops))
    g.apply(f"take {space(8)}")
    g.apply("take-shrine")
    g.apply("place 3,3")
    assert dragon_moves(g) == [f"take {space(3)}", "done"]  # no identical Wi2 Available


# Six stacks of 3 on row 0 are the whole top floor; everything else is on the ground.
TALL = "3.3.3.3.3.3.\n" + "111111111111\n" * 8 + "11..........\n"


def tall_game(dc, tops: list[str], layout: str = TALL, spaces: list[tuple[int, int]] | None = None):
    from helpers import deal_for

    spaces = spaces or [(0, 2 * k) for k in range(len(tops))]
    return dc.Game(players=1, layout=layout, deal=deal_for(layout, {(r, c, 3): code for (r, c), code in zip(spaces, tops)}))


@pytest.mark.parametrize("tops, expect", [
    (["Fa1", "Se1", "Dr2", "So1", "So2", "Me6"], "take 0,4"),  # Dragon before Special and Faction
    (["Fa1", "Fa2", "Wi4", "So1", "So2", "Me6"], "take 0,4"),  # Special before Faction
    (["So1", "Fa2", "So3", "So4", "Fa5", "Me6"], "take 0,0"),  # Faction, westernmost
    (["Dr1", "Se2", "Me1", "So4", "Fa5", "Me6"], "take 0,4"),  # the player's type (Merchant) first
])
def test_dragon_priorities(dc, tops, expect):
    """R-SOLO-3 each step on its own, R-SOLO-4 westernmost. The player takes the
    Me6 on (0,10) and discards it, so its type is Merchant."""
    g = tall_game(dc, tops)
    g.apply("take 0,10")
    g.apply("discard")
    assert dragon_moves(g)[0] == expect


def test_tie_order_north_then_west(dc):
    """R-SOLO-4: northernmost first, then westernmost: (0,4) beats (1,0)."""
    layout = "111131111111\n3.3.........\n" + "111111111111\n" * 8
    g = tall_game(dc, ["Dr1", "Dr2", "Dr3"], layout=layout, spaces=[(0, 4), (1, 0), (1, 2)])
    g.apply("take 1,2")  # the player takes a Dragon: the Dragon looks for Dragons
    g.apply("discard")
    assert dragon_moves(g)[0] == "take 0,4"


def test_pair_completion_is_judged_after_the_first_pick(dc):
    """R-SOLO-4: the tile revealed under the Dragon's first pick is Available and
    northernmost, so it completes the pair."""
    from helpers import deal_for

    tops = {(0, 0, 3): "So1", (0, 2, 3): "Fa2", (0, 4, 3): "Dr1", (0, 4, 2): "Dr1", (0, 6, 3): "So2", (0, 8, 3): "Fa3",
            (0, 10, 3): "Me6"}
    g = dc.Game(players=1, layout=TALL, deal=deal_for(TALL, tops))
    g.apply("take 0,10")
    g.apply("discard")
    assert dragon_moves(g) == ["take 0,4", "take 0,4"]
    assert g.castle_height((0, 4)) == 1


def test_dragon_summons_as_soon_as_allowed(dc):
    """R-SOLO-3: Summon first, whenever the castle is down to the ground floor."""
    g = dc.Game(players=1, layout=FLAT, deal=[c for c in CODES for _ in range(4)])
    g.apply(next(a for a in g.legal_actions() if a.kind.name == "TAKE"))
    g.apply("discard")
    assert dragon_moves(g) == ["summon"]
    assert g.countdown_left == 6 and g.countdown_tokens(0) == 0


@pytest.mark.parametrize("who", ["player", "dragon"])
def test_end_after_the_round_of_the_third_token(dc, who):
    """R-SOLO-1, R-END-1: 3 tokens on the track. If the player takes the third, the
    Dragon still plays its turn; if the Dragon takes it, the game ends at once."""
    g = dc.Game(players=1, layout=FLAT, deal=[c for c in CODES for _ in range(4)])
    if who == "player":
        g.apply("summon")  # 1, then the Dragon's 2
        assert g.countdown_left == 5 and not g.end_triggered
        g.apply("summon")  # 3: triggered; the Dragon's turn completes the round (4)
        assert g.is_over and g.countdown_left == 3
        assert g.countdown_tokens(0) == 2 and g.scores() == [4]
    else:
        for _ in range(2):
            g.apply(next(a for a in g.legal_actions() if a.kind.name == "TAKE"))
            g.apply("discard")
            assert not g.is_over
        g.apply(next(a for a in g.legal_actions() if a.kind.name == "TAKE"))
        g.apply("discard")  # the Dragon takes the third token and the game ends
        assert g.is_over and g.countdown_left == 4 and g.scores() == [3]
    assert g.rank() == "Student"


@pytest.mark.parametrize("score, name", [
    (0, "Student"), (39, "Student"), (40, "Devotee"), (45, "Devotee"), (46, "Master"), (49, "Master"),
    (50, "Grand Master"), (52, "Grand Master"), (53, "Dragon"), (54, "Dragon"), (55, "Silver Dragon"),
    (56, "Silver Dragon"), (57, "Gold Dragon"), (58, "Gold Dragon"), (59, "Jade Dragon"), (60, "Diamond Dragon"),
    (75, "Diamond Dragon"),
])
def test_rank_boundaries(dc, score, name):
    """R-SOLO-5"""
    assert dc.solo_rank(score) == name


def test_rank_of_finished_games_and_not_for_multiplayer(dc):
    g = play_out(dc.Game(players=1, seed=5), [RandomAgent(5)])
    assert g.rank() == dc.solo_rank(g.scores()[0])
    with pytest.raises(ValueError):
        dc.Game(players=2, seed=1).rank()


def test_solo_undo_json_and_history(dc):
    """The Dragon's moves are in the history and the JSON; undo reverts the
    player's action together with the Dragon's turn it caused."""
    g = dc.Game(players=1, seed=11)
    rng_agent = RandomAgent(3)
    snapshots = []
    while not g.is_over:
        snapshots.append(g.clone())
        g.apply(rng_agent.act(g))
        assert g.current_player == 0 or g.is_over
    assert any(g.history_by_dragon) and len(g.history) == len(g.history_by_dragon)
    assert dc.Game.from_json(g.to_json()) == g
    for snap in reversed(snapshots):
        g.undo()
        assert g == snap
    tampered = dc.Game(players=1, seed=11)
    tampered.apply(tampered.legal_actions()[0])
    while tampered.phase.name != "ACTION":
        tampered.apply(tampered.legal_actions()[-1])
    import json

    data = json.loads(tampered.to_json())
    dragon_index = data["actions"].index(next(a.id for a, d in zip(tampered.history, tampered.history_by_dragon) if d))
    data["actions"][dragon_index] = (data["actions"][dragon_index] + 1) % 144
    with pytest.raises(ValueError, match="Dragon of Ingenuity"):
        dc.Game.from_json(json.dumps(data))


def test_dragon_agent_in_any_seat_is_a_function_of_what_is_visible(dc):
    g = dc.Game(players=3, seed=2)
    agent = DragonOfIngenuity()
    while not g.is_over:
        action = agent.act(g)
        assert action in g.legal_actions()
        assert g.determinize(g.turn + 1).dragon_action() == action
        g.apply(action)
