"""Tests of the search agent, ``dragoncastle.agents.MCTSAgent`` (the Rust
search), and of ``determinize``, which it searches through. Its pure-Python
twin is tested in test_twin.py, the arena that plays it in test_arena.py.
Rule ids (``R-...``) refer to ``shared/RULES.md``.

Budgets are small and every search is seeded, so each assertion is
deterministic (apart from the time-limit and GIL checks, which measure the
clock).
"""

from __future__ import annotations

import json
import random
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pytest

import dragoncastle as dc
from dragoncastle import reference as ref
from dragoncastle.agents import GreedyAgent, MCTSAgent
from helpers import SANDBOX, deal_for, dragon_position, endgame_position, play_random, stats, texts


# The rollout policies that MCTSAgent documents. Listed, not probed: a build
# that lost one must fail here, not test fewer policies.
ROLLOUTS = ["greedy", "random", "tuned"]


# ---------------------------------------------------------------- legality

@pytest.mark.parametrize("rollout", ROLLOUTS)
@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_search_returns_only_legal_actions(players, rollout):
    """The search's action, root statistics and the head of its principal
    variation are legal in the true position, at several points of a game; the
    game itself is not changed by searching it."""
    for steps in (0, 9, 40, 120):
        g = play_random(dc.Game(players=players, seed=players * 10 + steps), steps, steps)
        if g.is_over:
            continue
        before = g.clone()
        legal = g.legal_actions()
        r = MCTSAgent(iterations=150, seed=steps, rollout=rollout).search(g)
        assert r.action in legal
        assert set(r.visits) <= set(legal) and set(r.values) == set(r.visits)
        assert r.pv and r.pv[0] == r.action
        assert all(0.0 <= v <= 1.0 for v in r.values.values())
        if len(legal) > 1:
            assert r.iterations == 150
            assert sum(r.visits.values()) == 150
            assert r.visits[r.action] == max(r.visits.values())
            assert r.nodes > 1
        else:
            assert r.iterations == 0
        assert g == before and g.history == before.history


def test_single_legal_action_is_returned_without_search():
    """A decision with one legal action is answered at once (iterations == 0)."""
    g = dc.Game(players=2, seed=5)
    rng = random.Random(5)
    while len(g.legal_actions()) != 1:
        g.apply(rng.choice(g.legal_actions()))
    r = MCTSAgent(iterations=500, seed=1).search(g)
    assert r.action == g.legal_actions()[0]
    assert r.iterations == 0 and r.visits == {r.action: 0}


def test_search_of_a_finished_or_foreign_game_is_refused():
    g = play_random(dc.Game(players=2, seed=1), 1, 10_000)
    assert g.is_over
    with pytest.raises(ValueError):
        MCTSAgent(iterations=10, seed=1).search(g)
    with pytest.raises(TypeError):
        MCTSAgent(iterations=10, seed=1).search(ref.Game(players=2, seed=1))
    with pytest.raises(ValueError):
        MCTSAgent(iterations=0)
    with pytest.raises(ValueError):
        MCTSAgent(time_limit=-1.0)
    with pytest.raises(ValueError):
        MCTSAgent(iterations=10, reward="lots")
    with pytest.raises(ValueError, match="unknown mcts setting"):
        MCTSAgent(iterations=10, foo=1)


# ---------------------------------------------------------------- obvious best moves

def test_dragon_position_is_as_described():
    """R-CONS-1, R-CONS-2, R-CONS-3, R-CONS-4: in :func:`dragon_position` only
    ``place 1,1`` consolidates anything: one set of 7 Dragons, 6 + 1 VP."""
    g = dragon_position(dc)
    assert g.phase.name == "PLACE" and g.current_player == 0
    gains = {}
    for a in g.legal_actions():
        h = g.clone()
        h.apply(a)
        gains[str(a)] = h.vp_tokens(0) - g.vp_tokens(0)
    assert gains == {"place 0,3": 0, "place 1,1": 7, "place 2,3": 0, "place 3,0": 0, "place 3,2": 0, "place 3,3": 0}


