"""Solo score distribution of the built-in agents: the baseline search must beat.

    python3 benches/solo_baseline.py [--games 1000]

Prints mean, standard deviation and the rank histogram (R-SOLO-5) per agent,
seeds 0..games-1 (the same deals for every agent).
"""

from __future__ import annotations

import argparse
import statistics
from collections import Counter

import dragoncastle as dc
from dragoncastle.agents import DragonOfIngenuity, GreedyAgent, RandomAgent

RANKS = ["Student", "Devotee", "Master", "Grand Master", "Dragon", "Silver Dragon", "Gold Dragon", "Jade Dragon", "Diamond Dragon"]


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--games", type=int, default=1000)
    args = p.parse_args()
    agents = {"random": RandomAgent, "greedy": GreedyAgent, "dragon": lambda seed: DragonOfIngenuity()}
    for name, make in agents.items():
        scores, ranks = [], Counter()
        for seed in range(args.games):
            g = dc.Game(players=1, seed=seed)
            dc.play(g, [make(seed)])
            scores.append(g.scores()[0])
            ranks[g.rank()] += 1
        hist = ", ".join(f"{r} {ranks[r]}" for r in RANKS if ranks[r])
        print(f"{name:<7} mean {statistics.mean(scores):6.2f}  sd {statistics.stdev(scores):5.2f}  "
              f"min {min(scores):3d}  max {max(scores):3d}  ranks: {hist}")


if __name__ == "__main__":
    main()
