"""``dragoncastle arena`` and ``dragoncastle ladder``: many games between
agents, as win rates or as ratings."""

from __future__ import annotations

import argparse
import math
import sys
from typing import Any, Sequence

from .arena import ArenaResult
from .cli_common import (SPEC_HELP, Command, add_card_args, add_ray_args, cards_of, check_ray_args, checked_output,
                         need_matplotlib, positive, run_arena, save_plot, seed_arg, spec_arg)


def cmd_arena(args: argparse.Namespace) -> int:
    if args.merge:
        try:
            merged = ArenaResult.from_files(args.merge)
        except ValueError as e:
            raise SystemExit(f"dragoncastle arena --merge: {e}") from None
        print(merged.table())
        return 0
    if not 1 <= len(args.seats) <= 4:
        raise SystemExit("--seats needs 1 to 4 agents")
    if "human" in args.seats:
        raise SystemExit("the arena plays built-in agents only (use 'dragoncastle play' to play)")
    check_ray_args(args)
    if args.search_stats and not args.record:
        raise SystemExit("--search-stats goes into the record: add --record FILE.jsonl")
    if args.record:
        checked_output(args.record)
    explain = stdout_is_terminal()
    if explain:
        print(arena_headline(args.seats, args.games, args.seed, cards_of(args)), flush=True)
    result = run_arena(args.seats, args.games, args.seed, args.threads, sys.stderr.isatty() or args.progress,
                       cards_of(args), ray=args.ray, shards=args.shards, search_stats=args.search_stats)
    print(result.table())
    verdict = arena_verdict(result)
    if explain and verdict:
        print(verdict)
    if args.record:
        checked_output(args.record, lambda f: f.writelines((line + "\n").encode() for line in result.records()))
        print(f"recorded {len(result.games)} games in {args.record}")
    if explain:
        print("\n" + "\n".join(next_steps(args.record)))
    return 0


def stdout_is_terminal() -> bool:
    """Whether a person reads the output. On a terminal the arena explains its
    table: a headline naming the game and the match before it, a verdict in
    words and the next commands to try after it. Piped or redirected it prints
    the table alone, as before, for scripts."""
    return sys.stdout.isatty()


