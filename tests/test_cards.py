"""Spirit and Dragon cards (docs/cards.md; R-SETUP-3, R-SPIRIT-1/2, R-DRAGON-1..10,
R-SOLO-1), on both engines.

Written from docs/cards.md, the project's rules (RULES.md sections 7-9) and the
rulebook's card texts and FAQ only, without reading either engine. Every rulebook
FAQ answer about a card is at least one test here; each test names the rule ids it
checks. Positions are built from explicit deals: the castle is a custom layout with
fixed tiles, and Realms are built turn by turn on :data:`helpers.SANDBOX` with
``helpers.Sandbox``.
"""

from __future__ import annotations

import random

import pytest

import dragoncastle
from dragoncastle import reference
from dragoncastle.agents import RandomAgent
from helpers import FLAT, Sandbox, deal_for, game, space, texts

ALL_CELLS = [(r, c) for r in range(4) for c in range(4)]


# ---------------------------------------------------------------- helpers

def spirit_texts(g) -> list[str]:
    return [t for t in texts(g) if t.startswith("spirit ")]


def offered_cards(g) -> set[str]:
    """The Spirit cards the mover may activate now."""
    return {t.split()[1] for t in spirit_texts(g)}


def cells_of(g, kind: str) -> set[tuple[int, int]]:
    """Cells of the legal actions of one kind ("SHRINE", "PLACE", ...)."""
    return {a.cell for a in g.legal_actions() if a.kind.name == kind}


def cell_texts(verb: str, cells) -> list[str]:
    """Action texts for cells, in id order (cells in row-major order)."""
    return [f"{verb} {r},{c}" for r, c in sorted(cells)]


def assert_illegal(dc, g, *actions) -> None:
    """R-SPIRIT-1 / the API: an illegal action raises and changes nothing."""
    for action in actions:
        before, before_json = g.clone(), g.to_json()
        with pytest.raises(dc.IllegalActionError):
            g.apply(action)
        assert g == before and g.to_json() == before_json, action


def up(dc, code: str):
    """``realm.top(cell)`` of a face-up tile."""
    return (dc.Tile(code), True)


DOWN = (None, False)  # realm.top(cell) of a face-down tile


def shrine_cells(realm) -> set[tuple[int, int]]:
    return {c for c in ALL_CELLS if realm.has_shrine(c)}


def realm(dc, *rows: str):
    """``dc.Realm.parse`` of 4 rows of 4 cells."""
    return dc.Realm.parse("\n".join(rows))


EMPTY_ROW = ". . . ."


# ---------------------------------------------------------------- setup (R-SETUP-3)

def test_cards_by_name_are_stored_in_card_order(dc):
    """R-SETUP-3: cards given by name; ``g.spirits`` / ``g.dragons`` list them in
    card order (the order of ``dc.SPIRITS`` / ``dc.DRAGONS``)."""
    assert dc.SPIRITS == ["beauty", "elegance", "wind", "deception", "strength", "change", "faith",
                          "destruction", "deep", "cunning"]
    assert dc.DRAGONS == ["humility", "tranquility", "righteousness", "bravery", "majesty", "power", "harmony",
                          "knowledge", "devotion", "fortitude"]
    g = dc.Game(players=2, seed=7, spirits=["destruction", "beauty", "faith"], dragons=["fortitude", "harmony"])
    assert g.spirits == ["beauty", "faith", "destruction"]
    assert g.dragons == ["harmony", "fortitude"]
    for none in (None, 0, []):
        h = dc.Game(players=2, seed=7, spirits=none, dragons=none)
        assert h.spirits == [] and h.dragons == []
    assert dc.Game(players=2, seed=7).spirits == [] and dc.Game(players=2, seed=7).dragons == []
    every = dc.Game(players=3, seed=7, spirits=10, dragons=10)
    assert every.spirits == dc.SPIRITS and every.dragons == dc.DRAGONS


@pytest.mark.parametrize("kw", [
    {"spirits": ["wind", "wind"]}, {"spirits": ["gravity"]}, {"spirits": ["humility"]}, {"spirits": 11},
    {"spirits": -1}, {"dragons": ["harmony", "harmony"]}, {"dragons": ["wind"]}, {"dragons": 11},
    {"dragons": -1}, {"spirits": ["beauty", "nothing"], "dragons": 1},
])
def test_bad_card_setup_is_a_value_error(dc, kw):
    """R-SETUP-3: unknown names, repeats and counts outside 0..10 are ValueErrors."""
    with pytest.raises(ValueError):
        dc.Game(players=2, seed=1, **kw)


MASK = (1 << 64) - 1


def _splitmix(state: int):
    def draw() -> int:
        nonlocal state
        state = (state + 0x9E3779B97F4A7C15) & MASK
        z = state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        return z ^ (z >> 31)
    return draw


def _documented_card_draw(seed: int) -> tuple[list[int], list[int]]:
    """docs/seeding.md "Other streams" (key 1) and docs/cards.md "The draw": the
    Spirit indices shuffled, then a fresh Dragon list shuffled by the same generator."""
    draw = _splitmix(_splitmix(seed ^ ((1 * 0xD1B54A32D192ED03) & MASK))())

    def below(n: int) -> int:
        while True:
            x = draw()
            if x < (1 << 64) - (1 << 64) % n:
                return x % n

    lists = []
    for _ in range(2):
        a = list(range(10))
        for i in range(9, 0, -1):
            j = below(i + 1)
            a[i], a[j] = a[j], a[i]
        lists.append(a)
    return lists[0], lists[1]


@pytest.mark.parametrize("seed", [0, 1, 7, 123456789, 2**64 - 1])
def test_card_counts_are_drawn_from_the_seed_as_documented(dc, seed):
    """R-SETUP-3, R-SEED-1: a count draws that many cards from the seed's card
    stream (docs/cards.md "The draw"); names are stored in card order."""
    spirit_order, dragon_order = _documented_card_draw(seed)
    for k in (1, 3, 10):
        g = dc.Game(players=2, seed=seed, spirits=k, dragons=k)
        assert g.spirits == [dc.SPIRITS[i] for i in sorted(spirit_order[:k])]
        assert g.dragons == [dc.DRAGONS[i] for i in sorted(dragon_order[:k])]


def test_drawn_dragons_do_not_depend_on_the_spirits_asked_for(dc):
    """R-SETUP-3 (docs/cards.md: both shuffles always run): the Dragons drawn are the
    same whatever Spirits were asked for; an explicit deal still draws from the seed."""
    for seed in range(12):
        expect = dc.Game(players=2, seed=seed, spirits=0, dragons=2).dragons
        assert len(expect) == 2
        for spirits in (None, 4, 10, ["wind"], ["cunning", "beauty"]):
            assert dc.Game(players=2, seed=seed, spirits=spirits, dragons=2).dragons == expect
        spirits = dc.Game(players=2, seed=seed, spirits=3).spirits
        assert dc.Game(players=2, seed=seed, spirits=3, dragons=5).spirits == spirits
        dealt = dc.Game(players=2, seed=seed, layout=FLAT, deal=deal_for(FLAT, {}), spirits=3, dragons=2)
        assert dealt.spirits == spirits and dealt.dragons == expect
    drawn = {tuple(dc.Game(players=2, seed=s, spirits=1).spirits) for s in range(40)}
    assert len(drawn) >= 5  # the draw does depend on the seed


def test_same_seed_same_cards_in_both_engines():
    """R-SEED-1, R-SETUP-3: the Rust and the pure-Python engine draw the same cards."""
    for seed in list(range(25)) + [2**64 - 1]:
        for k, m in ((1, 1), (3, 2), (6, 9)):
            a = dragoncastle.Game(players=3, seed=seed, spirits=k, dragons=m)
            b = reference.Game(players=3, seed=seed, spirits=k, dragons=m)
            assert a.spirits == b.spirits and a.dragons == b.dragons, seed
        for players in (1, 4):
            a = dragoncastle.Game(players=players, seed=seed, spirits=1, dragons=1)
            b = reference.Game(players=players, seed=seed, spirits=1, dragons=1)
            assert (a.spirits, a.dragons) == (b.spirits, b.dragons)


def test_json_round_trip_keeps_the_cards(dc):
    """R-SETUP-3: ``from_json(to_json())`` is the same game, cards included."""
    g = dc.Game(players=3, seed=5, spirits=["wind", "faith", "deep"], dragons=["power", "bravery"])
    again = dc.Game.from_json(g.to_json())
    assert again == g and again.spirits == ["wind", "faith", "deep"] and again.dragons == ["bravery", "power"]
    assert dc.Game.from_json(g.to_json()) != dc.Game(players=3, seed=5, spirits=["wind"], dragons=["power", "bravery"])


# ---------------------------------------------------------------- activation (R-SPIRIT-1)

def wind_payment_position(dc):
    """Seat 0 at the start of its 7th turn, with Wind in play: Seasons consolidated on
    row 0 (no Shrine built), Me1 face up on top of (0,1) (height 2), Me2 face up on
    (2,2). Shrine Pool 7, VP 2."""
    b = Sandbox(dc, ["Se1", "Se2", "Se3", "Se4", "Me1", "Me2"], spirits=["wind"])
    for cell in [(0, 0), (0, 1), (0, 2), (0, 3)]:
        b.single(cell, shrines=None)
    b.single((0, 1))
    b.single((2, 2))
    return b


def test_payment_with_a_realm_tile_or_a_shrine(dc):
    """R-SPIRIT-1: pay with a face-up tile of your Realm (the face-down tile under it
    becomes the top; the tile leaves the game, no VP) or with a Shrine of your Shrine
    Pool (it goes back to the general pool). Bad payments raise and change nothing."""
    b = wind_payment_position(dc)
    g = b.g
    assert g.phase.name == "ACTION" and g.current_player == 0
    assert g.shrine_pool(0) == 7 and g.vp_tokens(0) == 2
    assert g.realm(0).height((0, 1)) == 2 and g.realm(0).top((0, 1)) == up(dc, "Me1")
    assert spirit_texts(g) == ["spirit wind 0,1", "spirit wind 2,2", "spirit wind shrine"]
    assert_illegal(dc, g, "spirit wind 0,0", "spirit wind 3,3", "spirit beauty shrine", "spirit destruction shrine")

    by_shrine = g.clone()
    general = by_shrine.general_shrines
    by_shrine.apply("spirit wind shrine")
    assert by_shrine.shrine_pool(0) == 6 and by_shrine.general_shrines == general + 1
    assert by_shrine.realm(0).top((0, 1)) == up(dc, "Me1")

    g.apply("spirit wind 0,1")
    realm0 = g.realm(0)
    assert realm0.height((0, 1)) == 1 and realm0.top((0, 1)) == DOWN
    assert g.shrine_pool(0) == 7 and g.vp_tokens(0) == 2
    assert g.phase.name == "WIND"
    # Nothing else face up but Me2, no Shrine built: the flip is the only thing to do.
    assert texts(g) == ["flip 2,2"]


def test_paying_with_a_height_one_tile_empties_the_cell(dc):
    """R-SPIRIT-1: a face-up tile alone on its cell leaves the cell empty when paid."""
    b = wind_payment_position(dc)
    g = b.g
    g.apply("spirit wind 2,2")
    assert g.realm(0).height((2, 2)) == 0 and g.realm(0).top((2, 2)) is None
    assert texts(g) == ["flip 0,1"]


