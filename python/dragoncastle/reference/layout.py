"""Castle layouts (R-LAYOUT-1): a grid of stack heights, at most 12 x 12."""

from __future__ import annotations

from .text import WHITESPACE
from .text import lines as text_lines

MAX_ROWS = MAX_COLS = 12
TOTAL_TILES = 116

STANDARD = {
    "standard-2p": "1222112221\n1232112321\n1222112221\n1221111221\n1232112321\n1222112221\n1232112321\n",
    "standard-3p": "1223122321\n2232112232\n1223122321\n2232112232\n1223122321\n2232111232\n",
    "standard-4p": "33313331\n23313321\n13331333\n23313321\n33313331\n13331333\n",
}

# The rulebook's advice on ground-floor tiles by player count (solo uses the 3-player layout).
GROUND_FLOOR_ADVICE = {1: (50, 70), 2: (65, 80), 3: (50, 70), 4: (40, 55)}


class Layout:
    """Heights of the castle stacks, row by row (R-LAYOUT-1).

    >>> layout = Layout.standard("standard-2p")
    >>> layout.rows, layout.cols, layout.ground_floor, layout.total_tiles
    (7, 10, 70, 116)
    >>> Layout.parse(layout.text) == layout
    True
    """

    def __init__(self, heights: list[list[int]]) -> None:
        self.heights = heights

    @staticmethod
    def parse(text: str) -> "Layout":
        """Parse layout text: one row per line, one digit (stack height) per space, ``.`` for none.

        The layout must hold exactly 116 tiles in at most 12 x 12 spaces, else ``ValueError`` (R-LAYOUT-1)."""
        lines = [line.rstrip(WHITESPACE) for line in text_lines(text)]  # as the Rust engine cuts them
        while lines and not lines[0]:
            lines.pop(0)
        while lines and not lines[-1]:
            lines.pop()
        if not lines:
            raise ValueError("layout is empty")
        if len(lines) > MAX_ROWS:
            raise ValueError(f"layout has {len(lines)} rows; at most {MAX_ROWS}")
        heights: list[list[int]] = []
        for r, line in enumerate(lines):
            line = line.lstrip("\ufeff")
            if len(line) > MAX_COLS:
                raise ValueError(f"layout row {r} has {len(line)} columns; at most {MAX_COLS}")
            if r > 0 and len(line) != len(heights[0]):
                raise ValueError(f"layout row {r} has {len(line)} columns but row 0 has {len(heights[0])}; rows must be equally long")
            row = []
            for c, ch in enumerate(line):
                if ch in ".0":
                    row.append(0)
                elif ch in "123456789":
                    row.append(int(ch))
                else:
                    raise ValueError(f"layout row {r} column {c}: bad character {ch!r}")
            heights.append(row)
        layout = Layout(heights)
        if layout.total_tiles != TOTAL_TILES:
            raise ValueError(f"layout holds {layout.total_tiles} tiles; it must hold exactly {TOTAL_TILES}")
        return layout

    @staticmethod
    def standard(name: str) -> "Layout":
        """``standard-2p``, ``standard-3p`` or ``standard-4p``."""
        if name not in STANDARD:
            raise ValueError(f"unknown layout {name!r} (standard-2p, standard-3p, standard-4p, or layout text)")
        return Layout.parse(STANDARD[name])

    @staticmethod
    def for_players(players: int) -> "Layout":
        """The standard layout for a player count (solo plays on ``standard-3p``)."""
        return Layout.standard({2: "standard-2p", 4: "standard-4p"}.get(players, "standard-3p"))

    @property
    def rows(self) -> int:
        """Rows of the grid (up to 12)."""
        return len(self.heights)

    @property
    def cols(self) -> int:
        """Columns of the grid (up to 12)."""
        return len(self.heights[0])

    @property
    def total_tiles(self) -> int:
        """Tiles the layout holds: the sum of the stack heights (116 for a valid layout)."""
        return sum(map(sum, self.heights))

    @property
    def ground_floor(self) -> int:
        """Spaces with a stack: the tiles on the ground floor."""
        return sum(1 for row in self.heights for h in row if h > 0)

    def height(self, space: tuple[int, int]) -> int:
        """Stack height at castle space ``(row, col)`` (0 where there is no space)."""
        r, c = space
        if not (0 <= r < MAX_ROWS and 0 <= c < MAX_COLS):
            raise ValueError(f"castle space {space} is outside the 12x12 grid")
        return self.heights[r][c] if r < self.rows and c < self.cols else 0

    def validate(self, players: int | None = None) -> list[str]:
        """Advice the layout does not follow (warnings, never errors)."""
        warnings = []
        if players in GROUND_FLOOR_ADVICE:
            lo, hi = GROUND_FLOOR_ADVICE[players]
            if not lo <= self.ground_floor <= hi:
                warnings.append(f"{self.ground_floor} ground-floor tiles; the rulebook advises {lo}-{hi} for {players} player(s)")
        for floor in range(2, 10):
            for r, row in enumerate(self.heights):
                run = 0
                for c, h in enumerate(row + [0]):
                    if h >= floor:
                        run += 1
                        continue
                    if run >= 6:
                        warnings.append(
                            f"row {r} has {run} adjacent tiles on floor {floor} (ending at column {c - 1}); "
                            "long upper-floor rows leave few Available tiles"
                        )
                    run = 0
        return warnings

    @property
    def text(self) -> str:
        """The layout as text, as :meth:`parse` reads it (also ``str(layout)``)."""
        return "".join("".join("." if h == 0 else str(h) for h in row) + "\n" for row in self.heights)

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"Layout.parse({self.text!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Layout) and other.heights == self.heights

    def __reduce__(self):
        return (Layout.parse, (self.text,))
