//! The PyO3 module `dragoncastle._core`: thin shims that convert and delegate.
//! The only file that names PyO3. Errors become `ValueError` subclasses; no
//! input can make the core panic (the core returns `Result` for user input).

use numpy::{PyArray1, PyArrayMethods};

use pyo3::exceptions::{PyIndexError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyDict, PyList, PyString, PyTuple, PyType};

use crate::action::{Action as CoreAction, ActionKind as CoreKind, ActionList, NUM_ACTIONS, SPIRITS};
use crate::error::Error;
use crate::layout::{Layout as CoreLayout, MAX_COLS, MAX_ROWS};
use crate::realm::{Realm as CoreRealm, SIDE};
use crate::rng::SplitMix64;
use crate::cards::{Cards, DRAGONS};
use crate::setup::Setup;
use crate::state::observe::{observation_shape, COMPACT_OBSERVATION_SIZE, OBSERVATION_SHAPE, OBSERVATION_SIZE, OBSERVATION_VERSION};
use crate::state::{Phase as CorePhase, Rules as CoreRules};
use crate::tile::{Tile as CoreTile, TileType as CoreType};
use crate::{agents, render, Game as CoreGame};

mod evaluator;
mod network;
mod search;
mod vecenv;

/// `(getattr, (class, name))`: how an enum member pickles.
type ByName<'py> = (Bound<'py, PyAny>, (Bound<'py, PyType>, &'static str));

/// `getattr(type(member), name)`: how an enum member pickles and copies.
fn by_name<'py>(member: &Bound<'py, PyAny>, name: &'static str) -> PyResult<ByName<'py>> {
    Ok((member.py().import("builtins")?.getattr("getattr")?, (member.get_type(), name)))
}

/// `dragoncastle.errors.InvalidActionError` and `IllegalActionError`: Python
/// classes shared with the reference engine, so that one `except` serves
/// both engines.
static ERROR_CLASSES: PyOnceLock<(Py<PyType>, Py<PyType>)> = PyOnceLock::new();

fn error_classes(py: Python<'_>) -> PyResult<&(Py<PyType>, Py<PyType>)> {
    ERROR_CLASSES.get_or_try_init(py, || {
        let m = py.import("dragoncastle.errors")?;
        let class = |name: &str| -> PyResult<Py<PyType>> { Ok(m.getattr(name)?.cast_into::<PyType>()?.unbind()) };
        Ok((class("InvalidActionError")?, class("IllegalActionError")?))
    })
}

/// An action error with its attributes: `invalid` for input that names no
/// action, else an action that is not legal now.
fn action_error(invalid: bool, message: String, action: Option<String>, phase: Option<&str>, reason: String) -> PyErr {
    Python::attach(|py| {
        let make = || -> PyResult<PyErr> {
            let (inv, ill) = error_classes(py)?;
            let class = if invalid { inv } else { ill };
            let kwargs = PyDict::new(py);
            kwargs.set_item("action", action)?;
            kwargs.set_item("phase", phase)?;
            kwargs.set_item("reason", reason)?;
            Ok(PyErr::from_value(class.bind(py).call((message,), Some(&kwargs))?))
        };
        make().unwrap_or_else(|e| e)
    })
}

/// Input that names no action (`input` as given, when known).
fn invalid_action(input: Option<String>, reason: String) -> PyErr {
    action_error(true, reason.clone(), input, None, reason)
}

pub(crate) fn to_py_err(e: Error) -> PyErr {
    match e {
        Error::Illegal { ref action, phase, ref reason } => {
            action_error(false, e.to_string(), Some(action.clone()), Some(phase), reason.clone())
        }
        Error::Parse(m) => invalid_action(None, m),
        Error::Setup(_) => PyValueError::new_err(e.to_string()),
    }
}

fn setup_err(e: Error) -> PyErr {
    PyValueError::new_err(e.to_string())
}

// ---------------------------------------------------------------- enums

/// The type of a tile (R-TILE-1).
///
/// Members, in index order (``int(member)``): ``MERCHANT``, ``SOLDIER``,
/// ``FARMER`` (the Faction types, numbered 1 to 6), ``SEASON``, ``WIND`` and
/// ``DRAGON`` (the Special types).
#[pyclass(module = "dragoncastle._core", name = "TileType", eq, eq_int, hash, frozen, from_py_object)]
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
#[allow(non_camel_case_types, clippy::upper_case_acronyms)]
pub enum PyTileType {
    MERCHANT,
    SOLDIER,
    FARMER,
    SEASON,
    WIND,
    DRAGON,
}

impl From<CoreType> for PyTileType {
    fn from(t: CoreType) -> Self {
        [Self::MERCHANT, Self::SOLDIER, Self::FARMER, Self::SEASON, Self::WIND, Self::DRAGON][t.index()]
    }
}

#[pymethods]
impl PyTileType {
    /// The member's name, e.g. ``"WIND"``.
    #[getter]
    fn name(&self) -> &'static str {
        ["MERCHANT", "SOLDIER", "FARMER", "SEASON", "WIND", "DRAGON"][*self as usize]
    }

    /// True for Merchant, Soldier and Farmer.
    #[getter]
    fn is_faction(&self) -> bool {
        (*self as u8) < 3
    }
    /// Pickle and copy by name (results cross processes).
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<ByName<'py>> {
        by_name(slf.as_any(), slf.get().name())
    }
}

/// Which decision is pending (``Game.phase``); docs/cards.md lists the turn step by step.
///
/// Members, in index order (``int(member)``; the tensor's phase one-hot
/// covers the first 14, ``END_TURN`` has plane 302): ``ACTION`` (first pick or Summon), ``COMPLETE`` (second
/// tile, Shrine or Discard, R-ACT-4), ``PLACE`` (place a collected tile),
/// ``SHRINE`` (build Shrines on the sets just consolidated), ``GAME_OVER``, and
/// the Spirit card phases ``SPIRITS`` (after the placements, before
/// Consolidation), ``DESTROY``, ``WIND``, ``WIND_TO``, ``STRENGTH``,
/// ``STRENGTH_TO``, ``SET``, ``CHANGE``, ``CUNNING`` and ``END_TURN`` (after
/// the Shrine step, while a Spirit may still be used; ``done`` ends the turn).
#[pyclass(module = "dragoncastle._core", name = "Phase", eq, eq_int, hash, frozen, from_py_object)]
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
#[allow(non_camel_case_types, clippy::upper_case_acronyms)]
pub enum PyPhase {
    ACTION,
    COMPLETE,
    PLACE,
    SHRINE,
    GAME_OVER,
    SPIRITS,
    DESTROY,
    WIND,
    WIND_TO,
    STRENGTH,
    STRENGTH_TO,
    SET,
    CHANGE,
    CUNNING,
    END_TURN,
}

