"""``dragoncastle replay``: one self-contained HTML page to step through recorded games.

The input is what ``dragoncastle arena --record FILE`` writes: one game per
line, the game's ``to_json()`` with a ``meta`` object (agents by seat and,
with ``--search-stats``, the search's most visited root moves at every
decision). Any ``Game.to_json()`` line is accepted too.

Every position is drawn by the engine's own SVG (``Game._repr_svg_``, the
last move marked); this module only replays the games and packs the
pictures. The page needs no network and no file beside it: the pictures,
the moves and the search statistics are one JSON document, gzipped and
base64-encoded inside the page, which inflates it with the browser's own
``DecompressionStream``. Consecutive pictures differ in a few lines (the
renderer writes one element per line), so each distinct line is stored once
and each picture is an edit of the one before it: a page of 200 games
weighs a few megabytes (``docs/replay.md`` has the measurement).
"""

from __future__ import annotations

import base64
import difflib
import functools
import html
import json
import math
import zlib
from array import array
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any, Iterable, Iterator, Sequence

from . import _core
from .output import OutputError, check_output, write_file

__all__ = ["RecordedGame", "ReplayError", "PageStats", "MAX_LINE", "iter_games", "read_games", "replay_page",
           "write_replay"]

#: The longest line read, in characters: a long four-player game with ``--search-stats`` is some
#: hundreds of kilobytes, and a line is never read whole past this.
MAX_LINE = 16 * 2**20
#: The most digits of an integer in a record: a seed (below 2**64) has 20. Longer ones are
#: refused while parsing, before Python converts them (slow, and an error past 4300 digits).
MAX_DIGITS = 20


class ReplayError(ValueError):
    """A file or record that cannot be replayed; the message says where and why."""


@dataclass(frozen=True)
class RecordedGame:
    """One recorded game, checked by replaying it.

    ``number`` is its position in the file (from 0, blank lines not counted),
    ``start`` the game before any decision, ``actions`` the players'
    decisions in order (not the solo Dragon of Ingenuity's moves, which
    ``apply`` plays by itself), ``agents`` the agent spec of each seat when
    the record names them, and ``search`` one entry per decision when the
    record carries the search's statistics (``arena --search-stats``): None,
    or ``{"iterations": n, "top": [[action_id, visits, mean_value], ...]}``.
    """

    number: int
    start: _core.Game
    actions: list[_core.Action]
    agents: list[str] | None = None
    search: list[dict[str, Any] | None] | None = None


def _bounded_int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_DIGITS:
        raise ValueError(f"an integer of {len(text.lstrip('-'))} digits (at most {MAX_DIGITS})")
    return int(text)


def _no_constant(name: str) -> Any:
    # NaN and Infinity are not JSON: the page's JSON.parse would refuse them.
    raise ValueError(f"{name} is not a JSON number")


def load_json(line: str, where: str) -> Any:
    """One JSON line, parsed with bounds (integers of at most ``MAX_DIGITS``
    digits, no NaN or Infinity, nesting as deep as Python's stack allows);
    :class:`ReplayError` naming ``where`` otherwise."""
    try:
        return json.loads(line, parse_int=_bounded_int, parse_constant=_no_constant)
    except json.JSONDecodeError as e:
        raise ReplayError(f"{where}: not a JSON line ({e})") from None
    except RecursionError:
        raise ReplayError(f"{where}: JSON nested too deeply") from None
    except ValueError as e:
        raise ReplayError(f"{where}: {e}") from None


def _record(line: str, where: str, number: int) -> RecordedGame:
    """Check one JSON line and split it into its start position and decisions."""
    return parse_record(line, where, number)[0]


