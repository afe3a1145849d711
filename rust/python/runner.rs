//! What every runner (`arena`, `playouts`, `selfplay`, `VecEnv`) takes the
//! same way, checked once before any game: agents in either spelling (spec
//! text or a built-in agent object), the table settings (`players`, `seed`,
//! `spirits`, `dragons`, `layout`, `rules`), the number of games and the
//! threads (`../shared/API.md`, "Running many games").

use pyo3::exceptions::{PyAttributeError, PyTypeError, PyValueError};
use pyo3::prelude::*;

use super::{cards_arg, layout_arg, rules_arg, setup_err, to_py_err};
use super::player::PyPlayer;
use crate::agents::spec::Agent;
use crate::setup::Setup;

/// An agent's spec text: the text itself, or a built-in agent's ``spec``
/// (``MCTSAgent(iterations=50)`` → ``"mcts:iterations=50"``). An agent
/// holding a Python evaluator has none: its ``spec`` raises, and so does this.
#[pyfunction]
pub(crate) fn agent_text(agent: &Bound<'_, PyAny>) -> PyResult<String> {
    if let Ok(s) = agent.extract::<String>() {
        return Ok(s);
    }
    let not_an_agent = || {
        let kind = agent
            .get_type()
            .name()
            .map(|n| n.to_string())
            .unwrap_or_default();
        PyTypeError::new_err(format!(
            "an agent is a spec text (\"greedy\", \"mcts:time=1\") or a built-in agent of dragoncastle.agents; got a {kind}"
        ))
    };
    match agent.getattr("spec") {
        Ok(spec) => spec.extract::<String>().map_err(|_| not_an_agent()),
        Err(e) if e.is_instance_of::<PyAttributeError>(agent.py()) => Err(not_an_agent()),
        Err(e) => Err(e),
    }
}

/// An agent in either spelling, parsed.
pub(crate) fn agent_arg(agent: &Bound<'_, PyAny>) -> PyResult<Agent> {
    Agent::parse(&agent_text(agent)?).map_err(setup_err)
}

/// The number of games of a run: at least one.
pub(crate) fn games_arg(n_games: &Bound<'_, PyAny>) -> PyResult<usize> {
    let bad = || {
        PyValueError::new_err(format!(
            "n_games must be a whole number >= 1; got {n_games}"
        ))
    };
    if n_games.is_instance_of::<pyo3::types::PyBool>() {
        return Err(bad());
    }
    n_games
        .extract::<usize>()
        .ok()
        .filter(|&n| n >= 1)
        .ok_or_else(bad)
}

/// A run's seed (game k is dealt from `seed + k`): an integer in 0..2**64.
pub(crate) fn seed_arg(seed: &Bound<'_, PyAny>) -> PyResult<u64> {
    if seed.is_instance_of::<pyo3::types::PyBool>() {
        return Err(PyValueError::new_err(
            "seed must be an integer in 0..2**64; got a bool",
        ));
    }
    seed.extract::<u64>().map_err(|_| {
        PyValueError::new_err(format!("seed must be an integer in 0..2**64; got {seed}"))
    })
}

/// Game k of a run is dealt from seed `seed + k`: every seed must fit (the core's one check).
pub(crate) fn check_seeds(seed: u64, n_games: usize) -> PyResult<()> {
    crate::run::check_seeds(seed, n_games).map_err(to_py_err)
}

/// A whole number `name` in `low..=high` (not a bool, not a float), or the one error.
pub(crate) fn whole_arg(v: &Bound<'_, PyAny>, name: &str, low: usize, high: usize) -> PyResult<usize> {
    let bad = || PyValueError::new_err(format!("{name} must be a whole number from {low} to {high}; got {v}"));
    if v.is_instance_of::<pyo3::types::PyBool>() || !v.is_instance_of::<pyo3::types::PyInt>() {
        return Err(bad());
    }
    v.extract::<usize>().ok().filter(|n| (low..=high).contains(n)).ok_or_else(bad)
}

