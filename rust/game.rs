//! A game with its setup and history: what users hold. The [`State`] inside is
//! the small `Copy` value the search uses; this adds undo, JSON and
//! determinization on top.
//!
//! Its JSON record is written and read in `json`.

mod json;

use std::sync::Arc;

use crate::action::Action;
use crate::error::Error;
use crate::layout::Layout;
use crate::cards::{names, DRAGONS, SPIRITS};
use crate::setup::Setup;
use crate::state::{Rules, State};
use crate::tile::Tile;

/// Format tag and version of [`Game::to_json`].
pub const JSON_FORMAT: &str = "dragoncastle-game";
/// The version [`Game::to_json`] writes: 3 since Spirits may be used at any decision point of
/// the turn (R-SPIRIT-2). Versions 1 and 2 load too, except a version 2 game with Spirit cards.
pub const JSON_VERSION: u32 = 3;

/// Player actions per history segment. A segment keeps the state before its
/// first action, so undo replays fewer than this many actions, and the
/// history costs about `size_of::<State>() / SEGMENT` bytes per decision.
const SEGMENT: usize = 32;
/// Entries a segment holds at most: in solo one player action records up to
/// 1 + 3 of the Dragon of Ingenuity's.
const ENTRIES: usize = 64;
const MAX_PER_ACTION: usize = 4;

/// One recorded action: its id, with [`Entry::DRAGON`] set when the Dragon
/// of Ingenuity played it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Entry(u16);

impl Entry {
    const DRAGON: u16 = 1 << 15;
    fn new(a: Action, by_dragon: bool) -> Entry {
        Entry(a.id() | if by_dragon { Entry::DRAGON } else { 0 })
    }
    fn by_dragon(self) -> bool {
        self.0 & Entry::DRAGON != 0
    }
    fn action(self) -> Action {
        // Only ids of real actions are ever recorded.
        Action::from_id((self.0 & !Entry::DRAGON) as i64).unwrap_or(Action::Done)
    }
}

/// A full run of history: the state before it and its entries. Segments
/// are immutable and shared by every copy of a game, so copying a game
/// costs the same at any point.
#[derive(Debug)]
struct Segment {
    start: State,
    entries: Box<[Entry]>,
    parent: Option<Arc<Segment>>,
}

/// A game with its setup and its history: the value users hold.
///
/// ```
/// use _core::{Action, Game, Phase, Rules};
///
/// // A two-player base game dealt from seed 7 on the standard 2-player layout.
/// let mut game = Game::new(2, 7, None, Rules::default(), None).unwrap();
/// let before = *game.state();
/// // The first pick: an Available tile of the top floor (R-ACT-4).
/// let take = game.state().legal_actions()[0];
/// assert!(matches!(take, Action::Take(_)));
/// game.apply(take).unwrap();
/// assert_eq!(game.state().phase(), Phase::Complete);
/// // Summon is not legal while the castle has upper floors (R-ACT-5).
/// assert!(game.apply(Action::Summon).is_err());
/// // Undo restores the exact state before the pick.
/// assert_eq!(game.undo(), Some(take));
/// assert_eq!(*game.state(), before);
/// ```
#[derive(Clone, Debug)]
pub struct Game {
    players: usize,
    seed: Option<u64>,
    layout: Layout,
    deal: [Tile; Tile::TOTAL],
    state: State,
    /// The state before the first entry of `recent`.
    base: State,
    recent: [Entry; ENTRIES],
    recent_len: u8,
    /// Player actions among `recent`.
    recent_moves: u8,
    /// Older history, newest segment first.
    past: Option<Arc<Segment>>,
    /// Player actions applied since the start, and how many of them cannot
    /// be undone ([`Game::clone_without_history`]).
    moves: u32,
    floor: u32,
}

impl PartialEq for Game {
    /// Equal setup and equal current state (every field, hidden tiles included);
    /// the path that led there does not count.
    fn eq(&self, other: &Self) -> bool {
        self.players == other.players && self.layout == other.layout && self.state == other.state
    }
}

impl Game {
    /// A new base game. `deal` overrides the seeded shuffle; `seed` is then only recorded.
    pub fn new(
        players: usize,
        seed: u64,
        layout: Option<Layout>,
        rules: Rules,
        deal: Option<Vec<Tile>>,
    ) -> Result<Game, Error> {
        Game::from_setup(&Setup { layout, deal, ..Setup::new(players, seed).with_rules(rules) })
    }

