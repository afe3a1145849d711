"""Reinforcement-learning environments (optional extras, ``docs/environments.md``).

- :mod:`dragoncastle.envs.pettingzoo`: every seat is an agent (PettingZoo AEC, like its classic
  board games).
- :mod:`dragoncastle.envs.gymnasium`: one learner against built-in opponents, or solo against
  the Dragon of Ingenuity (Gymnasium; ``DragonCastle-v0``, ``DragonCastle-Solo-v0``).

Neither library is imported here: ``import dragoncastle`` and ``import dragoncastle.envs`` work
without them, and each submodule imports its own library when it is imported. What the two
environments share (the observation encodings and their bounds) lives in this module and needs
numpy only.
"""

from __future__ import annotations

from typing import Any, Optional, Sequence, Union

import numpy as np
import numpy.typing as npt

from .. import _core

__all__ = ["OBSERVATIONS", "observation_bounds", "observe"]

#: The observation encodings an environment offers: ``"compact"`` (uint8, ``COMPACT_OBSERVATION_SIZE``
#: values) and ``"tensor"`` (float32 planes, ``OBSERVATION_SHAPE``); ``docs/observation.md``.
OBSERVATIONS = ("compact", "tensor")

# Planes of the tensor that are not bounded by 1 (docs/observation.md; a test checks them against
# the core's tensors): relative seat k's VP / 50 (plane 165 + 4k + 1), bounded here by 255 / 50,
# the cap of the compact encoding's byte, far above anything a game reaches; and its Shrine Pool
# / 10 (plane 165 + 4k + 2), at most the 40 Shrines of the game / 10 (random play gathers 15).
_VP_PLANES = [165 + 4 * k + 1 for k in range(4)]
_SHRINE_POOL_PLANES = [165 + 4 * k + 2 for k in range(4)]

Cards = Union[None, int, Sequence[str]]


def observation_bounds(kind: str) -> tuple[Any, Any, tuple[int, ...], Any]:
    """``(low, high, shape, dtype)`` of the observation Box for ``kind`` (``"compact"`` or ``"tensor"``)."""
    if kind == "compact":
        return 0, 255, (_core.COMPACT_OBSERVATION_SIZE,), np.uint8
    if kind == "tensor":
        shape = tuple(_core.OBSERVATION_SHAPE)
        high = np.ones(shape, dtype=np.float32)
        high[_VP_PLANES] = 255 / 50
        high[_SHRINE_POOL_PLANES] = 40 / 10
        return np.zeros(shape, dtype=np.float32), high, shape, np.float32
    raise ValueError(f"observation must be one of {', '.join(map(repr, OBSERVATIONS))}; got {kind!r}")


def observe(game: _core.Game, seat: int, kind: str) -> npt.NDArray[Any]:
    """What ``seat`` sees of ``game`` in the encoding ``kind`` (never a hidden tile)."""
    if kind == "compact":
        return game.compact_observation(seat)
    return game.observation_tensor(seat)


def new_game(players: int, seed: int, spirits: Cards, dragons: Cards, layout: Optional[str],
             rules: Optional[_core.Rules]) -> _core.Game:
    """The game an environment deals for ``seed``: exactly ``dragoncastle.Game(players, seed, ...)``."""
    return _core.Game(players, seed, spirits=spirits, dragons=dragons, layout=layout, rules=rules)


def render_text(game: _core.Game, mode: Optional[str], warn: Any) -> Optional[str]:
    """``render()`` of both environments: the text picture, returned in
    ``"ansi"`` mode, printed in ``"human"`` mode; ``warn`` (the library's
    logger) is told when no mode was given."""
    if mode is None:
        warn("You are calling render method without specifying any render mode.")
        return None
    text = str(game)
    if mode == "ansi":
        return text
    print(text)
    return None
