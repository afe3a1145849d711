"""Fitting the network of :mod:`dragoncastle.train_model` to self-play data:
on visit distributions and returns (:func:`fit`, the ``visits`` targets) or,
a fresh network, on the search's values of sibling moves
(:func:`fit_siblings`, the ``siblings`` targets), each with its held-out games."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Callable

import numpy as np

from .train_model import Adam, Model, features, losses, sibling_losses, value_targets

if TYPE_CHECKING:
    from .train import TrainConfig


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
