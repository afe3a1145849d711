//! Typed errors. Every failure the bindings can see is one of these; the core
//! never panics on user input.

use std::fmt;

/// What can go wrong with a caller's input: text that does not parse, an action the rules do not
/// allow now, or a game that cannot be set up.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Error {
    /// Text that does not parse: a tile code, an action, a layout, JSON.
    Parse(String),
    /// A well-formed action that the rules do not allow now.
    Illegal {
        /// The action, in its text form.
        action: String,
        /// The name of the phase it was tried in.
        phase: &'static str,
        /// Why the rules do not allow it now.
        reason: String,
    },
    /// A game that cannot be set up: bad deal, layout, player count, seat, space.
    Setup(String),
    /// A search's evaluator stopped it: a network whose output overflowed.
    Eval(String),
}

/// Why an evaluation stopped a search: the evaluator's own message (a
/// Python evaluator keeps the exception itself and hands it back).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EvalError(pub String);

impl From<EvalError> for Error {
    fn from(e: EvalError) -> Error {
        Error::Eval(e.0)
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Parse(m) | Error::Setup(m) | Error::Eval(m) => f.write_str(m),
            Error::Illegal { action, phase, reason } => {
                write!(f, "illegal action {action:?} in phase {phase}: {reason}")
            }
        }
    }
}

impl std::error::Error for Error {}
