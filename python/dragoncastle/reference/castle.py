"""The Dragon Castle (R-CASTLE-1, R-AVAIL-1..3): stacks of face-up tiles."""

from __future__ import annotations

from .layout import Layout
from .tiles import Tile

Space = tuple[int, int]


class Castle:
    """``stacks[(row, col)]`` lists a stack's tiles bottom to top."""

    def __init__(self, layout: Layout, deal: list[Tile]) -> None:
        self.rows, self.cols = layout.rows, layout.cols
        self.stacks: dict[Space, list[Tile]] = {}
        tiles = iter(deal)
        # R-LAYOUT-1: stacks in row-major order, each bottom to top.
        for r in range(self.rows):
            for c in range(self.cols):
                height = layout.heights[r][c]
                if height:
                    self.stacks[(r, c)] = [next(tiles) for _ in range(height)]

    def copy(self) -> "Castle":
        other = Castle.__new__(Castle)
        other.rows, other.cols = self.rows, self.cols
        other.stacks = {space: list(stack) for space, stack in self.stacks.items()}
        return other

    def height(self, space: Space) -> int:
        return len(self.stacks.get(space, ()))

    def top(self, space: Space) -> Tile | None:
        stack = self.stacks.get(space)
        return stack[-1] if stack else None

    def top_floor(self) -> int:
        """R-AVAIL-2: the greatest stack height."""
        return max(map(len, self.stacks.values()), default=0)

    def is_available(self, space: Space) -> bool:
        """R-AVAIL-1: a long side (west or east) is free, i.e. that neighbour is lower."""
        r, c = space
        h = self.height(space)
        return h > 0 and (self.height((r, c - 1)) < h or self.height((r, c + 1)) < h)

    def remaining(self) -> int:
        return sum(map(len, self.stacks.values()))

    def remove_top(self, space: Space) -> Tile:
        return self.stacks[space].pop()

    def spaces(self) -> list[Space]:
        """Spaces holding tiles, row-major."""
        return sorted(space for space, stack in self.stacks.items() if stack)
