"""The OpenSpiel integration (``dragoncastle.openspiel``): OpenSpiel's own checks and bots.

The public API (/work/shared/API.md, "Environments") promises ``dragoncastle.openspiel.register()``,
a ``pyspiel`` Python game that passes its library's own checker: here ``pyspiel.random_sim_test``
(legal-action masks, sorted legal actions, unique action strings, clone equality, tensor sizes,
finite tensors, rewards adding up to returns, returns within the utility bounds and summing to the
constant sum, game length within ``max_game_length``), and OpenSpiel's MCTS and IS-MCTS bots
playing whole games. The choices checked here (chance model, utilities, tensors) are described in
the module's docstring and ``docs/openspiel.md``.
"""

from __future__ import annotations

import json
import pickle

import numpy as np
import pytest

# The test extra installs OpenSpiel: a missing one must fail, not skip.
import pyspiel  # noqa: E402

import dragoncastle as dc  # noqa: E402
from dragoncastle import openspiel  # noqa: E402
from dragoncastle.agents import MCTSAgent, RandomAgent  # noqa: E402
from open_spiel.python.algorithms import evaluate_bots, ismcts, mcts  # noqa: E402
from open_spiel.python.bots.uniform_random import UniformRandomBot  # noqa: E402

openspiel.register()


def load(players: int = 2, seed: int = 0):
    return pyspiel.load_game(openspiel.SHORT_NAME, {"players": players, "seed": seed})


def dealt(players: int = 2, seed: int = 0, moves: int = 0):
    """The state after the deal and ``moves`` decisions (always the first legal action)."""
    state = load(players, seed).new_initial_state()
    state.apply_action(0)
    for _ in range(moves):
        state.apply_action(state.legal_actions()[0])
    return state


def test_register_is_idempotent_and_the_game_type_is_as_documented():
    openspiel.register()  # a second call must not raise "already registered"
    assert openspiel.SHORT_NAME == "python_dragon_castle"
    assert openspiel.SHORT_NAME in pyspiel.registered_names()
    game = load(2)
    t = game.get_type()
    assert t.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    assert t.chance_mode == pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC
    assert t.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert t.reward_model == pyspiel.GameType.RewardModel.TERMINAL
    assert t.utility == pyspiel.GameType.Utility.CONSTANT_SUM and game.utility_sum() == 1.0
    assert (game.min_utility(), game.max_utility()) == (0.0, 1.0)
    assert game.num_distinct_actions() == dc.NUM_ACTIONS
    assert game.max_game_length() == openspiel.MAX_GAME_LENGTH
    assert game.max_chance_outcomes() == 1
    shape = list(dc.observation_shape(dc.OBSERVATION_VERSION))
    assert game.observation_tensor_shape() == shape
    assert game.information_state_tensor_shape() == shape


def test_solo_is_general_sum_with_a_score_scale():
    """Solo (players=1): ``returns()`` is the score / 100 (API.md, ``Game.returns``)."""
    game = load(1)
    assert game.num_players() == 1
    assert game.get_type().utility == pyspiel.GameType.Utility.GENERAL_SUM
    assert game.utility_sum() is None


@pytest.mark.parametrize("params", [{"players": 0}, {"players": 5}, {"seed": -2}, {"spirits": 11}, {"dragons": -1},
                                    {"spirit_names": "wind,gust"}, {"spirits": 1, "spirit_names": "wind"},
                                    {"dragon_names": "power,power"}])
def test_bad_parameters_are_refused(params):
    with pytest.raises(ValueError):
        pyspiel.load_game(openspiel.SHORT_NAME, params)


def test_deals_follow_the_seed_stream():
    """The k-th deal of a game object is ``dc.Game(players, seed=seed + k)``; ``seed=-1`` is random."""
    game = load(3, seed=7)
    states = [game.new_initial_state() for _ in range(2)]
    for s in states:
        assert s.is_chance_node() and s.chance_outcomes() == [(0, 1.0)]
        s.apply_action(0)
    assert states[0].dc_game == dc.Game(players=3, seed=7)
    assert states[1].dc_game == dc.Game(players=3, seed=8)
    # Cloning a chance node draws nothing: only applying it does.
    chance = game.new_initial_state()
    chance.clone()
    chance.apply_action(0)
    assert chance.dc_game == dc.Game(players=3, seed=9)
    rand = load(2, seed=-1)
    a, b = rand.new_initial_state(), rand.new_initial_state()
    a.apply_action(0)
    b.apply_action(0)
    assert a.dc_game != b.dc_game


