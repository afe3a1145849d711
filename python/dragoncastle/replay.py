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
import gzip
import html
import json
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any, Iterable, Sequence

from . import _core

__all__ = ["RecordedGame", "ReplayError", "PageStats", "read_games", "replay_page", "write_replay"]


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


def _record(line: str, where: str, number: int) -> RecordedGame:
    """Check one JSON line and split it into its start position and decisions."""
    try:
        data = json.loads(line)
    except json.JSONDecodeError as e:
        raise ReplayError(f"{where}: not a JSON line ({e})") from None
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
    return RecordedGame(number, start, actions, agents, search)


def _check_search(search: Any, actions: Sequence[_core.Action], where: str) -> None:
    """``meta.search`` must have one entry per decision, each None or well formed."""
    if not isinstance(search, list) or len(search) != len(actions):
        n = len(search) if isinstance(search, list) else "no list of"
        raise ReplayError(f"{where}: meta.search has {n} entries for {len(actions)} decisions")
    for k, d in enumerate(search):
        if d is None:
            continue
        ok = (isinstance(d, dict) and isinstance(d.get("iterations"), int) and isinstance(d.get("top"), list)
              and all(isinstance(m, list) and len(m) == 3 and isinstance(m[0], int) and 0 <= m[0] < _core.NUM_ACTIONS
                      and isinstance(m[1], int) and isinstance(m[2], (int, float)) for m in d["top"]))
        if not ok:
            raise ReplayError(f"{where}: meta.search[{k}] is not {{\"iterations\": n, \"top\": [[action_id, visits, value], ...]}}")


def read_games(path: str | Path, game: int | None = None) -> list[RecordedGame]:
    """The games of a JSON-lines file (blank lines skipped), each replayed and
    checked; with ``game``, only that one (counted from 0). Raises
    :class:`ReplayError` (a ``ValueError``) naming the file, line and reason.
    """
    try:
        with open(path, encoding="utf-8") as f:
            lines = [(n, line) for n, line in enumerate(f, 1) if line.strip()]
    except (OSError, UnicodeDecodeError) as e:
        raise ReplayError(f"cannot read {path}: {e}") from None
    if not lines:
        raise ReplayError(f"{path}: no games in the file")
    if game is not None and not 0 <= game < len(lines):
        raise ReplayError(f"{path} has {len(lines)} game(s): --game is 0 to {len(lines) - 1}, not {game}")
    chosen = [(k, n, line) for k, (n, line) in enumerate(lines) if game is None or k == game]
    return [_record(line, f"{path}, line {n}", k) for k, n, line in chosen]


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


def _game_data(rec: RecordedGame, lines: _Lines) -> dict[str, Any]:
    """One game for the page: its pictures as lists of line numbers (made
    into edits by :func:`replay_page`), its moves, scores and search statistics."""
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
    return {"label": label, "info": " · ".join(info), "agents": rec.agents, "frames": frames, "moves": moves,
            "scores": scores, "search": search}


def _pack(data: dict[str, Any]) -> tuple[str, int]:
    """The page's data as base64 of gzipped JSON, and the JSON's size in bytes."""
    raw = json.dumps(data, separators=(",", ":"), ensure_ascii=False).encode()
    # mtime=0: the same games give the same page, byte for byte.
    return base64.b64encode(gzip.compress(raw, compresslevel=9, mtime=0)).decode("ascii"), len(raw)


def replay_page(games: Iterable[RecordedGame], title: str = "Dragon Castle games") -> tuple[str, PageStats]:
    """The HTML page stepping through ``games``, and what it holds."""
    lines = _Lines()
    per_game = [_game_data(rec, lines) for rec in games]
    if not per_game:
        raise ReplayError("no games to show")
    table, place = lines.sorted()
    for g in per_game:
        frames = [[place[i] for i in f] for f in g["frames"]]
        g["frames"] = frames[:1] + [_edit(a, b) for a, b in zip(frames, frames[1:])]
    data = {"lines": table, "games": per_game}
    packed, json_bytes = _pack(data)
    template = resources.files(__package__).joinpath("replay.html").read_text(encoding="utf-8")
    # The data first: base64 never holds "__TITLE__", while a title could hold "__DATA__".
    page = template.replace("__DATA__", packed).replace("__TITLE__", html.escape(title))
    positions = sum(len(g["frames"]) for g in per_game)
    return page, PageStats(len(per_game), positions, len(table), json_bytes, len(page.encode()))


def write_replay(source: str | Path, out: str | Path, game: int | None = None) -> PageStats:
    """Write the page for the games of ``source`` (``game``: only that one) to
    ``out``. Raises :class:`ReplayError` on a file or record it cannot use."""
    games = read_games(source, game)
    title = f"{Path(source).name}" + (f", game {game}" if game is not None else f": {len(games)} game(s)")
    page, stats = replay_page(games, title=f"Dragon Castle: {title}")
    try:
        Path(out).write_text(page, encoding="utf-8")
    except OSError as e:
        raise ReplayError(f"cannot write {out}: {e}") from None
    return stats
