"""The web table's JSON API (``dragoncastle serve``, ``docs/serve.md``; API.md,
"The web table"), through Starlette's test client: every endpoint, every
refusal (4xx with a JSON error, the game unchanged, never a 500), whole games
against the bots, and the hidden-information guarantee."""

from __future__ import annotations

import json
import random
import time
import warnings

import pytest

import dragoncastle as dc
from dragoncastle.agents import from_spec

pytest.importorskip("starlette")
warnings.filterwarnings("ignore", message=".*httpx.*")
from starlette.testclient import TestClient  # noqa: E402

from dragoncastle import serve, serve_table  # noqa: E402


@pytest.fixture()
def client():
    return TestClient(serve.app(), base_url="http://127.0.0.1:8000", raise_server_exceptions=False)


def wait(client, game_id, timeout=60.0):
    """The state once no bot is thinking."""
    end = time.monotonic() + timeout
    while True:
        state = client.get(f"/api/games/{game_id}").json()
        if not state["thinking"] or time.monotonic() > end:
            return state
        time.sleep(0.02)


def play_person(client, state, pick=lambda legal: legal[-1]):
    """Play the person's moves (the last legal one each time) to the end."""
    while not state["over"]:
        state = wait(client, state["id"])
        if state["over"]:
            break
        assert state["legal"], state
        r = client.post(f"/api/games/{state['id']}/actions", json={"action": pick(state["legal"])["id"]})
        assert r.status_code == 200, r.text
        state = r.json()
    return state


def test_the_page_takes_its_default_bots_from_the_package(monkeypatch):
    """Issue 48: the form's suggestions are ``RIVAL_DEFAULT`` and ``SOLO_DEFAULT`` as the
    package has them, written in with the card words, not a list of the page's own."""
    monkeypatch.setattr(serve, "RIVAL_DEFAULT", "mcts:time=2")
    monkeypatch.setattr(serve, "SOLO_DEFAULT", "plan:time=2")
    page = TestClient(serve.app(), base_url="http://127.0.0.1:8000").get("/").text
    assert '"bots": {"rivals": "mcts:time=2", "solo": "plan:time=2"}' in page
    assert "mcts:time=1" not in page and "plan:time=1" not in page
    script = page[page.index("const WORDS"):]
    assert "</" not in script[:script.index("\n")]  # the written-in words cannot close the script


def test_the_page_and_every_endpoint(client):
    page = client.get("/")
    assert page.status_code == 200 and "<svg" not in page.text and "/api/games" in page.text
    # A practice table: its undo may take back a move that uncovered a tile.
    r = client.post("/api/games", json={"seats": ["human", "greedy"], "seed": 7, "practice": True})
    assert r.status_code == 201
    state = r.json()
    for key in ("id", "to_move", "phase", "over", "scores", "legal", "svg"):
        assert key in state
    gid = state["id"]
    assert client.get(f"/api/games/{gid}").json()["legal"] == state["legal"]
    first = state["legal"][0]
    after = client.post(f"/api/games/{gid}/actions", json={"action": first["text"]}).json()
    assert after["history"][0]["action"] == {"id": first["id"], "text": first["text"]}
    hint = client.post(f"/api/games/{gid}/hint", json={"time": 0.05})
    assert hint.status_code == 200 and hint.json()["top"][0]["visits"] > 0
    undone = client.post(f"/api/games/{gid}/undo").json()
    assert undone["history"] == [] and undone["legal"] == state["legal"]
    saved = client.get(f"/api/games/{gid}/record")
    assert saved.status_code == 200 and json.loads(saved.text)["actions"] == []  # mid-game: the deal sealed
    again = client.post("/api/games", json={"seats": ["human", "greedy"], "record": saved.text})
    assert again.status_code == 201 and again.json()["svg"] == undone["svg"]
    assert client.delete(f"/api/games/{gid}").status_code == 204
    assert client.get(f"/api/games/{gid}").status_code == 404


def test_a_whole_game_against_greedy_scores_as_the_engine(client):
    state = client.post("/api/games", json={"seats": ["human", "greedy"], "seed": 11}).json()
    state = play_person(client, state)
    record = client.get(f"/api/games/{state['id']}/record").text
    replayed = dc.Game.from_json(record)  # the engine replays the saved game
    assert replayed.is_over and replayed.scores() == state["scores"] and replayed.winners() == state["winners"]
    meta = json.loads(record)["meta"]
    assert meta["agents"] == ["human", "greedy"]
    assert [h["seat"] for h in state["history"]].count(1) > 10  # greedy played its seat


