"""Tests of ``dragoncastle.playouts``: whole games played in Rust threads."""

from __future__ import annotations

import pytest

import dragoncastle as dc


@pytest.mark.parametrize("n_games", [2**62, 10**11])
def test_playouts_too_large_is_a_clean_error(n_games):
    """Sizes that cannot fit in memory raise MemoryError before any work,
    instead of aborting the interpreter."""
    with pytest.raises(MemoryError):
        dc.playouts(n_games, players=2, seed=0, threads=1)
    with pytest.raises(ValueError):
        dc.playouts(10, players=2, threads=10**6)


def test_playouts_take_agent_specs():
    """dc.playouts plays any agent spec in every seat, as the arena does."""
    scores, winners, lengths = dc.playouts(4, players=2, seed=3, agent="mcts:iterations=20", threads=2)
    again = dc.playouts(4, players=2, seed=3, agent="mcts:iterations=20", threads=1)
    assert (scores == again[0]).all() and (lengths == again[2]).all()
    r = dc.arena(["mcts:iterations=20", "mcts:iterations=20"], 4, seed=3, threads=1)
    assert scores.tolist() == [g["scores"] for g in r.games]
    assert lengths.tolist() == [sum(g["decisions"]) for g in r.games]
    solo, _, _ = dc.playouts(2, players=1, seed=0, agent="mcts:iterations=20")
    assert solo.shape == (2, 1) and (solo > 0).all()
    with pytest.raises(ValueError):
        dc.playouts(2, agent="mcts:bogus=1")
