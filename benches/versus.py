#!/usr/bin/env python3
"""Random-game speed of this checkout against an earlier revision, side by side.

Builds `benches/instructions.rs` (seeded random games exactly as
`dc.playouts("random", ...)` plays them, set-up included) for both trees in
release mode, then times them in alternation on one core, so that the ratio
is measured in one run on one machine. Prints games per second (best and
median of the repeats) and the ratio, and with `--callgrind` the
instructions per decision of each, which do not depend on a noisy machine.
It also checks that both trees play the same games (the benchmark prints a
digest of every outcome).

    python3 benches/versus.py fce8a7a                 # the core before issue 10
    python3 benches/versus.py fce8a7a --games 50000 --repeats 7 --callgrind
    python3 benches/versus.py e54d354 --players 2 --cards 1   # the standard game
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benches"))
from instructions import build, count  # noqa: E402  (benches/instructions.py)

BENCH = """
[[bench]]
name = "instructions"
path = "benches/instructions.rs"
harness = false
"""


def run(binary: str, players: int, games: int, cards: int = 0) -> tuple[float, str]:
    start = time.perf_counter()
    cmd = ["taskset", "-c", "0", binary, str(players), str(games), str(cards)]
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    return time.perf_counter() - start, out.split("digest")[-1].strip()


def instructions(binary: str, players: int, games: int, cards: int = 0) -> float:
    base, _ = count(binary, players, 0, cards)
    total, decisions = count(binary, players, games, cards)
    return (total - base) / decisions


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("base", help="the earlier revision (any git revision)")
    ap.add_argument("--games", type=int, default=30_000)
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--players", type=int, nargs="*", default=[2, 3, 4])
    ap.add_argument("--cards", type=int, default=0, help="Spirits and Dragons drawn per game (each)")
    ap.add_argument("--callgrind", action="store_true", help="also count instructions per decision (valgrind)")
    args = ap.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="dc-versus-"))
    old_tree = tmp / "base"
    subprocess.run(["git", "worktree", "add", "--detach", str(old_tree), args.base], cwd=ROOT, check=True, capture_output=True)
    try:
        # The earlier tree gets this checkout's benchmark program: the
        # workload is the same, only the core differs.
        shutil.copy(ROOT / "benches" / "instructions.rs", old_tree / "benches" / "instructions.rs")
        cargo = old_tree / "Cargo.toml"
        if 'name = "instructions"' not in cargo.read_text():
            cargo.write_text(cargo.read_text() + BENCH)
        binaries = {args.base: build(old_tree), "this checkout": build(ROOT)}
        cards = f", {args.cards}+{args.cards} cards" if args.cards else ""
        print(f"random games{cards}, one core, {args.games} games per timing, {args.repeats} alternating repeats")
        for players in args.players:
            rates: dict[str, list[float]] = {name: [] for name in binaries}
            digests = set()
            for _ in range(args.repeats):
                for name, binary in binaries.items():
                    seconds, digest = run(binary, players, args.games, args.cards)
                    rates[name].append(args.games / seconds)
                    digests.add(digest)
            same = "same games" if len(digests) == 1 else "DIFFERENT GAMES"
            line = [f"{players} players:"]
            for name, r in rates.items():
                line.append(f"{name} best {max(r):>8.0f} median {statistics.median(r):>8.0f} games/s;")
            old, new = rates.values()
            line.append(f"ratio best {max(new) / max(old):.2f} median {statistics.median(new) / statistics.median(old):.2f} ({same})")
            print(" ".join(line))
            if args.callgrind:
                per = {name: instructions(b, players, 300, args.cards) for name, b in binaries.items()}
                print(f"  instructions per decision (callgrind, 300 games): " + ", ".join(f"{n} {v:.0f}" for n, v in per.items()))
    finally:
        subprocess.run(["git", "worktree", "remove", "--force", str(old_tree)], cwd=ROOT, capture_output=True)
        shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
