"""The web table in a real browser: ``dragoncastle serve`` on a free port,
headless Chromium driven by Selenium (as ``test_replay_browser.py``). A person
plays whole games by clicking the castle tiles and Realm cells the legal moves
name (and buttons for the others); a place no legal move names does not react;
a hint, an undo and a saved game that ``dragoncastle replay`` opens."""

from __future__ import annotations

import random
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

import dragoncastle as dc
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
    proc = subprocess.Popen([sys.executable, "-m", "dragoncastle", "serve", "--port", str(port)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    url = f"http://127.0.0.1:{port}"
    for _ in range(200):
        try:
            urllib.request.urlopen(url + "/", timeout=1).read()
            break
        except OSError:
            time.sleep(0.05)
    yield url
    proc.terminate()
    proc.wait(timeout=10)


def start(browser, url, seats, seed, spirits=(), dragons=(), practice=False):
    browser.get(url + "/")
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


def saved_game(browser) -> str:
    return urllib.request.urlopen(browser.find_element(By.ID, "save").get_attribute("href")).read().decode()


def test_a_whole_solo_game_by_clicking_the_board(browser, server):
    # Two Spirits by name: a Realm cell that pays for either has a chooser.
    start(browser, server, ["human"], 5, spirits=["strength", "destruction"], dragons=["harmony"])
    checks = {"dead": 0, "cancelled": False, "chosen": 0, "board": 0}
    final = click_to_the_end(browser, random.Random(5), checks)
    assert checks["dead"] == 5 and checks["cancelled"] and checks["chosen"] > 0 and checks["board"] > 30, checks
    engine = dc.Game.from_json(saved_game(browser))
    assert engine.is_over and engine.spirits == ["strength", "destruction"] and engine.dragons == ["harmony"]
    status = browser.find_element(By.ID, "status").text
    assert final["scores"] == engine.scores() and final["rank"] == engine.rank()
    assert f"Scores: {engine.scores()[0]}." in status and f"Rank: {engine.rank()}" in status
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
    record = saved_game(browser)
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
