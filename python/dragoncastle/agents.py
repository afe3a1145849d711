"""Built-in agents. An agent is anything with ``act(game) -> Action``."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from . import _core

#: The strongest measured solo agent, the default of ``dragoncastle solo`` (``docs/plan.md``).
SOLO_DEFAULT = "plan:time=1,level=2,iterations=30,aggregate=follow,warm=true"
#: The oracle of ``dragoncastle solo --oracle``: the planner on the true deal (``docs/plan.md``).
ORACLE = "plan:oracle=true,level=3,iterations=80,time=20"

__all__ = ["RandomAgent", "GreedyAgent", "DragonOfIngenuity", "MCTSAgent", "SearchResult", "PlannerAgent", "PlanResult",
           "from_spec"]


#: Settings that are on or off; every other setting is a number or a name, never a bool.
_FLAGS = {"reuse_tree", "determinize", "priors", "warm", "keep", "prune", "oracle"}


def _check_kinds(settings: dict[str, Any]) -> None:
    """A bool is an int to Python, but ``exploration=True`` is a mistake: refused."""
    for key, value in settings.items():
        if isinstance(value, bool) and key not in _FLAGS:
            raise ValueError(f"{key} is a number, not {value}")


def _check_seed(seed: Any) -> None:
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**64):
        raise ValueError("seed must be an integer in 0..2**64 or None")


class _Simple:
    """What the agents without settings share: equal when of one kind."""

    spec: str

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self)

    def __hash__(self) -> int:
        return hash(type(self))


class RandomAgent(_Simple):
    """Uniformly random legal actions from its own seeded generator.

    Engine-agnostic: it only uses ``legal_actions()``.

    >>> import dragoncastle as dc
    >>> g = dc.Game(players=2, seed=3)
    >>> a = RandomAgent(seed=0).act(g)
    >>> a in g.legal_actions()
    True
    """

    spec = "random"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def act(self, game: Any) -> Any:
        """A legal action of ``game`` drawn uniformly at random."""
        return self.rng.choice(game.legal_actions())

    def __repr__(self) -> str:
        return "RandomAgent()"


class GreedyAgent(_Simple):
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

    spec = "greedy"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def act(self, game: _core.Game) -> _core.Action:
        """The legal action with the best heuristic value (``dragoncastle.Game`` only)."""
        if not isinstance(game, _core.Game):
            raise TypeError("GreedyAgent evaluates in Rust and needs a dragoncastle.Game, not a reference game")
        action = _core.greedy_action(game, self.rng.getrandbits(64))
        if action is None:
            raise ValueError("the game is over: there is no action to choose")
        return action

    def __repr__(self) -> str:
        return "GreedyAgent()"


class DragonOfIngenuity(_Simple):
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

    spec = "dragon"

    def act(self, game: Any) -> Any:
        """The Dragon of Ingenuity's choice for the seat to move (``game.dragon_action()``)."""
        action = game.dragon_action()
        if action is None:
            raise ValueError("the game is over: there is no action to choose")
        return action

    def __repr__(self) -> str:
        return "DragonOfIngenuity()"


@dataclass(frozen=True)
class SearchResult:
    """What :meth:`MCTSAgent.search` found.

    ``visits`` and ``values`` map each root action that was tried to its visit
    count and its mean utility for the player to move (in ``[0, 1]``: the win
    rate with ``reward="win"``, the score / 100 in solo). ``pv`` is the
    principal variation (most visited actions from the root down).
    ``policy`` is the root's visit distribution as ``float32
    (dc.NUM_ACTIONS,)`` indexed by action id (a training target); it sums to 1
    over the actions tried.
    """

    action: _core.Action
    visits: dict[_core.Action, int]
    values: dict[_core.Action, float]
    pv: list[_core.Action]
    iterations: int
    seconds: float
    nodes: int = 0
    policy: Any = None

    @property
    def iterations_per_second(self) -> float:
        """Search speed: ``iterations / seconds`` (0.0 for an instant search)."""
        return self.iterations / self.seconds if self.seconds > 0 else 0.0


