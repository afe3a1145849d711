"""The web table's games (``dragoncastle serve``): a table's seats and
agents, how one is made from a request or continued from a saved record,
a person's moves and undo, and the record it saves. No web types here:
``serve`` turns requests into these calls, ``serve_bots`` plays the bots'
turns and hints, and ``serve_view`` shows a table.
"""

from __future__ import annotations

import json
import random
import threading
import time
import uuid
from dataclasses import dataclass, field
from typing import Any

from . import _core
from .agents import from_spec
from .serve_seal import DEAL_FIELDS, Sealer, bound_fields

#: The names of this machine that a server on it answers to by default (``--host`` adds its own).
LOOPBACK = ("127.0.0.1", "localhost", "::1")

#: Games a server holds at once; the oldest finished one makes room for a new one.
MAX_GAMES = 64
#: A bot's and a hint's time per move, at most (seconds).
MAX_BOT_SECONDS = 10.0
#: Tables of bots only (no person) in play at once.
MAX_BOT_TABLES = 2
#: A game no request has named for this long (seconds) is dropped, its bots stopped.
IDLE_SECONDS = 3600.0
#: The seat of a person, in ``seats``.
HUMAN = "human"
#: The longest saved record a table reads (characters; the page checks a file against it too).
MAX_RECORD = 1 << 20


#: How much of a request's own text an error message shows (characters).
ECHO = 80


def _show(value: Any) -> str:
    """A value from a request, as an error message shows it: escaped (``repr``) and cut to :data:`ECHO`."""
    text = repr(value) if not isinstance(value, str) or len(value) <= 4 * ECHO else repr(value[:4 * ECHO])
    return text if len(text) <= ECHO else text[:ECHO - 3] + "..."


def _clip(message: str, limit: int = 3 * ECHO) -> str:
    """An engine's message about a request's text: escaped and cut (it may quote the text)."""
    message = message.encode("ascii", "backslashreplace").decode("ascii")
    return message if len(message) <= limit else message[:limit - 3] + "..."


class TableError(Exception):
    """A request the table refuses: an HTTP status and a message, the game unchanged."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


@dataclass
class Table:
    """One game at the server: the game, who sits where, and the bots' work."""

    id: str
    game: Any
    seats: list[str]
    agents: list[Any]
    #: The seat of each decision in ``game.history`` that a person or bot took (the
    #: Dragon of Ingenuity's solo moves are not decisions of a seat).
    authors: list[int] = field(default_factory=list)
    #: Per decision: the search's top moves when a bot searched, else None.
    stats: list[Any] = field(default_factory=list)
    thinking: bool = False
    error: str | None = None
    lock: threading.Lock = field(default_factory=threading.Lock)
    created: float = field(default_factory=time.monotonic)
    #: The last request that named this table (``time.monotonic()``).
    seen: float = field(default_factory=time.monotonic)
    #: Set by ``DELETE``, expiry and the server's shutdown: a bot's search ends within 0.1 s, its move unplayed.
    stop: threading.Event = field(default_factory=threading.Event)
    #: A hint's search runs (one search at a time per table: a bot's or a hint's).
    hinting: bool = False
    #: Per decision in ``authors``: whether it (with the Dragon of Ingenuity's replies) uncovered a castle tile.
    revealed: list[bool] = field(default_factory=list)
    #: A practice table: undo may take back a move that uncovered a castle tile.
    practice: bool = False

    def humans(self) -> list[int]:
        return [i for i, s in enumerate(self.seats) if s == HUMAN]

    def viewer(self) -> int:
        """Whose view the page shows: the person to move, else the first person."""
        seat = self.game.current_player
        people = self.humans()
        return seat if seat in people or not people else people[0]


def _bot(spec: Any, seat: int) -> Any:
    if not isinstance(spec, str) or not spec.strip():
        raise TableError(422, f"seat {seat}: a seat is \"human\" or an agent spec (\"greedy\", \"mcts:time=1\")")
    try:
        agent = from_spec(spec)
    except ValueError as e:
        raise TableError(422, f"seat {seat}: {_clip(str(e))}") from None
    if agent.settings.get("threads", 1) != 1:
        raise TableError(422, f"seat {seat}: a bot searches on one thread at this table (threads=1)")
    if agent.settings.get("model") not in (None, "builtin"):
        # The same answer whatever the path names: a page may not probe the player's files.
        raise TableError(422, f"seat {seat}: a bot at this table uses no weights file (model=builtin or none)")
    name = agent.spec.partition(":")[0]
    if name in ("mcts", "plan"):
        budget = agent.settings["time"]
        if budget is None or budget > MAX_BOT_SECONDS:
            raise TableError(422, f"seat {seat}: give the bot a time per move of at most {MAX_BOT_SECONDS:g} s "
                                  f"({name}:time=1)")
    return agent


