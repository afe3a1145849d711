"""The state of a game of Dragon Castle in plain Python: the setup (R-SETUP,
R-SEED-1, R-TILE-1) and what can be read of a position; the other parts of
:class:`dragoncastle.reference.game.Game` build on it.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any, Iterable

from . import cards, solo
from .actions import DRAGONS, SPIRITS, Action
from .castle import Castle
from .layout import Layout
from .phase import Phase
from .realm import ConsolidatedSet, Realm
from .rng import SplitMix64
from .tiles import TILES, Tile, TileType

SHRINES = 40  # R-POOL-1
COUNTDOWN_TOKENS = 7
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


class GameState:
    """A game's state, its setup (R-SETUP-1..4) and its queries: what the
    parts of :class:`~dragoncastle.reference.game.Game` share."""

    if TYPE_CHECKING:  # the parts call one another: to mypy, a name missing from one is the Game's
        def __getattr__(self, name: str) -> Any: ...

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


def _space(space: tuple[int, int]) -> tuple[int, int]:
    r, c = space
    if not (0 <= r < 12 and 0 <= c < 12):
        raise ValueError(f"castle space {space} is outside the 12x12 grid")
    return (r, c)
