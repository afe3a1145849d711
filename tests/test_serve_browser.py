"""The web table in a real browser: ``dragoncastle serve`` on a free port,
headless Chromium driven by Selenium (as ``test_replay_browser.py``). A person
plays whole games by clicking the castle tiles and Realm cells the legal moves
name (and buttons for the others); a place no legal move names does not react;
a hint, an undo and a saved game that ``dragoncastle replay`` opens; the move
log's words against the engine's history, the end table against
``score_breakdown``, a phone's width without sideways scroll, a reload that
keeps the game, and the New-game dialog that suggests the strongest bots and asks
before it drops a game.

With ``DRAGONCASTLE_SCREENSHOTS=DIR`` set, the tests keep their screenshots
in DIR (the guide's, ``docs/serve.md``, come from
``DRAGONCASTLE_SCREENSHOTS=docs pytest tests/test_serve_browser.py``)."""

from __future__ import annotations

import json
import os
import random
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

import dragoncastle as dc
from dragoncastle.agents import RIVAL_DEFAULT, SOLO_DEFAULT
from dragoncastle.replay import write_replay

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")

from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import Select, WebDriverWait  # noqa: E402
from test_replay_browser import browser  # noqa: E402,F401  (the headless Chromium fixture)


@pytest.fixture(scope="module")
def server():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    errors = tempfile.TemporaryFile()  # read only if the server fails to start: a pipe nobody reads could fill
    proc = subprocess.Popen([sys.executable, "-m", "dragoncastle", "serve", "--port", str(port)],
                            stdout=subprocess.DEVNULL, stderr=errors)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60  # a loaded machine starts the server slowly
    while True:
        try:
            urllib.request.urlopen(url + "/", timeout=1).read()
            break
        except OSError:
            if proc.poll() is not None or time.monotonic() > deadline:
                why = f"exited with {proc.returncode}" if proc.poll() is not None else "no answer in 60 s"
                proc.kill()
                proc.wait(timeout=10)
                errors.seek(0)
                raise RuntimeError(f"dragoncastle serve: {why}: {errors.read().decode()[-2000:]}")
            time.sleep(0.05)
    yield url
    proc.terminate()
    proc.wait(timeout=10)
    errors.close()


def shot(browser, name: str) -> None:
    """Keep a screenshot for the guide when DRAGONCASTLE_SCREENSHOTS names a directory."""
    where = os.environ.get("DRAGONCASTLE_SCREENSHOTS")
    if where:
        browser.save_screenshot(str(Path(where) / f"{name}.png"))


def new_game_dialog(browser):
    """The New-game dialog, open (a page without a game opens it by itself)."""
    dialog = browser.find_element(By.ID, "newgame")
    if not dialog.get_attribute("open"):
        browser.find_element(By.ID, "newbtn").click()
    WebDriverWait(browser, 5).until(lambda d: dialog.get_attribute("open") is not None)
    return dialog


def start(browser, url, seats, seed, spirits=(), dragons=(), practice=False):
    browser.get(url + "/")
    new_game_dialog(browser)
    Select(browser.find_element(By.ID, "players")).select_by_visible_text(str(len(seats)))
    for i, seat in enumerate(seats):
        box = browser.find_element(By.ID, f"seat{i}")
        box.clear()
        box.send_keys(seat)
    browser.find_element(By.ID, "seed").send_keys(str(seed))
    for kind, names in (("spirits", spirits), ("dragons", dragons)):
        if names:  # the cards by name, under "or by name"
            browser.find_element(By.CSS_SELECTOR, f"#{kind[:-1]}names").find_element(By.XPATH, "..").find_element(
                By.TAG_NAME, "summary").click()
            for name in names:
                browser.find_element(By.CSS_SELECTOR, f'input[name={kind}][value="{name}"]').click()
    if practice:  # undo may cross a move that uncovered a tile
        browser.find_element(By.ID, "practice").click()
    browser.find_element(By.ID, "start").click()
    WebDriverWait(browser, 20).until(lambda d: d.execute_script("return game !== null && (game.over || game.legal.length > 0)"))


