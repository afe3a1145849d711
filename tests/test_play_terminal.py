"""Issue 46, the terminal part: ``dragoncastle play`` with a person at a seat.
Bad input at the prompt explains and asks again, numbers are the list's (from 1),
each bot move is named as it is played, the result is printed once, and end of
input ends the game with one line and no traceback."""

from __future__ import annotations

import re
import subprocess
import sys

import dragoncastle as dc

PLAY = [sys.executable, "-m", "dragoncastle", "play", "--seats", "human", "greedy", "--seed", "7"]


def run(stdin: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(PLAY, input=stdin, capture_output=True, text=True, timeout=180)


def test_bad_input_asks_again_and_the_game_ends_once():
    # Seed 7 opens with six takes, "take 1,2" the first; every later prompt is answered 1.
    bad = ["", "help", "?", "foo", "99", "0", "take 0,0"]
    r = run("\n".join(bad + ["take 1,2"] + ["1"] * 400) + "\n")
    out = r.stdout
    assert r.returncode == 0, r.stderr[-2000:]
    assert "Traceback" not in out + r.stderr and "Error" not in r.stderr
    # The first listing and the two asked for (help, ?) number the moves from 1.
    listing = "  [1] take 1,2\n  [2] take 1,7\n  [3] take 4,2\n  [4] take 4,7\n  [5] take 6,2\n  [6] take 6,7\n"
    assert out.count("the legal moves, by number:\n" + listing) == 2
    assert "Legal actions:\n" + listing in out
    assert 'a move\'s text such as "take 1,2", or help' in out  # the empty line
    assert '"foo" is not a move' in out
    assert "no move 99 in the list: choose 1-6" in out and "no move 0 in the list: choose 1-6" in out
    assert "take 0,0 is not legal now" in out
    # Each bot move is named, as a move the engine reads back (the first follows the
    # prompt on its line: piped input is not echoed).
    bot = re.findall(r"(?:^|> )seat 1 \(greedy\): (?!\d+ points$)(.+)$", out, re.M)
    assert len(bot) > 10 and all(dc.Action(text) is not None for text in bot)
    assert bot[:3] == ["take 1,7", "take-shrine", "place 2,0"]
    # The result once: one winners line, one score line per seat.
    assert len(re.findall(r"winner", out, re.I)) == 1
    assert re.search(r"^winner\(s\): seat \d \((human|greedy)\)", out, re.M)
    assert len(re.findall(r"^seat 0 \(human\): \d+ points$", out, re.M)) == 1
    assert len(re.findall(r"^seat 1 \(greedy\): \d+ points$", out, re.M)) == 1
    # Deterministic: the same input plays the same game.
    assert run("\n".join(bad + ["take 1,2"] + ["1"] * 400) + "\n").stdout == out


def test_end_of_input_ends_the_game_with_one_line():
    r = run("\nfoo\n")
    assert r.returncode != 0
    assert "Traceback" not in r.stdout + r.stderr
    assert r.stderr.strip() == "input closed: game abandoned"
    assert "winner" not in r.stdout.lower()


def test_human_agent_reads_the_list_number_and_text():
    import io

    from dragoncastle.cli_play import HumanAgent

    game = dc.Game(players=2, seed=7)
    legal = game.legal_actions()
    for typed, expected in (("2", legal[1]), ("[3]", legal[2]), (str(legal[4]), legal[4]),
                            (f"{len(legal) + 1}\n1", legal[0])):
        out = io.StringIO()
        assert HumanAgent(out=out, inp=io.StringIO(typed + "\n")).act(game) == expected
        assert "Traceback" not in out.getvalue()