def test_a_solo_game_ends_with_its_rank_and_undo_takes_back_a_person_s_decision(client):
    state = client.post("/api/games", json={"seats": ["human"], "seed": 3, "practice": True}).json()
    gid = state["id"]
    for _ in range(6):
        state = client.post(f"/api/games/{gid}/actions", json={"action": state["legal"][0]["id"]}).json()
    before = client.get(f"/api/games/{gid}").json()
    client.post(f"/api/games/{gid}/actions", json={"action": before["legal"][-1]["id"]})
    assert client.post(f"/api/games/{gid}/undo").json()["svg"] == before["svg"]
    state = play_person(client, before)
    assert state["rank"] == dc.solo_rank(state["scores"][0])


def test_bots_move_on_their_own_and_show_their_search(client):
    state = client.post("/api/games", json={"seats": ["mcts:time=0.01", "human"], "seed": 4}).json()
    assert state["thinking"] or state["history"]
    state = wait(client, state["id"])
    assert state["to_move"] == 1 and state["legal"]
    searched = [h["search"] for h in state["history"] if h["seat"] == 0]
    assert searched and all(s["iterations"] > 0 and s["top"] for s in searched)
    # A finished game, saved with the bot's statistics, opens in the replay page.
    state = play_person(client, state)
    record = client.get(f"/api/games/{state['id']}/record").text
    from dragoncastle.replay import parse_record

    rec, _ = parse_record(record, "saved")
    assert len(rec.search) == len(rec.actions)


def test_a_saved_game_continues(client):
    state = client.post("/api/games", json={"seats": ["human", "human"], "seed": 8}).json()
    for _ in range(5):
        state = client.post(f"/api/games/{state['id']}/actions", json={"action": state["legal"][0]["id"]}).json()
    record = client.get(f"/api/games/{state['id']}/record").text
    again = client.post("/api/games", json={"seats": ["human", "human"], "record": record})
    assert again.status_code == 201
    assert again.json()["svg"] == state["svg"] and again.json()["history"] == state["history"]
    # With a bot in the seat to move, it takes the game on from there.
    bot = client.post("/api/games", json={"seats": ["human", "greedy"], "record": record}).json()
    bot = wait(client, bot["id"])
    assert bot["history"][:5] == state["history"] and bot["history"][5]["seat"] == 1


def test_every_legal_move_names_its_place_on_the_picture(client):
    # Cards by name (the form's "or by name"): every kind of target comes up.
    page = client.get("/")
    assert all(f'"{name}"' in page.text for name in dc.SPIRITS + dc.DRAGONS) and "__CARDS__" not in page.text
    body = {"seats": ["human", "human"], "seed": 12, "spirits": ["wind", "strength", "destruction"],
            "dragons": ["humility"]}
    state = client.post("/api/games", json=body).json()
    # Mostly greedy's moves (random ones seldom make a set, so no Shrine), a fifth at random; both seeded, so
    # the game and the kinds of move it offers are the same on every run (unseeded greedy breaks ties at random).
    game = dc.Game(players=2, seed=12, spirits=body["spirits"], dragons=body["dragons"])
    rng, seen, greedy = random.Random(5), set(), from_spec("greedy", seed=0)
    while not state["over"]:
        seat = state["to_move"]
        for m in state["legal"]:
            a, t = dc.Action(m["id"]), m["target"]
            if a.space is not None:
                assert t == {"where": "castle", "space": list(a.space)}
                assert f'<g data-space="{a.space[0]},{a.space[1]}">' in state["svg"]
            elif a.cell is not None or a.pay_cell is not None:
                cell = a.cell if a.cell is not None else a.pay_cell
                assert t == {"where": "realm", "seat": seat, "cell": list(cell)}
                assert f'<g data-seat="{seat}" data-cell="{cell[0]},{cell[1]}">' in state["svg"]
            else:
                assert t is None and a.kind.name in ("SUMMON", "DISCARD", "TAKE_SHRINE", "DONE", "SPIRIT"), m
            seen.add((a.kind.name, None if t is None else t["where"]))
        assert {m["id"] for m in state["legal"]} == {a.id for a in game.legal_actions()}
        action = dc.Action(rng.choice(state["legal"])["id"]) if rng.random() < 0.2 else greedy.act(game)
        game.apply(action)
        state = client.post(f"/api/games/{state['id']}/actions", json={"action": action.id}).json()
    for kind in [("TAKE", "castle"), ("PLACE", "realm"), ("SHRINE", "realm"), ("SUMMON", None), ("DONE", None),
                 ("DISCARD", None), ("TAKE_SHRINE", None), ("SPIRIT", "realm"), ("SPIRIT", None), ("DESTROY", "castle"),
                 ("FLIP", "realm"), ("SHRINE_FROM", "realm"), ("SHRINE_TO", "realm"), ("MOVE_FROM", "realm"),
                 ("MOVE_TO", "realm")]:
        assert kind in seen, kind
    record = dc.Game.from_json(client.get(f"/api/games/{state['id']}/record").text)
    assert record.spirits == body["spirits"] and record.dragons == body["dragons"]


