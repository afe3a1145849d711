"""Tests of the arena (``dragoncastle.arena``: built-in agents play seeded games
in Rust threads, records replay and merge) and of the agent specs it takes
(``dragoncastle.agents.from_spec``). Its command line is tested in test_cli.py."""

from __future__ import annotations

import json
import re

import pytest

import dragoncastle as dc
from dragoncastle import reference as ref
from dragoncastle.agents import GreedyAgent, MCTSAgent, RandomAgent, from_spec
from dragoncastle.arena import ArenaResult
from helpers import stats


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


def test_merging_a_shard_twice_is_an_error():
    r = dc.arena(["greedy", "random"], 3, seed=0)
    lines = list(r.records())
    with pytest.raises(ValueError, match="twice"):
        ArenaResult.from_records(lines + lines[:1])


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


def test_arena_limits_are_clean_errors():
    with pytest.raises(ValueError):
        dc.arena(["mcts:time=1e300,iterations=5", "random"], 1)
    with pytest.raises(ValueError):
        dc.arena(["random", "random"], 2, seed=2**64 - 1)  # game seeds seed + k would wrap
    with pytest.raises(ValueError):
        dc.arena(["random", "random"], 2, threads=10**6)


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


# ---------------------------------------------------------------- agent specs

@pytest.mark.parametrize("spec", ["mcts:foo=1", "nobody", "mcts:iterations=0", "mcts:iterations=x", "mcts:time=-1",
                                  "greedy:x=1", "mcts:c=-1", "mcts:reward=lots"])
def test_bad_specs_are_value_errors(spec):
    with pytest.raises(ValueError):
        dc.arena([spec, "greedy"], 2)
    with pytest.raises(ValueError):
        from_spec(spec)


def test_from_spec_builds_the_agent():
    a = from_spec("mcts:iterations=50,rollout=random,c=0.3,reuse=true", seed=3)
    assert isinstance(a, MCTSAgent) and a.settings["iterations"] == 50 and a.seed == 3
    assert a.settings["rollout"] == "random" and a.settings["c"] == 0.3 and a.settings["reuse"] is True
    g = dc.Game(players=2, seed=1)
    assert a.act(g) in g.legal_actions()
    assert isinstance(from_spec("greedy"), GreedyAgent) and isinstance(from_spec("random"), RandomAgent)


def test_spec_exploration_follows_the_game():
    """A spec without ``c`` takes the default of the game it plays (0.05 in
    solo, 0.5 with the win reward); with ``c`` it is fixed."""
    assert from_spec("mcts:iterations=50").settings["c"] is None
    assert from_spec("mcts:iterations=50,c=0.3").settings["c"] == 0.3
    solo = dc.Game(players=1, seed=4)
    a = from_spec("mcts:iterations=300", seed=1).search(solo)
    b = MCTSAgent(iterations=300, seed=1, exploration=0.05, reward="win", rollout="tuned",
                  rollout_depth=None, reuse_tree=True, reuse_weight=0.2, max_nodes=4_000_000,
                  widening=1.0).search(solo)
    assert stats(a) == stats(b)


SEARCHING = ["mcts:iterations=40,rollout=random", "greedy"]


def test_search_stats_change_no_game_and_name_the_move_played():
    plain = dc.arena(SEARCHING, 3, seed=5, threads=2)
    stats = dc.arena(SEARCHING, 3, seed=5, threads=2, search_stats=4)
    assert plain.untimed_games() == [{k: v for k, v in g.items() if k != "search"} for g in stats.untimed_games()]
    assert all("search" not in g for g in plain.games)
    for line, g in zip(stats.records(), stats.games):
        data = json.loads(line)
        search = data["meta"]["search"]
        assert len(search) == len(g["actions"]) == len(data["actions"])
        game = dc.Game(players=2, seed=g["seed"])
        searched = 0
        for action, d in zip(g["actions"], search):
            seat_agent = data["meta"]["agents"][game.current_player]
            assert (d is None) == (seat_agent == "greedy")
            if d is not None:
                top = d["top"]
                assert 1 <= len(top) <= 4 and top[0][0] == action
                assert [m[1] for m in top] == sorted((m[1] for m in top), reverse=True)
                assert all(game.is_legal(m[0]) and 0 <= m[2] <= 1 and m[2] == round(m[2], 4) for m in top)
                forced = len(game.legal_actions()) == 1
                assert d["iterations"] == (0 if forced else 40)
                searched += not forced
            game.apply(action)
        assert searched > 30
        # The record still replays, and merges with its statistics kept.
        assert dc.Game.from_json(line).scores() == g["scores"]
    merged = ArenaResult.from_records(list(stats.records()))
    assert list(merged.records()) == list(stats.records())
    with pytest.raises(ValueError, match="search_stats"):
        dc.arena(SEARCHING, 1, search_stats=-1)


