//! `Game`: the core's `Game`, converted call by call (its views of the castle,
//! the Realms and the scores are in `game_view.rs`, its `Realm` snapshots in `realm.rs`).

use super::*;

/// A game of Dragon Castle backed by the Rust core.
///
/// The main methods, in the order of a game: ``legal_actions()`` (sorted by
/// id; ``legal_action_mask()`` for numpy), ``apply(action)`` with an
/// ``Action``, its id or its text, ``current_player``, ``phase`` and
/// ``is_over``, then ``scores()`` and ``winners()``. ``undo()``, ``clone()``,
/// ``to_json()`` and ``Game.from_json()`` step back, copy and save;
/// ``observation()`` and ``determinize(seed)`` serve a search without hidden
/// information; ``str(game)`` draws the position. ``help()`` lists every
/// method below, alphabetically.
///
/// ``Game(players=2, seed=None, *, spirits=None, dragons=None, layout=None,
/// rules=None, deal=None)``: ``players`` 1 (solo against the Dragon of
/// Ingenuity) to 4; ``seed`` the deal's seed (None: a fresh one); ``spirits``
/// and ``dragons`` a list of card names or a count to draw from the seed;
/// ``layout`` a ``Layout``, a standard layout name or layout text; ``rules``
/// the ``Rules``; ``deal`` an explicit deal of 116 tile codes instead of the
/// seeded shuffle. Bad arguments raise ``ValueError``.
#[pyclass(module = "dragoncastle._core", name = "Game", eq)]
#[derive(Clone, PartialEq)]
pub struct PyGame {
    pub(crate) g: CoreGame,
}

pub(crate) fn fresh_seed() -> u64 {
    use std::collections::hash_map::RandomState;
    use std::hash::{BuildHasher, Hasher};
    let mut h = RandomState::new().build_hasher();
    h.write_u128(std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_nanos()).unwrap_or(0));
    h.finish()
}

/// `layout=`: None, a `Layout`, a standard layout's name or layout text.
pub(crate) fn layout_arg(v: Option<&Bound<'_, PyAny>>) -> PyResult<Option<CoreLayout>> {
    let Some(v) = v.filter(|v| !v.is_none()) else { return Ok(None) };
    if let Ok(l) = v.cast::<PyLayout>() {
        return Ok(Some(l.get().0.clone()));
    }
    let Ok(s) = v.extract::<String>() else {
        return Err(PyTypeError::new_err("layout must be a Layout, a standard layout name or layout text"));
    };
    Ok(Some(if s.contains('\n') { CoreLayout::parse(&s) } else { CoreLayout::standard(&s) }.map_err(setup_err)?))
}

/// `rules=`: None (the rulebook's) or a `Rules`; anything else is a `TypeError` that says so.
pub(crate) fn rules_arg(v: Option<&Bound<'_, PyAny>>) -> PyResult<CoreRules> {
    match v.filter(|v| !v.is_none()) {
        None => Ok(CoreRules::default()),
        Some(v) => match v.cast::<PyRules>() {
            Ok(r) => Ok(CoreRules::from(r.get().clone())),
            Err(_) => Err(PyTypeError::new_err(format!(
                "rules must be a dragoncastle.Rules (or None); got a {}",
                v.get_type().name().map(|n| n.to_string()).unwrap_or_default()
            ))),
        },
    }
}

/// `spirits=` / `dragons=`: None, a count to draw, or a list of names.
pub(crate) fn cards_arg(what: &str, v: Option<&Bound<'_, PyAny>>) -> PyResult<Cards> {
    let table: &[&str] = if what == "Spirit" { &SPIRITS } else { &DRAGONS };
    let Some(v) = v else { return Ok(Cards::None) };
    if v.is_none() {
        return Ok(Cards::None);
    }
    if v.is_instance_of::<pyo3::types::PyBool>() {
        return Err(PyValueError::new_err(format!("{what} cards: a count, a list of names or None, not a bool")));
    }
    if v.is_instance_of::<pyo3::types::PyInt>() {
        let n = v.extract::<i64>().map_err(|_| PyValueError::new_err(format!("{what} count must be 0 to 10")))?;
        return Cards::draw(n, what).map_err(setup_err);
    }
    if v.is_instance_of::<PyString>() {
        return Err(PyValueError::new_err(format!("{what} cards: pass a list of names, e.g. [{:?}]", v.to_string())));
    }
    let names: Vec<String> = v
        .extract()
        .map_err(|_| PyValueError::new_err(format!("{what} cards: a count, a list of names or None; got {}", v.get_type())))?;
    let refs: Vec<&str> = names.iter().map(String::as_str).collect();
    Cards::named(&refs, table, what).map_err(setup_err)
}

