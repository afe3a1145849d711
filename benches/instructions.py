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

With ``--plan`` it counts the solo planner's work from the opening of deals 1
to ``--deals``: ``--playouts`` playouts of the ``plan`` spec's level-2
searches on determinizations, instructions per playout move under callgrind
(minus a run that only builds the position), and the playouts per second of
the same work run natively (one thread; that figure follows the machine's load).

    python3 benches/instructions.py --plan --deals 4 --playouts 9000

With ``--search`` it counts, instead, the instructions of one search of
2,000 iterations (the default ``mcts`` agent, one thread, in the same Rust
program) from the opening and after 60 seeded random decisions of deals 1 to
8, two players, on the base game and on the same deal with one Spirit and
one Dragon: each count is a run that builds the position and searches, minus
one that only builds it. The ratio base / cards is the standard game's speed
at equal iterations, free of the machine's load.

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


def callgrind(binary: str, *args: object) -> tuple[int, str]:
    """(instructions, stdout) of one run of the program under callgrind."""
    with tempfile.TemporaryDirectory() as tmp:
        out_file = os.path.join(tmp, "callgrind.out")
        run = subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out_file}", binary,
                              *map(str, args)], check=True, capture_output=True, text=True)
        total = re.search(r"^(?:summary|totals): (\d+)", Path(out_file).read_text(), re.M)
        return int(total.group(1)), run.stdout


def count(binary: str, players: int, games: int, cards: int, spirit: int | None = None) -> tuple[int, int]:
    """(instructions, decisions) of one run under callgrind."""
    total, out = callgrind(binary, players, games, cards, *([] if spirit is None else [spirit]))
    return total, int(re.search(r"decisions (\d+)", out).group(1))


def search_count(binary: str, seed: int, steps: int, cards: int, iterations: int) -> tuple[int, int]:
    """(instructions, legal actions) of the program building a position and searching it."""
    total, out = callgrind(binary, "search", seed, steps, cards, iterations)
    return total, int(re.search(r"legal (\d+)", out).group(1))


def search_ratios(binary: str, iterations: int, deals: int) -> None:
    import statistics

    print(f"one search of {iterations} iterations, callgrind, 2 players: instructions base / 1+1 cards (speed ratio)")
    for name, steps in (("opening", 0), ("mid game", 60)):
        ratios = []
        for seed in range(1, deals + 1):
            cost = {}
            for cards in (0, 1):
                total, legal = search_count(binary, seed, steps, cards, iterations)
                cost[cards] = (total - search_count(binary, seed, steps, cards, 0)[0], legal)
            if min(legal for _, legal in cost.values()) < 2:
                print(f"  {name}, deal {seed}: one legal action, nothing to search")
                continue
            ratios.append(cost[0][0] / cost[1][0])
            print(f"  {name}, deal {seed}: {cost[0][0] / iterations:,.0f} / {cost[1][0] / iterations:,.0f} instructions per iteration, "
                  f"ratio {ratios[-1]:.2f}")
        print(f"{name}: geometric mean {statistics.geometric_mean(ratios):.2f} over {len(ratios)} deals "
              f"({min(ratios):.2f}-{max(ratios):.2f})")


def plan_run(binary: str, seed: int, playouts: int, grind: bool) -> tuple[int, int, int, float]:
    """(instructions or 0, playouts, moves, seconds) of the planner's work from deal ``seed``'s opening."""
    if grind:
        total, out = callgrind(binary, "plan", seed, playouts)
    else:
        total, out = 0, subprocess.run([binary, "plan", str(seed), str(playouts)], check=True, capture_output=True,
                                       text=True).stdout
    p, m, t = re.search(r"playouts (\d+) moves (\d+) seconds ([\d.]+)", out).groups()
    return total, int(p), int(m), float(t)


def plan_speed(binary: str, playouts: int, deals: int) -> None:
    """The solo planner from the opening (issue 47): instructions per playout move (callgrind, stable)
    and playouts per second (the clock, one thread; it follows the machine's load)."""
    print(f"the solo planner from the opening of deals 1-{deals}: {playouts} playouts of level-2 searches each")
    grind, moves, clock_p, clock_t = 0, 0, 0, 0.0
    for seed in range(1, deals + 1):
        base = plan_run(binary, seed, 0, True)[0]
        total, _, m, _ = plan_run(binary, seed, playouts, True)
        _, p, _, t = plan_run(binary, seed, playouts, False)
        grind, moves, clock_p, clock_t = grind + total - base, moves + m, clock_p + p, clock_t + t
        print(f"  deal {seed}: {(total - base) / m:7.1f} instructions per playout move, {m / playouts:5.1f} moves per "
              f"playout, {p / t:8.0f} playouts/s")
    print(f"all: {grind / moves:.1f} instructions per playout move, {grind / (deals * playouts):,.0f} per playout, "
          f"{clock_p / clock_t:,.0f} playouts/s")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--players", type=int, nargs="*", default=[2, 3, 4])
    ap.add_argument("--games", type=int, default=300)
    ap.add_argument("--cards", type=int, default=0, help="Spirits and Dragons drawn per game (each)")
    ap.add_argument("--search", action="store_true", help="count one search per position instead (see above)")
    ap.add_argument("--iterations", type=int, default=2000)
    ap.add_argument("--deals", type=int, default=8)
    ap.add_argument("--spirit", help="one Spirit by name, with the first Dragon card, or 'all' for each in turn")
    ap.add_argument("--plan", action="store_true", help="the solo planner from the opening instead (see above)")
    ap.add_argument("--playouts", type=int, default=9000, help="with --plan: playouts per deal")
    args = ap.parse_args()
    binary = build()
    if args.plan:
        plan_speed(binary, args.playouts, args.deals)
        return 0
    if args.search:
        search_ratios(binary, args.iterations, args.deals)
        return 0
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
