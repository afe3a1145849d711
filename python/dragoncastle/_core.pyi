"""The Rust core of ``dragoncastle``: games, actions, layouts, batch play and
search. Use it through ``dragoncastle``, which re-exports the public names."""

# Type stubs for the Rust extension: its docstrings are the `///` comments of
# rust/python/*.rs, which become the runtime __doc__s (tests/test_api_docs.py
# checks that they are the same), followed by examples for editors.

from typing import Any, Callable, ClassVar, Optional, Sequence, Union, final

from typing_extensions import Self, TypeAlias

import numpy as np
import numpy.typing as npt

__all__ = [
    "DRAGONS",
    "DRAGON_EFFECTS",
    "MAX_LEGAL_ACTIONS",
    "NUM_ACTIONS",
    "OBSERVATION_SHAPE",
    "OBSERVATION_VERSION",
    "COMPACT_OBSERVATION_SIZE",
    "SPIRITS",
    "SPIRIT_EFFECTS",
    "Action",
    "ActionKind",
    "Game",
    "IllegalActionError",
    "InvalidActionError",
    "Layout",
    "Player",
    "VecEnv",
    "Phase",
    "Realm",
    "Rules",
    "Tile",
    "TileType",
    "greedy_action",
    "random_action",
    "solo_rank",
    "dragon_points",
    "observation_shape",
    "playouts",
    "agent_kinds",
    "agent_text",
    "check_run",
    "check_agents",
    "arena",
    "selfplay",
    "Network",
    "network_features",
    "NETWORK_FEATURES",
    "MAX_SEATS",
]

NUM_ACTIONS: int
"""Number of action ids (1024): every ``Action.id`` is in ``range(NUM_ACTIONS)`` (docs/actions.md)."""
MAX_LEGAL_ACTIONS: int
"""Capacity of a legal-action list (256), above the proven bound (docs/actions.md)."""
OBSERVATION_SHAPE: tuple[int, int, int]
"""Shape ``(planes, 12, 12)`` of ``Game.observation_tensor()`` (docs/observation.md)."""
OBSERVATION_VERSION: int
"""Version of the observation tensor's layout of planes (docs/observation.md)."""
COMPACT_OBSERVATION_SIZE: int
"""Length of ``Game.compact_observation()`` (uint8 values)."""
SPIRITS: list[str]
"""The Spirit card names, in card order."""
DRAGONS: list[str]
"""The Dragon card names, in card order."""
SPIRIT_EFFECTS: list[str]
"""Each Spirit card's effect in words, in card order ("Wind: turn a face-up ...")."""
DRAGON_EFFECTS: list[str]
"""Each Dragon card's scoring in words, in card order."""
NETWORK_FEATURES: int
MAX_SEATS: int
"""Input features of the search's network (``docs/training.md``)."""

_Space: TypeAlias = tuple[int, int]
_Cell: TypeAlias = tuple[int, int]

from .errors import IllegalActionError as IllegalActionError, InvalidActionError as InvalidActionError

@final
class TileType:
    """The type of a tile (R-TILE-1).

    Members, in index order (``int(member)``): ``MERCHANT``, ``SOLDIER``,
    ``FARMER`` (the Faction types, numbered 1 to 6), ``SEASON``, ``WIND`` and
    ``DRAGON`` (the Special types).

    >>> import dragoncastle as dc
    >>> dc.Tile("Wi2").type, dc.TileType.WIND.is_faction, int(dc.TileType.WIND)
    (TileType.WIND, False, 4)
    """
    MERCHANT: ClassVar[TileType]
    SOLDIER: ClassVar[TileType]
    FARMER: ClassVar[TileType]
    SEASON: ClassVar[TileType]
    WIND: ClassVar[TileType]
    DRAGON: ClassVar[TileType]
    @property
    def name(self) -> str:
        """The member's name, e.g. ``"WIND"``."""
    @property
    def is_faction(self) -> bool:
        """True for Merchant, Soldier and Farmer."""
    def __int__(self) -> int: ...

