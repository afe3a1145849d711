#!/usr/bin/env python3
"""How big ``dragoncastle replay``'s page is, how long it takes to write and
to open, and a screenshot of it (the README's).

    python3 benches/replay_page.py                      # 200 games, recorded first
    python3 benches/replay_page.py --record games.jsonl # a file already recorded (recorded there if missing)
    python3 benches/replay_page.py --screenshot docs/replay.png --at 0 82

Games are recorded as ``dragoncastle arena --seats mcts:iterations=1000
greedy --games N --record FILE --search-stats`` would (game k from seed k,
seats rotated). The page's size is reported with what it holds; with
Chromium and chromedriver present (the test extra's Selenium drives them),
the time until the page is ready in headless Chromium, and a screenshot of
position ``--at GAME MOVE`` when asked.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

import dragoncastle as dc
from dragoncastle.replay import write_replay


def record(path: Path, games: int, agents: list[str], threads: int) -> None:
    start = time.perf_counter()
    result = dc.arena(agents, games, seed=0, threads=threads, search_stats=5)
    path.write_text("".join(line + "\n" for line in result.records()))
    print(f"recorded {games} games of {' vs '.join(agents)} in {time.perf_counter() - start:.0f} s")


def open_in_chromium(page: Path, screenshot: Path | None, at: tuple[int, int]) -> None:
    import shutil

    from selenium import webdriver
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    binary, driver = shutil.which("chromium"), shutil.which("chromedriver")
    if not binary or not driver:
        print("no chromium / chromedriver: the page was not opened")
        return
    opts = Options()
    opts.binary_location = binary
    for arg in ["--headless=new", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--window-size=1080,830"]:
        opts.add_argument(arg)
    browser = webdriver.Chrome(service=Service(driver), options=opts)
    try:
        # The window's size includes its frame; the screenshot is the page's view, set exactly.
        browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                                {"width": 1080, "height": 830, "deviceScaleFactor": 1, "mobile": False})
        start = time.perf_counter()
        browser.get(page.as_uri() + f"#game={at[0]}&move={at[1]}")
        WebDriverWait(browser, 120).until(lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-ready") == "true")
        print(f"headless Chromium: ready {time.perf_counter() - start:.2f} s after it was asked to open the page "
              f"(the JavaScript heap then holds {browser.execute_script('return performance.memory.usedJSHeapSize') / 1e6:.0f} MB)")
        if screenshot:
            import io

            from PIL import Image

            shot = Image.open(io.BytesIO(browser.get_screenshot_as_png())).convert("RGB")
            # 256 colours hold the page exactly enough at a third of the size.
            shot.quantize(colors=256, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE).save(screenshot, optimize=True)
            print(f"screenshot of game {at[0]}, move {at[1]}: {screenshot}")
    finally:
        browser.quit()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--agents", nargs="+", default=["mcts:iterations=1000", "greedy"])
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--record", type=Path, help="the games (recorded there first if the file is missing)")
    ap.add_argument("--html", type=Path, help="where to write the page (default: a temporary file)")
    ap.add_argument("--screenshot", type=Path, help="a PNG of the page at --at")
    ap.add_argument("--at", type=int, nargs=2, default=(0, 82), metavar=("GAME", "MOVE"))
    args = ap.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="replay-page-"))
    games = args.record or tmp / "games.jsonl"
    if not games.exists():
        record(games, args.games, args.agents, args.threads)
    page = args.html or tmp / "games.html"
    start = time.perf_counter()
    stats = write_replay(games, page)
    seconds = time.perf_counter() - start
    per_game = stats.page_bytes / stats.games
    print(f"{stats.games} games, {stats.positions} positions: {stats.distinct_lines} distinct SVG lines")
    print(f"records {games.stat().st_size / 1e6:.2f} MB; page {stats.page_bytes / 1e6:.2f} MB "
          f"({per_game / 1e3:.1f} KB per game; its JSON {stats.json_bytes / 1e6:.1f} MB before gzip), "
          f"written in {seconds:.1f} s")
    open_in_chromium(page, args.screenshot, tuple(args.at))


if __name__ == "__main__":
    main()
