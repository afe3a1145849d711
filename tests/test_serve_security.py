"""The web table locked down (issue 46, "Security"): each attack of the issue
as a request through Starlette's test client (loopback names only, nothing
listens), refused with a clean JSON ``4xx`` and the game unchanged."""

from __future__ import annotations

import json
import time
import warnings

import pytest

import dragoncastle as dc

pytest.importorskip("starlette")
warnings.filterwarnings("ignore", message=".*httpx.*")
from starlette.testclient import TestClient  # noqa: E402

from dragoncastle import serve, serve_table  # noqa: E402

OWN = "http://127.0.0.1:8000"


@pytest.fixture()
def client():
    return TestClient(serve.app(), base_url=OWN, raise_server_exceptions=False)


from test_serve import wait  # noqa: E402  (the state once no bot is thinking)


# 1. Only the hosts served.

def test_a_host_the_server_does_not_serve_gets_400(client):
    for host in ["evil.example", "evil.example:8000", "127.0.0.1.evil.example", "", "[::1", "localhost:x"]:
        r = client.get("/", headers={"Host": host})
        assert r.status_code == 400 and r.json()["error"], host
        r = client.post("/api/games", json={"seats": ["human"]}, headers={"Host": host})
        assert r.status_code == 400, host
    for host in ["127.0.0.1:8000", "localhost:8000", "[::1]:8000", "LOCALHOST", "127.0.0.1"]:
        assert client.get("/", headers={"Host": host}).status_code == 200, host


def test_the_host_given_to_serve_is_served_too():
    client = TestClient(serve.app("table.lan"), base_url="http://table.lan:8000")
    assert client.get("/").status_code == 200
    assert client.get("/", headers={"Host": "evil.example"}).status_code == 400
    assert TestClient(serve.app("table.lan"), base_url=OWN).get("/").status_code == 200


# 2. Only the server's own origin changes games, and only with JSON bodies.

def test_a_change_from_another_origin_gets_403(client):
    body = {"seats": ["human"]}
    for origin in ["http://evil.example", "null", "http://127.0.0.1:8001", "https://127.0.0.1:8000",
                   "http://localhost:8000"]:
        r = client.post("/api/games", json=body, headers={"Origin": origin})
        assert r.status_code == 403 and r.json()["error"], origin
    gid = client.post("/api/games", json=body, headers={"Origin": OWN}).json()["id"]
    assert client.post("/api/games", json=body).status_code == 201  # scripts send no Origin
    r = client.delete(f"/api/games/{gid}", headers={"Origin": "http://evil.example"})
    assert r.status_code == 403 and client.get(f"/api/games/{gid}").status_code == 200
    r = client.post(f"/api/games/{gid}/actions", json={"action": 0}, headers={"Origin": "http://evil.example"})
    assert r.status_code == 403
    assert client.delete(f"/api/games/{gid}", headers={"Origin": OWN}).status_code == 204


def test_a_body_that_is_not_json_gets_415(client):
    # The repro: a script-free form posts text/plain from any site.
    text = '{"seats":["mcts:time=0.2","mcts:time=0.2"]}'
    for kind in ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", None]:
        headers = {"Content-Type": kind} if kind else {}
        r = client.post("/api/games", content=text.encode(), headers=headers)
        assert r.status_code == 415 and r.json()["error"], kind
    r = client.post("/api/games", content=text.encode(), headers={"Content-Type": "application/json; charset=utf-8"})
    assert r.status_code == 201
    gid = r.json()["id"]
    assert client.post(f"/api/games/{gid}/undo", headers={"Content-Type": "text/plain"}).status_code == 415


# 5. Security headers.

