"""Spirits at any decision point of the turn (R-SPIRIT-2), on both engines.

Written from the rulebook ("At any time during your turn, you may ask for the favor
of the Spirits"; "These sets should be Consolidated when they are created"), the
project's rules (RULES.md section 7), docs/cards.md ("Spirits: activation", "The
turn with cards, step by step") and docs/observation.md, without reading either
engine. The decision points are the phases ACTION (before the Action), COMPLETE
(between the picks), PLACE (before and between the placements), SPIRITS (after the
placements, before the Consolidation step), SHRINE (the Shrine step) and END_TURN
(after it).

Every scenario takes the engine module (``dc``) and a :class:`Trace` that records the
legal actions (as text) before each decision it makes; ``test_engines_agree``
replays every scenario on both engines and compares those lists and the final JSON.
Positions are built on :data:`helpers.SANDBOX` with ``helpers.Sandbox`` (seat 0
builds its Realm one tile per turn; seat 1 only discards).
"""

from __future__ import annotations

import json
import random

import numpy as np
import pytest

import dragoncastle
from dragoncastle import reference
from helpers import Sandbox, game, space, texts
from test_cards import ALL_CELLS, DOWN, assert_illegal, cell_texts, cells_of, shrine_cells, up

ENGINE_MODULES = {"rust": dragoncastle, "reference": reference}


class Trace:
    """The legal action texts before each decision of a scenario, in order."""

    def __init__(self) -> None:
        self.lists: list[list[str]] = []

    def legal(self, g) -> list[str]:
        """The legal action texts now (recorded)."""
        legal = texts(g)
        self.lists.append(legal)
        return legal

    def apply(self, g, *actions: str) -> None:
        """Apply ``actions`` in turn, recording the legal actions before each; each
        must be listed as legal."""
        for action in actions:
            assert action in self.legal(g), action
            g.apply(action)


@pytest.fixture
def tr() -> Trace:
    return Trace()


def spirits_of(legal: list[str]) -> list[str]:
    return [t for t in legal if t.startswith("spirit ")]


def without_spirits(legal: list[str]) -> list[str]:
    return [t for t in legal if not t.startswith("spirit ")]


# ---------------------------------------------------------------- each decision point

def winds_position(dc, spirits=("wind",)):
    """Seat 0 at the start of a turn: Wi1 Wi2 Wi3 face up on (0,0) (0,1) (0,2), Me1 face
    up on (3,3); Shrine Pool 5. The next two top tiles (stacks 4 and 5) are Wi4, Wi4."""
    b = Sandbox(dc, ["Wi1", "Wi2", "Wi3", "Me1", "Wi4", "Wi4"], spirits=list(spirits))
    for cell in [(0, 0), (0, 1), (0, 2), (3, 3)]:
        b.single(cell)
    assert b.g.shrine_pool(0) == 5 and b.g.phase.name == "ACTION" and b.g.current_player == 0
    return b


# The free cells of winds_position (R-PLACE-1): all but the three Winds and Me1.
WINDS_FREE = {c for c in ALL_CELLS if c not in {(0, 0), (0, 1), (0, 2), (3, 3)}}

POINTS = ["ACTION", "COMPLETE", "PLACE-before", "PLACE-between", "SPIRITS", "SHRINE", "END_TURN"]


@pytest.mark.parametrize("point", POINTS)
def test_wind_at_each_decision_point(dc, tr, point):
    """R-SPIRIT-2 ("At any time during your turn"; docs/cards.md "Spirits:
    activation"): Wind is offered at each decision point of a Pair-of-Tiles turn:
    before the Action (ACTION), between the picks (COMPLETE), before and between the
    placements (PLACE), after them (SPIRITS), during the Shrine step (SHRINE) and
    after it (END_TURN). Flipping Me1 ends the card (no Shrine built to move), and play
    resumes where it was activated: the same decisions (the flipped tile is a new free
    cell, R-PLACE-1), except that after SPIRITS the five Winds are Consolidated at
    once (a set is Consolidated after every Spirit's effect, R-CONS-1) and after
    END_TURN the turn ends by itself (R-SPIRIT-1: Wind is used)."""
    b = winds_position(dc)
    g = b.g
    pair = [f"take {space(4)}", f"take {space(5)}"]
    placed = pair + ["place 0,3", "place 1,3"]
    before_point = {
        "ACTION": [], "COMPLETE": pair[:1], "PLACE-before": pair, "PLACE-between": pair + ["place 0,3"],
        "SPIRITS": placed, "SHRINE": placed + ["done"], "END_TURN": placed + ["done", "shrine 0,0", "shrine 0,1"],
    }[point]
    tr.apply(g, *before_point)
    phase = point.split("-")[0]
    assert g.phase.name == phase and g.current_player == 0
    before = tr.legal(g)
    assert "spirit wind shrine" in before
    held, pool = list(g.held_tiles), g.shrine_pool(0)
    tr.apply(g, "spirit wind shrine")
    assert g.phase.name == "WIND" and g.shrine_pool(0) == pool - 1
    tr.apply(g, "flip 3,3")
    assert g.realm(0).top((3, 3)) == DOWN
    if point == "END_TURN":
        # The two Shrines built this turn could move: `done` skips the move, and
        # no activation is left: the turn ends.
        assert g.phase.name == "WIND" and tr.legal(g) == ["done", "shrine-from 0,0", "shrine-from 0,1"]
        tr.apply(g, "done")
    elif point == "SPIRITS":
        # The Winds are Consolidated at once (5 tiles: 3 VP) and their Shrine step follows.
        assert g.phase.name == "SHRINE" and g.vp_tokens(0) == 3
        assert tr.legal(g) == cell_texts("shrine", [(0, 0), (0, 1), (0, 2), (0, 3), (1, 3)]) + ["done"]
        tr.apply(g, "shrine 0,0", "shrine 0,1")
    else:
        assert g.phase.name == phase and g.current_player == 0 and g.held_tiles == held
        after = tr.legal(g)
        if point == "PLACE-before":
            # Two identical tiles (R-PLACE-3): while Wind may still come between the
            # placements each may go on any free cell; once it is used the two orders
            # are one move, and the first never goes on the highest free cell, (3,3)
            # now that it is face down.
            assert without_spirits(before) == cell_texts("place", WINDS_FREE)
            assert after == cell_texts("place", WINDS_FREE)
            assert_illegal(dc, g, "place 3,3")
        elif point == "PLACE-between":
            assert without_spirits(before) == cell_texts("place", WINDS_FREE - {(0, 3)})
            assert after == cell_texts("place", (WINDS_FREE - {(0, 3)}) | {(3, 3)})
            # The first placement's group of 4 Winds waits for the Consolidation step.
            assert all(g.realm(0).top((0, c)) == up(dc, f"Wi{c + 1}") for c in range(4)) and g.vp_tokens(0) == 0
        else:
            assert after == without_spirits(before)
        rest = {"ACTION": placed, "COMPLETE": placed[1:], "PLACE-before": placed[2:], "PLACE-between": placed[3:],
                "SHRINE": []}[point]
        tr.apply(g, *rest)
        # Wind was used: no SPIRITS, the Consolidation step's Shrine step at once.
        assert g.phase.name == "SHRINE" and g.vp_tokens(0) == 3
        tr.apply(g, "shrine 0,0", "shrine 0,1")
    assert g.current_player == 1 and g.phase.name == "ACTION"
    assert g.vp_tokens(0) == 3 and shrine_cells(g.realm(0)) == {(0, 0), (0, 1)}
    assert g.realm(0).top((3, 3)) == DOWN and all(g.realm(0).top((0, c)) == DOWN for c in range(4))


# ---------------------------------------------------------------- Destruction after the placements

