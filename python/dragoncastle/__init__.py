"""dragoncastle: the board game *Dragon Castle* for game-AI work.

A Rust rules core behind a small Python API::

    >>> import dragoncastle as dc
    >>> g = dc.Game(players=2, seed=7)
    >>> g.phase, g.current_player
    (Phase.ACTION, 0)
    >>> first = g.legal_actions()[0]
    >>> first.kind
    ActionKind.TAKE
    >>> g.apply(first)
    >>> g.phase
    Phase.COMPLETE
    >>> g.undo() == first
    True

Rule ids (``R-...``) in the documentation refer to the project's rules text
(``docs/rules.md``).
"""

from __future__ import annotations

try:
    from ._core import (
        DRAGONS,
        DRAGON_EFFECTS,
        MAX_LEGAL_ACTIONS,
        NUM_ACTIONS,
        COMPACT_OBSERVATION_SIZE,
        OBSERVATION_SHAPE,
        OBSERVATION_VERSION,
        SPIRITS,
        SPIRIT_EFFECTS,
        Action,
        ActionKind,
        Game,
        IllegalActionError,
        InvalidActionError,
        Layout,
        Phase,
        Realm,
        Rules,
        Tile,
        TileType,
        VecEnv,
        dragon_points,
        observation_shape,
        playouts,
        solo_rank,
    )
except ImportError as _missing:
    # The compiled engine did not load (no wheel for this platform, say):
    # the pure-Python engine still works, and every other name says why it
    # is missing when it is used.
    from . import reference
    from .errors import IllegalActionError, InvalidActionError

    _CORE_ERROR = _missing

    def __getattr__(name: str) -> object:
        raise ImportError(
            f"dragoncastle.{name} needs the compiled engine (dragoncastle._core), which did not load: "
            f"{_CORE_ERROR}. The pure-Python engine works without it: dragoncastle.reference.Game"
        )
else:
    from . import agents, reference
    from .agents import SearchResult
    from .arena import ArenaResult, arena
    from .play import GameResult, play
    from .selfplay import selfplay
    from .ladder import LadderResult, ladder

__version__ = "0.1.0"

__all__ = [
    "selfplay",
    "ladder",
    "LadderResult",
    "DRAGONS",
    "DRAGON_EFFECTS",
    "MAX_LEGAL_ACTIONS",
    "NUM_ACTIONS",
    "COMPACT_OBSERVATION_SIZE",
    "OBSERVATION_SHAPE",
    "OBSERVATION_VERSION",
    "SPIRITS",
    "SPIRIT_EFFECTS",
    "Action",
    "ActionKind",
    "ArenaResult",
    "Game",
    "GameResult",
    "IllegalActionError",
    "InvalidActionError",
    "Layout",
    "Phase",
    "Realm",
    "Rules",
    "SearchResult",
    "Tile",
    "TileType",
    "VecEnv",
    "agents",
    "arena",
    "dragon_points",
    "observation_shape",
    "reference",
    "play",
    "playouts",
    "solo_rank",
]