def _whole(value: Any, name: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise TableError(422, f"{name} must be a whole number from {low} to {high}; got {_show(value)}")
    return value


def _cards(value: Any, name: str) -> Any:
    if value is None or isinstance(value, list) and all(isinstance(v, str) for v in value):
        return value
    if isinstance(value, list):
        raise TableError(422, f"{name} is a count from 0 to 10 or a list of card names; got {_show(value)}")
    return _whole(value, name, 0, 10)


def _covered(game: Any) -> int:
    """How many castle tiles lie covered (the engine's public ``hidden_tiles``)."""
    return sum(game.observation()["hidden_tiles"].values())


def new_table(body: Any, sealer: Sealer | None = None) -> Table:
    """A table from a ``POST /api/games`` body (or a saved ``record`` to continue)."""
    if not isinstance(body, dict):
        raise TableError(422, "the body is a JSON object: {\"seats\": [\"human\", \"greedy\"], ...}")
    known = {"seats", "seed", "spirits", "dragons", "layout", "solo_variant", "record", "practice"}
    if set(body) - known:
        unknown = sorted(set(body) - known)
        raise TableError(422, f"unknown settings: {', '.join(_show(k) for k in unknown[:3])}"
                              f"{' and more' if len(unknown) > 3 else ''} (known: {', '.join(sorted(known))})")
    seats = body.get("seats", [HUMAN])
    if not isinstance(seats, list) or not 1 <= len(seats) <= 4:
        raise TableError(422, "seats is a list of 1 to 4 seats, each \"human\" or an agent spec")
    agents = [None if s == HUMAN else _bot(s, i) for i, s in enumerate(seats)]
    practice = body.get("practice", False)
    if not isinstance(practice, bool):
        raise TableError(422, "practice is true or false (true: undo may take back a move that uncovered a tile)")
    if "record" in body:
        game = _from_record(body["record"], sealer)
    else:
        seed = body.get("seed")
        seed = random.getrandbits(63) if seed is None else _whole(seed, "seed", 0, 2**64 - 1)
        spirits, dragons = _cards(body.get("spirits"), "spirits"), _cards(body.get("dragons"), "dragons")
        variant = body.get("solo_variant", False)
        if not isinstance(variant, bool):
            raise TableError(422, "solo_variant is true or false")
        if variant:
            if len(seats) != 1:
                raise TableError(422, "solo_variant is the solo game with one Spirit and one Dragon: one seat")
            spirits, dragons = spirits or 1, dragons or 1
        layout = body.get("layout")
        if layout is not None and not isinstance(layout, str):
            raise TableError(422, "layout is a standard layout's name or layout text")
        try:
            game = _core.Game(players=len(seats), seed=seed, spirits=spirits, dragons=dragons, layout=layout)
        except (ValueError, TypeError) as e:
            raise TableError(422, _clip(str(e))) from None
    if game.players != len(seats):
        raise TableError(422, f"the record has {game.players} players and seats names {len(seats)}")
    try:
        # A person plays here: the one check refuses an agent that reads the covered tiles.
        _core.check_agents(agents, game.players, True)  # a person's seat (None) reads nothing
    except ValueError as e:
        raise TableError(422, _clip(str(e))) from None
    authors, revealed = _authors(game)
    return Table(uuid.uuid4().hex[:12], game, list(seats), agents, authors, [None] * len(authors),
                 revealed=revealed, practice=practice)


def _authors(game: Any) -> tuple[list[int], list[bool]]:
    """The seat of each decision of a loaded game, and whether it uncovered a
    castle tile (taking them back one by one)."""
    g, seats, revealed = game.clone(), [], []
    while any(not by_dragon for by_dragon in g.history_by_dragon):
        after = _covered(g)
        g.undo()  # a decision, with the Dragon of Ingenuity's replies after it
        seats.append(g.current_player)
        revealed.append(after < _covered(g))
    return seats[::-1], revealed[::-1]


def _from_record(record: Any, sealer: Sealer | None) -> Any:
    if not isinstance(record, str) or len(record) > MAX_RECORD:
        raise TableError(422, "record is one line of a saved game (GET /api/games/{id}/record), at most 1 MiB")
    text = record.strip()
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        raise TableError(422, "record: not a saved game (one JSON line)") from None
    if isinstance(data, dict) and "sealed" in data:
        secret = None if sealer is None else sealer.open(data["sealed"], bound_fields(data))
        if secret is None:
            raise TableError(422, "record: its deal is sealed by another server (or the save was altered); "
                                  "a game saved mid-way continues only at the server that saved it, while it runs")
        data.update(json.loads(secret))
        del data["sealed"]
        text = json.dumps(data)
    try:
        return _core.Game.from_json(text)
    except ValueError as e:
        raise TableError(422, f"record: {_clip(str(e))}") from None


class Tables:
    """The games a server holds, each with its own id and lock."""

    def __init__(self) -> None:
        self.tables: dict[str, Table] = {}
        self.lock = threading.Lock()

    def add(self, table: Table) -> None:
        with self.lock:
            self.expire()
            if not table.humans() and not table.game.is_over:
                bots_only = [t for t in self.tables.values() if not t.humans() and not t.game.is_over]
                if len(bots_only) >= MAX_BOT_TABLES:
                    raise TableError(429, f"this server plays {MAX_BOT_TABLES} tables of bots only at once; "
                                          "delete one first or take a seat")
            if len(self.tables) >= MAX_GAMES:
                done = [t for t in self.tables.values() if t.game.is_over and not t.thinking]
                if not done:
                    raise TableError(429, f"this server holds {MAX_GAMES} games at most; delete one first")
                del self.tables[min(done, key=lambda t: t.created).id]
            self.tables[table.id] = table

    def get(self, game_id: str) -> Table:
        with self.lock:
            self.expire()
            table = self.tables.get(game_id)
            if table is None:
                raise TableError(404, f"no game {_show(game_id)} here")
            table.seen = time.monotonic()
            return table

    def remove(self, game_id: str) -> None:
        with self.lock:
            self.get_locked(game_id)
            self.tables.pop(game_id).stop.set()

    def get_locked(self, game_id: str) -> Table:
        table = self.tables.get(game_id)
        if table is None:
            raise TableError(404, f"no game {_show(game_id)} here")
        return table

    def expire(self) -> None:
        """Drop the games idle for :data:`IDLE_SECONDS` (the caller holds the lock)."""
        now = time.monotonic()
        for game_id in [k for k, t in self.tables.items() if now - t.seen > IDLE_SECONDS]:
            self.tables.pop(game_id).stop.set()

    def stop_all(self) -> None:
        """The server stops: every bot stops after the decision in hand."""
        with self.lock:
            for table in self.tables.values():
                table.stop.set()


#: A request body's bound (bytes): a saved game is well under it.


def _person_moves(table: Table) -> None:
    g = table.game
    if g.is_over:
        raise TableError(409, "the game is over")
    if table.thinking or table.agents[g.current_player] is not None:
        raise TableError(409, "it is not a person's turn: a bot is to move")


def _apply(table: Table, body: Any) -> None:
    if not isinstance(body, dict) or "action" not in body:
        raise TableError(422, "the body is {\"action\": \"take 0,3\"} (text or id)")
    action = body["action"]
    if isinstance(action, bool) or not isinstance(action, (int, str)):
        raise TableError(422, "an action is its text (\"take 0,3\") or its id")
    with table.lock:
        _person_moves(table)
        g = table.game
        seat = g.current_player
        if isinstance(action, int) and not 0 <= action < _core.NUM_ACTIONS:
            raise TableError(422, f"not an action: an action id is 0 to {_core.NUM_ACTIONS - 1}")
        try:
            chosen = _core.Action.from_id(action) if isinstance(action, int) else _core.Action.parse(action)
        except (ValueError, OverflowError) as e:
            raise TableError(422, f"not an action: {_clip(str(e))}") from None
        if not g.is_legal(chosen):
            raise TableError(422, f"{chosen} is not legal here")
        covered = _covered(g)
        g.apply(chosen)
        table.authors.append(seat)
        table.stats.append(None)
        table.revealed.append(_covered(g) < covered)


def undo_start(table: Table) -> int:
    """Where undo would take the game back to (the index in ``authors`` of the
    person's last decision), or a :class:`TableError` saying why it is refused
    now: the one check of :func:`_undo` and of the state's ``can_undo``. The
    caller holds the table's lock."""
    if table.thinking:
        raise TableError(409, "a bot is thinking: undo when it has moved")
    people = table.humans()
    if not any(s in people for s in table.authors):
        raise TableError(409, "there is no decision of a person to take back")
    last = max(k for k, s in enumerate(table.authors) if s in people)
    if not table.practice and any(table.revealed[last:]):
        raise TableError(409, "undo would take back a move that uncovered a castle tile: what lay under it is "
                              "known now (a practice table allows it: the New-game dialog's practice box, "
                              "\"practice\": true)")
    return last


def _undo(table: Table) -> None:
    """Take back the person's last decision and the bots' replies after it."""
    with table.lock:
        last = undo_start(table)
        g = table.game
        while len(table.authors) > last:
            table.authors.pop()
            table.stats.pop()
            table.revealed.pop()
            g.undo()  # the Dragon of Ingenuity's solo replies go with it
        table.error = None


def record(table: Table, sealer: Sealer) -> str:
    """The game as one line: its ``to_json()`` with ``meta`` (the seats'
    agents, the bots' search statistics, ``practice`` on a practice table).
    Once the game is over it carries its seed in the clear (the seed makes the
    deal; ``dragoncastle replay`` opens it); before, the seed and deal are
    ``sealed`` with this server's key, so only this server continues it."""
    with table.lock:
        data = json.loads(table.game.to_json())
        if data.get("seed") is not None:
            del data["deal"]
        if not table.game.is_over:
            secret = {k: data.pop(k) for k in DEAL_FIELDS if k in data}
            data["sealed"] = sealer.seal(json.dumps(secret).encode("utf-8"), bound_fields(data))
        data["meta"] = {"agents": table.seats,
                        "search": [s if s is None or "iterations" in s else None for s in table.stats]}
        if table.practice:
            data["meta"]["practice"] = True
    return json.dumps(data, separators=(",", ":"))


#: The security headers of every response (the page's Content-Security-Policy adds its script's nonce).
