#!/usr/bin/env python3
"""Train a network's value head on sibling targets alone (``docs/training.md``).

Reads shards written by ``benches/sibling_data.py`` (or any ``dc.selfplay``
data with ``children``), holds out a twentieth of the games, and trains the
value path (``dragoncastle.train.sibling_losses``: squared error on the
children's search values plus ``--centre`` times the error on their
differences from their siblings' mean) with Adam, a cosine learning rate per
epoch and decoupled weight decay. After each epoch it logs the held-out
games' losses, how often the network's best child is the search's best, and
the correlation of the centred values, and writes the weights.

    python3 benches/train_siblings.py runs/sib1/sib0*.npz --out runs/sib1/final.dcnet --epochs 5
"""

from __future__ import annotations

import argparse
import sys
import time

import numpy as np

from dragoncastle import _core
from dragoncastle.train import Adam, Model, features, sibling_agreement, sibling_losses


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("data", nargs="+")
    ap.add_argument("--out", required=True)
    ap.add_argument("--epochs", type=int, default=4)
    ap.add_argument("--lr", type=float, default=1e-3)
    ap.add_argument("--centre", type=float, default=20.0, help="weight of the loss on differences between siblings")
    ap.add_argument("--absolute", type=float, default=1.0, help="weight of the loss on the values")
    ap.add_argument("--decay", type=float, default=1.0, help="decoupled weight decay of embed, w1, wv: times the learning rate, per step")
    ap.add_argument("--hidden", type=int, default=64)
    ap.add_argument("--hidden2", type=int, default=32)
    ap.add_argument("--groups", type=int, default=64, help="decisions per batch")
    ap.add_argument("--seed", type=int, default=11)
    args = ap.parse_args()

    obs, q, parent, game = [], [], [], []
    base = 0
    for path in args.data:
        with np.load(path) as z:
            obs.append(z["child_observations"])
            q.append(z["child_values"])
            parent.append(z["child_rows"] + base)
            game.append(z["game"][z["child_rows"]])
            base += len(z["to_move"])
    obs_a, q_a, parent_a, game_a = np.concatenate(obs), np.concatenate(q).astype(np.float64), np.concatenate(parent), np.concatenate(game)
    del obs
    decisions, gi = np.unique(parent_a, return_inverse=True)
    order = np.argsort(gi, kind="stable")
    starts = np.searchsorted(gi[order], np.arange(len(decisions) + 1))
    group_game = np.zeros(len(decisions), game_a.dtype)
    group_game[gi] = game_a
    rng = np.random.default_rng(args.seed)
    games = np.unique(game_a)
    held_games = rng.permutation(games)[: max(1, len(games) // 20)]
    held = np.flatnonzero(np.isin(group_game, held_games))
    train = np.flatnonzero(~np.isin(group_game, held_games))
    print(f"{len(q_a)} children of {len(decisions)} decisions of {len(games)} games; held out: {len(held_games)} games", flush=True)

    def batch(gs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        rows = np.concatenate([order[starts[g]:starts[g + 1]] for g in gs])
        return rows, np.repeat(np.arange(len(gs)), starts[gs + 1] - starts[gs])

    m = Model(args.hidden, args.hidden2, args.seed)

    def evaluate() -> str:
        vl = cl = 0.0
        vals, tgts, grps = [], [], []
        offset = 0
        for s in range(0, len(held), 512):
            rows, groups = batch(held[s:s + 512])
            a, c, v, _ = sibling_losses(m, features(obs_a[rows]), q_a[rows], groups, grads=False)
            vl, cl = vl + a * len(rows), cl + c * len(rows)
            vals.append(v), tgts.append(q_a[rows]), grps.append(groups + offset)
            offset += len(held[s:s + 512])
        n = sum(len(v) for v in vals)
        agree, corr = sibling_agreement(np.concatenate(vals), np.concatenate(tgts), np.concatenate(grps))
        return f"held out: value {vl / n:.6f}, centred {cl / n:.7f}, best child agrees {agree:.3f}, centred correlation {corr:.3f}"

    print("before:", evaluate(), flush=True)
    opt = Adam(m, args.lr)
    for epoch in range(args.epochs):
        t0 = time.time()
        opt.lr = args.lr * 0.5 * (1 + np.cos(np.pi * epoch / args.epochs))
        rng.shuffle(train)
        tv = tc = 0.0
        k = 0
        for s in range(0, len(train), args.groups):
            rows, groups = batch(train[s:s + args.groups])
            a, c, _, g = sibling_losses(m, features(obs_a[rows]), q_a[rows], groups, args.absolute, args.centre)
            opt.step(m, g)
            if args.decay:
                for name in ("embed", "w1", "wv"):
                    setattr(m, name, (getattr(m, name) * (1 - opt.lr * args.decay)).astype(np.float32))
            tv, tc, k = tv + a * len(rows), tc + c * len(rows), k + len(rows)
        print(f"epoch {epoch + 1} (lr {opt.lr:.1e}): value {tv / k:.6f}, centred {tc / k:.7f}; {evaluate()} [{time.time() - t0:.0f} s]", flush=True)
        training = {"command": "python3 benches/train_siblings.py " + " ".join(sys.argv[1:]), "seed": args.seed, "epoch": epoch + 1,
                    "target": "sibling targets: search values of the well-visited root moves (rollout search, 400 iterations)"}
        m.to_network(training).save(args.out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