@final
class Phase:
    """Which decision is pending (``Game.phase``); docs/cards.md lists the turn step by step.

    Members, in index order (``int(member)``; the tensor's phase one-hot
    covers the first 14, ``END_TURN`` has plane 302): ``ACTION`` (first pick or Summon), ``COMPLETE`` (second
    tile, Shrine or Discard, R-ACT-4), ``PLACE`` (place a collected tile),
    ``SHRINE`` (build Shrines on the sets just consolidated), ``GAME_OVER``, and
    the Spirit card phases ``SPIRITS`` (after the placements, before
    Consolidation), ``DESTROY``, ``WIND``, ``WIND_TO``, ``STRENGTH``,
    ``STRENGTH_TO``, ``SET``, ``CHANGE``, ``CUNNING`` and ``END_TURN`` (after
    the Shrine step, while a Spirit may still be used; ``done`` ends the turn).

    >>> import dragoncastle as dc
    >>> g = dc.Game(players=2, seed=7)
    >>> g.phase, int(dc.Phase.SHRINE)
    (Phase.ACTION, 3)
    """
    ACTION: ClassVar[Phase]
    COMPLETE: ClassVar[Phase]
    PLACE: ClassVar[Phase]
    SHRINE: ClassVar[Phase]
    GAME_OVER: ClassVar[Phase]
    SPIRITS: ClassVar[Phase]
    DESTROY: ClassVar[Phase]
    WIND: ClassVar[Phase]
    WIND_TO: ClassVar[Phase]
    STRENGTH: ClassVar[Phase]
    STRENGTH_TO: ClassVar[Phase]
    SET: ClassVar[Phase]
    CHANGE: ClassVar[Phase]
    CUNNING: ClassVar[Phase]
    END_TURN: ClassVar[Phase]
    @property
    def name(self) -> str:
        """The member's name, e.g. ``"ACTION"``."""
    @property
    def prompt(self) -> str:
        """What the phase asks of the player to move, in the game's words.

        >>> import dragoncastle as dc
        >>> dc.Phase.DESTROY.prompt
        'Destruction: choose the castle tile to discard'
        """
    def __int__(self) -> int: ...

@final
class ActionKind:
    """The kind of an ``Action`` (docs/actions.md has the id ranges and text).

    Members, in index order (``int(member)``): ``TAKE`` (a castle pick, first or
    second tile), ``TAKE_SHRINE``, ``DISCARD``, ``SUMMON``, ``PLACE``, ``SHRINE``,
    ``DONE`` (end an optional step), ``SPIRIT`` (activate a Spirit card), and the
    Spirit follow-ups ``DESTROY``, ``FLIP``, ``SHRINE_FROM``, ``SHRINE_TO``,
    ``MOVE_FROM``, ``MOVE_TO``, ``SET``, ``CHANGE`` (docs/cards.md).

    >>> import dragoncastle as dc
    >>> dc.Action("take 2,5").kind, int(dc.ActionKind.SUMMON)
    (ActionKind.TAKE, 3)
    """
    TAKE: ClassVar[ActionKind]
    TAKE_SHRINE: ClassVar[ActionKind]
    DISCARD: ClassVar[ActionKind]
    SUMMON: ClassVar[ActionKind]
    PLACE: ClassVar[ActionKind]
    SHRINE: ClassVar[ActionKind]
    DONE: ClassVar[ActionKind]
    SPIRIT: ClassVar[ActionKind]
    DESTROY: ClassVar[ActionKind]
    FLIP: ClassVar[ActionKind]
    SHRINE_FROM: ClassVar[ActionKind]
    SHRINE_TO: ClassVar[ActionKind]
    MOVE_FROM: ClassVar[ActionKind]
    MOVE_TO: ClassVar[ActionKind]
    SET: ClassVar[ActionKind]
    CHANGE: ClassVar[ActionKind]
    @property
    def name(self) -> str:
        """The member's name, e.g. ``"TAKE"``."""
    def __int__(self) -> int: ...

@final
class Tile:
    """A tile symbol, e.g. ``Tile("Dr2")``. Identical tiles are equal (R-TILE-2).

    >>> import dragoncastle as dc
    >>> t = dc.Tile("Me3")
    >>> t.code, t.type, t.number, str(t)
    ('Me3', TileType.MERCHANT, 3, 'Me3')
    >>> dc.Tile("Dr2").number is None
    True
    """
    def __new__(cls, code: str) -> Self: ...
    @staticmethod
    def parse(code: str) -> Tile:
        """The tile of a code such as ``"Dr2"`` (same as ``Tile(code)``); a bad code raises ``ValueError``."""
    @property
    def code(self) -> str:
        """The tile's code: type and symbol, e.g. ``"Me3"`` or ``"Dr2"`` (also ``str(tile)``)."""
    @property
    def type(self) -> TileType:
        """The tile's ``TileType``."""
    @property
    def number(self) -> Optional[int]:
        """The number 1 to 6 of a Faction tile; None for a Special tile."""
    @property
    def index(self) -> int:
        """Index 0..29 in code order (Me1..Me6, So1..So6, Fa1..Fa6, Se1..Se4, Wi1..Wi4, Dr1..Dr3)."""
    def __lt__(self, other: Tile, /) -> bool: ...
    def __le__(self, other: Tile, /) -> bool: ...
    def __gt__(self, other: Tile, /) -> bool: ...
    def __ge__(self, other: Tile, /) -> bool: ...
    def __hash__(self) -> int: ...

