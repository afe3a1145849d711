#!/usr/bin/env python3
"""Iterations per second of the rollout search and of a network-guided search,
side by side on the same positions (``docs/training.md``): solo by default,
``--players``, ``--spirits`` and ``--dragons`` as for a game (a network for
games with rivals with ``--players 2`` and more).

For each deal ``SEED ..``, the positions after each of ``--steps`` decisions
(by default every tenth, from the 5th to the game's end) of the rollout search
at 200 iterations; then each search runs ``--seconds`` on each, one thread,
alternating (rollout, network, rollout, ...). Prints the iterations per second
of each, their ratio per position (median and range), and the ratio that gives
both searches the same time over a game at fixed iterations: the rollout's
summed seconds per iteration over the network's. A network-guided search given
that share of the rollout search's iterations spends the same time. Run it on
an otherwise idle machine.

It is a guide, not a clock. The ratio falls through the game: the network
costs the same at every leaf while the rollouts shorten, so at 0.15 s per
decision the guided search ran 0.88 of the rollout search's iterations over
the first ten decisions and 0.42 over decisions 70-79 (``docs/experiments/2026-12-02-equal-time-by-clock.md``). Positions from early in the game only,
as this bench once took, overstate the ratio; strength at equal time is
measured with ``time=`` budgets.

    python3 benches/network_speed.py --model builtin --deals 4 --seconds 1
    python3 benches/network_speed.py --model NET --spirits 1 --dragons 1
"""

from __future__ import annotations

import argparse
import statistics

import dragoncastle as dc
from dragoncastle.agents import MCTSAgent


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--model", default="builtin")
    ap.add_argument("--seed", type=int, default=20000)
    ap.add_argument("--deals", type=int, default=6)
    ap.add_argument("--steps", type=int, nargs="+", default=list(range(5, 300, 10)),
                    help="decisions before each position measured (positions past a game's end are skipped)")
    ap.add_argument("--seconds", type=float, default=1.0)
    ap.add_argument("--players", type=int, default=1)
    ap.add_argument("--spirits", type=int, default=0)
    ap.add_argument("--dragons", type=int, default=0)
    args = ap.parse_args()
    # No tree reuse: each position is searched as it stands, and the walk (so
    # the positions measured) is the one the documented figures were taken on.
    walker = MCTSAgent(iterations=200, seed=1, reuse_tree=False)
    rollout = MCTSAgent(time_limit=args.seconds, seed=1, reuse_tree=False)
    network = MCTSAgent(time_limit=args.seconds, seed=1, model=args.model, reuse_tree=False)
    rates: dict[str, list[float]] = {"rollout": [], "network": []}
    for deal in range(args.seed, args.seed + args.deals):
        g = dc.Game(players=args.players, seed=deal, spirits=args.spirits or None, dragons=args.dragons or None)
        played = 0
        for step in sorted(args.steps):
            while played < step and not g.is_over:
                g.apply(walker.act(g))
                played += 1
            if g.is_over:
                break
            for name, agent in (("rollout", rollout), ("network", network)):
                r = agent.search(g)
                rates[name].append(r.iterations / r.seconds)
            print(f"deal {deal}, decision {step}: rollout {rates['rollout'][-1]:,.0f}/s, network {rates['network'][-1]:,.0f}/s,"
                  f" ratio {rates['network'][-1] / rates['rollout'][-1]:.3f}", flush=True)
    ratios = [n / r for n, r in zip(rates["network"], rates["rollout"])]
    game = sum(1 / r for r in rates["rollout"]) / sum(1 / n for n in rates["network"])
    print(f"rollout search: best {max(rates['rollout']):,.0f}, median {statistics.median(rates['rollout']):,.0f} iterations/s")
    print(f"network-guided: best {max(rates['network']):,.0f}, median {statistics.median(rates['network']):,.0f} iterations/s")
    print(f"ratio network / rollout: median {statistics.median(ratios):.3f} (range {min(ratios):.3f}-{max(ratios):.3f}) per position;"
          f" {game:.3f} for equal time over these positions at fixed iterations")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
