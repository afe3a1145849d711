"""Tests of the search's pure-Python twin,
``dragoncastle.reference.agents.MCTSAgent``: it finds what the Rust search
finds, runs over either engine, and offers the Rust agent's rollout policies.
Rule ids (``R-...``) refer to ``shared/RULES.md``.
"""

from __future__ import annotations

import random

import pytest

import dragoncastle as dc
from dragoncastle import reference as ref
from dragoncastle.agents import GreedyAgent, MCTSAgent
from dragoncastle.reference.agents import MCTSAgent as PyMCTSAgent
from helpers import dragon_position, endgame_position, play_random, stats


def test_twin_agrees_on_the_obvious_moves():
    """The pure-Python twin (random rollouts) over ``dc.Game`` finds the same
    moves as the Rust search in the hand-built positions."""
    r = PyMCTSAgent(iterations=300, seed=1).search(dragon_position(dc))
    assert str(r.action) == "place 1,1" and r.iterations == 300
    g = endgame_position(dc, deficit=1)
    rust = MCTSAgent(iterations=5000, seed=1, rollout="random").search(g)
    twin = PyMCTSAgent(iterations=1000, seed=1).search(g)
    assert str(rust.action) == str(twin.action) == "summon"
    summon = dc.Action.parse("summon")
    assert rust.values[summon] == twin.values[summon] == 1.0


def late_positions(seeds):
    """The first decision with 2-6 legal actions after turn 20 with the top
    floor at 2 or less, in greedy-vs-greedy games."""
    for seed in seeds:
        g = dc.Game(players=2, seed=seed)
        agents = [GreedyAgent(seed), GreedyAgent(seed + 1)]
        while not g.is_over:
            if g.turn > 20 and g.top_floor <= 2 and 2 <= len(g.legal_actions()) <= 6:
                yield seed, g
                break
            g.apply(agents[g.current_player].act(g))


def twin_agrees(seeds, at_least, twin_iterations=2000):
    """Late-game positions from real games: where a long Rust search (random
    rollouts and no widening, as the twin's defaults) is decisive (>= 90% of
    the visits on one action), the twin picks the same action."""
    decisive = 0
    for seed, g in late_positions(seeds):
        # Decisive means three searches of different seeds put >= 90% of their visits on one
        # action: a single long UCT search locks onto one of two near-equal moves (greedy game 36:
        # take 0,0 and take 3,8 both near 0.93, each seed's search >= 97% on one of them).
        runs = [MCTSAgent(iterations=20_000, seed=k, rollout="random", widening=None).search(g) for k in (1, 2, 3)]
        rust = runs[0]
        if any(r.action != rust.action or r.visits[r.action] < 0.9 * r.iterations for r in runs):
            continue
        decisive += 1
        twin = PyMCTSAgent(iterations=twin_iterations, seed=1).search(g)
        assert twin.action == rust.action, (seed, g.to_json())
    assert decisive >= at_least


def test_twin_and_rust_agree_on_late_game_positions():
    twin_agrees(range(15), at_least=4)


def test_twin_over_both_engines_is_identical():
    """Over ``dc.reference.Game`` the twin runs (slowly) and, with the same seed,
    gives exactly what it gives over ``dc.Game``: both engines have the same
    legal actions, rules and re-deals."""
    over_ref = PyMCTSAgent(iterations=100, seed=1).search(dragon_position(ref))
    over_rust = PyMCTSAgent(iterations=100, seed=1).search(dragon_position(dc))
    assert str(over_ref.action) == "place 1,1"
    assert stats(over_ref) == stats(over_rust)
    g = endgame_position(ref, deficit=1)
    r = PyMCTSAgent(iterations=100, seed=2).search(g)
    assert str(r.action) == "summon" and r.values[r.action] == 1.0


# ---------------------------------------------------------------- rollout policies

def test_twin_heuristic_matches_the_rust_greedy_agent():
    """The twin's weighted value (GREEDY weights) ranks actions as the Rust
    greedy agent does: Rust's choice is always among the twin's best actions."""
    from dragoncastle.reference.agents import GREEDY, move_value

    checked = 0
    for players in (1, 2, 3):
        g = dc.Game(players=players, seed=4)
        rng = random.Random(4)
        while not g.is_over and checked < 400:
            values = {a: move_value(g, a, GREEDY) for a in g.legal_actions()}
            best = max(values.values())
            best_set = {a for a, v in values.items() if abs(v - best) <= 1e-9}
            for k in range(3):
                assert dc._core.greedy_action(g, k) in best_set, (g.to_json(), k)
            checked += 1
            g.apply(rng.choice(g.legal_actions()))
    assert checked > 200


@pytest.mark.parametrize("rollout", ["greedy", "tuned"])
def test_twin_runs_heuristic_rollouts_and_widening(rollout):
    """The twin offers the Rust agent's rollout policies and progressive
    widening, over either engine."""
    for engine in (dc, dc.reference):
        g = play_random(engine.Game(players=2, seed=5), 5, 30)
        r = PyMCTSAgent(iterations=12, seed=2, rollout=rollout, widening=1).search(g)
        assert r.action in g.legal_actions() and r.iterations == 12
        # Widening keeps the root narrow: at most 1 + floor(sqrt(12)) children.
        assert len(r.visits) <= 4


def test_twin_margin_counts_the_tie_break():
    """R-END-3: in a game tied on score the tie-break's winner is worth more to
    the twin's margin reward than the loser (the Rust search's own test is
    ``margin_counts_the_tie_break``); solo keeps score / 100."""
    for seed in range(500):
        g = dc.Game(players=2, seed=seed)
        while not g.is_over:
            g.apply(dc._core.greedy_action(g, seed))
        scores, won = g.scores(), g.returns()
        if scores[0] == scores[1] and won[0] != won[1]:
            break
    else:
        pytest.fail("no greedy game tied on score in 500 deals")
    out = PyMCTSAgent(iterations=1, reward="margin")._utilities(g, final=True)
    winner = 0 if won[0] == 1.0 else 1
    assert out[winner] > 0.5 > out[1 - winner] and out[0] + out[1] == pytest.approx(1.0)
    solo = dc.Game(players=1, seed=3)
    while not solo.is_over:
        solo.apply(dc._core.greedy_action(solo, 3))
    assert PyMCTSAgent(iterations=1, reward="margin")._utilities(solo, final=True) == [solo.scores()[0] / 100, 0.0]


# ---------------------------------------------------------------- long runs (pytest -m slow)

@pytest.mark.slow
def test_twin_and_rust_agree_on_more_late_game_positions():
    # More positions, some closer: the twin searches longer (2,000 iterations split game 22).
    twin_agrees(range(10, 40), at_least=10, twin_iterations=8000)