# ---- merging checks every record against its replay (issue 38)

def _tampered(line: str, change) -> str:
    data = json.loads(line)
    change(data)
    return json.dumps(data)


def _flip_winners(d):
    d["meta"]["winners"] = [1 - d["meta"]["winners"][0]]


@pytest.mark.parametrize("change, message", [
    (_flip_winners, "meta.winners"),
    (lambda d: d["meta"].update(decisions=[d["meta"]["decisions"][0] + 1, d["meta"]["decisions"][1] - 1]),
     "meta.decisions"),
    (lambda d: d["summary"].update(scores=[s + 1 for s in d["summary"]["scores"]]), "summary does not match"),
    (lambda d: d["meta"].update(decisions=[-1, 5]), "meta.decisions should be"),
    (lambda d: d["meta"].update(decisions=[True, 5]), "meta.decisions should be"),
    (lambda d: d["meta"].update(seconds=[-0.5, 0.1]), "meta.seconds should be"),
    (lambda d: d["meta"].update(seconds=["1", 0.1]), "meta.seconds should be"),
    (lambda d: d["meta"].update(agent_of_seat=[0, 0]), "meta.agent_of_seat should be"),
    (lambda d: d["meta"].update(agent_of_seat=[0.0, 1.0]), "meta.agent_of_seat should be"),
    (lambda d: d["meta"].update(winners=[True]), "meta.winners should be"),
    (lambda d: d["meta"].update(winners=[7]), "meta.winners should be"),
    (lambda d: d["meta"].update(winners="0"), "meta.winners should be"),
    (lambda d: d["meta"].pop("seconds"), "meta.seconds should be"),
    (lambda d: d["meta"].pop("agents"), "not an arena record"),
    (lambda d: d.update(meta=[]), "invalid type"),
    (lambda d: d.update(seed="7"), "expected u64"),
], ids=["winners-flipped", "decisions-moved", "scores", "decisions-negative", "decisions-bool",
        "seconds-negative", "seconds-string", "agent-of-seat-repeated", "agent-of-seat-float", "winners-bool",
        "winners-out-of-range", "winners-string", "no-seconds", "no-agents", "meta-list", "seed-string"])
def test_merge_refuses_a_record_that_disagrees_with_its_replay(change, message):
    lines = list(dc.arena(["greedy", "random"], 2, seed=0).records())
    with pytest.raises(ValueError, match="^record 1: .*" + re.escape(message)) as e:
        ArenaResult.from_records([lines[0], _tampered(lines[1], change)])
    assert "\n" not in str(e.value)


def test_records_with_cards_search_stats_or_solo_merge_and_record_again():
    for agents, kw in [(SEARCHING, {"spirits": 2, "dragons": 1, "search_stats": 3}),
                       (["mcts:iterations=30", "greedy", "random"], {"spirits": ["wind"], "search_stats": 2}),
                       (["greedy"], {"spirits": 1, "dragons": 1}),
                       (["mcts:iterations=20"], {"search_stats": 2})]:
        run = dc.arena(agents, 3, seed=11, **kw)
        lines = list(run.records())
        merged = ArenaResult.from_records(lines[2:] + lines[:2])
        assert list(merged.records()) == lines
        assert merged.table(timing=False) == run.table(timing=False)
