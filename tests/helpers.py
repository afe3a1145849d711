"""Helpers shared by the test modules.

Building positions from an explicit deal and layout (the sandbox, the Dragon
set and end-game positions), playing random games and comparing searches:
every such helper takes the engine module (``dragoncastle`` or the pure-Python
``dragoncastle.reference``) or its game, so the tests run against both engines.
And :func:`interrupted_by_ctrl_c`, for the tests of long calls that Ctrl-C stops.
"""

from __future__ import annotations

import _thread
import random
import signal
import threading
import time
from contextlib import contextmanager
from typing import Any, Iterable, Iterator

import pytest

CODES = [f"{p}{n}" for p, k in (("Me", 6), ("So", 6), ("Fa", 6), ("Se", 4), ("Wi", 4), ("Dr", 3)) for n in range(1, k + 1)]

# 58 isolated stacks of height 2: every top tile is Available, and the top floor
# stays 2 until all 58 top tiles are gone. Stack k is at row k // 6, column 2 * (k % 6).
SANDBOX = "2.2.2.2.2.2.\n" * 9 + "2.2.2.2.....\n"
SANDBOX_STACKS = [(k // 6, 2 * (k % 6)) for k in range(58)]

# All 116 tiles on the ground floor: Summon is allowed from the first turn.
FLAT = "111111111111\n" * 9 + "11111111....\n"


def play_out(g: Any, agents: list[Any]) -> Any:
    """Play to the end with one agent per seat (any engine)."""
    while not g.is_over:
        g.apply(agents[g.current_player].act(g))
    return g


def heights(layout: str) -> list[list[int]]:
    return [[0 if ch == "." else int(ch) for ch in row] for row in layout.strip("\n").split("\n")]


def deal_for(layout: str, fixed: dict[tuple[int, int, int], str]) -> list[str]:
    """A deal for ``layout`` with ``fixed[(row, col, floor)] = code`` (floor 1 = ground);
    other positions get the remaining tiles in code order."""
    pool = [c for c in CODES for _ in range(4)]
    for code in fixed.values():
        pool.remove(code)
    pool.reverse()
    deal = []
    for r, row in enumerate(heights(layout)):
        for c, h in enumerate(row):
            for f in range(1, h + 1):
                deal.append(fixed[(r, c, f)] if (r, c, f) in fixed else pool.pop())
    assert not pool, "layout must hold 116 tiles"
    return deal


def game(dc: Any, layout: str, fixed: dict[tuple[int, int, int], str], players: int = 2, **kw: Any) -> Any:
    return dc.Game(players=players, layout=layout, deal=deal_for(layout, fixed), **kw)


def space(k: int) -> str:
    """The castle space of sandbox stack ``k`` as action text (``"r,c"``)."""
    r, c = SANDBOX_STACKS[k]
    return f"{r},{c}"


class Sandbox:
    """A 2-player game on :data:`SANDBOX` (58 isolated stacks of 2: every top tile is
    Available, the top floor stays 2). Seat 0 builds its Realm tile by tile from the
    stacks 0, 1, 2... (``tops``, in that order); seat 1 only discards, from the last
    stack backwards. ``bottoms`` fixes ground-floor tiles by stack number. The optional
    decision points of R-SPIRIT-2 (phases ``SPIRITS``, after the placements, and
    ``END_TURN``, after the Shrine step) are closed with ``done`` when they open
    during the building, for either seat; without Spirit cards they never open."""

    def __init__(self, dc: Any, tops: Iterable[str], bottoms: dict[int, str] | None = None, **kw: Any) -> None:
        fixed = {(r, c, 2): code for (r, c), code in zip(SANDBOX_STACKS, tops)}
        for k, code in (bottoms or {}).items():
            r, c = SANDBOX_STACKS[k]
            fixed[(r, c, 1)] = code
        self.g = game(dc, SANDBOX, fixed, players=2, **kw)
        self.next_top = 0
        self.next_filler = len(SANDBOX_STACKS) - 1

    def take(self) -> str:
        """Seat 0 takes the next top tile; returns the action text."""
        text = f"take {space(self.next_top)}"
        self.next_top += 1
        self.g.apply(text)
        return text

    def place_single(self, cell: tuple[int, int]) -> None:
        """Tile and Shrine: the next top tile onto ``cell``, stopping there (at
        ``SPIRITS``, the Shrine step or ``END_TURN``, whichever the placement opens)."""
        self.take()
        self.g.apply("take-shrine")
        self.g.apply(f"place {cell[0]},{cell[1]}")

    def single(self, cell: tuple[int, int], shrines: Iterable[tuple[int, int]] | None = ()) -> None:
        """Tile and Shrine: the next top tile onto ``cell``; Shrines on ``shrines``
        (None or () declines them); then seat 1 discards."""
        self.place_single(cell)
        self.finish(shrines)

    def pair(self, cells: Iterable[tuple[int, int]], shrines: Iterable[tuple[int, int]] | None = ()) -> None:
        """Pair of Tiles: the next two top tiles (identical) onto ``cells``."""
        self.take()
        self.take()
        for cell in cells:
            self.g.apply(f"place {cell[0]},{cell[1]}")
        self.finish(shrines)

    def finish(self, shrines: Iterable[tuple[int, int]] | None = ()) -> None:
        g = self.g
        if g.phase.name == "SPIRITS":
            g.apply("done")
        for cell in shrines or ():
            g.apply(f"shrine {cell[0]},{cell[1]}")
        if g.current_player == 0 and g.phase.name == "SHRINE":
            g.apply("done")
        self.end_turn(0)
        self.opponent_discards()

    def end_turn(self, seat: int) -> None:
        """R-SPIRIT-2: close ``END_TURN`` with ``done`` if the turn of ``seat`` waits there."""
        if self.g.current_player == seat and self.g.phase.name == "END_TURN":
            self.g.apply("done")

    def opponent_discards(self) -> None:
        g = self.g
        assert g.current_player == 1, g.phase.name
        r, c = SANDBOX_STACKS[self.next_filler]
        self.next_filler -= 1
        g.apply(f"take {r},{c}")
        g.apply("discard")
        # Seat 1 has an empty Realm, but a card such as Destruction may still be
        # activated (paid with its Shrine) after the Action: it declines.
        if g.current_player == 1 and g.phase.name == "SPIRITS":
            g.apply("done")
        self.end_turn(1)
        assert g.current_player == 0 and g.phase.name == "ACTION"


@contextmanager
def interrupted_by_ctrl_c(after: float = 0.3, within: float = 1.5) -> Iterator[None]:
    """Ctrl-C the main thread ``after`` seconds into the ``with`` block: the block
    must raise KeyboardInterrupt, and be over ``within`` seconds after it began."""
    # interrupt_main does nothing while SIGINT is ignored, as it is in a run
    # started in the background by a shell without job control; a Ctrl-C at a
    # terminal reaches Python's own handler, so test with that one.
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    timer = threading.Timer(after, _thread.interrupt_main)
    start = time.perf_counter()
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            yield
    finally:
        timer.cancel()
        signal.signal(signal.SIGINT, previous)
    assert time.perf_counter() - start < within


# ---------------------------------------------------------------- positions and searches

def play_random(g: Any, seed: int, steps: int | None = None) -> Any:
    """Play up to ``steps`` uniformly random decisions (None: to the end), any engine."""
    rng = random.Random(seed)
    n = 0
    while not g.is_over and (steps is None or n < steps):
        g.apply(rng.choice(g.legal_actions()))
        n += 1
    return g


def stats(r):
    """Everything a search reports except its timing, in a comparable form."""
    root = sorted((a.id, n, r.values[a]) for a, n in r.visits.items())
    return r.action.id, root, [a.id for a in r.pv], r.iterations


def texts(g: Any) -> list[str]:
    """The legal actions as text, in id order."""
    return [str(a) for a in g.legal_actions()]


def take_first(g):
    g.apply(next(a for a in g.legal_actions() if a.kind.name == "TAKE"))


def discard_turn(g):
    """R-ACT-3: take the first offered tile and discard it (+1 VP)."""
    take_first(g)
    g.apply("discard")


def shrine_turn(g):
    """R-ACT-2: take the first offered tile with a Shrine and place it (+0 VP)."""
    take_first(g)
    g.apply("take-shrine")
    g.apply(next(a for a in g.legal_actions() if a.kind.name == "PLACE"))


# The big Dragon set position (R-CONS-1..4). Seat 0's Realm, built with the
# Sandbox (seat 1 only discards), then seat 0 holds a Dr1 to place:
#
#     Se1 Dr1 Wi1  .
#     Dr2  .  Dr3 Dr1
#     Me1 Dr2 So1  .
#      .  Dr3  .   .
#
# The Dragons form groups of 1, 1, 2 and 2 around (1,1); the four corners of
# that cross are blocked by other types. Only (1,1) joins them: a set of 7
# Dragons, 6 VP + 1 for a Dragon set. Every other empty cell makes a group of
# at most 3: no set at all.
BLOCKERS = [((0, 0), "Se1"), ((0, 2), "Wi1"), ((2, 0), "Me1"), ((2, 2), "So1")]
DRAGONS = [((0, 1), "Dr1"), ((1, 0), "Dr2"), ((1, 2), "Dr3"), ((1, 3), "Dr1"), ((2, 1), "Dr2"), ((3, 1), "Dr3")]


def dragon_position(engine):
    cells = BLOCKERS + DRAGONS
    sb = Sandbox(engine, [code for _, code in cells] + ["Dr1"])
    for cell, _ in cells:
        sb.single(cell, shrines=None)
    sb.take()
    sb.g.apply("take-shrine")
    return sb.g


def endgame_position(engine, deficit, left=6):
    """A 2-player game on the all-ground-floor castle (Summon allowed, R-ACT-5):
    seat 0 summoned once (1 of the 2 Countdown tokens that end a 2-player game,
    R-END-1), then both players took turns until ``left`` + 2 tiles remained.
    Seat 1 (the last seat) is to move, behind by ``deficit`` points."""
    assert deficit in (1, 2, 3)
    g = game(engine, FLAT, {})
    g.apply("summon")
    first = True
    while first or g.castle_tiles > left + 2:
        (shrine_turn if first and deficit == 3 else discard_turn)(g)  # seat 1
        (shrine_turn if first and deficit == 1 else discard_turn)(g)  # seat 0
        first = False
    assert g.current_player == 1 and g.scores()[0] - g.scores()[1] == deficit
    return g
