"""Spirit cards (R-SPIRIT-1, R-SPIRIT-2, docs/cards.md): which cards are in
play, where they may be activated, the per-turn memory, and the questions their
effects ask of the castle and the Realm. The turn itself (what each decision
does) is in ``turn.py`` and ``effects.py``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .text import ascii_lower, trim
from .actions import DRAGONS, SPIRITS
from .castle import Castle, Space
from .phase import Phase
from .realm import CELLS, Cell, Realm, neighbours
from .rng import CARDS, SplitMix64
from .tiles import Tile, TileType

#: R-SPIRIT-2: the decision points of the mover's turn, where every Spirit in
#: play and unused this turn may be activated while no pick is pending.
DECISION_POINTS = (Phase.ACTION, Phase.COMPLETE, Phase.PLACE, Phase.SPIRITS, Phase.SHRINE, Phase.END_TURN)

#: The cards that need a pick still to come, and the decision points where one
#: comes: Elegance the next pick, Deception and Deep the second pick of a Pair.
#: Every other card may be activated at every decision point.
ONLY_IN: dict[str, tuple[Phase, ...]] = {
    "elegance": (Phase.ACTION, Phase.COMPLETE),
    "deception": (Phase.COMPLETE,),
    "deep": (Phase.COMPLETE,),
}

#: Second-pick modes (observation ``second_pick``).
IDENTICAL, DECEPTION, DEEP = "IDENTICAL", "DECEPTION", "DEEP"

#: Where the Consolidation step's Shrine step resumes (docs/cards.md ``end``):
#: as after a Spirit activated in END_TURN, phase END_TURN if a Spirit can
#: still be activated, else the turn ends.
END = Phase.END_TURN


# ---------------------------------------------------------------- which cards

def draw_order(seed: int) -> tuple[list[int], list[int]]:
    """The draw (docs/cards.md): one generator ``SplitMix64.stream(seed, CARDS)``
    shuffles the Spirit indices 0..9, then a fresh list of the Dragon indices;
    both shuffles always run."""
    rng = SplitMix64.stream(seed, CARDS)
    spirits, dragons = list(range(len(SPIRITS))), list(range(len(DRAGONS)))
    rng.shuffle(spirits)
    rng.shuffle(dragons)
    return spirits, dragons


def cards_in_play(what: str, names: list[str], spec: Any, drawn: list[int]) -> list[str]:
    """``None``, a count 0..10 (the first ``count`` of ``drawn``) or a list of
    names (any case, no repeats); the names in card order."""
    if spec is None:
        return []
    if isinstance(spec, bool):
        raise ValueError(f"{what}: expected None, a count 0..{len(names)} or a list of names; got a bool")
    if isinstance(spec, int):
        if not 0 <= spec <= len(names):
            raise ValueError(f"{what}: a count must be 0..{len(names)}; got {spec}")
        chosen = drawn[:spec]
    elif isinstance(spec, (list, tuple)):
        chosen = []
        for name in spec:
            if not isinstance(name, str):
                raise ValueError(f"{what}: card names are strings; got {name!r}")
            key = ascii_lower(trim(name))  # as the Rust engine reads a name
            if key not in names:
                raise ValueError(f"{what}: unknown card {name!r} (one of {', '.join(names)})")
            index = names.index(key)
            if index in chosen:
                raise ValueError(f"{what}: card {key!r} is named twice")
            chosen.append(index)
    else:
        raise ValueError(f"{what}: expected None, a count 0..{len(names)} or a list of names; got {type(spec).__name__}")
    return [names[i] for i in sorted(chosen)]


# ---------------------------------------------------------------- the turn's memory

@dataclass
class TurnState:
    """Per-turn memory (docs/cards.md), cleared when the turn ends."""

    used: set[str] = field(default_factory=set)  # R-SPIRIT-1: Spirits used this turn
    elegance: bool = False  # Elegance active
    elegance_pick: bool = False  # Elegance pick pending
    second_pick: str = IDENTICAL  # the mode of the second pick
    first_space: Space | None = None  # the first pick's space ...
    first_floor: int = 0  # ... and floor (the stack's height before it left)
    faith_extra: int = 0  # Faith's extra Shrine (0 or 1)
    card: str | None = None  # the card being resolved ...
    origin: Phase | None = None  # ... and the phase it was activated in
    resume: Phase = END  # where the Shrine step resumes (ACTION, COMPLETE, PLACE, SPIRITS or END)
    between: bool = False  # a Spirit came between the two placements (R-PLACE-3)
    wind_flipped: bool = False
    strength_moves: int = 0
    strength_last: Cell | None = None
    moved: frozenset[Cell] = frozenset()  # cells Strength's moves put a face-up tile on, in this effect
    lifted: Cell | None = None  # the cell lifted from (WIND_TO, STRENGTH_TO)
    change_group: frozenset[Cell] = frozenset()  # Change's group waiting for Cunning
    change_type: TileType | None = None

    def copy(self) -> "TurnState":
        other = TurnState(**self.__dict__)
        other.used = set(self.used)
        return other

    def key(self) -> tuple:
        return tuple(sorted(self.used)), *(v for k, v in self.__dict__.items() if k != "used")

    @property
    def pick_pending(self) -> bool:
        """After Elegance, Deception or Deep the very next decision is the pick."""
        return self.elegance_pick or self.second_pick != IDENTICAL


# ---------------------------------------------------------------- castle questions

def free_short_side(castle: Castle, space: Space) -> bool:
    """R-AVAIL-3: the north or the south neighbour stack is lower."""
    r, c = space
    h = castle.height(space)
    return h > 0 and (castle.height((r - 1, c)) < h or castle.height((r + 1, c)) < h)


def may_pick(castle: Castle, space: Space, elegance: bool) -> bool:
    """A top tile that may be picked: Available (R-AVAIL-1), or with Elegance
    active one with a free short side (R-AVAIL-3)."""
    return castle.is_available(space) or (elegance and free_short_side(castle, space))


def elegance_only(castle: Castle, space: Space) -> bool:
    """Elegance's pick: not Available but with a free short side."""
    return not castle.is_available(space) and free_short_side(castle, space)


