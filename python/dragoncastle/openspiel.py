"""Dragon Castle as an OpenSpiel game (``pyspiel``), for OpenSpiel's algorithms and tools.

    >>> import pyspiel
    >>> from dragoncastle import openspiel
    >>> openspiel.register()
    >>> game = pyspiel.load_game("python_dragon_castle", {"players": 2, "seed": 7})
    >>> state = game.new_initial_state()
    >>> state.is_chance_node()              # the deal
    True
    >>> state.apply_action(0)               # draws the deal of dragoncastle.Game(players=2, seed=7)
    >>> state.current_player(), len(state.legal_actions()) > 0
    (0, True)

``register()`` adds the game to ``pyspiel`` under the short name ``python_dragon_castle``
(OpenSpiel's convention for games written in Python). It is idempotent. Parameters:

- ``players``: 1 to 4 (default 2). ``players=1`` is solo against the Dragon of Ingenuity, which
  moves inside ``apply_action`` exactly as in ``dragoncastle.Game``, so OpenSpiel sees a
  one-player game.
- ``seed``: where the deals come from (default 0). The k-th deal drawn by one game object
  (k = 0, 1, ...) is the deal of ``dragoncastle.Game(players, seed=seed + k, ...)``; ``seed=-1``
  draws every deal from the operating system's entropy instead.
- ``spirits``, ``dragons``: the standard game's cards (``docs/cards.md``), a count 0 to 10
  (default 0, the beginner's game) drawn from each deal's seed, as ``dragoncastle.Game(spirits=1,
  dragons=1)`` draws them; or, by name, ``spirit_names`` and ``dragon_names`` (comma-separated,
  ``"wind,faith"``). OpenSpiel gives every parameter one type, so a count and names cannot share
  a key: ``pyspiel.load_game("python_dragon_castle", {"players": 2, "spirits": 1, "dragons": 1})``.

The standard layouts and the default rules are used; the length bound below covers the cards.

Chance model: ``SAMPLED_STOCHASTIC``, one chance node
--------------------------------------------------------
The only randomness of Dragon Castle is the shuffle of the 116 castle tiles before the first
move, and it is hidden: covered tiles are seen by nobody until they are uncovered. OpenSpiel
needs that randomness to appear as chance: a ``DETERMINISTIC`` game with the deal fixed by a
parameter would be a different game, in which the covered tiles are part of the rules and
could be "known" by any algorithm that reads the state. So every game starts with **one chance
node** (player ``CHANCE``, a single outcome ``0`` with probability 1) whose application *draws*
the deal from the game object's seeded stream; that is what ``SAMPLED_STOCHASTIC`` means
("a chance node with non-deterministic ``ApplyAction``", OpenSpiel's ``spiel.h``; its
``negotiation`` game does the same). An explicit chance node per tile was the alternative: 116
nodes of up to 29 outcomes each before the first move, a game whose deals no longer match
``dragoncastle.Game(seed=...)`` and whose searches would spend their first 116 steps dealing.

Why it stays exact: ``clone()``, pickling and OpenSpiel's serialization copy the dealt game
(OpenSpiel's Python games copy the state's attributes; a ``dragoncastle.Game`` copies and
pickles whole, hidden tiles and history included), so only applying the chance node draws.
``resample_from_infostate(player, sampler)`` returns a copy whose covered tiles are re-dealt
with ``dragoncastle.Game.determinize`` (a function of public information and the sampler's
number only), which is what information-set MCTS needs
(``open_spiel.python.algorithms.ismcts.ISMCTSBot``).

Information and utilities
-------------------------
- Nothing is private: every action is public and the covered tiles are hidden from everyone,
  so every player's observation is the public one (``dragoncastle.Game.observation``), seen from
  their seat.
- Observation string: the JSON of ``Game.observation(player)``. Observation tensor: float32
  ``Game.observation_tensor(player)``, shape ``dragoncastle.observation_shape(OBSERVATION_VERSION)``
  (planes in ``docs/observation.md``).
- Information-state string: the JSON of ``{"history": [ids of every action so far], "observation":
  ...}``; the history makes two different pasts two different information states (perfect recall
  of every decision). Information-state tensor: the observation tensor. The current observation
  is a sufficient statistic of what a player knows about the hidden tiles: it holds the multiset
  of covered tiles (every tile that left the castle was seen), and every arrangement of it among
  the covered positions is equally likely whatever the history, since no decision depends on a
  hidden tile.
- ``returns()`` is ``dragoncastle.Game.returns()``: with 2-4 players 1 to the winner, split among
  tied winners, 0 otherwise, so the sum is always 1: ``CONSTANT_SUM`` with ``utility_sum=1``.
  Solo: the final score / 100, ``GENERAL_SUM`` (the type is chosen per game object, from
  ``players``). Rewards are terminal: ``returns()`` is 0 until the game is over.

OpenSpiel bots: ``open_spiel.python.algorithms.mcts.MCTSBot`` plays it, but it is a
perfect-information search: given the true state it reads the covered tiles through its
clones. ``ResamplingBot(bot)`` hands the wrapped bot a fresh determinization at every decision
instead (single-world PIMC). The Python ``ISMCTSBot`` works directly (it resamples every
iteration). The C++ ``pyspiel.ISMCTSBot`` does not: it calls the C++ ``ResampleFromInfostate``,
which OpenSpiel does not forward to Python games. ``AgentBot(agent)`` plays any dragoncastle
agent (``act(game)``, such as ``dragoncastle.agents.MCTSAgent``) as a ``pyspiel.Bot``.
"""

