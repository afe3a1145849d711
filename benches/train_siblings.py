#!/usr/bin/env python3
"""Train a network's value head on sibling targets alone (``docs/training.md``).

Reads shards written by ``benches/sibling_data.py`` (or any ``dc.selfplay``
data with ``children``) and trains a fresh network on them with
``dragoncastle.train.fit_siblings`` (what ``dragoncastle train --targets
siblings`` does each generation): a twentieth of the games held out, the value
path's squared error on the children's search values plus ``--centre`` times
the error on their differences from their siblings' mean, Adam, a cosine
learning rate per epoch and decoupled weight decay. After each epoch it logs
the held-out games' losses, how often the network's best child is the
search's best, and the correlation of the centred values, and writes the
weights.

    python3 benches/train_siblings.py runs/sib1/sib0*.npz --out runs/sib1/final.dcnet --epochs 5
"""

from __future__ import annotations

import argparse
import sys

import numpy as np

from dragoncastle.train import _concat, fit_siblings

KEYS = ("to_move", "game", "child_observations", "child_values", "child_rows")


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

    parts = []
    for path in args.data:
        with np.load(path) as z:
            parts.append({k: z[k] for k in KEYS})
    data = _concat(parts)
    del parts
    training = {"command": "python3 benches/train_siblings.py " + " ".join(sys.argv[1:]), "seed": args.seed,
                "target": "sibling targets: search values of the well-visited root moves"}

    def save(m, epoch: int) -> None:
        m.to_network({**training, "epoch": epoch}).save(args.out)

    fit_siblings(data, args.hidden, args.hidden2, args.epochs, args.seed, args.lr, args.absolute, args.centre, args.decay,
                 args.groups, log=lambda s: print(s, flush=True), after_epoch=save)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
