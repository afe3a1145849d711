//! The Rust side of every built-in agent of ``dragoncastle.agents``: a spec
//! (from text, or from keywords read through the agent kind's table of
//! settings) and the core's `Player`, which makes every decision. Conversion
//! only: the table checks the settings, the player decides.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use numpy::PyArray1;
use pyo3::exceptions::{PyRuntimeError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyFloat, PyInt, PyList, PyString, PyTuple};

use super::evaluator::{PyEvaluator, Watch};
use super::interrupt::interruptible_watched;
use super::{action_obj, setup_err, PyGame};
use crate::action::{Action, NUM_ACTIONS};
use crate::agents::settings::{Kind, Value};
use crate::agents::spec::{AgentSpec, Check};
use crate::agents::{decision_rng, Agent, Player, Stats};
use crate::error::EvalError;
use crate::eval::guided::Guided;

/// The leaf evaluation of a Python agent: the core's composition
/// ([`Guided`]) with a Python evaluator as the guide.
pub(crate) type AgentEval = Guided<PyEvaluator>;

/// Leaves per evaluator call when ``batch_size`` is not given.
pub const DEFAULT_BATCH: usize = 16;

/// A built-in agent: its spec and, once it has decided, its player.
#[pyclass(module = "dragoncastle._core", name = "Player")]
pub struct PyPlayer {
    spec: AgentSpec,
    guide: Option<PyEvaluator>,
    /// Loaded at the first decision (a model is opened then), and out while
    /// a decision runs: an evaluator that calls its own agent is refused.
    player: Option<Player<AgentEval>>,
    deciding: bool,
    /// The game the memory belongs to (`Game::opening_key`).
    game: u64,
}

/// A Python value as a setting's [`Value`]; a value of the wrong type
/// becomes its text, which the table's check refuses with its one message.
fn value(check: &dyn Check, v: &Bound<'_, PyAny>) -> Result<Value, String> {
    let (kind, optional) = check.kind();
    let text = || Value::Text(v.str().map(|s| s.to_string()).unwrap_or_default());
    let number = |x: &Bound<'_, PyAny>| (!x.is_instance_of::<PyBool>() && (x.is_instance_of::<PyInt>() || x.is_instance_of::<PyFloat>())).then(|| x.extract::<f64>().ok()).flatten();
    let out = match kind {
        _ if v.is_none() && optional => Value::None,
        Kind::Flag if v.is_instance_of::<PyBool>() => Value::Flag(v.extract().unwrap_or(false)),
        Kind::Whole { .. } if v.is_instance_of::<PyInt>() && !v.is_instance_of::<PyBool>() => v.extract::<u64>().map(Value::Whole).unwrap_or_else(|_| text()),
        Kind::Number { .. } => number(v).map(Value::Number).unwrap_or_else(text),
        Kind::Choice(_) | Kind::Path if v.is_instance_of::<PyString>() => Value::Text(v.extract().unwrap_or_default()),
        Kind::Pair => match v.extract::<(Bound<'_, PyAny>, Bound<'_, PyAny>)>() {
            Ok((a, b)) => match (number(&a), number(&b)) {
                (Some(a), Some(b)) => Value::Pair(a, b),
                _ => text(),
            },
            Err(_) => text(),
        },
        _ => text(),
    };
    check.check(&out).map(|()| out)
}

/// A setting's value as Python sees it.
fn to_py(py: Python<'_>, v: Value) -> PyResult<Py<PyAny>> {
    Ok(match v {
        Value::None => py.None(),
        Value::Flag(b) => PyBool::new(py, b).to_owned().into_any().unbind(),
        Value::Whole(n) => n.into_pyobject(py)?.into_any().unbind(),
        Value::Number(x) => x.into_pyobject(py)?.into_any().unbind(),
        Value::Text(t) => t.into_pyobject(py)?.into_any().unbind(),
        Value::Pair(a, b) => PyTuple::new(py, [a, b])?.into_any().unbind(),
    })
}