impl From<CorePhase> for PyPhase {
    // A match, not a table: a new core phase fails to compile here.
    fn from(p: CorePhase) -> Self {
        match p {
            CorePhase::Action => Self::ACTION,
            CorePhase::Complete => Self::COMPLETE,
            CorePhase::Place => Self::PLACE,
            CorePhase::Shrine => Self::SHRINE,
            CorePhase::GameOver => Self::GAME_OVER,
            CorePhase::Spirits => Self::SPIRITS,
            CorePhase::Destroy => Self::DESTROY,
            CorePhase::Wind => Self::WIND,
            CorePhase::WindTo => Self::WIND_TO,
            CorePhase::Strength => Self::STRENGTH,
            CorePhase::StrengthTo => Self::STRENGTH_TO,
            CorePhase::Set => Self::SET,
            CorePhase::Change => Self::CHANGE,
            CorePhase::Cunning => Self::CUNNING,
            CorePhase::EndTurn => Self::END_TURN,
        }
    }
}

#[pymethods]
impl PyPhase {
    /// The member's name, e.g. ``"ACTION"``.
    #[getter]
    fn name(&self) -> &'static str {
        CorePhase::ALL[*self as usize].name()
    }
    /// Pickle and copy by name (results cross processes).
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<ByName<'py>> {
        by_name(slf.as_any(), slf.get().name())
    }
}

/// The kind of an ``Action`` (docs/actions.md has the id ranges and text).
///
/// Members, in index order (``int(member)``): ``TAKE`` (a castle pick, first or
/// second tile), ``TAKE_SHRINE``, ``DISCARD``, ``SUMMON``, ``PLACE``, ``SHRINE``,
/// ``DONE`` (end an optional step), ``SPIRIT`` (activate a Spirit card), and the
/// Spirit follow-ups ``DESTROY``, ``FLIP``, ``SHRINE_FROM``, ``SHRINE_TO``,
/// ``MOVE_FROM``, ``MOVE_TO``, ``SET``, ``CHANGE`` (docs/cards.md).
#[pyclass(module = "dragoncastle._core", name = "ActionKind", eq, eq_int, hash, frozen, from_py_object)]
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
#[allow(non_camel_case_types, clippy::upper_case_acronyms)]
pub enum PyActionKind {
    TAKE,
    TAKE_SHRINE,
    DISCARD,
    SUMMON,
    PLACE,
    SHRINE,
    DONE,
    SPIRIT,
    DESTROY,
    FLIP,
    SHRINE_FROM,
    SHRINE_TO,
    MOVE_FROM,
    MOVE_TO,
    SET,
    CHANGE,
}

impl From<CoreKind> for PyActionKind {
    fn from(k: CoreKind) -> Self {
        match k {
            CoreKind::Take => Self::TAKE,
            CoreKind::TakeShrine => Self::TAKE_SHRINE,
            CoreKind::Discard => Self::DISCARD,
            CoreKind::Summon => Self::SUMMON,
            CoreKind::Place => Self::PLACE,
            CoreKind::Shrine => Self::SHRINE,
            CoreKind::Done => Self::DONE,
            CoreKind::Spirit => Self::SPIRIT,
            CoreKind::Destroy => Self::DESTROY,
            CoreKind::Flip => Self::FLIP,
            CoreKind::ShrineFrom => Self::SHRINE_FROM,
            CoreKind::ShrineTo => Self::SHRINE_TO,
            CoreKind::MoveFrom => Self::MOVE_FROM,
            CoreKind::MoveTo => Self::MOVE_TO,
            CoreKind::Set => Self::SET,
            CoreKind::Change => Self::CHANGE,
        }
    }
}

#[pymethods]
impl PyActionKind {
    /// The member's name, e.g. ``"TAKE"``.
    #[getter]
    fn name(&self) -> &'static str {
        [
            "TAKE", "TAKE_SHRINE", "DISCARD", "SUMMON", "PLACE", "SHRINE", "DONE", "SPIRIT", "DESTROY", "FLIP", "SHRINE_FROM", "SHRINE_TO",
            "MOVE_FROM", "MOVE_TO", "SET", "CHANGE",
        ][*self as usize]
    }
    /// Pickle and copy by name (results cross processes).
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<ByName<'py>> {
        by_name(slf.as_any(), slf.get().name())
    }
}

// ---------------------------------------------------------------- Tile

/// A tile symbol, e.g. ``Tile("Dr2")``. Identical tiles are equal (R-TILE-2).
#[pyclass(module = "dragoncastle._core", name = "Tile", frozen, eq, hash, ord, from_py_object)]
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PyTile(CoreTile);

#[pymethods]
impl PyTile {
    #[new]
    fn new(code: &str) -> PyResult<Self> {
        CoreTile::parse(code).map(PyTile).map_err(setup_err)
    }
    /// The tile of a code such as ``"Dr2"`` (same as ``Tile(code)``); a bad code raises ``ValueError``.
    #[staticmethod]
    fn parse(code: &str) -> PyResult<Self> {
        Self::new(code)
    }
    /// The tile's code: type and symbol, e.g. ``"Me3"`` or ``"Dr2"`` (also ``str(tile)``).
    #[getter]
    fn code(&self) -> String {
        self.0.code()
    }
    /// The tile's ``TileType``.
    #[getter(r#type)]
    fn tile_type(&self) -> PyTileType {
        self.0.tile_type().into()
    }
    /// The number 1 to 6 of a Faction tile; None for a Special tile.
    #[getter]
    fn number(&self) -> Option<u8> {
        self.0.number()
    }
    /// Index 0..29 in code order (Me1..Me6, So1..So6, Fa1..Fa6, Se1..Se4, Wi1..Wi4, Dr1..Dr3).
    #[getter]
    fn index(&self) -> u8 {
        self.0.index()
    }
    fn __str__(&self) -> String {
        self.0.code()
    }
    fn __repr__(&self) -> String {
        format!("Tile('{}')", self.0)
    }
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyAny>, (String,))> {
        Ok((slf.get_type().into_any(), (slf.get().0.code(),)))
    }
}

// ---------------------------------------------------------------- Action

/// One atomic decision with a stable id in ``range(NUM_ACTIONS)``.
#[pyclass(module = "dragoncastle._core", name = "Action", frozen, eq, hash, ord, from_py_object)]
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PyAction(CoreAction);

static ACTIONS: PyOnceLock<Vec<Py<PyAction>>> = PyOnceLock::new();

/// Actions are immutable, so every id has one shared Python object: listing legal
/// actions then costs a reference count per action, not an allocation.
fn action_obj(py: Python<'_>, a: CoreAction) -> Py<PyAction> {
    let all = ACTIONS.get_or_init(py, || {
        (0..NUM_ACTIONS as i64)
            .map(|id| {
                let a = CoreAction::from_id(id).unwrap_or(CoreAction::Done);
                Py::new(py, PyAction(a)).expect("allocating an Action")
            })
            .collect()
    });
    all[a.id() as usize].clone_ref(py)
}

fn space_tuple(s: u8) -> (usize, usize) {
    (s as usize / MAX_COLS, s as usize % MAX_COLS)
}
fn cell_tuple(c: u8) -> (usize, usize) {
    (c as usize / SIDE, c as usize % SIDE)
}

