#!/usr/bin/env python3
"""The rating ladder published in docs/results.md ("The rating ladder"):

    python3 benches/ladder.py                  # about 3 hours on 2 cores
    python3 benches/ladder.py --plot docs/ladder.png

Random, greedy and the rollout search at 100 to 10,000 iterations per
decision, 2 players, seats rotated, 100 games per pair from seed 0 (group g
on seeds from g * 100), except the two costliest pairs (1,000 and 3,000
iterations against 10,000), sampled with 24 games on the same seeds; then
50 solo games per agent from seed 0 for the solo means.
"""

from __future__ import annotations

import argparse
import sys

import dragoncastle as dc

AGENTS = ["random", "greedy", "mcts:iterations=100", "mcts:iterations=300", "mcts:iterations=1000",
          "mcts:iterations=3000", "mcts:iterations=10000"]
SAMPLED = {("mcts:iterations=1000", "mcts:iterations=10000"): 24, ("mcts:iterations=3000", "mcts:iterations=10000"): 24}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--threads", type=int, default=None)
    ap.add_argument("--plot", metavar="FILE.png")
    args = ap.parse_args()
    result = dc.ladder(AGENTS, 100, players=2, seed=0, threads=args.threads, solo_games=50, games_for=SAMPLED,
                       progress=lambda group: print(group, file=sys.stderr, flush=True))
    print(result.table())
    if args.plot:
        result.plot(args.plot)
    return 0


if __name__ == "__main__":
    sys.exit(main())
