"""A game of Dragon Castle in plain Python: the turn, its decisions, the end.

Written to be read beside the rules: each method is one rule, named after it.
:class:`Game` is made of one part of the rules per module: the setup and the
state (``state.py``), the legal actions (``legal.py``), the turn (``turn.py``),
the Spirits' effects (``effects.py``), scores and the solo game
(``scoring.py``), copies and JSON (``serial.py``); this module adds hidden
information, the invariants and the pictures. With Spirit cards the turn
follows docs/cards.md "The turn with cards, step by step"; the cards' tables
and questions are in ``cards.py``, the Dragon cards' scoring in ``dragons.py``.
"""

from __future__ import annotations

from typing import Any

from . import cards
from .effects import SpiritEffects
from .legal import LegalActions
from .observe import OBSERVATION_VERSION, compact_observation, observation, observation_tensor
from .phase import Phase
from .render import svg, text
from .rng import SplitMix64
from .scoring import SOLO_VARIANT, Scoring  # noqa: F401 (re-exported)
from .serial import JSON_FORMAT, JSON_VERSION, Serialisation  # noqa: F401 (re-exported)
from .state import COUNTDOWN_TOKENS, SHRINES, Rules, check_deal, seeded_deal  # noqa: F401 (re-exported)
from .tiles import CODES
from .turn import TurnPhases


