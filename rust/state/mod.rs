//! The game state: a small `Copy` value that the search can duplicate freely.
//!
//! Split by concern: [`legal`] generates decisions, [`apply`] performs them,
//! [`score`] scores, [`observe`] builds what one player may see.

pub mod apply;
pub mod legal;
pub mod observe;
pub mod score;

use crate::castle::Castle;
use crate::error::Error;
use crate::layout::Layout;
use crate::realm::{ConsolidatedSet, Realm};
use crate::action::Action;
use crate::tile::{Tile, TileType};

pub const MAX_PLAYERS: usize = 4;
/// R-POOL-1
pub const SHRINES: u8 = 40;
pub const COUNTDOWN_TOKENS: u8 = 7;
/// Sets one turn can Consolidate: each must contain a tile placed this turn, and
/// the base game places at most 2 (Spirit of Strength moves 2 more).
pub const MAX_SETS: usize = 4;

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

/// Which decision is pending. Spirit windows (R-SPIRIT-2) will be further phases
/// entered from the same turn steps (`docs/actions.md`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Phase {
    /// Start of a turn: take the first tile from the top floor (R-ACT-4) or Summon.
    Action,
    /// The first tile is in hand: complete a Pair, Tile and Shrine, or Discard.
    Complete,
    /// Place the next collected tile (R-PLACE-1).
    Place,
    /// Build Shrines on the sets just Consolidated, or `Done` (R-SHRINE-1).
    Shrine,
    GameOver,
}

