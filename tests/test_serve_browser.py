"""The web table in a real browser: ``dragoncastle serve`` on a free port,
headless Chromium driven by Selenium (as ``test_replay_browser.py``). A person
plays whole games by clicking the legal moves; a hint, an undo and a saved game
that ``dragoncastle replay`` opens."""

from __future__ import annotations

import socket
import subprocess
import sys
import time
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


def start(browser, url, seats, seed):
    browser.get(url + "/")
    Select(browser.find_element(By.ID, "players")).select_by_visible_text(str(len(seats)))
    for i, seat in enumerate(seats):
        box = browser.find_element(By.ID, f"seat{i}")
        box.clear()
        box.send_keys(seat)
    browser.find_element(By.ID, "seed").send_keys(str(seed))
    browser.find_element(By.ID, "start").click()
    WebDriverWait(browser, 20).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#moves button.move")
                                     or "over" in d.find_element(By.ID, "status").text)


def state(browser) -> dict:
    return browser.execute_script("return game;")


def click_to_the_end(browser) -> dict:
    """Click a legal move (the last shown) until the game is over."""
    for _ in range(400):
        s = state(browser)
        if s["over"]:
            return s
        WebDriverWait(browser, 30).until(lambda d: d.execute_script("return game.over")
                                         or d.find_elements(By.CSS_SELECTOR, "#moves button.move"))
        buttons = browser.find_elements(By.CSS_SELECTOR, "#moves button.move")
        if buttons:
            before = len(state(browser)["history"])
            ids = {int(b.get_attribute("data-id")) for b in buttons}
            assert ids == {m["id"] for m in state(browser)["legal"]}  # only the legal moves are clickable
            buttons[-1].click()
            WebDriverWait(browser, 30).until(lambda d: len(d.execute_script("return game.history")) > before
                                             or d.execute_script("return game.over"))
    raise AssertionError("the game did not end")


def test_a_whole_solo_game_by_clicking(browser, server):
    start(browser, server, ["human"], 5)
    final = click_to_the_end(browser)
    status = browser.find_element(By.ID, "status").text
    assert f"Rank: {dc.solo_rank(final['scores'][0])}" in status and str(final["scores"][0]) in status
    assert [e for e in browser.get_log("browser") if e["level"] == "SEVERE"] == []


def test_two_players_against_greedy_with_a_hint_an_undo_and_a_saved_game(browser, server, tmp_path):
    start(browser, server, ["human", "greedy"], 9)
    browser.find_element(By.ID, "hinttime").clear()
    browser.find_element(By.ID, "hinttime").send_keys("0.1")
    browser.find_element(By.ID, "hint").click()
    WebDriverWait(browser, 20).until(lambda d: "The search plays" in d.find_element(By.ID, "hintout").text)
    before = state(browser)
    browser.find_elements(By.CSS_SELECTOR, "#moves button.move")[0].click()
    WebDriverWait(browser, 20).until(lambda d: len(d.execute_script("return game.history")) > 0)
    browser.find_element(By.ID, "undo").click()
    WebDriverWait(browser, 20).until(lambda d: len(d.execute_script("return game.history")) == 0)
    assert state(browser)["legal"] == before["legal"]
    final = click_to_the_end(browser)
    assert final["over"] and "Game over" in browser.find_element(By.ID, "status").text
    record = urllib.request.urlopen(browser.find_element(By.ID, "save").get_attribute("href")).read().decode()
    path = tmp_path / "saved.jsonl"
    path.write_text(record)
    assert dc.Game.from_json(record).scores() == final["scores"]
    stats = write_replay(path, tmp_path / "saved.html")
    assert stats.games == 1 and Path(tmp_path / "saved.html").stat().st_size > 0
    assert [e for e in browser.get_log("browser") if e["level"] == "SEVERE"] == []
