"""A player's Realm (R-REALM-1, R-REALM-2, R-ADJ-1): a 4 x 4 grid of stacks.

Only a stack's height, its top tile when face up, and a Shrine on it matter to
the rules: face-down tiles never count again, so their symbols are not kept.
"""

from __future__ import annotations

from dataclasses import dataclass

from .tiles import Tile, TileType

SIDE = 4
CELLS = [(r, c) for r in range(SIDE) for c in range(SIDE)]
Cell = tuple[int, int]


def neighbours(cell: Cell) -> list[Cell]:
    """R-ADJ-1: cells sharing an edge."""
    r, c = cell
    return [(r + dr, c + dc) for dr, dc in ((-1, 0), (0, -1), (0, 1), (1, 0)) if 0 <= r + dr < SIDE and 0 <= c + dc < SIDE]


def set_vp(size: int) -> int:
    """R-CONS-2: 4 -> 2, 5 -> 3, 6 -> 5, 7 -> 6, 8 -> 8, then +1 per tile beyond 8."""
    return {4: 2, 5: 3, 6: 5, 7: 6}.get(size, size)


def shrine_value(height: int) -> int:
    """R-SHRINE-2: 1, 2, or 3 VP for a stack of 3 or more."""
    return min(height, 3)


@dataclass
class ConsolidatedSet:
    """A set Consolidated this turn and the Shrines it still allows (R-SHRINE-1)."""

    cells: set[Cell]
    type: TileType
    allowance: int


class Realm:
    def __init__(self) -> None:
        self.heights = {cell: 0 for cell in CELLS}
        self.face_up: dict[Cell, Tile] = {}
        self.shrines: set[Cell] = set()

    def copy(self) -> "Realm":
        other = Realm()
        other.heights = dict(self.heights)
        other.face_up = dict(self.face_up)
        other.shrines = set(self.shrines)
        return other

    def height(self, cell: Cell) -> int:
        return self.heights[_checked(cell)]

    def top(self, cell: Cell) -> tuple[Tile | None, bool] | None:
        """``(Tile, True)`` face up, ``(None, False)`` face down, None when empty."""
        cell = _checked(cell)
        if self.heights[cell] == 0:
            return None
        if cell in self.face_up:
            return (self.face_up[cell], True)
        return (None, False)

    def has_shrine(self, cell: Cell) -> bool:
        return _checked(cell) in self.shrines

    def placeable(self) -> list[Cell]:
        """R-PLACE-1: empty cells and face-down tops without a Shrine."""
        return [cell for cell in CELLS if cell not in self.face_up and cell not in self.shrines]

    def place(self, cell: Cell, tile: Tile) -> None:
        self.heights[cell] += 1
        self.face_up[cell] = tile

    def groups(self) -> list[tuple[TileType, set[Cell]]]:
        """Connected groups of face-up tiles of one type (R-CONS-1, R-ADJ-1)."""
        seen: set[Cell] = set()
        found = []
        for start in CELLS:
            if start not in self.face_up or start in seen:
                continue
            kind = self.face_up[start].type
            group, frontier = {start}, [start]
            while frontier:
                for n in neighbours(frontier.pop()):
                    if n not in group and n in self.face_up and self.face_up[n].type is kind:
                        group.add(n)
                        frontier.append(n)
            seen |= group
            found.append((kind, group))
        return found

    def consolidate(self, dragon_bonus: bool) -> tuple[list[ConsolidatedSet], int]:
        """R-CONS-1..4: flip every group of 4 or more; return the sets and their VP."""
        sets, vp = [], 0
        for kind, group in self.groups():
            if len(group) < 4:
                continue
            for cell in group:
                del self.face_up[cell]
            vp += set_vp(len(group)) + (1 if dragon_bonus and kind is TileType.DRAGON else 0)
            sets.append(ConsolidatedSet(group, kind, 1 if kind.is_faction else 2))
        return sets, vp

    def shrine_points(self) -> int:
        return sum(shrine_value(self.heights[cell]) for cell in self.shrines)

    def face_down_stacks(self) -> int:
        """R-END-3: stacks whose top tile is face down."""
        return sum(1 for cell in CELLS if self.heights[cell] > 0 and cell not in self.face_up)

    def __repr__(self) -> str:
        rows = []
        for r in range(SIDE):
            cells = []
            for c in range(SIDE):
                top = self.top((r, c))
                cells.append("." if top is None else str(top[0]) if top[1] else "#S" if (r, c) in self.shrines else "##")
            rows.append(" ".join(cells))
        return "<Realm | " + " | ".join(rows) + " |>"


def _checked(cell: Cell) -> Cell:
    r, c = cell
    if not (0 <= r < SIDE and 0 <= c < SIDE):
        raise ValueError(f"realm cell {cell} is outside the 4x4 Realm")
    return (r, c)