def test_bad_requests_get_a_4xx_with_a_reason_and_change_nothing(client):
    state = client.post("/api/games", json={"seats": ["human", "greedy"], "seed": 5}).json()
    gid = state["id"]
    bad_settings = [
        [], {"seats": []}, {"seats": ["human"] * 5}, {"seats": ["nobody"]}, {"seats": ["human"], "colour": "red"},
        {"seats": ["plan:time=1", "human"]}, {"seats": ["human", "mcts:iterations=10"]},
        {"seats": ["human", "mcts:time=100"]}, {"seats": ["plan:oracle=true,time=1"]},
        {"seats": ["human", "mcts:time=1,model=builtin"]}, {"seats": ["human"], "seed": -1},
        {"seats": ["human"], "seed": True}, {"seats": ["human"], "spirits": 11}, {"seats": ["human"], "spirits": ["nope"]},
        {"seats": ["human"], "dragons": ["wind"]}, {"seats": ["human"], "layout": 3},
        {"seats": ["human", "human"], "solo_variant": True}, {"seats": ["human"], "record": "{}"},
    ]
    for body in bad_settings:
        r = client.post("/api/games", json=body)
        assert r.status_code == 422 and r.json()["error"], (body, r.status_code, r.text)
    cases = [
        ("post", f"/api/games/{gid}/actions", {"action": "take 99,99"}, 422),
        ("post", f"/api/games/{gid}/actions", {"action": "fly away"}, 422),
        ("post", f"/api/games/{gid}/actions", {"action": 10**30}, 422),
        ("post", f"/api/games/{gid}/actions", {"action": True}, 422),
        ("post", f"/api/games/{gid}/actions", {"move": 1}, 422),
        ("post", f"/api/games/{gid}/actions", [], 422),
        ("post", f"/api/games/{gid}/hint", {"time": 0}, 422),
        ("post", f"/api/games/{gid}/hint", {"time": 1000}, 422),
        ("post", f"/api/games/{gid}/undo", None, 409),
        ("get", "/api/games/nope", None, 404),
        ("post", "/api/games/nope/actions", {"action": 1}, 404),
        ("delete", "/api/games/nope", None, 404),
        ("get", "/api/nowhere", None, 404),
    ]
    for method, path, body, status in cases:
        r = getattr(client, method)(path, **({} if body is None else {"json": body}))
        assert r.status_code == status and r.json()["error"], (path, body, r.status_code, r.text)
    as_json = {"Content-Type": "application/json"}
    r = client.post(f"/api/games/{gid}/actions", content=b"{not json", headers=as_json)
    assert r.status_code == 400 and r.json()["error"]
    r = client.post(f"/api/games/{gid}/actions", content=b"[" * 100_000, headers=as_json)
    assert r.status_code == 400
    assert client.get(f"/api/games/{gid}").json() == state  # nothing changed
    # Not the person's turn: seat 0 a bot.
    bot_first = client.post("/api/games", json={"seats": ["mcts:time=0.5", "human"], "seed": 5}).json()
    r = client.post(f"/api/games/{bot_first['id']}/actions", json={"action": 1})
    assert r.status_code == 409


def test_no_response_holds_a_covered_castle_tile(client):
    # Every response of a whole game equals what the same table would show if the
    # covered tiles lay otherwise (R-CASTLE-1): the twin's picture and moves are the same.
    responses = []
    state = client.post("/api/games", json={"seats": ["human", "greedy"], "seed": 21}).json()
    responses.append(json.dumps(state))
    while not state["over"]:
        state = wait(client, state["id"])
        responses.append(json.dumps(state))
        if state["over"]:
            break
        state = client.post(f"/api/games/{state['id']}/actions", json={"action": state["legal"][0]["id"]}).json()
        responses.append(json.dumps(state))
    record = client.get(f"/api/games/{state['id']}/record").text
    responses.append(record)
    assert all('"deal"' not in r for r in responses)
    # The twin test on the server's own view of positions along the game.
    game = dc.Game.from_json(record)
    replay = dc.Game(players=2, seed=21)
    differed = 0
    for k, action in enumerate(game.history):
        if k % 7 == 0 and not replay.is_over:
            twin_game = replay.determinize(k + 1)
            table = serve.Table("t", replay.clone(), ["human", "greedy"], [None, "x"])
            twin = serve.Table("t", twin_game, ["human", "greedy"], [None, "x"])
            assert serve.public(table) == serve.public(twin)
            # The twin's covered tiles do lie otherwise: a move that uncovers one shows it.
            if action in twin_game.legal_actions():
                a, b = replay.clone(), twin_game.clone()
                a.apply(action)
                b.apply(action)
                differed += a._repr_svg_() != b._repr_svg_()
        replay.apply(action)
    assert differed > 0