_ActionLike: TypeAlias = Union["Action", int, str]

@final
class Action:
    """One atomic decision with a stable id in ``range(NUM_ACTIONS)``.

    >>> import dragoncastle as dc
    >>> a = dc.Action("take 2,5")
    >>> a.id, a.kind, a.space, str(a)
    (29, ActionKind.TAKE, (2, 5), 'take 2,5')
    >>> dc.Action(29) == a == dc.Action.take((2, 5))
    True
    """
    def __new__(cls, spec: _ActionLike) -> Self: ...
    @staticmethod
    def parse(text: str) -> Action:
        """The action of a text notation such as ``"take 2,5"``, ``"summon"`` or a bare
        id (case-insensitive; ``str(action)`` round-trips). Text that names no action
        raises ``InvalidActionError``.
        """
    @staticmethod
    def from_id(id: int) -> Action:
        """The action with id ``id`` (``0 <= id < NUM_ACTIONS``); a reserved or out-of-range id raises ``InvalidActionError``."""
    @staticmethod
    def take(space: _Space) -> Action:
        """TAKE the top tile of castle space ``(row, col)`` (a first or second pick)."""
    @staticmethod
    def place(cell: _Cell) -> Action:
        """PLACE the next collected tile on Realm cell ``(row, col)`` (R-PLACE-1)."""
    @staticmethod
    def shrine(cell: _Cell) -> Action:
        """Build a SHRINE on Realm cell ``(row, col)`` (R-SHRINE-1)."""
    @staticmethod
    def take_shrine() -> Action:
        """TAKE_SHRINE: complete the action with a Shrine from the general pool (Tile and Shrine)."""
    @staticmethod
    def discard() -> Action:
        """DISCARD the tile just taken for 1 VP (ends the turn)."""
    @staticmethod
    def summon() -> Action:
        """SUMMON the Dragon: take a Countdown token (R-ACT-5)."""
    @staticmethod
    def done() -> Action:
        """DONE: end an optional step (stop building Shrines, decline to use a Spirit)."""
    @property
    def id(self) -> int:
        """The stable id, ``0 <= id < NUM_ACTIONS`` (also ``int(action)``)."""
    @property
    def kind(self) -> ActionKind:
        """The action's ``ActionKind``."""
    @property
    def space(self) -> Optional[_Space]:
        """Castle space ``(row, col)`` of a TAKE or DESTROY, else None."""
    @property
    def cell(self) -> Optional[_Cell]:
        """Realm cell ``(row, col)`` of a PLACE, SHRINE or Spirit follow-up, else None."""
    @property
    def card(self) -> Optional[str]:
        """Spirit card name of a SPIRIT action, else None."""
    @property
    def pay_cell(self) -> Optional[_Cell]:
        """The Realm cell paid with for a SPIRIT action (None: paid with a Shrine, or not a SPIRIT)."""
    @property
    def tile_type(self) -> Optional[TileType]:
        """The type a CHANGE treats its Special tile as, else None."""
    def __int__(self) -> int: ...
    def __index__(self) -> int: ...
    def __lt__(self, other: Action, /) -> bool: ...
    def __le__(self, other: Action, /) -> bool: ...
    def __gt__(self, other: Action, /) -> bool: ...
    def __ge__(self, other: Action, /) -> bool: ...
    def __hash__(self) -> int: ...

@final
class Rules:
    """Rule options. ``Rules(dragon_set_bonus=True)`` (R-CONS-3).

    >>> import dragoncastle as dc
    >>> dc.Rules(), dc.Rules(dragon_set_bonus=False).dragon_set_bonus
    (Rules(dragon_set_bonus=True), False)
    """
    def __new__(cls, *, dragon_set_bonus: bool = True) -> Self: ...
    @property
    def dragon_set_bonus(self) -> bool:
        """+1 VP for each Consolidated set of Dragon tiles (R-CONS-3); on by default."""

