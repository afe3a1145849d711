#!/usr/bin/env python3
"""Decisions per second of `dc.VecEnv` (masks and compact observations
written every step), 1 and 2 threads, against the same loop written in Python
over `dc.Game` and over the pure-Python reference engine.

Every loop plays uniformly random legal actions and produces, per decision,
the legal-action mask and the compact observation of the seat to move, and
starts a new game when one ends. Timings are repeated; best and median are
reported (the machine is shared and noisy).

    python3 benches/vecenv.py                 # about a minute
    python3 benches/vecenv.py --seconds 0.5 --repeats 3
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

import dragoncastle as dc
from dragoncastle import reference


def vecenv_rate(n: int, threads: int, seconds: float, observation: str = "compact") -> float:
    env = dc.VecEnv(n, players=2, seed=0, threads=threads, observation=observation)
    env.reset()
    steps, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        env.step(env.sample())
        steps += n
    return steps / (time.perf_counter() - start)


def python_loop_rate(engine, seconds: float, observation: str = "compact") -> float:
    """The same work with one Python call per step and per array."""
    observe = "compact_observation" if observation == "compact" else "observation_tensor"
    rng = random.Random(0)
    seed = 0
    g = engine.Game(players=2, seed=seed)
    steps, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        g.apply(rng.choice(g.legal_action_ids()))
        if g.is_over:
            seed += 1
            g = engine.Game(players=2, seed=seed)
        g.legal_action_mask()
        getattr(g, observe)()
        steps += 1
    return steps / (time.perf_counter() - start)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seconds", type=float, default=1.0)
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--games", type=int, nargs="*", default=[256, 1024])
    args = ap.parse_args()

    def repeat(f) -> tuple[float, float]:
        rates = [f() for _ in range(args.repeats)]
        return max(rates), statistics.median(rates)

    python_best, python_median = repeat(lambda: python_loop_rate(dc, args.seconds))
    ref_best, ref_median = repeat(lambda: python_loop_rate(reference, args.seconds))
    print("decisions per second, 2 players, random legal actions, mask + compact observation per decision")
    print(f"{'loop':<44} {'best':>12} {'median':>12} {'vs Python loop':>15} {'vs reference':>13}")
    print(f"{'Python loop over the reference engine':<44} {ref_best:>12,.0f} {ref_median:>12,.0f}")
    print(f"{'Python loop over dc.Game':<44} {python_best:>12,.0f} {python_median:>12,.0f} {1:>14.1f}x {python_best / ref_best:>12.0f}x")
    for n in args.games:
        for threads in (1, 2):
            best, median = repeat(lambda: vecenv_rate(n, threads, args.seconds))
            name = f"dc.VecEnv({n}, threads={threads})"
            print(f"{name:<44} {best:>12,.0f} {median:>12,.0f} {best / python_best:>14.1f}x {best / ref_best:>12.0f}x")
    # The float32 planes (174 KB a decision) instead of the compact bytes.
    tensor_best, tensor_median = repeat(lambda: python_loop_rate(dc, args.seconds, "tensor"))
    print()
    print("the same with the float32 observation tensor instead of the compact observation")
    print(f"{'Python loop over dc.Game':<44} {tensor_best:>12,.0f} {tensor_median:>12,.0f} {1:>14.1f}x")
    for threads in (1, 2):
        n = min(args.games)
        best, median = repeat(lambda: vecenv_rate(n, threads, args.seconds, "tensor"))
        name = f"dc.VecEnv({n}, threads={threads}, tensor)"
        print(f"{name:<44} {best:>12,.0f} {median:>12,.0f} {best / tensor_best:>14.1f}x")


if __name__ == "__main__":
    main()