from __future__ import annotations

import json
import random
from typing import Any, Callable, Optional

import numpy as np
import pyspiel

from ._core import DRAGONS, NUM_ACTIONS, OBSERVATION_VERSION, SPIRITS, Action, Game, observation_shape

__all__ = ["SHORT_NAME", "MAX_GAME_LENGTH", "max_game_length", "AgentBot", "DragonCastleGame", "DragonCastleObserver",
           "DragonCastleState", "ResamplingBot", "register"]

SHORT_NAME = "python_dragon_castle"

# A true bound on the number of decisions (player actions) in a base game, 1 to 4 players.
# Every decision falls in one of these classes:
# - a turn that takes tiles has a first pick (ACTION) and a completion (COMPLETE), then one
#   PLACE per collected tile. Each such turn removes at least one of the 116 castle tiles and
#   places at most the tiles it took, so all of them together make at most
#   2 * 116 + 116 = 348 decisions;
# - `shrine r,c` builds a Shrine, and built Shrines never leave a Realm in the base game: at
#   most the 40 Shrines of the game;
# - `done` ends a Shrine step, at most one per step, and a step follows a Consolidation, which
#   turns at least 4 face-up tiles face down for good: at most floor(116 / 4) = 29;
# - `summon` takes one of the 7 Countdown tokens: at most 7.
# Solo counts the player's decisions only (the Dragon of Ingenuity moves inside `apply`); the
# same classes bound them. Total: 348 + 40 + 29 + 7 = 424. Random games, the longest kind, were
# at most 285 decisions long over 20,000 games per player count (dragoncastle.playouts).
MAX_GAME_LENGTH = 424


def max_game_length(spirits: int) -> int:
    """A true bound on the decisions of a game with ``spirits`` Spirit cards in play.

    Dragon cards only score. With Spirits, Cunning sets of 3 allow floor(116 / 3) = 38
    Consolidations (so 38 Shrine-step `done`s instead of 29), and each turn may add, per Spirit
    in play, its activation (once a turn, R-SPIRIT-2) and at most 4 follow-up decisions (Strength's
    two moves of two decisions each; Wind's flip and its Shrine's move are 3; the other cards 0
    or 1: ``docs/cards.md``), plus at most 3 `done`s (the end of the turn, the `SPIRITS` step and
    Faith's Shrine step). A turn takes a castle tile or a Countdown token, so there are at most
    116 + 7 = 123 turns. Picks, placements and Shrines are bounded as in the base game.
    """
    if spirits == 0:
        return MAX_GAME_LENGTH
    return 2 * 116 + 116 + 40 + 38 + 7 + 123 * (5 * spirits + 3)

# Solo: returns() is the score / 100. A score is at most 116 (every tile is worth at most 1 VP,
# by a set of 8 or more or by a Discard) + 3 (the Dragon-set bonus, 12 Dragon tiles) + 40 (a
# stack of Shrines scores at most its number of Shrines) + 2 * 7 (Countdown tokens) = 173.
_SOLO_MAX_RETURN = 1.73