@final
class Layout:
    """A castle layout: a grid of stack heights (R-LAYOUT-1).

    >>> import dragoncastle as dc
    >>> layout = dc.Layout.standard("standard-2p")
    >>> layout.rows, layout.cols, layout.ground_floor, layout.validate(2)
    (7, 10, 70, [])
    >>> dc.Layout.parse(layout.text) == layout
    True
    """
    @staticmethod
    def parse(text: str) -> Layout:
        """Parse layout text: one row per line, one digit (stack height) per space, ``.`` for none."""
    @staticmethod
    def standard(name: str) -> Layout:
        """``standard-2p``, ``standard-3p`` or ``standard-4p``."""
    def validate(self, players: Optional[int] = None) -> list[str]:
        """Advice the layout does not follow (a list of warnings; empty when fine)."""
    @property
    def rows(self) -> int:
        """Rows of the grid (up to 12)."""
    @property
    def cols(self) -> int:
        """Columns of the grid (up to 12)."""
    @property
    def ground_floor(self) -> int:
        """Spaces with a stack: the tiles on the ground floor."""
    @property
    def text(self) -> str:
        """The layout as text, as :meth:`parse` reads it (also ``str(layout)``)."""
    def height(self, space: _Space) -> int:
        """Stack height at castle space ``(row, col)`` (0 where there is no space)."""

@final
class Realm:
    """A snapshot of one player's Realm (it does not follow later moves).

    >>> import dragoncastle as dc
    >>> realm = dc.Realm.parse("2Me1 . . .\\n. 1# . .\\n. . 2S .\\n. . . .")
    >>> realm.height((0, 0)), realm.top((0, 0)), realm.top((1, 1)), realm.has_shrine((2, 2))
    (2, (Tile('Me1'), True), (None, False), True)
    """
    @staticmethod
    def parse(text: str) -> Realm:
        """A Realm from text (docs/cards.md): 4 lines of 4 cells; ``.`` empty,
        ``3Me2`` height 3 with a face-up Me2, ``2#`` face down, ``2S`` with a Shrine.
        """
    @property
    def text(self) -> str:
        """The text of :meth:`parse`."""
    def height(self, cell: _Cell) -> int:
        """Stack height at Realm cell ``(row, col)`` (0 when empty)."""
    def top(self, cell: _Cell) -> Optional[tuple[Optional[Tile], bool]]:
        """``(Tile, True)`` for a face-up top tile, ``(None, False)`` for a face-down one
        (face-down symbols never count again, so they are not kept), None if empty.
        """
    def has_shrine(self, cell: _Cell) -> bool:
        """True if a Shrine stands on Realm cell ``(row, col)``."""
    def placeable(self) -> list[_Cell]:
        """Cells where a collected tile may be placed (R-PLACE-1), row-major."""

