"""Spirit and Dragon cards: which cards get used, and what the Dragons pay.

    python3 examples/cards.py [games]

Plays greedy against greedy with two Spirits and two Dragons drawn from each
game's seed, counts the Spirit activations and shows a game's Dragon points.
"""

import sys
from collections import Counter

import dragoncastle as dc
from dragoncastle.agents import GreedyAgent

games = int(sys.argv[1]) if len(sys.argv) > 1 else 20

used: Counter[str] = Counter()
for seed in range(games):
    g = dc.Game(players=2, seed=seed, spirits=2, dragons=2)
    result = dc.play(g, [GreedyAgent(seed), GreedyAgent(seed + 1)])
    used.update(a.card for a in g.history if a.kind is dc.ActionKind.SPIRIT)

print(f"Spirit activations in {games} greedy games:", dict(used.most_common()))
print(f"last game: Spirits {g.spirits}, Dragons {g.dragons}")
for p in range(g.players):
    b = g.score_breakdown(p)
    print(f"  seat {p}: total {b['total']}, Dragon points {b['dragons']}")

# A Realm written as text, scored by one Dragon card (docs/cards.md).
realm = dc.Realm.parse("""
2S 1Dr1 . .
1# 3So2 . .
.  .    . .
.  .    . 1S
""")
print("Devotion on the Realm above:", dc.dragon_points("devotion", [realm], 0))
print("Fortitude on the Realm above:", dc.dragon_points("fortitude", [realm], 0))
