"""The search agent in plain Python: the same information-set MCTS as the Rust
``dragoncastle.agents.MCTSAgent`` (``docs/search.md``), written to be read.

It works over any object with the game API (``dragoncastle.reference.Game`` or
``dragoncastle.Game``), so the same algorithm can be timed over the pure-Python
engine, over the Rust engine driven from Python, and in Rust.

>>> from dragoncastle import reference as ref
>>> g = ref.Game(players=2, seed=3)
>>> r = MCTSAgent(iterations=20, seed=1).search(g)
>>> r.action in g.legal_actions(), r.iterations
(True, 20)
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass
from typing import Any, Callable

__all__ = ["MCTSAgent", "SearchResult"]

SOLO_SCALE = 100.0  # solo utility: the final score / 100
MARGIN_SCALE = 40.0  # margin utility: 0.5 + (own - best other) / 80, clipped to [0, 1]


@dataclass(frozen=True)
class SearchResult:
    """The same fields as ``dragoncastle.SearchResult``."""

    action: Any
    visits: dict[Any, int]
    values: dict[Any, float]
    pv: list[Any]
    iterations: int
    seconds: float
    nodes: int = 0


class Node:
    """An information-set node: the moves that lead here, seen from the root player."""

    __slots__ = ("action", "parent", "children", "mover", "visits", "available", "value")

    def __init__(self, action: Any, parent: "Node | None", mover: int, seats: int) -> None:
        self.action = action
        self.parent = parent
        self.children: dict[int, Node] = {}  # by action id, in the order they were added
        self.mover = mover  # the seat that played `action`
        self.visits = 0
        self.available = 1  # times `action` was legal when the parent was visited
        self.value = [0.0] * seats  # summed utilities, one per seat

    def ucb(self, exploration: float) -> float:
        visits = max(self.visits, 1)
        return self.value[self.mover] / visits + exploration * math.sqrt(math.log(self.available) / visits)


class MCTSAgent:
    """Single-observer ISMCTS with availability counts, as the Rust agent.

    ``rollout`` is ``"random"`` or any function ``policy(game) -> action``;
    ``reward`` is ``"win"`` or ``"margin"`` (solo maximises the score / 100).
    """

    def __init__(self, iterations: int | None = None, time_limit: float | None = None, seed: int | None = None, *,
                 exploration: float | None = None, reward: str = "win",
                 rollout: str | Callable[[Any], Any] = "random", rollout_depth: int | None = None,
                 determinize: bool = True) -> None:
        if iterations is None and time_limit is None:
            iterations = 1000
        if iterations is not None and (isinstance(iterations, bool) or not isinstance(iterations, int) or iterations < 1):
            raise ValueError("iterations must be a positive integer")
        if time_limit is not None and not time_limit > 0:
            raise ValueError("time_limit must be a positive number of seconds")
        if reward not in ("win", "margin"):
            raise ValueError(f"reward must be 'win' or 'margin'; got {reward!r}")
        if rollout != "random" and not callable(rollout):
            raise ValueError("rollout must be 'random' or a function game -> action")
        self.iterations, self.time_limit, self.seed = iterations, time_limit, seed
        self.exploration, self.reward, self.rollout = exploration, reward, rollout
        self.rollout_depth, self.determinize = rollout_depth, determinize

    def act(self, game: Any) -> Any:
        return self.search(game).action

    def search(self, game: Any) -> SearchResult:
        start = time.perf_counter()
        legal = game.legal_actions()
        if game.is_over:
            raise ValueError("the game is over: there is nothing to search")
        if len(legal) == 1:
            return SearchResult(legal[0], {legal[0]: 0}, {legal[0]: 0.0}, [legal[0]], 0, 0.0, 0)
        rng = random.Random(self.seed)
        solo = game.is_solo
        exploration = self.exploration
        if exploration is None:
            exploration = 0.1 if solo or self.reward == "margin" else 0.5
        observer = game.current_player
        seats = max(game.players, 2)
        root_game = game.clone(history=False)  # cheap to copy and to determinize
        root = Node(None, None, observer, seats)
        nodes = 1
        deadline = None if self.time_limit is None else start + self.time_limit
        done = 0
        while (self.iterations is None or done < self.iterations) and (deadline is None or time.perf_counter() < deadline):
            g = root_game.determinize(rng.getrandbits(64)) if self.determinize else root_game.clone(history=False)
            leaf, added = self._descend(root, g, exploration, rng, seats)
            nodes += added
            utilities = self._rollout(g, rng)
            node: Node | None = leaf
            while node is not None:  # back up one utility per seat
                node.visits += 1
                for seat, u in enumerate(utilities):
                    node.value[seat] += u
                node = node.parent
            done += 1
        tried = [(a, root.children[a.id]) for a in legal if a.id in root.children]
        best = max(tried, key=lambda t: (t[1].visits, t[1].value[observer] / max(t[1].visits, 1)), default=(legal[0], None))[0]
        pv, at = [best], root.children.get(best.id)
        while at is not None and at.children:
            at = max(at.children.values(), key=lambda c: c.visits)
            pv.append(at.action)
        return SearchResult(
            action=best,
            visits={a: n.visits for a, n in tried},
            values={a: n.value[observer] / max(n.visits, 1) for a, n in tried},
            pv=pv,
            iterations=done,
            seconds=time.perf_counter() - start,
            nodes=nodes,
        )

    def _descend(self, node: Node, g: Any, exploration: float, rng: random.Random, seats: int) -> tuple[Node, int]:
        """Selection by UCB among the children legal in this determinization,
        then expansion of one untried legal action."""
        while not g.is_over:
            legal = g.legal_actions()
            available = [node.children[a.id] for a in legal if a.id in node.children]
            for child in available:
                child.available += 1
            untried = [a for a in legal if a.id not in node.children]
            if untried:
                action = untried[rng.randrange(len(untried))]
                child = Node(action, node, g.current_player, seats)
                node.children[action.id] = child
                g.apply(action)
                return child, 1
            node = max(available, key=lambda c: c.ucb(exploration))
            g.apply(node.action)
        return node, 0

    def _rollout(self, g: Any, rng: random.Random) -> list[float]:
        steps = 0
        while not g.is_over:
            if self.rollout_depth is not None and steps >= self.rollout_depth:
                return self._utilities(g, final=False)
            action = self.rollout(g) if callable(self.rollout) else rng.choice(g.legal_actions())
            g.apply(action)
            steps += 1
        return self._utilities(g, final=True)

    def _utilities(self, g: Any, final: bool) -> list[float]:
        """Solo: score / 100; "win": the game's returns (a soft estimate from the
        current scores when cut off); "margin": 0.5 + (own - best other) / 80."""
        scores = g.scores()
        seats = max(g.players, 2)
        if g.is_solo:
            return [min(max(scores[0] / SOLO_SCALE, 0.0), 1.0)] + [0.0] * (seats - 1)
        if self.reward == "win":
            if final:
                return list(g.returns())
            top = max(scores)
            weights = [math.exp((s - top) / 3.0) for s in scores]
            return [w / sum(weights) for w in weights]
        out = []
        for p, s in enumerate(scores):
            best_other = max(scores[q] for q in range(len(scores)) if q != p)
            out.append(min(max(0.5 + (s - best_other) / (2 * MARGIN_SCALE), 0.0), 1.0))
        return out
