"""The arena spread over Ray (``dc.arena(..., ray=...)``, ``dragoncastle arena
--ray``) gives exactly the games, records and table of a local run, and
training spread over Ray (``dragoncastle train --ray``) exactly its data,
gates and weights.

One test starts and stops a Ray of its own (through the arena); the others
share a local Ray of 2 CPUs started once for the module, which the arena uses
as it finds it.
"""

from __future__ import annotations

import doctest
import importlib
import json
import logging
import os
import subprocess
import sys

import numpy as np
import pytest

import dragoncastle as dc
from dragoncastle import _core
from dragoncastle.cli import main
from dragoncastle.train import Model, TrainConfig, train

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
    code = ("import sys, dragoncastle, dragoncastle.cli, dragoncastle.bench, dragoncastle.train, dragoncastle.distributed; "
            "import importlib; importlib.import_module('dragoncastle.arena'); print('ray' in sys.modules)")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert r.returncode == 0 and r.stdout.strip() == "False", r.stdout + r.stderr


def test_arena_starts_and_stops_its_own_ray():
    """``ray="local"`` with no Ray running: a Ray is started for the run and
    shut down before the call returns, by the arena and by training. In a fresh process, so that no Ray
    opened by another test can be there already."""
    code = """
import ray, dragoncastle as dc
specs = %r
assert not ray.is_initialized()
local = dc.arena(specs, 5, seed=11, threads=1)
spread = dc.arena(specs, 5, seed=11, ray="local", shards=2)
assert not ray.is_initialized(), "the arena left its Ray running"
assert spread.untimed_games() == local.untimed_games()
from dragoncastle.train import TrainConfig, train
import tempfile
train(TrainConfig(directory=tempfile.mkdtemp(), generations=1, games=2, iterations=10, gate_games=1, gate_iterations=10,
                  hidden=8, hidden2=4, epochs=1, ray="local"), log=lambda line: None)
assert not ray.is_initialized(), "training left its Ray running"
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


def _arrays(path):
    with np.load(path) as z:
        return {k: z[k] for k in z.files}


def test_training_on_ray_equals_a_local_run(local_ray, tmp_path, monkeypatch):
    """``train(TrainConfig(..., ray=...))`` plays self-play and gates as Ray
    tasks and makes exactly the data, gates and weights of a local run: the
    second generation's self-play needs the first network, whose file travels
    with the tasks. A chunk already written by a stopped run is kept."""
    import shutil

    import dragoncastle.train_data as module  # where the run's self-play is called

    def run(directory, **where):
        cfg = TrainConfig(directory=str(directory), players=1, generations=2, games=3, chunk=2, iterations=20,
                          gate_games=2, gate_iterations=10, hidden=8, hidden2=4, epochs=1, rollout_weight=0.5, priors=0,
                          children_share=0.1, children_max=3, targets="siblings", command="test", **where)
        logs = []
        best = train(cfg, log=logs.append)
        return best, logs

    best_local, _ = run(tmp_path / "local", threads=1)
    (tmp_path / "ray").mkdir()
    shutil.copyfile(tmp_path / "local" / "data000-000.npz", tmp_path / "ray" / "data000-000.npz")

    # On Ray the driver plays nothing itself: its self-play and its Rust arena
    # fail if called (the workers are other processes and run the real ones).
    def here(*args, **kwargs):
        raise AssertionError("played on the driver, not on Ray")

    monkeypatch.setattr(module, "selfplay", here)
    monkeypatch.setattr(_core, "arena", here)
    best_ray, logs = run(tmp_path / "ray", ray="auto")
    monkeypatch.undo()
    assert ray.is_initialized()  # the caller's session is left open
    assert any("games 3-3 of 3" in line for line in logs)
    first_generation = logs[:next(i for i, line in enumerate(logs) if line.startswith("generation 2/2"))]
    assert not any("games 1-2 of 3" in line for line in first_generation)  # its first chunk was there
    for name in ("data000-000.npz", "data000-001.npz", "data001-000.npz", "data001-001.npz"):
        local, spread = _arrays(tmp_path / "local" / name), _arrays(tmp_path / "ray" / name)
        assert local.keys() == spread.keys() and "child_rows" in local
        for k in local:
            assert np.array_equal(local[k], spread[k], equal_nan=local[k].dtype.kind == "f"), (name, k)

    def log(directory):
        rows = [json.loads(line) for line in (directory / "log.jsonl").read_text().splitlines()]
        return [{k: v for k, v in r.items() if not k.endswith("seconds")} for r in rows]

    assert log(tmp_path / "ray") == log(tmp_path / "local")
    assert os.path.basename(best_ray) == os.path.basename(best_local)
    a, b = _core.Network.load(best_local), _core.Network.load(best_ray)
    assert all(np.array_equal(x, y) for x, y in zip(a.arrays(), b.arrays()))
    # Where the games ran is not part of how the weights were made.
    assert "ray" not in json.loads(b.header)["training"]["config"]
    with pytest.raises(ValueError, match="ray is"):
        train(TrainConfig(directory=str(tmp_path / "bad"), ray=1))


def test_arena_on_ray_sends_the_weights_files_with_its_tasks(local_ray, tmp_path):
    """A spec's ``model=PATH`` is read by the driver and sent with each task,
    which searches with a local copy of the same bytes: a Ray node need not
    see the driver's disk."""
    from dragoncastle.arena import _play_shard
    from dragoncastle.distributed import spec_model_files, with_local_models

    path = str(tmp_path / "net.dcnet")
    Model(8, 4, seed=3).to_network({"players": 2}).save(path)
    specs = [f"mcts:iterations=20,model={path},priors=off,rollout_weight=0.5", "greedy"]
    files = spec_model_files(specs + ["mcts:model=builtin", "random"])
    assert list(files) == [path]
    # A weights file that cannot be read stops the run on the driver, before any task.
    with pytest.raises(ValueError, match="/no/such/file"):
        spec_model_files(["mcts:model=/no/such/file"])
    moved = with_local_models(specs[0], files)
    copy = moved.split("model=")[1].split(",")[0]
    assert copy != path and open(copy, "rb").read() == open(path, "rb").read()
    assert dc._core.Player.parse(moved).settings() == dc._core.Player.parse(specs[0].replace(path, copy)).settings()  # the same settings
    local = dc.arena(specs, 4, seed=2, threads=1)
    spread = dc.arena(specs, 4, seed=2, ray="auto", shards=2)
    assert spread.untimed_games() == local.untimed_games()
    # A task body given a path its node does not have, with the file's bytes: it plays.
    gone = [specs[0].replace(path, "/no/such/dir/net.dcnet"), "greedy"]
    games = _play_shard(gone, 0, 2, 2, 1, None, None, None, models={"/no/such/dir/net.dcnet": files[path]})
    assert [{k: v for k, v in g.items() if k != "seconds"} for g in games] == local.untimed_games()[:2]


def test_cli_solo_on_ray_gives_the_local_scores(local_ray, capsys):
    """`dragoncastle solo --ray` (issue 47): the games of a local run, as Ray tasks."""
    def run(*extra):
        assert main(["solo", "--agent", "plan:playouts=200", "--games", "4", "--seed", "11", *extra]) == 0
        return [line for line in capsys.readouterr().out.splitlines() if line.startswith("seed ")]

    local = run()
    assert len(local) == 4 and run("--ray", "--shards", "2") == local
    with pytest.raises(SystemExit, match="--shards"):
        main(["solo", "--games", "4", "--shards", "2"])
