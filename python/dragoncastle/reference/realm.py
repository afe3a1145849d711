"""A player's Realm (R-REALM-1, R-REALM-2, R-ADJ-1): a 4 x 4 grid of stacks.

Only a stack's height, its top tile when face up, and a Shrine on it matter to
the rules: face-down tiles never count again, so their symbols are not kept.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .text import lines as text_lines, split_whitespace, trim
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


def shrine_allowance(kind: TileType) -> int:
    """R-SHRINE-1: up to 1 Shrine per Faction set, up to 2 per Special set."""
    return 1 if kind.is_faction else 2


@dataclass
class ConsolidatedSet:
    """A set Consolidated this turn and the Shrines it still allows (R-SHRINE-1).

    A set is a set of tiles, kept as the cells they lie on: a tile covered later
    in the turn leaves its set, a set tile moved by Strength takes its cell along
    (docs/cards.md "Sets follow their tiles"). ``type`` is None for a Beauty set
    (Faction tiles of one number)."""

    cells: set[Cell]
    type: TileType | None
    allowance: int

    def copy(self) -> "ConsolidatedSet":
        return ConsolidatedSet(set(self.cells), self.type, self.allowance)


class Realm:
    """One player's Realm: 4 x 4 cells of stacks (R-REALM-1).

    ``Game.realm(player)`` returns a copy, which does not follow later moves.

    >>> realm = Realm.parse("2Me1 . . .\\n. 1# . .\\n. . 2S .\\n. . . .")
    >>> realm.height((0, 0)), realm.top((0, 0)), realm.top((1, 1)), realm.has_shrine((2, 2))
    (2, (Tile('Me1'), True), (None, False), True)
    """

    def __init__(self) -> None:
        self.heights = {cell: 0 for cell in CELLS}
        self.face_up: dict[Cell, Tile] = {}
        self.shrines: set[Cell] = set()

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, Realm) and other.heights == self.heights and other.face_up == self.face_up
                and other.shrines == self.shrines)

    __hash__ = None  # type: ignore[assignment]  # mutable: no hash, like a list

    def copy(self) -> "Realm":
        """An independent copy."""
        other = Realm()
        other.heights = dict(self.heights)
        other.face_up = dict(self.face_up)
        other.shrines = set(self.shrines)
        return other

    @staticmethod
    def parse(text: str) -> "Realm":
        """A Realm from text: 4 lines of 4 cells separated by spaces; ``.`` empty,
        ``3Me2`` height 3 with a face-up Me2, ``2#`` height 2 face down, ``2S``
        height 2 face down with a Shrine (docs/cards.md)."""
        if not isinstance(text, str):
            raise ValueError(f"Realm.parse expects text; got {type(text).__name__}")
        # Lines and words cut as the Rust engine cuts them (text.py).
        lines = [split_whitespace(line) for line in text_lines(text) if trim(line)]
        if len(lines) != SIDE or any(len(words) != SIDE for words in lines):
            raise ValueError(f"realm text must be {SIDE} lines of {SIDE} cells separated by spaces; got {text!r}")
        realm = Realm()
        for r, words in enumerate(lines):
            for c, word in enumerate(words):
                if word == ".":
                    continue
                digits = len(word) - len(word.lstrip("0123456789"))
                height, top = word[:digits], word[digits:]
                if not height or not 1 <= int(height) <= 255 or not top:  # a u8 in the Rust engine
                    raise ValueError(f"realm cell {r},{c}: bad text {word!r} (expected ., 3Me2, 2# or 2S)")
                realm.heights[(r, c)] = int(height)
                if top == "#":
                    continue
                if top == "S":
                    realm.shrines.add((r, c))
                    continue
                try:
                    realm.face_up[(r, c)] = Tile(top)
                except ValueError:
                    raise ValueError(f"realm cell {r},{c}: bad text {word!r} (expected ., 3Me2, 2# or 2S)") from None
        return realm

    @property
    def text(self) -> str:
        """The text of :meth:`parse` (one line per row, each ending in a newline)."""
        def word(cell: Cell) -> str:
            h = self.heights[cell]
            if h == 0:
                return "."
            if cell in self.face_up:
                return f"{h}{self.face_up[cell]}"
            return f"{h}S" if cell in self.shrines else f"{h}#"
        return "".join(" ".join(word((r, c)) for c in range(SIDE)) + "\n" for r in range(SIDE))

    def __reduce__(self) -> Any:
        # Pickled as its text, as the Rust engine's Realm.
        return (Realm.parse, (self.text,))

    def height(self, cell: Cell) -> int:
        """Stack height at Realm cell ``(row, col)`` (0 when empty)."""
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
        """True if a Shrine stands on Realm cell ``(row, col)``."""
        return _checked(cell) in self.shrines

    def placeable(self) -> list[Cell]:
        """R-PLACE-1: empty cells and face-down tops without a Shrine."""
        return [cell for cell in CELLS if cell not in self.face_up and cell not in self.shrines]

    def place(self, cell: Cell, tile: Tile) -> None:
        """Put ``tile`` face up on top of ``cell`` (R-PLACE-1; the caller checks that it may)."""
        self.heights[cell] += 1
        self.face_up[cell] = tile

    def is_face_down(self, cell: Cell) -> bool:
        """A stack whose top tile is face down (with or without a Shrine)."""
        return self.heights[cell] > 0 and cell not in self.face_up

    def discard_top(self, cell: Cell) -> Tile:
        """R-SPIRIT-1: pay with the face-up top tile; the face-down tile under it
        (if any) becomes the top."""
        self.heights[cell] -= 1
        return self.face_up.pop(cell)

    def move_top(self, source: Cell, target: Cell) -> None:
        """Strength: the top tile of ``source`` goes on ``target``, keeping its side."""
        self.heights[source] -= 1
        self.heights[target] += 1
        if source in self.face_up:
            self.face_up[target] = self.face_up.pop(source)

    def group_of(self, start: Cell, same) -> set[Cell]:
        """The cells connected to ``start`` through face-up cells ``same`` accepts (R-ADJ-1)."""
        group, frontier = {start}, [start]
        while frontier:
            for n in neighbours(frontier.pop()):
                if n not in group and n in self.face_up and same(n):
                    group.add(n)
                    frontier.append(n)
        return group

    def groups(self) -> list[tuple[TileType, set[Cell]]]:
        """Connected groups of face-up tiles of one type (R-CONS-1, R-ADJ-1),
        in the row-major order of their lowest cell."""
        seen: set[Cell] = set()
        found = []
        for start in CELLS:
            if start not in self.face_up or start in seen:
                continue
            kind = self.face_up[start].type
            group = self.group_of(start, lambda n: self.face_up[n].type is kind)
            seen |= group
            found.append((kind, group))
        return found

    def number_groups(self) -> list[tuple[int, set[Cell]]]:
        """Beauty: connected groups of face-up Faction tiles with the same number
        (any Factions), in the row-major order of their lowest cell."""
        seen: set[Cell] = set()
        found = []
        for start in CELLS:
            if start not in self.face_up or start in seen or not self.face_up[start].type.is_faction:
                continue
            number = self.face_up[start].symbol
            group = self.group_of(start, lambda n: self.face_up[n].type.is_faction and self.face_up[n].symbol == number)
            seen |= group
            found.append((number, group))
        return found

    def changed_group(self, cell: Cell, kind: TileType) -> set[Cell]:
        """Change: the face-up ``kind`` tiles connected to ``cell`` through it,
        with the tile on ``cell`` counted as ``kind``."""
        return self.group_of(cell, lambda n: n != cell and self.face_up[n].type is kind)

    def flip_down(self, cells: set[Cell]) -> None:
        """Consolidation (or Wind): the tiles on ``cells`` turn face down."""
        for cell in cells:
            del self.face_up[cell]

    def consolidate(self, dragon_bonus: bool, touching: frozenset[Cell] | None = None) -> tuple[list[ConsolidatedSet], int]:
        """R-CONS-1..4: flip every group of 4 or more (with ``touching``, a set of
        cells, only the groups holding one of them); return the sets and their VP."""
        sets, vp = [], 0
        for kind, group in self.groups():
            if len(group) < 4 or (touching is not None and not group & touching):
                continue
            self.flip_down(group)
            vp += set_vp(len(group)) + (1 if dragon_bonus and kind is TileType.DRAGON else 0)
            sets.append(ConsolidatedSet(group, kind, shrine_allowance(kind)))
        return sets, vp

    def shrine_points(self) -> int:
        """VP of the Shrines: 1, 2 or 3 by the height of the stack under each (R-SHRINE-2)."""
        return sum(shrine_value(self.heights[cell]) for cell in self.shrines)

    def face_down_stacks(self) -> int:
        """R-END-3: stacks whose top tile is face down."""
        return sum(1 for cell in CELLS if self.heights[cell] > 0 and cell not in self.face_up)

    def __repr__(self) -> str:
        return "<Realm | " + " | ".join(self.text.splitlines()) + " |>"


def _checked(cell: Cell) -> Cell:
    r, c = cell
    if not (0 <= r < SIDE and 0 <= c < SIDE):
        raise ValueError(f"realm cell {cell} is outside the 4x4 Realm")
    return (r, c)