def parse_record(line: str, where: str, number: int = 0) -> tuple[RecordedGame, dict[str, Any]]:
    """One JSON line checked (``where`` names it in errors) and split into its
    start position and decisions, with the line's JSON object (its ``meta``
    for :meth:`dragoncastle.arena.ArenaResult.from_records`)."""
    data = load_json(line, where)
    if not isinstance(data, dict):
        raise ReplayError(f"{where}: not a recorded game (a JSON object is expected)")
    try:
        final = _core.Game.from_json(line)
        # The same setup without its actions: the position every replay starts from.
        start = _core.Game.from_json(json.dumps({k: v for k, v in data.items() if k not in ("actions", "summary", "meta")}
                                                | {"actions": []}))
    except ValueError as e:
        raise ReplayError(f"{where}: {e}") from None
    actions = [a for a, by_dragon in zip(final.history, final.history_by_dragon) if not by_dragon]
    meta = data.get("meta")
    meta = meta if isinstance(meta, dict) else {}
    agents = meta.get("agents")
    if agents is not None and (not isinstance(agents, list) or len(agents) != final.players
                               or not all(isinstance(a, str) for a in agents)):
        raise ReplayError(f"{where}: meta.agents should name one agent per player, {final.players}")
    search = meta.get("search")
    if search is not None:
        _check_search(search, actions, where)
    return RecordedGame(number, start, actions, agents, search), data


def replayed(rec: RecordedGame) -> tuple[_core.Game, list[int]]:
    """The game at the end of ``rec``'s decisions, and how many each seat made."""
    g = rec.start.clone()
    decisions = [0] * g.players
    for a in rec.actions:
        decisions[g.current_player] += 1
        g.apply(a)
    return g, decisions


def is_count(x: Any) -> bool:
    """A whole number of a record (visits, iterations, decisions): an int, not a
    bool, from 0 to 2**63 - 1 (what the engine counts in)."""
    return type(x) is int and 0 <= x < 2**63


def is_number(x: Any) -> bool:
    """A finite int or float, not a bool."""
    return type(x) in (int, float) and math.isfinite(x)


@functools.cache
def _action_ids() -> frozenset[int]:
    """The ids that name an action (some below ``NUM_ACTIONS`` are reserved)."""
    ids = set()
    for i in range(_core.NUM_ACTIONS):
        try:
            _core.Action.from_id(i)
            ids.add(i)
        except ValueError:
            pass
    return frozenset(ids)


def _search_entry_ok(d: Any) -> bool:
    return (isinstance(d, dict) and is_count(d.get("iterations")) and isinstance(d.get("top"), list)
            and all(isinstance(m, list) and len(m) == 3 and type(m[0]) is int and m[0] in _action_ids()
                    and is_count(m[1]) and is_number(m[2]) for m in d["top"]))


def _check_search(search: Any, actions: Sequence[_core.Action], where: str) -> None:
    """``meta.search`` must have one entry per decision, each None or well formed
    (the page formats each field as a number: a true or a string breaks it)."""
    if not isinstance(search, list) or len(search) != len(actions):
        n = len(search) if isinstance(search, list) else "no list of"
        raise ReplayError(f"{where}: meta.search has {n} entries for {len(actions)} decisions")
    for k, d in enumerate(search):
        if d is not None and not _search_entry_ok(d):
            raise ReplayError(f"{where}: meta.search[{k}] is not {{\"iterations\": n, \"top\": [[action_id, visits, "
                              "value], ...]}} with whole counts, finite values and ids of actions")


def numbered_lines(path: str | Path) -> Iterator[tuple[str, str]]:
    """The non-blank lines of a JSON-lines file, each with where it is
    (``"FILE, line N"``), read one at a time, none longer than ``MAX_LINE``."""
    try:
        with open(path, encoding="utf-8") as f:
            n = 0
            while line := f.readline(MAX_LINE + 1):
                n += 1
                if len(line) > MAX_LINE and not line.endswith("\n"):
                    raise ReplayError(f"{path}, line {n}: longer than {MAX_LINE} characters")
                if line.strip():
                    yield f"{path}, line {n}", line
    except (OSError, UnicodeDecodeError) as e:
        raise ReplayError(f"cannot read {path}: {e}") from None


def iter_games(path: str | Path, game: int | None = None) -> Iterator[RecordedGame]:
    """The games of a JSON-lines file (blank lines skipped), one at a time as
    the file is read, each replayed and checked; with ``game``, only that one
    (counted from 0). Raises :class:`ReplayError` (a ``ValueError``) naming
    the file, line and reason."""
    count = 0
    for k, (where, line) in enumerate(numbered_lines(path)):
        count = k + 1
        if game is None or k == game:
            yield _record(line, where, k)
            if game is not None:
                return
    if count == 0:
        raise ReplayError(f"{path}: no games in the file")
    if game is not None:
        raise ReplayError(f"{path} has {count} game(s): --game is 0 to {count - 1}, not {game}")


