//! The Spirit and Dragon cards (`docs/cards.md`): the Spirits' table
//! (`spirit.rs`), the Dragons' table and scoring (`dragon.rs`), and which
//! cards a game puts in play. The Spirits' effects change a game in progress
//! and live with the state (`state/spirit.rs`).

pub mod dragon;
pub mod spirit;

use crate::error::Error;
use crate::rng::{stream, SplitMix64};

pub use spirit::{SPIRITS, SPIRIT_CARDS, SPIRIT_EFFECTS};
pub use dragon::{dragon_points, DRAGONS, DRAGON_CARDS, DRAGON_EFFECTS};

/// Cards asked for at setup: none, a count drawn from the seed, or by index.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub enum Cards {
    /// No card of this kind in play.
    #[default]
    None,
    /// This many cards (1 to 10), drawn from the seed ([`resolve`]).
    Draw(usize),
    /// These cards, by index in their table ([`SPIRITS`] or [`DRAGONS`]), without repeats.
    Named(Vec<u8>),
}

impl Cards {
    /// Parse a list of names (any case) against `table`; repeats and unknown
    /// names are errors.
    pub fn named(names: &[&str], table: &[&str], what: &str) -> Result<Cards, Error> {
        let mut out = Vec::new();
        for n in names {
            let lower = n.trim().to_ascii_lowercase();
            let i = table
                .iter()
                .position(|t| *t == lower)
                .ok_or_else(|| Error::Setup(format!("unknown {what} card {n:?}; the cards are {}", table.join(", "))))?;
            if out.contains(&(i as u8)) {
                return Err(Error::Setup(format!("{what} card {lower:?} is named twice")));
            }
            out.push(i as u8);
        }
        Ok(Cards::Named(out))
    }

    /// `count` cards to draw; more than the 10 cards is an error.
    pub fn draw(count: i64, what: &str) -> Result<Cards, Error> {
        if !(0..=10).contains(&count) {
            return Err(Error::Setup(format!("{what} count must be 0 to 10; got {count}")));
        }
        Ok(if count == 0 { Cards::None } else { Cards::Draw(count as usize) })
    }
}

/// The cards in play for `seed` (R-SETUP-3, `docs/seeding.md`): one generator
/// `stream(seed, CARDS)` shuffles the ten Spirit indices, then the ten Dragon
/// indices; a count takes the first cards of its shuffle. Both shuffles always
/// run, so the Dragons drawn do not depend on the Spirits asked for.
pub fn resolve(spirits: &Cards, dragons: &Cards, seed: u64) -> (u16, u16) {
    let mut rng = SplitMix64::stream(seed, stream::CARDS);
    let mut order_s: [u8; 10] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9];
    let mut order_d = order_s;
    rng.shuffle(&mut order_s);
    rng.shuffle(&mut order_d);
    let mask = |c: &Cards, order: &[u8; 10]| -> u16 {
        match c {
            Cards::None => 0,
            Cards::Draw(k) => order[..*k].iter().fold(0, |m, &i| m | 1 << i),
            Cards::Named(v) => v.iter().fold(0, |m, &i| m | 1 << i),
        }
    };
    (mask(spirits, &order_s), mask(dragons, &order_d))
}

/// Names of the cards of `mask`, in card order.
pub fn names(mask: u16, table: &'static [&'static str]) -> Vec<&'static str> {
    (0..table.len()).filter(|i| mask & (1 << i) != 0).map(|i| table[i]).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn draws_are_reproducible_and_sized() {
        for seed in 0..50 {
            let (s, d) = resolve(&Cards::Draw(3), &Cards::Draw(2), seed);
            assert_eq!((s.count_ones(), d.count_ones()), (3, 2));
            assert_eq!(resolve(&Cards::Draw(3), &Cards::Draw(2), seed), (s, d));
            // The Dragons do not depend on the Spirits asked for.
            assert_eq!(resolve(&Cards::None, &Cards::Draw(2), seed).1, d);
        }
        assert!(Cards::named(&["wind", "Wind"], &SPIRITS, "Spirit").is_err());
        assert!(Cards::named(&["fire"], &SPIRITS, "Spirit").is_err());
        assert!(Cards::draw(11, "Spirit").is_err());
    }
}
