"""The results table of solo measurements written by ``benches/solo_strength.rs``:
per agent spec its mean score ± standard error, min–max and deal count, and
against a baseline spec the paired difference on the deals both played.

    python3 benches/solo_table.py RESULTS.jsonl [--baseline SPEC] [--specs SPEC ...] [--cards] [--seeds FIRST END]
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
from collections import defaultdict


def load(paths: list[str], cards: bool, seeds: range | None) -> dict[str, dict[int, int]]:
    """Spec (with ``bias=W`` for games with other bias weights) -> deal seed
    -> score (a deal played twice keeps its first line)."""
    out: dict[str, dict[int, int]] = defaultdict(dict)
    for path in paths:
        with open(path) as f:
            for line in f:
                r = json.loads(line)
                if r["cards"] == cards and (seeds is None or r["seed"] in seeds):
                    # A game played with other bias weights (`BIAS=`) is not the spec's own.
                    name = r["spec"] + (f" bias={r['bias']}" if "bias" in r else "")
                    out[name].setdefault(r["seed"], r["score"])
    return out


def se(xs: list[float]) -> float:
    return statistics.stdev(xs) / math.sqrt(len(xs)) if len(xs) > 1 else float("nan")


def table(results: dict[str, dict[int, int]], baseline: str | None) -> str:
    rows = ["| agent | deals | mean ± s.e. | min–max | against the baseline (paired) |", "|---|---|---|---|---|"]
    base = results.get(baseline or "", {})
    for spec, scores in sorted(results.items(), key=lambda kv: -statistics.mean(kv[1].values())):
        xs = list(scores.values())
        paired = ""
        common = sorted(set(scores) & set(base))
        if spec != baseline and len(common) > 1:
            d = [scores[s] - base[s] for s in common]
            better, worse = sum(x > 0 for x in d), sum(x < 0 for x in d)
            paired = f"{statistics.mean(d):+.2f} ± {se(d):.2f} on {len(d)} deals ({better} better, {worse} worse)"
        rows.append(f"| `{spec}` | {len(xs)} | {statistics.mean(xs):.2f} ± {se(xs):.2f} | {min(xs)}–{max(xs)} | {paired} |")
    return "\n".join(rows)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("paths", nargs="+")
    p.add_argument("--baseline", default=None, help="the spec the others are paired against")
    p.add_argument("--specs", nargs="+", default=None, help="only these specs (the baseline among them)")
    p.add_argument("--cards", action="store_true", help="the standard solo games (1 Spirit, 1 Dragon, -15)")
    p.add_argument("--seeds", nargs=2, type=int, metavar=("FIRST", "END"), help="only deals FIRST..END-1")
    args = p.parse_args()
    seeds = range(*args.seeds) if args.seeds else None
    results = load(args.paths, args.cards, seeds)
    if args.specs:
        results = {k: v for k, v in results.items() if k in args.specs}
    print(table(results, args.baseline))


if __name__ == "__main__":
    main()
