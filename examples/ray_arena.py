"""An arena spread over Ray: the games cut into shards, each shard a Ray task,
and the result exactly that of the same run on this machine alone.

    python3 examples/ray_arena.py            # 40 games at 200 iterations, 4 shards
    python3 examples/ray_arena.py 6 20 3     # games, iterations, shards (quick)

Needs Ray (pip install "dragoncastle[ray]"). On a cluster, drop ray.init below
and pass ray="auto" (docs/distributed.md).
"""

import logging
import sys

import ray

import dragoncastle as dc

games = int(sys.argv[1]) if len(sys.argv) > 1 else 40
iterations = int(sys.argv[2]) if len(sys.argv) > 2 else 200
shards = int(sys.argv[3]) if len(sys.argv) > 3 else 4
specs = [f"mcts:iterations={iterations}", "greedy"]

# A local Ray of 2 CPUs. The arena uses a session it finds open and leaves it
# open; with no session, ray="local" would start one for the call and stop it.
ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, logging_level=logging.ERROR)
try:
    # Shard (start, count) plays games start .. start + count - 1, that is
    # dc.arena(specs, count, seed=0 + start): game k is dealt with seed k and
    # seats rotate with k, wherever it runs. Each task runs 1 Rust thread.
    spread = dc.arena(specs, games, seed=0, ray="local", shards=shards)
finally:
    ray.shutdown()
print(f"on Ray, {shards} shards:")
print(spread.table())

# The same run in this process, in Rust threads.
local = dc.arena(specs, games, seed=0, threads=2)

# The same games, seats and scores; only the time spent choosing varies.
assert spread.untimed_games() == local.untimed_games()
assert spread.table(timing=False) == local.table(timing=False)
print(f"the Ray run equals the local run: the same {games} games, seats and scores")
