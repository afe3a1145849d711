//! The game state: a small `Copy` value that the search can duplicate freely.
//!
//! Split by concern: [`legal`] generates decisions, [`apply`] performs them,
//! [`score`] scores, [`observe`] builds what one player may see.

pub mod apply;
mod invariants;
pub mod legal;
mod memo;
pub mod observe;
mod phase;
pub mod score;
pub mod spirit;
pub mod turn;

pub use phase::Phase;

use crate::castle::Castle;
use crate::error::Error;
use crate::layout::Layout;
use crate::realm::{ConsolidatedSet, Realm};
use crate::action::Action;
use crate::tile::{Tile, TileType};

/// Players a game may have: 1 (solo, the Dragon of Ingenuity in seat 1) to 4; seats are kept in
/// arrays of this size.
pub const MAX_PLAYERS: usize = 4;
/// R-POOL-1
pub const SHRINES: u8 = 40;
/// Countdown tokens in the game: N on the track, 7 − N on the stack (R-SETUP-2).
pub const COUNTDOWN_TOKENS: u8 = 7;
/// Sets one turn can Consolidate. Each set turns at least 3 face-up tiles face
/// down (4, or 3 for Cunning), and no tile turns face up again: a turn starts
/// with at most 16 face-up tiles and places at most 2, so at most 18 / 3 = 6
/// sets. A Consolidation that would exceed this panics (a proof error).
pub const MAX_SETS: usize = 8;

/// Rule options (`Rules(...)` in Python).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rules {
    /// R-CONS-3: +1 VP for Consolidating a set of Dragon tiles.
    pub dragon_set_bonus: bool,
}

impl Default for Rules {
    fn default() -> Self {
        Rules { dragon_set_bonus: true }
    }
}

/// What one seat holds: its Realm, its Shrine Pool, its VP tokens and its Countdown tokens.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Player {
    /// The seat's Realm (empty for the solo Dragon of Ingenuity).
    pub realm: Realm,
    /// Shrines in the seat's own Shrine Pool, ready to build (1 at the start, R-SETUP-1).
    pub shrine_pool: u8,
    /// VP tokens: Consolidated sets and Discards (Shrines and Countdown tokens score apart).
    pub vp: u16,
    /// Countdown tokens taken by Summoning, 2 VP each (R-END-2).
    pub countdown: u8,
}

/// The whole position: the castle, every seat's Realm and pools, the turn's progress and the
/// Spirits' memory. A small `Copy` value that the search duplicates freely;
/// [`crate::Game`] adds the history.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct State {
    pub(crate) castle: Castle,
    pub(crate) players: [Player; MAX_PLAYERS],
    /// Seats that take turns: the players, and in solo the Dragon of Ingenuity's too.
    pub(crate) seats: u8,
    pub(crate) current: u8,
    pub(crate) phase: Phase,
    /// Tiles collected this turn, in the order taken (R-PLACE-3).
    pub(crate) held: [Tile; 2],
    pub(crate) held_len: u8,
    /// How many of `held` are already placed.
    pub(crate) placed: u8,
    /// Cells placed this turn: without a Spirit, any new set contains one;
    /// while one tile of two is placed, its cell orders identical tiles (R-PLACE-3).
    pub(crate) placed_cells: u16,
    pub(crate) sets: [ConsolidatedSet; MAX_SETS],
    pub(crate) n_sets: u8,
    pub(crate) general_shrines: u8,
    pub(crate) tokens_taken: u8,
    pub(crate) end_triggered: bool,
    /// Tiles out of the game (Discard Tile).
    pub(crate) discarded: u8,
    /// Turns completed so far.
    pub(crate) turn: u16,
    pub(crate) rules: Rules,
    /// Solo game: seat 1 is the Dragon of Ingenuity, which plays by itself.
    pub(crate) solo: bool,
    /// Countdown tokens on the track (R-SETUP-2): the last one triggers the end.
    pub(crate) track: u8,
    /// Type of the tiles each seat picked in its last turn (none after a Summon);
    /// the Dragon of Ingenuity follows the previous seat's (R-SOLO-3).
    pub(crate) last_pick: [Option<TileType>; MAX_PLAYERS],
    pub(crate) turn_pick: Option<TileType>,
    pub(crate) dragon_tiles: [u8; Tile::SYMBOLS],
    pub(crate) dragon_log: [Action; 3],
    pub(crate) dragon_log_len: u8,
    /// Spirit and Dragon cards in play, as masks over card indices.
    pub(crate) spirits: u16,
    pub(crate) dragons: u16,
    /// What the Spirits did this turn (cleared when it ends).
    pub(crate) turn_cards: spirit::TurnCards,
    /// No Spirit will be activated in this copy of the game (a rollout whose
    /// policy never activates one): no activation is offered, so the turn
    /// skips `SPIRITS` and `END_TURN`, where such a player would say `done`.
    pub(crate) passive: bool,
}