@pytest.mark.parametrize("kw", [{}, {"reward": "margin"}, {"threads": 2}] + [{"rollout": r} for r in ROLLOUTS])
def test_search_completes_the_big_dragon_set(kw):
    """R-CONS-2, R-CONS-3, R-CONS-4: the one placement that makes a set of 7
    Dragons (7 VP) is chosen, and valued above every other placement."""
    g = dragon_position(dc)
    for seed in (1, 2):
        r = MCTSAgent(iterations=2000, seed=seed, **kw).search(g)
        assert str(r.action) == "place 1,1"
        best = r.values[r.action]
        assert all(best > v for a, v in r.values.items() if a != r.action)


def test_endgame_position_summon_wins_or_loses():
    """R-ACT-5, R-END-1, R-END-2, R-END-3: seat 1 is the last seat; its Summon
    takes the 2nd Countdown token (2 points) and ends the game at once."""
    for deficit, returns in ((1, [0.0, 1.0]), (2, [0.5, 0.5]), (3, [1.0, 0.0])):
        g = endgame_position(dc, deficit)
        assert "summon" in texts(g) and g.countdown_left == 6
        g.apply("summon")
        assert g.is_over and g.countdown_tokens(1) == 1
        assert g.returns() == returns


@pytest.mark.parametrize("kw", [{}, {"threads": 2}] + [{"rollout": r} for r in ROLLOUTS])
def test_search_summons_when_it_wins_the_game(kw):
    """R-ACT-5, R-END-1: behind by 1 at the end, Summon (2 points, ends the game
    at once) is a certain win: chosen, with value exactly 1. Behind by 3 it is a
    certain loss (value 0) and the search plays on instead."""
    g = endgame_position(dc, deficit=1)
    r = MCTSAgent(iterations=2000, seed=3, **kw).search(g)
    assert str(r.action) == "summon"
    assert r.values[r.action] == 1.0
    g = endgame_position(dc, deficit=3)
    r = MCTSAgent(iterations=2000, seed=3, **kw).search(g)
    summon = dc.Action.parse("summon")
    assert r.action != summon
    assert r.values[summon] == 0.0


# ---------------------------------------------------------------- seeds

@pytest.mark.parametrize("players", [1, 2, 3, 4])
@pytest.mark.parametrize("rollout", ROLLOUTS)
def test_same_seed_same_result(players, rollout):
    """threads=1 and a seed: visits, values and pv are identical for two agents
    and, without tree reuse, for two searches by one agent; with it (the
    default) two agents continue their trees alike; other seeds give other
    statistics."""
    g = play_random(dc.Game(players=players, seed=40 + players), 7, 15)
    a = MCTSAgent(iterations=400, seed=11, rollout=rollout)
    b = MCTSAgent(iterations=400, seed=11, rollout=rollout)
    first = stats(a.search(g))
    assert stats(b.search(g)) == first
    again = stats(a.search(g))
    assert again == stats(b.search(g)) and again != first  # the kept tree continued
    fresh_each_time = MCTSAgent(iterations=400, seed=11, rollout=rollout, reuse_tree=False)
    assert stats(fresh_each_time.search(g)) == stats(fresh_each_time.search(g)) == first
    others = [stats(MCTSAgent(iterations=400, seed=s, rollout=rollout).search(g)) for s in (12, 13, 14)]
    assert any(o != first for o in others)
    # seed=None draws a fresh seed per search.
    fresh = MCTSAgent(iterations=400, rollout=rollout)
    assert any(stats(fresh.search(g)) != first for _ in range(3))


def test_threaded_search_is_seeded_and_counts_all_iterations():
    """Root-parallel trees (threads=2) split the iteration budget and merge
    their root statistics; with a seed the result is reproducible."""
    g = play_random(dc.Game(players=2, seed=8), 8, 12)
    a = MCTSAgent(iterations=601, threads=2, seed=5).search(g)
    b = MCTSAgent(iterations=601, threads=2, seed=5).search(g)
    assert stats(a) == stats(b)
    assert a.iterations == 601 == sum(a.visits.values())


