//! `Action`: one shared Python object per action id, its fields, and the
//! parsing of the forms an action may be given in.

use super::*;

/// One atomic decision with a stable id in ``range(NUM_ACTIONS)``.
#[pyclass(module = "dragoncastle._core", name = "Action", frozen, eq, hash, ord, from_py_object)]
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PyAction(pub(crate) CoreAction);

pub(crate) static ACTIONS: PyOnceLock<Vec<Py<PyAction>>> = PyOnceLock::new();

/// Actions are immutable, so every id has one shared Python object: listing legal
/// actions then costs a reference count per action, not an allocation.
pub(crate) fn action_obj(py: Python<'_>, a: CoreAction) -> Py<PyAction> {
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

pub(crate) fn space_tuple(s: u8) -> (usize, usize) {
    Space::row_col_of(s as usize)
}
pub(crate) fn cell_tuple(c: u8) -> (usize, usize) {
    Cell::row_col_of(c as usize)
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
pub(crate) fn int_not_bool(v: &Bound<'_, PyAny>) -> PyResult<i64> {
    if v.is_instance_of::<pyo3::types::PyBool>() {
        return Err(PyValueError::new_err(format!("expected an integer, not a bool ({v})")));
    }
    // ValueError, as the reference engine says for any bad count.
    v.extract::<i64>().map_err(|_| PyValueError::new_err(format!("expected an integer; got {v}")))
}

pub(crate) fn parse_action(spec: &Bound<'_, PyAny>) -> PyResult<CoreAction> {
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

pub(crate) fn space_index((r, c): (i64, i64)) -> PyResult<usize> {
    let square = (r >= 0 && c >= 0).then(|| Space::new(r as usize, c as usize)).flatten();
    square.map(Space::index).ok_or_else(|| PyValueError::new_err(format!("castle space ({r}, {c}) is outside the 12x12 grid")))
}

pub(crate) fn cell_index((r, c): (i64, i64)) -> PyResult<usize> {
    let square = (r >= 0 && c >= 0).then(|| Cell::new(r as usize, c as usize)).flatten();
    square.map(Cell::index).ok_or_else(|| PyValueError::new_err(format!("realm cell ({r}, {c}) is outside the 4x4 Realm")))
}