impl Phase {
    pub const ALL: [Phase; 5] = [Phase::Action, Phase::Complete, Phase::Place, Phase::Shrine, Phase::GameOver];
    pub const fn name(self) -> &'static str {
        match self {
            Phase::Action => "ACTION",
            Phase::Complete => "COMPLETE",
            Phase::Place => "PLACE",
            Phase::Shrine => "SHRINE",
            Phase::GameOver => "GAME_OVER",
        }
    }
    pub fn parse(name: &str) -> Option<Phase> {
        Phase::ALL.into_iter().find(|p| p.name() == name)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Player {
    pub realm: Realm,
    pub shrine_pool: u8,
    pub vp: u16,
    pub countdown: u8,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct State {
    pub(crate) castle: Castle,
    pub(crate) players: [Player; MAX_PLAYERS],
    pub(crate) n: u8,
    pub(crate) current: u8,
    pub(crate) phase: Phase,
    /// Tiles collected this turn, in the order taken (R-PLACE-3).
    pub(crate) held: [Tile; 2],
    pub(crate) held_len: u8,
    /// How many of `held` are already placed.
    pub(crate) placed: u8,
    /// Cell of the first placed tile; orders two identical tiles (R-PLACE-3).
    pub(crate) first_cell: u8,
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
}

impl State {
    /// A new game: `players` in 1..=4 (1 is solo, R-SOLO-1), the deal in dealing order.
    pub fn new(players: usize, layout: &Layout, deal: &[Tile; Tile::TOTAL], rules: Rules) -> Result<State, Error> {
        if !(1..=MAX_PLAYERS).contains(&players) {
            return Err(Error::Setup(format!("players must be 1 (solo) to 4; got {players}")));
        }
        check_deal(deal)?;
        let solo = players == 1;
        let player = Player { shrine_pool: 1, ..Player::default() }; // R-SETUP-1
        let mut seats = [player; MAX_PLAYERS];
        if solo {
            seats[1].shrine_pool = 0; // the Dragon of Ingenuity has no Realm and no Shrine
        }
        Ok(State {
            castle: Castle::new(layout, deal),
            players: seats,
            n: if solo { 2 } else { players as u8 },
            current: 0, // R-SETUP-4
            phase: Phase::Action,
            held: [Tile::from_index_unchecked(0); 2],
            held_len: 0,
            placed: 0,
            first_cell: 0,
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
        })
    }

    /// Players with a Realm and a score (1 in solo).
    pub fn players(&self) -> usize {
        if self.solo {
            1
        } else {
            self.n as usize
        }
    }
    /// Seats taking turns (2 in solo: the player and the Dragon of Ingenuity).
    pub fn seats(&self) -> usize {
        self.n as usize
    }
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
    pub fn current_player(&self) -> usize {
        self.current as usize
    }
    pub fn phase(&self) -> Phase {
        self.phase
    }
    pub fn is_over(&self) -> bool {
        self.phase == Phase::GameOver
    }
    pub fn castle(&self) -> &Castle {
        &self.castle
    }
    pub fn player(&self, seat: usize) -> &Player {
        &self.players[seat]
    }
    pub fn rules(&self) -> Rules {
        self.rules
    }
    pub fn general_shrines(&self) -> u8 {
        self.general_shrines
    }
    pub fn tokens_taken(&self) -> u8 {
        self.tokens_taken
    }
    /// Countdown tokens still on the track (R-SETUP-2).
    pub fn countdown_left(&self) -> u8 {
        COUNTDOWN_TOKENS - self.tokens_taken
    }
    pub fn end_triggered(&self) -> bool {
        self.end_triggered
    }
    pub fn turn(&self) -> u16 {
        self.turn
    }
    pub fn discarded(&self) -> u8 {
        self.discarded
    }
    /// Tiles collected this turn and not yet placed, in placing order.
    pub fn held(&self) -> &[Tile] {
        &self.held[self.placed as usize..self.held_len as usize]
    }
    /// The sets Consolidated this turn (non-empty only in the Shrine phase).
    pub fn consolidated_sets(&self) -> &[ConsolidatedSet] {
        &self.sets[..self.n_sets as usize]
    }

    /// Recompute every derived structure from scratch and check the conservation
    /// laws; used after every step in tests.
    pub fn validate(&self) -> Result<(), String> {
        self.castle.validate()?;
        let n = self.players();
        let dragon: usize = self.dragon_tiles.iter().map(|&k| k as usize).sum();
        let mut tiles = self.castle.remaining() + self.discarded as usize + self.held().len() + dragon;
        let mut shrines = self.general_shrines as u32;
        let mut tokens = 0;
        for (i, p) in self.players.iter().enumerate() {
            if i >= n {
                if i < self.seats() {
                    tokens += p.countdown as u32; // the Dragon of Ingenuity's Summons
                    if p.realm != Realm::default() || p.shrine_pool != 0 || p.vp != 0 {
                        return Err("the Dragon of Ingenuity has a Realm, Shrines or VP".into());
                    }
                } else if *p != (Player { shrine_pool: 1, ..Player::default() }) {
                    return Err(format!("unused seat {i} is not pristine"));
                }
                continue;
            }
            let placing = self.phase == Phase::Place && i == self.current as usize;
            p.realm.validate(!placing).map_err(|e| format!("seat {i}: {e}"))?;
            tiles += p.realm.tiles() as usize;
            shrines += p.shrine_pool as u32 + p.realm.shrine_count();
            tokens += p.countdown as u32;
        }
        if tiles != Tile::TOTAL {
            return Err(format!("{tiles} tiles accounted for, not {}", Tile::TOTAL));
        }
        if shrines != SHRINES as u32 {
            return Err(format!("{shrines} Shrines accounted for, not {SHRINES}"));
        }
        if tokens != self.tokens_taken as u32 || self.tokens_taken > COUNTDOWN_TOKENS {
            return Err("Countdown tokens do not add up".into());
        }
        if self.end_triggered != (self.tokens_taken >= self.track) {
            return Err("end trigger disagrees with the Countdown track (R-END-1)".into());
        }
        if self.current as usize >= self.seats() || (self.solo && self.current != 0 && !self.is_over()) {
            return Err("current seat out of range (in solo the player is always to move)".into());
        }
        let expect_held = match self.phase {
            Phase::Complete => self.held_len == 1 && self.placed == 0,
            Phase::Place => self.held_len >= 1 && self.placed < self.held_len,
            _ => self.held().is_empty(),
        };
        if !expect_held {
            return Err(format!("held tiles {:?} do not fit phase {:?}", self.held(), self.phase));
        }
        if self.phase != Phase::Shrine && self.n_sets != 0 {
            return Err("consolidated sets outside the Shrine phase".into());
        }
        if !self.is_over() && self.legal_actions().is_empty() {
            return Err("no legal action in a running game".into());
        }
        Ok(())
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