# ---------------------------------------------------------------- time limits

@pytest.mark.parametrize("kw", [
    {"time_limit": 0.2},
    {"time_limit": 0.2, "rollout": "random"},
    {"time_limit": 0.2, "threads": 2},
    {"time_limit": 0.2, "iterations": 10**9},
])
def test_time_limit_is_honoured(kw):
    """time_limit stops the search within a small margin."""
    g = dc.Game(players=3, seed=2)
    start = time.perf_counter()
    r = MCTSAgent(seed=1, **kw).search(g)
    wall = time.perf_counter() - start
    assert 0.2 <= r.seconds <= wall < 0.2 + 0.15
    assert r.iterations > 0 and sum(r.visits.values()) == r.iterations


def test_iterations_first_when_reached_before_the_time_limit():
    """With both budgets, whichever is reached first ends the search."""
    g = dc.Game(players=1, seed=2)
    start = time.perf_counter()
    r = MCTSAgent(iterations=300, time_limit=5.0, seed=1).search(g)
    assert time.perf_counter() - start < 2.0
    assert r.iterations == 300


def test_a_tiny_time_limit_still_searches():
    r = MCTSAgent(time_limit=1e-9, seed=1).search(dc.Game(players=2, seed=1))
    assert r.iterations >= 1 and sum(r.visits.values()) == r.iterations


# ---------------------------------------------------------------- Python threads

def test_searches_in_python_threads_match_sequential_runs():
    """Several seeded searches at once in Python threads (on clones, and on one
    shared game) give exactly the sequential results."""
    games = [play_random(dc.Game(players=p, seed=s), s, 20) for p, s in ((2, 1), (3, 2), (4, 3), (1, 4))]
    jobs = [(k, g) for k, g in enumerate(games)] * 2

    def run(job, clone=True):
        k, g = job
        return stats(MCTSAgent(iterations=1500, seed=k).search(g.clone() if clone else g))

    sequential = [run(j) for j in jobs]
    with ThreadPoolExecutor(max_workers=4) as ex:
        assert list(ex.map(run, jobs)) == sequential
        assert list(ex.map(lambda j: run(j, clone=False), jobs)) == sequential


def test_search_releases_the_gil():
    """While a 0.6 s search runs in another thread, this thread keeps running
    Python code: it is never stalled for anything like the search's length."""
    g = dc.Game(players=2, seed=3)
    out = []
    t = threading.Thread(target=lambda: out.append(MCTSAgent(time_limit=0.6, seed=1).search(g)))
    last = time.perf_counter()
    gap = 0.0
    t.start()
    while t.is_alive():
        now = time.perf_counter()
        gap = max(gap, now - last)
        last = now
    t.join()
    assert out and out[0].seconds >= 0.6
    assert gap < 0.3, f"the main thread was stalled for {gap:.3f} s"


def test_the_game_may_be_used_while_it_is_searched():
    """The search copies the position and lets go of the game before the GIL
    is released: other threads may read and play it meanwhile."""
    g = dc.Game(players=2, seed=8)
    h = g.clone()
    result = {}
    t = threading.Thread(target=lambda: result.setdefault("r", MCTSAgent(time_limit=0.5, seed=1).search(g)))
    t.start()
    time.sleep(0.1)
    assert g.legal_actions()
    g.apply(g.legal_actions()[0])  # while the search runs
    t.join()
    assert result["r"].action in h.legal_actions()


# ---------------------------------------------------------------- hidden information

def covered_permuted_deals():
    """Two deals for :data:`SANDBOX` (58 stacks of 2: every ground-floor tile is
    covered, R-CASTLE-1) with the same tops and the covered tiles rotated."""
    a = deal_for(SANDBOX, {})
    covered = a[0::2]
    b = list(a)
    b[0::2] = covered[7:] + covered[:7]
    assert a != b and sorted(a) == sorted(b) and a[1::2] == b[1::2]
    return a, b


