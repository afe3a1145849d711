"""What one player may know (docs/observation.md): no covered castle tile."""

from __future__ import annotations

from typing import Any

from .actions import DRAGONS, SPIRITS
from .phase import Phase
from .realm import CELLS
from .tiles import CODES

# Plane offsets of the observation tensor, version 1.
CASTLE_SPACE, CASTLE_HEIGHT, CASTLE_AVAILABLE, CASTLE_TOP_FLOOR, CASTLE_TOP = 0, 1, 2, 3, 4
REALMS, REALM_PLANES = 33, 33
SEATS, SEAT_PLANES = 165, 4
GLOBAL, HELD, HIDDEN, PLANES_V1 = 181, 189, 218, 247
BASE_PHASES = 5  # the version-1 phase one-hot covers ACTION..GAME_OVER
# Version 2 adds the cards (docs/cards.md "Observation additions").
PHASES, V2_PHASES = 247, 14  # one-hot over the 14 phases ACTION..CUNNING
SPIRIT_IN_PLAY, SPIRIT_USED, DRAGON_IN_PLAY = 261, 271, 281
ELEGANCE, ELEGANCE_PICK, DECEPTION_PICK, DEEP_PICK, FAITH_EXTRA, WIND_FLIPPED, STRENGTH_MOVES = range(291, 298)
FIRST_PICK, LIFTED, TURN_SETS, CHANGE_GROUP, PLANES_V2 = 298, 299, 300, 301, 302
# Version 3: Spirits at any decision point (R-SPIRIT-2): the phase END_TURN and
# "a Spirit came between the placements".
END_TURN_PHASE, SPIRIT_BETWEEN, PLANES = 302, 303, 304

OBSERVATION_VERSION = 3
OBSERVATION_SHAPE = (PLANES, 12, 12)
_VERSION_PLANES = {1: PLANES_V1, 2: PLANES_V2, 3: PLANES}


def observation_shape(version: int = OBSERVATION_VERSION) -> tuple[int, int, int]:
    """The tensor shape of an observation version: 1 (247 planes), 2 (302) or 3 (304)."""
    if isinstance(version, bool) or version not in _VERSION_PLANES:
        raise ValueError(f"observation version {version!r} does not exist (1, 2 or {OBSERVATION_VERSION})")
    return (_VERSION_PLANES[version], 12, 12)


def observation(game: Any, seat: int) -> dict[str, Any]:
    castle = game.castle
    rows, cols = castle.rows, castle.cols

    def grid(f):
        return [[f((r, c)) for c in range(cols)] for r in range(rows)]

    def realm_view(p: int) -> dict[str, Any]:
        realm = game.realms[p]

        def cells(f):
            return [[f((r, c)) for c in range(4)] for r in range(4)]

        return {
            "heights": cells(lambda cell: realm.heights[cell]),
            "tops": cells(lambda cell: realm.face_up[cell].code if cell in realm.face_up else None),
            "face_up": cells(lambda cell: cell in realm.face_up),
            "shrines": cells(lambda cell: cell in realm.shrines),
            "shrine_pool": game.pools[p],
            "vp": game.vp[p],
            "countdown": game.countdown[p],
            "score": game.scores()[p],
            "dragons": game.dragon_bonuses(p),
        }

    return {
        "player": seat,
        "players": game.players,
        "solo": game.is_solo,
        "dragon_tiles": dict(game.dragon_tiles),
        "last_pick": [None if t is None else t.name for t in game.last_pick],
        "current_player": game.current_player,
        "phase": game.phase.name,
        "turn": game.turn,
        "top_floor": castle.top_floor(),
        "castle": {
            "rows": rows,
            "cols": cols,
            "heights": grid(castle.height),
            "tops": grid(lambda s: None if castle.top(s) is None else castle.top(s).code),
            "available": grid(castle.is_available),
        },
        "hidden_tiles": game.hidden_counts(),
        "realms": [realm_view(p) for p in range(game.players)],
        "held": [t.code for t in game.held_tiles],
        "general_shrines": game.general_shrines,
        "countdown_left": game.countdown_left,
        "end_triggered": game.end_triggered,
        "discarded": game.discarded,
        "spirits": list(game.spirits),
        "dragons": list(game.dragons),
        "spirits_used": [card for card in game.spirits if card in game.cards.used],
        "elegance": game.cards.elegance,
        "second_pick": game.cards.second_pick,
        "faith_extra": game.cards.faith_extra,
        "spirit_between_placements": game.cards.between,
    }


