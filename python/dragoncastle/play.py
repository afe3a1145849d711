"""Running a game between agents."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any, Callable, Protocol, Sequence


class Agent(Protocol):
    """Anything with ``act(game) -> Action``."""

    def act(self, game: Any) -> Any:
        """The action to play in ``game`` for the seat to move (an ``Action``, its id or text)."""
        ...


@dataclass
class GameResult:
    """The outcome of :func:`play`."""

    scores: list[int]
    winners: list[int]
    actions: list[Any] = field(repr=False)
    #: Seconds each decision took, in the order of ``actions``.
    move_seconds: list[float] = field(repr=False)
    game: Any = field(repr=False, default=None)


def play(game: Any, agents: Sequence[Agent | str], *, max_decisions: int = 100_000,
         on_move: Callable[[Any, int, Any, float], Any] | None = None) -> GameResult:
    """Play ``game`` to the end in place, seat ``i`` choosing with ``agents[i]``:
    an agent (anything with ``act``) or a built-in agent's spec text
    (``"greedy"``, ``"mcts:time=1"``). Built-in agents are checked against the
    table before the first move (a network made for solo games refuses rivals).

    Works with :class:`dragoncastle.Game` and with the reference engine's ``Game``.
    ``on_move(game, seat, action, seconds)``, if given, is called after each
    decision is played, with the seat that made it (a progress line, a log).

    >>> import dragoncastle as dc
    >>> from dragoncastle.agents import RandomAgent
    >>> r = dc.play(dc.Game(players=2, seed=1), [RandomAgent(1), RandomAgent(2)])
    >>> len(r.scores), r.winners[0] in (0, 1)
    (2, True)
    >>> dc.play(dc.Game(players=1, seed=1), ["greedy"]).scores[0] > 0
    True
    """
    if len(agents) != game.players:
        raise ValueError(f"{game.players} seats but {len(agents)} agents")
    if any(isinstance(a, str) for a in agents):
        from .agents import from_spec

        agents = [from_spec(a) if isinstance(a, str) else a for a in agents]
    try:
        from . import _core
    except ImportError:  # the pure-Python engine alone: its agents check themselves
        pass
    else:
        _core.check_agents(list(agents), game.players)
    actions: list[Any] = []
    seconds: list[float] = []
    while not game.is_over:
        if len(actions) >= max_decisions:
            raise RuntimeError(f"game did not end within {max_decisions} decisions")
        start = time.perf_counter()
        seat = game.current_player
        action = agents[seat].act(game)
        seconds.append(time.perf_counter() - start)
        game.apply(action)
        actions.append(action)
        if on_move is not None:
            on_move(game, seat, action, seconds[-1])
    return GameResult(game.scores(), game.winners(), actions, seconds, game)
