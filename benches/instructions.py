#!/usr/bin/env python3
"""Instructions per decision of seeded random games, counted by callgrind.

Instruction counts do not depend on how busy the machine is, so this is the
stable figure behind the core's speed claims (`docs/design.md`). It builds
`benches/instructions.rs` in release mode, runs it under
`valgrind --tool=callgrind` once without games and once with them, and divides
the difference by the decisions taken: start-up is not counted, set-up and
dealing of every game are.

    python3 benches/instructions.py              # 2, 3 and 4 players, 300 games each
    python3 benches/instructions.py --players 2 --games 1000 --cards 2
    python3 benches/instructions.py --search     # the search: 1 Spirit + 1 Dragon against none
    python3 benches/instructions.py --players 2 --games 200 --spirit all   # each Spirit alone

With ``--search`` it counts, instead, the instructions of one search of
2,000 iterations (the installed package's default ``MCTSAgent``, one thread)
from the opening and after 60 random decisions of deals 1 to 8, two players,
on the base game and on the same deal with one Spirit and one Dragon: each
count is a Python process that builds the position and searches, minus one
that only builds it. The ratio base / cards is the standard game's speed at
equal iterations, free of the machine's load.

Needs valgrind (`apt install valgrind`).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def build(tree: Path = ROOT) -> str:
    """Build the benchmark program of the checkout at ``tree``; its path."""
    out = subprocess.run(
        ["cargo", "build", "--release", "--bench", "instructions", "--message-format=json"],
        cwd=tree, check=True, capture_output=True, text=True,
    ).stdout
    for line in out.splitlines():
        msg = json.loads(line)
        if msg.get("reason") == "compiler-artifact" and msg["target"]["name"] == "instructions" and msg.get("executable"):
            return msg["executable"]
    raise RuntimeError("cargo did not report the instructions benchmark binary")


def count(binary: str, players: int, games: int, cards: int, spirit: int | None = None) -> tuple[int, int]:
    """(instructions, decisions) of one run under callgrind."""
    with tempfile.TemporaryDirectory() as tmp:
        out_file = os.path.join(tmp, "callgrind.out")
        extra = [] if spirit is None else [str(spirit)]
        run = subprocess.run(
            ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out_file}", binary, str(players), str(games), str(cards), *extra],
            check=True, capture_output=True, text=True,
        )
        decisions = int(re.search(r"decisions (\d+)", run.stdout).group(1))
        text = Path(out_file).read_text()
        total = re.search(r"^(?:summary|totals): (\d+)", text, re.M)
        return int(total.group(1)), decisions


SEARCH = """
import dragoncastle as dc
from dragoncastle.agents import MCTSAgent
from dragoncastle.bench import position
g = position(dc, 2, {seed}, {steps}{cards})
agent = MCTSAgent(iterations={iterations}, seed=1)
if {search} and len(g.legal_actions()) > 1:
    agent.search(g)
"""


def search_count(seed: int, steps: int, cards: bool, iterations: int, search: bool) -> int:
    """Instructions of a Python process that builds a position and, if ``search``, searches it."""
    code = SEARCH.format(seed=seed, steps=steps, cards=", spirits=1, dragons=1" if cards else "",
                         iterations=iterations, search=search)
    with tempfile.TemporaryDirectory() as tmp:
        out_file = os.path.join(tmp, "callgrind.out")
        subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out_file}", sys.executable, "-c", code],
                       check=True, capture_output=True, text=True)
        return int(re.search(r"^(?:summary|totals): (\d+)", Path(out_file).read_text(), re.M).group(1))


def search_ratios(iterations: int, deals: int) -> None:
    import statistics

    import dragoncastle as dc
    from dragoncastle.bench import position

    print(f"one search of {iterations} iterations, callgrind, 2 players: instructions base / 1+1 cards (speed ratio)")
    for name, steps in (("opening", 0), ("mid game", 60)):
        ratios = []
        for seed in range(1, deals + 1):
            if min(len(position(dc, 2, seed, steps, **c).legal_actions()) for c in ({}, {"spirits": 1, "dragons": 1})) < 2:
                print(f"  {name}, deal {seed}: one legal action, nothing to search")
                continue
            cost = {}
            for cards in (False, True):
                cost[cards] = search_count(seed, steps, cards, iterations, True) - search_count(seed, steps, cards, iterations, False)
            ratios.append(cost[False] / cost[True])
            print(f"  {name}, deal {seed}: {cost[False] / iterations:,.0f} / {cost[True] / iterations:,.0f} instructions per iteration, "
                  f"ratio {ratios[-1]:.2f}")
        print(f"{name}: geometric mean {statistics.geometric_mean(ratios):.2f} over {len(ratios)} deals "
              f"({min(ratios):.2f}-{max(ratios):.2f})")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--players", type=int, nargs="*", default=[2, 3, 4])
    ap.add_argument("--games", type=int, default=300)
    ap.add_argument("--cards", type=int, default=0, help="Spirits and Dragons drawn per game (each)")
    ap.add_argument("--search", action="store_true", help="count one search per position instead (see above)")
    ap.add_argument("--iterations", type=int, default=2000)
    ap.add_argument("--deals", type=int, default=8)
    ap.add_argument("--spirit", help="one Spirit by name, with the first Dragon card, or 'all' for each in turn")
    args = ap.parse_args()
    if args.search:
        search_ratios(args.iterations, args.deals)
        return 0
    binary = build()
    if args.spirit:
        from dragoncastle import DRAGONS, SPIRITS  # the core's card order, which the program takes by index

        names = SPIRITS if args.spirit == "all" else [args.spirit.lower()]
        if any(n not in SPIRITS for n in names):
            ap.error(f"--spirit: one of {', '.join(SPIRITS)} or all")
        print(f"random games, callgrind, {args.games} games per row, one Spirit with {DRAGONS[0]}")
        for players in args.players:
            base, _ = count(binary, players, 0, 0)
            for name in names:
                total, decisions = count(binary, players, args.games, 0, SPIRITS.index(name))
                print(f"{players} players, {name:>11}: {(total - base) / decisions:7.1f} instructions per decision")
        return 0
    print(f"random games, callgrind, {args.games} games per row" + (f", {args.cards}+{args.cards} cards" if args.cards else ""))
    for players in args.players:
        base, _ = count(binary, players, 0, args.cards)
        total, decisions = count(binary, players, args.games, args.cards)
        per = (total - base) / decisions
        print(f"{players} players: {per:7.1f} instructions per decision, {(total - base) / args.games:10.0f} per game, "
              f"{decisions / args.games:5.1f} decisions per game")
    return 0


if __name__ == "__main__":
    sys.exit(main())