def test_each_spirit_once_per_turn_and_spirits_skipped_when_nothing_is_legal(dc):
    """R-SPIRIT-1: each card once per turn. R-SPIRIT-2, docs/cards.md: the phases
    SPIRITS and END_TURN open only when an activation is legal; Wind used before the
    Action is not offered again after the placement, so the turn ends by itself right
    after it; next turn Wind is offered again."""
    b = wind_payment_position(dc)
    g = b.g
    g.apply("spirit wind 0,1")
    g.apply("flip 2,2")
    assert g.realm(0).top((2, 2)) == DOWN and g.vp_tokens(0) == 2  # a flip scores nothing
    # Wind ends by itself (no Shrine to move): back to the first pick (ACTION).
    assert g.phase.name == "ACTION" and g.current_player == 0
    assert "spirit wind shrine" not in texts(g)
    assert_illegal(dc, g, "spirit wind shrine")
    b.place_single((3, 3))
    assert g.current_player == 1  # no SPIRITS, no END_TURN: Wind was used this turn
    b.opponent_discards()
    assert "spirit wind shrine" in texts(g)


def test_spirits_opens_after_place_discard_and_summon(dc):
    """R-SPIRIT-2, docs/cards.md: phase SPIRITS comes after every Action (after the
    last place, after discard, after summon) when an activation is legal (here Wind,
    paid with a Shrine); ``done`` goes on to the Consolidation step. When that step
    Consolidates no set (a lone tile, a Discard, a Summon) the turn passes to the next
    player at once: END_TURN would offer the very position SPIRITS just did. When it
    makes a set (a fourth Merchant) and Wind is still legal after its Shrine step (the
    Shrine just built may move), the turn waits in END_TURN, where ``done`` ends it.
    On this flat castle only the ends of a row are Available (R-AVAIL-1), and Summon
    is allowed at once (R-ACT-5)."""
    row = {(0, 0, 1): "Me1", (0, 1, 1): "So1", (0, 2, 1): "Me2", (0, 3, 1): "Me3", (0, 4, 1): "Me4"}
    g = game(dc, FLAT, row, spirits=["wind"])
    fillers = iter(f"take 9,{c}" for c in range(7, -1, -1))

    def spirits_then_done(payers=()):
        """SPIRITS: Wind paid with a Shrine or a tile of ``payers`` (the only tile
        paying would leave nothing to flip); ``done`` Consolidates no set: the turn
        passes at once."""
        assert g.phase.name == "SPIRITS" and g.current_player == 0
        assert texts(g) == ["done"] + cell_texts("spirit wind", payers) + ["spirit wind shrine"]
        g.apply("done")
        assert g.current_player == 1 and g.phase.name == "ACTION"
        # Seat 1: empty Realm, nothing to activate: the turn ends by itself.
        g.apply(next(fillers))
        g.apply("discard")
        assert g.current_player == 0 and g.phase.name == "ACTION"

    g.apply("take 0,0")
    g.apply("take-shrine")
    g.apply("place 0,0")
    spirits_then_done()
    g.apply("take 0,1")
    g.apply("discard")
    assert g.vp_tokens(0) == 1
    spirits_then_done()
    g.apply("summon")
    assert g.countdown_tokens(0) == 1
    spirits_then_done()
    for pick, cell, payers in (("0,2", "0,1", [(0, 0), (0, 1)]), ("0,3", "0,2", [(0, 0), (0, 1), (0, 2)])):
        g.apply(f"take {pick}")
        g.apply("take-shrine")
        g.apply(f"place {cell}")
        spirits_then_done(payers)
    assert g.vp_tokens(0) == 1 and g.shrine_pool(0) == 4
    g.apply("take 0,4")
    g.apply("take-shrine")
    g.apply("place 0,3")
    # Four Merchants face up: now every one of them may pay for Wind too.
    assert g.phase.name == "SPIRITS" and texts(g)[0] == "done" and "spirit wind shrine" in texts(g)
    g.apply("done")
    merchants = [(0, 0), (0, 1), (0, 2), (0, 3)]
    assert g.vp_tokens(0) == 1 + 2 and all(g.realm(0).top(c) == DOWN for c in merchants)
    # No Shrine built yet: nothing for Wind to flip or move.
    assert g.phase.name == "SHRINE" and texts(g) == cell_texts("shrine", merchants) + ["done"]
    g.apply("shrine 0,0")
    assert g.phase.name == "END_TURN" and g.current_player == 0
    assert texts(g) == ["done", "spirit wind shrine"]
    g.apply("done")
    assert g.current_player == 1 and g.phase.name == "ACTION"


def test_pick_cards_open_nothing_after_the_action(dc):
    """R-SPIRIT-2: Elegance, Deep and Deception need a pick still to come, so with
    only them in play nothing is offered after the placement: the turn ends by itself,
    exactly as in the base game."""
    b = Sandbox(dc, ["Me1"], spirits=["deep", "elegance", "deception"])
    g = b.g
    b.place_single((0, 0))
    assert g.current_player == 1 and g.phase.name == "ACTION"


def test_destruction_is_offered_after_the_placement(dc):
    """R-SPIRIT-2 (any decision point of the turn; replaces the withdrawn four-window
    rule, under which Destruction was not offered after the placements): with
    Destruction in play, SPIRITS opens after the placement with ``done`` and
    Destruction (paid with a placed tile or a Shrine). ``done`` after a lone tile
    Consolidates no set: the turn passes at once (END_TURN would offer the same
    position). ``done`` after a fourth Merchant Consolidates a set: its Shrine step,
    then END_TURN with ``done`` and Destruction (now paid only with a Shrine: every
    tile is face down); ``done`` there ends the turn."""
    b = Sandbox(dc, ["Me1", "Me2", "Me3", "Me4"], spirits=["destruction", "deep", "elegance", "deception"])
    g = b.g
    b.place_single((0, 0))
    assert g.current_player == 0 and g.phase.name == "SPIRITS"
    assert texts(g) == ["done", "spirit destruction 0,0", "spirit destruction shrine"]
    g.apply("done")
    assert g.current_player == 1 and g.phase.name == "ACTION" and g.vp_tokens(0) == 0
    b.opponent_discards()
    b.single((0, 1))
    b.single((0, 2))
    b.place_single((0, 3))
    row = [(0, 0), (0, 1), (0, 2), (0, 3)]
    assert g.current_player == 0 and g.phase.name == "SPIRITS"
    assert texts(g) == ["done"] + cell_texts("spirit destruction", row) + ["spirit destruction shrine"]
    g.apply("done")
    assert g.vp_tokens(0) == 2 and g.phase.name == "SHRINE"
    assert texts(g) == cell_texts("shrine", row) + ["done", "spirit destruction shrine"]
    g.apply("shrine 0,1")
    assert g.current_player == 0 and g.phase.name == "END_TURN"
    assert texts(g) == ["done", "spirit destruction shrine"]
    g.apply("done")
    assert g.current_player == 1 and g.phase.name == "ACTION"


def test_decision_points_of_every_spirit(dc):
    """R-SPIRIT-2 (any decision point of your turn), docs/cards.md "Spirits:
    activation": with all ten Spirits in play, every decision point offers exactly the
    cards whose effect can apply after paying: before the Action (ACTION), between the
    picks (COMPLETE, the only place for Deception and Deep), before the placement
    (PLACE), after it (SPIRITS), during the Shrine step (SHRINE) and after it
    (END_TURN). Under the withdrawn four-window rule Beauty and Cunning were not
    offered before the Action and nothing was offered while placing: both are offered
    now. After a Spirit and its Shrine step, SPIRITS opens again (R-SPIRIT-1: minus
    the card used). END_TURN follows the Consolidation step only when that step makes
    a set: after a Spirit in SPIRITS has already Consolidated every group, ``done``
    makes none and the turn passes at once."""
    b = Sandbox(dc, ["Me2", "So2", "Fa2", "Me2", "Dr1", "Dr2", "Dr3", "Se2", "Se4", "Se2", "Se1", "Se3"],
                spirits=10)
    # Row 1: Me2 So2 Fa2 Me2 (a same-number group for Beauty); row 3: three Dragons
    # (Cunning); row 0: Seasons on (0,0) (0,1) (0,3), a gap on (0,2) for the fourth.
    for cell in [(1, 0), (1, 1), (1, 2), (1, 3), (3, 0), (3, 1), (3, 2), (0, 0), (0, 1), (0, 3)]:
        b.single(cell)
    g = b.g
    assert g.spirits == dc.SPIRITS
    # ACTION: every top tile is Available in the sandbox, so Elegance has no pick; no
    # set of this turn and no group of 4 of one type for Faith; no Special tile that
    # completes a set for Change (a Season turned Merchant, Soldier or Farmer would
    # join a group of 2); the Seasons are a group of 2 and a lone tile, not 3.
    always = {"beauty", "wind", "strength", "destruction", "cunning"}
    assert g.phase.name == "ACTION" and offered_cards(g) == always
    assert b.take() == "take 1,8"  # Se1; Se3 is Available on (1,10)
    assert g.phase.name == "COMPLETE"
    # COMPLETE: also Deception (the tile revealed under the first) and Deep (Se3).
    assert offered_cards(g) == always | {"deception", "deep"}
    # A pending pick comes next: after Deception or Deep, only the pick is offered.
    for card in ("deception", "deep"):
        pending = g.clone()
        pending.apply(f"spirit {card} shrine")
        assert pending.phase.name == "COMPLETE"
        assert texts(pending) and all(t.startswith("take ") for t in texts(pending))
        assert_illegal(dc, pending, "spirit destruction shrine", "take-shrine", "discard")
    g.apply("take-shrine")
    assert g.phase.name == "PLACE" and offered_cards(g) == always
    g.apply("place 0,2")
    # SPIRITS: the four Seasons wait for the Consolidation step, so Faith is offered
    # too; a Season cannot be Changed (that would prevent their set); Deception, Deep
    # and Elegance have no pick left.
    seasons = {(0, 0), (0, 1), (0, 2), (0, 3)}
    dragons = {(3, 0), (3, 1), (3, 2)}
    assert g.phase.name == "SPIRITS" and g.vp_tokens(0) == 0
    assert offered_cards(g) == always | {"faith"}
    assert "done" in texts(g)

    h = g.clone()
    h.apply("spirit cunning shrine")
    assert h.phase.name == "SET" and texts(h) == ["set 3,0"]
    h.apply("set 3,0")
    # R-CONS-3: 2 + 1 for the Dragons; after the placements every group of 4 is
    # Consolidated with the Spirit's set: the Seasons too (2 VP).
    assert h.vp_tokens(0) == 3 + 2 and all(h.realm(0).top(c) == DOWN for c in seasons | dragons)
    assert h.phase.name == "SHRINE"
    # SHRINE: Faith (a set of this turn without a Shrine).
    assert offered_cards(h) == (always - {"cunning"}) | {"faith"}
    assert cells_of(h, "SHRINE") == dragons | seasons
    h.apply("done")
    assert h.phase.name == "SPIRITS" and h.current_player == 0
    # Faith could still add a Shrine on a set of this turn.
    assert offered_cards(h) == (always - {"cunning"}) | {"faith"}
    h.apply("done")
    # The Consolidation step finds no group left: no set, so no END_TURN.
    assert h.current_player == 1 and h.phase.name == "ACTION" and h.vp_tokens(0) == 5

    g.apply("done")
    assert g.vp_tokens(0) == 2 and all(g.realm(0).top(c) == DOWN for c in seasons)
    assert g.phase.name == "SHRINE" and cells_of(g, "SHRINE") == seasons
    assert offered_cards(g) == always | {"faith"}
    g.apply("done")
    assert g.phase.name == "END_TURN" and g.current_player == 0
    assert offered_cards(g) == always | {"faith"}
    assert [t for t in texts(g) if not t.startswith("spirit ")] == ["done"]
    g.apply("done")
    assert g.current_player == 1 and g.vp_tokens(0) == 2
    assert g.realm(0).top((1, 0)) == up(dc, "Me2")  # Beauty is never forced


# ---------------------------------------------------------------- Destruction

# Only (0,0) has a second floor: the top floor is 2; Summon needs it gone.
ONE_HIGH = "2...........\n" + "111111111111\n" * 9 + "111111......\n"


