"""``dragoncastle replay``'s page in a real browser: headless Chromium driven
by Selenium, from Debian's ``chromium`` and ``chromium-driver`` packages.

The README's test command installs them when missing, so CI always has them:
a missing browser fails these tests instead of skipping them.
"""

from __future__ import annotations

import io
import json
import shutil
from pathlib import Path

import pytest

import dragoncastle as dc
from dragoncastle.replay import write_replay

from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select, WebDriverWait

AGENTS = ["mcts:iterations=40,rollout=random", "greedy"]


def browser_paths() -> tuple[str, str]:
    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    driver = shutil.which("chromedriver")
    if not browser or not driver:
        pytest.fail("the replay page is tested in headless Chromium: apt-get install -y chromium chromium-driver "
                    "(the README's test command installs them)")
    return browser, driver


@pytest.fixture(scope="module")
def browser():
    binary, driver = browser_paths()
    opts = Options()
    opts.binary_location = binary
    # --no-sandbox: CI runs as root, where Chromium's sandbox refuses to start.
    for arg in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1400,1000"]:
        opts.add_argument(arg)
    opts.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    d = webdriver.Chrome(service=Service(driver), options=opts)
    yield d
    d.quit()


@pytest.fixture(scope="module")
def games(tmp_path_factory) -> tuple[Path, list[dict]]:
    """A page of two recorded games with the search's statistics, and the records."""
    tmp = tmp_path_factory.mktemp("replay")
    path = tmp / "games.jsonl"
    lines = list(dc.arena(AGENTS, 2, seed=8, threads=1, search_stats=5).records())
    path.write_text("".join(line + "\n" for line in lines))
    page = tmp / "games.html"
    write_replay(path, page)
    return page, [json.loads(line) for line in lines]


def errors(browser) -> list[dict]:
    return [e for e in browser.get_log("browser") if e["level"] == "SEVERE"]


def open_page(browser, page: Path, address: str = ""):
    browser.get(page.as_uri() + address)
    WebDriverWait(browser, 30).until(lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-ready") == "true")


def counter(browser) -> str:
    return browser.find_element(By.ID, "counter").text


def picture(browser) -> str:
    return browser.find_element(By.ID, "board").get_attribute("innerHTML")


def test_the_page_steps_through_the_games(browser, games):
    page, records = games
    open_page(browser, page)
    assert errors(browser) == []
    decisions = len(records[0]["meta"]["search"])
    assert counter(browser).startswith(f"move 0 / {decisions} ")
    start = picture(browser)
    assert start.startswith("<svg") and "Last move: none" in start

    body = browser.find_element(By.TAG_NAME, "body")
    body.send_keys(Keys.ARROW_RIGHT)
    assert counter(browser).startswith("move 1 /")
    first = picture(browser)
    assert first != start and "Last move: seat 0" in first
    browser.find_element(By.ID, "next").click()
    assert counter(browser).startswith("move 2 /") and picture(browser) != first
    browser.find_element(By.ID, "prev").click()
    assert counter(browser).startswith("move 1 /") and picture(browser) == first
    body.send_keys(Keys.END)
    assert counter(browser).startswith(f"move {decisions} /") and "Game over" in picture(browser)
    assert browser.find_element(By.ID, "next").get_attribute("disabled") is not None
    body.send_keys(Keys.HOME)
    assert counter(browser).startswith("move 0 /") and picture(browser) == start

    # The move list jumps; the picture shows the move clicked as the last one.
    item = browser.find_element(By.CSS_SELECTOR, '#moves li[data-k="17"]')
    item.click()
    assert counter(browser).startswith("move 17 /") and "current" in item.get_attribute("class")
    number, _, seat, text = item.text.split(maxsplit=3)
    assert number == "17" and f"Last move: seat {seat} {text}" in picture(browser)
    slider = browser.find_element(By.ID, "slider")
    slider.send_keys(Keys.ARROW_RIGHT)
    assert counter(browser).startswith("move 18 /")

    # The search's statistics of the decision taken from the position shown.
    search = records[0]["meta"]["search"]
    k = next(i for i, d in enumerate(search) if d and d["iterations"] > 0 and len(d["top"]) >= 3)
    browser.find_element(By.CSS_SELECTOR, f'#moves li[data-k="{k}"]').click()
    box = browser.find_element(By.ID, "search")
    rows = box.find_elements(By.CSS_SELECTOR, "tr")[1:]
    top = search[k]["top"]
    assert len(rows) == len(top)
    cells = [r.find_elements(By.TAG_NAME, "td") for r in rows]
    assert [int(c[1].text) for c in cells] == [m[1] for m in top]
    assert [c[0].text.rstrip(" ✓") for c in cells] == [str(dc.Action.from_id(m[0])) for m in top]
    played = box.find_element(By.CSS_SELECTOR, "tr.played").text
    assert played.startswith(str(dc.Action.from_id(records[0]["actions"][k])))
    assert f"{search[k]['iterations']} iterations" in box.text
    greedy = next(i for i, d in enumerate(search) if d is None)
    browser.find_element(By.CSS_SELECTOR, f'#moves li[data-k="{greedy}"]').click()
    assert "does not search" in browser.find_element(By.ID, "search").text

    # The other game.
    info = browser.find_element(By.ID, "info").text
    Select(browser.find_element(By.ID, "game")).select_by_index(1)
    assert browser.find_element(By.ID, "info").text != info
    assert counter(browser).startswith(f"move 0 / {len(records[1]['meta']['search'])} ")
    body.send_keys(Keys.ARROW_RIGHT)
    assert counter(browser).startswith("move 1 /")
    assert errors(browser) == []


def test_the_address_opens_a_position_and_the_page_is_drawn(browser, games):
    page, _ = games
    browser.get("about:blank")
    open_page(browser, page, "#game=1&move=40")
    assert counter(browser).startswith("move 40 /")
    assert browser.find_element(By.ID, "game").get_attribute("value") == "1"
    browser.execute_script("location.hash = '#game=0&move=3'")
    WebDriverWait(browser, 10).until(lambda d: counter(d).startswith("move 3 /"))
    assert browser.find_element(By.ID, "game").get_attribute("value") == "0"
    browser.execute_script("location.hash = '#game=0&move=40'")
    WebDriverWait(browser, 10).until(lambda d: counter(d).startswith("move 40 /"))
    from PIL import Image

    shot = Image.open(io.BytesIO(browser.get_screenshot_as_png())).convert("RGB")
    colours = {c: n for n, c in shot.getcolors(maxcolors=1 << 24)}
    # A drawn board: many colours (six tile types, text, marks), much of it not white.
    assert len(colours) > 200
    assert colours.get((255, 255, 255), 0) < 0.85 * shot.width * shot.height
    assert errors(browser) == []
