"""A first game: two built-in agents play a seeded 2-player game.

    python3 examples/first_game.py
"""

import dragoncastle as dc
from dragoncastle.agents import GreedyAgent, RandomAgent

game = dc.Game(players=2, seed=7)  # the standard 2-player layout, a seeded deal
print(f"{len(game.legal_actions())} legal first actions, e.g. {game.legal_actions()[0]}")

# A turn is several small decisions (take, complete, place, shrine); each one
# is an Action with a stable id. An agent is anything with act(game).
result = dc.play(game, [GreedyAgent(seed=1), RandomAgent(seed=2)])

print(game)  # the text picture: castle, Realms, pools, scores
print("scores:", result.scores, "winners:", result.winners)
print(f"{len(result.actions)} decisions; the first five: {[str(a) for a in result.actions[:5]]}")

# Every game can be stepped back, copied and saved.
game.undo()
saved = game.to_json()
assert dc.Game.from_json(saved) == game
