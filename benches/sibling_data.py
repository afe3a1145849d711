#!/usr/bin/env python3
"""Sibling-target self-play data (``docs/experiments/2026-12-01-sibling-targets.md``).

Solo games by the rollout search (``MCTSAgent(iterations=400)``), in shards of
100 games on one thread; every searched decision also records its root moves
with at least 5% of the visits (at most 6): the position after the move and
the search's mean value of it (``dc.selfplay(..., children=(0.05, 6))``).
Shard ``k`` plays seeds ``FIRST + 100 k ..``; a shard already written is
skipped, so the command continues a stopped run. An optional fourth argument
is the searching agent's spec (a network-guided search, for the next
generation's targets) and a fifth the first shard to play.

    python3 benches/sibling_data.py runs/sib1 3000000 30
    python3 benches/sibling_data.py runs/sib2 3100000 20 mcts:iterations=400,model=NET,priors=off,rollout_weight=0.5
"""

from __future__ import annotations

import os
import sys
import time

import numpy as np

import dragoncastle as dc
from dragoncastle.agents import MCTSAgent


def main() -> int:
    out, first, shards = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    agent = dc.agents.from_spec(sys.argv[4]) if len(sys.argv) > 4 else MCTSAgent(iterations=400)
    start = int(sys.argv[5]) if len(sys.argv) > 5 else 0
    os.makedirs(out, exist_ok=True)
    for k in range(start, shards):
        path = os.path.join(out, f"sib{k:03d}.npz")
        if os.path.exists(path):
            continue
        t = time.time()
        d = dc.selfplay(agent, 100, players=1, seed=first + 100 * k, threads=1, children=(0.05, 6))
        rows, cols = np.nonzero(d["policies"])
        arrays = {name: v for name, v in d.items() if name != "policies"}
        arrays.update(policy_rows=rows, policy_cols=cols, policy_values=d["policies"][rows, cols])
        np.savez_compressed(path + ".tmp.npz", **arrays)
        os.replace(path + ".tmp.npz", path)
        print(k, len(d["to_move"]), len(d["child_rows"]), round(time.time() - t, 1), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
