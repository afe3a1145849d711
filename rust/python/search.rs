//! Bindings for the runs of many games, the arena and self-play: conversion
//! only; the core checks every run once. Long work runs with the GIL released.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use numpy::{PyArray1, PyArrayMethods};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

use super::evaluator::Watch;
use super::interrupt::{interruptible, interruptible_watched};
use super::player::PyPlayer;
use super::setup_err;
use crate::action::NUM_ACTIONS;
use crate::agents::Agent;
use crate::arena::run as run_arena;
use crate::state::observe::COMPACT_OBSERVATION_SIZE;

/// Self-play games by the search of ``agent`` in every seat, in Rust threads
/// with the GIL released (see ``dragoncastle.selfplay``): a dict of numpy
/// arrays with one row per decision.
#[pyfunction]
#[pyo3(signature = (agent, n_games, *, players = 2, seed = 0, threads = None, spirits = None, dragons = None, layout = None, rules = None, progress = None, children = None))]
#[allow(clippy::too_many_arguments)]
pub fn selfplay<'py>(
    py: Python<'py>,
    agent: &Bound<'py, PyPlayer>,
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
    let setup = runner::table(players, seed, spirits, dragons, layout, rules)?;
    let threads = runner::threads_arg(threads)?;
    let children = children.map(|(min_share, max)| crate::selfplay::Children { min_share, max });
    let watch = Watch::new();
    let (agent, guide) = {
        let me = agent.borrow();
        let guide = me.guide().map(|g| g.watched(&watch));
        let agent = me.agent()?;
        if let Agent::Mcts { eval, .. } = &agent {
            eval.check_players(players).map_err(PyValueError::new_err)?;
        }
        let agent = match &guide {
            Some(g) => agent.map_eval(|e| e.map_guide(|_| g.clone())),
            None => agent,
        };
        (agent, guide)
    };
    crate::agents::check_table(&[agent.reads_hidden()], players, false).map_err(setup_err)?;
    let done = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let result = interruptible_watched(
        py,
        &stop,
        Some(&watch),
        || crate::selfplay::run(&setup, n_games, &agent, threads, &done, &stop, children),
        |_| match &progress {
            Some(cb) => cb.call1((done.load(Ordering::Relaxed),)).map(|_| ()),
            None => Ok(()),
        },
    )?;
    let games = result.map_err(|e| match e {
        crate::error::Error::Eval(m) => super::player::error(guide.as_ref(), crate::error::EvalError(m)),
        e => setup_err(e),
    })?;
    records(py, games, players, children.is_some())
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
    let n_games = runner::games_arg(n_games)?;
    let setup = runner::table(specs.len().clamp(1, 4), seed, spirits, dragons, layout, rules)?;
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
    games_list(py, games, &setup, n, search_stats)
}

/// The records of a self-play run as numpy arrays, one row per decision.
fn records<'py>(py: Python<'py>, games: Vec<crate::selfplay::GameRecord>, players: usize, children: bool) -> PyResult<Bound<'py, PyDict>> {
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
    if children {
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

/// The games of an arena as dicts (`dragoncastle.arena` reads them).
fn games_list<'py>(py: Python<'py>, games: Vec<crate::arena::ArenaGame>, setup: &crate::setup::Setup, n: usize, search_stats: usize) -> PyResult<Bound<'py, PyList>> {
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
