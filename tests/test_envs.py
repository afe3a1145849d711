"""The RL environments (docs/environments.md): PettingZoo's and Gymnasium's own checkers, then
our own: observations and masks are exactly what the game gives the agent to act, rewards at the
end are Game.returns(), opponents never skip the learner's turn, episodes end, seeds deal the
games dragoncastle.Game deals."""

from __future__ import annotations

import contextlib
import io
import subprocess
import sys
import warnings

import numpy as np
import pytest

import dragoncastle as dc

# The test extra installs both: a missing one must fail, not skip.
import gymnasium  # noqa: E402
import pettingzoo  # noqa: E402,F401

from gymnasium.utils.env_checker import check_env  # noqa: E402
from pettingzoo.test import api_test, seed_test  # noqa: E402

from dragoncastle.envs import gymnasium as dc_gym  # noqa: E402
from dragoncastle.envs import pettingzoo as dc_pz  # noqa: E402


def test_importing_dragoncastle_imports_neither_library():
    code = ("import sys, dragoncastle, dragoncastle.envs; "
            "assert not {'gymnasium', 'pettingzoo'} & set(sys.modules), sorted(sys.modules); "
            "import gymnasium; assert 'DragonCastle-v0' not in gymnasium.registry; "
            "import dragoncastle.envs.gymnasium; "
            "assert {'DragonCastle-v0', 'DragonCastle-Solo-v0'} <= set(gymnasium.registry); "
            "assert 'pettingzoo' not in sys.modules")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr


# -- PettingZoo ----------------------------------------------------------------------------------

# api_test warns about dict observations unless the environment is one of PettingZoo's own board
# games, which it exempts by name; ours follow the same {"observation", "action_mask"} convention.
pytestmark = [
    pytest.mark.filterwarnings("ignore:Observation space for each agent probably should be:UserWarning"),
    pytest.mark.filterwarnings("ignore:Observation is not a NumPy array:UserWarning"),
]

@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_pettingzoo_api_and_seed_tests(players):
    # 1000 cycles: longer than any game, so the test plays through the end of one.
    api_test(dc_pz.env(players=players), num_cycles=1000)
    seed_test(lambda: dc_pz.env(players=players), num_cycles=300)


def test_pettingzoo_api_test_with_tensor_and_cards():
    api_test(dc_pz.env(players=2, observation="tensor", spirits=2, dragons=2), num_cycles=60)
    seed_test(lambda: dc_pz.env(players=3, spirits=["destruction", "faith"], dragons=1), num_cycles=200)


@pytest.mark.parametrize("players, seed", [(1, 3), (2, 4), (4, 5)])
def test_pettingzoo_game_is_the_plain_game(players, seed):
    """Every observation and mask is the plain game's, the agent to act is the seat to move, and
    the rewards at the end are returns(); a plain Game with the same seed and actions is the twin."""
    env = dc_pz.env(players=players)
    env.reset(seed=seed)
    twin = dc.Game(players=players, seed=seed)
    rng = np.random.default_rng(seed)
    decisions = 0
    for agent in env.agent_iter():
        obs, reward, termination, truncation, info = env.last()
        seat = int(agent.split("_")[1])
        for other in env.agents:  # every agent sees the game from its own seat
            o = env.unwrapped.observe(other)
            k = int(other.split("_")[1])
            assert np.array_equal(o["observation"], twin.compact_observation(k))
            assert o["action_mask"].dtype == np.int8
            if other != agent or termination:
                assert not o["action_mask"].any()
        if termination or truncation:
            assert twin.is_over and not truncation
            assert reward == pytest.approx(twin.returns()[seat])
            assert info["score"] == twin.scores()[seat]
            env.step(None)
            continue
        assert seat == twin.current_player and reward == 0
        assert np.array_equal(obs["action_mask"].astype(bool), twin.legal_action_mask())
        action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        env.step(action)
        twin.apply(action)
        decisions += 1
    assert env.agents == [] and twin.is_over and decisions > 20
    assert env.unwrapped.game == twin