#[pymethods]
impl PyAction {
    /// ``Action(42)`` or ``Action("take 2,5")``.
    #[new]
    fn new(spec: &Bound<'_, PyAny>) -> PyResult<Self> {
        parse_action(spec).map(PyAction)
    }
    /// The action of a text notation such as ``"take 2,5"``, ``"summon"`` or a bare
    /// id (case-insensitive; ``str(action)`` round-trips). Text that names no action
    /// raises ``InvalidActionError``.
    #[staticmethod]
    fn parse(text: &str) -> PyResult<Self> {
        CoreAction::parse(text).map(PyAction).map_err(to_py_err)
    }
    /// The action with id ``id`` (``0 <= id < NUM_ACTIONS``); a reserved or out-of-range id raises ``InvalidActionError``.
    #[staticmethod]
    fn from_id(id: i64) -> PyResult<Self> {
        CoreAction::from_id(id).map(PyAction).map_err(to_py_err)
    }
    /// TAKE the top tile of castle space ``(row, col)`` (a first or second pick).
    #[staticmethod]
    fn take(space: (i64, i64)) -> PyResult<Self> {
        Ok(PyAction(CoreAction::Take(space_index(space)? as u8)))
    }
    /// PLACE the next collected tile on Realm cell ``(row, col)`` (R-PLACE-1).
    #[staticmethod]
    fn place(cell: (i64, i64)) -> PyResult<Self> {
        Ok(PyAction(CoreAction::Place(cell_index(cell)? as u8)))
    }
    /// Build a SHRINE on Realm cell ``(row, col)`` (R-SHRINE-1).
    #[staticmethod]
    fn shrine(cell: (i64, i64)) -> PyResult<Self> {
        Ok(PyAction(CoreAction::Shrine(cell_index(cell)? as u8)))
    }
    /// TAKE_SHRINE: complete the action with a Shrine from the general pool (Tile and Shrine).
    #[staticmethod]
    fn take_shrine() -> Self {
        PyAction(CoreAction::TakeShrine)
    }
    /// DISCARD the tile just taken for 1 VP (ends the turn).
    #[staticmethod]
    fn discard() -> Self {
        PyAction(CoreAction::Discard)
    }
    /// SUMMON the Dragon: take a Countdown token (R-ACT-5).
    #[staticmethod]
    fn summon() -> Self {
        PyAction(CoreAction::Summon)
    }
    /// DONE: end an optional step (stop building Shrines, decline to use a Spirit).
    #[staticmethod]
    fn done() -> Self {
        PyAction(CoreAction::Done)
    }
    /// The stable id, ``0 <= id < NUM_ACTIONS`` (also ``int(action)``).
    #[getter]
    fn id(&self) -> u16 {
        self.0.id()
    }
    /// The action's ``ActionKind``.
    #[getter]
    fn kind(&self) -> PyActionKind {
        self.0.kind().into()
    }
    /// Castle space ``(row, col)`` of a TAKE or DESTROY, else None.
    #[getter]
    fn space(&self) -> Option<(usize, usize)> {
        match self.0 {
            CoreAction::Take(s) | CoreAction::Destroy(s) => Some(space_tuple(s)),
            _ => None,
        }
    }
    /// Realm cell ``(row, col)`` of a PLACE, SHRINE or Spirit follow-up, else None.
    #[getter]
    fn cell(&self) -> Option<(usize, usize)> {
        match self.0 {
            CoreAction::Place(c)
            | CoreAction::Shrine(c)
            | CoreAction::Flip(c)
            | CoreAction::ShrineFrom(c)
            | CoreAction::ShrineTo(c)
            | CoreAction::MoveFrom(c)
            | CoreAction::MoveTo(c)
            | CoreAction::Set(c)
            | CoreAction::Change { cell: c, .. } => Some(cell_tuple(c)),
            _ => None,
        }
    }
    /// The type a CHANGE treats its Special tile as, else None.
    #[getter]
    fn tile_type(&self) -> Option<PyTileType> {
        match self.0 {
            CoreAction::Change { ty, .. } => CoreType::from_index(ty as usize).map(PyTileType::from),
            _ => None,
        }
    }
    /// Spirit card name of a SPIRIT action, else None.
    #[getter]
    fn card(&self) -> Option<&'static str> {
        match self.0 {
            CoreAction::Spirit { card, .. } => SPIRITS.get(card as usize).copied(),
            _ => None,
        }
    }
    /// The Realm cell paid with for a SPIRIT action (None: paid with a Shrine, or not a SPIRIT).
    #[getter]
    fn pay_cell(&self) -> Option<(usize, usize)> {
        match self.0 {
            CoreAction::Spirit { pay: Some(c), .. } => Some(cell_tuple(c)),
            _ => None,
        }
    }
    fn __str__(&self) -> String {
        self.0.to_string()
    }
    fn __repr__(&self) -> String {
        format!("Action('{}')", self.0)
    }
    fn __int__(&self) -> u16 {
        self.0.id()
    }
    fn __index__(&self) -> u16 {
        self.0.id()
    }
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyAny>, (u16,))> {
        Ok((slf.get_type().into_any(), (slf.get().0.id(),)))
    }
}

/// An int argument that is not a bool (Python's True is an int, but never a
/// player count, a seed or an id).
fn int_not_bool(v: &Bound<'_, PyAny>) -> PyResult<i64> {
    if v.is_instance_of::<pyo3::types::PyBool>() {
        return Err(PyValueError::new_err(format!("expected an integer, not a bool ({v})")));
    }
    // ValueError, as the reference engine says for any bad count.
    v.extract::<i64>().map_err(|_| PyValueError::new_err(format!("expected an integer; got {v}")))
}

fn parse_action(spec: &Bound<'_, PyAny>) -> PyResult<CoreAction> {
    if let Ok(a) = spec.cast::<PyAction>() {
        return Ok(a.get().0);
    }
    if let Ok(s) = spec.cast::<PyString>() {
        // `to_cow`: the stable ABI before Python 3.10 has no borrowed UTF-8 view.
        let text = s.to_cow()?;
        return CoreAction::parse(&text).map_err(|e| invalid_action(Some(text.to_string()), e.to_string()));
    }
    let shown = || spec.str().map(|s| s.to_string()).ok();
    // A bool is an int to Python, but True is no action id.
    if spec.is_instance_of::<pyo3::types::PyBool>() {
        return Err(invalid_action(shown(), format!("a bool is not an action id; got {}", shown().unwrap_or_default())));
    }
    match spec.extract::<i64>() {
        Ok(id) => CoreAction::from_id(id).map_err(|e| invalid_action(shown(), e.to_string())),
        Err(_) if spec.is_instance_of::<pyo3::types::PyInt>() => {
            Err(invalid_action(shown(), format!("action id {spec} out of range 0..{NUM_ACTIONS}")))
        }
        Err(_) => Err(invalid_action(
            shown(),
            format!("an action is an Action, an int id or a text such as 'take 2,5'; got {}", spec.get_type().name()?),
        )),
    }
}

