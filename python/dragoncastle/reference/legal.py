"""The legal actions of a position (R-ACT, R-PLACE, R-SHRINE, R-SPIRIT-1..2,
and the Spirits' choices of docs/cards.md), and why an action is not one of
them, in the words of the Rust engine."""

from __future__ import annotations

from typing import Any

from . import cards
from .actions import DISCARD, DONE, NUM_ACTIONS, SUMMON, TAKE_SHRINE, Action, ActionKind
from .phase import Phase
from .realm import Realm
from .state import COUNTDOWN_TOKENS, GameState


class LegalActions(GameState):
    """The part of :class:`~dragoncastle.reference.game.Game` that lists its choices."""

    # ------------------------------------------------------------ legal actions

    def legal_actions(self) -> list[Action]:
        """Legal actions, sorted by id."""
        phase = self.phase
        if phase is Phase.ACTION:
            actions = self._first_picks() + self._activations(phase)
        elif phase is Phase.COMPLETE:
            actions = self._completions() + self._activations(phase)
        elif phase is Phase.PLACE:
            actions = [Action.place(cell) for cell in self._placement_cells()] + self._activations(phase)
        elif phase is Phase.SHRINE:
            actions = [Action.shrine(cell) for cell in self._shrine_cells()] + [Action(DONE)] + self._activations(phase)
        elif phase in (Phase.SPIRITS, Phase.END_TURN):
            actions = [Action(DONE)] + self._activations(phase)
        elif phase is Phase.DESTROY:
            actions = [Action.destroy(space) for space in cards.destroyable(self.castle)]
        elif phase is Phase.WIND:
            actions = self._wind_options()
        elif phase is Phase.WIND_TO:
            assert self.cards.lifted is not None
            actions = [Action.shrine_to(cell) for cell in cards.shrine_targets(self._realm, self.cards.lifted)]
        elif phase is Phase.STRENGTH:
            actions = [Action.move_from(cell) for cell in cards.move_sources(self._realm, self.cards.strength_last)]
            if self.cards.strength_moves > 0:
                actions.append(Action(DONE))
        elif phase is Phase.STRENGTH_TO:
            assert self.cards.lifted is not None
            actions = [Action.move_to(cell) for cell in cards.move_targets(self._realm, self.cards.lifted)]
        elif phase is Phase.SET:
            actions = [Action.set(cards.lowest(group)) for group in self._set_groups(self._realm)]
        elif phase is Phase.CHANGE:
            actions = [Action.change(cell, kind) for cell, kind, _ in self._change_options(self._realm, self._pool)]
        elif phase is Phase.CUNNING:
            actions = [Action.spirit("cunning", pay)
                       for pay in cards.cunning_payable(self._realm, self._pool, self.cards.change_group)]
        else:
            actions = []
        return sorted(actions)

    def legal_action_ids(self) -> list[int]:
        """Legal action ids, sorted."""
        return [a.id for a in self.legal_actions()]

    def legal_action_mask(self):
        """Boolean numpy mask of shape ``(NUM_ACTIONS,)``."""
        import numpy as np

        mask = np.zeros(NUM_ACTIONS, dtype=bool)
        mask[self.legal_action_ids()] = True
        return mask

    def is_legal(self, action: Any) -> bool:
        """True if ``action`` (an Action, id or text) is legal now; False for input that names no action."""
        try:
            return Action(action) in self.legal_actions()
        except ValueError:
            return False

    def _first_picks(self) -> list[Action]:
        """R-ACT-1..3: the first tile is Available and on the top floor; R-ACT-5
        Summon. With Elegance active a free short side will do (R-AVAIL-3); with
        Elegance's pick pending only such a tile, and nothing else."""
        castle, top, state = self.castle, self.castle.top_floor(), self.cards
        if state.elegance_pick:
            return [Action.take(s) for s in cards.elegance_first_picks(castle)]
        picks = [Action.take(s) for s in castle.spaces()
                 if castle.height(s) == top and cards.may_pick(castle, s, state.elegance)]
        if self._can_summon():
            picks.append(Action(SUMMON))
        return picks

    def _can_summon(self) -> bool:
        """R-ACT-5: every castle tile on the ground floor (judged now, so a
        Destruction earlier in the turn counts), and a token left."""
        return self.castle.top_floor() <= 1 and self.tokens_taken < COUNTDOWN_TOKENS

    def _completions(self) -> list[Action]:
        """R-ACT-1 second identical tile (Available now that the first has left),
        R-ACT-2 Tile and Shrine, R-ACT-3 Discard; R-PLACE-2 room in the Realm.
        A pending Deception, Deep or Elegance pick is the only choice."""
        castle, state, first = self.castle, self.cards, self.held[0]
        free = len(self._realm.placeable())
        if state.second_pick == cards.DECEPTION:
            assert state.first_space is not None
            return [Action.take(s) for s in cards.deception_picks(castle, state.first_space, state.first_floor)]
        if state.second_pick == cards.DEEP:
            return [Action.take(s) for s in cards.deep_picks(castle, first, state.elegance)]
        if state.elegance_pick:
            return [Action.take(s) for s in cards.elegance_second_picks(castle, first)] if free >= 2 else []
        options = []
        if free >= 2:
            options += [Action.take(s) for s in castle.spaces()
                        if castle.top(s) == first and cards.may_pick(castle, s, state.elegance)]
        if self.general_shrines > 0 and free >= 1:
            options.append(Action(TAKE_SHRINE))
        options.append(Action(DISCARD))
        return options

    def _placement_cells(self) -> list[tuple[int, int]]:
        """R-PLACE-1; R-PLACE-3: two identical tiles go lower cell first, while
        their two orders are the same move: no Spirit usable in PLACE is left
        this turn and none came between the placements (docs/cards.md)."""
        free = self._realm.placeable()
        identical = len(self.held) == 2 and self.held[0] == self.held[1]
        may_come_between = any(card not in self.cards.used and Phase.PLACE in cards.ONLY_IN.get(card, cards.DECISION_POINTS)
                               for card in self._spirits)
        if not identical or self.cards.between or may_come_between:
            return free
        if self.placed == 0:
            return free[:-1]
        return [cell for cell in free if cell > self.first_cell]

    def _shrine_cells(self) -> list[tuple[int, int]]:
        """R-SHRINE-1: tiles of this turn's sets with allowance left, without a
        Shrine; with Faith's extra Shrine unused, tiles of any of this turn's sets."""
        if self._pool == 0:
            return []
        # R-PLACE-2: while collected tiles wait to be placed, a Shrine (which
        # takes a free cell) may not leave fewer free cells than tiles in hand.
        if self.cards.resume is Phase.PLACE and len(self._realm.placeable()) <= len(self.held_tiles):
            return []
        cells = {cell for s in self.sets if s.allowance > 0 or self.cards.faith_extra for cell in s.cells}
        return sorted(cells - self._realm.shrines)

    def _set_cells(self) -> set[tuple[int, int]]:
        """The tiles of the sets Consolidated this turn."""
        return {cell for s in self.sets for cell in s.cells}

    # ------------------------------------------------------------ Spirit activations

    def _activations(self, phase: Phase) -> list[Action]:
        """R-SPIRIT-1, R-SPIRIT-2: at a decision point ``phase`` while no pick is
        pending, ``SPIRIT(card, pay)`` for each card in play and unused this
        turn (Elegance, Deception and Deep only where their pick comes), for
        each payment after which the card's effect can be applied."""
        if self.cards.pick_pending or phase not in cards.DECISION_POINTS:
            return []
        actions = []
        for card in self._spirits:
            if card in self.cards.used or phase not in cards.ONLY_IN.get(card, cards.DECISION_POINTS):
                continue
            for pay in self._payments():
                realm, pool = self._after_paying(pay)
                if self._can_apply(card, phase, realm, pool):
                    actions.append(Action.spirit(card, pay))
        return actions

    def _payments(self) -> list[tuple[int, int] | None]:
        """R-SPIRIT-1: a face-up tile of the mover's Realm, or (None) a Shrine from the Shrine Pool."""
        options: list[tuple[int, int] | None] = list(sorted(self._realm.face_up))
        if self._pool > 0:
            options.append(None)
        return options

    def _after_paying(self, pay: tuple[int, int] | None) -> tuple[Realm, int]:
        """The mover's Realm and Shrine Pool as they would be after paying."""
        realm = self._realm.copy()
        if pay is None:
            return realm, self._pool - 1
        realm.discard_top(pay)
        return realm, self._pool

    def _can_apply(self, card: str, phase: Phase, realm: Realm, pool: int) -> bool:
        """R-SPIRIT-2 (docs/cards.md "Payment check"): whether the card's effect
        can be applied in ``phase`` on ``realm`` and ``pool`` as they are after paying."""
        castle, state = self.castle, self.cards
        room = len(realm.placeable())
        if card == "beauty":
            return bool(cards.beauty_groups(realm))
        if card == "elegance":
            if phase is Phase.ACTION:
                return bool(cards.elegance_first_picks(castle))
            return room >= 2 and bool(cards.elegance_second_picks(castle, self.held[0]))
        if card == "wind":
            return bool(realm.face_up) or bool(cards.shrine_sources(realm))
        if card == "deception":
            assert state.first_space is not None
            return room >= 2 and bool(cards.deception_picks(castle, state.first_space, state.first_floor))
        if card == "strength":
            return bool(cards.move_sources(realm, None))
        if card == "change":
            return bool(self._change_options(realm, pool))
        if card == "faith":  # a Shrine to build on a tile of this turn's sets, or of a set to come
            # R-PLACE-2: while tiles wait to be placed, a Shrine needs a free cell to spare.
            waiting = phase is Phase.PLACE or (phase is Phase.SHRINE and state.resume is Phase.PLACE)
            spare = not waiting or room > len(self.held_tiles)
            return pool >= 1 and ((spare and bool(self._set_cells() - realm.shrines)) or cards.waiting_sets(realm))
        if card == "destruction":
            return bool(cards.destroyable(castle))
        if card == "deep":
            return room >= 2 and bool(cards.deep_picks(castle, self.held[0], state.elegance))
        if card == "cunning":
            return bool(cards.cunning_groups(realm))
        raise AssertionError(card)

    def _change_options(self, realm: Realm, pool: int):
        """Change's choices; a group of 3 counts while Cunning is in play and unused."""
        with_cunning = "cunning" in self._spirits and "cunning" not in self.cards.used
        return cards.change_options(realm, pool, with_cunning)

    def _set_groups(self, realm: Realm) -> list[set[tuple[int, int]]]:
        """The groups the card in phase SET may Consolidate."""
        return cards.beauty_groups(realm) if self.cards.card == "beauty" else cards.cunning_groups(realm)

    def _wind_options(self) -> list[Action]:
        """Wind: the flip first (unless done), then lifting a Shrine; ``done``
        only once the flip happened."""
        realm, flipped = self._realm, self.cards.wind_flipped
        actions = [] if flipped else [Action.flip(cell) for cell in cards.wind_flips(realm)]
        actions += [Action.shrine_from(cell) for cell in cards.shrine_sources(realm)]
        if flipped:
            actions.append(Action(DONE))
        return actions
    #: What each phase expects, in the words of an illegal action's reason.
    EXPECTED_TEXT = {
        Phase.ACTION: "TAKE (first tile) or SUMMON", Phase.COMPLETE: "TAKE (second tile), TAKE_SHRINE or DISCARD",
        Phase.PLACE: "PLACE", Phase.SHRINE: "SHRINE or DONE", Phase.GAME_OVER: "nothing: the game is over",
        Phase.SPIRITS: "SPIRIT or DONE", Phase.DESTROY: "DESTROY", Phase.WIND: "FLIP, SHRINE_FROM or DONE",
        Phase.WIND_TO: "SHRINE_TO", Phase.STRENGTH: "MOVE_FROM or DONE", Phase.STRENGTH_TO: "MOVE_TO",
        Phase.SET: "SET", Phase.CHANGE: "CHANGE", Phase.CUNNING: "SPIRIT (Cunning)", Phase.END_TURN: "SPIRIT or DONE",
    }
    #: The base game's (phase, kind) pairs, and the Spirits' follow-ups.
    FITS = {(Phase.ACTION, ActionKind.TAKE), (Phase.ACTION, ActionKind.SUMMON), (Phase.COMPLETE, ActionKind.TAKE),
            (Phase.COMPLETE, ActionKind.TAKE_SHRINE), (Phase.COMPLETE, ActionKind.DISCARD), (Phase.PLACE, ActionKind.PLACE),
            (Phase.SHRINE, ActionKind.SHRINE), (Phase.SHRINE, ActionKind.DONE)}
    FOLLOW_UPS = {(Phase.SPIRITS, ActionKind.DONE), (Phase.END_TURN, ActionKind.DONE), (Phase.DESTROY, ActionKind.DESTROY),
                  (Phase.WIND, ActionKind.FLIP), (Phase.WIND, ActionKind.SHRINE_FROM), (Phase.WIND, ActionKind.DONE),
                  (Phase.WIND_TO, ActionKind.SHRINE_TO), (Phase.STRENGTH, ActionKind.MOVE_FROM), (Phase.STRENGTH, ActionKind.DONE),
                  (Phase.STRENGTH_TO, ActionKind.MOVE_TO), (Phase.SET, ActionKind.SET), (Phase.CHANGE, ActionKind.CHANGE)}

    def _why_illegal(self, action: Action) -> str:
        """Why ``action`` is not legal now, in a player's words (the Rust
        engine's wording, so both engines give the same message)."""
        expected = self.EXPECTED_TEXT[self.phase]
        kind = action.kind
        if kind is ActionKind.SPIRIT:
            card = action.card
            if card not in self._spirits:
                return f"the Spirit of {card} is not in play"
            if card in self.cards.used:
                return f"the Spirit of {card} was already activated this turn (R-SPIRIT-1)"
            return (f"the Spirit of {card} cannot be activated now: a pick is pending, the payment is missing, "
                    "or its effect could not apply after paying (R-SPIRIT-1, R-SPIRIT-2)")
        if (self.phase, kind) in self.FOLLOW_UPS:
            return f"{action} is not one of this Spirit's choices now (docs/cards.md)"
        if (self.phase, kind) not in self.FITS:
            return f"this phase expects {expected}"
        if self.cards.pick_pending:
            return "a Spirit's pick is pending: the next pick must use it (docs/cards.md)"
        realm = self._realm
        if kind is ActionKind.TAKE:
            r, c = action.target
            tile = self.castle.top(action.target)
            if tile is None:
                return f"castle space ({r},{c}) holds no tile"
            if not self.castle.is_available(action.target):
                return f"{tile} at ({r},{c}) is not Available: both long sides are blocked (R-AVAIL-1)"
            if self.phase is Phase.ACTION:
                return f"{tile} at ({r},{c}) is on floor {self.castle.height(action.target)}, not the top floor {self.top_floor} (R-ACT-1)"
            if tile != self.held[0]:
                return f"{tile} is not identical to the first tile {self.held[0]} (R-TILE-2)"
            return "your Realm has fewer than 2 spaces to place a pair (R-PLACE-2)"
        if kind is ActionKind.SUMMON:
            if self.top_floor > 1:
                return f"the castle still has tiles above the ground floor (top floor {self.top_floor}) (R-ACT-5)"
            return "no Countdown token is left"
        if kind is ActionKind.TAKE_SHRINE:
            if self.general_shrines == 0:
                return "the general pool has no Shrine (R-ACT-2)"
            return "your Realm has no space for the tile (R-PLACE-2)"
        if kind is ActionKind.PLACE:
            if action.target not in realm.placeable():
                return "that cell holds a face-up tile or a Shrine (R-PLACE-1)"
            return "two identical tiles are placed lower cell first (R-PLACE-3)"
        if kind is ActionKind.SHRINE:
            if self._pool == 0:
                return "your Shrine Pool is empty"
            return ("that cell is not a tile of a set Consolidated this turn with Shrine allowance left, "
                    "or has a Shrine (R-SHRINE-1)")
        return f"not legal now; this phase expects {expected}"