def test_several_games_at_once_and_a_bound_on_their_number(client, monkeypatch):
    monkeypatch.setattr(serve_table, "MAX_GAMES", 3)  # the table module owns the bounds
    ids = [client.post("/api/games", json={"seats": ["human"], "seed": k}).json()["id"] for k in range(3)]
    assert len(set(ids)) == 3
    r = client.post("/api/games", json={"seats": ["human"]})
    assert r.status_code == 429 and "delete one" in r.json()["error"]
    first = client.get(f"/api/games/{ids[0]}").json()
    client.post(f"/api/games/{ids[1]}/actions", json={"action": first["legal"][0]["id"]})
    assert client.get(f"/api/games/{ids[0]}").json() == first  # games are isolated


def test_the_state_carries_a_move_log_in_words_and_the_end_table(client):
    """The public state's `log` names every move of the game in order (the solo
    Dragon's replies included), who made it and, for a searching bot, its top
    moves in words; at the end `breakdown` is each seat's score_breakdown."""
    for seats in (["human", "mcts:time=0.05"], ["human"]):
        state = client.post("/api/games", json={"seats": seats, "seed": 5}).json()
        url = f"/api/games/{state['id']}"
        for _ in range(600):
            state = wait(client, state["id"])
            if state["over"]:
                break
            state = client.post(f"{url}/actions", json={"action": state["legal"][0]["id"]}).json()
        assert state["over"]
        record = json.loads(client.get(f"{url}/record").text)
        game = dc.Game.from_json(json.dumps(record))
        log = state["log"]
        assert [e["text"] for e in log] == [str(a) for a in game.history]
        for e, by_dragon in zip(log, game.history_by_dragon):
            if by_dragon:
                assert e["who"] == "Dragon of Ingenuity" and e["seat"] == 1
            elif e["seat"] == 0:
                assert e["who"] == "You" and e["top"] == []
            else:
                assert e["who"] == "Bot mcts:time=0.05"
        if len(seats) == 2:
            words = [t for e in log for t in e["top"]]
            # A forced move (not searched) says so; a searched one names its visits and win chance.
            assert words and all(("visits" in t and "win chance" in t) or t.endswith(": the only legal move")
                                 for t in words)
            assert any("visits" in t for t in words)
        assert state["breakdown"] == [game.score_breakdown(p) for p in range(game.players)]


def test_the_state_speaks_the_game_s_words(client):
    """The status line's parts come from the engine: `prompt` is the phase's
    own prompt (Phase.prompt), `who` names each seat as the log does, `cards`
    are the cards in play with the engine's effect text, and a solo table
    carries the rank table of R-SOLO-5 (dc.solo_rank's bands)."""
    state = client.post("/api/games", json={"seats": ["human", "greedy"], "seed": 3,
                                            "spirits": ["wind"], "dragons": ["harmony"]}).json()
    assert state["prompt"] == dc.Phase.ACTION.prompt and state["prompt"].startswith("take a top-floor tile")
    assert state["who"] == ["You", "Bot greedy"] and state["ranks"] is None and state["last_round"] is False
    assert state["cards"] == [
        {"kind": "Spirit", "name": "wind", "effect": dc.SPIRIT_EFFECTS[dc.SPIRITS.index("wind")]},
        {"kind": "Dragon", "name": "harmony", "effect": dc.DRAGON_EFFECTS[dc.DRAGONS.index("harmony")]}]
    people = client.post("/api/games", json={"seats": ["human", "human", "greedy"], "seed": 3}).json()
    assert people["who"] == ["Seat 0", "Seat 1", "Bot greedy"] and people["cards"] == []
    solo = client.post("/api/games", json={"seats": ["human"], "seed": 3}).json()
    ranks = solo["ranks"]
    assert ranks[0] == [None, 39, "Student"] and ranks[-1] == [60, None, "Diamond Dragon"]
    for lo, hi, name in ranks:  # R-SOLO-5: each band is the core's rank of every score in it
        assert all(dc.solo_rank(s) == name for s in range(lo if lo is not None else 30, (hi or 70) + 1))