fn space_index((r, c): (i64, i64)) -> PyResult<usize> {
    if (0..MAX_ROWS as i64).contains(&r) && (0..MAX_COLS as i64).contains(&c) {
        Ok(r as usize * MAX_COLS + c as usize)
    } else {
        Err(PyValueError::new_err(format!("castle space ({r}, {c}) is outside the 12x12 grid")))
    }
}

fn cell_index((r, c): (i64, i64)) -> PyResult<usize> {
    if (0..SIDE as i64).contains(&r) && (0..SIDE as i64).contains(&c) {
        Ok(r as usize * SIDE + c as usize)
    } else {
        Err(PyValueError::new_err(format!("realm cell ({r}, {c}) is outside the 4x4 Realm")))
    }
}

// ---------------------------------------------------------------- Rules, Layout

/// Rule options. ``Rules(dragon_set_bonus=True)`` (R-CONS-3).
#[pyclass(module = "dragoncastle._core", name = "Rules", frozen, eq, hash, from_py_object)]
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct PyRules {
    /// +1 VP for each Consolidated set of Dragon tiles (R-CONS-3); on by default.
    #[pyo3(get)]
    dragon_set_bonus: bool,
}

#[pymethods]
impl PyRules {
    #[new]
    #[pyo3(signature = (*, dragon_set_bonus = true))]
    fn new(dragon_set_bonus: bool) -> Self {
        PyRules { dragon_set_bonus }
    }
    fn __repr__(&self) -> String {
        format!("Rules(dragon_set_bonus={})", if self.dragon_set_bonus { "True" } else { "False" })
    }
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyTuple>)> {
        let py = slf.py();
        let partial = py.import("functools")?.getattr("partial")?;
        let kw = PyDict::new(py);
        kw.set_item("dragon_set_bonus", slf.get().dragon_set_bonus)?;
        let f = partial.call((slf.get_type(),), Some(&kw))?;
        Ok((f, PyTuple::empty(py)))
    }
}

impl From<PyRules> for CoreRules {
    fn from(r: PyRules) -> Self {
        CoreRules { dragon_set_bonus: r.dragon_set_bonus }
    }
}

/// A castle layout: a grid of stack heights (R-LAYOUT-1).
#[pyclass(module = "dragoncastle._core", name = "Layout", frozen, eq, from_py_object)]
#[derive(Clone, PartialEq)]
pub struct PyLayout(CoreLayout);

#[pymethods]
impl PyLayout {
    /// Parse layout text: one row per line, one digit (stack height) per space, ``.`` for none.
    #[staticmethod]
    fn parse(text: &str) -> PyResult<Self> {
        CoreLayout::parse(text).map(PyLayout).map_err(setup_err)
    }
    /// ``standard-2p``, ``standard-3p`` or ``standard-4p``.
    #[staticmethod]
    fn standard(name: &str) -> PyResult<Self> {
        CoreLayout::standard(name).map(PyLayout).map_err(setup_err)
    }
    /// Advice the layout does not follow (a list of warnings; empty when fine).
    #[pyo3(signature = (players = None))]
    fn validate(&self, players: Option<usize>) -> Vec<String> {
        self.0.warnings(players)
    }
    /// Rows of the grid (up to 12).
    #[getter]
    fn rows(&self) -> usize {
        self.0.rows()
    }
    /// Columns of the grid (up to 12).
    #[getter]
    fn cols(&self) -> usize {
        self.0.cols()
    }
    /// Spaces with a stack: the tiles on the ground floor.
    #[getter]
    fn ground_floor(&self) -> usize {
        self.0.ground_floor()
    }
    /// Stack height at castle space ``(row, col)`` (0 where there is no space).
    fn height(&self, space: (i64, i64)) -> PyResult<u8> {
        let i = space_index(space)?;
        Ok(self.0.height(i / MAX_COLS, i % MAX_COLS))
    }
    /// The layout as text, as :meth:`parse` reads it (also ``str(layout)``).
    #[getter]
    fn text(&self) -> String {
        self.0.to_text()
    }
    fn __str__(&self) -> String {
        self.0.to_text()
    }
    fn __repr__(&self) -> String {
        format!("Layout.parse({:?})", self.0.to_text())
    }
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyAny>, (String,))> {
        Ok((slf.get_type().getattr("parse")?, (slf.get().0.to_text(),)))
    }
}

// ---------------------------------------------------------------- Realm view

/// A snapshot of one player's Realm (it does not follow later moves).
#[pyclass(module = "dragoncastle._core", name = "Realm", frozen, eq)]
#[derive(PartialEq)]
pub struct PyRealm(CoreRealm);

#[pymethods]
impl PyRealm {
    /// A Realm from text (docs/cards.md): 4 lines of 4 cells; ``.`` empty,
    /// ``3Me2`` height 3 with a face-up Me2, ``2#`` face down, ``2S`` with a Shrine.
    #[staticmethod]
    fn parse(text: &str) -> PyResult<Self> {
        CoreRealm::parse(text).map(PyRealm).map_err(PyValueError::new_err)
    }
    /// The text of :meth:`parse`.
    #[getter]
    fn text(&self) -> String {
        self.0.to_text()
    }
    /// Pickle and copy through the text, which holds the whole Realm.
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyAny>, (String,))> {
        Ok((slf.get_type().getattr("parse")?, (slf.get().0.to_text(),)))
    }
    /// Stack height at Realm cell ``(row, col)`` (0 when empty).
    fn height(&self, cell: (i64, i64)) -> PyResult<u8> {
        Ok(self.0.height(cell_index(cell)?))
    }
    /// ``(Tile, True)`` for a face-up top tile, ``(None, False)`` for a face-down one
    /// (face-down symbols never count again, so they are not kept), None if empty.
    fn top(&self, cell: (i64, i64)) -> PyResult<Option<(Option<PyTile>, bool)>> {
        Ok(self.0.top(cell_index(cell)?).map(|(t, up)| (t.map(PyTile), up)))
    }
    /// True if a Shrine stands on Realm cell ``(row, col)``.
    fn has_shrine(&self, cell: (i64, i64)) -> PyResult<bool> {
        Ok(self.0.has_shrine(cell_index(cell)?))
    }
    /// Cells where a collected tile may be placed (R-PLACE-1), row-major.
    fn placeable(&self) -> Vec<(usize, usize)> {
        let m = self.0.placeable();
        (0..16).filter(|c| m & (1 << c) != 0).map(|c| cell_tuple(c as u8)).collect()
    }
    fn __repr__(&self) -> String {
        let mut s = String::from("<Realm");
        for r in 0..SIDE {
            s.push_str(" |");
            for c in 0..SIDE {
                let i = r * SIDE + c;
                match self.0.top(i) {
                    None => s.push_str(" ."),
                    Some((Some(t), _)) => s.push_str(&format!(" {t}")),
                    Some((None, _)) => s.push_str(if self.0.has_shrine(i) { " #S" } else { " ##" }),
                }
            }
        }
        s.push_str(" |>");
        s
    }
}

// ---------------------------------------------------------------- Game

