#!/usr/bin/env python3
"""Soak: a million games through the Python API, memory watched (issue 12).

Plays `--games` games step by step through `dc.Game` (legal ids, apply), with
`check_invariants()` after every step of one game in `--validate-every`, and a copy,
an undo, a JSON round trip and a pickle of one game in 1,000; then as many
through `dc.playouts` and a `dc.VecEnv`. Prints the resident set size (RSS)
along the way; memory must not grow once the allocator has warmed up.

    python3 benches/soak.py                      # 10^6 games, a few minutes
    python3 benches/soak.py --games 20000        # a quick look
"""

from __future__ import annotations

import argparse
import pickle
import sys
import time

import dragoncastle as dc


def rss_mb() -> float:
    """Resident set size now, in MB (Linux)."""
    with open("/proc/self/statm") as f:
        pages = int(f.read().split()[1])
    import os

    return pages * os.sysconf("SC_PAGE_SIZE") / 2**20


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=1_000_000)
    ap.add_argument("--validate-every", type=int, default=1000)
    args = ap.parse_args()
    n = args.games
    start = time.perf_counter()
    checkpoints = []
    steps = validated = 0
    for k in range(n):
        g = dc.Game(players=2 + k % 3, seed=k)
        check = k % args.validate_every == 0
        i = k
        while not g.is_over:
            ids = g.legal_action_ids()
            g.apply(ids[i % len(ids)])
            i += 7
            steps += 1
            if check:
                g.check_invariants()
                validated += 1
        if k % 1000 == 0:
            c = g.clone()
            c.undo()
            assert dc.Game.from_json(g.to_json()) == g and pickle.loads(pickle.dumps(g)) == g
        if k % (n // 10 or 1) == 0:
            checkpoints.append((k, rss_mb()))
            print(f"{k:>9} games  {steps:>11} steps  RSS {checkpoints[-1][1]:7.1f} MB  {time.perf_counter() - start:7.0f} s", flush=True)
    checkpoints.append((n, rss_mb()))
    print(f"{n:>9} games  {steps:>11} steps  RSS {checkpoints[-1][1]:7.1f} MB  {time.perf_counter() - start:7.0f} s; "
          f"check_invariants() after {validated} steps")
    batch_start = rss_mb()
    for k in range(10):
        dc.playouts("random", n // 10, players=2, seed=k * (n // 10), threads=2)
    env = dc.VecEnv(1000, players=2, seed=0, threads=2)
    env.reset()
    for _ in range(n // 1000):
        env.step(env.sample())
    print(f"then {n} games through dc.playouts and {n} VecEnv decisions: RSS {batch_start:.1f} -> {rss_mb():.1f} MB")
    # After the first tenth the allocator has its working set: growth past it is a leak.
    warm = checkpoints[1][1] if len(checkpoints) > 2 else checkpoints[0][1]
    growth = checkpoints[-1][1] - warm
    print(f"RSS growth after warm-up: {growth:+.1f} MB")
    return 0 if growth < 20 else 1


if __name__ == "__main__":
    sys.exit(main())
