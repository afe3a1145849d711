"""The errors of a bad action, shared by both engines (pure Python).

Like python-chess's invalid and illegal moves:

- :class:`InvalidActionError`: the text or the id names no action at all
  (``"fly"``, ``5000``, a reserved id, a wrong type).
- :class:`IllegalActionError`: a real action that the rules do not allow now.

Both are ``ValueError``\\ s and carry ``action`` (the action's text, or the
input that names none), ``phase`` (the phase's name; ``None`` when the input
names no action) and ``reason`` (why, in a player's words). The Rust core and the reference
engine raise these same classes, so one ``except`` serves both.

>>> import dragoncastle as dc
>>> try:
...     dc.Game(players=2, seed=1).apply("summon")
... except dc.IllegalActionError as e:
...     print(e.action, e.phase, "R-ACT-5" in e.reason)
summon ACTION True
>>> try:
...     dc.Action("fly")
... except dc.InvalidActionError as e:
...     print(e.action, e.phase, isinstance(e, ValueError))
fly None True
"""

from __future__ import annotations

from typing import Any, Optional

__all__ = ["ActionError", "InvalidActionError", "IllegalActionError"]


class ActionError(ValueError):
    """An action that cannot be applied; see the subclasses."""

    def __init__(self, message: str, *, action: Optional[str] = None, phase: Optional[str] = None,
                 reason: Optional[str] = None) -> None:
        super().__init__(message)
        self.action = action
        self.phase = phase
        self.reason = reason if reason is not None else message

    def __reduce__(self) -> Any:
        # Exceptions cross processes (multiprocessing, Ray): keep the attributes.
        return (_rebuild, (type(self), str(self), self.action, self.phase, self.reason))


def _rebuild(cls: type, message: str, action: Optional[str], phase: Optional[str], reason: Optional[str]) -> ActionError:
    return cls(message, action=action, phase=phase, reason=reason)


class InvalidActionError(ActionError):
    """The text or id names no action (``Action("fly")``, ``apply(5000)``)."""


class IllegalActionError(ActionError):
    """A real action that is not legal now (``apply("summon")`` at the opening)."""
