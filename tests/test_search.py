"""Tests of the search agent (``dragoncastle.agents.MCTSAgent`` in Rust and its
pure-Python twin ``dragoncastle.reference.agents.MCTSAgent``), of the helpers it
relies on (``returns()``, ``clone(history=False)``, ``determinize``) and of the
arena and its command line. Rule ids (``R-...``) refer to ``shared/RULES.md``.

The whole module runs in about ten seconds: budgets are small, and every search
is seeded, so each assertion is deterministic (apart from the time-limit and GIL
checks, which measure the clock).
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
from dragoncastle.agents import GreedyAgent, MCTSAgent, RandomAgent, from_spec
from dragoncastle.arena import ArenaResult
from dragoncastle.reference.agents import MCTSAgent as PyMCTSAgent
from helpers import FLAT, SANDBOX, Sandbox, deal_for, game, interrupted_by_ctrl_c


# ---------------------------------------------------------------- helpers

def _rollouts():
    """The rollout policies this build offers (a "tuned" one may be added)."""
    out = ["greedy", "random"]
    try:
        MCTSAgent(iterations=1, rollout="tuned")
        out.append("tuned")
    except ValueError:
        pass
    return out


ROLLOUTS = _rollouts()


def play_random(g, seed, steps):
    """Play up to ``steps`` uniformly random decisions (any engine)."""
    rng = random.Random(seed)
    for _ in range(steps):
        if g.is_over:
            break
        g.apply(rng.choice(g.legal_actions()))
    return g


def stats(r):
    """Everything a search reports except its timing, in a comparable form."""
    root = sorted((a.id, n, r.values[a]) for a, n in r.visits.items())
    return r.action.id, root, [a.id for a in r.pv], r.iterations


def texts(g):
    return [str(a) for a in g.legal_actions()]


def take_first(g):
    g.apply(next(a for a in g.legal_actions() if a.kind.name == "TAKE"))


def discard_turn(g):
    """R-ACT-3: take the first offered tile and discard it (+1 VP)."""
    take_first(g)
    g.apply("discard")


def shrine_turn(g):
    """R-ACT-2: take the first offered tile with a Shrine and place it (+0 VP)."""
    take_first(g)
    g.apply("take-shrine")
    g.apply(next(a for a in g.legal_actions() if a.kind.name == "PLACE"))


# The big Dragon set position (R-CONS-1..4). Seat 0's Realm, built with the
# Sandbox (seat 1 only discards), then seat 0 holds a Dr1 to place:
#
#     Se1 Dr1 Wi1  .
#     Dr2  .  Dr3 Dr1
#     Me1 Dr2 So1  .
#      .  Dr3  .   .
#
# The Dragons form groups of 1, 1, 2 and 2 around (1,1); the four corners of
# that cross are blocked by other types. Only (1,1) joins them: a set of 7
# Dragons, 6 VP + 1 for a Dragon set. Every other empty cell makes a group of
# at most 3: no set at all.
BLOCKERS = [((0, 0), "Se1"), ((0, 2), "Wi1"), ((2, 0), "Me1"), ((2, 2), "So1")]
DRAGONS = [((0, 1), "Dr1"), ((1, 0), "Dr2"), ((1, 2), "Dr3"), ((1, 3), "Dr1"), ((2, 1), "Dr2"), ((3, 1), "Dr3")]


def dragon_position(engine):
    cells = BLOCKERS + DRAGONS
    sb = Sandbox(engine, [code for _, code in cells] + ["Dr1"])
    for cell, _ in cells:
        sb.single(cell, shrines=None)
    sb.take()
    sb.g.apply("take-shrine")
    return sb.g


def endgame_position(engine, deficit, left=6):
    """A 2-player game on the all-ground-floor castle (Summon allowed, R-ACT-5):
    seat 0 summoned once (1 of the 2 Countdown tokens that end a 2-player game,
    R-END-1), then both players took turns until ``left`` + 2 tiles remained.
    Seat 1 (the last seat) is to move, behind by ``deficit`` points."""
    assert deficit in (1, 2, 3)
    g = game(engine, FLAT, {})
    g.apply("summon")
    first = True
    while first or g.castle_tiles > left + 2:
        (shrine_turn if first and deficit == 3 else discard_turn)(g)  # seat 1
        (shrine_turn if first and deficit == 1 else discard_turn)(g)  # seat 0
        first = False
    assert g.current_player == 1 and g.scores()[0] - g.scores()[1] == deficit
    return g


# ---------------------------------------------------------------- 1. legality

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
    with pytest.raises(TypeError):
        MCTSAgent(iterations=10, foo=1)


# ---------------------------------------------------------------- 2. obvious best moves

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


# ---------------------------------------------------------------- 3. seeds

@pytest.mark.parametrize("players", [1, 2, 3, 4])
@pytest.mark.parametrize("rollout", ROLLOUTS)
def test_same_seed_same_result(players, rollout):
    """threads=1 and a seed: visits, values and pv are identical for two agents
    and for two searches by one agent; other seeds give other statistics."""
    g = play_random(dc.Game(players=players, seed=40 + players), 7, 15)
    a = MCTSAgent(iterations=400, seed=11, rollout=rollout)
    b = MCTSAgent(iterations=400, seed=11, rollout=rollout)
    first = stats(a.search(g))
    assert stats(b.search(g)) == first
    assert stats(a.search(g)) == first
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


# ---------------------------------------------------------------- 4. time limits

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


# ---------------------------------------------------------------- 5. Python threads

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


# ---------------------------------------------------------------- 6. hidden information

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


# ---------------------------------------------------------------- 7. the Python twin

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


def twin_agrees(seeds, at_least):
    """Late-game positions from real games: where a long Rust search (random
    rollouts and no widening, as the twin's defaults) is decisive (>= 90% of
    the visits on one action), the twin picks the same action."""
    decisive = 0
    for seed, g in late_positions(seeds):
        rust = MCTSAgent(iterations=20_000, seed=1, rollout="random", widening=None).search(g)
        if rust.visits[rust.action] < 0.9 * rust.iterations:
            continue
        decisive += 1
        twin = PyMCTSAgent(iterations=2000, seed=1).search(g)
        assert twin.action == rust.action, (seed, g.to_json())
    assert decisive >= at_least


def test_twin_and_rust_agree_on_late_game_positions():
    twin_agrees(range(10), at_least=4)


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


# ---------------------------------------------------------------- 8. returns

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


# ---------------------------------------------------------------- 9. clone(history=False)

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


# ---------------------------------------------------------------- 10. arena

SPECS = ["mcts:iterations=30,rollout=random,reuse=true", "greedy"]


def strip(result):
    return [(g["seed"], g["agent_of_seat"], g["scores"], g["winners"], g["actions"], g["decisions"]) for g in result.games]


def test_arena_is_independent_of_threads_and_shards():
    """Game k uses seed + k; results don't depend on threads or shards."""
    one = dc.arena(SPECS, 6, seed=0, threads=1)
    two = dc.arena(SPECS, 6, seed=0, threads=2)
    a = dc.arena(SPECS, 3, seed=0, threads=2)
    b = dc.arena(SPECS, 3, seed=3, threads=1)
    assert strip(one) == strip(two) == strip(a) + strip(b)
    assert [g["seed"] for g in one.games] == list(range(6))
    specs3 = ["mcts:iterations=20", "greedy", "random"]
    assert strip(dc.arena(specs3, 3, seed=5, threads=1)) == strip(dc.arena(specs3, 3, seed=5, threads=2))


