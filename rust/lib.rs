//! dragoncastle: an exact, fast rules engine for *Dragon Castle* (Horrible Games,
//! 2017), for game-AI work. The rules are those of `docs/rules.md`; rule ids
//! (`R-…`) in comments and tests refer to it.
//!
//! The core has no Python types: `cargo test` runs it alone. The `python`
//! feature adds the PyO3 module `dragoncastle._core`.

#![deny(missing_docs)]

// The game itself: private modules whose vocabulary is re-exported below,
// so that a position is `_core::State`, not `_core::state::State`.
mod action;
mod budget;
mod castle;
mod coords;
mod error;
mod game;
mod grid;
mod groups;
mod layout;
pub mod limits;
mod realm;
mod setup;
mod state;
mod tile;

// What is built on the game, one namespace each.
pub mod agents;
pub mod arena;
pub mod batch;
pub mod cards;
pub mod eval;
pub mod render;
pub mod rng;
pub mod run;
pub mod plan;
pub mod search;
pub mod selfplay;
pub mod solo;
pub mod vecenv;

#[cfg(feature = "python")]
mod python;

pub use action::{Action, ActionKind, ActionList, LEGAL_BOUND, MAX_LEGAL, NUM_ACTIONS};
pub use castle::Castle;
pub use coords::{Cell, Space};
pub use error::Error;
pub use game::Game;
pub use groups::{GroupSizes, GroupTable, GROUP_SIZES, SETS, THREES};
pub use layout::Layout;
pub use realm::Realm;
pub use setup::Setup;
pub use state::observe as observation;
pub use state::score::win_shares;
pub use state::{seeded_deal, Phase, Rules, State};
pub use tile::{Tile, TileType};
