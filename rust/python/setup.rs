//! What sets a game up: `Rules` and `Layout`.

use super::*;

/// Rule options. ``Rules(dragon_set_bonus=True)`` (R-CONS-3).
#[pyclass(module = "dragoncastle._core", name = "Rules", frozen, eq, hash, from_py_object)]
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct PyRules {
    /// +1 VP for each Consolidated set of Dragon tiles (R-CONS-3); on by default.
    #[pyo3(get)]
    pub(crate) dragon_set_bonus: bool,
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
pub struct PyLayout(pub(crate) CoreLayout);

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
        let (row, col) = Space::at(space_index(space)?).row_col();
        Ok(self.0.height(row, col))
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
