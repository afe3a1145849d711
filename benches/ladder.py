#!/usr/bin/env python3
"""The rating ladders of docs/results.md ("The rating ladder") and its logs:

    python3 benches/ladder.py --plot docs/ladder.png    # about 3 hours on 2 cores
    python3 benches/ladder.py --clock                   # about 15 minutes on 2 cores

``--clock``: equal time by the clock. Greedy and the default search at 0.1 s
and at 1 s per decision, 2 players, seats rotated, one game at a time per
core, 20 games per pair from seed 60000 (group g on seeds from 60000 + g * 20),
except the pairs of a 1-second agent with a weaker one, sampled with 10 games
on the same seeds. The agents a new bot is rated against at equal time: add
it to ``CLOCK`` (the groups, and so their seeds, follow the list's order);
the run with adapted rollouts is docs/experiments/2026-12-05-equal-time-ladder.md.
Run it on an otherwise idle machine: a time budget buys fewer iterations on a
loaded one.

Without ``--clock``: equal iterations. Random, greedy and the rollout search
at 100 to 10,000 iterations per decision, 100 games per pair from seed 0
(group g on seeds from g * 100), except the two costliest pairs (1,000 and
3,000 iterations against 10,000), sampled with 24 games on the same seeds;
then 50 solo games per agent from seed 0 for the solo means.
"""

from __future__ import annotations

import argparse
import sys

import dragoncastle as dc

ITERATIONS = ["random", "greedy", "mcts:iterations=100", "mcts:iterations=300", "mcts:iterations=1000",
              "mcts:iterations=3000", "mcts:iterations=10000"]
ITERATIONS_SAMPLED = {("mcts:iterations=1000", "mcts:iterations=10000"): 24,
                      ("mcts:iterations=3000", "mcts:iterations=10000"): 24}

CLOCK = ["greedy", "mcts:time=0.1", "mcts:time=1"]


def one_second(agent: str) -> bool:
    """Whether the agent thinks 1 s per decision (its pairs with faster agents are sampled)."""
    return "time=1" in agent.partition(":")[2].split(",")


# A 1-second agent against an earlier, faster one: 10 games (keys in ladder order).
CLOCK_SAMPLED = {(fast, slow): 10 for i, slow in enumerate(CLOCK) if one_second(slow)
                 for fast in CLOCK[:i] if not one_second(fast)}


def progress(group: str) -> None:
    print(group, file=sys.stderr, flush=True)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--clock", action="store_true", help="the equal-time ladder (default: equal iterations)")
    ap.add_argument("--threads", type=int, default=None)
    ap.add_argument("--plot", metavar="FILE.png")
    ap.add_argument("--record", metavar="FILE.jsonl", help="write every game when the ladder ends")
    args = ap.parse_args()
    if args.clock:
        result = dc.ladder(CLOCK, 20, players=2, seed=60000, threads=args.threads, games_for=CLOCK_SAMPLED,
                           progress=progress)
    else:
        result = dc.ladder(ITERATIONS, 100, players=2, seed=0, threads=args.threads, solo_games=50,
                           games_for=ITERATIONS_SAMPLED, progress=progress)
    for run in result.runs:
        print(run.table(), end="\n\n")
    print(result.table())
    if args.record:
        with open(args.record, "w") as f:
            f.writelines(line + "\n" for run in result.runs for line in run.records())
    if args.plot:
        result.plot(args.plot)
    return 0


if __name__ == "__main__":
    sys.exit(main())
