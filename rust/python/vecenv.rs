//! `VecEnv`: the binding of `crate::vecenv`. The arrays are allocated once and
//! written in place at every step with the GIL released.

use numpy::{PyArray1, PyArray2, PyArrayMethods, PyReadonlyArray1};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyTuple;

use std::sync::atomic::AtomicBool;

use super::interrupt::interruptible;
use super::to_py_err;
use crate::action::NUM_ACTIONS;
use crate::state::observe::OBSERVATION_SHAPE;
use crate::vecenv::{Observation, ObservationRows, Outputs, RewardKind, VecEnv};

/// ``n`` games stepped together in Rust threads (docs/vecenv.md).
///
/// ``reset()`` and ``step(actions)`` return ``(observations, masks, rewards,
/// terminated, to_move)``: numpy arrays with one row per game, the same array
/// objects at every call, written in place. A game that ends is dealt again at
/// once from its slot's next seed (slot ``i``'s ``e``-th game uses seed
/// ``seed + i + n * e``): its row's ``rewards`` and ``terminated`` describe the
/// game that ended, its observation and mask the new one. With ``opponents`` (an
/// agent or its spec: ``random``, ``greedy``, ``mcts:iterations=...``) every seat but
/// ``learner`` (default 0) is played inside Rust, so ``to_move`` is always the
/// learner.
#[pyclass(module = "dragoncastle._core", name = "VecEnv")]
pub struct PyVecEnv {
    env: VecEnv,
    observations: Option<Py<PyAny>>,
    masks: Py<PyArray2<bool>>,
    rewards: Py<PyArray2<f32>>,
    terminated: Py<PyArray1<bool>>,
    to_move: Py<PyArray1<i64>>,
}

#[pymethods]
impl PyVecEnv {
    #[new]
    #[pyo3(signature = (n, *, players = 2, seed = 0, threads = None, opponents = None, learner = None, reward = "win", observation = "compact", spirits = None, dragons = None, layout = None, rules = None))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        n: &Bound<'_, PyAny>,
        #[pyo3(from_py_with = crate::python::action::int_not_bool)] players: i64,
        #[pyo3(from_py_with = crate::python::runner::seed_arg)] seed: u64,
        threads: Option<&Bound<'_, PyAny>>,
        opponents: Option<&Bound<'_, PyAny>>,
        learner: Option<&Bound<'_, PyAny>>,
        reward: &str,
        observation: &str,
        spirits: Option<&Bound<'_, PyAny>>,
        dragons: Option<&Bound<'_, PyAny>>,
        layout: Option<&Bound<'_, PyAny>>,
        rules: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Self> {
        use crate::python::runner;
        crate::setup::check_players(players).map_err(crate::python::to_py_err)?;
        let players = players as usize;
        let n = runner::whole_arg(n, "n", 1, crate::vecenv::MAX_GAMES)?;
        // One thread unless told (a step is short: threads pay off for many games).
        let threads = match threads.filter(|t| !t.is_none()) {
            None => 1,
            Some(t) => runner::whole_arg(t, "threads", 1, crate::search::MAX_THREADS)?,
        };
        let learner = learner.filter(|l| !l.is_none()).map(|l| runner::whole_arg(l, "learner", 0, players - 1)).transpose()?;
        // Checked before the arrays are allocated.
        crate::vecenv::check_size(n, threads).map_err(to_py_err)?;
        runner::check_seeds(seed, n)?;
        let reward = RewardKind::parse(reward).map_err(to_py_err)?;
        let observation = Observation::parse(observation).map_err(to_py_err)?;
        let opponent = opponents
            .filter(|o| !o.is_none())
            .map(runner::agent_arg)
            .transpose()?;
        let learner = match (&opponent, learner) {
            (Some(_), l) => Some(l.unwrap_or(0)),
            (None, Some(_)) => {
                return Err(PyValueError::new_err(
                    "learner is the seat the opponents leave free: give opponents too",
                ))
            }
            (None, None) => None,
        };
        let setup = runner::table(players, seed, spirits, dragons, layout, rules)?;
        // Through numpy.zeros, so that arrays too large for memory raise
        // MemoryError (the Rust constructors panic when numpy returns NULL).
        let zeros = py.import("numpy")?.getattr("zeros")?;
        let array = |shape: Vec<usize>, dtype: &str| -> PyResult<Bound<'_, PyAny>> {
            zeros.call1((PyTuple::new(py, shape)?, dtype))
        };
        let observations = match observation {
            Observation::Compact => Some(array(vec![n, observation.size()], "uint8")?.unbind()),
            Observation::Tensor => {
                Some(array([&[n][..], &OBSERVATION_SHAPE[..]].concat(), "float32")?.unbind())
            }
            Observation::None => None,
        };
        let masks = array(vec![n, NUM_ACTIONS], "bool")?
            .cast_into::<PyArray2<bool>>()?
            .unbind();
        let rewards = array(vec![n, players], "float32")?
            .cast_into::<PyArray2<f32>>()?
            .unbind();
        let terminated = array(vec![n], "bool")?
            .cast_into::<PyArray1<bool>>()?
            .unbind();
        let to_move = array(vec![n], "int64")?
            .cast_into::<PyArray1<i64>>()?
            .unbind();
        let env = VecEnv::new(n, setup, threads, learner, opponent, reward, observation)
            .map_err(to_py_err)?;
        Ok(PyVecEnv {
            observations,
            masks,
            rewards,
            terminated,
            to_move,
            env,
        })
    }

    /// Deal every game anew (slot ``i`` from ``seed + i``) and return the arrays.
    fn reset<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        self.run(py, None)
    }

    /// Apply ``actions[i]`` (an action id) in game ``i``, let the opponents
    /// answer, deal ended games again, and return the arrays. An illegal
    /// action raises ``IllegalActionError`` and changes no game.
    fn step<'py>(
        &mut self,
        py: Python<'py>,
        actions: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyTuple>> {
        let ids: Vec<i64> = match actions.extract::<PyReadonlyArray1<'py, i64>>() {
            // Any strides (a column of a batch, a reversed view).
            Ok(a) => a.as_array().iter().copied().collect(),
            Err(_) => actions.extract::<Vec<i64>>().map_err(|_| {
                PyValueError::new_err(
                    "actions must be a 1-d sequence of action ids (ints), one per game",
                )
            })?,
        };
        self.run(py, Some(ids))
    }

    /// A uniformly random legal action id per game (int64, -1 where none),
    /// drawn from the environment's own seeded stream.
    fn sample<'py>(&mut self, py: Python<'py>) -> Bound<'py, PyArray1<i64>> {
        let mut out = vec![0i64; self.env.len()];
        self.env.sample(&mut out);
        PyArray1::from_vec(py, out)
    }

    fn __len__(&self) -> usize {
        self.env.len()
    }
    /// Games stepped together.
    #[getter]
    fn num_envs(&self) -> usize {
        self.env.len()
    }
    /// Seats with a Realm: the width of ``rewards``.
    #[getter]
    fn players(&self) -> usize {
        self.env.players()
    }
    /// The shape of one game's observation row.
    #[getter]
    fn observation_shape(&self) -> Vec<usize> {
        match self.env.observation() {
            Observation::Compact => vec![Observation::Compact.size()],
            Observation::Tensor => OBSERVATION_SHAPE.to_vec(),
            Observation::None => vec![0],
        }
    }
    /// Game ``i`` as it stands, as the text picture of ``str(game)``.
    fn state_text(&self, i: usize) -> PyResult<String> {
        self.env
            .state(i)
            .map(crate::render::text)
            .ok_or_else(|| PyValueError::new_err(format!("no game {i}")))
    }
}

