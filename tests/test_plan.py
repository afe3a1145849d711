"""The solo planner (``plan``, ``dc.agents.PlannerAgent``): its results, its
spec, the hidden-information control and every runner that takes it. The
planner's own algorithm (known optima of toy puzzles, the GNRPA update by
hand) is tested in Rust (``rust/plan/toy.rs``)."""

from __future__ import annotations

import subprocess
import sys

import pytest

import dragoncastle as dc
from dragoncastle.agents import ORACLE, SOLO_DEFAULT, PlannerAgent, from_spec

#: A planner that decides a solo game in about a second.
QUICK = "plan:playouts=400,iterations=5"


def results(r):
    """A plan's findings without the clock."""
    return (r.action, r.values, r.tried, r.best, r.plan, r.playouts, r.determinizations)


def test_a_seeded_plan_with_a_playout_budget_is_reproducible_on_any_thread_count():
    g = dc.Game(players=1, seed=4)
    # Threads share the searches of mode=mean (follow plans on one thread).
    one = PlannerAgent(playouts=2000, iterations=10, seed=3, mode="mean")
    two = PlannerAgent(playouts=2000, iterations=10, seed=3, mode="mean", threads=2)
    first = one.plan(g)
    assert first.action in g.legal_actions()
    assert set(first.values) == set(g.legal_actions())
    assert results(first) == results(one.plan(g)) == results(two.plan(g))
    assert first.plan[0] == first.action and first.playouts >= 2000
    # The move chosen has the best mean (mode=mean).
    assert first.values[first.action] == max(first.values.values())


def test_decisions_never_read_a_hidden_tile():
    """R-CASTLE-1: a position and its determinization (same public
    information, covered tiles re-dealt) get the same plan; the oracle, which
    reads the covered tiles, does not."""
    g = dc.Game(players=1, seed=9)
    for a in g.legal_actions()[:1]:
        g.apply(a)
    while len(g.legal_actions()) < 2:
        g.apply(g.legal_actions()[0])
    d = g.determinize(123)
    assert d != g and d.observation(0) == g.observation(0)
    # A fresh agent for each position: the default (mode=follow, warm) carries its policy between decisions.
    def agent():
        return PlannerAgent(playouts=1500, iterations=10, seed=5)
    assert results(agent().plan(g)) == results(agent().plan(d))
    def oracle():
        return PlannerAgent(playouts=1500, iterations=10, seed=5, oracle=True)
    assert results(oracle().plan(g)) != results(oracle().plan(d))


def test_specs_round_trip_and_refuse_bad_input():
    for text in (QUICK, "plan:time=0.5,mode=mean,threads=2,level=3,iterations=10", "plan:time=0.5,iterations=10,warm=true",
                 "plan:time=1,mode=oracle"):
        agent = from_spec(text)
        assert isinstance(agent, PlannerAgent) and agent.spec == text
        assert from_spec(agent.spec).spec == agent.spec
    assert PlannerAgent(time_limit=1, level=3).spec == "plan:time=1,level=3"
    # Budgets come first in the text; any order parses to the same agent.
    assert from_spec("plan:oracle=true,time=1").spec == "plan:time=1,mode=oracle"
    for bad in ("plan:time=1,time_limit=2", "plan:level=1,level=2", "plan:level=0", "plan:level=9", "plan:iterations=0",
                "plan:playouts=0", "plan:time=-1", "plan:alpha=0", "plan:temperature=0", "plan:mode=median",
                "plan:warm=maybe", "plan:foo=1", "plan:threads=0", "plan:bias=off,temperature=1", "plan:level=99999999999"):
        with pytest.raises(ValueError):
            from_spec(bad)
    with pytest.raises(ValueError, match='unknown plan setting "exploration"'):
        PlannerAgent(exploration=1)
    with pytest.raises(ValueError):
        PlannerAgent(seed=-1)
    # The defaults are specs that parse.
    assert isinstance(from_spec(SOLO_DEFAULT), PlannerAgent) and isinstance(from_spec(ORACLE), PlannerAgent)


def test_rivals_are_refused_everywhere_with_a_clear_message():
    two = dc.Game(players=2, seed=1)
    before = two.to_json()
    with pytest.raises(ValueError, match="solo games only"):
        PlannerAgent(playouts=100).act(two)
    assert two.to_json() == before
    with pytest.raises(ValueError, match="solo games only"):
        dc.arena([QUICK, "greedy"], 2)
    with pytest.raises(ValueError, match="solo games only"):
        dc.playouts(QUICK, 2, players=2)
    with pytest.raises(ValueError, match="solo games only"):
        dc.VecEnv(2, players=2, opponents=QUICK)
    with pytest.raises(ValueError, match="solo games only"):
        dc.play(dc.Game(players=2, seed=1), [PlannerAgent(playouts=100), dc.agents.GreedyAgent(0)])
    with pytest.raises(ValueError, match="solo games only"):
        dc.ladder(["greedy", QUICK], 1)


