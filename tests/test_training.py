"""The trained evaluator's pieces: weights files, the Rust forward pass
against the trainer's, the gradients, model agents, and the training
pipeline end to end on a tiny budget (``docs/training.md``)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import numpy as np
import pytest

import dragoncastle as dc
from dragoncastle import _core
from dragoncastle.agents import MCTSAgent
from dragoncastle.train import (Model, TrainConfig, _concat, features, fit_siblings, forward, held_out_rows, losses,
                                relative_returns, sibling_agreement, sibling_losses, train, value_targets)


def positions(players: int, n: int, seed: int = 0) -> tuple[np.ndarray, np.ndarray, list]:
    rng = np.random.default_rng(seed)
    obs, masks, games = [], [], []
    g = dc.Game(players=players, seed=seed)
    while len(obs) < n:
        if g.is_over:
            g = dc.Game(players=players, seed=int(rng.integers(1 << 30)))
        obs.append(g.compact_observation())
        m = np.zeros(dc.NUM_ACTIONS, bool)
        m[g.legal_action_ids()] = True
        masks.append(m)
        games.append(g.clone())
        g.apply(int(rng.choice(g.legal_action_ids())))
    return np.array(obs), np.array(masks), games


@pytest.fixture(scope="module")
def model() -> Model:
    m = Model(24, 12, seed=3)
    rng = np.random.default_rng(1)
    # Weights as a trained network has them, not all near their start.
    for name in Model.NAMES:
        a = getattr(m, name)
        setattr(m, name, (a + rng.standard_normal(a.shape).astype(np.float32) * 0.1).astype(np.float32))
    return m


def test_rust_inference_equals_the_trainers_forward_pass(model, tmp_path):
    net = model.to_network({"command": "test"})
    for players in (1, 2, 4):
        obs, masks, _ = positions(players, 60, seed=players)
        logits, values = net.forward(obs, masks)
        f = forward(model, features(obs), masks)
        assert np.allclose(values, f["values"], rtol=1e-4, atol=1e-5)
        legal = masks
        assert np.allclose(logits[legal], f["logits"][legal], rtol=1e-4, atol=1e-5)
        assert np.isneginf(logits[~legal]).all()


def test_weights_round_trip_and_refuse_a_mismatched_header(model, tmp_path):
    path = tmp_path / "m.dcnet"
    model.to_network({"command": "test", "seed": 5}).save(str(path))
    net = _core.Network.load(str(path))
    header = json.loads(net.header)
    assert header["observation_version"] == dc.OBSERVATION_VERSION and header["num_actions"] == dc.NUM_ACTIONS
    assert header["training"] == {"command": "test", "seed": 5}
    again = Model.from_network(net)
    for name in Model.NAMES:
        assert np.array_equal(getattr(again, name), getattr(model, name))
    raw = path.read_bytes()
    first, head, body = raw.split(b"\n", 2)
    for key, value, message in (("observation_version", 2, "observation version 2"), ("num_actions", 512, "action ids"),
                                ("features", 10, "input features")):
        h = json.loads(head)
        h[key] = value
        bad = tmp_path / "bad.dcnet"
        bad.write_bytes(b"\n".join([first, json.dumps(h).encode(), body]))
        with pytest.raises(ValueError, match=message):
            _core.Network.load(str(bad))
        with pytest.raises(ValueError, match=message):
            MCTSAgent(iterations=10, model=str(bad)).search(dc.Game(players=1, seed=1))
        with pytest.raises(ValueError, match=message):
            dc.arena([f"mcts:iterations=5,model={bad}", "greedy"], 1)
    (tmp_path / "short.dcnet").write_bytes(raw[:-8])
    with pytest.raises(ValueError, match="bytes of weights"):
        _core.Network.load(str(tmp_path / "short.dcnet"))
    (tmp_path / "text.dcnet").write_text("hello")
    with pytest.raises(ValueError, match="not a dragoncastle weights file"):
        _core.Network.load(str(tmp_path / "text.dcnet"))
    with pytest.raises(ValueError, match="cannot read"):
        _core.Network.load(str(tmp_path / "missing.dcnet"))


@pytest.mark.parametrize("players", [1, 3])
def test_gradients_match_finite_differences(players):
    m = Model(8, 6, seed=players)
    obs, masks, _ = positions(players, 12, seed=10 + players)
    x = features(obs)
    rng = np.random.default_rng(0)
    policies = np.where(masks, rng.random(masks.shape), 0).astype(np.float32)
    policies /= policies.sum(axis=1, keepdims=True)
    returns = rng.random((len(obs), players)).astype(np.float32)
    if players > 1:
        returns /= returns.sum(axis=1, keepdims=True)
    targets = relative_returns(returns, np.zeros(len(obs), int), players)
    _, _, g = losses(m, x, masks, policies, targets, players)
    for name in ("wp", "wv", "w1", "b1", "b0", "embed"):
        a = getattr(m, name).astype(np.float64)
        flat = a.reshape(-1)
        # Check a few coordinates that the batch touches.
        touched = np.flatnonzero(np.abs(g[name]).reshape(-1) > 1e-6)[:4]
        for i in touched:
            old = flat[i]
            eps = 1e-2 * max(1.0, abs(old))
            vals = []
            for d in (eps, -eps):
                flat[i] = old + d
                setattr(m, name, a.reshape(getattr(m, name).shape).astype(np.float32))
                p, v, _ = losses(m, x, masks, policies, targets, players, grads=False)
                vals.append(p + v)
            flat[i] = old
            setattr(m, name, a.reshape(getattr(m, name).shape).astype(np.float32))
            numeric = (vals[0] - vals[1]) / (2 * eps)
            assert numeric == pytest.approx(float(g[name].reshape(-1)[i]), rel=0.05, abs=2e-4), (name, i)


def test_a_model_agent_searches_in_rust(model, tmp_path):
    path = str(tmp_path / "m.dcnet")
    model.to_network({"command": "test"}).save(path)
    g = dc.Game(players=2, seed=4)
    r = MCTSAgent(iterations=300, seed=1, model=path).search(g)
    assert r.iterations == 300 and r.action in g.legal_actions()
    assert abs(float(r.policy.sum()) - 1) < 1e-5
    # The same network through a spec, in the arena and in self-play.
    spec = f"mcts:iterations=50,model={path}"
    assert _core.Player.parse(spec).settings()["model"] == path
    games = dc.arena([spec, "greedy"], 2, seed=1, threads=1)
    assert len(games.games) == 2
    data = dc.selfplay(MCTSAgent(iterations=20, model=path), 1, players=1, seed=3)
    assert len(data["to_move"]) > 10
    mixed = MCTSAgent(iterations=50, seed=1, model=path, rollout_weight=0.5).search(g)
    assert mixed.iterations == 50
    with pytest.raises(ValueError, match="an evaluator guides an mcts agent without a model"):
        MCTSAgent(iterations=10, model=path, evaluator=lambda o, m: None)
    with pytest.raises(ValueError, match="rollout_weight"):
        dc.arena(["mcts:iterations=5,rollout_weight=0.5", "greedy"], 1)


def test_a_network_is_searched_as_it_was_trained_unless_told_otherwise(model, tmp_path):
    # The header's training config says how self-play used the network: a value
    # network trained beside rollouts (priors 0, rollout_weight 0.5) is searched so.
    plain, siblings = str(tmp_path / "plain.dcnet"), str(tmp_path / "siblings.dcnet")
    model.to_network({"command": "test"}).save(plain)
    model.to_network({"command": "test", "config": {"priors": 0, "rollout_weight": 0.5}}).save(siblings)
    # A spec says what it was given (None: as trained; parsing opens no file).
    used = lambda spec: tuple(_core.Player.parse(spec).settings()[k] for k in ("priors", "rollout_weight"))  # noqa: E731
    assert used(f"mcts:model={siblings}") == (None, None)
    assert used(f"mcts:model={siblings},priors=on,rollout_weight=0") == (True, 0.0)
    one = dc.Game(players=1, seed=2)
    plain_left_out = MCTSAgent(iterations=40, seed=3, model=plain).search(one)
    plain_given = MCTSAgent(iterations=40, seed=3, model=plain, priors=True, rollout_weight=0.0).search(one)
    assert plain_left_out.values == plain_given.values
    g = dc.Game(players=1, seed=2)
    # Same seed, same search: left out equals the trained settings given.
    a = MCTSAgent(iterations=60, seed=3, model=siblings).search(g)
    b = MCTSAgent(iterations=60, seed=3, model=siblings, priors=False, rollout_weight=0.5).search(g)
    c = MCTSAgent(iterations=60, seed=3, model=siblings, priors=True, rollout_weight=0.0).search(g)
    assert a.values == b.values and a.values != c.values
    # Without a model, giving the no-model values is allowed; others are refused.
    MCTSAgent(iterations=5, priors=True, rollout_weight=0.0)
    with pytest.raises(ValueError, match="need a model"):
        MCTSAgent(iterations=5, priors=False)


def test_the_pipeline_runs_end_to_end_and_resumes(tmp_path):
    cfg = TrainConfig(directory=str(tmp_path / "run"), players=1, generations=1, games=3, iterations=20, gate_games=2,
                      gate_iterations=20, hidden=8, hidden2=4, epochs=1, threads=1, rollout_weight=0.5, command="test")
    logs = []
    best = train(cfg, log=logs.append)
    assert best.endswith("gen001.dcnet")
    # The first network is kept whatever its gate against the rollout search says, and the log says which.
    gate = [line for line in logs if "gate" in line]
    assert len(gate) == 1 and "(rollout search: " in gate[0] and "-> kept as the first network" in gate[0]
    first = json.loads((tmp_path / "run" / "log.jsonl").read_text().splitlines()[0])
    assert gate[0].endswith("below the rollout search") == (first["strength"] < first["current"])
    # A longer run in the same directory continues after generation 1.
    cfg.generations = 2
    logs.clear()
    best2 = train(cfg, log=logs.append)
    assert logs[0].startswith("continuing") and any("generation 2/2" in line for line in logs)
    gate = [line for line in logs if "gate" in line]
    assert len(gate) == 1 and "(current: " in gate[0] and gate[0].endswith(("-> accepted", "-> rejected"))
    lines = (tmp_path / "run" / "log.jsonl").read_text().splitlines()
    assert [json.loads(line)["generation"] for line in lines] == [1, 2]
    # Settings that decide which games the data files hold cannot change in a continued run.
    state = (tmp_path / "run" / "state.json").read_text()
    cfg.generations, cfg.games = 3, 4
    with pytest.raises(ValueError, match="games was 3, now 4"):
        train(cfg, log=logs.append)
    assert (tmp_path / "run" / "state.json").read_text() == state
    assert not (tmp_path / "run" / "data002-000.npz").exists()
    net = _core.Network.load(best2)
    assert json.loads(net.header)["training"]["command"] == "test"


def test_the_train_command(tmp_path):
    r = subprocess.run([sys.executable, "-m", "dragoncastle", "train", "--dir", str(tmp_path / "r"), "--players", "2",
                        "--generations", "1", "--games", "2", "--iterations", "10", "--gate-games", "2",
                        "--gate-iterations", "10", "--hidden", "8", "--hidden2", "4", "--epochs", "1", "--threads", "1",
                        "--out", str(tmp_path / "best.dcnet"), "--plot", str(tmp_path / "curve.png")],
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    assert (tmp_path / "best.dcnet").exists()
    assert "copied to" in r.stdout
    assert (tmp_path / "curve.png").read_bytes()[:4] == b"\x89PNG"
    r = subprocess.run([sys.executable, "-m", "dragoncastle", "train", "--dir", str(tmp_path / "r"), "--players", "7"],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode != 0 and "players" in r.stderr


def test_the_train_commands_options_come_from_the_config_with_help_and_defaults():
    import dataclasses

    from dragoncastle.train import DESCRIPTION, parser

    text = parser().format_help()
    for f in dataclasses.fields(TrainConfig):
        if f.name in ("directory", "command", "extra"):
            continue
        option = "--" + f.name.replace("_", "-")
        assert option in text, option
        assert f.metadata["help"], f.name
    for action in parser()._actions:
        if action.option_strings != ["-h", "--help"]:
            assert action.help and (action.required or "(default:" in action.help), action.option_strings
    assert ":func:" not in text and "**" not in text and "``" not in text
    assert text.count("(default:") >= len(dataclasses.fields(TrainConfig)) - 3
    assert "shipped network" in DESCRIPTION


def test_the_default_recipe_is_the_shipped_networks():
    # The defaults are how the shipped network was made (its header's config),
    # apart from the budget of that run (games, gates, generations, threads, seed).
    made = json.loads(_core.Network.load("builtin").header)["training"]["config"]
    defaults = TrainConfig(directory="x")
    budget = {"games", "gate_games", "generations", "threads", "seed", "players"}
    for name, value in made.items():
        if name not in budget:
            want = tuple(value) if isinstance(value, list) else value
            assert getattr(defaults, name) == want, name


def test_network_features_cover_the_observation():
    obs, _, _ = positions(3, 20)
    rows, cols, weights = _core.network_features(obs)
    assert rows.min() == 0 and rows.max() == 19
    assert 0 <= cols.min() and cols.max() < _core.NETWORK_FEATURES
    assert (weights > 0).all()
    with pytest.raises(ValueError, match="shape"):
        _core.network_features(obs[:, :100])


def test_value_targets_mix_the_return_with_the_search_value():
    data = {"returns": np.array([[1, 0, 0], [0, 1, 0], [0, 0.5, 0.5]], np.float32), "to_move": np.array([0, 1, 2]),
            "values": np.array([0.5, np.nan, 0.2], np.float32)}
    t = value_targets(data, 3, 0.5)
    assert np.allclose(t.sum(axis=1), 1)
    assert t[0, 0] == pytest.approx(0.75) and t[1, 0] == pytest.approx(1.0)  # a forced move keeps the return
    assert t[2, 0] == pytest.approx(0.35)  # mover 2: return 0.5, value 0.2
    solo = value_targets({"returns": np.array([[0.4]], np.float32), "to_move": np.array([0]),
                          "values": np.array([0.5], np.float32)}, 1, 0.5)
    assert solo[0, 0] == pytest.approx(0.45)


@pytest.mark.parametrize("players", [1, 2, 3])
def test_sibling_gradients_match_finite_differences(players):
    # Solo the value is a score; with rivals, the softmax's chance of the seat that moved.
    m = Model(8, 6, seed=4)
    rng = np.random.default_rng(2)
    for name in Model.NAMES:  # away from the start, and in float64 so that tiny steps can be taken past ReLU kinks
        a = getattr(m, name)
        setattr(m, name, a.astype(np.float64) + rng.standard_normal(a.shape) * 0.2)
    obs, _, _ = positions(1, 14, seed=21)
    x = features(obs).astype(np.float64)
    targets = 0.3 + 0.1 * rng.random(len(obs))
    groups = np.array([0, 0, 0, 1, 1, 2, 3, 3, 3, 3, 4, 4, 5, 5])
    seats = rng.integers(0, players, len(obs))
    kw = {"players": players, "seats": seats}
    vl, cl, v, g = sibling_losses(m, x, targets, groups, absolute=0.7, centred=5.0, **kw)
    assert v.shape == (14,) and set(g) == {"embed", "b0", "w1", "b1", "wv", "bv"}
    if players > 1:
        logits = np.maximum(np.clip(x @ m.embed + m.b0, 0, 1) @ m.w1 + m.b1, 0) @ m.wv[:, :players] + m.bv[:players]
        p = np.exp(logits) / np.exp(logits).sum(axis=1, keepdims=True)
        assert np.allclose(v, p[np.arange(14), seats])
        assert not g["wv"][:, players:].any(), "seats not in the game learn nothing"
    # The centred loss ignores what siblings share: a constant added to a group's targets.
    shifted = targets + np.where(groups == 3, 0.05, 0.0)
    assert sibling_losses(m, x, shifted, groups, grads=False, **kw)[1] == pytest.approx(cl, rel=1e-9)
    assert sibling_losses(m, x, shifted, groups, grads=False, **kw)[0] != pytest.approx(vl, rel=1e-3)
    checked = 0
    for name in ("wv", "bv", "w1", "b1", "b0", "embed"):
        a = getattr(m, name)
        flat = a.reshape(-1)
        for i in np.flatnonzero(np.abs(g[name]).reshape(-1) > 1e-7)[:4]:
            old = flat[i]
            eps = 1e-6
            vals = []
            for d in (eps, -eps):
                flat[i] = old + d
                l1, l2, _, _ = sibling_losses(m, x, targets, groups, grads=False, **kw)
                vals.append(0.7 * l1 + 5.0 * l2)
            flat[i] = old
            numeric = (vals[0] - vals[1]) / (2 * eps)
            assert numeric == pytest.approx(float(g[name].reshape(-1)[i]), rel=1e-3, abs=1e-7), (name, i)
            checked += 1
    assert checked >= 12


def test_sibling_agreement_and_joined_generations():
    groups = np.array([0, 0, 0, 1, 1, 2])
    targets = np.array([0.1, 0.3, 0.2, 0.5, 0.4, 0.9])
    assert sibling_agreement(targets + 7, targets, groups) == pytest.approx((1.0, 1.0))
    agree, corr = sibling_agreement(-targets, targets, groups)
    assert agree == 0 and corr == pytest.approx(-1.0)
    a = {"to_move": np.zeros(3, int), "child_rows": np.array([0, 0, 2])}
    b = {"to_move": np.zeros(2, int), "child_rows": np.array([1, 1])}
    assert _concat([a, b])["child_rows"].tolist() == [0, 0, 2, 4, 4]
    assert "child_rows" not in _concat([a, {"to_move": np.zeros(2, int)}])


def test_the_pipeline_trains_on_sibling_targets(tmp_path):
    cfg = TrainConfig(directory=str(tmp_path / "run"), players=1, generations=1, games=2, iterations=30, gate_games=1,
                      gate_iterations=10, hidden=8, hidden2=4, epochs=2, threads=1, rollout_weight=0.5, priors=0,
                      children_share=0.1, children_max=3, targets="visits", command="test")
    logs = []
    train(cfg, log=logs.append)
    with np.load(tmp_path / "run" / "data000-000.npz") as z:
        assert len(z["child_rows"]) > len(z["to_move"]) and z["child_observations"].shape[1] == dc.COMPACT_OBSERVATION_SIZE
    assert sum("children: value" in line for line in logs) == 2
    last = json.loads((tmp_path / "run" / "log.jsonl").read_text().splitlines()[-1])
    assert last["held_child_value_loss"] < 0.01 and -1 <= last["held_child_correlation"] <= 1


def test_whole_games_are_held_out():
    data = {"to_move": np.zeros(200, int), "game": np.repeat(np.arange(20) + 100, 10)}
    held, rest = held_out_rows(data, np.random.default_rng(0))
    assert sorted(np.concatenate([held, rest]).tolist()) == list(range(200))
    assert len(set(data["game"][held].tolist())) == 2 and not set(data["game"][held]) & set(data["game"][rest])
    held, rest = held_out_rows({"to_move": np.zeros(50, int)}, np.random.default_rng(0))
    assert len(held) == 5 and len(rest) == 45


def test_a_learned_cutoff_from_a_spec_or_an_agent(model, tmp_path):
    path = str(tmp_path / "m.dcnet")
    model.to_network({"command": "test"}).save(path)
    spec = f"mcts:iterations=30,model={path},priors=off,rollout_weight=0.5,cutoff=4"
    assert _core.Player.parse(spec).settings()["cutoff"] == 4
    agent = dc.agents.from_spec(spec, seed=1)
    assert agent.settings["cutoff"] == 4
    g = dc.Game(players=1, seed=2)
    assert agent.act(g) in g.legal_actions()
    assert dc.agents.from_spec(f"mcts:iterations=30,model={path}").settings["cutoff"] is None
    with pytest.raises(ValueError, match="cutoff"):
        MCTSAgent(iterations=10, cutoff=3)
    with pytest.raises(ValueError):
        dc.arena(["mcts:iterations=5,cutoff=3"], 1)


def test_the_pipeline_with_sibling_targets_alone_in_chunks(tmp_path):
    # --targets siblings: each generation a fresh network learns the window's sibling
    # targets; self-play is written in chunks, and a chunk already on disk is kept.
    cfg = TrainConfig(directory=str(tmp_path / "run"), players=1, generations=1, games=3, chunk=2, iterations=30,
                      gate_games=1, gate_iterations=10, hidden=8, hidden2=4, epochs=2, threads=1, rollout_weight=0.5,
                      priors=0, children_share=0.1, children_max=3, targets="siblings", command="test")
    run = tmp_path / "run"
    run.mkdir()
    # A stopped run left the first chunk: the pipeline keeps it and plays games 3 only.
    first = dc.selfplay(MCTSAgent(iterations=30), 2, players=1, seed=0, threads=1, children=(0.1, 3))
    np.savez_compressed(run / "data000-000.npz", **{k: v for k, v in first.items() if k != "policies"},
                        policy_rows=np.zeros(0, int), policy_cols=np.zeros(0, int), policy_values=np.zeros(0, np.float32))
    logs = []
    best = train(cfg, log=logs.append)
    assert any("games 3-3 of 3" in line for line in logs) and not any("games 1-2" in line for line in logs)
    with np.load(run / "data000-001.npz") as z:
        assert set(z["game"].tolist()) == {2}  # game k's seed is seed + k, however the games are chunked
    assert sum("epoch" in line and "centred correlation" in line for line in logs) == 2
    last = json.loads((run / "log.jsonl").read_text().splitlines()[-1])
    assert last["decisions"] == len(first["to_move"]) + len(np.load(run / "data000-001.npz")["to_move"])
    assert last["held_child_value_loss"] < 0.05 and "policy_loss" not in last
    header = json.loads(_core.Network.load(best).header)
    assert header["training"]["config"]["targets"] == "siblings"
    with pytest.raises(ValueError, match="children_share"):
        train(TrainConfig(directory=str(tmp_path / "r2"), players=2, targets="siblings", children_share=0))
    with pytest.raises(ValueError, match="targets"):
        train(TrainConfig(directory=str(tmp_path / "r3"), targets="values"))


def test_the_pipeline_with_sibling_targets_for_two_players(tmp_path):
    # With rivals a child's target is the chance to win of the seat that moved; the network
    # trained on it is a network for games with rivals: searched there, refused solo.
    cfg = TrainConfig(directory=str(tmp_path / "run"), players=2, generations=1, games=2, iterations=30,
                      gate_games=2, gate_iterations=10, hidden=8, hidden2=4, epochs=2, threads=1, rollout_weight=0.5,
                      priors=0, children_share=0.1, children_max=3, targets="siblings", command="test")
    logs = []
    best = train(cfg, log=logs.append)
    with np.load(tmp_path / "run" / "data000-000.npz") as z:
        assert set(z["child_seats"].tolist()) == {0, 1}
    last = json.loads((tmp_path / "run" / "log.jsonl").read_text().splitlines()[-1])
    assert 0 <= last["strength"] <= 1 and np.isfinite(last["held_child_value_loss"])
    assert json.loads(_core.Network.load(best).header)["training"]["players"] == 2
    r = dc.arena([f"mcts:iterations=10,model={best}", "mcts:iterations=10"], 2, seed=3, threads=1)
    assert len(r.games) == 2
    with pytest.raises(ValueError, match="trained for games with rivals"):
        dc.arena([f"mcts:iterations=10,model={best}"], 1, seed=3, threads=1)


def test_fit_siblings_learns_the_differences_between_siblings():
    data = dc.selfplay(MCTSAgent(iterations=40), 6, players=1, seed=5, threads=1, children=(0.05, 4))
    m, out = fit_siblings(data, 16, 8, 3, seed=1, learning_rate=3e-3, held_share=0.34, log=lambda s: None)
    assert np.isfinite(out["held_child_correlation"]) and 0 <= out["held_child_agreement"] <= 1
    x = features(data["child_observations"])
    groups = np.unique(data["child_rows"], return_inverse=True)[1]
    before = sibling_losses(Model(16, 8, 1), x, data["child_values"], groups, grads=False)
    after = sibling_losses(m, x, data["child_values"], groups, grads=False)
    assert after[0] < before[0] / 2  # the values' level is learnt
    with pytest.raises(ValueError, match="sibling targets"):
        fit_siblings({**data, "child_rows": data["child_rows"][:0]}, 8, 4, 1, seed=1)


def test_the_shipped_network_loads_with_its_recipe():
    net = _core.Network.load("builtin")
    header = json.loads(net.header)
    # Made by one command of the trainer (docs/training.md, "The shipped network").
    command = header["training"]["command"]
    assert command.startswith("dragoncastle train ") and "--targets siblings" in command
    assert header["training"]["config"]["seed"] == 4_000_000 and header["hidden"] == 64
    # Searched as it was trained: the rollout search's selection, half rollouts.
    spec = _core.Player.parse("mcts:iterations=50,model=builtin").settings()
    assert (spec["model"], spec["priors"], spec["rollout_weight"]) == ("builtin", None, None)
    g = dc.Game(players=1, seed=3)
    a = dc.agents.from_spec("mcts:iterations=50,model=builtin", seed=1).search(g)
    b = MCTSAgent(iterations=50, seed=1, model="builtin").search(g)
    recipe = MCTSAgent(iterations=50, seed=1, model="builtin", priors=False, rollout_weight=0.5).search(g)
    assert a.values == b.values == recipe.values and a.iterations == 50


def shipped_against_rollouts(first: int, deals: int) -> tuple[float, float]:
    """Mean solo scores of the rollout search and of the shipped network's, 400 iterations, same deals."""
    rollout = dc.arena(["mcts:iterations=400"], deals, seed=first, threads=2).mean_scores()[0]
    shipped = dc.arena(["mcts:iterations=400,model=builtin"], deals, seed=first, threads=2).mean_scores()[0]
    return rollout, shipped


