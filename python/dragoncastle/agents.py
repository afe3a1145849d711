"""Built-in agents. An agent is anything with ``act(game) -> Action``."""

from __future__ import annotations

import random
from typing import Any

from . import _core

__all__ = ["RandomAgent", "GreedyAgent", "DragonOfIngenuity"]


class RandomAgent:
    """Uniformly random legal actions from its own seeded generator.

    Engine-agnostic: it only uses ``legal_actions()``.

    >>> import dragoncastle as dc
    >>> g = dc.Game(players=2, seed=3)
    >>> a = RandomAgent(seed=0).act(g)
    >>> a in g.legal_actions()
    True
    """

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def act(self, game: Any) -> Any:
        return self.rng.choice(game.legal_actions())

    def __repr__(self) -> str:
        return "RandomAgent()"


class GreedyAgent:
    """One decision of look-ahead with a fixed heuristic (``docs/agents.md``).

    It values a position as the mover's score, plus progress towards sets
    (each face-up group of one type: 0.2 for 1 tile, 0.7 for 2, 1.5 for 3),
    plus 0.8 per Shrine in the pool up to 2, plus tiles in hand (1.0 if the
    Realm already shows that type, else 0.6), and picks the legal action with
    the best value after it; ties are broken at random. The evaluation runs in
    Rust.

    >>> import dragoncastle as dc
    >>> g = dc.Game(players=2, seed=3)
    >>> GreedyAgent(seed=0).act(g) in g.legal_actions()
    True
    """

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def act(self, game: _core.Game) -> _core.Action:
        if not isinstance(game, _core.Game):
            raise TypeError("GreedyAgent evaluates in Rust and needs a dragoncastle.Game, not a reference game")
        action = _core.greedy_action(game, self.rng.getrandbits(64))
        if action is None:
            raise ValueError("the game is over: there is no action to choose")
        return action

    def __repr__(self) -> str:
        return "GreedyAgent()"


class DragonOfIngenuity:
    """The solo game's automatic opponent as an agent, for any seat (docs/solo.md).

    A pure function of the visible state: Summon as soon as allowed; else the
    first pick by its priorities (the type the previous seat took last turn,
    Dragon, Special, Faction tiles; northernmost, then westernmost); then the
    identical tile if it may, else Discard; tiles go on the lowest free cell and
    it builds every Shrine it may. Works with both engines.

    >>> import dragoncastle as dc
    >>> g = dc.Game(players=3, seed=1)
    >>> r = dc.play(g, [DragonOfIngenuity()] * 3)
    >>> g.is_over
    True
    """

    def act(self, game: Any) -> Any:
        action = game.dragon_action()
        if action is None:
            raise ValueError("the game is over: there is no action to choose")
        return action

    def __repr__(self) -> str:
        return "DragonOfIngenuity()"
