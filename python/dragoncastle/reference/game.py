"""A game of Dragon Castle in plain Python: the turn, its decisions, the end.

Written to be read beside the rules: each method is one rule, named after it.
With Spirit cards the turn follows docs/cards.md "The turn with cards, step by
step"; the cards' tables and questions are in ``cards.py``, the Dragon cards'
scoring in ``dragons.py``.
"""

from __future__ import annotations

import json
import random
from typing import Any, Iterable

from .actions import (
    DISCARD, DONE, DRAGONS, SPIRITS, SUMMON, TAKE_SHRINE, Action, ActionKind, IllegalActionError, NUM_ACTIONS,
)
from .castle import Castle
from . import cards, dragons, solo
from .layout import Layout
from .observe import OBSERVATION_VERSION, compact_observation, observation, observation_tensor
from .phase import Phase
from .realm import CELLS, ConsolidatedSet, Realm, set_vp, shrine_allowance
from .render import svg, text
from .rng import SplitMix64
from .tiles import CODES, TILES, Tile, TileType

SHRINES = 40  # R-POOL-1
COUNTDOWN_TOKENS = 7
JSON_FORMAT, JSON_VERSION = "dragoncastle-game", 3
#: R-SOLO-1: solo with any card in play (the Spirits & Dragons variant).
SOLO_VARIANT = -15


class Rules:
    """Rule options: ``Rules(dragon_set_bonus=True)`` (R-CONS-3)."""

    def __init__(self, *, dragon_set_bonus: bool = True) -> None:
        self.dragon_set_bonus = bool(dragon_set_bonus)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Rules) and other.dragon_set_bonus == self.dragon_set_bonus

    def __hash__(self) -> int:
        return hash(self.dragon_set_bonus)

    def __repr__(self) -> str:
        return f"Rules(dragon_set_bonus={self.dragon_set_bonus})"


def seeded_deal(seed: int) -> list[Tile]:
    """R-SEED-1: the 116 tiles in code order, shuffled by SplitMix64(seed) (docs/seeding.md)."""
    deal = [tile for tile in TILES for _ in range(4)]
    SplitMix64(seed).shuffle(deal)
    return deal


def check_deal(deal: list[Tile]) -> None:
    """R-TILE-1: each of the 29 codes exactly 4 times."""
    if len(deal) != 116:
        raise ValueError(f"a deal has {len(deal)} tiles, not 116")
    for tile in TILES:
        if deal.count(tile) != 4:
            raise ValueError(f"the deal has {deal.count(tile)} copies of {tile}; each code must appear exactly 4 times")


