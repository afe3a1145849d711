"""Bad input on the surfaces of the search that learns (issue 38): weights
files that are not files or lie about their size, networks whose output
overflows, and Python evaluators that change their masks or meet Ctrl-C."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time

import numpy as np
import pytest

import dragoncastle as dc
from dragoncastle import _core
from dragoncastle.agents import MCTSAgent


def small_network(scale: float = 0.01, hidden: int = 8, hidden2: int = 4):
    """A network whose every weight is ``scale``: 1e30 overflows to inf (and NaN after the softmax)."""
    sizes = {"embed": (_core.NETWORK_FEATURES, hidden), "b0": (1, hidden), "w1": (hidden, hidden2), "b1": (1, hidden2),
             "wv": (hidden2, 4), "bv": (1, 4), "wp": (dc.NUM_ACTIONS, hidden2), "bp": (1, dc.NUM_ACTIONS)}
    arrays = [np.full(r * c, scale, np.float32) for r, c in (sizes[n] for n in _core.Network.ARRAYS)]
    return _core.Network.from_arrays(arrays, hidden, hidden2, json.dumps({"command": "test"}))


def load_refused(path: str, match: str) -> None:
    """Every way of naming a weights file refuses ``path`` with ``match``."""
    with pytest.raises(ValueError, match=match):
        _core.Network.load(path)
    # Making the agent, or parsing its spec, opens nothing: the file is read at its first run.
    agent = MCTSAgent(iterations=10, model=path)
    assert dc.agents.from_spec(f"mcts:iterations=5,model={path}").spec == f"mcts:iterations=5,model={path}"
    with pytest.raises(ValueError, match=match):
        agent.search(dc.Game(players=1, seed=1))
    with pytest.raises(ValueError, match=match):
        dc.arena([f"mcts:iterations=5,model={path}", "greedy"], 1)


# ---------------------------------------------------------------- weights files

def test_a_device_is_refused_without_being_read():
    start = time.perf_counter()
    load_refused("/dev/zero", "'?\"?/dev/zero\"?'? is not a regular file")
    assert time.perf_counter() - start < 1


def test_a_directory_is_refused(tmp_path):
    load_refused(str(tmp_path), "is not a regular file .*directory")


def test_a_fifo_is_refused_without_blocking(tmp_path):
    """Opening a FIFO for reading waits for a writer: the load runs in a
    child process, so a regression fails the test instead of hanging it."""
    fifo = tmp_path / "weights.dcnet"
    os.mkfifo(fifo)
    code = ("import dragoncastle._core as c, sys\n"
            "try:\n    c.Network.load(sys.argv[1])\nexcept ValueError as e:\n    print(e)\n")
    out = subprocess.run([sys.executable, "-c", code, str(fifo)], capture_output=True, text=True, timeout=20)
    assert "is not a regular file (it is a FIFO)" in out.stdout and str(fifo) in out.stdout, out


def test_a_huge_sparse_file_is_refused_fast(tmp_path):
    path = tmp_path / "huge.dcnet"
    small_network().save(str(path))
    with open(path, "r+b") as f:
        f.truncate(1 << 30)  # sparse: no disk used, and reading it would take seconds
    start = time.perf_counter()
    load_refused(str(path), "1073741824 bytes; a weights file has at most")
    assert time.perf_counter() - start < 0.5


def test_a_header_that_declares_more_or_less_than_the_file_holds(tmp_path):
    path = tmp_path / "m.dcnet"
    small_network().save(str(path))
    raw = path.read_bytes()
    first, head, body = raw.split(b"\n", 2)
    h = json.loads(head)
    h["hidden"] = 1024  # declares about 40 MB of weights; the file holds a few hundred KB
    (tmp_path / "big.dcnet").write_bytes(b"\n".join([first, json.dumps(h).encode(), body]))
    load_refused(str(tmp_path / "big.dcnet"), "bytes of weights; its header says")
    (tmp_path / "short.dcnet").write_bytes(raw[: len(raw) // 2])
    load_refused(str(tmp_path / "short.dcnet"), "bytes of weights; its header says")
    (tmp_path / "header.dcnet").write_bytes(first + b"\n" + b"{" * 100_000)
    load_refused(str(tmp_path / "header.dcnet"), "longer than")


def test_good_weights_still_load(tmp_path):
    assert "source=\"builtin\"" in repr(_core.Network.load("builtin"))
    path = tmp_path / "m.dcnet"
    net = small_network()
    net.save(str(path))
    again = _core.Network.load(str(path))
    assert all(np.array_equal(a, b) for a, b in zip(net.arrays(), again.arrays()))
    assert MCTSAgent(iterations=20, model=str(path)).search(dc.Game(players=2, seed=1)).iterations == 20


# ---------------------------------------------------------------- networks that overflow

@pytest.fixture
def overflowing(tmp_path):
    path = tmp_path / "overflow.dcnet"
    small_network(1e30).save(str(path))
    return str(path)


@pytest.mark.parametrize("players", [1, 2])
def test_an_overflowing_network_stops_the_search(overflowing, players):
    g = dc.Game(players=players, seed=3)
    before = g.to_json()
    for kw in ({}, {"priors": False}, {"cutoff": 2}):
        agent = MCTSAgent(iterations=50, model=overflowing, **kw)
        with pytest.raises(ValueError, match="overflow.dcnet"):
            agent.search(g)
        with pytest.raises(ValueError, match="overflow.dcnet"):
            agent.act(g)
    assert g.to_json() == before


def test_an_overflowing_network_stops_the_arena_selfplay_playouts_and_vecenv(overflowing):
    spec = f"mcts:iterations=20,model={overflowing}"
    with pytest.raises(ValueError, match="overflow.dcnet"):
        dc.arena([spec, "greedy"], 4, threads=2)
    with pytest.raises(ValueError, match="overflow.dcnet"):
        dc.selfplay(MCTSAgent(iterations=20, model=overflowing), 2, threads=2)
    with pytest.raises(ValueError, match="overflow.dcnet"):
        dc.playouts(spec, 2, players=2, threads=2)
    env = dc.VecEnv(2, players=2, seed=0, opponents=spec, learner=0)
    env.reset()  # the learner moves first, and may decide several times before the opponent
    with pytest.raises(ValueError, match="overflow.dcnet"):
        for _ in range(20):
            before = [env.state_text(i) for i in range(len(env))]
            env.step(env.sample())
    assert [env.state_text(i) for i in range(len(env))] == before


# ---------------------------------------------------------------- Python evaluators

def mask_clearing(kind):
    def fn(observations, masks):
        priors = np.ones(masks.shape, np.float32)
        priors[masks] = np.nan if kind == "nan" else -1.0
        masks[:] = False  # must not switch the checks off
        return priors, np.full((len(masks), 2), 0.5, np.float32)
    return fn


@pytest.mark.parametrize("kind, message", [("nan", "finite"), ("negative", "non-negative")])
def test_an_evaluator_that_clears_its_masks_is_still_checked(kind, message):
    with pytest.raises(ValueError, match=message):
        MCTSAgent(iterations=50, seed=1, evaluator=mask_clearing(kind), batch_size=4).search(dc.Game(players=2, seed=1))


@pytest.mark.parametrize("how", ["raise", "signal"])
@pytest.mark.parametrize("runner", ["search", "selfplay"])
def test_ctrl_c_in_an_evaluator_stops_after_that_call(how, runner):
    """Ctrl-C during a call: no further call starts, and KeyboardInterrupt is
    raised when the call returns."""
    calls = []

    def fn(observations, masks):
        calls.append(len(masks))
        if how == "raise":
            raise KeyboardInterrupt
        signal.raise_signal(signal.SIGINT)
        return np.ones(masks.shape, np.float32), np.full((len(masks), 2), 0.5, np.float32)

    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        agent = MCTSAgent(iterations=10_000, seed=1, evaluator=fn, batch_size=4)
        with pytest.raises(KeyboardInterrupt):
            if runner == "search":
                agent.search(dc.Game(players=2, seed=1))
            else:
                dc.selfplay(agent, 4, threads=2)
    finally:
        signal.signal(signal.SIGINT, previous)
    assert len(calls) == 1


def test_a_search_waits_for_a_slow_evaluator_and_then_sees_ctrl_c():
    """A callable that takes long is waited for; Ctrl-C during it is raised when it returns."""
    calls = []

    def slow(observations, masks):
        calls.append(time.perf_counter())
        time.sleep(0.5)
        return np.ones(masks.shape, np.float32), np.full((len(masks), 2), 0.5, np.float32)

    import _thread
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    timer = threading.Timer(0.1, _thread.interrupt_main)
    try:
        timer.start()
        with pytest.raises(KeyboardInterrupt):
            MCTSAgent(time_limit=30, seed=1, evaluator=slow, batch_size=4).search(dc.Game(players=2, seed=1))
    finally:
        timer.cancel()
        signal.signal(signal.SIGINT, previous)
    assert len(calls) == 1
