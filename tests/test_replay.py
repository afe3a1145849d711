"""Looking at games (issue 22): the picture of a position and ``dragoncastle
replay``'s page, without a browser (tests/test_replay_browser.py drives one).
The records' search statistics (``--search-stats``) are tested with the arena
(test_arena.py) and its command line (test_cli.py)."""

from __future__ import annotations

import base64
import gzip
import json
import re
import subprocess
import sys
from pathlib import Path
from xml.etree import ElementTree

import pytest

import dragoncastle as dc
from dragoncastle.cli import main
from dragoncastle.replay import RecordedGame, ReplayError, read_games, replay_page, write_replay

SEARCHING = ["mcts:iterations=40,rollout=random", "greedy"]


def record(path: Path, agents=SEARCHING, games=2, seed=0, **kw) -> list[str]:
    lines = list(dc.arena(agents, games, seed=seed, threads=1, **kw).records())
    path.write_text("".join(line + "\n" for line in lines))
    return lines


def page_data(page: str) -> dict:
    """The JSON document inside a page (what the page's script inflates)."""
    packed = re.search(r'<script id="data" type="application/octet-stream">([^<]*)</script>', page).group(1)
    return json.loads(gzip.decompress(base64.b64decode(packed)))


def expand(edits: list[list[int]]) -> list[list[int]]:
    """The page's own expansion of a game's frames (the script's ``expand``)."""
    out = [edits[0]]
    for ed in edits[1:]:
        prev, cur, i, e = out[-1], [], 0, 0
        while e < len(ed):
            start, removed, added = ed[e:e + 3]
            cur += prev[i:start] + ed[e + 3:e + 3 + added]
            i, e = start + removed, e + 3 + added
        out.append(cur + prev[i:])
    return out


# ---- the picture

def test_every_picture_is_well_formed_and_marks_the_last_move():
    g = dc.Game(players=3, seed=4, spirits=2, dragons=2)
    agent = dc.agents.GreedyAgent(1)
    assert "Last move: none" in g._repr_svg_()
    while not g.is_over:
        seat = g.current_player
        a = agent.act(g)
        g.apply(a)
        svg = g._repr_svg_()
        root = ElementTree.fromstring(svg)
        assert root.tag == "{http://www.w3.org/2000/svg}svg"
        assert f"Last move: seat {seat} {a}" in svg
        # Whose turn and the phase, in words and in the picture's title.
        title = root.find("{http://www.w3.org/2000/svg}title").text
        if not g.is_over:
            last_round = " · last round" if g.end_triggered else ""  # R-END-1
            assert title == f"Turn {g.turn + 1} · seat {g.current_player} to move · {g.phase.name}{last_round}"
    assert "Game over" in g._repr_svg_() and "winner" in g._repr_svg_()


# ---- reading records

def test_read_games_gives_each_games_start_and_decisions(tmp_path):
    path = tmp_path / "g.jsonl"
    lines = record(path, ["mcts:iterations=30"], games=2, seed=3, search_stats=2)  # solo: the Dragon moves too
    games = read_games(path)
    assert [g.number for g in games] == [0, 1]
    for rec, line in zip(games, lines):
        final = dc.Game.from_json(line)
        assert rec.start.turn == 0 and rec.start.history == []
        g = rec.start.clone()
        for a in rec.actions:
            g.apply(a)
        assert g.to_json() == final.to_json()
        assert len(rec.actions) < len(final.history)  # the Dragon's moves are not decisions
        assert rec.agents == ["mcts:iterations=30"] and len(rec.search) == len(rec.actions)
    assert [g.number for g in read_games(path, game=1)] == [1]


