"""What the commands of :mod:`dragoncastle.cli` share: the types of their
arguments, the agents' and cards' options, the help's layout, the arena run
behind ``solo`` and ``arena``, plots and output files."""

from __future__ import annotations

import argparse
import sys
import textwrap
from typing import Any, Callable, Sequence

from . import _core
from .arena import ArenaResult, arena

#: Makes a command's parser: ``command(name, summary, description="", **kw)`` (see :func:`dragoncastle.cli.parser`).
Command = Callable[..., argparse.ArgumentParser]


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
            _core.Player.parse(text)
        except ValueError as e:
            raise argparse.ArgumentTypeError(str(e)) from None
    return text


def port_arg(text: str) -> int:
    port = _whole_number(text, 1, "1 to 65535")
    if port > 65535:
        raise argparse.ArgumentTypeError(f"must be 1 to 65535, got {port}")
    return port


def progress_bar(total: int | None, show: bool, unit: str = "game") -> Any:
    """A tqdm bar on stderr (shown on a terminal, or when asked)."""
    from tqdm import tqdm

    return tqdm(total=total, unit=unit, disable=not show, file=sys.stderr, dynamic_ncols=True)


def add_ray_args(parser: argparse.ArgumentParser) -> None:
    """``--ray [ADDRESS]`` and ``--shards N``: the games of a run as Ray tasks (``arena``, ``solo``)."""
    parser.add_argument("--ray", nargs="?", const="local", default=None, metavar="ADDRESS",
                        help="play the games as Ray tasks, one per shard: alone, on a local Ray started for the run; "
                        "'auto' or an address (HOST:PORT, ray://HOST:10001) for a cluster. Results equal a local run's "
                        "(default: no Ray, threads on this machine)")
    parser.add_argument("--shards", type=positive, default=None,
                        help="with --ray: contiguous game ranges, one Ray task each (default: 4 per free slot)")


def check_ray_args(args: argparse.Namespace) -> None:
    if args.shards is not None and args.ray is None:
        raise SystemExit("--shards splits the games over Ray: add --ray (a local Ray) or --ray ADDRESS")


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
            raise SystemExit(f"--ray: {e}") from None
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