@pytest.mark.parametrize("players,sims", [(1, 2), (2, 3), (3, 1), (4, 1)])
def test_openspiel_random_sim_test(players, sims):
    """OpenSpiel's own checker. ``serialize=False``: its whole-game serialization asks every
    sampled-stochastic game for a C++ RNG state, which OpenSpiel does not forward to Python
    games; the serialization it does support is tested below."""
    pyspiel.random_sim_test(load(players, seed=players), num_sims=sims, serialize=False, verbose=False)


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_openspiel_random_sim_test_with_cards(players):
    """The standard game (R-SPIRIT-1, R-SPIRIT-2: Spirits at any time of the turn) passes
    OpenSpiel's checker for 1-4 players, with a count of cards and with names."""
    for params in ({"spirits": 1, "dragons": 1}, {"spirit_names": "strength,wind,cunning,change", "dragon_names": "power"}):
        game = pyspiel.load_game(openspiel.SHORT_NAME, {"players": players, "seed": 10 + players, **params})
        pyspiel.random_sim_test(game, num_sims=2, serialize=False, verbose=False)


def test_card_parameters_deal_the_games_of_dragoncastle():
    game = pyspiel.load_game(openspiel.SHORT_NAME, {"players": 2, "seed": 4, "spirits": 1, "dragons": 2})
    state = game.new_initial_state()
    state.apply_action(0)
    assert state.dc_game == dc.Game(players=2, seed=4, spirits=1, dragons=2)
    named = pyspiel.load_game(openspiel.SHORT_NAME, {"players": 3, "spirit_names": "wind, faith", "dragon_names": "power"})
    s = named.new_initial_state()
    s.apply_action(0)
    assert s.dc_game == dc.Game(players=3, seed=0, spirits=["wind", "faith"], dragons=["power"])
    assert named.max_game_length() == openspiel.max_game_length(2) > openspiel.MAX_GAME_LENGTH
    # The parameters survive pickling (the game is rebuilt from them).
    again = pickle.loads(pickle.dumps(named))
    assert again.get_parameters()["spirit_names"] == "wind, faith"


def test_the_length_bound_holds_for_random_card_games():
    """Random games with every Spirit in play are the longest kind: all within the bound."""
    for players in (1, 2, 3, 4):
        _, _, lengths = dc.playouts("random", 300, players=players, seed=players, spirits=10, dragons=10)
        assert lengths.max() <= openspiel.max_game_length(10), (players, lengths.max())


def test_actions_legal_moves_and_strings_match_the_game():
    state = dealt(2, seed=3, moves=5)
    g = state.dc_game
    assert state.current_player() == g.current_player
    assert state.legal_actions() == g.legal_action_ids()
    assert np.array_equal(np.array(state.legal_actions_mask(), bool), g.legal_action_mask())
    for a in state.legal_actions():
        assert state.action_to_string(a) == str(dc.Action(a))
    assert load().new_initial_state().action_to_string(pyspiel.PlayerId.CHANCE, 0) == "deal"


def test_observations_are_the_games_own():
    state = dealt(3, seed=1, moves=12)
    g = state.dc_game
    for p in range(3):
        assert json.loads(state.observation_string(p)) == g.observation(p)
        tensor = np.asarray(state.observation_tensor(p), np.float32)
        assert np.array_equal(tensor, g.observation_tensor(p).ravel())
        assert np.array_equal(np.asarray(state.information_state_tensor(p), np.float32), tensor)
        info = json.loads(state.information_state_string(p))
        assert info == {"history": [a.id for a in g.history], "observation": g.observation(p)}


def test_information_state_ignores_covered_tiles_and_remembers_the_past():
    """A resampled state (covered tiles re-dealt, API.md ``determinize``) gives the same strings,
    tensors and legal actions; a different past gives a different information state."""
    state = dealt(2, seed=5, moves=20)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    worlds = [state.resample_from_infostate(0, sampler) for _ in range(5)]
    assert any(w.dc_game != state.dc_game for w in worlds)  # the hidden tiles did move
    for w in worlds:
        assert w.history() == state.history()
        assert w.legal_actions() == state.legal_actions()
        for p in range(2):
            assert w.information_state_string(p) == state.information_state_string(p)
            assert w.observation_string(p) == state.observation_string(p)
            assert w.observation_tensor(p) == state.observation_tensor(p)
    other = dealt(2, seed=5, moves=19)
    other.apply_action(other.legal_actions()[-1])
    assert other.information_state_string(0) != state.information_state_string(0)


def test_clone_is_independent():
    state = dealt(2, seed=2, moves=10)
    before = str(state), state.history()
    copy = state.clone()
    copy.apply_action(copy.legal_actions()[0])
    assert (str(state), state.history()) == before
    assert copy.history() == before[1] + [copy.history()[-1]]


