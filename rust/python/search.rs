//! Bindings for the search, the arena and the returns: conversion only. Long
//! work runs with the GIL released.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Duration;

use pyo3::exceptions::{PyRuntimeError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

use super::{action_obj, setup_err, PyAction, PyGame};
use crate::action::Action as CoreAction;
use crate::arena::{run as run_arena, AgentSpec};
use std::sync::Arc;

use numpy::{PyArray1, PyArrayMethods};

use super::evaluator::{PyEvaluator, Watch};
use crate::action::NUM_ACTIONS;
use crate::agents::spec::load_model;
use crate::eval::network::NetworkEval;
use crate::eval::{LeafEval, Reward, Rollout, RolloutEval};
use crate::eval::guided::Guided;
use crate::search::{self, Config, EvalError, SearchResult, Tree};
use crate::state::observe::COMPACT_OBSERVATION_SIZE;
use crate::state::State;

/// The Rust side of ``dragoncastle.agents.MCTSAgent``: a search configuration,
/// its leaf evaluation (rollouts, or a Python evaluator with rollouts mixed
/// in at ``rollout_weight``) and, with ``reuse_tree``, the tree kept from the
/// last search.
#[pyclass(module = "dragoncastle._core", name = "MCTS")]
pub struct PyMcts {
    cfg: Config,
    eval: AgentEval,
    /// A model not opened yet: it is, and checked, when the agent first runs
    /// (`PyMcts::ready`), as for a spec.
    pending: Option<(String, RolloutEval, Option<bool>, Option<f64>, Option<u32>)>,
    /// The exploration constant given by the user; None picks the default for
    /// the game searched (solo or not), the reward and the evaluator.
    exploration: Option<f64>,
    reuse: bool,
    /// The last tree, the game it was grown in (`Game::opening_key`) and the
    /// player actions that led to its root.
    tree: Option<(Tree<CoreAction>, u64, Vec<CoreAction>)>,
}


/// What the binding returns for a search: best action, root statistics, the
/// principal variation, iterations, seconds, nodes and the visit policy.
type SearchTuple = (
    Option<Py<PyAction>>,
    Vec<(Py<PyAction>, u64, f64)>,
    Vec<Py<PyAction>>,
    u64,
    f64,
    usize,
    Py<PyAny>,
);

#[pymethods]
impl PyMcts {
    #[new]
    // Defaults left out (None) are those of the spec parser: `Config::default()`
    // and `RolloutEval::default()`.
    #[pyo3(signature = (iterations = None, time_limit = None, threads = 1, *, exploration = None, reward = None, rollout = None, epsilon = 0.0, rollout_depth = None, reuse_tree = search::DEFAULT_REUSE, reuse_weight = None, determinize = true, max_nodes = None, widening = Some(search::DEFAULT_WIDENING), model = None, priors = None, evaluator = None, batch_size = None, rollout_weight = None, noise = None, temperature = 0.0, cutoff = None))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        iterations: Option<u64>,
        time_limit: Option<f64>,
        threads: usize,
        exploration: Option<f64>,
        reward: Option<&str>,
        rollout: Option<&str>,
        epsilon: f64,
        rollout_depth: Option<u32>,
        reuse_tree: bool,
        reuse_weight: Option<f64>,
        determinize: bool,
        max_nodes: Option<usize>,
        widening: Option<f64>,
        model: Option<&str>,
        priors: Option<bool>,
        evaluator: Option<Bound<'_, PyAny>>,
        batch_size: Option<usize>,
        rollout_weight: Option<f64>,
        noise: Option<(f64, f64)>,
        temperature: f64,
        cutoff: Option<u32>,
    ) -> PyResult<Self> {
        let defaults = RolloutEval::default();
        let reward = reward
            .map_or(Ok(defaults.reward), Reward::parse)
            .map_err(PyValueError::new_err)?;
        let rollout = Rollout::parse(rollout.unwrap_or(defaults.rollout.name().0), epsilon as f32)
            .map_err(PyValueError::new_err)?;
        let iterations = if iterations.is_none() && time_limit.is_none() {
            Some(search::DEFAULT_ITERATIONS)
        } else {
            iterations
        };
        let base = Config::default();
        let cfg = Config {
            iterations,
            time_limit,
            threads,
            exploration: exploration.unwrap_or(base.exploration),
            determinize,
            max_nodes: max_nodes.unwrap_or(base.max_nodes),
            widening,
            noise,
            temperature,
            reuse_weight: reuse_weight.unwrap_or(base.reuse_weight),
            ..base
        };
        search::check(&cfg).map_err(PyValueError::new_err)?;
        if let Some(w) = rollout_weight.filter(|w| !(0.0..=1.0).contains(w)) {
            return Err(PyValueError::new_err(format!(
                "rollout_weight must be in [0, 1]; got {w}"
            )));
        }
        let evaluator = match evaluator {
            Some(f) if !f.is_callable() => return Err(PyTypeError::new_err(
                "evaluator must be a callable evaluator(observations, masks) -> (priors, values)",
            )),
            Some(f) => Some(PyEvaluator::new(
                f.unbind(),
                batch_size.unwrap_or(DEFAULT_BATCH),
            )?),
            None if batch_size.is_some() => {
                return Err(PyValueError::new_err("batch_size needs an evaluator"))
            }
            None if rollout_weight.is_some_and(|w| w != 0.0) && model.is_none() => {
                return Err(PyValueError::new_err(
                    "rollout_weight needs a model or an evaluator",
                ))
            }
            None => None,
        };
        let roll = RolloutEval {
            reward,
            rollout,
            depth: rollout_depth,
        };
        if model.is_some() && evaluator.is_some() {
            return Err(PyValueError::new_err(
                "give a model or an evaluator, not both",
            ));
        }
        if priors == Some(false) && model.is_none() {
            return Err(PyValueError::new_err("priors=False needs a model"));
        }
        if cutoff.is_some() && model.is_none() {
            return Err(PyValueError::new_err("cutoff needs a model"));
        }
        let pending = model.map(|name| (name.to_string(), roll, priors, rollout_weight, cutoff));
        let eval = match evaluator {
            None => AgentEval::Leaf(LeafEval::Rollout(roll)),
            Some(net) => AgentEval::new(net, roll, rollout_weight.unwrap_or(0.0)),
        };
        Ok(PyMcts {
            cfg,
            eval,
            pending,
            exploration,
            reuse: reuse_tree,
            tree: None,
        })
    }

    /// Search ``game`` for the player to move with random seed ``seed``. Returns
    /// ``(best, [(action, visits, value)], pv, iterations, seconds, nodes, policy)``.
    fn search(slf: &Bound<'_, Self>, game: &Bound<'_, PyGame>, seed: u64) -> PyResult<SearchTuple> {
        let py = slf.py();
        // Copy what the search needs and let go of both objects before the GIL
        // is released, so other threads may use the game (or the agent) meanwhile.
        let (state, history, key) = {
            let g = &game.borrow().g;
            let history: Vec<CoreAction> = g
                .actions_with_author()
                .filter(|(_, d)| !d)
                .map(|(a, _)| a)
                .collect();
            (*g.state(), history, g.opening_key())
        };
        if state.is_over() {
            return Err(PyValueError::new_err(
                "the game is over: there is nothing to search",
            ));
        }
        let (cfg, reuse, old, eval) = {
            let mut me = slf.borrow_mut();
            me.ready()?;
            let mut cfg = me.cfg;
            cfg.seed = seed;
            cfg.exploration = me.exploration_for(&state);
            // Reuse the last tree when this position follows the one it was rooted at.
            let old = match (me.reuse, me.tree.take()) {
                (true, Some((mut t, k, root))) if k == key && history.starts_with(&root) => {
                    t.advance(&history[root.len()..]).then_some(t)
                }
                _ => None,
            };
            (cfg, me.reuse, old, me.eval.clone())
        };
        let stop = AtomicBool::new(false);
        let watch = Watch::new();
        let watched = eval.watched(&watch);
        let found = interruptible_watched(py, &stop, Some(&watch), || search::search_until(&state, &cfg, &watched, old, Some(&stop)), |_| Ok(()))?;
        let (r, tree): (SearchResult<CoreAction>, _) = found.map_err(|e| eval.error(e))?;
        if reuse {
            slf.borrow_mut().tree = tree.map(|t| (t, key, history));
        }
        let mut policy = vec![0f32; crate::action::NUM_ACTIONS];
        r.visit_policy(|m| m.id() as usize, &mut policy);
        Ok((
            r.best.map(|a| action_obj(py, a)),
            r.root
                .iter()
                .map(|m| (action_obj(py, m.mv), m.visits, m.value))
                .collect(),
            r.pv.iter().map(|&a| action_obj(py, a)).collect(),
            r.iterations,
            r.seconds,
            r.nodes,
            PyArray1::from_vec(py, policy).into_any().unbind(),
        ))
    }

    /// Forget the tree kept for reuse.
    fn reset(&mut self) {
        self.tree = None;
    }
}