@final
class Game:
    """A game of Dragon Castle backed by the Rust core.

    The main methods, in the order of a game: ``legal_actions()`` (sorted by
    id; ``legal_action_mask()`` for numpy), ``apply(action)`` with an
    ``Action``, its id or its text, ``current_player``, ``phase`` and
    ``is_over``, then ``scores()`` and ``winners()``. ``undo()``, ``clone()``,
    ``to_json()`` and ``Game.from_json()`` step back, copy and save;
    ``observation()`` and ``determinize(seed)`` serve a search without hidden
    information; ``str(game)`` draws the position. ``help()`` lists every
    method below, alphabetically.

    ``Game(players=2, seed=None, *, spirits=None, dragons=None, layout=None,
    rules=None, deal=None)``: ``players`` 1 (solo against the Dragon of
    Ingenuity) to 4; ``seed`` the deal's seed (None: a fresh one); ``spirits``
    and ``dragons`` a list of card names or a count to draw from the seed;
    ``layout`` a ``Layout``, a standard layout name or layout text; ``rules``
    the ``Rules``; ``deal`` an explicit deal of 116 tile codes instead of the
    seeded shuffle. Bad arguments raise ``ValueError``.

    >>> import dragoncastle as dc
    >>> g = dc.Game(players=2, seed=7)
    >>> g.phase, g.current_player, g.scores(), g.legal_action_mask().shape
    (Phase.ACTION, 0, [0, 0], (1024,))
    >>> g.apply(g.legal_actions()[0])
    >>> dc.Game.from_json(g.to_json()) == g
    True
    """
    def __new__(
        cls,
        players: int = 2,
        seed: Optional[int] = None,
        *,
        spirits: Union[None, int, Sequence[str]] = None,
        dragons: Union[None, int, Sequence[str]] = None,
        layout: Union[None, str, Layout] = None,
        rules: Optional[Rules] = None,
        deal: Optional[Sequence[str]] = None,
    ) -> Self: ...
    @property
    def current_player(self) -> int:
        """The seat to move. In solo the Dragon of Ingenuity (seat 1) moves inside
        ``apply``, so this is always 0 there.
        """
    @property
    def phase(self) -> Phase:
        """Which decision is pending: a ``Phase``."""
    @property
    def is_over(self) -> bool:
        """True once the game has ended (R-END-1)."""
    @property
    def players(self) -> int:
        """Seats with a Realm: 1 (solo) to 4."""
    @property
    def seed(self) -> Optional[int]:
        """The seed of the deal (None when the game was given an explicit ``deal``)."""
    @property
    def layout(self) -> Layout:
        """The castle ``Layout`` the game was dealt on."""
    @property
    def rules(self) -> Rules:
        """The rule options (``Rules``)."""
    @property
    def turn(self) -> int:
        """Completed turns (the Dragon of Ingenuity's included, in solo)."""
    @property
    def history(self) -> list[Action]:
        """Actions applied so far."""
    @property
    def history_by_dragon(self) -> list[bool]:
        """One flag per entry of ``history``: True where the Dragon of Ingenuity played it (solo)."""
    @property
    def is_solo(self) -> bool:
        """True for a solo game against the Dragon of Ingenuity."""
    @property
    def spirits(self) -> list[str]:
        """Spirit cards in play, by name in card order."""
    @property
    def dragons(self) -> list[str]:
        """Dragon cards in play, by name in card order."""
    def rank(self) -> str:
        """Solo: the rank of the current (final, once over) score (R-SOLO-5)."""
    def dragon_action(self) -> Optional[Action]:
        """The action the Dragon of Ingenuity would choose for the seat to move
        (None when the game is over); see docs/solo.md.
        """
    @property
    def dragon_tiles(self) -> dict[str, int]:
        """Solo: the tiles the Dragon of Ingenuity took, by code."""
    def legal_actions(self) -> list[Action]:
        """Legal actions, sorted by id."""
    def legal_action_ids(self) -> list[int]:
        """Legal action ids, sorted (the cheapest way to enumerate)."""
    def legal_action_mask(self) -> npt.NDArray[np.bool_]:
        """Boolean mask of shape ``(NUM_ACTIONS,)``."""
    def is_legal(self, action: _ActionLike) -> bool:
        """True if ``action`` (an Action, id or text) is legal now; False for input that names no action."""
    def apply(self, action: _ActionLike) -> None:
        """Apply an Action, an id or a text; an illegal or malformed one raises
        ``IllegalActionError`` and changes nothing.
        """
    def undo(self) -> Action:
        """Revert the last action and return it."""
    def clone(self, history: bool = True) -> Game:
        """An independent copy. Copies share their (immutable) history, so a copy
        costs the same at any point of the game. ``history=False`` gives a
        copy that cannot undo past this point (its record of actions stays, so
        JSON and pickle work).
        """
    def __sizeof__(self) -> int: ...
    def __copy__(self) -> Game: ...
    def __deepcopy__(self, memo: Any) -> Game: ...
    def scores(self) -> list[int]:
        """Current (or final) scores by seat (R-END-2)."""
    def winners(self) -> list[int]:
        """Seats that win after the tie breaks of R-END-3 (several when shared)."""
    def returns(self) -> list[float]:
        """One utility per seat (OpenSpiel's ``Returns()``): all 0 while the game
        runs; at the end 1 for a win, split among tied winners, 0 otherwise.
        Solo: the final score / 100.
        """
    def score_breakdown(self, player: int) -> dict[str, Any]:
        """``{"vp", "shrines", "countdown", "dragons": {card: points}, "total"}``
        for one seat; solo with cards adds ``"variant": -15`` (R-SOLO-1).
        """
    @property
    def top_floor(self) -> int:
        """The top floor: the greatest stack height in the castle (R-AVAIL-2)."""
    @property
    def castle_shape(self) -> tuple[int, int]:
        """``(rows, cols)`` of the castle grid."""
    @property
    def castle_tiles(self) -> int:
        """Tiles still in the castle."""
    def castle_height(self, space: _Space) -> int:
        """Stack height at castle space ``(row, col)`` (0 when empty)."""
    def castle_top(self, space: _Space) -> Optional[Tile]:
        """The visible top tile of castle space ``(row, col)``; None when the stack is empty."""
    def is_available(self, space: _Space) -> bool:
        """True if the top tile of castle space ``(row, col)`` is Available: its west or east neighbour is lower (R-AVAIL-1)."""
    def realm(self, player: int) -> Realm:
        """A snapshot (``Realm``) of ``player``'s Realm."""
    def shrine_pool(self, player: int) -> int:
        """Shrines in ``player``'s Shrine Pool."""
    def vp_tokens(self, player: int) -> int:
        """VP tokens ``player`` holds (from sets and Discards; Shrines and Countdown tokens score apart)."""
    def countdown_tokens(self, player: int) -> int:
        """Countdown tokens ``player`` took by Summoning (2 VP each, R-END-2)."""
    @property
    def general_shrines(self) -> int:
        """Shrines left in the general pool."""
    @property
    def countdown_left(self) -> int:
        """Countdown tokens still on the track."""
    @property
    def end_triggered(self) -> bool:
        """True once the end is triggered (R-END-1): the current round is the last."""
    @property
    def held_tiles(self) -> list[Tile]:
        """Tiles collected this turn and not yet placed, in placing order."""
    def to_json(self) -> str:
        """The complete state as JSON: setup, hidden tiles and history.
        ``Game.from_json`` round-trips it exactly.
        """
    @staticmethod
    def from_json(s: str) -> Game:
        """The game of a ``to_json`` text; invalid input raises ``ValueError`` with the reason."""
    def _repr_svg_(self) -> str:
        """An SVG picture of the game, for notebooks: everything public, the
        last move marked.
        """
    def observation(self, player: Optional[int] = None) -> dict[str, Any]:
        """What ``player`` (default: the player to move) may know, as plain
        Python data (no covered castle tile).
        """
    def observation_tensor(self, player: Optional[int] = None, version: int = ...) -> npt.NDArray[np.float32]:  # version 3
        """Float32 planes of shape ``observation_shape(version)``
        (docs/observation.md); each version is the one before with planes appended (version 1: 247, version 2: 302).
        ``player`` defaults to the player to move.
        """
    def compact_observation(self, player: Optional[int] = None) -> npt.NDArray[np.uint8]:
        """The compact observation: ``COMPACT_OBSERVATION_SIZE`` bytes (uint8)
        holding what the tensor's planes hold, as small integers
        (docs/observation.md, "Compact encoding"). ``player`` defaults to the
        player to move.
        """
    def determinize(self, seed: int) -> Game:
        """A copy with the covered castle tiles re-dealt at random (``seed``)."""
    def check_invariants(self) -> None:
        """Recompute every derived structure and check the invariants; raises
        ``AssertionError`` with the reason if one fails.
        """

