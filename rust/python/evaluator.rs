//! A Python callable as the search's [`Evaluator`]: `fn(observations, masks)
//! -> (priors, values)` called once per batch of leaves, with the GIL held
//! only for the call. Conversion and checks only; the search is `crate::search`.
//!
//! Observations are seen by the seat to move, with seats relative to it; so
//! are the values the function returns (column 0 is the mover's). The
//! conversion to seats of the game happens here.

use std::sync::Mutex;

use numpy::{PyArray1, PyArrayMethods, PyUntypedArrayMethods};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyTuple;

use crate::action::{ActionList, NUM_ACTIONS};
use crate::rng::SplitMix64;
use crate::search::{EvalError, Evaluator, MAX_SEATS};
use crate::state::observe::COMPACT_OBSERVATION_SIZE;
use crate::state::State;

/// The most leaves per call.
pub const MAX_BATCH: usize = 4096;

/// A Python evaluator; an exception it raises (or a bad answer) is kept here
/// and raised by the binding once the search has stopped.
pub struct PyEvaluator {
    func: Py<PyAny>,
    batch: usize,
    error: Mutex<Option<PyErr>>,
}

impl PyEvaluator {
    pub fn new(func: Py<PyAny>, batch: usize) -> PyResult<PyEvaluator> {
        if !(1..=MAX_BATCH).contains(&batch) {
            return Err(PyValueError::new_err(format!("batch_size must be 1 to {MAX_BATCH}; got {batch}")));
        }
        Ok(PyEvaluator { func, batch, error: Mutex::new(None) })
    }

    /// The error that stopped the last search, if any.
    pub fn take_error(&self) -> Option<PyErr> {
        self.error.lock().ok().and_then(|mut e| e.take())
    }

    fn fail(&self, e: PyErr) -> EvalError {
        let msg = e.to_string();
        if let Ok(mut slot) = self.error.lock() {
            slot.get_or_insert(e);
        }
        EvalError(msg)
    }

    /// Call the function on the batch and copy its answer out, checked.
    /// `movers[i]` is the seat to move at leaf `i`: the function's values are
    /// by seat relative to it (column 0 the mover, 1 the next seat
    /// clockwise), as its observations are.
    #[allow(clippy::too_many_arguments)]
    fn call(&self, py: Python<'_>, n: usize, players: usize, movers: &[usize], obs: Vec<u8>, masks: Vec<bool>, values: &mut [[f64; MAX_SEATS]], priors: &mut [f32]) -> PyResult<()> {
        let obs = PyArray1::from_vec(py, obs).reshape([n, COMPACT_OBSERVATION_SIZE])?;
        let masks_arr = PyArray1::from_vec(py, masks).reshape([n, NUM_ACTIONS])?;
        let masks_ro = masks_arr.readonly();
        let out = self.func.bind(py).call1((obs, &masks_arr))?;
        let bad = |what: String| PyValueError::new_err(format!("evaluator: {what}"));
        let pair = out.cast::<PyTuple>().map_err(|_| bad(format!("must return a tuple (priors, values); got {}", type_name(&out))))?;
        if pair.len() != 2 {
            return Err(bad(format!("must return a tuple (priors, values); got a tuple of {}", pair.len())));
        }
        let p = pair.get_item(0)?;
        let v = pair.get_item(1)?;
        let p = p
            .cast::<numpy::PyArray2<f32>>()
            .map_err(|_| bad(format!("priors must be a float32 numpy array of shape ({n}, {NUM_ACTIONS}); got {}", describe(&p))))?;
        let v = v
            .cast::<numpy::PyArray2<f32>>()
            .map_err(|_| bad(format!("values must be a float32 numpy array of shape ({n}, {players}); got {}", describe(&v))))?;
        if p.shape() != [n, NUM_ACTIONS] {
            return Err(bad(format!("priors must have shape ({n}, {NUM_ACTIONS}); got {:?}", p.shape())));
        }
        if v.shape() != [n, players] {
            return Err(bad(format!("values must have shape ({n}, {players}); got {:?}", v.shape())));
        }
        let (p, v) = (p.readonly(), v.readonly());
        let (p, v, mask) = (p.as_array(), v.as_array(), masks_ro.as_array());
        for i in 0..n {
            for j in 0..players {
                let x = v[[i, j]];
                if !x.is_finite() {
                    return Err(bad(format!("values[{i}, {j}] is {x}: values must be finite")));
                }
                values[i][(movers[i] + j) % players] = x as f64;
            }
            let row = &mut priors[i * NUM_ACTIONS..(i + 1) * NUM_ACTIONS];
            for (a, slot) in row.iter_mut().enumerate() {
                let x = p[[i, a]];
                if mask[[i, a]] && !(x.is_finite() && x >= 0.0) {
                    return Err(bad(format!("priors[{i}, {a}] is {x}: priors of legal actions must be finite and non-negative")));
                }
                *slot = x;
            }
        }
        Ok(())
    }
}

fn type_name(x: &Bound<'_, PyAny>) -> String {
    x.get_type().name().map(|n| n.to_string()).unwrap_or_else(|_| "an object".into())
}

fn describe(x: &Bound<'_, PyAny>) -> String {
    match (x.getattr("dtype"), x.getattr("shape")) {
        (Ok(d), Ok(s)) => format!("dtype {d}, shape {s}"),
        _ => type_name(x),
    }
}

impl Evaluator<State> for PyEvaluator {
    fn gives_priors(&self) -> bool {
        true
    }
    fn batch_size(&self) -> usize {
        self.batch
    }
    fn evaluate(&self, leaves: &mut [State], _rng: &mut SplitMix64, values: &mut [[f64; MAX_SEATS]], priors: &mut [f32]) -> Result<(), EvalError> {
        let n = leaves.len();
        let players = leaves.first().map_or(1, |s| s.players());
        // Everything the call needs is made before the GIL is taken.
        let mut obs = vec![0u8; n * COMPACT_OBSERVATION_SIZE];
        let mut masks = vec![false; n * NUM_ACTIONS];
        let mut legal = ActionList::default();
        let movers: Vec<usize> = leaves.iter().map(|s| s.current_player()).collect();
        for (i, s) in leaves.iter().enumerate() {
            s.compact_observation(s.current_player(), &mut obs[i * COMPACT_OBSERVATION_SIZE..(i + 1) * COMPACT_OBSERVATION_SIZE]);
            s.legal_actions_into(&mut legal);
            for a in legal.iter() {
                masks[i * NUM_ACTIONS + a.id() as usize] = true;
            }
        }
        Python::attach(|py| self.call(py, n, players, &movers, obs, masks, values, priors)).map_err(|e| self.fail(e))
    }
}