class MCTSAgent:
    """Information-set MCTS in Rust (``docs/search.md``), with the GIL released.

    Every iteration starts from a fresh determinization of the position for
    the player to move, so the search never reads a hidden castle tile.

    Budgets: ``iterations`` and/or ``time_limit`` in seconds, whichever comes
    first (1000 iterations if neither is given). ``threads=k`` runs k
    root-parallel trees (the iterations are shared among them) and merges
    their root visit counts. With ``threads=1`` and a ``seed`` the same
    position always gives the same result; ``seed=None`` draws a fresh seed
    for every search.

    Tuning (keywords): ``exploration`` (UCT constant; default 0.5 with
    ``reward="win"``, 0.05 with ``"margin"`` and in solo), ``reward``
    (``"win"`` or ``"margin"``; solo always maximises the score / 100),
    ``rollout`` (``"tuned"``, ``"greedy"`` or ``"random"``), ``epsilon``
    (random actions in heuristic rollouts), ``rollout_depth`` (cut rollouts
    after so many decisions and evaluate), ``widening`` (progressive
    widening constant, default 1; ``None`` expands every legal action),
    ``reuse_tree`` (default ``True``: keep the subtree of the actions played
    since the last search, in the same game, and continue it; ``False``
    searches every position afresh, so that the move depends on the position
    only; see ``docs/search.md``), ``reuse_weight`` (in (0, 1], default 0.2:
    the weight of the kept tree's statistics in the next search, which shrinks
    them while keeping every mean; at one second per decision 1 is far
    weaker), ``max_nodes``. Self-play (:func:`dragoncastle.selfplay`) never
    keeps trees.

    A search that learns (``docs/search.md``, ``docs/training.md``):
    ``model`` is the path of a weights file written by ``dragoncastle
    train`` (or ``"builtin"``, the network shipped in the package): the
    network is evaluated in Rust inside the search, no Python per leaf. The
    file is opened at the agent's first search (making the agent, or reading
    its spec, opens nothing): one that is missing, damaged, or made for
    another observation version or action space raises ``ValueError`` then,
    and so does a search with weights trained on solo games
    in a game with rivals, or the other way round (the header says which); ``priors=False`` keeps the rollout search's selection
    (UCB1, heuristic widening) and uses the network's values only, mixed with
    rollouts at ``rollout_weight``; ``cutoff=d`` values a leaf with the network
    at the position ``d`` rollout decisions later (a learned cut-off;
    ``docs/training.md``). Left out, ``priors`` and ``rollout_weight`` are
    those of the self-play that trained the network (its header's
    ``training.config``; PUCT and no rollouts when it has none).
    ``evaluator`` is a callable
    ``evaluator(observations, masks) -> (priors, values)`` (a network of
    yours). The search then selects by PUCT with its priors and values its
    leaves with it, ``batch_size`` leaves per call (default 16) with the GIL
    held only for the call: ``observations`` is ``uint8 (B,
    dc.COMPACT_OBSERVATION_SIZE)``, each seen by the seat to move at its leaf,
    ``masks`` is ``bool (B, dc.NUM_ACTIONS)``; it returns ``priors`` ``float32
    (B, dc.NUM_ACTIONS)`` (non-negative over the legal actions; the search
    normalises them) and ``values`` ``float32 (B, players)`` on the scale of
    ``Game.returns()``, by seat relative to the seat to move as in the
    observations (column 0 is the mover's value, 1 the next seat clockwise). ``rollout_weight`` in [0, 1] mixes rollout values into
    the evaluator's (AlphaGo's lambda); ``exploration`` is then PUCT's constant
    (default 1.0). For self-play: ``noise=(alpha, fraction)`` (Dirichlet noise
    on the root's priors) and ``temperature`` (draw the action with chance
    proportional to ``visits ** (1 / temperature)``; 0, the default, takes the
    most visited). An exception raised by the evaluator propagates unchanged; a
    wrong shape or dtype, a NaN or a negative prior raises ``ValueError``.

    >>> import dragoncastle as dc
    >>> g = dc.Game(players=2, seed=3)
    >>> agent = MCTSAgent(iterations=200, seed=1)
    >>> r = agent.search(g)
    >>> r.action in g.legal_actions(), r.iterations
    (True, 200)

    A second search of the same position continues the kept tree: 200 new
    visits and the 200 kept, weighed 0.2 (each child keeps at least one); a
    search without reuse gives the same answer every time:

    >>> sum(agent.search(g).visits.values())
    241
    >>> fresh = MCTSAgent(iterations=200, seed=1, reuse_tree=False)
    >>> fresh.search(g).visits == fresh.search(g).visits == r.visits
    True

    With an evaluator (here a uniform one):

    >>> import numpy as np
    >>> def uniform(observations, masks):
    ...     return np.ones(masks.shape, np.float32), np.full((len(masks), 2), 0.5, np.float32)
    >>> r = MCTSAgent(iterations=64, seed=1, evaluator=uniform, batch_size=8).search(g)
    >>> r.iterations, round(float(r.policy.sum()), 3)
    (64, 1.0)
    """

    def __init__(self, iterations: int | None = None, time_limit: float | None = None, threads: int = 1,
                 seed: int | None = None, **tuning: Any) -> None:
        unknown = set(tuning) - _TUNING
        if unknown:
            raise TypeError(f"unknown MCTS parameter(s): {', '.join(sorted(unknown))} (known: {', '.join(sorted(_TUNING))})")
        _check_seed(seed)
        _check_kinds({"iterations": iterations, "time_limit": time_limit, "threads": threads, **tuning})
        if tuning.get("model") is not None and (not isinstance(tuning["model"], str) or not tuning["model"].strip()):
            raise ValueError(f"model is the path of a weights file or 'builtin'; got {tuning['model']!r}")
        self._mcts = _core.MCTS(iterations, time_limit, threads, **tuning)
        self.iterations, self.time_limit, self.threads, self.seed = iterations, time_limit, threads, seed
        self.tuning = dict(tuning)
        self._fresh = random.Random()

    @property
    def spec(self) -> str:
        """The agent as spec text (``mcts:iterations=200,...``: the settings
        given), which :func:`from_spec` turns back into an equal agent. An
        agent holding a Python ``evaluator`` has none (``ValueError``).

        >>> MCTSAgent(iterations=200, exploration=0.3).spec
        'mcts:iterations=200,exploration=0.3'
        >>> from_spec("mcts:iterations=200,c=0.3") == MCTSAgent(iterations=200, exploration=0.3)
        True
        """
        if self.tuning.get("evaluator") is not None or self.tuning.get("batch_size") is not None:
            raise ValueError("an MCTSAgent holding a Python evaluator has no spec text: run it with dc.play, "
                             "or give the network as a weights file (model=...)")
        return _spec_text("mcts", {"iterations": self.iterations, "time": self.time_limit,
                                   "threads": None if self.threads == 1 else self.threads, **self.tuning})

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, MCTSAgent):
            return False
        if self.tuning.get("evaluator") is not None or other.tuning.get("evaluator") is not None:
            return self is other  # a Python evaluator has no text to compare
        return _settings(self) == _settings(other)

    def __hash__(self) -> int:
        return id(self) if self.tuning.get("evaluator") is not None else hash(_core.agent_spec_text(self.spec))

    def search(self, game: _core.Game) -> SearchResult:
        """Search the position for the player to move and report the root statistics."""
        if not isinstance(game, _core.Game):
            raise TypeError("MCTSAgent searches in Rust and needs a dragoncastle.Game; "
                            "dragoncastle.reference.agents.MCTSAgent searches any game in Python")
        seed = self.seed if self.seed is not None else self._fresh.getrandbits(64)
        best, root, pv, iterations, seconds, nodes, policy = self._mcts.search(game, seed)
        if best is None:  # the core returns a move for every running game
            raise ValueError("no legal action to choose")
        return SearchResult(
            action=best,
            visits={a: n for a, n, _ in root},
            values={a: v for a, _, v in root},
            pv=list(pv),
            iterations=iterations,
            seconds=seconds,
            nodes=nodes,
            policy=policy,
        )

    def act(self, game: _core.Game) -> _core.Action:
        """The most visited root action of a :meth:`search` of ``game``."""
        return self.search(game).action

    def reset(self) -> None:
        """Forget the tree kept for ``reuse_tree`` (call it between games)."""
        self._mcts.reset()

    def __repr__(self) -> str:
        parts = [f"{k}={v!r}" for k, v in (("iterations", self.iterations), ("time_limit", self.time_limit)) if v is not None]
        if self.threads != 1:
            parts.append(f"threads={self.threads}")
        parts += [f"{k}={getattr(v, '__name__', v)!r}" if k == "evaluator" else f"{k}={v!r}" for k, v in self.tuning.items()]
        return f"MCTSAgent({', '.join(parts)})"