/// Leaves per evaluator call when ``batch_size`` is not given.
pub const DEFAULT_BATCH: usize = 16;

impl PyMcts {
    /// Open the model named at construction, once: a file that is missing
    /// or bad raises `ValueError` here, at the agent's first run.
    fn ready(&mut self) -> PyResult<()> {
        if let Some((name, roll, priors, rollout_weight, cutoff)) = &self.pending {
            let net = Arc::new(load_model(name).map_err(PyValueError::new_err)?);
            self.eval = AgentEval::Leaf(LeafEval::Network(NetworkEval::new(net, *roll, *priors, *rollout_weight, *cutoff)));
            self.pending = None;
        }
        Ok(())
    }

    /// The exploration constant of a search of `s`: the user's, else the
    /// default for the game (solo or not), the reward and the evaluator.
    fn exploration_for(&self, s: &crate::state::State) -> f64 {
        self.exploration
            .unwrap_or_else(|| self.eval.default_exploration(s.is_solo()))
    }
}

/// The leaf evaluation of a Python agent: the core's composition
/// ([`Guided`]) with a Python evaluator as the guide.
type AgentEval = Guided<PyEvaluator>;

/// What only the bindings know of a Python agent's evaluation.
trait PythonEval {
    /// This evaluation for one search, whose Python evaluator asks `watch`
    /// about Ctrl-C after every call.
    fn watched(&self, watch: &Arc<Watch>) -> AgentEval;
    /// Refuses a table the evaluation cannot play, as a `ValueError`.
    fn check_seats(&self, players: usize) -> PyResult<()>;
    /// The exception for a search the evaluator stopped: the evaluator's own,
    /// unchanged, when it raised one.
    fn error(&self, e: EvalError) -> PyErr;
}

