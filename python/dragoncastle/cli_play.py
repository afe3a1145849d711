"""``dragoncastle play`` and ``dragoncastle solo``: games played and shown
one at a time, a seat possibly a person at the terminal."""

from __future__ import annotations

import argparse
import math
import os
import statistics
import sys
import time
from typing import Any

from . import _core
from .agents import ORACLE, RIVAL_DEFAULT, SOLO_DEFAULT, from_spec
from .cli_common import (SPEC_HELP, Command, add_card_args, add_ray_args, cards_of, check_ray_args, need_matplotlib,
                         positive, progress_bar, run_arena, save_plot, seed_arg, spec_arg)
from .play import play


class HumanAgent:
    """Asks for an action in the terminal: its number in the list shown (from 1),
    or its text (``take 2,5``). Input that names no legal move explains why and
    asks again (issue 46); ``help`` or ``?`` lists the moves again. End of input
    (Ctrl-D), Ctrl-C or ``quit`` abandons the game with a one-line message and
    exit status 1."""

    QUIT = ("quit", "exit")

    def __init__(self, out: Any = sys.stdout, inp: Any = sys.stdin) -> None:
        self.out, self.inp = out, inp

    def _say(self, *lines: str) -> None:
        for line in lines:
            print(line, file=self.out)

    def _list(self, legal: list[_core.Action]) -> None:
        for i, a in enumerate(legal, 1):
            print(f"  [{i}] {a}", file=self.out)

    def _read(self, prompt: str) -> str:
        print(prompt, end="", file=self.out, flush=True)
        try:
            line = self.inp.readline()
        except KeyboardInterrupt:
            line = ""
        if not line:
            print(file=self.out, flush=True)
            raise SystemExit("input closed: game abandoned")
        return line.strip()

    def act(self, game: _core.Game) -> _core.Action:
        legal = list(game.legal_actions())
        n = len(legal)
        print(game, file=self.out)
        self._say(f"Seat {game.current_player}, phase {game.phase.name}. Legal actions:")
        self._list(legal)
        hint = f"type a number 1-{n}, a move's text such as \"{legal[0]}\", or help"
        while True:
            text = self._read(f"move (1-{n}, help)> ")
            if text.startswith("[") and text.endswith("]"):
                text = text[1:-1].strip()
            if not text:
                self._say(hint)
                continue
            if text.lower() in ("help", "?", "h"):
                self._say(f"Seat {game.current_player}, phase {game.phase.name}: the legal moves, by number:")
                self._list(legal)
                self._say(hint + "; Ctrl-D or quit abandons the game")
                continue
            if text.lower() in self.QUIT:
                raise SystemExit("quit: game abandoned")
            try:
                number = int(text)
            except ValueError:
                pass
            else:
                if 1 <= number <= n:
                    return legal[number - 1]
                self._say(f"no move {number} in the list: choose 1-{n} (help lists them)")
                continue
            try:
                a = _core.Action(text)
            except (_core.InvalidActionError, _core.IllegalActionError, ValueError):
                self._say(f"\"{text}\" is not a move: {hint}")
                continue
            if a in legal:
                return a
            self._say(f"{a} is not legal now: {hint}")


def make_agent(spec: str, seed: int) -> Any:
    """An agent for a seat: ``human`` or any spec of :func:`dragoncastle.agents.from_spec`."""
    if spec == "human":
        return HumanAgent()
    try:
        return from_spec(spec, seed)
    except ValueError as e:
        raise SystemExit(str(e)) from None


#: How to read ``str(game)`` (also in the README).
PICTURE_LEGEND = """reading the picture (str(game)):
  header   players, turns played (as game.turn), who moves and the phase, the top floor,
           tiles left in the castle, Countdown tokens left
  castle   rows and columns numbered from 0 at the north-west corner (a space is row,col);
           each space shows its stack height and top tile: 2So4 is two tiles with So4 on top;
           * marks an Available tile (a long side free, R-AVAIL-1); . is no tile
  realms   one per seat, 4 x 4 cells: 1So5 is one tile, So5 face up; 2## two tiles, the top
           face down; 2#S face down with a Shrine; . empty
  tiles    Me, So, Fa: Merchant, Soldier, Farmer 1-6; Se: Season 1-4; Wi: Wind 1-4; Dr: Dragon 1-3
"""


def final_picture(game: _core.Game) -> str:
    """``str(game)`` without its closing winners line: the summary below it names
    the winners with their agents, once (issue 46)."""
    lines = str(game).rstrip("\n").splitlines()
    while lines and (not lines[-1].strip() or lines[-1].startswith("Winner(s):")):
        lines.pop()
    return "\n".join(lines)