def test_every_response_carries_the_security_headers(client):
    gid = client.post("/api/games", json={"seats": ["human"]}).json()["id"]
    responses = [client.get("/"), client.get(f"/api/games/{gid}"), client.get("/api/games/nope"),
                 client.get(f"/api/games/{gid}/record"), client.get("/", headers={"Host": "evil.example"}),
                 client.post("/api/games", content=b"x", headers={"Content-Type": "text/plain"}),
                 client.delete(f"/api/games/{gid}")]
    for r in responses:
        assert r.headers["X-Frame-Options"] == "DENY", r.url
        assert r.headers["X-Content-Type-Options"] == "nosniff"
        assert r.headers["Referrer-Policy"] == "no-referrer"
        policy = r.headers["Content-Security-Policy"]
        assert "frame-ancestors 'none'" in policy and "unsafe-eval" not in policy
    page = responses[0]
    policy = page.headers["Content-Security-Policy"]
    assert "default-src 'self'" in policy
    nonce = policy.split("'nonce-")[1].split("'")[0]
    assert len(nonce) >= 16 and f'<script nonce="{nonce}">' in page.text and "<script>" not in page.text
    script = policy.split("script-src ")[1].split(";")[0]
    assert "unsafe-inline" not in script
    assert nonce not in client.get("/").headers["Content-Security-Policy"]  # one per response


# 3. Bodies read with a bound.

def _asgi(app, method, path, chunks, headers=()):
    """One request straight to the ASGI app, its body as the chunks an iterator
    gives: the answer and how many chunks the app took."""
    import anyio

    taken, sent = [0], []
    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": method,
             "scheme": "http", "path": path, "raw_path": path.encode(), "query_string": b"", "root_path": "",
             "client": ("127.0.0.1", 5000), "server": ("127.0.0.1", 8000),
             "headers": [(b"host", b"127.0.0.1:8000"), (b"content-type", b"application/json"),
                         *[(k.encode(), v.encode()) for k, v in headers]]}

    async def receive():
        chunk = next(chunks, None)
        if chunk is None:
            return {"type": "http.request", "body": b"", "more_body": False}
        taken[0] += 1
        return {"type": "http.request", "body": chunk, "more_body": True}

    async def send(message):
        sent.append(message)

    anyio.run(app, scope, receive, send)
    status = next(m["status"] for m in sent if m["type"] == "http.response.start")
    body = b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")
    return status, json.loads(body), taken[0]


def test_a_large_chunked_body_is_refused_as_it_streams():
    # The repro: 300 MiB chunked; the server read it whole before its 413.
    chunk = b" " * (64 << 10)
    chunks = (chunk for _ in range(300 * 16))
    status, body, taken = _asgi(serve.app(), "POST", "/api/games", chunks, [("transfer-encoding", "chunked")])
    assert status == 413 and body["error"]
    assert taken * len(chunk) <= serve.MAX_BODY + len(chunk)  # stopped just past the bound
    # A declared length over the bound is refused before any of it is read.
    status, _, taken = _asgi(serve.app(), "POST", "/api/games", iter([chunk]), [("content-length", str(300 << 20))])
    assert status == 413 and taken == 0
    # Under the bound, in chunks: read whole.
    text = json.dumps({"seats": ["human"], "seed": 1}).encode()
    status, state, _ = _asgi(serve.app(), "POST", "/api/games", iter([text[:5], text[5:]]))
    assert status == 201 and state["players"] == 1


# 6. No traceback, no unbounded echo, no file path read from a request.

def test_a_lone_surrogate_gets_a_clean_4xx(client):
    # The repro: a plain-text 500 with a traceback.
    for raw in [b'{"seats":["human"],"\\ud800":1}', b'{"seats":["\\ud800"]}', b'{"seats":["human"],"layout":"\\udfff"}']:
        r = client.post("/api/games", content=raw, headers={"Content-Type": "application/json"})
        assert 400 <= r.status_code < 500 and r.json()["error"], raw
        assert "Traceback" not in r.text and r.headers["content-type"].startswith("application/json")
    gid = client.post("/api/games", json={"seats": ["human"]}).json()["id"]
    r = client.post(f"/api/games/{gid}/actions", content=b'{"action":"\\ud800"}',
                    headers={"Content-Type": "application/json"})
    assert r.status_code == 400 and r.json()["error"]


