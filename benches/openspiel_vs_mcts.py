"""OpenSpiel's searches over the pyspiel integration against dragoncastle's own MCTSAgent.

    python3 benches/openspiel_vs_mcts.py                # speeds, then a match (about 3 minutes)
    python3 benches/openspiel_vs_mcts.py --smoke        # tiny sizes, a few seconds (a check it runs)
    python3 benches/openspiel_vs_mcts.py --iterations 200 --games 10

1. Iterations per second on the same positions (2 players, seed 1, the opening and after 60
   seeded random decisions: the positions of benches/search.py), best of --repeats runs:
   OpenSpiel's MCTSBot (Python, random rollouts, on one determinization of the position),
   OpenSpiel's Python ISMCTSBot (random rollouts, a fresh determinization per iteration), and
   MCTSAgent (ISMCTS in Rust) with random rollouts (the same algorithm's price) and with its
   default tuned rollouts.
2. A match with equal iteration budgets per decision: OpenSpiel's MCTS (through ResamplingBot,
   so that it never reads a covered tile) against MCTSAgent with random rollouts and with its
   defaults, seats alternating, game k dealt from seed k. Win rate of OpenSpiel's MCTS with a
   95% Wilson interval, mean scores, seconds per decision.

OpenSpiel's C++ bots (pyspiel.MCTSBot, pyspiel.ISMCTSBot) are not measured: in OpenSpiel 2.0.2
they crash on every Python game (they release the GIL, then call the game's Python methods).
"""

from __future__ import annotations

import argparse
import random
import time
from typing import Any, Callable

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

import dragoncastle as dc
from dragoncastle import openspiel
from dragoncastle.agents import MCTSAgent
from dragoncastle.arena import wilson

openspiel.register()


