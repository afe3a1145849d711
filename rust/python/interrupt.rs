//! Long Rust calls that stay interruptible: the work runs on a scoped thread
//! while the caller, with the GIL released, wakes to report progress and to
//! look for Ctrl-C.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;

use super::evaluator::Watch;

/// Run `work` on a scoped thread while this thread, with the GIL released,
/// wakes every 100 ms to call `tick` and to check for Ctrl-C. An error from
/// either sets `stop` (which `work` must watch), waits for `work` to return and
/// is raised; so long Rust calls answer Ctrl-C within a fraction of a second.
pub(crate) fn interruptible<'py, T: Send>(
    py: Python<'py>,
    stop: &AtomicBool,
    work: impl FnOnce() -> T + Send,
    tick: impl FnMut(Python<'py>) -> PyResult<()>,
) -> PyResult<T> {
    interruptible_watched(py, stop, None, work, tick)
}

/// [`interruptible`], answering `watch` too: when a search thread asks (after
/// each call of a Python evaluator), this thread wakes at once and looks for
/// Ctrl-C before that thread goes on. The watch must be made on this thread.
pub(crate) fn interruptible_watched<'py, T: Send>(
    py: Python<'py>,
    stop: &AtomicBool,
    watch: Option<&Watch>,
    work: impl FnOnce() -> T + Send,
    mut tick: impl FnMut(Python<'py>) -> PyResult<()>,
) -> PyResult<T> {
    let finished = AtomicBool::new(false);
    let mut out = None;
    let mut error = None;
    let caller = std::thread::current();
    std::thread::scope(|scope| {
        let (finished, out) = (&finished, &mut out);
        scope.spawn(move || {
            // A panic is a bug, but it must reach Python as an exception, and
            // the caller must learn that the work ended either way.
            *out = Some(std::panic::catch_unwind(std::panic::AssertUnwindSafe(work)));
            finished.store(true, Ordering::Release);
            caller.unpark(); // wake the caller at once, not at its next tick
        });
        let asked = || watch.is_some_and(|w| w.pending());
        // Whether the period ended (else the work finished or a search thread asked).
        let wait = |until: std::time::Instant| {
            py.detach(|| loop {
                let now = std::time::Instant::now();
                if now >= until {
                    return true;
                }
                if finished.load(Ordering::Acquire) || asked() {
                    return false;
                }
                std::thread::park_timeout(until - now);
            })
        };
        let period = Duration::from_millis(100);
        let mut until = std::time::Instant::now() + period;
        loop {
            let period_ended = wait(until);
            // Read before looking for Ctrl-C: a request made later may follow a signal this look misses.
            let ticket = watch.map_or(0, |w| w.asked());
            // The progress callback: each period, and once more at the end (short runs report too).
            let ticked = if period_ended || finished.load(Ordering::Acquire) {
                until = std::time::Instant::now() + period;
                tick(py)
            } else {
                Ok(())
            };
            let failed = match ticked.and_then(|_| py.check_signals()) {
                Err(e) => {
                    error.get_or_insert(e);
                    stop.store(true, Ordering::Relaxed);
                    true
                }
                Ok(()) => error.is_some(),
            };
            if let Some(w) = watch {
                w.answer(ticket, failed);
            }
            if finished.load(Ordering::Acquire) {
                break;
            }
        }
    });
    match (error, out) {
        (Some(e), _) => Err(e),
        (None, Some(Ok(v))) => Ok(v),
        (None, Some(Err(panic))) => {
            let why = panic
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| panic.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "unknown".into());
            Err(PyRuntimeError::new_err(format!(
                "internal error in dragoncastle (please report it): {why}"
            )))
        }
        (None, None) => Err(PyRuntimeError::new_err(
            "the search thread ended without a result",
        )),
    }
}