impl State {
    /// A new game: `players` in 1..=4 (1 is solo, R-SOLO-1), the deal in dealing order.
    pub fn new(players: usize, layout: &Layout, deal: &[Tile; Tile::TOTAL], rules: Rules) -> Result<State, Error> {
        State::with_cards(players, layout, deal, rules, 0, 0)
    }

    /// A new game with the Spirit and Dragon cards of the masks in play.
    pub fn with_cards(
        players: usize,
        layout: &Layout,
        deal: &[Tile; Tile::TOTAL],
        rules: Rules,
        spirits: u16,
        dragons: u16,
    ) -> Result<State, Error> {
        if spirits >> crate::cards::SPIRIT_CARDS != 0 || dragons >> crate::cards::DRAGON_CARDS != 0 {
            return Err(Error::Setup("card masks name cards that do not exist".into()));
        }
        crate::setup::check_players(players as i64)?;
        check_deal(deal)?;
        Ok(State::checked(players, layout, deal, rules, spirits, dragons))
    }

    /// [`State::with_cards`] for arguments already checked ([`crate::Setup::validate`]
    /// checks everything, and a seeded deal is valid by construction).
    pub(crate) fn checked(
        players: usize,
        layout: &Layout,
        deal: &[Tile; Tile::TOTAL],
        rules: Rules,
        spirits: u16,
        dragons: u16,
    ) -> State {
        let solo = players == 1;
        let player = Player { shrine_pool: 1, ..Player::default() }; // R-SETUP-1
        let mut seats = [player; MAX_PLAYERS];
        if solo {
            seats[1].shrine_pool = 0; // the Dragon of Ingenuity has no Realm and no Shrine
        }
        State {
            castle: Castle::new(layout, deal),
            players: seats,
            seats: if solo { 2 } else { players as u8 },
            current: 0, // R-SETUP-4
            phase: Phase::Action,
            held: [Tile::from_index_unchecked(0); 2],
            held_len: 0,
            placed: 0,
            placed_cells: 0,
            sets: [ConsolidatedSet::default(); MAX_SETS],
            n_sets: 0,
            general_shrines: SHRINES - players as u8,
            tokens_taken: 0,
            end_triggered: false,
            discarded: 0,
            turn: 0,
            rules,
            solo,
            track: if solo { crate::solo::SOLO_TRACK } else { players as u8 },
            last_pick: [None; MAX_PLAYERS],
            turn_pick: None,
            dragon_tiles: [0; Tile::SYMBOLS],
            dragon_log: [Action::Done; 3],
            dragon_log_len: 0,
            spirits,
            dragons,
            turn_cards: spirit::TurnCards::default(),
            passive: false,
        }
    }

    /// This copy of the game for a player that never activates a Spirit
    /// (the search's rollouts): no activation is offered from now on, and
    /// the turn skips the decision points where that player would only say
    /// `done`. Scores and every other decision are the same.
    ///
    /// Between the placements of two identical tiles whose first went down
    /// while a Spirit could still come between them, the two orders were
    /// different moves (R-PLACE-3): the second tile keeps every free cell
    /// (R-PLACE-1), even below the first's.
    pub fn never_activate(&mut self) {
        if self.between_placements() && self.held[0] == self.held[1] && !self.pair_is_one_move() {
            self.turn_cards.unordered = true;
        }
        self.passive = true;
    }

    /// The player to move. `current` is below the seat count, so the index
    /// is taken modulo the array's length: no bounds check on the paths
    /// that every decision takes (the picks' and the Spirits' legality).
    #[inline(always)]
    pub(crate) fn mover(&self) -> &Player {
        &self.players[self.current as usize % MAX_PLAYERS]
    }

    /// One tile of two is placed, the other still in hand: a group made by
    /// the first placement waits for the Consolidation step.
    #[inline]
    pub(crate) fn between_placements(&self) -> bool {
        self.held_len == 2 && self.placed == 1
    }