def cmd_play(args: argparse.Namespace) -> int:
    game = _core.Game(players=len(args.seats), seed=args.seed, **cards_of(args))
    agents = [make_agent(name, args.seed * 31 + i) for i, name in enumerate(args.seats)]
    person = "human" in args.seats
    try:  # what `play` checks, with a person if one sits: a refusal is one line, not a traceback
        _core.check_agents(agents, game.players, person)
    except ValueError as e:
        raise SystemExit(f"dragoncastle play: {e}") from None
    turn = game.turn  # the turn of the next decision: the game's after the one before

    def say(g: Any, seat: int, action: Any, seconds: float) -> None:
        # Each move as it is made: every decision with -v; with a person at the table, each bot's (issue 46).
        nonlocal turn
        if args.verbose:
            print(f"turn {turn + 1:>3}  seat {seat}  {action}")
        elif args.seats[seat] != "human":
            print(f"seat {seat} ({args.seats[seat]}): {_core.Action(action)}", flush=True)
        turn = g.turn

    play(game, agents, on_move=say if args.verbose or person else None)
    print(final_picture(game))
    print()
    for seat, (name, score) in enumerate(zip(args.seats, game.scores())):
        print(f"seat {seat} ({name}): {score} points")
    print("winner(s): " + ", ".join(f"seat {w} ({args.seats[w]})" for w in game.winners()))
    return 0


#: A solo game's decisions of the player (the Dragon's replies aside), for the estimate of a
#: run's time: plan:playouts=2000 on seeds 100-109 made 84 to 102 (mean 93.5) in the base game,
#: 87 to 124 with one Spirit and one Dragon; plan:time=0.05 made 70 on seed 7.
SOLO_DECISIONS = (70, 110)


def _minutes(seconds: float) -> str:
    return f"{seconds:.0f} s" if seconds < 90 else f"{seconds / 60:.0f} min" if seconds < 5400 else f"{seconds / 3600:.1f} h"


def solo_note(agent: Any, games: int, threads: int | None, ray: str | None) -> str:
    """What a solo run will take, and whether the same seed gives the same games, said before it starts.

    >>> print(solo_note(from_spec("plan:playouts=20000"), 1, None, None))
    plan:playouts=20000 is bounded by a count, not the clock: the same seed gives the same games.
    >>> print(solo_note(from_spec("greedy"), 1, None, None))
    greedy decides without a search, at once: the same seed gives the same games.
    """
    kind = agent.spec.partition(":")[0]
    clock = getattr(agent, "clock", None)
    if kind not in ("plan", "mcts"):
        return f"{agent.spec} decides without a search, at once: the same seed gives the same games."
    if clock is None:
        return f"{agent.spec} is bounded by a count, not the clock: the same seed gives the same games."
    per = f"up to {clock:g} s a decision"
    lo, hi = (clock * n for n in SOLO_DECISIONS)
    run = f"a game of {SOLO_DECISIONS[0]} to {SOLO_DECISIONS[1]} decisions takes {_minutes(lo)} to {_minutes(hi)}"
    if games > 1 and ray is None:  # on Ray, the cluster's free slots say how many at a time
        at_once = min(games, threads or os.cpu_count() or 1)
        run += f"; {games} games, {at_once} at a time, about {_minutes(math.ceil(games / at_once) * (lo + hi) / 2)}"
    count = "playouts" if kind == "plan" else "iterations"
    return (f"{agent.spec} decides by the clock, {per}: {run}. A clock budget is not reproducible: the same seed "
            f"can play other moves on another run or machine; for a reproducible run, give a count instead "
            f"({kind}:{count}=N).")


def play_solo(agent: Any, game: Any, show: bool) -> None:
    """One solo game, with its progress by move and its score so far: a bar on a terminal
    (or with --progress), else a line every ten decisions."""
    moves, began = 0, time.monotonic()
    with progress_bar(None, show, unit=" move") as bar:
        def moved(g: Any, seat: int, action: Any, seconds: float) -> None:  # the player's decisions only
            nonlocal moves
            moves += 1
            bar.set_postfix(score=g.scores()[0], refresh=False)
            bar.update(1)
            if not show and moves % 10 == 0:
                print(f"move {moves}: score {g.scores()[0]}, {time.monotonic() - began:.0f} s", file=sys.stderr,
                      flush=True)

        play(game, [agent], on_move=moved)


