"""Dragon cards (R-DRAGON-1..10): bonuses for the shape of a Realm.

Adjacency is orthogonal and ignores floors (R-ADJ-1); a stack's height is its
number of tiles (Shrines do not count). Each function scores one Realm; Power
also looks at the neighbours' Realms.
"""

from __future__ import annotations

from typing import Callable, Sequence

from .text import ascii_lower
from .actions import DRAGONS
from .realm import CELLS, SIDE, Cell, Realm, neighbours
from .tiles import TileType

FACTIONS = [TileType.MERCHANT, TileType.SOLDIER, TileType.FARMER]


def humility(realm: Realm) -> int:
    """R-DRAGON-1: +1 per Shrine whose stack is adjacent to at least one higher stack."""
    h = realm.heights
    return sum(1 for cell in realm.shrines if any(h[n] > h[cell] for n in neighbours(cell)))


def tranquility(realm: Realm) -> int:
    """R-DRAGON-2: +1 per connected group of cells whose top tile is face down."""
    face_down = {cell for cell in CELLS if realm.is_face_down(cell)}
    groups, seen = 0, set()
    for start in sorted(face_down):
        if start in seen:
            continue
        groups += 1
        frontier = [start]
        seen.add(start)
        while frontier:
            for n in neighbours(frontier.pop()):
                if n in face_down and n not in seen:
                    seen.add(n)
                    frontier.append(n)
    return groups


def righteousness(realm: Realm) -> int:
    """R-DRAGON-3: the best row plus the best column; a line scores its Shrines,
    +2 if all 4 of its cells have one (a Shrine on both lines counts twice)."""
    def line(cells: list[Cell]) -> int:
        shrines = sum(1 for cell in cells if cell in realm.shrines)
        return shrines + (2 if shrines == SIDE else 0)

    rows = [line([(r, c) for c in range(SIDE)]) for r in range(SIDE)]
    cols = [line([(r, c) for r in range(SIDE)]) for c in range(SIDE)]
    return max(rows) + max(cols)


def bravery(realm: Realm) -> int:
    """R-DRAGON-4: +1 per stack with no adjacent stack of the same height or
    higher (empty cells are not stacks)."""
    h = realm.heights
    return sum(1 for cell in CELLS if h[cell] > 0 and all(h[n] < h[cell] for n in neighbours(cell)))


def majesty(realm: Realm) -> int:
    """R-DRAGON-5: per Faction, the highest number among its face-up tiles on
    floor 3 or higher; summed."""
    total = 0
    for faction in FACTIONS:
        numbers = [tile.symbol for cell, tile in realm.face_up.items() if tile.type is faction and realm.heights[cell] >= 3]
        total += max(numbers, default=0)
    return total


def faction_strength(realm: Realm, faction: TileType) -> int:
    """Power: the best connected group of face-up ``faction`` tiles (sum of
    numbers); 0 without such a tile."""
    best = 0
    for kind, group in realm.groups():
        if kind is faction:
            best = max(best, sum(realm.face_up[cell].symbol for cell in group))
    return best


def power(realms: Sequence[Realm], player: int) -> int:
    """R-DRAGON-6: per Faction, +2 against each neighbour (left (player+1)%n,
    right (player-1)%n; once if they are the same seat, none in solo) with a
    lower total, +1 if equal; without a face-up tile of the Faction you neither
    win nor tie it."""
    n = len(realms)
    rivals = sorted({(player + 1) % n, (player - 1) % n} - {player})
    points = 0
    for faction in FACTIONS:
        mine = faction_strength(realms[player], faction)
        if mine == 0:
            continue
        for rival in rivals:
            theirs = faction_strength(realms[rival], faction)
            points += 2 if mine > theirs else 1 if mine == theirs else 0
    return points


def harmony(realm: Realm) -> int:
    """R-DRAGON-7: +4 per centre line (vertical, horizontal) about which the
    stack heights are mirror-symmetric (at least 1 tile), +2 per centre line
    about which the Shrines, cells and heights, are (at least 1 Shrine)."""
    mirrors: list[Callable[[Cell], Cell]] = [lambda cell: (cell[0], SIDE - 1 - cell[1]),  # about the vertical line
                                             lambda cell: (SIDE - 1 - cell[0], cell[1])]  # about the horizontal line
    h = realm.heights
    shrines = {cell: h[cell] for cell in realm.shrines}
    points = 0
    for mirror in mirrors:
        if any(h[cell] for cell in CELLS) and all(h[cell] == h[mirror(cell)] for cell in CELLS):
            points += 4
        if shrines and {mirror(cell): height for cell, height in shrines.items()} == shrines:
            points += 2
    return points


def knowledge(realm: Realm) -> int:
    """R-DRAGON-8: +2 per distinct Special symbol among face-up tiles (at most 22)."""
    return 2 * len({tile for tile in realm.face_up.values() if not tile.type.is_faction})


def devotion(realm: Realm) -> int:
    """R-DRAGON-9: +1 per Shrine adjacent to at least one face-up Dragon tile."""
    def dragon(cell: Cell) -> bool:
        return cell in realm.face_up and realm.face_up[cell].type is TileType.DRAGON

    return sum(1 for cell in realm.shrines if any(dragon(n) for n in neighbours(cell)))


def fortitude(realm: Realm) -> int:
    """R-DRAGON-10: +1 per Shrine on one of the 12 edge cells."""
    return sum(1 for r, c in realm.shrines if r in (0, SIDE - 1) or c in (0, SIDE - 1))


SCORING: dict[str, Callable[[Realm], int]] = {
    "humility": humility, "tranquility": tranquility, "righteousness": righteousness, "bravery": bravery,
    "majesty": majesty, "harmony": harmony, "knowledge": knowledge, "devotion": devotion, "fortitude": fortitude,
}


def dragon_points(card: str, realms: Sequence[Realm], player: int) -> int:
    """The points Dragon ``card`` gives ``realms[player]`` (Power compares it
    with the neighbours in ``realms``, read as seats)."""
    name = ascii_lower(card) if isinstance(card, str) else None
    if name not in DRAGONS:
        raise ValueError(f"unknown Dragon card {card!r} (one of {', '.join(DRAGONS)})")
    realms = list(realms)
    if not realms or not all(isinstance(r, Realm) for r in realms):
        raise ValueError("dragon_points needs a non-empty list of reference Realms")
    if not isinstance(player, int) or not 0 <= player < len(realms):
        raise ValueError(f"player {player} is not a seat of the {len(realms)} realms")
    if name == "power":
        return power(realms, player)
    return SCORING[name](realms[player])
