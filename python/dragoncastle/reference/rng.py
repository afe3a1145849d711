"""The project's PRNG and shuffle (R-SEED-1), as written in docs/seeding.md."""

from __future__ import annotations

from typing import MutableSequence

MASK = (1 << 64) - 1


#: Stream keys (docs/seeding.md): the deal, the card draw, determinize.
DEAL, CARDS, DETERMINIZE = 0, 1, 2


class SplitMix64:
    def __init__(self, seed: int) -> None:
        self.state = seed & MASK

    @staticmethod
    def stream(seed: int, key: int) -> "SplitMix64":
        """An independent generator for purpose ``key`` of the same seed: the
        seed is first passed through one SplitMix64 step keyed by ``key``."""
        if key == 0:
            return SplitMix64(seed)
        g = SplitMix64(seed ^ ((key * 0xD1B54A32D192ED03) & MASK))
        return SplitMix64(g.next())

    def next(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        return z ^ (z >> 31)

    next_u64 = next

    def below(self, n: int) -> int:
        """Uniform in range(n), by rejection."""
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            x = self.next()
            if x < limit:
                return x % n

    def shuffle(self, items: MutableSequence) -> None:
        """Fisher-Yates from the end."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]