def greedy_action(game: Game, seed: int) -> Optional[Action]:
    """The greedy heuristic's choice (docs/agents.md); ``seed`` breaks ties."""
def random_action(game: Game, seed: int) -> Optional[Action]:
    """A uniformly random legal action drawn with SplitMix64(``seed``)."""
def solo_rank(score: int) -> str:
    """The solo rank of a final score (R-SOLO-5)."""
def dragon_points(card: str, realms: Sequence[Realm], player: int) -> int:
    """Points of Dragon ``card`` for ``realms[player]`` (docs/cards.md); Power
    compares with the neighbouring seats of ``realms``.
    """
def observation_shape(version: int = ...) -> tuple[int, int, int]:  # version 3
    """The shape of the observation tensor of layout ``version`` (1, 2 or 3)."""
def playouts(
    agent: Any,
    n_games: int,
    *,
    players: int = 2,
    seed: int = 0,
    threads: Optional[int] = None,
    spirits: Union[None, int, Sequence[str]] = None,
    dragons: Union[None, int, Sequence[str]] = None,
    layout: Union[None, str, Layout] = None,
    rules: Optional[Rules] = None,
) -> tuple[npt.NDArray[np.int32], npt.NDArray[np.bool_], npt.NDArray[np.int32]]:
    """Play ``n_games`` whole games in Rust threads with the GIL released, with
    ``agent`` (spec text or a built-in agent) in every seat.

    Game ``k`` is dealt with seed ``seed + k``; results do not depend on
    ``threads`` (default: every core). Returns ``(scores, winners, lengths)``:
    int32 ``(n_games, players)``, bool ``(n_games, players)`` (shared wins have
    several), int32 ``(n_games,)`` decisions per game.
    """

_Arrays: TypeAlias = tuple[Any, npt.NDArray[np.bool_], npt.NDArray[np.float32], npt.NDArray[np.bool_], npt.NDArray[np.int64]]

