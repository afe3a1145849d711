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
    /// Merchant Faction, `Me1`–`Me6`.
    Merchant = 0,
    /// Soldier Faction, `So1`–`So6`.
    Soldier = 1,
    /// Farmer Faction, `Fa1`–`Fa6`.
    Farmer = 2,
    /// Season, a Special type: `Se1`–`Se4` (the numbering is ours, R-TILE-1).
    Season = 3,
    /// Wind, a Special type: `Wi1`–`Wi4`.
    Wind = 4,
    /// Dragon, a Special type: `Dr1`–`Dr3`; a set of them scores +1 (R-CONS-3).
    Dragon = 5,
}

impl TileType {
    /// The six types in index order: the Factions, then the Special types.
    pub const ALL: [TileType; 6] = [
        TileType::Merchant,
        TileType::Soldier,
        TileType::Farmer,
        TileType::Season,
        TileType::Wind,
        TileType::Dragon,
    ];
    /// Number of tile types.
    pub const COUNT: usize = 6;

    /// Position in [`TileType::ALL`] (0 to 5), as in action ids and observations.
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The type at position `i` of [`TileType::ALL`]; `None` past 5.
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

    /// Upper-case name (`MERCHANT`, …); a `change` action's text uses it in lower case.
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

    /// Whether this is a Faction (Merchant, Soldier, Farmer: numbered 1–6, a set allows 1 Shrine);
    /// the Special types' sets allow 2 (R-SHRINE-1).
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
    pub(crate) const fn first(self) -> u8 {
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
    /// Distinct symbols (R-TILE-1).
    pub const SYMBOLS: usize = 29;
    /// Copies of each symbol: identical tiles are copies of one symbol (R-TILE-2).
    pub const COPIES: usize = 4;
    /// Tiles in the game: 29 symbols × 4 = 116.
    pub const TOTAL: usize = Self::SYMBOLS * Self::COPIES; // 116

    /// The symbol at index `i` in code order; `None` past 28.
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

    /// Symbol `symbol` (from 1) of type `t`: `new(TileType::Dragon, 2)` is `Dr2`; `None` if the type
    /// has no such symbol.
    pub const fn new(t: TileType, symbol: u8) -> Option<Tile> {
        if symbol >= 1 && symbol <= t.symbols() {
            Some(Tile(t.first() + symbol - 1))
        } else {
            None
        }
    }

    /// Index in code order (0 to 28): the order of the seeded deal and of the observation planes.
    pub const fn index(self) -> u8 {
        self.0
    }

    /// The type of this symbol.
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

    /// The three-character code (`Me1` … `Dr3`) that `Display` writes and [`Tile::parse`] reads.
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

    /// The 29 symbols in code order.
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
