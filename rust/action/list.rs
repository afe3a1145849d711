//! The legal actions of a decision, in a list of fixed capacity.

use super::Action;

/// Capacity of a legal-action list. No decision has more than 237 legal
/// actions (`docs/actions.md` has the proof: the first pick with every
/// Spirit in play, at most 116 − f picks + Summon + 8 cards × (f + 1)
/// payments, f ≤ 16 face-up tiles in the Realm).
pub const MAX_LEGAL: usize = 256;
/// The proven bound of `docs/actions.md`; a test plays card games against it.
pub const LEGAL_BOUND: usize = 237;

/// Kept out of line so that the hot `push` stays a compare and a store.
#[cold]
#[inline(never)]
fn overflow() -> ! {
    panic!("legal-action list overflow: more than {MAX_LEGAL} actions")
}

/// A fixed-capacity list of legal actions: no allocation per decision.
#[derive(Clone, Copy)]
pub struct ActionList {
    len: u16,
    items: [Action; MAX_LEGAL],
}

impl Default for ActionList {
    fn default() -> Self {
        ActionList { len: 0, items: [Action::Done; MAX_LEGAL] }
    }
}

impl ActionList {
    /// Append `a`. The capacity is proven to suffice (`docs/actions.md`); if
    /// that proof were ever wrong, this fails loudly (a panic, which the
    /// bindings turn into an exception) rather than drop a legal action.
    #[inline]
    pub fn push(&mut self, a: Action) {
        let n = self.len as usize;
        if n >= MAX_LEGAL {
            overflow();
        }
        self.items[n] = a;
        self.len += 1;
    }
    /// Empty the list (its storage stays: no allocation).
    #[inline]
    pub fn clear(&mut self) {
        self.len = 0;
    }
    /// Actions in the list.
    #[inline]
    pub fn len(&self) -> usize {
        self.len as usize
    }
    /// Whether the list holds no action (a legal list only once the game is over).
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
    /// The actions in the order pushed (id order for a legal list).
    #[inline]
    pub fn as_slice(&self) -> &[Action] {
        &self.items[..self.len as usize]
    }
    /// Whether `a` is in the list.
    pub fn contains(&self, a: Action) -> bool {
        self.as_slice().contains(&a)
    }
}

impl std::ops::Deref for ActionList {
    type Target = [Action];
    fn deref(&self) -> &[Action] {
        self.as_slice()
    }
}
