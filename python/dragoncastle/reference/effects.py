"""The Spirits' effects (R-SPIRIT-1..2, docs/cards.md): paying, and each
card's effect once activated; the cards' tables and questions are in
``cards.py``."""

from __future__ import annotations

from . import cards
from .phase import Phase
from .realm import ConsolidatedSet, set_vp, shrine_allowance
from .state import GameState
from .tiles import TileType


class SpiritEffects(GameState):
    """The part of :class:`~dragoncastle.reference.game.Game` that applies the Spirits."""

    # ------------------------------------------------------------ Spirits

    def _activate(self, card: str, pay: tuple[int, int] | None) -> None:
        """R-SPIRIT-1, R-SPIRIT-2: pay, mark the card used, remember the phase
        it was activated in (and whether it came between two placements), and
        start its effect."""
        state = self.cards
        self._pay(pay)
        state.used.add(card)
        state.card, state.origin = card, self.phase
        if self.phase is Phase.PLACE and len(self.held) == 2 and self.placed == 1:
            state.between = True
        if card == "elegance":
            state.elegance = state.elegance_pick = True
        elif card == "deception":
            state.second_pick = cards.DECEPTION
        elif card == "deep":
            state.second_pick = cards.DEEP
        elif card == "faith":
            state.faith_extra = 1
            self._effect_complete()
        else:
            self.phase = {"beauty": Phase.SET, "cunning": Phase.SET, "wind": Phase.WIND, "strength": Phase.STRENGTH,
                          "change": Phase.CHANGE, "destruction": Phase.DESTROY}[card]

    def _pay(self, pay: tuple[int, int] | None) -> None:
        """R-SPIRIT-1: a face-up tile of the Realm leaves the game (the tile under
        it becomes the top); a Shrine from the Shrine Pool goes back to the
        general pool."""
        seat = self.current_player
        if pay is None:
            self.pools[seat] -= 1
            self.general_shrines += 1
        else:
            self._realm.discard_top(pay)
            self.discarded += 1

    def _effect_complete(self) -> None:
        """After Faith, Destruction, Wind, Strength, Beauty, Cunning or Change:
        Consolidate at once, then the Shrine step, and play resumes where the
        card was activated."""
        origin = self.cards.origin
        assert origin is not None
        self._settle(origin)

    def _destroy(self, space: tuple[int, int]) -> None:
        """Destruction: an Available castle tile leaves the game."""
        self.castle.remove_top(space)
        self.discarded += 1
        self._effect_complete()

    def _wind_flip(self, cell: tuple[int, int]) -> None:
        """Wind: a face-up tile turns face down (no VP, not a set); the card ends
        when no Shrine can move."""
        self._realm.flip_down({cell})
        self.cards.wind_flipped = True
        if not cards.shrine_sources(self._realm):
            self._effect_complete()

    def _wind_move(self, cell: tuple[int, int]) -> None:
        """Wind: the lifted Shrine goes on another face-down top without a Shrine."""
        realm, state = self._realm, self.cards
        assert state.lifted is not None
        realm.shrines.remove(state.lifted)
        realm.shrines.add(cell)
        state.lifted = None
        self._effect_complete()

    def _strength_move(self, cell: tuple[int, int]) -> None:
        """Strength: the lifted top tile goes on ``cell``, keeping its side; a set
        tile takes its set along, a covered set tile leaves its set; a face-up
        tile's new cell is remembered (between two placements only its groups
        are Consolidated). After two moves, or when no second move is possible,
        the card ends by itself."""
        state = self.cards
        source = state.lifted
        assert source is not None
        self._cover(cell)
        self._realm.move_top(source, cell)
        for s in self.sets:
            if source in s.cells:
                s.cells.discard(source)
                s.cells.add(cell)
        if cell in self._realm.face_up:
            state.moved |= {cell}
        state.lifted = None
        state.strength_moves += 1
        state.strength_last = cell
        # The card ends by itself after two moves, or when no second move is possible.
        if state.strength_moves == 2 or not cards.move_sources(self._realm, cell):
            self._effect_complete()
        else:
            self.phase = Phase.STRENGTH

    def _consolidate_named_set(self, cell: tuple[int, int]) -> None:
        """Beauty (same number, size VP + 1, 2 Shrines) or Cunning (exactly 3 of
        a type, 2 VP + 1 for Dragons, Shrines by type): the group named by its
        lowest cell is Consolidated."""
        realm = self._realm
        group = next(g for g in self._set_groups(realm) if cards.lowest(g) == cell)
        if self.cards.card == "beauty":
            self._make_set(group, None, set_vp(len(group)) + 1, 2)
        else:
            kind = realm.face_up[cell].type
            self._make_cunning_set(group, kind)
        self._effect_complete()

    def _make_set(self, group: set[tuple[int, int]], kind: TileType | None, vp: int, allowance: int) -> None:
        self._realm.flip_down(group)
        self.vp[self.current_player] += vp
        self.sets.append(ConsolidatedSet(set(group), kind, allowance))

    def _make_cunning_set(self, group: set[tuple[int, int]], kind: TileType) -> None:
        """Cunning: 2 VP (+1 for Dragons, R-CONS-3); Shrines by its type."""
        bonus = 1 if self.rules.dragon_set_bonus and kind is TileType.DRAGON else 0
        self._make_set(group, kind, 2 + bonus, shrine_allowance(kind))

    def _change(self, cell: tuple[int, int], kind: TileType) -> None:
        """Change: the Special tile on ``cell`` counts as ``kind``; its group of 4
        or more is Consolidated as that type; a group of 3 waits for Cunning."""
        group = next(g for c, k, g in self._change_options(self._realm, self._pool) if c == cell and k is kind)
        if len(group) >= 4:
            bonus = 1 if self.rules.dragon_set_bonus and kind is TileType.DRAGON else 0
            self._make_set(group, kind, set_vp(len(group)) + bonus, shrine_allowance(kind))
            self._effect_complete()
        else:
            self.cards.change_group, self.cards.change_type = frozenset(group), kind
            self.phase = Phase.CUNNING

    def _cunning_after_change(self, pay: tuple[int, int] | None) -> None:
        """Cunning, activated for Change's group of 3 (paid outside it): a Cunning
        set of the changed type; Change's effect is then complete."""
        state = self.cards
        group, kind = set(state.change_group), state.change_type
        assert kind is not None
        self._pay(pay)
        state.used.add("cunning")
        state.change_group, state.change_type = frozenset(), None
        self._make_cunning_set(group, kind)
        self._effect_complete()
