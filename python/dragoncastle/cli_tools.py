"""The other commands: ``replay``, ``bench``, ``serve``, ``agents``, and
``train`` as the command list names it (its options are
:func:`dragoncastle.train.parser`'s)."""

from __future__ import annotations

import argparse

from .cli_common import Command, need_matplotlib, non_negative, port_arg, positive, positive_seconds, save_plot


def cmd_replay(args: argparse.Namespace) -> int:
    from .replay import ReplayError, write_replay

    try:
        stats = write_replay(args.games, args.html, args.game)
    except ReplayError as e:
        raise SystemExit(f"dragoncastle replay: {e}") from None
    print(f"wrote {args.html}: {stats.games} game(s), {stats.positions} positions, "
          f"{stats.page_bytes / 1e6:.2f} MB")
    return 0


def cmd_bench(args: argparse.Namespace) -> int:
    from .bench import report

    if args.plot:
        need_matplotlib()
    figures = report(seconds=args.seconds, games=args.games)
    if args.plot:
        from .plots import plot_bench

        save_plot(lambda path: plot_bench(figures, path), args.plot)
    return 0


def cmd_serve(args: argparse.Namespace) -> int:
    try:
        from .serve import main as serve_main
    except ImportError as e:
        raise SystemExit(f"dragoncastle serve: {e}") from None
    print(f"Dragon Castle table at http://{args.host}:{args.port}/ (Ctrl-C stops it)", flush=True)
    serve_main(args.host, args.port, args.open)
    return 0


def cmd_agents(args: argparse.Namespace) -> int:
    from .agents import describe

    print(describe())
    return 0


def add_replay(command: Command) -> None:
    """``dragoncastle replay``."""
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


def add_bench(command: Command) -> None:
    """``dragoncastle bench``."""
    pb = command("bench", "engine throughput, Rust vs pure Python, as a table (about a minute)")
    pb.add_argument("--seconds", type=positive_seconds, default=0.3, help="time per measurement batch")
    pb.add_argument("--games", type=positive, default=20_000, help="games per batch-playout measurement")
    pb.add_argument("--plot", metavar="FILE.png",
                    help="also draw Rust vs Python time per operation (needs matplotlib) (default: no plot)")
    pb.set_defaults(func=cmd_bench)


def add_serve(command: Command) -> None:
    """``dragoncastle serve``."""
    pv = command("serve", "a local web table: play against the bots in a browser (needs the web extra)",
                 "People play Dragon Castle against the bots, with hints from the search, undo, and saved games "
                 "that 'dragoncastle replay' opens (docs/serve.md). Needs: pip install \".[web]\". "
                 "Ctrl-C stops it.")
    pv.add_argument("--host", default="127.0.0.1", help="the address to listen on (default: %(default)s, this machine only)")
    pv.add_argument("--port", type=port_arg, default=8000, help="the port")
    pv.add_argument("--open", action="store_true", help="open the page in a browser")
    pv.set_defaults(func=cmd_serve)


def add_agents(command: Command) -> None:
    """``dragoncastle agents``."""
    command("agents", "describe the agents and how to name them (their specs)").set_defaults(func=cmd_agents)


def add_train(command: Command) -> None:
    """``dragoncastle train``, named for the command list only."""
    # `train` has its own parser (dragoncastle.train.parser, which imports numpy); named here for --help.
    command("train", "self-play training of the search's network; writes weights files (docs/training.md)")