def test_the_shipped_network_beats_the_rollout_search_on_a_small_sample():
    # Deals 9000-9011: no training or tuning saw them. The full sample is the slow test below.
    rollout, shipped = shipped_against_rollouts(9000, 12)
    assert shipped > rollout, (rollout, shipped)


@pytest.mark.slow
def test_the_shipped_network_beats_the_rollout_search_on_100_deals():
    rollout, shipped = shipped_against_rollouts(9000, 100)
    assert shipped > rollout, (rollout, shipped)


def test_a_network_trained_solo_is_refused_with_rivals(model, tmp_path):
    # A solo value is a score, a value with rivals a chance to win: the header says which.
    solo, rivals = str(tmp_path / "solo.dcnet"), str(tmp_path / "rivals.dcnet")
    model.to_network({"command": "test", "players": 1}).save(solo)
    model.to_network({"command": "test", "players": 3}).save(rivals)
    two = dc.Game(players=2, seed=1)
    with pytest.raises(ValueError, match="trained for solo games; this game has 2 players"):
        MCTSAgent(iterations=20, model=solo).search(two)
    with pytest.raises(ValueError, match="trained for solo games"):
        dc.arena([f"mcts:iterations=20,model={solo}", "greedy"], 1)
    with pytest.raises(ValueError, match="trained for solo games"):
        dc.selfplay(MCTSAgent(iterations=20, model="builtin"), 1, players=2)
    with pytest.raises(ValueError, match="trained for games with rivals; this game has 1 player$"):
        MCTSAgent(iterations=20, model=rivals).search(dc.Game(players=1, seed=1))
    assert MCTSAgent(iterations=20, model=rivals).search(two).iterations == 20  # 3 players' weights, 2 players: allowed
    assert MCTSAgent(iterations=20, model=solo).search(dc.Game(players=1, seed=1)).iterations == 20


