"""Solo mode: the Dragon of Ingenuity (R-SOLO-1..5), a pure function of what
everyone can see."""

from __future__ import annotations

from typing import Any

from .actions import Action
from .tiles import Tile, TileType

#: R-SOLO-1: three Countdown tokens on the track; the third triggers the end.
SOLO_TRACK = 3

#: R-SOLO-5: (lowest score, rank), best last.
RANKS = [(0, "Student"), (40, "Devotee"), (46, "Master"), (50, "Grand Master"), (53, "Dragon"),
         (55, "Silver Dragon"), (57, "Gold Dragon"), (59, "Jade Dragon"), (60, "Diamond Dragon")]


def rank(score: int) -> str:
    """The solo rank of a final score (R-SOLO-5).

    >>> rank(45), rank(60)
    ('Devotee', 'Diamond Dragon')
    """
    return [name for lowest, name in RANKS if score >= lowest][-1] if score >= 0 else "Student"


def _priorities(last: TileType | None):
    """R-SOLO-3, after Summon: the type the player took last turn, then Dragon,
    Special, Faction tiles."""
    return [
        lambda t: t.type is last,
        lambda t: t.type is TileType.DRAGON,
        lambda t: not t.type.is_faction,
        lambda t: t.type.is_faction,
    ]


def first_pick(game: Any) -> Action | None:
    """R-SOLO-3, R-SOLO-4: the first category with an Available top-floor tile;
    the northernmost, then westernmost one."""
    castle = game.castle
    top = castle.top_floor()
    candidates = [s for s in castle.spaces() if castle.height(s) == top and castle.is_available(s)]
    for wanted in _priorities(game.last_pick[game.previous_seat()]):
        matching = [s for s in candidates if wanted(castle.top(s))]
        if matching:
            return Action.take(min(matching))
    return None


def second_pick(game: Any, first: Tile) -> Action | None:
    """R-SOLO-4: the northernmost, then westernmost Available identical tile,
    judged after the first pick left the castle."""
    castle = game.castle
    matching = [s for s in castle.spaces() if castle.top(s) == first and castle.is_available(s)]
    return Action.take(min(matching)) if matching else None