def state(browser) -> dict:
    return browser.execute_script("return game;")


def clickable(browser) -> list:
    """What a person can click: the marked places of the picture and the move buttons."""
    return (browser.find_elements(By.CSS_SELECTOR, "#board g.legal")
            + browser.find_elements(By.CSS_SELECTOR, "#moves button.move"))


def check_marks(browser, s: dict) -> None:
    """The places marked are exactly those the legal moves name, each with its moves;
    the buttons are exactly the moves that name no place; the list holds them all."""
    expected: dict = {}
    for m in s["legal"]:
        t = m["target"]
        if t:
            key = ("space", ",".join(map(str, t["space"]))) if t["where"] == "castle" else \
                  ("cell", f'{t["seat"]}:{",".join(map(str, t["cell"]))}')
            expected.setdefault(key, set()).add(m["id"])
    marked = browser.execute_script(
        "return [...document.querySelectorAll('#board g.legal')].map(g => g.dataset.space !== undefined"
        " ? ['space', g.dataset.space, g.dataset.moves] : ['cell', g.dataset.seat + ':' + g.dataset.cell, g.dataset.moves])")
    got = {(kind, where): {int(i) for i in moves.split()} for kind, where, moves in marked}
    assert len(got) == len(marked) and got == expected
    buttons = {int(b.get_attribute("data-id")) for b in browser.find_elements(By.CSS_SELECTOR, "#moves button.move")}
    assert buttons == {m["id"] for m in s["legal"] if not m["target"]}
    listed = {int(b.get_attribute("data-id")) for b in browser.find_elements(By.CSS_SELECTOR, "#all button.any")}
    assert listed == {m["id"] for m in s["legal"]}


def unchanged_after(browser, click) -> None:
    """``click`` sends nothing: the page keeps the same state and shows no chooser."""
    browser.execute_script("window.seen = game;")
    click()
    time.sleep(0.3)
    assert browser.execute_script("return game === window.seen")
    assert not browser.find_element(By.ID, "chooser").is_displayed()


def click_a_move(browser, rng: random.Random, checks: dict) -> None:
    """Click one of the clickable things at random; on a place with several moves,
    choose one in the chooser. Wait for the move to be played."""
    s = state(browser)
    check_marks(browser, s)
    before = len(s["history"])
    if checks["dead"] < 5:
        # A place no legal move names does not react.
        dead = browser.find_elements(By.CSS_SELECTOR, "#board g[data-space]:not(.legal), #board g[data-cell]:not(.legal)")
        if dead:
            unchanged_after(browser, rng.choice(dead).click)
            checks["dead"] += 1
    things = clickable(browser)
    assert things, s
    thing = rng.choice(things)
    on_board = thing.tag_name == "g"
    thing.click()
    choices = browser.find_elements(By.CSS_SELECTOR, "#chooser button.choice")
    if choices:
        ids = [int(c.get_attribute("data-id")) for c in choices]
        assert len(ids) > 1 and set(ids) == {int(i) for i in thing.get_attribute("data-moves").split()}
        if not checks["cancelled"]:  # cancel once: nothing is played
            unchanged_after(browser, browser.find_element(By.CSS_SELECTOR, "#chooser button.cancel").click)
            checks["cancelled"] = True
            thing.click()
            choices = browser.find_elements(By.CSS_SELECTOR, "#chooser button.choice")
        rng.choice(choices).click()
        checks["chosen"] += 1
    elif on_board:
        checks["board"] += 1
    WebDriverWait(browser, 30).until(lambda d: len(d.execute_script("return game.history")) > before
                                     or d.execute_script("return game.over"))


def click_to_the_end(browser, rng: random.Random, checks: dict) -> dict:
    """Click legal moves until the game is over."""
    for _ in range(1500):
        WebDriverWait(browser, 30).until(lambda d: d.execute_script("return game.over || game.legal.length > 0"))
        s = state(browser)
        if s["over"]:
            assert clickable(browser) == []
            return s
        click_a_move(browser, rng, checks)
    raise AssertionError("the game did not end")


