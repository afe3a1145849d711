"""Average the planner's carried policies into a starting policy (a prior).

The snapshots come from ``POLICY_OUT=FILE cargo bench --bench solo_strength``
(the shared policy after every tenth decision, as ``{"policy": [[code, w]]}``
lines); the prior is their mean per code, codes under 0.001 left out, and is
read back with ``PRIOR=FILE`` (docs/experiments/2026-12-05-planner-prior.md)::

    python3 benches/plan_prior.py policies-a.jsonl policies-b.jsonl prior.json 1
"""
import collections
import json
import sys


def main() -> None:
    if len(sys.argv) < 4:
        sys.exit("usage: plan_prior.py SNAPSHOTS.jsonl... PRIOR.json SCALE")
    files, out, scale = sys.argv[1:-2], sys.argv[-2], float(sys.argv[-1])
    total: dict[int, float] = collections.defaultdict(float)
    n = 0
    for f in files:
        with open(f) as lines:
            for line in lines:
                n += 1
                for code, w in json.loads(line)["policy"]:
                    total[code] += w
    if n == 0:
        sys.exit("no snapshots")
    policy = [[c, w / n] for c, w in sorted(total.items()) if abs(w / n) > 1e-3]
    with open(out, "w") as f:
        json.dump({"scale": scale, "snapshots": n, "policy": policy}, f)
    print(f"{n} snapshots, {len(policy)} codes")


if __name__ == "__main__":
    main()
