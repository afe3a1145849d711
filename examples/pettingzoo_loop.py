"""The PettingZoo AEC loop: random agents play whole games of Dragon Castle, as in PettingZoo's
documentation, then a built-in agent takes one seat through the same loop.

    python3 examples/pettingzoo_loop.py             # 3 players, 5 games
    python3 examples/pettingzoo_loop.py 2 1         # players, games (quick)

Needs PettingZoo (``pip install "dragoncastle[rl]"``). See docs/environments.md.
"""

import sys

from dragoncastle.agents import GreedyAgent
from dragoncastle.envs.pettingzoo import env as dragoncastle_env

players = int(sys.argv[1]) if len(sys.argv) > 1 else 3
games = int(sys.argv[2]) if len(sys.argv) > 2 else 5

env = dragoncastle_env(players=players)
returns = dict.fromkeys(env.possible_agents, 0.0)
for game in range(games):
    # reset(seed=s) deals dragoncastle.Game(players, seed=s); plain reset() would deal s + 1, ...
    env.reset(seed=game)
    decisions = 0
    # agent_iter() yields the agent to act until every agent has left the game. A turn is several
    # decisions (take, complete, place, build Shrines), so one agent is often yielded many times in a row.
    for agent in env.agent_iter():
        observation, reward, termination, truncation, info = env.last()
        if termination or truncation:
            # The game is over: reward is this agent's entry of Game.returns() (1 for a win, split
            # among tied winners). An agent that is done steps with None to leave.
            returns[agent] += reward
            action = None
        else:
            # "action_mask" marks the legal action ids; sampling through it never plays an illegal one.
            action = env.action_space(agent).sample(observation["action_mask"])
            decisions += 1
        env.step(action)
    print(f"game {game}: {decisions} decisions, scores {env.unwrapped.game.scores()}")
print("returns summed over the games (wins; solo: score / 100):", {a: round(r, 2) for a, r in returns.items()})

# Any dragoncastle agent can take a seat: it reads the game itself (env.unwrapped.game), never
# the hidden tiles, and its action is the same integer id the mask uses.
greedy = GreedyAgent(seed=0)
greedy_wins = 0.0
for game in range(games):
    env.reset(seed=100 + game)
    for agent in env.agent_iter():
        observation, reward, termination, truncation, info = env.last()
        if termination or truncation:
            greedy_wins += reward if agent == "player_0" else 0.0
            action = None
        elif agent == "player_0":
            action = greedy.act(env.unwrapped.game).id
        else:
            action = env.action_space(agent).sample(observation["action_mask"])
        env.step(action)
print(f"greedy at player_0 against {players - 1} random agent(s): returns {greedy_wins:g} (wins) in {games} games")
env.close()
