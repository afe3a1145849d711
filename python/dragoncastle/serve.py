"""``dragoncastle serve``: a local web table where people play against the bots
(``docs/serve.md``). Needs the ``web`` extra: ``pip install ".[web]"``.

:func:`app` returns the ASGI app (Starlette); ``dragoncastle serve`` runs it
with uvicorn. The page at ``/`` plays; its JSON API under ``/api`` is for
scripts and other front ends too:

>>> from starlette.testclient import TestClient
>>> client = TestClient(app(), base_url="http://127.0.0.1:8000")
>>> state = client.post("/api/games", json={"seats": ["human"], "seed": 7}).json()
>>> state["to_move"], state["over"], len(state["legal"]) > 0
(0, False, True)
>>> state = client.post(f"/api/games/{state['id']}/actions", json={"action": state["legal"][0]["id"]}).json()
>>> state["history"][0]["seat"]
0

Every response shows only what the person at the table may know: the
legal moves and the picture of the seat to move among the people (the
engine's public picture), never a covered castle tile. A record saved in
play carries its deal sealed with this server's key (:class:`Sealer`); a
finished game's record carries its seed (``Game.from_json`` reads it back).

The server answers only to the names it serves, takes changes only from its
own page and only as JSON, bounds bodies and the bots' work, and sends the
usual security headers (:class:`Guard`, ``docs/serve.md``, "Served safely").
"""

from __future__ import annotations

import base64
import contextlib
import hashlib
import hmac
import json
import logging
import random
import secrets
import threading
import time
import uuid
from dataclasses import dataclass, field
from importlib import resources
from typing import Any
from urllib.parse import urlsplit

from . import _core
from .agents import MCTSAgent, PlannerAgent, from_spec

try:
    from starlette.applications import Starlette
    from starlette.requests import Request
    from starlette.responses import HTMLResponse, JSONResponse, Response
    from starlette.routing import Route
except ImportError as _missing:  # pragma: no cover - the extra is missing
    raise ImportError('dragoncastle serve needs the web extra: pip install ".[web]"') from _missing

__all__ = ["app", "MAX_GAMES", "MAX_BOT_SECONDS", "HUMAN", "LOOPBACK"]

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
#: Top moves a bot's or a hint's search reports.
TOP = 5


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
    #: Set by ``DELETE``, expiry and the server's shutdown: the bots stop (after the decision in hand).
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


