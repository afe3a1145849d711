"""The search that learns (API.md, "Search that learns"): Python evaluators
inside the Rust search, PUCT, the visit policy, self-play data and the
rating ladder. The search's own generic tests (a toy game) are in
``rust/search/toy.rs``."""

from __future__ import annotations

import time

import numpy as np
import pytest

import dragoncastle as dc
from dragoncastle.agents import MCTSAgent
from dragoncastle.ladder import LadderResult, bradley_terry
from helpers import interrupted_by_ctrl_c


def uniform(players):
    def fn(observations, masks):
        return np.ones(masks.shape, np.float32), np.full((len(masks), players), 0.5, np.float32)
    return fn


def mask_of(game):
    m = np.zeros(dc.NUM_ACTIONS, bool)
    m[[a.id for a in game.legal_actions()]] = True
    return m


# ---------------------------------------------------------------- PUCT and priors

def test_a_prior_steers_the_search_where_values_are_equal():
    g = dc.Game(players=2, seed=4)
    legal = g.legal_actions()
    for favourite in (legal[0], legal[-1], legal[len(legal) // 2]):
        def fn(observations, masks, fav=favourite.id):
            priors = np.full(masks.shape, 0.01, np.float32)
            priors[:, fav] = 1.0  # only the root has this action legal
            return priors, np.full((len(masks), 2), 0.5, np.float32)
        r = MCTSAgent(iterations=300, seed=1, evaluator=fn, batch_size=8).search(g)
        assert r.action == favourite
        assert r.visits[favourite] > 0.5 * sum(r.visits.values())


def test_an_evaluator_with_the_true_value_needs_few_iterations():
    """The evaluator knows the value of the root's children (by their
    observations): one of them wins, the others lose. A few iterations per
    legal action find it."""
    g = dc.Game(players=2, seed=9)
    legal = g.legal_actions()
    target = legal[len(legal) // 3]
    value = {}
    for a in legal:
        child = g.clone()
        child.apply(a)
        value[child.compact_observation().tobytes()] = 1.0 if a == target else 0.0
    def fn(observations, masks):
        # Values by seat relative to the mover (column 0); after a take the
        # same player completes the Action, so the mover is the root's.
        v = np.full((len(masks), 2), 0.5, np.float32)
        for i, o in enumerate(observations):
            if o.tobytes() in value:
                v[i, 0] = value[o.tobytes()]
                v[i, 1] = 1 - value[o.tobytes()]
        return np.ones(masks.shape, np.float32), v

    # Without determinizations (measurement only) a child shows exactly the
    # observation computed here; with them, the tile a take uncovers varies.
    r = MCTSAgent(iterations=3 * len(legal), seed=2, evaluator=fn, batch_size=4, determinize=False).search(g)
    assert r.action == target
    assert r.values[target] == max(r.values.values())
    assert r.visits[target] == max(r.visits.values())


def test_the_callback_sees_the_legal_masks_of_its_leaves_in_batches():
    g = dc.Game(players=3, seed=2)
    calls = []

    def fn(observations, masks):
        assert observations.dtype == np.uint8 and observations.shape == (len(masks), dc.COMPACT_OBSERVATION_SIZE)
        assert masks.dtype == np.bool_ and masks.shape[1] == dc.NUM_ACTIONS
        calls.append((observations.copy(), masks.copy()))
        # Mass on illegal actions must be ignored.
        priors = np.where(masks, 1.0, 1000.0).astype(np.float32)
        return priors, np.full((len(masks), 3), 1 / 3, np.float32)

    # Without determinizations, so that leaves can be recognised below.
    r = MCTSAgent(iterations=200, seed=3, evaluator=fn, batch_size=16, determinize=False).search(g)
    assert r.iterations == 200
    # The first call is the root alone: its mask and observation are the game's.
    obs0, masks0 = calls[0]
    assert len(masks0) == 1
    assert (masks0[0] == mask_of(g)).all()
    assert (obs0[0] == g.compact_observation()).all()
    assert all(1 <= len(m) <= 16 for _, m in calls)
    assert sum(len(m) for _, m in calls) == 200
    assert any(len(m) == 16 for _, m in calls), "leaves are batched"
    assert all(m.any(axis=1).all() for _, m in calls), "no finished game is sent"
    # Every leaf's mask is the legal mask of the position its observation shows:
    # check the root's children, which are reached after one action.
    children = {}
    for a in g.legal_actions():
        c = g.clone()
        c.apply(a)
        children[c.compact_observation().tobytes()] = mask_of(c)
    seen = 0
    for o, m in calls:
        for row_o, row_m in zip(o, m):
            if row_o.tobytes() in children:
                assert (row_m == children[row_o.tobytes()]).all()
                seen += 1
    assert seen > 0
    # The policy is the root's visit distribution over legal actions.
    assert r.policy.dtype == np.float32 and r.policy.shape == (dc.NUM_ACTIONS,)
    assert abs(float(r.policy.sum()) - 1) < 1e-5
    assert not r.policy[~mask_of(g)].any()


def test_the_policy_of_a_rollout_search_too():
    g = dc.Game(players=2, seed=1)
    r = MCTSAgent(iterations=300, seed=1).search(g)
    assert abs(float(r.policy.sum()) - 1) < 1e-5
    for a, n in r.visits.items():
        assert r.policy[a.id] == pytest.approx(n / sum(r.visits.values()))


def test_values_are_by_seat_relative_to_the_mover():
    """Column 0 of the evaluator's values is the seat to move at the leaf, as
    in its observation: with "the mover wins" as the evaluation, a child
    where the root's mover moves again is worth 1 to it, one where the turn
    passed is worth 0."""
    def fn(observations, masks):
        v = np.zeros((len(masks), 3), np.float32)
        v[:, 0] = 1.0
        return np.ones(masks.shape, np.float32), v

    seen = set()
    g = dc.Game(players=3, seed=12)
    for _ in range(40):
        if len(g.legal_actions()) > 1:
            # Two iterations: the root, then one child, each evaluated once.
            r = MCTSAgent(iterations=2, seed=1, evaluator=fn, batch_size=1, determinize=False).search(g)
            (a, value), = r.values.items()
            child = g.clone()
            child.apply(a)
            same = child.current_player == g.current_player
            assert value == (1.0 if same else 0.0)
            seen.add((g.current_player, same))
        g.apply(g.legal_actions()[-1])
    assert {same for _, same in seen} == {True, False} and len({p for p, _ in seen}) == 3


def test_rollout_weight_mixes_rollouts_into_the_values():
    g = dc.Game(players=1, seed=5)

    def zero(observations, masks):
        return np.ones(masks.shape, np.float32), np.zeros((len(masks), 1), np.float32)

    pure = MCTSAgent(iterations=100, seed=1, evaluator=zero).search(g)
    assert max(pure.values.values()) == 0.0
    mixed = MCTSAgent(iterations=100, seed=1, evaluator=zero, rollout_weight=0.5).search(g)
    # Solo rollouts end near 30-50 points: half of score / 100.
    assert 0.1 < max(mixed.values.values()) < 0.4


def test_temperature_and_noise_for_self_play():
    g = dc.Game(players=2, seed=6)
    fn = uniform(2)
    chosen = {MCTSAgent(iterations=64, seed=s, evaluator=fn, temperature=1.0).act(g) for s in range(30)}
    assert len(chosen) > 1, "a temperature draws among the visited actions"
    assert MCTSAgent(iterations=64, seed=1, evaluator=fn, noise=(0.3, 0.25)).search(g).iterations == 64
    with pytest.raises(ValueError, match="temperature"):
        MCTSAgent(iterations=10, temperature=-1)
    with pytest.raises(ValueError, match="noise"):
        MCTSAgent(iterations=10, noise=(0.0, 0.25))
    with pytest.raises(ValueError, match="rollout_weight"):
        MCTSAgent(iterations=10, evaluator=fn, rollout_weight=2)
    with pytest.raises(ValueError, match="batch_size"):
        MCTSAgent(iterations=10, batch_size=8)
    with pytest.raises(ValueError, match="batch_size"):
        MCTSAgent(iterations=10, evaluator=fn, batch_size=0)
    with pytest.raises(TypeError, match="callable"):
        MCTSAgent(iterations=10, evaluator=3)


# ---------------------------------------------------------------- bad evaluators

class NetworkDown(Exception):
    pass


def bad(kind):
    def fn(observations, masks):
        n = len(masks)
        priors, values = np.ones(masks.shape, np.float32), np.full((n, 2), 0.5, np.float32)
        if kind == "raise":
            raise NetworkDown("the GPU is on fire")
        if kind == "shape":
            return priors[:, :10], values
        if kind == "values shape":
            return priors, values[:, :1]
        if kind == "dtype":
            return priors.astype(np.float64), values
        if kind == "nan value":
            values[0, 0] = np.nan
        if kind == "nan prior":
            priors[masks] = np.nan
        if kind == "negative":
            priors[masks] = -1
        if kind == "not a tuple":
            return priors
        if kind == "list":
            return priors.tolist(), values
        return priors, values
    return fn


@pytest.mark.parametrize("kind, error, message", [
    ("raise", NetworkDown, "GPU is on fire"),
    ("shape", ValueError, "priors must have shape"),
    ("values shape", ValueError, "values must have shape"),
    ("dtype", ValueError, "float32"),
    ("nan value", ValueError, "finite"),
    ("nan prior", ValueError, "priors"),
    ("negative", ValueError, "non-negative"),
    ("not a tuple", ValueError, "tuple"),
    ("list", ValueError, "numpy array"),
])
def test_bad_evaluators_give_clean_errors_and_leave_the_game(kind, error, message):
    g = dc.Game(players=2, seed=8)
    g.apply(g.legal_actions()[0])
    before = g.to_json()
    agent = MCTSAgent(iterations=100, seed=1, evaluator=bad(kind), batch_size=4)
    with pytest.raises(error, match=message) as info:
        agent.search(g)
    if kind == "raise":
        assert type(info.value) is NetworkDown, "the evaluator's own exception, unchanged"
    assert g.to_json() == before
    # The agent is still usable with a good evaluator afterwards.
    assert MCTSAgent(iterations=20, seed=1, evaluator=bad("ok")).search(g).iterations == 20


def test_ctrl_c_stops_a_search_with_an_evaluator():
    def slow(observations, masks):
        time.sleep(0.01)
        return np.ones(masks.shape, np.float32), np.full((len(masks), 2), 0.5, np.float32)

    with interrupted_by_ctrl_c():
        MCTSAgent(time_limit=30, seed=1, evaluator=slow, batch_size=4).search(dc.Game(players=2, seed=1))


# ---------------------------------------------------------------- self-play

@pytest.mark.parametrize("players, cards", [(2, {}), (1, {}), (3, {"spirits": 1, "dragons": 1})])
def test_selfplay_rows_are_the_games_decisions(players, cards):
    agent = MCTSAgent(iterations=16, evaluator=uniform(players), batch_size=8, temperature=1.0)
    data = dc.selfplay(agent, 3, players=players, seed=20, threads=2, **cards)
    n = len(data["to_move"])
    assert data["observations"].shape == (n, dc.COMPACT_OBSERVATION_SIZE) and data["observations"].dtype == np.uint8
    assert data["masks"].shape == (n, dc.NUM_ACTIONS) and data["masks"].dtype == np.bool_
    assert data["policies"].shape == (n, dc.NUM_ACTIONS) and data["policies"].dtype == np.float32
    assert data["returns"].shape == (n, players) and data["returns"].dtype == np.float32
    assert sorted(set(data["game"].tolist())) == [20, 21, 22]
    # The search's value for the mover: NaN exactly where one action was legal.
    forced = data["masks"].sum(axis=1) == 1
    assert data["values"].shape == (n,) and (np.isnan(data["values"]) == forced).all()
    assert ((data["values"][~forced] >= 0) & (data["values"][~forced] <= 1)).all()
    # Replay each game from its seed: every row is the position the game was in.
    for seed in (20, 21, 22):
        rows = np.flatnonzero(data["game"] == seed)
        g = dc.Game(players=players, seed=int(seed), **cards)
        for i in rows:
            assert data["to_move"][i] == g.current_player
            assert (data["masks"][i] == mask_of(g)).all()
            assert (data["observations"][i] == g.compact_observation()).all()
            p = data["policies"][i]
            assert abs(float(p.sum()) - 1) < 1e-5 and not p[~data["masks"][i]].any()
            g.apply(dc.Action.from_id(int(data["actions"][i])))
        assert g.is_over
        assert np.allclose(data["returns"][rows], np.array(g.returns(), np.float32)[:players])


def test_selfplay_does_not_depend_on_threads_or_shards():
    agent = MCTSAgent(iterations=20)
    one = dc.selfplay(agent, 4, seed=7, threads=1)
    two = dc.selfplay(agent, 4, seed=7, threads=2)
    shards = [dc.selfplay(agent, 2, seed=7, threads=1), dc.selfplay(agent, 2, seed=9, threads=1)]
    for k in one:
        assert np.array_equal(one[k], two[k], equal_nan=one[k].dtype.kind == "f")
        assert np.array_equal(one[k], np.concatenate([s[k] for s in shards]), equal_nan=one[k].dtype.kind == "f")


def test_selfplay_children_are_the_well_visited_root_moves():
    agent = MCTSAgent(iterations=40, reuse_tree=False)  # every decision searched afresh: 40 visits
    plain = dc.selfplay(agent, 2, players=1, seed=31, threads=1)
    data = dc.selfplay(agent, 2, players=1, seed=31, threads=2, children=(0.1, 3))
    assert "child_rows" not in plain
    for k in plain:  # the games and their rows are the same
        assert np.array_equal(plain[k], data[k], equal_nan=plain[k].dtype.kind == "f")
    m, n = len(data["child_rows"]), len(data["to_move"])
    assert data["child_observations"].shape == (m, dc.COMPACT_OBSERVATION_SIZE) and m > n
    rows = data["child_rows"]
    assert (np.diff(rows) >= 0).all() and ((rows >= 0) & (rows < n)).all()
    searched = ~np.isnan(data["values"])
    assert set(rows.tolist()) == set(np.flatnonzero(searched).tolist()), "every searched decision, no forced one"
    assert np.bincount(rows, minlength=n).max() <= 3
    share = data["policies"][rows, data["child_actions"]]
    assert np.allclose(share, data["child_visits"] / 40) and (share >= 0.1 - 1e-6).all()
    assert ((data["child_values"] >= 0) & (data["child_values"] <= 1)).all()
    assert (data["child_seats"] == 0).all(), "solo: the mover sees every child"
    for j in range(m):  # each child is the decision's position after its move, seen by the mover
        g = dc.Game(players=1, seed=int(data["game"][rows[j]]))
        for i in np.flatnonzero(data["game"] == data["game"][rows[j]]):
            if i == rows[j]:
                break
            g.apply(dc.Action.from_id(int(data["actions"][i])))
        g.apply(dc.Action.from_id(int(data["child_actions"][j])))
        assert (data["child_observations"][j] == g.compact_observation(0)).all()
        if j > 12:
            break
    with pytest.raises(ValueError):
        dc.selfplay(agent, 1, players=1, children=(1.5, 3))
    with pytest.raises(ValueError):
        dc.selfplay(agent, 1, players=1, children=(0.1, 0))


def test_selfplay_children_with_rivals_are_seen_as_a_search_sees_a_leaf():
    # A child is seen by the seat to move there; child_seats says which relative value is the mover's.
    agent = MCTSAgent(iterations=40)
    data = dc.selfplay(agent, 2, players=2, seed=33, threads=2, children=(0.1, 3))
    rows, seats = data["child_rows"], data["child_seats"]
    assert len(seats) == len(rows) and set(seats.tolist()) == {0, 1}, "some moves pass the turn, most do not"
    checked = {0: 0, 1: 0}
    for j in range(len(rows)):
        if checked[int(seats[j])] >= 6:
            continue
        g = dc.Game(players=2, seed=int(data["game"][rows[j]]))
        for i in np.flatnonzero(data["game"] == data["game"][rows[j]]):
            if i == rows[j]:
                break
            g.apply(dc.Action.from_id(int(data["actions"][i])))
        mover = g.current_player
        assert mover == data["to_move"][rows[j]]
        g.apply(dc.Action.from_id(int(data["child_actions"][j])))
        viewer = mover if g.is_over else g.current_player
        assert (mover - viewer) % 2 == seats[j]
        assert (data["child_observations"][j] == g.compact_observation(viewer)).all()
        checked[int(seats[j])] += 1
    assert min(checked.values()) > 0


def test_selfplay_refuses_bad_input():
    with pytest.raises(TypeError):
        dc.selfplay(42, 2)
    with pytest.raises(ValueError, match="needs an MCTS agent"):
        dc.selfplay("greedy", 2)
    with pytest.raises(ValueError):
        dc.selfplay(MCTSAgent(iterations=5), -1)
    with pytest.raises(ValueError):
        dc.selfplay(MCTSAgent(iterations=5), 1, players=5)
    with pytest.raises(NetworkDown):
        dc.selfplay(MCTSAgent(iterations=5, evaluator=bad("raise")), 2)


# ---------------------------------------------------------------- the ladder

def test_bradley_terry_recovers_known_ratings():
    # Three agents 0, 200 and 400 Elo apart, with expected results as data.
    elo = [0, 200, 400]
    n = 10_000
    p = lambda a, b: 1 / (1 + 10 ** ((elo[b] - elo[a]) / 400))  # noqa: E731
    wins = [[n * p(i, j) if i != j else 0 for j in range(3)] for i in range(3)]
    r, se = bradley_terry(3, wins, prior_draws=0)
    assert [round(x * 400 / np.log(10)) for x in r] == elo
    assert se[0] == 0 and 0 < se[1] < 0.05


def test_the_ladder_orders_random_greedy_and_search():
    result = dc.ladder(["random", "greedy", "mcts:iterations=150"], 12, seed=3, threads=2)
    ratings = {a: elo for a, elo, _, _ in result.ratings()}
    assert ratings["random"] == 0
    assert ratings["random"] < ratings["greedy"] < ratings["mcts:iterations=150"]
    assert len(result.runs) == 3 and all(len(r.games) == 12 for r in result.runs)
    assert sum(map(sum, result.wins)) == 3 * 12
    assert "Elo" in result.table()


def test_a_three_player_ladder_counts_every_pair_of_seats():
    result = dc.ladder(["random", "greedy", "dragon"], 4, players=3, seed=1, threads=1)
    assert sum(map(sum, result.wins)) == 4 * 3  # three pairs of seats per game


def test_a_ladder_may_sample_some_groups_less_on_the_same_seeds():
    full = dc.ladder(["random", "greedy", "dragon"], 6, seed=2, threads=1)
    sampled = dc.ladder(["random", "greedy", "dragon"], 6, seed=2, threads=1, games_for={("greedy", "dragon"): 2})
    assert [len(r.games) for r in sampled.runs] == [6, 6, 2]
    # The sampled group's games are the first games of the full one.
    assert sampled.runs[2].untimed_games() == full.runs[2].untimed_games()[:2]
    assert sampled.runs[0].untimed_games() == full.runs[0].untimed_games()
    with pytest.raises(ValueError):
        dc.ladder(["random", "greedy"], 4, games_for={("random", "dragon"): 2})
    with pytest.raises(ValueError):
        dc.ladder(["random", "greedy"], 4, games_for={("random", "greedy"): 5})


def test_ladder_refuses_bad_input():
    with pytest.raises(ValueError):
        dc.ladder(["random", "random"], 2)
    with pytest.raises(ValueError):
        dc.ladder(["random"], 2)
    with pytest.raises(ValueError):
        dc.ladder(["random", "greedy"], 0)


def test_the_ladder_command(tmp_path):
    import subprocess
    import sys

    r = subprocess.run([sys.executable, "-m", "dragoncastle", "ladder", "--agents", "random", "greedy", "--games", "6",
                        "--solo", "2", "--threads", "1"], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert "greedy" in r.stdout and "solo mean" in r.stdout
    r = subprocess.run([sys.executable, "-m", "dragoncastle", "ladder", "--agents", "random", "--games", "6"],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode != 0 and "at least 2" in r.stderr


def test_ladder_result_table_and_interval():
    r = LadderResult(["random", "greedy"], 2, [[0, 2], [18, 0]])
    (_, e0, lo0, hi0), (_, e1, lo1, hi1) = r.ratings()
    assert (e0, lo0, hi0) == (0, 0, 0)
    assert lo1 < e1 < hi1