def position(players: int, seed: int, steps: int) -> Any:
    """The OpenSpiel state after the deal of ``dc.Game(players, seed)`` and ``steps`` seeded
    random decisions, chosen as benches/search.py chooses them."""
    # A game object of its own: its first deal is seed's (the next would be seed + 1).
    state = pyspiel.load_game(openspiel.SHORT_NAME, {"players": players, "seed": seed}).new_initial_state()
    state.apply_action(0)
    assert state.dc_game == dc.Game(players=players, seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        state.apply_action(rng.choice(state.legal_actions()))
    return state


def best_rate(run: Callable[[], tuple[int, float]], repeats: int) -> float:
    """Best iterations per second of ``repeats`` runs; run() -> (iterations, seconds)."""
    return max(n / s for n, s in (run() for _ in range(repeats)))


def speeds(args: argparse.Namespace) -> None:
    rows = []
    for name, steps in (("opening", 0), ("mid game", 60)):
        state = position(players=2, seed=1, steps=steps)
        game = state.get_game()
        evaluator = mcts.RandomRolloutEvaluator(random_state=np.random.RandomState(0))
        sampler = random.Random(0).random

        def openspiel_mcts() -> tuple[int, float]:
            bot = mcts.MCTSBot(game, 2.0, args.openspiel_budget, evaluator, random_state=np.random.RandomState(1))
            world = state.resample_from_infostate(state.current_player(), sampler)
            start = time.perf_counter()
            root = bot.mcts_search(world)
            return root.explore_count, time.perf_counter() - start

        def openspiel_ismcts() -> tuple[int, float]:
            bot = ismcts.ISMCTSBot(game, evaluator, 2.0, args.openspiel_budget, random_state=np.random.RandomState(1))
            start = time.perf_counter()
            bot.run_search(state)
            return args.openspiel_budget, time.perf_counter() - start

        def ours(**tuning: Any) -> Callable[[], tuple[int, float]]:
            # Searched again each repeat: a kept tree would grow between them.
            agent = MCTSAgent(iterations=args.our_budget, seed=1, reuse_tree=False, **tuning)
            def run() -> tuple[int, float]:
                r = agent.search(state.dc_game)
                return r.iterations, r.seconds
            return run

        rates = {
            "OpenSpiel MCTSBot (Python), random rollouts": best_rate(openspiel_mcts, args.repeats),
            "OpenSpiel ISMCTSBot (Python), random rollouts": best_rate(openspiel_ismcts, args.repeats),
            "MCTSAgent (Rust ISMCTS), random rollouts": best_rate(ours(rollout="random"), args.repeats),
            "MCTSAgent (Rust ISMCTS), default tuned rollouts": best_rate(ours(), args.repeats),
        }
        base = rates["OpenSpiel MCTSBot (Python), random rollouts"]
        rows += [(name, search, rate, rate / base) for search, rate in rates.items()]
    print(f"## Iterations per second, 2 players, one thread (best of {args.repeats})")
    print()
    print("| position | search | iterations/s | vs OpenSpiel MCTSBot |")
    print("|---|---|---:|---:|")
    for name, search, rate, ratio in rows:
        print(f"| {name} | {search} | {rate:,.0f} | {ratio:,.1f}x |")
    print()


def match(game: Any, args: argparse.Namespace) -> None:
    n = args.iterations
    opponents = {
        f"MCTSAgent, random rollouts ({n} iterations)": {"rollout": "random"},
        f"MCTSAgent, defaults ({n} iterations)": {},
    }
    print(f"## Match: OpenSpiel MCTSBot ({n} simulations, random rollouts, one determinization per decision) "
          f"against MCTSAgent with the same budget, {args.games} games each, seats alternating")
    print()
    print("| opponent | OpenSpiel MCTS win rate (95% CI) | mean score OpenSpiel / ours | s per decision OpenSpiel / ours |")
    print("|---|---|---|---|")
    for name, tuning in opponents.items():
        wins, scores, seconds, decisions = 0.0, [0, 0], [0.0, 0.0], [0, 0]
        for k in range(args.games):
            seat = k % 2  # OpenSpiel's seat
            evaluator = mcts.RandomRolloutEvaluator(random_state=np.random.RandomState(k))
            bots: list[Any] = [None, None]
            bots[seat] = openspiel.ResamplingBot(
                mcts.MCTSBot(game, 2.0, n, evaluator, random_state=np.random.RandomState(k)), seed=k)
            bots[1 - seat] = openspiel.AgentBot(MCTSAgent(iterations=n, seed=k, **tuning))
            state = game.new_initial_state()
            state.apply_action(0)  # game k of this object: dc.Game(players=2, seed=k)
            while not state.is_terminal():
                p = state.current_player()
                start = time.perf_counter()
                action = bots[p].step(state)
                side = 0 if p == seat else 1
                seconds[side] += time.perf_counter() - start
                decisions[side] += 1
                state.apply_action(action)
            wins += state.returns()[seat]
            final = state.dc_game.scores()
            scores[0] += final[seat]
            scores[1] += final[1 - seat]
        lo, hi = wilson(wins, args.games)
        g = args.games
        print(f"| {name} | {wins / g:.0%} ({lo:.0%}-{hi:.0%}) | {scores[0] / g:.1f} / {scores[1] / g:.1f} | "
              f"{seconds[0] / decisions[0]:.4f} / {seconds[1] / decisions[1]:.4f} |")
    print()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--iterations", type=int, default=100, help="match: iterations per decision, both sides")
    parser.add_argument("--games", type=int, default=6, help="match: games per opponent")
    parser.add_argument("--openspiel-budget", type=int, default=300, help="speed: OpenSpiel simulations per search")
    parser.add_argument("--our-budget", type=int, default=20_000, help="speed: MCTSAgent iterations per search")
    parser.add_argument("--repeats", type=int, default=3, help="speed: runs per figure (the best is kept)")
    parser.add_argument("--smoke", action="store_true", help="tiny sizes: check that the script runs")
    args = parser.parse_args()
    if args.smoke:
        args.iterations, args.games, args.openspiel_budget, args.our_budget, args.repeats = 5, 1, 5, 50, 1
    for name in ("iterations", "games", "openspiel_budget", "our_budget", "repeats"):
        if getattr(args, name) < 1:
            parser.error(f"--{name.replace('_', '-')} must be at least 1")
    game = pyspiel.load_game(openspiel.SHORT_NAME, {"players": 2, "seed": 0})
    print(f"dragoncastle {dc.__version__}, OpenSpiel {getattr(pyspiel, '__version__', '')}".rstrip(", "))
    print()
    speeds(args)
    match(game, args)


if __name__ == "__main__":
    main()
