"""Dragon Castle as single-agent Gymnasium environments: one learner, every other seat played by
a built-in agent inside ``step``, or solo against the Dragon of Ingenuity.

Importing this module registers (once; importing ``dragoncastle`` alone imports no Gymnasium):

- ``DragonCastle-Solo-v0``: solo (``players=1``), the Dragon of Ingenuity moves inside the game.
- ``DragonCastle-v0``: 2 players by default, the learner at seat 0 and ``"greedy"`` in the other
  seat; ``gymnasium.make("DragonCastle-v0", players=4, opponents="mcts:iterations=200")`` and so on.

    >>> import gymnasium
    >>> import dragoncastle.envs.gymnasium
    >>> env = gymnasium.make("DragonCastle-Solo-v0")
    >>> obs, info = env.reset(seed=7)       # the deal of dragoncastle.Game(players=1, seed=7)
    >>> obs.shape, obs.dtype, info["action_mask"].shape
    ((1190,), dtype('uint8'), (1024,))
    >>> terminated = False
    >>> while not terminated:
    ...     action = env.action_space.sample(info["action_mask"])
    ...     obs, reward, terminated, truncated, info = env.step(action)
    >>> reward == info["returns"][0] == info["scores"][0] / 100     # solo: the scaled final score
    True

Spaces, rewards and seeding (``docs/environments.md``):

- Observation: what the learner's seat sees, ``Game.compact_observation(learner)`` (uint8
  ``(1190,)``, the default) or with ``observation="tensor"`` ``Game.observation_tensor(learner)``
  (float32 ``(304, 12, 12)``). Action: ``Discrete(dragoncastle.NUM_ACTIONS)``, action ids.
- ``info["action_mask"]``: int8 ``(1024,)``, ``Game.legal_action_mask()`` of the learner's
  decision (from ``reset`` too); ``env.action_space.sample(info["action_mask"])`` samples a legal
  action. All zero once the episode has ended.
- Reward: ``reward="win"`` (default), 0 until the end, then the learner's entry of
  ``Game.returns()`` (1 for a win, split among tied winners, 0 otherwise; solo: the final score /
  100). ``reward="score"``: after every step, the change of the learner's score (opponents' moves
  included), so the rewards of an episode add up to its final score.
- An illegal action (an id that is not legal now): by default it ends the episode as a loss,
  ``terminated=True``, reward ``illegal_reward`` (-1), ``info["illegal_action"] = True``, and the
  game is left as it was. Gymnasium leaves this undefined; we do not raise by default because
  Gymnasium's own ``check_env`` steps with unmasked ``action_space.sample()`` actions, and a
  learner may sample unmasked actions too. ``illegal_action="raise"`` raises
  ``dragoncastle.IllegalActionError`` instead (``InvalidActionError`` for an id that names no
  action; both ``ValueError``\\ s; the game is unchanged).
- Seeding: ``reset(seed=s)`` deals ``dragoncastle.Game(players, seed=s)``; ``reset()`` draws the
  deal's seed from the environment's ``np_random``, so after one seeded reset the whole sequence
  of deals is reproducible. The opponents' own seeds come from ``np_random`` too.
- The episode ends when the game does (``terminated``); it is never truncated (a game is short:
  every decision takes tiles or Shrines from finite supplies).
- ``render()``: ``str(game)``, returned with ``render_mode="ansi"``, printed with ``"human"``.
"""

from __future__ import annotations

from typing import Any, Optional, Sequence, SupportsFloat, Union

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from .. import _core
from ..agents import from_spec
from . import Cards, new_game, observation_bounds, observe, render_text

__all__ = ["DragonCastleEnv", "register"]

#: An opponent: an agent spec (``"greedy"``, ``"random"``, ``"dragon"``, ``"mcts:iterations=200"``)
#: or any object with ``act(game) -> action``.
Opponent = Union[str, Any]

_ILLEGAL = ("lose", "raise")