class Game(LegalActions, TurnPhases, SpiritEffects, Scoring, Serialisation):
    """The same game as ``dragoncastle.Game``, in pure Python."""

    # ------------------------------------------------------------ hidden information

    def observation(self, player: int | None = None) -> dict[str, Any]:
        """What ``player`` (default: the player to move) may know."""
        return observation(self, self._observer(player))

    def observation_tensor(self, player: int | None = None, version: int = OBSERVATION_VERSION):
        """The observation as planes (docs/observation.md, docs/cards.md);
        versions 1 and 2 are its first 247 and 302 planes."""
        return observation_tensor(self, self._observer(player), version)

    def compact_observation(self, player: int | None = None):
        """The planes' information as ``COMPACT_OBSERVATION_SIZE`` bytes
        (docs/observation.md, "Compact encoding")."""
        return compact_observation(self, self._observer(player))

    def _observer(self, player: int | None) -> int:
        if player is None:  # the player to move (seat 0 while the solo Dragon is)
            player = self.current_player if self.current_player < self.players else 0
        return self._seat(player)

    def covered_positions(self) -> list[tuple[tuple[int, int], int]]:
        """(space, floor) of every tile below a top tile, in dealing order."""
        return [(space, floor) for space in self.castle.spaces() for floor in range(1, self.castle.height(space))]

    def hidden_counts(self) -> dict[str, int]:
        """How many copies of each tile code lie covered in the castle (hidden information)."""
        counts: dict[str, int] = {}
        for space, floor in self.covered_positions():
            code = self.castle.stacks[space][floor - 1].code
            counts[code] = counts.get(code, 0) + 1
        return counts

    def determinize(self, seed: int) -> "Game":
        """A copy with the covered tiles re-dealt among the covered positions
        (docs/seeding.md). The deal gets the same tiles, and undo replays from
        it, so undoing in the copy never shows the true covered tiles."""
        # As the Rust engine: a seed is an unsigned 64-bit integer.
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise TypeError(f"{type(seed).__name__!r} object cannot be interpreted as an integer")
        if not 0 <= seed < 2**64:
            raise OverflowError("can't convert negative int to unsigned" if seed < 0 else "int too big to convert")
        positions = self.covered_positions()
        # In code order first, so that nothing of the true order is left.
        tiles = sorted(self.castle.stacks[space][floor - 1] for space, floor in positions)
        SplitMix64(seed).shuffle(tiles)
        game = self.clone()
        game.seed, game.deal = None, list(self.deal)
        for (space, floor), tile in zip(positions, tiles):
            game.castle.stacks[space][floor - 1] = tile
            game.deal[self._deal_index(space, floor)] = tile
        return game

    def _deal_index(self, space: tuple[int, int], floor: int) -> int:
        r, c = space
        before = sum(sum(row) for row in self.layout.heights[:r]) + sum(self.layout.heights[r][:c])
        return before + floor - 1

    def check_invariants(self) -> None:
        """Recount tiles (tiles paid for Spirits and destroyed are discarded),
        Shrines (those paid went back to the general pool) and tokens; check the
        Realms and the turn's card memory."""
        tiles = (self.castle.remaining() + self.discarded + len(self.held_tiles) + sum(self.dragon_tiles.values())
                 + sum(sum(r.heights.values()) for r in self.realms))
        if tiles != 116:
            raise AssertionError(f"{tiles} tiles accounted for, not 116")
        shrines = self.general_shrines + sum(self.pools) + sum(len(r.shrines) for r in self.realms)
        if shrines != SHRINES:
            raise AssertionError(f"{shrines} Shrines accounted for, not {SHRINES}")
        if min(self.pools + [self.general_shrines]) < 0:
            raise AssertionError("a negative Shrine count")
        if sum(self.countdown) != self.tokens_taken or self.end_triggered != (self.tokens_taken >= self.track):
            raise AssertionError("Countdown tokens do not add up")
        for realm in self.realms:
            if realm.shrines & set(realm.face_up) or any(realm.heights[c] == 0 for c in realm.shrines | set(realm.face_up)):
                raise AssertionError("a Shrine or a face-up flag on an impossible cell")
            if min(realm.heights.values()) < 0:
                raise AssertionError("a negative stack height")
        if not self.is_over:
            self._check_turn()
            if not self.legal_actions():
                raise AssertionError("no legal action in a running game")

    def _check_turn(self) -> None:
        """The turn's card memory agrees with the phase and the mover's Realm."""
        state, realm, phase = self.cards, self._realm, self.phase
        if not state.used <= set(self.spirits):
            raise AssertionError("a Spirit used that is not in play")
        cells = [cell for s in self.sets for cell in s.cells]
        if len(cells) != len(set(cells)) or not all(realm.is_face_down(cell) for cell in cells):
            raise AssertionError("this turn's sets hold a cell twice or a cell whose top is not face down")
        if (state.lifted is not None) != (phase in (Phase.WIND_TO, Phase.STRENGTH_TO)):
            raise AssertionError("a lifted cell outside WIND_TO / STRENGTH_TO")
        if phase is Phase.WIND_TO and state.lifted not in realm.shrines:
            raise AssertionError("Wind lifted a Shrine that is not there")
        if phase is Phase.STRENGTH_TO and (state.lifted is None or realm.heights[state.lifted] == 0):
            raise AssertionError("Strength lifted a tile that is not there")
        if bool(state.change_group) != (phase is Phase.CUNNING):
            raise AssertionError("Change's group waits outside phase CUNNING")
        if state.pick_pending and phase not in (Phase.ACTION, Phase.COMPLETE):
            raise AssertionError("a pick pending outside ACTION / COMPLETE")
        if state.second_pick != cards.IDENTICAL and phase is not Phase.COMPLETE:
            raise AssertionError("a second-pick mode outside COMPLETE")
        if phase in (Phase.COMPLETE, Phase.PLACE) and not self.held:
            raise AssertionError("no tile in hand in COMPLETE / PLACE")
        if phase in cards.DECISION_POINTS and phase is not Phase.SHRINE and any(s.allowance for s in self.sets):
            raise AssertionError("a Shrine allowance outlived its Shrine step")
        if phase in (Phase.SPIRITS, Phase.END_TURN) and self.held_tiles:
            raise AssertionError("a tile in hand after the placements")
        if state.between and not (len(self.held) == 2 and self.placed >= 1):
            raise AssertionError("a Spirit between two placements without two tiles")

    # ------------------------------------------------------------ pictures

    def __str__(self) -> str:
        return text(self)

    def __repr__(self) -> str:
        return (f"<Game players={self.players} seed={self.seed} turn={self.turn} phase={self.phase.name} "
                f"current_player={self.current_player} scores={self.scores()}>")

    def _repr_svg_(self) -> str:
        return svg(self)


__all__ = ["Game", "Rules", "CODES", "seeded_deal"]