@final
class VecEnv:
    """``n`` games stepped together in Rust threads (docs/vecenv.md).

    ``reset()`` and ``step(actions)`` return ``(observations, masks, rewards,
    terminated, to_move)``: numpy arrays with one row per game, the same array
    objects at every call, written in place. A game that ends is dealt again at
    once from its slot's next seed (slot ``i``'s ``e``-th game uses seed
    ``seed + i + n * e``): its row's ``rewards`` and ``terminated`` describe the
    game that ended, its observation and mask the new one. With ``opponents`` (an
    agent or its spec: ``random``, ``greedy``, ``mcts:iterations=...``) every seat but
    ``learner`` (default 0) is played inside Rust, so ``to_move`` is always the
    learner.

    >>> import dragoncastle as dc
    >>> env = dc.VecEnv(4, players=2, seed=0)
    >>> obs, masks, rewards, terminated, to_move = env.reset()
    >>> obs.shape, masks.shape, rewards.shape
    ((4, 1190), (4, 1024), (4, 2))
    >>> obs, masks, rewards, terminated, to_move = env.step(env.sample())
    """
    def __new__(
        cls,
        n: int,
        *,
        players: int = 2,
        seed: int = 0,
        threads: Optional[int] = None,
        opponents: Any = None,
        learner: Optional[int] = None,
        reward: str = "win",
        observation: str = "compact",
        spirits: Union[None, int, Sequence[str]] = None,
        dragons: Union[None, int, Sequence[str]] = None,
        layout: Union[None, str, Layout] = None,
        rules: Optional[Rules] = None,
    ) -> VecEnv: ...
    def reset(self) -> _Arrays:
        """Deal every game anew (slot ``i`` from ``seed + i``) and return the arrays."""
    def step(self, actions: Any) -> _Arrays:
        """Apply ``actions[i]`` (an action id) in game ``i``, let the opponents
        answer, deal ended games again, and return the arrays. An illegal
        action raises ``IllegalActionError`` and changes no game.
        """
    def sample(self) -> npt.NDArray[np.int64]:
        """A uniformly random legal action id per game (int64, -1 where none),
        drawn from the environment's own seeded stream.
        """
    def __len__(self) -> int: ...
    @property
    def num_envs(self) -> int:
        """Games stepped together."""
    @property
    def players(self) -> int:
        """Seats with a Realm: the width of ``rewards``."""
    @property
    def observation_shape(self) -> list[int]:
        """The shape of one game's observation row."""
    def state_text(self, i: int) -> str:
        """Game ``i`` as it stands, as the text picture of ``str(game)``."""

@final
class Player:
    """A built-in agent: its spec and, once it has decided, its player."""
    def __new__(
        cls,
        kind: str,
        settings: dict[str, Any],
        evaluator: Optional[Callable[[np.ndarray, np.ndarray], tuple[np.ndarray, np.ndarray]]] = None,
        batch_size: Optional[int] = None,
    ) -> Self: ...
    @staticmethod
    def parse(text: str) -> Player:
        """The agent of a spec text (``"mcts:time=1"``)."""
    @property
    def spec(self) -> Optional[str]:
        """The canonical spec text (no text form with a Python evaluator: ``None``)."""
    @property
    def kind(self) -> str:
        """The agent kind (``"mcts"``)."""
    def settings(self) -> dict[str, Any]:
        """Every setting's value by its one name."""
    @property
    def reads_hidden(self) -> bool:
        """Whether the agent reads what a player cannot see."""
    @property
    def clock(self) -> Optional[float]:
        """Seconds by the clock each decision may take (``plan`` with no budget:
        1), or None when a count of iterations or playouts bounds it alone:
        then a seeded game is reproducible.

        >>> import dragoncastle as dc
        >>> [dc._core.Player.parse(s).clock for s in ("plan", "plan:playouts=9", "mcts:time=2", "greedy")]
        [1.0, None, 2.0, None]
        """
    def reset(self) -> None:
        """Forget the game (the kept tree, the planner's policy and plan)."""
    def decide(self, game: Game, seed: Optional[int] = None,
               stop: Optional[Callable[[], bool]] = None) -> tuple[Optional[Action], Any]:
        """The decision for the seat to move of ``game``: ``(action, stats)``,
        drawing by the seed rule from ``seed`` (None: the game's). ``stats``
        is None, a search's ``(root, pv, iterations, seconds, nodes, policy)``
        or a plan's ``(root, plan, playouts, determinizations, seconds)``.
        ``stop``, a callable asked every 100 ms, ends a search or plan early
        when it returns true: the decision is then the best found so far.
        """