@dataclass(frozen=True)
class PlanResult:
    """What :meth:`PlannerAgent.plan` found.

    For each legal action: ``tried`` (determinizations where a search ran
    after it), ``values`` (the mean over them of the best score the search
    reached), ``votes`` (determinizations where it reached the best score of
    all actions) and ``best`` (the best score reached anywhere). ``plan`` is
    the best sequence found after the chosen action, the action first. With
    ``aggregate="follow"`` no search runs after an action: ``tried`` and
    ``votes`` both count the determinizations whose plan began with it,
    ``values`` and ``best`` are those plans' mean and best scores, and
    ``plan`` is the action alone.
    """

    action: _core.Action
    values: dict[_core.Action, float]
    tried: dict[_core.Action, int]
    votes: dict[_core.Action, int]
    best: dict[_core.Action, float]
    plan: list[_core.Action]
    playouts: int
    determinizations: int
    seconds: float


class PlannerAgent:
    """The solo planner (``docs/plan.md``): nested rollout policy adaptation
    with the rollout policy's move values as its bias (GNRPA), over
    determinizations of the hidden tiles, in Rust with the GIL released.

    At every decision it draws determinizations of the position (the covered
    tiles re-dealt from what the player knows) and, in each, runs a nested
    search after each legal action; the action whose searches reached the best
    mean score is played. Budgets: ``time_limit`` (seconds per decision) and/or
    ``playouts``, whichever comes first (one second if neither is given);
    with a playout budget and a ``seed`` a decision does not depend on the
    clock or on ``threads``. It plays solo games only (``ValueError`` with
    rivals) and never activates a Spirit.

    Tuning (keywords, as in the spec ``plan:time=1,level=1,...``): ``level``
    and ``iterations`` (the nested search after each action: ``iterations **
    level`` playouts), ``alpha`` (adaptation step), ``temperature`` (the
    bias's; ``float("inf")`` for plain NRPA), ``aggregate`` (``"mean"``,
    ``"vote"``, ``"best"``, or ``"follow"``: no search after each action, but
    one policy shared by the determinizations, each search on its own
    determinization and the action the first of most of their plans; on one
    thread, without ``keep`` or ``prune``), ``warm`` (start each decision's searches from
    the policy of the last decision's plan), ``keep`` (begin each search with
    the plan kept from the last decision when it is legal there), ``prune``
    (successive halving: after rounds of 1, 1, 2, 4, ... determinizations only
    the better half of the actions is searched on), ``oracle``
    (plan on the true deal, reading the hidden tiles: analysis only).

    >>> import dragoncastle as dc
    >>> g = dc.Game(players=1, seed=3)
    >>> agent = PlannerAgent(playouts=3000, seed=1, iterations=20)
    >>> r = agent.plan(g)
    >>> r.action in g.legal_actions(), r.playouts >= 3000, r.plan[0] == r.action
    (True, True, True)
    >>> agent.spec
    'plan:playouts=3000,iterations=20'
    >>> from_spec(agent.spec).spec == agent.spec
    True
    """

    def __init__(self, time_limit: float | None = None, playouts: int | None = None, threads: int = 1,
                 seed: int | None = None, **tuning: Any) -> None:
        unknown = set(tuning) - _PLAN_TUNING
        if unknown:
            raise TypeError(f"unknown planner parameter(s): {', '.join(sorted(unknown))} "
                            f"(known: {', '.join(sorted(_PLAN_TUNING))})")
        _check_seed(seed)
        _check_kinds({"time_limit": time_limit, "playouts": playouts, "threads": threads, **tuning})
        self.spec = _spec_text("plan", {"time": time_limit, "playouts": playouts,
                                        "threads": None if threads == 1 else threads, **tuning})
        self._planner = _core.Planner(self.spec)
        self.time_limit, self.playouts, self.threads, self.seed = time_limit, playouts, threads, seed
        self.tuning = dict(tuning)
        self._fresh = random.Random()

    def plan(self, game: _core.Game) -> PlanResult:
        """Plan the decision of the player to move and report what each action got."""
        if not isinstance(game, _core.Game):
            raise TypeError("PlannerAgent plans in Rust and needs a dragoncastle.Game")
        seed = self.seed if self.seed is not None else self._fresh.getrandbits(64)
        best, root, plan, playouts, determinizations, seconds = self._planner.plan(game, seed)
        if best is None:  # the core returns a move for every running game
            raise ValueError("no legal action to choose")
        return PlanResult(action=best, values={a: m for a, _, m, _, _ in root}, tried={a: t for a, t, _, _, _ in root},
                          votes={a: v for a, _, _, v, _ in root}, best={a: b for a, _, _, _, b in root}, plan=list(plan),
                          playouts=playouts, determinizations=determinizations, seconds=seconds)

    def act(self, game: _core.Game) -> _core.Action:
        """The action :meth:`plan` chooses."""
        return self.plan(game).action

    def reset(self) -> None:
        """Forget the warm policy and the kept plan (call it between games)."""
        self._planner.reset()

    def __repr__(self) -> str:
        return f"from_spec({self.spec!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, PlannerAgent) and _settings(self) == _settings(other)

    def __hash__(self) -> int:
        return hash(_core.agent_spec_text(self.spec))


