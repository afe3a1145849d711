//! Bindings for the solo planner (`crate::plan`): conversion only. A decision
//! runs with the GIL released and answers Ctrl-C.

use std::sync::atomic::AtomicBool;

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use super::search::interruptible;
use super::{action_obj, setup_err, PyAction, PyGame};
use crate::action::Action as CoreAction;
use crate::agents::spec::{plan_action, Agent};
use crate::plan::pimc;
use crate::rng::SplitMix64;

/// The Rust side of ``dragoncastle.agents.PlannerAgent``: the planner's
/// settings (from its spec text) and what it carries between the decisions of
/// one game (the warm policy and the kept plan).
#[pyclass(module = "dragoncastle._core", name = "Planner")]
pub struct PyPlanner {
    cfg: pimc::Config,
    /// The memory, the game it belongs to (`Game::opening_key`) and the
    /// number of player actions in that game when it was made.
    memory: Option<(pimc::Memory<CoreAction>, u64, usize)>,
}

/// What the binding returns for a decision: the move, per legal move
/// `(action, determinizations, mean, votes, best)`, the plan, playouts,
/// determinizations and seconds.
type PlanTuple = (Option<Py<PyAction>>, Vec<(Py<PyAction>, u32, f64, u32, f64)>, Vec<Py<PyAction>>, u64, u64, f64);

#[pymethods]
impl PyPlanner {
    #[new]
    fn new(spec: &str) -> PyResult<Self> {
        match Agent::parse(spec).map_err(setup_err)? {
            Agent::Plan { config } => Ok(PyPlanner { cfg: config, memory: None }),
            _ => Err(PyValueError::new_err(format!("{spec:?} is not a plan spec"))),
        }
    }

    /// Plan the decision of the player to move in ``game`` (a solo game) with
    /// random seed ``seed``.
    fn plan(slf: &Bound<'_, Self>, game: &Bound<'_, PyGame>, seed: u64) -> PyResult<PlanTuple> {
        let py = slf.py();
        let (state, played, key) = {
            let g = &game.borrow().g;
            (*g.state(), g.actions_with_author().filter(|(_, d)| !d).count(), g.opening_key())
        };
        if state.is_over() {
            return Err(PyValueError::new_err("the game is over: there is nothing to plan"));
        }
        Agent::Plan { config: slf.borrow().cfg }.check_players(state.players()).map_err(PyValueError::new_err)?;
        let (cfg, mut memory) = {
            let mut me = slf.borrow_mut();
            // The memory serves the next decision of the same game only.
            let memory = match me.memory.take() {
                Some((m, k, n)) if k == key && n + 1 == played => m,
                _ => pimc::Memory::default(),
            };
            (me.cfg, memory)
        };
        let stop = AtomicBool::new(false);
        let mut rng = SplitMix64::new(seed);
        let d = interruptible(py, &stop, || plan_action(&cfg, &state, &mut rng, &mut memory, Some(&stop)), |_| Ok(()))?;
        slf.borrow_mut().memory = Some((memory, key, played));
        Ok((
            d.best.map(|a| action_obj(py, a)),
            d.root.iter().map(|r| (action_obj(py, r.action), r.tried, r.mean, r.votes, r.best)).collect(),
            d.plan.iter().map(|&a| action_obj(py, a)).collect(),
            d.playouts,
            d.determinizations,
            d.seconds,
        ))
    }

    /// Forget the warm policy and the kept plan.
    fn reset(&mut self) {
        self.memory = None;
    }
}