def test_destruction_frees_the_ground_floor_and_allows_summon(dc):
    """R-SPIRIT-2 Destruction, R-ACT-5, rulebook FAQ: discarding the last tile of a
    floor gives access to the floor below, and if only the ground floor is left,
    Summon is allowed on this very turn. Any Available tile (any floor) may be
    discarded; it leaves the game."""
    g = game(dc, ONE_HIGH, {(0, 0, 1): "Dr3", (0, 0, 2): "Wi2"}, spirits=["destruction"])
    assert g.top_floor == 2
    assert texts(g) == ["take 0,0", "spirit destruction shrine"]
    assert_illegal(dc, g, "summon", "take 1,0", "destroy 0,0")
    general = g.general_shrines
    g.apply("spirit destruction shrine")
    assert g.shrine_pool(0) == 0 and g.general_shrines == general + 1
    assert g.phase.name == "DESTROY"
    available = [(0, 0)] + [(r, c) for r in range(1, 10) for c in (0, 11)] + [(10, 0), (10, 5)]
    assert texts(g) == [f"destroy {r},{c}" for r, c in sorted(available)]
    assert_illegal(dc, g, "destroy 1,1", "destroy 0,1", "take 0,0", "done")
    tiles = g.castle_tiles
    g.apply("destroy 0,0")
    assert g.castle_tiles == tiles - 1 and g.castle_height((0, 0)) == 1 and g.castle_top((0, 0)) == dc.Tile("Dr3")
    assert g.vp_tokens(0) == 0 and g.held_tiles == []
    assert g.phase.name == "ACTION" and g.current_player == 0 and g.top_floor == 1
    legal = texts(g)
    assert "summon" in legal and "take 0,0" in legal and "take 1,0" in legal
    assert not any(t.startswith("spirit ") for t in legal)  # used this turn
    g.apply("summon")
    assert g.countdown_tokens(0) == 1 and g.current_player == 1


# Row 0 is 2-2-2: its middle tile is blocked. Rows below are ground floor.
TWO_TWO_TWO = "222.........\n" + "111111111111\n" * 9 + "11..........\n"


def test_destruction_gives_access_to_a_previously_unavailable_tile(dc):
    """R-SPIRIT-2 Destruction (before the Action, ACTION), R-AVAIL-1, rulebook FAQ: discard a tile to
    gain access to a tile that was not Available."""
    g = game(dc, TWO_TWO_TWO, {}, spirits=["destruction"])
    assert not g.is_available((0, 1))
    assert_illegal(dc, g, "take 0,1")
    g.apply("spirit destruction shrine")
    g.apply("destroy 0,0")
    assert g.phase.name == "ACTION" and g.is_available((0, 1))
    assert "take 0,1" in texts(g)
    g.apply("take 0,1")
    assert g.phase.name == "COMPLETE"


def test_destruction_between_the_picks_frees_the_second_tile(dc):
    """R-SPIRIT-2 Destruction (between the picks, COMPLETE): after the first pick, discard a castle tile
    so that an identical tile becomes Available; play returns to the completion."""
    fixed = {(0, 2, 2): "Se1", (2, 1, 1): "Se1", (0, 0, 1): "Se1", (0, 1, 1): "Se1"}
    g = game(dc, TWO_TWO_TWO, fixed, spirits=["destruction"])
    g.apply("take 0,2")
    assert texts(g) == ["take-shrine", "discard", "spirit destruction shrine"]
    g.apply("spirit destruction shrine")
    assert g.phase.name == "DESTROY"
    assert "destroy 2,0" in texts(g) and "destroy 2,1" not in texts(g)
    g.apply("destroy 2,0")
    assert g.phase.name == "COMPLETE"
    assert texts(g) == ["take 2,1", "take-shrine", "discard"]
    g.apply("take 2,1")
    assert g.phase.name == "PLACE" and g.held_tiles == [dc.Tile("Se1"), dc.Tile("Se1")]


# ---------------------------------------------------------------- Elegance

# Three 2-2-2 rows (rows 1-3, columns 0-2) under a 1-1-1 row: the middle column is
# blocked on its long sides; (1,1) has a free north side, (3,1) a free south side.
ELEGANCE = "111.........\n" + "222.........\n" * 3 + "111111111111\n" * 7 + "11111111111.\n"


def test_elegance_second_tile_freed_by_the_first_with_one_short_side(dc):
    """R-SPIRIT-2 Elegance (before the Action, ACTION), R-AVAIL-3, rulebook FAQ: the first pick must use
    the card (top floor, not Available, a free short side); then the second tile may
    be one the first pick freed, still with only its short side free."""
    fixed = {(1, 1, 2): "Dr1", (2, 1, 2): "Dr1", (1, 0, 1): "Dr1", (1, 2, 1): "Dr1", (3, 1, 2): "Wi3"}
    g = game(dc, ELEGANCE, fixed, spirits=["elegance"])
    assert {a.space for a in g.legal_actions() if a.kind.name == "TAKE"} == {(1, 0), (1, 2), (2, 0), (2, 2), (3, 0), (3, 2)}
    assert_illegal(dc, g, "take 1,1")
    assert spirit_texts(g) == ["spirit elegance shrine"]
    g.apply("spirit elegance shrine")
    assert g.phase.name == "ACTION"
    # The pending pick: only top-floor tiles that are not Available and have a free
    # short side ((0,1) has one too, but is on floor 1).
    assert texts(g) == ["take 1,1", "take 3,1"]
    assert_illegal(dc, g, "take 1,0", "take 0,1", "take 2,1")
    g.apply("take 1,1")
    assert g.phase.name == "COMPLETE"
    assert not g.is_available((2, 1))
    assert texts(g) == ["take 2,1", "take-shrine", "discard"]
    g.apply("take 2,1")
    assert g.phase.name == "PLACE" and g.held_tiles == [dc.Tile("Dr1"), dc.Tile("Dr1")]


def test_elegance_between_the_picks_forces_the_second_pick(dc):
    """R-SPIRIT-2 Elegance (between the picks, COMPLETE): after a normal first pick, the next pick must be
    an identical tile that is not Available and has a free short side."""
    fixed = {(1, 0, 2): "Se2", (3, 1, 2): "Se2", (2, 0, 1): "Se2", (2, 2, 1): "Se2"}
    g = game(dc, ELEGANCE, fixed, spirits=["elegance"])
    g.apply("take 1,0")
    assert texts(g) == ["take-shrine", "discard", "spirit elegance shrine"]
    g.apply("spirit elegance shrine")
    assert g.phase.name == "COMPLETE" and texts(g) == ["take 3,1"]
    assert_illegal(dc, g, "take-shrine", "discard")
    g.apply("take 3,1")
    assert g.phase.name == "PLACE" and g.held_tiles == [dc.Tile("Se2"), dc.Tile("Se2")]


def test_elegance_not_offered_without_a_pick(dc):
    """R-SPIRIT-1/2: Elegance is offered only when a pick with a free short side (and
    not Available) exists; in the sandbox every top tile is Available."""
    b = Sandbox(dc, ["Me1", "Me1"], spirits=["elegance"])
    g = b.g
    assert spirit_texts(g) == []
    b.take()
    assert "spirit elegance shrine" not in texts(g)
    assert_illegal(dc, g, "spirit elegance shrine")


# ---------------------------------------------------------------- Deception

# Row 0: 2-2-2; row 1: 2-2-1. The first pick (1,1) is Available (east side free).
DECEPTION = "222.........\n221.........\n" + "111111111111\n" * 8 + "111111111...\n"


def test_deception_takes_a_touching_tile_not_identical_nor_available(dc):
    """R-SPIRIT-2 Deception: the second tile of a Pair is the top tile of a north,
    south, west or east neighbour on the first tile's floor, or the tile revealed
    under it; neither identical nor Available is required."""
    fixed = {(1, 1, 2): "Me1", (0, 0, 1): "Me1", (0, 1, 1): "Me1", (0, 2, 1): "Me1",
             (0, 1, 2): "So5", (1, 0, 2): "Fa6", (1, 1, 1): "Wi2"}
    g = game(dc, DECEPTION, fixed, spirits=["deception"])
    assert spirit_texts(g) == []  # between the picks (COMPLETE) only
    g.apply("take 1,1")
    assert texts(g) == ["take-shrine", "discard", "spirit deception shrine"]
    g.apply("spirit deception shrine")
    assert g.phase.name == "COMPLETE"
    assert not g.is_available((0, 1))
    assert texts(g) == ["take 0,1", "take 1,0", "take 1,1"]
    # (0,0) is diagonal, (1,2) is on floor 1; the action must be the pick.
    assert_illegal(dc, g, "take 0,0", "take 1,2", "take 0,2", "take-shrine", "discard")
    revealed = g.clone()
    g.apply("take 0,1")
    assert g.phase.name == "PLACE" and g.held_tiles == [dc.Tile("Me1"), dc.Tile("So5")]
    revealed.apply("take 1,1")
    assert revealed.held_tiles == [dc.Tile("Me1"), dc.Tile("Wi2")]


def test_deception_needs_room_for_two_after_paying(dc):
    """R-SPIRIT-1, R-PLACE-2: with one free cell, Deception is offered only when paid
    with a tile alone on its cell (paying frees a second cell), never with a Shrine."""
    codes = ["Me1" if (r + c) % 2 == 0 else "So1" for r, c in ALL_CELLS]
    codes = [c if i < 8 else c.replace("1", "2") for i, c in enumerate(codes)]  # 4 copies of each
    b = Sandbox(dc, codes[:15] + ["Se1"], spirits=["deception"])
    for cell in ALL_CELLS[:15]:
        b.single(cell)
    g = b.g
    assert g.realm(0).placeable() == [(3, 3)] and g.shrine_pool(0) == 16
    assert b.take() == "take 2,6"
    assert spirit_texts(g) == cell_texts("spirit deception", ALL_CELLS[:15])
    assert_illegal(dc, g, "spirit deception shrine")
    g.apply("spirit deception 0,0")
    assert g.realm(0).top((0, 0)) is None
    # The revealed tile, and the untouched stack south of (2,6); (1,6) was taken.
    assert texts(g) == ["take 2,6", "take 3,6"]
    g.apply("take 2,6")
    assert sorted(cells_of(g, "PLACE")) == [(0, 0), (3, 3)]


# ---------------------------------------------------------------- Deep

def deep_game(dc):
    tops = ["Dr1", "Dr2", "Dr1", "Wi1"]
    # Every other Dragon tile is covered, far from seat 0's picks.
    rest = ["Dr1", "Dr1", "Dr2", "Dr2", "Dr2", "Dr3", "Dr3", "Dr3", "Dr3"]
    return Sandbox(dc, tops, bottoms={0: "Me1", **{10 + i: code for i, code in enumerate(rest)}}, spirits=["deep"])


def test_deep_takes_a_tile_of_the_same_type_even_identical(dc):
    """R-SPIRIT-2 Deep, rulebook FAQ: the second tile is an Available tile of the
    first tile's type; an identical one is allowed; the pick comes next."""
    b = deep_game(dc)
    g = b.g
    assert spirit_texts(g) == []  # between the picks (COMPLETE) only
    g.apply("take 0,0")  # Dr1
    assert texts(g) == ["take 0,4", "take-shrine", "discard", "spirit deep shrine"]
    g.apply("spirit deep shrine")
    assert g.phase.name == "COMPLETE"
    assert texts(g) == ["take 0,2", "take 0,4"]  # Dr2 and Dr1; not the Wind, not the revealed Me1
    assert_illegal(dc, g, "take 0,6", "take 0,0", "take-shrine", "discard")
    other = g.clone()
    g.apply("take 0,4")  # the identical tile (FAQ)
    assert g.phase.name == "PLACE" and g.held_tiles == [dc.Tile("Dr1"), dc.Tile("Dr1")]
    other.apply("take 0,2")
    assert other.held_tiles == [dc.Tile("Dr1"), dc.Tile("Dr2")]


