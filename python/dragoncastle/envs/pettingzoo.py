"""Dragon Castle as a PettingZoo AEC environment, in the style of PettingZoo's classic board games.

    >>> from dragoncastle.envs.pettingzoo import env
    >>> e = env(players=2)
    >>> e.reset(seed=7)                     # the deal of dragoncastle.Game(players=2, seed=7)
    >>> for agent in e.agent_iter():
    ...     obs, reward, termination, truncation, info = e.last()
    ...     action = None if termination or truncation else e.action_space(agent).sample(obs["action_mask"])
    ...     e.step(action)
    >>> e.unwrapped.game.is_over, sum(e.unwrapped.game.returns())   # one win, or a shared one
    (True, 1.0)

Agents are ``"player_0"`` .. ``"player_{n-1}"`` (seat k is ``"player_k"``); ``players=1`` is solo,
where the Dragon of Ingenuity moves inside the game and ``"player_0"`` is always to move.

A turn of Dragon Castle is several decisions of the same player (take, complete, place, build
Shrines, ...), so the same agent is often selected several times in a row: ``agent_selection``
is always the seat to move, ``"player_{game.current_player}"``.

- Observation: ``{"observation": ..., "action_mask": ...}``. ``"observation"`` is what that agent
  sees, from its own seat (``Game.compact_observation(seat)``, uint8 ``(1190,)``, or with
  ``observation="tensor"`` ``Game.observation_tensor(seat)``, float32 ``(304, 12, 12)``).
  ``"action_mask"`` is int8 ``(1024,)``: ``Game.legal_action_mask()`` for the agent to move, all
  zero for the others (PettingZoo's convention).
- Action: ``Discrete(dragoncastle.NUM_ACTIONS)``, the action ids of ``docs/actions.md``.
- Rewards: 0 until the game ends, then ``Game.returns()`` (1 for a win, split among tied
  winners, 0 otherwise; solo: the final score / 100). At the end ``infos[agent]["score"]`` holds
  the agent's final score.
- Illegal actions: :func:`env` (the wrapped environment) follows the classic games: an illegal
  action ends the game with reward -1 for the agent that played it and 0 for the others.
  :class:`raw_env` raises ``dragoncastle.IllegalActionError`` and leaves the game unchanged.
- Seeding: ``reset(seed=s)`` deals ``dragoncastle.Game(players, seed=s)``; each later ``reset()``
  without a seed deals ``s + 1``, ``s + 2``, ... (game k from ``s + k``, as in the arena).
  The constructor's ``seed`` is used the same way when the first ``reset()`` has no seed; with
  neither, deals are drawn from the operating system's entropy.
- ``render()``: the text picture ``str(game)``, returned in ``"ansi"`` mode and printed in
  ``"human"`` mode (after every step, too).
"""

from __future__ import annotations

import random
from typing import Any, Optional

import numpy as np
from gymnasium import logger, spaces
from gymnasium.utils import EzPickle
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from .. import _core
from . import Cards, new_game, observation_bounds, observe, render_text

__all__ = ["env", "raw_env"]


def env(players: int = 2, seed: Optional[int] = None, render_mode: Optional[str] = None, spirits: Cards = None,
        dragons: Cards = None, observation: str = "compact", **kwargs: Any) -> Any:
    """The environment with PettingZoo's standard wrappers for board games: an illegal action ends
    the game with reward -1 for its player, an action outside the space fails an assertion, and
    the AEC calling order is enforced. Other keywords (``layout``, ``rules``) go to
    :class:`raw_env`."""
    e: Any = raw_env(players=players, seed=seed, render_mode=render_mode, spirits=spirits, dragons=dragons,
                     observation=observation, **kwargs)
    e = wrappers.TerminateIllegalWrapper(e, illegal_reward=-1)
    e = wrappers.AssertOutOfBoundsWrapper(e)
    e = wrappers.OrderEnforcingWrapper(e)
    return e