/// A game of Dragon Castle backed by the Rust core.
///
/// ``Game(players=2, seed=None, *, spirits=None, dragons=None, layout=None,
/// rules=None, deal=None)``: ``players`` 1 (solo against the Dragon of
/// Ingenuity) to 4; ``seed`` the deal's seed (None: a fresh one); ``spirits``
/// and ``dragons`` a list of card names or a count to draw from the seed;
/// ``layout`` a ``Layout``, a standard layout name or layout text; ``rules``
/// the ``Rules``; ``deal`` an explicit deal of 116 tile codes instead of the
/// seeded shuffle. Bad arguments raise ``ValueError``.
#[pyclass(module = "dragoncastle._core", name = "Game", eq)]
#[derive(Clone, PartialEq)]
pub struct PyGame {
    g: CoreGame,
}

fn fresh_seed() -> u64 {
    use std::collections::hash_map::RandomState;
    use std::hash::{BuildHasher, Hasher};
    let mut h = RandomState::new().build_hasher();
    h.write_u128(std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_nanos()).unwrap_or(0));
    h.finish()
}

/// `layout=`: None, a `Layout`, a standard layout's name or layout text.
pub(crate) fn layout_arg(v: Option<&Bound<'_, PyAny>>) -> PyResult<Option<CoreLayout>> {
    let Some(v) = v.filter(|v| !v.is_none()) else { return Ok(None) };
    if let Ok(l) = v.cast::<PyLayout>() {
        return Ok(Some(l.get().0.clone()));
    }
    let Ok(s) = v.extract::<String>() else {
        return Err(PyTypeError::new_err("layout must be a Layout, a standard layout name or layout text"));
    };
    Ok(Some(if s.contains('\n') { CoreLayout::parse(&s) } else { CoreLayout::standard(&s) }.map_err(setup_err)?))
}

/// `spirits=` / `dragons=`: None, a count to draw, or a list of names.
pub(crate) fn cards_arg(what: &str, v: Option<&Bound<'_, PyAny>>) -> PyResult<Cards> {
    let table: &[&str] = if what == "Spirit" { &SPIRITS } else { &DRAGONS };
    let Some(v) = v else { return Ok(Cards::None) };
    if v.is_none() {
        return Ok(Cards::None);
    }
    if v.is_instance_of::<pyo3::types::PyBool>() {
        return Err(PyValueError::new_err(format!("{what} cards: a count, a list of names or None, not a bool")));
    }
    if v.is_instance_of::<pyo3::types::PyInt>() {
        let n = v.extract::<i64>().map_err(|_| PyValueError::new_err(format!("{what} count must be 0 to 10")))?;
        return Cards::draw(n, what).map_err(setup_err);
    }
    if v.is_instance_of::<PyString>() {
        return Err(PyValueError::new_err(format!("{what} cards: pass a list of names, e.g. [{:?}]", v.to_string())));
    }
    let names: Vec<String> = v
        .extract()
        .map_err(|_| PyValueError::new_err(format!("{what} cards: a count, a list of names or None; got {}", v.get_type())))?;
    let refs: Vec<&str> = names.iter().map(String::as_str).collect();
    Cards::named(&refs, table, what).map_err(setup_err)
}

impl PyGame {
    /// The observing seat: `player`, or by default the seat to move (seat 0
    /// if that seat has no Realm, the solo Dragon's).
    fn observer(&self, player: Option<i64>) -> PyResult<usize> {
        match player {
            Some(p) => self.seat(p),
            None => Ok(self.g.state().default_observer()),
        }
    }

    fn seat(&self, player: i64) -> PyResult<usize> {
        self.g.state().check_seat(player).map_err(to_py_err)
    }
}

