"""The pure-Python reference engine: the same API and rules as ``dragoncastle.Game``.

Written for clarity, as a readable twin of the rulebook, and independent of the
Rust core: nothing here imports ``dragoncastle._core`` (a test checks that). The
two engines share only the written rules, the documented PRNG and the tests.

>>> from dragoncastle import reference as ref
>>> g = ref.Game(players=2, seed=7)
>>> g.phase
Phase.ACTION
>>> g.apply(g.legal_actions()[0]); g.phase
Phase.COMPLETE
"""

from __future__ import annotations

from . import agents
from .actions import DRAGONS, MAX_LEGAL_ACTIONS, NUM_ACTIONS, SPIRITS, Action, ActionKind, IllegalActionError, InvalidActionError
from .dragons import dragon_points
from .game import Game, Rules
from .layout import Layout
from .observe import COMPACT_OBSERVATION_SIZE, OBSERVATION_SHAPE, OBSERVATION_VERSION, observation_shape
from .phase import Phase
from .realm import Realm
from .solo import rank as solo_rank
from .tiles import Tile, TileType

__all__ = [
    "COMPACT_OBSERVATION_SIZE", "DRAGONS", "MAX_LEGAL_ACTIONS", "agents", "NUM_ACTIONS", "OBSERVATION_SHAPE", "OBSERVATION_VERSION", "SPIRITS",
    "Action", "ActionKind", "Game", "IllegalActionError", "InvalidActionError", "Layout", "Phase", "Realm", "Rules", "Tile", "TileType",
    "dragon_points", "observation_shape", "solo_rank",
]