def test_every_solo_runner_plays_it_and_they_agree():
    """The arena, playouts and ``dc.play`` play the same seeded solo game."""
    arena = dc.arena([QUICK], 2, seed=11, threads=2)
    scores, _, lengths = dc.playouts(QUICK, 2, players=1, seed=11, threads=1)
    assert scores[:, 0].tolist() == [g["scores"][0] for g in arena.games]
    assert all(s > 0 for s in scores[:, 0])
    # dc.play with the agent object, seeded per game: a whole game, legal at every step.
    g = dc.Game(players=1, seed=11)
    r = dc.play(g, [PlannerAgent(playouts=400, iterations=5, seed=1)])
    assert g.is_over and r.scores[0] == g.scores()[0] > 0


def test_the_planner_beats_greedy_solo():
    """Even on a small budget, planning beats one decision of look-ahead on every deal tried."""
    planned = dc.arena([QUICK], 4, seed=500, threads=2)
    greedy = dc.arena(["greedy"], 4, seed=500)
    for p, q in zip(planned.games, greedy.games):
        assert p["scores"][0] > q["scores"][0]


#: The follow mode with a playout budget: reproducible, and about a second a solo game.
FOLLOW = "plan:playouts=400,iterations=5,warm=true"


def test_follow_shares_one_policy_over_the_determinizations_and_carries_it():
    """``mode=follow``: each search on a determinization of its own, the
    action the first of most of their plans; the policy goes on to the next
    decision with ``warm``, and ``reset`` forgets it; the same hidden-tile
    control as the default (R-CASTLE-1)."""
    g = dc.Game(players=1, seed=6)
    agent = from_spec(FOLLOW, seed=2)
    first = agent.plan(g)
    assert first.determinizations > 1 and first.playouts >= 400 and first.plan == [first.action]
    # Every search's plan counts for its first action: the tries are the determinizations.
    assert sum(first.tried.values()) == first.determinizations
    assert first.tried[first.action] == max(first.tried.values())
    assert results(first) == results(from_spec(FOLLOW, seed=2).plan(g))
    d = g.determinize(99)
    assert d != g and d.observation(0) == g.observation(0)
    assert results(from_spec(FOLLOW, seed=2).plan(d)) == results(first)
    g.apply(first.action)
    while len(g.legal_actions()) < 2:
        g.apply(g.legal_actions()[0])
    second = agent.plan(g)
    agent.reset()
    assert results(agent.plan(g)) != results(second)
    # It plans on one thread.
    with pytest.raises(ValueError, match="plans on one thread"):
        from_spec(FOLLOW + ",threads=2")
    # A whole game in the runners, the same seeded game in each.
    arena = dc.arena([FOLLOW], 1, seed=3)
    scores, _, _ = dc.playouts(FOLLOW, 1, players=1, seed=3, threads=1)
    assert scores[0, 0] == arena.games[0]["scores"][0] > 0


def test_solo_cli_reports_the_oracle():
    out = subprocess.run([sys.executable, "-m", "dragoncastle", "solo", "--agent", QUICK, "--games", "2", "--seed", "3",
                          "--oracle", "--oracle-agent", "plan:oracle=true,playouts=2000,iterations=10"],
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    lines = [line for line in out.stdout.splitlines() if "oracle" in line]
    assert len(lines) == 2 and all("to the oracle" in line for line in lines)
    bad = subprocess.run([sys.executable, "-m", "dragoncastle", "solo", "--agent", "plan:level=0"],
                         capture_output=True, text=True, timeout=60)
    assert bad.returncode != 0 and "level" in bad.stderr


def test_the_oracle_plans_once_and_reaches_its_plan_score():
    """On the true deal the oracle's first plan is followed to the end: its
    score is the game's, and later decisions need no playout."""
    g = dc.Game(players=1, seed=21)
    oracle = PlannerAgent(playouts=3000, iterations=20, seed=2, oracle=True)
    first = oracle.plan(g)
    promised = first.best[first.action]
    assert first.playouts >= 3000 and first.plan[0] == first.action
    g.apply(first.action)
    later = []
    while not g.is_over:
        r = oracle.plan(g)
        later.append(r.playouts)
        g.apply(r.action)
    assert g.scores()[0] == promised and set(later) == {0}
