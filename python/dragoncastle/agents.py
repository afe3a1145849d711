"""Built-in agents. An agent is anything with ``act(game) -> Action``."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Callable

from . import _core

#: The strongest agent measured for solo games at one second per decision:
#: what ``dragoncastle solo`` plays (``docs/plan.md``). The spec ``plan``'s
#: defaults are that planner.
SOLO_DEFAULT = "plan:time=1"
#: The strongest agent measured for games with rivals at one second per
#: decision: the web table's suggested bot, the rival ``dragoncastle play --help``
#: names (``docs/search.md``).
RIVAL_DEFAULT = "mcts:time=1"
#: The oracle of ``dragoncastle solo --oracle``: the planner on the true deal (``docs/plan.md``).
ORACLE = "plan:oracle=true,level=3,iterations=80,time=20"

__all__ = ["RandomAgent", "GreedyAgent", "DragonOfIngenuity", "MCTSAgent", "SearchResult", "PlannerAgent", "PlanResult",
           "from_spec", "describe", "SOLO_DEFAULT", "RIVAL_DEFAULT", "ORACLE"]


def _check_seed(seed: Any) -> None:
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**64):
        raise ValueError("seed must be an integer in 0..2**64 or None")


class _Builtin:
    """What every built-in agent shares: a player in Rust that makes its
    decisions by the seed rule (``docs/agents.md``), its spec and settings.

    ``seed=None`` draws decision ``d`` of seat ``i`` from the game's seed, as
    every runner does, so ``agent.act`` in a loop plays what ``dc.arena``
    plays; ``seed=s`` puts ``s`` in the game seed's place.
    """

    _player: Any
    seed: int | None = None

    @property
    def spec(self) -> str:
        """The agent as spec text; :func:`from_spec` turns it back into an equal agent."""
        text = self._player.spec
        if text is None:
            raise ValueError("an MCTSAgent holding a Python evaluator has no spec text: run it with dc.play, "
                             "or give the network as a weights file (model=...)")
        return str(text)

    @property
    def settings(self) -> dict[str, Any]:
        """Every setting's value by its one name (``dragoncastle agents`` lists them)."""
        return dict(self._player.settings())

    @property
    def reads_hidden(self) -> bool:
        """Whether the agent reads the covered tiles (analysis only: runners with rivals or a person refuse it)."""
        return bool(self._player.reads_hidden)

    @property
    def clock(self) -> float | None:
        """Seconds by the clock each decision may take, or None when only a count
        (iterations, playouts) bounds it, so that a seeded game is reproducible.

        >>> from_spec("plan").clock, from_spec("plan:playouts=20000").clock
        (1.0, None)
        """
        return self._player.clock

    def reset(self) -> None:
        """Forget the game (a kept tree, the planner's policy); a new game does this by itself."""
        self._player.reset()

    def _decide(self, game: Any, stop: Callable[[], bool] | None = None) -> tuple[Any, Any]:
        if not isinstance(game, _core.Game):
            raise TypeError(f"{type(self).__name__} decides in Rust and needs a dragoncastle.Game, not a reference game")
        return self._player.decide(game, self.seed, stop)

    def act(self, game: Any) -> Any:
        """The agent's decision for the seat to move of ``game``."""
        return self._decide(game)[0]

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, _Builtin) or self._player.spec is None or other._player.spec is None:
            return self is other
        return bool(self._player.spec == other._player.spec)

    def __hash__(self) -> int:
        return hash(self._player.spec) if self._player.spec is not None else id(self)

    def __repr__(self) -> str:
        return f"from_spec({self._player.spec!r})"


class RandomAgent(_Builtin):
    """Uniformly random legal actions, drawn by the seed rule.

    With the reference engine's game it draws from its own seeded Python generator.

    >>> import dragoncastle as dc
    >>> g = dc.Game(players=2, seed=3)
    >>> a = RandomAgent().act(g)
    >>> a in g.legal_actions(), a == dc.play(dc.Game(players=2, seed=3), ["random"] * 2).actions[0]
    (True, True)
    """

    def __init__(self, seed: int | None = None) -> None:
        _check_seed(seed)
        self._player, self.seed = _core.Player.parse("random"), seed
        self._rng = random.Random(seed)

    def act(self, game: Any) -> Any:
        """A legal action of ``game`` drawn uniformly at random."""
        if isinstance(game, _core.Game):
            return self._decide(game)[0]
        return self._rng.choice(game.legal_actions())


