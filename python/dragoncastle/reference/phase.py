"""Which decision is pending."""

from __future__ import annotations

import enum


class Phase(enum.Enum):
    ACTION = 0  # take the first tile from the top floor, or Summon
    COMPLETE = 1  # complete the action with the first tile in hand
    PLACE = 2  # place the next collected tile
    SHRINE = 3  # build Shrines on this turn's sets, or Done
    GAME_OVER = 4

    def __int__(self) -> int:
        return self.value

    def __repr__(self) -> str:
        return f"Phase.{self.name}"
