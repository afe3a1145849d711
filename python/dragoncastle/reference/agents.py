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

__all__ = ["MCTSAgent", "SearchResult", "Weights", "GREEDY", "TUNED", "position_value", "heuristic_action"]

SOLO_SCALE = 100.0  # solo utility: the final score / 100
MARGIN_SCALE = 40.0  # margin utility: 0.5 + (own - best other) / 80, clipped to [0, 1]
TIEBREAK_POINTS = 1.0  # to a finished game's winner before the margin, as in the Rust search


@dataclass(frozen=True)
class Weights:
    """The weighted position value of the rollout policies (``docs/search.md``):
    score + per face-up group of one type ``group[size]`` (sizes 1, 2, 3+)
    + ``pool`` per Shrine in the pool up to ``pool_cap`` + per tile in hand
    ``held_match`` (the Realm shows its type) or ``held_new`` + ``height`` per
    floor under face-up tiles (up to 2 each) + ``free`` per cell a tile may go
    on; ``summon`` and ``discard`` are added to those actions."""

    group: tuple[float, float, float]
    pool: float
    pool_cap: int
    held_match: float
    held_new: float
    height: float = 0.0
    free: float = 0.0
    summon: float = 0.0
    discard: float = 0.0


GREEDY = Weights((0.2, 0.7, 1.5), 0.8, 2, 1.0, 0.6)  # the greedy agent (docs/agents.md)
TUNED = Weights((-0.3, 1.2, 1.5), 1.8, 1, 2.0, 0.1)  # tuned for rollouts (docs/search.md)


def _groups(cells: set[tuple[int, int]]) -> list[int]:
    """Sizes of the orthogonally connected groups of ``cells``."""
    sizes, left = [], set(cells)
    while left:
        stack, size = [left.pop()], 0
        while stack:
            r, c = stack.pop()
            size += 1
            for n in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
                if n in left:
                    left.remove(n)
                    stack.append(n)
        sizes.append(size)
    return sizes


def _face_up_by_type(game: Any, seat: int) -> dict[Any, set[tuple[int, int]]]:
    realm = game.realm(seat)
    by_type: dict[Any, set[tuple[int, int]]] = {}
    for cell in ((r, c) for r in range(4) for c in range(4)):
        top = realm.top(cell)
        if top is not None and top[1]:
            by_type.setdefault(top[0].type, set()).add(cell)
    return by_type


def _base_value(game: Any, seat: int, w: Weights) -> float:
    """The value without the tiles in hand."""
    by_type = _face_up_by_type(game, seat)
    v = float(game.scores()[seat])
    for cells in by_type.values():
        for size in _groups(cells):
            v += w.group[min(size, 3) - 1]
    v += w.pool * min(game.shrine_pool(seat), w.pool_cap)
    realm = game.realm(seat)
    if w.height:
        v += w.height * sum(min(realm.height(cell) - 1, 2) for cells in by_type.values() for cell in cells)
    if w.free:
        v += w.free * sum(1 for r in range(4) for c in range(4)
                          if (top := realm.top((r, c))) is None or (not top[1] and not realm.has_shrine((r, c))))
    return v


def _held(game: Any, seat: int, tile: Any, w: Weights) -> float:
    return w.held_match if tile.type in _face_up_by_type(game, seat) else w.held_new


def position_value(game: Any, seat: int, w: Weights) -> float:
    """The weighted value of the position for ``seat``."""
    v = _base_value(game, seat, w)
    if game.current_player == seat:
        for tile in game.held_tiles:
            v += _held(game, seat, tile, w)
    return v


def move_value(game: Any, action: Any, w: Weights) -> float:
    """The value of playing ``action`` for the player to move. A move that ends
    the Action in phase SPIRITS is valued with the Consolidation step that
    ``done`` brings. END_TURN needs no such step: its ``done`` changes no value
    (every tile is placed and Consolidated)."""
    after = game.clone(history=False)
    after.apply(action)
    if after.phase.name == "SPIRITS" and game.phase.name != "SPIRITS":
        after.apply("done")
    bonus = {"SUMMON": w.summon, "DISCARD": w.discard}.get(action.kind.name, 0.0)
    return position_value(after, game.current_player, w) + bonus


