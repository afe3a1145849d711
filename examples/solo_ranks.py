"""Solo against the Dragon of Ingenuity: the search's scores and ranks.

    python3 examples/solo_ranks.py               # 20 deals at 2,000 iterations (tree reuse, the default)
    python3 examples/solo_ranks.py 4 200         # deals, iterations (quick)
"""

import statistics
import sys
from collections import Counter

import dragoncastle as dc

deals = int(sys.argv[1]) if len(sys.argv) > 1 else 20
iterations = int(sys.argv[2]) if len(sys.argv) > 2 else 2000

result = dc.arena([f"mcts:iterations={iterations}"], deals, seed=0, threads=2)
scores = [g["scores"][0] for g in result.games]
print(f"{deals} deals: mean {statistics.mean(scores):.1f}, best {max(scores)} ({dc.solo_rank(max(scores))})")
for rank, n in sorted(Counter(dc.solo_rank(s) for s in scores).items(), key=lambda kv: -kv[1]):
    print(f"  {rank:<15} {'#' * n}")

# The greedy agent for comparison, in Rust threads without a Python call per step.
greedy = dc.playouts("greedy", deals, players=1, seed=0)[0]
print(f"greedy on the same deals: mean {greedy[:, 0].mean():.1f}")