def test_observation_shows_the_cards(dc):
    """docs/cards.md "Observation additions": cards in play and used, Elegance, the
    second-pick mode, each Realm's Dragon points; and the matching tensor planes."""
    fixed = {(1, 1, 2): "Dr1", (2, 1, 2): "Dr1", (1, 0, 1): "Dr1", (1, 2, 1): "Dr1"}
    g = game(dc, ELEGANCE, fixed, spirits=["deep", "elegance"], dragons=["knowledge"])
    obs = g.observation(0)
    assert obs["spirits"] == ["elegance", "deep"] and obs["dragons"] == ["knowledge"]
    assert obs["spirits_used"] == [] and obs["elegance"] is False and obs["faith_extra"] == 0
    assert obs["second_pick"] == "IDENTICAL"
    assert [r["dragons"] for r in obs["realms"]] == [{"knowledge": 0}, {"knowledge": 0}]
    t = g.observation_tensor(0)
    assert t.shape == (304, 12, 12) == dc.observation_shape(3) and dc.OBSERVATION_VERSION == 3
    assert (t[302] == 0).all()  # not in END_TURN
    assert [int(t[261 + k].max()) for k in range(10)] == [int(name in ("elegance", "deep")) for name in dc.SPIRITS]
    assert [int(t[281 + k].max()) for k in range(10)] == [int(name == "knowledge") for name in dc.DRAGONS]
    assert (t[271:281] == 0).all() and (t[291:296] == 0).all()
    g.apply("spirit elegance shrine")
    obs, t = g.observation(0), g.observation_tensor(0)
    assert obs["spirits_used"] == ["elegance"] and obs["elegance"] is True
    assert (t[271 + 1] == 1).all() and (t[291] == 1).all() and (t[292] == 1).all()  # active, pick pending
    g.apply("take 1,1")
    t = g.observation_tensor(0)
    assert (t[292] == 0).all() and t[298, 1, 1] == 1 and t[298].sum() == 1
    g.apply("take 2,1")
    g.apply("place 0,0")
    g.apply("place 0,1")
    assert g.observation(1)["realms"][0]["dragons"] == {"knowledge": 2}


def test_observation_second_pick_modes(dc):
    """docs/cards.md "Observation additions": ``second_pick`` is DEEP or DECEPTION while
    that card's pick is pending (tensor planes 294 and 293)."""
    for card, plane in (("deep", 294), ("deception", 293)):
        b = deep_game(dc) if card == "deep" else Sandbox(dc, ["Dr1"], spirits=["deception"])
        g = b.g
        g.apply("take 0,0")
        g.apply(f"spirit {card} shrine")
        assert g.observation(0)["second_pick"] == card.upper()
        assert g.observation(0)["spirits_used"] == [card]
        assert (g.observation_tensor(0)[plane] == 1).all()


# ---------------------------------------------------------------- Strength

def strength_position(dc, spirits=("strength",)):
    """Winds consolidated on row 0 with a Shrine on (0,0); Me1 face up on (1,0);
    Shrine Pool 5; seat 0 at its first pick."""
    b = Sandbox(dc, ["Wi1", "Wi2", "Wi3", "Wi4", "Me1"], spirits=list(spirits))
    for cell in [(0, 0), (0, 1), (0, 2)]:
        b.single(cell)
    b.single((0, 3), shrines=[(0, 0)])
    b.single((1, 0))
    assert b.g.shrine_pool(0) == 5 and b.g.realm(0).has_shrine((0, 0))
    return b


EMPTY_AFTER_STRENGTH_SETUP = [c for c in ALL_CELLS if c[0] >= 1 and c != (1, 0)]


def test_strength_moves_onto_empty_cells_never_with_or_onto_a_shrine_or_face_up(dc):
    """R-SPIRIT-2 Strength, rulebook FAQ: a tile may move onto an empty space; a tile
    with a Shrine never moves; nothing moves onto a Shrine or a face-up tile (the
    second tile goes on the first only if the first is face down); moved tiles keep
    their side; at least one move; the second move cannot lift the tile just moved."""
    b = strength_position(dc)
    g = b.g
    assert spirit_texts(g) == ["spirit strength 1,0", "spirit strength shrine"]
    g.apply("spirit strength shrine")
    assert g.phase.name == "STRENGTH"
    assert texts(g) == ["move-from 0,1", "move-from 0,2", "move-from 0,3", "move-from 1,0"]
    assert_illegal(dc, g, "move-from 0,0", "move-from 2,2", "done", "move-to 2,2")
    g.apply("move-from 1,0")
    assert g.phase.name == "STRENGTH_TO"
    assert texts(g) == cell_texts("move-to", [(0, 1), (0, 2), (0, 3)] + EMPTY_AFTER_STRENGTH_SETUP)
    assert_illegal(dc, g, "move-to 0,0", "move-to 1,0", "done")
    g.apply("move-to 2,2")  # onto an empty space (FAQ)
    realm0 = g.realm(0)
    assert realm0.top((2, 2)) == up(dc, "Me1") and realm0.top((1, 0)) is None
    assert g.phase.name == "STRENGTH"
    assert texts(g) == ["done", "move-from 0,1", "move-from 0,2", "move-from 0,3"]
    assert_illegal(dc, g, "move-from 2,2")
    g.apply("move-from 0,3")
    legal = texts(g)
    assert "move-to 2,2" not in legal and "move-to 0,0" not in legal and "move-to 0,3" not in legal
    assert_illegal(dc, g, "move-to 2,2")  # the first tile is face up (FAQ)
    g.apply("move-to 0,1")  # onto a face-down tile without a Shrine
    realm0 = g.realm(0)
    assert realm0.height((0, 1)) == 2 and realm0.top((0, 1)) == DOWN and realm0.top((0, 3)) is None
    assert g.phase.name == "ACTION" and g.current_player == 0  # two moves: the card is over
    assert spirit_texts(g) == []


def test_strength_second_tile_on_the_first_when_face_down(dc):
    """R-SPIRIT-2 Strength, rulebook FAQ: the second tile may go on top of the first
    one moved when that one is face down."""
    b = strength_position(dc)
    g = b.g
    g.apply("spirit strength 1,0")  # paying with the face-up Me1
    assert g.realm(0).top((1, 0)) is None
    assert texts(g) == ["move-from 0,1", "move-from 0,2", "move-from 0,3"]
    g.apply("move-from 0,2")
    g.apply("move-to 2,2")
    assert g.realm(0).top((2, 2)) == DOWN  # keeps its side
    g.apply("move-from 0,3")
    assert "move-to 2,2" in texts(g)
    g.apply("move-to 2,2")
    assert g.realm(0).height((2, 2)) == 2 and g.realm(0).top((2, 2)) == DOWN
    assert g.phase.name == "ACTION"


def farmers_position(dc, spirits=("strength",), more=(), later=()):
    """Fa1 Fa2 Fa3 face up on (2,0) (2,1) (2,2), Fa4 on (3,3), then the ``more``
    (code, cell) singles; ``later`` are the next top tiles, not taken yet."""
    b = Sandbox(dc, ["Fa1", "Fa2", "Fa3", "Fa4"] + [code for code, _ in more] + list(later), spirits=list(spirits))
    for cell in [(2, 0), (2, 1), (2, 2), (3, 3)] + [cell for _, cell in more]:
        b.single(cell)
    return b


def test_strength_sets_are_consolidated_after_the_moves(dc):
    """R-SPIRIT-2 Strength, R-CONS-1, docs/cards.md: sets are checked only when the
    card is over (after `done` or the second move), then Consolidated with their Shrine
    step, and play resumes at the first pick (ACTION, where it was activated)."""
    b = farmers_position(dc)
    g = b.g
    g.apply("spirit strength shrine")
    g.apply("move-from 3,3")
    g.apply("move-to 2,3")
    # Four Farmers in a row, not yet Consolidated.
    assert g.phase.name == "STRENGTH" and g.realm(0).top((2, 3)) == up(dc, "Fa4") and g.vp_tokens(0) == 0
    broken = g.clone()
    g.apply("done")
    assert g.vp_tokens(0) == 2
    assert all(g.realm(0).top((2, c)) == DOWN for c in range(4))
    assert g.phase.name == "SHRINE" and cells_of(g, "SHRINE") == {(2, 0), (2, 1), (2, 2), (2, 3)}
    g.apply("shrine 2,3")
    assert g.phase.name == "ACTION" and g.current_player == 0
    b.take()
    g.apply("discard")
    assert g.current_player == 1
    # The second move breaks the group again before any check: no set.
    broken.apply("move-from 2,0")
    broken.apply("move-to 0,0")
    assert broken.vp_tokens(0) == 0 and broken.phase.name == "ACTION"
    assert broken.realm(0).top((2, 3)) == up(dc, "Fa4") and broken.realm(0).top((0, 0)) == up(dc, "Fa1")


def test_strength_after_the_placement(dc):
    """R-SPIRIT-2 Strength (after the placements, SPIRITS): after the placement, a move completes a set; it
    is Consolidated when the card is over, and the turn ends after its Shrines."""
    b = farmers_position(dc)
    g = b.g
    b.place_single((0, 0))
    assert g.phase.name == "SPIRITS" and "spirit strength shrine" in texts(g)
    g.apply("spirit strength shrine")
    g.apply("move-from 3,3")
    g.apply("move-to 2,3")
    g.apply("done")
    assert g.vp_tokens(0) == 2 and g.phase.name == "SHRINE"
    g.apply("done")
    assert g.current_player == 1  # no activation left (Strength was used): no END_TURN


# ---------------------------------------------------------------- Wind

def test_wind_moves_a_shrine_onto_the_tile_it_flipped(dc):
    """R-SPIRIT-2 Wind, rulebook FAQ: flip a face-up tile (no VP), then move a Shrine
    you built onto another face-down top tile without a Shrine, the flipped tile
    included, never back on its own cell. Before anything happened `done` is not
    offered; after the flip it skips the move."""
    b = Sandbox(dc, ["Wi1", "Wi2", "Wi3", "Wi4", "Me1"], spirits=["wind"])
    for cell in [(0, 0), (0, 1), (0, 2)]:
        b.single(cell)
    b.single((0, 3), shrines=[(0, 0)])
    b.single((2, 0))
    g = b.g
    assert g.shrine_pool(0) == 5 and g.vp_tokens(0) == 2
    # Paying with Me1 leaves no face-up tile, but the Shrine can still move.
    assert spirit_texts(g) == ["spirit wind 2,0", "spirit wind shrine"]
    g.apply("spirit wind shrine")
    assert g.phase.name == "WIND" and g.shrine_pool(0) == 4
    assert texts(g) == ["flip 2,0", "shrine-from 0,0"]
    assert_illegal(dc, g, "done", "flip 0,1", "shrine-from 0,1", "take 0,0")
    skip = g.clone()
    g.apply("flip 2,0")
    assert g.realm(0).top((2, 0)) == DOWN and g.vp_tokens(0) == 2
    assert g.phase.name == "WIND" and texts(g) == ["done", "shrine-from 0,0"]
    g.apply("shrine-from 0,0")
    assert g.phase.name == "WIND_TO"
    assert texts(g) == ["shrine-to 0,1", "shrine-to 0,2", "shrine-to 0,3", "shrine-to 2,0"]
    assert_illegal(dc, g, "shrine-to 0,0", "shrine-to 1,1", "done")
    g.apply("shrine-to 2,0")
    assert shrine_cells(g.realm(0)) == {(2, 0)}
    assert g.shrine_pool(0) == 4 and g.score_breakdown(0)["shrines"] == 1
    assert g.phase.name == "ACTION" and g.current_player == 0
    # Only a Shrine move, no flip.
    skip.apply("shrine-from 0,0")
    skip.apply("shrine-to 0,3")
    assert shrine_cells(skip.realm(0)) == {(0, 3)} and skip.realm(0).top((2, 0)) == up(dc, "Me1")
    assert skip.phase.name == "ACTION"