def test_records_without_statistics_or_meta_still_replay(tmp_path):
    """Records written before --search-stats, and plain Game.to_json lines, load and replay."""
    path = tmp_path / "old.jsonl"
    lines = record(path, ["greedy", "random"], games=1)
    g = dc.Game(players=2, seed=11)
    for _ in range(30):
        g.apply(g.legal_actions()[0])
    path.write_text(lines[0] + "\n\n" + g.to_json() + "\n")
    games = read_games(path)
    assert [(r.agents, r.search) for r in games] == [(["greedy", "random"], None), (None, None)]
    assert [len(r.actions) for r in games] == [len(json.loads(lines[0])["actions"]), 30]
    page, stats = replay_page(games)
    data = page_data(page)
    assert [gd["search"] for gd in data["games"]] == [None, None]
    assert stats.positions == sum(len(r.actions) + 1 for r in games)


# ---- the page

def test_the_page_holds_every_position_as_the_engine_draws_it(tmp_path):
    path = tmp_path / "g.jsonl"
    record(path, SEARCHING, games=2, search_stats=3, spirits=1, dragons=1)
    games = read_games(path)
    page, stats = replay_page(games, title="t")
    data = page_data(page)
    assert stats.games == len(data["games"]) == 2 and stats.distinct_lines == len(data["lines"])
    for rec, gd in zip(games, data["games"]):
        frames = expand(gd["frames"])
        g = rec.start.clone()
        assert "\n".join(data["lines"][i] for i in frames[0]) == g._repr_svg_()
        for k, a in enumerate(rec.actions, 1):
            g.apply(a)
            assert "\n".join(data["lines"][i] for i in frames[k]) == g._repr_svg_()
            assert gd["moves"][k - 1][1] == str(a) and gd["scores"][k] == g.scores()
        assert len(frames) == len(rec.actions) + 1
        for d, raw in zip(gd["search"], rec.search):
            assert (d is None) == (raw is None)
            if d:
                assert [m[0] for m in d["top"]] == [str(dc.Action.from_id(m[0])) for m in raw["top"]]
        assert gd["agents"] == rec.agents and "seed" in gd["label"]


def test_the_page_is_self_contained():
    g = dc.Game(players=2, seed=1)
    for _ in range(10):
        g.apply(g.legal_actions()[-1])
    page, _ = replay_page([RecordedGame(0, dc.Game(players=2, seed=1), g.history)], title="<games> & more")
    # Nothing is fetched: no script, style, image or frame from elsewhere.
    assert not re.search(r"""(src|href)\s*=\s*["'](?!data:)""", page)
    assert "@import" not in page and "url(" not in page
    # The only URL is the SVG namespace, a name that no browser fetches.
    assert set(re.findall(r"https?://[^\s\"'<>)]+", page)) <= {"http://www.w3.org/2000/svg"}
    assert "<title>&lt;games&gt; &amp; more</title>" in page
    assert "DecompressionStream" in page


def test_write_replay_measures_and_stays_small(tmp_path):
    path = tmp_path / "g.jsonl"
    record(path, ["greedy", "random"], games=12, seed=100)
    out = tmp_path / "p.html"
    stats = write_replay(path, out)
    assert stats.page_bytes == out.stat().st_size and stats.games == 12
    # A bound that catches a page storing each picture whole (about 20 KB each,
    # 200 per game): shared lines and edits keep a game near 20 KB in all.
    assert stats.page_bytes < 40_000 * stats.games
    assert write_replay(path, out, game=5).games == 1
    assert len(page_data(out.read_text())["games"]) == 1


# ---- the command and its errors

def run_cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "dragoncastle", "replay", *args], capture_output=True, text=True)


def test_cli_replay_writes_the_page(tmp_path):
    path = tmp_path / "g.jsonl"
    record(path, ["greedy", "random"], games=3)
    out = tmp_path / "page.html"
    r = run_cli(str(path), "--html", str(out))
    assert r.returncode == 0, r.stderr
    assert re.fullmatch(r"wrote .*page\.html: 3 game\(s\), \d+ positions, \d+\.\d\d MB\n", r.stdout)
    assert len(page_data(out.read_text())["games"]) == 3


