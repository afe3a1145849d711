"""Tiles (R-TILE-1, R-TILE-2): 29 symbols in six types, four copies of each."""

from __future__ import annotations

import enum
from functools import total_ordering

from .text import trim


class TileType(enum.Enum):
    """The type of a tile (R-TILE-1).

    Members, in index order (``int(member)``): ``MERCHANT``, ``SOLDIER``,
    ``FARMER`` (the Faction types, numbered 1 to 6), ``SEASON``, ``WIND`` and
    ``DRAGON`` (the Special types).

    >>> Tile("Wi2").type, TileType.WIND.is_faction
    (TileType.WIND, False)
    """

    MERCHANT = 0
    SOLDIER = 1
    FARMER = 2
    SEASON = 3
    WIND = 4
    DRAGON = 5

    @property
    def is_faction(self) -> bool:
        """Merchants, Soldiers and Farmers carry numbers 1-6."""
        return self.value < 3

    def __int__(self) -> int:
        return self.value

    def __repr__(self) -> str:
        return f"TileType.{self.name}"


# Code prefix and number of symbols of each type, in code order.
PREFIXES = {
    TileType.MERCHANT: ("Me", 6),
    TileType.SOLDIER: ("So", 6),
    TileType.FARMER: ("Fa", 6),
    TileType.SEASON: ("Se", 4),
    TileType.WIND: ("Wi", 4),
    TileType.DRAGON: ("Dr", 3),
}

#: Every tile code in code order: Me1..Me6, So1..So6, Fa1..Fa6, Se1..Se4, Wi1..Wi4, Dr1..Dr3.
CODES = [f"{prefix}{n}" for prefix, count in PREFIXES.values() for n in range(1, count + 1)]



@total_ordering
class Tile:
    """A tile symbol such as ``Tile("Dr2")``. Identical tiles are equal (R-TILE-2).

    >>> t = Tile("Me3")
    >>> t.code, t.type, t.number, str(t)
    ('Me3', TileType.MERCHANT, 3, 'Me3')
    >>> Tile("Dr2").number is None
    True
    """

    __slots__ = {
        "code": "The tile's code: type and symbol, e.g. ``\"Me3\"`` or ``\"Dr2\"`` (also ``str(tile)``).",
        "type": "The tile's :class:`TileType`.",
        "symbol": "The symbol's number within its type: 1 to 6 for Factions, 1 to 4 or 1 to 3 for Specials.",
        "index": "Index 0..28 in code order (Me1..Me6, So1..So6, Fa1..Fa6, Se1..Se4, Wi1..Wi4, Dr1..Dr3).",
    }

    def __init__(self, code: str) -> None:
        # As the Rust engine reads a code: Unicode whitespace trimmed, then
        # three ASCII characters (str.isdigit alone would take "²").
        text = trim(code) if isinstance(code, str) else ""
        for tile_type, (prefix, count) in PREFIXES.items():
            if (len(text) == 3 and text.isascii() and text[:2].lower() == prefix.lower() and text[2].isdigit()
                    and 1 <= int(text[2]) <= count):
                self.code = prefix + text[2]
                self.type = tile_type
                self.symbol = int(text[2])
                self.index = CODES.index(self.code)
                return
        raise ValueError(f'bad tile code "{code}" (expected e.g. Me1, So6, Se4, Wi2, Dr3)')

    @staticmethod
    def parse(code: str) -> "Tile":
        """The tile of a code such as ``"Dr2"`` (same as ``Tile(code)``); a bad code raises ``ValueError``."""
        return Tile(code)

    @property
    def number(self) -> int | None:
        """The Faction number; Special symbols are not numbers."""
        return self.symbol if self.type.is_faction else None

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Tile) and other.index == self.index

    def __lt__(self, other: "Tile") -> bool:
        return self.index < other.index

    def __hash__(self) -> int:
        return hash(self.index)

    def __str__(self) -> str:
        return self.code

    def __repr__(self) -> str:
        return f"Tile('{self.code}')"

    def __reduce__(self):
        return (Tile, (self.code,))


#: One shared object per symbol.
TILES = [Tile(code) for code in CODES]
