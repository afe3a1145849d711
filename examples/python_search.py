"""The same search three ways: pure Python over the pure-Python engine, pure
Python over the Rust engine, and Rust. Same position, same iterations.

    python3 examples/python_search.py            # 200 iterations
    python3 examples/python_search.py 20         # quick
"""

import sys
from typing import Any

import dragoncastle as dc
from dragoncastle.agents import MCTSAgent
from dragoncastle.reference.agents import MCTSAgent as PythonMCTS

iterations = int(sys.argv[1]) if len(sys.argv) > 1 else 200


def midgame(engine):
    """The same position in either engine: 40 decisions picked by a fixed rule."""
    g = engine.Game(players=2, seed=5)
    for k in range(40):
        actions = g.legal_actions()
        g.apply(actions[(7 * k) % len(actions)])
    return g


tiers: list[tuple[str, Any, Any]] = [
    ("Python search, Python engine", PythonMCTS(iterations=iterations, seed=1), midgame(dc.reference)),
    ("Python search, Rust engine", PythonMCTS(iterations=iterations, seed=1), midgame(dc)),
    ("Rust search", MCTSAgent(iterations=iterations, seed=1, rollout="random", widening=None), midgame(dc)),
]
for name, agent, game in tiers:
    r = agent.search(game)
    print(f"{name:<30} {1e6 * r.seconds / r.iterations:>9.1f} µs per iteration, chooses {r.action}")