_PLAN_TUNING = {"level", "iterations", "alpha", "temperature", "aggregate", "warm", "keep", "prune", "oracle"}


_TUNING = {"exploration", "reward", "rollout", "epsilon", "rollout_depth", "reuse_tree", "reuse_weight", "determinize",
           "max_nodes", "widening", "model", "priors", "evaluator", "batch_size", "rollout_weight", "noise", "temperature",
           "cutoff"}


def from_spec(spec: str, seed: int | None = None) -> Any:
    """An agent from its text spec, as the command line and :func:`dragoncastle.arena` take them:
    ``random``, ``greedy``, ``dragon``, ``mcts:iterations=2000,c=0.3`` (``docs/agents.md``).

    >>> from_spec("mcts:iterations=50,rollout=random")
    MCTSAgent(iterations=50, rollout='random')
    >>> from_spec("mcts:iterations=50,c=0.3").spec
    'mcts:iterations=50,exploration=0.3'
    """
    if not isinstance(spec, str):
        raise TypeError(f"from_spec reads spec text (\"greedy\", \"mcts:time=1\"); got a {type(spec).__name__}")
    _check_seed(seed)
    name, params = _core.agent_spec(spec)
    if name == "random":
        return RandomAgent(seed)
    if name == "greedy":
        return GreedyAgent(seed)
    if name == "dragon":
        return DragonOfIngenuity()
    if name == "plan":
        return PlannerAgent(seed=seed, **_given(spec, params))
    return MCTSAgent(seed=seed, **_given(spec, params))