def test_arena_seats_rotate_and_summaries_add_up():
    specs = ["mcts:iterations=10,rollout=random", "greedy", "random"]
    r = dc.arena(specs, 6, seed=4, threads=2)
    for g in r.games:
        assert g["agent_of_seat"] == [(i + g["seed"]) % 3 for i in range(3)]
    for seat in range(3):
        assert sorted(g["agent_of_seat"][seat] for g in r.games[:3]) == [0, 1, 2]
    assert sum(r.win_rates()) == pytest.approx(1.0)
    means = [sum(g["scores"][g["agent_of_seat"].index(a)] for g in r.games) / 6 for a in range(3)]
    assert r.mean_scores() == pytest.approx(means)
    # Time per move: each agent's seconds over its decisions, summed over its seats.
    for a, per_move in enumerate(r.seconds_per_move()):
        seats = [(g, g["agent_of_seat"].index(a)) for g in r.games]
        spent = sum(g["seconds"][s] for g, s in seats)
        moves = sum(g["decisions"][s] for g, s in seats)
        assert per_move == pytest.approx(spent / moves)
    assert r.seconds_per_move()[0] > r.seconds_per_move()[2], "a search takes longer than a random pick"
    lines = r.table().splitlines()
    assert lines[0].startswith("6 games, 3 player(s)") and len(lines) == 5


