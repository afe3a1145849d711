"""Ctrl-C stops the long Rust calls (a search, the arena, batch playouts, a
vectorized step) within a fraction of a second, raising KeyboardInterrupt. A
search with a Python evaluator is tested in test_learning.py."""

from __future__ import annotations

import pytest

import dragoncastle as dc
from dragoncastle.agents import MCTSAgent
from helpers import interrupted_by_ctrl_c


@pytest.mark.parametrize("what", ["search", "arena", "playouts", "vecenv"])
def test_ctrl_c_stops_long_rust_calls(what):
    """Long Rust calls answer Ctrl-C within a fraction of a second and raise
    KeyboardInterrupt (the search and the arena watch a stop flag)."""
    if what == "vecenv":
        # The learner moves first; each answer is a long search. The reset
        # arrays are what a rolled-back step must leave.
        env = dc.VecEnv(4, players=2, seed=0, threads=2, opponents="mcts:iterations=10000000", learner=0)
        live_masks = env.reset()[1]  # the array every call writes in place
    with interrupted_by_ctrl_c():
        if what == "search":
            MCTSAgent(time_limit=30, seed=1).search(dc.Game(players=2, seed=1))
        elif what == "arena":
            dc.arena(["mcts:iterations=100000", "greedy"], 50, seed=0, threads=2)
        elif what == "vecenv":
            # The learner's decisions are quick until the turn passes and
            # the opponents' long searches start.
            for _ in range(20):
                before = [env.state_text(i) for i in range(len(env))]
                masks_before = env.step(env.sample())[1].copy()
        else:
            dc.playouts("random", 10**7, players=2, seed=0, threads=2)
    if what == "vecenv":
        # The stopped step was rolled back: every game is where it was.
        after = [env.state_text(i) for i in range(len(env))]
        assert after == before and (live_masks == masks_before).all()