# Row 0: four stacks of 2 side by side ((0,1) and (0,2) are not Available) and lone
# stacks of 2 on (0,5), (0,7), (0,9); rows 1-9 are lone stacks of 2 as in the sandbox
# (three on row 9). Every lone stack is Available; the top floor is 2.
ROW_OF_FOUR = "2222.2.2.2..\n" + "2.2.2.2.2.2.\n" * 8 + "2.2.2.......\n"
MERCHANTS_ROW = [(0, 0), (0, 1), (0, 2), (0, 3)]


def destruction_turn(dc, tr, spirits):
    """Seat 0 places Me1 Me2 Me3 on (0,0) (0,1) (0,2) in three turns (Tile and Shrine)
    while seat 1 discards; then takes the Me4 on (0,5) (Tile and Shrine) and places it
    on (0,3): the turn is after the placement, four Merchants face up. Shrine Pool 5.

    R-SPIRIT-2: every earlier turn opens SPIRITS (Destruction, paid with a Shrine, is
    legal for either seat) and ``done`` there Consolidates no set, so the turn passes to
    the next player at once, without END_TURN."""
    fixed = {(1, 0, 2): "Me1", (1, 2, 2): "Me2", (1, 4, 2): "Me3", (0, 5, 2): "Me4"}
    g = game(dc, ROW_OF_FOUR, fixed, spirits=spirits)
    for space, cell, filler in (("1,0", "0,0", "8,10"), ("1,2", "0,1", "8,8"), ("1,4", "0,2", "8,6")):
        tr.apply(g, f"take {space}", "take-shrine", f"place {cell}")
        assert g.phase.name == "SPIRITS" and g.current_player == 0
        assert "spirit destruction shrine" in tr.legal(g)
        tr.apply(g, "done")
        assert g.current_player == 1 and g.phase.name == "ACTION" and g.vp_tokens(0) == 0
        tr.apply(g, f"take {filler}", "discard")
        assert g.phase.name == "SPIRITS" and g.current_player == 1
        assert tr.legal(g) == ["done", "spirit destruction shrine"]
        tr.apply(g, "done")
        assert g.current_player == 0 and g.phase.name == "ACTION"
    tr.apply(g, "take 0,5", "take-shrine", "place 0,3")
    assert g.shrine_pool(0) == 5 and all(g.realm(0).top(c)[1] for c in MERCHANTS_ROW)
    return g


def test_destruction_after_the_placements_frees_a_castle_tile(dc, tr):
    """R-SPIRIT-2 Destruction, R-AVAIL-1: after the placements (SPIRITS) Destruction
    discards an Available castle tile (any floor) so that a tile becomes Available
    before the next player moves. Its effect done, the four Merchants are Consolidated
    at once (R-CONS-1, docs/cards.md "Consolidation after every Spirit") with their
    Shrine step; play returns to SPIRITS (Wind can now move the Shrine just built).
    ``done`` there runs the Consolidation step, which finds no group left: no set, so
    the turn passes at once, without END_TURN (it would offer the same position); the
    next player sees the changed castle. (The earlier turns, without a set, pass at
    once too: see ``destruction_turn``.)"""
    g = destruction_turn(dc, tr, ["wind", "destruction"])
    assert g.phase.name == "SPIRITS" and g.current_player == 0
    legal = tr.legal(g)
    assert legal[0] == "done"
    # Any Merchant may pay for either card (three stay face up for Wind to flip).
    payments = cell_texts("", MERCHANTS_ROW)
    assert sorted(spirits_of(legal)) == sorted(
        [f"spirit {card}{pay}" for card in ("destruction", "wind") for pay in payments + [" shrine"]])
    assert not g.is_available((0, 1)) and g.castle_height((0, 0)) == 2
    tiles = g.castle_tiles
    tr.apply(g, "spirit destruction shrine")
    assert g.phase.name == "DESTROY" and "destroy 0,0" in tr.legal(g) and "destroy 0,1" not in tr.legal(g)
    tr.apply(g, "destroy 0,0")
    assert g.castle_tiles == tiles - 1 and g.castle_height((0, 0)) == 1 and g.is_available((0, 1))
    assert g.vp_tokens(0) == 2 and all(g.realm(0).top(c) == DOWN for c in MERCHANTS_ROW)
    # Nothing for Wind yet: no face-up tile, no Shrine built.
    assert g.phase.name == "SHRINE" and tr.legal(g) == cell_texts("shrine", MERCHANTS_ROW) + ["done"]
    tr.apply(g, "shrine 0,0")
    assert g.phase.name == "SPIRITS" and g.current_player == 0 and tr.legal(g) == ["done", "spirit wind shrine"]
    tr.apply(g, "done")
    assert g.current_player == 1 and g.phase.name == "ACTION" and g.vp_tokens(0) == 2
    legal = tr.legal(g)
    assert "take 0,1" in legal and "take 0,0" not in legal  # (0,0) is on floor 1 now
    assert shrine_cells(g.realm(0)) == {(0, 0)} and g.shrine_pool(0) == 5 - 2


def test_destruction_in_end_turn_takes_a_tile_off_the_top_floor(dc, tr):
    """R-SPIRIT-2 Destruction, R-ACT-1: after the Consolidation step has made a set
    (four Merchants) and its Shrine step (END_TURN), Destruction takes the Available
    (0,3) off the top floor, so the next player cannot pick it first and (0,2) becomes
    Available. With no other Spirit the turn then ends by itself (nothing is legal any
    more). (The earlier turns, without a set, pass at once after ``done`` in SPIRITS:
    see ``destruction_turn``.)"""
    g = destruction_turn(dc, tr, ["destruction"])
    assert g.phase.name == "SPIRITS"
    assert tr.legal(g) == ["done"] + cell_texts("spirit destruction", MERCHANTS_ROW) + ["spirit destruction shrine"]
    tr.apply(g, "done")
    assert g.vp_tokens(0) == 2 and g.phase.name == "SHRINE"
    assert tr.legal(g) == cell_texts("shrine", MERCHANTS_ROW) + ["done", "spirit destruction shrine"]
    tr.apply(g, "shrine 0,1")
    assert g.phase.name == "END_TURN" and g.current_player == 0
    # Every tile is face down: only a Shrine pays.
    assert tr.legal(g) == ["done", "spirit destruction shrine"]
    assert_illegal(dc, g, "take 0,3", "place 1,1", "shrine 0,0", "destroy 0,3")
    assert not g.is_available((0, 2))
    tr.apply(g, "spirit destruction shrine")
    assert g.shrine_pool(0) == 5 - 2 and g.phase.name == "DESTROY"
    tr.apply(g, "destroy 0,3")
    assert g.current_player == 1 and g.phase.name == "ACTION"
    assert g.castle_height((0, 3)) == 1 and g.is_available((0, 2))
    legal = tr.legal(g)
    assert "take 0,2" in legal and "take 0,3" not in legal


# ---------------------------------------------------------------- Wind after the Shrine step

def test_wind_after_the_shrine_step_moves_the_shrine_just_built(dc, tr):
    """R-SPIRIT-2 Wind (after the Shrine step, END_TURN), R-SHRINE-1, rulebook FAQ: a
    Shrine built in this turn's Shrine step is moved onto another face-down top tile
    without a Shrine; paid with the face-up Me1, nothing is left to flip. No
    activation is left afterwards, so the turn ends by itself."""
    b = winds_position(dc)
    g = b.g
    tr.apply(g, f"take {space(4)}", f"take {space(5)}", "place 0,3", "place 1,3", "done")
    assert g.phase.name == "SHRINE" and g.vp_tokens(0) == 3
    tr.apply(g, "shrine 0,0", "shrine 1,3")
    assert g.phase.name == "END_TURN"
    legal = tr.legal(g)
    assert legal == ["done", "spirit wind 3,3", "spirit wind shrine"]
    tr.apply(g, "spirit wind 3,3")
    assert g.realm(0).top((3, 3)) is None and g.shrine_pool(0) == 3
    assert g.phase.name == "WIND" and tr.legal(g) == ["shrine-from 0,0", "shrine-from 1,3"]
    tr.apply(g, "shrine-from 1,3")
    assert g.phase.name == "WIND_TO"
    assert tr.legal(g) == ["shrine-to 0,1", "shrine-to 0,2", "shrine-to 0,3"]
    tr.apply(g, "shrine-to 0,2")
    assert g.current_player == 1
    assert shrine_cells(g.realm(0)) == {(0, 0), (0, 2)} and g.shrine_pool(0) == 3
    assert g.score_breakdown(0)["shrines"] == 2 and g.vp_tokens(0) == 3