def test_arena_records_replay_in_both_engines():
    r = dc.arena(SPECS, 4, seed=10, threads=2)
    lines = list(r.records())
    assert len(lines) == 4
    for line, g in zip(lines, r.games):
        meta = json.loads(line)["meta"]
        assert meta["agents"] == [SPECS[a] for a in g["agent_of_seat"]]
        for engine in (dc, ref):
            replay = engine.Game.from_json(line)
            assert replay.is_over
            assert replay.scores() == g["scores"] and replay.winners() == g["winners"]
        fresh = dc.Game(players=2, seed=g["seed"])
        for a in g["actions"]:
            fresh.apply(a)
        assert fresh.scores() == g["scores"]


def test_arena_from_records_merges_shards():
    whole = dc.arena(SPECS, 6, seed=0, threads=2)
    a = dc.arena(SPECS, 3, seed=3, threads=1)
    b = dc.arena(SPECS, 3, seed=0, threads=1)
    merged = ArenaResult.from_records(list(a.records()) + list(b.records()))
    assert merged.agents == SPECS
    key = lambda r: [(g["seed"], g["agent_of_seat"], g["scores"], g["winners"], g["actions"]) for g in r.games]
    assert key(merged) == key(whole)
    again = ArenaResult.from_records(whole.records())
    assert again.win_rates() == whole.win_rates()
    assert again.mean_scores() == whole.mean_scores()
    assert again.seconds_per_move() == pytest.approx(whole.seconds_per_move())
    assert again.table().splitlines()[1:] == whole.table().splitlines()[1:]
    # A record whose result does not replay is refused.
    bad = json.loads(next(iter(whole.records())))
    bad["summary"]["scores"] = [s + 1 for s in bad["summary"]["scores"]]
    with pytest.raises(ValueError):
        ArenaResult.from_records([json.dumps(bad)])
    with pytest.raises(ValueError):
        ArenaResult.from_records([dc.Game(players=2, seed=1).to_json()])


def test_solo_arena():
    """R-SOLO-1: one agent plays solo against the Dragon of Ingenuity."""
    r = dc.arena(["mcts:iterations=20"], 3, seed=7, threads=2)
    assert [g["seed"] for g in r.games] == [7, 8, 9]
    for g, line in zip(r.games, r.records()):
        assert g["agent_of_seat"] == [0] and g["winners"] == [0] and len(g["scores"]) == 1
        replay = dc.Game(players=1, seed=g["seed"])
        for a in g["actions"]:
            replay.apply(a)
        assert replay.is_over and replay.scores() == g["scores"]
        assert ref.Game.from_json(line).scores() == g["scores"]
    assert r.mean_scores() == [sum(g["scores"][0] for g in r.games) / 3]
    assert "mean score" in r.table() and "sd" in r.table()
    assert strip(r) == strip(dc.arena(["mcts:iterations=20"], 3, seed=7, threads=1))


@pytest.mark.parametrize("spec", ["mcts:foo=1", "nobody", "mcts:iterations=0", "mcts:iterations=x", "mcts:time=-1",
                                  "greedy:x=1", "mcts:epsilon=2", "mcts:reward=lots"])
def test_bad_specs_are_value_errors(spec):
    with pytest.raises(ValueError):
        dc.arena([spec, "greedy"], 2)
    with pytest.raises(ValueError):
        from_spec(spec)


def test_bad_arena_arguments():
    for n in (0, -1, True, 1.5):
        with pytest.raises(ValueError):
            dc.arena(["greedy", "random"], n)
    with pytest.raises(ValueError):
        dc.arena(["greedy"] * 5, 1)
    with pytest.raises(ValueError):
        dc.arena([], 1)
    with pytest.raises(ValueError):
        dc.arena(["greedy", "random"], 1, threads=0)