def cmd_solo(args: argparse.Namespace) -> int:
    if args.plot:
        need_matplotlib()
    check_ray_args(args)
    if args.agent == "human":
        if args.games != 1:
            raise SystemExit("a human plays one game at a time (--games 1)")
        game = _core.Game(players=1, seed=args.seed, **cards_of(args))
        play(game, [HumanAgent()])
        print(game)
        print(f"seed {args.seed}: score {game.scores()[0]}, rank {game.rank()}")
        if args.oracle:
            report_oracle(args, [game.scores()[0]])
        if args.plot:
            from .plots import plot_solo

            save_plot(lambda path: plot_solo(game.scores(), path, title=f"your solo game, seed {args.seed}"), args.plot)
        return 0
    agent, show = from_spec(args.agent), sys.stderr.isatty() or args.progress
    print(solo_note(agent, args.games, args.threads, args.ray), file=sys.stderr, flush=True)
    if args.games == 1 and args.ray is None:
        # One game here, move by move: the decisions of the arena's game of this seed (one Player, one seed rule).
        game = _core.Game(players=1, seed=args.seed, **cards_of(args))
        play_solo(agent, game, show)
        print(game)
        scores, per_move = game.scores(), ""
        print(f"seed {args.seed}: score {scores[0]}, rank {game.rank()}")
    else:
        result = run_arena([args.agent], args.games, args.seed, args.threads, show, cards_of(args), ray=args.ray,
                           shards=args.shards)
        scores, per_move = [g["scores"][0] for g in result.games], f", {1000 * result.seconds_per_move()[0]:.2f} ms per move"
        for g in result.games:
            print(f"seed {g['seed']}: score {g['scores'][0]}, rank {_core.solo_rank(g['scores'][0])}")
    if args.oracle:
        report_oracle(args, scores)
    if args.games > 1:
        print(f"{args.games} games: mean {statistics.mean(scores):.2f}, sd {statistics.stdev(scores):.2f}, "
              f"min {min(scores)}, max {max(scores)}{per_move}")
        print("ranks:")
        # Ranks in the order of the core's table (lowest first).
        order = list(dict.fromkeys(_core.solo_rank(s) for s in range(max(max(scores), 60) + 1)))
        for rank in order:
            k = sum(1 for sc in scores if _core.solo_rank(sc) == rank)
            if k:
                print(f"  {rank:<15} {k:>5}  {'#' * max(1, round(40 * k / args.games))}")
    if args.plot:
        from .plots import plot_solo

        save_plot(lambda path: plot_solo(scores, path, title=f"{args.agent}: {args.games} solo game(s) from seed {args.seed}"),
                  args.plot)
    return 0


def report_oracle(args: argparse.Namespace, scores: list[int]) -> None:
    """Replay each deal with the oracle (the planner on the true deal, ``--oracle-agent``) and
    print how far each game was from the best it found: an analysis, not a rival."""
    print(f"the oracle ({args.oracle_agent}) plays the same deals, seeing every hidden tile:", file=sys.stderr)
    found = run_arena([args.oracle_agent], len(scores), args.seed, args.threads, sys.stderr.isatty() or args.progress,
                      cards_of(args), ray=args.ray, shards=args.shards)
    for g, score in zip(found.games, scores):
        best = g["scores"][0]
        print(f"seed {g['seed']}: oracle {best} ({_core.solo_rank(best)}); this game {score}, {best - score:+d} to the oracle")


def add_play(command: Command) -> None:
    """``dragoncastle play``."""
    pp = command("play", "play one game between agents (or you) and print the final position and scores",
                 SPEC_HELP, epilog=PICTURE_LEGEND)
    strongest = RIVAL_DEFAULT.replace("%", "%%")  # argparse %-formats help text
    pp.add_argument("--seats", nargs="+", default=["greedy", "random"], type=spec_arg,
                    help="one agent per seat (2-4); human plays in the terminal. The strongest bot measured "
                         f"with rivals is {strongest}: --seats human {strongest}")
    pp.add_argument("--seed", type=seed_arg, default=7, help="the deal's seed")
    pp.add_argument("--verbose", "-v", action="store_true", help="print every decision")
    add_card_args(pp)
    pp.set_defaults(func=cmd_play)


def add_solo(command: Command) -> None:
    """``dragoncastle solo``."""
    ps = command("solo", "play solo against the Dragon of Ingenuity; prints scores and ranks", SPEC_HELP)
    ps.add_argument("--agent", default=SOLO_DEFAULT, type=spec_arg,
                    help="who plays (default: the strongest measured solo agent, docs/plan.md: %(default)s)")
    ps.add_argument("--oracle", action="store_true",
                    help="also play each deal with the oracle, which sees the hidden tiles, and print how far from it "
                         "each game was (analysis)")
    ps.add_argument("--oracle-agent", default=ORACLE, type=spec_arg, help="the oracle's spec")
    ps.add_argument("--seed", type=seed_arg, default=7, help="game k is dealt with seed + k")
    ps.add_argument("--games", type=positive, default=1, help="games to play")
    ps.add_argument("--threads", type=positive, default=None, help="games played at once (default: every core)")
    ps.add_argument("--progress", action="store_true",
                    help="show the progress bar even when not on a terminal (else one game prints a line every ten "
                         "moves)")
    ps.add_argument("--plot", metavar="FILE.png",
                    help="draw the score histogram over the rank bands (needs matplotlib) (default: no plot)")
    add_ray_args(ps)
    add_card_args(ps)
    ps.set_defaults(func=cmd_solo)
