//! The one value that describes a new game: players, seed, layout, rules, an
//! explicit deal, and the cards. `Game`, the batch API, the arena and JSON all
//! build their games from it.

use crate::cards::{resolve, Cards};
use crate::error::Error;
use crate::layout::Layout;
use crate::state::{check_deal, seeded_deal, Rules, State, MAX_PLAYERS};
use crate::tile::Tile;

/// Everything that describes a new game: players, seed, layout, rules, an explicit deal, and the
/// cards. [`Setup::validate`] checks what a user can get wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setup {
    /// 1 (solo against the Dragon of Ingenuity) to 4.
    pub players: usize,
    /// The seed of the deal and of drawn cards (R-SEED-1).
    pub seed: u64,
    /// `None`: the standard layout for the player count.
    pub layout: Option<Layout>,
    /// Rule options (the Dragon-set bonus is on by default).
    pub rules: Rules,
    /// An explicit deal instead of the seeded shuffle (116 tiles in dealing order).
    pub deal: Option<Vec<Tile>>,
    /// Spirit cards in play: none, a count drawn from the seed, or named (R-SETUP-3).
    pub spirits: Cards,
    /// Dragon cards in play, as for `spirits`.
    pub dragons: Cards,
}

impl Setup {
    /// The base game for `players` dealt from `seed`.
    pub fn new(players: usize, seed: u64) -> Setup {
        Setup { players, seed, layout: None, rules: Rules::default(), deal: None, spirits: Cards::None, dragons: Cards::None }
    }

    /// This setup with these Spirit and Dragon cards.
    pub fn with_cards(mut self, spirits: Cards, dragons: Cards) -> Setup {
        self.spirits = spirits;
        self.dragons = dragons;
        self
    }

    /// This setup with these rule options.
    pub fn with_rules(mut self, rules: Rules) -> Setup {
        self.rules = rules;
        self
    }

    /// The layout in use.
    pub fn layout(&self) -> Layout {
        self.layout.clone().unwrap_or_else(|| Layout::for_players(self.players))
    }

    /// Check everything a user can get wrong.
    pub fn validate(&self) -> Result<(), Error> {
        check_players(self.players as i64)?;
        if let Some(d) = &self.deal {
            check_deal(d)?;
        }
        for (what, c, table) in [("Spirit", &self.spirits, &crate::cards::SPIRITS), ("Dragon", &self.dragons, &crate::cards::DRAGONS)] {
            match c {
                Cards::Draw(k) if *k > table.len() => return Err(Error::Setup(format!("{what} count must be 0 to 10; got {k}"))),
                Cards::Named(v) if v.iter().any(|&i| i as usize >= table.len()) => {
                    return Err(Error::Setup(format!("unknown {what} card index")))
                }
                _ => {}
            }
        }
        Ok(())
    }

    /// The deal in dealing order.
    pub fn deal(&self) -> [Tile; Tile::TOTAL] {
        self.deal_for(self.seed)
    }

    fn deal_for(&self, seed: u64) -> [Tile; Tile::TOTAL] {
        match &self.deal {
            Some(d) if d.len() == Tile::TOTAL => {
                let mut a = [Tile::from_index_unchecked(0); Tile::TOTAL];
                a.copy_from_slice(d);
                a
            }
            _ => seeded_deal(seed),
        }
    }

    /// The cards in play, as masks (`docs/cards.md`, "The draw").
    pub fn cards(&self) -> (u16, u16) {
        resolve(&self.spirits, &self.dragons, self.seed)
    }

    /// The opening state.
    pub fn state(&self) -> Result<State, Error> {
        self.state_seeded(self.seed)
    }

    /// The opening state of this set-up dealt, and its cards drawn, from
    /// `seed` instead (game `k` of a batch), without copying the set-up.
    pub fn state_seeded(&self, seed: u64) -> Result<State, Error> {
        self.validate()?;
        let (spirits, dragons) = resolve(&self.spirits, &self.dragons, seed);
        let deal = self.deal_for(seed);
        Ok(match &self.layout {
            Some(layout) => State::checked(self.players, layout, &deal, self.rules, spirits, dragons),
            None => State::checked(self.players, &Layout::for_players(self.players), &deal, self.rules, spirits, dragons),
        })
    }

    /// The same setup dealt from another seed (game `k` of a batch).
    pub fn reseeded(&self, seed: u64) -> Setup {
        Setup { seed, ..self.clone() }
    }
}
/// `players` checked as a player count: 1 (solo, R-SOLO-1) to 4 (R-SETUP-1).
/// The one check behind every API that takes a player count.
pub fn check_players(players: i64) -> Result<usize, Error> {
    if (1..=MAX_PLAYERS as i64).contains(&players) {
        Ok(players as usize)
    } else {
        Err(Error::Setup(format!("players must be 1 (solo) to 4; got {players}")))
    }
}