/// Threads of a run: 1 to the search's bound; `None` takes every core.
pub(crate) fn threads_arg(threads: Option<&Bound<'_, PyAny>>) -> PyResult<usize> {
    let max = crate::search::MAX_THREADS;
    match threads.filter(|t| !t.is_none()) {
        None => Ok(std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(1)
            .min(max)),
        Some(t) if t.is_instance_of::<pyo3::types::PyBool>() => Err(PyValueError::new_err(
            format!("threads must be 1 to {max}; got a bool"),
        )),
        Some(t) => t
            .extract::<usize>()
            .ok()
            .filter(|n| (1..=max).contains(n))
            .ok_or_else(|| PyValueError::new_err(format!("threads must be 1 to {max}; got {t}"))),
    }
}

/// The table of game 0 of a run: players, seed, cards, layout and rules.
pub(crate) fn table(
    players: usize,
    seed: u64,
    spirits: Option<&Bound<'_, PyAny>>,
    dragons: Option<&Bound<'_, PyAny>>,
    layout: Option<&Bound<'_, PyAny>>,
    rules: Option<&Bound<'_, PyAny>>,
) -> PyResult<Setup> {
    crate::setup::check_players(players as i64).map_err(to_py_err)?;
    let rules = rules_arg(rules)?;
    let setup = Setup::new(players, seed)
        .with_rules(rules)
        .with_cards(cards_arg("Spirit", spirits)?, cards_arg("Dragon", dragons)?);
    Ok(Setup {
        layout: layout_arg(layout)?,
        ..setup
    })
}

/// The checks of a run's size, seed and threads, for runners that do not
/// start in Rust (the arena over Ray): the same errors as every runner's.
#[pyfunction]
#[pyo3(signature = (n_games, seed = 0, threads = None))]
pub(crate) fn check_run(
    n_games: &Bound<'_, PyAny>,
    #[pyo3(from_py_with = seed_arg)] seed: u64,
    threads: Option<&Bound<'_, PyAny>>,
) -> PyResult<()> {
    check_seeds(seed, games_arg(n_games)?)?;
    threads_arg(threads).map(|_| ())
}

/// The built-in agents among ``agents`` (those with a text form) can play a
/// table of ``players``, their models opened and checked, and none reads
/// the covered tiles where rivals or a ``person`` play: what every runner
/// checks before its first game, for ``dc.play`` and the web table. Agents
/// without a text form (a Python evaluator, an agent of your own) are left
/// to themselves; an exception raised by an agent's ``spec`` propagates.
#[pyfunction]
#[pyo3(signature = (agents, players, person = false))]
pub(crate) fn check_agents(agents: Vec<Bound<'_, PyAny>>, #[pyo3(from_py_with = super::action::int_not_bool)] players: i64, person: bool) -> PyResult<()> {
    let players = crate::setup::check_players(players).map_err(to_py_err)?;
    let mut hidden = Vec::new();
    for agent in &agents {
        // A built-in agent is checked by its player (one with a Python evaluator has no text).
        if let Some(p) = agent.getattr("_player").ok().and_then(|p| p.cast_into::<PyPlayer>().ok()) {
            let p = p.borrow();
            p.agent_spec().load().map_err(setup_err)?.check_players(players).map_err(PyValueError::new_err)?;
            hidden.push(p.agent_spec().reads_hidden());
            continue;
        }
        let text = match agent.extract::<String>() {
            Ok(text) => Some(text),
            Err(_) if agent.hasattr("spec")? => agent.getattr("spec")?.extract::<Option<String>>()?,
            Err(_) => None,
        };
        let Some(text) = text else {
            hidden.push(false);
            continue;
        };
        let parsed = Agent::parse(&text).map_err(setup_err)?;
        parsed.check_players(players).map_err(PyValueError::new_err)?;
        hidden.push(parsed.reads_hidden());
    }
    crate::agents::check_table(&hidden, players, person).map_err(setup_err)
}