impl PyVecEnv {
    fn run<'py>(
        &mut self,
        py: Python<'py>,
        actions: Option<Vec<i64>>,
    ) -> PyResult<Bound<'py, PyTuple>> {
        let masks = self.masks.bind(py).clone();
        let rewards = self.rewards.bind(py).clone();
        let terminated = self.terminated.bind(py).clone();
        let to_move = self.to_move.bind(py).clone();
        let observations = self.observations.as_ref().map(|o| o.bind(py).clone());
        {
            // The arrays are the caller's too: one made read-only, or borrowed
            // elsewhere, is an error, not a panic.
            let busy = |_| {
                PyValueError::new_err("the arrays of reset()/step() must stay writeable and not be borrowed while stepping")
            };
            let mut m = masks.try_readwrite().map_err(busy)?;
            let mut r = rewards.try_readwrite().map_err(busy)?;
            let mut t = terminated.try_readwrite().map_err(busy)?;
            let mut w = to_move.try_readwrite().map_err(busy)?;
            let mut compact = None;
            let mut tensor = None;
            if let Some(o) = &observations {
                if let Ok(a) = o.cast::<PyArray2<u8>>() {
                    compact = Some(a.try_readwrite().map_err(busy)?);
                } else if let Ok(a) = o.cast::<numpy::PyArray4<f32>>() {
                    tensor = Some(a.try_readwrite().map_err(busy)?);
                }
            }
            // The arrays' slices, as often as needed (once more after a rollback).
            macro_rules! outputs {
                () => {{
                    let rows = match (&mut compact, &mut tensor) {
                        (Some(c), _) => ObservationRows::Compact(c.as_slice_mut()?),
                        (_, Some(f)) => ObservationRows::Tensor(f.as_slice_mut()?),
                        _ => ObservationRows::None,
                    };
                    Outputs {
                        observations: rows,
                        masks: m.as_slice_mut()?,
                        rewards: r.as_slice_mut()?,
                        terminated: t.as_slice_mut()?,
                        to_move: w.as_slice_mut()?,
                    }
                }};
            }
            let env = &mut self.env;
            if !env.may_be_long(actions.is_none()) {
                let out = outputs!();
                py.detach(|| match &actions {
                    Some(ids) => env.step(ids, out, None),
                    None => env.reset(out, None),
                })
                .map_err(to_py_err)?;
            } else {
                // A long step or reset (searching opponents, huge batches)
                // answers Ctrl-C: it stops, every game goes back to where it
                // was, and KeyboardInterrupt is raised. Short ones skip the
                // watcher thread this costs.
                let snapshot = env.snapshot();
                let stop = AtomicBool::new(false);
                let out = outputs!();
                let work = || match &actions {
                    Some(ids) => env.step(ids, out, Some(&stop)),
                    None => env.reset(out, Some(&stop)),
                };
                // Stopped, or an opponent's network failed: every game goes back.
                let failed = match interruptible(py, &stop, work, |_| Ok(())) {
                    Ok(result) => result.map_err(to_py_err).err(),
                    Err(e) => Some(e),
                };
                if let Some(e) = failed {
                    let out = outputs!();
                    env.restore(snapshot, out).map_err(to_py_err)?;
                    return Err(e);
                }
            }
        }
        let obs: Bound<'py, PyAny> = match observations {
            Some(o) => o,
            None => py.None().into_bound(py),
        };
        PyTuple::new(
            py,
            [
                obs,
                masks.into_any(),
                rewards.into_any(),
                terminated.into_any(),
                to_move.into_any(),
            ],
        )
    }
}