_DEFAULT_PARAMS: dict[str, Any] = {"players": 2, "seed": 0, "spirits": 0, "dragons": 0,
                                   "spirit_names": "", "dragon_names": ""}


def _game_type(players: int) -> Any:
    # Constant-sum with 2-4 players (the win is shared out), general-sum alone (a scaled score).
    utility = (pyspiel.GameType.Utility.GENERAL_SUM if players == 1
               else pyspiel.GameType.Utility.CONSTANT_SUM)
    return pyspiel.GameType(
        short_name=SHORT_NAME,
        long_name="Python Dragon Castle",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=utility,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=4,
        min_num_players=1,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=_DEFAULT_PARAMS,
    )


def _game_info(players: int, spirits: int = 0, dragons: int = 0) -> Any:
    solo = players == 1
    # Solo with cards is the Spirits & Dragons variant: 15 points off (R-SOLO-1), and each Dragon
    # card adds at most 100 (the largest, Righteousness, at most two lines of the 40 Shrines + 4).
    variant = spirits + dragons > 0
    return pyspiel.GameInfo(
        num_distinct_actions=NUM_ACTIONS,
        max_chance_outcomes=1,  # the one (sampled) outcome of the deal
        num_players=players,
        min_utility=-0.15 if solo and variant else 0.0,
        max_utility=_SOLO_MAX_RETURN + dragons if solo else 1.0,
        utility_sum=None if solo else 1.0,
        max_game_length=max_game_length(spirits),
    )


class DragonCastleGame(pyspiel.Game):
    """The game object: parameters, and the seeded stream the deals are drawn from."""

    def __init__(self, params: Optional[dict[str, Any]] = None) -> None:
        params = {**_DEFAULT_PARAMS, **(params or {})}
        unknown = set(params) - set(_DEFAULT_PARAMS)
        if unknown:
            raise ValueError(f"unknown parameter(s) {sorted(unknown)}; known: {', '.join(_DEFAULT_PARAMS)}")
        players, seed = params["players"], params["seed"]
        self._cards = {kind: _cards(kind, params[kind], params[kind[:-1] + "_names"], table)
                       for kind, table in (("spirits", list(SPIRITS)), ("dragons", list(DRAGONS)))}
        if isinstance(players, bool) or not isinstance(players, int) or not 1 <= players <= 4:
            raise ValueError(f"players must be 1 to 4, not {players!r}")
        if isinstance(seed, bool) or not isinstance(seed, int) or seed < -1:
            raise ValueError(f"seed must be a non-negative integer, or -1 for random deals, not {seed!r}")
        in_play = [len(c) if isinstance(c, list) else (c or 0) for c in self._cards.values()]
        super().__init__(_game_type(players), _game_info(players, *in_play), params)
        self._players = players
        self._seed = seed
        self._deals = 0  # how many deals this object has drawn: the next one uses seed + _deals

    def new_initial_state(self) -> DragonCastleState:
        """A state before the deal (a chance node); cheap, as OpenSpiel's clone() creates one."""
        return DragonCastleState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> DragonCastleObserver:
        """The observer behind the observation and information-state strings and tensors."""
        if isinstance(iig_obs_type, dict):  # OpenSpiel calls make_py_observer(params) without a type
            iig_obs_type, params = None, iig_obs_type
        return DragonCastleObserver(iig_obs_type, params)

    def max_chance_nodes_in_history(self) -> int:
        return 1

    def __reduce__(self) -> tuple[Any, ...]:
        # pyspiel pickles a game through Game::Serialize, which for a sampled-stochastic game asks
        # for the C++ RNG state that OpenSpiel does not forward to Python games ("GetRNGState
        # unimplemented"). Our stream's state is the number of deals drawn; a copy continues it.
        return (_restore_game, (dict(self.get_parameters()), self._deals))

    def draw_deal(self) -> Game:
        """The next dealt game of this object's stream (what the chance node applies)."""
        if self._seed < 0:
            seed = random.SystemRandom().getrandbits(63)
        else:
            seed = self._seed + self._deals
        self._deals += 1
        return Game(players=self._players, seed=seed, **self._cards)