@pytest.mark.parametrize("content, args, message", [
    (None, [], "cannot read"),
    ("", [], "no games"),
    ('{"format": "dragoncastle-game"\n', [], "line 1: not a JSON line"),
    ("GOOD\n\n[1, 2]\n", [], "line 3: not a recorded game"),
    ('GOOD\n{"a": 1}\n', [], "line 2: invalid game JSON"),
    ("GOOD\nGOOD\n", ["--game", "2"], "has 2 game(s): --game is 0 to 1, not 2"),
    ("BAD_SEARCH\n", [], "meta.search has 1 entries for"),
    ("BAD_AGENTS\n", [], "meta.agents"),
])
def test_cli_replay_bad_input_is_a_clear_error(tmp_path, content, args, message):
    path = tmp_path / "g.jsonl"
    out = tmp_path / "page.html"
    if content is not None:
        good = record(tmp_path / "good.jsonl", ["greedy", "random"], games=1)[0]
        bad_search = json.loads(good)
        bad_search["meta"]["search"] = [None]
        bad_agents = json.loads(good)
        bad_agents["meta"]["agents"] = ["greedy"]
        path.write_text(content.replace("GOOD", good).replace("BAD_SEARCH", json.dumps(bad_search))
                        .replace("BAD_AGENTS", json.dumps(bad_agents)))
    r = run_cli(str(path), "--html", str(out), *args)
    assert r.returncode != 0 and "Traceback" not in r.stderr, r.stderr
    assert r.stderr.startswith("dragoncastle replay: ") and message in r.stderr, r.stderr
    assert str(path) in r.stderr or message == "cannot read"
    assert not out.exists()


def test_cli_replay_bad_arguments(tmp_path):
    path = tmp_path / "g.jsonl"
    record(path, ["greedy", "random"], games=1)
    for args, message in [(["--game", "-1"], "must be 0 or more"), (["--game", "x"], "not a whole number"), ([], "--html")]:
        r = run_cli(str(path), *(["--html", str(tmp_path / "p.html")] if args else []), *args)
        assert r.returncode == 2 and "Traceback" not in r.stderr and message in r.stderr, r.stderr
    r = run_cli(str(path), "--html", str(tmp_path / "no" / "such" / "dir" / "p.html"))
    assert r.returncode != 0 and "Traceback" not in r.stderr and "cannot write" in r.stderr, r.stderr


def test_replay_error_is_a_value_error(tmp_path):
    with pytest.raises(ValueError):
        read_games(tmp_path / "missing.jsonl")
    assert issubclass(ReplayError, ValueError)


# ---- bad input (issue 38): one line naming the file and line, never a traceback

def _searched_record(tmp_path: Path) -> dict:
    line = record(tmp_path / "good.jsonl", SEARCHING, games=1, search_stats=3)[0]
    return json.loads(line)


def _first_searched(data: dict) -> dict:
    return next(d for d in data["meta"]["search"] if d and d["top"])


def _edit_search(field: str, value):
    def change(data: dict) -> str:
        d = _first_searched(data)
        if field == "iterations":
            d["iterations"] = value
        else:
            d["top"][0][{"id": 0, "visits": 1, "value": 2}[field]] = value
        return json.dumps(data)
    return change


def _reserved_id() -> int:
    for i in range(dc.NUM_ACTIONS):
        try:
            dc.Action.from_id(i)
        except ValueError:
            return i
    raise AssertionError("no reserved id")


