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

import contextlib
import json
import logging
import secrets
import threading
from importlib import resources
from typing import Any
from urllib.parse import urlsplit

from . import _core
from .agents import RIVAL_DEFAULT, SOLO_DEFAULT
from .serve_bots import _hint, _start_bots
from .serve_seal import Sealer
from .serve_table import (ECHO, HUMAN, LOOPBACK, MAX_BOT_SECONDS, MAX_GAMES, MAX_RECORD, Table, TableError, Tables, _apply, _clip,
                          _undo, new_table, record)
from .serve_view import public

#: The phases the rules help lists, in the order a turn meets them (the Spirit cards' own
#: steps last); each with the engine's prompt.
PHASES = ("ACTION", "COMPLETE", "PLACE", "SPIRITS", "SHRINE", "END_TURN", "DESTROY", "WIND", "WIND_TO",
          "STRENGTH", "STRENGTH_TO", "SET", "CHANGE", "CUNNING")

try:
    from starlette.applications import Starlette
    from starlette.requests import Request
    from starlette.responses import HTMLResponse, JSONResponse, Response
    from starlette.routing import Route
except ImportError as _missing:  # pragma: no cover - the extra is missing
    raise ImportError('dragoncastle serve needs the web extra: pip install ".[web]"') from _missing

__all__ = ["app", "main", "MAX_GAMES", "MAX_BOT_SECONDS", "HUMAN", "LOOPBACK", "Sealer", "Table", "public"]

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

    # The form offers the cards by name and suggests the strongest bots measured, and the rules
    # help lists the phases and the cards' effects: the package's own words, written into the
    # page. Inside a <script>, a "<" could close it; JSON reads "\u003c" as the same character.
    words = json.dumps({
        "spirits": list(zip(_core.SPIRITS, _core.SPIRIT_EFFECTS)),
        "dragons": list(zip(_core.DRAGONS, _core.DRAGON_EFFECTS)),
        "phases": [[p.name, p.prompt] for p in (getattr(_core.Phase, n) for n in PHASES)],
        "max_record": MAX_RECORD,
        "bots": {"rivals": RIVAL_DEFAULT, "solo": SOLO_DEFAULT},
    }).replace("<", "\\u003c")
    html = resources.files(__package__).joinpath("serve.html").read_text(encoding="utf-8").replace("__WORDS__", words)

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