def seats_of(engine) -> list[int]:
    """The seat that made each move of ``engine``'s history (undo finds it)."""
    g, seats = engine.clone(), []
    while g.history:
        g.undo()
        seats.append(g.current_player)
    return seats[::-1]


def check_log(browser, engine, who: list[str]) -> None:
    """The move log says, in order, who made each move of the engine's history and what it was."""
    shown = browser.execute_script(
        "return [...document.querySelectorAll('#log > li')].map(li => li.firstChild.textContent)")
    seats = seats_of(engine) if engine.players > 1 else [0] * len(engine.history)
    expected = [f"{'Dragon of Ingenuity' if by_dragon else who[seat]}: {a}"
                for a, by_dragon, seat in zip(engine.history, engine.history_by_dragon, seats)]
    assert shown == expected


def check_end(browser, engine, who: list[str]) -> None:
    """The end table holds every seat's score_breakdown, source by source, and stars the winners."""
    rows = browser.execute_script(
        "return [...document.querySelectorAll('#end table tr')].map(tr => [...tr.cells].map(c => c.textContent))")
    head, rows = rows[0], rows[1:]
    assert head[1:4] == ["Sets and discards", "Shrines", "Summons (Countdown)"] and head[-1] == "Total"
    for seat, row in enumerate(rows):
        b = engine.score_breakdown(seat)
        star = " \u2605" if engine.players > 1 and seat in engine.winners() else ""
        numbers = [b["vp"], b["shrines"], b["countdown"], *b["dragons"].values()] + \
            ([b["variant"]] if "variant" in b else []) + [b["total"]]
        assert row == [who[seat] + star] + [str(n) for n in numbers]
        assert b["total"] == engine.scores()[seat]
    assert len(rows) == engine.players


def no_sideways_scroll(browser) -> None:
    width, inner = browser.execute_script("return [document.documentElement.scrollWidth, window.innerWidth]")
    assert width <= inner, (width, inner)


def saved_game(browser) -> str:
    return urllib.request.urlopen(browser.find_element(By.ID, "save").get_attribute("href")).read().decode()


def test_a_whole_solo_game_by_clicking_the_board(browser, server):
    # Two Spirits by name: a Realm cell that pays for either has a chooser.
    start(browser, server, ["human"], 5, spirits=["strength", "destruction"], dragons=["harmony"])
    checks, rng = {"dead": 0, "cancelled": False, "chosen": 0, "board": 0}, random.Random(5)
    for _ in range(12):
        click_a_move(browser, rng, checks)
    # A reload keeps the game: its id is in the address.
    before = state(browser)
    assert browser.current_url.endswith("#game=" + before["id"])
    browser.refresh()
    WebDriverWait(browser, 20).until(lambda d: d.execute_script("return game !== null"))
    assert state(browser)["history"] == before["history"] and state(browser)["id"] == before["id"]
    final = click_to_the_end(browser, rng, checks)
    assert checks["dead"] == 5 and checks["cancelled"] and checks["chosen"] > 0 and checks["board"] > 30, checks
    engine = dc.Game.from_json(saved_game(browser))
    assert engine.is_over and engine.spirits == ["strength", "destruction"] and engine.dragons == ["harmony"]
    status = browser.find_element(By.ID, "status").text
    assert final["scores"] == engine.scores() and final["rank"] == engine.rank()
    assert status == f"Game over: {engine.scores()[0]} points, {engine.rank()}."
    check_log(browser, engine, ["You"])
    check_end(browser, engine, ["You"])
    reached = browser.find_elements(By.CSS_SELECTOR, "#ranks li.reached")
    assert len(reached) == 1 and reached[0].text.startswith(engine.rank() + ":")
    assert len(browser.find_elements(By.CSS_SELECTOR, "#ranks li")) == 9  # R-SOLO-5's nine ranks
    shot(browser, "serve-solo-end")
    assert [e for e in browser.get_log("browser") if e["level"] == "SEVERE"] == []