@pytest.mark.parametrize("make, message", [
    (_edit_search("iterations", True), "meta.search["),
    (_edit_search("visits", True), "meta.search["),
    (_edit_search("value", True), "meta.search["),
    (_edit_search("value", "0.5"), "meta.search["),
    (_edit_search("visits", -1), "meta.search["),
    (_edit_search("id", 5000), "meta.search["),
    ("reserved id", "meta.search["),
    (lambda data: json.dumps(data).replace('"iterations":', '"iterations": NaN, "x":', 1), "NaN is not a JSON number"),
    (lambda data: json.dumps(data).replace('"seed": ', '"seed": ' + "9" * 5000 + ', "s": ', 1), "an integer of 5000 digits"),
    (lambda data: json.dumps(data).replace('"seed": ', '"seed": ' + "9" * 40 + ', "s": ', 1), "an integer of 40 digits"),
    (lambda data: "[" * 100_000 + "]" * 100_000, "nested too deeply"),
    (lambda data: json.dumps(data | {"actions": [_reserved_id()]}), "is reserved"),
], ids=["iterations-true", "visits-true", "value-true", "value-string", "visits-negative", "id-out-of-range",
        "id-reserved", "nan", "int-5000-digits", "int-40-digits", "nested-100000", "action-reserved"])
def test_cli_replay_refuses_bad_fields_in_one_line(tmp_path, make, message):
    data = _searched_record(tmp_path)
    if make == "reserved id":
        make = _edit_search("id", _reserved_id())
    path, out = tmp_path / "g.jsonl", tmp_path / "page.html"
    good = json.dumps(_searched_record(tmp_path))
    path.write_text(good + "\n\n" + make(data) + "\n")
    r = run_cli(str(path), "--html", str(out))
    assert r.returncode != 0 and "Traceback" not in r.stderr, r.stderr[-2000:]
    assert r.stderr.count("\n") == 1 and f"{path}, line 3: " in r.stderr and message in r.stderr, r.stderr[:500]
    assert not out.exists() and not list(tmp_path.glob("page.html*"))


def test_an_over_long_line_is_refused_without_reading_it_whole(tmp_path, monkeypatch):
    from dragoncastle import replay

    good = record(tmp_path / "g.jsonl", ["greedy", "random"], games=1)[0]
    monkeypatch.setattr(replay, "MAX_LINE", len(good) + 1)  # the newline too
    assert len(read_games(tmp_path / "g.jsonl")) == 1
    path = tmp_path / "long.jsonl"
    path.write_text(good + "\n" + " " * 10 + good + "\n")
    with pytest.raises(ReplayError, match=r"long\.jsonl, line 2: longer than \d+ characters"):
        read_games(path)
    read = []
    real_open = open

    class Spy:
        def __init__(self, f):
            self.f = f

        def __enter__(self):
            return self

        def __exit__(self, *a):
            self.f.close()

        def readline(self, limit=-1):
            read.append(limit)
            return self.f.readline(limit)

    monkeypatch.setattr("builtins.open", lambda *a, **k: Spy(real_open(*a, **k)))
    with pytest.raises(ReplayError):
        read_games(path)
    assert read and all(0 < n <= replay.MAX_LINE + 1 for n in read)


def _short_games(path: Path, n: int) -> None:
    """``n`` greedy/random games, each cut after its first eight decisions."""
    with open(path, "w") as f:
        for line in dc.arena(["greedy", "random"], n, seed=0).records():
            data = json.loads(line)
            g = dc.Game(players=2, seed=data["seed"])
            for a in data["actions"][:8]:
                g.apply(a)
            f.write(g.to_json() + "\n")


def test_a_long_file_is_read_game_by_game(tmp_path):
    """The page is built as the file is read, each game kept packed: the peak
    memory grows by a few kilobytes a game (it was about 21 KB a game of
    these short games, and 380 KB a whole game, when every game's pictures
    were kept until the end)."""
    import tracemalloc

    peaks = {}
    for n in (150, 600):
        _short_games(tmp_path / f"{n}.jsonl", n)
        tracemalloc.start()
        try:
            stats = write_replay(tmp_path / f"{n}.jsonl", tmp_path / f"{n}.html")
            peaks[n] = tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
        assert stats.games == n
    per_game = (peaks[600] - peaks[150]) / 450
    assert per_game < 12_000, f"{per_game:.0f} bytes a game"
