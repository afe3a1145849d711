"""The network :mod:`dragoncastle.train` trains, in numpy: its arrays
(:class:`Model`, in the Rust file order), the forward pass, the losses and
their gradients (on visit distributions and returns, :func:`losses`; on
sibling targets, :func:`sibling_losses`) and Adam. The shape and input are
the Rust side's (``rust/eval/network.rs``, ``rust/eval/features.rs``)."""

from __future__ import annotations

import json
import math
from typing import Any

import numpy as np

from . import _core

SEATS = _core.MAX_SEATS  # value columns: one per seat, relative to the mover


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
