#!/usr/bin/env python3
"""The search with a Python evaluator: leaves per second on one core, and the
search's own cost per leaf (docs/search.md, "A search that learns").

The evaluator is a constant numpy network stand-in (uniform priors, values
0.5) so that what is measured is the search and the batched call around it:
gathering leaves under virtual loss, writing their compact observations and
masks, one Python call per batch, checking and copying its answer. The time
spent inside the evaluator is measured too and subtracted, so both figures
are reported: leaves per second with the evaluator's time included, and with
it subtracted (the search's own overhead).

    python3 benches/evaluator.py                  # batch 64, opening and mid game
    python3 benches/evaluator.py --batch 1 16 64 256 --repeats 7
    python3 benches/evaluator.py --selfplay       # plus self-play decisions per second

Each figure is the best and the median of ``--repeats`` runs of one search.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time

import numpy as np

import dragoncastle as dc
from dragoncastle.agents import MCTSAgent
from dragoncastle.bench import position


class Constant:
    """Uniform priors and values 0.5, timing its own calls."""

    def __init__(self, players: int) -> None:
        self.players = players
        self.seconds = 0.0

    def __call__(self, observations: np.ndarray, masks: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        start = time.perf_counter()
        priors = np.ones(masks.shape, np.float32)
        values = np.full((len(masks), self.players), 0.5, np.float32)
        self.seconds += time.perf_counter() - start
        return priors, values


def leaves_per_second(game: dc.Game, batch: int, iterations: int) -> tuple[float, float]:
    """(leaves/s with the evaluator's time, leaves/s without it) of one search."""
    net = Constant(game.players)
    agent = MCTSAgent(iterations=iterations, seed=1, evaluator=net, batch_size=batch)
    start = time.perf_counter()
    r = agent.search(game)
    total = time.perf_counter() - start
    return r.iterations / total, r.iterations / max(total - net.seconds, 1e-9)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--batch", type=int, nargs="+", default=[64])
    ap.add_argument("--iterations", type=int, default=50_000)
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--selfplay", action="store_true", help="also self-play decisions per second at 200 iterations")
    args = ap.parse_args()
    print("## A Python evaluator in the Rust search (1 thread, constant numpy evaluator)")
    print()
    for name, moves in (("opening", 0), ("mid game", 60)):
        g = position(dc, 2, 1, moves)
        for batch in args.batch:
            runs = [leaves_per_second(g, batch, args.iterations) for _ in range(args.repeats)]
            with_eval = [a for a, _ in runs]
            without = [b for _, b in runs]
            print(f"- {name:<8} batch {batch:>4}: {max(with_eval):>9,.0f} leaves/s best, {statistics.median(with_eval):>9,.0f} median "
                  f"(evaluator included); search alone {max(without):>9,.0f} best, {statistics.median(without):>9,.0f} median")
    if args.selfplay:
        print()
        print("## Self-play at 200 iterations per decision (1 thread)")
        print()
        for label, agent in (("tuned rollouts", MCTSAgent(iterations=200)),
                             ("constant evaluator, batch 16", MCTSAgent(iterations=200, evaluator=Constant(2), batch_size=16))):
            rates = []
            for k in range(args.repeats):
                start = time.perf_counter()
                data = dc.selfplay(agent, 2, players=2, seed=100 + 2 * k, threads=1)
                rates.append(len(data["to_move"]) / (time.perf_counter() - start))
            print(f"- {label}: {max(rates):,.0f} decisions/s best, {statistics.median(rates):,.0f} median")
    return 0


if __name__ == "__main__":
    sys.exit(main())
