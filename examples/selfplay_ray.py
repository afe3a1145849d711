"""Self-play spread over Ray: each task plays a contiguous range of game
seeds in Rust threads, and the shards put together are exactly one run's data.

    python3 examples/selfplay_ray.py            # 8 games at 100 iterations, 4 shards
    python3 examples/selfplay_ray.py 4 20 2     # games, iterations, shards (quick)

Game k of a run with seed s is dealt from seed s + k and each decision's
search seed comes from the game seed, the seat and the decision number, so
``dc.selfplay(agent, n, seed=s)`` equals the shards ``dc.selfplay(agent,
n_i, seed=s_i)`` over consecutive ranges, wherever they run. On a cluster,
call ``ray.init(address="auto")`` instead of the local start below.
Needs Ray (pip install "dragoncastle[ray]").
"""

import logging
import sys

import numpy as np
import ray

import dragoncastle as dc
from dragoncastle.agents import MCTSAgent

games = int(sys.argv[1]) if len(sys.argv) > 1 else 8
iterations = int(sys.argv[2]) if len(sys.argv) > 2 else 100
shards = int(sys.argv[3]) if len(sys.argv) > 3 else 4


@ray.remote
def shard(start: int, count: int, iterations: int) -> dict:
    # A Rust agent is not pickled: each task builds its own from the settings.
    return dc.selfplay(MCTSAgent(iterations=iterations), count, players=2, seed=start, threads=1)


bounds = np.linspace(0, games, shards + 1).astype(int)
ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, logging_level=logging.ERROR)
try:
    parts = ray.get([shard.remote(int(a), int(b - a), iterations) for a, b in zip(bounds, bounds[1:]) if b > a])
finally:
    ray.shutdown()
data = {k: np.concatenate([p[k] for p in parts]) for k in parts[0]}
print(f"on Ray, {len(parts)} shards: {len(data['to_move'])} decisions from {games} games")

local = dc.selfplay(MCTSAgent(iterations=iterations), games, players=2, seed=0, threads=2)
assert all(np.array_equal(data[k], local[k], equal_nan=local[k].dtype.kind == "f") for k in local)
print("the shards put together equal the local run, row for row")