def test_pettingzoo_seeding_and_render():
    env = dc_pz.env(players=2, render_mode="ansi")
    env.reset(seed=11)
    assert env.render() == str(dc.Game(players=2, seed=11))
    env.reset()  # the next deal of the sequence
    assert env.unwrapped.game == dc.Game(players=2, seed=12)
    env = dc_pz.env(players=2, seed=40)
    env.reset()
    assert env.unwrapped.game == dc.Game(players=2, seed=40)
    with pytest.warns(UserWarning):
        env.render()  # no render mode: a warning, as in PettingZoo's games


def test_pettingzoo_illegal_actions():
    # Unwrapped: the engine's error, the game unchanged.
    raw = dc_pz.raw_env(players=2)
    raw.reset(seed=1)
    before = raw.game.clone()
    illegal = int(np.flatnonzero(~raw.game.legal_action_mask())[0])
    with pytest.raises(dc.IllegalActionError):
        raw.step(illegal)
    assert raw.game == before and raw.agent_selection == "player_0"
    # Wrapped (env()): the classic games' rule, the game ends with -1 for the player at fault.
    env = dc_pz.env(players=2)
    env.reset(seed=1)
    env.last()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        env.step(illegal)
    assert all(env.terminations.values())
    assert env.unwrapped._cumulative_rewards == {"player_0": -1.0, "player_1": 0.0}


# -- Gymnasium -----------------------------------------------------------------------------------

VARIANTS = [
    ("DragonCastle-Solo-v0", {}),
    ("DragonCastle-Solo-v0", {"reward": "score", "observation": "tensor"}),
    ("DragonCastle-v0", {}),
    ("DragonCastle-v0", {"players": 4, "learner": 2, "opponents": ["random", "dragon", "greedy"], "reward": "score"}),
    ("DragonCastle-v0", {"players": 3, "opponents": "mcts:iterations=20", "spirits": 1, "dragons": 1}),
]


@pytest.mark.parametrize("env_id, kwargs", VARIANTS)
def test_gymnasium_check_env(env_id, kwargs):
    env = gymnasium.make(env_id, **kwargs)
    with warnings.catch_warnings(record=True) as caught, contextlib.redirect_stdout(io.StringIO()):
        warnings.simplefilter("always")
        check_env(env.unwrapped)
        check_env(env)
    # The only warning: check_env's own note that a made environment is wrapped.
    messages = [str(w.message) for w in caught]
    assert all("different from the unwrapped version" in m for m in messages), messages


@pytest.mark.parametrize("players, learner, opponents", [
    (1, 0, None), (2, 0, "greedy"), (2, 1, "random"), (3, 1, ["greedy", "dragon"]), (4, 3, "random"),
])
def test_gymnasium_episode(players, learner, opponents):
    """Observation and mask are the learner's, it is always the learner's decision, the episode
    ends, and the last reward is returns()."""
    kwargs = {} if opponents is None else {"opponents": opponents}
    env = dc_gym.DragonCastleEnv(players=players, learner=learner, **kwargs)
    obs, info = env.reset(seed=21)
    rng = np.random.default_rng(0)
    steps, total, terminated = 0, 0.0, False
    while not terminated:
        game = env.game
        assert not game.is_over and game.current_player == learner  # opponents left no decision out
        assert np.array_equal(obs, game.compact_observation(learner))
        assert np.array_equal(info["action_mask"].astype(bool), game.legal_action_mask())
        before = len(game.history)
        obs, reward, terminated, truncated, info = env.step(rng.choice(np.flatnonzero(info["action_mask"])))
        assert not truncated and len(game.history) > before
        total += reward
        steps += 1
    game = env.game
    assert game.is_over and steps > 20
    assert reward == total == pytest.approx(game.returns()[learner])
    assert info["returns"] == game.returns() and info["scores"] == game.scores()
    assert not info["action_mask"].any()
    assert np.array_equal(obs, game.compact_observation(learner))
    with pytest.raises(RuntimeError):
        env.step(0)