def heuristic_action(game: Any, rng: random.Random, w: Weights) -> Any:
    """The legal action with the best value one decision ahead (ties at random).
    A castle pick changes only the tiles in hand, so it is valued without playing it.
    Like the Rust rollout policy it never activates a Spirit (only pays for the
    Cunning that Change asked for); so in SPIRITS and END_TURN it plays ``done``,
    and the turn goes on."""
    seat = game.current_player
    picking = game.phase.name in ("ACTION", "COMPLETE")
    base = _base_value(game, seat, w) if picking else 0.0
    best, chosen, ties = -math.inf, None, 0
    for action in game.legal_actions():
        if action.kind.name == "SPIRIT" and game.phase.name != "CUNNING":
            continue
        if picking and action.kind.name == "TAKE":
            top = game.castle_top(action.space)
            v = base + sum(_held(game, seat, t, w) for t in game.held_tiles) + _held(game, seat, top, w)
        else:
            v = move_value(game, action, w)
        if v > best + 1e-9:
            best, chosen, ties = v, action, 1
        elif abs(v - best) <= 1e-9:
            ties += 1
            if rng.randrange(ties) == 0:
                chosen = action
    return chosen


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

    ``rollout`` is ``"random"`` (the default here: it is the one fast enough
    in Python), ``"greedy"``, ``"tuned"`` (the Rust agent's default) or any
    function ``policy(game) -> action``; ``reward`` is ``"win"`` or
    ``"margin"`` (solo maximises the score / 100); ``widening`` is progressive
    widening as in the Rust agent (children added best ``TUNED`` value
    first), off by default here (the Rust agent's default is 1), so that the
    plain algorithm is what one reads first. The positional parameters are the
    Rust agent's: ``(iterations, time_limit, threads, seed)``; ``threads``
    must be 1. Every search starts afresh, as the Rust agent's with
    ``reuse_tree=False`` (the Rust agent keeps its tree between moves by
    default).
    """

    def __init__(self, iterations: int | None = None, time_limit: float | None = None, threads: int = 1,
                 seed: int | None = None, *, exploration: float | None = None, reward: str = "win",
                 rollout: str | Callable[[Any], Any] = "random", rollout_depth: int | None = None,
                 determinize: bool = True, widening: float | None = None) -> None:
        if threads != 1:
            raise ValueError("the Python twin grows one tree (threads=1)")
        if iterations is None and time_limit is None:
            iterations = 1000
        if iterations is not None and (isinstance(iterations, bool) or not isinstance(iterations, int) or iterations < 1):
            raise ValueError("iterations must be a positive integer")
        if time_limit is not None and not 0 < time_limit <= 86_400:
            raise ValueError("time_limit must be a number of seconds in (0, 86400]")
        if exploration is not None and not 0 <= exploration < math.inf:
            raise ValueError("exploration must be a number >= 0")
        if rollout_depth is not None and (isinstance(rollout_depth, bool) or not isinstance(rollout_depth, int)
                                          or rollout_depth < 0):
            raise ValueError("rollout_depth must be a whole number >= 0")
        if reward not in ("win", "margin"):
            raise ValueError(f"reward must be 'win' or 'margin'; got {reward!r}")
        if rollout not in ("random", "greedy", "tuned") and not callable(rollout):
            raise ValueError("rollout must be 'random', 'greedy', 'tuned' or a function game -> action")
        if widening is not None and not widening > 0:
            raise ValueError("widening must be a positive number")
        self.iterations, self.time_limit, self.seed = iterations, time_limit, seed
        self.exploration, self.reward, self.rollout = exploration, reward, rollout
        self.rollout_depth, self.determinize, self.widening = rollout_depth, determinize, widening

    def act(self, game: Any) -> Any:
        """The most visited root action of a :meth:`search` of ``game``."""
        return self.search(game).action

    def search(self, game: Any) -> SearchResult:
        """Search the position for the player to move and report the root statistics."""
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
            exploration = 0.05 if solo or self.reward == "margin" else 0.5
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
            # Progressive widening: at most 1 + floor(k * sqrt(visits)) children legal here.
            room = (self.widening is None or not available
                    or len(available) < 1 + math.floor(self.widening * math.sqrt(node.visits)))
            if untried and room:
                if self.widening is None:
                    action = untried[rng.randrange(len(untried))]
                else:  # the most promising first
                    action = max(untried, key=lambda a: move_value(g, a, TUNED))
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
            if callable(self.rollout):
                action = self.rollout(g)
            elif self.rollout == "random":
                action = rng.choice(g.legal_actions())
            else:
                action = heuristic_action(g, rng, GREEDY if self.rollout == "greedy" else TUNED)
            g.apply(action)
            steps += 1
        return self._utilities(g, final=True)

    def _utilities(self, g: Any, final: bool) -> list[float]:
        """Solo: score / 100; "win": the game's returns; "margin": 0.5 + (own -
        best other) / 80, a finished game's winner a point higher (split in a
        shared victory) so that a tie-break counts (R-END-3). A cut-off rollout
        uses the greedy value (score plus progress) for the scores, and "win"
        becomes a softmax with temperature 3."""
        if not final:
            scores = [position_value(g, p, GREEDY) for p in range(g.players)]
        elif g.is_solo:
            scores = g.scores()
        else:
            scores = [s + TIEBREAK_POINTS * r for s, r in zip(g.scores(), g.returns())]
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
