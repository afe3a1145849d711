"""Building positions for rule tests from an explicit deal and layout.

Every helper takes the engine module (``dragoncastle`` now; the pure-Python
reference engine will be passed the same way) so the rule tests can run against
both engines.
"""

from __future__ import annotations

from typing import Any, Iterable

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


class Sandbox:
    """A 2-player game on :data:`SANDBOX` where seat 0 builds its Realm tile by
    tile and seat 1 only discards. ``tops`` are the codes of stacks 0.. in order;
    seat 0 takes them in that order, seat 1 takes from the last stack backwards."""

    def __init__(self, dc: Any, tops: Iterable[str], **kw: Any) -> None:
        tops = list(tops)
        fixed = {(r, c, 2): code for (r, c), code in zip(SANDBOX_STACKS, tops)}
        # Seat 1 discards from the far end; keep those tiles away from seat 0's types.
        self.g = game(dc, SANDBOX, fixed, players=2, **kw)
        self.next_top = 0
        self.next_filler = len(SANDBOX_STACKS) - 1

    def take(self) -> None:
        r, c = SANDBOX_STACKS[self.next_top]
        self.next_top += 1
        self.g.apply(f"take {r},{c}")

    def single(self, cell: tuple[int, int], shrines: Iterable[tuple[int, int]] | None = (), done: bool = True) -> None:
        """Seat 0: take the next top tile with Tile and Shrine, place it on ``cell``,
        build Shrines on ``shrines``, then (if still asked) stop; seat 1 discards."""
        self.take()
        self.g.apply("take-shrine")
        self.g.apply(f"place {cell[0]},{cell[1]}")
        self.finish(shrines, done)

    def pair(self, cells: tuple[tuple[int, int], tuple[int, int]], shrines: Iterable[tuple[int, int]] = (), done: bool = True) -> None:
        """Seat 0: take the next two top tiles as a Pair and place them."""
        self.take()
        self.take()
        for cell in cells:
            self.g.apply(f"place {cell[0]},{cell[1]}")
        self.finish(shrines, done)

    def finish(self, shrines: Iterable[tuple[int, int]] | None, done: bool) -> None:
        for cell in shrines or ():
            self.g.apply(f"shrine {cell[0]},{cell[1]}")
        if done and self.g.phase.name == "SHRINE":
            self.g.apply("done")
        self.opponent_discards()

    def opponent_discards(self) -> None:
        assert self.g.current_player == 1
        r, c = SANDBOX_STACKS[self.next_filler]
        self.next_filler -= 1
        self.g.apply(f"take {r},{c}")
        self.g.apply("discard")
        assert self.g.current_player == 0
