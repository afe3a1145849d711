//! `Game` and its `Realm` snapshots: the core's `Game`, converted call by call.

use super::*;

/// A snapshot of one player's Realm (it does not follow later moves).
#[pyclass(module = "dragoncastle._core", name = "Realm", frozen, eq)]
#[derive(PartialEq)]
pub struct PyRealm(pub(crate) CoreRealm);

#[pymethods]
impl PyRealm {
    /// A Realm from text (docs/cards.md): 4 lines of 4 cells; ``.`` empty,
    /// ``3Me2`` height 3 with a face-up Me2, ``2#`` face down, ``2S`` with a Shrine.
    #[staticmethod]
    fn parse(text: &str) -> PyResult<Self> {
        CoreRealm::parse(text).map(PyRealm).map_err(PyValueError::new_err)
    }
    /// The text of :meth:`parse`.
    #[getter]
    fn text(&self) -> String {
        self.0.to_text()
    }
    /// Pickle and copy through the text, which holds the whole Realm.
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyAny>, (String,))> {
        Ok((slf.get_type().getattr("parse")?, (slf.get().0.to_text(),)))
    }
    /// Stack height at Realm cell ``(row, col)`` (0 when empty).
    fn height(&self, cell: (i64, i64)) -> PyResult<u8> {
        Ok(self.0.height(cell_index(cell)?))
    }
    /// ``(Tile, True)`` for a face-up top tile, ``(None, False)`` for a face-down one
    /// (face-down symbols never count again, so they are not kept), None if empty.
    fn top(&self, cell: (i64, i64)) -> PyResult<Option<(Option<PyTile>, bool)>> {
        Ok(self.0.top(cell_index(cell)?).map(|(t, up)| (t.map(PyTile), up)))
    }
    /// True if a Shrine stands on Realm cell ``(row, col)``.
    fn has_shrine(&self, cell: (i64, i64)) -> PyResult<bool> {
        Ok(self.0.has_shrine(cell_index(cell)?))
    }
    /// Cells where a collected tile may be placed (R-PLACE-1), row-major.
    fn placeable(&self) -> Vec<(usize, usize)> {
        let m = self.0.placeable();
        (0..16).filter(|c| m & (1 << c) != 0).map(|c| cell_tuple(c as u8)).collect()
    }
    /// The Realm's text on one line: ``<Realm | 1Me2 . . . | ... |>``.
    fn __repr__(&self) -> String {
        format!("<Realm | {} |>", self.0.to_text().lines().collect::<Vec<_>>().join(" | "))
    }
}