class GreedyAgent(_Builtin):
    """One decision of look-ahead with a fixed heuristic (``docs/agents.md``).

    It values a position as the mover's score, plus progress towards sets
    (each face-up group of one type: 0.2 for 1 tile, 0.7 for 2, 1.5 for 3),
    plus 0.8 per Shrine in the pool up to 2, plus tiles in hand (1.0 if the
    Realm already shows that type, else 0.6), and picks the legal action with
    the best value after it; ties are broken by the seed rule. The
    evaluation runs in Rust.

    >>> import dragoncastle as dc
    >>> g = dc.Game(players=2, seed=3)
    >>> GreedyAgent().act(g) in g.legal_actions()
    True
    """

    def __init__(self, seed: int | None = None) -> None:
        _check_seed(seed)
        self._player, self.seed = _core.Player.parse("greedy"), seed


class DragonOfIngenuity(_Builtin):
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

    def __init__(self) -> None:
        self._player = _core.Player.parse("dragon")

    def act(self, game: Any) -> Any:
        """The Dragon of Ingenuity's choice for the seat to move (``game.dragon_action()``)."""
        action = game.dragon_action()
        if action is None:
            raise ValueError("the game is over: there is no action to choose")
        return action


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


class MCTSAgent(_Builtin):
    """Information-set MCTS in Rust (``docs/search.md``), with the GIL released.

    Every iteration starts from a fresh determinization of the position for
    the player to move, so the search never reads a hidden castle tile.

    Budgets: ``iterations`` and/or ``time_limit`` in seconds, whichever comes
    first (1000 iterations if neither is given). ``threads=k`` runs k
    root-parallel trees (the iterations are shared among them) and merges
    their root visit counts. Its draws follow the seed rule of every runner
    (``docs/agents.md``): with ``threads=1`` and an iteration budget the
    same decision of the same game always gives the same result, the one
    ``dc.arena`` plays; ``seed=s`` puts ``s`` in the game seed's place.

    Settings (keywords, as in the spec; ``dragoncastle agents`` lists them
    with their ranges): ``exploration`` (UCT constant; default 0.5 with
    ``reward="win"``, 0.05 with ``"margin"`` and in solo), ``reward``
    (``"win"`` or ``"margin"``; solo always maximises the score / 100),
    ``rollout`` (``"tuned"``, ``"greedy"`` or ``"random"``),
    ``rollout_spirits`` (heuristic rollouts weigh Spirits as the greedy
    agent does, playing an effect out;
    with the tuned weights they hardly ever activate; default ``False``:
    they never do, only the tree does; experimental), ``rollout_depth`` (cut rollouts
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
                 seed: int | None = None, *, evaluator: Any = None, batch_size: int | None = None,
                 **tuning: Any) -> None:
        _check_seed(seed)
        given = {"iterations": iterations, "time": time_limit, "threads": threads, **tuning}
        given = {k: v for k, v in given.items() if v is not None or k in tuning}
        self._player = _core.Player("mcts", given, evaluator, batch_size)
        self.seed = seed
        self.evaluator = evaluator

    def search(self, game: _core.Game, *, stop: Callable[[], bool] | None = None) -> SearchResult:
        """Search the position for the player to move and report the root statistics.

        ``stop``, a callable asked every 100 ms, ends the search early when it
        returns true (a server's bot whose game is deleted): the result is the
        search so far."""
        if not isinstance(game, _core.Game):
            raise TypeError("MCTSAgent searches in Rust and needs a dragoncastle.Game; "
                            "dragoncastle.reference.agents.MCTSAgent searches any game in Python")
        best, (root, pv, iterations, seconds, nodes, policy) = self._decide(game, stop)
        return SearchResult(action=best, visits={a: n for a, n, _ in root}, values={a: v for a, _, v in root},
                            pv=list(pv), iterations=iterations, seconds=seconds, nodes=nodes, policy=policy)

    def act(self, game: _core.Game) -> _core.Action:
        """The most visited root action of a :meth:`search` of ``game``."""
        return self.search(game).action


@dataclass(frozen=True)
class PlanResult:
    """What :meth:`PlannerAgent.plan` found.

    For each legal action: ``tried`` (the searches that count for it: in
    mode ``follow`` and ``oracle`` the plans that began with it, in mode
    ``mean`` the determinizations where a search ran after it), ``values``
    (their mean score) and ``best`` (their best). ``plan`` is the best
    sequence found after the chosen action, the action first (in mode
    ``follow``, the action alone).
    """

    action: _core.Action
    values: dict[_core.Action, float]
    tried: dict[_core.Action, int]
    best: dict[_core.Action, float]
    plan: list[_core.Action]
    playouts: int
    determinizations: int
    seconds: float


class PlannerAgent(_Builtin):
    """The solo planner (``docs/plan.md``): nested rollout policy adaptation
    with the rollout policy's move values as its bias (GNRPA), over
    determinizations of the hidden tiles, in Rust with the GIL released.

    Its defaults are the strongest planner measured, what ``dragoncastle
    solo`` plays (``SOLO_DEFAULT``, ``plan:time=1``): nested searches from
    the position, each on a determinization of its own, all adapting one
    shared policy that goes on from decision to decision; the move is the
    first of most plans. Budgets: ``time_limit`` (seconds per decision)
    and/or ``playouts``, whichever comes first (one second if neither is
    given); with a playout budget a decision does not depend on the clock.
    It plays solo games only (``ValueError`` with rivals) and never
    activates a Spirit.

    Settings (keywords, as in the spec; ``dragoncastle agents`` lists them
    with their ranges): ``mode`` (``"follow"``, ``"mean"``: a search after
    each legal move, the best mean; ``"oracle"``, also ``oracle=True``:
    plans on the true deal, analysis only), ``level`` and ``iterations``
    (``iterations ** level`` playouts a search), ``alpha``,
    ``temperature`` (the bias's; ``float("inf")`` for plain NRPA),
    ``warm`` (follow), ``threads`` (mean and oracle).

    >>> import dragoncastle as dc
    >>> g = dc.Game(players=1, seed=3)
    >>> agent = PlannerAgent(playouts=3000, iterations=20)
    >>> r = agent.plan(g)
    >>> r.action in g.legal_actions(), r.playouts >= 3000, r.plan[0] == r.action
    (True, True, True)
    >>> agent.spec
    'plan:playouts=3000,iterations=20'
    >>> from_spec(agent.spec) == agent
    True
    """

    def __init__(self, time_limit: float | None = None, playouts: int | None = None, threads: int = 1,
                 seed: int | None = None, **tuning: Any) -> None:
        _check_seed(seed)
        given = {"time": time_limit, "playouts": playouts, "threads": threads, **tuning}
        self._player = _core.Player("plan", {k: v for k, v in given.items() if v is not None or k in tuning})
        self.seed = seed

    def plan(self, game: _core.Game, *, stop: Callable[[], bool] | None = None) -> PlanResult:
        """Plan the decision of the player to move and report what each action got.

        ``stop`` ends the planning early when it returns true, as :meth:`MCTSAgent.search`'s does."""
        if not isinstance(game, _core.Game):
            raise TypeError("PlannerAgent plans in Rust and needs a dragoncastle.Game")
        best, (root, plan, playouts, determinizations, seconds) = self._decide(game, stop)
        return PlanResult(action=best, values={a: m for a, _, m, _ in root}, tried={a: t for a, t, _, _ in root},
                          best={a: b for a, _, _, b in root}, plan=list(plan), playouts=playouts,
                          determinizations=determinizations, seconds=seconds)

    def act(self, game: _core.Game) -> _core.Action:
        """The action :meth:`plan` chooses."""
        return self.plan(game).action


_KINDS: dict[str, type[_Builtin]] = {"random": RandomAgent, "greedy": GreedyAgent, "dragon": DragonOfIngenuity, "mcts": MCTSAgent,
          "plan": PlannerAgent}


def from_spec(spec: str, seed: int | None = None) -> Any:
    """An agent from its text spec, as the command line and :func:`dragoncastle.arena` take them:
    ``random``, ``greedy``, ``dragon``, ``mcts:iterations=2000,c=0.3``, ``plan:time=1`` (``docs/agents.md``).

    >>> from_spec("mcts:iterations=50,rollout=random")
    from_spec('mcts:iterations=50,rollout=random')
    >>> from_spec("mcts:iterations=50,exploration=0.3").spec
    'mcts:iterations=50,c=0.3'
    """
    if not isinstance(spec, str):
        raise TypeError(f"from_spec reads spec text (\"greedy\", \"mcts:time=1\"); got a {type(spec).__name__}")
    _check_seed(seed)
    player = _core.Player.parse(spec)
    kind: type[_Builtin] = _KINDS[player.kind]
    agent: Any = object.__new__(kind)
    agent._player, agent.seed = player, seed
    if isinstance(agent, RandomAgent):
        agent._rng = random.Random(seed)
    if isinstance(agent, MCTSAgent):
        agent.evaluator = None
    return agent


def describe() -> str:
    """Every agent kind with each setting's name (other spellings), what it
    takes, its default and its help: the one table of settings per kind
    that the spec parser, the canonical text, the keywords of
    :class:`MCTSAgent` and :class:`PlannerAgent` and ``agent.settings`` read.

    >>> print(describe().splitlines()[0])
    random: a uniformly random legal action
    >>> "warm" in describe()
    True
    """
    lines = []
    for name, help_, settings in _core.agent_kinds():
        lines.append(f"{name}: {help_}")
        for setting, takes, default, text in settings:
            lines.append(f"  {setting} = {default}  ({takes}): {text}")
    return "\n".join(lines)
