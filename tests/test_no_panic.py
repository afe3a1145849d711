"""No public function lets a Rust panic reach Python (issue 12).

A corpus of bad inputs goes to every public entry point of the Rust engine;
each must return or raise an ordinary ``Exception`` (``ValueError``,
``TypeError``, ``IndexError``, ``OverflowError``, ``MemoryError``...), never
PyO3's ``PanicException`` (a ``BaseException``), and a game must be
unchanged by a call that failed.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

import dragoncastle as dc
from dragoncastle.agents import MCTSAgent

WEIRD = [None, True, -1, 2**64, -(2**63) - 1, 10**30, 3.5, math.nan, math.inf, "", "x", "\x00", "０", "²", "take 99,99",
         [], [1, 2], {}, (0, 0), (99, 99), (-1, 0), (0, -1), (2**62, 0), b"bytes", object(), np.int64(5), np.array([1, 2])]


def calls(g: dc.Game):
    """(name, callable taking one weird argument) for the public API."""
    return [
        ("Game(players=)", lambda x: dc.Game(players=x)),
        ("Game(seed=)", lambda x: dc.Game(seed=x)),
        ("Game(spirits=)", lambda x: dc.Game(spirits=x)),
        ("Game(dragons=)", lambda x: dc.Game(dragons=x)),
        ("Game(layout=)", lambda x: dc.Game(layout=x)),
        ("Game(rules=)", lambda x: dc.Game(rules=x)),
        ("Game(deal=)", lambda x: dc.Game(deal=x)),
        ("apply", g.apply),
        ("is_legal", g.is_legal),
        ("realm", g.realm),
        ("shrine_pool", g.shrine_pool),
        ("vp_tokens", g.vp_tokens),
        ("countdown_tokens", g.countdown_tokens),
        ("score_breakdown", g.score_breakdown),
        ("castle_height", g.castle_height),
        ("castle_top", g.castle_top),
        ("is_available", g.is_available),
        ("observation", g.observation),
        ("observation_tensor", g.observation_tensor),
        ("observation_tensor(version=)", lambda x: g.observation_tensor(0, x)),
        ("compact_observation", g.compact_observation),
        ("determinize", g.determinize),
        ("clone(history=)", lambda x: g.clone(history=x)),
        ("from_json", dc.Game.from_json),
        ("Action", dc.Action),
        ("Action.parse", dc.Action.parse),
        ("Action.from_id", dc.Action.from_id),
        ("Action.take", dc.Action.take),
        ("Action.place", dc.Action.place),
        ("Tile", dc.Tile),
        ("Layout.parse", dc.Layout.parse),
        ("Layout.standard", dc.Layout.standard),
        ("Realm.parse", dc.Realm.parse),
        ("Rules(dragon_set_bonus=)", lambda x: dc.Rules(dragon_set_bonus=x)),
        ("observation_shape", dc.observation_shape),
        ("solo_rank", dc.solo_rank),
        ("dragon_points", lambda x: dc.dragon_points(x, [], 0)),
        ("playouts(n)", lambda x: dc.playouts("random", x, threads=1) if not isinstance(x, int) or abs(x) > 10**6 else None),
        ("playouts(players=)", lambda x: dc.playouts("random", 2, players=x)),
        ("playouts(agent=)", lambda x: dc.playouts(x, 2)),
        ("playouts(threads=)", lambda x: dc.playouts("random", 2, threads=x)),
        ("arena(agents)", lambda x: dc.arena([x, "random"], 1)),
        ("arena(n)", lambda x: dc.arena(["random", "random"], x) if not isinstance(x, int) or abs(x) > 10**6 else None),
        ("MCTSAgent(iterations=)", lambda x: MCTSAgent(iterations=x).search(g) if not isinstance(x, int) or x > 10**6 or x < 1 else None),
        ("VecEnv(n)", lambda x: dc.VecEnv(x) if not isinstance(x, int) or x > 10**6 or x < 1 else None),
        ("VecEnv(opponents=)", lambda x: dc.VecEnv(2, opponents=x)),
        ("VecEnv.step", lambda x: env.step(x)),
    ]


env = dc.VecEnv(2, players=2, seed=0)
env.reset()


@pytest.mark.parametrize("index", range(len(WEIRD)))
def test_no_rust_panic_reaches_python(index):
    g = dc.Game(players=2, seed=5)
    for _ in range(9):
        g.apply(g.legal_action_ids()[0])
    before = g.to_json()
    x = WEIRD[index]
    for name, call in calls(g):
        failed = False
        try:
            call(x)
        except Exception:  # noqa: BLE001 - any ordinary error is fine
            failed = True
        except BaseException as e:  # a PanicException is a BaseException
            pytest.fail(f"{name}({x!r}) let {type(e).__name__} reach Python: {e}")
        if name != "apply" or failed:  # only an apply that succeeded may change the game
            assert g.to_json() == before, name
        before = g.to_json()


def test_ctrl_c_in_a_fresh_process_before_numpy_is_loaded():
    """Issue 12: Ctrl-C during the first call that makes numpy arrays was a
    PanicException (the numpy capsule); it must be a KeyboardInterrupt."""
    import subprocess
    import sys

    script = """
import _thread, sys, threading, time
import signal
import dragoncastle as dc
assert "numpy" not in sys.modules, "the test needs a process without numpy"
# A process started in the background by a shell without job control (or
# under nohup) inherits SIGINT ignored, and then interrupt_main does nothing;
# Ctrl-C at a terminal always reaches Python's own handler, so test with it.
signal.signal(signal.SIGINT, signal.default_int_handler)
threading.Timer(0.3, _thread.interrupt_main).start()
start = time.perf_counter()
try:
    dc.playouts("random", 10**7, players=2, seed=0, threads=1)
    print("finished")
except KeyboardInterrupt:
    print("KeyboardInterrupt", round(time.perf_counter() - start, 2))
"""
    r = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert r.stdout.startswith("KeyboardInterrupt"), r.stdout + r.stderr
    assert float(r.stdout.split()[1]) < 1.5
