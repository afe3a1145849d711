#!/usr/bin/env python3
"""Does a network make the solo search stronger? Paired games on the same deals.

Plays ``mcts:iterations=N`` (the rollout search) and, for each rollout weight
``w``, ``mcts:iterations=N,model=NET,priors=off,rollout_weight=w`` on the same
deals (seeds ``SEED .. SEED+DEALS-1``), one thread, and prints each mean score,
the paired difference to the rollout search and its standard error
(``docs/training.md``). The rollout search's scores are cached next to NET's
directory by seed range and iterations (for ``builtin``, only in ``--cache``).

    python3 benches/paired_network.py NET --seed 7000 --deals 30 --weights 0.5
    python3 benches/paired_network.py NET --seed 5000 --deals 20 --weights 0 --cutoffs 4 8
    python3 benches/paired_network.py NET --seed 7300 --deals 60 --time 0.05   # equal time per decision
    python3 benches/paired_network.py NET --iterations 10000 --network-iterations 8200 --spirits 1 --dragons 1

``--network-iterations`` gives the network-guided search its own budget (for
example ``benches/network_speed.py``'s ratio of the rollout search's: a guide
to equal time, not a clock; ``--time`` is the measure at equal time);
``--spirits`` and ``--dragons`` deal that many cards
(the standard game: 1 and 1); ``--threads`` plays that many games at once.

With ``--time T`` both searches get ``T`` seconds per decision instead of a
number of iterations (the network's leaves cost more, so it searches fewer):
run it on an otherwise idle machine, and the rollout search's scores are not
cached.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import statistics
import time

from dragoncastle.arena import arena


def scores(spec: str, seed: int, deals: int, threads: int = 1, spirits: int = 0, dragons: int = 0) -> list[int]:
    r = arena([spec], deals, seed=seed, threads=threads, spirits=spirits or None, dragons=dragons or None)
    by_seed = {g["seed"]: g["scores"][0] for g in r.games}
    return [by_seed[s] for s in range(seed, seed + deals)]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("model")
    ap.add_argument("--seed", type=int, default=5000)
    ap.add_argument("--deals", type=int, default=20)
    ap.add_argument("--iterations", type=int, default=400)
    ap.add_argument("--weights", type=float, nargs="+", default=[0.5])
    ap.add_argument("--cutoffs", type=int, nargs="+", default=None,
                    help="learned cut-offs: rollouts of this many decisions, then the network (cutoff=d)")
    ap.add_argument("--cache", default=None, help="file caching the rollout search's scores (default: beside the model)")
    ap.add_argument("--time", type=float, default=None, help="seconds per decision for both searches, instead of --iterations")
    ap.add_argument("--network-iterations", type=int, default=None, help="the network-guided search's iterations (default: --iterations)")
    ap.add_argument("--spirits", type=int, default=0)
    ap.add_argument("--dragons", type=int, default=0)
    ap.add_argument("--threads", type=int, default=1, help="games played at once (one thread each)")
    args = ap.parse_args()
    if args.time and args.network_iterations:
        ap.error("--network-iterations is for iteration budgets; with --time both searches get the same clock")
    budget = f"time={args.time}" if args.time else f"iterations={args.iterations}"
    # Beside a weights file; `builtin` has no directory, so its scores are cached only when asked.
    cache = args.cache or (None if args.model == "builtin" else os.path.join(os.path.dirname(os.path.abspath(args.model)), "baseline_scores.json"))
    cards = dict(threads=args.threads, spirits=args.spirits, dragons=args.dragons)
    key = f"{args.seed}:{args.deals}:{args.iterations}" + (f":{args.spirits}+{args.dragons}" if args.spirits or args.dragons else "")
    known = json.load(open(cache)) if cache and os.path.exists(cache) else {}
    if args.time or key not in known:
        t = time.perf_counter()
        found = scores(f"mcts:{budget}", args.seed, args.deals, **cards)
        print(f"rollout search: {time.perf_counter() - t:.0f} s", flush=True)
        known[key] = found
        if cache and not args.time:
            with open(cache, "w") as f:
                json.dump(known, f)
    base = known[key]
    label = f"{args.time} s per decision" if args.time else f"{args.iterations} iterations"
    if args.network_iterations and not args.time:
        label += f" (network-guided: {args.network_iterations})"
        budget = f"iterations={args.network_iterations}"
    if args.spirits or args.dragons:
        label += f", {args.spirits} Spirit(s) + {args.dragons} Dragon(s)"
    print(f"deals {args.seed}..{args.seed + args.deals - 1}, {label}")
    print(f"  rollout search: mean {statistics.mean(base):.2f}")
    for w, cut in [(w, c) for w in args.weights for c in (args.cutoffs or [None])]:
        t = time.perf_counter()
        extra = f",cutoff={cut}" if cut is not None else ""
        mine = scores(f"mcts:{budget},model={args.model},priors=off,rollout_weight={w}{extra}", args.seed, args.deals, **cards)
        d = [a - b for a, b in zip(mine, base)]
        se = statistics.stdev(d) / math.sqrt(len(d))
        print(f"  network, rollout_weight={w}{extra}: mean {statistics.mean(mine):.2f}; paired difference {statistics.mean(d):+.2f}"
              f" (standard error {se:.2f}, {statistics.mean(d) / se if se else 0:+.1f} SE) [{time.perf_counter() - t:.0f} s]", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