def test_no_shrine_is_built_on_the_flipped_tile(dc):
    """R-SPIRIT-2 Wind (after the placements, SPIRITS), rulebook FAQ: the flipped tile is not Consolidated:
    no Shrine can be built on it, even next to a set Consolidated that turn."""
    b = Sandbox(dc, ["Fa1", "Fa2", "Fa3", "Me1", "Fa4"], spirits=["wind"])
    for cell in [(3, 0), (3, 1), (3, 2), (2, 0)]:
        b.single(cell)
    g = b.g
    b.place_single((3, 3))
    assert g.phase.name == "SPIRITS"
    g.apply("spirit wind shrine")
    assert texts(g) == ["flip 2,0", "flip 3,0", "flip 3,1", "flip 3,2", "flip 3,3"]  # no Shrine built yet
    g.apply("flip 2,0")
    # Nothing left to do: Wind ends, the Farmers are Consolidated.
    assert g.vp_tokens(0) == 2 and g.phase.name == "SHRINE"
    assert cells_of(g, "SHRINE") == {(3, 0), (3, 1), (3, 2), (3, 3)}
    assert_illegal(dc, g, "shrine 2,0")


def test_wind_not_offered_when_the_payment_leaves_nothing_to_do(dc):
    """R-SPIRIT-1: with one face-up tile and no Shrine built, paying with that tile
    would leave Wind nothing to do, so only the Shrine payment is offered."""
    b = Sandbox(dc, ["Me1"], spirits=["wind"])
    b.single((0, 0))
    g = b.g
    assert spirit_texts(g) == ["spirit wind shrine"]
    assert_illegal(dc, g, "spirit wind 0,0")


# ---------------------------------------------------------------- Change

def test_change_completes_a_set_as_the_new_type(dc):
    """R-SPIRIT-2 Change: a face-up Special tile treated as another type completes a
    group of 4 of that type through it; the set is scored and gets Shrines as that
    type (1 for Merchants). A payment that breaks the group is not offered."""
    b = Sandbox(dc, ["Me1", "Me2", "Me3", "Wi1"], spirits=["change"])
    for cell in [(1, 0), (1, 1), (1, 3)]:
        b.single(cell)
    g = b.g
    b.place_single((1, 2))
    assert g.phase.name == "SPIRITS"
    assert spirit_texts(g) == ["spirit change shrine"]
    assert_illegal(dc, g, "spirit change 1,2", "spirit change 1,0")
    g.apply("spirit change shrine")
    assert g.phase.name == "CHANGE" and texts(g) == ["change 1,2 merchant"]
    assert_illegal(dc, g, "change 1,2 wind", "change 1,2 soldier", "change 1,1 soldier", "done")
    g.apply("change 1,2 merchant")
    assert g.vp_tokens(0) == 2
    assert all(g.realm(0).top((1, c)) == DOWN for c in range(4))
    assert g.phase.name == "SHRINE" and cells_of(g, "SHRINE") == {(1, 0), (1, 1), (1, 2), (1, 3)}
    g.apply("shrine 1,2")
    assert g.current_player == 1  # a Faction set: one Shrine


def test_change_must_complete_a_set_not_join_one(dc):
    """R-SPIRIT-2 Change ("so that it completes a set"; FAQ: "only if, by doing so, you
    are able to Consolidate a set"): a Wind beside 4 Merchants that are a set already
    cannot be changed into a fifth Merchant. Paying with a Shrine leaves the set whole,
    so that payment is not offered; paying with the far Merchant leaves 3, which the
    Wind then completes (R-SPIRIT-1: judged after paying). Declined, the 4 Merchants
    are Consolidated as usual and the Wind stays face up."""
    b = Sandbox(dc, ["Wi1", "Me1", "Me2", "Me3", "Me4"], spirits=["change"])
    for cell in [(0, 0), (1, 1), (1, 2), (1, 3)]:
        b.single(cell)
    g = b.g
    b.place_single((1, 0))
    assert g.phase.name == "SPIRITS" and spirit_texts(g) == ["spirit change 1,3"]
    assert_illegal(dc, g, "spirit change shrine")
    g.apply("done")
    assert g.phase.name == "SHRINE" and g.vp_tokens(0) == 2
    assert all(g.realm(0).top((1, c)) == DOWN for c in range(4))
    assert g.realm(0).top((0, 0)) == up(dc, "Wi1")


def test_change_into_dragons_gets_the_dragon_bonus_and_two_shrines(dc):
    """R-SPIRIT-2 Change, R-CONS-3, R-SHRINE-1: a Season changed into a Dragon makes a
    Dragon set: 2 + 1 VP and up to 2 Shrines."""
    b = Sandbox(dc, ["Dr1", "Dr2", "Dr3", "Se1"], spirits=["change"])
    for cell in [(0, 0), (0, 1), (0, 2)]:
        b.single(cell)
    g = b.g
    b.place_single((0, 3))
    g.apply("spirit change shrine")
    assert texts(g) == ["change 0,3 dragon"]
    g.apply("change 0,3 dragon")
    assert g.vp_tokens(0) == 3
    g.apply("shrine 0,0")
    assert g.phase.name == "SHRINE"
    g.apply("shrine 0,3")
    assert g.current_player == 1 and shrine_cells(g.realm(0)) == {(0, 0), (0, 3)}


def test_change_cannot_prevent_a_set(dc):
    """R-SPIRIT-2 Change, rulebook FAQ: a Special tile that belongs to a group of 4+ of
    its own type cannot be changed, even if that would make a set of another type:
    here Wi on (2,1) joins two groups of 3 Winds and is flanked by Merchants; Change is
    never offered (no payment takes it out of its group), and the Winds are
    Consolidated."""
    tops = ["Me1", "Me2", "Me3", "Wi1", "Wi2", "Wi3", "Wi1", "Wi2", "Wi3", "Wi4"]
    b = Sandbox(dc, tops, spirits=["change", "wind"])
    for cell in [(0, 1), (1, 1), (3, 1), (0, 0), (1, 0), (2, 0), (0, 2), (1, 2), (2, 2)]:
        b.single(cell)
    g = b.g
    b.take()
    g.apply("take-shrine")
    g.apply("place 2,1")  # 7 Winds; Me (0,1) (1,1) (3,1) + this tile would be 4
    assert g.phase.name == "SPIRITS"
    assert offered_cards(g) == {"wind"}
    assert_illegal(dc, g, "spirit change shrine", "spirit change 2,0")
    g.apply("done")
    assert g.vp_tokens(0) == 6
    assert g.realm(0).top((2, 1)) == DOWN and g.realm(0).top((1, 1)) == up(dc, "Me2")


def test_change_cannot_take_a_tile_out_of_a_set(dc):
    """R-SPIRIT-2 Change, rulebook FAQ: even when its own set would still be
    Consolidated without it, a tile of a group of 4+ of its type cannot be changed to
    leave that set: the changed tile must be part of the set it completes. Here Wi on
    (1,1), in a 2 x 3 block of Winds, sits under three Merchants."""
    tops = ["Me1", "Me2", "Me3", "Wi1", "Wi2", "Wi1", "Wi2", "Wi4", "Wi4"]
    b = Sandbox(dc, tops, spirits=["change", "wind"])
    for cell in [(0, 0), (0, 1), (0, 2), (1, 0), (2, 0), (1, 2), (2, 2)]:
        b.single(cell)
    g = b.g
    b.take()
    b.take()
    g.apply("place 1,1")
    g.apply("place 2,1")  # six Winds
    assert g.phase.name == "SPIRITS" and offered_cards(g) == {"wind"}
    assert_illegal(dc, g, "spirit change shrine", "spirit change 2,0", "spirit change 1,0")
    g.apply("done")
    assert g.vp_tokens(0) == 5  # one set of 6 Winds
    assert g.realm(0).top((1, 1)) == DOWN and g.realm(0).top((0, 1)) == up(dc, "Me2")


def test_change_condition_is_judged_after_paying(dc):
    """R-SPIRIT-1, docs/cards.md "Payment check": Change's condition (the tile is not in
    a group of 4+ of its own type) holds on the Realm after paying. Paying with a Wind
    of the waiting group of 4 leaves 3 Winds, so Wi2 may then complete 4 Merchants;
    paying with a Shrine leaves the Wind group whole, so it is not offered."""
    b = Sandbox(dc, ["Me1", "Me2", "Me3", "Wi1", "Wi2", "Wi3", "Wi4"], spirits=["change"])
    for cell in [(0, 1), (1, 1), (3, 1), (2, 0), (2, 1), (2, 2)]:
        b.single(cell)
    g = b.g
    b.place_single((2, 3))
    assert g.phase.name == "SPIRITS"
    assert spirit_texts(g) == ["spirit change 2,0", "spirit change 2,2", "spirit change 2,3"]
    assert_illegal(dc, g, "spirit change shrine", "spirit change 2,1", "spirit change 0,1")
    g.apply("spirit change 2,3")
    assert g.realm(0).top((2, 3)) is None
    assert texts(g) == ["change 2,1 merchant"]
    g.apply("change 2,1 merchant")
    assert g.vp_tokens(0) == 2
    assert g.realm(0).top((2, 0)) == up(dc, "Wi1") and g.realm(0).top((2, 2)) == up(dc, "Wi3")
    assert cells_of(g, "SHRINE") == {(0, 1), (1, 1), (2, 1), (3, 1)}


def test_change_with_cunning_makes_a_set_of_three(dc):
    """R-SPIRIT-2 Change + Cunning, docs/cards.md ruling: with Cunning in play, a
    changed Special tile may complete a group of exactly 3; Cunning is activated next
    (paid outside the group) and the 3 tiles are a Cunning set of the new type: 2 VP
    +1 for Dragons, 2 Shrines."""
    b = Sandbox(dc, ["Dr1", "Dr2", "Se1"], spirits=["change", "cunning"])
    b.single((0, 0))
    b.single((0, 1))
    g = b.g
    b.place_single((0, 2))
    assert g.phase.name == "SPIRITS" and g.shrine_pool(0) == 4
    assert spirit_texts(g) == ["spirit change shrine"]  # Cunning alone has no group of 3 of one type
    g.apply("spirit change shrine")
    assert texts(g) == ["change 0,2 dragon"]
    g.apply("change 0,2 dragon")
    assert g.phase.name == "CUNNING"
    assert texts(g) == ["spirit cunning shrine"]
    assert_illegal(dc, g, "spirit cunning 0,0", "done")
    g.apply("spirit cunning shrine")
    assert g.vp_tokens(0) == 3 and g.shrine_pool(0) == 2
    assert all(g.realm(0).top((0, c)) == DOWN for c in range(3))
    assert g.phase.name == "SHRINE" and cells_of(g, "SHRINE") == {(0, 0), (0, 1), (0, 2)}
    g.apply("shrine 0,0")
    g.apply("shrine 0,2")
    assert g.current_player == 1


def test_change_needs_a_group_of_four_without_cunning(dc):
    """R-SPIRIT-2 Change: without Cunning a group of 3 through the changed tile is not
    enough: Change is not offered, and neither SPIRITS nor END_TURN opens."""
    b = Sandbox(dc, ["Dr1", "Dr2", "Se1"], spirits=["change"])
    b.single((0, 0))
    b.single((0, 1))
    g = b.g
    b.place_single((0, 2))
    assert g.current_player == 1 and g.vp_tokens(0) == 0


# ---------------------------------------------------------------- Faith

def faith_winds(dc):
    """Wi1-Wi3 on (0,0)-(0,2); seat 0 has just placed Wi4 on (0,3). Shrine Pool 5."""
    b = Sandbox(dc, ["Wi1", "Wi2", "Wi3", "Wi4"], spirits=["faith"])
    for cell in [(0, 0), (0, 1), (0, 2)]:
        b.single(cell)
    g = b.g
    b.place_single((0, 3))
    return b


