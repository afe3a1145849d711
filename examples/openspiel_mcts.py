"""OpenSpiel's MCTS bot plays Dragon Castle through the pyspiel integration: against a random
bot, then against dragoncastle's own search with the same number of iterations per decision.

    python3 examples/openspiel_mcts.py          # 4 games per match, 100 simulations per decision
    python3 examples/openspiel_mcts.py 2 10     # games per match, simulations (quick)

Needs OpenSpiel (``pip install open_spiel``). See docs/openspiel.md.
"""

import sys
import time

import numpy as np
import pyspiel
from open_spiel.python.algorithms import mcts
from open_spiel.python.bots.uniform_random import UniformRandomBot

from dragoncastle import openspiel
from dragoncastle.agents import MCTSAgent

games = int(sys.argv[1]) if len(sys.argv) > 1 else 4
simulations = int(sys.argv[2]) if len(sys.argv) > 2 else 100

openspiel.register()  # adds "python_dragon_castle" to pyspiel's registry
# seed=0: the k-th game dealt by this object is dragoncastle.Game(players=2, seed=k).
game = pyspiel.load_game("python_dragon_castle", {"players": 2, "seed": 0})
print(game, "-", game.num_distinct_actions(), "action ids,", game.max_game_length(), "decisions at most")


def openspiel_mcts(seed):
    """OpenSpiel's MCTS with random rollouts. It is a perfect-information search, so
    ResamplingBot hands it a fresh determinization of each position (the covered castle tiles
    re-dealt from what everyone has seen): it never reads a hidden tile."""
    evaluator = mcts.RandomRolloutEvaluator(random_state=np.random.RandomState(seed))
    bot = mcts.MCTSBot(game, 2.0, simulations, evaluator, random_state=np.random.RandomState(seed))
    return openspiel.ResamplingBot(bot, seed=seed)


def play(bots, seconds):
    """One whole game; adds each seat's thinking time to seconds[seat]."""
    state = game.new_initial_state()
    state.apply_action(0)  # the chance node: draws the next deal of the game's seed stream
    while not state.is_terminal():
        seat = state.current_player()
        start = time.perf_counter()
        action = bots[seat].step(state)
        seconds[seat] += time.perf_counter() - start
        state.apply_action(action)
    return state


def match(name, opponent):
    """OpenSpiel's MCTS against opponent(seat, k), seats alternating game by game."""
    score, ours, theirs = 0.0, 0.0, 0.0
    for k in range(games):
        seat = k % 2
        bots = [None, None]
        bots[seat], bots[1 - seat] = openspiel_mcts(k), opponent(1 - seat, k)
        seconds = [0.0, 0.0]
        state = play(bots, seconds)
        score += state.returns()[seat]  # 1 for a win, shared on a tie
        ours += seconds[seat]
        theirs += seconds[1 - seat]
        print(f"  game {k}: OpenSpiel MCTS in seat {seat}, scores {state.dc_game.scores()}")
    print(f"OpenSpiel MCTS ({simulations} simulations) vs {name}: win rate {score / games:.0%} "
          f"over {games} games; thinking time {ours:.1f} s against {theirs:.1f} s")


match("a random bot", lambda seat, k: UniformRandomBot(seat, np.random.RandomState(k)))
# Our search (information-set MCTS in Rust) as a pyspiel.Bot, with the same iteration budget.
match(f"dragoncastle MCTSAgent ({simulations} iterations)",
      lambda seat, k: openspiel.AgentBot(MCTSAgent(iterations=simulations, seed=k)))