def test_two_players_against_greedy_with_a_hint_an_undo_and_a_saved_game(browser, server, tmp_path):
    start(browser, server, ["human", "greedy"], 9, practice=True)
    browser.find_element(By.ID, "hinttime").clear()
    browser.find_element(By.ID, "hinttime").send_keys("0.1")
    browser.find_element(By.ID, "hint").click()
    WebDriverWait(browser, 20).until(lambda d: "The search plays" in d.find_element(By.ID, "hintout").text)
    # The hinted move is marked where it is clicked: the place that offers it, and its button.
    hinted = browser.find_element(By.ID, "hintout").text.split("The search plays ")[1].split(" (")[0]
    move = next(m for m in state(browser)["legal"] if m["text"] == hinted)
    marked = browser.find_elements(By.CSS_SELECTOR, "#board g.hinted")
    if move["target"]:
        assert len(marked) == 1 and str(move["id"]) in marked[0].get_attribute("data-moves").split()
    else:
        assert marked == []
    buttons = browser.find_elements(By.CSS_SELECTOR, "button.hinted")
    assert buttons and all(b.get_attribute("data-id") == str(move["id"]) for b in buttons)
    before = state(browser)
    rng, checks = random.Random(9), {"dead": 0, "cancelled": False, "chosen": 0, "board": 0}
    click_a_move(browser, rng, checks)
    # The hint was for the position it was asked in: once it moved on, it is gone.
    assert browser.find_element(By.ID, "hintout").text == ""
    assert browser.find_elements(By.CSS_SELECTOR, ".hinted") == []
    WebDriverWait(browser, 20).until(lambda d: len(d.execute_script("return game.history")) > 0)
    browser.find_element(By.ID, "undo").click()
    WebDriverWait(browser, 20).until(lambda d: len(d.execute_script("return game.history")) == 0)
    assert state(browser)["legal"] == before["legal"]
    # The full list of moves, as buttons, is there too (collapsed).
    browser.find_element(By.CSS_SELECTOR, "#allmoves summary").click()
    browser.find_elements(By.CSS_SELECTOR, "#all button.any")[0].click()
    WebDriverWait(browser, 20).until(lambda d: len(d.execute_script("return game.history")) > 0)
    final = click_to_the_end(browser, rng, checks)
    assert final["over"] and "Game over" in browser.find_element(By.ID, "status").text and checks["board"] > 10
    # Hint and undo belong to a game in play.
    for control in ("hint", "undo"):
        assert not browser.find_element(By.ID, control).is_displayed()
    record = saved_game(browser)
    engine = dc.Game.from_json(record)
    check_log(browser, engine, ["You", "Bot greedy"])
    check_end(browser, engine, ["You", "Bot greedy"])
    path = tmp_path / "saved.jsonl"
    path.write_text(record)
    assert dc.Game.from_json(record).scores() == final["scores"]
    stats = write_replay(path, tmp_path / "saved.html")
    assert stats.games == 1 and Path(tmp_path / "saved.html").stat().st_size > 0
    assert [e for e in browser.get_log("browser") if e["level"] == "SEVERE"] == []


def test_the_page_runs_under_its_policy_and_deletes_its_game(browser, server):
    start(browser, server, ["human", "greedy"], 5)
    gid = state(browser)["id"]
    browser.find_element(By.ID, "delete").click()
    browser.switch_to.alert.accept()
    WebDriverWait(browser, 20).until(lambda d: "deleted" in d.find_element(By.ID, "status").text)
    try:
        urllib.request.urlopen(f"{server}/api/games/{gid}", timeout=5)
        raise AssertionError("the game is still there")
    except urllib.error.HTTPError as e:
        assert e.code == 404
    # The page's one script ran under the Content-Security-Policy: no violation reported.
    assert [e for e in browser.get_log("browser") if e["level"] == "SEVERE"] == []