def read_games(path: str | Path, game: int | None = None) -> list[RecordedGame]:
    """:func:`iter_games` as a list."""
    return list(iter_games(path, game))


@dataclass(frozen=True)
class PageStats:
    """What a page holds: games, positions (pictures), distinct SVG lines,
    and its size in bytes, before and after compression."""

    games: int
    positions: int
    distinct_lines: int
    json_bytes: int
    page_bytes: int


class _Lines:
    """Distinct SVG lines, each numbered once for the whole page."""

    def __init__(self) -> None:
        self.index: dict[str, int] = {}

    def ids(self, svg: str) -> list[int]:
        return [self.index.setdefault(line, len(self.index)) for line in svg.split("\n")]

    def sorted(self) -> tuple[list[str], list[int]]:
        """The lines in text order, and each first-seen number's place in it.
        In text order the lines of one kind (castle spaces, Realm cells, …)
        sit together, within reach of gzip's 32 KB window: a third smaller
        than in the order they were first seen."""
        table = sorted(self.index)
        place = [0] * len(table)
        for k, line in enumerate(table):
            place[self.index[line]] = k
        return table, place


def _edit(before: list[int], after: list[int]) -> list[int]:
    """``after`` as edits of ``before``, flat: ``[start, removed, added, ids...]``
    per changed run, the starts in ``before``'s numbering (the page applies them
    in order)."""
    out: list[int] = []
    ops = difflib.SequenceMatcher(None, before, after, autojunk=False).get_opcodes()
    for tag, i1, i2, j1, j2 in ops:
        if tag != "equal":
            out += [i1, i2 - i1, j2 - j1, *after[j1:j2]]
    return out


def _game_data(rec: RecordedGame, lines: _Lines) -> tuple[dict[str, Any], list[list[int]]]:
    """One game for the page: its moves, scores and search statistics, and its
    pictures as lists of line numbers (made into edits by :func:`_packed_game`)."""
    g = rec.start.clone()
    frames = [lines.ids(g._repr_svg_())]
    moves: list[list[Any]] = []
    scores = [g.scores()]
    for a in rec.actions:
        seat, turn = g.current_player, g.turn
        g.apply(a)
        frames.append(lines.ids(g._repr_svg_()))
        moves.append([seat, str(a), turn + 1])
        scores.append(g.scores())
    search = None
    if rec.search is not None:
        search = [None if d is None else {"iterations": d["iterations"],
                                          "top": [[str(_core.Action.from_id(m[0])), m[1], m[2]] for m in d["top"]]}
                  for d in rec.search]
    if g.is_solo:
        result = f"score {g.scores()[0]}, {g.rank()}"
    else:
        result = "scores " + "–".join(map(str, g.scores())) + ", winner(s): " + ", ".join(f"seat {w}" for w in g.winners())
    label = f"game {rec.number}" + (f", seed {g.seed}" if g.seed is not None else "") + f": {result}"
    info = [f"seat {s}: {name}" for s, name in enumerate(rec.agents or [])] + [result]
    if g.spirits or g.dragons:
        info.append("cards: " + ", ".join([*g.spirits, *g.dragons]))
    return {"label": label, "info": " · ".join(info), "agents": rec.agents, "frames": None, "moves": moves,
            "scores": scores, "search": search}, frames


@dataclass(frozen=True)
class _PackedGame:
    """A game of the page as it waits for the others: its JSON (the frames
    left out) and its frames' edits (one flat array of ``int32``, in the
    lines' first-seen numbering), both compressed. A few kilobytes, where
    the game's Python objects take hundreds: a page of thousands of games is
    built in memory that grows with its output, not with its games' pictures."""

    json: bytes
    edits: bytes
    positions: int


def _packed_game(rec: RecordedGame, lines: _Lines) -> _PackedGame:
    data, frames = _game_data(rec, lines)
    edits = array("i", [len(frames[0]), *frames[0]])
    for a, b in zip(frames, frames[1:]):
        ed = _edit(a, b)
        edits.extend([len(ed), *ed])
    return _PackedGame(zlib.compress(json.dumps(data, separators=(",", ":"), ensure_ascii=False).encode()),
                       zlib.compress(edits.tobytes()), len(frames))


