"""The README's two commands are what CI and users run."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_ci_runs_the_readme_test_command():
    readme = (ROOT / "README.md").read_text()
    ci = (ROOT / ".ci" / "run").read_text().strip().splitlines()[-1]
    block = readme.split("```")[1]
    commands = [line for line in block.splitlines() if line and not line.startswith("#") and not line.startswith("sh")]
    assert commands[1] == ci
    assert commands[0].endswith("python3 -m dragoncastle arena --seats mcts:iterations=1000 greedy --games 20")