def test_an_error_never_echoes_a_request_at_length(client):
    big = "x" * (1 << 20)
    bodies = [{"seats": ["human"], big: 1}, {"seats": ["human"], "layout": big}, {"seats": ["human"], "seed": big},
              {"seats": ["human", "mcts:" + big]}, {"seats": ["human"], "record": "{" + big[:1000]},
              {"seats": ["human"], **{f"k{i}" * 40: 1 for i in range(50)}}, {"seats": ["human"], "spirits": [1] * 10000}]
    for body in bodies:
        r = client.post("/api/games", json=body)
        assert r.status_code == 422 and 0 < len(r.json()["error"]) <= 700, (r.status_code, len(r.text))
    gid = client.post("/api/games", json={"seats": ["human"]}).json()["id"]
    r = client.post(f"/api/games/{gid}/actions", json={"action": "take " + big})
    assert r.status_code == 422 and len(r.json()["error"]) <= 700
    r = client.get("/api/games/" + "y" * 5000)
    assert r.status_code == 404 and len(r.json()["error"]) <= 200
    # Keys are shown escaped: control characters and markup come back inert.
    r = client.post("/api/games", json={"seats": ["human"], "<script>\n": 1})
    assert "\n" not in r.json()["error"] and "'<script>\\n'" in r.json()["error"]


def test_a_weights_path_in_a_seat_gets_one_answer_whatever_it_names(client, tmp_path):
    (tmp_path / "w.bin").write_bytes(b"\0" * 16)
    answers = set()
    for path in [tmp_path / "w.bin", tmp_path / "missing.bin", tmp_path, "/etc/passwd"]:
        r = client.post("/api/games", json={"seats": ["human", f"mcts:time=0.1,model={path}"]})
        assert r.status_code == 422
        answers.add(r.text)
        assert str(tmp_path) not in r.text and "passwd" not in r.text
    assert len(answers) == 1
    r = client.post("/api/games", json={"seats": ["human", "mcts:time=0.1,model=builtin"]})
    assert r.status_code in (201, 422) and "weights file" not in r.text


# 4. Bounded work.

def _bot_threads(gid):
    import threading

    return [t for t in threading.enumerate() if t.name == f"dragoncastle-table-{gid}" and t.is_alive()]


def _until(condition, timeout=15.0):
    end = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > end:
            return False
        time.sleep(0.02)
    return True


def test_a_bot_searches_on_one_thread(client):
    for spec in ["mcts:time=10,threads=256", "mcts:time=1,threads=2", "plan:time=1,threads=4"]:
        seats = ["human", spec] if spec.startswith("mcts") else [spec]
        r = client.post("/api/games", json={"seats": seats})
        assert r.status_code == 422 and "one thread" in r.json()["error"], spec
    assert client.post("/api/games", json={"seats": ["human", "mcts:time=0.05,threads=1"]}).status_code == 201


@pytest.mark.parametrize("bot", ["mcts:time=10", "plan:time=10"])
def test_delete_stops_a_thinking_bot(client, bot):
    """A bot given 10 s per move stops searching within a fraction of a second
    of its game's DELETE, and its move is not played."""
    tables = client.app.state.tables.tables
    seats = [bot] if bot.startswith("plan") else [bot, "human"]
    gid = client.post("/api/games", json={"seats": seats, "seed": 1}).json()["id"]
    table = tables[gid]
    assert table.thinking and len(_bot_threads(gid)) == 1  # one thread, one search, per table
    time.sleep(0.3)
    began = time.monotonic()
    assert client.delete(f"/api/games/{gid}").status_code == 204
    assert table.stop.is_set()
    assert _until(lambda: not _bot_threads(gid), 5.0)
    assert time.monotonic() - began < 1.0
    moves = len(table.game.history)
    time.sleep(0.3)
    assert len(table.game.history) == moves and not table.thinking


def test_tables_of_bots_only_are_bounded(client, monkeypatch):
    monkeypatch.setattr(serve_table, "MAX_BOT_TABLES", 2)
    bots = {"seats": ["mcts:time=0.2", "mcts:time=0.2"]}
    ids = [client.post("/api/games", json=bots).json()["id"] for _ in range(2)]
    r = client.post("/api/games", json=bots)
    assert r.status_code == 429 and "bots only" in r.json()["error"]
    assert client.post("/api/games", json={"seats": ["human", "mcts:time=0.2"]}).status_code == 201
    client.delete(f"/api/games/{ids[0]}")
    r = client.post("/api/games", json=bots)
    assert r.status_code == 201
    for gid in [ids[1], r.json()["id"]]:
        client.delete(f"/api/games/{gid}")
        assert _until(lambda: not _bot_threads(gid), 5.0)


