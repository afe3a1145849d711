"""Rust vs pure-Python parity: play seeded random games in both engines side by
side and require, at every step, the same legal actions (ids and text) and the
same observations; at the end the same scores, breakdowns, winners and JSON.
Half the card games activate Spirits sparingly (`choose`), the others at random.

Run any number of games (not selected by CI beyond its sample):

    python3 tests/parity.py --games 100000 --players 1,2,3,4
    python3 tests/parity.py --cards --games 20000    # random card sets (docs/cards.md)
    python3 tests/parity.py --cards --spirits 3 --dragons 3 --players 2,3,4 --games 2000

The first divergence is reported with the seed, the step and both states, and
the exit status is 1.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from dataclasses import dataclass

import numpy as np

import dragoncastle as dc
from dragoncastle import reference as ref


@dataclass
class Divergence:
    players: int
    seed: int
    step: int
    what: str
    rust: object
    python: object
    #: Both games as JSON (deal, layout and every action): load with Game.from_json.
    states: tuple[str, str] = ("", "")
    cards: bool = False
    #: The Spirit and Dragon card counts of a card game.
    counts: tuple[int, int] = (0, 0)

    def __str__(self) -> str:
        return (f"divergence: players={self.players} seed={self.seed} step={self.step}: {self.what}\n"
                f"  rust:   {self.rust}\n  python: {self.python}\n"
                f"  rust state:   {self.states[0]}\n  python state: {self.states[1]}\n"
                + (f"reproduce: python3 tests/parity.py --cards --seed {self.seed} --games 1 --players {self.players}"
                   f" --spirits {self.counts[0]} --dragons {self.counts[1]}" if self.cards else
                   f"reproduce: python3 tests/parity.py --players {self.players} --seed {self.seed} --games 1"))


def compare_game(players: int, seed: int, tensors_every: int = 25) -> Divergence | None:
    """Play one random game (action choice seeded by `seed`) in both engines."""
    return _compare(players, seed, tensors_every)


def card_setup(seed: int) -> tuple[int, int, int]:
    """The players (1-4), Spirits (1-3) and Dragons (1-3) of card game ``seed``."""
    pick = random.Random(seed ^ 0xCA4D)
    return pick.randint(1, 4), pick.randint(1, 3), pick.randint(1, 3)


def compare_card_game(seed: int, tensors_every: int = 25, players: int | None = None, spirits: int | None = None,
                      dragons: int | None = None) -> Divergence | None:
    """Play one random game with a random card set (drawn from the seed by both engines).
    ``players``, ``spirits`` and ``dragons`` fix those counts instead (the cards are
    still drawn from the seed)."""
    drawn = card_setup(seed)
    players, spirits, dragons = (x if x is not None else d for x, d in zip((players, spirits, dragons), drawn))
    return _compare(players, seed, tensors_every, spirits, dragons)


def _compare(players: int, seed: int, tensors_every: int, spirits: int = 0, dragons: int = 0) -> Divergence | None:
    kw = {"spirits": spirits, "dragons": dragons}
    rust, python = dc.Game(players=players, seed=seed, **kw), ref.Game(players=players, seed=seed, **kw)

    def diverged(step: int, what: str, a: object, b: object) -> Divergence:
        return Divergence(players, seed, step, what, a, b, (rust.to_json(), python.to_json()), bool(spirits or dragons),
                          (spirits, dragons))

    if rust.spirits != python.spirits or rust.dragons != python.dragons:
        return diverged(0, "cards drawn", (rust.spirits, rust.dragons), (python.spirits, python.dragons))

    rng = random.Random(seed)
    # Half the card games activate Spirits sparingly (see `choose`).
    sparing = bool(spirits) and seed % 2 == 0
    step = 0
    while True:
        a = [(x.id, str(x)) for x in rust.legal_actions()]
        b = [(x.id, str(x)) for x in python.legal_actions()]
        if a != b:
            return diverged(step, "legal actions", a, b)
        seat = step % players
        oa, ob = rust.observation(seat), python.observation(seat)
        if oa != ob:
            keys = [k for k in oa if oa.get(k) != ob.get(k)]
            return diverged(step, f"observation({seat}) differs in {keys}", {k: oa.get(k) for k in keys}, {k: ob.get(k) for k in keys})
        if step % tensors_every == 0 and not np.array_equal(rust.observation_tensor(seat), python.observation_tensor(seat)):
            return diverged(step, f"observation_tensor({seat})", "", "")
        if step % tensors_every == 0 and not np.array_equal(rust.compact_observation(seat), python.compact_observation(seat)):
            ca, cb = rust.compact_observation(seat), python.compact_observation(seat)
            where = np.flatnonzero(ca != cb)[:10]
            return diverged(step, f"compact_observation({seat}) at {where.tolist()}", ca[where].tolist(), cb[where].tolist())
        if step % tensors_every == 1:
            # The re-deal of the covered tiles (public information and the seed only).
            dseed = seed * 7919 + step
            da, db = rust.determinize(dseed).to_json(), python.determinize(dseed).to_json()
            if da != db:
                return diverged(step, "determinize", json.loads(da)["deal"], json.loads(db)["deal"])
        # Both engines recompute their derived data and conservation laws.
        for engine, g in (("rust", rust), ("python", python)):
            try:
                g.check_invariants()
            except AssertionError as e:
                return diverged(step, f"check_invariants() failed in the {engine} engine", str(e), "")
        if rust.is_over != python.is_over:
            return diverged(step, "is_over", rust.is_over, python.is_over)
        if rust.is_over:
            break
        action = choose(rng, rust.legal_actions(), sparing)
        rust.apply(action)
        python.apply(action)
        step += 1
    for what, x, y in (
        ("scores", rust.scores(), python.scores()),
        ("winners", rust.winners(), python.winners()),
        ("breakdowns", [rust.score_breakdown(p) for p in range(players)], [python.score_breakdown(p) for p in range(players)]),
        ("to_json", rust.to_json(), python.to_json()),
        ("returns", rust.returns(), python.returns()),
    ):
        if x != y:
            return diverged(step, what, x, y)
    # Hidden-information helpers agree too (same seed, same re-deal).
    dseed = seed * 7919 + 1
    if rust.determinize(dseed).to_json() != python.determinize(dseed).to_json():
        return diverged(step, "determinize", json.loads(rust.determinize(dseed).to_json())["deal"], "")
    return None


def choose(rng: random.Random, legal: list, sparing: bool) -> int:
    """A random legal action id. A uniformly random player pays for a Spirit
    at almost every decision point (R-SPIRIT-2), so its Realm seldom holds a
    set or a Shrine; a sparing one picks an activation one time in six when
    it has another choice, and so reaches the Shrine steps and effects that
    need a fuller Realm."""
    if sparing:
        spirit = [x for x in legal if x.kind is dc.ActionKind.SPIRIT and x.card is not None]
        others = [x for x in legal if x not in spirit]
        if spirit and others:
            return rng.choice(spirit if rng.randrange(6) == 0 else others).id
    return rng.choice(legal).id


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--games", type=int, default=300, help="games per player count")
    p.add_argument("--players", default=None,
                   help="1 is solo against the Dragon of Ingenuity (default 1,2,3,4; with --cards: drawn per game)")
    p.add_argument("--seed", type=int, default=0, help="first seed")
    p.add_argument("--cards", action="store_true",
                   help="random card sets: 1-3 Spirits, 1-3 Dragons, 1-4 players per game (with --players, "
                        "the games cycle through its counts)")
    p.add_argument("--spirits", type=int, default=None, help="with --cards: this many Spirit cards in every game")
    p.add_argument("--dragons", type=int, default=None, help="with --cards: this many Dragon cards in every game")
    args = p.parse_args(argv)
    if args.cards:
        counts = [int(x) for x in args.players.split(",")] if args.players else None
        start = time.perf_counter()
        for seed in range(args.seed, args.seed + args.games):
            players = counts[seed % len(counts)] if counts else None
            d = compare_card_game(seed, players=players, spirits=args.spirits, dragons=args.dragons)
            if d is not None:
                print(d)
                return 1
        print(f"{args.games} card games (seeds {args.seed}..{args.seed + args.games - 1}): "
              f"0 divergences in {time.perf_counter() - start:.1f} s")
        return 0
    args.players = args.players or "1,2,3,4"
    counts = [int(x) for x in args.players.split(",")]
    start = time.perf_counter()
    total = 0
    for players in counts:
        for seed in range(args.seed, args.seed + args.games):
            d = compare_game(players, seed)
            if d is not None:
                print(d)
                return 1
            total += 1
    print(f"{total} games ({args.players} players, seeds {args.seed}..{args.seed + args.games - 1}): "
          f"0 divergences in {time.perf_counter() - start:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
