//! A Python callable as the search's [`Evaluator`]: `fn(observations, masks)
//! -> (priors, values)` called once per batch of leaves, with the GIL held
//! only for the call. Conversion and checks only; the search is `crate::search`.
//!
//! Observations are seen by the seat to move, with seats relative to it; so
//! are the values the function returns (column 0 is the mover's). The
//! conversion to seats of the game happens here.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};

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
/// and raised by the binding once the search has stopped. Clones share the
/// callable; each search's clone carries that search's [`Watch`].
#[derive(Clone)]
pub struct PyEvaluator {
    shared: Arc<Shared>,
    watch: Option<Arc<Watch>>,
}

struct Shared {
    func: Py<PyAny>,
    batch: usize,
    error: Mutex<Option<PyErr>>,
    /// Held from the check before a call to the answer after it, so that no
    /// search thread starts a call while Ctrl-C may be unseen.
    calls: Mutex<()>,
}

impl PyEvaluator {
    pub fn new(func: Py<PyAny>, batch: usize) -> PyResult<PyEvaluator> {
        if !(1..=MAX_BATCH).contains(&batch) {
            return Err(PyValueError::new_err(format!("batch_size must be 1 to {MAX_BATCH}; got {batch}")));
        }
        let shared = Shared { func, batch, error: Mutex::new(None), calls: Mutex::new(()) };
        Ok(PyEvaluator { shared: Arc::new(shared), watch: None })
    }

    /// This evaluator for one search, which asks `watch` about Ctrl-C after every call.
    pub fn watched(&self, watch: &Arc<Watch>) -> PyEvaluator {
        PyEvaluator { shared: self.shared.clone(), watch: Some(watch.clone()) }
    }

    /// The error that stopped the last search, if any.
    pub fn take_error(&self) -> Option<PyErr> {
        self.shared.error.lock().ok().and_then(|mut e| e.take())
    }

    fn fail(&self, e: PyErr) -> EvalError {
        // The search stops on this error: its other threads must not call again meanwhile.
        if let Some(w) = &self.watch {
            w.stopped.store(true, Ordering::SeqCst);
        }
        let msg = e.to_string();
        if let Ok(mut slot) = self.shared.error.lock() {
            slot.get_or_insert(e);
        }
        EvalError(msg)
    }

    /// Call the function on the batch and copy its answer out, checked.
    /// `movers[i]` is the seat to move at leaf `i`: the function's values are
    /// by seat relative to it (column 0 the mover, 1 the next seat
    /// clockwise), as its observations are.
    #[allow(clippy::too_many_arguments)]
    fn call(&self, py: Python<'_>, n: usize, players: usize, movers: &[usize], obs: Vec<u8>, legal: &[bool], values: &mut [[f64; MAX_SEATS]], priors: &mut [f32]) -> PyResult<()> {
        let obs = PyArray1::from_vec(py, obs).reshape([n, COMPACT_OBSERVATION_SIZE])?;
        // The callable gets a copy: what it does to it must not change which priors are checked.
        let masks = PyArray1::from_slice(py, legal).reshape([n, NUM_ACTIONS])?;
        let out = self.shared.func.bind(py).call1((obs, masks))?;
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
        let (p, v) = (p.as_array(), v.as_array());
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
                if legal[i * NUM_ACTIONS + a] && !(x.is_finite() && x >= 0.0) {
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
        self.shared.batch
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
        let _turn = self.shared.calls.lock().unwrap_or_else(|e| e.into_inner());
        if self.watch.as_ref().is_some_and(|w| w.stopped()) {
            return Err(EvalError("interrupted".into()));
        }
        Python::attach(|py| self.call(py, n, players, &movers, obs, &masks, values, priors)).map_err(|e| self.fail(e))?;
        // Python runs signal handlers on its main thread only, not in this
        // one: have the waiting thread look for Ctrl-C now, before any other call.
        match &self.watch {
            Some(w) if w.check() => Err(EvalError("interrupted".into())),
            _ => Ok(()),
        }
    }
}

/// How a search thread that called Python has the thread waiting for the
/// search (`interruptible`, which Python delivers signals to) look for
/// Ctrl-C at once, and waits for the answer: a signal that came during a call
/// is then seen before the next call starts.
pub struct Watch {
    waiter: std::thread::Thread,
    asked: AtomicU64,
    answered: Mutex<u64>,
    woken: Condvar,
    stopped: AtomicBool,
}

impl Watch {
    /// A watch answered by the calling thread.
    pub fn new() -> Arc<Watch> {
        let waiter = std::thread::current();
        Arc::new(Watch { waiter, asked: AtomicU64::new(0), answered: Mutex::new(0), woken: Condvar::new(), stopped: AtomicBool::new(false) })
    }

    /// Ask the waiter to look for Ctrl-C and wait for its answer: whether the search must stop.
    fn check(&self) -> bool {
        let ticket = self.asked.fetch_add(1, Ordering::SeqCst) + 1;
        self.waiter.unpark();
        let mut answered = self.lock();
        while *answered < ticket {
            answered = self.woken.wait(answered).unwrap_or_else(|e| e.into_inner());
        }
        self.stopped()
    }

    /// Whether the waiter saw Ctrl-C (or another error) and stopped the search.
    pub fn stopped(&self) -> bool {
        self.stopped.load(Ordering::SeqCst)
    }

    /// The requests made so far; the waiter reads this before it looks for
    /// Ctrl-C and answers up to it after.
    pub fn asked(&self) -> u64 {
        self.asked.load(Ordering::SeqCst)
    }

    /// Answer the requests up to `ticket`, after looking for Ctrl-C (`stop`: it came).
    pub fn answer(&self, ticket: u64, stop: bool) {
        if stop {
            self.stopped.store(true, Ordering::SeqCst);
        }
        let mut answered = self.lock();
        *answered = (*answered).max(ticket);
        self.woken.notify_all();
    }

    /// Whether a request waits for an answer.
    pub fn pending(&self) -> bool {
        self.asked() > *self.lock()
    }

    fn lock(&self) -> MutexGuard<'_, u64> {
        self.answered.lock().unwrap_or_else(|e| e.into_inner())
    }
}
