"""The arena spread over Ray (``dc.arena(..., ray=...)``, ``dragoncastle arena
--ray``) gives exactly the games, records and table of a local run.

One test starts and stops a Ray of its own (through the arena); the others
share a local Ray of 2 CPUs started once for the module, which the arena uses
as it finds it.
"""

from __future__ import annotations

import doctest
import importlib
import json
import logging
import subprocess
import sys

import pytest

import dragoncastle as dc
from dragoncastle.cli import main

# The test extra installs Ray: a missing one must fail, not skip.
import ray  # noqa: E402

SPECS = ["mcts:iterations=30,rollout=random", "greedy"]
SPECS3 = ["mcts:iterations=20,rollout=random", "greedy", "random"]


def untimed_records(lines):
    out = []
    for line in lines:
        data = json.loads(line)
        del data["meta"]["seconds"]
        out.append(data)
    return out


def test_importing_dragoncastle_does_not_import_ray():
    code = ("import sys, dragoncastle, dragoncastle.cli, dragoncastle.bench; "
            "import importlib; importlib.import_module('dragoncastle.arena'); print('ray' in sys.modules)")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert r.returncode == 0 and r.stdout.strip() == "False", r.stdout + r.stderr


def test_arena_starts_and_stops_its_own_ray():
    """``ray="local"`` with no Ray running: a Ray is started for the run and
    shut down before the call returns. In a fresh process, so that no Ray
    opened by another test can be there already."""
    code = """
import ray, dragoncastle as dc
specs = %r
assert not ray.is_initialized()
local = dc.arena(specs, 5, seed=11, threads=1)
spread = dc.arena(specs, 5, seed=11, ray="local", shards=2)
assert not ray.is_initialized(), "the arena left its Ray running"
assert spread.untimed_games() == local.untimed_games()
print("ok")
""" % (SPECS,)
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=180)
    assert r.returncode == 0 and r.stdout.strip().endswith("ok"), r.stdout + r.stderr


@pytest.fixture(scope="module")
def local_ray():
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, logging_level=logging.ERROR)
    yield
    ray.shutdown()


@pytest.mark.parametrize("shards", [2, 3, None])
def test_shards_on_ray_equal_a_local_run(local_ray, shards):
    """Same games in the same order, same records, same table (but for times),
    with cards drawn from each game's seed and three seats rotating."""
    cards = {"spirits": 1, "dragons": 1}
    local = dc.arena(SPECS3, 7, seed=5, threads=2, **cards)
    done = []
    spread = dc.arena(SPECS3, 7, seed=5, ray="auto", shards=shards, progress=done.append, **cards)
    assert [g["seed"] for g in spread.games] == list(range(5, 12))
    assert spread.untimed_games() == local.untimed_games()
    assert untimed_records(spread.records()) == untimed_records(local.records())
    assert spread.table(timing=False) == local.table(timing=False)
    assert spread.win_rates() == local.win_rates() and spread.mean_scores() == local.mean_scores()
    assert done == sorted(done) and done[-1] == 7
    assert ray.is_initialized()  # the caller's session is left open


def test_ray_arguments_are_checked(local_ray):
    with pytest.raises(ValueError, match="shards"):
        dc.arena(SPECS, 4, shards=2)
    with pytest.raises(ValueError, match="shards"):
        dc.arena(SPECS, 4, ray="auto", shards=0)
    with pytest.raises(ValueError, match="largest Ray node has 2 CPUs"):
        dc.arena(SPECS, 4, ray="auto", threads=3)


def test_cli_ray_flag_gives_the_local_table_and_records(local_ray, tmp_path, capsys):
    def run(*extra):
        path = tmp_path / f"run{len(extra)}.jsonl"
        assert main(["arena", "--seats", *SPECS, "--games", "6", "--seed", "3", "--record", str(path), *extra]) == 0
        out = capsys.readouterr().out.splitlines()
        # The table without its times: the run time in the head, time/move per row.
        table = [out[0].split(", ")[:2]] + [line.rsplit(None, 2)[0] for line in out[2:4]]
        return table, untimed_records(path.read_text().splitlines())

    assert run("--ray", "--shards", "3") == run()
    with pytest.raises(SystemExit, match="--shards"):
        main(["arena", "--games", "4", "--shards", "2"])


def test_arena_docstring_examples(local_ray):
    """The examples of dragoncastle.arena, the Ray one included, run."""
    module = importlib.import_module("dragoncastle.arena")  # dc.arena is the function
    result = doctest.testmod(module)
    assert result.attempted >= 8 and result.failed == 0