def test_a_whole_game_at_a_phone_s_width(browser, server):
    """At 390×844 the page fits the screen (nothing scrolls sideways) at the
    start, mid-game and at the end, the board as wide as the screen; the last
    turn of the bot is highlighted in the log and framed on the board."""
    browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                            {"width": 390, "height": 844, "deviceScaleFactor": 2, "mobile": True})
    try:
        # Two Dragon cards: the widest end table of two seats.
        start(browser, server, ["human", "greedy"], 21, spirits=["wind"], dragons=["fortitude", "harmony"])
        no_sideways_scroll(browser)
        board = browser.execute_script("return document.querySelector('#board svg').getBoundingClientRect().width")
        assert board > 340, board
        rng, checks = random.Random(21), {"dead": 5, "cancelled": True, "chosen": 0, "board": 0}
        for _ in range(20):
            WebDriverWait(browser, 30).until(lambda d: d.execute_script("return game.over || game.legal.length > 0"))
            click_a_move(browser, rng, checks)
        WebDriverWait(browser, 30).until(lambda d: d.execute_script("return game.legal.length > 0"))
        no_sideways_scroll(browser)
        s = state(browser)
        # The bot's last turn: the run of its moves before the person's turn in progress.
        marked = browser.execute_script(
            "return [...document.querySelectorAll('#log > li')].map((li, i) => li.classList.contains('lastturn') ? i : -1)"
            ".filter(i => i >= 0)")
        bot_turn = [s["log"][i] for i in marked]
        assert marked and marked == list(range(marked[0], marked[-1] + 1))
        assert all(e["who"] == "Bot greedy" for e in bot_turn)
        assert all(e["who"] == "You" for e in s["log"][marked[-1] + 1:])
        assert marked[0] == 0 or s["log"][marked[0] - 1]["who"] == "You"
        # On the board, each place the bot's turn named (and the picture still draws) is framed.
        drawn = set()
        for e in bot_turn:
            t = e["target"]
            if t:
                where = (f'g[data-space="{t["space"][0]},{t["space"][1]}"]' if t["where"] == "castle"
                         else f'g[data-seat="{t["seat"]}"][data-cell="{t["cell"][0]},{t["cell"][1]}"]')
                drawn |= {g.id for g in browser.find_elements(By.CSS_SELECTOR, "#board " + where)}
        framed = {g.id for g in browser.find_elements(By.CSS_SELECTOR, "#board g.lastturn")}
        assert framed and framed == drawn
        assert browser.find_element(By.ID, "status").text.startswith("Your turn: ")
        shot(browser, "serve-phone")
        click_to_the_end(browser, rng, checks)
        no_sideways_scroll(browser)
        engine = dc.Game.from_json(saved_game(browser))
        check_log(browser, engine, ["You", "Bot greedy"])
        check_end(browser, engine, ["You", "Bot greedy"])
        assert "ran the Countdown out" in browser.find_element(By.ID, "end").text  # why it ended (R-END-1)
        shot(browser, "serve-phone-end")
        # The narrowest phone: the end table scrolls in its box, the page never sideways, the dialog on screen.
        browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                                {"width": 360, "height": 740, "deviceScaleFactor": 2, "mobile": True})
        no_sideways_scroll(browser)
        new_game_dialog(browser)
        left, right = browser.execute_script(
            "const r = document.getElementById('newgame').getBoundingClientRect(); return [r.left, r.right]")
        assert 0 <= left and right <= 360, (left, right)
        no_sideways_scroll(browser)
        browser.find_element(By.ID, "cancelnew").click()
    finally:
        browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
    assert [e for e in browser.get_log("browser") if e["level"] == "SEVERE"] == []


def test_the_form_suggests_the_strongest_bots_measured(browser, server):
    """Issue 48: the bot a person meets first is ``RIVAL_DEFAULT``; the list offers it first and
    ``SOLO_DEFAULT`` last (``test_serve.py`` checks that the page takes both from the package)."""
    browser.get(server + "/")
    new_game_dialog(browser)
    Select(browser.find_element(By.ID, "players")).select_by_visible_text("3")
    seats = [browser.find_element(By.ID, f"seat{i}").get_attribute("value") for i in range(3)]
    assert seats == ["human", RIVAL_DEFAULT, RIVAL_DEFAULT]
    offered = [o.get_attribute("value") for o in browser.find_elements(By.CSS_SELECTOR, "#agents option")]
    assert offered[:2] == ["human", RIVAL_DEFAULT] and offered[-1] == SOLO_DEFAULT and "greedy" in offered