// ---------------------------------------------------------------- Game

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
    fn observer(&self, player: Option<i64>) -> PyResult<usize> {
        match player {
            Some(p) => self.seat(p),
            None => Ok(self.g.state().default_observer()),
        }
    }

    fn seat(&self, player: i64) -> PyResult<usize> {
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

    // ---- scores

    /// Current (or final) scores by seat (R-END-2).
    fn scores(&self) -> Vec<i32> {
        let s = self.g.state();
        (0..s.players()).map(|p| s.score(p)).collect()
    }
    /// One utility per seat (OpenSpiel's ``Returns()``): all 0 while the game
    /// runs; at the end 1 for a win, split among tied winners, 0 otherwise.
    /// Solo: the final score / 100.
    fn returns(&self) -> Vec<f64> {
        let s = self.g.state();
        s.returns()[..s.players()].to_vec()
    }
    /// Seats that win after the tie breaks of R-END-3 (several when shared).
    fn winners(&self) -> Vec<usize> {
        self.g.state().winners()
    }
    /// ``{"vp", "shrines", "countdown", "dragons": {card: points}, "total"}``
    /// for one seat; solo with cards adds ``"variant": -15`` (R-SOLO-1).
    fn score_breakdown<'py>(&self, py: Python<'py>, player: i64) -> PyResult<Bound<'py, PyDict>> {
        let s = self.g.state();
        let b = s.breakdown(self.seat(player)?);
        let d = PyDict::new(py);
        d.set_item("vp", b.vp)?;
        d.set_item("shrines", b.shrines)?;
        d.set_item("countdown", b.countdown)?;
        let dragons = PyDict::new(py);
        for (k, name) in DRAGONS.iter().enumerate() {
            if s.dragons() & (1 << k) != 0 {
                dragons.set_item(*name, b.dragons[k])?;
            }
        }
        d.set_item("dragons", dragons)?;
        if b.variant != 0 {
            d.set_item("variant", b.variant)?;
        }
        d.set_item("total", b.total)?;
        Ok(d)
    }

    // ---- accessors

    /// The top floor: the greatest stack height in the castle (R-AVAIL-2).
    #[getter]
    fn top_floor(&self) -> u8 {
        self.g.state().castle().top_floor()
    }
    /// ``(rows, cols)`` of the castle grid.
    #[getter]
    fn castle_shape(&self) -> (usize, usize) {
        let c = self.g.state().castle();
        (c.rows(), c.cols())
    }
    /// Stack height at castle space ``(row, col)`` (0 when empty).
    fn castle_height(&self, space: (i64, i64)) -> PyResult<u8> {
        Ok(self.g.state().castle().height(space_index(space)?))
    }
    /// The visible top tile of castle space ``(row, col)``; None when the stack is empty.
    fn castle_top(&self, space: (i64, i64)) -> PyResult<Option<PyTile>> {
        Ok(self.g.state().castle().top(space_index(space)?).map(PyTile))
    }
    /// True if the top tile of castle space ``(row, col)`` is Available: its west or east neighbour is lower (R-AVAIL-1).
    fn is_available(&self, space: (i64, i64)) -> PyResult<bool> {
        Ok(self.g.state().castle().is_available(space_index(space)?))
    }
    /// Tiles still in the castle.
    #[getter]
    fn castle_tiles(&self) -> usize {
        self.g.state().castle().remaining()
    }
    /// A snapshot (``Realm``) of ``player``'s Realm.
    fn realm(&self, player: i64) -> PyResult<PyRealm> {
        Ok(PyRealm(self.g.state().player(self.seat(player)?).realm))
    }
    /// Shrines in ``player``'s Shrine Pool.
    fn shrine_pool(&self, player: i64) -> PyResult<u8> {
        Ok(self.g.state().player(self.seat(player)?).shrine_pool)
    }
    /// VP tokens ``player`` holds (from sets and Discards; Shrines and Countdown tokens score apart).
    fn vp_tokens(&self, player: i64) -> PyResult<u16> {
        Ok(self.g.state().player(self.seat(player)?).vp)
    }
    /// Countdown tokens ``player`` took by Summoning (2 VP each, R-END-2).
    fn countdown_tokens(&self, player: i64) -> PyResult<u8> {
        Ok(self.g.state().player(self.seat(player)?).countdown)
    }
    /// Shrines left in the general pool.
    #[getter]
    fn general_shrines(&self) -> u8 {
        self.g.state().general_shrines()
    }
    /// Countdown tokens still on the track.
    #[getter]
    fn countdown_left(&self) -> u8 {
        self.g.state().countdown_left()
    }
    /// True once the end is triggered (R-END-1): the current round is the last.
    #[getter]
    fn end_triggered(&self) -> bool {
        self.g.state().end_triggered()
    }
    /// Tiles collected this turn and not yet placed, in placing order.
    #[getter]
    fn held_tiles(&self) -> Vec<PyTile> {
        self.g.state().held().iter().map(|&t| PyTile(t)).collect()
    }

    // ---- serialisation and pictures

    /// The complete state as JSON: setup, hidden tiles and history.
    /// ``Game.from_json`` round-trips it exactly.
    fn to_json(&self) -> String {
        self.g.to_json()
    }
    /// The game of a ``to_json`` text; invalid input raises ``ValueError`` with the reason.
    #[staticmethod]
    fn from_json(s: &str) -> PyResult<Self> {
        CoreGame::from_json(s).map(|g| PyGame { g }).map_err(setup_err)
    }
    fn __str__(&self) -> String {
        render::text(self.g.state())
    }
    fn __repr__(&self) -> String {
        let s = self.g.state();
        let seed = self.g.seed().map(|v| v.to_string()).unwrap_or_else(|| "None".into());
        format!(
            "<Game players={} seed={seed} turn={} phase={} current_player={} scores={:?}>",
            s.players(),
            s.turn(),
            s.phase().name(),
            s.current_player(),
            (0..s.players()).map(|p| s.score(p)).collect::<Vec<_>>()
        )
    }
    /// An SVG picture of the game, for notebooks: everything public, the
    /// last move marked.
    fn _repr_svg_(&self) -> String {
        render::game_svg(&self.g)
    }

    // ---- hidden information

    /// What ``player`` (default: the player to move) may know, as plain
    /// Python data (no covered castle tile).
    #[pyo3(signature = (player = None))]
    fn observation<'py>(&self, py: Python<'py>, player: Option<i64>) -> PyResult<Bound<'py, PyAny>> {
        json_to_py(py, &self.g.state().observation(self.observer(player)?))
    }
    /// Float32 planes of shape ``observation_shape(version)``
    /// (docs/observation.md); each version is the one before with planes appended (version 1: 247, version 2: 302).
    /// ``player`` defaults to the player to move.
    #[pyo3(signature = (player = None, version = OBSERVATION_VERSION))]
    fn observation_tensor<'py>(&self, py: Python<'py>, player: Option<i64>, version: u32) -> PyResult<Bound<'py, PyAny>> {
        let (v, shape) = self.g.state().observation_tensor_of(self.observer(player)?, version).map_err(to_py_err)?;
        Ok(PyArray1::from_vec(py, v).reshape(shape)?.into_any())
    }
    /// The compact observation: ``COMPACT_OBSERVATION_SIZE`` bytes (uint8)
    /// holding what the tensor's planes hold, as small integers
    /// (docs/observation.md, "Compact encoding"). ``player`` defaults to the
    /// player to move.
    #[pyo3(signature = (player = None))]
    fn compact_observation<'py>(&self, py: Python<'py>, player: Option<i64>) -> PyResult<Bound<'py, PyArray1<u8>>> {
        let seat = self.observer(player)?;
        let mut v = vec![0u8; COMPACT_OBSERVATION_SIZE];
        self.g.state().compact_observation(seat, &mut v);
        Ok(PyArray1::from_vec(py, v))
    }
    /// A copy with the covered castle tiles re-dealt at random (``seed``).
    fn determinize(&self, seed: u64) -> Self {
        PyGame { g: self.g.determinize(seed) }
    }
    /// Recompute every derived structure and check the invariants; raises
    /// ``AssertionError`` with the reason if one fails.
    fn check_invariants(&self) -> PyResult<()> {
        self.g.state().check_invariants().map_err(pyo3::exceptions::PyAssertionError::new_err)
    }
}

pub(crate) fn json_to_py<'py>(py: Python<'py>, v: &serde_json::Value) -> PyResult<Bound<'py, PyAny>> {
    use serde_json::Value as V;
    Ok(match v {
        V::Null => py.None().into_bound(py),
        V::Bool(b) => pyo3::types::PyBool::new(py, *b).to_owned().into_any(),
        V::Number(n) => match n.as_i64() {
            Some(i) => i.into_pyobject(py)?.into_any(),
            None => n.as_f64().unwrap_or(0.0).into_pyobject(py)?.into_any(),
        },
        V::String(s) => PyString::new(py, s).into_any(),
        V::Array(a) => PyList::new(py, a.iter().map(|x| json_to_py(py, x)).collect::<PyResult<Vec<_>>>()?)?.into_any(),
        V::Object(o) => {
            let d = PyDict::new(py);
            for (k, x) in o {
                d.set_item(k, json_to_py(py, x)?)?;
            }
            d.into_any()
        }
    })
}
