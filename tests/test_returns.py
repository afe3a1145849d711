"""Tests of ``Game.returns()``, the per-seat result of a game that the searches
and OpenSpiel use (1 to the winner, split on a tie; score / 100 in solo), in
both engines. Rule ids (``R-...``) refer to ``shared/RULES.md``.
"""

from __future__ import annotations

import random

import pytest

import dragoncastle as dc
from dragoncastle import reference as ref
from helpers import FLAT, endgame_position, game, play_random


def test_returns_multiplayer_and_ties(dc):
    """R-END-1, R-END-3: zeros before the end; 1 to the winner after tie breaks;
    a shared win is split."""
    for players in (2, 3, 4):
        g = game(dc, FLAT, {}, players=players)
        for _ in range(players - 1):
            g.apply("summon")
            assert g.returns() == [0.0] * players
        g.apply("summon")  # the last seat triggers: the game ends at once, all tied
        assert g.is_over and g.scores() == [2] * players and g.winners() == list(range(players))
        assert g.returns() == pytest.approx([1 / players] * players)
    g = endgame_position(dc, deficit=1)
    assert g.returns() == [0.0, 0.0]
    g.apply("summon")
    assert g.returns() == [0.0, 1.0]


def test_returns_follow_winners_in_played_games(dc):
    """R-END-3: returns()[p] = 1/len(winners) for a winner, else 0; they sum to 1."""
    for players in (2, 3, 4):
        for seed in range(3):
            g = dc.Game(players=players, seed=seed)
            rng = random.Random(seed)
            while not g.is_over:
                assert g.returns() == [0.0] * players
                g.apply(rng.choice(g.legal_actions()))
            w = g.winners()
            assert g.returns() == pytest.approx([1 / len(w) if p in w else 0.0 for p in range(players)])
            assert sum(g.returns()) == pytest.approx(1.0)


def test_returns_solo_is_score_over_100(dc):
    """R-SOLO-1: solo returns are the score / 100 at the end, 0 before."""
    for seed in (1, 2):
        g = dc.Game(players=1, seed=seed)
        assert g.returns() == [0.0]
        play_random(g, seed, 10_000)
        assert g.is_over and g.returns() == [g.scores()[0] / 100]


def test_returns_equal_between_engines():
    for players in (1, 2, 3, 4):
        rust = dc.Game(players=players, seed=17)
        rng = random.Random(3)
        ids = []
        while not rust.is_over:
            a = rng.choice(rust.legal_actions())
            ids.append(a.id)
            rust.apply(a)
        py = ref.Game(players=players, seed=17)
        for i in ids:
            assert py.returns() == [0.0] * players
            py.apply(i)
        assert py.is_over and py.scores() == rust.scores()
        assert py.returns() == rust.returns()