class DragonCastleState(pyspiel.State):
    """A position: a chance node until the deal, then a ``dragoncastle.Game`` (``dc_game``).

    OpenSpiel's ``clone()`` for Python games builds a new initial state and deep-copies this
    object's attributes; the only large one is the ``dragoncastle.Game``, whose deep copy is
    ``Game.clone()`` (a fraction of a microsecond), so no method is overridden for it.
    """

    def __init__(self, game: DragonCastleGame) -> None:
        super().__init__(game)
        self._game: Optional[Game] = None  # None until the chance node deals

    @property
    def dc_game(self) -> Optional[Game]:
        """The underlying ``dragoncastle.Game`` (None before the deal). Read it or let an agent
        act on it; change it only through ``apply_action``, which keeps OpenSpiel's history."""
        return self._game

    # --- OpenSpiel's State API ---------------------------------------------------------------

    def current_player(self) -> int:
        if self._game is None:
            return int(pyspiel.PlayerId.CHANCE)
        if self._game.is_over:
            return int(pyspiel.PlayerId.TERMINAL)
        return self._game.current_player

    def _legal_actions(self, player: int) -> list[int]:
        # OpenSpiel asks only for the player to move (and answers the others with []).
        assert self._game is not None and player == self._game.current_player
        return self._game.legal_action_ids()  # sorted by id, as OpenSpiel requires

    def chance_outcomes(self) -> list[tuple[int, float]]:
        # One outcome: which deal it is is sampled when it is applied.
        return [(0, 1.0)]

    def _apply_action(self, action: int) -> None:
        if self._game is None:
            self._game = self.get_game().draw_deal()
        else:
            self._game.apply(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return "deal"
        return str(Action.from_id(int(action)))

    def is_terminal(self) -> bool:
        return self._game is not None and self._game.is_over

    def returns(self) -> list[float]:
        if self._game is None:
            return [0.0] * self.num_players()
        return self._game.returns()  # zeros until the game is over (terminal rewards)

    def resample_from_infostate(self, player_id: int, probability_sampler: Callable[[], float]) -> DragonCastleState:
        """A copy with the covered tiles re-dealt, consistent with everything anyone has seen.

        ``probability_sampler()`` (a number in [0, 1), e.g. ``pyspiel.UniformProbabilitySampler``)
        seeds ``Game.determinize``; every player sees the same things, so ``player_id`` changes
        nothing. The copy keeps OpenSpiel's history and gives the same information state.
        """
        world = self.clone()
        if self._game is not None:
            world._game = self._game.determinize(int(probability_sampler() * 2.0**53))
        return world

    def __reduce__(self) -> tuple[Any, ...]:
        # pyspiel would pickle through SerializeGameAndState, which fails for this game (see
        # DragonCastleGame.__reduce__); the state's own serialize() works: OpenSpiel's history
        # and move number, and the pickled dragoncastle.Game.
        return (_restore_state, (self.get_game(), self.serialize()))

    def __str__(self) -> str:
        # Debug text: str(Game) shows the castle's visible tops only, never a covered tile.
        return "Dragon Castle: the deal is still to be drawn" if self._game is None else str(self._game)


class DragonCastleObserver:
    """OpenSpiel's Python observer protocol: ``tensor`` (flat float32), ``dict`` (named views),
    ``set_from(state, player)`` and ``string_from(state, player)``.

    There is no private information in Dragon Castle, so an observation type without public
    information (``public_info=False``) observes nothing: an empty tensor and an empty string.
    With ``perfect_recall`` (the information state) the string adds the history of actions; the
    tensor is the observation tensor either way (see the module docstring).
    """

    def __init__(self, iig_obs_type: Any, params: Any) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported; got {params!r}")
        self._public = iig_obs_type is None or bool(iig_obs_type.public_info)
        self._recall = iig_obs_type is not None and bool(iig_obs_type.perfect_recall)
        shape = observation_shape(OBSERVATION_VERSION) if self._public else (0,)
        self.tensor = np.zeros(int(np.prod(shape)), np.float32)
        self.dict = {"observation": self.tensor.reshape(shape)} if self._public else {}

    def set_from(self, state: DragonCastleState, player: int) -> None:
        game = state.dc_game
        if not self._public:
            return
        if game is None:  # before the deal (OpenSpiel sizes tensors on the initial state)
            self.tensor.fill(0.0)
        else:
            self.dict["observation"][...] = game.observation_tensor(player, OBSERVATION_VERSION)

    def string_from(self, state: DragonCastleState, player: int) -> str:
        game = state.dc_game
        if not self._public:
            return ""
        observation = None if game is None else game.observation(player)
        if self._recall:
            history = [] if game is None else [a.id for a in game.history]
            return _json({"history": history, "observation": observation})
        return _json(observation)


def _cards(kind: str, count: Any, names: Any, table: list[str]) -> Any:
    """The ``spirits=`` or ``dragons=`` argument of ``dragoncastle.Game`` for the parameters:
    None, a count, or a list of names; a clear ``ValueError`` for anything else."""
    if isinstance(count, bool) or not isinstance(count, int) or not 0 <= count <= len(table):
        raise ValueError(f"{kind} must be a count 0 to {len(table)}, not {count!r}")
    if not isinstance(names, str):
        raise ValueError(f"{kind[:-1]}_names must be comma-separated names, not {names!r}")
    chosen = [n.strip().lower() for n in names.split(",") if n.strip()]
    if chosen and count:
        raise ValueError(f"give {kind} (a count) or {kind[:-1]}_names, not both")
    unknown = [n for n in chosen if n not in table]
    if unknown:
        raise ValueError(f"unknown {kind[:-1]} card(s) {unknown}; known: {', '.join(table)}")
    if len(set(chosen)) != len(chosen):
        raise ValueError(f"{kind[:-1]}_names names a card twice: {names!r}")
    return chosen or (count or None)


def _restore_game(params: dict[str, Any], deals: int) -> DragonCastleGame:
    game = DragonCastleGame(params)
    game._deals = deals
    return game


def _restore_state(game: DragonCastleGame, serialized: str) -> DragonCastleState:
    state: DragonCastleState = game.deserialize_state(serialized)
    return state


def _json(value: Any) -> str:
    # Sorted keys and no spaces: equal information gives byte-equal strings (dictionary keys).
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


class AgentBot(pyspiel.Bot):
    """Any dragoncastle agent (``act(game) -> Action``) as a ``pyspiel.Bot``.

    ``dragoncastle.agents.MCTSAgent`` determinizes by itself, so giving it the dealt game never
    lets it read a covered tile.
    """

    def __init__(self, agent: Any) -> None:
        pyspiel.Bot.__init__(self)
        self.agent = agent

    def step(self, state: DragonCastleState) -> int:
        game = state.dc_game
        if game is None:
            raise ValueError("the deal is a chance node: no agent moves there")
        return int(self.agent.act(game))  # an Action or its id: both convert with int()

    def restart_at(self, state: Any) -> None:
        # A tree kept between decisions (MCTSAgent keeps one by default) belongs to one game.
        reset = getattr(self.agent, "reset", None)
        if callable(reset):
            reset()

    def restart(self) -> None:
        self.restart_at(None)

    def inform_action(self, state: Any, player_id: int, action: int) -> None:
        pass

    def provides_policy(self) -> bool:
        return False


class ResamplingBot(pyspiel.Bot):
    """Wraps an OpenSpiel bot so that it decides on a determinization of the state.

    OpenSpiel's ``MCTSBot`` searches the state it is given as if it were perfect information:
    its clones carry the true covered tiles, which its rollouts would then uncover. This wrapper
    gives it, at every decision, ``state.resample_from_infostate(...)`` (the covered tiles
    re-dealt from public information, drawn from ``seed``), so it never reads a hidden tile.
    The action is legal in the real state: legal actions depend only on what is visible.
    """

    def __init__(self, bot: Any, seed: Optional[int] = None) -> None:
        pyspiel.Bot.__init__(self)
        self.bot = bot
        self._rng = random.Random(seed)

    def step(self, state: DragonCastleState) -> int:
        world = state.resample_from_infostate(state.current_player(), self._rng.random)
        return int(self.bot.step(world))

    def restart_at(self, state: Any) -> None:
        pass

    def restart(self) -> None:
        pass

    def inform_action(self, state: Any, player_id: int, action: int) -> None:
        pass

    def provides_policy(self) -> bool:
        return False


def register() -> None:
    """Register ``python_dragon_castle`` with ``pyspiel`` (once; later calls do nothing)."""
    if SHORT_NAME in pyspiel.registered_names():
        return
    pyspiel.register_game(_game_type(_DEFAULT_PARAMS["players"]), DragonCastleGame)
