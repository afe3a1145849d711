"""The vectorized environment (issue 11): every row is exactly the game a
plain ``Game`` would play with the same seed and actions, whatever the
number of threads; arrays are written in place; games end and start again
from their slot's next seed; opponents play inside Rust; bad input changes
nothing."""

from __future__ import annotations

import numpy as np
import pytest

import dragoncastle as dc


def slot_game(env_seed: int, n: int, players: int, i: int, episode: int) -> dc.Game:
    """The game slot ``i`` of ``n`` plays in its ``episode``-th episode (docs/vecenv.md)."""
    return dc.Game(players=players, seed=env_seed + i + n * episode)


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_rows_are_the_games_a_plain_game_plays(players):
    n, seed = 5, 40
    env = dc.VecEnv(n, players=players, seed=seed, threads=2)
    obs, masks, rewards, terminated, to_move = env.reset()
    assert obs.shape == (n, dc.COMPACT_OBSERVATION_SIZE) and obs.dtype == np.uint8
    assert masks.shape == (n, dc.NUM_ACTIONS) and masks.dtype == np.bool_
    assert rewards.shape == (n, players) and rewards.dtype == np.float32
    assert terminated.shape == (n,) and to_move.shape == (n,)
    games = [slot_game(seed, n, players, i, 0) for i in range(n)]
    episodes = [0] * n
    ended = 0
    for step in range(400):
        for i, g in enumerate(games):
            assert to_move[i] == g.current_player
            assert np.array_equal(masks[i], g.legal_action_mask())
            assert np.array_equal(obs[i], g.compact_observation())
        actions = env.sample()
        out = env.step(actions)
        # The same arrays, written in place.
        assert all(a is b for a, b in zip(out, (obs, masks, rewards, terminated, to_move)))
        for i, g in enumerate(games):
            g.apply(int(actions[i]))
            assert terminated[i] == g.is_over
            if g.is_over:
                assert rewards[i].tolist() == pytest.approx(g.returns())
                episodes[i] += 1
                ended += 1
                games[i] = slot_game(seed, n, players, i, episodes[i])
            else:
                assert not rewards[i].any()
    assert ended > 0


def test_threads_do_not_change_anything():
    runs = []
    for threads in (1, 2):
        env = dc.VecEnv(7, players=3, seed=3, threads=threads, spirits=2, dragons=2)
        trace = [np.copy(a) for a in env.reset()]
        for _ in range(150):
            trace += [np.copy(a) for a in env.step(env.sample())]
        runs.append(trace)
    assert all(np.array_equal(a, b) for a, b in zip(*runs))


def test_opponents_play_inside_rust_and_scores_add_up():
    """With an opponent the learner always moves; with reward='score' a
    game's rewards add up to its final score."""
    env = dc.VecEnv(4, players=2, seed=9, threads=2, opponents="greedy", learner=1, reward="score")
    obs, masks, rewards, terminated, to_move = env.reset()
    totals = np.zeros((4, 2))
    finals = []
    while len(finals) < 6:
        assert (to_move == 1).all()
        env.step(env.sample())
        totals += rewards
        for i in np.flatnonzero(terminated):
            finals.append(totals[i].copy())
            totals[i] = 0
    # Scores are small integers, and the greedy opponent usually beats random play.
    assert all(float(x).is_integer() for f in finals for x in f)
    assert sum(f[0] > f[1] for f in finals) >= 3


def test_tensor_observations_and_solo():
    env = dc.VecEnv(2, players=1, seed=5, observation="tensor")
    obs, masks, rewards, terminated, to_move = env.reset()
    assert obs.shape == (2, *dc.OBSERVATION_SHAPE) and obs.dtype == np.float32
    g = dc.Game(players=1, seed=6)
    assert np.array_equal(obs[1], g.observation_tensor(0))
    none = dc.VecEnv(2, players=2, observation="none")
    assert none.reset()[0] is None and none.observation_shape == [0]