def test_serialization_round_trips():
    game = load(2, seed=11)
    state = game.new_initial_state()
    state.apply_action(0)
    for _ in range(25):
        state.apply_action(state.legal_actions()[-1])
    # OpenSpiel's state serialization for Python games.
    back = game.deserialize_state(state.serialize())
    assert (str(back), back.history(), back.dc_game) == (str(state), state.history(), state.dc_game)
    # pickle: game and state; the copy of the game continues the same stream of deals.
    back = pickle.loads(pickle.dumps(state))
    assert (str(back), back.history(), back.dc_game) == (str(state), state.history(), state.dc_game)
    copy = pickle.loads(pickle.dumps(game))
    a, b = game.new_initial_state(), copy.new_initial_state()
    a.apply_action(0)
    b.apply_action(0)
    assert a.dc_game == b.dc_game == dc.Game(players=2, seed=12)


def play(game, bots, seed=0):
    """One whole game. OpenSpiel's Python ``evaluate_bots`` calls ``restart_at`` on every bot,
    which its Python ``ISMCTSBot`` lacks, so this loop does the same without it."""
    rng = np.random.RandomState(seed)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(outcomes, p=probs)))
        else:
            action = bots[state.current_player()].step(state)
            assert action in state.legal_actions()
            state.apply_action(action)
    returns = state.returns()
    assert len(state.history()) - 1 <= game.max_game_length()  # minus the chance node
    return state, returns


def test_openspiel_mcts_bot_plays_whole_games():
    """OpenSpiel's MCTS bot with random rollouts, small budgets: as is (searching the true state)
    and through ``ResamplingBot`` (a determinization per decision, never the hidden tiles)."""
    game = load(2, seed=4)
    evaluator = mcts.RandomRolloutEvaluator(random_state=np.random.RandomState(0))
    bots = [
        mcts.MCTSBot(game, 2.0, 10, evaluator, random_state=np.random.RandomState(1)),
        openspiel.ResamplingBot(mcts.MCTSBot(game, 2.0, 10, evaluator, random_state=np.random.RandomState(2)), seed=3),
    ]
    state, returns = play(game, bots)
    assert returns == state.dc_game.returns() and sum(returns) == pytest.approx(1.0)


def test_openspiel_mcts_bot_plays_solo():
    game = load(1, seed=6)
    evaluator = mcts.RandomRolloutEvaluator(random_state=np.random.RandomState(0))
    bot = mcts.MCTSBot(game, 0.1, 10, evaluator, random_state=np.random.RandomState(1))
    state, returns = play(game, [bot])
    assert returns == [state.dc_game.scores()[0] / 100]
    assert 0.0 <= returns[0] <= game.max_utility()


def test_openspiel_ismcts_bot_plays_whole_games():
    """OpenSpiel's (Python) IS-MCTS resamples the covered tiles every iteration through
    ``resample_from_infostate``; it plays against our own search through ``AgentBot``."""
    game = load(2, seed=8)
    evaluator = mcts.RandomRolloutEvaluator(random_state=np.random.RandomState(0))
    bots = [
        ismcts.ISMCTSBot(game, evaluator, 2.0, 10, random_state=np.random.RandomState(1)),
        openspiel.AgentBot(MCTSAgent(iterations=50, seed=1)),
    ]
    state, returns = play(game, bots)
    assert sum(returns) == pytest.approx(1.0)


def test_agent_bot_and_random_bots_play_three_players():
    game = load(3, seed=9)
    rng = np.random.RandomState(0)
    bots = [openspiel.AgentBot(RandomAgent(seed=1)), UniformRandomBot(1, rng), openspiel.AgentBot(RandomAgent(seed=2))]
    state = game.new_initial_state()
    returns = evaluate_bots.evaluate_bots(state, bots, rng)  # OpenSpiel's own driver
    assert state.is_terminal() and returns == state.dc_game.returns()


def test_resampling_bot_never_reads_covered_tiles():
    """Given two states that differ only in their covered tiles, ``ResamplingBot`` around the
    same seeded MCTS bot chooses the same action: it decides on public information only."""
    state = dealt(2, seed=10, moves=30)
    other = state.resample_from_infostate(0, pyspiel.UniformProbabilitySampler(0.0, 1.0))
    assert other.dc_game != state.dc_game

    def choose(s):
        evaluator = mcts.RandomRolloutEvaluator(random_state=np.random.RandomState(0))
        bot = mcts.MCTSBot(s.get_game(), 2.0, 20, evaluator, random_state=np.random.RandomState(1))
        return openspiel.ResamplingBot(bot, seed=2).step(s)

    assert choose(state) == choose(other)


def test_bench_script_smoke():
    """benches/openspiel_vs_mcts.py runs at tiny sizes and prints both of its tables."""
    import subprocess
    import sys
    from pathlib import Path

    script = Path(__file__).resolve().parent.parent / "benches" / "openspiel_vs_mcts.py"
    r = subprocess.run([sys.executable, str(script), "--smoke"], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "iterations/s" in r.stdout and "win rate" in r.stdout