#[pymethods]
impl PyGame {
    #[new]
    #[pyo3(signature = (players = 2, seed = None, *, spirits = None, dragons = None, layout = None, rules = None, deal = None))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        #[pyo3(from_py_with = int_not_bool)] players: i64,
        seed: Option<&Bound<'_, PyAny>>,
        spirits: Option<&Bound<'_, PyAny>>,
        dragons: Option<&Bound<'_, PyAny>>,
        layout: Option<&Bound<'_, PyAny>>,
        rules: Option<PyRules>,
        deal: Option<Vec<String>>,
    ) -> PyResult<Self> {
        // A bool is an int to Python, but True players or seed is a mistake.
        let is_bool = |v: &Bound<'_, PyAny>| v.is_instance_of::<pyo3::types::PyBool>();
        crate::setup::check_players(players as i64).map_err(to_py_err)?;
        let seed = match seed {
            None => fresh_seed(),
            Some(s) if s.is_none() => fresh_seed(),
            Some(s) if is_bool(s) => return Err(PyValueError::new_err("seed must be an integer in 0..2**64; got a bool")),
            Some(s) => s.extract::<u64>().map_err(|_| PyValueError::new_err("seed must be an integer in 0..2**64"))?,
        };
        let spirits = cards_arg("Spirit", spirits)?;
        let dragons = cards_arg("Dragon", dragons)?;
        let layout = layout_arg(layout)?;
        let deal = match deal {
            None => None,
            Some(codes) => Some(codes.iter().map(|c| CoreTile::parse(c)).collect::<Result<Vec<_>, _>>().map_err(setup_err)?),
        };
        let rules = rules.map(CoreRules::from).unwrap_or_default();
        let setup = Setup { layout, deal, ..Setup::new(players as usize, seed).with_rules(rules).with_cards(spirits, dragons) };
        let g = CoreGame::from_setup(&setup).map_err(setup_err)?;
        Ok(PyGame { g })
    }

    // ---- playing

    /// The seat to move. In solo the Dragon of Ingenuity (seat 1) moves inside
    /// ``apply``, so this is always 0 there.
    #[getter]
    fn current_player(&self) -> usize {
        self.g.state().current_player()
    }
    /// Which decision is pending: a ``Phase``.
    #[getter]
    fn phase(&self) -> PyPhase {
        self.g.state().phase().into()
    }
    /// True once the game has ended (R-END-1).
    #[getter]
    fn is_over(&self) -> bool {
        self.g.state().is_over()
    }
    /// Seats with a Realm: 1 (solo) to 4.
    #[getter]
    fn players(&self) -> usize {
        self.g.state().players()
    }
    /// The seed of the deal (None when the game was given an explicit ``deal``).
    #[getter]
    fn seed(&self) -> Option<u64> {
        self.g.seed()
    }
    /// The castle ``Layout`` the game was dealt on.
    #[getter]
    fn layout(&self) -> PyLayout {
        PyLayout(self.g.layout().clone())
    }
    /// The rule options (``Rules``).
    #[getter]
    fn rules(&self) -> PyRules {
        PyRules { dragon_set_bonus: self.g.state().rules().dragon_set_bonus }
    }
    /// Spirit cards in play, by name in card order.
    #[getter]
    fn spirits(&self) -> Vec<&'static str> {
        self.g.spirit_names()
    }
    /// Dragon cards in play, by name in card order.
    #[getter]
    fn dragons(&self) -> Vec<&'static str> {
        self.g.dragon_names()
    }
    /// Completed turns (the Dragon of Ingenuity's included, in solo).
    #[getter]
    fn turn(&self) -> u16 {
        self.g.state().turn()
    }
    /// True for a solo game against the Dragon of Ingenuity.
    #[getter]
    fn is_solo(&self) -> bool {
        self.g.state().is_solo()
    }
    /// Solo: the rank of the current (final, once over) score (R-SOLO-5).
    fn rank(&self) -> PyResult<&'static str> {
        let s = self.g.state();
        if !s.is_solo() {
            return Err(PyValueError::new_err("rank() is for solo games (players=1)"));
        }
        Ok(crate::solo::rank(s.score(0) as i64))
    }
    /// The action the Dragon of Ingenuity would choose for the seat to move
    /// (None when the game is over); see docs/solo.md.
    fn dragon_action(&self, py: Python<'_>) -> Option<Py<PyAction>> {
        self.g.state().dragon_action().map(|a| action_obj(py, a))
    }
    /// Solo: the tiles the Dragon of Ingenuity took, by code.
    #[getter]
    fn dragon_tiles(&self) -> std::collections::BTreeMap<String, u8> {
        let s = self.g.state();
        CoreTile::all().filter(|t| s.dragon_tiles()[t.index() as usize] > 0).map(|t| (t.code(), s.dragon_tiles()[t.index() as usize])).collect()
    }
    /// One flag per entry of ``history``: True where the Dragon of Ingenuity played it (solo).
    #[getter]
    fn history_by_dragon(&self) -> Vec<bool> {
        self.g.actions_with_author().map(|(_, d)| d).collect()
    }

    /// Legal actions, sorted by id.
    fn legal_actions<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let list = self.g.state().legal_actions();
        PyList::new(py, list.iter().map(|&a| action_obj(py, a)))
    }
    /// Legal action ids, sorted (the cheapest way to enumerate).
    fn legal_action_ids(&self) -> Vec<u16> {
        self.g.state().legal_actions().iter().map(|a| a.id()).collect()
    }
    /// Boolean mask of shape ``(NUM_ACTIONS,)``.
    fn legal_action_mask<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<bool>> {
        let mut m = vec![false; NUM_ACTIONS];
        for a in self.g.state().legal_actions().iter() {
            m[a.id() as usize] = true;
        }
        PyArray1::from_vec(py, m)
    }
    /// True if ``action`` (an Action, id or text) is legal now; False for input that names no action.
    fn is_legal(&self, action: &Bound<'_, PyAny>) -> bool {
        parse_action(action).map(|a| self.g.state().is_legal(a)).unwrap_or(false)
    }
    /// Apply an Action, an id or a text; an illegal or malformed one raises
    /// ``IllegalActionError`` and changes nothing.
    fn apply(&mut self, action: &Bound<'_, PyAny>) -> PyResult<()> {
        let a = parse_action(action)?;
        self.g.apply(a).map_err(to_py_err)
    }
    /// Revert the last action and return it.
    fn undo(&mut self, py: Python<'_>) -> PyResult<Py<PyAction>> {
        match self.g.undo() {
            Some(a) => Ok(action_obj(py, a)),
            None if self.g.history_len() > 0 => {
                Err(PyIndexError::new_err("undo: this copy was made with clone(history=False) and cannot undo past that point"))
            }
            None => Err(PyIndexError::new_err("undo: no action to undo")),
        }
    }
    /// Actions applied so far.
    #[getter]
    fn history<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        PyList::new(py, self.g.actions().map(|a| action_obj(py, a)))
    }
    /// An independent copy. Copies share their (immutable) history, so a copy
    /// costs the same at any point of the game. ``history=False`` gives a
    /// copy that cannot undo past this point (its record of actions stays, so
    /// JSON and pickle work).
    #[pyo3(signature = (history = true))]
    fn clone(&self, history: bool) -> Self {
        if history {
            Clone::clone(self)
        } else {
            PyGame { g: self.g.clone_without_history() }
        }
    }
    /// Bytes held by this game and its history (``sys.getsizeof``): at most
    /// 4 KB plus 64 bytes per decision, since copies share their history.
    fn __sizeof__(&self) -> usize {
        self.g.memory_bytes()
    }
    fn __copy__(&self) -> Self {
        Clone::clone(self)
    }
    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> Self {
        Clone::clone(self)
    }
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyAny>, (String,))> {
        Ok((slf.get_type().getattr("from_json")?, (slf.borrow().g.to_json(),)))
    }

    // ---- scores

    /// Current (or final) scores by seat (R-END-2).
    fn scores(&self) -> Vec<i32> {
        let s = self.g.state();
        (0..s.players()).map(|p| s.score(p)).collect()
    }
    /// One utility per seat (OpenSpiel's ``Returns()``): all 0 while the game
    /// runs; at the end 1 for a win, split among tied winners, 0 otherwise.
    /// Solo: the final score / 100.
    fn returns(&self) -> Vec<f64> {
        let s = self.g.state();
        s.returns()[..s.players()].to_vec()
    }
    /// Seats that win after the tie breaks of R-END-3 (several when shared).
    fn winners(&self) -> Vec<usize> {
        self.g.state().winners()
    }
    /// ``{"vp", "shrines", "countdown", "dragons": {card: points}, "total"}``
    /// for one seat; solo with cards adds ``"variant": -15`` (R-SOLO-1).
    fn score_breakdown<'py>(&self, py: Python<'py>, player: i64) -> PyResult<Bound<'py, PyDict>> {
        let s = self.g.state();
        let b = s.breakdown(self.seat(player)?);
        let d = PyDict::new(py);
        d.set_item("vp", b.vp)?;
        d.set_item("shrines", b.shrines)?;
        d.set_item("countdown", b.countdown)?;
        let dragons = PyDict::new(py);
        for (k, name) in DRAGONS.iter().enumerate() {
            if s.dragons() & (1 << k) != 0 {
                dragons.set_item(*name, b.dragons[k])?;
            }
        }
        d.set_item("dragons", dragons)?;
        if b.variant != 0 {
            d.set_item("variant", b.variant)?;
        }
        d.set_item("total", b.total)?;
        Ok(d)
    }

    // ---- accessors

    /// The top floor: the greatest stack height in the castle (R-AVAIL-2).
    #[getter]
    fn top_floor(&self) -> u8 {
        self.g.state().castle().top_floor()
    }
    /// ``(rows, cols)`` of the castle grid.
    #[getter]
    fn castle_shape(&self) -> (usize, usize) {
        let c = self.g.state().castle();
        (c.rows(), c.cols())
    }
    /// Stack height at castle space ``(row, col)`` (0 when empty).
    fn castle_height(&self, space: (i64, i64)) -> PyResult<u8> {
        Ok(self.g.state().castle().height(space_index(space)?))
    }
    /// The visible top tile of castle space ``(row, col)``; None when the stack is empty.
    fn castle_top(&self, space: (i64, i64)) -> PyResult<Option<PyTile>> {
        Ok(self.g.state().castle().top(space_index(space)?).map(PyTile))
    }
    /// True if the top tile of castle space ``(row, col)`` is Available: its west or east neighbour is lower (R-AVAIL-1).
    fn is_available(&self, space: (i64, i64)) -> PyResult<bool> {
        Ok(self.g.state().castle().is_available(space_index(space)?))
    }
    /// Tiles still in the castle.
    #[getter]
    fn castle_tiles(&self) -> usize {
        self.g.state().castle().remaining()
    }
    /// A snapshot (``Realm``) of ``player``'s Realm.
    fn realm(&self, player: i64) -> PyResult<PyRealm> {
        Ok(PyRealm(self.g.state().player(self.seat(player)?).realm))
    }
    /// Shrines in ``player``'s Shrine Pool.
    fn shrine_pool(&self, player: i64) -> PyResult<u8> {
        Ok(self.g.state().player(self.seat(player)?).shrine_pool)
    }
    /// VP tokens ``player`` holds (from sets and Discards; Shrines and Countdown tokens score apart).
    fn vp_tokens(&self, player: i64) -> PyResult<u16> {
        Ok(self.g.state().player(self.seat(player)?).vp)
    }
    /// Countdown tokens ``player`` took by Summoning (2 VP each, R-END-2).
    fn countdown_tokens(&self, player: i64) -> PyResult<u8> {
        Ok(self.g.state().player(self.seat(player)?).countdown)
    }
    /// Shrines left in the general pool.
    #[getter]
    fn general_shrines(&self) -> u8 {
        self.g.state().general_shrines()
    }
    /// Countdown tokens still on the track.
    #[getter]
    fn countdown_left(&self) -> u8 {
        self.g.state().countdown_left()
    }
    /// True once the end is triggered (R-END-1): the current round is the last.
    #[getter]
    fn end_triggered(&self) -> bool {
        self.g.state().end_triggered()
    }
    /// Tiles collected this turn and not yet placed, in placing order.
    #[getter]
    fn held_tiles(&self) -> Vec<PyTile> {
        self.g.state().held().iter().map(|&t| PyTile(t)).collect()
    }

    // ---- serialisation and pictures

    /// The complete state as JSON: setup, hidden tiles and history.
    /// ``Game.from_json`` round-trips it exactly.
    fn to_json(&self) -> String {
        self.g.to_json()
    }
    /// The game of a ``to_json`` text; invalid input raises ``ValueError`` with the reason.
    #[staticmethod]
    fn from_json(s: &str) -> PyResult<Self> {
        CoreGame::from_json(s).map(|g| PyGame { g }).map_err(setup_err)
    }
    fn __str__(&self) -> String {
        render::text(self.g.state())
    }
    fn __repr__(&self) -> String {
        let s = self.g.state();
        let seed = self.g.seed().map(|v| v.to_string()).unwrap_or_else(|| "None".into());
        format!(
            "<Game players={} seed={seed} turn={} phase={} current_player={} scores={:?}>",
            s.players(),
            s.turn(),
            s.phase().name(),
            s.current_player(),
            (0..s.players()).map(|p| s.score(p)).collect::<Vec<_>>()
        )
    }
    /// An SVG picture of the game, for notebooks: everything public, the
    /// last move marked.
    fn _repr_svg_(&self) -> String {
        render::game_svg(&self.g)
    }

    // ---- hidden information

    /// What ``player`` (default: the player to move) may know, as plain
    /// Python data (no covered castle tile).
    #[pyo3(signature = (player = None))]
    fn observation<'py>(&self, py: Python<'py>, player: Option<i64>) -> PyResult<Bound<'py, PyAny>> {
        json_to_py(py, &self.g.state().observation(self.observer(player)?))
    }
    /// Float32 planes of shape ``observation_shape(version)``
    /// (docs/observation.md); each version is the one before with planes appended (version 1: 247, version 2: 302).
    /// ``player`` defaults to the player to move.
    #[pyo3(signature = (player = None, version = OBSERVATION_VERSION))]
    fn observation_tensor<'py>(&self, py: Python<'py>, player: Option<i64>, version: u32) -> PyResult<Bound<'py, PyAny>> {
        let seat = self.observer(player)?;
        let shape = observation_shape(version)
            .ok_or_else(|| PyValueError::new_err(format!("observation version {version} does not exist (1 or {OBSERVATION_VERSION})")))?;
        let mut v = vec![0f32; OBSERVATION_SIZE];
        self.g.state().observation_tensor(seat, &mut v);
        v.truncate(shape.iter().product());
        Ok(PyArray1::from_vec(py, v).reshape(shape)?.into_any())
    }
    /// The compact observation: ``COMPACT_OBSERVATION_SIZE`` bytes (uint8)
    /// holding what the tensor's planes hold, as small integers
    /// (docs/observation.md, "Compact encoding"). ``player`` defaults to the
    /// player to move.
    #[pyo3(signature = (player = None))]
    fn compact_observation<'py>(&self, py: Python<'py>, player: Option<i64>) -> PyResult<Bound<'py, PyArray1<u8>>> {
        let seat = self.observer(player)?;
        let mut v = vec![0u8; COMPACT_OBSERVATION_SIZE];
        self.g.state().compact_observation(seat, &mut v);
        Ok(PyArray1::from_vec(py, v))
    }
    /// A copy with the covered castle tiles re-dealt at random (``seed``).
    fn determinize(&self, seed: u64) -> Self {
        PyGame { g: self.g.determinize(seed) }
    }
    /// Recompute every derived structure and check the invariants; raises
    /// ``AssertionError`` with the reason if one fails.
    fn validate(&self) -> PyResult<()> {
        self.g.state().validate().map_err(pyo3::exceptions::PyAssertionError::new_err)
    }
}