def test_the_train_command_takes_ray_like_the_arena(monkeypatch, tmp_path):
    # --ray alone is a local Ray, --ray ADDRESS names one (docs/distributed.md);
    # the run itself on Ray is tests/test_ray.py's.
    import dragoncastle.train as module

    seen = []
    monkeypatch.setattr(module, "train", lambda cfg, log: seen.append(cfg) or None)
    base = ["--dir", str(tmp_path / "r"), "--games", "2"]
    for extra, ray in (([], None), (["--ray"], "local"), (["--ray", "auto"], "auto"), (["--ray", "head:6379"], "head:6379")):
        assert module.main(base + extra) == 0
        assert seen[-1].ray == ray and seen[-1].games == 2


# ---- bad settings and damaged run directories (issue 38)

def tiny(directory, **kw) -> TrainConfig:
    settings = dict(players=1, generations=1, games=2, iterations=10, gate_games=1, gate_iterations=10, hidden=8,
                    hidden2=4, epochs=1, threads=1)
    return TrainConfig(directory=str(directory), **(settings | kw))


@pytest.mark.parametrize("field, value", [
    ("learning_rate", float("nan")), ("learning_rate", float("inf")), ("learning_rate", -1e-3), ("learning_rate", 0.0),
    ("hidden", 100_000), ("hidden2", 0), ("players", 5), ("batch", True), ("value_weight", float("nan")),
    ("q_weight", 2.0), ("decay", -1.0), ("games", 0), ("seed", -1), ("threads", 0), ("targets", "values"),
    ("noise", (0.3, 2.0)), ("temperature", -1.0), ("priors", 2), ("spirits", 11), ("generations", 1.5),
])
def test_bad_settings_are_refused_before_any_work(tmp_path, field, value):
    cfg = tiny(tmp_path / "run", **{field: value})
    with pytest.raises(ValueError, match=field) as e:
        train(cfg, log=lambda s: None)
    assert "\n" not in str(e.value)
    assert not (tmp_path / "run").exists()