impl PyGame {
    /// The observing seat: `player`, or by default the seat to move (seat 0
    /// if that seat has no Realm, the solo Dragon's).
    pub(crate) fn observer(&self, player: Option<i64>) -> PyResult<usize> {
        match player {
            Some(p) => self.seat(p),
            None => Ok(self.g.state().default_observer()),
        }
    }

    pub(crate) fn seat(&self, player: i64) -> PyResult<usize> {
        self.g.state().check_seat(player).map_err(to_py_err)
    }
}

#[pymethods]
impl PyGame {
    #[new]
    #[pyo3(signature = (players = 2, seed = None, *, spirits = None, dragons = None, layout = None, rules = None, deal = None))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        #[pyo3(from_py_with = int_not_bool)] players: i64,
        seed: Option<&Bound<'_, PyAny>>,
        spirits: Option<&Bound<'_, PyAny>>,
        dragons: Option<&Bound<'_, PyAny>>,
        layout: Option<&Bound<'_, PyAny>>,
        rules: Option<&Bound<'_, PyAny>>,
        deal: Option<Vec<String>>,
    ) -> PyResult<Self> {
        // A bool is an int to Python, but True players or seed is a mistake.
        let is_bool = |v: &Bound<'_, PyAny>| v.is_instance_of::<pyo3::types::PyBool>();
        crate::setup::check_players(players as i64).map_err(to_py_err)?;
        let seed = match seed {
            None => fresh_seed(),
            Some(s) if s.is_none() => fresh_seed(),
            Some(s) if is_bool(s) => return Err(PyValueError::new_err("seed must be an integer in 0..2**64; got a bool")),
            Some(s) => s.extract::<u64>().map_err(|_| PyValueError::new_err("seed must be an integer in 0..2**64"))?,
        };
        let spirits = cards_arg("Spirit", spirits)?;
        let dragons = cards_arg("Dragon", dragons)?;
        let layout = layout_arg(layout)?;
        let deal = match deal {
            None => None,
            Some(codes) => Some(codes.iter().map(|c| CoreTile::parse(c)).collect::<Result<Vec<_>, _>>().map_err(setup_err)?),
        };
        let rules = rules_arg(rules)?;
        let setup = Setup { layout, deal, ..Setup::new(players as usize, seed).with_rules(rules).with_cards(spirits, dragons) };
        let g = CoreGame::from_setup(&setup).map_err(setup_err)?;
        Ok(PyGame { g })
    }

    // ---- playing

    /// The seat to move. In solo the Dragon of Ingenuity (seat 1) moves inside
    /// ``apply``, so this is always 0 there.
    #[getter]
    fn current_player(&self) -> usize {
        self.g.state().current_player()
    }
    /// Which decision is pending: a ``Phase``.
    #[getter]
    fn phase(&self) -> PyPhase {
        self.g.state().phase().into()
    }
    /// True once the game has ended (R-END-1).
    #[getter]
    fn is_over(&self) -> bool {
        self.g.state().is_over()
    }
    /// Seats with a Realm: 1 (solo) to 4.
    #[getter]
    fn players(&self) -> usize {
        self.g.state().players()
    }
    /// The seed of the deal (None when the game was given an explicit ``deal``).
    #[getter]
    fn seed(&self) -> Option<u64> {
        self.g.seed()
    }
    /// The castle ``Layout`` the game was dealt on.
    #[getter]
    fn layout(&self) -> PyLayout {
        PyLayout(self.g.layout().clone())
    }
    /// The rule options (``Rules``).
    #[getter]
    fn rules(&self) -> PyRules {
        PyRules { dragon_set_bonus: self.g.state().rules().dragon_set_bonus }
    }
    /// Spirit cards in play, by name in card order.
    #[getter]
    fn spirits(&self) -> Vec<&'static str> {
        self.g.spirit_names()
    }
    /// Dragon cards in play, by name in card order.
    #[getter]
    fn dragons(&self) -> Vec<&'static str> {
        self.g.dragon_names()
    }
    /// Completed turns (the Dragon of Ingenuity's included, in solo).
    #[getter]
    fn turn(&self) -> u16 {
        self.g.state().turn()
    }
    /// True for a solo game against the Dragon of Ingenuity.
    #[getter]
    fn is_solo(&self) -> bool {
        self.g.state().is_solo()
    }
    /// Solo: the rank of the current (final, once over) score (R-SOLO-5).
    fn rank(&self) -> PyResult<&'static str> {
        let s = self.g.state();
        if !s.is_solo() {
            return Err(PyValueError::new_err("rank() is for solo games (players=1)"));
        }
        Ok(crate::solo::rank(s.score(0) as i64))
    }
    /// The action the Dragon of Ingenuity would choose for the seat to move
    /// (None when the game is over); see docs/solo.md.
    fn dragon_action(&self, py: Python<'_>) -> Option<Py<PyAction>> {
        self.g.state().dragon_action().map(|a| action_obj(py, a))
    }
    /// Solo: the tiles the Dragon of Ingenuity took, by code.
    #[getter]
    fn dragon_tiles(&self) -> std::collections::BTreeMap<String, u8> {
        let s = self.g.state();
        CoreTile::all().filter(|t| s.dragon_tiles()[t.index() as usize] > 0).map(|t| (t.code(), s.dragon_tiles()[t.index() as usize])).collect()
    }
    /// One flag per entry of ``history``: True where the Dragon of Ingenuity played it (solo).
    #[getter]
    fn history_by_dragon(&self) -> Vec<bool> {
        self.g.actions_with_author().map(|(_, d)| d).collect()
    }

    /// Legal actions, sorted by id.
    fn legal_actions<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let list = self.g.state().legal_actions();
        PyList::new(py, list.iter().map(|&a| action_obj(py, a)))
    }
    /// Legal action ids, sorted (the cheapest way to enumerate).
    fn legal_action_ids(&self) -> Vec<u16> {
        self.g.state().legal_actions().iter().map(|a| a.id()).collect()
    }
    /// Boolean mask of shape ``(NUM_ACTIONS,)``.
    fn legal_action_mask<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<bool>> {
        let mut m = vec![false; NUM_ACTIONS];
        for a in self.g.state().legal_actions().iter() {
            m[a.id() as usize] = true;
        }
        PyArray1::from_vec(py, m)
    }
    /// True if ``action`` (an Action, id or text) is legal now; False for input that names no action.
    fn is_legal(&self, action: &Bound<'_, PyAny>) -> bool {
        parse_action(action).map(|a| self.g.state().is_legal(a)).unwrap_or(false)
    }
    /// Apply an Action, an id or a text; an illegal or malformed one raises
    /// ``IllegalActionError`` and changes nothing.
    fn apply(&mut self, action: &Bound<'_, PyAny>) -> PyResult<()> {
        let a = parse_action(action)?;
        self.g.apply(a).map_err(to_py_err)
    }
    /// Revert the last action and return it.
    fn undo(&mut self, py: Python<'_>) -> PyResult<Py<PyAction>> {
        match self.g.undo() {
            Some(a) => Ok(action_obj(py, a)),
            None if self.g.history_len() > 0 => {
                Err(PyIndexError::new_err("undo: this copy was made with clone(history=False) and cannot undo past that point"))
            }
            None => Err(PyIndexError::new_err("undo: no action to undo")),
        }
    }
    /// Actions applied so far.
    #[getter]
    fn history<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        PyList::new(py, self.g.actions().map(|a| action_obj(py, a)))
    }
    /// An independent copy. Copies share their (immutable) history, so a copy
    /// costs the same at any point of the game. ``history=False`` gives a
    /// copy that cannot undo past this point (its record of actions stays, so
    /// JSON and pickle work).
    #[pyo3(signature = (history = true))]
    fn clone(&self, history: bool) -> Self {
        if history {
            Clone::clone(self)
        } else {
            PyGame { g: self.g.clone_without_history() }
        }
    }
    /// Bytes held by this game and its history (``sys.getsizeof``): at most
    /// 4 KB plus 64 bytes per decision, since copies share their history.
    fn __sizeof__(&self) -> usize {
        self.g.memory_bytes()
    }
    fn __copy__(&self) -> Self {
        Clone::clone(self)
    }
    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> Self {
        Clone::clone(self)
    }
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyAny>, (String,))> {
        Ok((slf.get_type().getattr("from_json")?, (slf.borrow().g.to_json(),)))
    }

}