def test_a_new_game_asks_before_it_drops_the_game_in_play(browser, server):
    start(browser, server, ["human", "greedy"], 4)
    first = state(browser)["id"]
    shot(browser, "serve")
    dialog = new_game_dialog(browser)
    assert browser.find_element(By.ID, "dropwarning").is_displayed()
    assert browser.find_element(By.ID, "start").text == "Drop the game in play and start"
    browser.find_element(By.ID, "cancelnew").click()  # cancel: the game goes on
    assert dialog.get_attribute("open") is None and state(browser)["id"] == first
    urllib.request.urlopen(f"{server}/api/games/{first}", timeout=5).read()
    new_game_dialog(browser)
    browser.find_element(By.ID, "start").click()
    WebDriverWait(browser, 20).until(lambda d: d.execute_script("return game.id") != first)
    try:
        urllib.request.urlopen(f"{server}/api/games/{first}", timeout=5)
        raise AssertionError("the dropped game is still there")
    except urllib.error.HTTPError as e:
        assert e.code == 404
    # The rules are at hand: each phase's prompt and the cards' effects, the engine's words.
    browser.find_element(By.ID, "rulesbtn").click()
    rules = browser.find_element(By.ID, "rules").text
    assert dc.Phase.ACTION.prompt in rules and dc.Phase.END_TURN.prompt in rules
    browser.find_element(By.ID, "closerules").click()


def test_a_file_that_is_not_a_save_is_refused_in_words(browser, server, tmp_path):
    start(browser, server, ["human", "greedy"], 4)
    playing = state(browser)["id"]
    cases = {"notjson.jsonl": "this is not a game", "forged.jsonl": json.dumps({"players": 5e7}),
             "noplayers.jsonl": "[1, 2]"}
    for name, text in cases.items():
        path = tmp_path / name
        path.write_text(text)
        new_game_dialog(browser)
        began = time.monotonic()
        browser.find_element(By.ID, "load").send_keys(str(path))
        WebDriverWait(browser, 5).until(lambda d: d.find_element(By.ID, "newerror").text)
        assert time.monotonic() - began < 5
        assert browser.find_element(By.ID, "newerror").text.startswith(f"{name} is not a game saved by this table")
        assert state(browser)["id"] == playing
        browser.find_element(By.ID, "cancelnew").click()


def test_a_saved_game_continues_with_its_own_seats(browser, server, tmp_path):
    """Loading a save fills the form with the seats it was played with (meta.agents)
    and waits for Start, which says it drops the game in play."""
    start(browser, server, ["human", "random"], 6)
    rng, checks = random.Random(6), {"dead": 5, "cancelled": True, "chosen": 0, "board": 0}
    for _ in range(6):
        WebDriverWait(browser, 30).until(lambda d: d.execute_script("return game.over || game.legal.length > 0"))
        click_a_move(browser, rng, checks)
    WebDriverWait(browser, 30).until(lambda d: d.execute_script("return game.legal.length > 0"))
    before = state(browser)
    path = tmp_path / "saved.jsonl"
    path.write_text(saved_game(browser))
    new_game_dialog(browser)
    box = browser.find_element(By.ID, "seat1")
    box.clear()
    box.send_keys("greedy")
    browser.find_element(By.ID, "load").send_keys(str(path))
    WebDriverWait(browser, 5).until(lambda d: d.find_element(By.ID, "loaded").is_displayed())
    assert browser.find_element(By.ID, "seat1").get_attribute("value") == "random"
    assert browser.find_element(By.ID, "start").text == "Drop the game in play and continue the saved game"
    assert state(browser)["id"] == before["id"]  # nothing happens before Start
    browser.find_element(By.ID, "start").click()
    WebDriverWait(browser, 20).until(lambda d: d.execute_script("return game.id") != before["id"])
    after = state(browser)
    assert after["seats"] == ["human", "random"] and after["history"][:len(before["history"])] == [
        {**h, "search": None} for h in before["history"]]
