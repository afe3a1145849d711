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


def count(binary: str, players: int, games: int, cards: int) -> tuple[int, int]:
    """(instructions, decisions) of one run under callgrind."""
    with tempfile.TemporaryDirectory() as tmp:
        out_file = os.path.join(tmp, "callgrind.out")
        run = subprocess.run(
            ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out_file}", binary, str(players), str(games), str(cards)],
            check=True, capture_output=True, text=True,
        )
        decisions = int(re.search(r"decisions (\d+)", run.stdout).group(1))
        text = Path(out_file).read_text()
        total = re.search(r"^(?:summary|totals): (\d+)", text, re.M)
        return int(total.group(1)), decisions


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--players", type=int, nargs="*", default=[2, 3, 4])
    ap.add_argument("--games", type=int, default=300)
    ap.add_argument("--cards", type=int, default=0, help="Spirits and Dragons drawn per game (each)")
    args = ap.parse_args()
    binary = build()
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