def test_explicit_deals_differing_only_in_covered_tiles():
    """R-CASTLE-1: games whose deals differ only in covered tiles look the same
    to everybody, and a seeded search gives the same answer on both."""
    da, db = covered_permuted_deals()
    ga = dc.Game(players=2, layout=SANDBOX, deal=da)
    gb = dc.Game(players=2, layout=SANDBOX, deal=db)
    assert ga != gb
    assert ga.observation(0) == gb.observation(0) and ga.observation(1) == gb.observation(1)
    for kw in ({}, {"rollout": "random"}, {"threads": 2}):
        assert stats(MCTSAgent(iterations=500, seed=2, **kw).search(ga)) == stats(MCTSAgent(iterations=500, seed=2, **kw).search(gb))


@pytest.mark.parametrize("players", [2, 3])
def test_search_never_reads_hidden_tiles(players):
    """``g.determinize(123)`` keeps all public information and re-deals the
    covered tiles: a seeded search gives exactly the same visits, values and pv
    on both. Searching the true state (``determinize=False``, measurement only)
    does see the difference, so the two positions really differ."""
    g = play_random(dc.Game(players=players, seed=30), 30, 50)
    d = g.determinize(123)
    assert d != g
    for p in range(players):
        assert d.observation(p) == g.observation(p)
    for kw in ({}, {"rollout": "random"}, {"threads": 2}):
        assert stats(MCTSAgent(iterations=500, seed=4, **kw).search(g)) == stats(MCTSAgent(iterations=500, seed=4, **kw).search(d))
    cheat = [stats(MCTSAgent(iterations=500, seed=4, determinize=False).search(x)) for x in (g, d)]
    assert cheat[0] != cheat[1]


def test_determinize_depends_on_public_information_only(dc):
    """R-CASTLE-1: ``determinize(s)`` of two games with the same public
    information (but different covered tiles) is the same game, in both engines."""
    g = play_random(dc.Game(players=2, seed=30), 30, 50)
    d = g.determinize(123)
    assert d != g
    for s in (0, 5, 2**63 + 1):
        assert g.determinize(s) == d.determinize(s)
    assert g.determinize(5) != g.determinize(6)
    da, db = covered_permuted_deals()
    ga = dc.Game(players=2, layout=SANDBOX, deal=da)
    gb = dc.Game(players=2, layout=SANDBOX, deal=db)
    assert ga != gb and ga.determinize(9) == gb.determinize(9)


def test_determinize_is_the_same_in_both_engines():
    """R-SEED-1 extended to re-deals: the same seed re-deals the same way in Rust
    and in Python (the twin agent relies on it)."""
    g1 = play_random(dc.Game(players=3, seed=4), 0, 60)
    g2 = ref.Game(players=3, seed=4)
    for a in g1.history:
        g2.apply(a.id)
    assert json.loads(g1.to_json()) == json.loads(g2.to_json())
    for s in (1, 9):
        assert json.loads(g1.determinize(s).to_json()) == json.loads(g2.determinize(s).to_json())


# ---------------------------------------------------------------- tree reuse

class Recorder:
    """An agent that keeps every SearchResult (with the number of legal actions)."""

    def __init__(self, agent):
        self.agent, self.results = agent, []

    def act(self, g):
        r = self.agent.search(g)
        self.results.append((len(g.legal_actions()), r))
        return r.action