impl PythonEval for AgentEval {
    fn watched(&self, watch: &Arc<Watch>) -> AgentEval {
        self.map_guide(|g| g.watched(watch))
    }
    fn check_seats(&self, players: usize) -> PyResult<()> {
        self.check_players(players).map_err(PyValueError::new_err)
    }
    fn error(&self, e: EvalError) -> PyErr {
        match self.guide() {
            Some(net) => net.take_error().unwrap_or_else(|| PyRuntimeError::new_err(e.0)),
            // A Rust evaluator refuses only what it was given (a network trained for another kind of game).
            None => PyValueError::new_err(e.0),
        }
    }
}

/// Self-play games by the search of ``agent`` in every seat, in Rust threads
/// with the GIL released (see ``dragoncastle.selfplay``): a dict of numpy
/// arrays with one row per decision.
#[pyfunction]
#[pyo3(signature = (agent, n_games, *, players = 2, seed = 0, threads = None, spirits = None, dragons = None, layout = None, rules = None, progress = None, children = None))]
#[allow(clippy::too_many_arguments)]
pub fn selfplay<'py>(
    py: Python<'py>,
    agent: &Bound<'py, PyMcts>,
    n_games: &Bound<'py, PyAny>,
    #[pyo3(from_py_with = crate::python::action::int_not_bool)] players: i64,
    #[pyo3(from_py_with = crate::python::runner::seed_arg)] seed: u64,
    threads: Option<&Bound<'py, PyAny>>,
    spirits: Option<&Bound<'py, PyAny>>,
    dragons: Option<&Bound<'py, PyAny>>,
    layout: Option<&Bound<'py, PyAny>>,
    rules: Option<&Bound<'_, PyAny>>,
    progress: Option<Bound<'py, PyAny>>,
    children: Option<(f64, usize)>,
) -> PyResult<Bound<'py, PyDict>> {
    use super::runner;
    let n_games = runner::games_arg(n_games)?;
    crate::setup::check_players(players).map_err(crate::python::to_py_err)?;
    let players = players as usize;
    runner::check_seeds(seed, n_games)?;
    let setup = runner::table(players, seed, spirits, dragons, layout, rules)?;
    agent.borrow_mut().ready()?;
    agent.borrow().eval.check_seats(players)?;
    let threads = runner::threads_arg(threads)?;
    let children = children.map(|(min_share, max)| crate::selfplay::Children { min_share, max });
    let (cfg, eval, exploration) = {
        let me = agent.borrow();
        (me.cfg, me.eval.clone(), me.exploration)
    };
    let explore = |s: &State| exploration.unwrap_or_else(|| eval.default_exploration(s.is_solo()));
    let done = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let watch = Watch::new();
    let watched = eval.watched(&watch);
    let result = interruptible_watched(
        py,
        &stop,
        Some(&watch),
        || crate::selfplay::run(&setup, n_games, &cfg, explore, &watched, threads, &done, &stop, children),
        |_| match &progress {
            Some(cb) => cb.call1((done.load(Ordering::Relaxed),)).map(|_| ()),
            None => Ok(()),
        },
    )?;
    let games = result.map_err(setup_err)?.map_err(|e| eval.error(e))?;
    let rows: usize = games.iter().map(|g| g.len()).sum();
    let mut obs = Vec::with_capacity(rows * COMPACT_OBSERVATION_SIZE);
    let mut masks = Vec::with_capacity(rows * NUM_ACTIONS);
    let mut policies = Vec::with_capacity(rows * NUM_ACTIONS);
    let (mut to_move, mut actions, mut returns, mut game) = (
        Vec::with_capacity(rows),
        Vec::with_capacity(rows),
        Vec::with_capacity(rows * players),
        Vec::with_capacity(rows),
    );
    let mut values = Vec::with_capacity(rows);
    let (mut c_obs, mut c_rows, mut c_actions, mut c_visits, mut c_values, mut c_seats) = (
        Vec::new(),
        Vec::new(),
        Vec::new(),
        Vec::new(),
        Vec::new(),
        Vec::new(),
    );
    for g in games {
        // Children point at their decision's row in the whole run.
        let first = to_move.len() as i64;
        c_obs.extend_from_slice(&g.child_observations);
        c_rows.extend(g.child_rows.iter().map(|&r| first + r as i64));
        c_actions.extend(g.child_actions.iter().map(|&a| a as i64));
        c_visits.extend(g.child_visits.iter().map(|&v| v as i64));
        c_values.extend_from_slice(&g.child_values);
        c_seats.extend(g.child_seats.iter().map(|&p| p as i64));
        obs.extend_from_slice(&g.observations);
        masks.extend_from_slice(&g.masks);
        policies.extend_from_slice(&g.policies);
        to_move.extend(g.to_move.iter().map(|&p| p as i64));
        actions.extend(g.actions.iter().map(|&a| a as i64));
        values.extend_from_slice(&g.values);
        for _ in 0..g.len() {
            returns.extend(g.returns[..players].iter().map(|&r| r as f32));
            game.push(g.seed);
        }
    }
    let d = PyDict::new(py);
    d.set_item(
        "observations",
        PyArray1::from_vec(py, obs).reshape([rows, COMPACT_OBSERVATION_SIZE])?,
    )?;
    d.set_item(
        "masks",
        PyArray1::from_vec(py, masks).reshape([rows, NUM_ACTIONS])?,
    )?;
    d.set_item(
        "policies",
        PyArray1::from_vec(py, policies).reshape([rows, NUM_ACTIONS])?,
    )?;
    d.set_item("to_move", PyArray1::from_vec(py, to_move))?;
    d.set_item("actions", PyArray1::from_vec(py, actions))?;
    d.set_item("values", PyArray1::from_vec(py, values))?;
    d.set_item(
        "returns",
        PyArray1::from_vec(py, returns).reshape([rows, players])?,
    )?;
    d.set_item("game", PyArray1::from_vec(py, game))?;
    if children.is_some() {
        let n = c_rows.len();
        d.set_item(
            "child_observations",
            PyArray1::from_vec(py, c_obs).reshape([n, COMPACT_OBSERVATION_SIZE])?,
        )?;
        d.set_item("child_rows", PyArray1::from_vec(py, c_rows))?;
        d.set_item("child_actions", PyArray1::from_vec(py, c_actions))?;
        d.set_item("child_visits", PyArray1::from_vec(py, c_visits))?;
        d.set_item("child_values", PyArray1::from_vec(py, c_values))?;
        d.set_item("child_seats", PyArray1::from_vec(py, c_seats))?;
    }
    Ok(d)
}