class raw_env(AECEnv, EzPickle):
    """The unwrapped AEC environment (see the module's documentation); ``game`` is the
    ``dragoncastle.Game`` being played (read it, do not apply actions to it directly)."""

    metadata: dict[str, Any] = {
        "render_modes": ["human", "ansi"],
        "name": "dragoncastle_v0",
        "is_parallelizable": False,
        "render_fps": 1,
    }

    def __init__(self, players: int = 2, seed: Optional[int] = None, render_mode: Optional[str] = None,
                 spirits: Cards = None, dragons: Cards = None, observation: str = "compact",
                 layout: Optional[str] = None, rules: Optional[_core.Rules] = None) -> None:
        EzPickle.__init__(self, players, seed, render_mode, spirits, dragons, observation, layout, rules)
        super().__init__()
        self._setup = (spirits, dragons, layout, rules)
        # The core checks the player count, cards and layout now, not at the first reset.
        self.players = new_game(players, 0, *self._setup).players
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be None or one of {self.metadata['render_modes']}; got {render_mode!r}")
        low, high, shape, dtype = observation_bounds(observation)
        self.render_mode = render_mode
        self.observation_kind = observation
        self._next_seed = seed
        self._entropy = random.Random()

        self.possible_agents = [f"player_{k}" for k in range(self.players)]
        self.agents = self.possible_agents[:]
        self.observation_spaces = {
            a: spaces.Dict({
                "observation": spaces.Box(low=low, high=high, shape=shape, dtype=dtype),
                "action_mask": spaces.Box(low=0, high=1, shape=(_core.NUM_ACTIONS,), dtype=np.int8),
            })
            for a in self.possible_agents
        }
        self.action_spaces = {a: spaces.Discrete(_core.NUM_ACTIONS) for a in self.possible_agents}
        self.game: Optional[_core.Game] = None
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self.agents[0]

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def _require_game(self) -> _core.Game:
        if self.game is None:
            raise RuntimeError("call reset() before using the environment")
        return self.game

    def observe(self, agent: str) -> dict[str, Any]:
        game = self._require_game()
        seat = self.possible_agents.index(agent)
        if agent == self.agent_selection and not game.is_over:
            mask = game.legal_action_mask().astype(np.int8)
        else:
            mask = np.zeros(_core.NUM_ACTIONS, dtype=np.int8)
        return {"observation": observe(game, seat, self.observation_kind), "action_mask": mask}

    def reset(self, seed: Optional[int] = None, options: Optional[dict[str, Any]] = None) -> None:
        if seed is None:
            seed = self._next_seed if self._next_seed is not None else self._entropy.getrandbits(64)
        # The next reset without a seed deals the next game of the sequence.
        self._next_seed = (int(seed) + 1) % 2**64
        self.game = new_game(self.players, int(seed), *self._setup)
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[self.game.current_player]
        if self.render_mode == "human":
            self.render()

    def step(self, action: Any) -> None:
        if self.terminations[self.agent_selection] or self.truncations[self.agent_selection]:
            self._was_dead_step(action)
            return
        game = self._require_game()
        agent = self.agent_selection
        if isinstance(action, (bool, np.bool_)):
            raise TypeError("an action is an integer id, not a bool")
        game.apply(int(action))  # int(): numpy integers are ids too
        # The reward last() reports is what the agent received since it last acted.
        self._cumulative_rewards[agent] = 0.0
        self.rewards = {a: 0.0 for a in self.agents}
        if game.is_over:
            returns, scores = game.returns(), game.scores()
            for a in self.agents:
                seat = self.possible_agents.index(a)
                self.rewards[a] = float(returns[seat])
                self.terminations[a] = True
                self.infos[a] = {"score": scores[seat]}
            # Every agent then steps once with None (in seat order) to leave the game.
            self.agent_selection = self.agents[0]
        else:
            self.agent_selection = self.possible_agents[game.current_player]
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> Optional[str]:
        return render_text(self._require_game(), self.render_mode, logger.warn)

    def close(self) -> None:
        # Nothing to release: the game is plain memory and rendering is text.
        pass
