//! Whole games and single choices in Rust: `playouts`, the greedy and random
//! agents, Dragon points, solo ranks and the observation's shape.

use super::*;

/// The greedy heuristic's choice (docs/agents.md); ``seed`` breaks ties.
#[pyfunction]
pub(crate) fn greedy_action(
    py: Python<'_>,
    game: PyRef<'_, PyGame>,
    seed: u64,
) -> Option<Py<PyAction>> {
    let mut rng = SplitMix64::new(seed);
    agents::greedy_action(game.g.state(), &mut rng).map(|a| action_obj(py, a))
}

/// A uniformly random legal action drawn with SplitMix64(``seed``).
#[pyfunction]
pub(crate) fn random_action(
    py: Python<'_>,
    game: PyRef<'_, PyGame>,
    seed: u64,
) -> Option<Py<PyAction>> {
    let mut rng = SplitMix64::new(seed);
    let mut buf = ActionList::default();
    agents::random_action(game.g.state(), &mut rng, &mut buf).map(|a| action_obj(py, a))
}

/// Play ``n_games`` whole games in Rust threads with the GIL released, with
/// ``agent`` (spec text or a built-in agent) in every seat.
///
/// Game ``k`` is dealt with seed ``seed + k``; results do not depend on
/// ``threads`` (default: every core). Returns ``(scores, winners, lengths)``:
/// int32 ``(n_games, players)``, bool ``(n_games, players)`` (shared wins have
/// several), int32 ``(n_games,)`` decisions per game.
#[pyfunction]
#[pyo3(signature = (agent, n_games, *, players = 2, seed = 0, threads = None, spirits = None, dragons = None, layout = None, rules = None))]
#[allow(clippy::too_many_arguments)]
pub(crate) fn playouts<'py>(
    py: Python<'py>,
    agent: &Bound<'py, PyAny>,
    n_games: &Bound<'py, PyAny>,
    #[pyo3(from_py_with = int_not_bool)] players: i64,
    #[pyo3(from_py_with = crate::python::runner::seed_arg)] seed: u64,
    threads: Option<&Bound<'py, PyAny>>,
    spirits: Option<&Bound<'py, PyAny>>,
    dragons: Option<&Bound<'py, PyAny>>,
    layout: Option<&Bound<'py, PyAny>>,
    rules: Option<&Bound<'_, PyAny>>,
) -> PyResult<Bound<'py, PyTuple>> {
    use super::runner;
    use crate::batch::{playouts as run, Outcome};
    let policy = runner::agent_arg(agent)?;
    let n_games = runner::games_arg(n_games)?;
    crate::setup::check_players(players).map_err(to_py_err)?;
    let players = players as usize;
    let setup = runner::table(players, seed, spirits, dragons, layout, rules)?;
    let threads = runner::threads_arg(threads)?;
    // Every buffer is reserved before any work, so a size that does not fit
    // in memory is a MemoryError, not an abort.
    let too_big = |_| {
        pyo3::exceptions::PyMemoryError::new_err(format!("{n_games} games do not fit in memory"))
    };
    let cells = n_games
        .checked_mul(players)
        .ok_or_else(|| PyValueError::new_err(format!("n_games {n_games} is too large")))?;
    let mut out: Vec<Option<Outcome>> = Vec::new();
    out.try_reserve_exact(n_games).map_err(too_big)?;
    out.resize(n_games, None);
    let mut scores: Vec<i32> = Vec::new();
    let mut winners: Vec<bool> = Vec::new();
    let mut lengths: Vec<i32> = Vec::new();
    scores.try_reserve_exact(cells).map_err(too_big)?;
    winners.try_reserve_exact(cells).map_err(too_big)?;
    lengths.try_reserve_exact(n_games).map_err(too_big)?;
    let stop = std::sync::atomic::AtomicBool::new(false);
    super::interrupt::interruptible(
        py,
        &stop,
        || run(&setup, &policy, threads, &mut out, &stop),
        |_| Ok(()),
    )?
    .map_err(setup_err)?;
    let width = players;
    // Every game was played (an interrupted run raised above).
    let out: Vec<Outcome> = out.into_iter().map(Option::unwrap_or_default).collect();
    for o in &out {
        for p in 0..width {
            scores.push(o.scores[p]);
            winners.push(o.winners & (1 << p) != 0);
        }
    }
    lengths.extend(out.iter().map(|o| o.decisions as i32));
    let scores = PyArray1::from_vec(py, scores).reshape([n_games, width])?;
    let winners = PyArray1::from_vec(py, winners).reshape([n_games, width])?;
    let lengths = PyArray1::from_vec(py, lengths);
    PyTuple::new(
        py,
        [scores.into_any(), winners.into_any(), lengths.into_any()],
    )
}

/// Points of Dragon ``card`` for ``realms[player]`` (docs/cards.md); Power
/// compares with the neighbouring seats of ``realms``.
#[pyfunction]
pub(crate) fn dragon_points(
    card: &str,
    realms: Vec<PyRef<'_, PyRealm>>,
    player: i64,
) -> PyResult<u32> {
    let k = DRAGONS
        .iter()
        .position(|d| d.eq_ignore_ascii_case(card))
        .ok_or_else(|| {
            PyValueError::new_err(format!(
                "unknown Dragon card {card:?}; the cards are {}",
                DRAGONS.join(", ")
            ))
        })?;
    let rs: Vec<CoreRealm> = realms.iter().map(|r| r.0).collect();
    if !(0..rs.len() as i64).contains(&player) {
        return Err(PyValueError::new_err(format!(
            "player {player} is not an index of the {} realms",
            rs.len()
        )));
    }
    Ok(crate::cards::dragon_points(k as u8, &rs, player as usize))
}

/// The shape of the observation tensor of layout ``version`` (1, 2 or 3).
#[pyfunction]
#[pyo3(name = "observation_shape", signature = (version = OBSERVATION_VERSION))]
pub(crate) fn py_observation_shape(version: u32) -> PyResult<(usize, usize, usize)> {
    crate::state::observe::checked_observation_shape(version)
        .map(|s| (s[0], s[1], s[2]))
        .map_err(to_py_err)
}

/// The solo rank of a final score (R-SOLO-5).
#[pyfunction]
pub(crate) fn solo_rank(score: i64) -> &'static str {
    crate::solo::rank(score)
}