def test_gymnasium_score_rewards_add_up_to_the_final_score():
    env = dc_gym.DragonCastleEnv(players=2, opponents="greedy", reward="score")
    obs, info = env.reset(seed=3)
    total, terminated = 0.0, False
    while not terminated:
        obs, reward, terminated, truncated, info = env.step(env.action_space.sample(info["action_mask"]))
        total += reward
    assert total == env.game.scores()[0] == info["scores"][0]


def test_gymnasium_seeding():
    env = gymnasium.make("DragonCastle-v0", players=3)
    obs, info = env.reset(seed=8)
    assert env.unwrapped.game == dc.Game(players=3, seed=8)  # a seeded reset deals Game(seed=...)
    seq = [env.reset()[0] for _ in range(3)]
    env.reset(seed=8)
    assert all(np.array_equal(a, env.reset()[0]) for a in seq)  # then np_random draws the deals
    assert not np.array_equal(seq[0], seq[1])


def test_gymnasium_illegal_action_and_render():
    env = dc_gym.DragonCastleEnv(players=1, render_mode="ansi")
    obs, info = env.reset(seed=2)
    before = env.game.clone()
    assert env.render() == str(before)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    obs, reward, terminated, truncated, info = env.step(illegal)
    assert (reward, terminated, truncated, info["illegal_action"]) == (-1.0, True, False, True)
    assert env.game == before
    env = dc_gym.DragonCastleEnv(players=1, illegal_action="raise")
    env.reset(seed=2)
    with pytest.raises(dc.IllegalActionError):
        env.step(illegal)
    with pytest.raises(dc.InvalidActionError):  # an id that names no action
        env.step(dc.NUM_ACTIONS)
    assert env.game == before
    env.step(int(np.flatnonzero(env.action_mask())[0]))  # still playable after the error


def test_gymnasium_rejects_bad_arguments():
    for kwargs in ({"players": 5}, {"players": 2, "learner": 2}, {"reward": "margin"}, {"observation": "pixels"},
                   {"opponents": "nobody"}, {"players": 3, "opponents": ["greedy"]}, {"illegal_action": "ignore"}):
        with pytest.raises((ValueError, TypeError)):
            dc_gym.DragonCastleEnv(**kwargs)


def test_tensor_bounds_follow_the_cores_planes():
    """The tensor Box's bounds hold every observation (they did not: a Shrine
    Pool above 10 broke the bound of 1) and name planes of the core's layout
    (VP / 50 and Shrine Pool / 10 for each relative seat, docs/observation.md),
    so a moved plane fails here instead of silently mis-bounding the space."""
    from dragoncastle.envs import _SHRINE_POOL_PLANES, _VP_PLANES, observation_bounds

    low, high, shape, _ = observation_bounds("tensor")
    rng = np.random.default_rng(0)
    seen_vp = seen_pool_over_10 = 0
    for seed in range(12):
        g = dc.Game(players=1 + seed % 4, seed=seed, spirits=seed % 3, dragons=seed % 3)
        while not g.is_over:
            obs = g.observation_tensor()
            assert obs.shape == shape and (obs >= low).all() and (obs <= high).all()
            for rel, plane in enumerate(_VP_PLANES[:g.players]):
                seat = (g.current_player + rel) % g.players
                assert np.all(obs[plane] == np.float32(g.vp_tokens(seat) / 50))
                assert np.all(obs[_SHRINE_POOL_PLANES[rel]] == np.float32(g.shrine_pool(seat) / 10))
                seen_vp += g.vp_tokens(seat) > 0
                seen_pool_over_10 += g.shrine_pool(seat) > 10
            ids = g.legal_action_ids()
            g.apply(ids[rng.integers(len(ids))])
    assert seen_vp > 0 and seen_pool_over_10 > 0
