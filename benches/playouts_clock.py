#!/usr/bin/env python3
"""Seeded random games per second through the Python API (`dc.playouts`, one thread).

The interpreter that runs it decides which build is timed, so two builds are
compared by running it with two environments in alternation, pinned to one
core, with the same games checked by the digest:

    for i in 1 2 3; do for py in OLD_VENV/bin/python .venv/bin/python; do
        taskset -c 0 $py benches/playouts_clock.py --cards 1; done; done

Prints games per second (best of ``--repeats``) and a digest of the scores and
game lengths.
"""

from __future__ import annotations

import argparse
import hashlib
import sys

import dragoncastle as dc
from dragoncastle.bench import measure


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--cards", type=int, default=0, help="Spirits and Dragons drawn per game (each)")
    p.add_argument("--games", type=int, default=20_000)
    p.add_argument("--players", type=int, default=2)
    p.add_argument("--repeats", type=int, default=3)
    args = p.parse_args()
    cards = dict(spirits=args.cards, dragons=args.cards) if args.cards else {}

    def play():
        return dc.playouts("random", args.games, players=args.players, seed=0, threads=1, **cards)

    # A first batch warms up; then one whole batch per repeat, the best kept.
    seconds = measure(play, seconds=0, repeats=args.repeats)
    scores, _, lengths = play()
    digest = hashlib.sha256(scores.tobytes() + lengths.tobytes()).hexdigest()[:12]
    print(f"{sys.prefix}: {args.players} players, {args.cards}+{args.cards} cards: "
          f"{args.games / seconds:,.0f} games/s (best of {args.repeats}), digest {digest}")


if __name__ == "__main__":
    main()