def test_faith_third_shrine_on_a_special_set_in_the_shrine_step(dc):
    """R-SPIRIT-2 Faith, rulebook FAQ: on a Special set, Faith allows a third Shrine;
    the allowance is used first, and no fourth Shrine follows. Activated during the
    Shrine step (SHRINE) the step goes on; once both allowed Shrines are built the
    Shrine step ends (docs/cards.md: it lasts while a Shrine can be built) and Faith
    is still offered after it (END_TURN), where its Shrine step follows at once."""
    g = faith_winds(dc).g
    assert g.phase.name == "SPIRITS" and spirit_texts(g) == ["spirit faith shrine"]
    g.apply("done")
    assert g.vp_tokens(0) == 2 and g.phase.name == "SHRINE" and g.shrine_pool(0) == 5
    assert texts(g) == cell_texts("shrine", [(0, 0), (0, 1), (0, 2), (0, 3)]) + ["done", "spirit faith shrine"]
    g.apply("shrine 0,0")
    during = g.clone()
    g.apply("shrine 0,1")
    assert g.phase.name == "END_TURN" and texts(g) == ["done", "spirit faith shrine"]
    assert_illegal(dc, g, "shrine 0,2")
    g.apply("spirit faith shrine")
    assert g.shrine_pool(0) == 2 and g.phase.name == "SHRINE"
    assert texts(g) == ["shrine 0,2", "shrine 0,3", "done"]
    g.apply("shrine 0,2")
    assert g.current_player == 1 and g.shrine_pool(0) == 1
    assert shrine_cells(g.realm(0)) == {(0, 0), (0, 1), (0, 2)}
    # During the Shrine step: the step goes on with the allowance's last Shrine,
    # then the extra one, and ends there.
    assert during.phase.name == "SHRINE" and spirit_texts(during) == ["spirit faith shrine"]
    during.apply("spirit faith shrine")
    assert during.phase.name == "SHRINE" and during.shrine_pool(0) == 3
    assert texts(during) == cell_texts("shrine", [(0, 1), (0, 2), (0, 3)]) + ["done"]
    during.apply("shrine 0,1")
    assert during.phase.name == "SHRINE" and texts(during) == ["shrine 0,2", "shrine 0,3", "done"]
    during.apply("shrine 0,3")
    assert during.current_player == 1 and during.shrine_pool(0) == 1
    assert shrine_cells(during.realm(0)) == {(0, 0), (0, 1), (0, 3)}


def test_faith_after_the_placements_before_the_consolidation(dc):
    """R-SPIRIT-2 Faith (after the placements, SPIRITS): activated while a group of 4 waits to be
    Consolidated; the set then takes 2 + 1 Shrines."""
    g = faith_winds(dc).g
    g.apply("spirit faith shrine")
    assert g.vp_tokens(0) == 2 and g.phase.name == "SHRINE" and g.shrine_pool(0) == 4
    for cell in ("0,0", "0,1", "0,3"):
        assert g.current_player == 0
        g.apply(f"shrine {cell}")
    assert g.current_player == 1 and g.shrine_pool(0) == 1
    assert shrine_cells(g.realm(0)) == {(0, 0), (0, 1), (0, 3)}


def test_faith_needs_a_shrine_in_the_pool_after_paying(dc):
    """R-SPIRIT-1: with 1 Shrine in the pool, Faith cannot be paid with it (no Shrine
    would be left to build); paying with a face-up tile outside the set is offered."""
    b = Sandbox(dc, ["Me1", "Me1", "Wi1", "Wi1", "Wi2", "Wi2"], spirits=["faith"])
    b.pair([(3, 0), (3, 3)])
    b.pair([(0, 0), (0, 1)])
    g = b.g
    b.take()
    b.take()
    g.apply("place 0,2")
    g.apply("place 0,3")
    assert g.shrine_pool(0) == 1 and g.phase.name == "SPIRITS"
    assert spirit_texts(g) == ["spirit faith 3,0", "spirit faith 3,3"]
    assert_illegal(dc, g, "spirit faith shrine")
    g.apply("done")
    assert g.phase.name == "SHRINE"
    assert spirit_texts(g) == ["spirit faith 3,0", "spirit faith 3,3"]
    g.apply("spirit faith 3,3")
    assert g.realm(0).top((3, 3)) is None
    g.apply("shrine 0,0")  # the last Shrine of the pool
    assert g.current_player == 1 and g.shrine_pool(0) == 0


def test_faith_not_on_tiles_of_an_earlier_turn_and_on_any_set_of_this_turn(dc):
    """R-SPIRIT-2 Faith, R-SHRINE-1, rulebook FAQ: the extra Shrine never goes on tiles
    Consolidated in an earlier turn; with several sets this turn it may go on any tile
    of any of them (each set's own allowance stays on its own tiles)."""
    tops = ["Se1", "Se2", "Se3", "Se4", "Me1", "Me2", "Me3", "Me4", "Me5", "Me1", "Me6", "Me6"]
    b = Sandbox(dc, tops, spirits=["faith"])
    for cell in [(1, 1), (1, 2), (2, 1), (2, 2)]:
        b.single(cell, shrines=None)  # an earlier set, no Shrine
    set_a = [(0, 0), (0, 1), (0, 2)]
    set_b = [(3, 1), (3, 2), (3, 3)]
    for cell in set_a + set_b:
        b.single(cell)
    g = b.g
    assert g.vp_tokens(0) == 2 and g.shrine_pool(0) == 11
    b.take()
    b.take()
    g.apply("place 1,0")
    g.apply("place 2,3")
    assert g.phase.name == "SPIRITS"
    g.apply("spirit faith shrine")
    assert g.vp_tokens(0) == 6 and g.phase.name == "SHRINE"
    set_a, set_b = set(set_a) | {(1, 0)}, set(set_b) | {(2, 3)}
    assert cells_of(g, "SHRINE") == set_a | set_b
    assert_illegal(dc, g, "shrine 1,1", "shrine 2,2")
    g.apply("shrine 0,0")  # set A's own Shrine
    assert cells_of(g, "SHRINE") == (set_a | set_b) - {(0, 0)}
    g.apply("shrine 0,1")  # Faith's extra, on set A
    assert cells_of(g, "SHRINE") == set_b
    g.apply("shrine 3,3")
    assert g.current_player == 1
    assert shrine_cells(g.realm(0)) == {(0, 0), (0, 1), (3, 3)}


def test_faith_extra_on_a_set_of_an_earlier_shrine_step_of_this_turn(dc):
    """R-SPIRIT-2 Faith, docs/cards.md "Shrine steps": a later Shrine step serves only
    its own new sets plus Faith's extra, which may go on any set Consolidated this turn
    (here a set made by Strength at the start of the turn)."""
    b = farmers_position(dc, spirits=("strength", "faith"), more=[("Me1", (0, 0)), ("Me2", (0, 1)), ("Me3", (0, 2))],
                         later=["Me4"])
    g = b.g
    g.apply("spirit strength shrine")
    g.apply("move-from 3,3")
    g.apply("move-to 2,3")
    g.apply("done")
    farmers = {(2, 0), (2, 1), (2, 2), (2, 3)}
    assert g.vp_tokens(0) == 2 and g.phase.name == "SHRINE" and "spirit faith shrine" in texts(g)
    g.apply("done")  # no Shrine on the Farmers now
    assert g.phase.name == "ACTION"
    b.place_single((0, 3))
    assert g.phase.name == "SPIRITS" and offered_cards(g) == {"faith"}
    g.apply("spirit faith shrine")
    merchants = {(0, 0), (0, 1), (0, 2), (0, 3)}
    assert g.vp_tokens(0) == 4 and g.phase.name == "SHRINE"
    assert cells_of(g, "SHRINE") == merchants | farmers
    g.apply("shrine 2,1")  # the extra, on the earlier set
    assert cells_of(g, "SHRINE") == merchants
    g.apply("shrine 0,0")
    assert g.current_player == 1


def test_a_moved_set_tile_stays_in_its_set(dc):
    """docs/cards.md "Sets follow their tiles", R-SPIRIT-2 Cunning, Strength, Faith: a
    face-down tile of a set Consolidated this turn, moved by Strength, is still a tile of
    that set: Faith's extra Shrine may be built on it on its new cell. A later Shrine
    step serves its own new set, and the earlier set only through Faith's extra."""
    b = farmers_position(dc, spirits=("strength", "faith", "cunning"),
                         more=[("Dr1", (0, 0)), ("Dr2", (0, 1)), ("Dr3", (0, 2))], later=["Me1"])
    g = b.g
    b.place_single((3, 0))
    assert g.phase.name == "SPIRITS" and offered_cards(g) == {"strength", "cunning"}
    g.apply("spirit cunning shrine")
    assert texts(g) == ["set 0,0", "set 2,0"]  # the Dragons and the Farmers: 3 each
    g.apply("set 0,0")
    assert g.vp_tokens(0) == 3 and g.phase.name == "SHRINE"
    g.apply("done")  # no Shrine on the Dragons now
    # Faith too: the Dragon set of this turn has no Shrine (docs/cards.md payment check).
    assert g.phase.name == "SPIRITS" and offered_cards(g) == {"strength", "faith"}
    g.apply("spirit strength shrine")
    g.apply("move-from 0,2")  # a face-down Dragon of this turn's set
    g.apply("move-to 1,3")
    g.apply("move-from 3,3")
    g.apply("move-to 2,3")  # four Farmers
    farmers = {(2, 0), (2, 1), (2, 2), (2, 3)}
    assert g.vp_tokens(0) == 5 and g.phase.name == "SHRINE"
    assert cells_of(g, "SHRINE") == farmers
    g.apply("spirit faith shrine")
    assert cells_of(g, "SHRINE") == farmers | {(0, 0), (0, 1), (1, 3)}
    g.apply("shrine 1,3")
    assert g.realm(0).has_shrine((1, 3))
    assert cells_of(g, "SHRINE") == farmers
    g.apply("shrine 2,0")
    assert g.current_player == 1


# ---------------------------------------------------------------- Beauty and Cunning

@pytest.mark.parametrize("bonus", [True, False])
def test_beauty_same_number_factions(dc, bonus):
    """R-SPIRIT-2 Beauty: a group of 4+ face-up Faction tiles with the same number (any
    Factions) is Consolidated: VP for its size +1 (always, as if Dragons), up to 2
    Shrines. Only payments that keep a group of 4 are offered."""
    b = Sandbox(dc, ["So2", "Me2", "So2", "Me2", "Fa2"], spirits=["beauty"], rules=dc.Rules(dragon_set_bonus=bonus))
    for cell in [(0, 0), (1, 0), (1, 1), (1, 3)]:
        b.single(cell)
    g = b.g
    b.place_single((1, 2))
    assert g.phase.name == "SPIRITS" and g.shrine_pool(0) == 6
    assert spirit_texts(g) == ["spirit beauty 0,0", "spirit beauty 1,3", "spirit beauty shrine"]
    assert_illegal(dc, g, "spirit beauty 1,1", "spirit beauty 1,0")
    g.apply("spirit beauty shrine")
    assert g.phase.name == "SET" and texts(g) == ["set 0,0"]
    assert_illegal(dc, g, "set 1,1", "done")
    g.apply("set 0,0")
    group = {(0, 0), (1, 0), (1, 1), (1, 2), (1, 3)}
    assert g.vp_tokens(0) == 3 + 1
    assert all(g.realm(0).top(c) == DOWN for c in group)
    assert g.phase.name == "SHRINE" and cells_of(g, "SHRINE") == group
    g.apply("shrine 0,0")
    assert g.phase.name == "SHRINE"
    g.apply("shrine 1,3")
    assert g.current_player == 1 and g.shrine_pool(0) == 3