# ---------------------------------------------------------------- Beauty and Cunning at the start of a turn

def test_cunning_at_the_start_of_a_turn_on_an_earlier_group(dc, tr):
    """R-SPIRIT-2 Cunning (before the Action, ACTION): three Farmers placed in earlier
    turns (Cunning declined then) are Consolidated at the start of a later turn: 2 VP,
    its own Shrine step (1 Shrine, a Faction set, R-SHRINE-1), then the Action follows
    as usual. Any tile payment would break the group: only the Shrine pays."""
    b = Sandbox(dc, ["Fa1", "Fa2", "Fa3", "Me5"], spirits=["cunning"])
    for cell in [(0, 0), (0, 1), (0, 2)]:
        b.single(cell)
    g = b.g
    assert g.phase.name == "ACTION" and g.shrine_pool(0) == 4
    legal = tr.legal(g)
    assert spirits_of(legal) == ["spirit cunning shrine"]
    tr.apply(g, "spirit cunning shrine")
    assert g.phase.name == "SET" and tr.legal(g) == ["set 0,0"]
    tr.apply(g, "set 0,0")
    assert g.vp_tokens(0) == 2 and all(g.realm(0).top((0, c)) == DOWN for c in range(3))
    assert g.phase.name == "SHRINE" and tr.legal(g) == ["shrine 0,0", "shrine 0,1", "shrine 0,2", "done"]
    tr.apply(g, "shrine 0,1")
    # The Shrine step is over (the set's allowance is used): back before the Action.
    assert g.phase.name == "ACTION" and g.current_player == 0 and g.shrine_pool(0) == 2
    assert without_spirits(legal) == tr.legal(g)
    tr.apply(g, f"take {space(3)}", "take-shrine", "place 3,3")
    assert g.current_player == 1  # Cunning used: nothing to activate, the turn ends by itself
    assert g.realm(0).has_shrine((0, 1)) and g.realm(0).top((3, 3)) == up(dc, "Me5")


def test_beauty_at_the_start_of_a_turn_on_an_earlier_group(dc, tr):
    """R-SPIRIT-2 Beauty (before the Action, ACTION): a square of Faction tiles
    numbered 4 (Merchant, Soldier, Farmer, Soldier) placed in earlier turns is
    Consolidated at the start of a later turn: 2 + 1 VP and up to 2 Shrines, then the
    Action follows."""
    b = Sandbox(dc, ["Me4", "So4", "Fa4", "So4", "Wi1"], spirits=["beauty"])
    for cell in [(1, 0), (1, 1), (2, 1), (2, 0)]:
        b.single(cell)
    g = b.g
    assert g.phase.name == "ACTION" and g.vp_tokens(0) == 0
    assert spirits_of(tr.legal(g)) == ["spirit beauty shrine"]
    tr.apply(g, "spirit beauty shrine")
    assert g.phase.name == "SET" and tr.legal(g) == ["set 1,0"]
    tr.apply(g, "set 1,0")
    square = {(1, 0), (1, 1), (2, 0), (2, 1)}
    assert g.vp_tokens(0) == 3 and all(g.realm(0).top(c) == DOWN for c in square)
    assert g.phase.name == "SHRINE" and cells_of(g, "SHRINE") == square
    tr.apply(g, "shrine 1,0")
    assert g.phase.name == "SHRINE"
    tr.apply(g, "shrine 2,1")
    assert g.phase.name == "ACTION" and g.current_player == 0 and spirits_of(tr.legal(g)) == []
    tr.apply(g, f"take {space(4)}", "discard")
    assert g.current_player == 1 and g.vp_tokens(0) == 4


# ---------------------------------------------------------------- Strength after the Shrine step

def test_strength_after_the_shrine_step_makes_a_set_with_its_own_shrine_step(dc, tr):
    """R-SPIRIT-2 Strength (END_TURN), R-CONS-1, R-SHRINE-1 ("These sets should be
    Consolidated when they are created"): after the Winds' Consolidation and Shrine
    step, Strength moves Fa4 beside three Farmers: the new set is Consolidated at once
    with its own Shrine step, which serves only the new set (leaving a Shrine step ends
    the allowances of the sets before it). Then the turn ends by itself."""
    b = Sandbox(dc, ["Fa1", "Fa2", "Fa3", "Fa4", "Wi1", "Wi2", "Wi3", "Wi4"], spirits=["strength"])
    for cell in [(2, 0), (2, 1), (2, 2), (3, 3), (0, 0), (0, 1), (0, 2)]:
        b.single(cell)
    g = b.g
    tr.apply(g, f"take {space(7)}", "take-shrine", "place 0,3")
    assert g.phase.name == "SPIRITS"
    tr.apply(g, "done")
    assert g.phase.name == "SHRINE" and g.vp_tokens(0) == 2
    tr.apply(g, "shrine 0,0", "shrine 0,1")
    assert g.phase.name == "END_TURN" and g.current_player == 0
    assert "spirit strength shrine" in tr.legal(g)
    tr.apply(g, "spirit strength shrine", "move-from 3,3", "move-to 2,3")
    assert g.phase.name == "STRENGTH" and g.vp_tokens(0) == 2  # sets are checked after the moves
    assert tr.legal(g)[0] == "done"
    tr.apply(g, "done")
    farmers = {(2, 0), (2, 1), (2, 2), (2, 3)}
    assert g.vp_tokens(0) == 4 and all(g.realm(0).top(c) == DOWN for c in farmers)
    assert g.phase.name == "SHRINE" and tr.legal(g) == cell_texts("shrine", farmers) + ["done"]
    assert_illegal(dc, g, "shrine 0,2", "shrine 0,3")
    tr.apply(g, "shrine 2,3")
    assert g.current_player == 1 and g.phase.name == "ACTION"
    assert shrine_cells(g.realm(0)) == {(0, 0), (0, 1), (2, 3)}


# ---------------------------------------------------------------- END_TURN only when legal

