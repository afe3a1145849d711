"""Atomic decisions, their stable ids and their text (docs/actions.md)."""

from __future__ import annotations

import enum
from functools import total_ordering

NUM_ACTIONS = 1024
MAX_LEGAL_ACTIONS = 256
CASTLE_SIDE = 12
REALM_SIDE = 4

SPIRITS = ["beauty", "elegance", "wind", "deception", "strength", "change", "faith", "destruction", "deep", "cunning"]
DRAGONS = ["humility", "tranquility", "righteousness", "bravery", "majesty", "power", "harmony", "knowledge", "devotion", "fortitude"]

# The id layout.
TAKE0, PLACE0, SHRINE0 = 0, 144, 160
TAKE_SHRINE, DISCARD, SUMMON, DONE = 176, 177, 178, 179
SPIRIT0, PAY_OPTIONS = 180, 17
RESERVED0 = SPIRIT0 + len(SPIRITS) * PAY_OPTIONS  # 350


class IllegalActionError(ValueError):
    """An action that is malformed or not legal now; the game is left unchanged."""


class ActionKind(enum.Enum):
    TAKE = 0
    TAKE_SHRINE = 1
    DISCARD = 2
    SUMMON = 3
    PLACE = 4
    SHRINE = 5
    DONE = 6
    SPIRIT = 7

    def __int__(self) -> int:
        return self.value

    def __repr__(self) -> str:
        return f"ActionKind.{self.name}"


def _coords(text: str, side: int, original: str) -> tuple[int, int]:
    if "," not in text:
        raise IllegalActionError(f"cannot parse action {original!r}: expected row,col")
    r, c = (part.strip() for part in text.split(",", 1))
    if not (r.isdigit() and c.isdigit()):
        raise IllegalActionError(f"cannot parse action {original!r}: row and column must be numbers")
    if int(r) >= side or int(c) >= side:
        raise IllegalActionError(f"cannot parse action {original!r}: ({r},{c}) is outside the {side}x{side} grid")
    return int(r), int(c)


@total_ordering
class Action:
    """One decision; ``Action(42)`` or ``Action("take 2,5")``."""

    __slots__ = ("id",)
    id: int

    def __init__(self, spec: "Action | int | str") -> None:
        if isinstance(spec, Action):
            self.id = spec.id
        elif isinstance(spec, str):
            self.id = Action.parse(spec).id
        elif isinstance(spec, int) or hasattr(spec, "__index__"):
            number = spec.__index__()
            if not 0 <= number < NUM_ACTIONS:
                raise IllegalActionError(f"action id {number} out of range 0..{NUM_ACTIONS}")
            if number >= RESERVED0:
                raise IllegalActionError(f"action id {number} is reserved for Spirit follow-ups")
            self.id = number
        else:
            raise IllegalActionError(f"an action is an Action, an int id or a text such as 'take 2,5'; got {type(spec).__name__}")

    # Constructors by kind.
    @staticmethod
    def from_id(number: int) -> "Action":
        return Action(int(number))

    @staticmethod
    def take(space: tuple[int, int]) -> "Action":
        r, c = _checked(space, CASTLE_SIDE, "castle space")
        return Action(TAKE0 + r * CASTLE_SIDE + c)

    @staticmethod
    def place(cell: tuple[int, int]) -> "Action":
        r, c = _checked(cell, REALM_SIDE, "realm cell")
        return Action(PLACE0 + r * REALM_SIDE + c)

    @staticmethod
    def shrine(cell: tuple[int, int]) -> "Action":
        r, c = _checked(cell, REALM_SIDE, "realm cell")
        return Action(SHRINE0 + r * REALM_SIDE + c)

    @staticmethod
    def take_shrine() -> "Action":
        return Action(TAKE_SHRINE)

    @staticmethod
    def discard() -> "Action":
        return Action(DISCARD)

    @staticmethod
    def summon() -> "Action":
        return Action(SUMMON)

    @staticmethod
    def done() -> "Action":
        return Action(DONE)

    @staticmethod
    def parse(text: str) -> "Action":
        words = text.strip().lower()
        if words.lstrip("-").isdigit():
            return Action(int(words))
        word, rest = (words.split(None, 1) + ["", ""])[:2]
        rest = rest.strip()
        if word == "take":
            r, c = _coords(rest, CASTLE_SIDE, text)
            return Action(TAKE0 + r * CASTLE_SIDE + c)
        if word in ("place", "shrine"):
            r, c = _coords(rest, REALM_SIDE, text)
            return Action((PLACE0 if word == "place" else SHRINE0) + r * REALM_SIDE + c)
        simple = {"take-shrine": TAKE_SHRINE, "discard": DISCARD, "summon": SUMMON, "done": DONE}
        if word in simple:
            if rest:
                raise IllegalActionError(f"cannot parse action {text!r}: unexpected arguments")
            return Action(simple[word])
        if word == "spirit":
            name, pay = (rest.split(None, 1) + ["", ""])[:2]
            if name not in SPIRITS or not pay.strip():
                raise IllegalActionError(f"cannot parse action {text!r}: expected spirit NAME row,col|shrine")
            pay = pay.strip()
            pay_index = 16 if pay == "shrine" else _cell_index(_coords(pay, REALM_SIDE, text))
            return Action(SPIRIT0 + SPIRITS.index(name) * PAY_OPTIONS + pay_index)
        raise IllegalActionError(f"cannot parse action {text!r}: unknown action word")

    @property
    def kind(self) -> ActionKind:
        i = self.id
        if i < PLACE0:
            return ActionKind.TAKE
        if i < SHRINE0:
            return ActionKind.PLACE
        if i < TAKE_SHRINE:
            return ActionKind.SHRINE
        return {TAKE_SHRINE: ActionKind.TAKE_SHRINE, DISCARD: ActionKind.DISCARD, SUMMON: ActionKind.SUMMON,
                DONE: ActionKind.DONE}.get(i, ActionKind.SPIRIT)

    @property
    def space(self) -> tuple[int, int] | None:
        return divmod(self.id, CASTLE_SIDE) if self.kind is ActionKind.TAKE else None

    @property
    def cell(self) -> tuple[int, int] | None:
        if self.kind is ActionKind.PLACE:
            return divmod(self.id - PLACE0, REALM_SIDE)
        if self.kind is ActionKind.SHRINE:
            return divmod(self.id - SHRINE0, REALM_SIDE)
        return None

    @property
    def card(self) -> str | None:
        return SPIRITS[(self.id - SPIRIT0) // PAY_OPTIONS] if self.kind is ActionKind.SPIRIT else None

    @property
    def pay_cell(self) -> tuple[int, int] | None:
        if self.kind is not ActionKind.SPIRIT:
            return None
        pay = (self.id - SPIRIT0) % PAY_OPTIONS
        return None if pay == 16 else divmod(pay, REALM_SIDE)

    @property
    def target(self) -> tuple[int, int]:
        """The castle space of a TAKE or the Realm cell of a PLACE or SHRINE."""
        where = self.space if self.kind is ActionKind.TAKE else self.cell
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


def _cell_index(cell: tuple[int, int]) -> int:
    return cell[0] * REALM_SIDE + cell[1]


def _checked(pos: tuple[int, int], side: int, what: str) -> tuple[int, int]:
    r, c = pos
    if not (0 <= r < side and 0 <= c < side):
        raise ValueError(f"{what} {pos} is outside the {side}x{side} grid")
    return r, c
