//! The enums (`TileType`, `Phase`, `ActionKind`) and `Tile`: names and
//! numbers from the core's tables, converted.

use super::*;

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

// Members are declared in the core's index order, which tests/test_api.py checks
// against the core's names.
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
        CoreType::ALL[*self as usize].name()
    }

    /// True for Merchant, Soldier and Farmer.
    #[getter]
    fn is_faction(&self) -> bool {
        CoreType::ALL[*self as usize].is_faction()
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
    /// What the phase asks of the player to move, in the game's words.
    ///
    /// >>> import dragoncastle as dc
    /// >>> dc.Phase.DESTROY.prompt
    /// 'Destruction: choose the castle tile to discard'
    #[getter]
    fn prompt(&self) -> &'static str {
        CorePhase::ALL[*self as usize].prompt()
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
        CoreKind::ALL[*self as usize].name()
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
pub struct PyTile(pub(crate) CoreTile);

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