def test_end_turn_offered_only_when_an_activation_is_legal(dc, tr):
    """R-SPIRIT-2 (end of turn): with Wind in play, a Discard Tile turn on an empty
    Realm has nothing to activate: no SPIRITS, no END_TURN, the turn ends by itself.
    A turn that places a lone face-up tile opens SPIRITS, and ``done`` there
    Consolidates no set: the turn passes at once (END_TURN would offer the same
    position). A turn whose placement completes a set of four Soldiers opens SPIRITS,
    then the Consolidation step and its Shrine step, then END_TURN (Wind may move the
    Shrine just built), where only ``done`` and activations are legal; ``done`` ends
    the turn."""
    b = Sandbox(dc, ["Me1", "So1", "So2", "So3", "So4"], spirits=["wind"])
    g = b.g
    tr.apply(g, f"take {space(0)}", "discard")
    assert g.current_player == 1 and g.vp_tokens(0) == 1
    b.opponent_discards()
    soldiers = [(2, 0), (2, 1), (2, 2), (2, 3)]
    for k, cell in enumerate(soldiers[:3]):
        tr.apply(g, f"take {space(1 + k)}", "take-shrine", f"place {cell[0]},{cell[1]}")
        assert g.phase.name == "SPIRITS"
        # Wind paid with a Shrine, or with a Soldier when another stays face up.
        assert tr.legal(g) == ["done"] + cell_texts("spirit wind", soldiers[:k + 1] if k else []) + [
            "spirit wind shrine"]
        tr.apply(g, "done")
        assert g.current_player == 1 and g.phase.name == "ACTION" and g.vp_tokens(0) == 1
        b.opponent_discards()
    tr.apply(g, f"take {space(4)}", "take-shrine", "place 2,3")
    assert g.phase.name == "SPIRITS" and tr.legal(g) == ["done"] + cell_texts("spirit wind", soldiers) + [
        "spirit wind shrine"]
    tr.apply(g, "done")
    assert g.vp_tokens(0) == 1 + 2 and all(g.realm(0).top(c) == DOWN for c in soldiers)
    assert g.phase.name == "SHRINE" and tr.legal(g) == cell_texts("shrine", soldiers) + ["done"]
    tr.apply(g, "shrine 2,2")
    assert g.phase.name == "END_TURN" and g.current_player == 0
    assert tr.legal(g) == ["done", "spirit wind shrine"]
    assert_illegal(dc, g, f"take {space(5)}", "place 1,1", "shrine 2,1", "flip 2,2", "discard", "spirit wind 2,2")
    tr.apply(g, "done")
    assert g.current_player == 1 and g.phase.name == "ACTION"
    assert shrine_cells(g.realm(0)) == {(2, 2)}


@pytest.mark.parametrize("players, seed", [(2, 5), (3, 6), (1, 7)])
def test_the_base_game_never_sees_spirits_or_end_turn(dc, tr, players, seed):
    """R-SPIRIT-2 (docs/cards.md: "A game without Spirit cards never sees SPIRITS or
    END_TURN"): random games without Spirit cards (Dragon cards do not matter) never
    reach either phase; ``done`` is only ever legal in the Shrine step."""
    g = dc.Game(players=players, seed=seed, dragons=2)
    rng = random.Random(seed)
    while not g.is_over:
        assert g.phase.name not in ("SPIRITS", "END_TURN")
        legal = tr.legal(g)
        assert "done" not in legal or g.phase.name == "SHRINE"
        assert spirits_of(legal) == []
        g.apply(rng.choice(legal))


# ---------------------------------------------------------------- R-PLACE-3 and a Spirit between the placements

def test_a_spirit_between_identical_placements_lifts_the_order(dc, tr):
    """R-SPIRIT-2, R-PLACE-3 [ruling] (docs/cards.md "Two identical tiles"): two
    identical tiles are one move in either order, listed once lower cell first, only
    while no Spirit could come between the placements. With Destruction unused, each
    tile may go on any free cell (a Spirit may come between, so the orders differ);
    once it is used before the first placement, the first never goes on the highest
    free cell and the second only above the first."""
    b = Sandbox(dc, ["Me1", "Me1"], spirits=["destruction"])
    g = b.g
    tr.apply(g, f"take {space(0)}", f"take {space(1)}")
    assert g.phase.name == "PLACE" and g.shrine_pool(0) == 1
    first = tr.legal(g)
    # Destruction may still come between: the first may go on the highest free cell (3,3).
    assert first == cell_texts("place", ALL_CELLS) + ["spirit destruction shrine"]
    early = g.clone()
    tr.apply(g, "place 1,1")
    # The second may go below the first; the placed tile may pay too (alone on its
    # cell: paying frees the cell, R-PLACE-2).
    assert tr.legal(g) == cell_texts("place", set(ALL_CELLS) - {(1, 1)}) + ["spirit destruction 1,1", "spirit destruction shrine"]
    plain = g.clone()
    plain.apply("place 0,0")
    assert plain.phase.name == "SPIRITS"  # Destruction is still unused

    tr.apply(g, "spirit destruction shrine", f"destroy {space(30)}")
    assert g.phase.name == "PLACE" and g.held_tiles == [dc.Tile("Me1")]
    assert g.observation(0)["spirit_between_placements"] is True
    assert tr.legal(g) == cell_texts("place", set(ALL_CELLS) - {(1, 1)})
    tr.apply(g, "place 0,0")
    assert g.current_player == 1
    assert g.realm(0).top((0, 0)) == up(dc, "Me1") and g.realm(0).top((1, 1)) == up(dc, "Me1")

    # Destruction used before the first placement: no Spirit can come between any
    # more, so the two orders are one move, lower cell first.
    early.apply("spirit destruction shrine")
    early.apply(f"destroy {space(30)}")
    assert early.phase.name == "PLACE" and texts(early) == cell_texts("place", set(ALL_CELLS) - {(3, 3)})
    assert early.observation(0)["spirit_between_placements"] is False
    assert_illegal(dc, early, "place 3,3")
    early.apply("place 1,1")
    assert texts(early) == cell_texts("place", [c for c in ALL_CELLS if c > (1, 1)])
    assert_illegal(dc, early, "place 0,0", "place 1,0")


def test_the_first_identical_tile_on_the_highest_free_cell_leaves_the_second_free(dc, tr):
    """R-PLACE-1, R-PLACE-3 [ruling], R-SPIRIT-2: while Destruction may still come
    between the placements, the first of two identical tiles may go on the highest
    free cell (3,3); the second then goes on any free cell, all of them below the
    first, whether or not the player goes on to use a Spirit. (A Rust rollout that
    stopped using Spirits here once listed no placement, or panicked in a debug
    build: the order of the two tiles is settled when the first is placed.)"""
    b = Sandbox(dc, ["Me1", "Me1"], spirits=["destruction"])
    g = b.g
    tr.apply(g, f"take {space(0)}", f"take {space(1)}", "place 3,3")
    assert g.phase.name == "PLACE" and g.held_tiles == [dc.Tile("Me1")]
    below = [c for c in ALL_CELLS if c < (3, 3)]
    assert without_spirits(tr.legal(g)) == cell_texts("place", below)
    tr.apply(g, "place 0,0")
    assert g.phase.name == "SPIRITS"  # Destruction is still unused
    tr.apply(g, "done")
    assert g.current_player == 1
    assert g.realm(0).top((0, 0)) == up(dc, "Me1") and g.realm(0).top((3, 3)) == up(dc, "Me1")


# ---------------------------------------------------------------- sets between the placements

def between_position(dc):
    """Wi2 Wi3 Wi4 face up on (0,0) (0,1) (0,2); Fa1 Fa2 Fa3 on (2,0) (2,1) (2,2), Fa4 on
    (3,3); seat 0 holds the Pair Wi1, Wi1 and has placed the first on (0,3): four
    Winds face up. Strength and Destruction in play; Shrine Pool 8."""
    b = Sandbox(dc, ["Wi2", "Wi3", "Wi4", "Fa1", "Fa2", "Fa3", "Fa4", "Wi1", "Wi1"],
                spirits=["strength", "destruction"])
    for cell in [(0, 0), (0, 1), (0, 2), (2, 0), (2, 1), (2, 2), (3, 3)]:
        b.single(cell)
    g = b.g
    g.apply(f"take {space(7)}")
    g.apply(f"take {space(8)}")
    g.apply("place 0,3")
    assert g.phase.name == "PLACE" and g.held_tiles == [dc.Tile("Wi1")] and g.shrine_pool(0) == 8
    return g


WINDS_ROW = {(0, 0), (0, 1), (0, 2), (0, 3)}


def test_between_the_placements_the_first_placements_group_waits(dc, tr):
    """R-SPIRIT-2 [ruling] (docs/cards.md "Consolidation after every Spirit"), R-CONS-1:
    between the two placements a Spirit's effect does not Consolidate the group of 4
    Winds made by the first placement: it waits for the Consolidation step after the
    placements, where the second Wind joins it (one set of 5, 3 VP)."""
    g = between_position(dc)
    tr.apply(g, "spirit destruction shrine", f"destroy {space(30)}")
    assert g.phase.name == "PLACE" and g.vp_tokens(0) == 0
    assert all(g.realm(0).top(c)[1] for c in WINDS_ROW)  # still face up
    tr.apply(g, "place 1,3")
    assert g.phase.name == "SPIRITS" and g.vp_tokens(0) == 0
    tr.apply(g, "done")
    assert g.vp_tokens(0) == 3 and g.phase.name == "SHRINE"
    assert cells_of(g, "SHRINE") == WINDS_ROW | {(1, 3)}


