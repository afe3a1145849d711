"""Self-play training of the search's network: :func:`train`, ``dragoncastle train``.

Expert Iteration (Anthony, Tian & Barber 2017) in AlphaZero's form, with plain
numpy (``docs/training.md``):

1. **Self-play.** The search with the current network (at first, the rollout
   search) plays whole games in Rust threads (:func:`dragoncastle.selfplay`),
   or as Ray tasks on a cluster with ``ray=`` (the same games and data);
   every decision gives the mover's compact observation, the legal actions,
   the search's visit distribution and, at the end, the final returns.
2. **Training.** The network learns the visit distributions (cross-entropy)
   and the final returns of the seats (solo: squared error on score / 100;
   with rivals: cross-entropy of a softmax over the seats) on the last few
   generations' data, with Adam, starting from the current weights. With
   ``targets="siblings"`` a fresh network's value path learns instead the
   search's values of each decision's well-visited moves (solo: scores; with
   rivals: the mover's chance to win), :func:`fit_siblings`.
3. **Gate.** The new network plays held-out deals (seeds no self-play game
   uses) against the current one, at the same iterations; it replaces it only
   if it does at least as well (solo: mean score; with rivals: win rate).

Every generation writes its weights, a checkpoint and a line of
``log.jsonl`` in the run directory; a run started again with the same
directory continues after the last finished generation. The network's
shape and input are the Rust side's (``rust/eval/network.rs``,
``rust/eval/features.rs``); the weights file is written by the Rust code.
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import statistics
import sys
import time
from dataclasses import asdict, dataclass, field
from typing import Any, Callable

import numpy as np

from . import _core, distributed
from .agents import MCTSAgent
from .arena import arena, shard_ranges
from .output import OutputError, check_output, write_file
from .selfplay import selfplay

__all__ = ["TrainConfig", "train", "Model", "forward", "losses", "sibling_losses", "fit_siblings"]

SEATS = _core.MAX_SEATS  # value columns: one per seat, relative to the mover
HELD_OUT_SEEDS = 1_000_000_000  # gate deals: far from every self-play seed


def _setting(default: Any, help: str) -> Any:
    """A ``TrainConfig`` setting with its help text: the command line's
    options are made from these (one list of names, :func:`main`)."""
    return field(default=default, metadata={"help": help})


@dataclass
class TrainConfig:
    """One training run. ``directory`` holds the checkpoints and the log."""

    directory: str = field(metadata={"help": "run directory: checkpoints, data, log.jsonl (a run there continues)"})
    players: int = _setting(1, "players of the self-play games (1: solo)")
    generations: int = _setting(10, "generations of self-play, training and gate")
    games: int = _setting(200, "self-play games per generation")
    iterations: int = _setting(400, "search iterations per self-play decision")
    gate_games: int = _setting(40, "held-out games of the gate that decides whether new weights replace the best")
    gate_iterations: int = _setting(400, "search iterations per gate decision")
    hidden: int = _setting(64, "units of the first hidden layer")
    hidden2: int = _setting(32, "units of the second hidden layer")
    epochs: int = _setting(5, "passes over the window's data per generation")
    batch: int = _setting(256, "decisions per gradient step")
    learning_rate: float = _setting(1e-3, "Adam's learning rate")
    window: int = _setting(2, "generations of data trained on")
    value_weight: float = _setting(1.0, "weight of the value loss against the policy loss")
    q_weight: float = _setting(0.5, "value target: (1 - q) * final return + q * the search's value (KataGo mixes the two)")
    rollout_weight: float = _setting(0.5, "rollouts mixed into the network's values in self-play and gates")
    priors: int = _setting(0, "1: PUCT with the network's priors; 0: the rollout search's selection, network values only")
    children_share: float = _setting(0.05, "sibling targets: record root moves with at least this share of the visits "
                                           "(0: off)")
    children_max: int = _setting(6, "sibling targets: at most this many root moves per decision")
    child_weight: float = _setting(1.0, "sibling targets: weight of the children's absolute value loss")
    centre_weight: float = _setting(20.0, "sibling targets: weight of the loss on differences between siblings")
    targets: str = _setting("siblings", "what the network learns: 'siblings' (a fresh network's value path learns the "
                                        "search's values of well-visited moves; the shipped recipe) or 'visits' (the "
                                        "visit distributions and returns)")
    decay: float = _setting(1.0, "siblings: decoupled weight decay of embed, w1, wv, times the learning rate")
    chunk: int = _setting(100, "self-play games per data file: a stopped run loses at most one chunk")
    noise: tuple[float, float] | None = _setting((0.3, 0.25), "Dirichlet noise on the root's priors in self-play, "
                                                              "alpha/fraction (with priors=1)")
    temperature: float = _setting(0.0, "self-play moves drawn with chances visits^(1/T); 0 plays the most visited "
                                        "(noise, not temperature, explores)")
    spirits: int = _setting(0, "Spirit cards per game, drawn from each game's seed")
    dragons: int = _setting(0, "Dragon cards per game, drawn from each game's seed")
    seed: int = _setting(0, "first self-play seed; gates use held-out seeds")
    threads: int | None = _setting(None, "Rust threads (default: every core; with ray, per Ray task, default 1)")
    # Where the games run, not which: the data, the weights and the gates are
    # those of a run on this machine.
    ray: str | None = _setting(None, "play self-play and gates as Ray tasks: 'local', 'auto' (the cluster this "
                                     "machine belongs to) or a cluster address (docs/distributed.md) "
                                     "(default: no Ray, threads on this machine)")
    command: str = ""
    extra: dict[str, Any] = field(default_factory=dict)

    def check(self) -> None:
        """Refuse settings that cannot train, before any game is played: a
        ``ValueError`` naming the first bad field. The bounds are
        ``WHOLE_BOUNDS`` and ``REAL_BOUNDS`` (hidden sizes at most
        ``MAX_HIDDEN``, the network's bound); the search's own settings
        (``noise``, ``temperature``) are checked by the search."""
        if not isinstance(self.directory, str) or not self.directory:
            raise ValueError(f"directory must be a path; got {self.directory!r}")
        check_paths(self.directory)
        _check_bounds(self)
        if self.threads is not None and (type(self.threads) is not int or self.threads < 1):
            raise ValueError(f"threads must be a whole number >= 1 or None; got {self.threads!r}")
        if self.targets not in ("visits", "siblings"):
            raise ValueError(f"targets is 'visits' or 'siblings'; got {self.targets!r}")
        if self.targets == "siblings" and self.children_share <= 0:
            raise ValueError("sibling targets need self-play that records children (children_share > 0)")
        if self.ray is not None and (not isinstance(self.ray, str) or not self.ray.strip()):
            raise ValueError(f"ray is 'local', 'auto' or a cluster address; got {self.ray!r}")
        noise: Any = None if self.noise is None else tuple(self.noise)
        try:
            _core.MCTS(self.iterations, None, 1, noise=noise, temperature=self.temperature)
        except (TypeError, ValueError) as e:
            raise ValueError(f"noise or temperature: {e}") from None


def _check_bounds(cfg: TrainConfig) -> None:
    """The numbers of ``cfg`` within ``WHOLE_BOUNDS`` and ``REAL_BOUNDS``."""
    for name, (low, high) in WHOLE_BOUNDS.items():
        v = getattr(cfg, name)
        if type(v) is not int or not low <= v <= high:
            raise ValueError(f"{name} must be a whole number from {low} to {high}; got {v!r}")
    for name, (lo, hi, open_low) in REAL_BOUNDS.items():
        x = getattr(cfg, name)
        if type(x) not in (int, float) or not math.isfinite(x) or not (lo < x if open_low else lo <= x) or x > hi:
            bound = (f"> {lo}" if open_low else f">= {lo}") + (f" and <= {hi}" if math.isfinite(hi) else "")
            raise ValueError(f"{name} must be a finite number {bound}; got {x!r}")


#: Largest hidden layers: the network's own bound (``MAX_HIDDEN`` of
#: ``rust/eval/network.rs``, its stack buffers), which ``_core`` does not expose;
#: tests/test_training.py checks that ``_core.Network`` accepts this and no more.
MAX_HIDDEN = 1024
#: Largest batch: a batch's dense features (9485 float32 a decision) and policies.
MAX_BATCH = 16384
_UNBOUNDED = 2**63 - 1
#: ``TrainConfig``'s whole-number settings: (lowest, highest).
WHOLE_BOUNDS: dict[str, tuple[int, int]] = {
    "players": (1, 4), "generations": (1, _UNBOUNDED), "games": (1, _UNBOUNDED), "iterations": (1, _UNBOUNDED),
    "gate_games": (1, _UNBOUNDED), "gate_iterations": (1, _UNBOUNDED), "hidden": (1, MAX_HIDDEN),
    "hidden2": (1, MAX_HIDDEN), "epochs": (1, _UNBOUNDED), "batch": (1, MAX_BATCH), "window": (1, _UNBOUNDED),
    "priors": (0, 1), "children_max": (1, _UNBOUNDED), "chunk": (1, _UNBOUNDED),
    "spirits": (0, len(_core.SPIRITS)), "dragons": (0, len(_core.DRAGONS)), "seed": (0, 2**63 - 1),
}
#: ``TrainConfig``'s real-number settings: (lowest, highest, lowest excluded). NaN and
#: infinities are refused: a NaN learning rate trained a whole generation of NaN weights.
REAL_BOUNDS: dict[str, tuple[float, float, bool]] = {
    "learning_rate": (0.0, 1.0, True), "value_weight": (0.0, math.inf, False), "q_weight": (0.0, 1.0, False),
    "rollout_weight": (0.0, 1.0, False), "children_share": (0.0, 1.0, False), "child_weight": (0.0, math.inf, False),
    "centre_weight": (0.0, math.inf, False), "decay": (0.0, math.inf, False),
}


class Model:
    """The network's arrays as numpy float32, in the Rust file order."""

    NAMES = tuple(_core.Network.ARRAYS)

    def __init__(self, hidden: int, hidden2: int, seed: int) -> None:
        rng = np.random.default_rng(seed)
        f = _core.NETWORK_FEATURES
        self.hidden, self.hidden2 = hidden, hidden2
        self.embed = (rng.standard_normal((f, hidden)) * 0.05).astype(np.float32)
        self.b0 = np.full(hidden, 0.1, np.float32)
        self.w1 = (rng.standard_normal((hidden, hidden2)) / math.sqrt(hidden)).astype(np.float32)
        self.b1 = np.zeros(hidden2, np.float32)
        self.wv = (rng.standard_normal((hidden2, SEATS)) * 0.01).astype(np.float32)
        self.bv = np.full(SEATS, 0.4, np.float32)
        self.wp = (rng.standard_normal((_core.NUM_ACTIONS, hidden2)) * 0.01).astype(np.float32)
        self.bp = np.zeros(_core.NUM_ACTIONS, np.float32)

    def arrays(self) -> list[np.ndarray]:
        return [getattr(self, n) for n in self.NAMES]

    def to_network(self, training: dict[str, Any]) -> Any:
        return _core.Network.from_arrays([np.ascontiguousarray(a, np.float32).ravel() for a in self.arrays()],
                                         self.hidden, self.hidden2, json.dumps(training))

    @classmethod
    def from_network(cls, net: Any) -> "Model":
        header = json.loads(net.header)
        m = cls.__new__(cls)
        m.hidden, m.hidden2 = header["hidden"], header["hidden2"]
        for name, (rows, cols), a in zip(cls.NAMES, _core.Network.shapes(m.hidden, m.hidden2), net.arrays()):
            setattr(m, name, a.reshape((rows, cols) if rows > 1 else (cols,)).copy())  # a bias is a vector here
        return m


def features(observations: np.ndarray) -> np.ndarray:
    """The network's input for a batch: a dense ``float32 (N, NETWORK_FEATURES)``."""
    rows, cols, weights = _core.network_features(np.ascontiguousarray(observations, np.uint8))
    x = np.zeros((len(observations), _core.NETWORK_FEATURES), np.float32)
    x[rows, cols] = weights
    return x


def forward(m: Model, x: np.ndarray, masks: np.ndarray) -> dict[str, np.ndarray]:
    """The forward pass (as ``_core.Network.forward``), keeping what backprop needs."""
    a = x @ m.embed + m.b0
    h = np.clip(a, 0.0, 1.0)
    z = h @ m.w1 + m.b1
    r = np.maximum(z, 0.0)
    values = r @ m.wv + m.bv
    logits = np.where(masks, r @ m.wp.T + m.bp, -np.inf).astype(np.float32)
    return {"a": a, "h": h, "z": z, "r": r, "values": values, "logits": logits}


def relative_returns(returns: np.ndarray, to_move: np.ndarray, players: int) -> np.ndarray:
    """Returns by seat relative to the mover (column 0 the mover's), as the network predicts them."""
    idx = (to_move[:, None] + np.arange(players)[None, :]) % players
    return np.take_along_axis(returns, idx, axis=1)


def value_targets(data: dict[str, np.ndarray], players: int, q_weight: float) -> np.ndarray:
    """The value targets by seat relative to the mover: the final returns mixed
    with the search's value where there is one (solo: the mover's score / 100;
    with rivals, the mover's column, the rest rescaled to keep the sum 1)."""
    z = relative_returns(data["returns"], data["to_move"], players).astype(np.float64)
    q = data.get("values")
    if q is None or q_weight == 0:
        return z.astype(np.float32)
    searched = ~np.isnan(q)
    t = z.copy()
    mine = np.where(searched, (1 - q_weight) * z[:, 0] + q_weight * np.nan_to_num(q), z[:, 0])
    if players > 1:
        rest = z[:, 1:].sum(axis=1)
        scale = np.where(rest > 0, (1 - mine) / np.where(rest > 0, rest, 1), 0.0)
        t[:, 1:] = z[:, 1:] * scale[:, None]
        # A mover who lost everywhere but keeps some value: share it evenly.
        empty = rest <= 0
        t[empty, 1:] = ((1 - mine[empty]) / (players - 1))[:, None]
    t[:, 0] = mine
    return t.astype(np.float32)


def losses(m: Model, x: np.ndarray, masks: np.ndarray, policies: np.ndarray, targets: np.ndarray,
           players: int, value_weight: float = 1.0, grads: bool = True) -> tuple[float, float, dict[str, np.ndarray]]:
    """Policy cross-entropy and value loss of a batch, and their gradients."""
    n = len(x)
    f = forward(m, x, masks)
    logits = f["logits"]
    top = logits.max(axis=1, keepdims=True)
    e = np.where(masks, np.exp(logits - top), 0.0)
    p = e / e.sum(axis=1, keepdims=True)
    logp = np.where(masks, logits - top - np.log(e.sum(axis=1, keepdims=True)), 0.0)
    policy_loss = float(-(policies * logp).sum() / n)
    v = f["values"]
    dv = np.zeros_like(v)
    if players == 1:
        err = v[:, 0] - targets[:, 0]
        value_loss = float((err ** 2).mean())
        dv[:, 0] = 2 * err / n
    else:
        s = v[:, :players] - v[:, :players].max(axis=1, keepdims=True)
        q = np.exp(s) / np.exp(s).sum(axis=1, keepdims=True)
        value_loss = float(-(targets * np.log(q + 1e-12)).sum() / n)
        dv[:, :players] = (q - targets) / n
    if not grads:
        return policy_loss, value_loss, {}
    dv *= value_weight
    dlogits = np.where(masks, p - policies, 0.0) / n
    g: dict[str, np.ndarray] = {}
    g["wp"] = dlogits.T @ f["r"]
    g["bp"] = dlogits.sum(axis=0)
    g["wv"] = f["r"].T @ dv
    g["bv"] = dv.sum(axis=0)
    dr = dlogits @ m.wp + dv @ m.wv.T
    dz = dr * (f["z"] > 0)
    g["w1"] = f["h"].T @ dz
    g["b1"] = dz.sum(axis=0)
    dh = dz @ m.w1.T
    da = dh * ((f["a"] > 0) & (f["a"] < 1))
    g["embed"] = x.T @ da
    g["b0"] = da.sum(axis=0)
    return policy_loss, value_loss, g


def sibling_losses(m: Model, x: np.ndarray, targets: np.ndarray, groups: np.ndarray, absolute: float = 1.0,
                   centred: float = 10.0, grads: bool = True, players: int = 1,
                   seats: np.ndarray | None = None) -> tuple[float, float, np.ndarray, dict[str, np.ndarray]]:
    """The value head on sibling targets: ``x`` the features of children
    positions, ``targets`` their search values for the seat that moved,
    ``groups`` which decision each child belongs to (``0 .. G-1``). Two
    squared errors: on the values, and on the values minus their siblings'
    mean (the differences between moves, which a search compares; a phase's
    bias, shared by siblings, cancels). Returns both losses, the values and
    the gradients of ``absolute * loss + centred * centred_loss`` (value path
    only).

    Solo, a value is the network's first output (a score / 100). With
    ``players`` > 1 it is the chance to win that the network gives the seat
    that moved: the softmax over the seats' outputs, at the relative seat
    ``seats`` (``child_seats`` of :func:`dragoncastle.selfplay`), as the
    search reads it (``Network::seat_values``)."""
    n = len(x)
    a = x @ m.embed + m.b0
    h = np.clip(a, 0.0, 1.0)
    z = h @ m.w1 + m.b1
    r = np.maximum(z, 0.0)
    if players == 1:
        v = r @ m.wv[:, 0] + m.bv[0]
    else:
        seats = np.zeros(n, np.int64) if seats is None else np.asarray(seats, np.int64)
        logits = r @ m.wv[:, :players] + m.bv[:players]
        e = np.exp(logits - logits.max(axis=1, keepdims=True))
        p = e / e.sum(axis=1, keepdims=True)
        v = p[np.arange(n), seats]
    t = targets.astype(np.float64)
    err = v - t
    g_count = np.bincount(groups)
    mean = lambda y: (np.bincount(groups, y) / np.maximum(g_count, 1))[groups]  # noqa: E731
    e_c = (v - mean(v)) - (t - mean(t))
    value_loss, centred_loss = float((err ** 2).mean()), float((e_c ** 2).mean())
    if not grads:
        return value_loss, centred_loss, v, {}
    # d/dv_i of sum_j e_j^2 is 2 e_i: the e of a group sum to zero. A lone child has e = 0.
    dv = (2 * absolute * err + 2 * centred * e_c) / n
    if players == 1:
        dout = np.zeros((n, SEATS))
        dout[:, 0] = dv
    else:
        # d p_k / d logit_j = p_k (δ_kj - p_j).
        dl = -p * v[:, None]
        dl[np.arange(n), seats] += v
        dout = np.zeros((n, SEATS))
        dout[:, :players] = dl * dv[:, None]
    dout = dout.astype(m.wv.dtype)
    g: dict[str, np.ndarray] = {}
    g["wv"] = r.T @ dout
    g["bv"] = dout.sum(axis=0)
    dz = (dout @ m.wv.T) * (z > 0)
    g["w1"] = h.T @ dz
    g["b1"] = dz.sum(axis=0)
    da = (dz @ m.w1.T) * ((a > 0) & (a < 1))
    g["embed"] = x.T @ da
    g["b0"] = da.sum(axis=0)
    return value_loss, centred_loss, v, g


def _child_batches(child_rows: np.ndarray, decisions: np.ndarray, per_batch: int, rng: np.random.Generator | None):
    """Children of ``decisions`` in batches of whole sibling groups: (child indices, group of each, 0-based)."""
    order = np.argsort(child_rows, kind="stable")
    starts = np.searchsorted(child_rows[order], decisions)
    ends = np.searchsorted(child_rows[order], decisions, side="right")
    keep = ends > starts
    starts, ends = starts[keep], ends[keep]
    idx = np.arange(len(starts)) if rng is None else rng.permutation(len(starts))
    for b in range(0, len(idx), per_batch):
        sel = idx[b:b + per_batch]
        sizes = ends[sel] - starts[sel]
        rows = np.concatenate([order[s:e] for s, e in zip(starts[sel], ends[sel])])
        yield rows, np.repeat(np.arange(len(sel)), sizes)


def sibling_agreement(values: np.ndarray, targets: np.ndarray, groups: np.ndarray) -> tuple[float, float]:
    """Over groups of two or more siblings: how often the best value is the best
    target, and the correlation of values and targets minus their groups' means."""
    count = np.bincount(groups)
    vc = values - (np.bincount(groups, values) / count)[groups]
    tc = targets - (np.bincount(groups, targets) / count)[groups]
    multi = count[groups] > 1
    agree, n = 0, 0
    for k in np.flatnonzero(count > 1):
        sel = groups == k
        agree += int(np.argmax(values[sel]) == np.argmax(targets[sel]))
        n += 1
    corr = float(np.corrcoef(vc[multi], tc[multi])[0, 1]) if multi.sum() > 2 else float("nan")
    return agree / max(n, 1), corr


class Adam:
    def __init__(self, m: Model, lr: float) -> None:
        self.lr, self.t = lr, 0
        self.mo = {n: np.zeros_like(getattr(m, n)) for n in Model.NAMES}
        self.ve = {n: np.zeros_like(getattr(m, n)) for n in Model.NAMES}

    def step(self, m: Model, g: dict[str, np.ndarray]) -> None:
        self.t += 1
        b1, b2 = 0.9, 0.999
        for n, gn in g.items():
            self.mo[n] = b1 * self.mo[n] + (1 - b1) * gn
            self.ve[n] = b2 * self.ve[n] + (1 - b2) * gn * gn
            mh = self.mo[n] / (1 - b1 ** self.t)
            vh = self.ve[n] / (1 - b2 ** self.t)
            setattr(m, n, (getattr(m, n) - self.lr * mh / (np.sqrt(vh) + 1e-8)).astype(np.float32))


def held_out_rows(data: dict[str, np.ndarray], rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """The rows held out (a tenth of the games, or of the rows when the games are not known) and the rest."""
    n = len(data["to_move"])
    order = rng.permutation(n)
    if "game" in data and len(np.unique(data["game"])) > 1:
        # Whole games: the decisions of one game are alike, and a held-out decision whose
        # neighbours were trained on flatters the network (docs/training.md).
        games = np.unique(data["game"])
        is_held = np.isin(data["game"], rng.permutation(games)[: max(1, len(games) // 10)])
        return order[is_held[order]], order[~is_held[order]]
    held = order[: max(1, n // 10)]
    return held, order[len(held):]


def fit(m: Model, data: dict[str, np.ndarray], cfg: TrainConfig, rng: np.random.Generator,
        log: Callable[[str], None]) -> dict[str, float]:
    """Train ``m`` in place on ``data``; the losses of the last epoch and on a held-out tenth."""
    held, train_rows = held_out_rows(data, rng)
    targets = value_targets(data, cfg.players, cfg.q_weight)
    opt = Adam(m, cfg.learning_rate)
    children = cfg.players == 1 and cfg.children_share > 0 and len(data.get("child_rows", ())) > 0
    out: dict[str, float] = {}
    for epoch in range(cfg.epochs):
        rng.shuffle(train_rows)
        pl, vl, k = 0.0, 0.0, 0
        for start in range(0, len(train_rows), cfg.batch):
            rows = np.sort(train_rows[start:start + cfg.batch])
            x = features(data["observations"][rows])
            p, v, g = losses(m, x, data["masks"][rows], data["policies"][rows], targets[rows], cfg.players, cfg.value_weight)
            opt.step(m, g)
            pl, vl, k = pl + p * len(rows), vl + v * len(rows), k + len(rows)
        hp, hv, _ = losses(m, features(data["observations"][held]), data["masks"][held], data["policies"][held],
                           targets[held], cfg.players, grads=False)
        out = {"policy_loss": pl / k, "value_loss": vl / k, "held_policy_loss": hp, "held_value_loss": hv}
        log(f"  epoch {epoch + 1}/{cfg.epochs}: policy {pl / k:.4f}, value {vl / k:.5f}; held out: policy {hp:.4f}, value {hv:.5f}")
        if children:
            out.update(_fit_children(m, data, cfg, opt, rng, np.sort(train_rows), np.sort(held)))
            log(f"    children: value {out['child_value_loss']:.6f}, centred {out['child_centred_loss']:.7f}; held out: value"
                f" {out['held_child_value_loss']:.6f}, centred {out['held_child_centred_loss']:.7f}, best child agrees"
                f" {out['held_child_agreement']:.3f}, centred correlation {out['held_child_correlation']:.3f}")
    return out


def _fit_children(m: Model, data: dict[str, np.ndarray], cfg: TrainConfig, opt: "Adam", rng: np.random.Generator,
                  train_rows: np.ndarray, held: np.ndarray) -> dict[str, float]:
    """One pass of the value head over the sibling targets of the training
    decisions, then the losses on the held-out decisions' children."""
    obs, q, parent = data["child_observations"], data["child_values"], data["child_rows"]
    tv, tc, k = 0.0, 0.0, 0
    for rows, groups in _child_batches(parent, train_rows, max(1, cfg.batch // 4), rng):
        v, c, _, g = sibling_losses(m, features(obs[rows]), q[rows], groups, cfg.child_weight, cfg.centre_weight)
        opt.step(m, g)
        tv, tc, k = tv + v * len(rows), tc + c * len(rows), k + len(rows)
    return {"child_value_loss": tv / max(k, 1), "child_centred_loss": tc / max(k, 1), **_held_children(m, data, held)}


def _held_children(m: Model, data: dict[str, np.ndarray], held: np.ndarray, players: int = 1) -> dict[str, float]:
    """The sibling losses of the held-out decisions' children, how often the
    network's best child is the search's, and the centred correlation."""
    obs, q, parent = data["child_observations"], data["child_values"], data["child_rows"]
    seats = _child_seats(data)
    hv = hc = 0.0
    hk = 0
    values: list[np.ndarray] = []
    targets: list[np.ndarray] = []
    groups_all: list[np.ndarray] = []
    offset = 0
    for rows, groups in _child_batches(parent, held, 1024, None):
        v, c, vals, _ = sibling_losses(m, features(obs[rows]), q[rows], groups, grads=False, players=players, seats=seats[rows])
        hv, hc, hk = hv + v * len(rows), hc + c * len(rows), hk + len(rows)
        values.append(vals)
        targets.append(q[rows])
        groups_all.append(groups + offset)
        offset += int(groups.max()) + 1
    agree, corr = (sibling_agreement(np.concatenate(values), np.concatenate(targets).astype(np.float64), np.concatenate(groups_all))
                   if hk else (float("nan"), float("nan")))
    return {"held_child_value_loss": hv / max(hk, 1), "held_child_centred_loss": hc / max(hk, 1),
            "held_child_agreement": agree, "held_child_correlation": corr}


def fit_siblings(data: dict[str, np.ndarray], hidden: int, hidden2: int, epochs: int, seed: int,
                 learning_rate: float = 1e-3, absolute: float = 1.0, centre: float = 20.0, decay: float = 1.0,
                 per_batch: int = 64, held_share: float = 0.05, log: Callable[[str], None] = print,
                 after_epoch: Callable[[Model, int], None] | None = None, players: int = 1) -> tuple[Model, dict[str, float]]:
    """A fresh network whose value path learns the sibling targets of ``data``
    (``child_observations``, ``child_values``, ``child_rows``, ``child_seats``
    and ``game`` as :func:`dragoncastle.selfplay` returns them with
    ``children``) of games of ``players`` (solo: scores; with rivals: the
    chance to win of the seat that moved, :func:`sibling_losses`).

    Holds out ``held_share`` of the games, then trains ``epochs`` passes of
    :func:`sibling_losses` (``absolute`` on the values, ``centre`` on their
    differences from their siblings' mean) over batches of ``per_batch``
    decisions' children, with Adam, a cosine learning rate per epoch and
    decoupled weight decay (``decay`` times the learning rate per step) on the
    three weight matrices of the value path. Logs each epoch's training and
    held-out losses; ``after_epoch(model, epoch)`` may save the weights.
    Returns the model and the last epoch's figures."""
    if epochs < 1 or per_batch < 1 or not 0 < held_share < 1:
        raise ValueError("epochs and per_batch must be at least 1 and held_share in (0, 1)")
    parent = data["child_rows"]
    if len(parent) == 0:
        raise ValueError("the data has no sibling targets: self-play with children=(share, k)")
    rng = np.random.default_rng(seed)
    decisions = np.unique(parent)
    games = np.unique(data["game"][decisions])
    held_games = rng.permutation(games)[: max(1, round(len(games) * held_share))]
    is_held = np.isin(data["game"][decisions], held_games)
    held, train_rows = decisions[is_held], decisions[~is_held]
    log(f"  {len(parent)} children of {len(decisions)} decisions of {len(games)} games; held out: {len(held_games)} games")
    obs, q, seats = data["child_observations"], data["child_values"].astype(np.float64), _child_seats(data)
    m = Model(hidden, hidden2, seed)
    opt = Adam(m, learning_rate)
    out: dict[str, float] = {}
    for epoch in range(epochs):
        opt.lr = learning_rate * 0.5 * (1 + math.cos(math.pi * epoch / epochs))
        tv = tc = 0.0
        k = 0
        for rows, groups in _child_batches(parent, train_rows, per_batch, rng):
            a, c, _, g = sibling_losses(m, features(obs[rows]), q[rows], groups, absolute, centre, players=players, seats=seats[rows])
            opt.step(m, g)
            if decay:
                for name in ("embed", "w1", "wv"):
                    setattr(m, name, (getattr(m, name) * (1 - opt.lr * decay)).astype(np.float32))
            tv, tc, k = tv + a * len(rows), tc + c * len(rows), k + len(rows)
        out = {"child_value_loss": tv / max(k, 1), "child_centred_loss": tc / max(k, 1), **_held_children(m, data, held, players)}
        log(f"  epoch {epoch + 1}/{epochs} (lr {opt.lr:.1e}): children value {out['child_value_loss']:.6f}, centred"
            f" {out['child_centred_loss']:.7f}; held out: value {out['held_child_value_loss']:.6f}, centred"
            f" {out['held_child_centred_loss']:.7f}, best child agrees {out['held_child_agreement']:.3f},"
            f" centred correlation {out['held_child_correlation']:.3f}")
        if after_epoch is not None:
            after_epoch(m, epoch + 1)
    return m, out


def _child_seats(data: dict[str, np.ndarray]) -> np.ndarray:
    """Which relative value each child's target is for (solo data written before
    ``child_seats`` existed: all 0)."""
    seats = data.get("child_seats")
    return np.zeros(len(data["child_rows"]), np.int64) if seats is None else seats


def _agent(cfg: TrainConfig, model: str | None, iterations: int, selfplay_noise: bool) -> MCTSAgent:
    """The one description of the run's search: self-play's (with its noise
    and temperature) or the gates' (without), with ``model`` or rollouts
    alone. It keeps no tree, as self-play never does and as the shipped
    network was gated."""
    tuning: dict[str, Any] = {"reuse_tree": False}
    if model is not None:
        tuning["model"] = model
        if cfg.rollout_weight:
            tuning["rollout_weight"] = cfg.rollout_weight
        if not cfg.priors:
            tuning["priors"] = False
        elif selfplay_noise and cfg.noise:
            tuning["noise"] = tuple(cfg.noise)
    if selfplay_noise and cfg.temperature:
        tuning["temperature"] = cfg.temperature
    return MCTSAgent(iterations=iterations, **tuning)


def _strength(cfg: TrainConfig, model: str | None, games: int, iterations: int) -> float:
    """Mean solo score, or win rate against the rollout search, on held-out deals."""
    spec = _agent(cfg, model, iterations, selfplay_noise=False).spec
    spirits, dragons = cfg.spirits or None, cfg.dragons or None
    rivals = [_agent(cfg, None, iterations, selfplay_noise=False).spec] * (cfg.players - 1)
    r = arena([spec, *rivals], games, seed=HELD_OUT_SEEDS, threads=cfg.threads, spirits=spirits, dragons=dragons,
              ray=cfg.ray)
    return r.mean_scores()[0] if cfg.players == 1 else r.win_rates()[0]


def train(cfg: TrainConfig, log: Callable[[str], None] = print) -> str:
    """Run (or continue) the training of ``cfg``; returns the path of the best weights."""
    cfg.check()
    try:
        os.makedirs(cfg.directory, exist_ok=True)
    except OSError as e:
        raise ValueError(f"cannot make the run directory {cfg.directory}: {e.strerror or e}") from None
    state_path = os.path.join(cfg.directory, "state.json")
    # What decides which games a generation's data files hold: a run continued with
    # other values would read files that are not there, or mix games of other modes.
    layout = {k: getattr(cfg, k) for k in ("games", "chunk", "players", "spirits", "dragons", "seed")}
    state: dict[str, Any] = {"generation": 0, "best": None, "best_strength": None, "seconds": 0.0, "layout": layout}
    if os.path.exists(state_path):
        state = _read_state(state_path)
        changed = {k: (v, layout.get(k)) for k, v in state["layout"].items() if layout.get(k) != v}
        if changed:
            raise ValueError(f"{cfg.directory} was started with other self-play settings; continue it with the same ones "
                             "or use another directory: " + ", ".join(f"{k} was {a}, now {b}" for k, (a, b) in changed.items()))
        log(f"continuing {cfg.directory} after generation {state['generation']} (best: {state['best']})")
    # No Ray is started for a run with nothing left to do.
    address = cfg.ray if state["generation"] < cfg.generations else None
    with distributed.session(address) if address is not None else contextlib.nullcontext():
        _generations(cfg, state, state_path, log)
    return state["best"]


#: The most characters read of a state.json (it holds a few short fields).
MAX_STATE = 1 << 20

_STATE_FIELDS: dict[str, tuple[Callable[[Any], bool], str]] = {
    "generation": (lambda v: type(v) is int and v >= 0, "a whole number >= 0"),
    "best": (lambda v: v is None or (isinstance(v, str) and os.path.isfile(v)), "null or an existing weights file"),
    "best_strength": (lambda v: v is None or (type(v) in (int, float) and math.isfinite(v)), "null or a finite number"),
    "seconds": (lambda v: type(v) in (int, float) and math.isfinite(v) and v >= 0, "a number of seconds"),
    "layout": (lambda v: isinstance(v, dict), "an object"),
}


def _read_state(path: str) -> dict[str, Any]:
    """A run's ``state.json``, read with a bound and checked field by field:
    ``ValueError`` naming the file and the field otherwise."""
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read(MAX_STATE + 1)
        state = json.loads(text) if len(text) <= MAX_STATE else None
    except (OSError, UnicodeDecodeError) as e:
        raise ValueError(f"cannot read {path}: {e}") from None
    except (ValueError, RecursionError) as e:
        raise ValueError(f"{path}: not a training state (not JSON: {e})") from None
    if not isinstance(state, dict):
        raise ValueError(f"{path}: not a training state (a JSON object of at most {MAX_STATE} characters is expected)")
    state.setdefault("layout", {})  # runs started before the layout was kept have none
    for name, (ok, what) in _STATE_FIELDS.items():
        if name not in state or not ok(state[name]):
            raise ValueError(f"{path}: {name} should be {what}, not {json.dumps(state.get(name))[:80]}")
    # A network is kept from the first generation on, and its gate result with it.
    if (state["generation"] == 0) != (state["best"] is None) or (state["best"] is None) != (state["best_strength"] is None):
        raise ValueError(f"{path}: generation {state['generation']}, best {state['best']!r} and best_strength "
                         f"{state['best_strength']} do not go together")
    return state


def _generations(cfg: TrainConfig, state: dict[str, Any], state_path: str, log: Callable[[str], None]) -> None:
    """The generations still to run, each ending with a checkpoint."""
    rng = np.random.default_rng(cfg.seed + 7919 * state["generation"])
    while state["generation"] < cfg.generations:
        g = state["generation"]
        start = time.perf_counter()
        _check_window_files(cfg, g)
        log(f"generation {g + 1}/{cfg.generations}: self-play, {cfg.games} games at {cfg.iterations} iterations"
            f" ({'rollouts' if state['best'] is None else 'network ' + os.path.basename(state['best'])})")
        _selfplay_chunks(cfg, state["best"], g, log)
        window, decisions = _load_window(cfg, g)
        played = time.perf_counter()
        log(f"  {decisions} decisions; training on {len(window['to_move'])} from the last {min(cfg.window, g + 1)} generation(s)")
        if cfg.targets == "siblings":
            model, metrics = fit_siblings(window, cfg.hidden, cfg.hidden2, cfg.epochs, cfg.seed + g, cfg.learning_rate,
                                          cfg.child_weight, cfg.centre_weight, cfg.decay, max(1, cfg.batch // 4), log=log,
                                          players=cfg.players)
        else:
            model = Model.from_network(_core.Network.load(state["best"])) if state["best"] else Model(cfg.hidden, cfg.hidden2, cfg.seed)
            metrics = fit(model, window, cfg, rng, log)
        del window
        trained = time.perf_counter()
        training = {"command": cfg.command, "seed": cfg.seed, "generation": g + 1, "players": cfg.players,
                    "config": {k: v for k, v in asdict(cfg).items() if k not in ("directory", "command", "extra", "ray")}}
        path = os.path.join(cfg.directory, f"gen{g + 1:03d}.dcnet")
        model.to_network(training).save(path)
        strength = _strength(cfg, path, cfg.gate_games, cfg.gate_iterations)
        previous = state["best_strength"]
        if previous is None and state["best"] is None:
            previous = _strength(cfg, None, cfg.gate_games, cfg.gate_iterations)
            state["rollout_strength"] = previous
        # The first network is kept whatever its gate says: the next generation's
        # self-play needs one, and the log says when it is below the rollout search.
        first = state["best"] is None
        accepted = first or strength >= previous
        if first:
            verdict = "kept as the first network" + ("" if strength >= previous else ", below the rollout search")
        else:
            verdict = "accepted" if accepted else "rejected"
        log(f"  gate on {cfg.gate_games} held-out deals at {cfg.gate_iterations} iterations: {strength:.3f}"
            f" ({'rollout search' if first else 'current'}: {previous:.3f}) -> {verdict}")
        if accepted:
            state["best"], state["best_strength"] = path, strength
        state["generation"] = g + 1
        state["seconds"] += time.perf_counter() - start
        with open(os.path.join(cfg.directory, "log.jsonl"), "a") as f:
            f.write(json.dumps({"generation": g + 1, "seconds": round(state["seconds"], 1), "decisions": decisions,
                                "selfplay_seconds": round(played - start, 1), "train_seconds": round(trained - played, 1),
                                "strength": strength, "current": previous, "accepted": accepted, **metrics}) + "\n")
        write_file(state_path, json.dumps(state))


def _selfplay_chunks(cfg: TrainConfig, model: str | None, g: int, log: Callable[[str], None]) -> None:
    """Generation ``g``'s self-play by the search with the network at ``model``
    (None: the rollout search), ``cfg.chunk`` games per data file; files
    already written (by a run that stopped) are kept. Game ``k`` of the
    generation has seed ``cfg.seed + g * cfg.games + k`` however it is chunked,
    and wherever it is played (``cfg.ray``)."""
    chunks = [(c, first, min(cfg.chunk, cfg.games - first)) for c, first in enumerate(range(0, cfg.games, cfg.chunk))]
    paths = [os.path.join(cfg.directory, f"data{g:03d}-{c:03d}.npz") for c, _, _ in chunks]
    missing = [(c, first, n) for c, first, n in chunks if not os.path.exists(paths[c])]
    seed = cfg.seed + g * cfg.games
    if cfg.ray is None:
        agent = _agent(cfg, model, cfg.iterations, selfplay_noise=True)
        for c, first, n in missing:
            _write_chunk(cfg, paths[c], _stored(_selfplay(cfg, agent, n, seed + first, cfg.threads)), first, n, log)
    elif missing:
        ray = distributed.ray_module()  # train() holds the session
        per_task = distributed.per_task(cfg.threads)
        task = ray.remote(_selfplay_shard).options(num_cpus=per_task)
        files = ray.put(distributed.read_files([model] if model else []))
        # Every missing chunk's shards are queued at once (about
        # SHARDS_PER_SLOT per slot in all), so no slot waits for a chunk's
        # last game; the chunks are written in order as their shards are back.
        per_chunk = -(-distributed.SHARDS_PER_SLOT * distributed.slots(ray, per_task) // len(missing))
        refs = {c: [task.remote(cfg, model, files, count, seed + first + s, per_task) for s, count in shard_ranges(n, per_chunk)]
                for c, first, n in missing}
        try:
            for c, first, n in missing:
                _write_chunk(cfg, paths[c], _concat(distributed.gather(ray, refs[c])), first, n, log)
                del refs[c]  # its results can leave the object store
        except BaseException:
            distributed.cancel(ray, [r for rs in refs.values() for r in rs])
            raise


def _selfplay(cfg: TrainConfig, agent: MCTSAgent, n: int, seed: int, threads: int | None) -> dict[str, np.ndarray]:
    """Games ``seed .. seed + n - 1`` of self-play in the mode of ``cfg``."""
    children = cfg.children_share > 0 and (cfg.players == 1 or cfg.targets == "siblings")
    return selfplay(agent, n, players=cfg.players, seed=seed, threads=threads, spirits=cfg.spirits or None,
                    dragons=cfg.dragons or None, children=(cfg.children_share, cfg.children_max) if children else None)


def _selfplay_shard(cfg: TrainConfig, model: str | None, files: dict[str, bytes], n: int, seed: int,
                    threads: int) -> dict[str, np.ndarray]:
    """The body of a Ray task: :func:`_selfplay` with the network at
    ``model``, read from the bytes that came with the task (a node need not
    see the driver's disk), in the form stored. A module-level function, so
    that the workers run the installed package."""
    if model is not None:
        model = distributed.local_path(model, files)
    return _stored(_selfplay(cfg, _agent(cfg, model, cfg.iterations, selfplay_noise=True), n, seed, threads))


def _stored(data: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """Self-play data as a data file holds it: the policies, mostly zeros,
    sparse (``policy_rows``, ``policy_cols``, ``policy_values``)."""
    rows, cols = np.nonzero(data["policies"])
    out = {k: v for k, v in data.items() if k != "policies"}
    out.update(policy_rows=rows, policy_cols=cols, policy_values=data["policies"][rows, cols])
    return out


def _write_chunk(cfg: TrainConfig, path: str, arrays: dict[str, Any], first: int, n: int,
                 log: Callable[[str], None]) -> None:
    """One data file, written whole or not at all."""
    write_file(path, lambda f: np.savez_compressed(f, **arrays))
    if cfg.games > cfg.chunk:
        log(f"  games {first + 1}-{first + n} of {cfg.games}: {len(arrays['to_move'])} decisions")


def _window_paths(cfg: TrainConfig, g: int) -> list[tuple[int, str]]:
    """The data files of the window that ends with generation ``g``, with the generation of each."""
    return [(k, os.path.join(cfg.directory, f"data{k:03d}-{c:03d}.npz"))
            for k in range(max(0, g + 1 - cfg.window), g + 1) for c in range(0, -(-cfg.games // cfg.chunk))]


def _check_window_files(cfg: TrainConfig, g: int) -> None:
    """The earlier generations' data files of ``g``'s window are there, before
    ``g``'s self-play (which writes only ``g``'s)."""
    for k, path in _window_paths(cfg, g):
        if k < g and not os.path.isfile(path):
            _read_chunk(path, cfg)  # its error names the file


def _load_window(cfg: TrainConfig, g: int) -> tuple[dict[str, np.ndarray], int]:
    """The data of the window that ends with generation ``g``, each file
    checked (:func:`_read_chunk`), and generation ``g``'s number of decisions."""
    parts = []
    decisions = 0
    for k, path in _window_paths(cfg, g):
        d = _read_chunk(path, cfg)
        decisions += len(d["to_move"]) if k == g else 0
        if cfg.targets == "siblings":
            d = {name: d[name] for name in ("to_move", "game", "child_observations", "child_values", "child_rows",
                                            "child_seats") if name in d}
        else:
            policies = np.zeros((len(d["to_move"]), _core.NUM_ACTIONS), np.float32)
            policies[d.pop("policy_rows"), d.pop("policy_cols")] = d.pop("policy_values")
            d["policies"] = policies
        parts.append(d)
    return _concat(parts), decisions


def _chunk_arrays(cfg: TrainConfig) -> dict[str, tuple[str, tuple[int, ...], str]]:
    """The arrays of a data file (as :func:`_stored` writes them): the rows each
    has (``n`` decisions, ``m`` children, ``p`` policy entries), the shape
    after them, and the kinds of numpy type it may have."""
    obs = (_core.COMPACT_OBSERVATION_SIZE,)
    return {"to_move": ("n", (), "iu"), "observations": ("n", obs, "u"), "masks": ("n", (_core.NUM_ACTIONS,), "b"),
            "actions": ("n", (), "iu"), "values": ("n", (), "f"), "returns": ("n", (cfg.players,), "f"),
            "game": ("n", (), "iu"), "policy_rows": ("p", (), "iu"), "policy_cols": ("p", (), "iu"),
            "policy_values": ("p", (), "f"), "child_observations": ("m", obs, "u"), "child_rows": ("m", (), "iu"),
            "child_actions": ("m", (), "iu"), "child_visits": ("m", (), "iu"), "child_values": ("m", (), "f"),
            "child_seats": ("m", (), "iu")}


def _chunk_needs(cfg: TrainConfig) -> tuple[str, ...]:
    """The arrays the training reads from a data file."""
    if cfg.targets == "siblings":
        return ("to_move", "game", "child_observations", "child_values", "child_rows")
    return ("to_move", "observations", "masks", "returns", "policy_rows", "policy_cols", "policy_values")


# Values that index other arrays: (array, what it indexes, bound).
_INDEX_BOUNDS = (("to_move", "players"), ("policy_rows", "n"), ("policy_cols", "actions"), ("child_rows", "n"),
                 ("child_seats", "players"))


def _read_chunk(path: str, cfg: TrainConfig) -> dict[str, np.ndarray]:
    """A data file's arrays, checked (present, shaped and typed as
    :func:`_stored` writes them, indices in range, no NaN where none is
    written): ``ValueError`` naming the file and the array otherwise."""
    try:
        with np.load(path, allow_pickle=False) as z:
            d = {name: z[name] for name in z.files}
    except FileNotFoundError:
        raise ValueError(f"{path}: missing: a data file of the run's window (delete state.json and the gen*.dcnet "
                         "files to start the run again)") from None
    except Exception as e:  # numpy and zipfile raise many kinds on a damaged file
        raise ValueError(f"{path}: not a data file ({type(e).__name__}: {e})") from None
    rows: dict[str, int] = {}
    for name, (kind, shape, types) in _chunk_arrays(cfg).items():
        if name not in d:
            if name in _chunk_needs(cfg):
                raise ValueError(f"{path}: no array {name}")
            continue
        a = d[name]
        n = rows.setdefault(kind, a.shape[0] if a.ndim else -1)
        if a.ndim != 1 + len(shape) or a.shape != (n, *shape) or a.dtype.kind not in types:
            raise ValueError(f"{path}: {name} is {a.dtype} {a.shape}, not ({kind}, {', '.join(map(str, shape))}) of "
                             f"{'/'.join(types)} type, as its other arrays say")
        if name in ("returns", "policy_values", "child_values") and not np.isfinite(a).all():
            raise ValueError(f"{path}: {name} holds NaN or infinite values")
    bounds = {"players": cfg.players, "n": rows.get("n", 0), "actions": _core.NUM_ACTIONS}
    for name, of in _INDEX_BOUNDS:
        if name in d and len(d[name]) and not (0 <= d[name].min() and d[name].max() < bounds[of]):
            raise ValueError(f"{path}: {name} holds values outside 0 to {bounds[of] - 1}")
    return d


def _concat(parts: list[dict[str, np.ndarray]]) -> dict[str, np.ndarray]:
    """Parts of self-play data (shards, chunks, generations) as one, in order:
    the arrays that index decisions (``child_rows``, ``policy_rows``) shifted
    to the joined rows; an array only when every part has it."""
    out = {k: np.concatenate([p[k] for p in parts]) for k in parts[0] if all(k in p for p in parts)}
    offsets = np.cumsum([0] + [len(p["to_move"]) for p in parts[:-1]])
    for k in ("child_rows", "policy_rows"):
        if k in out:
            out[k] = np.concatenate([p[k] + o for p, o in zip(parts, offsets)])
    return out


#: What ``dragoncastle train --help`` says first (plain text; the module's
#: documentation has the details).
DESCRIPTION = """Self-play training of the search's network (docs/training.md).

Each generation: the search with the current network plays self-play games,
a network learns from the last generations' data, and a gate on held-out deals
keeps it only if it plays at least as well. Every generation writes its weights,
a checkpoint and a line of log.jsonl in --dir; the same command again continues
the run. The defaults are the recipe that made the shipped network."""

#: TrainConfig fields that are not command-line options.
_NOT_OPTIONS = ("directory", "command", "extra")


def _noise(text: str) -> tuple[float, float] | None:
    """``--noise A/F`` (or ``none``), read by the agent specs' own parser."""
    import argparse

    if text.lower() in ("none", "off"):
        return None
    try:
        alpha, fraction = _core.agent_spec(f"mcts:noise={text}")[1]["noise"]
    except ValueError:
        raise argparse.ArgumentTypeError(f"noise is alpha/fraction (0.3/0.25) or none; got {text!r}") from None
    return (alpha, fraction)


def parser() -> Any:
    """The command line of ``dragoncastle train``: one option per
    :class:`TrainConfig` setting, with its help and default."""
    import argparse
    import dataclasses

    from .cli_common import HelpFormatter

    ap = argparse.ArgumentParser(prog="dragoncastle train", description=DESCRIPTION, formatter_class=HelpFormatter)
    ap.add_argument("--dir", required=True, help=TrainConfig.__dataclass_fields__["directory"].metadata["help"])
    ap.add_argument("--out", help="copy the best weights here at the end (default: not copied)")
    for f in dataclasses.fields(TrainConfig):
        if f.name in _NOT_OPTIONS:
            continue
        kind: Any = {"int": int, "float": float, "str": str}.get(str(f.type).split(" ")[0])
        extra: dict[str, Any] = {}
        if f.name == "noise":
            kind, extra["metavar"] = _noise, "A/F"
        elif f.name == "targets":
            extra["choices"] = ("siblings", "visits")
        elif f.name == "threads":
            kind = int
        elif f.name == "ray":
            kind, extra["nargs"], extra["const"], extra["metavar"] = str, "?", "local", "ADDRESS"
        # A setting whose help states its default (those that default to None) keeps it.
        text = f.metadata["help"]
        if "default" not in text:
            text += " (default: %s)" % ("/".join(map(str, f.default)) if isinstance(f.default, tuple) else f.default)
        ap.add_argument("--" + f.name.replace("_", "-"), type=kind, default=f.default, help=text, **extra)
    ap.add_argument("--plot", metavar="FILE.png", help="draw the learning curve at the end; needs matplotlib (default: no plot)")
    return ap


def check_paths(directory: str, out: str | None = None, plot: str | None = None) -> None:
    """The one check of a run's paths, before any work: ``directory`` a
    directory, or a path where one can be made; ``out`` and ``plot`` places
    for a regular file (:func:`dragoncastle.output.check_output`), in an
    existing directory or in the run directory. ``ValueError`` naming the
    path otherwise."""
    if not os.path.isdir(directory):
        if os.path.lexists(directory):
            raise ValueError(f"the run directory {directory} exists and is not a directory")
        above = os.path.dirname(os.path.abspath(directory))
        while not os.path.lexists(above):
            above = os.path.dirname(above)
        if not os.path.isdir(above):
            raise ValueError(f"the run directory {directory} cannot be made: {above} is not a directory")
    for option, path in (("--out", out), ("--plot", plot)):
        if path is None:
            continue
        if not os.path.isdir(directory) and os.path.abspath(os.path.dirname(path)) == os.path.abspath(directory):
            continue  # in the run directory, still to be made
        try:
            check_output(path)
        except OutputError as e:
            raise ValueError(f"{option}: {e}") from None


def main(argv: list[str] | None = None) -> int:
    """``dragoncastle train``: see ``--help``."""
    import dataclasses

    ap = parser()
    args = ap.parse_args(argv)
    try:
        check_paths(args.dir, args.out, args.plot)
    except ValueError as e:
        ap.exit(2, f"dragoncastle train: {e}\n")
    settings = {f.name: getattr(args, f.name) for f in dataclasses.fields(TrainConfig) if f.name not in _NOT_OPTIONS}
    cfg = TrainConfig(directory=args.dir, command="dragoncastle train " + " ".join(argv if argv is not None else sys.argv[2:]),
                      **settings)
    try:
        # train() checks the settings and the run directory before any game is played.
        best = train(cfg, log=lambda s: print(s, flush=True))
    except ValueError as e:
        raise SystemExit(f"dragoncastle train: {e}") from None
    if args.plot:
        from .plots import plot_training

        with open(os.path.join(args.dir, "log.jsonl")) as f:
            rows = [json.loads(line) for line in f if line.strip()]
        with open(os.path.join(args.dir, "state.json")) as f:
            rollout = json.load(f).get("rollout_strength")
        plot_training(rows, args.plot, rollout=rollout, title=f"dragoncastle train --dir {args.dir}")
        print(f"learning curve: {args.plot}")
    if args.out and best:
        import shutil

        try:
            with open(best, "rb") as source:
                write_file(args.out, lambda f: shutil.copyfileobj(source, f))
        except OutputError as e:
            raise SystemExit(f"dragoncastle train: --out: {e}") from None
        print(f"best weights: {best}, copied to {args.out}")
    else:
        print(f"best weights: {best}")
    return 0