def agent_kinds() -> list[tuple[str, str, list[tuple[str, str, str, str]]]]:
    """Every agent kind with its help and its settings (name, what it takes,
    default, help): ``dragoncastle.agents.describe()``'s data.
    """
def agent_text(agent: Any) -> str:
    """An agent's spec text: the text itself, or a built-in agent's ``spec``
    (``MCTSAgent(iterations=50)`` → ``"mcts:iterations=50"``). An agent
    holding a Python evaluator has none: its ``spec`` raises, and so does this.
    """
def check_agents(agents: Sequence[Any], players: int, person: bool = False) -> None:
    """The built-in agents among ``agents`` (those with a text form) can play a
    table of ``players``, their models opened and checked, and none reads
    the covered tiles where rivals or a ``person`` play: what every runner
    checks before its first game, for ``dc.play`` and the web table. Agents
    without a text form (a Python evaluator, an agent of your own) are left
    to themselves; an exception raised by an agent's ``spec`` propagates.
    """
def check_run(n_games: Any, seed: Any = 0, threads: Any = None) -> None:
    """The checks of a run's size, seed and threads, for runners that do not
    start in Rust (the arena over Ray): the same errors as every runner's.
    """
@final
class Network:
    """Weights of the search's network (``docs/training.md``): load, save,
    inspect, and evaluate positions exactly as the search does.
    """
    ARRAYS: ClassVar[list[str]]
    @staticmethod
    def load(path: str) -> Network:
        """Read a weights file; ``ValueError`` says what is wrong with it."""
    @staticmethod
    def from_arrays(arrays: Sequence[np.ndarray], hidden: int, hidden2: int, training: str) -> Network:
        """A network from its arrays (float32, in the order and shapes of
        ``Network.ARRAYS``) and ``training`` (JSON text: how it was made).
        """
    def save(self, path: str) -> None:
        """Write the weights file."""
    @staticmethod
    def shapes(hidden: int, hidden2: int) -> list[tuple[int, int]]:
        """The shape ``(rows, cols)`` of each array of ``ARRAYS`` for these
        hidden sizes (a bias is one row).
        """
    @property
    def header(self) -> str:
        """The header, as JSON text."""
    def arrays(self) -> list[np.ndarray]:
        """The arrays (flat float32 copies) in file order."""
    def forward(self, observations: np.ndarray, masks: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The raw outputs for a batch, as the search computes them: logits
        ``float32 (N, NUM_ACTIONS)`` (``-inf`` where ``masks`` is False) and
        values ``float32 (N, 4)`` for the seats relative to the mover.
        """

def network_features(observations: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The network's input features of a batch of compact observations, as a
    sparse matrix in coordinates: ``(rows, features, weights)`` (``int64``,
    ``int64``, ``float32``); ``NETWORK_FEATURES`` columns.
    """
def selfplay(
    agent: Player,
    n_games: int,
    *,
    players: int = 2,
    seed: int = 0,
    threads: Optional[int] = None,
    spirits: Union[None, int, Sequence[str]] = None,
    dragons: Union[None, int, Sequence[str]] = None,
    layout: Union[None, str, Layout] = None,
    rules: Optional[Rules] = None,
    progress: Optional[Any] = None,
    children: Optional[tuple[float, int]] = None,
) -> dict[str, np.ndarray]:
    """Self-play games by the search of ``agent`` in every seat, in Rust threads
    with the GIL released (see ``dragoncastle.selfplay``): a dict of numpy
    arrays with one row per decision.
    """
def arena(
    agents: Sequence[Any],
    n_games: int,
    *,
    seed: int = 0,
    threads: Optional[int] = None,
    spirits: Union[None, int, Sequence[str]] = None,
    dragons: Union[None, int, Sequence[str]] = None,
    layout: Union[None, str, Layout] = None,
    rules: Optional[Rules] = None,
    progress: Optional[Any] = None,
    search_stats: int = 0,
) -> list[dict[str, Any]]:
    """Play ``n_games`` games between built-in agents (specs) in Rust threads with
    the GIL released; see ``dragoncastle.arena``. ``progress(done)`` is called
    about ten times a second; Ctrl-C stops the run and raises KeyboardInterrupt.
    With ``search_stats=k > 0`` each game's dict has ``search``: per decision,
    ``None`` (an agent that does not search) or ``{"iterations": n, "top":
    [(action_id, visits, mean_value), ...]}``, the ``k`` most visited root moves.
    """