#[pymethods]
impl PyPlayer {
    /// ``Player(kind, settings, evaluator=None, batch_size=None)``: agent
    /// ``kind`` with ``settings`` (a dict keyed by a setting's name or
    /// another spelling), checked by the kind's table.
    #[new]
    #[pyo3(signature = (kind, settings, evaluator = None, batch_size = None))]
    fn new(kind: &str, settings: &Bound<'_, PyDict>, evaluator: Option<Bound<'_, PyAny>>, batch_size: Option<usize>) -> PyResult<Self> {
        let keys: Vec<String> = settings.keys().iter().map(|k| k.extract::<String>()).collect::<PyResult<_>>()?;
        let pairs: Vec<(&str, Bound<'_, PyAny>)> = keys.iter().zip(settings.values().iter()).map(|(k, v)| (k.as_str(), v)).collect();
        let spec = AgentSpec::from_pairs(kind, &pairs, evaluator.is_some(), value).map_err(PyValueError::new_err)?;
        let guide = match evaluator {
            Some(f) if !f.is_callable() => return Err(PyTypeError::new_err("evaluator must be a callable evaluator(observations, masks) -> (priors, values)")),
            Some(_) if !matches!(&spec, AgentSpec::Mcts(m) if m.model.is_none()) => return Err(PyValueError::new_err("an evaluator guides an mcts agent without a model")),
            Some(f) => Some(PyEvaluator::new(f.unbind(), batch_size.unwrap_or(DEFAULT_BATCH))?),
            None if batch_size.is_some() => return Err(PyValueError::new_err("batch_size needs an evaluator")),
            None => None,
        };
        Ok(PyPlayer { spec, guide, player: None, deciding: false, game: 0 })
    }

    /// The agent of a spec text (``"mcts:time=1"``).
    #[staticmethod]
    fn parse(text: &str) -> PyResult<Self> {
        let spec = AgentSpec::parse(text).map_err(setup_err)?;
        Ok(PyPlayer { spec, guide: None, player: None, deciding: false, game: 0 })
    }

    /// The canonical spec text (no text form with a Python evaluator: ``None``).
    #[getter]
    fn spec(&self) -> Option<String> {
        self.guide.is_none().then(|| self.spec.to_string())
    }

    /// The agent kind (``"mcts"``).
    #[getter]
    fn kind(&self) -> &'static str {
        self.spec.kind()
    }

    /// Every setting's value by its one name.
    fn settings<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        for (k, v) in self.spec.values() {
            d.set_item(k, to_py(py, v)?)?;
        }
        Ok(d)
    }

    /// Whether the agent reads what a player cannot see.
    #[getter]
    fn reads_hidden(&self) -> bool {
        self.spec.reads_hidden()
    }

    /// Seconds by the clock each decision may take (``plan`` with no budget:
    /// 1), or None when a count of iterations or playouts bounds it alone:
    /// then a seeded game is reproducible.
    ///
    /// >>> import dragoncastle as dc
    /// >>> [dc._core.Player.parse(s).clock for s in ("plan", "plan:playouts=9", "mcts:time=2", "greedy")]
    /// [1.0, None, 2.0, None]
    #[getter]
    fn clock(&self) -> Option<f64> {
        self.spec.clock()
    }

    /// Forget the game (the kept tree, the planner's policy and plan).
    fn reset(&mut self) {
        if let Some(p) = &mut self.player {
            p.forget();
        }
    }

    /// The decision for the seat to move of ``game``: ``(action, stats)``,
    /// drawing by the seed rule from ``seed`` (None: the game's). ``stats``
    /// is None, a search's ``(root, pv, iterations, seconds, nodes, policy)``
    /// or a plan's ``(root, plan, playouts, determinizations, seconds)``.
    /// ``stop``, a callable asked every 100 ms, ends a search or plan early
    /// when it returns true: the decision is then the best found so far.
    #[pyo3(signature = (game, seed = None, stop = None))]
    fn decide(
        slf: &Bound<'_, Self>,
        game: &Bound<'_, PyGame>,
        seed: Option<u64>,
        stop: Option<Bound<'_, PyAny>>,
    ) -> PyResult<(Py<PyAny>, Py<PyAny>)> {
        let py = slf.py();
        let (state, played, key, rng) = {
            let g = &game.borrow().g;
            let played: Vec<Action> = g.actions_with_author().filter(|(_, d)| !d).map(|(a, _)| a).collect();
            let seat = g.state().current_player();
            let seed = seed.or(g.seed()).unwrap_or_else(super::game::fresh_seed);
            (*g.state(), played, g.opening_key(), decision_rng(seed, seat, g.seat_decisions()[seat]))
        };
        if state.is_over() {
            return Err(PyValueError::new_err("the game is over: there is no action to choose"));
        }
        let watch = Watch::new();
        let (mut player, guide) = slf.borrow_mut().take_player(key, state.players(), &watch)?;
        let halt = AtomicBool::new(false);
        let mut rng = rng;
        // The caller's stop, asked at each tick; its error is raised like Ctrl-C.
        let asked = |_: Python<'_>| -> PyResult<()> {
            if let Some(f) = &stop {
                if f.call0()?.is_truthy()? {
                    halt.store(true, std::sync::atomic::Ordering::Relaxed);
                }
            }
            Ok(())
        };
        let found = interruptible_watched(py, &halt, Some(&watch), || {
            let out = player.decide(&state, &played, &mut rng, Some(&halt));
            (out, player)
        }, asked);
        let mut me = slf.borrow_mut();
        me.deciding = false;
        let (out, player) = found?;
        me.player = Some(player);
        let (best, stats) = out.map_err(|e| error(guide.as_ref(), e))?;
        let best = best.map(|a| action_obj(py, a).into_any()).unwrap_or_else(|| py.None());
        Ok((best, stats_obj(py, stats)?))
    }
}

