"""The ``dragoncastle`` command line: ``play``, ``solo``, ``arena``, ``ladder``,
``replay``, ``bench``, ``serve`` and ``train``.

``dragoncastle play --seats greedy random --seed 7`` plays one seeded game and
prints the final position and scores; a ``human`` seat is prompted in the
terminal. ``dragoncastle arena --seats mcts:iterations=2000 greedy --games 400``
plays many games in Rust threads with seats rotated and prints win rates with
95% confidence intervals (``--ray auto`` spreads them over a Ray cluster); on a
terminal it also names the game first and ends with the point of the table in
words and the next commands to try (piped, it prints the table alone);
``dragoncastle solo --agent mcts:time=1 --games 20`` prints solo scores and the
rank histogram (``--plot FILE.png`` draws it, as ``bench --plot`` draws the
benchmark). ``dragoncastle replay games.jsonl --html games.html`` writes one
self-contained page to step through recorded games. Ray and matplotlib are
imported only when asked for.
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
import textwrap
from typing import Any, Sequence

from . import __version__, _core
from .agents import ORACLE, SOLO_DEFAULT, from_spec
from .arena import ArenaResult, arena
from .play import play


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


def positive_seconds(text: str) -> float:
    """argparse type: a time in seconds, more than 0 and at most an hour."""
    try:
        x = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not 0 < x <= 3600:  # also rejects nan and inf
        raise argparse.ArgumentTypeError(f"must be more than 0 and at most 3600 seconds, got {text}")
    return x


def _whole_number(text: str, minimum: int, bound: str) -> int:
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if n < minimum:
        raise argparse.ArgumentTypeError(f"must be {bound}, got {n}")
    return n


def positive(text: str) -> int:
    """argparse type: a whole number >= 1."""
    return _whole_number(text, 1, "at least 1")


def non_negative(text: str) -> int:
    """argparse type: a whole number >= 0."""
    return _whole_number(text, 0, "0 or more")


def seed_arg(text: str) -> int:
    """argparse type: a seed in 0..2**64."""
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if not 0 <= n < 2**64:
        raise argparse.ArgumentTypeError("a seed is a whole number in 0..2**64")
    return n


def spec_arg(text: str) -> str:
    """argparse type: an agent spec the core accepts (or ``human``)."""
    if text != "human":
        try:
            _core.agent_spec(text)
        except ValueError as e:
            raise argparse.ArgumentTypeError(str(e)) from None
    return text


def progress_bar(total: int, show: bool, unit: str = "game") -> Any:
    """A tqdm bar on stderr (shown on a terminal, or when asked)."""
    from tqdm import tqdm

    return tqdm(total=total, unit=unit, disable=not show, file=sys.stderr, dynamic_ncols=True)


def run_arena(specs: Sequence[str], games: int, seed: int, threads: int | None, show: bool,
              cards: dict[str, Any] | None = None, ray: str | None = None, shards: int | None = None,
              search_stats: int = 0) -> ArenaResult:
    with progress_bar(games, show) as bar:
        def tick(done: int) -> None:
            bar.update(done - bar.n)

        try:
            result = arena(specs, games, seed=seed, threads=threads, progress=tick, ray=ray, shards=shards,
                           search_stats=search_stats, **(cards or {}))
        except (ImportError, ConnectionError, ValueError) as e:
            if ray is None:
                raise
            # Ray missing, no cluster at the address, or shards that fit no node.
            raise SystemExit(f"dragoncastle arena --ray: {e}") from None
        bar.update(games - bar.n)
    return result


def need_matplotlib() -> None:
    """Stop at once, before any game is played or timed, if ``--plot`` cannot draw."""
    import importlib.util

    if importlib.util.find_spec("matplotlib") is None:
        raise SystemExit("--plot needs matplotlib: pip install 'dragoncastle[plot]'")


def save_plot(draw: Any, path: str) -> None:
    """Draw a picture with ``draw(path)`` (a function of :mod:`dragoncastle.plots`),
    turning a missing matplotlib or an unwritable file into a one-line error."""
    try:
        draw(path)
    except ImportError as e:
        raise SystemExit(str(e)) from None
    except OSError as e:
        raise SystemExit(f"cannot write {path}: {e}") from None
    print(f"plot saved to {path}")


def checked_output(path: str, content: Any = None) -> None:
    """Refuse ``path`` unless a regular file can be written there; with
    ``content``, write it (:func:`dragoncastle.output.write_file`). A one-line
    error, never a traceback."""
    from .output import OutputError, check_output, write_file

    try:
        if content is None:
            check_output(path)
        else:
            write_file(path, content)
    except OutputError as e:
        raise SystemExit(f"dragoncastle: {e}") from None


def cmd_play(args: argparse.Namespace) -> int:
    game = _core.Game(players=len(args.seats), seed=args.seed, **cards_of(args))
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
    if args.plot:
        need_matplotlib()
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
    result = run_arena([args.agent], args.games, args.seed, args.threads, sys.stderr.isatty() or args.progress, cards_of(args))
    scores = [g["scores"][0] for g in result.games]
    if args.games == 1:
        g0 = result.games[0]
        game = _core.Game(players=1, seed=args.seed, spirits=g0["spirits"], dragons=g0["dragons"])
        for a in result.games[0]["actions"]:
            game.apply(a)
        print(game)
    for g in result.games:
        print(f"seed {g['seed']}: score {g['scores'][0]}, rank {_core.solo_rank(g['scores'][0])}")
    if args.oracle:
        report_oracle(args, scores)
    if args.games > 1:
        print(f"{args.games} games: mean {statistics.mean(scores):.2f}, sd {statistics.stdev(scores):.2f}, "
              f"min {min(scores)}, max {max(scores)}, {1000 * result.seconds_per_move()[0]:.2f} ms per move")
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
                      cards_of(args))
    for g, score in zip(found.games, scores):
        best = g["scores"][0]
        print(f"seed {g['seed']}: oracle {best} ({_core.solo_rank(best)}); this game {score}, {best - score:+d} to the oracle")


def cmd_bench(args: argparse.Namespace) -> int:
    from .bench import report

    if args.plot:
        need_matplotlib()
    figures = report(seconds=args.seconds, games=args.games)
    if args.plot:
        from .plots import plot_bench

        save_plot(lambda path: plot_bench(figures, path), args.plot)
    return 0


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
    if args.shards is not None and args.ray is None:
        raise SystemExit("--shards splits the games over Ray: add --ray (a local Ray) or --ray ADDRESS")
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


def cmd_replay(args: argparse.Namespace) -> int:
    from .replay import ReplayError, write_replay

    try:
        stats = write_replay(args.games, args.html, args.game)
    except ReplayError as e:
        raise SystemExit(f"dragoncastle replay: {e}") from None
    print(f"wrote {args.html}: {stats.games} game(s), {stats.positions} positions, "
          f"{stats.page_bytes / 1e6:.2f} MB")
    return 0


def port_arg(text: str) -> int:
    port = _whole_number(text, 1, "1 to 65535")
    if port > 65535:
        raise argparse.ArgumentTypeError(f"must be 1 to 65535, got {port}")
    return port


def cmd_serve(args: argparse.Namespace) -> int:
    try:
        from .serve import main as serve_main
    except ImportError as e:
        raise SystemExit(f"dragoncastle serve: {e}") from None
    print(f"Dragon Castle table at http://{args.host}:{args.port}/ (Ctrl-C stops it)", flush=True)
    serve_main(args.host, args.port, args.open)
    return 0


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


def cards_arg(table: Sequence[str]) -> Any:
    """``--spirits 2`` draws two cards from the seed; ``--spirits wind,faith`` names them."""
    def parse(text: str) -> int | list[str]:
        text = text.strip()
        if text.isdigit():
            if int(text) > len(table):
                raise argparse.ArgumentTypeError(f"a count of cards is 0 to {len(table)}")
            return int(text)
        names = [n.strip().lower() for n in text.split(",") if n.strip()]
        bad = [n for n in names if n not in table]
        if bad or len(set(names)) != len(names):
            raise argparse.ArgumentTypeError(f"unknown or repeated card(s) in {text!r}; the cards are {', '.join(table)}")
        return names
    return parse


def cards_of(args: argparse.Namespace) -> dict[str, Any]:
    return {"spirits": args.spirits, "dragons": args.dragons}


def add_card_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--spirits", type=cards_arg(_core.SPIRITS), default=None,
                   help="Spirit cards: a count drawn from the seed, or names (wind,faith); see docs/cards.md "
                        "(default: none, the base game)")
    p.add_argument("--dragons", type=cards_arg(_core.DRAGONS), default=None,
                   help="Dragon cards: a count drawn from the seed, or names (harmony,power) (default: none, the base game)")


SPEC_HELP = ("Agents: random, greedy, dragon, human, mcts with parameters, e.g. "
             "mcts:iterations=2000 or mcts:time=1,threads=2 (docs/agents.md), or, solo only, the planner "
             "plan:time=1 (docs/plan.md).")


class HelpFormatter(argparse.RawDescriptionHelpFormatter):
    """The help of every command. Descriptions are wrapped paragraph by
    paragraph, except a paragraph with indented lines (a table, such as the
    legend of ``play --help``), which is kept as written. An option that takes
    a value ends with its default unless its help already states it; an
    option whose default is None must say in words what happens without it
    (tests/test_cli_help.py checks every command)."""

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        out = []
        for para in text.strip("\n").split("\n\n"):
            lines = para.splitlines()
            if any(line.startswith(" ") for line in lines):
                out.append("\n".join(indent + line for line in lines))
            else:
                out.append(textwrap.fill(" ".join(para.split()), width, initial_indent=indent, subsequent_indent=indent))
        return "\n\n".join(out)

    def _get_help_string(self, action: argparse.Action) -> str:
        text = action.help or ""
        default = action.default
        if ("default" in text or not action.option_strings or action.nargs == 0 or action.required
                or default is None or default is argparse.SUPPRESS):
            return text
        shown = " ".join(map(str, default)) if isinstance(default, (list, tuple)) else str(default)
        return f"{text} (default: {shown.replace('%', '%%')})"


#: The first command of the README, shown again at the foot of ``dragoncastle --help``.
FIRST_RUN = "dragoncastle arena --seats mcts:iterations=1000 greedy --games 20"


def parser() -> argparse.ArgumentParser:
    """The ``dragoncastle`` command line. ``train`` is only named here: its
    options are :func:`dragoncastle.train.parser`'s (see :func:`command_parsers`)."""
    p = argparse.ArgumentParser(prog="dragoncastle", description="Dragon Castle for game-AI work: seeded games "
                                "between agents, search and planning, solo play, training and replays.",
                                epilog=f"Each command has its own options: dragoncastle COMMAND --help. A first run: "
                                f"{FIRST_RUN} (the search against the greedy agent).",
                                formatter_class=HelpFormatter)
    p.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = p.add_subparsers(dest="command", required=True, metavar="COMMAND")

    def command(name: str, summary: str, description: str = "", **kw: Any) -> argparse.ArgumentParser:
        # The summary (the line of `dragoncastle --help`) opens the command's own help.
        first = summary.replace("%%", "%")
        text = first[0].upper() + first[1:] + "." + (" " + description if description else "")
        return sub.add_parser(name, help=summary, description=text, formatter_class=HelpFormatter, **kw)

    pp = command("play", "play one game between agents (or you) and print the final position and scores",
                 SPEC_HELP, epilog=PICTURE_LEGEND)
    pp.add_argument("--seats", nargs="+", default=["greedy", "random"], type=spec_arg, help="one agent per seat (2-4)")
    pp.add_argument("--seed", type=seed_arg, default=7, help="the deal's seed")
    pp.add_argument("--verbose", "-v", action="store_true", help="print every decision")
    add_card_args(pp)
    pp.set_defaults(func=cmd_play)
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
    ps.add_argument("--progress", action="store_true", help="show the progress bar even when not on a terminal")
    ps.add_argument("--plot", metavar="FILE.png",
                    help="draw the score histogram over the rank bands (needs matplotlib) (default: no plot)")
    add_card_args(ps)
    ps.set_defaults(func=cmd_solo)
    pa = command("arena", "many games between agents; win rates with 95%% confidence intervals",
                 SPEC_HELP + " Game k is dealt with seed + k and seats rotate with it, so runs over consecutive "
                 "seed ranges (shards) together give exactly one long run; merge their records with --merge, or let "
                 "--ray run the shards on a Ray cluster (docs/distributed.md).")
    pa.add_argument("--seats", nargs="+", default=["greedy", "random"], type=spec_arg, help="one agent per seat (1-4)")
    pa.add_argument("--games", type=positive, default=200, help="games to play")
    pa.add_argument("--seed", type=seed_arg, default=0, help="game k is dealt with seed + k")
    pa.add_argument("--threads", type=positive, default=None,
                    help="games played at once (default: every core; with --ray, per shard, default 1)")
    pa.add_argument("--ray", nargs="?", const="local", default=None, metavar="ADDRESS",
                    help="play the games as Ray tasks, one per shard: alone, on a local Ray started for the run; "
                    "'auto' or an address (HOST:PORT, ray://HOST:10001) for a cluster. Results equal a local run's "
                    "(default: no Ray, threads on this machine)")
    pa.add_argument("--shards", type=positive, default=None,
                    help="with --ray: contiguous game ranges, one Ray task each (default: 4 per free slot)")
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
    pr = command("replay", "one self-contained HTML page to step through recorded games",
                 "The page needs no network and no other file. It steps through the games of a JSON-lines file "
                 "written by 'dragoncastle arena --record' (or Game.to_json lines): every position as the engine "
                 "draws it, the moves, and the search's statistics when recorded with --search-stats. Keys: "
                 "left/right arrows, Home, End.")
    pr.add_argument("games", metavar="GAMES.jsonl", help="recorded games, one JSON line each")
    pr.add_argument("--html", required=True, metavar="OUT.html", help="the page to write")
    pr.add_argument("--game", type=non_negative, default=None, metavar="K",
                    help="only game K of the file, counted from 0 (default: all, with a game selector)")
    pr.set_defaults(func=cmd_replay)
    pb = command("bench", "engine throughput, Rust vs pure Python, as a table (about a minute)")
    pb.add_argument("--seconds", type=positive_seconds, default=0.3, help="time per measurement batch")
    pb.add_argument("--games", type=positive, default=20_000, help="games per batch-playout measurement")
    pb.add_argument("--plot", metavar="FILE.png",
                    help="also draw Rust vs Python time per operation (needs matplotlib) (default: no plot)")
    pb.set_defaults(func=cmd_bench)
    pv = command("serve", "a local web table: play against the bots in a browser (needs the web extra)",
                 "People play Dragon Castle against the bots, with hints from the search, undo, and saved games "
                 "that 'dragoncastle replay' opens (docs/serve.md). Needs: pip install \".[web]\". "
                 "Ctrl-C stops it.")
    pv.add_argument("--host", default="127.0.0.1", help="the address to listen on (default: %(default)s, this machine only)")
    pv.add_argument("--port", type=port_arg, default=8000, help="the port")
    pv.add_argument("--open", action="store_true", help="open the page in a browser")
    pv.set_defaults(func=cmd_serve)
    # `train` has its own parser (dragoncastle.train.parser, which imports numpy); named here for --help.
    command("train", "self-play training of the search's network; writes weights files (docs/training.md)")
    return p


def command_parsers() -> dict[str, argparse.ArgumentParser]:
    """Each command's parser by name, as ``dragoncastle COMMAND`` reads its
    options: the subparsers of :func:`parser`, and ``train``'s own."""
    from .train import parser as train_parser

    found = {}
    for action in parser()._actions:
        if isinstance(action, argparse._SubParsersAction):
            found.update(action.choices)
    found["train"] = train_parser()
    return found


def main(argv: Sequence[str] | None = None) -> int:
    p = parser()
    given = list(sys.argv[1:] if argv is None else argv)
    if given[:1] == ["train"]:
        from .train import main as train_main

        return train_main(given[1:])
    args = p.parse_args(argv)
    if args.command == "play" and not 2 <= len(args.seats) <= 4:
        p.error("--seats needs 2 to 4 agents")
    try:
        return int(args.func(args))
    except BrokenPipeError:
        # The reader went away (`dragoncastle play -v | head`): stop quietly,
        # and keep Python from complaining again when it flushes stdout at exit.
        import os

        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0


if __name__ == "__main__":
    raise SystemExit(main())