/// The parameters of an agent spec such as ``"mcts:iterations=2000,c=0.3"``,
/// checked by the same parser the arena uses: ``(name, {parameter: value})``.
/// ``exploration`` is None unless the spec sets it.
#[pyfunction]
pub fn agent_spec<'py>(py: Python<'py>, text: &str) -> PyResult<(String, Bound<'py, PyDict>)> {
    let spec = AgentSpec::parse(text).map_err(setup_err)?;
    let d = PyDict::new(py);
    let name = match spec {
        AgentSpec::Random => "random",
        AgentSpec::Greedy => "greedy",
        AgentSpec::Dragon => "dragon",
        AgentSpec::Mcts(m) => {
            let c = m.config;
            d.set_item("iterations", c.iterations)?;
            d.set_item("time_limit", c.time_limit)?;
            d.set_item("threads", c.threads)?;
            d.set_item("exploration", m.exploration)?;
            d.set_item("model", m.model)?;
            d.set_item("rollout_weight", m.rollout_weight)?;
            d.set_item("priors", m.priors)?;
            d.set_item("cutoff", m.cutoff)?;
            d.set_item("reward", m.rollout.reward.name())?;
            let (rollout, epsilon) = m.rollout.rollout.name();
            d.set_item("rollout", rollout)?;
            // Stored as f32: give back the number written (0.1, not 0.10000000149).
            d.set_item("epsilon", format!("{epsilon}").parse::<f64>().unwrap_or(epsilon as f64))?;
            d.set_item("rollout_depth", m.rollout.depth)?;
            d.set_item("reuse_tree", m.reuse)?;
            d.set_item("reuse_weight", c.reuse_weight)?;
            d.set_item("max_nodes", c.max_nodes)?;
            d.set_item("widening", c.widening)?;
            d.set_item("determinize", c.determinize)?;
            d.set_item("noise", c.noise)?;
            d.set_item("temperature", c.temperature)?;
            "mcts"
        }
        AgentSpec::Plan(c) => {
            d.set_item("time_limit", c.time_limit)?;
            d.set_item("playouts", c.playouts)?;
            d.set_item("threads", c.threads)?;
            d.set_item("level", c.nested.level)?;
            d.set_item("iterations", c.nested.iterations)?;
            d.set_item("alpha", c.nested.alpha)?;
            d.set_item("temperature", c.nested.temperature)?;
            d.set_item("aggregate", c.aggregate.name())?;
            d.set_item("warm", c.warm)?;
            d.set_item("keep", c.keep)?;
            d.set_item("prune", c.prune)?;
            d.set_item("oracle", !c.determinize)?;
            "plan"
        }
    };
    Ok((name.into(), d))
}

