"""The search agent against the greedy agent: one game in Python, then many in
Rust threads with the arena.

    python3 examples/mcts_vs_greedy.py            # 40 games at 1,000 iterations
    python3 examples/mcts_vs_greedy.py 4 100      # games, iterations (quick)
"""

import sys

import dragoncastle as dc
from dragoncastle.agents import GreedyAgent, MCTSAgent

games = int(sys.argv[1]) if len(sys.argv) > 1 else 40
iterations = int(sys.argv[2]) if len(sys.argv) > 2 else 1000

# One search, looked at closely: visits and mean values per root action.
game = dc.Game(players=2, seed=3)
agent = MCTSAgent(iterations=iterations, seed=1)
r = agent.search(game)
best = sorted(r.visits, key=lambda a: r.visits[a], reverse=True)[:3]
print(f"{r.iterations} iterations in {r.seconds * 1000:.1f} ms; best actions:")
for a in best:
    print(f"  {str(a):<12} visits {r.visits[a]:>5}  mean value {r.values[a]:.3f}")
print("principal variation:", " / ".join(str(a) for a in r.pv[:6]))

# A whole game in Python (each search still runs in Rust, GIL released).
result = dc.play(game, [agent, GreedyAgent(seed=2)])
print("one game:", result.scores, "winners", result.winners)

# Many games in Rust threads, seats rotated; game k is dealt from seed k.
arena = dc.arena([f"mcts:iterations={iterations}", "greedy"], games, seed=0, threads=2)
print(arena.table())
