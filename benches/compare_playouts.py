"""Random playouts in both engines, side by side in one run.

    python3 benches/compare_playouts.py [--seconds 5]

The same driver (a Python loop: legal_actions, random.choice, apply) runs over
`dragoncastle.Game` and `dragoncastle.reference.Game`, so the ratio is the
engines' own; the Rust-only figure (no Python per step) is `cargo bench`.
"""

from __future__ import annotations

import argparse
import random
import time

import dragoncastle as dc
from dragoncastle import reference as ref


def rate(engine, players: int, seconds: float) -> tuple[float, float]:
    games = steps = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        g = engine.Game(players=players, seed=games)
        rng = random.Random(games)
        while not g.is_over:
            g.apply(rng.choice(g.legal_actions()))
            steps += 1
        games += 1
    t = time.perf_counter() - start
    return games / t, steps / t


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--seconds", type=float, default=5.0, help="per engine and player count")
    args = p.parse_args()
    print(f"{'players':>7} {'rust games/s':>13} {'python games/s':>15} {'ratio':>7}")
    for players in (2, 3, 4):
        r, _ = rate(dc, players, args.seconds)
        q, _ = rate(ref, players, args.seconds)
        print(f"{players:>7} {r:>13.0f} {q:>15.1f} {r / q:>7.0f}x")


if __name__ == "__main__":
    main()