    /// Players with a Realm and a score (1 in solo).
    pub fn players(&self) -> usize {
        if self.solo {
            1
        } else {
            self.seats as usize
        }
    }
    /// Seats taking turns (2 in solo: the player and the Dragon of Ingenuity).
    pub fn seats(&self) -> usize {
        self.seats as usize
    }
    /// Whether this is a solo game against the Dragon of Ingenuity (R-SOLO-1).
    pub fn is_solo(&self) -> bool {
        self.solo
    }
    pub(crate) fn previous_seat(&self) -> usize {
        (self.current as usize + self.seats() - 1) % self.seats()
    }
    /// The type of the tiles `seat` picked in its last turn (None after a Summon).
    pub fn last_pick_of(&self, seat: usize) -> Option<TileType> {
        self.last_pick[seat]
    }
    /// The seat to move (always 0 in solo: the Dragon of Ingenuity plays inside `apply`).
    pub fn current_player(&self) -> usize {
        self.current as usize
    }
    /// Whose view an observation takes by default: the seat to move, or
    /// seat 0 while that seat has no Realm (the solo Dragon's).
    pub fn default_observer(&self) -> usize {
        if self.current_player() < self.players() {
            self.current_player()
        } else {
            0
        }
    }
    /// Which decision is pending.
    pub fn phase(&self) -> Phase {
        self.phase
    }
    /// Whether the game has ended (phase `GAME_OVER`).
    pub fn is_over(&self) -> bool {
        self.phase == Phase::GameOver
    }
    /// The castle as it stands.
    pub fn castle(&self) -> &Castle {
        &self.castle
    }
    /// `player` checked as a player's seat of this game, 0 to `players() - 1`
    /// (solo: 0; the Dragon of Ingenuity's seat is not a player's): the one
    /// check behind every API that names a player.
    pub fn check_seat(&self, player: i64) -> Result<usize, Error> {
        let n = self.players() as i64;
        if (0..n).contains(&player) {
            Ok(player as usize)
        } else {
            Err(Error::Setup(format!("player {player} is not a seat of this {n}-player game")))
        }
    }
    /// The Realm, pools and tokens of `seat`, which must be below 4; seats
    /// past the game's hold an empty player ([`State::check_seat`] checks a
    /// seat that comes from outside).
    pub fn player(&self, seat: usize) -> &Player {
        &self.players[seat]
    }
    /// The rule options of this game.
    pub fn rules(&self) -> Rules {
        self.rules
    }
    /// Shrines left in the general pool (40 − N at the start), where Tile and Shrine takes one.
    pub fn general_shrines(&self) -> u8 {
        self.general_shrines
    }
    /// Countdown tokens taken so far, by every seat (R-ACT-5).
    pub fn tokens_taken(&self) -> u8 {
        self.tokens_taken
    }
    /// Countdown tokens still on the track (R-SETUP-2).
    pub fn countdown_left(&self) -> u8 {
        COUNTDOWN_TOKENS - self.tokens_taken
    }
    /// Whether the last token of the Countdown track has been taken: the game ends when the round
    /// does (R-END-1).
    pub fn end_triggered(&self) -> bool {
        self.end_triggered
    }
    /// Turns completed so far.
    pub fn turn(&self) -> u16 {
        self.turn
    }
    /// Tiles out of the game: Discarded, paid for a Spirit, or destroyed.
    pub fn discarded(&self) -> u8 {
        self.discarded
    }
    /// Tiles collected this turn and not yet placed, in placing order.
    pub fn held(&self) -> &[Tile] {
        &self.held[self.placed as usize..self.held_len as usize]
    }
    /// Spirit cards in play (mask over [`crate::cards::SPIRITS`]).
    pub fn spirits(&self) -> u16 {
        self.spirits
    }
    /// Dragon cards in play (mask over [`crate::cards::DRAGONS`]).
    pub fn dragons(&self) -> u16 {
        self.dragons
    }
    /// Whether any card is in play (the solo variant, R-SOLO-1).
    pub fn has_cards(&self) -> bool {
        self.spirits != 0 || self.dragons != 0
    }
    /// What the Spirits did this turn so far.
    pub fn turn_cards(&self) -> &spirit::TurnCards {
        &self.turn_cards
    }
    /// The sets Consolidated this turn.
    pub fn consolidated_sets(&self) -> &[ConsolidatedSet] {
        &self.sets[..self.n_sets as usize]
    }
}

/// R-TILE-1: a deal holds each of the 29 symbols exactly 4 times.
pub fn check_deal(deal: &[Tile]) -> Result<(), Error> {
    if deal.len() != Tile::TOTAL {
        return Err(Error::Setup(format!("a deal has {} tiles, not {}", deal.len(), Tile::TOTAL)));
    }
    let mut count = [0u8; Tile::SYMBOLS];
    for t in deal {
        count[t.index() as usize] += 1;
    }
    for t in Tile::all() {
        let c = count[t.index() as usize];
        if c != Tile::COPIES as u8 {
            return Err(Error::Setup(format!("the deal has {c} copies of {t}; each code must appear exactly 4 times")));
        }
    }
    Ok(())
}

/// The seeded deal (R-SEED-1): the 116 tiles in code order, 4 copies each
/// (`Me1 Me1 Me1 Me1 Me2 …`), Fisher–Yates shuffled with SplitMix64(seed).
pub fn seeded_deal(seed: u64) -> [Tile; Tile::TOTAL] {
    let mut deal = [Tile::from_index_unchecked(0); Tile::TOTAL];
    for (i, t) in deal.iter_mut().enumerate() {
        *t = Tile::from_index_unchecked((i / Tile::COPIES) as u8);
    }
    crate::rng::SplitMix64::stream(seed, crate::rng::stream::DEAL).shuffle(&mut deal);
    deal
}