def test_bad_input_is_an_error_and_changes_nothing():
    env = dc.VecEnv(3, players=2, seed=1)
    obs, masks, *_ = env.reset()
    before = (obs.copy(), masks.copy())
    good = env.sample()
    for bad, error in ((np.array([int(good[0]), int(good[1]), dc.Action.summon().id]), dc.IllegalActionError),
                       ([int(good[0])], ValueError), (["x", 1, 2], ValueError),
                       (np.array([5000, 0, 0]), dc.InvalidActionError)):
        with pytest.raises(error):
            env.step(bad)
        assert np.array_equal(obs, before[0]) and np.array_equal(masks, before[1])
    # The games are where they were: the good actions still apply.
    env.step(good)
    for kwargs in ({"players": 5}, {"threads": 0}, {"reward": "money"}, {"observation": "pixels"}, {"learner": 1},
                   {"opponents": "greedy", "learner": 2}, {"opponents": "nobody"}):
        with pytest.raises(ValueError):
            dc.VecEnv(2, **kwargs)
    with pytest.raises(ValueError):
        dc.VecEnv(0)


def test_review_findings_stay_fixed():
    """Arrays too large raise MemoryError, a read-only output array is an
    error (not a panic), strided action arrays are accepted, and score
    rewards add up to the final score in the solo variant with cards (-15)."""
    # Arrays that cannot be allocated raise MemoryError whatever the machine: in a process
    # whose address space is capped at 2 GB, 16,384 tensor observations (2.9 GB) cannot be.
    import subprocess
    import sys

    script = """
import resource
resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))
import dragoncastle as dc
try:
    dc.VecEnv(1 << 14, players=2, observation="tensor")
    print("allocated")
except MemoryError:
    print("MemoryError")
"""
    r = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert r.stdout.strip() == "MemoryError", r.stdout + r.stderr
    env = dc.VecEnv(4, players=2, seed=2)
    obs, masks, *_ = env.reset()
    masks.flags.writeable = False
    with pytest.raises(ValueError):
        env.step(env.sample())
    masks.flags.writeable = True
    a = env.sample()
    env.step(np.repeat(a, 2)[::2])  # not contiguous
    solo = dc.VecEnv(1, players=1, seed=0, dragons=1, reward="score")
    solo.reset()
    total = 0.0
    while True:
        _, _, rewards, terminated, _ = solo.step(solo.sample())
        total += float(rewards[0, 0])
        if terminated[0]:
            break
    g = dc.Game(players=1, seed=0, dragons=1)
    assert g.scores()[0] == -15
    # The same game replayed through Game: its final score is the sum.
    replay = dc.VecEnv(1, players=1, seed=0, dragons=1)
    replay.reset()
    while not g.is_over:
        action = replay.sample()
        g.apply(int(action[0]))
        replay.step(action)
    assert total == g.scores()[0]


def test_step_needs_a_reset_first():
    """The opponents' first moves (perhaps long searches) happen in reset(),
    which answers Ctrl-C; stepping before it is an error."""
    env = dc.VecEnv(2, players=2, seed=0, opponents="greedy", learner=1)
    with pytest.raises(ValueError, match="reset"):
        env.step(np.zeros(2, dtype=np.int64))
    *_, to_move = env.reset()
    assert (to_move == 1).all()


def test_layout_is_taken_as_game_takes_it():
    """docs/vecenv.md: ``layout`` is as for ``dc.Game``: a Layout, a standard
    layout's name or layout text (R-LAYOUT-1), and a bad one is a ValueError."""
    layout = dc.Layout.standard("standard-4p")
    for spec in (layout, "standard-4p", layout.text):
        env = dc.VecEnv(2, players=2, seed=9, layout=spec)
        env.reset()
        assert env.state_text(1) == str(dc.Game(players=2, seed=10, layout=layout))
    with pytest.raises(ValueError):
        dc.VecEnv(2, layout="standard-9p")
    with pytest.raises(TypeError):
        dc.VecEnv(2, layout=7)
