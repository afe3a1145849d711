//! Tiles: 29 symbols in six types, four copies of each (R-TILE-1, R-TILE-2).
//!
//! A [`Tile`] is the symbol, not the physical piece: the four copies of `Dr2`
//! are the same `Tile`, which is exactly the rulebook's notion of *identical*.

use std::fmt;

use crate::error::Error;

/// The six tile types. Three Factions (numbered 1–6) and three Special types.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum TileType {
    Merchant = 0,
    Soldier = 1,
    Farmer = 2,
    Season = 3,
    Wind = 4,
    Dragon = 5,
}

impl TileType {
    pub const ALL: [TileType; 6] = [
        TileType::Merchant,
        TileType::Soldier,
        TileType::Farmer,
        TileType::Season,
        TileType::Wind,
        TileType::Dragon,
    ];
    pub const COUNT: usize = 6;

    pub const fn index(self) -> usize {
        self as usize
    }

    pub const fn from_index(i: usize) -> Option<TileType> {
        match i {
            0 => Some(TileType::Merchant),
            1 => Some(TileType::Soldier),
            2 => Some(TileType::Farmer),
            3 => Some(TileType::Season),
            4 => Some(TileType::Wind),
            5 => Some(TileType::Dragon),
            _ => None,
        }
    }

    /// Two-letter prefix of the tile codes of this type.
    pub const fn prefix(self) -> &'static str {
        match self {
            TileType::Merchant => "Me",
            TileType::Soldier => "So",
            TileType::Farmer => "Fa",
            TileType::Season => "Se",
            TileType::Wind => "Wi",
            TileType::Dragon => "Dr",
        }
    }

    pub const fn name(self) -> &'static str {
        match self {
            TileType::Merchant => "MERCHANT",
            TileType::Soldier => "SOLDIER",
            TileType::Farmer => "FARMER",
            TileType::Season => "SEASON",
            TileType::Wind => "WIND",
            TileType::Dragon => "DRAGON",
        }
    }

    pub const fn is_faction(self) -> bool {
        (self as u8) < 3
    }

    /// Symbols of this type: 6 for Factions, 4 for Seasons and Winds, 3 for Dragons.
    pub const fn symbols(self) -> u8 {
        match self {
            TileType::Merchant | TileType::Soldier | TileType::Farmer => 6,
            TileType::Season | TileType::Wind => 4,
            TileType::Dragon => 3,
        }
    }

    /// Index of the first symbol of this type in the [`Tile`] numbering.
    const fn first(self) -> u8 {
        match self {
            TileType::Merchant => 0,
            TileType::Soldier => 6,
            TileType::Farmer => 12,
            TileType::Season => 18,
            TileType::Wind => 22,
            TileType::Dragon => 26,
        }
    }
}

/// One of the 29 tile symbols, numbered 0..29 in code order
/// `Me1..Me6, So1..So6, Fa1..Fa6, Se1..Se4, Wi1..Wi4, Dr1..Dr3`.
/// That order is part of the seeded deal (R-SEED-1), so it never changes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Tile(u8);

impl Tile {
    pub const SYMBOLS: usize = 29;
    pub const COPIES: usize = 4;
    pub const TOTAL: usize = Self::SYMBOLS * Self::COPIES; // 116

    pub const fn from_index(i: u8) -> Option<Tile> {
        if (i as usize) < Self::SYMBOLS {
            Some(Tile(i))
        } else {
            None
        }
    }

    /// Caller guarantees `i < 29` (used where the index comes from our own tables).
    pub(crate) const fn from_index_unchecked(i: u8) -> Tile {
        Tile(i)
    }

    pub const fn new(t: TileType, symbol: u8) -> Option<Tile> {
        if symbol >= 1 && symbol <= t.symbols() {
            Some(Tile(t.first() + symbol - 1))
        } else {
            None
        }
    }

    pub const fn index(self) -> u8 {
        self.0
    }

    pub const fn tile_type(self) -> TileType {
        match self.0 {
            0..=5 => TileType::Merchant,
            6..=11 => TileType::Soldier,
            12..=17 => TileType::Farmer,
            18..=21 => TileType::Season,
            22..=25 => TileType::Wind,
            _ => TileType::Dragon,
        }
    }

    /// The symbol within the type, from 1.
    pub const fn symbol(self) -> u8 {
        self.0 - self.tile_type().first() + 1
    }

    /// The Faction number (1–6), `None` for Special tiles: their symbols are not numbers.
    pub const fn number(self) -> Option<u8> {
        if self.tile_type().is_faction() {
            Some(self.symbol())
        } else {
            None
        }
    }

    pub fn code(self) -> String {
        format!("{}{}", self.tile_type().prefix(), self.symbol())
    }

    /// Parse a code such as `Dr2` (case-insensitive).
    pub fn parse(code: &str) -> Result<Tile, Error> {
        let bad = || Error::Parse(format!("bad tile code \"{code}\" (expected e.g. Me1, So6, Se4, Wi2, Dr3)"));
        let code = code.trim();
        if !code.is_ascii() || code.len() != 3 {
            return Err(bad());
        }
        let prefix = &code[..2];
        let t = TileType::ALL
            .into_iter()
            .find(|t| t.prefix().eq_ignore_ascii_case(prefix))
            .ok_or_else(bad)?;
        let digit = code.as_bytes()[2];
        if !digit.is_ascii_digit() {
            return Err(bad());
        }
        Tile::new(t, digit - b'0').ok_or_else(bad)
    }

    pub fn all() -> impl Iterator<Item = Tile> {
        (0..Self::SYMBOLS as u8).map(Tile)
    }
}

impl fmt::Display for Tile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.tile_type().prefix(), self.symbol())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_round_trip_and_count() {
        // R-TILE-1: 29 symbols, 72 Faction tiles and 44 Special tiles in all.
        assert_eq!(Tile::all().count(), 29);
        let faction = Tile::all().filter(|t| t.tile_type().is_faction()).count();
        assert_eq!(faction * 4, 72);
        assert_eq!((29 - faction) * 4, 44);
        for t in Tile::all() {
            assert_eq!(Tile::parse(&t.code()).unwrap(), t);
        }
        assert_eq!(Tile::parse("dr2").unwrap().code(), "Dr2");
        assert!(Tile::parse("Dr4").is_err());
        assert!(Tile::parse("Me0").is_err());
        assert!(Tile::parse("Xx1").is_err());
        assert!(Tile::parse("Me12").is_err());
        assert!(Tile::parse("é1").is_err());
    }

    #[test]
    fn numbers_only_for_factions() {
        assert_eq!(Tile::parse("Fa6").unwrap().number(), Some(6));
        assert_eq!(Tile::parse("Se1").unwrap().number(), None);
    }
}