def test_between_the_placements_a_strength_group_is_consolidated_at_once(dc, tr):
    """R-SPIRIT-2 Strength [ruling] (docs/cards.md "Consolidation after every
    Spirit"), R-CONS-1, R-SHRINE-1: between the two placements, Strength moves Fa4
    beside three Farmers: that group contains a moved tile, so it is Consolidated at
    once (2 VP) with its Shrine step, while the first placement's four Winds wait. Play
    returns to the second placement; the Winds (5 with it) are Consolidated in the
    Consolidation step, whose Shrine step serves only them."""
    g = between_position(dc)
    tr.apply(g, "spirit strength shrine", "move-from 3,3", "move-to 2,3", "done")
    farmers = {(2, 0), (2, 1), (2, 2), (2, 3)}
    assert g.vp_tokens(0) == 2 and all(g.realm(0).top(c) == DOWN for c in farmers)
    assert all(g.realm(0).top(c)[1] for c in WINDS_ROW)
    # Destruction may still be activated during this Shrine step.
    assert g.phase.name == "SHRINE"
    legal = tr.legal(g)
    assert without_spirits(legal) == cell_texts("shrine", farmers) + ["done"]
    assert "spirit destruction shrine" in legal
    tr.apply(g, "shrine 2,0")
    assert g.phase.name == "PLACE" and g.held_tiles == [dc.Tile("Wi1")]
    tr.apply(g, "place 1,3")
    assert g.phase.name == "SPIRITS" and spirits_of(tr.legal(g)) != []  # Destruction
    tr.apply(g, "done")
    assert g.vp_tokens(0) == 2 + 3 and g.phase.name == "SHRINE"
    legal = tr.legal(g)
    assert without_spirits(legal) == cell_texts("shrine", WINDS_ROW | {(1, 3)}) + ["done"]
    assert "spirit destruction shrine" in legal
    tr.apply(g, "shrine 0,0", "shrine 1,3")
    # Every face-up tile is gone (Consolidated): only the Shrine pays.
    assert g.phase.name == "END_TURN" and tr.legal(g) == ["done", "spirit destruction shrine"]
    tr.apply(g, "done")
    assert g.current_player == 1 and shrine_cells(g.realm(0)) == {(2, 0), (0, 0), (1, 3)}


def test_no_shrine_between_the_placements_that_leaves_no_cell_for_the_second_tile(dc, tr):
    """R-SPIRIT-2 Faith [ruling] (docs/cards.md: "while tiles wait to be placed, a
    Shrine step builds no Shrine that would leave fewer free cells than tiles in
    hand"), R-PLACE-1/2, R-SHRINE-1: three Dragons Consolidated by Cunning before the
    Action get 2 Shrines; (3,3), the third, stays face down without one. Between the
    placements of a Pair it is the only free cell: Faith's extra Shrine paid with a
    Shrine could not go there (the second tile would have no cell), so that payment is
    not offered (R-SPIRIT-1); paid with a tile alone on its cell (which frees that
    cell) it can."""
    layout = {(0, 1): "Me1", (0, 2): "So1", (0, 3): "Fa1", (1, 0): "So2", (1, 1): "Fa2", (1, 2): "Me2",
              (1, 3): "So3", (2, 0): "Fa3", (2, 1): "Me3", (2, 2): "So4", (2, 3): "Fa4", (3, 0): "Me4",
              (3, 1): "Dr1", (3, 2): "Dr2", (3, 3): "Dr3"}
    b = Sandbox(dc, list(layout.values()) + ["Se1", "Se1"], spirits=["faith", "cunning"])
    for cell in layout:
        b.single(cell)
    g = b.g
    assert g.shrine_pool(0) == 16 and g.realm(0).placeable() == [(0, 0)]
    tr.apply(g, "spirit cunning shrine", "set 3,1")
    assert g.vp_tokens(0) == 3 and g.phase.name == "SHRINE"
    tr.apply(g, "shrine 3,1", "shrine 3,2")
    assert g.phase.name == "ACTION" and g.realm(0).placeable() == [(0, 0), (3, 3)]
    tr.apply(g, f"take {space(15)}", f"take {space(16)}")
    # Faith may still come between the placements: both orders are listed (R-PLACE-3).
    assert g.phase.name == "PLACE" and without_spirits(tr.legal(g)) == ["place 0,0", "place 3,3"]
    tr.apply(g, "place 0,0")
    legal = tr.legal(g)
    # Paid with a Shrine, Faith's extra Shrine could go nowhere (R-SPIRIT-1: an
    # activation is legal only if its effect can apply): not offered.
    assert without_spirits(legal) == ["place 3,3"] and "spirit faith shrine" not in legal
    assert "spirit faith 0,1" in legal
    assert_illegal(dc, g, "spirit faith shrine", "shrine 3,3")
    by_tile = g.clone()
    tr.apply(g, "place 3,3")
    assert g.current_player == 1 and g.realm(0).top((3, 3)) == up(dc, "Se1")

    by_tile.apply("spirit faith 0,1")
    assert by_tile.realm(0).top((0, 1)) is None
    assert by_tile.phase.name == "SHRINE" and texts(by_tile) == ["shrine 3,3", "done"]
    by_tile.apply("shrine 3,3")
    assert by_tile.phase.name == "PLACE" and texts(by_tile) == ["place 0,1"]
    by_tile.apply("place 0,1")
    assert by_tile.current_player == 1 and by_tile.realm(0).has_shrine((3, 3))


# ---------------------------------------------------------------- Beauty during a Shrine step

def test_beauty_during_a_shrine_step(dc, tr):
    """R-SPIRIT-2 Beauty (during the Shrine step, SHRINE), R-SHRINE-1: after the four
    Winds are Consolidated, Beauty Consolidates the same-number Faction group beside
    them (So2 Fa2 So2 Fa2: 2 + 1 VP). The Shrine step goes on, serving both sets, each
    with its own allowance (2 each; allowances do not pool); after the last Shrine,
    nothing is left to activate and the turn ends."""
    tops = ["Wi1", "Wi2", "Wi3", "So2", "Fa2", "So2", "Fa2", "Wi4"]
    b = Sandbox(dc, tops, spirits=["beauty"])
    for cell in [(0, 0), (0, 1), (0, 2), (1, 0), (1, 1), (1, 2), (1, 3)]:
        b.single(cell)
    g = b.g
    tr.apply(g, f"take {space(7)}", "take-shrine", "place 0,3")
    assert g.phase.name == "SPIRITS"
    tr.apply(g, "done")
    assert g.phase.name == "SHRINE" and g.vp_tokens(0) == 2 and g.shrine_pool(0) == 9
    winds, group = WINDS_ROW, {(1, 0), (1, 1), (1, 2), (1, 3)}
    assert tr.legal(g) == cell_texts("shrine", winds) + ["done", "spirit beauty shrine"]
    tr.apply(g, "shrine 0,0", "spirit beauty shrine")
    assert g.phase.name == "SET" and tr.legal(g) == ["set 1,0"]
    tr.apply(g, "set 1,0")
    assert g.vp_tokens(0) == 2 + 3 and all(g.realm(0).top(c) == DOWN for c in group)
    assert g.phase.name == "SHRINE" and g.current_player == 0
    assert tr.legal(g) == cell_texts("shrine", (winds - {(0, 0)}) | group) + ["done"]
    tr.apply(g, "shrine 0,1")  # the Winds' second and last
    assert tr.legal(g) == cell_texts("shrine", group) + ["done"]
    tr.apply(g, "shrine 1,1", "shrine 1,3")
    assert g.current_player == 1 and g.shrine_pool(0) == 4
    assert shrine_cells(g.realm(0)) == {(0, 0), (0, 1), (1, 1), (1, 3)}