/// The canonical text of an agent spec: its settings that differ from the
/// defaults, each under its one name (``"mcts:time_limit=1"`` → ``"mcts:time=1"``).
#[pyfunction]
pub fn agent_spec_text(text: &str) -> PyResult<String> {
    AgentSpec::parse(text).map(|s| s.to_string()).map_err(setup_err)
}

/// Play ``n_games`` games between built-in agents (specs) in Rust threads with
/// the GIL released; see ``dragoncastle.arena``. ``progress(done)`` is called
/// about ten times a second; Ctrl-C stops the run and raises KeyboardInterrupt.
/// With ``search_stats=k > 0`` each game's dict has ``search``: per decision,
/// ``None`` (an agent that does not search) or ``{"iterations": n, "top":
/// [(action_id, visits, mean_value), ...]}``, the ``k`` most visited root moves.
#[pyfunction]
#[pyo3(signature = (agents, n_games, *, seed = 0, threads = None, spirits = None, dragons = None, layout = None, rules = None, progress = None, search_stats = 0))]
#[allow(clippy::too_many_arguments)]
pub fn arena<'py>(
    py: Python<'py>,
    agents: Vec<Bound<'py, PyAny>>,
    n_games: &Bound<'py, PyAny>,
    #[pyo3(from_py_with = crate::python::runner::seed_arg)] seed: u64,
    threads: Option<&Bound<'py, PyAny>>,
    spirits: Option<&Bound<'py, PyAny>>,
    dragons: Option<&Bound<'py, PyAny>>,
    layout: Option<&Bound<'py, PyAny>>,
    rules: Option<&Bound<'_, PyAny>>,
    progress: Option<Bound<'py, PyAny>>,
    search_stats: usize,
) -> PyResult<Bound<'py, PyList>> {
    use super::runner;
    let specs = agents
        .iter()
        .map(|a| runner::agent_arg(a))
        .collect::<PyResult<Vec<_>>>()?;
    if !(1..=4).contains(&specs.len()) {
        return Err(PyValueError::new_err(format!(
            "an arena needs 1 to 4 agents (one per seat); got {}",
            specs.len()
        )));
    }
    let n_games = runner::games_arg(n_games)?;
    runner::check_seeds(seed, n_games)?;
    let setup = runner::table(specs.len(), seed, spirits, dragons, layout, rules)?;
    runner::check_seats(&specs, specs.len())?;
    let threads = runner::threads_arg(threads)?;
    let done = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let result = interruptible(
        py,
        &stop,
        || run_arena(&specs, n_games, &setup, threads, &done, &stop, search_stats),
        |_| match &progress {
            Some(cb) => cb.call1((done.load(Ordering::Relaxed),)).map(|_| ()),
            None => Ok(()),
        },
    )?;
    let games = result.map_err(setup_err)?;
    let n = specs.len();
    let out = PyList::empty(py);
    for g in games {
        let d = PyDict::new(py);
        d.set_item("seed", g.seed)?;
        let (sp, dr) = setup.reseeded(g.seed).cards();
        d.set_item("spirits", crate::cards::names(sp, &crate::cards::SPIRITS))?;
        d.set_item("dragons", crate::cards::names(dr, &crate::cards::DRAGONS))?;
        d.set_item(
            "agent_of_seat",
            g.agent_of_seat[..n]
                .iter()
                .map(|&a| a as usize)
                .collect::<Vec<_>>(),
        )?;
        d.set_item("scores", g.scores[..n.max(1)].to_vec())?;
        d.set_item(
            "winners",
            (0..n)
                .filter(|&p| g.winners & (1 << p) != 0)
                .collect::<Vec<_>>(),
        )?;
        d.set_item(
            "actions",
            g.actions.iter().map(|a| a.id()).collect::<Vec<_>>(),
        )?;
        d.set_item("decisions", g.decisions[..n].to_vec())?;
        d.set_item("seconds", g.seconds[..n].to_vec())?;
        if search_stats > 0 {
            let per_decision = PyList::empty(py);
            for stats in &g.search {
                match stats {
                    None => per_decision.append(py.None())?,
                    Some(st) => {
                        let e = PyDict::new(py);
                        e.set_item("iterations", st.iterations)?;
                        e.set_item(
                            "top",
                            st.top
                                .iter()
                                .map(|m| (m.mv.id(), m.visits, m.value))
                                .collect::<Vec<_>>(),
                        )?;
                        per_decision.append(e)?;
                    }
                }
            }
            d.set_item("search", per_decision)?;
        }
        out.append(d)?;
    }
    Ok(out)
}

