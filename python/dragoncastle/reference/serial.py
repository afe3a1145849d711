"""Copies, equality and JSON of a game (``Game.to_json``, ``Game.from_json``,
which checks a record by replaying it)."""

from __future__ import annotations

import json
from typing import Any, TypeVar

from .layout import Layout
from .state import GameState, Rules, seeded_deal

JSON_FORMAT, JSON_VERSION = "dragoncastle-game", 3
_G = TypeVar("_G", bound=GameState)


class Serialisation(GameState):
    """The part of :class:`~dragoncastle.reference.game.Game` that copies, compares and records it."""

    # ------------------------------------------------------------ copies, equality, JSON

    def clone(self: _G, history: bool = True) -> _G:
        """An independent copy; ``history=False`` drops the undo history: the
        copy cannot undo past this point (its record of actions stays)."""
        other = type(self).__new__(type(self))
        other.__dict__.update(self.__dict__)
        other.castle = self.castle.copy()
        other.realms = [r.copy() for r in self.realms]
        other.pools, other.vp, other.countdown = list(self.pools), list(self.vp), list(self.countdown)
        other.held = list(self.held)
        other.sets = [s.copy() for s in self.sets]
        other.cards = self.cards.copy()
        other.history = list(self.history)
        other.history_by_dragon = list(self.history_by_dragon)
        other.last_pick = list(self.last_pick)
        other.dragon_tiles = dict(self.dragon_tiles)
        if not history:
            other._undo_floor = sum(1 for by_dragon in self.history_by_dragon if not by_dragon)
        return other

    __copy__ = clone

    def __deepcopy__(self: _G, memo: Any) -> _G:
        return self.clone()

    def _key(self) -> tuple:
        """The full state, hidden tiles included (not the path that led here)."""
        return (
            self.players, self.layout.heights, self.rules, self._spirits, self._dragons,
            {space: list(stack) for space, stack in self.castle.stacks.items()},
            [(r.heights, r.face_up, r.shrines) for r in self.realms],
            self.pools, self.vp, self.countdown, self.general_shrines, self.tokens_taken, self.end_triggered,
            self.discarded, self.turn, self.current_player, self.phase, self.held, self.placed, self.first_cell,
            [(s.cells, s.type, s.allowance) for s in self.sets],
            self.last_pick, self.turn_pick, self.dragon_tiles, self.cards.key(),
        )

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Serialisation) and self._key() == other._key()

    __hash__ = None  # type: ignore[assignment]  # mutable

    def to_json(self) -> str:
        """The complete state as JSON: setup, hidden tiles and history.
        ``Game.from_json`` round-trips it exactly."""
        data = {
            "format": JSON_FORMAT,
            "version": JSON_VERSION,
            "players": self.players,
            "seed": self.seed,
            "layout": self.layout.text,
            "rules": {"dragon_set_bonus": self.rules.dragon_set_bonus},
            "spirits": self.spirits,
            "dragons": self.dragons,
            "deal": [t.code for t in self.deal],
            "actions": [a.id for a in self.history],
            "summary": {"phase": self.phase.name, "current_player": self.current_player, "scores": self.scores()},
        }
        return json.dumps(data, separators=(",", ":"))

    @classmethod
    def from_json(cls: type[_G], text: str) -> _G:
        """Load and check by replaying every action."""
        try:
            data = json.loads(text)
        except (ValueError, TypeError, RecursionError) as e:  # deep nesting is bad input too
            raise ValueError(f"invalid game JSON: {e}") from None
        if not isinstance(data, dict) or not isinstance(data.get("rules", {}), dict) \
                or not isinstance(data.get("summary") or {}, dict):
            raise ValueError("invalid game JSON: the game, its rules and its summary must be JSON objects")
        if not isinstance(data, dict) or data.get("format") != JSON_FORMAT or type(data.get("version")) is not int \
                or data["version"] not in (1, 2, JSON_VERSION):
            found = (data.get("format"), data.get("version")) if isinstance(data, dict) else (None, None)
            raise ValueError(f"invalid game JSON: format/version {found[0]!r}/{found[1]!r} not supported")
        required = {"format", "version", "players", "seed", "layout", "rules", "actions"}
        # The deal may be left out when the seed makes it (a record that shows no covered tile).
        optional = {"spirits", "dragons", "summary", "meta", "deal"}
        if not required <= data.keys() <= required | optional:
            raise ValueError("invalid game JSON: expected the fields " + ", ".join(sorted(required))
                             + " (and deal, spirits, dragons, summary, meta)")
        if data.get("meta") is not None and not isinstance(data["meta"], dict):
            raise ValueError("invalid game JSON: meta must be an object")
        # The cards in play by name (none when left out); version 1 (the base game) has none;
        # version 2 has the Spirits of the withdrawn four-window rule (docs/cards.md).
        spirits, dragon_cards = data.get("spirits", []), data.get("dragons", [])
        if not (isinstance(spirits, list) and isinstance(dragon_cards, list)):
            raise ValueError("invalid game JSON: spirits and dragons must be lists of card names")
        if data["version"] == 1 and (spirits or dragon_cards):
            raise ValueError("invalid game JSON: version 1 has no cards")
        if data["version"] == 2 and spirits:
            raise ValueError("invalid game JSON: version 2 games with Spirit cards were recorded under the four-window "
                             "Spirit rule withdrawn in 2026-12 (R-SPIRIT-2) and cannot be replayed")
        rules, actions, seed = data["rules"], data["actions"], data["seed"]
        if data.get("deal") is None:
            if type(seed) is not int or not 0 <= seed < 2**64:
                raise ValueError("invalid game JSON: a game without a seed needs its deal")
            data["deal"] = [t.code for t in seeded_deal(seed)]
        if not (isinstance(rules, dict) and rules.keys() == {"dragon_set_bonus"} and isinstance(rules["dragon_set_bonus"], bool)
                and isinstance(actions, list)
                and isinstance(data["deal"], list) and isinstance(data["layout"], str) and type(data["players"]) is int
                and (seed is None or (type(seed) is int and 0 <= seed < 2**64))):
            raise ValueError("invalid game JSON: a field has the wrong type")
        try:
            game = cls(data["players"], 0, spirits=spirits, dragons=dragon_cards, layout=Layout.parse(data["layout"]),
                        deal=data["deal"], rules=Rules(dragon_set_bonus=rules["dragon_set_bonus"]))
        except (ValueError, TypeError) as e:
            raise ValueError(f"invalid game JSON: {e}") from None
        game.seed = seed
        if seed is not None and seeded_deal(seed) != game.deal:
            raise ValueError(f"invalid game JSON: the deal is not the one seed {seed} makes")
        k = 0
        while k < len(actions):
            if type(actions[k]) is not int:
                raise ValueError(f"invalid game JSON: action {k} is not an integer")
            try:
                game.apply(actions[k])
            except ValueError as e:
                raise ValueError(f"invalid game JSON: action {k}: {e}") from None
            k += 1
            # The Dragon of Ingenuity's recorded actions must be the ones it plays.
            while len(game.history) > k:
                if actions[k:k + 1] != [game.history[k].id]:
                    raise ValueError(f"invalid game JSON: action {k}: the Dragon of Ingenuity plays {game.history[k]} here")
                k += 1
        summary = data.get("summary")
        if summary is not None:
            if not isinstance(summary, dict) or summary != {"phase": game.phase.name, "current_player": game.current_player, "scores": game.scores()}:
                raise ValueError("invalid game JSON: the summary does not match the replayed actions")
        return game

    def __reduce__(self):
        return (type(self).from_json, (self.to_json(),))