def _renumbered(edits: array, place: list[int]) -> list[list[int]]:
    """A game's frames for the page, from its flat edits: the first picture
    whole, then each as edits of the one before (:func:`_edit`), with the
    lines numbered in text order (``place``)."""
    frames: list[list[int]] = []
    k = 0
    while k < len(edits):
        n, body = edits[k], list(edits[k + 1:k + 1 + edits[k]])
        k += 1 + n
        if not frames:
            frames.append([place[i] for i in body])
            continue
        e = 0
        while e < len(body):
            added = body[e + 2]
            body[e + 3:e + 3 + added] = [place[i] for i in body[e + 3:e + 3 + added]]
            e += 3 + added
        frames.append(body)
    return frames


def _game_json(game: _PackedGame, place: list[int]) -> str:
    data = json.loads(zlib.decompress(game.json))
    data["frames"] = _renumbered(array("i", zlib.decompress(game.edits)), place)
    return json.dumps(data, separators=(",", ":"), ensure_ascii=False)


def _pack(games: Iterable[RecordedGame]) -> tuple[str, PageStats]:
    """The page's data (``{"lines": [...], "games": [...]}``) as base64 of
    gzipped JSON, and what it holds (``page_bytes`` still 0). The games are
    read one at a time and kept packed; the JSON is compressed as it is made."""
    lines = _Lines()
    packed = [_packed_game(rec, lines) for rec in games]
    if not packed:
        raise ReplayError("no games to show")
    table, place = lines.sorted()
    # wbits 31: a gzip stream, with no time in its header: the same games give the same page.
    gz = zlib.compressobj(9, zlib.DEFLATED, 31)
    out, size = bytearray(), 0
    for piece in _json_pieces(table, packed, place):
        raw = piece.encode()
        size += len(raw)
        out += gz.compress(raw)
    out += gz.flush()
    stats = PageStats(len(packed), sum(g.positions for g in packed), len(table), size, 0)
    return base64.b64encode(out).decode("ascii"), stats


def _json_pieces(table: list[str], packed: list[_PackedGame], place: list[int]) -> Iterator[str]:
    """``json.dumps({"lines": table, "games": games}, separators=(",", ":"))``, a game at a time."""
    yield '{"lines":' + json.dumps(table, separators=(",", ":"), ensure_ascii=False) + ',"games":['
    for k, g in enumerate(packed):
        yield ("," if k else "") + _game_json(g, place)
    yield "]}"


def _html(packed: str, title: str, stats: PageStats) -> tuple[str, PageStats]:
    """The page around the packed data, and its stats with its size."""
    template = resources.files(__package__).joinpath("replay.html").read_text(encoding="utf-8")
    # Split at the data first: base64 never holds "__TITLE__", while a title could hold "__DATA__".
    head, tail = (part.replace("__TITLE__", html.escape(title)) for part in template.split("__DATA__"))
    size = len(head.encode()) + len(packed) + len(tail.encode())  # base64 is ASCII: a byte a character
    return head + packed + tail, PageStats(stats.games, stats.positions, stats.distinct_lines, stats.json_bytes, size)


def replay_page(games: Iterable[RecordedGame], title: str = "Dragon Castle games") -> tuple[str, PageStats]:
    """The HTML page stepping through ``games``, and what it holds. ``games``
    may be an iterator (:func:`iter_games`): each is read, drawn and packed
    before the next."""
    packed, stats = _pack(games)
    return _html(packed, title, stats)


def write_replay(source: str | Path, out: str | Path, game: int | None = None) -> PageStats:
    """Write the page for the games of ``source`` (``game``: only that one) to
    ``out``, a regular file, whole or not at all (:func:`dragoncastle.output.write_file`).
    Raises :class:`ReplayError` on a file or record it cannot use, or an
    ``out`` it cannot write (checked before the games are read)."""
    try:
        check_output(out)
        packed, stats = _pack(iter_games(source, game))
        title = f"{Path(source).name}" + (f", game {game}" if game is not None else f": {stats.games} game(s)")
        page, stats = _html(packed, f"Dragon Castle: {title}", stats)
        write_file(out, page)
    except OutputError as e:
        raise ReplayError(str(e)) from None
    return stats