def test_beauty_offered_at_the_start_of_a_turn(dc):
    """R-SPIRIT-2 (any decision point; replaces the withdrawn rule under which Beauty
    was offered only after the placements): a same-number group made in an earlier
    turn and declined then is offered to Beauty before the Action and between the
    picks (only the Shrine pays: any of the 4 tiles would break the group)."""
    b = Sandbox(dc, ["Me3", "So3", "Fa3", "Me3", "Me6"], spirits=["beauty"])
    for cell in [(0, 0), (0, 1), (0, 2), (0, 3)]:
        b.single(cell)
    g = b.g
    assert g.realm(0).top((0, 3)) == up(dc, "Me3")
    assert g.phase.name == "ACTION" and spirit_texts(g) == ["spirit beauty shrine"]
    assert_illegal(dc, g, "spirit beauty 0,0", "spirit beauty 0,3")
    b.take()
    assert g.phase.name == "COMPLETE" and spirit_texts(g) == ["spirit beauty shrine"]


@pytest.mark.parametrize("codes, vp, shrines", [(["Fa1", "Fa2", "Fa3"], 2, 1), (["Dr1", "Dr2", "Dr3"], 3, 2)])
def test_cunning_consolidates_exactly_three(dc, codes, vp, shrines):
    """R-SPIRIT-2 Cunning: a group of exactly 3 face-up tiles of one type is
    Consolidated: 2 VP (+1 for Dragons, R-CONS-3), Shrines as for its type."""
    b = Sandbox(dc, codes, spirits=["cunning"])
    b.single((0, 0))
    b.single((0, 1))  # a group of 2: nothing for Cunning
    g = b.g
    b.place_single((0, 2))
    assert g.phase.name == "SPIRITS"
    assert spirit_texts(g) == ["spirit cunning shrine"]  # any tile payment breaks the group
    g.apply("spirit cunning shrine")
    assert g.phase.name == "SET" and texts(g) == ["set 0,0"]
    g.apply("set 0,0")
    assert g.vp_tokens(0) == vp
    assert all(g.realm(0).top((0, c)) == DOWN for c in range(3))
    for c in range(shrines):
        assert g.current_player == 0 and g.phase.name == "SHRINE"
        g.apply(f"shrine 0,{c}")
    assert g.current_player == 1


def test_cunning_needs_exactly_three_after_paying(dc):
    """R-SPIRIT-2 Cunning, R-SPIRIT-1 (judged after paying): a line of 4 Farmers is no
    Cunning group; paying with an end tile leaves exactly 3 (offered), paying with a
    Shrine or a middle tile does not. Declined, the 4 are Consolidated as usual."""
    b = Sandbox(dc, ["Fa1", "Fa2", "Fa3", "Fa4"], spirits=["cunning"])
    for cell in [(0, 0), (0, 1), (0, 3)]:
        b.single(cell)
    g = b.g
    b.place_single((0, 2))
    assert g.phase.name == "SPIRITS"
    assert spirit_texts(g) == ["spirit cunning 0,0", "spirit cunning 0,3"]
    assert_illegal(dc, g, "spirit cunning shrine", "spirit cunning 0,1")
    paid = g.clone()
    g.apply("done")
    assert g.phase.name == "SHRINE" and g.vp_tokens(0) == 2
    paid.apply("spirit cunning 0,3")
    assert texts(paid) == ["set 0,0"]
    paid.apply("set 0,0")
    assert paid.vp_tokens(0) == 2 and paid.realm(0).top((0, 3)) is None


# ---------------------------------------------------------------- undo and JSON

def scripted_games(dc):
    """(game, script) pairs: positions, then turns full of card actions."""
    strength = strength_position(dc)
    yield strength.g, ["spirit strength shrine", "move-from 0,2", "move-to 2,2", "move-from 0,3", "move-to 2,2",
                       f"take {space(5)}", "discard"]
    wind = strength_position(dc, spirits=("wind", "faith"))
    yield wind.g, ["spirit wind shrine", "flip 1,0", "shrine-from 0,0", "shrine-to 1,0", f"take {space(5)}",
                   "take-shrine", "place 3,3"]
    cunning = Sandbox(dc, ["Dr1", "Dr2", "Se1"], spirits=["change", "cunning"], dragons=["devotion", "knowledge"])
    cunning.single((0, 0))
    cunning.single((0, 1))
    yield cunning.g, [f"take {space(2)}", "take-shrine", "place 0,2", "spirit change shrine", "change 0,2 dragon",
                      "spirit cunning shrine", "shrine 0,0", "shrine 0,1"]
    yield game(dc, ONE_HIGH, {}, spirits=["destruction"]), ["spirit destruction shrine", "destroy 0,0", "summon"]


def test_undo_and_json_through_card_actions(dc):
    """R-SPIRIT-1/2: card actions are in the history: undo returns to each earlier state
    exactly, and ``from_json(to_json())`` replays them."""
    for g, script in scripted_games(dc):
        states = []
        for action in script:
            states.append((g.clone(), g.to_json()))
            g.apply(action)
        assert [str(a) for a in g.history[-len(script):]] == script
        again = dc.Game.from_json(g.to_json())
        assert again == g and again.to_json() == g.to_json() and again.spirits == g.spirits
        for before, before_json in reversed(states):
            g.undo()
            assert g == before and g.to_json() == before_json


def test_random_games_with_every_card(dc):
    """R-SETUP-3, R-SPIRIT-1/2, R-END-2: random games with all 20 cards: legal lists
    sorted and never empty before the end; the score adds the Dragon bonuses of every
    card in play; JSON replays the game and undo goes back to an earlier state."""
    for players, seed in ((2, 3), (3, 4)):
        g = dc.Game(players=players, seed=seed, spirits=10, dragons=10)
        rng = random.Random(seed)
        recent = []  # the last states, to check undo against
        while not g.is_over:
            ids = g.legal_action_ids()
            assert ids and ids == sorted(ids) and len(ids) <= dc.MAX_LEGAL_ACTIONS
            recent = recent[-24:] + [g.clone()]
            g.apply(rng.choice(ids))
        assert any(a.kind.name == "SPIRIT" for a in g.history)
        realms = [g.realm(p) for p in range(players)]
        # The other engine, on the same game: its own Dragon scoring must agree.
        other = reference if dc is dragoncastle else dragoncastle
        twin = other.Game.from_json(g.to_json())
        twin_realms = [twin.realm(p) for p in range(players)]
        for p in range(players):
            b = g.score_breakdown(p)
            assert set(b["dragons"]) == set(dc.DRAGONS)
            assert all(b["dragons"][name] == dc.dragon_points(name, realms, p) for name in dc.DRAGONS)
            assert all(b["dragons"][name] == other.dragon_points(name, twin_realms, p) for name in dc.DRAGONS)
            assert twin.score_breakdown(p) == b
            assert b["total"] == b["vp"] + b["shrines"] + b["countdown"] + sum(b["dragons"].values()) == g.scores()[p]
        assert dc.Game.from_json(g.to_json()) == g
        for earlier in reversed(recent):
            g.undo()
            assert g == earlier and g.to_json() == earlier.to_json()


def test_engines_agree_on_a_random_game_with_cards():
    """R-SEED-1: the two engines play the same game with cards (legal actions, scores,
    JSON)."""
    a = dragoncastle.Game(players=3, seed=11, spirits=10, dragons=10)
    b = reference.Game(players=3, seed=11, spirits=10, dragons=10)
    rng = random.Random(11)
    while not a.is_over:
        assert [(x.id, str(x)) for x in a.legal_actions()] == [(x.id, str(x)) for x in b.legal_actions()]
        choice = rng.choice(a.legal_action_ids())
        a.apply(choice)
        b.apply(choice)
    assert b.is_over and a.scores() == b.scores()
    assert [a.score_breakdown(p) for p in range(3)] == [b.score_breakdown(p) for p in range(3)]
    assert a.to_json() == b.to_json()


# ---------------------------------------------------------------- Dragons (R-DRAGON-1..10)

def test_realm_parse_text_format(dc):
    """docs/cards.md Realm text: `.` empty, `3Me2` height 3 with a face-up Me2, `2#`
    height 2 face down, `2S` height 2 face down with a Shrine."""
    r = realm(dc, "3Me2 2# 2S .", EMPTY_ROW, EMPTY_ROW, ". . . 1Dr3")
    assert r.height((0, 0)) == 3 and r.top((0, 0)) == up(dc, "Me2") and not r.has_shrine((0, 0))
    assert r.height((0, 1)) == 2 and r.top((0, 1)) == DOWN and not r.has_shrine((0, 1))
    assert r.height((0, 2)) == 2 and r.top((0, 2)) == DOWN and r.has_shrine((0, 2))
    assert r.height((0, 3)) == 0 and r.top((0, 3)) is None
    assert r.top((3, 3)) == up(dc, "Dr3")
    assert r.placeable() == [c for c in ALL_CELLS if c not in {(0, 0), (0, 2), (3, 3)}]


def points(dc, card, *rows):
    return dc.dragon_points(card, [realm(dc, *rows)], 0)


def test_humility_shared_higher_stack_and_several_higher_neighbours(dc):
    """R-DRAGON-1, rulebook FAQ: one higher stack counts for every Shrine next to it; a
    Shrine next to several higher stacks counts once."""
    assert points(dc, "humility",
                  "1S 2# 1S .",
                  EMPTY_ROW,
                  ". 3# . .",
                  "3# 1S 2# .") == 3


def test_humility_counts_tiles_not_roofs_nor_diagonals(dc):
    """R-DRAGON-1, rulebook FAQ: only stack heights (tiles) matter: an equal stack with a
    Shrine is not higher; diagonal stacks are not adjacent."""
    assert points(dc, "humility",
                  "2S 2S . .",
                  "1S . . .",
                  ". . 3# .",
                  ". . 1# 1S") == 1  # only (1,0), below (0,0)
    assert points(dc, "humility", "4# 3# . .", EMPTY_ROW, EMPTY_ROW, EMPTY_ROW) == 0  # no Shrine
    assert points(dc, "humility", EMPTY_ROW, EMPTY_ROW, EMPTY_ROW, EMPTY_ROW) == 0


def test_tranquility_groups_split_by_a_face_up_tile(dc):
    """R-DRAGON-2, rulebook FAQ: groups of face-down tops (a Shrine's tile is face
    down); a face-up tile separates groups; diagonal is not adjacent; different floors
    are adjacent."""
    rows = ["1# 1S 1Me1 1#",
            EMPTY_ROW,
            "1# . 2# .",
            ". 1# 3# ."]
    assert points(dc, "tranquility", *rows) == 4
    rows[0] = "1# 1S 1# 1#"  # the face-up tile no longer separates the two groups
    assert points(dc, "tranquility", *rows) == 3
    assert points(dc, "tranquility", EMPTY_ROW, EMPTY_ROW, EMPTY_ROW, EMPTY_ROW) == 0
    assert points(dc, "tranquility", "1Me1 1So1 . .", EMPTY_ROW, EMPTY_ROW, EMPTY_ROW) == 0


def test_righteousness_shared_shrine_and_full_lines(dc):
    """R-DRAGON-3, rulebook FAQ: the best row plus the best column; a Shrine on both
    counts twice; +2 per chosen line full of Shrines; Shrines need not be adjacent."""
    assert points(dc, "righteousness",
                  EMPTY_ROW,
                  ". 1S 2S .",
                  ". 1S . .",
                  EMPTY_ROW) == 4
    assert points(dc, "righteousness",
                  "1S 1S 1S 1S",
                  "1S . . .",
                  "1S . . .",
                  EMPTY_ROW) == 6 + 3
    assert points(dc, "righteousness",
                  "1S 1S 1S 1S",
                  "2S . . .",
                  "3S . . .",
                  "1S . . .") == 6 + 6
    assert points(dc, "righteousness",
                  "1S . 1S .",
                  EMPTY_ROW,
                  ". . 1S .",
                  EMPTY_ROW) == 2 + 2
    assert points(dc, "righteousness", "1# 1Me1 . .", EMPTY_ROW, EMPTY_ROW, EMPTY_ROW) == 0


