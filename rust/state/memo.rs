//! A per-thread memo of the Spirits' payments (R-SPIRIT-1).
//!
//! Activations are offered at every decision point of a turn, and the turn's
//! flow asks whether one is legal before it enters `SPIRITS` or `END_TURN`,
//! so the same card is judged on the same Realm several times a turn: at the
//! Action, at the second pick and at the first placement the Realm has not
//! changed, and the decision point after a transition repeats the question
//! the transition asked. In seeded random games 55–80% of the payments of
//! Beauty, Cunning, Change and Strength, which take the most look-ups, are
//! such repeats (`docs/design.md`, "Spirit legality").
//!
//! The memo is keyed by everything the answer reads, so it is exact: the
//! part of the mover's Realm the card reads (its face-up tiles, or its
//! heights), the face-up cells and Shrines, the card, the Shrine Pool and
//! the card's other inputs. It lives beside the thread, not in the
//! [`State`](super::State): the state stays small and `Copy`, and equal
//! states stay equal however they were reached. Debug builds check every
//! remembered answer against a fresh one.
//!
//! It is used while only one of those four cards is in play (the standard
//! game's one Spirit, say). With several, each decision point looks up each
//! of them, and although the count of instructions still fell a little, the
//! time rose: 30,000 random games with all ten Spirits took 1.13 s against
//! 1.07 s without the memo (a hit or a miss is hard to predict).
//!
//! A thread that steps many games in turn (a `VecEnv` worker, a search
//! thread) shares its table between them, so fewer repeats survive there;
//! the answers are exact all the same.

use std::cell::Cell;

/// Slots of the direct-mapped table: repeats are close together (within a
/// turn), so a small table keeps nearly all of them.
const SLOTS: usize = 256;
const _: () = assert!(SLOTS.is_power_of_two());

/// What a payment answer rests on, packed into three words: two for the
/// part of the Realm the card reads ([`crate::realm::Realm::tops_words`] or
/// [`crate::realm::Realm::heights_words`]) and one for the card, the
/// Realm's face-up cells and Shrines, the Shrine Pool and the card's other
/// inputs. The card is stored plus one, so the table's zeroed slots match no
/// key.
#[derive(Clone, Copy)]
pub(crate) struct Key([u64; 3]);

impl Key {
    /// The key of `card`'s answer on a Realm read as `realm` (two words),
    /// `cells` (face-up cells and Shrines, 32 bits), and `inputs` (16 bits:
    /// the Shrine Pool and the card's flags).
    #[inline]
    pub(crate) fn new(realm: [u64; 2], cells: u32, card: u8, inputs: u16) -> Key {
        Key([realm[0], realm[1], u64::from(cells) | (u64::from(card) + 1) << 32 | u64::from(inputs) << 40])
    }

    /// Equality without a call to `memcmp`.
    #[inline]
    fn same(&self, other: &Key) -> bool {
        (self.0[0] ^ other.0[0]) | (self.0[1] ^ other.0[1]) | (self.0[2] ^ other.0[2]) == 0
    }

    #[inline]
    fn slot(&self) -> usize {
        let h = (self.0[0] ^ self.0[1].rotate_left(23) ^ self.0[2].rotate_left(41)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        (h >> (64 - SLOTS.trailing_zeros())) as usize
    }
}

struct Table {
    keys: [Cell<Key>; SLOTS],
    answers: [Cell<(u16, bool)>; SLOTS],
}

thread_local! {
    static TABLE: Table = const {
        Table { keys: [const { Cell::new(Key([0; 3])) }; SLOTS], answers: [const { Cell::new((0, false)) }; SLOTS] }
    };
}

/// The answer for `key`, remembered or made by `compute` (and then remembered).
#[inline]
pub(crate) fn remembered(key: Key, compute: impl FnOnce() -> (u16, bool)) -> (u16, bool) {
    let slot = key.slot();
    let known = TABLE.with(|t| key.same(&t.keys[slot].get()).then(|| t.answers[slot].get()));
    if let Some(answer) = known {
        debug_assert_eq!(answer, compute(), "a remembered payment differs from a fresh one");
        return answer;
    }
    let answer = compute();
    TABLE.with(|t| {
        t.keys[slot].set(key);
        t.answers[slot].set(answer);
    });
    answer
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A key of the same slot as `key` but another Realm.
    fn collider(key: Key) -> Key {
        (1u64..)
            .map(|w| Key::new([w, 0], 0, 0, 0))
            .find(|k| k.slot() == key.slot() && !k.same(&key))
            .expect("some Realm word lands in the slot")
    }

    #[test]
    fn remembers_per_key_and_recomputes_after_a_collision() {
        let k1 = Key::new([1, 2], 3, 0, 0);
        let k2 = collider(k1);
        let calls = Cell::new(0);
        let compute = |answer: (u16, bool)| {
            calls.set(calls.get() + 1);
            answer
        };
        // Debug builds compute again on every hit, to check the remembered answer.
        let per_hit = usize::from(cfg!(debug_assertions));
        assert_eq!(remembered(k1, || compute((7, true))), (7, true));
        assert_eq!(calls.get(), 1);
        assert_eq!(remembered(k1, || compute((7, true))), (7, true));
        assert_eq!(calls.get(), 1 + per_hit, "a repeat is answered from the table");
        // The other key takes the slot; the first is then computed again.
        assert_eq!(remembered(k2, || compute((3, false))), (3, false));
        assert_eq!(calls.get(), 2 + per_hit);
        assert_eq!(remembered(k1, || compute((7, true))), (7, true));
        assert_eq!(calls.get(), 3 + per_hit);
        // Keys that differ only in the card, the pool or the flags are different keys.
        assert!(!Key::new([1, 2], 3, 0, 0).same(&Key::new([1, 2], 3, 1, 0)));
        assert!(!Key::new([1, 2], 3, 0, 0).same(&Key::new([1, 2], 3, 0, 1)));
        assert!(!Key::new([1, 2], 3, 0, 1).same(&Key::new([1, 2], 3, 0, 1 << 8)));
    }
}
