#!/usr/bin/env python3
"""How well a trained network tells moves apart, solo (``docs/training.md``).

A value that is right on average can still be useless to a search, which
only compares the children of one position. For held-out solo games played
by the rollout search, at every decision this values each child position
with the network and reports:

- the spread of the children's values (best minus worst, in points);
- how often the network's best child is the search's choice;
- the points the search's choice loses against the network's best child
  by the network's own reckoning (0 when they agree).

Then it plays the same deals with the network's values alone in the rollout
search's selection (``priors=off``, no rollouts), and with no network.

    python3 benches/value_spread.py RUN/gen006.dcnet --deals 12 --seed 5000
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np

import dragoncastle as dc
from dragoncastle import _core
from dragoncastle.agents import MCTSAgent


def children_values(net: _core.Network, game: dc.Game) -> tuple[list[dc.Action], np.ndarray]:
    legal = game.legal_actions()
    obs = []
    for a in legal:
        child = game.clone()
        child.apply(a)
        obs.append(np.asarray(child.compact_observation(0), np.uint8))
    masks = np.zeros((len(legal), dc.NUM_ACTIONS), bool)
    _, values = net.forward(np.stack(obs), masks)
    return legal, values[:, 0] * 100.0


def play(agent: MCTSAgent, seed: int) -> int:
    g = dc.Game(players=1, seed=seed)
    while not g.is_over:
        g.apply(agent.act(g))
    return g.scores()[0]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("model")
    ap.add_argument("--deals", type=int, default=12)
    ap.add_argument("--seed", type=int, default=5000, help="first deal (held out: training uses seeds below 10^6 and gates 10^9)")
    ap.add_argument("--iterations", type=int, default=400)
    args = ap.parse_args()
    net = _core.Network.load(args.model)
    search = MCTSAgent(iterations=args.iterations)
    spreads, agree, regret = [], 0, []
    for seed in range(args.seed, args.seed + args.deals):
        g = dc.Game(players=1, seed=seed)
        while not g.is_over:
            legal, v = children_values(net, g)
            choice = search.act(g)
            if len(legal) > 1:
                spreads.append(float(v.max() - v.min()))
                mine = float(v[legal.index(choice)])
                agree += mine == float(v.max())
                regret.append(float(v.max()) - mine)
            g.apply(choice)
    n = len(spreads)
    print(f"{args.model}: {n} decisions with a choice on {args.deals} deals from seed {args.seed}")
    print(f"  children's value spread: median {statistics.median(spreads):.2f} points, "
          f"90th percentile {np.percentile(spreads, 90):.2f}")
    print(f"  network's best child is the search's choice: {agree / n:.1%}; "
          f"the search's choice is worth {statistics.mean(regret):.2f} points less to the network on average")
    for label, agent in [(f"network values only, priors=off, {args.iterations} iterations",
                          MCTSAgent(iterations=args.iterations, model=args.model, priors=False, rollout_weight=0.0)),
                         (f"rollout search, {args.iterations} iterations", search)]:
        t = time.perf_counter()
        scores = [play(agent, s) for s in range(args.seed, args.seed + args.deals)]
        print(f"  {label}: mean score {statistics.mean(scores):.2f} ({time.perf_counter() - t:.0f} s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
