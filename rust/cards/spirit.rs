//! The Spirit cards' table (R-SPIRIT-1, R-SPIRIT-2, `docs/cards.md`): names,
//! indices and where a card needs a pick still to come. What each card does
//! to a game in progress lives with the state (`state/spirit.rs`), as the
//! Dragons' scoring lives in `dragon.rs` beside this file.

/// Spirit cards.
pub const SPIRIT_CARDS: usize = 10;

/// Spirit card names in card-index order.
pub const SPIRITS: [&str; SPIRIT_CARDS] =
    ["beauty", "elegance", "wind", "deception", "strength", "change", "faith", "destruction", "deep", "cunning"];

/// What each Spirit does, in one line for people (the picture's tooltips), in card-index order.
pub const SPIRIT_EFFECTS: [&str; SPIRIT_CARDS] = [
    "Beauty: pay a tile or a Shrine, then Consolidate a group of 4 or more face-up Faction tiles of one number: VP for its size + 1, up to 2 Shrines.",
    "Elegance: for the rest of the turn a pick may take a tile that is not Available but has a free short side; the next pick must be one.",
    "Wind: turn a face-up Realm tile face down (no VP) and/or move a Shrine you built to another face-down tile.",
    "Deception: the second tile of a Pair may be any tile that touched the first (a neighbour on its floor, or the tile under it).",
    "Strength: move one or two top tiles of your Realm without a Shrine to empty cells or face-down tops.",
    "Change: a face-up Special tile counts as another type, to complete a set of 4 or more that is Consolidated as that type.",
    "Faith: build one more Shrine this turn on a tile of any set Consolidated this turn.",
    "Destruction: discard an Available castle tile from any floor, out of the game.",
    "Deep: the second tile of a Pair may be any tile of the first tile's type.",
    "Cunning: Consolidate a group of exactly 3 face-up tiles of one type: 2 VP (+1 for Dragons), Shrines by its type.",
];

/// Beauty: Consolidate a group of 4 or more face-up Faction tiles of one number, +1 VP (phase `SET`).
pub const BEAUTY: u8 = 0;
/// Elegance: for the rest of the turn a pick may take a tile with a free short side (R-AVAIL-3).
pub const ELEGANCE: u8 = 1;
/// Wind: flip a face-up tile and/or move a built Shrine (phases `WIND`, `WIND_TO`).
pub const WIND: u8 = 2;
/// Deception: the second tile of a Pair may be one that touched the first (`COMPLETE`).
pub const DECEPTION: u8 = 3;
/// Strength: move one or two Realm top tiles without a Shrine (phases `STRENGTH`, `STRENGTH_TO`).
pub const STRENGTH: u8 = 4;
/// Change: a face-up Special tile counts as another type to complete a set (phase `CHANGE`).
pub const CHANGE: u8 = 5;
/// Faith: one more Shrine this turn, on a tile of any set Consolidated this turn.
pub const FAITH: u8 = 6;
/// Destruction: discard an Available castle tile from any floor (phase `DESTROY`).
pub const DESTRUCTION: u8 = 7;
/// Deep: the second tile of a Pair may be any tile of the first tile's type (`COMPLETE`).
pub const DEEP: u8 = 8;
/// Cunning: Consolidate a group of exactly 3 face-up tiles of one type (phase `SET`).
pub const CUNNING: u8 = 9;

/// Spirits that need a pick still to come (Elegance: `ACTION` or `COMPLETE`)
/// or are the second pick of a Pair (Deception, Deep: `COMPLETE`), as a mask
/// over card indices; every other Spirit may apply at any decision point.
pub const PICKS: u16 = 1 << ELEGANCE | 1 << DECEPTION | 1 << DEEP;
/// The second pick of a Pair: never before the first.
pub const SECOND_PICKS: u16 = 1 << DECEPTION | 1 << DEEP;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn indices_name_the_cards() {
        let named = [BEAUTY, ELEGANCE, WIND, DECEPTION, STRENGTH, CHANGE, FAITH, DESTRUCTION, DEEP, CUNNING];
        for (k, &card) in named.iter().enumerate() {
            assert_eq!(card as usize, k, "{}", SPIRITS[k]);
            assert!(SPIRIT_EFFECTS[k].to_ascii_lowercase().starts_with(SPIRITS[k]), "{}", SPIRIT_EFFECTS[k]);
        }
    }
}
