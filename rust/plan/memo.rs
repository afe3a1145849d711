//! A memo of each position's legal moves, codes and biases, keyed by the
//! path that reached it from the search's root.
//!
//! Playouts of a nested search share long prefixes (that is what the
//! adaptation does), and the problems are deterministic once determinized,
//! so the choices made from the root name a position. Computing the biases
//! (Dragon Castle: the rollout policy's value of every legal move) is most
//! of a playout's cost; a hit skips it and the move generation. The memo is
//! bounded: a fixed table of slots and a fixed arena, emptied when full.
//! Results do not depend on it (tested in `toy.rs` and `eval/plan.rs`).

use crate::rng::mix;
/// Slots of the largest table: a power of two. A search small enough to
/// meet fewer positions gets a smaller table, which stays in the caches (a
/// miss that goes to memory costs more than the work it saves).
const MAX_SLOTS: usize = if cfg!(test) { 1 << 8 } else { 1 << 17 };
/// Slots of the smallest table (small in tests, so that slots are
/// overwritten and the arena emptied often).
const MIN_SLOTS: usize = if cfg!(test) { 1 << 8 } else { 1 << 12 };
/// Legal moves the arena holds per slot before it is emptied (at most about
/// 13 MB a planner with Dragon Castle's moves).
const MOVES_PER_SLOT: usize = if cfg!(test) { 16 } else { 8 };

/// The key of the position reached by a path: two independent 64-bit
/// hashes of the root's number and the indices chosen, so that a false hit needs two
/// collisions at once (about 2^-100 a lookup).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub(crate) struct Path(u64, u64);

impl Path {
    /// The path of the planner's root number `root`.
    pub(crate) fn root(root: u64) -> Path {
        Path(mix(root ^ 0x243F_6A88_85A3_08D3), mix(root ^ 0x1319_8A2E_0370_7344))
    }
    /// The path one step further, through the legal move of index `i`.
    #[inline]
    pub(crate) fn then(self, i: usize) -> Path {
        Path(mix(self.0 ^ (i as u64 + 1)), mix(self.1.wrapping_add(i as u64 + 0xA409_3822_299F_31D0)))
    }
}


#[derive(Clone, Copy, Default)]
struct Slot {
    key: Path,
    /// The arena's generation the slot was written in: older ones are stale.
    generation: u32,
    start: u32,
    len: u32,
}

/// The memo of one planner.
pub(crate) struct Memo<M> {
    /// A power of two.
    size: usize,
    slots: Vec<Slot>,
    moves: Vec<M>,
    codes: Vec<u32>,
    biases: Vec<f64>,
    /// Bumped whenever the arena is emptied (from 1: a zeroed slot is stale).
    generation: u32,
}

impl<M: Copy> Memo<M> {
    /// A memo for searches of about `playouts` playouts each (its table is
    /// allocated at the first position recorded).
    pub(crate) fn new(playouts: u64) -> Self {
        // About one slot for every position of a 64-decision playout.
        let size = (playouts.saturating_mul(64).min(MAX_SLOTS as u64) as usize).next_power_of_two().clamp(MIN_SLOTS, MAX_SLOTS);
        Memo { size, slots: Vec::new(), moves: Vec::new(), codes: Vec::new(), biases: Vec::new(), generation: 1 }
    }

    /// Legal moves the arena holds.
    fn arena(&self) -> usize {
        self.size * MOVES_PER_SLOT
    }

    /// The moves, codes and biases recorded at `key` (codes and biases cover
    /// the moves when there is a choice, and are empty for a forced move).
    #[inline]
    pub(crate) fn get(&self, key: Path) -> Option<(&[M], &[u32], &[f64])> {
        let slot = self.slots.get(key.0 as usize & (self.size - 1))?;
        if slot.key != key || slot.generation != self.generation {
            return None;
        }
        let (a, b) = (slot.start as usize, (slot.start + slot.len) as usize);
        let choice = b - a > 1;
        Some((&self.moves[a..b], if choice { &self.codes[a..b] } else { &[] }, if choice { &self.biases[a..b] } else { &[] }))
    }

    /// Record a position; `codes` and `biases` are empty or as long as `moves`.
    #[inline]
    pub(crate) fn put(&mut self, key: Path, moves: &[M], codes: &[u32], biases: &[f64]) {
        if self.slots.is_empty() {
            self.slots = vec![Slot::default(); self.size];
            self.moves.reserve(self.arena());
            self.codes.reserve(self.arena());
            self.biases.reserve(self.arena());
        }
        if self.moves.len() + moves.len() > self.arena() {
            // Full: every slot goes stale and the arena is reused.
            self.moves.clear();
            self.codes.clear();
            self.biases.clear();
            self.generation += 1;
        }
        let start = self.moves.len();
        self.moves.extend_from_slice(moves);
        if codes.is_empty() {
            self.codes.resize(start + moves.len(), 0);
            self.biases.resize(start + moves.len(), 0.0);
        } else {
            self.codes.extend_from_slice(codes);
            self.biases.extend_from_slice(biases);
        }
        let slot = Slot { key, generation: self.generation, start: start as u32, len: moves.len() as u32 };
        let mask = self.size - 1;
        self.slots[key.0 as usize & mask] = slot;
    }
}
