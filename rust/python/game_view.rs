//! What a `Game` shows: scores, the castle, the Realms, the pools, text,
//! JSON and observations (a second `#[pymethods]` block of `Game`).

use super::*;

#[pymethods]
impl PyGame {
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
        let (v, shape) = self.g.state().observation_tensor_of(self.observer(player)?, version).map_err(to_py_err)?;
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
    fn check_invariants(&self) -> PyResult<()> {
        self.g.state().check_invariants().map_err(pyo3::exceptions::PyAssertionError::new_err)
    }
}


pub(crate) fn json_to_py<'py>(py: Python<'py>, v: &serde_json::Value) -> PyResult<Bound<'py, PyAny>> {
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
