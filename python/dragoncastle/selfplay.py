"""Self-play data for training: :func:`selfplay`.

Whole games are played by a search agent in every seat, in Rust threads with
the GIL released; every decision becomes one row of numpy arrays. Game ``k``
of a run with seed ``s`` is dealt (and its cards drawn) from seed ``s + k``,
and each decision's search seed comes from the game seed, the seat and the
decision number, so shards run on many machines (consecutive seed ranges) add
up to exactly one run's data (``examples/selfplay_ray.py``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

from . import _core
from .agents import MCTSAgent, from_spec

if TYPE_CHECKING:  # numpy is loaded by the first call that makes arrays, not by import
    import numpy as np

__all__ = ["selfplay"]


def selfplay(agent: MCTSAgent | str, n_games: int, *, players: int = 2, seed: int = 0, threads: int | None = None,
             spirits: Any = None, dragons: Any = None, layout: Any = None, rules: _core.Rules | None = None,
             progress: Callable[[int], None] | None = None,
             children: tuple[float, int] | None = None) -> dict[str, np.ndarray]:
    """Play ``n_games`` games with ``agent``'s search in every seat; one row per decision.

    Returns a dict of numpy arrays with ``N`` rows (decisions of all games, in
    game order):

    - ``observations``: ``uint8 (N, dc.COMPACT_OBSERVATION_SIZE)``, the compact
      observation of the seat to move (no hidden tile);
    - ``masks``: ``bool (N, dc.NUM_ACTIONS)``, the legal actions;
    - ``policies``: ``float32 (N, dc.NUM_ACTIONS)``, the search's root visit
      distribution (sums to 1 over legal actions; a forced move gets 1);
    - ``to_move``: ``int64 (N,)``, the seat to move;
    - ``actions``: ``int64 (N,)``, the action id played;
    - ``values``: ``float32 (N,)``, the search's value of the position for the
      mover (the visit-weighted mean of the root's moves; NaN for a forced
      move, which is not searched), an auxiliary target with less noise than
      the final return;
    - ``returns``: ``float32 (N, players)``, the game's final ``Game.returns()``;
    - ``game``: ``uint64 (N,)``, the seed of the game the row comes from.

    With ``children=(share, k)``, also the sibling targets: for every searched
    decision, the root moves with at least ``share`` of the root's visits (at
    most ``k``, the most visited first), each as the position after the move
    seen by the seat to move there (as the search sees a leaf) and the
    search's mean value of that move for the seat that moved (the
    children of one position share its phase, so their values teach a network
    the differences between moves; ``docs/training.md``). ``M`` rows:

    - ``child_observations``: ``uint8 (M, dc.COMPACT_OBSERVATION_SIZE)``;
    - ``child_rows``: ``int64 (M,)``, the decision's row above;
    - ``child_actions``: ``int64 (M,)``, the root move;
    - ``child_visits``: ``int64 (M,)``, the root's visits of it;
    - ``child_values``: ``float32 (M,)``, its mean value for the mover;
    - ``child_seats``: ``int64 (M,)``, the mover relative to the seat that sees
      the child (``(mover - viewer) % players``; 0 in solo, and whenever the
      mover moves again): which of a network's relative values is the target.

    ``agent`` is a :class:`~dragoncastle.agents.MCTSAgent` or its spec text
    (``"mcts:iterations=200,noise=0.3/0.25,temperature=1"``): its budget,
    tuning and evaluator; set ``noise`` and ``temperature`` on it for
    exploratory self-play. ``spirits`` and ``dragons`` are card counts or
    names as for :class:`~dragoncastle.Game`. ``progress(done)`` is called
    about ten times a second. Ctrl-C stops the run.

    >>> import dragoncastle as dc
    >>> data = dc.selfplay(dc.agents.MCTSAgent(iterations=20), 2, seed=5, threads=1)
    >>> data["observations"].shape[1] == dc.COMPACT_OBSERVATION_SIZE, data["returns"].shape[1]
    (True, 2)
    >>> bool((data["policies"].sum(axis=1) > 0.999).all())
    True
    """
    if not isinstance(agent, MCTSAgent):
        agent = from_spec(_core.agent_text(agent))  # TypeError for what is not an agent
    if not isinstance(agent, MCTSAgent):
        raise ValueError(f"selfplay records a search's visits: it needs an MCTS agent (mcts:...), not {agent!r}")
    if children is not None:
        share, k = children
        if not (0 <= share <= 1) or isinstance(k, bool) or not isinstance(k, int) or k < 1:
            raise ValueError(f"children is (share in [0, 1], k >= 1); got {children!r}")
        children = (float(share), k)
    return _core.selfplay(agent._player, n_games, players=players, seed=seed, threads=threads, spirits=spirits,
                          dragons=dragons, layout=layout, rules=rules, progress=progress, children=children)