fn json_to_py<'py>(py: Python<'py>, v: &serde_json::Value) -> PyResult<Bound<'py, PyAny>> {
    use serde_json::Value as V;
    Ok(match v {
        V::Null => py.None().into_bound(py),
        V::Bool(b) => pyo3::types::PyBool::new(py, *b).to_owned().into_any(),
        V::Number(n) => match n.as_i64() {
            Some(i) => i.into_pyobject(py)?.into_any(),
            None => n.as_f64().unwrap_or(0.0).into_pyobject(py)?.into_any(),
        },
        V::String(s) => PyString::new(py, s).into_any(),
        V::Array(a) => PyList::new(py, a.iter().map(|x| json_to_py(py, x)).collect::<PyResult<Vec<_>>>()?)?.into_any(),
        V::Object(o) => {
            let d = PyDict::new(py);
            for (k, x) in o {
                d.set_item(k, json_to_py(py, x)?)?;
            }
            d.into_any()
        }
    })
}

// ---------------------------------------------------------------- agents in Rust

/// The greedy heuristic's choice (docs/agents.md); ``seed`` breaks ties.
#[pyfunction]
fn greedy_action(py: Python<'_>, game: PyRef<'_, PyGame>, seed: u64) -> Option<Py<PyAction>> {
    let mut rng = SplitMix64::new(seed);
    agents::greedy_action(game.g.state(), &mut rng).map(|a| action_obj(py, a))
}