def test_each_move_of_the_log_names_its_place_on_the_picture(client):
    """A log entry's `target` is where its move points on the picture, as a legal
    move's is (the page frames the last turn's places with it): a take names
    its castle space, a placement the mover's own Realm cell (R-PLACE-1)."""
    state = client.post("/api/games", json={"seats": ["human", "greedy"], "seed": 11}).json()
    state = play_person(client, state, pick=lambda legal: legal[0])
    record = dc.Game.from_json(client.get(f"/api/games/{state['id']}/record").text)
    for entry, action in zip(state["log"], record.history):
        if action.space is not None:
            assert entry["target"] == {"where": "castle", "space": list(action.space)}
        elif action.cell is not None:
            assert entry["target"] == {"where": "realm", "seat": entry["seat"], "cell": list(action.cell)}
        else:
            assert entry["target"] is None, entry
    assert {e["target"]["where"] for e in state["log"] if e["target"]} == {"castle", "realm"}


def test_undo_is_offered_exactly_where_it_is_taken(client):
    """`can_undo` is undo's own check (R-ACT-1: a take may uncover a castle tile, and
    undo never crosses that reveal off a practice table): where it is false undo
    answers 409 and changes nothing; where it is true undo would be taken."""
    state = client.post("/api/games", json={"seats": ["human", "greedy"], "seed": 13}).json()
    assert state["can_undo"] is False  # nothing to take back yet
    seen = set()
    for _ in range(40):
        state = wait(client, state["id"])
        if state["over"]:
            break
        seen.add(state["can_undo"])
        if not state["can_undo"]:
            r = client.post(f"/api/games/{state['id']}/undo")
            assert r.status_code == 409 and client.get(f"/api/games/{state['id']}").json()["history"] == state["history"]
        state = client.post(f"/api/games/{state['id']}/actions", json={"action": state["legal"][0]["id"]}).json()
    assert seen == {True, False}
    practice = client.post("/api/games", json={"seats": ["human", "greedy"], "seed": 13, "practice": True}).json()
    practice = client.post(f"/api/games/{practice['id']}/actions", json={"action": practice["legal"][0]["id"]}).json()
    practice = wait(client, practice["id"])
    assert practice["can_undo"] is True
    # Where it is offered, undo is taken.
    r = client.post(f"/api/games/{practice['id']}/undo")
    assert r.status_code == 200 and r.json()["history"] == [] and r.json()["can_undo"] is False


def test_the_end_names_the_move_that_ran_the_countdown_out(client):
    """R-END-1: the N-th Countdown token taken triggers the end (N the players; three
    in solo, R-SOLO-1), and every Summon takes one (R-ACT-5): `trigger` is the
    N-th Summon of the log, the Dragon of Ingenuity's included (null before)."""
    for seats, n in ((["human", "greedy"], 2), (["human", "greedy", "greedy"], 3), (["human"], 3)):
        state = client.post("/api/games", json={"seats": seats, "seed": 17}).json()
        assert state["trigger"] is None
        state = play_person(client, state)
        summons = [k for k, e in enumerate(state["log"]) if e["text"] == "summon"]
        assert len(summons) >= n and state["trigger"] == summons[n - 1], (seats, summons, state["trigger"])


def test_requests_are_answered_in_the_table_s_words(client):
    assert client.post("/api/games", json={"seats": ["human", " greedy"]}).json()["who"] == ["You", "Bot greedy"]
    r = client.post("/api/games", json={"seats": ["human", "mcts:time=1,determinize=false"]})
    assert r.status_code == 422 and "seat 1 reads the covered tiles" in r.json()["error"]
    gid = client.post("/api/games", json={"seats": ["human", "greedy"], "seed": 1}).json()["id"]
    r = client.post(f"/api/games/{gid}/actions", json={"action": 10**20})
    assert r.status_code == 422 and r.json()["error"] == f"not an action: an action id is 0 to {dc.NUM_ACTIONS - 1}"
    hint = client.post(f"/api/games/{gid}/hint", json={"time": 0.05}).json()
    assert len(hint["words"]) == len(hint["top"]) and all("win chance" in w for w in hint["words"])


def test_the_rules_help_lists_every_phase():
    """The Rules dialog lists every phase a person meets (all but GAME_OVER), each with the
    core's prompt; the phases are the engines' own (the reference engine's list)."""
    from dragoncastle.reference.phase import Phase as ReferencePhase

    assert sorted(serve.PHASES) == sorted(p.name for p in ReferencePhase if p.name != "GAME_OVER")
    assert all(getattr(dc.Phase, name).prompt for name in serve.PHASES)