@pytest.mark.parametrize("rollout", ROLLOUTS)
def test_tree_reuse_over_a_whole_game(rollout):
    """reuse_tree=True playing a whole 2-player game against greedy: every
    search runs exactly the configured iterations, the kept subtrees are used
    (trees larger than one search could grow), and a new game starts afresh."""
    n = 40
    rec = Recorder(MCTSAgent(iterations=n, seed=1, rollout=rollout, reuse_tree=True))
    result = dc.play(dc.Game(players=2, seed=6), [rec, GreedyAgent(2)])
    assert result.game.is_over and len(result.actions) == len(result.move_seconds)
    searched = [r for k, r in rec.results if k > 1]
    assert searched and all(r.iterations == n for r in searched)
    assert all(r.iterations == 0 for k, r in rec.results if k == 1)
    assert any(r.nodes > n + 1 for r in searched)  # a reused subtree
    assert all(sum(r.visits.values()) >= n for r in searched)
    # A position that does not follow the kept tree gets a fresh one.
    fresh = rec.agent.search(dc.Game(players=2, seed=99))
    assert fresh.iterations == n and fresh.nodes <= n + 1
    # Without reuse no tree is ever larger than one search's.
    plain = Recorder(MCTSAgent(iterations=n, seed=1, rollout=rollout, reuse_tree=False))
    dc.play(dc.Game(players=2, seed=6), [plain, GreedyAgent(2)])
    assert all(r.nodes <= n + 1 for k, r in plain.results if k > 1)


def test_tree_reuse_in_solo():
    """Solo (R-SOLO-2: the Dragon of Ingenuity's turns are played by ``apply``):
    the kept tree follows the player's decisions across the Dragon's turns."""
    n = 40
    agent = MCTSAgent(iterations=n, seed=1, reuse_tree=True)
    g = dc.Game(players=1, seed=3)
    sizes = []
    while not g.is_over:
        k = len(g.legal_actions())
        r = agent.search(g)
        assert r.iterations == (n if k > 1 else 0)
        sizes.append(r.nodes)
        g.apply(r.action)
    assert sum(1 for x in sizes if x > n + 1) > len(sizes) // 2
    agent.reset()
    assert agent.search(dc.Game(players=1, seed=3)).nodes <= n + 1


def second_decision_visits(agent) -> int:
    """Root visits of ``agent``'s second searched decision in solo game 3 (the
    first one's tree kept or not, as the agent says)."""
    g = dc.Game(players=1, seed=3)
    while len(g.legal_actions()) == 1:
        g.apply(g.legal_actions()[0])
    g.apply(agent.search(g).action)
    while len(g.legal_actions()) == 1:
        g.apply(g.legal_actions()[0])
    return sum(agent.search(g).visits.values())


def test_reuse_weight_shrinks_the_kept_visits():
    """``reuse_weight=w`` continues the kept tree with its counts times w: a
    solo search after one decision holds its own iterations plus a share of
    the kept visits, fewer than at full weight and more than a fresh search;
    a weight outside (0, 1] raises ValueError."""
    n = 400
    visited = {}
    for w in (1.0, 0.25):
        visited[w] = second_decision_visits(MCTSAgent(iterations=n, seed=1, reuse_tree=True, reuse_weight=w))
    assert n < visited[0.25] < visited[1.0], visited
    for bad in (0, -0.5, 1.5, float("nan")):
        with pytest.raises(ValueError, match="reuse_weight"):
            MCTSAgent(iterations=10, reuse_tree=True, reuse_weight=bad)
    with pytest.raises(ValueError, match="reuse_weight"):
        dc.agents.from_spec("mcts:iterations=10,reuse=true,reuse_weight=2")
    assert dc.agents.from_spec("mcts:iterations=10,reuse=true,reuse_weight=0.3").settings["reuse_weight"] == 0.3


def test_tree_reuse_is_the_default():
    """``MCTSAgent()`` and the ``mcts`` spec keep their tree, its statistics
    weighed 0.2, unless told not to: a default agent's second decision holds
    more visits than its own iterations (the kept ones) and fewer than whole
    reuse keeps; ``reuse_tree=False`` (``reuse=false``) searches afresh."""
    n = 400
    settings = dc._core.Player.parse("mcts:iterations=10").settings()  # every setting, defaults included
    assert settings["reuse"] is True and settings["reuse_weight"] == 0.2
    assert dc.agents.from_spec("mcts:iterations=10,reuse=false").settings["reuse"] is False

    default = second_decision_visits(MCTSAgent(iterations=n, seed=1))
    assert default == second_decision_visits(MCTSAgent(iterations=n, seed=1, reuse_tree=True, reuse_weight=0.2))
    assert n < default < second_decision_visits(MCTSAgent(iterations=n, seed=1, reuse_weight=1.0))
    assert second_decision_visits(MCTSAgent(iterations=n, seed=1, reuse_tree=False)) == n
    assert second_decision_visits(dc.agents.from_spec("mcts:iterations=400", seed=1)) == default