class DragonCastleEnv(gymnasium.Env[npt.NDArray[Any], np.int64]):
    """One learner at seat ``learner`` of a ``players``-player game; ``opponents`` play the other
    seats inside :meth:`step` until it is the learner's turn again (``players=1``: solo, no
    opponents). See the module's documentation for spaces, rewards and seeding.

    ``opponents``: one spec or agent for every other seat, or a list of them in seat order
    (skipping the learner's seat). Specs are built afresh at each reset, seeded from
    ``np_random``; agent objects are used as given (their ``reset()`` is called, if they have
    one, at each reset).
    """

    metadata: dict[str, Any] = {"render_modes": ["ansi", "human"], "render_fps": 1}

    def __init__(self, players: int = 2, opponents: Union[Opponent, Sequence[Opponent]] = "greedy",
                 learner: int = 0, reward: str = "win", observation: str = "compact",
                 spirits: Cards = None, dragons: Cards = None, layout: Optional[str] = None,
                 rules: Optional[_core.Rules] = None, illegal_action: str = "lose",
                 illegal_reward: float = -1.0, render_mode: Optional[str] = None) -> None:
        self._setup = (spirits, dragons, layout, rules)
        # The core checks the player count, cards and layout now, not at the first reset.
        self.players = new_game(players, 0, *self._setup).players
        if isinstance(learner, bool) or not isinstance(learner, int) or not 0 <= learner < self.players:
            raise ValueError(f"learner must be a seat from 0 to {self.players - 1}; got {learner!r}")
        if reward not in ("win", "score"):
            raise ValueError(f"reward must be 'win' or 'score'; got {reward!r}")
        if illegal_action not in _ILLEGAL:
            raise ValueError(f"illegal_action must be 'lose' or 'raise'; got {illegal_action!r}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be None or one of {self.metadata['render_modes']}; got {render_mode!r}")
        self.learner, self.reward_kind, self.observation_kind = learner, reward, observation
        self.illegal_action, self.illegal_reward = illegal_action, float(illegal_reward)
        self.render_mode = render_mode
        others = self.players - 1
        if isinstance(opponents, (list, tuple)):
            if len(opponents) != others:
                raise ValueError(f"give one opponent per other seat ({others}); got {len(opponents)}")
            self._opponent_specs: list[Opponent] = list(opponents)
        else:
            self._opponent_specs = [opponents] * others
        for spec in self._opponent_specs:
            if isinstance(spec, str):
                from_spec(spec)  # a bad spec fails now
            elif not hasattr(spec, "act"):
                raise TypeError(f"an opponent is an agent spec or has act(game); got {spec!r}")
        # Seat -> agent, filled at each reset.
        self._opponents: dict[int, Any] = {}

        low, high, shape, dtype = observation_bounds(observation)
        self.observation_space = spaces.Box(low=low, high=high, shape=shape, dtype=dtype)
        self.action_space = spaces.Discrete(_core.NUM_ACTIONS)
        self.game: Optional[_core.Game] = None
        self._ended = False
        self._score = 0

    # -- the episode -------------------------------------------------------------------------

    def reset(self, *, seed: Optional[int] = None, options: Optional[dict[str, Any]] = None
              ) -> tuple[npt.NDArray[Any], dict[str, Any]]:
        super().reset(seed=seed)
        # An explicit seed is the deal's seed itself, so that reset(seed=s) is Game(seed=s).
        game_seed = seed if seed is not None else int(self.np_random.integers(0, 2**63))
        self.game = new_game(self.players, game_seed, *self._setup)
        seats = [s for s in range(self.players) if s != self.learner]
        self._opponents = {}
        for seat, spec in zip(seats, self._opponent_specs):
            if isinstance(spec, str):
                self._opponents[seat] = from_spec(spec, seed=int(self.np_random.integers(0, 2**63)))
            else:
                if hasattr(spec, "reset"):
                    spec.reset()
                self._opponents[seat] = spec
        self._ended = False
        # The score before anyone moved: with reward="score" the episode's rewards then add up to
        # the final score, whatever the opponents scored the learner before its first decision.
        self._score = self.game.scores()[self.learner]
        self._play_opponents()
        if self.render_mode == "human":
            self.render()
        return self._observation(), self._info()

    def step(self, action: Any) -> tuple[npt.NDArray[Any], SupportsFloat, bool, bool, dict[str, Any]]:
        game = self._require_game()
        if self._ended:
            raise RuntimeError("the episode has ended: call reset()")
        if isinstance(action, (bool, np.bool_)):
            raise TypeError("an action is an integer id, not a bool")
        action_id = int(action)
        if not (0 <= action_id < _core.NUM_ACTIONS and game.is_legal(action_id)):
            if self.illegal_action == "raise":
                game.apply(action_id)  # raises the engine's own InvalidActionError / IllegalActionError
            self._ended = True
            info = self._info()
            info["illegal_action"] = True
            return self._observation(), self.illegal_reward, True, False, info
        game.apply(action_id)
        self._play_opponents()
        terminated = game.is_over
        self._ended = terminated
        if self.reward_kind == "score":
            now = game.scores()[self.learner]
            reward = float(now - self._score)
            self._score = now
        else:
            reward = float(game.returns()[self.learner]) if terminated else 0.0
        if self.render_mode == "human":
            self.render()
        return self._observation(), reward, terminated, False, self._info()

    def _play_opponents(self) -> None:
        """The other seats move until it is the learner's decision or the game is over (in solo
        the Dragon of Ingenuity has already moved inside ``apply``)."""
        game = self._require_game()
        while not game.is_over and game.current_player != self.learner:
            game.apply(self._opponents[game.current_player].act(game))

    # -- what the learner sees ---------------------------------------------------------------

    def _require_game(self) -> _core.Game:
        if self.game is None:
            raise RuntimeError("call reset() before step()")
        return self.game

    def _observation(self) -> npt.NDArray[Any]:
        return observe(self._require_game(), self.learner, self.observation_kind)

    def action_mask(self) -> npt.NDArray[np.int8]:
        """The legal actions of the learner's decision as an int8 mask (all zero once ended)."""
        game = self._require_game()
        if self._ended or game.is_over:
            return np.zeros(_core.NUM_ACTIONS, dtype=np.int8)
        return game.legal_action_mask().astype(np.int8)

    def _info(self) -> dict[str, Any]:
        game = self._require_game()
        info: dict[str, Any] = {"action_mask": self.action_mask()}
        if game.is_over:
            info["scores"] = game.scores()
            info["returns"] = game.returns()
        return info

    def render(self) -> Optional[str]:
        return render_text(self._require_game(), self.render_mode, gymnasium.logger.warn)

    def close(self) -> None:
        # Nothing to release: the game is plain memory and rendering is text.
        pass


def register() -> None:
    """Register ``DragonCastle-Solo-v0`` and ``DragonCastle-v0`` with Gymnasium (idempotent; done
    when this module is imported)."""
    entry = f"{__name__}:DragonCastleEnv"
    if "DragonCastle-Solo-v0" not in gymnasium.registry:
        gymnasium.register(id="DragonCastle-Solo-v0", entry_point=entry, kwargs={"players": 1})
    if "DragonCastle-v0" not in gymnasium.registry:
        gymnasium.register(id="DragonCastle-v0", entry_point=entry, kwargs={"players": 2, "opponents": "greedy"})


register()
