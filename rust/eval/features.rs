//! The network's input: sparse features of the compact observation of the
//! seat to move (`docs/observation.md`, "Compact encoding"), so it never sees
//! a hidden tile. Each byte of the observation is encoded by its field:
//! small counts and symbols as one-hot features (value `v >= 1` turns on
//! feature `base + min(v, cap) - 1`; 0 turns on none), a category whose 0 is
//! a value too (the phase) as one-hot of `v`, and VP as one dense feature
//! weighted `v / scale`. A position is then a short list of `(feature,
//! weight)`, and the network's first layer a sum of their rows (NNUE's
//! accumulator).
//!
//! The table is the one fact both the Rust inference and the Python trainer
//! use (the trainer gets it through `_core.network_features`).

use crate::state::observe::compact::*;

/// How one byte is encoded.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Code {
    /// `v >= 1` turns on feature `min(v, cap) - 1`.
    Count(u8),
    /// `v` turns on feature `min(v, cap)` (0 is a value).
    Category(u8),
    /// One feature weighted `v / scale`.
    Dense(f32),
}

impl Code {
    const fn width(self) -> usize {
        match self {
            Code::Count(cap) => cap as usize,
            Code::Category(cap) => cap as usize + 1,
            Code::Dense(_) => 1,
        }
    }
}

/// Fields: `(first byte, bytes, code)`, in observation order, covering every byte.
const FIELDS: &[(usize, usize, Code)] = &[
    (CASTLE_SPACE, 144, Code::Count(1)),
    (CASTLE_HEIGHT, 144, Code::Count(9)),
    (CASTLE_AVAILABLE, 144, Code::Count(1)),
    (CASTLE_TOP_FLOOR, 144, Code::Count(1)),
    (CASTLE_TOP, 144, Code::Count(29)),
    // Four relative seats' Realms: height, face-up symbol, face-down top, Shrine, buildable.
    (REALMS, 16, Code::Count(8)),
    (REALMS + 16, 16, Code::Count(29)),
    (REALMS + 32, 48, Code::Count(1)),
    (REALMS + REALM_SIZE, 16, Code::Count(8)),
    (REALMS + REALM_SIZE + 16, 16, Code::Count(29)),
    (REALMS + REALM_SIZE + 32, 48, Code::Count(1)),
    (REALMS + 2 * REALM_SIZE, 16, Code::Count(8)),
    (REALMS + 2 * REALM_SIZE + 16, 16, Code::Count(29)),
    (REALMS + 2 * REALM_SIZE + 32, 48, Code::Count(1)),
    (REALMS + 3 * REALM_SIZE, 16, Code::Count(8)),
    (REALMS + 3 * REALM_SIZE + 16, 16, Code::Count(29)),
    (REALMS + 3 * REALM_SIZE + 32, 48, Code::Count(1)),
    // Per relative seat: in the game, VP, Shrine Pool, Countdown tokens.
    (SEATS, 1, Code::Count(1)),
    (SEATS + 1, 1, Code::Dense(50.0)),
    (SEATS + 2, 2, Code::Count(10)),
    (SEATS + 4, 1, Code::Count(1)),
    (SEATS + 5, 1, Code::Dense(50.0)),
    (SEATS + 6, 2, Code::Count(10)),
    (SEATS + 8, 1, Code::Count(1)),
    (SEATS + 9, 1, Code::Dense(50.0)),
    (SEATS + 10, 2, Code::Count(10)),
    (SEATS + 12, 1, Code::Count(1)),
    (SEATS + 13, 1, Code::Dense(50.0)),
    (SEATS + 14, 2, Code::Count(10)),
    // General Shrines, Countdown tokens left, end triggered, phase.
    (GLOBAL, 2, Code::Count(30)),
    (GLOBAL + 2, 1, Code::Count(1)),
    (GLOBAL + 3, 1, Code::Category(15)),
    (HELD, 29, Code::Count(4)),
    (HIDDEN, 29, Code::Count(8)),
    (SPIRITS_IN_PLAY, 30, Code::Count(1)),
    (TURN_FLAGS, 7, Code::Count(2)),
    (FIRST_PICK, 1, Code::Count(144)),
    (LIFTED, 1, Code::Count(16)),
    (TURN_SETS, 33, Code::Count(1)),
];

/// The encoding of every byte: `(code, first feature)`.
pub struct Table {
    bytes: [(Code, u32); SIZE],
    count: usize,
}

/// Built once, at compile time.
pub static TABLE: Table = build();

const fn build() -> Table {
    let mut bytes = [(Code::Count(0), 0u32); SIZE];
    let (mut f, mut next) = (0, 0usize);
    while f < FIELDS.len() {
        let (start, len, code) = FIELDS[f];
        assert!(start == next, "fields must cover the observation in order");
        let mut i = 0;
        while i < len {
            bytes[start + i] = (code, 0);
            i += 1;
        }
        next = start + len;
        f += 1;
    }
    assert!(next == SIZE, "fields must cover the whole observation");
    let mut base = 0u32;
    let mut i = 0;
    while i < SIZE {
        bytes[i].1 = base;
        base += bytes[i].0.width() as u32;
        i += 1;
    }
    Table { bytes, count: base as usize }
}

impl Table {
    /// Features in all.
    pub const fn count(&self) -> usize {
        self.count
    }

    /// The active features of a compact observation, `(feature, weight)`.
    #[inline]
    pub fn active(&self, obs: &[u8], mut push: impl FnMut(u32, f32)) {
        for (&v, &(code, base)) in obs.iter().zip(self.bytes.iter()) {
            match code {
                Code::Count(cap) => {
                    if v != 0 {
                        push(base + u32::from(v.min(cap)) - 1, 1.0);
                    }
                }
                Code::Category(cap) => push(base + u32::from(v.min(cap)), 1.0),
                Code::Dense(scale) => {
                    if v != 0 {
                        push(base, f32::from(v) / scale);
                    }
                }
            }
        }
    }

    /// A fingerprint of the table (FNV-1a over every byte's encoding), kept in
    /// a weights file's header: weights trained on other features are refused.
    pub fn fingerprint(&self) -> u64 {
        let mut h = 0xcbf2_9ce4_8422_2325u64;
        for &(code, base) in self.bytes.iter() {
            let (tag, x) = match code {
                Code::Count(c) => (1u64, c as u64),
                Code::Category(c) => (2, c as u64),
                Code::Dense(s) => (3, s.to_bits() as u64),
            };
            for v in [tag, x, base as u64] {
                h = (h ^ v).wrapping_mul(0x100_0000_01b3);
            }
        }
        h
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::setup::Setup;

    #[test]
    fn every_byte_is_encoded_and_features_stay_in_range() {
        assert!(TABLE.count() > 5000 && TABLE.count() < 12_000, "{}", TABLE.count());
        let mut s = Setup::new(3, 4).with_cards(crate::cards::Cards::Draw(1), crate::cards::Cards::Draw(1)).state().unwrap();
        let mut rng = crate::rng::SplitMix64::new(1);
        let mut buf = crate::ActionList::default();
        let mut obs = [0u8; SIZE];
        while !s.is_over() {
            s.compact_observation(s.current_player(), &mut obs);
            let mut n = 0;
            TABLE.active(&obs, |f, w| {
                assert!((f as usize) < TABLE.count() && w > 0.0);
                n += 1;
            });
            assert!(n > 100, "{n} active features");
            let a = crate::agents::random_action(&s, &mut rng, &mut buf).unwrap();
            s.apply_unchecked(a);
        }
    }
}
