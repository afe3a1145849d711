"""Scores (R-END-2, R-END-3; the Dragon cards' in ``dragons.py``), returns,
and the solo game's rank and Dragon of Ingenuity (R-SOLO-1..5)."""

from __future__ import annotations

from typing import Any

from . import dragons, solo
from .actions import DISCARD, SUMMON, Action
from .phase import Phase
from .state import GameState

#: R-SOLO-1: solo with any card in play (the Spirits & Dragons variant).
SOLO_VARIANT = -15


class Scoring(GameState):
    """The part of :class:`~dragoncastle.reference.game.Game` that scores."""

    # ------------------------------------------------------------ solo

    def rank(self) -> str:
        """Solo: the rank of the current (final, once over) score (R-SOLO-5)."""
        if not self.is_solo:
            raise ValueError("rank() is for solo games (players=1)")
        return solo.rank(self.scores()[0])

    def dragon_action(self) -> Action | None:
        """What the Dragon of Ingenuity would do as the seat to move (docs/solo.md)."""
        if self.phase is Phase.ACTION:
            return Action(SUMMON) if self._can_summon() else solo.first_pick(self)
        if self.phase is Phase.COMPLETE:
            pair = solo.second_pick(self, self.held[0])
            return pair if pair is not None and pair in self.legal_actions() else Action(DISCARD)
        legal = self.legal_actions()
        return legal[0] if legal else None

    # ------------------------------------------------------------ scores

    def score_breakdown(self, player: int) -> dict[str, Any]:
        """R-END-2: VP tokens + Shrines + 2 per Countdown token + Dragon cards
        (always current); solo with cards: -15 (R-SOLO-1)."""
        seat = self._seat(player)
        vp, shrines, countdown = self.vp[seat], self.realms[seat].shrine_points(), 2 * self.countdown[seat]
        bonuses = self.dragon_bonuses(seat)
        breakdown: dict[str, Any] = {"vp": vp, "shrines": shrines, "countdown": countdown, "dragons": bonuses}
        total = vp + shrines + countdown + sum(bonuses.values())
        if self.is_solo and self.has_cards:
            breakdown["variant"] = SOLO_VARIANT
            total += SOLO_VARIANT
        breakdown["total"] = total
        return breakdown

    def dragon_bonuses(self, player: int) -> dict[str, int]:
        """R-DRAGON-1..10: each Dragon card in play, in card order, for ``player``."""
        seat = self._seat(player)
        return {card: dragons.dragon_points(card, self.realms, seat) for card in self._dragons}

    def returns(self) -> list[float]:
        """One utility per seat (OpenSpiel's ``Returns()``): all 0 while the game
        runs; at the end 1 for a win, split among tied winners, 0 otherwise.
        Solo: the final score / 100."""
        if not self.is_over:
            return [0.0] * self.players
        if self.is_solo:
            return [self.scores()[0] / 100]
        winners = self.winners()
        return [1 / len(winners) if p in winners else 0.0 for p in range(self.players)]

    def scores(self) -> list[int]:
        """Current (or final) scores by seat (R-END-2)."""
        return [self.score_breakdown(p)["total"] for p in range(self.players)]

    def winners(self) -> list[int]:
        """R-END-3: score, then face-down stacks, then Shrines; else shared."""
        def key(p: int) -> tuple[int, int, int]:
            realm = self.realms[p]
            return (self.score_breakdown(p)["total"], realm.face_down_stacks(), len(realm.shrines))

        best = max(key(p) for p in range(self.players))
        return [p for p in range(self.players) if key(p) == best]