def test_arena_progress_callback():
    """``progress(done)`` reports finished games (the last call: all of them);
    an exception raised by it stops the run and propagates."""
    seen = []
    dc.arena(["greedy", "random"], 5, seed=0, progress=seen.append)
    assert seen and seen[-1] == 5 and seen == sorted(seen)

    class Stop(Exception):
        pass

    def stop(done):
        raise Stop

    with pytest.raises(Stop):
        dc.arena(["mcts:iterations=200", "greedy"], 40, seed=0, threads=1, progress=stop)


def test_arena_records_keep_the_rules_of_the_run():
    """R-CONS-3 [option]: an arena played with ``dragon_set_bonus=False`` must
    record games that replay (``Game.from_json``) to the scores that were played."""
    rules = dc.Rules(dragon_set_bonus=False)
    r = dc.arena(["greedy", "greedy"], 20, seed=0, rules=rules)
    for g, line in zip(r.games, r.records()):
        replay = dc.Game.from_json(line)
        assert replay.rules.dragon_set_bonus is False
        assert replay.scores() == g["scores"]


def test_from_spec_builds_the_agent():
    a = from_spec("mcts:iterations=50,rollout=random,c=0.3,reuse=true", seed=3)
    assert isinstance(a, MCTSAgent) and a.iterations == 50 and a.seed == 3
    assert a.tuning["rollout"] == "random" and a.tuning["exploration"] == 0.3 and a.tuning["reuse_tree"] is True
    g = dc.Game(players=2, seed=1)
    assert a.act(g) in g.legal_actions()
    assert isinstance(from_spec("greedy"), GreedyAgent) and isinstance(from_spec("random"), RandomAgent)


# ---------------------------------------------------------------- 11. tree reuse

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
    plain = Recorder(MCTSAgent(iterations=n, seed=1, rollout=rollout))
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


# ---------------------------------------------------------------- 12. command line

