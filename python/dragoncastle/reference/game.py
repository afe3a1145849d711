"""A game of Dragon Castle in plain Python: the turn, its decisions, the end.

Written to be read beside the rules: each method is one rule, named after it.
"""

from __future__ import annotations

import json
import random
from typing import Any, Iterable

from .actions import (
    DISCARD, DONE, SUMMON, TAKE_SHRINE, Action, ActionKind, IllegalActionError, NUM_ACTIONS,
)
from .castle import Castle
from .layout import Layout
from .observe import observation, observation_tensor
from .phase import Phase
from .realm import CELLS, ConsolidatedSet, Realm
from .render import svg, text
from .rng import SplitMix64
from . import solo
from .tiles import CODES, TILES, Tile, TileType

SHRINES = 40  # R-POOL-1
COUNTDOWN_TOKENS = 7
JSON_FORMAT, JSON_VERSION = "dragoncastle-game", 1


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


def _no_cards(what: str, cards: Any) -> None:
    if cards is None or (isinstance(cards, int) and cards == 0) or (not isinstance(cards, int) and len(cards) == 0):
        return
    raise ValueError(f"{what} cards are not implemented yet; this version plays the base game (pass none)")


class Game:
    """The same game as ``dragoncastle.Game``, in pure Python."""

    def __init__(self, players: int = 2, seed: int | None = None, *, spirits: Any = None, dragons: Any = None,
                 layout: Layout | str | None = None, rules: Rules | None = None, deal: Iterable[str] | None = None) -> None:
        if not isinstance(players, int) or not 1 <= players <= 4:
            raise ValueError(f"players must be 1 (solo) to 4; got {players}")
        if seed is None:
            seed = random.SystemRandom().getrandbits(64)
        if not isinstance(seed, int) or not 0 <= seed < 2**64:
            raise ValueError("seed must be an integer in 0..2**64")
        _no_cards("Spirit", spirits)
        _no_cards("Dragon", dragons)
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
        self.rules = rules or Rules()
        # Set by clone(history=False): how many of the player's actions undo
        # may not revert (the Rust engine keeps no undo states for them).
        self._undo_floor = 0
        self._start()

    @property
    def is_solo(self) -> bool:
        return self.players == 1

    @property
    def seats(self) -> int:
        """Seats taking turns: in solo the player and the Dragon of Ingenuity (seat 1)."""
        return 2 if self.is_solo else self.players

    def previous_seat(self) -> int:
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
        self.history: list[Action] = []

    # ------------------------------------------------------------ queries

    @property
    def is_over(self) -> bool:
        return self.phase is Phase.GAME_OVER

    @property
    def top_floor(self) -> int:
        return self.castle.top_floor()

    @property
    def castle_shape(self) -> tuple[int, int]:
        return (self.castle.rows, self.castle.cols)

    @property
    def castle_tiles(self) -> int:
        return self.castle.remaining()

    def castle_height(self, space: tuple[int, int]) -> int:
        return self.castle.height(_space(space))

    def castle_top(self, space: tuple[int, int]) -> Tile | None:
        return self.castle.top(_space(space))

    def is_available(self, space: tuple[int, int]) -> bool:
        return self.castle.is_available(_space(space))

    def realm(self, player: int) -> Realm:
        return self.realms[self._seat(player)].copy()

    def shrine_pool(self, player: int) -> int:
        return self.pools[self._seat(player)]

    def vp_tokens(self, player: int) -> int:
        return self.vp[self._seat(player)]

    def countdown_tokens(self, player: int) -> int:
        return self.countdown[self._seat(player)]

    @property
    def countdown_left(self) -> int:
        return COUNTDOWN_TOKENS - self.tokens_taken

    @property
    def held_tiles(self) -> list[Tile]:
        """Tiles collected this turn and not yet placed."""
        return self.held[self.placed:]

    def _seat(self, player: int) -> int:
        if not 0 <= player < self.players:
            raise ValueError(f"player {player} is not a seat of this {self.players}-player game")
        return player

    # ------------------------------------------------------------ legal actions

    def legal_actions(self) -> list[Action]:
        if self.phase is Phase.ACTION:
            actions = self._first_picks()
        elif self.phase is Phase.COMPLETE:
            actions = self._completions()
        elif self.phase is Phase.PLACE:
            actions = [Action.place(cell) for cell in self._placement_cells()]
        elif self.phase is Phase.SHRINE:
            actions = [Action.shrine(cell) for cell in self._shrine_cells()] + [Action(DONE)]
        else:
            actions = []
        return sorted(actions)

    def legal_action_ids(self) -> list[int]:
        return [a.id for a in self.legal_actions()]

    def legal_action_mask(self):
        import numpy as np

        mask = np.zeros(NUM_ACTIONS, dtype=bool)
        mask[self.legal_action_ids()] = True
        return mask

    def is_legal(self, action: Any) -> bool:
        try:
            return Action(action) in self.legal_actions()
        except ValueError:
            return False

    def _first_picks(self) -> list[Action]:
        """R-ACT-1..3: the first tile is Available and on the top floor; R-ACT-5 Summon."""
        top = self.castle.top_floor()
        picks = [Action.take(s) for s in self.castle.spaces() if self.castle.height(s) == top and self.castle.is_available(s)]
        if self._can_summon():
            picks.append(Action(SUMMON))
        return picks

    def _can_summon(self) -> bool:
        """R-ACT-5: every castle tile on the ground floor, and a token left."""
        return self.castle.top_floor() <= 1 and self.tokens_taken < COUNTDOWN_TOKENS

    def _completions(self) -> list[Action]:
        """R-ACT-1 second identical tile (Available now that the first has left),
        R-ACT-2 Tile and Shrine, R-ACT-3 Discard; R-PLACE-2 room in the Realm."""
        first = self.held[0]
        free = len(self.realms[self.current_player].placeable())
        options = []
        if free >= 2:
            options += [Action.take(s) for s in self.castle.spaces() if self.castle.top(s) == first and self.castle.is_available(s)]
        if self.general_shrines > 0 and free >= 1:
            options.append(Action(TAKE_SHRINE))
        options.append(Action(DISCARD))
        return options

    def _placement_cells(self) -> list[tuple[int, int]]:
        """R-PLACE-1; R-PLACE-3: two identical tiles go lower cell first."""
        free = self.realms[self.current_player].placeable()
        identical = len(self.held) == 2 and self.held[0] == self.held[1]
        if not identical:
            return free
        if self.placed == 0:
            return free[:-1]
        return [cell for cell in free if cell > self.first_cell]

    def _shrine_cells(self) -> list[tuple[int, int]]:
        """R-SHRINE-1: tiles of this turn's sets with allowance left, without a Shrine."""
        if self.pools[self.current_player] == 0:
            return []
        realm = self.realms[self.current_player]
        cells = {cell for s in self.sets if s.allowance > 0 for cell in s.cells}
        return sorted(cells - realm.shrines)

    # ------------------------------------------------------------ applying

    def apply(self, action: Any) -> None:
        """Apply an Action, an id or a text; an illegal one raises and changes nothing."""
        action = Action(action)
        if action not in self.legal_actions():
            raise IllegalActionError(f"illegal action {str(action)!r} in phase {self.phase.name}: {self._why_illegal(action)}")
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

    def _why_illegal(self, action: Action) -> str:
        if action.kind is ActionKind.SPIRIT:
            return "no Spirit card is in play"
        expected = {
            Phase.ACTION: {ActionKind.TAKE, ActionKind.SUMMON},
            Phase.COMPLETE: {ActionKind.TAKE, ActionKind.TAKE_SHRINE, ActionKind.DISCARD},
            Phase.PLACE: {ActionKind.PLACE},
            Phase.SHRINE: {ActionKind.SHRINE, ActionKind.DONE},
            Phase.GAME_OVER: set(),
        }[self.phase]
        if action.kind not in expected:
            return f"this phase expects {' or '.join(sorted(k.name for k in expected)) or 'nothing: the game is over'}"
        if action.kind is ActionKind.TAKE:
            tile = self.castle.top(action.target)
            if tile is None:
                return f"castle space {action.target} holds no tile"
            if not self.castle.is_available(action.target):
                return f"{tile} at {action.target} is not Available (R-AVAIL-1)"
            if self.phase is Phase.ACTION:
                return f"{tile} is on floor {self.castle.height(action.target)}, not the top floor {self.top_floor} (R-ACT-1)"
            if tile != self.held[0]:
                return f"{tile} is not identical to the first tile {self.held[0]} (R-TILE-2)"
            return "your Realm has fewer than 2 spaces to place a pair (R-PLACE-2)"
        if action.kind is ActionKind.SUMMON:
            return f"the castle still has tiles above the ground floor (top floor {self.top_floor}) (R-ACT-5)"
        if action.kind is ActionKind.PLACE:
            return "that cell is not free, or two identical tiles go lower cell first (R-PLACE-1, R-PLACE-3)"
        if action.kind is ActionKind.SHRINE:
            return "not a tile of a set Consolidated this turn with Shrine allowance left (R-SHRINE-1)"
        return "the general pool has no Shrine or your Realm has no space (R-ACT-2)"

    def _play(self, action: Action) -> None:
        seat = self.current_player
        kind = action.kind
        if kind is ActionKind.TAKE:
            self.held.append(self.castle.remove_top(action.target))
            self.turn_pick = self.held[-1].type
            self.phase = Phase.COMPLETE if len(self.held) == 1 else Phase.PLACE
        elif kind is ActionKind.TAKE_SHRINE:
            self.general_shrines -= 1
            self.pools[seat] += 1
            self.phase = Phase.PLACE
        elif kind is ActionKind.DISCARD:
            self.held.clear()
            self.discarded += 1
            self.vp[seat] += 1
            self._end_turn()
        elif kind is ActionKind.SUMMON:
            self.countdown[seat] += 1
            self._take_countdown_token()
            self._end_turn()
        elif kind is ActionKind.PLACE:
            self.realms[seat].place(action.target, self.held[self.placed])
            if self.placed == 0:
                self.first_cell = action.target
            self.placed += 1
            if self.placed == len(self.held):
                self._consolidate()
        elif kind is ActionKind.SHRINE:
            self._build_shrine(action.target)
        elif kind is ActionKind.DONE:
            self._end_turn()

    def _consolidate(self) -> None:
        """R-CONS-1..4, then the Shrine step if a Shrine can be built (R-SHRINE-1)."""
        seat = self.current_player
        self.sets, vp = self.realms[seat].consolidate(self.rules.dragon_set_bonus)
        self.vp[seat] += vp
        if self.sets and self._shrine_cells():
            self.phase = Phase.SHRINE
        else:
            self._end_turn()

    def _build_shrine(self, cell: tuple[int, int]) -> None:
        seat = self.current_player
        self.pools[seat] -= 1
        self.realms[seat].shrines.add(cell)
        next(s for s in self.sets if cell in s.cells).allowance -= 1
        if not self._shrine_cells():
            self._end_turn()

    def _take_countdown_token(self) -> None:
        """R-END-1: the last token of the track (N-th; 3rd in solo) shows the mark."""
        self.tokens_taken += 1
        if self.tokens_taken == self.track:
            self.end_triggered = True

    def _end_turn(self) -> None:
        """R-END-1: once triggered, the game ends after the last seat's turn
        (in solo the Dragon of Ingenuity's)."""
        self.last_pick[self.current_player] = self.turn_pick
        self.turn_pick = None
        self.held, self.placed, self.first_cell, self.sets = [], 0, (0, 0), []
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
        """R-END-2: VP tokens + Shrines + 2 per Countdown token (+ Dragon cards)."""
        seat = self._seat(player)
        vp, shrines, countdown = self.vp[seat], self.realms[seat].shrine_points(), 2 * self.countdown[seat]
        return {"vp": vp, "shrines": shrines, "countdown": countdown, "dragons": {}, "total": vp + shrines + countdown}

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
        other.sets = [ConsolidatedSet(set(s.cells), s.type, s.allowance) for s in self.sets]
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
            self.players, self.layout.heights, self.rules,
            {space: list(stack) for space, stack in self.castle.stacks.items()},
            [(r.heights, r.face_up, r.shrines) for r in self.realms],
            self.pools, self.vp, self.countdown, self.general_shrines, self.tokens_taken, self.end_triggered,
            self.discarded, self.turn, self.current_player, self.phase, self.held, self.placed, self.first_cell,
            [(s.cells, s.type, s.allowance) for s in self.sets],
            self.last_pick, self.turn_pick, self.dragon_tiles,
        )

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Game) and self._key() == other._key()

    __hash__ = None  # type: ignore[assignment]  # mutable

    def to_json(self) -> str:
        data = {
            "format": JSON_FORMAT,
            "version": JSON_VERSION,
            "players": self.players,
            "seed": self.seed,
            "layout": self.layout.text,
            "rules": {"dragon_set_bonus": self.rules.dragon_set_bonus},
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
        except (ValueError, TypeError) as e:
            raise ValueError(f"invalid game JSON: {e}") from None
        required = {"format", "version", "players", "seed", "layout", "rules", "deal", "actions"}
        if not isinstance(data, dict) or not required <= data.keys() <= required | {"summary", "meta"}:
            raise ValueError("invalid game JSON: expected the fields " + ", ".join(sorted(required)) + " (and summary, meta)")
        if data.get("meta") is not None and not isinstance(data["meta"], dict):
            raise ValueError("invalid game JSON: meta must be an object")
        if data["format"] != JSON_FORMAT or data["version"] != JSON_VERSION:
            raise ValueError(f"invalid game JSON: format/version {data['format']!r}/{data['version']!r} not supported")
        rules, actions, seed = data["rules"], data["actions"], data["seed"]
        if not (isinstance(rules, dict) and isinstance(rules.get("dragon_set_bonus"), bool) and isinstance(actions, list)
                and isinstance(data["deal"], list) and isinstance(data["layout"], str) and type(data["players"]) is int
                and (seed is None or (type(seed) is int and 0 <= seed < 2**64))):
            raise ValueError("invalid game JSON: a field has the wrong type")
        try:
            game = Game(data["players"], 0, layout=Layout.parse(data["layout"]), deal=data["deal"],
                        rules=Rules(dragon_set_bonus=rules["dragon_set_bonus"]))
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

    def observation(self, player: int) -> dict[str, Any]:
        return observation(self, self._seat(player))

    def observation_tensor(self, player: int):
        return observation_tensor(self, self._seat(player))

    def covered_positions(self) -> list[tuple[tuple[int, int], int]]:
        """(space, floor) of every tile below a top tile, in dealing order."""
        return [(space, floor) for space in self.castle.spaces() for floor in range(1, self.castle.height(space))]

    def hidden_counts(self) -> dict[str, int]:
        counts: dict[str, int] = {}
        for space, floor in self.covered_positions():
            code = self.castle.stacks[space][floor - 1].code
            counts[code] = counts.get(code, 0) + 1
        return counts

    def determinize(self, seed: int) -> "Game":
        """A copy with the covered tiles re-dealt among the covered positions
        (docs/seeding.md). The deal gets the same tiles, and undo replays from
        it, so undoing in the copy never shows the true covered tiles."""
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

    def validate(self) -> None:
        """Recount tiles, Shrines and tokens."""
        tiles = (self.castle.remaining() + self.discarded + len(self.held_tiles) + sum(self.dragon_tiles.values())
                 + sum(sum(r.heights.values()) for r in self.realms))
        if tiles != 116:
            raise AssertionError(f"{tiles} tiles accounted for, not 116")
        shrines = self.general_shrines + sum(self.pools) + sum(len(r.shrines) for r in self.realms)
        if shrines != SHRINES:
            raise AssertionError(f"{shrines} Shrines accounted for, not {SHRINES}")
        if sum(self.countdown) != self.tokens_taken or self.end_triggered != (self.tokens_taken >= self.track):
            raise AssertionError("Countdown tokens do not add up")
        for realm in self.realms:
            if realm.shrines & set(realm.face_up) or any(realm.heights[c] == 0 for c in realm.shrines | set(realm.face_up)):
                raise AssertionError("a Shrine or a face-up flag on an impossible cell")
        if not self.is_over and not self.legal_actions():
            raise AssertionError("no legal action in a running game")

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
