"""Tests of ``Game.clone(history=False)``, a copy without the undo history
(cheap to make and to determinize: the Python twin of the search copies each
position it searches so), in both engines."""

from __future__ import annotations

import random

import pytest

from helpers import play_random


def test_clone_without_history(dc):
    """Equal, independent, no undo past the copy, but JSON (the record of
    actions stays), play, undo back to the copy point and determinize work
    (both engines)."""
    g = play_random(dc.Game(players=3, seed=12), 12, 40)
    c = g.clone(history=False)
    assert c == g
    with pytest.raises(IndexError):
        c.undo()
    assert c.to_json() == g.to_json()
    assert c == g  # the failed undo changed nothing
    # Independent: playing on the copy leaves the original alone, and back.
    json_before = g.to_json()
    rng = random.Random(1)
    steps = 0
    while steps < 25 and not c.is_over:
        c.apply(rng.choice(c.legal_actions()))
        steps += 1
    assert c != g and g.to_json() == json_before
    for _ in range(steps):
        c.undo()
    assert c == g
    with pytest.raises(IndexError):
        c.undo()
    # The original still undoes through its full history.
    h = g.clone()
    while h.history:
        h.undo()
    assert h == dc.Game(players=3, seed=12)
    # Determinize works on the copy and equals the original's.
    d = c.determinize(7)
    assert d == g.determinize(7) and d.legal_action_ids() == g.legal_action_ids()
    # A fresh game has lost nothing: its copy can still be written.
    dc.Game.from_json(dc.Game(players=2, seed=1).clone(history=False).to_json())
    # A copy of a copy cannot undo either; JSON still replays to it.
    import copy

    for y in (copy.copy(c), copy.deepcopy(c), c.clone(history=False)):
        assert y == c
        with pytest.raises(IndexError):
            y.undo()
        assert dc.Game.from_json(y.to_json()) == c


def test_clone_without_history_pickles(dc):
    """API.md: copies, deepcopies and pickles give independent equal games; a
    history-less copy too (pickle goes through JSON, which replays from the
    deal, so the unpickled game has its undo history back)."""
    import pickle

    g = play_random(dc.Game(players=2, seed=12), 12, 30)
    c = g.clone(history=False)
    assert pickle.loads(pickle.dumps(c)) == c
