//! dragoncastle: an exact, fast rules engine for *Dragon Castle* (Horrible Games,
//! 2017), for game-AI work. The rules are those of `docs/rules.md`; rule ids
//! (`R-…`) in comments and tests refer to it.
//!
//! The core has no Python types: `cargo test` runs it alone. The `python`
//! feature adds the PyO3 module `dragoncastle._core`.

#![deny(missing_docs)]

pub mod action;
pub mod arena;
pub mod agents;
pub mod batch;
pub mod cards;
pub mod castle;
pub mod error;
pub mod eval;
pub mod game;
pub mod grid;
pub mod groups;
pub mod layout;
pub mod realm;
pub mod render;
pub mod rng;
pub mod search;
pub mod selfplay;
pub mod setup;
pub mod solo;
pub mod vecenv;
pub mod state;
pub mod tile;

#[cfg(feature = "python")]
mod python;

pub use action::{Action, ActionKind, ActionList, MAX_LEGAL, NUM_ACTIONS};
pub use error::Error;
pub use game::Game;
pub use setup::Setup;
pub use layout::Layout;
pub use state::{Phase, Rules, State};
pub use tile::{Tile, TileType};
