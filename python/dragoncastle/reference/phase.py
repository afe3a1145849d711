"""Which decision is pending (docs/cards.md "The turn with cards, step by step")."""

from __future__ import annotations

import enum


class Phase(enum.Enum):
    """Which decision is pending (``Game.phase``); docs/cards.md lists the turn step by step.

    Members, in index order (``int(member)``; the tensor's phase one-hot
    covers the first 14, ``END_TURN`` has plane 302): ``ACTION`` (first pick or Summon), ``COMPLETE`` (second
    tile, Shrine or Discard, R-ACT-4), ``PLACE`` (place a collected tile),
    ``SHRINE`` (build Shrines on this turn's sets), ``GAME_OVER``, and the
    Spirit card phases ``SPIRITS`` (after the Action, before Consolidation),
    ``DESTROY``, ``WIND``, ``WIND_TO``, ``STRENGTH``, ``STRENGTH_TO``, ``SET``,
    ``CHANGE``, ``CUNNING`` and ``END_TURN`` (after the Consolidation step).
    A Spirit may be activated in ``ACTION``, ``COMPLETE``, ``PLACE``,
    ``SPIRITS``, ``SHRINE`` and ``END_TURN`` (R-SPIRIT-2); a game without
    Spirit cards never enters ``SPIRITS`` or ``END_TURN``.

    >>> Phase.SHRINE, int(Phase.SHRINE)
    (Phase.SHRINE, 3)
    """

    ACTION = 0  # take the first tile from the top floor, or Summon
    COMPLETE = 1  # complete the action with the first tile in hand
    PLACE = 2  # place the next collected tile
    SHRINE = 3  # the Shrine step: build Shrines on this turn's sets, or Done
    GAME_OVER = 4
    SPIRITS = 5  # after the Action and its placements, before the Consolidation step
    DESTROY = 6  # Destruction: discard an Available castle tile
    WIND = 7  # Wind: flip a face-up tile and/or lift a Shrine
    WIND_TO = 8  # Wind: put the lifted Shrine down
    STRENGTH = 9  # Strength: lift a top tile (or Done after a move)
    STRENGTH_TO = 10  # Strength: put the lifted tile down
    SET = 11  # Beauty or Cunning: name the group to Consolidate
    CHANGE = 12  # Change: a Special tile and the type it stands for
    CUNNING = 13  # Change's group of 3 waits for Cunning's activation
    END_TURN = 14  # after the Consolidation step and its Shrine step: a Spirit, or Done

    def __int__(self) -> int:
        return self.value

    def __repr__(self) -> str:
        return f"Phase.{self.name}"
