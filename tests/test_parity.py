"""The CI sample of the Rust-vs-Python parity suite (tests/parity.py runs more)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import dragoncastle
from parity import compare_card_game, compare_game


@pytest.mark.parametrize("players, games", [(1, 200), (2, 110), (3, 110), (4, 110)])
def test_parity_sample(players, games):
    """Seeded random games agree step by step: 200 solo games and 110 for each of
    2, 3 and 4 players (530 in all)."""
    for seed in range(games):
        d = compare_game(players, seed)
        assert d is None, str(d)


@pytest.mark.parametrize("first", [0, 100, 200])
def test_parity_sample_with_cards(first):
    """Seeded random games with random card sets (1-3 Spirits, 1-3 Dragons,
    1-4 players; docs/cards.md) agree step by step: 300 games in all."""
    for seed in range(first, first + 100):
        d = compare_card_game(seed)
        assert d is None, str(d)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_parity_sample_with_three_spirits_and_three_dragons(players):
    """R-SETUP-3, R-SPIRIT-2, R-PLACE-1, R-PLACE-3: seeded random games with 3 Spirit
    and 3 Dragon cards (drawn from the seed) agree step by step, legal actions
    included: 30 games per player count. Three Spirits leave one usable between the
    placements of two identical tiles more often, so the first of them may go on the
    highest free cell and the second below it."""
    for seed in range(1000, 1030):
        d = compare_card_game(seed, players=players, spirits=3, dragons=3)
        assert d is None, str(d)


def test_reference_never_imports_the_rust_core():
    """Parity proves something only if the engines share no code. The one
    exception is ``dragoncastle.errors``: the two error classes, shared so
    that one ``except`` serves both engines; it holds no game logic and
    imports nothing of the package."""
    folder = Path(dragoncastle.reference.__file__).parent
    for path in folder.glob("*.py"):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                assert node.level >= 1 or not (node.module or "").startswith("dragoncastle"), f"{path.name} imports {node.module}"
                shared_errors = node.level == 2 and node.module == "errors"
                assert node.level <= 1 or shared_errors, f"{path.name} reaches outside the reference package"
            if isinstance(node, ast.Import):
                assert not any(a.name.startswith("dragoncastle") for a in node.names), path.name
    errors = ast.parse((folder.parent / "errors.py").read_text())
    assert not [n for n in ast.walk(errors) if isinstance(n, ast.ImportFrom) and (n.level or "dragoncastle" in (n.module or ""))]


def test_the_reference_engine_loads_and_plays_without_the_rust_core():
    """A user on a platform without a wheel still gets the (slower) engine:
    in a process where ``dragoncastle._core`` cannot be imported, the
    reference engine imports, plays a whole card game and replays it from
    JSON, and the package's other names explain what is missing."""
    import subprocess
    import sys

    script = """
import random, sys
sys.modules["dragoncastle._core"] = None  # any import of the compiled engine fails
import dragoncastle.reference as ref
assert "dragoncastle._core" not in [m for m, v in sys.modules.items() if v is not None]
g = ref.Game(players=3, seed=5, spirits=1, dragons=1)
rng = random.Random(1)
while not g.is_over:
    g.apply(rng.choice(g.legal_actions()))
again = ref.Game.from_json(g.to_json())
assert again.returns() == g.returns()
import dragoncastle
try:
    dragoncastle.Game
except ImportError as e:
    print("explained:", "dragoncastle.reference" in str(e))
print("played", len(g.history))
"""
    r = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert "explained: True" in r.stdout and "played" in r.stdout


def test_a_record_without_its_deal_loads_from_its_seed_in_both_engines():
    # R-SEED-1: the seed makes the deal, so a saved game may leave the deal (and every
    # covered tile in it) out; both engines load it to the same position, and refuse a
    # record with neither.
    import json

    dc = dragoncastle
    g = dc.Game(players=2, seed=31)
    for _ in range(25):
        g.apply(g.legal_actions()[0])
    data = json.loads(g.to_json())
    del data["deal"]
    text = json.dumps(data)
    fast, ref = dc.Game.from_json(text), dc.reference.Game.from_json(text)
    assert fast.to_json() == g.to_json() == ref.to_json()
    data["seed"] = None
    for engine in (dc.Game, dc.reference.Game):
        with pytest.raises(ValueError, match="needs its deal"):
            engine.from_json(json.dumps(data))
