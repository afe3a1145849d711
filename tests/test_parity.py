"""The CI sample of the Rust-vs-Python parity suite (tests/parity.py runs more)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import dragoncastle
from parity import compare_game


@pytest.mark.parametrize("players", [2, 3, 4])
def test_parity_sample(players):
    """110 seeded random games per player count (330 in all) agree step by step."""
    for seed in range(110):
        d = compare_game(players, seed)
        assert d is None, str(d)


def test_reference_never_imports_the_rust_core():
    """Parity proves something only if the engines share no code."""
    folder = Path(dragoncastle.reference.__file__).parent
    for path in folder.glob("*.py"):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                assert node.level >= 1 or not (node.module or "").startswith("dragoncastle"), f"{path.name} imports {node.module}"
                assert node.level <= 1, f"{path.name} reaches outside the reference package"
            if isinstance(node, ast.Import):
                assert not any(a.name.startswith("dragoncastle") for a in node.names), path.name