def test_the_trainers_hidden_bound_is_the_networks(tmp_path, monkeypatch):
    # One bound: what the trainer accepts, the network accepts (--hidden 2000
    # once self-played, then failed in Rust on the network's 1024).
    import dragoncastle.train as module
    import dragoncastle.train_data as train_data

    for hidden, hidden2 in ((module.MAX_HIDDEN, 1), (1, module.MAX_HIDDEN)):
        with pytest.raises(ValueError, match="a network has 8 arrays"):  # the sizes passed the header's check
            _core.Network.from_arrays([], hidden, hidden2, "{}")
        with pytest.raises(ValueError, match="out of range"):
            _core.Network.from_arrays([], hidden + (hidden > 1), hidden2 + (hidden2 > 1), "{}")
    monkeypatch.setattr(train_data, "selfplay", lambda *a, **k: pytest.fail("self-play before the check"))
    for field in ("hidden", "hidden2"):
        with pytest.raises(ValueError, match=f"{field} must be a whole number from 1 to {module.MAX_HIDDEN}"):
            train(tiny(tmp_path / "run", **{field: module.MAX_HIDDEN + 1}), log=lambda s: None)
        assert not (tmp_path / "run").exists()


@pytest.mark.parametrize("args, message", [
    (["--learning-rate", "nan"], "learning_rate must be a finite number > 0.0"),
    (["--learning-rate", "-0.001"], "learning_rate must be a finite number > 0.0"),
    (["--hidden", "100000"], "hidden must be a whole number from 1 to 1024"),
    (["--hidden", "2000"], "hidden must be a whole number from 1 to 1024"),
])
def test_the_train_command_refuses_bad_settings_at_once(tmp_path, args, message):
    r = subprocess.run([sys.executable, "-m", "dragoncastle", "train", "--dir", str(tmp_path / "r"), *args],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode != 0 and "Traceback" not in r.stderr, r.stderr
    assert r.stderr == f"dragoncastle train: {message}" + r.stderr.split(message, 1)[1] and r.stderr.count("\n") == 1
    assert not (tmp_path / "r").exists()


@pytest.mark.parametrize("paths, message", [
    (lambda t: ["--dir", str(t / "file")], "the run directory {t}/file exists and is not a directory"),
    (lambda t: ["--dir", "/dev/null"], "the run directory /dev/null exists and is not a directory"),
    (lambda t: ["--dir", str(t / "file" / "run")], "the run directory {t}/file/run cannot be made: {t}/file is not a"),
    (lambda t: ["--dir", str(t / "r"), "--out", str(t / "no" / "best.dcnet")], "--out: cannot write {t}/no/best.dcnet: "
     "no directory {t}/no"),
    (lambda t: ["--dir", str(t / "r"), "--out", str(t)], "--out: cannot write {t}: it exists and is a directory, not a"),
    (lambda t: ["--dir", str(t / "r"), "--plot", str(t / "no" / "c.png")], "--plot: cannot write {t}/no/c.png"),
], ids=["dir-file", "dir-dev-null", "dir-under-a-file", "out-no-directory", "out-a-directory", "plot-no-directory"])
def test_the_train_command_checks_its_paths_before_any_work(tmp_path, monkeypatch, capsys, paths, message):
    import dragoncastle.train as module
    import dragoncastle.train_data as train_data

    (tmp_path / "file").write_text("")
    monkeypatch.setattr(train_data, "selfplay", lambda *a, **k: pytest.fail("self-play before the check"))
    with pytest.raises(SystemExit) as e:
        module.main(paths(tmp_path))
    err = capsys.readouterr().err
    assert e.value.code == 2 and err == "dragoncastle train: " + err.split(": ", 1)[1] and err.count("\n") == 1, err
    assert message.format(t=tmp_path) in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["file"]


def test_the_train_command_may_copy_the_weights_into_the_run_directory_it_makes(tmp_path, monkeypatch):
    import dragoncastle.train as module

    def fake_train(cfg, log):
        os.makedirs(cfg.directory)
        (tmp_path / "r" / "gen001.dcnet").write_bytes(b"weights")
        return str(tmp_path / "r" / "gen001.dcnet")

    monkeypatch.setattr(module, "train", fake_train)
    assert module.main(["--dir", str(tmp_path / "r"), "--out", str(tmp_path / "r" / "best.dcnet")]) == 0
    assert (tmp_path / "r" / "best.dcnet").read_bytes() == b"weights"


@pytest.fixture(scope="module")
def finished_run(tmp_path_factory):
    """A run of one tiny generation, to damage copies of."""
    directory = tmp_path_factory.mktemp("train") / "run"
    # The visits targets read every array of a data file (sibling targets read fewer).
    train(tiny(directory, targets="visits"), log=lambda s: None)
    return directory


def _damage_state(text):
    return lambda run: (run / "state.json").write_text(text)


def _edit_state(**fields):
    def damage(run):
        state = json.loads((run / "state.json").read_text())
        (run / "state.json").write_text(json.dumps(state | fields))
    return damage


def _edit_chunk(change):
    def damage(run):
        path = run / "data000-000.npz"
        with np.load(path) as z:
            arrays = {k: z[k] for k in z.files}
        change(arrays)
        np.savez(path, **arrays)
    return damage


@pytest.mark.parametrize("damage, where, message", [
    (_damage_state(""), "state.json", "not a training state (not JSON"),
    (_damage_state("\x00garbage{"), "state.json", "not a training state (not JSON"),
    (_damage_state("{}"), "state.json", "generation should be a whole number"),
    (_damage_state("[1, 2]"), "state.json", "not a training state"),
    (_edit_state(generation="1"), "state.json", "generation should be"),
    (_edit_state(generation=-1), "state.json", "generation should be"),
    (_edit_state(best=7), "state.json", "best should be null or an existing weights file"),
    (_edit_state(best="/no/such/gen001.dcnet"), "state.json", "best should be"),
    (_edit_state(best_strength=True), "state.json", "best_strength should be"),
    (_edit_state(seconds=-1), "state.json", "seconds should be"),
    (_edit_state(layout=[1]), "state.json", "layout should be an object"),
    (_edit_state(best=None, best_strength=None), "state.json", "do not go together"),
    (lambda run: (run / "data000-000.npz").write_bytes(b"garbage"), "data000-000.npz", "not a data file"),
    (lambda run: (run / "data000-000.npz").unlink(), "data000-000.npz", "missing"),
    (_edit_chunk(lambda a: a.pop("masks")), "data000-000.npz", "no array masks"),
    (_edit_chunk(lambda a: a.update(to_move=a["to_move"][:, None].repeat(2, 1))), "data000-000.npz", "to_move is"),
    (_edit_chunk(lambda a: a.update(masks=a["masks"][:-1])), "data000-000.npz", "masks is"),
    (_edit_chunk(lambda a: a.update(observations=a["observations"].astype(np.float32))), "data000-000.npz",
     "observations is float32"),
    (_edit_chunk(lambda a: a["returns"].__setitem__(0, np.nan)), "data000-000.npz", "returns holds NaN"),
    (_edit_chunk(lambda a: a["policy_cols"].__setitem__(0, 5000)), "data000-000.npz", "policy_cols holds values outside"),
], ids=["state-empty", "state-garbage", "state-{}", "state-list", "generation-string", "generation-negative",
        "best-number", "best-missing", "best-strength-bool", "seconds-negative", "layout-list", "best-none",
        "chunk-garbage", "chunk-missing", "chunk-no-masks", "chunk-to-move-2d", "chunk-masks-short",
        "chunk-observations-float", "chunk-returns-nan", "chunk-policy-col-out-of-range"])
def test_a_damaged_run_directory_names_the_file_and_field(finished_run, tmp_path, damage, where, message):
    import shutil

    run = tmp_path / "run"
    shutil.copytree(finished_run, run)
    damage(run)
    with pytest.raises(ValueError) as e:
        train(tiny(run, generations=2, targets="visits"), log=lambda s: None)
    text = str(e.value)
    assert "\n" not in text and str(run / where) in text and message in text, text
