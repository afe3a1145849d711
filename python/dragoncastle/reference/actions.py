"""Atomic decisions, their stable ids and their text (docs/actions.md)."""

from __future__ import annotations

import enum
import re
from functools import total_ordering

from .text import ascii_lower, rsplit_once, split_once, trim
from .tiles import TileType

NUM_ACTIONS = 1024
MAX_LEGAL_ACTIONS = 256
CASTLE_SIDE = 12
REALM_SIDE = 4

SPIRITS = ["beauty", "elegance", "wind", "deception", "strength", "change", "faith", "destruction", "deep", "cunning"]
DRAGONS = ["humility", "tranquility", "righteousness", "bravery", "majesty", "power", "harmony", "knowledge", "devotion", "fortitude"]

# The id layout (docs/actions.md, docs/cards.md).
TAKE0, PLACE0, SHRINE0 = 0, 144, 160
TAKE_SHRINE, DISCARD, SUMMON, DONE = 176, 177, 178, 179
SPIRIT0, PAY_OPTIONS = 180, 17
PAY_SHRINE = 16  # the payment option "a Shrine from the Shrine Pool"
DESTROY0 = SPIRIT0 + len(SPIRITS) * PAY_OPTIONS  # 350: one per castle space
FLIP0 = DESTROY0 + CASTLE_SIDE * CASTLE_SIDE  # 494: one per Realm cell from here on
SHRINE_FROM0 = FLIP0 + 16  # 510
SHRINE_TO0 = SHRINE_FROM0 + 16  # 526
MOVE_FROM0 = SHRINE_TO0 + 16  # 542
MOVE_TO0 = MOVE_FROM0 + 16  # 558
SET0 = MOVE_TO0 + 16  # 574
CHANGE0 = SET0 + 16  # 590: cell * 6 + type
RESERVED0 = CHANGE0 + 16 * len(TileType)  # 686

#: Type words of CHANGE, in TileType order.
TYPE_WORDS = [t.name.lower() for t in TileType]


# The error classes are shared with the Rust engine (pure Python, errors.py).
from ..errors import IllegalActionError, InvalidActionError  # noqa: E402,F401


def _invalid(message: str, given: object) -> InvalidActionError:
    return InvalidActionError(message, action=str(given), reason=message)


class ActionKind(enum.Enum):
    """The kind of an :class:`Action` (docs/actions.md has the id ranges and text).

    Members, in index order (``int(member)``): ``TAKE`` (a castle pick, first or
    second tile), ``TAKE_SHRINE``, ``DISCARD``, ``SUMMON``, ``PLACE``, ``SHRINE``,
    ``DONE`` (end an optional step), ``SPIRIT`` (activate a Spirit card), and the
    Spirit follow-ups ``DESTROY``, ``FLIP``, ``SHRINE_FROM``, ``SHRINE_TO``,
    ``MOVE_FROM``, ``MOVE_TO``, ``SET``, ``CHANGE`` (docs/cards.md).

    >>> Action("take 2,5").kind
    ActionKind.TAKE
    >>> int(ActionKind.SUMMON)
    3
    """

    TAKE = 0
    TAKE_SHRINE = 1
    DISCARD = 2
    SUMMON = 3
    PLACE = 4
    SHRINE = 5
    DONE = 6
    SPIRIT = 7
    DESTROY = 8
    FLIP = 9
    SHRINE_FROM = 10
    SHRINE_TO = 11
    MOVE_FROM = 12
    MOVE_TO = 13
    SET = 14
    CHANGE = 15

    def __int__(self) -> int:
        return self.value

    def __repr__(self) -> str:
        return f"ActionKind.{self.name}"


def _number(text: str, signed: bool) -> int | None:
    """An integer as Rust's ``str::parse`` reads it (i64 or usize), else None."""
    if not re.fullmatch(r"[+-]?[0-9]+" if signed else r"\+?[0-9]+", text):
        return None
    n = int(text)
    return n if (-(2**63) <= n < 2**63 if signed else n < 2**64) else None


def _coords(text: str, side: int, original: str) -> tuple[int, int]:
    if "," not in text:
        raise _invalid(f'cannot parse action "{original}": expected row,col', original)
    r_text, c_text = text.split(",", 1)
    r, c = _number(trim(r_text), False), _number(trim(c_text), False)
    if r is None:
        raise _invalid(f'cannot parse action "{original}": row is not a number', original)
    if c is None:
        raise _invalid(f'cannot parse action "{original}": column is not a number', original)
    if r >= side or c >= side:
        raise _invalid(f'cannot parse action "{original}": ({r},{c}) is outside the {side}x{side} grid', original)
    return r, c