def test_the_server_s_shutdown_stops_the_bots():
    with TestClient(serve.app(), base_url=OWN) as client:  # runs the app's lifespan
        gid = client.post("/api/games", json={"seats": ["mcts:time=0.2", "human"], "seed": 2}).json()["id"]
        table = client.app.state.tables.tables[gid]
        assert table.thinking
    assert table.stop.is_set()
    assert _until(lambda: not _bot_threads(gid), 5.0)


def test_one_search_at_a_time_per_table(client):
    gid = client.post("/api/games", json={"seats": ["human", "greedy"], "seed": 3}).json()["id"]
    table = client.app.state.tables.tables[gid]
    table.hinting = True  # a hint's search runs
    r = client.post(f"/api/games/{gid}/hint", json={"time": 0.05})
    assert r.status_code == 409 and "one search" in r.json()["error"]
    # A move made meanwhile: the bot waits for the hint's search, then plays.
    state = client.get(f"/api/games/{gid}").json()
    while state["to_move"] == 0:
        state = client.post(f"/api/games/{gid}/actions", json={"action": state["legal"][0]["id"]}).json()
    assert state["thinking"] and not _bot_threads(gid)
    table.hinting = False
    serve._start_bots(table)
    assert not wait(client, gid)["thinking"]


def test_idle_games_expire(client, monkeypatch):
    gid = client.post("/api/games", json={"seats": ["human", "greedy"]}).json()["id"]
    table = client.app.state.tables.tables[gid]
    monkeypatch.setattr(serve_table, "IDLE_SECONDS", 0.3)
    time.sleep(0.15)
    assert client.get(f"/api/games/{gid}").status_code == 200  # a request keeps it
    time.sleep(0.15)
    assert client.get(f"/api/games/{gid}").status_code == 200
    time.sleep(0.4)
    assert client.get(f"/api/games/{gid}").status_code == 404 and table.stop.is_set()


def test_the_page_can_delete_a_game(client):
    page = client.get("/").text
    assert 'id="delete"' in page and '"DELETE"' in page


# 7. The deal stays sealed until the end; undo never crosses a reveal.

def _mid_game(client, seed=9, **extra):
    state = client.post("/api/games", json={"seats": ["human", "human"], "seed": seed, **extra}).json()
    for _ in range(4):
        state = client.post(f"/api/games/{state['id']}/actions", json={"action": state["legal"][0]["id"]}).json()
    return state


def test_a_mid_game_save_carries_the_deal_sealed(client):
    state = _mid_game(client)
    text = client.get(f"/api/games/{state['id']}/record").text
    data = json.loads(text)
    assert "seed" not in data and "deal" not in data and data["sealed"].startswith(("h1.", "g1."))
    with pytest.raises(ValueError):
        dc.Game.from_json(text)  # no page rebuilds the covered tiles from it
    assert '"seed"' not in text and "'" not in data["sealed"]  # the deal's tile codes are not readable
    # The server that sealed it continues it.
    again = client.post("/api/games", json={"seats": ["human", "human"], "record": text})
    assert again.status_code == 201 and again.json()["svg"] == state["svg"]
    # Another server (another key) refuses it, with a clear message.
    other = TestClient(serve.app(), base_url=OWN)
    r = other.post("/api/games", json={"seats": ["human", "human"], "record": text})
    assert r.status_code == 422 and "sealed by another server" in r.json()["error"]
    # The seal is bound to its moves: the same deal with other moves does not open.
    forged = dict(data, actions=data["actions"][:-1])
    r = client.post("/api/games", json={"seats": ["human", "human"], "record": json.dumps(forged)})
    assert r.status_code == 422 and "sealed" in r.json()["error"]
    r = client.post("/api/games", json={"seats": ["human", "human"], "record": json.dumps(dict(data, sealed="h1.AAAA"))})
    assert r.status_code == 422


def test_the_seed_goes_out_once_the_game_is_over(client):
    state = client.post("/api/games", json={"seats": ["human", "greedy"], "seed": 13}).json()
    while not state["over"]:
        state = wait(client, state["id"])
        if state["over"]:
            break
        state = client.post(f"/api/games/{state['id']}/actions", json={"action": state["legal"][0]["id"]}).json()
    data = json.loads(client.get(f"/api/games/{state['id']}/record").text)
    assert data["seed"] == 13 and "sealed" not in data and dc.Game.from_json(json.dumps(data)).is_over


