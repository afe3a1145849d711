"""Tests of the command line (``dragoncastle.cli``, the ``dragoncastle``
command)."""

from __future__ import annotations

import json

import pytest

import dragoncastle as dc


def test_cli_arena_record_and_merge(tmp_path, capsys):
    from dragoncastle.cli import main

    seats = ["--seats", "mcts:iterations=20,rollout=random", "greedy"]
    p1, p2 = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    assert main(["arena", *seats, "--games", "4", "--threads", "2", "--record", str(p1)]) == 0
    assert main(["arena", *seats, "--games", "2", "--seed", "4", "--record", str(p2)]) == 0
    out = capsys.readouterr().out
    assert "4 games, 2 player(s)" in out and "win rate" in out and f"recorded 4 games in {p1}" in out
    assert len(p1.read_text().splitlines()) == 4 and len(p2.read_text().splitlines()) == 2
    assert main(["arena", "--merge", str(p1), str(p2)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("6 games, 2 player(s)") and "mcts:iterations=20,rollout=random" in out
    whole = dc.arena(["mcts:iterations=20,rollout=random", "greedy"], 6, seed=0)
    # The same win rates, intervals and mean scores as one run (time/move,
    # a number and its unit, is timing).
    cut = lambda lines: [line.rsplit(None, 2)[0] for line in lines[1:]]
    assert cut(out.splitlines()) == cut(whole.table().splitlines())


def test_cli_solo_prints_ranks(capsys):
    from dragoncastle.cli import main

    assert main(["solo", "--agent", "mcts:iterations=30", "--games", "3"]) == 0
    out = capsys.readouterr().out
    assert "ranks:" in out and "3 games: mean" in out
    assert sum(1 for line in out.splitlines() if line.startswith("seed ") and ", rank " in line) == 3


@pytest.mark.parametrize("argv", [
    ["arena", "--games", "0"],
    ["arena", "--games", "-3"],
    ["solo", "--games", "0"],
    ["arena", "--seats", "mcts:foo=1", "greedy", "--games", "2"],
    ["arena", "--threads", "0", "--games", "2"],
    ["arena", "--seed", "12345678901234567890123"],
    ["bench", "--games", "0"],
    ["bench", "--seconds", "-1"],
    ["bench", "--seconds", "nan"],
    ["play", "--seats", "greedy"],
])
def test_cli_rejects_bad_arguments(argv, capsys):
    from dragoncastle.cli import main

    with pytest.raises(SystemExit) as e:
        main(argv)
    assert e.value.code == 2
    assert "error" in capsys.readouterr().err


def test_cli_output_piped_into_head_ends_quietly():
    """Issue 12: `dragoncastle play -v | head -2` prints no traceback."""
    import subprocess
    import sys

    cmd = f"{sys.executable} -m dragoncastle play -v --seed 3 | head -2"
    r = subprocess.run(["bash", "-c", "set -o pipefail; " + cmd], capture_output=True, text=True, timeout=120)
    assert r.stdout.count("\n") == 2 and "Traceback" not in r.stderr and "BrokenPipe" not in r.stderr, r.stderr


def test_cli_play_and_arena(capsys):
    from dragoncastle.cli import main

    assert main(["play", "--seats", "greedy", "random", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert "seat 0 (greedy)" in out and "winner(s)" in out
    assert main(["arena", "--seats", "greedy", "random", "--games", "6"]) == 0
    assert "95% CI" in capsys.readouterr().out


def test_cli_search_stats_need_a_record(tmp_path, capsys):
    from dragoncastle.cli import main

    searching = ["mcts:iterations=40,rollout=random", "greedy"]
    path = tmp_path / "g.jsonl"
    assert main(["arena", "--seats", *searching, "--games", "2", "--threads", "1", "--record", str(path),
                 "--search-stats", "3"]) == 0
    lines = path.read_text().splitlines()
    tops = [d["top"] for line in lines for d in json.loads(line)["meta"]["search"] if d]
    assert tops and max(len(t) for t in tops) == 3
    assert main(["arena", "--seats", *searching, "--games", "2", "--threads", "1", "--record", str(path),
                 "--search-stats"]) == 0
    assert max(len(d["top"]) for line in path.read_text().splitlines()
               for d in json.loads(line)["meta"]["search"] if d) == 5
    assert main(["arena", "--seats", *searching, "--games", "2", "--threads", "1", "--record", str(path)]) == 0
    assert all("search" not in json.loads(line)["meta"] for line in path.read_text().splitlines())
    with pytest.raises(SystemExit, match="--record"):
        main(["arena", "--seats", *searching, "--games", "1", "--search-stats"])


def test_cli_merge_refuses_a_record_whose_winners_were_edited(tmp_path, capsys):
    """Issue 38: editing meta.winners flipped the merged table; now the record
    is refused, naming its file and line."""
    from dragoncastle.cli import main

    good, bad = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    assert main(["arena", "--seats", "greedy", "random", "--games", "2", "--record", str(good)]) == 0
    assert main(["arena", "--seats", "greedy", "random", "--games", "2", "--seed", "2", "--record", str(bad)]) == 0
    lines = bad.read_text().splitlines()
    data = json.loads(lines[1])
    data["meta"]["winners"] = [1 - data["meta"]["winners"][0]]
    bad.write_text(lines[0] + "\n" + json.dumps(data) + "\n")
    with pytest.raises(SystemExit) as e:
        main(["arena", "--merge", str(good), str(bad)])
    message = str(e.value.code)
    assert message.startswith(f"dragoncastle arena --merge: {bad}, line 2: meta.winners") and "\n" not in message
    bad.write_text("[" * 100_000 + "]" * 100_000 + "\n")
    with pytest.raises(SystemExit, match=f"{bad}, line 1: JSON nested too deeply"):
        main(["arena", "--merge", str(good), str(bad)])
    with pytest.raises(SystemExit, match="cannot read"):
        main(["arena", "--merge", str(tmp_path / "missing.jsonl")])
