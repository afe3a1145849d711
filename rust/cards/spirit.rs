//! The Spirit cards' table (R-SPIRIT-1, R-SPIRIT-2, `docs/cards.md`): names,
//! indices and where a card needs a pick still to come. What each card does
//! to a game in progress lives with the state (`state/spirit.rs`), as the
//! Dragons' scoring lives in `dragon.rs` beside this file.

/// Spirit cards.
pub const SPIRIT_CARDS: usize = 10;

/// Spirit card names in card-index order.
pub const SPIRITS: [&str; SPIRIT_CARDS] =
    ["beauty", "elegance", "wind", "deception", "strength", "change", "faith", "destruction", "deep", "cunning"];

pub const BEAUTY: u8 = 0;
pub const ELEGANCE: u8 = 1;
pub const WIND: u8 = 2;
pub const DECEPTION: u8 = 3;
pub const STRENGTH: u8 = 4;
pub const CHANGE: u8 = 5;
pub const FAITH: u8 = 6;
pub const DESTRUCTION: u8 = 7;
pub const DEEP: u8 = 8;
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
        }
    }
}