/// A uniformly random legal action drawn with SplitMix64(``seed``).
#[pyfunction]
fn random_action(py: Python<'_>, game: PyRef<'_, PyGame>, seed: u64) -> Option<Py<PyAction>> {
    let mut rng = SplitMix64::new(seed);
    let mut buf = ActionList::default();
    agents::random_action(game.g.state(), &mut rng, &mut buf).map(|a| action_obj(py, a))
}

/// Play ``n_games`` whole games in Rust threads with the GIL released.
///
/// Game ``k`` is dealt with seed ``seed + k``; results do not depend on
/// ``threads`` (default: every core). ``agent`` plays every seat: ``random``,
/// ``greedy``, ``dragon`` or any agent spec (``mcts:iterations=500``, as the
/// arena takes them). Returns ``(scores, winners, lengths)``:
/// int32 ``(n_games, players)``, bool ``(n_games, players)`` (shared wins have
/// several), int32 ``(n_games,)`` decisions per game.
#[pyfunction]
#[pyo3(signature = (n_games, players = 2, seed = 0, agent = "random", threads = None, rules = None, *, spirits = None, dragons = None))]
#[allow(clippy::too_many_arguments)]
fn playouts<'py>(
    py: Python<'py>,
    n_games: usize,
    players: usize,
    seed: u64,
    agent: &str,
    threads: Option<usize>,
    rules: Option<PyRules>,
    spirits: Option<&Bound<'py, PyAny>>,
    dragons: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyTuple>> {
    use crate::batch::{playouts as run, Outcome};
    let policy = crate::agents::spec::AgentSpec::parse(agent).map_err(setup_err)?;
    crate::setup::check_players(players as i64).map_err(to_py_err)?;
    if threads.is_some_and(|t| !(1..=crate::search::MAX_THREADS).contains(&t)) {
        return Err(PyValueError::new_err(format!("threads must be 1 to {}", crate::search::MAX_THREADS)));
    }
    let threads = threads.unwrap_or_else(|| std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1));
    let rules = rules.map(CoreRules::from).unwrap_or_default();
    let setup = Setup::new(players, seed).with_rules(rules).with_cards(cards_arg("Spirit", spirits)?, cards_arg("Dragon", dragons)?);
    // Every buffer is reserved before any work, so a size that does not fit
    // in memory is a MemoryError, not an abort.
    let too_big = |_| pyo3::exceptions::PyMemoryError::new_err(format!("{n_games} games do not fit in memory"));
    let cells = n_games.checked_mul(players).ok_or_else(|| PyValueError::new_err(format!("n_games {n_games} is too large")))?;
    let mut out: Vec<Outcome> = Vec::new();
    out.try_reserve_exact(n_games).map_err(too_big)?;
    out.resize(n_games, Outcome::default());
    let mut scores: Vec<i32> = Vec::new();
    let mut winners: Vec<bool> = Vec::new();
    let mut lengths: Vec<i32> = Vec::new();
    scores.try_reserve_exact(cells).map_err(too_big)?;
    winners.try_reserve_exact(cells).map_err(too_big)?;
    lengths.try_reserve_exact(n_games).map_err(too_big)?;
    let stop = std::sync::atomic::AtomicBool::new(false);
    search::interruptible(py, &stop, || run(&setup, &policy, threads, &mut out, &stop), |_| Ok(()))?.map_err(setup_err)?;
    let width = players;
    for o in &out {
        for p in 0..width {
            scores.push(o.scores[p]);
            winners.push(o.winners & (1 << p) != 0);
        }
    }
    lengths.extend(out.iter().map(|o| o.decisions as i32));
    let scores = PyArray1::from_vec(py, scores).reshape([n_games, width])?;
    let winners = PyArray1::from_vec(py, winners).reshape([n_games, width])?;
    let lengths = PyArray1::from_vec(py, lengths);
    PyTuple::new(py, [scores.into_any(), winners.into_any(), lengths.into_any()])
}

/// Points of Dragon ``card`` for ``realms[player]`` (docs/cards.md); Power
/// compares with the neighbouring seats of ``realms``.
#[pyfunction]
fn dragon_points(card: &str, realms: Vec<PyRef<'_, PyRealm>>, player: i64) -> PyResult<u32> {
    let k = DRAGONS
        .iter()
        .position(|d| d.eq_ignore_ascii_case(card))
        .ok_or_else(|| PyValueError::new_err(format!("unknown Dragon card {card:?}; the cards are {}", DRAGONS.join(", "))))?;
    let rs: Vec<CoreRealm> = realms.iter().map(|r| r.0).collect();
    if !(0..rs.len() as i64).contains(&player) {
        return Err(PyValueError::new_err(format!("player {player} is not an index of the {} realms", rs.len())));
    }
    Ok(crate::cards::dragon_points(k as u8, &rs, player as usize))
}

/// The shape of the observation tensor of layout ``version`` (1, 2 or 3).
#[pyfunction]
#[pyo3(name = "observation_shape", signature = (version = OBSERVATION_VERSION))]
fn py_observation_shape(version: u32) -> PyResult<(usize, usize, usize)> {
    observation_shape(version)
        .map(|s| (s[0], s[1], s[2]))
        .ok_or_else(|| PyValueError::new_err(format!("observation version {version} does not exist (1 or {OBSERVATION_VERSION})")))
}

/// The solo rank of a final score (R-SOLO-5).
#[pyfunction]
fn solo_rank(score: i64) -> &'static str {
    crate::solo::rank(score)
}

/// The Rust core of ``dragoncastle``: games, actions, layouts, batch play and
/// search. Use it through ``dragoncastle``, which re-exports the public names.
#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add_class::<PyGame>()?;
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
    m.add("MAX_LEGAL_ACTIONS", crate::action::MAX_LEGAL)?;
    m.add_function(wrap_pyfunction!(greedy_action, m)?)?;
    m.add_function(wrap_pyfunction!(random_action, m)?)?;
    m.add_function(wrap_pyfunction!(solo_rank, m)?)?;
    m.add_function(wrap_pyfunction!(dragon_points, m)?)?;
    m.add_function(wrap_pyfunction!(py_observation_shape, m)?)?;
    m.add("OBSERVATION_VERSION", OBSERVATION_VERSION)?;
    m.add("COMPACT_OBSERVATION_SIZE", COMPACT_OBSERVATION_SIZE)?;
    m.add_function(wrap_pyfunction!(playouts, m)?)?;
    m.add_class::<search::PyMcts>()?;
    m.add_function(wrap_pyfunction!(search::agent_spec, m)?)?;
    m.add_function(wrap_pyfunction!(search::arena, m)?)?;
    m.add_function(wrap_pyfunction!(search::selfplay, m)?)?;
    m.add_class::<network::PyNetwork>()?;
    m.add_function(wrap_pyfunction!(network::network_features, m)?)?;
    m.add("NETWORK_FEATURES", crate::eval::features::TABLE.count())?;
    Ok(())
}