#: Spec keys under the agents' keyword names (the spec's other spellings).
_KEYWORD = {"time": "time_limit", "tau": "temperature", "bias": "temperature", "c": "exploration",
            "depth": "rollout_depth", "reuse": "reuse_tree", "lambda": "rollout_weight", "net_depth": "cutoff"}


def _given(spec: str, params: dict[str, Any]) -> dict[str, Any]:
    """The settings a spec names, under the agent's keyword names (the rest
    stay the defaults, so the agent's spec reads as the one given)."""
    keys = [k.strip() for k, _, _ in (kv.partition("=") for kv in spec.partition(":")[2].split(",")) if k.strip()]
    return {_KEYWORD.get(k, k): params[_KEYWORD.get(k, k)] for k in keys}


def _spec_text(name: str, given: dict[str, Any]) -> str:
    """``name:key=value,...`` for the settings given (None: left out), each
    value written as the spec parser reads it back unchanged."""
    parts = []
    for key, value in given.items():
        if value is None and key != "widening":
            continue
        if value is None:
            value = "none"
        elif isinstance(value, bool):
            value = str(value).lower()
        elif isinstance(value, float) and value.is_integer() and abs(value) < 2**53:
            value = int(value)  # time=1, as it is written
        elif isinstance(value, tuple):
            value = "/".join(repr(float(v)) for v in value)
        elif isinstance(value, float):
            value = repr(value)
        text = str(value)
        if any(c in text for c in ",=") or text != text.strip() or not text:
            raise ValueError(f"{key}={text!r} cannot be written in a spec (no ',' or '=' in values, none empty)")
        parts.append(f"{key}={text}")
    return f"{name}:{','.join(parts)}" if parts else name


def _settings(agent: Any) -> tuple[str, dict[str, Any]]:
    """Every setting of a built-in agent, defaults included: agents are equal when these are."""
    return _core.agent_spec(agent.spec)