def observation_tensor(game: Any, seat: int, version: int = OBSERVATION_VERSION):
    import numpy as np

    shape = observation_shape(version)
    planes = [[0.0] * 144 for _ in range(PLANES)]
    castle = game.castle
    top = castle.top_floor()
    for (r, c), height in ((s, h) for s, h in _layout_spaces(game)):
        planes[CASTLE_SPACE][r * 12 + c] = 1.0
    for space in castle.spaces():
        i = space[0] * 12 + space[1]
        h = castle.height(space)
        planes[CASTLE_HEIGHT][i] = h / 9
        planes[CASTLE_AVAILABLE][i] = float(castle.is_available(space))
        planes[CASTLE_TOP_FLOOR][i] = float(h == top)
        planes[CASTLE_TOP + castle.top(space).index][i] = 1.0
    n = game.players
    shrine_now = set(game._shrine_cells()) if game.phase.name == "SHRINE" else set()
    for rel in range(n):
        p = (seat + rel) % n
        realm = game.realms[p]
        base = REALMS + rel * REALM_PLANES
        for cell in CELLS:
            h = realm.heights[cell]
            if h == 0:
                continue
            i = cell[0] * 12 + cell[1]
            planes[base][i] = min(h / 8, 1.0)
            if cell in realm.face_up:
                planes[base + 1 + realm.face_up[cell].index][i] = 1.0
            else:
                planes[base + 30][i] = 1.0
            if cell in realm.shrines:
                planes[base + 31][i] = 1.0
            if p == game.current_player and cell in shrine_now:
                planes[base + 32][i] = 1.0
        values = [1.0, game.vp[p] / 50, game.pools[p] / 10, game.countdown[p] / 7]
        for k, v in enumerate(values):
            planes[SEATS + rel * SEAT_PLANES + k] = [v] * 144
    constants = [game.general_shrines / 40, game.countdown_left / 7, float(game.end_triggered)]
    phase = [0.0] * BASE_PHASES
    if game.phase.value < BASE_PHASES:  # all zero in the phases of the cards
        phase[game.phase.value] = 1.0
    for k, v in enumerate(constants + phase):
        planes[GLOBAL + k] = [v] * 144
    held = [0.0] * len(CODES)
    for tile in game.held_tiles:
        held[tile.index] += 0.5
    hidden = game.hidden_counts()
    for k, code in enumerate(CODES):
        planes[HELD + k] = [held[k]] * 144
        planes[HIDDEN + k] = [hidden.get(code, 0) / 4] * 144
    _card_planes(game, planes)
    return np.array(planes[:shape[0]], dtype=np.float32).reshape(shape)


def _card_planes(game: Any, planes: list[list[float]]) -> None:
    """Planes 247..303 (docs/cards.md "Observation additions"); the 14-phase
    one-hot of version 2 is all zero in END_TURN, which has plane 302."""
    state = game.cards
    if game.phase.value < V2_PHASES:
        planes[PHASES + game.phase.value] = [1.0] * 144
    planes[END_TURN_PHASE] = [float(game.phase is Phase.END_TURN)] * 144
    planes[SPIRIT_BETWEEN] = [float(state.between)] * 144
    for k, card in enumerate(SPIRITS):
        if card in game.spirits:
            planes[SPIRIT_IN_PLAY + k] = [1.0] * 144
        if card in state.used:
            planes[SPIRIT_USED + k] = [1.0] * 144
    for k, card in enumerate(DRAGONS):
        if card in game.dragons:
            planes[DRAGON_IN_PLAY + k] = [1.0] * 144
    constants = {
        ELEGANCE: float(state.elegance),
        ELEGANCE_PICK: float(state.elegance_pick),
        DECEPTION_PICK: float(state.second_pick == "DECEPTION"),
        DEEP_PICK: float(state.second_pick == "DEEP"),
        FAITH_EXTRA: float(state.faith_extra),
        WIND_FLIPPED: float(state.wind_flipped),
        STRENGTH_MOVES: state.strength_moves / 2,
    }
    for plane, v in constants.items():
        planes[plane] = [v] * 144
    if game.phase is Phase.COMPLETE and state.first_space is not None:
        r, c = state.first_space
        planes[FIRST_PICK][r * 12 + c] = 1.0
    marked = None
    if game.phase in (Phase.WIND_TO, Phase.STRENGTH_TO):
        marked = state.lifted
    elif game.phase is Phase.STRENGTH:
        marked = state.strength_last
    if marked is not None:
        planes[LIFTED][marked[0] * 12 + marked[1]] = 1.0
    for r, c in game._set_cells():
        planes[TURN_SETS][r * 12 + c] = 1.0
    if game.phase is Phase.CUNNING:
        for r, c in state.change_group:
            planes[CHANGE_GROUP][r * 12 + c] = 1.0


