//! A `Realm` snapshot of one player, converted call by call.

use super::*;


/// A snapshot of one player's Realm (it does not follow later moves).
#[pyclass(module = "dragoncastle._core", name = "Realm", frozen, eq)]
#[derive(PartialEq)]
pub struct PyRealm(pub(crate) CoreRealm);

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
    /// The Realm's text on one line: ``<Realm | 1Me2 . . . | ... |>``.
    fn __repr__(&self) -> String {
        format!("<Realm | {} |>", self.0.to_text().lines().collect::<Vec<_>>().join(" | "))
    }
}

// ---------------------------------------------------------------- Game
