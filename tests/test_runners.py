"""One agent, every runner (issue 38; ``API.md``, "Agents" and "Running many
games"): each runner takes an agent as an object or as its spec text, the
same table keywords, and refuses bad input with the same errors before any
game is played."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import dragoncastle as dc
from dragoncastle.agents import (DragonOfIngenuity, GreedyAgent, MCTSAgent, PlannerAgent, RandomAgent,
                                 from_spec)

QUICK = "mcts:iterations=12,rollout=random"
# The shipped network was trained on solo games: with rivals it must be refused.
SOLO_NET = "mcts:iterations=5,model=builtin"


def untimed(result: dc.ArenaResult) -> list[dict]:
    return result.untimed_games()


def test_every_runner_takes_an_agent_object_or_its_spec_alike():
    quick = from_spec(QUICK)
    assert isinstance(quick, MCTSAgent) and quick.spec == QUICK
    for a, b in [(RandomAgent(), "random"), (GreedyAgent(), "greedy"), (quick, QUICK)]:
        assert all((x == y).all() for x, y in zip(dc.playouts(a, 3, players=2, seed=4, threads=1),
                                                  dc.playouts(b, 3, players=2, seed=4, threads=1)))
    objects = dc.arena([quick, GreedyAgent()], 2, seed=1, threads=1)
    texts = dc.arena([QUICK, "greedy"], 2, seed=1, threads=1)
    assert objects.agents == texts.agents == [QUICK, "greedy"]
    assert untimed(objects) == untimed(texts)
    mine, spelled = dc.selfplay(quick, 2, seed=3, threads=1), dc.selfplay(QUICK, 2, seed=3, threads=1)
    assert mine.keys() == spelled.keys()
    assert all(np.array_equal(mine[k], spelled[k], equal_nan=True) for k in mine)
    played = [dc.play(dc.Game(players=2, seed=9), agents).actions for agents in
              ([GreedyAgent(seed=1), "dragon"], [GreedyAgent(seed=1), DragonOfIngenuity()])]
    assert played[0] == played[1]
    ladder_objects = dc.ladder([RandomAgent(), GreedyAgent(), DragonOfIngenuity()], 2, seed=1, threads=1)
    ladder_texts = dc.ladder(["random", "greedy", "dragon"], 2, seed=1, threads=1)
    assert ladder_objects.table() == ladder_texts.table()
    envs = [dc.VecEnv(2, players=2, seed=5, opponents=o) for o in (GreedyAgent(), "greedy")]
    first = [e.reset()[0].copy() for e in envs]
    assert (first[0] == first[1]).all()
    for _ in range(20):
        actions = envs[0].sample()
        a, b = envs[0].step(actions), envs[1].step(actions)
        assert all((x == y).all() for x, y in zip(a, b))


def test_every_runner_takes_the_same_table_keywords():
    table = dict(seed=7, threads=1, spirits=1, dragons=1, layout="standard-2p", rules=dc.Rules())
    scores, _, _ = dc.playouts("greedy", 2, players=2, **table)
    assert scores.shape == (2, 2)
    assert len(dc.arena(["greedy", "greedy"], 2, **table).games) == 2
    with pytest.raises(ValueError, match="unknown layout"):
        dc.arena(["greedy", "greedy"], 2, layout="nowhere")
    assert dc.selfplay(QUICK, 1, players=2, **table)["returns"].shape[1] == 2
    assert dc.ladder(["greedy", "random"], 1, players=2, **table).table()
    env = dc.VecEnv(1, players=2, opponents="greedy", **{k: v for k, v in table.items() if k != "threads"})
    assert env.reset()[1].any()


RUNNERS = {
    "playouts": lambda n=1, **kw: dc.playouts("random", n, **kw),
    "arena": lambda n=1, **kw: dc.arena(["random", "random"], n, **kw),
    "selfplay": lambda n=1, **kw: dc.selfplay(QUICK, n, **kw),
}


@pytest.mark.parametrize("name", sorted(RUNNERS))
def test_every_runner_checks_games_seeds_and_threads_alike(name):
    run = RUNNERS[name]
    for n in (0, -1, True, 1.5, "2"):
        with pytest.raises(ValueError, match=r"^n_games must be a whole number >= 1"):
            run(n)
    for seed in (-1, 2**64, True, "x"):
        with pytest.raises(ValueError, match=r"^seed must be an integer in 0\.\.2\*\*64"):
            run(seed=seed)
    with pytest.raises(ValueError, match=r"^game seeds seed \+ k must stay below 2\*\*64"):
        run(2, seed=2**64 - 1)
    for threads in (0, 10**6, True):
        with pytest.raises(ValueError, match=r"^threads must be 1 to \d+"):
            run(threads=threads)


def test_a_solo_network_with_rivals_is_refused_by_every_runner_before_any_game():
    message = "trained for solo games; this game has 2 players"
    calls = [
        lambda: dc.playouts(SOLO_NET, 10**6, players=2),
        lambda: dc.arena([SOLO_NET, "greedy"], 10**6),
        lambda: dc.selfplay(SOLO_NET, 10**6, players=2),
        lambda: dc.ladder([SOLO_NET, "greedy"], 10**6),
        lambda: dc.VecEnv(2, players=2, opponents=SOLO_NET),
        lambda: dc.arena([from_spec(SOLO_NET), "greedy"], 10**6),
        lambda: dc.play(dc.Game(players=2, seed=1), [SOLO_NET, "greedy"]),
    ]
    for call in calls:
        # A million games would take hours: the error must come first.
        with pytest.raises(ValueError, match=message):
            call()


def test_what_is_not_an_agent_is_refused_clearly():
    with pytest.raises(TypeError, match="an agent is a spec text"):
        dc.playouts(42, 1)
    with pytest.raises(TypeError, match="an agent is a spec text"):
        dc.arena([object(), "greedy"], 1)

    def uniform(observations, masks):
        return np.ones(masks.shape, np.float32), np.zeros((len(masks), 2), np.float32)

    with pytest.raises(ValueError, match="holding a Python evaluator has no spec"):
        dc.arena([MCTSAgent(iterations=5, evaluator=uniform), "greedy"], 1)
    with pytest.raises(ValueError, match="needs an MCTS agent"):
        dc.selfplay("greedy", 1)


def test_duplicate_keys_and_two_names_for_one_setting_are_refused():
    for spec in ("mcts:iterations=10,iterations=20", "mcts:time=0.01,time_limit=5", "plan:tau=1,temperature=2",
                 "mcts:c=0.3,exploration=0.4"):
        with pytest.raises(ValueError, match="given twice|name one setting"):
            from_spec(spec)
        with pytest.raises(ValueError, match="given twice|name one setting"):
            dc.playouts(spec, 1, players=1)


MCTS_SETTINGS = st.fixed_dictionaries({}, optional={
    "iterations": st.integers(1, 10**6),
    "time_limit": st.sampled_from([0.01, 0.5, 1.0, 2.5]),
    "threads": st.integers(1, 8),
    "exploration": st.floats(0.01, 5, allow_nan=False),
    "reward": st.sampled_from(["win", "margin"]),
    "rollout": st.sampled_from(["tuned", "greedy", "random"]),
    "rollout_spirits": st.booleans(),
    "rollout_depth": st.integers(1, 200),
    "reuse_tree": st.booleans(),
    "reuse_weight": st.sampled_from([0.1, 0.2, 1.0]),
    "determinize": st.booleans(),
    "max_nodes": st.integers(1024, 10**7),
    "widening": st.sampled_from([None, 0.5, 1.0, 2.0]),
    "noise": st.tuples(st.sampled_from([0.03, 0.3]), st.sampled_from([0.25, 0.5])),
    "temperature": st.sampled_from([0.0, 0.5, 1.0]),
})

PLAN_SETTINGS = st.fixed_dictionaries({}, optional={
    "time_limit": st.sampled_from([0.1, 1.0, 3.0]),
    "playouts": st.integers(1, 10**7),
    "threads": st.integers(1, 8),
    "level": st.integers(1, 3),
    "iterations": st.integers(1, 200),
    "alpha": st.sampled_from([0.5, 1.0]),
    "temperature": st.sampled_from([0.1, 0.25, float("inf")]),
    "mode": st.sampled_from(["follow", "mean", "oracle"]),
    "warm": st.booleans(),
})


@settings(max_examples=150, deadline=None)
@given(MCTS_SETTINGS)
def test_an_mcts_agent_and_its_spec_round_trip(kw):
    # Random rollouts do not choose whether to activate a Spirit: every legal move is a draw.
    if kw.get("rollout") == "random" and kw.get("rollout_spirits"):
        with pytest.raises(ValueError, match="rollout_spirits applies to heuristic rollouts"):
            MCTSAgent(**kw)
        return
    agent = MCTSAgent(**kw)
    again = from_spec(agent.spec)
    assert again == agent
    assert again.spec == agent.spec
    assert dc._core.Player.parse(agent.spec).settings() == dc._core.Player.parse(again.spec).settings() == agent.settings


@settings(max_examples=100, deadline=None)
@given(PLAN_SETTINGS)
def test_a_planner_and_its_spec_round_trip(kw):
    if kw.get("mode", "follow") == "follow":  # follow plans on one thread
        kw = {**kw, "threads": 1}
    else:  # warm carries follow's policy: the other modes refuse it
        kw.pop("warm", None)
    agent = PlannerAgent(**kw)
    again = from_spec(agent.spec)
    assert again == agent and again.spec == agent.spec


def test_agents_differ_when_a_setting_differs():
    assert MCTSAgent(iterations=10) != MCTSAgent(iterations=11)
    assert MCTSAgent(iterations=10) == from_spec("mcts:iterations=10")
    assert MCTSAgent(iterations=10, noise=(0.3, 0.25)) != MCTSAgent(iterations=10)
    assert from_spec("mcts:iterations=10,noise=0.3/0.25,temperature=1") == MCTSAgent(
        iterations=10, noise=(0.3, 0.25), temperature=1.0)


def test_the_ladder_checks_everything_before_its_first_game():
    played = []
    for agents, kw in ((["random", "greedy", "plan:time=0.01"], {}),
                       (["random", "greedy", "mcts:model=/nonexistent/w.dcnet"], {}),
                       (["random", "greedy", SOLO_NET], {}),
                       (["random", "greedy"], {"solo_games": -1}),
                       (["random", "greedy"], {"solo_games": 4, "seed": 2**64 - 2}),
                       (["mcts:iterations=5,c=0.3", MCTSAgent(iterations=5, exploration=0.3)], {})):
        with pytest.raises(ValueError):
            dc.ladder(agents, 1, threads=1, progress=played.append, **kw)
    assert played == []  # no group was played before the error


def test_vecenv_checks_its_numbers_like_every_runner():
    for kw in ({"n": -1}, {"n": 2.0}, {"n": True}, {"n": 0}, {"threads": -1}, {"threads": True}, {"threads": 2**70},
               {"learner": -1, "opponents": "greedy"}, {"learner": True, "opponents": "greedy"},
               {"learner": 2, "opponents": "greedy"}):
        n = kw.pop("n", 2)
        with pytest.raises(ValueError, match="must be a whole number"):
            dc.VecEnv(n, players=2, **kw)


def test_agents_compare_by_their_settings_and_play_takes_any_agent():
    assert from_spec("random") == RandomAgent() and from_spec("greedy") == GreedyAgent() != RandomAgent()
    assert len({from_spec("dragon"), DragonOfIngenuity()}) == 1
    assert MCTSAgent(iterations=5, evaluator=None).spec == "mcts:iterations=5"
    with pytest.raises(ValueError, match="seed"):
        from_spec("random", seed=-1)

    def uniform(observations, masks):
        return np.ones(masks.shape, np.float32), np.full((len(masks), 2), 0.5, np.float32)

    guided = MCTSAgent(iterations=5, evaluator=uniform, seed=1)
    assert guided == guided and guided != MCTSAgent(iterations=5, evaluator=uniform, seed=1)
    assert dc.play(dc.Game(players=2, seed=3), [guided, "greedy"]).game.is_over


def test_settings_of_the_wrong_kind_are_refused_and_paths_may_hold_a_colon():
    for kw in ({"exploration": True}, {"time_limit": True}, {"iterations": False}, {"model": ""}):
        with pytest.raises(ValueError):
            MCTSAgent(**kw)
    with pytest.raises(ValueError):
        PlannerAgent(level=True)
    agent = from_spec("mcts:iterations=5,model=/tmp/a:b.dcnet")  # parsing opens nothing
    assert from_spec(agent.spec) == agent and agent.spec == "mcts:iterations=5,model=/tmp/a:b.dcnet"


def test_a_wrong_rules_object_is_named_in_every_runner():
    calls = [lambda r: dc.Game(players=2, rules=r), lambda r: dc.playouts("random", 1, rules=r),
             lambda r: dc.arena(["random", "random"], 1, rules=r), lambda r: dc.selfplay(QUICK, 1, rules=r),
             lambda r: dc.VecEnv(1, rules=r)]
    for call in calls:
        with pytest.raises(TypeError, match="rules must be a dragoncastle.Rules"):
            call(3)
        call(dc.Rules(dragon_set_bonus=False))
