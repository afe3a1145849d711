"""The search agent measured on this machine: speed, the three tiers, the price
of hidden information, and strength (docs/search.md, README "Search").

    python3 benches/search.py                 # speed figures, about 2 minutes
    python3 benches/search.py --strength      # plus the strength runs (long: ~40 min on 2 cores)
    python3 benches/search.py --cards-only    # the standard game's search speed against the base game's

Speeds are reported as best and median of several runs; ratios are measured
side by side in the same run. Strength is measured in iterations per decision,
so it does not depend on the machine.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time

import dragoncastle as dc
from dragoncastle.agents import MCTSAgent
from dragoncastle.arena import wilson
from dragoncastle.bench import mcts_rate, position, search_tiers


ROLLOUTS = ("tuned", "greedy", "random")


def best_median(xs: list[float]) -> str:
    return f"best {max(xs):>8.0f}, median {statistics.median(xs):>8.0f}"


def speed(repeats: int, out) -> None:
    out("## Iterations per second (Rust, 2 players; tuned rollouts are the default)")
    out("")
    positions = {"opening": position(dc, 2, 1, 0), "mid game": position(dc, 2, 1, 60)}
    rates = {}
    for name, g in positions.items():
        for rollout in ROLLOUTS:
            for threads in (1, 2):
                r = mcts_rate(g, threads, iterations=20_000 if rollout != "random" else 60_000, repeats=repeats, rollout=rollout)
                rates[(name, rollout, threads)] = r
                out(f"- {name:<8} {rollout:<6} rollouts, {threads} thread(s): {best_median(r)} iterations/s")
    for name in positions:
        for rollout in ROLLOUTS:
            s1 = statistics.median(rates[(name, rollout, 1)])
            s2 = statistics.median(rates[(name, rollout, 2)])
            out(f"- 2 threads / 1 thread, {name}, {rollout} rollouts: {s2 / s1:.2f}x (medians)")
    out("")
    out("## The price of hidden information (ISMCTS vs the same search on the true state)")
    out("")
    for name, g in positions.items():
        for rollout in ROLLOUTS:
            n = 20_000 if rollout != "random" else 60_000
            a = mcts_rate(g, 1, iterations=n, repeats=repeats, rollout=rollout)
            b = mcts_rate(g, 1, iterations=n, repeats=repeats, rollout=rollout, determinize=False)
            out(f"- {name:<8} {rollout:<6}: ISMCTS {best_median(a)}; true state {best_median(b)}; "
                f"ratio {statistics.median(a) / statistics.median(b):.2f} (medians)")
    out("")
    out("## Three tiers, equal iterations, random rollouts (seconds per iteration)")
    out("")
    for name, steps in (("opening", 0), ("mid game", 60)):
        runs = [search_tiers(2, 1, steps, iterations=3000, python_iterations=30) for _ in range(max(1, repeats // 2))]
        keys = list(runs[0])
        med = {k: statistics.median(r[k] for r in runs) for k in keys}
        out(f"- {name}: " + "; ".join(f"{k} {1e6 * med[k]:.1f} µs" for k in keys))
        out(f"  Rust search vs Python search on the reference engine: {med[keys[0]] / med[keys[2]]:.0f}x; "
            f"vs Python search on the Rust engine: {med[keys[1]] / med[keys[2]]:.0f}x")
    out("")


def cards(repeats: int, out, deals: int = 8) -> None:
    """The standard game (one Spirit and one Dragon, drawn from the seed)
    against the base game on the same deal: MCTS iterations per second on
    one thread, from the opening and after 60 random decisions, each pair
    side by side in the same run."""
    out("## The standard game's search (1 Spirit + 1 Dragon) / the base game's, 1 thread, tuned rollouts")
    out("")
    for name, steps in (("opening", 0), ("mid game", 60)):
        ratios = []
        for seed in range(1, deals + 1):
            base = position(dc, 2, seed, steps)
            card = position(dc, 2, seed, steps, spirits=1, dragons=1)
            if len(base.legal_actions()) < 2 or len(card.legal_actions()) < 2:
                continue  # nothing to search
            a = mcts_rate(base, 1, iterations=10_000, repeats=repeats)
            b = mcts_rate(card, 1, iterations=10_000, repeats=repeats)
            ratios.append(statistics.median(b) / statistics.median(a))
            out(f"- {name}, deal {seed}, {card.spirits[0]} + {card.dragons[0]}: base {best_median(a)}; "
                f"cards {best_median(b)}; ratio {ratios[-1]:.2f} (medians)")
        out(f"- {name}: ratio over {len(ratios)} deals: geometric mean {statistics.geometric_mean(ratios):.2f}, "
            f"min {min(ratios):.2f}, max {max(ratios):.2f}")
    out("")


def strength(threads: int, out, games2: int, games34: int, solo_seeds: int, solo_iterations: int) -> None:
    out("## Strength (iterations per decision; decisions with one legal action are not searched)")
    out("")
    spec = "mcts:iterations=2000"
    for players, n in ((2, games2), (3, games34), (4, games34)):
        t = time.perf_counter()
        r = dc.arena([spec] + ["greedy"] * (players - 1), n, seed=0, threads=threads)
        wins = r.win_rates()
        lo, hi = wilson(wins[0] * n, n)
        out(f"- {players} players, {spec} vs greedy x{players - 1}, {n} games, seats rotated: MCTS wins "
            f"{wins[0]:.3f} [{lo:.3f}, {hi:.3f}], mean score {r.mean_scores()[0]:.1f} vs greedy "
            f"{statistics.mean(r.mean_scores()[1:]):.1f} ({time.perf_counter() - t:.0f} s)")
    # The default (tree reuse, kept statistics weighed 0.2), no reuse, and whole reuse.
    for spec in (f"mcts:iterations={solo_iterations}", f"mcts:iterations={solo_iterations},reuse=false",
                 f"mcts:iterations={solo_iterations},reuse_weight=1"):
        t = time.perf_counter()
        r = dc.arena([spec], solo_seeds, seed=0, threads=threads)
        scores = [g["scores"][0] for g in r.games]
        ranks: dict[str, int] = {}
        for s in sorted(scores):
            ranks[dc.solo_rank(s)] = ranks.get(dc.solo_rank(s), 0) + 1
        out(f"- solo, {spec}, seeds 0-{solo_seeds - 1}: mean {statistics.mean(scores):.2f}, "
            f"sd {statistics.stdev(scores):.2f}, min {min(scores)}, max {max(scores)}; ranks "
            + ", ".join(f"{k} {v}" for k, v in ranks.items()) + f" ({time.perf_counter() - t:.0f} s)")
    out("")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--repeats", type=int, default=5)
    p.add_argument("--strength", action="store_true", help="also run the strength games (long)")
    p.add_argument("--no-speed", action="store_true", help="skip the speed figures")
    p.add_argument("--cards-only", action="store_true", help="only the standard game's search against the base game's")
    p.add_argument("--threads", type=int, default=2, help="games at once in the strength runs")
    p.add_argument("--games2", type=int, default=200)
    p.add_argument("--games34", type=int, default=60)
    p.add_argument("--solo-seeds", type=int, default=50)
    p.add_argument("--solo-iterations", type=int, default=10_000)
    args = p.parse_args(argv)

    def out(line: str) -> None:
        print(line, flush=True)

    import os
    import platform

    out(f"# benches/search.py on {platform.machine()} {platform.system()}, {os.cpu_count()} cores, "
        f"Python {platform.python_version()}, dragoncastle {dc.__version__}")
    out("")
    if args.cards_only:
        cards(args.repeats, out)
        return 0
    if not args.no_speed:
        speed(args.repeats, out)
        cards(args.repeats, out)
    if args.strength:
        strength(args.threads, out, args.games2, args.games34, args.solo_seeds, args.solo_iterations)
    return 0


if __name__ == "__main__":
    sys.exit(main())