def test_bravery_empty_cells_are_not_stacks_and_shrines_add_no_height(dc):
    """R-DRAGON-4, rulebook FAQ: a stack scores when no adjacent stack is as high or
    higher; empty cells are not stacks; a Shrine may be on it but adds no height."""
    assert points(dc, "bravery",
                  "2S 1# . .",
                  EMPTY_ROW,
                  "1Me1 . 3# 3#",
                  ". . . 1#") == 2  # (0,0) and the lonely (2,0)
    assert points(dc, "bravery", "2S 2# . .", EMPTY_ROW, EMPTY_ROW, EMPTY_ROW) == 0
    assert points(dc, "bravery", "3S 2# . .", EMPTY_ROW, EMPTY_ROW, EMPTY_ROW) == 1
    assert points(dc, "bravery", EMPTY_ROW, EMPTY_ROW, EMPTY_ROW, EMPTY_ROW) == 0


def test_majesty_highest_per_faction_on_floor_three_or_more(dc):
    """R-DRAGON-5: per Faction the highest number among face-up tiles on floor >= 3."""
    assert points(dc, "majesty",
                  "3Me2 4Me5 2Me6 .",
                  "3So1 1So6 . .",
                  "5Fa3 . 3# .",
                  "3Se1 3Dr1 . .") == 5 + 1 + 3
    assert points(dc, "majesty", "2Me6 2So6 2Fa6 .", EMPTY_ROW, EMPTY_ROW, EMPTY_ROW) == 0


POWER_A = ["1Me3 2Me4 . 1Me6", "1So2 . . .", EMPTY_ROW, EMPTY_ROW]
POWER_B = ["1Me1 1Me6 . .", EMPTY_ROW, ". . 1So5 .", EMPTY_ROW]


def test_power_two_players_compare_once(dc):
    """R-DRAGON-6, rulebook FAQ: with 2 players the other player is compared once;
    one chosen group per Faction (not all tiles); a Faction nobody has gives nothing."""
    realms = [realm(dc, *POWER_A), realm(dc, *POWER_B)]
    # Merchants 7 (Me3+Me4; Me6 apart) vs 7: tie; Soldiers 2 vs 5.
    assert dc.dragon_points("power", realms, 0) == 1
    assert dc.dragon_points("power", realms, 1) == 1 + 2


def test_power_three_players_both_neighbours(dc):
    """R-DRAGON-6, rulebook FAQ: compared with the left and the right neighbour; winning
    against one and losing against the other gives 2; a player without a face-up tile
    of a Faction neither wins nor ties it."""
    a = realm(dc, "1Me3 1Me4 . .", "1So3 . . .", EMPTY_ROW, EMPTY_ROW)   # Me 7, So 3
    b = realm(dc, "1Me5 . . .", ". . 1So3 .", EMPTY_ROW, EMPTY_ROW)      # Me 5, So 3
    c = realm(dc, "1Me4 1Me5 . .", EMPTY_ROW, EMPTY_ROW, "1# . . .")     # Me 9, no Soldier
    realms = [a, b, c]
    assert dc.dragon_points("power", realms, 0) == 2 + (1 + 2)
    assert dc.dragon_points("power", realms, 1) == 0 + (2 + 1)
    assert dc.dragon_points("power", realms, 2) == 2 + 2
    # Nobody has a Farmer: no tie point for anyone (already in the figures above).
    assert dc.dragon_points("power", [a], 0) == 0  # solo: no neighbour


def test_harmony_symmetries(dc):
    """R-DRAGON-7, rulebook FAQ: +4 per centre line about which the heights are
    symmetric (face up or down alike); +2 per line about which the Shrines are, at the
    same heights; both axes; an empty Realm scores 0 [ruling]."""
    assert points(dc, "harmony", EMPTY_ROW, EMPTY_ROW, EMPTY_ROW, EMPTY_ROW) == 0
    assert points(dc, "harmony",
                  "1Me1 . . 1#",
                  ". 2# 2Se1 .",
                  ". 2Wi1 2# .",
                  "1# . . 1Fa2") == 8  # heights on both axes; no Shrine: no +2
    assert points(dc, "harmony", "1S 2# 2# 1S", EMPTY_ROW, EMPTY_ROW, EMPTY_ROW) == 4 + 2  # vertical line only
    assert points(dc, "harmony", "1# . . .", "2# . . .", "2# . . .", "1# . . .") == 4  # horizontal line only
    assert points(dc, "harmony", "2S 1# 3# 2S", EMPTY_ROW, EMPTY_ROW, EMPTY_ROW) == 2  # Shrines only
    assert points(dc, "harmony", "1S 1# 3# 2S", EMPTY_ROW, EMPTY_ROW, EMPTY_ROW) == 0  # Shrines at unequal heights
    assert points(dc, "harmony", "1S . . 1S", EMPTY_ROW, EMPTY_ROW, "1S . . 1S") == 8 + 4
    assert points(dc, "harmony", "1# 1# . .", EMPTY_ROW, EMPTY_ROW, EMPTY_ROW) == 0  # one side only


def test_knowledge_distinct_special_symbols(dc):
    """R-DRAGON-8, rulebook FAQ: 2 per distinct face-up Special symbol: two Winds of
    different symbols are 4, two identical ones 2; at most 22."""
    assert points(dc, "knowledge", "1Wi1 1Wi2 . .", EMPTY_ROW, EMPTY_ROW, EMPTY_ROW) == 4
    assert points(dc, "knowledge", "1Wi1 . 1Wi1 .", EMPTY_ROW, EMPTY_ROW, EMPTY_ROW) == 2
    assert points(dc, "knowledge", "1Me1 1# 1So6 2S", EMPTY_ROW, EMPTY_ROW, EMPTY_ROW) == 0
    assert points(dc, "knowledge",
                  "1Se1 1Wi1 1Dr1 1Se2",
                  "1Wi2 1Dr2 1Se3 1Wi3",
                  "1Dr3 1Se4 1Wi4 1Me1",
                  "1So1 1Fa1 1Me2 1So2") == 22


def test_devotion_shrines_next_to_face_up_dragons(dc):
    """R-DRAGON-9, rulebook FAQ: a Shrine next to two Dragons counts once; a Dragon next
    to two Shrines counts for both; diagonal or other Specials do not count."""
    assert points(dc, "devotion", "1Dr1 1S 1Dr2 .", EMPTY_ROW, EMPTY_ROW, EMPTY_ROW) == 1
    assert points(dc, "devotion", "1S 1Dr1 1S .", EMPTY_ROW, EMPTY_ROW, EMPTY_ROW) == 2
    assert points(dc, "devotion", "1S 1Se1 . .", "1Se2 1Dr1 . .", EMPTY_ROW, EMPTY_ROW) == 0
    assert points(dc, "devotion", "1S 1# . .", EMPTY_ROW, EMPTY_ROW, EMPTY_ROW) == 0


def test_fortitude_edge_cells_any_floor(dc):
    """R-DRAGON-10, rulebook FAQ: a Shrine on any of the 12 edge cells, on any floor."""
    assert points(dc, "fortitude",
                  "1S . . .",
                  ". 1S . 3S",
                  ". . 2S .",
                  ". . 2S .") == 3


def test_dragon_bonuses_in_the_score_breakdown(dc):
    """R-END-2, R-DRAGON-2/8/10: each Dragon in play adds its points under its name in
    ``score_breakdown(p)["dragons"]``, during the game too, and they add up in the
    total and in ``scores()``."""
    b = Sandbox(dc, ["Wi1", "Wi2", "Wi3", "Se1", "Wi4"], dragons=["fortitude", "knowledge", "tranquility"])
    for cell in [(0, 0), (0, 1), (0, 2), (1, 0)]:
        b.single(cell)
    g = b.g
    assert g.dragons == ["tranquility", "knowledge", "fortitude"]
    bd = g.score_breakdown(0)
    assert bd["dragons"] == {"tranquility": 0, "knowledge": 8, "fortitude": 0}
    assert bd["total"] == 8 == g.scores()[0]
    b.single((0, 3), shrines=[(0, 0), (0, 1)])
    bd = g.score_breakdown(0)
    assert bd["dragons"] == {"tranquility": 1, "knowledge": 2, "fortitude": 2}
    assert bd["vp"] == 2 and bd["shrines"] == 2
    assert bd["total"] == 2 + 2 + 0 + 5 == g.scores()[0]
    realms = [g.realm(0), g.realm(1)]
    for name, value in bd["dragons"].items():
        assert dc.dragon_points(name, realms, 0) == value
    assert g.score_breakdown(1)["dragons"] == {"tranquility": 0, "knowledge": 0, "fortitude": 0}


# ---------------------------------------------------------------- solo (R-SOLO-1)

def test_solo_with_cards_subtracts_15(dc):
    """R-SOLO-1: solo with any card in play is the Spirits & Dragons variant: the
    breakdown shows "variant": -15 and the totals subtract it; without cards (or with
    more players) nothing is subtracted."""
    for kw in ({"spirits": ["wind"]}, {"dragons": ["knowledge"]}, {"spirits": 1, "dragons": 1}):
        g = dc.Game(players=1, seed=3, **kw)
        bd = g.score_breakdown(0)
        assert bd["variant"] == -15
        assert bd["total"] == bd["vp"] + bd["shrines"] + bd["countdown"] + sum(bd.get("dragons", {}).values()) - 15
        assert g.scores() == [bd["total"]] == [-15]
    drawn = dc.Game(players=1, seed=3, spirits=1, dragons=1)
    assert len(drawn.spirits) == 1 and len(drawn.dragons) == 1
    plain = dc.Game(players=1, seed=3)
    assert plain.score_breakdown(0).get("variant", 0) == 0 and plain.scores() == [0]
    multi = dc.Game(players=2, seed=3, spirits=1, dragons=1)
    assert all(multi.score_breakdown(p).get("variant", 0) == 0 for p in range(2))


def test_solo_dragon_follows_the_first_tile_of_a_deception_pair(dc):
    """R-SOLO-3, docs/cards.md ruling: after a Deception pair (Me1 then So5), the
    Dragon of Ingenuity follows the type of the first tile: it takes the Merchant on
    (0,2), not the Soldier on (0,0)."""
    fixed = {(1, 1, 2): "Me1", (0, 0, 1): "Me1", (0, 1, 1): "Me1", (0, 2, 1): "Me1", (0, 1, 2): "So5",
             (1, 0, 2): "Fa6", (1, 1, 1): "Wi2", (0, 0, 2): "So1", (0, 2, 2): "Me2"}
    g = game(dc, DECEPTION, fixed, players=1, spirits=["deception"])
    for action in ("take 1,1", "spirit deception shrine", "take 0,1", "place 0,0", "place 0,1"):
        g.apply(action)
    dragon = [str(a) for a, by_dragon in zip(g.history, g.history_by_dragon) if by_dragon]
    assert dragon[0] == "take 0,2"
    assert g.current_player == 0


def test_solo_variant_rank_uses_the_score_minus_15(dc):
    """R-SOLO-1, R-SOLO-5: the rank of the variant is the rank of the score minus 15.
    Random solo games with every Dragon in play, until one whose score before the 15
    are subtracted reaches a rank above Student."""
    for seed in range(40):
        g = dc.Game(players=1, seed=seed, dragons=10)
        agent = RandomAgent(seed)
        while not g.is_over:
            g.apply(agent.act(g))
        bd = g.score_breakdown(0)
        raw = bd["vp"] + bd["shrines"] + bd["countdown"] + sum(bd["dragons"].values())
        assert bd["variant"] == -15 and bd["total"] == raw - 15 == g.scores()[0]
        assert g.rank() == dc.solo_rank(raw - 15)
        if dc.solo_rank(raw) != dc.solo_rank(raw - 15):
            assert dc.Game.from_json(g.to_json()) == g
            return
    pytest.fail("no random solo game scored 40 or more before the variant's -15")
