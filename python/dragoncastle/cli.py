"""The ``dragoncastle`` command line: ``play``, ``solo``, ``arena`` and ``bench``.

``dragoncastle play --seats greedy random --seed 7`` plays one seeded game and
prints the final position and scores; a ``human`` seat is prompted in the
terminal. ``dragoncastle arena --seats greedy random --games 200`` plays many
games with seats rotated and prints win rates with 95% confidence intervals.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from typing import Any, Sequence

from . import _core
from .agents import DragonOfIngenuity, GreedyAgent, RandomAgent
from .play import play

AGENTS = ("random", "greedy", "dragon", "human")


class HumanAgent:
    """Asks for an action in the terminal (its text, its id, or its list number)."""

    def __init__(self, out: Any = sys.stdout, inp: Any = sys.stdin) -> None:
        self.out, self.inp = out, inp

    def act(self, game: _core.Game) -> _core.Action:
        legal = game.legal_actions()
        print(game, file=self.out)
        print(f"Seat {game.current_player}, phase {game.phase.name}. Legal actions:", file=self.out)
        for i, a in enumerate(legal):
            print(f"  [{i}] {a}", file=self.out)
        while True:
            print("> ", end="", file=self.out, flush=True)
            line = self.inp.readline()
            if not line:
                raise SystemExit("input closed")
            text = line.strip()
            if text.startswith("[") and text.endswith("]"):
                text = text[1:-1]
            if text.isdigit() and int(text) < len(legal):
                return legal[int(text)]
            try:
                a = _core.Action(text)
            except _core.IllegalActionError as e:
                print(e, file=self.out)
                continue
            if a in legal:
                return a
            print(f"{a} is not legal now", file=self.out)


def make_agent(name: str, seed: int) -> Any:
    if name == "random":
        return RandomAgent(seed)
    if name == "greedy":
        return GreedyAgent(seed)
    if name == "dragon":
        return DragonOfIngenuity()
    if name == "human":
        return HumanAgent()
    raise SystemExit(f"unknown agent {name!r}; choose from {', '.join(AGENTS)}")


def cmd_play(args: argparse.Namespace) -> int:
    game = _core.Game(players=len(args.seats), seed=args.seed)
    agents = [make_agent(name, args.seed * 31 + i) for i, name in enumerate(args.seats)]
    if args.verbose:
        while not game.is_over:
            seat = game.current_player
            action = agents[seat].act(game)
            print(f"turn {game.turn + 1:>3}  seat {seat}  {action}")
            game.apply(action)
    else:
        play(game, agents)
    print(game)
    for seat, (name, score) in enumerate(zip(args.seats, game.scores())):
        print(f"seat {seat} ({name}): {score} points")
    print("winner(s): " + ", ".join(f"seat {w} ({args.seats[w]})" for w in game.winners()))
    return 0


def cmd_solo(args: argparse.Namespace) -> int:
    scores = []
    for k in range(args.games):
        game = _core.Game(players=1, seed=args.seed + k)
        play(game, [make_agent(args.agent, args.seed + k)])
        scores.append(game.scores()[0])
        if args.games == 1:
            print(game)
        print(f"seed {args.seed + k}: score {scores[-1]}, rank {game.rank()}")
    if args.games > 1:
        mean = sum(scores) / len(scores)
        sd = math.sqrt(sum((s - mean) ** 2 for s in scores) / (len(scores) - 1))
        print(f"{args.games} games: mean {mean:.2f}, sd {sd:.2f}, best {max(scores)} ({_core.solo_rank(max(scores))})")
    return 0


def cmd_bench(args: argparse.Namespace) -> int:
    from .bench import report

    report(seconds=args.seconds, games=args.games)
    return 0


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson score interval for a win rate."""
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    d = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / d
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return (max(0.0, centre - half), min(1.0, centre + half))


def cmd_arena(args: argparse.Namespace) -> int:
    names: Sequence[str] = args.seats
    n = len(names)
    wins = [0.0] * n
    totals = [0] * n
    start = time.perf_counter()
    for k in range(args.games):
        # Rotate seats so no agent always moves first.
        order = [(i + k) % n for i in range(n)]
        agents = [make_agent(names[a], args.seed * 1000003 + k * n + a) for a in order]
        game = _core.Game(players=n, seed=args.seed + k)
        play(game, agents)
        winners = game.winners()
        for seat, a in enumerate(order):
            totals[a] += game.scores()[seat]
            if seat in winners:
                wins[a] += 1 / len(winners)
        if sys.stderr.isatty() or args.progress:
            done = k + 1
            bar = "#" * (30 * done // args.games)
            print(f"\r[{bar:<30}] {done}/{args.games}", end="", file=sys.stderr, flush=True)
    if sys.stderr.isatty() or args.progress:
        print(file=sys.stderr)
    secs = time.perf_counter() - start
    print(f"{args.games} games, {n} players, {secs:.1f} s")
    print(f"{'agent':<10} {'win rate':>9} {'95% CI':>17} {'mean score':>11}")
    for a, name in enumerate(names):
        lo, hi = wilson(wins[a], args.games)
        print(f"{name:<10} {wins[a] / args.games:>9.3f} {f'[{lo:.3f}, {hi:.3f}]':>17} {totals[a] / args.games:>11.2f}")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="dragoncastle", description="Dragon Castle for game-AI work.")
    sub = p.add_subparsers(dest="command", required=True)
    pp = sub.add_parser("play", help="play one game between agents (or you) and print the final position")
    pp.add_argument("--seats", nargs="+", default=["greedy", "random"], choices=AGENTS, help="one agent per seat (2-4)")
    pp.add_argument("--seed", type=int, default=7)
    pp.add_argument("--verbose", "-v", action="store_true", help="print every decision")
    pp.set_defaults(func=cmd_play)
    ps = sub.add_parser("solo", help="play solo against the Dragon of Ingenuity; prints score and rank")
    ps.add_argument("--agent", default="greedy", choices=AGENTS)
    ps.add_argument("--seed", type=int, default=7)
    ps.add_argument("--games", type=int, default=1)
    ps.set_defaults(func=cmd_solo)
    pa = sub.add_parser("arena", help="many games between agents; win rates with 95%% confidence intervals")
    pa.add_argument("--seats", nargs="+", default=["greedy", "random"], choices=("random", "greedy", "dragon"))
    pa.add_argument("--games", type=int, default=200)
    pa.add_argument("--seed", type=int, default=0)
    pa.add_argument("--progress", action="store_true", help="show the progress bar even when not on a terminal")
    pa.set_defaults(func=cmd_arena)
    pb = sub.add_parser("bench", help="engine throughput, Rust vs pure Python, as a table (about a minute)")
    pb.add_argument("--seconds", type=float, default=0.3, help="time per measurement batch")
    pb.add_argument("--games", type=int, default=20_000, help="games per batch-playout measurement")
    pb.set_defaults(func=cmd_bench)
    args = p.parse_args(argv)
    if args.command in ("play", "arena") and not 2 <= len(args.seats) <= 4:
        p.error("--seats needs 2 to 4 agents")
    if getattr(args, "seed", 0) < 0:
        p.error("--seed must be >= 0")
    return int(args.func(args))


if __name__ == "__main__":
    raise SystemExit(main())
