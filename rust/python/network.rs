//! Bindings for the network's weights and input features, so the trainer
//! (``dragoncastle.train``) and the tests share the Rust definitions:
//! conversion only.

use numpy::{PyArray1, PyArray2, PyArrayMethods, PyReadonlyArray1, PyReadonlyArray2, PyUntypedArrayMethods};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use crate::action::{Action, NUM_ACTIONS};
use crate::eval::features::TABLE;
use crate::eval::network::{Header, Network};
use crate::search::MAX_SEATS;
use crate::state::observe::COMPACT_OBSERVATION_SIZE;

/// Weights of the search's network (``docs/training.md``): load, save,
/// inspect, and evaluate positions exactly as the search does.
#[pyclass(module = "dragoncastle._core", name = "Network", frozen)]
pub struct PyNetwork {
    pub net: Network,
}

fn observations_of<'a>(obs: &'a PyReadonlyArray2<'_, u8>) -> PyResult<&'a [u8]> {
    if obs.shape()[1] != COMPACT_OBSERVATION_SIZE {
        return Err(PyValueError::new_err(format!("observations must have shape (N, {COMPACT_OBSERVATION_SIZE}); got {:?}", obs.shape())));
    }
    obs.as_slice().map_err(|_| PyValueError::new_err("observations must be a C-contiguous uint8 array"))
}

#[pymethods]
impl PyNetwork {
    /// Read a weights file; ``ValueError`` says what is wrong with it.
    #[staticmethod]
    fn load(path: &str) -> PyResult<PyNetwork> {
        crate::agents::spec::load_model(path).map(|net| PyNetwork { net }).map_err(PyValueError::new_err)
    }

    /// A network from its arrays (float32, in the order and shapes of
    /// ``Network.ARRAYS``) and ``training`` (JSON text: how it was made).
    #[staticmethod]
    fn from_arrays(arrays: Vec<PyReadonlyArray1<'_, f32>>, hidden: usize, hidden2: usize, training: &str) -> PyResult<PyNetwork> {
        let training: serde_json::Value = serde_json::from_str(training).map_err(|e| PyValueError::new_err(format!("training must be JSON text: {e}")))?;
        let arrays = arrays.iter().map(|a| a.as_slice().map(|s| s.to_vec())).collect::<Result<Vec<_>, _>>()
            .map_err(|_| PyValueError::new_err("arrays must be contiguous"))?;
        Network::from_arrays(Header::new(hidden, hidden2, training), arrays).map(|net| PyNetwork { net }).map_err(PyValueError::new_err)
    }

    /// The shape ``(rows, cols)`` of each array of ``ARRAYS`` for these
    /// hidden sizes (a bias is one row).
    #[staticmethod]
    fn shapes(hidden: usize, hidden2: usize) -> Vec<(usize, usize)> {
        Network::shapes(&Header::new(hidden, hidden2, serde_json::Value::Null)).to_vec()
    }

    /// The names of the arrays, in file order.
    #[classattr]
    #[allow(non_snake_case)]
    fn ARRAYS() -> Vec<&'static str> {
        Network::ARRAYS.to_vec()
    }

    /// Write the weights file.
    fn save(&self, path: &str) -> PyResult<()> {
        std::fs::write(path, self.net.to_bytes()).map_err(|e| PyValueError::new_err(format!("cannot write {path}: {e}")))
    }

    /// The header, as JSON text.
    #[getter]
    fn header(&self) -> String {
        serde_json::to_string(&self.net.header).unwrap_or_default()
    }

    /// The arrays (flat float32 copies) in file order.
    fn arrays<'py>(&self, py: Python<'py>) -> Vec<Bound<'py, PyArray1<f32>>> {
        self.net.arrays().iter().map(|a| PyArray1::from_slice(py, a)).collect()
    }

    /// The raw outputs for a batch, as the search computes them: logits
    /// ``float32 (N, NUM_ACTIONS)`` (``-inf`` where ``masks`` is False) and
    /// values ``float32 (N, 4)`` for the seats relative to the mover.
    fn forward<'py>(
        &self,
        py: Python<'py>,
        observations: PyReadonlyArray2<'py, u8>,
        masks: PyReadonlyArray2<'py, bool>,
    ) -> PyResult<(Bound<'py, PyArray2<f32>>, Bound<'py, PyArray2<f32>>)> {
        let obs = observations_of(&observations)?;
        let n = observations.shape()[0];
        if masks.shape() != [n, NUM_ACTIONS] {
            return Err(PyValueError::new_err(format!("masks must have shape ({n}, {NUM_ACTIONS}); got {:?}", masks.shape())));
        }
        let masks = masks.as_slice().map_err(|_| PyValueError::new_err("masks must be C-contiguous"))?;
        let mut logits = vec![f32::NEG_INFINITY; n * NUM_ACTIONS];
        let mut values = vec![0f32; n * MAX_SEATS];
        let mut legal = Vec::new();
        let mut out = vec![0f32; NUM_ACTIONS];
        for i in 0..n {
            legal.clear();
            legal.extend((0..NUM_ACTIONS).filter(|&a| masks[i * NUM_ACTIONS + a]).filter_map(|a| Action::from_id(a as i64).ok()));
            let mut v = [0f32; MAX_SEATS];
            self.net.forward(&obs[i * COMPACT_OBSERVATION_SIZE..(i + 1) * COMPACT_OBSERVATION_SIZE], &legal, &mut v, &mut out[..legal.len()]);
            for (a, &l) in legal.iter().zip(&out) {
                logits[i * NUM_ACTIONS + a.id() as usize] = l;
            }
            values[i * MAX_SEATS..(i + 1) * MAX_SEATS].copy_from_slice(&v);
        }
        Ok((PyArray1::from_vec(py, logits).reshape([n, NUM_ACTIONS])?, PyArray1::from_vec(py, values).reshape([n, MAX_SEATS])?))
    }

    fn __repr__(&self) -> String {
        format!("Network(hidden={}, hidden2={}, source={:?})", self.net.header.hidden, self.net.header.hidden2, self.net.source)
    }
}

/// The network's input features of a batch of compact observations, as a
/// sparse matrix in coordinates: ``(rows, features, weights)`` (``int64``,
/// ``int64``, ``float32``); ``NETWORK_FEATURES`` columns.
#[pyfunction]
pub fn network_features<'py>(
    py: Python<'py>,
    observations: PyReadonlyArray2<'py, u8>,
) -> PyResult<(Bound<'py, PyArray1<i64>>, Bound<'py, PyArray1<i64>>, Bound<'py, PyArray1<f32>>)> {
    let obs = observations_of(&observations)?;
    let (mut rows, mut cols, mut weights) = (Vec::new(), Vec::new(), Vec::new());
    for (i, o) in obs.chunks_exact(COMPACT_OBSERVATION_SIZE).enumerate() {
        TABLE.active(o, |f, w| {
            rows.push(i as i64);
            cols.push(f as i64);
            weights.push(w);
        });
    }
    Ok((PyArray1::from_vec(py, rows), PyArray1::from_vec(py, cols), PyArray1::from_vec(py, weights)))
}