# ---------------------------------------------------------------- Change and Cunning during a Shrine step, Beauty in END_TURN

def winds_beside(dc, tr, row_1, spirits):
    """Wi1 Wi2 Wi3 face up on (0,0) (0,1) (0,2) and the tiles ``row_1`` on (1,0)...
    (placed in earlier turns); seat 0 then takes Wi4 (Tile and Shrine) and places it on
    (0,3): four Winds face up beside the group of row 1, after the placement (SPIRITS,
    where ``spirits`` has an activation). Shrine Pool 1 + the tiles taken (9 with four tiles in row 1)."""
    tops = ["Wi1", "Wi2", "Wi3", *row_1, "Wi4"]
    b = Sandbox(dc, tops, spirits=spirits)
    for cell in [(0, 0), (0, 1), (0, 2)] + [(1, c) for c in range(len(row_1))]:
        b.single(cell)
    g = b.g
    tr.apply(g, f"take {space(len(tops) - 1)}", "take-shrine", "place 0,3")
    assert g.phase.name == "SPIRITS" and g.current_player == 0 and g.vp_tokens(0) == 0
    assert g.shrine_pool(0) == len(tops) + 1
    return g


def test_change_during_a_shrine_step(dc, tr):
    """R-SPIRIT-2 Change (during the Shrine step, SHRINE), R-CONS-1, R-SHRINE-1: the
    Consolidation step makes a set of four Winds; during its Shrine step Change treats
    the Se1 on (1,3), beside both the Winds and three Farmers, as a Farmer: the four
    Farmers are Consolidated at once as a Faction set (2 VP, 1 Shrine). Turning it into
    a Wind would only join a set (not offered), and any tile payment would break the
    group: only a Shrine pays. The Shrine step goes on, serving both sets with their
    own allowances (Winds 2, Farmers 1); after the last Shrine nothing is left to
    activate and the turn ends."""
    g = winds_beside(dc, tr, ["Fa1", "Fa2", "Fa3", "Se1"], ["change"])
    winds, farmers = WINDS_ROW, {(1, 0), (1, 1), (1, 2), (1, 3)}
    # The Winds, face up until the Consolidation step, may pay too.
    assert tr.legal(g) == ["done"] + cell_texts("spirit change", winds) + ["spirit change shrine"]
    tr.apply(g, "done")
    assert g.vp_tokens(0) == 2 and all(g.realm(0).top(c) == DOWN for c in winds)
    assert g.realm(0).top((1, 3)) == up(dc, "Se1")
    assert g.phase.name == "SHRINE" and tr.legal(g) == cell_texts("shrine", winds) + ["done", "spirit change shrine"]
    tr.apply(g, "shrine 0,0", "spirit change shrine")
    assert g.phase.name == "CHANGE" and g.shrine_pool(0) == 9 - 2
    assert tr.legal(g) == ["change 1,3 farmer"]
    tr.apply(g, "change 1,3 farmer")
    assert g.vp_tokens(0) == 2 + 2 and all(g.realm(0).top(c) == DOWN for c in farmers)
    assert g.phase.name == "SHRINE" and g.current_player == 0
    assert tr.legal(g) == cell_texts("shrine", (winds - {(0, 0)}) | farmers) + ["done"]
    tr.apply(g, "shrine 1,3")  # the changed tile: the Farmers' one Shrine
    assert g.phase.name == "SHRINE" and tr.legal(g) == cell_texts("shrine", winds - {(0, 0)}) + ["done"]
    tr.apply(g, "shrine 0,2")  # the Winds' second and last
    assert g.current_player == 1 and g.phase.name == "ACTION"
    assert shrine_cells(g.realm(0)) == {(0, 0), (0, 2), (1, 3)} and g.shrine_pool(0) == 9 - 4
    assert g.score_breakdown(0)["shrines"] == 3


def test_cunning_during_a_shrine_step(dc, tr):
    """R-SPIRIT-2 Cunning (during the Shrine step, SHRINE), R-CONS-3, R-SHRINE-1: the
    Consolidation step makes a set of four Winds; at the start of its Shrine step
    Cunning Consolidates the three Farmers beside them (exactly 3: 2 VP, 1 Shrine, a
    Faction set); paying with a Farmer would break the group, so only a Shrine pays.
    The Shrine step goes on and serves both sets; the Farmers' one Shrine used, only
    the Winds' tiles are offered; ``done`` ends the step and with it every allowance,
    and with Cunning used the turn ends."""
    g = winds_beside(dc, tr, ["Fa1", "Fa2", "Fa3"], ["cunning"])
    winds, farmers = WINDS_ROW, {(1, 0), (1, 1), (1, 2)}
    # The Winds, face up until the Consolidation step, may pay too.
    assert tr.legal(g) == ["done"] + cell_texts("spirit cunning", winds) + ["spirit cunning shrine"]
    tr.apply(g, "done")
    assert g.vp_tokens(0) == 2 and all(g.realm(0).top(c)[1] for c in farmers)
    assert g.phase.name == "SHRINE" and tr.legal(g) == cell_texts("shrine", winds) + ["done", "spirit cunning shrine"]
    tr.apply(g, "spirit cunning shrine")
    assert g.phase.name == "SET" and tr.legal(g) == ["set 1,0"]
    tr.apply(g, "set 1,0")
    assert g.vp_tokens(0) == 2 + 2 and all(g.realm(0).top(c) == DOWN for c in farmers)
    assert g.phase.name == "SHRINE" and g.current_player == 0 and g.shrine_pool(0) == 8 - 1
    assert tr.legal(g) == cell_texts("shrine", winds | farmers) + ["done"]
    tr.apply(g, "shrine 1,1")
    assert g.phase.name == "SHRINE" and tr.legal(g) == cell_texts("shrine", winds) + ["done"]
    tr.apply(g, "done")
    assert g.current_player == 1 and g.phase.name == "ACTION"
    assert shrine_cells(g.realm(0)) == {(1, 1)} and g.shrine_pool(0) == 8 - 2


def test_cunning_in_end_turn(dc, tr):
    """R-SPIRIT-2 Cunning (after the Shrine step, END_TURN), R-SHRINE-1: Cunning
    declined in SPIRITS, the Consolidation step makes a set of four Winds and its
    Shrine step builds both their Shrines; the three Farmers beside them are still a
    group of exactly 3, so END_TURN follows, where only a Shrine pays (every face-up
    tile is in the group). Cunning Consolidates them (2 VP), its own Shrine step
    serves only them (1 Shrine, a Faction set), and the turn ends."""
    g = winds_beside(dc, tr, ["Fa1", "Fa2", "Fa3"], ["cunning"])
    winds, farmers = WINDS_ROW, {(1, 0), (1, 1), (1, 2)}
    tr.apply(g, "done")
    assert g.phase.name == "SHRINE" and g.vp_tokens(0) == 2
    tr.apply(g, "shrine 0,0", "shrine 0,1")
    assert g.phase.name == "END_TURN" and g.current_player == 0
    assert tr.legal(g) == ["done", "spirit cunning shrine"]
    tr.apply(g, "spirit cunning shrine")
    assert g.phase.name == "SET" and tr.legal(g) == ["set 1,0"]
    tr.apply(g, "set 1,0")
    assert g.vp_tokens(0) == 2 + 2 and all(g.realm(0).top(c) == DOWN for c in farmers)
    assert g.phase.name == "SHRINE" and tr.legal(g) == cell_texts("shrine", farmers) + ["done"]
    assert_illegal(dc, g, "shrine 0,2", "shrine 0,3")
    tr.apply(g, "shrine 1,1")
    assert g.current_player == 1 and g.phase.name == "ACTION"
    assert shrine_cells(g.realm(0)) == {(0, 0), (0, 1), (1, 1)} and g.shrine_pool(0) == 8 - 4


