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


def test_cli_solo_says_what_it_does(capsys):
    """Issue 47: a solo run says up front how long it takes at the agent's budget and
    whether the same seed gives the same game; one game shows its progress by move
    with the score so far (piped: a line every ten moves), and its decisions are the
    arena's for that seed."""
    from dragoncastle.cli import main

    assert main(["solo", "--agent", "plan:playouts=200", "--seed", "5"]) == 0
    captured = capsys.readouterr()
    assert captured.err.startswith("plan:playouts=200 is bounded by a count, not the clock: the same seed gives")
    moves = [line for line in captured.err.splitlines() if line.startswith("move ")]
    # A line every ten of the player's decisions: as many lines as the arena's game has tens.
    arena_game = dc.arena(["plan:playouts=200"], 1, seed=5).games[0]
    assert [m.split(":")[0] for m in moves] == [f"move {k}" for k in range(10, len(arena_game["actions"]) + 1, 10)]
    arena = arena_game["scores"][0]
    assert f"seed 5: score {arena}, rank {dc.solo_rank(arena)}" in captured.out
    assert main(["solo", "--agent", "plan:time=0.01", "--games", "2", "--threads", "2"]) == 0
    note = capsys.readouterr().err.splitlines()[0]
    assert note.startswith("plan:time=0.01 decides by the clock, up to 0.01 s a decision: a game of ")
    assert "2 games, 2 at a time" in note and "not reproducible" in note and "(plan:playouts=N)" in note


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


def test_cli_arena_on_a_terminal_names_the_game_and_what_to_try_next(tmp_path, capsys, monkeypatch):
    """Issue 40: the README's first command, on a terminal, says what it plays,
    the point of the table in words, and the next commands with their times;
    piped (as scripts read it) the output is the table alone, as before."""
    from dragoncastle import cli, cli_arena

    argv = ["arena", "--seats", "mcts:iterations=40,rollout=random", "random", "--games", "8", "--threads", "1"]
    assert cli.main(argv) == 0
    piped = capsys.readouterr().out
    assert piped.startswith("8 games, 2 player(s)") and len(piped.splitlines()) == 4
    monkeypatch.setattr(cli_arena, "stdout_is_terminal", lambda: True)
    assert cli.main(argv) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == ("Dragon Castle, 2 players: 8 seeded games (seeds 0-7), "
                        "mcts:iterations=40,rollout=random against random, seats rotated")
    # The table itself is unchanged (only its timing differs between runs).
    cut = lambda rows: [row.rsplit(None, 2)[0] for row in rows]
    assert cut(lines[2:5]) == cut(piped.splitlines()[1:4]) and lines[1].startswith("8 games")
    assert lines[5].startswith("mcts:iterations=40,rollout=random won ") and "95% interval" in lines[5]
    assert lines[6:8] == ["", "next:"]
    steps = lines[8:]
    assert [s.split()[:2] for s in steps] == [["dragoncastle", "play"], ["dragoncastle", "solo"], ["dragoncastle", "serve"]]
    assert all(s.rstrip().endswith(")") for s in steps) and "seconds" in steps[0] and "90 s" in steps[1]
    assert 'pip install ".[web]"' in steps[2]
    # Each command it suggests is one the parser accepts.
    for s in steps:
        cli.parser().parse_args(s.split("   ")[0].split()[1:])
    # With a record, the record is still written and replay comes first; --merge prints the table alone.
    path = tmp_path / "g.jsonl"
    assert cli.main(["arena", "--seats", "greedy", "random", "--games", "4", "--record", str(path)]) == 0
    out = capsys.readouterr().out
    assert f"recorded 4 games in {path}" in out and len(path.read_text().splitlines()) == 4
    assert f"dragoncastle replay {path} --html {tmp_path / 'g.html'}" in out
    assert cli.main(["arena", "--merge", str(path)]) == 0
    assert capsys.readouterr().out.startswith("4 games, 2 player(s)")


def test_the_arena_verdict_says_when_the_games_are_too_few():
    from dragoncastle.arena import arena
    from dragoncastle.cli import arena_headline, arena_verdict

    close = arena_verdict(arena(["greedy", "greedy"], 4, seed=0))
    assert close and "holds an even 0.500" in close and "try --games 16" in close
    assert arena_verdict(arena(["greedy"], 2, seed=0)) is None
    line = arena_headline(["greedy", "random", "dragon"], 1, 5, {"spirits": 2, "dragons": ["harmony"]})
    assert line == ("Dragon Castle, 3 players: 1 seeded game (seed 5), greedy, random and dragon, seats rotated, "
                    "with 2 Spirit cards drawn per game and the Dragon card harmony")


def test_cli_arena_explains_itself_only_on_a_terminal(tmp_path):
    """The terminal test is the real one: through a pseudo-terminal the
    headline and the next commands appear; through a pipe they do not."""
    import os
    import pty
    import subprocess
    import sys

    cmd = [sys.executable, "-m", "dragoncastle", "arena", "--seats", "greedy", "random", "--games", "4"]
    piped = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    assert piped.returncode == 0 and piped.stdout.startswith("4 games") and "next:" not in piped.stdout
    leader, follower = pty.openpty()
    try:
        r = subprocess.run(cmd, stdout=follower, stderr=subprocess.PIPE, timeout=120)
        os.close(follower)
        chunks = []
        while True:
            try:
                chunk = os.read(leader, 65536)
            except OSError:  # EIO: the terminal's other end is closed and drained
                break
            if not chunk:
                break
            chunks.append(chunk)
    finally:
        os.close(leader)
    out = b"".join(chunks).decode().replace("\r\n", "\n")
    assert r.returncode == 0, r.stderr
    assert out.startswith("Dragon Castle, 2 players: 4 seeded games") and "\nnext:\n  dragoncastle play" in out