    /// A new game from its [`Setup`]. With an explicit deal the seed is not
    /// recorded (it only drew the cards, which the record names).
    pub fn from_setup(setup: &Setup) -> Result<Game, Error> {
        setup.validate()?;
        // The layout and the deal once each: a random game is short enough
        // for its set-up to show in the playout rate.
        let layout = setup.layout();
        let deal = setup.deal();
        let (spirits, dragons) = setup.cards();
        let state = State::with_cards(setup.players, &layout, &deal, setup.rules, spirits, dragons)?;
        let seed = if setup.deal.is_some() { None } else { Some(setup.seed) };
        Ok(Game {
            players: setup.players,
            seed,
            layout,
            deal,
            state,
            base: state,
            recent: [Entry(0); ENTRIES],
            recent_len: 0,
            recent_moves: 0,
            past: None,
            moves: 0,
            floor: 0,
        })
    }

    /// Spirit cards in play, by name in card order.
    pub fn spirit_names(&self) -> Vec<&'static str> {
        names(self.state.spirits(), &SPIRITS)
    }
    /// Dragon cards in play, by name in card order.
    pub fn dragon_names(&self) -> Vec<&'static str> {
        names(self.state.dragons(), &DRAGONS)
    }

    /// The current state: the small `Copy` value that the rules and the search work on.
    pub fn state(&self) -> &State {
        &self.state
    }
    /// The seed of the deal; `None` when the deal was given explicitly or re-dealt by
    /// [`Game::determinize`].
    pub fn seed(&self) -> Option<u64> {
        self.seed
    }
    /// The castle layout of this game.
    pub fn layout(&self) -> &Layout {
        &self.layout
    }
    /// The 116 tiles in dealing order (stacks row-major, each bottom to top); a determinized copy
    /// holds its re-deal.
    pub fn deal(&self) -> &[Tile; Tile::TOTAL] {
        &self.deal
    }
    /// Every action in order, the Dragon of Ingenuity's included.
    pub fn actions(&self) -> impl Iterator<Item = Action> + '_ {
        self.actions_with_author().map(|e| e.0)
    }
    /// `(action, by_dragon)` for every action in order.
    pub fn actions_with_author(&self) -> impl Iterator<Item = (Action, bool)> + '_ {
        let chain: Vec<&Segment> = self.segments().collect();
        chain
            .into_iter()
            .rev()
            .flat_map(|s| s.entries.iter())
            .chain(self.recent[..self.recent_len as usize].iter())
            .map(|e| (e.action(), e.by_dragon()))
    }
    /// A copy that cannot undo past this point (its record of actions stays,
    /// so JSON and pickle work). Every copy costs the same at any point of
    /// the game, since copies share their history.
    pub fn clone_without_history(&self) -> Game {
        Game { floor: self.moves, ..self.clone() }
    }

    /// Bytes this game holds: itself and its history (shared segments
    /// counted in full). At most 4 KB plus 64 bytes per decision.
    pub fn memory_bytes(&self) -> usize {
        // Each segment: the Arc's two counters, the segment, its entries.
        let segment = |s: &Segment| 2 * std::mem::size_of::<usize>() + std::mem::size_of::<Segment>() + std::mem::size_of_val(&*s.entries);
        std::mem::size_of::<Game>() + self.segments().map(segment).sum::<usize>()
    }

    /// The sealed segments of the history, newest first.
    fn segments(&self) -> impl Iterator<Item = &Segment> + '_ {
        std::iter::successors(self.past.as_deref(), |s| s.parent.as_deref())
    }

    /// A fingerprint of what every player saw when the game began (players,
    /// layout, rules and the opening's top tiles), without reading a covered
    /// tile: the search keeps a tree only for the game it was grown in.
    pub fn opening_key(&self) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut h = std::hash::DefaultHasher::new();
        let castle = crate::castle::Castle::new(&self.layout, &self.deal);
        (self.players, self.layout.to_text(), self.state.rules().dragon_set_bonus, self.state.spirits(), self.state.dragons()).hash(&mut h);
        for s in castle.spaces() {
            (s, castle.top(s).map(|t| t.index())).hash(&mut h);
        }
        h.finish()
    }

    /// The player decisions each seat has taken so far (the solo Dragon's
    /// moves left out): decision `d` of a seat draws by the agents' seed rule.
    pub fn seat_decisions(&self) -> [u32; crate::state::MAX_PLAYERS] {
        let mut s = self.segments().last().map_or(self.base, |seg| seg.start);
        let mut out = [0; crate::state::MAX_PLAYERS];
        // The solo Dragon's turns are played by the state itself (`apply`).
        for (a, _) in self.actions_with_author().filter(|(_, by_dragon)| !by_dragon) {
            out[s.current_player()] += 1;
            s.apply_unchecked(a);
        }
        out
    }

    /// Actions recorded, the Dragon of Ingenuity's included (what [`Game::actions`] yields).
    pub fn history_len(&self) -> usize {
        self.recent_len as usize + self.segments().map(|s| s.entries.len()).sum::<usize>()
    }

    /// Apply a player's action; in solo the Dragon's turn that follows is played
    /// too and recorded after it.
    pub fn apply(&mut self, a: Action) -> Result<(), Error> {
        self.state.check_legal(a)?;
        if self.recent_moves as usize == SEGMENT || self.recent_len as usize + MAX_PER_ACTION > ENTRIES {
            self.seal();
        }
        self.state.apply_unchecked(a);
        self.push(Entry::new(a, false));
        for i in 0..self.state.dragon_log().len() {
            self.push(Entry::new(self.state.dragon_log()[i], true));
        }
        self.recent_moves += 1;
        self.moves += 1;
        Ok(())
    }

    fn push(&mut self, e: Entry) {
        self.recent[self.recent_len as usize] = e;
        self.recent_len += 1;
    }

    /// Close the recent entries into a shared segment; the current state
    /// starts the next one.
    fn seal(&mut self) {
        let seg = Segment { start: self.base, entries: self.recent[..self.recent_len as usize].into(), parent: self.past.take() };
        self.past = Some(Arc::new(seg));
        self.base = self.state;
        self.recent_len = 0;
        self.recent_moves = 0;
    }

    /// Revert the last player's action (and the Dragon's turn it caused):
    /// the state is replayed from the start of its segment, so it is
    /// exactly the state before that action.
    pub fn undo(&mut self) -> Option<Action> {
        if self.moves <= self.floor {
            return None;
        }
        if self.recent_moves == 0 {
            // Reopen the newest segment (a running game has one: moves > 0).
            let seg = self.past.take()?;
            self.base = seg.start;
            self.recent[..seg.entries.len()].copy_from_slice(&seg.entries);
            self.recent_len = seg.entries.len() as u8;
            self.recent_moves = seg.entries.iter().filter(|e| !e.by_dragon()).count() as u8;
            self.past = seg.parent.clone();
        }
        let last = self.recent[..self.recent_len as usize].iter().rposition(|e| !e.by_dragon())?;
        let a = self.recent[last].action();
        self.recent_len = last as u8;
        self.recent_moves -= 1;
        self.moves -= 1;
        self.state = self.base;
        for e in &self.recent[..last] {
            if !e.by_dragon() {
                // Recorded actions were legal in these very states.
                self.state.apply_unchecked(e.action());
            }
        }
        Some(a)
    }

    /// A copy whose covered castle tiles are re-dealt (see [`State::determinize`]).
    /// Its history is rewritten with the same re-deal, so undoing in the copy
    /// never reveals the true hidden tiles.
    pub fn determinize(&self, seed: u64) -> Game {
        let det = self.state.determinize(seed);
        let mut deal = self.deal;
        for (i, t) in deal.iter_mut().enumerate() {
            *t = det.castle.slot(i);
        }
        let redeal = |s: &mut State| {
            for (i, t) in deal.iter().enumerate() {
                s.castle.set_slot(i, *t);
            }
            s.castle.refresh();
        };
        let mut g = self.clone();
        g.state = det;
        g.deal = deal;
        g.seed = None;
        redeal(&mut g.base);
        let chain: Vec<&Segment> = self.segments().collect();
        g.past = None;
        for s in chain.into_iter().rev() {
            let mut start = s.start;
            redeal(&mut start);
            g.past = Some(Arc::new(Segment { start, entries: s.entries.clone(), parent: g.past.take() }));
        }
        g
    }
}