def test_tree_reuse_does_not_leak_into_another_deal():
    """A kept tree belongs to one game: searching another deal at the same
    (empty) history must give what a fresh agent with the same seed gives, and
    exactly ``iterations`` root visits."""
    agent = MCTSAgent(iterations=200, seed=1, reuse_tree=True, rollout="random")
    agent.search(dc.Game(players=2, seed=1))
    other = dc.Game(players=2, seed=2)
    r = agent.search(other)
    assert sum(r.visits.values()) == r.iterations == 200
    assert stats(r) == stats(MCTSAgent(iterations=200, seed=1, rollout="random").search(other))


def test_tree_reuse_survives_a_forced_move():
    """A decision with one legal action is not searched and keeps the tree:
    the search after it continues a tree grown by earlier searches."""
    agent = MCTSAgent(iterations=300, seed=1, reuse_tree=True)
    greedy = GreedyAgent(seed=2)
    checked = reused = 0
    for seed in range(3, 8):
        g = dc.Game(players=2, seed=seed)
        agent.reset()
        after_forced = False
        while not g.is_over:
            if g.current_player == 1:
                g.apply(greedy.act(g))
                continue
            forced = len(g.legal_actions()) == 1
            r = agent.search(g)
            if after_forced and not forced:
                # More nodes than one search of 300 iterations grows: the tree
                # came through the forced move (when the forced move's node was
                # in it; a leaf has no children to follow).
                reused += r.nodes > 301
                checked += 1
            after_forced = forced
            g.apply(r.action)
    assert checked >= 3 and reused >= 1, (checked, reused)


# ---------------------------------------------------------------- limits

@pytest.mark.parametrize("kwargs", [
    {"time_limit": 1e300}, {"time_limit": 1e19}, {"iterations": 10, "max_nodes": 2}, {"threads": 10**6},
    {"time_limit": float("nan")}, {"exploration": float("inf")},
])
def test_search_limits_are_clean_errors(kwargs):
    """Out-of-range budgets are ValueErrors, never a panic or a hang."""
    with pytest.raises(ValueError):
        MCTSAgent(**kwargs).search(dc.Game(players=2, seed=1))


def test_rollouts_that_weigh_spirits_change_nothing_without_spirit_cards():
    """R-SPIRIT-1, R-SPIRIT-2: only a Spirit card in play is activated. Without
    one, rollouts with ``rollout_spirits`` play the moves of the default ones, so
    in the base game the search decides as without the setting."""
    for seed in (3, 8):
        histories = []
        for extra in ("", ",rollout_spirits=true"):
            g = dc.Game(players=2, seed=seed)
            dc.play(g, [f"mcts:iterations=150{extra}", "greedy"])
            histories.append([a.id for a in g.history])
        assert histories[0] == histories[1]


# ---------------------------------------------------------------- long runs (pytest -m slow)

@pytest.mark.slow
def test_mcts_beats_greedy_in_two_player_games():
    """Strength, counted in iterations: 1,000 iterations per decision win at
    least 85% of 40 two-player games against greedy, seats rotated
    (benches/search.py measures 200 games at 2,000: 100%)."""
    r = dc.arena(["mcts:iterations=1000", "greedy"], 40, seed=500, threads=2)
    assert r.win_rates()[0] >= 0.85, r.table()


@pytest.mark.slow
def test_mcts_solo_beats_greedy_by_far():
    """Solo at 2,000 iterations with tree reuse averages at least 44 points
    over 20 deals (greedy averages about 23)."""
    r = dc.arena(["mcts:iterations=2000,reuse=true"], 20, seed=100, threads=2)
    scores = [g["scores"][0] for g in r.games]
    assert sum(scores) / len(scores) >= 44, scores