def test_cli_arena_record_and_merge(tmp_path, capsys):
    from dragoncastle.cli import main

    seats = ["--seats", "mcts:iterations=20,rollout=random", "greedy"]
    p1, p2 = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    assert main(["arena", *seats, "--games", "4", "--threads", "2", "--record", str(p1)]) == 0
    assert main(["arena", *seats, "--games", "2", "--seed", "4", "--record", str(p2)]) == 0
    out = capsys.readouterr().out
    assert "4 games, 2 player(s)" in out and "win rate" in out and f"recorded 4 games in {p1}" in out
    assert len(p1.read_text().splitlines()) == 4 and len(p2.read_text().splitlines()) == 2
    assert main(["arena", "--merge", str(p1), str(p2)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("6 games, 2 player(s)") and "mcts:iterations=20,rollout=random" in out
    whole = dc.arena(["mcts:iterations=20,rollout=random", "greedy"], 6, seed=0)
    # The same win rates, intervals and mean scores as one run (time/move,
    # a number and its unit, is timing).
    cut = lambda lines: [line.rsplit(None, 2)[0] for line in lines[1:]]
    assert cut(out.splitlines()) == cut(whole.table().splitlines())


def test_cli_solo_prints_ranks(capsys):
    from dragoncastle.cli import main

    assert main(["solo", "--agent", "mcts:iterations=30", "--games", "3"]) == 0
    out = capsys.readouterr().out
    assert "ranks:" in out and "3 games: mean" in out
    assert sum(1 for line in out.splitlines() if line.startswith("seed ") and ", rank " in line) == 3


@pytest.mark.parametrize("argv", [
    ["arena", "--games", "0"],
    ["arena", "--games", "-3"],
    ["solo", "--games", "0"],
    ["arena", "--seats", "mcts:foo=1", "greedy", "--games", "2"],
    ["arena", "--threads", "0", "--games", "2"],
    ["arena", "--seed", "12345678901234567890123"],
    ["bench", "--games", "0"],
    ["bench", "--seconds", "-1"],
    ["bench", "--seconds", "nan"],
    ["play", "--seats", "greedy"],
])
def test_cli_rejects_bad_arguments(argv, capsys):
    from dragoncastle.cli import main

    with pytest.raises(SystemExit) as e:
        main(argv)
    assert e.value.code == 2
    assert "error" in capsys.readouterr().err


def test_cli_output_piped_into_head_ends_quietly():
    """Issue 12: `dragoncastle play -v | head -2` prints no traceback."""
    import subprocess
    import sys

    cmd = f"{sys.executable} -m dragoncastle play -v --seed 3 | head -2"
    r = subprocess.run(["bash", "-c", "set -o pipefail; " + cmd], capture_output=True, text=True, timeout=120)
    assert r.stdout.count("\n") == 2 and "Traceback" not in r.stderr and "BrokenPipe" not in r.stderr, r.stderr


# ---------------------------------------------------------------- Ctrl-C

@pytest.mark.parametrize("what", ["search", "arena", "playouts", "vecenv"])
def test_ctrl_c_stops_long_rust_calls(what):
    """Long Rust calls answer Ctrl-C within a fraction of a second and raise
    KeyboardInterrupt (the search and the arena watch a stop flag)."""
    if what == "vecenv":
        # The learner moves first; each answer is a long search. The reset
        # arrays are what a rolled-back step must leave.
        env = dc.VecEnv(4, players=2, seed=0, threads=2, opponent="mcts:iterations=10000000", learner=0)
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
            dc.playouts(10**7, players=2, seed=0, threads=2)
    if what == "vecenv":
        # The stopped step was rolled back: every game is where it was.
        after = [env.state_text(i) for i in range(len(env))]
        assert after == before and (live_masks == masks_before).all()


# ---------------------------------------------------------------- the twin's rollout policies

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


# ---------------------------------------------------------------- limits and review findings

@pytest.mark.parametrize("kwargs", [
    {"time_limit": 1e300}, {"time_limit": 1e19}, {"iterations": 10, "max_nodes": 2}, {"threads": 10**6},
    {"time_limit": float("nan")}, {"exploration": float("inf")},
])
def test_search_limits_are_clean_errors(kwargs):
    """Out-of-range budgets are ValueErrors, never a panic or a hang."""
    with pytest.raises(ValueError):
        MCTSAgent(**kwargs).search(dc.Game(players=2, seed=1))


def test_arena_limits_are_clean_errors():
    with pytest.raises(ValueError):
        dc.arena(["mcts:time=1e300,iterations=5", "random"], 1)
    with pytest.raises(ValueError):
        dc.arena(["random", "random"], 2, seed=2**64 - 1)  # game seeds seed + k would wrap
    with pytest.raises(ValueError):
        dc.arena(["random", "random"], 2, threads=10**6)


def test_a_tiny_time_limit_still_searches():
    r = MCTSAgent(time_limit=1e-9, seed=1).search(dc.Game(players=2, seed=1))
    assert r.iterations >= 1 and sum(r.visits.values()) == r.iterations


def test_spec_exploration_follows_the_game():
    """A spec without ``c`` takes the default of the game it plays (0.05 in
    solo, 0.5 with the win reward); with ``c`` it is fixed."""
    assert from_spec("mcts:iterations=50").tuning["exploration"] is None
    assert from_spec("mcts:iterations=50,c=0.3").tuning["exploration"] == 0.3
    solo = dc.Game(players=1, seed=4)
    a = from_spec("mcts:iterations=300", seed=1).search(solo)
    b = MCTSAgent(iterations=300, seed=1, exploration=0.05, reward="win", rollout="tuned", epsilon=0.0,
                  rollout_depth=None, reuse_tree=False, max_nodes=4_000_000, widening=1.0).search(solo)
    assert stats(a) == stats(b)


def test_merging_a_shard_twice_is_an_error():
    r = dc.arena(["greedy", "random"], 3, seed=0)
    lines = list(r.records())
    with pytest.raises(ValueError, match="twice"):
        ArenaResult.from_records(lines + lines[:1])


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


@pytest.mark.slow
def test_twin_and_rust_agree_on_more_late_game_positions():
    twin_agrees(range(10, 40), at_least=10)


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
