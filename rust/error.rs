//! Typed errors. Every failure the bindings can see is one of these; the core
//! never panics on user input.

use std::fmt;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Error {
    /// Text that does not parse: a tile code, an action, a layout, JSON.
    Parse(String),
    /// A well-formed action that the rules do not allow now.
    Illegal { action: String, phase: &'static str, reason: String },
    /// A game that cannot be set up: bad deal, layout, player count, seat, space.
    Setup(String),
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Parse(m) | Error::Setup(m) => f.write_str(m),
            Error::Illegal { action, phase, reason } => {
                write!(f, "illegal action {action:?} in phase {phase}: {reason}")
            }
        }
    }
}

impl std::error::Error for Error {}