class Game:
    """The same game as ``dragoncastle.Game``, in pure Python."""

    def __init__(self, players: int = 2, seed: int | None = None, *, spirits: Any = None, dragons: Any = None,
                 layout: Layout | str | None = None, rules: Rules | None = None, deal: Iterable[str] | None = None) -> None:
        # A bool is an int to Python, but True players or seed is a mistake.
        if isinstance(players, bool):
            raise ValueError(f"expected an integer, not a bool ({players})")
        if not isinstance(players, int):
            raise ValueError(f"expected an integer; got {players}")
        if not 1 <= players <= 4:
            raise ValueError(f"players must be 1 (solo) to 4; got {players}")
        if seed is None:
            seed = random.SystemRandom().getrandbits(64)
        if isinstance(seed, bool):
            raise ValueError("seed must be an integer in 0..2**64; got a bool")
        if not isinstance(seed, int) or not 0 <= seed < 2**64:
            raise ValueError("seed must be an integer in 0..2**64")
        # R-SETUP-3: the cards in play, by name or drawn from the seed (docs/cards.md "The draw").
        spirit_order, dragon_order = cards.draw_order(seed)
        self._spirits = tuple(cards.cards_in_play("spirits", SPIRITS, spirits, spirit_order))
        self._dragons = tuple(cards.cards_in_play("dragons", DRAGONS, dragons, dragon_order))
        if layout is None:
            layout = Layout.for_players(players)
        elif isinstance(layout, str):
            layout = Layout.parse(layout) if "\n" in layout else Layout.standard(layout)
        if deal is None:
            self.seed: int | None = seed
            self.deal = seeded_deal(seed)
        else:
            self.seed = None
            self.deal = [Tile(code) for code in deal]
            check_deal(self.deal)
        self.players = players
        self.layout = layout
        if rules is not None and not isinstance(rules, Rules):
            raise TypeError(f"{type(rules).__name__!r} object is not an instance of 'Rules'")
        self.rules = rules or Rules()
        # Set by clone(history=False): how many of the player's actions undo
        # may not revert (the Rust engine keeps no undo states for them).
        self._undo_floor = 0
        self._start()

    @property
    def is_solo(self) -> bool:
        """True for a solo game against the Dragon of Ingenuity."""
        return self.players == 1

    @property
    def seats(self) -> int:
        """Seats taking turns: in solo the player and the Dragon of Ingenuity (seat 1)."""
        return 2 if self.is_solo else self.players

    @property
    def spirits(self) -> list[str]:
        """The Spirit cards in play, in card order (``SPIRITS``)."""
        return list(self._spirits)

    @property
    def dragons(self) -> list[str]:
        """The Dragon cards in play, in card order (``DRAGONS``)."""
        return list(self._dragons)

    @property
    def has_cards(self) -> bool:
        """Any Spirit or Dragon card in play (in solo: the Spirits & Dragons variant)."""
        return bool(self._spirits or self._dragons)

    def previous_seat(self) -> int:
        """The seat that moved before the seat to move."""
        return (self.current_player - 1) % self.seats

    def _start(self) -> None:
        """R-SETUP-1..4 (R-SOLO-1): deal the castle, one Shrine each, seat 0 first."""
        n = self.players
        self.castle = Castle(self.layout, self.deal)
        self.realms = [Realm() for _ in range(n)]
        self.pools = [1] * n
        self.vp = [0] * n
        self.countdown = [0] * self.seats  # the Dragon of Ingenuity's Summons take tokens too
        self.track = solo.SOLO_TRACK if self.is_solo else n
        self.last_pick: list[TileType | None] = [None] * self.seats
        self.turn_pick: TileType | None = None
        self.dragon_tiles: dict[str, int] = {}
        self.history_by_dragon: list[bool] = []
        self.general_shrines = SHRINES - n
        self.tokens_taken = 0
        self.end_triggered = False
        self.discarded = 0
        self.turn = 0
        self.current_player = 0
        self.phase = Phase.ACTION
        self.held: list[Tile] = []
        self.placed = 0
        self.first_cell = (0, 0)
        self.sets: list[ConsolidatedSet] = []
        self.cards = cards.TurnState()
        self.history: list[Action] = []

    # ------------------------------------------------------------ queries

    @property
    def is_over(self) -> bool:
        """True once the game has ended (R-END-1)."""
        return self.phase is Phase.GAME_OVER

    @property
    def top_floor(self) -> int:
        """The top floor: the greatest stack height in the castle (R-AVAIL-2)."""
        return self.castle.top_floor()

    @property
    def castle_shape(self) -> tuple[int, int]:
        """``(rows, cols)`` of the castle grid."""
        return (self.castle.rows, self.castle.cols)

    @property
    def castle_tiles(self) -> int:
        """Tiles still in the castle."""
        return self.castle.remaining()

    def castle_height(self, space: tuple[int, int]) -> int:
        """Stack height at castle space ``(row, col)`` (0 when empty)."""
        return self.castle.height(_space(space))

    def castle_top(self, space: tuple[int, int]) -> Tile | None:
        """The visible top tile of castle space ``(row, col)``; None when the stack is empty."""
        return self.castle.top(_space(space))

    def is_available(self, space: tuple[int, int]) -> bool:
        """True if the top tile of castle space ``(row, col)`` is Available: its west or east neighbour is lower (R-AVAIL-1)."""
        return self.castle.is_available(_space(space))

    def realm(self, player: int) -> Realm:
        """A copy of ``player``'s :class:`Realm` (it does not follow later moves)."""
        return self.realms[self._seat(player)].copy()

    def shrine_pool(self, player: int) -> int:
        """Shrines in ``player``'s Shrine Pool."""
        return self.pools[self._seat(player)]

    def vp_tokens(self, player: int) -> int:
        """VP tokens ``player`` holds (from sets and Discards; Shrines and Countdown tokens score apart)."""
        return self.vp[self._seat(player)]

    def countdown_tokens(self, player: int) -> int:
        """Countdown tokens ``player`` took by Summoning (2 VP each, R-END-2)."""
        return self.countdown[self._seat(player)]

    @property
    def countdown_left(self) -> int:
        """Countdown tokens still on the track."""
        return COUNTDOWN_TOKENS - self.tokens_taken

    @property
    def held_tiles(self) -> list[Tile]:
        """Tiles collected this turn and not yet placed."""
        return self.held[self.placed:]

    def _seat(self, player: int) -> int:
        if not isinstance(player, int) or not 0 <= player < self.players:
            raise ValueError(f"player {player} is not a seat of this {self.players}-player game")
        return player

    @property
    def _realm(self) -> Realm:
        """The mover's Realm."""
        return self.realms[self.current_player]

    @property
    def _pool(self) -> int:
        """The mover's Shrine Pool."""
        return self.pools[self.current_player]

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

    # ------------------------------------------------------------ copies, equality, JSON

    def clone(self, history: bool = True) -> "Game":
        """An independent copy; ``history=False`` drops the undo history: the
        copy cannot undo past this point (its record of actions stays)."""
        other = Game.__new__(Game)
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

    def __deepcopy__(self, memo: Any) -> "Game":
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
        return isinstance(other, Game) and self._key() == other._key()

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

    @staticmethod
    def from_json(text: str) -> "Game":
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
            game = Game(data["players"], 0, spirits=spirits, dragons=dragon_cards, layout=Layout.parse(data["layout"]),
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
        return (Game.from_json, (self.to_json(),))

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


def _space(space: tuple[int, int]) -> tuple[int, int]:
    r, c = space
    if not (0 <= r < 12 and 0 <= c < 12):
        raise ValueError(f"castle space {space} is outside the 12x12 grid")
    return (r, c)


__all__ = ["Game", "Rules", "CODES", "seeded_deal"]