class Sealer:
    """Seals a record's deal with a key this server keeps in memory: only the
    same server, while it runs, reads it back (authenticated encryption from
    the standard library: HMAC-SHA256 in counter mode as the keystream, then an
    HMAC-SHA256 tag over the nonce, the ciphertext and the bound fields).
    The record's other fields are bound to it: a sealed deal opens only with
    its own moves."""

    def __init__(self) -> None:
        self.key = secrets.token_bytes(32)

    def _sub(self, purpose: bytes) -> bytes:
        return hmac.new(self.key, b"dragoncastle-seal-" + purpose, hashlib.sha256).digest()

    def seal(self, secret: bytes, bound: bytes) -> str:
        nonce = secrets.token_bytes(16)
        body = bytes(a ^ b for a, b in zip(secret, self._stream(nonce, len(secret))))
        tag = self._tag(nonce, body, bound)
        return "h1." + base64.urlsafe_b64encode(nonce + body + tag).decode("ascii")

    def open(self, sealed: Any, bound: bytes) -> bytes | None:
        """The secret, or None if this server did not seal it (or it was altered)."""
        if not isinstance(sealed, str) or len(sealed) > 1 << 16:
            return None
        try:
            raw = base64.urlsafe_b64decode(sealed[3:].encode("ascii"))
        except (ValueError, UnicodeEncodeError):
            return None
        if sealed.startswith("h1.") and len(raw) >= 48:
            nonce, body, tag = raw[:16], raw[16:-32], raw[-32:]
            if not hmac.compare_digest(tag, self._tag(nonce, body, bound)):
                return None
            return bytes(a ^ b for a, b in zip(body, self._stream(nonce, len(body))))
        return None

    def _stream(self, nonce: bytes, n: int) -> bytes:
        key, out = self._sub(b"stream"), bytearray()
        for block in range((n + 31) // 32):
            out += hmac.new(key, nonce + block.to_bytes(8, "big"), hashlib.sha256).digest()
        return bytes(out[:n])

    def _tag(self, nonce: bytes, body: bytes, bound: bytes) -> bytes:
        msg = len(bound).to_bytes(8, "big") + bound + nonce + body
        return hmac.new(self._sub(b"tag"), msg, hashlib.sha256).digest()


#: The fields of a record that hold the deal: in the clear only once the game is over.
DEAL_FIELDS = ("seed", "deal")


def _bound(data: dict[str, Any]) -> bytes:
    """The fields a sealed deal is bound to: the game without its deal, summary and notes."""
    kept = {k: v for k, v in data.items() if k not in (*DEAL_FIELDS, "sealed", "meta", "summary")}
    return json.dumps(kept, sort_keys=True, separators=(",", ":")).encode("utf-8")


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
        _core.check_agents([a for a in agents if a is not None], game.players, True)
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
    if not isinstance(record, str) or len(record) > 1 << 20:
        raise TableError(422, "record is one line of a saved game (GET /api/games/{id}/record), at most 1 MiB")
    text = record.strip()
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        raise TableError(422, "record: not a saved game (one JSON line)") from None
    if isinstance(data, dict) and "sealed" in data:
        secret = None if sealer is None else sealer.open(data["sealed"], _bound(data))
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


def _search_stats(agent: Any, game: Any) -> tuple[Any, Any]:
    """A bot's move, and its search's top moves (for the page and the record)."""
    if isinstance(agent, MCTSAgent):
        r = agent.search(game)
        top = sorted(r.visits, key=lambda a: -r.visits[a])[:TOP]
        return r.action, {"iterations": r.iterations,
                          "top": [[a.id, r.visits[a], round(r.values[a], 4)] for a in top]}
    if isinstance(agent, PlannerAgent):
        p = agent.plan(game)
        top = sorted(p.values, key=lambda a: -p.values[a])[:TOP]
        return p.action, {"playouts": p.playouts, "top_plan": [[a.id, p.tried[a], round(p.values[a], 2)] for a in top]}
    return agent.act(game), None


def _play_bots(table: Table) -> None:
    """The bots' turns, in a background thread (their searches release the GIL)."""
    try:
        while not table.game.is_over and not table.stop.is_set():
            seat = table.game.current_player
            agent = table.agents[seat]
            if agent is None:
                break
            # A bot searches a copy: the page keeps reading the game meanwhile.
            action, stats = _search_stats(agent, table.game.clone())
            with table.lock:
                if table.stop.is_set():  # deleted, expired or shut down while it searched
                    break
                covered = _covered(table.game)
                table.game.apply(action)
                table.authors.append(seat)
                table.stats.append(stats)
                table.revealed.append(_covered(table.game) < covered)
    except Exception as e:  # a bot that fails stops the table with its message, never the server
        table.error = f"the bot at seat {table.game.current_player} failed: {_clip(str(e))}"
    finally:
        table.thinking = False


def _start_bots(table: Table) -> None:
    """The bots' thread, if a bot is to move and none runs: one per table, so one search at a time."""
    with table.lock:
        g = table.game
        if (g.is_over or table.agents[g.current_player] is None or table.thinking or table.hinting
                or table.stop.is_set()):
            return
        table.thinking = True
    threading.Thread(target=_play_bots, args=(table,), daemon=True, name=f"dragoncastle-table-{table.id}").start()


def target(action: Any, seat: int) -> dict[str, Any] | None:
    """Where on the picture a move of ``seat`` points, read from the action's own
    fields (never from the rules): a castle space (``take``, ``destroy``), a
    cell of the mover's Realm (``place``, ``shrine``, a Spirit's follow-up, a
    Spirit paid with that cell), or None (``summon``, ``discard``,
    ``take-shrine``, ``done``, a Spirit paid with a Shrine)."""
    if action.space is not None:
        return {"where": "castle", "space": list(action.space)}
    cell = action.cell if action.cell is not None else action.pay_cell
    if cell is None:
        return None
    return {"where": "realm", "seat": seat, "cell": list(cell)}


def public(table: Table) -> dict[str, Any]:
    """What the page may show: nothing a person at the table may not know."""
    with table.lock:
        g = table.game
        seat = g.current_player
        person = not g.is_over and table.agents[seat] is None and not table.thinking
        played = [a for a, by_dragon in zip(g.history, g.history_by_dragon) if not by_dragon]
        state = {
            "id": table.id,
            "seats": table.seats,
            "players": g.players,
            "to_move": seat,
            "phase": g.phase.name,
            "turn": g.turn,
            "over": g.is_over,
            # A bot's turn waits while a hint searches (one search at a time): it is thinking too.
            "practice": table.practice,
            "thinking": table.thinking or table.hinting and not g.is_over and table.agents[seat] is not None,
            "error": table.error,
            "scores": g.scores(),
            "winners": g.winners() if g.is_over else [],
            "rank": g.rank() if g.is_over and g.players == 1 else None,
            "legal": [{"id": a.id, "text": str(a), "target": target(a, seat)} for a in g.legal_actions()] if person else [],
            "history": [{"seat": s, "action": {"id": a.id, "text": str(a)}, "search": st}
                        for s, a, st in zip(table.authors, played, table.stats)],
            "log": move_log(table),
            "breakdown": [g.score_breakdown(p) for p in range(g.players)] if g.is_over else None,
            "svg": g._repr_svg_(),
        }
    return state


def who(table: Table, seat: int) -> str:
    """Who sits at ``seat``, in words: "You", "Player 2" (several people), "Bot greedy"."""
    if table.seats[seat] != HUMAN:
        return f"Bot {table.seats[seat]}"
    return "You" if len(table.humans()) == 1 else f"Player {seat + 1}"


def top_in_words(stats: Any) -> list[str]:
    """A bot's top moves in words, as its search or plan saw them."""
    if not stats:
        return []
    if "top" in stats:
        total = sum(v for _, v, _ in stats["top"]) or 1
        return [f"{_core.Action(i)}: {v} visits ({100 * v / total:.0f}%), win chance {q:.2f}" for i, v, q in stats["top"]]
    return [f"{_core.Action(i)}: first move of {n} plans, mean score {m:g}" for i, n, m in stats.get("top_plan", [])]


def move_log(table: Table) -> list[dict[str, Any]]:
    """Every move of the game in words, in order: the seat, who sits there,
    the move's text and, for a bot, its top moves (the solo Dragon's replies
    included, in its name). The caller holds the table's lock."""
    g, log, k = table.game, [], 0
    moves = sum(1 for d in g.history_by_dragon if not d)
    # A table made from a record knows its moves' seats from the game itself.
    authors = table.authors if len(table.authors) == moves else _authors(g)[0]
    stats = table.stats if len(table.stats) == moves else [None] * moves
    for a, by_dragon in zip(g.history, g.history_by_dragon):
        if by_dragon:
            log.append({"seat": 1, "who": "Dragon of Ingenuity", "text": str(a), "top": []})
            continue
        log.append({"seat": authors[k], "who": who(table, authors[k]), "text": str(a), "top": top_in_words(stats[k])})
        k += 1
    return log


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
MAX_BODY = 2 << 20


async def _body(request: Request) -> Any:
    """The JSON body, read as it streams: past :data:`MAX_BODY` bytes the
    answer is ``413`` at once, the rest never read."""
    length = request.headers.get("content-length")
    if length is not None and (not length.isdigit() or int(length) > MAX_BODY):
        raise TableError(413 if length.isdigit() else 400, f"the body is larger than {MAX_BODY >> 20} MiB")
    raw, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > MAX_BODY:
            raise TableError(413, f"the body is larger than {MAX_BODY >> 20} MiB")
        raw.append(chunk)
    if not size:
        return {}
    try:
        body = json.loads(b"".join(raw))
        json.dumps(body, ensure_ascii=False).encode("utf-8")  # a lone surrogate ("\ud800") is no text
    except (ValueError, RecursionError):
        raise TableError(400, "the body is not JSON (UTF-8 text)") from None
    return body


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


def _undo(table: Table) -> None:
    """Take back the person's last decision and the bots' replies after it."""
    with table.lock:
        if table.thinking:
            raise TableError(409, "a bot is thinking: undo when it has moved")
        people = table.humans()
        if not any(s in people for s in table.authors):
            raise TableError(409, "there is no decision of a person to take back")
        last = max(k for k, s in enumerate(table.authors) if s in people)
        if not table.practice and any(table.revealed[last:]):
            raise TableError(409, "undo would take back a move that uncovered a castle tile: what lay under it "
                                  "is known now (a table started with \"practice\": true allows it)")
        g = table.game
        while len(table.authors) > last:
            table.authors.pop()
            table.stats.pop()
            table.revealed.pop()
            g.undo()  # the Dragon of Ingenuity's solo replies go with it
        table.error = None


def _hint(table: Table, body: Any) -> dict[str, Any]:
    seconds = body.get("time", 0.5) if isinstance(body, dict) else None
    if isinstance(seconds, bool) or not isinstance(seconds, (int, float)) or not 0 < seconds <= MAX_BOT_SECONDS:
        raise TableError(422, f"time is the search's seconds, more than 0 and at most {MAX_BOT_SECONDS:g}")
    with table.lock:
        _person_moves(table)
        if table.hinting:
            raise TableError(409, "a hint's search runs at this table: one search at a time")
        table.hinting = True
        position = table.game.clone()
    try:
        r = MCTSAgent(time_limit=float(seconds), threads=1, reuse_tree=False).search(position)
    finally:
        table.hinting = False
        _start_bots(table)  # a person moved while the hint searched: the bots' turn waited for it
    top = sorted(r.visits, key=lambda a: -r.visits[a])[:TOP]
    return {"action": {"id": r.action.id, "text": str(r.action)}, "iterations": r.iterations,
            "top": [{"id": a.id, "text": str(a), "visits": r.visits[a], "value": round(r.values[a], 4)} for a in top]}


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
            data["sealed"] = sealer.seal(json.dumps(secret).encode("utf-8"), _bound(data))
        data["meta"] = {"agents": table.seats,
                        "search": [s if s is None or "iterations" in s else None for s in table.stats]}
        if table.practice:
            data["meta"]["practice"] = True
    return json.dumps(data, separators=(",", ":"))


#: The security headers of every response (the page's Content-Security-Policy adds its script's nonce).
HEADERS = {
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cross-Origin-Opener-Policy": "same-origin",
}
#: The policy of every response but the page: nothing runs, nothing loads, nothing frames it.
API_POLICY = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'"


def page_policy(nonce: str) -> str:
    """The page's policy: its own origin only, its one script by ``nonce``; styles
    inline (the page's <style> and the positions the script sets)."""
    return (f"default-src 'self'; script-src 'nonce-{nonce}'; style-src 'self' 'unsafe-inline'; "
            "img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; "
            "form-action 'self'; frame-ancestors 'none'")


def _split_host(header: str) -> tuple[str, int | None] | None:
    """``(name, port)`` of a ``Host`` header (``[::1]:8000`` is ``("::1", 8000)``), None if malformed."""
    h = header.strip().lower()
    if h.startswith("["):
        end = h.find("]")
        name, rest = h[1:end], h[end + 1:]
        if end < 0 or rest and not rest.startswith(":"):
            return None
        port = rest[1:] if rest else None
    else:
        name, _, port = h.partition(":")
        port = port if ":" in h else None
    if not name or port is not None and not (port.isdigit() and len(port) <= 5):
        return None
    return name, int(port) if port is not None else None


class Guard:
    """The ASGI middleware in front of the table: only the hosts it serves
    (``400``; a DNS-rebinding page names another), state-changing requests
    only from its own origin (``403``) and only as JSON (``415``), and the
    security headers on every response."""

    def __init__(self, app: Any, hosts: set[str]) -> None:
        self.app, self.hosts = app, {h.lower().strip("[]") for h in hosts}

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            return await self.app(scope, receive, send)

        async def guarded(message: Any) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                names = {k.lower() for k, _ in headers}
                headers += [(k.lower().encode(), v.encode()) for k, v in HEADERS.items() if k.lower().encode() not in names]
                if b"content-security-policy" not in names:
                    headers.append((b"content-security-policy", API_POLICY.encode()))
                message = {**message, "headers": headers}
            await send(message)

        refusal = self.refusal(scope)
        if refusal is not None:
            return await refusal(scope, receive, guarded)
        started = False

        async def watched(message: Any) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await guarded(message)

        try:
            await self.app(scope, receive, watched)
        except Exception:  # never a traceback in an answer: the log has it
            logging.getLogger(__name__).exception("dragoncastle serve: a request failed")
            if not started:
                await _error(500, "the server could not answer this request")(scope, receive, guarded)

    def refusal(self, scope: Any) -> Response | None:
        headers: dict[str, str] = {}
        for k, v in scope.get("headers", []):
            headers.setdefault(k.decode("latin-1").lower(), v.decode("latin-1"))
        host = _split_host(headers.get("host", ""))
        if host is None or host[0] not in self.hosts:
            return _error(400, "this server answers only to the names it serves (its --host); "
                               "open the page at its own address")
        if scope["method"] in ("GET", "HEAD", "OPTIONS"):
            return None
        origin = headers.get("origin")
        if origin is not None and not self.own(origin, scope.get("scheme", "http"), host):
            return _error(403, "a change to the games comes only from this server's own page")
        kind = headers.get("content-type", "").split(";")[0].strip().lower()
        bodiless = headers.get("content-length", "0") == "0" and "transfer-encoding" not in headers
        if kind != "application/json" and not (bodiless and "content-type" not in headers):
            return _error(415, "the body is JSON: send it as Content-Type: application/json")
        return None

    @staticmethod
    def own(origin: str, scheme: str, host: tuple[str, int | None]) -> bool:
        """Whether ``origin`` is this server's: the same scheme, name and port as the request's ``Host``."""
        default = {"http": 80, "https": 443}
        try:
            o = urlsplit(origin)
            port = o.port if o.port is not None else default.get(o.scheme)
        except ValueError:
            return False
        name = (o.hostname or "").lower()
        return (o.scheme == scheme and name == host[0]
                and port == (host[1] if host[1] is not None else default.get(scheme)))


class _JSON(JSONResponse):
    """JSON as ASCII: any text, a lone surrogate too, encodes."""

    def render(self, content: Any) -> bytes:
        return json.dumps(content, ensure_ascii=True, allow_nan=False, separators=(",", ":")).encode("ascii")


def _error(status: int, message: str) -> Response:
    return _JSON({"error": message}, status_code=status)


def app(host: str | None = None) -> Starlette:
    """The ASGI app: the page at ``/`` and the JSON API (``docs/serve.md``).

    It answers to this machine's loopback names (:data:`LOOPBACK`) and to
    ``host`` (the address it listens on, as ``dragoncastle serve --host``
    gives it; for ``0.0.0.0`` or ``::``, this machine's name too)."""
    tables, sealer = Tables(), Sealer()
    hosts = set(LOOPBACK)
    if host in ("0.0.0.0", "::", ""):
        import socket

        hosts |= {socket.gethostname(), socket.getfqdn()}
    if host:
        hosts.add(host)

    # The form offers the cards by name: the engine's own lists, written into the page.
    # Inside a <script>, a "<" could close it; JSON reads "\u003c" as the same character.
    cards = json.dumps({"spirits": list(_core.SPIRITS), "dragons": list(_core.DRAGONS)}).replace("<", "\\u003c")
    html = resources.files(__package__).joinpath("serve.html").read_text(encoding="utf-8").replace("__CARDS__", cards)

    def page(request: Request) -> Response:
        nonce = secrets.token_urlsafe(16)
        return HTMLResponse(html.replace("<script>", f'<script nonce="{nonce}">'),
                            headers={"Content-Security-Policy": page_policy(nonce)})

    async def create(request: Request) -> Response:
        table = new_table(await _body(request), sealer)
        tables.add(table)
        _start_bots(table)
        return _JSON(public(table), status_code=201)

    def show(request: Request) -> Response:
        return _JSON(public(tables.get(request.path_params["id"])))

    async def act(request: Request) -> Response:
        table = tables.get(request.path_params["id"])
        _apply(table, await _body(request))
        _start_bots(table)
        return _JSON(public(table))

    async def hint(request: Request) -> Response:
        table = tables.get(request.path_params["id"])
        body = await _body(request)
        import anyio.to_thread

        return _JSON(await anyio.to_thread.run_sync(_hint, table, body))

    def undo(request: Request) -> Response:
        table = tables.get(request.path_params["id"])
        _undo(table)
        return _JSON(public(table))

    def saved(request: Request) -> Response:
        table = tables.get(request.path_params["id"])
        return Response(record(table, sealer) + "\n", media_type="application/x-ndjson",
                        headers={"Content-Disposition": f'attachment; filename="dragoncastle-{table.id}.jsonl"'})

    def delete(request: Request) -> Response:
        tables.remove(request.path_params["id"])
        return Response(status_code=204)

    @contextlib.asynccontextmanager
    async def lifespan(_: Any) -> Any:
        yield
        tables.stop_all()  # Ctrl-C: no bot starts another decision

    async def refused(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, TableError)
        return _error(exc.status, _clip(str(exc), 8 * ECHO))

    async def not_found(request: Request, exc: Exception) -> Response:
        status = getattr(exc, "status_code", 404)
        return _JSON({"error": getattr(exc, "detail", "not found")}, status_code=status)

    routes = [
        Route("/", page),
        Route("/api/games", create, methods=["POST"]),
        Route("/api/games/{id}", show, methods=["GET"]),
        Route("/api/games/{id}", delete, methods=["DELETE"]),
        Route("/api/games/{id}/actions", act, methods=["POST"]),
        Route("/api/games/{id}/hint", hint, methods=["POST"]),
        Route("/api/games/{id}/undo", undo, methods=["POST"]),
        Route("/api/games/{id}/record", saved, methods=["GET"]),
    ]
    web = Starlette(routes=routes, exception_handlers={TableError: refused, 404: not_found, 405: not_found},
                    lifespan=lifespan)
    web.state.tables = tables
    web.add_middleware(Guard, hosts=hosts)
    return web


def main(host: str = "127.0.0.1", port: int = 8000, open_browser: bool = False) -> None:
    """Run the table with uvicorn until Ctrl-C."""
    import uvicorn

    if open_browser:
        import webbrowser

        threading.Timer(1.0, webbrowser.open, args=(f"http://{host}:{port}/",)).start()
    uvicorn.run(app(host), host=host, port=port, log_level="warning")
