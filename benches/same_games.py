"""Fingerprints of seeded games in every runner, to compare two builds.

Run it with each build and diff the output: a line that differs is a runner
whose seeded games changed. ``old`` spells the planner specs the way builds
before the settings tables did (``aggregate=follow``, ``oracle=true`` and the
old defaults), so the same planners are compared.

    python3 benches/same_games.py > after.txt
    OLD_PYTHON benches/same_games.py old > before.txt && diff before.txt after.txt

(``docs/experiments/2026-12-04-one-player.md`` has the comparison of issue 45.)
"""
import json, sys, hashlib
import dragoncastle as dc
from dragoncastle.agents import from_spec
old = len(sys.argv) > 1 and sys.argv[1] == "old"
out = {}
specs2 = ["greedy", "random", "dragon", "mcts:iterations=100", "mcts:iterations=100,reuse=false", "mcts:iterations=60,rollout=greedy,reward=margin"]
for a in specs2:
    for b in ["greedy", "mcts:iterations=80"]:
        r = dc.arena([a, b], 4, seed=100, threads=2)
        out[f"arena {a} vs {b}"] = [g["actions"] for g in r.games]
solo = [  # (new spec, old spec)
    ("mcts:iterations=100", "mcts:iterations=100"),
    ("greedy", "greedy"),
    ("plan:playouts=2000,mode=mean", "plan:playouts=2000,level=2,iterations=30"),
    ("plan:mode=oracle,playouts=3000", "plan:oracle=true,playouts=3000,level=2,iterations=30"),
    ("plan:playouts=3000", "plan:playouts=3000,level=2,iterations=30,aggregate=follow,warm=true"),
    ("plan:playouts=3000,warm=false", "plan:playouts=3000,level=2,iterations=30,aggregate=follow"),
]
for new, o in solo:
    r = dc.arena([o if old else new], 2, seed=300, threads=2)
    out[f"solo {new}"] = [g["actions"] for g in r.games]
d = dc.selfplay(from_spec("mcts:iterations=50,reuse=false"), 3, players=2, seed=7, threads=2)
out["selfplay"] = d["actions"].tolist()
out["playouts mcts"] = [x.tolist() for x in dc.playouts("mcts:iterations=50", 3, players=2, seed=9, threads=2)]
out["playouts greedy"] = [x.tolist() for x in dc.playouts("greedy", 50, players=3, seed=9, threads=2)]
out["playouts random"] = [x.tolist() for x in dc.playouts("random", 50, players=3, seed=9, threads=2)]
for k, v in out.items():
    print(k, hashlib.sha1(json.dumps(v).encode()).hexdigest()[:12])