def elegance_first_picks(castle: Castle) -> list[Space]:
    """Elegance in ACTION: top-floor tiles that only Elegance lets you take."""
    top = castle.top_floor()
    return [s for s in castle.spaces() if castle.height(s) == top and elegance_only(castle, s)]


def elegance_second_picks(castle: Castle, first: Tile) -> list[Space]:
    """Elegance in COMPLETE: tiles identical to the first that only Elegance lets you take."""
    return [s for s in castle.spaces() if castle.top(s) == first and elegance_only(castle, s)]


def deception_picks(castle: Castle, first_space: Space, first_floor: int) -> list[Space]:
    """Deception: a tile that touched the first: the top of a north, south, west
    or east neighbour space whose height equals the first tile's floor, or the
    tile that was right under the first tile (its space's height is the floor
    below). Identical and Available are not required."""
    r, c = first_space
    touching = [(r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)]
    picks = [s for s in touching if 0 <= s[0] < 12 and 0 <= s[1] < 12 and castle.height(s) == first_floor]
    if first_floor >= 2 and castle.height(first_space) == first_floor - 1:
        picks.append(first_space)
    return sorted(picks)


def deep_picks(castle: Castle, first: Tile, elegance: bool) -> list[Space]:
    """Deep: a tile of the first's type (identical allowed) that may be picked."""
    return [s for s in castle.spaces() if _type_of(castle.top(s)) is first.type and may_pick(castle, s, elegance)]


def _type_of(tile: Tile | None) -> TileType | None:
    return None if tile is None else tile.type


def destroyable(castle: Castle) -> list[Space]:
    """Destruction: Available castle tiles, any floor (R-AVAIL-1; Elegance does not extend it)."""
    return [s for s in castle.spaces() if castle.is_available(s)]


# ---------------------------------------------------------------- Realm questions

def beauty_groups(realm: Realm) -> list[set[Cell]]:
    """Beauty: maximal groups of 4 or more face-up Faction tiles with one number."""
    return [group for _, group in realm.number_groups() if len(group) >= 4]


def cunning_groups(realm: Realm) -> list[set[Cell]]:
    """Cunning: maximal groups of exactly 3 face-up tiles of one type."""
    return [group for _, group in realm.groups() if len(group) == 3]


def waiting_sets(realm: Realm) -> bool:
    """A face-up group of 4 or more of one type waits to be Consolidated."""
    return any(len(group) >= 4 for _, group in realm.groups())


def wind_flips(realm: Realm) -> list[Cell]:
    return sorted(realm.face_up)


def shrine_targets(realm: Realm, source: Cell) -> list[Cell]:
    """Wind: other face-down tops without a Shrine."""
    return [cell for cell in CELLS if cell != source and realm.is_face_down(cell) and cell not in realm.shrines]


def shrine_sources(realm: Realm) -> list[Cell]:
    """Wind: Shrines that have somewhere to go."""
    return [cell for cell in sorted(realm.shrines) if shrine_targets(realm, cell)]


def move_targets(realm: Realm, source: Cell) -> list[Cell]:
    """Strength: other cells that are empty or have a face-down top without a Shrine (R-PLACE-1)."""
    return [cell for cell in realm.placeable() if cell != source]


def move_sources(realm: Realm, last: Cell | None) -> list[Cell]:
    """Strength: stacks without a Shrine (not the tile just moved) that have somewhere to go."""
    return [cell for cell in CELLS
            if realm.heights[cell] > 0 and cell not in realm.shrines and cell != last and move_targets(realm, cell)]


def cunning_payable(realm: Realm, pool: int, group: frozenset[Cell] | set[Cell]) -> list[Cell | None]:
    """Cunning after Change: payments outside the group (None = a Shrine)."""
    options: list[Cell | None] = [cell for cell in sorted(realm.face_up) if cell not in group]
    if pool > 0:
        options.append(None)
    return options


def change_options(realm: Realm, pool: int, with_cunning: bool) -> list[tuple[Cell, TileType, set[Cell]]]:
    """Change: (cell, type, group) for a face-up Special tile treated as another
    type whose group through it has 4 or more tiles (3 with Cunning available
    and a payment for it outside the group). Not to prevent a set: the tile must
    not belong to a group of 4 or more of its own type."""
    groups = realm.groups()
    own_groups = {cell: group for _, group in groups for cell in group}
    options = []
    for cell in sorted(realm.face_up):
        tile = realm.face_up[cell]
        if tile.type.is_faction or len(own_groups[cell]) >= 4:
            continue
        for kind in TileType:
            if kind is tile.type:
                continue
            # It must complete the set: no group of that type it touches is a
            # set already (the FAQ: "only if, by doing so, you are able to
            # Consolidate a set").
            touching = [g for t, g in groups if t is kind and any(n in g for n in neighbours(cell))]
            if any(len(g) >= 4 for g in touching):
                continue
            group = realm.changed_group(cell, kind)
            if len(group) >= 4 or (len(group) == 3 and with_cunning and cunning_payable(realm, pool, group)):
                options.append((cell, kind, group))
    return options


def lowest(cells: set[Cell] | frozenset[Cell]) -> Cell:
    """A group is named by its lowest cell (row-major)."""
    return min(cells)