def test_the_seal_round_trips_and_refuses_a_change():
    sealer = serve.Sealer()
    token = sealer.seal(b'{"seed": 5}' * 10, b"moves")
    assert token.startswith("h1.") and sealer.open(token, b"moves") == b'{"seed": 5}' * 10
    assert sealer.open(token, b"other moves") is None and serve.Sealer().open(token, b"moves") is None
    raw = bytearray(__import__("base64").urlsafe_b64decode(token[3:]))
    raw[20] ^= 1
    assert sealer.open("h1." + __import__("base64").urlsafe_b64encode(bytes(raw)).decode(), b"moves") is None
    assert sealer.open("h1.!!", b"moves") is None and sealer.open(7, b"moves") is None


def _take(state, game, reveals):
    """A legal take whose stack is higher than 1 (it uncovers a tile) or is 1 (it does not)."""
    for m in state["legal"]:
        a = dc.Action(m["id"])
        if a.kind.name == "TAKE" and (game.castle_height(a.space) > 1) == reveals:
            return a
    return None


def test_undo_never_crosses_a_reveal(client):
    state = client.post("/api/games", json={"seats": ["human", "human"], "seed": 17}).json()
    gid, game = state["id"], dc.Game(players=2, seed=17)
    take = _take(state, game, reveals=True)
    assert take is not None
    after = client.post(f"/api/games/{gid}/actions", json={"action": take.id}).json()
    r = client.post(f"/api/games/{gid}/undo")
    assert r.status_code == 409 and "uncovered" in r.json()["error"]
    assert client.get(f"/api/games/{gid}").json() == after  # unchanged
    # A practice table allows it, and its record says so.
    state = client.post("/api/games", json={"seats": ["human", "human"], "seed": 17, "practice": True}).json()
    client.post(f"/api/games/{state['id']}/actions", json={"action": take.id})
    undone = client.post(f"/api/games/{state['id']}/undo")
    assert undone.status_code == 200 and undone.json()["svg"] == state["svg"] and undone.json()["practice"]
    assert json.loads(client.get(f"/api/games/{state['id']}/record").text)["meta"]["practice"] is True
    assert "practice" not in json.loads(client.get(f"/api/games/{gid}/record").text)["meta"]
    r = client.post("/api/games", json={"seats": ["human"], "practice": "yes"})
    assert r.status_code == 422


def test_undo_of_a_move_that_uncovers_nothing_still_works(client):
    state = client.post("/api/games", json={"seats": ["human", "human"], "seed": 17}).json()
    take = _take(state, dc.Game(players=2, seed=17), reveals=True)
    taken = client.post(f"/api/games/{state['id']}/actions", json={"action": take.id}).json()
    quiet = next(m for m in taken["legal"] if dc.Action(m["id"]).kind.name not in ("TAKE", "DESTROY"))
    client.post(f"/api/games/{state['id']}/actions", json={"action": quiet["id"]})
    undone = client.post(f"/api/games/{state['id']}/undo")  # nothing uncovered: taken back
    assert undone.status_code == 200 and undone.json()["svg"] == taken["svg"]
    assert client.post(f"/api/games/{state['id']}/undo").status_code == 409  # the take: it uncovered a tile


def test_a_continued_save_keeps_its_reveals(client):
    # Loading a save does not wash out the reveals: undo still stops at them.
    state = client.post("/api/games", json={"seats": ["human", "human"], "seed": 17}).json()
    take = _take(state, dc.Game(players=2, seed=17), reveals=True)
    client.post(f"/api/games/{state['id']}/actions", json={"action": take.id})
    text = client.get(f"/api/games/{state['id']}/record").text
    again = client.post("/api/games", json={"seats": ["human", "human"], "record": text}).json()
    assert client.post(f"/api/games/{again['id']}/undo").status_code == 409


def test_a_bot_reading_the_true_deal_is_not_seated(client):
    r = client.post("/api/games", json={"seats": ["human", "mcts:time=0.2,determinize=false"]})
    assert r.status_code == 422 and "covered tiles" in r.json()["error"]