def _and(names: Sequence[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def arena_headline(seats: Sequence[str], games: int, seed: int, cards: dict[str, Any]) -> str:
    """What an arena plays, in one line: ``Dragon Castle, 2 players: 20 seeded
    games (seeds 0-19), mcts:iterations=1000 against greedy, seats rotated``."""
    table = "solo against the Dragon of Ingenuity" if len(seats) == 1 else f"{len(seats)} players"
    seeds = f"seed {seed}" if games == 1 else f"seeds {seed}-{seed + games - 1}"
    who = (f"played by {seats[0]}" if len(seats) == 1 else
           (f"{seats[0]} against {seats[1]}" if len(seats) == 2 else _and(list(seats))) + ", seats rotated")
    line = f"Dragon Castle, {table}: {games} seeded game{'s' * (games != 1)} ({seeds}), {who}"
    extra = []
    for kind, chosen in (("Spirit", cards.get("spirits")), ("Dragon", cards.get("dragons"))):
        if isinstance(chosen, int) and chosen:
            extra.append(f"{chosen} {kind} card{'s' * (chosen != 1)} drawn per game")
        elif chosen and not isinstance(chosen, int):
            extra.append(f"the {kind} card{'s' * (len(chosen) != 1)} {_and(list(chosen))}")
    return line + (", with " + _and(extra) if extra else "")


def arena_verdict(result: ArenaResult) -> str | None:
    """The table's point in words (games with rivals only): whether the agent
    that won most won more than an even share, by its 95% interval."""
    n = len(result.games)
    if result.players < 2 or n == 0:
        return None
    rates = result.win_rates()
    best = max(range(len(rates)), key=rates.__getitem__)
    wins = round(rates[best] * n, 2)
    lo, hi = result.win_intervals()[best]
    even = 1 / result.players
    said = f"{result.agents[best]} won {wins:g} of {n} games (95% interval {lo:.3f}-{hi:.3f}"
    if lo > even:
        point = "the stronger agent" if result.players == 2 else "more than an even share of the wins"
        return f"{said}, above an even {even:.3f}): {point} on these deals."
    return f"{said}, which holds an even {even:.3f}): {n} games do not tell the agents apart; try --games {4 * n}."


def next_steps(record: str | None) -> list[str]:
    """What to try after an arena on a terminal, with how long each takes
    (measured on two busy cores)."""
    import os
    import shlex

    steps = [("dragoncastle play --seats mcts:iterations=2000 greedy -v", "a game move by move (a few seconds)")]
    if record:
        page = os.path.splitext(record)[0] + ".html"
        steps.insert(0, (f"dragoncastle replay {shlex.quote(record)} --html {shlex.quote(page)}",
                         "step through the recorded games in a browser (about a second)"))
    else:
        steps.append(("dragoncastle solo --games 1", "a solo game with the planner (about 90 s)"))
    steps.append(("dragoncastle serve --open", 'play against the bots in the browser (pip install ".[web]")'))
    width = max(len(command) for command, _ in steps)
    return ["next:"] + [f"  {command:<{width}}   {what}" for command, what in steps]


def cmd_ladder(args: argparse.Namespace) -> int:
    from .ladder import ladder

    if len(set(args.agents)) != len(args.agents):
        raise SystemExit("each agent may appear once in a ladder")
    if len(args.agents) < args.players:
        raise SystemExit(f"a ladder of {args.players}-player games needs at least {args.players} agents")
    if args.plot:
        need_matplotlib()
    show = sys.stderr.isatty() or args.progress
    groups = math.comb(len(args.agents), args.players)
    done = [0]

    def tick(group: str) -> None:
        done[0] += 1
        if show:
            print(f"[{done[0]}/{groups}] {group}", file=sys.stderr)

    result = ladder(args.agents, args.games, players=args.players, seed=args.seed, threads=args.threads, solo_games=args.solo,
                    progress=tick, **cards_of(args))
    print(result.table())
    if args.plot:
        save_plot(lambda path: result.plot(path), args.plot)
    return 0


def add_arena(command: Command) -> None:
    """``dragoncastle arena``."""
    pa = command("arena", "many games between agents; win rates with 95%% confidence intervals",
                 SPEC_HELP + " Game k is dealt with seed + k and seats rotate with it, so runs over consecutive "
                 "seed ranges (shards) together give exactly one long run; merge their records with --merge, or let "
                 "--ray run the shards on a Ray cluster (docs/distributed.md).")
    pa.add_argument("--seats", nargs="+", default=["greedy", "random"], type=spec_arg, help="one agent per seat (1-4)")
    pa.add_argument("--games", type=positive, default=200, help="games to play")
    pa.add_argument("--seed", type=seed_arg, default=0, help="game k is dealt with seed + k")
    pa.add_argument("--threads", type=positive, default=None,
                    help="games played at once (default: every core; with --ray, per shard, default 1)")
    add_ray_args(pa)
    pa.add_argument("--record", metavar="FILE.jsonl",
                    help="write one JSON line per game (Game.from_json replays it) (default: no record)")
    pa.add_argument("--search-stats", nargs="?", type=positive, const=5, default=0, metavar="K",
                    help="with --record: keep, for every decision of a search agent, its K most visited root moves "
                    "(K defaults to 5) with visits and mean values (meta.search; 'dragoncastle replay' shows them). "
                    "The games are the same as without it (default: not kept)")
    pa.add_argument("--merge", nargs="+", metavar="FILE.jsonl",
                    help="print the table of recorded shards instead of playing (default: play)")
    pa.add_argument("--progress", action="store_true", help="show the progress bar even when not on a terminal")
    add_card_args(pa)
    pa.set_defaults(func=cmd_arena)


def add_ladder(command: Command) -> None:
    """``dragoncastle ladder``."""
    pl = command("ladder", "Elo ratings of agents from round-robin games, with 95%% intervals",
                 SPEC_HELP + " Every group of --players agents plays --games games (seats rotated); ratings are a "
                 "Bradley-Terry fit of the pairwise results, random anchored at 0.")
    pl.add_argument("--agents", nargs="+", required=True, type=spec_arg, help="the agents to rate (at least 2)")
    pl.add_argument("--games", type=positive, default=100, help="games per group of agents")
    pl.add_argument("--players", type=int, choices=(2, 3, 4), default=2, help="players of each game")
    pl.add_argument("--seed", type=seed_arg, default=0, help="game k of a group is dealt with seed + k")
    pl.add_argument("--threads", type=positive, default=None, help="games played at once (default: every core)")
    pl.add_argument("--solo", type=int, default=0, metavar="N", help="also N solo games per agent; the table shows the mean")
    pl.add_argument("--plot", metavar="FILE.png",
                    help="draw the ratings with their intervals (needs matplotlib) (default: no plot)")
    pl.add_argument("--progress", action="store_true", help="report each group even when not on a terminal")
    add_card_args(pl)
    pl.set_defaults(func=cmd_ladder)
