//! When a search or a plan stops: a count (iterations, playouts), a
//! deadline, a stop flag (Ctrl-C), whichever comes first. One type below
//! both, so the two read the clock and the flag the same way.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crate::limits::MAX_TIME_LIMIT;

/// A budget of work: `count` units (`None`: unbounded), a deadline, a stop flag.
#[derive(Clone, Copy, Debug, Default)]
pub struct Budget<'a> {
    /// Units of work in all (iterations of a search, playouts of a plan).
    pub count: Option<u64>,
    /// The wall-clock deadline.
    pub deadline: Option<Instant>,
    /// Set from outside to stop (Ctrl-C).
    pub stop: Option<&'a AtomicBool>,
}

impl<'a> Budget<'a> {
    /// `count` units or `seconds` from `start`, whichever comes first.
    pub fn new(count: Option<u64>, seconds: Option<f64>, start: Instant, stop: Option<&'a AtomicBool>) -> Budget<'a> {
        // The settings bound the time limit, so this cannot overflow.
        let deadline = seconds.and_then(|t| start.checked_add(Duration::from_secs_f64(t.clamp(0.0, MAX_TIME_LIMIT))));
        Budget { count, deadline, stop }
    }

    /// Whether the clock has run out or a stop was asked for.
    #[inline]
    pub fn out_of_time(&self) -> bool {
        self.deadline.is_some_and(|d| Instant::now() >= d) || self.stop.is_some_and(|s| s.load(Ordering::Relaxed))
    }

    /// Whether `done` units spend the budget: the count, the clock or the stop flag.
    #[inline]
    pub fn spent(&self, done: u64) -> bool {
        self.count.is_some_and(|c| done >= c) || self.out_of_time()
    }

    /// [`Budget::spent`] for a search, which runs at least one iteration and
    /// reads the clock and the flag only when the count passes a multiple of
    /// 8 (`before` of the `done` units were done when last asked; batches may
    /// step over the multiples themselves).
    #[inline]
    pub fn done(&self, before: u64, done: u64) -> bool {
        self.count.is_some_and(|c| done >= c) || (done > 0 && done / 8 != before / 8 && self.out_of_time())
    }
}
