//! Bounds every agent and every runner shares: the search, the planner and
//! the runs take them from here, below all of them.

/// The longest time limit accepted for one decision: a day.
pub const MAX_TIME_LIMIT: f64 = 86_400.0;
/// Threads a search, a plan or a run may use.
pub const MAX_THREADS: usize = 256;