/// Run `work` on a scoped thread while this thread, with the GIL released,
/// wakes every 100 ms to call `tick` and to check for Ctrl-C. An error from
/// either sets `stop` (which `work` must watch), waits for `work` to return and
/// is raised; so long Rust calls answer Ctrl-C within a fraction of a second.
pub(super) fn interruptible<'py, T: Send>(
    py: Python<'py>,
    stop: &AtomicBool,
    work: impl FnOnce() -> T + Send,
    tick: impl FnMut(Python<'py>) -> PyResult<()>,
) -> PyResult<T> {
    interruptible_watched(py, stop, None, work, tick)
}

/// [`interruptible`], answering `watch` too: when a search thread asks (after
/// each call of a Python evaluator), this thread wakes at once and looks for
/// Ctrl-C before that thread goes on. The watch must be made on this thread.
fn interruptible_watched<'py, T: Send>(
    py: Python<'py>,
    stop: &AtomicBool,
    watch: Option<&Watch>,
    work: impl FnOnce() -> T + Send,
    mut tick: impl FnMut(Python<'py>) -> PyResult<()>,
) -> PyResult<T> {
    let finished = AtomicBool::new(false);
    let mut out = None;
    let mut error = None;
    let caller = std::thread::current();
    std::thread::scope(|scope| {
        let (finished, out) = (&finished, &mut out);
        scope.spawn(move || {
            // A panic is a bug, but it must reach Python as an exception, and
            // the caller must learn that the work ended either way.
            *out = Some(std::panic::catch_unwind(std::panic::AssertUnwindSafe(work)));
            finished.store(true, Ordering::Release);
            caller.unpark(); // wake the caller at once, not at its next tick
        });
        let asked = || watch.is_some_and(|w| w.pending());
        // Whether the period ended (else the work finished or a search thread asked).
        let wait = |until: std::time::Instant| {
            py.detach(|| loop {
                let now = std::time::Instant::now();
                if now >= until {
                    return true;
                }
                if finished.load(Ordering::Acquire) || asked() {
                    return false;
                }
                std::thread::park_timeout(until - now);
            })
        };
        let period = Duration::from_millis(100);
        let mut until = std::time::Instant::now() + period;
        loop {
            let period_ended = wait(until);
            // Read before looking for Ctrl-C: a request made later may follow a signal this look misses.
            let ticket = watch.map_or(0, |w| w.asked());
            // The progress callback: each period, and once more at the end (short runs report too).
            let ticked = if period_ended || finished.load(Ordering::Acquire) {
                until = std::time::Instant::now() + period;
                tick(py)
            } else {
                Ok(())
            };
            let failed = match ticked.and_then(|_| py.check_signals()) {
                Err(e) => {
                    error.get_or_insert(e);
                    stop.store(true, Ordering::Relaxed);
                    true
                }
                Ok(()) => error.is_some(),
            };
            if let Some(w) = watch {
                w.answer(ticket, failed);
            }
            if finished.load(Ordering::Acquire) {
                break;
            }
        }
    });
    match (error, out) {
        (Some(e), _) => Err(e),
        (None, Some(Ok(v))) => Ok(v),
        (None, Some(Err(panic))) => {
            let why = panic
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| panic.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "unknown".into());
            Err(PyRuntimeError::new_err(format!(
                "internal error in dragoncastle (please report it): {why}"
            )))
        }
        (None, None) => Err(PyRuntimeError::new_err(
            "the search thread ended without a result",
        )),
    }
}
