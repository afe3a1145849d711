"""The ``dragoncastle`` command line: ``play``, ``solo``, ``arena``, ``ladder``,
``replay``, ``bench``, ``serve``, ``agents`` and ``train``, one module per group
(``cli_play``, ``cli_arena``, ``cli_tools``; ``cli_common`` what they share).

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
import sys
from typing import Any, Sequence

from . import __version__
# The commands' modules; every name of theirs stays importable from here.
from .cli_arena import *  # noqa: F401,F403
from .cli_common import *  # noqa: F401,F403
from .cli_play import *  # noqa: F401,F403
from .cli_tools import *  # noqa: F401,F403

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

    for add in COMMANDS:
        add(command)
    return p


#: The commands in the order ``dragoncastle --help`` lists them, each added by its module's function.
COMMANDS = (add_play, add_solo, add_arena, add_ladder, add_replay, add_bench, add_serve, add_agents, add_train)


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
