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
//! After the bytes come a few features of the observer's Realm that a sum of
//! per-byte rows cannot make: its groups by type and size, the biggest group
//! one more tile would make by joining groups (a set is forced at 4 tiles, so
//! big sets are small groups joined at once), and its Shrines by the value
//! their stacks give them (R-SHRINE-2). Measured on the sibling targets
//! (`docs/experiments/2026-12-01-realm-features.md`), they take the held-out centred correlation of a value
//! head from 0.28 to 0.43 (500 games).
//!
//! The table is the one fact both the Rust inference and the Python trainer
//! use (the trainer gets it through `_core.network_features`).

use crate::realm::{flood, neighbours};
use crate::state::observe::compact::*;
use crate::tile::Tile;

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

/// The encoding of every byte: `(code, first feature)`, then the Realm's
/// group features (`REALM_FEATURES` of them).
pub struct Table {
    bytes: [(Code, u32); SIZE],
    count: usize,
}

/// Per tile type: groups of 1, 2 and 3 tiles (counts up to 4 each), the
/// biggest join (2 to 10 tiles), free cells where one tile makes a set (up to
/// 4), that join again when a tile of the type is in hand, face-up tiles on
/// floor 2 or higher and 3 or higher (up to 4 each).
const PER_TYPE: usize = 12 + 9 + 4 + 9 + 4 + 4;
/// Shrines worth 1, 2 and 3 (up to 6 each), and their value in all (dense, / 20).
const SHRINES: usize = 3 * 6 + 1;
/// Features after the bytes.
pub const REALM_FEATURES: usize = 6 * PER_TYPE + SHRINES;

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
    Table { bytes, count: base as usize + REALM_FEATURES }
}

/// The type index of a symbol index (the Faction symbols first, 6 each).
const fn type_of(symbol: u8) -> usize {
    match Tile::from_index(symbol) {
        Some(t) => t.tile_type() as usize,
        None => 0,
    }
}

/// The groups of one type's tiles `of`: how many of 1, 2 and 3 tiles; then
/// the biggest group a tile on a `free` cell would make by joining the groups
/// beside it, and how many free cells would make a set (4 or more).
#[inline]
fn groups_and_joins(of: u16, free: u16) -> ([u32; 3], u32, u32) {
    let mut sizes = [0u32; 3];
    // The groups, each with its size (at most 8 groups in 16 cells).
    let (mut groups, mut n_groups) = ([(0u16, 0u32); 8], 0);
    let mut left = of;
    while left != 0 {
        let g = flood(left & left.wrapping_neg(), left);
        left &= !g;
        let n = g.count_ones();
        if let Some(k) = sizes.get_mut(n as usize - 1) {
            *k += 1;
        }
        groups[n_groups] = (g, n);
        n_groups += 1;
    }
    // A tile on a free cell joins the groups beside it (only a free cell
    // beside the type's tiles joins anything).
    let (mut best, mut sets) = (0u32, 0u32);
    let mut cells = free & neighbours(of);
    while cells != 0 {
        let around = neighbours(cells & cells.wrapping_neg());
        cells &= cells - 1;
        let n = 1 + groups[..n_groups].iter().filter(|g| g.0 & around != 0).map(|g| g.1).sum::<u32>();
        best = best.max(n);
        sets += u32::from(n >= 4);
    }
    (sizes, best, sets)
}

/// The observer's Realm's group features, numbered from `base`.
fn realm_features(obs: &[u8], base: u32, push: &mut impl FnMut(u32, f32)) {
    let realm = &obs[REALMS..REALMS + REALM_SIZE];
    let (height, symbol, shrine) = (&realm[..16], &realm[16..32], &realm[48..64]);
    let (mut of, mut free) = ([0u16; 6], 0u16);
    for c in 0..16 {
        if symbol[c] > 0 {
            of[type_of(symbol[c] - 1)] |= 1 << c;
        } else if shrine[c] == 0 {
            free |= 1 << c;
        }
    }
    let mut held = [false; 6];
    for (k, &n) in obs[HELD..HELD + 29].iter().enumerate() {
        held[type_of(k as u8)] |= n > 0;
    }
    let mut on = |f: usize, count: u32, cap: u32| {
        if count > 0 {
            push(base + (f as u32) + count.min(cap) - 1, 1.0);
        }
    };
    for t in 0..6 {
        let f = t * PER_TYPE;
        let (sizes, best, sets) = groups_and_joins(of[t], free);
        for (k, &n) in sizes.iter().enumerate() {
            on(f + 4 * k, n, 4);
        }
        // Joins of 2 to 10 or more tiles.
        let join = if best >= 2 { best.min(10) - 1 } else { 0 };
        on(f + 12, join, 9);
        on(f + 21, sets, 4);
        if held[t] {
            on(f + 25, join, 9);
        }
        let (mut up2, mut up3) = (0u32, 0u32);
        for c in 0..16 {
            if of[t] >> c & 1 != 0 {
                up2 += u32::from(height[c] >= 2);
                up3 += u32::from(height[c] >= 3);
            }
        }
        on(f + 34, up2, 4);
        on(f + 38, up3, 4);
    }
    let f = 6 * PER_TYPE;
    let (mut worth, mut total) = ([0u32; 3], 0u32);
    for c in 0..16 {
        if shrine[c] > 0 {
            let v = height[c].min(3) as usize;
            if v > 0 {
                worth[v - 1] += 1;
                total += v as u32;
            }
        }
    }
    for (k, &n) in worth.iter().enumerate() {
        on(f + 6 * k, n, 6);
    }
    if total > 0 {
        push(base + (f + 18) as u32, total as f32 / 20.0);
    }
}

impl Table {
    /// Features in all.
    pub const fn count(&self) -> usize {
        self.count
    }

    /// The active features of a compact observation, `(feature, weight)`.
    #[inline]
    pub fn active(&self, obs: &[u8], mut push: impl FnMut(u32, f32)) {
        self.bytes_active(obs, &mut push);
        realm_features(obs, (self.count - REALM_FEATURES) as u32, &mut push);
    }

    /// The per-byte features of [`Table::active`].
    #[inline]
    fn bytes_active(&self, obs: &[u8], push: &mut impl FnMut(u32, f32)) {
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
        // The Realm's features: their count and a version of their definition.
        for v in [4u64, REALM_FEATURES as u64, 1] {
            h = (h ^ v).wrapping_mul(0x100_0000_01b3);
        }
        h
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::setup::Setup;

    #[test]
    fn realm_features_see_groups_joins_and_shrine_values() {
        let mut obs = [0u8; SIZE];
        let realm = REALMS;
        // Merchants (symbol 0) on cells 0, 1, 2 (a group of 3) and 8 (alone).
        for c in [0, 1, 2, 8] {
            obs[realm + c] = 1;
            obs[realm + 16 + c] = 1;
        }
        // A Shrine on a face-down stack of 3 tiles on cell 15.
        obs[realm + 15] = 3;
        obs[realm + 32 + 15] = 1;
        obs[realm + 48 + 15] = 1;
        let mut got = Vec::new();
        realm_features(&obs, 0, &mut |f, w| got.push((f, w)));
        let per = PER_TYPE as u32;
        assert_eq!(
            got,
            vec![
                (0, 1.0),  // one group of 1
                (8, 1.0),  // one group of 3
                (15, 1.0), // a tile on cell 4 joins both: 5 tiles
                (24, 1.0), // cells 3, 4, 5 and 6 each make a set
                (6 * per + 12, 1.0), // one Shrine worth 3
                (6 * per + 18, 0.15),
            ]
        );
    }

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