impl PyPlayer {
    /// The player for a decision in the game `key`, its guide watching
    /// `watch`; refuses a call from inside this agent's own decision.
    fn take_player(&mut self, key: u64, players: usize, watch: &Arc<Watch>) -> PyResult<(Player<AgentEval>, Option<PyEvaluator>)> {
        if self.deciding {
            return Err(PyRuntimeError::new_err("this agent is deciding already: its evaluator may not call its own search (use another agent)"));
        }
        let mut player = match self.player.take() {
            Some(p) => p,
            None => Player::new(self.agent()?),
        };
        if key != self.game {
            player.forget();
            self.game = key;
        }
        let checked = player.agent().check_players_with(players, |eval| eval.check_players(players));
        if let Err(e) = checked {
            self.player = Some(player);
            return Err(PyValueError::new_err(e));
        }
        let guide = self.guide.as_ref().map(|g| g.watched(watch));
        if let (Agent::Mcts { eval, .. }, Some(g)) = (player.agent_mut(), &guide) {
            *eval = eval.map_guide(|_| g.clone());
        }
        self.deciding = true;
        Ok((player, guide))
    }

    /// The agent ready to play: the spec loaded, the Python evaluator as its guide.
    pub(crate) fn agent(&self) -> PyResult<Agent<AgentEval>> {
        let agent = self.spec.load().map_err(setup_err)?;
        let AgentSpec::Mcts(m) = &self.spec else { return Ok(agent.map_eval(Guided::Leaf)) };
        Ok(match &self.guide {
            Some(g) => agent.map_eval(|_| Guided::new(g.clone(), m.rollout, m.rollout_weight.unwrap_or(0.0))),
            None => agent.map_eval(Guided::Leaf),
        })
    }

    /// The spec, for the runners' checks.
    pub(crate) fn agent_spec(&self) -> &AgentSpec {
        &self.spec
    }

    /// The Python evaluator, if any.
    pub(crate) fn guide(&self) -> Option<&PyEvaluator> {
        self.guide.as_ref()
    }
}

/// The exception for a decision an evaluator stopped: the evaluator's own,
/// unchanged, when it raised one.
pub(crate) fn error(guide: Option<&PyEvaluator>, e: EvalError) -> PyErr {
    match guide {
        Some(g) => g.take_error().unwrap_or_else(|| PyRuntimeError::new_err(e.0)),
        // A Rust evaluator refuses only what it was given (a network trained for another kind of game).
        None => PyValueError::new_err(e.0),
    }
}

fn stats_obj(py: Python<'_>, stats: Stats) -> PyResult<Py<PyAny>> {
    Ok(match stats {
        Stats::None => py.None(),
        Stats::Search(r) => {
            let mut policy = vec![0f32; NUM_ACTIONS];
            r.visit_policy(|m| m.id() as usize, &mut policy);
            let root: Vec<_> = r.root.iter().map(|m| (action_obj(py, m.mv), m.visits, m.value)).collect();
            let pv: Vec<_> = r.pv.iter().map(|&a| action_obj(py, a)).collect();
            let policy = PyArray1::from_vec(py, policy).into_any().unbind();
            (PyList::new(py, root)?, pv, r.iterations, r.seconds, r.nodes, policy).into_pyobject(py)?.into_any().unbind()
        }
        Stats::Plan(d) => {
            let root: Vec<_> = d.root.iter().map(|r| (action_obj(py, r.action), r.tried, r.mean, r.best)).collect();
            let plan: Vec<_> = d.plan.iter().map(|&a| action_obj(py, a)).collect();
            (root, plan, d.playouts, d.determinizations, d.seconds).into_pyobject(py)?.into_any().unbind()
        }
    })
}

/// Every agent kind with its help and its settings (name, what it takes,
/// default, help): ``dragoncastle.agents.describe()``'s data.
#[pyfunction]
pub fn agent_kinds() -> Vec<(&'static str, &'static str, Vec<[String; 4]>)> {
    crate::agents::spec::describe()
}