def test_change_in_end_turn(dc, tr):
    """R-SPIRIT-2 Change (after the Shrine step, END_TURN), R-CONS-1, R-SHRINE-1:
    after the Winds' set and both its Shrines, the Se1 on (1,3) beside three Farmers
    may stand for a Farmer (the Wind beside it is face down now): END_TURN offers
    Change, paid with a Shrine only (every face-up tile is in the group it makes). The
    four Farmers are Consolidated as a Faction set (2 VP, 1 Shrine) and the turn ends."""
    g = winds_beside(dc, tr, ["Fa1", "Fa2", "Fa3", "Se1"], ["change"])
    farmers = {(1, 0), (1, 1), (1, 2), (1, 3)}
    tr.apply(g, "done")
    assert g.phase.name == "SHRINE" and g.vp_tokens(0) == 2
    tr.apply(g, "shrine 0,0", "shrine 0,1")
    assert g.phase.name == "END_TURN" and tr.legal(g) == ["done", "spirit change shrine"]
    tr.apply(g, "spirit change shrine")
    assert g.phase.name == "CHANGE" and tr.legal(g) == ["change 1,3 farmer"]
    tr.apply(g, "change 1,3 farmer")
    assert g.vp_tokens(0) == 2 + 2 and all(g.realm(0).top(c) == DOWN for c in farmers)
    assert g.phase.name == "SHRINE" and tr.legal(g) == cell_texts("shrine", farmers) + ["done"]
    tr.apply(g, "shrine 1,3")
    assert g.current_player == 1 and g.phase.name == "ACTION"
    assert shrine_cells(g.realm(0)) == {(0, 0), (0, 1), (1, 3)} and g.shrine_pool(0) == 9 - 4


def test_beauty_in_end_turn(dc, tr):
    """R-SPIRIT-2 Beauty (after the Shrine step, END_TURN), R-SHRINE-1: the
    Consolidation step makes a set of four Winds (2 VP) and its Shrine step builds
    their 2 Shrines; Beauty was declined in SPIRITS, so the same-number Faction group
    beside them (So2 Fa2 So2 Fa2) is still face up and END_TURN follows. There Beauty
    Consolidates it (2 + 1 VP); its own Shrine step serves only the new set (the Winds'
    allowances ended with their step; (0,2) and (0,3) have no Shrine but are not
    offered), up to 2 Shrines; then nothing is left to activate and the turn ends."""
    g = winds_beside(dc, tr, ["So2", "Fa2", "So2", "Fa2"], ["beauty"])
    winds, group = WINDS_ROW, {(1, 0), (1, 1), (1, 2), (1, 3)}
    # The Winds, face up until the Consolidation step, may pay too.
    assert tr.legal(g) == ["done"] + cell_texts("spirit beauty", winds) + ["spirit beauty shrine"]
    tr.apply(g, "done")
    assert g.vp_tokens(0) == 2 and g.phase.name == "SHRINE"
    assert tr.legal(g) == cell_texts("shrine", winds) + ["done", "spirit beauty shrine"]
    tr.apply(g, "shrine 0,0", "shrine 0,1")
    assert g.phase.name == "END_TURN" and g.current_player == 0
    assert all(g.realm(0).top(c)[1] for c in group)
    # Every tile of the group is needed: only a Shrine pays.
    assert tr.legal(g) == ["done", "spirit beauty shrine"]
    tr.apply(g, "spirit beauty shrine")
    assert g.phase.name == "SET" and tr.legal(g) == ["set 1,0"]
    tr.apply(g, "set 1,0")
    assert g.vp_tokens(0) == 2 + 3 and all(g.realm(0).top(c) == DOWN for c in group)
    assert g.phase.name == "SHRINE" and g.current_player == 0 and g.shrine_pool(0) == 9 - 3
    assert tr.legal(g) == cell_texts("shrine", group) + ["done"]
    assert_illegal(dc, g, "shrine 0,2", "shrine 0,3")
    tr.apply(g, "shrine 1,0")
    assert g.phase.name == "SHRINE" and tr.legal(g) == cell_texts("shrine", group - {(1, 0)}) + ["done"]
    tr.apply(g, "shrine 1,3")
    assert g.current_player == 1 and g.phase.name == "ACTION"
    assert shrine_cells(g.realm(0)) == {(0, 0), (0, 1), (1, 0), (1, 3)} and g.shrine_pool(0) == 9 - 5


# ---------------------------------------------------------------- solo

def test_the_solo_dragon_never_activates_spirits(dc, tr):
    """R-SOLO-2/3, R-SPIRIT-2 ("during your turn"): in a solo game with every Spirit in
    play the player may activate them, but the Dragon of Ingenuity only picks tiles
    (``take``, and ``done`` after a single tile, docs/solo.md) or Summons: none of its
    actions is an activation or a decision of a Spirit's phase."""
    g = dc.Game(players=1, seed=21, spirits=10)
    rng = random.Random(21)
    while not g.is_over:
        legal = tr.legal(g)
        # Prefer activations, so that the player's turns often end in END_TURN.
        spirit = spirits_of(legal)
        g.apply(rng.choice(spirit if spirit and rng.random() < 0.5 else legal))
    assert any(a.kind.name == "SPIRIT" and not by_dragon for a, by_dragon in zip(g.history, g.history_by_dragon))
    dragon = [a for a, by_dragon in zip(g.history, g.history_by_dragon) if by_dragon]
    assert dragon and all(a.kind.name in ("TAKE", "DONE", "SUMMON") for a in dragon)


# ---------------------------------------------------------------- JSON

def end_turn_game(dc):
    """winds_position's turn, stopped in END_TURN after the Shrine step (Wind unused)."""
    b = winds_position(dc)
    g = b.g
    for action in (f"take {space(4)}", f"take {space(5)}", "place 0,3", "place 1,3", "done", "shrine 0,0",
                   "shrine 0,1"):
        g.apply(action)
    assert g.phase.name == "END_TURN"
    return g


def test_json_of_a_game_with_spirits_is_version_3_and_round_trips(dc, tr):
    """R-SPIRIT-2, docs/cards.md "Games recorded before this rule": a game with Spirit
    cards is written as JSON version 3 and read back as the same game, also stopped in
    END_TURN and after a Spirit used there."""
    g = end_turn_game(dc)
    for step in range(3):
        text = g.to_json()
        assert json.loads(text)["version"] == 3
        again = dc.Game.from_json(text)
        assert again == g and again.to_json() == text and again.spirits == ["wind"]
        assert again.current_player == g.current_player and texts(again) == tr.legal(g)
        if step == 0:
            assert again.phase.name == "END_TURN"
            tr.apply(g, "spirit wind shrine", "flip 3,3")
        elif step == 1:
            assert again.phase.name == "WIND"
            tr.apply(g, "done")
    assert g.current_player == 1 and g.realm(0).top((3, 3)) == DOWN


def test_json_version_2_with_spirit_cards_is_refused(dc):
    """R-SPIRIT-2, docs/cards.md "Games recorded before this rule": a version 2 game
    with Spirit cards was recorded under the withdrawn four-window rule: reading it is
    a ValueError that says so."""
    for g in (dc.Game(players=2, seed=3, spirits=["wind"]), end_turn_game(dc)):
        data = json.loads(g.to_json())
        data["version"] = 2
        with pytest.raises(ValueError) as info:
            dc.Game.from_json(json.dumps(data))
        message = str(info.value)
        assert "withdrawn" in message and "four-window" in message and "recorded under" in message