@total_ordering
class Action:
    """One decision; ``Action(42)`` or ``Action("take 2,5")``.

    >>> a = Action("take 2,5")
    >>> a.id, a.kind, a.space, str(a)
    (29, ActionKind.TAKE, (2, 5), 'take 2,5')
    >>> Action(a.id) == a == Action.take((2, 5))
    True
    """

    __slots__ = {"id": "The stable id, ``0 <= id < NUM_ACTIONS`` (also ``int(action)``)."}
    id: int

    def __init__(self, spec: "Action | int | str") -> None:
        if isinstance(spec, Action):
            self.id = spec.id
        elif isinstance(spec, str):
            self.id = Action.parse(spec).id
        elif isinstance(spec, bool):  # an int to Python, but True is no action id
            raise _invalid(f"a bool is not an action id; got {spec}", spec)
        elif isinstance(spec, int) or hasattr(spec, "__index__"):
            number = spec.__index__()
            if not 0 <= number < NUM_ACTIONS:
                raise _invalid(f"action id {number} out of range 0..{NUM_ACTIONS}", spec)
            if number >= RESERVED0:
                raise _invalid(f"action id {number} is reserved", spec)
            self.id = number
        else:
            raise _invalid(f"an action is an Action, an int id or a text such as 'take 2,5'; got {type(spec).__name__}", spec)

    # Constructors by kind.
    @staticmethod
    def from_id(number: int) -> "Action":
        """The action with id ``number``; a reserved or out-of-range id raises ``InvalidActionError``."""
        return Action(int(number))

    @staticmethod
    def take(space: tuple[int, int]) -> "Action":
        """TAKE the top tile of castle space ``(row, col)`` (a first or second pick)."""
        r, c = _checked(space, CASTLE_SIDE, "castle space")
        return Action(TAKE0 + r * CASTLE_SIDE + c)

    @staticmethod
    def place(cell: tuple[int, int]) -> "Action":
        """PLACE the next collected tile on Realm cell ``(row, col)`` (R-PLACE-1)."""
        r, c = _checked(cell, REALM_SIDE, "realm cell")
        return Action(PLACE0 + r * REALM_SIDE + c)

    @staticmethod
    def shrine(cell: tuple[int, int]) -> "Action":
        """Build a SHRINE on Realm cell ``(row, col)`` (R-SHRINE-1)."""
        r, c = _checked(cell, REALM_SIDE, "realm cell")
        return Action(SHRINE0 + r * REALM_SIDE + c)

    @staticmethod
    def spirit(card: str, pay_cell: tuple[int, int] | None = None) -> "Action":
        """Activate Spirit ``card``, paying with the face-up tile of ``pay_cell`` or (None) a Shrine."""
        name = ascii_lower(card) if isinstance(card, str) else ""
        if name not in SPIRITS:
            raise ValueError(f"unknown Spirit card {card!r} (one of {', '.join(SPIRITS)})")
        pay = PAY_SHRINE if pay_cell is None else _cell_index(_checked(pay_cell, REALM_SIDE, "realm cell"))
        return Action(SPIRIT0 + SPIRITS.index(name) * PAY_OPTIONS + pay)

    @staticmethod
    def destroy(space: tuple[int, int]) -> "Action":
        """Destruction: discard the Available top tile of castle space ``(row, col)``."""
        r, c = _checked(space, CASTLE_SIDE, "castle space")
        return Action(DESTROY0 + r * CASTLE_SIDE + c)

    @staticmethod
    def flip(cell: tuple[int, int]) -> "Action":
        """Wind: turn the face-up top tile of Realm cell ``(row, col)`` face down."""
        return Action(FLIP0 + _cell_index(_checked(cell, REALM_SIDE, "realm cell")))

    @staticmethod
    def shrine_from(cell: tuple[int, int]) -> "Action":
        """Wind: lift the Shrine of Realm cell ``(row, col)``."""
        return Action(SHRINE_FROM0 + _cell_index(_checked(cell, REALM_SIDE, "realm cell")))

    @staticmethod
    def shrine_to(cell: tuple[int, int]) -> "Action":
        """Wind: put the lifted Shrine on Realm cell ``(row, col)``."""
        return Action(SHRINE_TO0 + _cell_index(_checked(cell, REALM_SIDE, "realm cell")))

    @staticmethod
    def move_from(cell: tuple[int, int]) -> "Action":
        """Strength: lift the top tile of Realm cell ``(row, col)``."""
        return Action(MOVE_FROM0 + _cell_index(_checked(cell, REALM_SIDE, "realm cell")))

    @staticmethod
    def move_to(cell: tuple[int, int]) -> "Action":
        """Strength: put the lifted tile on Realm cell ``(row, col)``."""
        return Action(MOVE_TO0 + _cell_index(_checked(cell, REALM_SIDE, "realm cell")))

    @staticmethod
    def set(cell: tuple[int, int]) -> "Action":
        """Beauty or Cunning: the group whose lowest cell (row-major) is ``cell``."""
        return Action(SET0 + _cell_index(_checked(cell, REALM_SIDE, "realm cell")))

    @staticmethod
    def change(cell: tuple[int, int], tile_type: TileType) -> "Action":
        """Change: treat the face-up Special tile of ``cell`` as a ``tile_type`` tile."""
        if not isinstance(tile_type, TileType):
            raise ValueError(f"a CHANGE names a TileType; got {tile_type!r}")
        return Action(CHANGE0 + _cell_index(_checked(cell, REALM_SIDE, "realm cell")) * len(TileType) + tile_type.value)

    @staticmethod
    def take_shrine() -> "Action":
        """TAKE_SHRINE: complete the action with a Shrine from the general pool (Tile and Shrine)."""
        return Action(TAKE_SHRINE)

    @staticmethod
    def discard() -> "Action":
        """DISCARD the tile just taken for 1 VP (ends the turn)."""
        return Action(DISCARD)

    @staticmethod
    def summon() -> "Action":
        """SUMMON the Dragon: take a Countdown token (R-ACT-5)."""
        return Action(SUMMON)

    @staticmethod
    def done() -> "Action":
        """DONE: end an optional step (stop building Shrines, pass in SPIRITS or END_TURN, end Wind or Strength)."""
        return Action(DONE)

    @staticmethod
    def parse(text: str) -> "Action":
        """The action of a text notation such as ``"take 2,5"``, ``"summon"`` or a bare
        id (case-insensitive; ``str(action)`` round-trips). Text that names no action
        raises ``InvalidActionError``.

        >>> Action.parse("Take 2,5"), Action.parse("29")
        (Action('take 2,5'), Action('take 2,5'))
        """
        words = ascii_lower(trim(text))
        number = _number(words, True)
        if number is not None:
            return Action(number)
        cut = split_once(words)
        word, rest = (cut[0], trim(cut[1])) if cut else (words, "")
        if word == "take":
            r, c = _coords(rest, CASTLE_SIDE, text)
            return Action(TAKE0 + r * CASTLE_SIDE + c)
        if word in ("place", "shrine"):
            r, c = _coords(rest, REALM_SIDE, text)
            return Action((PLACE0 if word == "place" else SHRINE0) + r * REALM_SIDE + c)
        simple = {"take-shrine": TAKE_SHRINE, "discard": DISCARD, "summon": SUMMON, "done": DONE}
        if word in simple:
            if rest:
                raise _invalid(f'cannot parse action "{text}": unexpected arguments', text)
            return Action(simple[word])
        if word == "spirit":
            parts = split_once(rest)
            if parts is None:
                raise _invalid(f'cannot parse action "{text}": expected: spirit NAME row,col|shrine', text)
            name, pay = parts[0], trim(parts[1])
            if name not in SPIRITS:
                raise _invalid(f'cannot parse action "{text}": unknown Spirit', text)
            pay_index = PAY_SHRINE if pay == "shrine" else _cell_index(_coords(pay, REALM_SIDE, text))
            return Action(SPIRIT0 + SPIRITS.index(name) * PAY_OPTIONS + pay_index)
        if word == "destroy":
            r, c = _coords(rest, CASTLE_SIDE, text)
            return Action(DESTROY0 + r * CASTLE_SIDE + c)
        if word in CELL_WORDS:
            return Action(CELL_WORDS[word] + _cell_index(_coords(rest, REALM_SIDE, text)))
        if word == "change":
            parts = rsplit_once(rest)
            if parts is None:
                raise _invalid(f'cannot parse action "{text}": expected: change row,col TYPE', text)
            where, kind = parts[0], trim(parts[1])
            if kind not in TYPE_WORDS:
                raise _invalid(f'cannot parse action "{text}": unknown tile type', text)
            cell = _coords(trim(where), REALM_SIDE, text)
            return Action(CHANGE0 + _cell_index(cell) * len(TileType) + TYPE_WORDS.index(kind))
        raise _invalid(f'cannot parse action "{text}": unknown action word', text)

    @property
    def kind(self) -> ActionKind:
        """The action's :class:`ActionKind`."""
        i = self.id
        if i < PLACE0:
            return ActionKind.TAKE
        if i < SHRINE0:
            return ActionKind.PLACE
        if i < TAKE_SHRINE:
            return ActionKind.SHRINE
        if i < SPIRIT0:
            return {TAKE_SHRINE: ActionKind.TAKE_SHRINE, DISCARD: ActionKind.DISCARD, SUMMON: ActionKind.SUMMON,
                    DONE: ActionKind.DONE}[i]
        if i < DESTROY0:
            return ActionKind.SPIRIT
        if i < FLIP0:
            return ActionKind.DESTROY
        if i < CHANGE0:
            return CELL_KINDS[(i - FLIP0) // 16][1]
        return ActionKind.CHANGE

    @property
    def space(self) -> tuple[int, int] | None:
        """The castle space of a TAKE or a DESTROY."""
        kind = self.kind
        if kind is ActionKind.TAKE:
            return divmod(self.id, CASTLE_SIDE)
        if kind is ActionKind.DESTROY:
            return divmod(self.id - DESTROY0, CASTLE_SIDE)
        return None

    @property
    def cell(self) -> tuple[int, int] | None:
        """The Realm cell of a PLACE, SHRINE, FLIP, SHRINE_FROM, SHRINE_TO, MOVE_FROM, MOVE_TO, SET or CHANGE."""
        kind, i = self.kind, self.id
        if kind is ActionKind.PLACE:
            return divmod(i - PLACE0, REALM_SIDE)
        if kind is ActionKind.SHRINE:
            return divmod(i - SHRINE0, REALM_SIDE)
        if kind is ActionKind.CHANGE:
            return divmod((i - CHANGE0) // len(TileType), REALM_SIDE)
        if FLIP0 <= i < CHANGE0:
            return divmod((i - FLIP0) % 16, REALM_SIDE)
        return None

    @property
    def tile_type(self) -> TileType | None:
        """The type a CHANGE makes its Special tile stand for."""
        return TileType((self.id - CHANGE0) % len(TileType)) if self.kind is ActionKind.CHANGE else None

    @property
    def card(self) -> str | None:
        """Spirit card name of a SPIRIT action, else None."""
        return SPIRITS[(self.id - SPIRIT0) // PAY_OPTIONS] if self.kind is ActionKind.SPIRIT else None

    @property
    def pay_cell(self) -> tuple[int, int] | None:
        """The Realm cell paid with for a SPIRIT action (None: paid with a Shrine, or not a SPIRIT)."""
        if self.kind is not ActionKind.SPIRIT:
            return None
        pay = (self.id - SPIRIT0) % PAY_OPTIONS
        return None if pay == 16 else divmod(pay, REALM_SIDE)

    @property
    def target(self) -> tuple[int, int]:
        """The castle space of a TAKE or DESTROY, or the Realm cell of the kinds that name one."""
        where = self.space if self.kind in (ActionKind.TAKE, ActionKind.DESTROY) else self.cell
        if where is None:
            raise ValueError(f"{self} names no space or cell")
        return where

    def __str__(self) -> str:
        kind = self.kind
        if kind is ActionKind.TAKE:
            return "take {},{}".format(*self.target)
        if kind is ActionKind.PLACE:
            return "place {},{}".format(*self.target)
        if kind is ActionKind.SHRINE:
            return "shrine {},{}".format(*self.target)
        if kind is ActionKind.DESTROY:
            return "destroy {},{}".format(*self.target)
        if kind is ActionKind.CHANGE:
            assert self.tile_type is not None
            return "change {},{} {}".format(*self.target, TYPE_WORDS[self.tile_type.value])
        if kind in CELL_TEXT:
            return "{} {},{}".format(CELL_TEXT[kind], *self.target)
        if kind is ActionKind.SPIRIT:
            pay = "shrine" if self.pay_cell is None else "{},{}".format(*self.pay_cell)
            return f"spirit {self.card} {pay}"
        return {ActionKind.TAKE_SHRINE: "take-shrine", ActionKind.DISCARD: "discard",
                ActionKind.SUMMON: "summon", ActionKind.DONE: "done"}[kind]

    def __repr__(self) -> str:
        return f"Action('{self}')"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Action) and other.id == self.id

    def __lt__(self, other: "Action") -> bool:
        return self.id < other.id

    def __hash__(self) -> int:
        return hash(self.id)

    def __int__(self) -> int:
        return self.id

    def __index__(self) -> int:
        return self.id

    def __reduce__(self):
        return (Action, (self.id,))


#: The follow-up kinds with one id per Realm cell, in id order from FLIP0, and their words.
CELL_KINDS = [("flip", ActionKind.FLIP), ("shrine-from", ActionKind.SHRINE_FROM), ("shrine-to", ActionKind.SHRINE_TO),
              ("move-from", ActionKind.MOVE_FROM), ("move-to", ActionKind.MOVE_TO), ("set", ActionKind.SET)]
CELL_WORDS = {word: FLIP0 + 16 * k for k, (word, _) in enumerate(CELL_KINDS)}
CELL_TEXT = {kind: word for word, kind in CELL_KINDS}


def _cell_index(cell: tuple[int, int]) -> int:
    return cell[0] * REALM_SIDE + cell[1]


def _checked(pos: tuple[int, int], side: int, what: str) -> tuple[int, int]:
    r, c = pos
    if not (0 <= r < side and 0 <= c < side):
        raise ValueError(f"{what} {pos} is outside the {side}x{side} grid")
    return r, c
