"""The turn (docs/cards.md "The turn with cards, step by step"): applying an
action, the Action (R-ACT), placing (R-PLACE), Consolidation and Shrines
(R-CONS, R-SHRINE), the solo Dragon's turn (R-SOLO-2..4), the end of a turn
(R-END-1), and undo."""

from __future__ import annotations

from typing import Any

from . import cards, solo
from .actions import DONE, SUMMON, Action, ActionKind, IllegalActionError
from .phase import Phase
from .state import GameState


class TurnPhases(GameState):
    """The part of :class:`~dragoncastle.reference.game.Game` that plays a turn."""

    # ------------------------------------------------------------ applying

    def apply(self, action: Any) -> None:
        """Apply an Action, an id or a text; an illegal one raises and changes nothing."""
        action = Action(action)
        if action not in self.legal_actions():
            reason = self._why_illegal(action)
            raise IllegalActionError(f'illegal action "{action}" in phase {self.phase.name}: {reason}',
                                     action=str(action), phase=self.phase.name, reason=reason)
        self._play(action)
        self.history.append(action)
        self.history_by_dragon.append(False)
        if self.is_solo and self.current_player == 1 and not self.is_over:
            self._dragon_turn()

    def _dragon_turn(self) -> None:
        """R-SOLO-2..4: the Dragon of Ingenuity Summons as soon as it may, else
        picks by its priorities and completes a pair when it can; its tiles
        leave the game. Its actions are recorded in the history."""
        if self._can_summon():
            moves = [Action(SUMMON)]
        else:
            first = solo.first_pick(self)
            assert first is not None  # a non-empty castle always has a top-floor pick
            tile = self.castle.remove_top(first.target)
            self.turn_pick = tile.type
            second = solo.second_pick(self, tile)
            taken = [tile]
            if second is not None:
                taken.append(self.castle.remove_top(second.target))
            for t in taken:
                self.dragon_tiles[t.code] = self.dragon_tiles.get(t.code, 0) + 1
            moves = [first, second if second is not None else Action(DONE)]
        if moves[0].kind is ActionKind.SUMMON:
            self.countdown[1] += 1
            self._take_countdown_token()
        self.history += moves
        self.history_by_dragon += [True] * len(moves)
        self._end_turn()
    def _play(self, action: Action) -> None:
        seat = self.current_player
        kind = action.kind
        if kind is ActionKind.TAKE:
            if self.phase is Phase.ACTION:
                self._first_pick(action.target)
            else:
                self._second_pick(action.target)
        elif kind is ActionKind.TAKE_SHRINE:
            self.general_shrines -= 1
            self.pools[seat] += 1
            self.phase = Phase.PLACE
        elif kind is ActionKind.DISCARD:
            self.held.clear()
            self.discarded += 1
            self.vp[seat] += 1
            self._action_complete()
        elif kind is ActionKind.SUMMON:
            self.countdown[seat] += 1
            self._take_countdown_token()
            self._action_complete()
        elif kind is ActionKind.PLACE:
            self._place(action.target)
        elif kind is ActionKind.SHRINE:
            self._build_shrine(action.target)
        elif kind is ActionKind.DONE:
            self._done()
        elif kind is ActionKind.SPIRIT:
            assert action.card is not None
            if self.phase is Phase.CUNNING:
                self._cunning_after_change(action.pay_cell)
            else:
                self._activate(action.card, action.pay_cell)
        elif kind is ActionKind.DESTROY:
            self._destroy(action.target)
        elif kind is ActionKind.FLIP:
            self._wind_flip(action.target)
        elif kind is ActionKind.SHRINE_FROM:
            self.cards.lifted = action.target
            self.phase = Phase.WIND_TO
        elif kind is ActionKind.SHRINE_TO:
            self._wind_move(action.target)
        elif kind is ActionKind.MOVE_FROM:
            self.cards.lifted = action.target
            self.phase = Phase.STRENGTH_TO
        elif kind is ActionKind.MOVE_TO:
            self._strength_move(action.target)
        elif kind is ActionKind.SET:
            self._consolidate_named_set(action.target)
        elif kind is ActionKind.CHANGE:
            assert action.tile_type is not None
            self._change(action.target, action.tile_type)

    # ------------------------------------------------------------ the Action

    def _first_pick(self, space: tuple[int, int]) -> None:
        """R-ACT-1..4: the first tile in hand; its space and floor are
        remembered (Deception), its type is what the solo Dragon follows
        (R-SOLO-3, the first pick's type), a pending Elegance pick is used."""
        state = self.cards
        state.first_space, state.first_floor = space, self.castle.height(space)
        self.held.append(self.castle.remove_top(space))
        self.turn_pick = self.held[0].type
        state.elegance_pick = False
        state.second_pick = cards.IDENTICAL
        self.phase = Phase.COMPLETE

    def _second_pick(self, space: tuple[int, int]) -> None:
        """R-ACT-1 (or Elegance, Deception, Deep): the second tile of a Pair."""
        self.held.append(self.castle.remove_top(space))
        self.cards.elegance_pick = False
        self.cards.second_pick = cards.IDENTICAL
        self.phase = Phase.PLACE

    def _place(self, cell: tuple[int, int]) -> None:
        """R-PLACE-1; a set tile of this turn that gets covered leaves its set."""
        self._cover(cell)
        self._realm.place(cell, self.held[self.placed])
        if self.placed == 0:
            self.first_cell = cell
        self.placed += 1
        if self.placed == len(self.held):
            self._action_complete()

    def _cover(self, cell: tuple[int, int]) -> None:
        """Sets follow their tiles: a tile covered on ``cell`` leaves its set."""
        for s in self.sets:
            s.cells.discard(cell)

    def _action_complete(self) -> None:
        """After the last placement (or a Discard or a Summon): phase SPIRITS if
        a Spirit can be activated there, else the Consolidation step."""
        if self._activations(Phase.SPIRITS):
            self.phase = Phase.SPIRITS
        else:
            self._settle(cards.END)

    def _take_countdown_token(self) -> None:
        """R-END-1: the last token of the track (N-th; 3rd in solo) shows the mark."""
        self.tokens_taken += 1
        if self.tokens_taken == self.track:
            self.end_triggered = True

    # ------------------------------------------------------------ Consolidation and Shrines

    def _settle(self, origin: Phase) -> None:
        """R-CONS-1..4 after a Spirit's effect, or as the Consolidation step
        (``origin`` END): Consolidate, then the Shrine step (R-SHRINE-1) if a
        Shrine can be built. Between two placements only the groups holding a
        tile that this effect's Strength moves put face up are Consolidated
        (the others wait for the Consolidation step); otherwise every group of
        4 or more. A Spirit activated during a Shrine step keeps that step's
        resume target; any other origin becomes it."""
        state = self.cards
        between = len(self.held) == 2 and self.placed == 1
        new_sets, vp = self._realm.consolidate(self.rules.dragon_set_bonus, state.moved if between else None)
        self.vp[self.current_player] += vp
        self.sets += new_sets
        state.card, state.origin, state.moved = None, None, frozenset()
        if origin is not Phase.SHRINE:
            state.resume = origin
        if self._shrine_cells():
            self.phase = Phase.SHRINE
        else:
            self._leave_shrine_step()

    def _build_shrine(self, cell: tuple[int, int]) -> None:
        """R-SHRINE-1: a set's own allowance first, else Faith's extra Shrine;
        the Shrine step ends when no Shrine can be built."""
        self.pools[self.current_player] -= 1
        self._realm.shrines.add(cell)
        owner = next(s for s in self.sets if cell in s.cells)
        if owner.allowance > 0:
            owner.allowance -= 1
        else:
            self.cards.faith_extra = 0
        if not self._shrine_cells():
            self._leave_shrine_step()

    def _leave_shrine_step(self) -> None:
        """Leaving a Shrine step ends the allowances of the sets so far; play
        resumes where the step resumes."""
        for s in self.sets:
            s.allowance = 0
        target, self.cards.resume = self.cards.resume, cards.END
        self._resume(target)

    def _resume(self, target: Phase) -> None:
        """Back where the Spirit was activated: ACTION, COMPLETE or PLACE as they
        were; SPIRITS if a Spirit can still be activated there, else on as after
        the Consolidation step (the Realm was just Consolidated); after the
        Consolidation step (END) or in END_TURN, phase END_TURN if a Spirit can
        still be activated, else the turn ends."""
        if target in (Phase.ACTION, Phase.COMPLETE, Phase.PLACE):
            self.phase = target
        elif target is Phase.SPIRITS and self._activations(Phase.SPIRITS):
            self.phase = Phase.SPIRITS
        elif self._activations(Phase.END_TURN):
            self.phase = Phase.END_TURN
        else:
            self._end_turn()

    def _done(self) -> None:
        """``done``: leave the Shrine step; in SPIRITS go on to the Consolidation
        step; in END_TURN end the turn; end Wind or Strength."""
        if self.phase is Phase.SHRINE:
            self._leave_shrine_step()
        elif self.phase is Phase.SPIRITS:
            # The Consolidation step; without a set, END_TURN would offer the
            # very position SPIRITS just did, so the turn ends.
            before = len(self.sets)
            self._settle(cards.END)
            if self.phase is Phase.END_TURN and len(self.sets) == before:
                self._end_turn()
        elif self.phase is Phase.END_TURN:
            self._end_turn()
        else:
            self._effect_complete()
    # ------------------------------------------------------------ the end of a turn

    def _end_turn(self) -> None:
        """R-END-1: once triggered, the game ends after the last seat's turn
        (in solo the Dragon of Ingenuity's)."""
        self.last_pick[self.current_player] = self.turn_pick
        self.turn_pick = None
        self.held, self.placed, self.first_cell, self.sets = [], 0, (0, 0), []
        self.cards = cards.TurnState()
        self.turn += 1
        if self.end_triggered and self.current_player == self.seats - 1:
            self.phase = Phase.GAME_OVER
        else:
            self.current_player = (self.current_player + 1) % self.seats
            self.phase = Phase.ACTION

    def undo(self) -> Action:
        """Revert the last player's action (and the Dragon's turn it caused) by
        replaying the others from the deal."""
        mine = [a for a, by_dragon in zip(self.history, self.history_by_dragon) if not by_dragon]
        if not mine:
            raise IndexError("undo: no action to undo")
        if len(mine) <= self._undo_floor:
            raise IndexError("undo: this copy was made with clone(history=False) and cannot undo past that point")
        self._start()
        for action in mine[:-1]:
            self.apply(action)
        return mine[-1]