def test_json_version_2_without_spirit_cards_still_loads(dc):
    """docs/cards.md "Games recorded before this rule" (R-SPIRIT-2 changed nothing
    without Spirit cards): a version 2 game without Spirit cards, Dragon cards
    included, loads as the same game and is written back as version 3."""
    g = dc.Game(players=3, seed=9, dragons=["harmony", "power"])
    rng = random.Random(9)
    for _ in range(40):
        g.apply(rng.choice(g.legal_action_ids()))
    data = json.loads(g.to_json())
    data["version"] = 2
    again = dc.Game.from_json(json.dumps(data))
    assert again == g and json.loads(again.to_json())["version"] == 3
    assert [str(a) for a in again.history] == [str(a) for a in g.history]


# ---------------------------------------------------------------- observation

def test_observation_version_3_marks_end_turn(dc, tr):
    """R-SPIRIT-2, docs/observation.md, docs/cards.md "Observation additions": version 3
    (the default) has 304 planes; plane 302 is 1 in END_TURN and 0 elsewhere; plane 303
    marks a Spirit between the placements. Versions 1 and 2 (247 and 302 planes) are
    still readable and are the first planes of version 3; the version 2 phase one-hot
    is all zero in END_TURN. The compact observation has 1190 bytes; its phase index
    is 14 in END_TURN."""
    assert dc.OBSERVATION_VERSION == 3 and dc.OBSERVATION_SHAPE == (304, 12, 12)
    assert [dc.observation_shape(v) for v in (1, 2, 3)] == [(247, 12, 12), (302, 12, 12), (304, 12, 12)]
    assert dc.COMPACT_OBSERVATION_SIZE == 1190
    b = winds_position(dc)
    g = b.g
    steps = [f"take {space(4)}", f"take {space(5)}", "place 0,3", "spirit wind shrine", "flip 3,3", "place 1,3",
             "shrine 0,0", "shrine 0,1"]
    # Plane 303 after these steps (the turn's flag; not asserted after the placements).
    between = {f"take {space(4)}": 0, f"take {space(5)}": 0, "place 0,3": 0, "spirit wind shrine": 1, "flip 3,3": 1}
    for step in steps:
        t = g.observation_tensor(0)
        assert t.shape == (304, 12, 12) and (t[302] == 0).all(), step
        tr.apply(g, step)
        if step in between:
            assert (g.observation_tensor(0)[303] == between[step]).all(), step
            assert g.observation(0)["spirit_between_placements"] is bool(between[step])
    # Wind used between the placements: the turn ended by itself, and the turn's flag
    # is cleared. Now a turn that waits in END_TURN.
    assert g.current_player == 1 and (g.observation_tensor(1)[303] == 0).all()
    g = end_turn_game(dc)
    t3 = g.observation_tensor(0, version=3)
    t2 = g.observation_tensor(0, version=2)
    t1 = g.observation_tensor(0, version=1)
    assert t3.shape == (304, 12, 12) and t2.shape == (302, 12, 12) and t1.shape == (247, 12, 12)
    assert np.array_equal(t3, g.observation_tensor(0)) and np.array_equal(t3[:302], t2)
    assert np.array_equal(t2[:247], t1)
    assert (t3[302] == 1).all() and (t3[303] == 0).all()
    assert (t2[247:261] == 0).all() and (t1[184:189] == 0).all()
    assert g.observation(0)["phase"] == "END_TURN"
    compact = g.compact_observation(0)
    assert compact.shape == (1190,) and compact[1059] == 14
    tr.legal(g)
    g.apply("done")
    assert (g.observation_tensor(1)[302] == 0).all() and g.compact_observation(1)[1059] == 0


# ---------------------------------------------------------------- the refusal's message

def test_a_spirit_that_cannot_be_activated_now_says_so(dc, tr):
    """R-SPIRIT-1, R-SPIRIT-2: activating a Spirit where it cannot be (inside another card's
    effect, here Wind's flip) raises IllegalActionError; the message says it cannot be
    activated now and speaks of no window (the four-window rule is withdrawn)."""
    b = winds_position(dc, spirits=("wind", "destruction"))
    g = b.g
    tr.apply(g, "spirit wind shrine")
    assert g.phase.name == "WIND"
    with pytest.raises(dc.IllegalActionError) as info:
        g.apply("spirit destruction shrine")
    message = str(info.value)
    assert "cannot be activated now" in message and "window" not in message.lower()
    tr.apply(g, "flip 3,3")
    assert g.phase.name == "ACTION" and "spirit destruction shrine" in tr.legal(g)


# ---------------------------------------------------------------- both engines agree

SCENARIOS = [pytest.param(test_wind_at_each_decision_point, {"point": p}, id=f"wind-{p}") for p in POINTS] + [
    pytest.param(f, {}, id=f.__name__[5:]) for f in (
        test_destruction_after_the_placements_frees_a_castle_tile,
        test_destruction_in_end_turn_takes_a_tile_off_the_top_floor,
        test_wind_after_the_shrine_step_moves_the_shrine_just_built,
        test_cunning_at_the_start_of_a_turn_on_an_earlier_group,
        test_beauty_at_the_start_of_a_turn_on_an_earlier_group,
        test_strength_after_the_shrine_step_makes_a_set_with_its_own_shrine_step,
        test_end_turn_offered_only_when_an_activation_is_legal,
        test_a_spirit_between_identical_placements_lifts_the_order,
        test_the_first_identical_tile_on_the_highest_free_cell_leaves_the_second_free,
        test_between_the_placements_the_first_placements_group_waits,
        test_between_the_placements_a_strength_group_is_consolidated_at_once,
        test_no_shrine_between_the_placements_that_leaves_no_cell_for_the_second_tile,
        test_beauty_during_a_shrine_step,
        test_change_during_a_shrine_step,
        test_cunning_during_a_shrine_step,
        test_beauty_in_end_turn,
        test_cunning_in_end_turn,
        test_change_in_end_turn,
        test_the_solo_dragon_never_activates_spirits,
        test_json_of_a_game_with_spirits_is_version_3_and_round_trips,
        test_observation_version_3_marks_end_turn,
        test_a_spirit_that_cannot_be_activated_now_says_so,
    )
] + [pytest.param(test_the_base_game_never_sees_spirits_or_end_turn, {"players": p, "seed": s}, id=f"base-{p}p")
     for p, s in ((2, 5), (3, 6), (1, 7))]


@pytest.mark.parametrize("scenario, kwargs", SCENARIOS)
def test_engines_agree(scenario, kwargs):
    """R-SPIRIT-2, R-SEED-1: both engines offer the same legal actions (as text, in
    the same order) before every decision of each scenario above."""
    traces = {}
    for name, module in ENGINE_MODULES.items():
        traces[name] = Trace()
        scenario(module, traces[name], **kwargs)
    assert traces["rust"].lists == traces["reference"].lists
    assert traces["rust"].lists  # the scenario did record its decisions


@pytest.mark.parametrize("card", dragoncastle.SPIRITS)
def test_engines_agree_on_random_games_with_one_spirit(card):
    """R-SPIRIT-2, R-SEED-1: with one Spirit card in play (so that SPIRITS and END_TURN
    open only when that card applies), random games that activate it whenever they
    can in about half the cases: both engines offer the same legal actions at every
    step and end with the same scores and JSON."""
    for seed in range(3):
        a = dragoncastle.Game(players=2, seed=seed, spirits=[card])
        b = reference.Game(players=2, seed=seed, spirits=[card])
        rng = random.Random(seed)
        while not a.is_over:
            legal = texts(a)
            assert legal == texts(b), (seed, [str(x) for x in b.history[-8:]])
            activations = spirits_of(legal)
            choice = rng.choice(activations if activations and rng.random() < 0.6 else legal)
            a.apply(choice)
            b.apply(choice)
        assert b.is_over and a.scores() == b.scores() and a.to_json() == b.to_json()