# The compact encoding (docs/observation.md "Compact encoding"): field offsets.
COMPACT_OBSERVATION_SIZE = 1190
_C_REALMS, _C_SEATS, _C_GLOBAL, _C_HELD, _C_HIDDEN = 720, 1040, 1056, 1060, 1089
_C_CARDS, _C_TURN_FLAGS, _C_FIRST_PICK, _C_LIFTED, _C_TURN_SETS, _C_CHANGE_GROUP, _C_BETWEEN = (
    1118, 1148, 1155, 1156, 1157, 1173, 1189)


def compact_observation(game: Any, seat: int):
    """The compact observation, read off the version-3 planes: each field is
    a plane (or a one-hot group of planes, as index + 1) turned back into the
    small integer it was scaled from. The Rust engine writes the same bytes
    directly."""
    import numpy as np

    planes = observation_tensor(game, seat).reshape(PLANES, 144).astype(np.float64)

    def count(plane: int, scale: float) -> Any:  # the integer behind k / scale
        return np.rint(planes[plane] * scale)

    def one_hot(first: int, n: int) -> Any:  # index + 1 of the set plane, 0 if none
        group = planes[first:first + n]
        return np.where(group.max(axis=0) > 0, group.argmax(axis=0) + 1, 0)

    corner = [r * 12 + c for r, c in CELLS]  # a Realm sits in the planes' north-west 4 x 4
    out: list[Any] = [planes[CASTLE_SPACE], count(CASTLE_HEIGHT, 9), planes[CASTLE_AVAILABLE],
                      planes[CASTLE_TOP_FLOOR], one_hot(CASTLE_TOP, 29)]
    for rel in range(4):
        base = REALMS + rel * REALM_PLANES
        out += [count(base, 8)[corner], one_hot(base + 1, 29)[corner], planes[base + 30][corner],
                planes[base + 31][corner], planes[base + 32][corner]]
    for rel in range(4):
        base = SEATS + rel * SEAT_PLANES
        out.append([planes[base][0], min(count(base + 1, 50)[0], 255), count(base + 2, 10)[0], count(base + 3, 7)[0]])
    # The phase index: the 14-phase one-hot, or 14 for END_TURN (plane 302).
    phase = V2_PHASES if planes[END_TURN_PHASE][0] else one_hot(PHASES, V2_PHASES)[0] - 1
    out.append([count(GLOBAL, 40)[0], count(GLOBAL + 1, 7)[0], planes[GLOBAL + 2][0], phase])
    out.append([count(HELD + k, 2)[0] for k in range(29)])
    out.append([count(HIDDEN + k, 4)[0] for k in range(29)])
    out.append(planes[SPIRIT_IN_PLAY:DRAGON_IN_PLAY + 10, 0])
    out.append([count(plane, 2 if plane == STRENGTH_MOVES else 1)[0] for plane in range(ELEGANCE, STRENGTH_MOVES + 1)])
    out.append([planes[FIRST_PICK].argmax() + 1 if planes[FIRST_PICK].any() else 0])
    lifted = planes[LIFTED][corner]
    out.append([lifted.argmax() + 1 if lifted.any() else 0])
    out += [planes[TURN_SETS][corner], planes[CHANGE_GROUP][corner], [planes[SPIRIT_BETWEEN][0]]]
    flat = np.concatenate([np.asarray(x, dtype=np.float64).ravel() for x in out])
    assert flat.size == COMPACT_OBSERVATION_SIZE
    return flat.astype(np.uint8)


def _layout_spaces(game: Any):
    for r, row in enumerate(game.layout.heights):
        for c, h in enumerate(row):
            if h:
                yield (r, c), h
