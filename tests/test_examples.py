"""Every script in examples/ runs, with small sizes, and prints what it promises."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"

# Small sizes for the scripts that take them, and a line each must print.
RUNS = {
    "first_game.py": ([], "winners:"),
    "custom_layout.py": ([], "scores on the custom castle:"),
    "mcts_vs_greedy.py": (["4", "50"], "win rate"),
    "solo_ranks.py": (["3", "50"], "greedy on the same deals:"),
    "python_search.py": (["5"], "Rust search"),
    "cards.py": (["4"], "Dragon points"),
    "vecenv.py": (["16", "200"], "games finished"),
    "openspiel_mcts.py": (["1", "5"], "win rate"),
    "ray_arena.py": (["6", "20", "3"], "the Ray run equals the local run"),
    "pettingzoo_loop.py": (["2", "1"], "returns summed over the games"),
    "gymnasium_learn.py": (["40", "20"], "after training, on the same"),
    "numpy_evaluator.py": (["3", "2"], "network-guided search against random"),
    "torch_evaluator.py": (["50"], "PyTorch"),
    "selfplay_ray.py": (["4", "20", "2"], "equal the local run"),
}


def test_every_example_is_run():
    assert sorted(p.name for p in EXAMPLES.glob("*.py")) == sorted(RUNS)


@pytest.mark.parametrize("name", sorted(RUNS))
def test_example_runs(name):
    args, expected = RUNS[name]
    r = subprocess.run([sys.executable, str(EXAMPLES / name), *args], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr
    assert expected in r.stdout, r.stdout
