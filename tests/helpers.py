"""Helpers shared by the test modules.

Building positions for rule tests from an explicit deal and layout: every such
helper takes the engine module (``dragoncastle`` or the pure-Python
``dragoncastle.reference``) so the rule tests can run against both engines.
And :func:`interrupted_by_ctrl_c`, for the tests of long calls that Ctrl-C stops.
"""

from __future__ import annotations

import _thread
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
