//! The PyO3 module `dragoncastle._core`: thin shims that convert and delegate.
//! The only directory that names PyO3. Errors become `ValueError` subclasses;
//! no input can make the core panic (the core returns `Result` for user input).
//!
//! One file per concern: `errors` (exceptions), `enums` (`TileType`, `Phase`,
//! `ActionKind`, `Tile`), `action` (`Action` and its parsing), `setup`
//! (`Rules`, `Layout`), `game` (`Game`, `Realm`), `batch` (playouts and the
//! Rust agents' single choices), `search` (`Mcts`, arena, self-play),
//! `evaluator` (Python networks inside the search), `network` (the trained
//! network's weights), `vecenv` (`VecEnv`). This file holds what they share
//! and the module's table of names.

use numpy::{PyArray1, PyArrayMethods};

use pyo3::exceptions::{PyIndexError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyDict, PyList, PyString, PyTuple, PyType};

use crate::action::{
    Action as CoreAction, ActionKind as CoreKind, ActionList, NUM_ACTIONS, SPIRITS,
};
use crate::cards::{Cards, DRAGONS};
use crate::coords::{Cell, Space};
use crate::error::Error;
use crate::layout::Layout as CoreLayout;
use crate::realm::Realm as CoreRealm;
use crate::rng::SplitMix64;
use crate::setup::Setup;
use crate::state::observe::{COMPACT_OBSERVATION_SIZE, OBSERVATION_SHAPE, OBSERVATION_VERSION};
use crate::state::{Phase as CorePhase, Rules as CoreRules};
use crate::tile::{Tile as CoreTile, TileType as CoreType};
use crate::{agents, render, Game as CoreGame};

mod action;
mod batch;
mod enums;
mod errors;
mod evaluator;
mod game;
mod game_view;
mod interrupt;
mod network;
mod player;
mod realm;
mod runner;
mod search;
mod setup;
mod vecenv;

use action::*;
use batch::*;
use enums::*;
pub(crate) use errors::*;
use game::*;

use realm::*;
use setup::*;

/// The Rust core of ``dragoncastle``: games, actions, layouts, batch play and
/// search. Use it through ``dragoncastle``, which re-exports the public names.
#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add_class::<PyGame>()?;
    m.add_class::<player::PyPlayer>()?;
    m.add_class::<vecenv::PyVecEnv>()?;
    m.add_class::<PyAction>()?;
    m.add_class::<PyActionKind>()?;
    m.add_class::<PyPhase>()?;
    m.add_class::<PyTile>()?;
    m.add_class::<PyTileType>()?;
    m.add_class::<PyLayout>()?;
    m.add_class::<PyRules>()?;
    m.add_class::<PyRealm>()?;
    let (invalid, illegal) = error_classes(py)?;
    m.add("InvalidActionError", invalid.clone_ref(py))?;
    m.add("IllegalActionError", illegal.clone_ref(py))?;
    m.add("NUM_ACTIONS", NUM_ACTIONS)?;
    m.add("OBSERVATION_SHAPE", PyTuple::new(py, OBSERVATION_SHAPE)?)?;
    m.add("SPIRITS", SPIRITS.to_vec())?;
    m.add("DRAGONS", DRAGONS.to_vec())?;
    m.add("SPIRIT_EFFECTS", crate::cards::SPIRIT_EFFECTS.to_vec())?;
    m.add("DRAGON_EFFECTS", crate::cards::DRAGON_EFFECTS.to_vec())?;
    m.add("MAX_LEGAL_ACTIONS", crate::action::MAX_LEGAL)?;
    m.add_function(wrap_pyfunction!(greedy_action, m)?)?;
    m.add_function(wrap_pyfunction!(random_action, m)?)?;
    m.add_function(wrap_pyfunction!(solo_rank, m)?)?;
    m.add_function(wrap_pyfunction!(dragon_points, m)?)?;
    m.add_function(wrap_pyfunction!(py_observation_shape, m)?)?;
    m.add("OBSERVATION_VERSION", OBSERVATION_VERSION)?;
    m.add("COMPACT_OBSERVATION_SIZE", COMPACT_OBSERVATION_SIZE)?;
    m.add_function(wrap_pyfunction!(playouts, m)?)?;
    m.add_function(wrap_pyfunction!(player::agent_kinds, m)?)?;
    m.add_function(wrap_pyfunction!(runner::agent_text, m)?)?;
    m.add_function(wrap_pyfunction!(runner::check_run, m)?)?;
    m.add_function(wrap_pyfunction!(runner::check_agents, m)?)?;
    m.add_function(wrap_pyfunction!(search::arena, m)?)?;
    m.add_function(wrap_pyfunction!(search::selfplay, m)?)?;
    m.add_class::<network::PyNetwork>()?;
    m.add_function(wrap_pyfunction!(network::network_features, m)?)?;
    m.add("NETWORK_FEATURES", crate::eval::features::TABLE.count())?;
    m.add("MAX_SEATS", crate::search::MAX_SEATS)?;
    for cls in [
        py.get_type::<PyGame>(),
        py.get_type::<PyRealm>(),
        py.get_type::<PyRules>(),
        py.get_type::<PyLayout>(),
        py.get_type::<PyTileType>(),
        py.get_type::<PyPhase>(),
        py.get_type::<PyActionKind>(),
    ] {
        without_order(&cls)?;
    }
    Ok(())
}

/// Equality without an order (``Action`` and ``Tile`` have one; these do not).
/// CPython gives a type with a rich comparison all six comparison methods, so
/// ``help()`` would open with ``__lt__`` ("Return self<value") and its three
/// siblings, which only raise ``TypeError``. Deleting them leaves ``object``'s,
/// which raise the same ``TypeError``; ``==`` and ``!=`` are unchanged.
fn without_order(cls: &Bound<'_, PyType>) -> PyResult<()> {
    for name in ["__lt__", "__le__", "__gt__", "__ge__"] {
        cls.delattr(name)?;
    }
    Ok(())
}
