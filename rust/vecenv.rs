//! Many games stepped at once for learning: the arrays a learner reads are
//! written in place, games that end are dealt again at once, and built-in
//! opponents play inside Rust (`docs/vecenv.md`).
//!
//! Slot `i` plays its `e`-th game with seed `seed + i + n * e`, and an
//! opponent's draws come from that game seed and its decision count, so the
//! run is the same whatever the number of threads.

use rayon::prelude::*;

use crate::action::{Action, ActionList, NUM_ACTIONS};
use std::sync::atomic::{AtomicBool, Ordering};

use crate::agents::random_action;
use crate::agents::{decision_rng, Agent, Player};
use crate::error::Error;
use crate::rng::{stream, SplitMix64};
use crate::setup::Setup;
use crate::state::observe::{COMPACT_OBSERVATION_SIZE, OBSERVATION_SIZE};
use crate::state::{State, MAX_PLAYERS};


/// What each step writes as the observation of the seat to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Observation {
    /// `COMPACT_OBSERVATION_SIZE` bytes (`docs/observation.md`).
    Compact,
    /// The float32 planes of `observation_tensor`.
    Tensor,
    /// No observation: only masks, rewards, terminated flags and seats to move are written.
    None,
}

impl Observation {
    /// The observation named `name`: `compact`, `tensor` or `none`.
    pub fn parse(name: &str) -> Result<Observation, Error> {
        match name {
            "compact" => Ok(Observation::Compact),
            "tensor" => Ok(Observation::Tensor),
            "none" => Ok(Observation::None),
            _ => Err(Error::Setup(format!("observation must be 'compact', 'tensor' or 'none'; got {name:?}"))),
        }
    }

    /// Elements of one game's observation row: bytes (`Compact`), floats (`Tensor`) or 0.
    pub fn size(self) -> usize {
        match self {
            Observation::Compact => COMPACT_OBSERVATION_SIZE,
            Observation::Tensor => OBSERVATION_SIZE,
            Observation::None => 0,
        }
    }
}

/// The rewards of a step, one per seat with a Realm.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RewardKind {
    /// `returns()` when the game ends (1 for a win, shared by tied winners;
    /// solo: the scaled score), 0 before.
    Win,
    /// The change of each seat's score (its sum over a game is the final score).
    Score,
}

impl RewardKind {
    /// The reward named `name`: `win` or `score`.
    pub fn parse(name: &str) -> Result<RewardKind, Error> {
        match name {
            "win" => Ok(RewardKind::Win),
            "score" => Ok(RewardKind::Score),
            _ => Err(Error::Setup(format!("reward must be 'win' or 'score'; got {name:?}"))),
        }
    }
}

/// Most games one [`VecEnv`] steps.
pub const MAX_GAMES: usize = 1 << 20;

/// `n` games on `threads` threads checked as a [`VecEnv`]'s size: 1 to
/// [`MAX_GAMES`] games, 1 to [`crate::search::MAX_THREADS`] threads (the
/// bound of every batch API). A caller that allocates per game checks first.
pub fn check_size(n: usize, threads: usize) -> Result<(), Error> {
    if !(1..=crate::search::MAX_THREADS).contains(&threads) {
        return Err(Error::Setup(format!("threads must be 1 to {}; got {threads}", crate::search::MAX_THREADS)));
    }
    if !(1..=MAX_GAMES).contains(&n) {
        return Err(Error::Setup(format!("n must be 1 to 2**20 games; got {n}")));
    }
    Ok(())
}

/// The games of a [`VecEnv`] at one moment ([`VecEnv::snapshot`]).
pub struct Snapshot(Vec<Slot>);

#[derive(Clone, Debug)]
struct Slot {
    state: State,
    game_seed: u64,
    episode: u64,
    /// Decisions each opponent seat has taken (the agents' seed rule).
    opponent_decisions: [u32; MAX_PLAYERS],
    /// The opponents at this game, with their memory (a kept tree, a plan).
    opponents: Vec<Player>,
    /// Every player decision of the game so far (what a kept tree follows).
    played: Vec<Action>,
    scores: [i32; MAX_PLAYERS],
}

/// The environment's games and settings.
pub struct VecEnv {
    setup: Setup,
    seed: u64,
    learner: Option<usize>,
    opponent: Option<Agent>,
    reward: RewardKind,
    observation: Observation,
    slots: Vec<Slot>,
    pool: rayon::ThreadPool,
    /// Draws of [`VecEnv::sample`].
    sampler: SplitMix64,
    /// False until the first [`VecEnv::reset`]: stepping needs one.
    ready: bool,
}

/// The arrays one step writes, each with one row per game.
pub struct Outputs<'a> {
    /// The observation of the seat to move, one row per game (or none).
    pub observations: ObservationRows<'a>,
    /// `n × NUM_ACTIONS`: the legal actions of the seat to move.
    pub masks: &'a mut [bool],
    /// `n × players`: each seat's reward for this step ([`RewardKind`]).
    pub rewards: &'a mut [f32],
    /// `n`: the slot's game ended in this step (its other rows then describe the next game).
    pub terminated: &'a mut [bool],
    /// `n`: the seat to move (with an opponent, always the learner).
    pub to_move: &'a mut [i64],
}

/// The observation array of [`Outputs`], in the element type of the environment's [`Observation`].
pub enum ObservationRows<'a> {
    /// `n × COMPACT_OBSERVATION_SIZE` bytes.
    Compact(&'a mut [u8]),
    /// `n × OBSERVATION_SIZE` float32 planes.
    Tensor(&'a mut [f32]),
    /// No observation array ([`Observation::None`]).
    None,
}

impl VecEnv {
    /// `n` games of `setup` (its seed is the first game's); with `opponent`,
    /// every seat but `learner` is played by it.
    pub fn new(
        n: usize,
        setup: Setup,
        threads: usize,
        learner: Option<usize>,
        opponent: Option<Agent>,
        reward: RewardKind,
        observation: Observation,
    ) -> Result<VecEnv, Error> {
        setup.validate()?;
        check_size(n, threads)?;
        if setup.deal.is_some() {
            return Err(Error::Setup("a VecEnv deals each game from its seed; an explicit deal is not allowed".into()));
        }
        let players = setup.players;
        if let Some(l) = learner {
            if l >= players {
                return Err(Error::Setup(format!("learner seat {l} is not a seat of a {players}-player game")));
            }
        }
        if opponent.is_some() != learner.is_some() {
            return Err(Error::Setup("an opponent needs a learner seat, and a learner seat an opponent".into()));
        }
        if let Some(o) = &opponent {
            crate::run::check_seats([o], setup.players.max(2))?;
        }
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .map_err(|e| Error::Setup(format!("cannot start {threads} threads: {e}")))?;
        // Resolve the layout once, not per game.
        let setup = Setup { layout: Some(setup.layout()), ..setup };
        let seed = setup.seed;
        let sampler = SplitMix64::stream(seed, stream::SAMPLE);
        let mut env = VecEnv { setup, seed, learner, opponent, reward, observation, slots: Vec::new(), pool, sampler, ready: false };
        env.slots.try_reserve_exact(n).map_err(|_| Error::Setup(format!("{n} games do not fit in memory")))?;
        // Dealt only: the opponents' first moves (a search, perhaps) wait for
        // reset(), which can be interrupted.
        for i in 0..n {
            env.slots.push(env.deal_n(i, 0, n)?);
        }
        Ok(env)
    }

    /// Games stepped together (slots).
    pub fn len(&self) -> usize {
        self.slots.len()
    }
    /// Whether there is no slot (never: [`VecEnv::new`] refuses 0 games).
    pub fn is_empty(&self) -> bool {
        self.slots.is_empty()
    }
    /// Seats with a Realm (rewards per game).
    pub fn players(&self) -> usize {
        self.setup.players
    }
    /// Which observation each step writes.
    pub fn observation(&self) -> Observation {
        self.observation
    }
    /// The game of slot `i` as it stands; `None` past the last slot.
    pub fn state(&self, i: usize) -> Option<&State> {
        self.slots.get(i).map(|s| &s.state)
    }

    /// A uniformly random legal action id for every game (-1 for none), from
    /// the environment's own seeded stream: a baseline policy, or
    /// exploration, without a Python loop over the masks.
    pub fn sample(&mut self, out: &mut [i64]) {
        let mut buf = ActionList::default();
        for (slot, o) in self.slots.iter().zip(out.iter_mut()) {
            *o = random_action(&slot.state, &mut self.sampler, &mut buf).map_or(-1, |a| a.id() as i64);
        }
    }

    /// Deal every game anew from the first seeds, let the opponents play up
    /// to the learner's turn, and write the arrays. With `stop` set part-way
    /// the caller restores a [`Snapshot`].
    pub fn reset(&mut self, out: Outputs<'_>, stop: Option<&AtomicBool>) -> Result<(), Error> {
        let n = self.slots.len();
        for i in 0..n {
            self.slots[i] = self.deal_n(i, 0, n)?;
        }
        self.write_all(out, None, stop, true)?;
        self.ready = true;
        Ok(())
    }

    fn deal_n(&self, i: usize, episode: u64, n: usize) -> Result<Slot, Error> {
        let game_seed = self.seed.wrapping_add(i as u64).wrapping_add((n as u64).wrapping_mul(episode));
        let state = self.setup.state_seeded(game_seed)?;
        // Scores count from 0, so a game's score rewards add up to its final
        // score even where it starts elsewhere (the solo variant's -15).
        let opponents = self.opponent.iter().flat_map(|a| std::iter::repeat_n(a, self.setup.players)).map(|a| Player::new(a.clone())).collect();
        Ok(Slot { state, game_seed, episode, opponent_decisions: [0; MAX_PLAYERS], opponents, played: Vec::new(), scores: [0; MAX_PLAYERS] })
    }

    /// An error is a network's that stopped an opponent's search.
    fn play_opponents(&self, slot: &mut Slot, stop: Option<&AtomicBool>) -> Result<(), Error> {
        let Some(learner) = self.learner.filter(|_| !slot.opponents.is_empty()) else { return Ok(()) };
        while !slot.state.is_over() && slot.state.current_player() != learner {
            if stop.is_some_and(|s| s.load(Ordering::Relaxed)) {
                return Ok(()); // the caller rolls the whole step back
            }
            let seat = slot.state.current_player();
            let mut rng = decision_rng(slot.game_seed, seat, slot.opponent_decisions[seat]);
            slot.opponent_decisions[seat] += 1;
            let (a, _) = slot.opponents[seat].decide(&slot.state, &slot.played, &mut rng, stop)?;
            let Some(a) = a else { break };
            slot.state.apply_unchecked(a);
            slot.played.push(a);
        }
        Ok(())
    }

    /// Whether a step (or, with `reset`, a reset) may take long enough that
    /// Ctrl-C must be able to stop it: a searching opponent, or very many
    /// games to deal or to play opponents in. A step without opponents is one
    /// action per game, a fraction of a second even for the most games
    /// allowed, so it is not made to pay for the rollback copy (measured 3.5
    /// times the step itself at 65,537 games).
    pub fn may_be_long(&self, reset: bool) -> bool {
        self.opponent.as_ref().is_some_and(Agent::searches) || (self.slots.len() > 1 << 16 && (reset || self.opponent.is_some()))
    }

    /// The games as they stand, to roll a stopped step back.
    pub fn snapshot(&self) -> Snapshot {
        Snapshot(self.slots.clone())
    }

    /// Put the games back as they were at `snapshot`, and write the arrays
    /// for them (rewards and terminated flags zero: nothing was played; no
    /// opponent plays either, so no error comes of it in practice).
    pub fn restore(&mut self, snapshot: Snapshot, out: Outputs<'_>) -> Result<(), Error> {
        self.slots = snapshot.0;
        self.write_all(out, None, None, false)
    }

    /// Apply one action per game (`actions[i]`, an action id), let the
    /// opponents answer, deal finished games again and write the arrays. An
    /// action that is not legal in its game is an error and changes nothing.
    /// With `stop`, the step is abandoned part-way when it is set (a
    /// searching opponent stops at once): the caller then restores a
    /// [`Snapshot`] taken before.
    pub fn step(&mut self, actions: &[i64], out: Outputs<'_>, stop: Option<&AtomicBool>) -> Result<(), Error> {
        let n = self.slots.len();
        if !self.ready {
            return Err(Error::Setup("call reset() before the first step()".into()));
        }
        if actions.len() != n {
            return Err(Error::Setup(format!("step needs {n} actions, one per game; got {}", actions.len())));
        }
        let mut parsed = Vec::with_capacity(n);
        for (i, (&id, slot)) in actions.iter().zip(&self.slots).enumerate() {
            let a = Action::from_id(id).map_err(|e| Error::Parse(format!("game {i}: {e}")))?;
            if !slot.state.is_legal(a) {
                let s = &slot.state;
                return Err(Error::Illegal {
                    action: a.to_string(),
                    phase: s.phase().name(),
                    reason: format!("game {i}: {}", s.illegal_reason(a)),
                });
            }
            parsed.push(a);
        }
        self.write_all(out, Some(&parsed), stop, false)
    }

    /// With `actions`, step every game first; then write each game's rows.
    /// `settle`: let the opponents play up to the learner's turn first (fresh
    /// deals). After an error (an opponent's network) the caller restores a
    /// [`Snapshot`], as after a stop.
    fn write_all(&mut self, out: Outputs<'_>, actions: Option<&[Action]>, stop: Option<&AtomicBool>, settle: bool) -> Result<(), Error> {
        let n = self.slots.len();
        let players = self.players();
        let obs_size = self.observation.size();
        let chunk = n.div_ceil(self.pool.current_num_threads()).max(1);
        let Outputs { observations, masks, rewards, terminated, to_move } = out;
        let mut compact: Vec<&mut [u8]> = Vec::new();
        let mut tensor: Vec<&mut [f32]> = Vec::new();
        match observations {
            ObservationRows::Compact(o) => compact = o.chunks_mut(chunk * obs_size).collect(),
            ObservationRows::Tensor(o) => tensor = o.chunks_mut(chunk * obs_size).collect(),
            ObservationRows::None => {}
        }
        let mut slots = std::mem::take(&mut self.slots);
        let me = &*self;
        let jobs: Vec<_> = slots
            .chunks_mut(chunk)
            .zip(masks.chunks_mut(chunk * NUM_ACTIONS))
            .zip(rewards.chunks_mut(chunk * players))
            .zip(terminated.chunks_mut(chunk))
            .zip(to_move.chunks_mut(chunk))
            .enumerate()
            .map(|(k, ((((s, m), r), t), w))| (k, s, m, r, t, w))
            .collect();
        let mut compact = compact.into_iter().map(Some).collect::<Vec<_>>();
        let mut tensor = tensor.into_iter().map(Some).collect::<Vec<_>>();
        let jobs: Vec<_> = jobs
            .into_iter()
            .map(|(k, s, m, r, t, w)| {
                let c = compact.get_mut(k).and_then(Option::take);
                let f = tensor.get_mut(k).and_then(Option::take);
                (k, s, m, r, t, w, c, f)
            })
            .collect();
        let played = me.pool.install(|| {
            jobs.into_par_iter().try_for_each(|(k, slots, masks, rewards, terminated, to_move, mut compact, mut tensor)| {
                let mut buf = ActionList::default();
                for (j, slot) in slots.iter_mut().enumerate() {
                    if stop.is_some_and(|s| s.load(Ordering::Relaxed)) {
                        return Ok(());
                    }
                    let i = k * chunk + j;
                    let reward = &mut rewards[j * players..(j + 1) * players];
                    reward.fill(0.0);
                    terminated[j] = false;
                    if settle {
                        me.play_opponents(slot, stop)?;
                    }
                    if let Some(actions) = actions {
                        terminated[j] = me.step_slot(slot, actions[i], i, n, stop, reward)?;
                    }
                    let s = &slot.state;
                    let seat = s.current_player();
                    to_move[j] = seat as i64;
                    let mask = &mut masks[j * NUM_ACTIONS..(j + 1) * NUM_ACTIONS];
                    mask.fill(false);
                    s.legal_actions_into(&mut buf);
                    for a in buf.iter() {
                        mask[a.id() as usize] = true;
                    }
                    let observer = s.default_observer();
                    if let Some(o) = compact.as_deref_mut() {
                        s.compact_observation(observer, &mut o[j * obs_size..(j + 1) * obs_size]);
                    }
                    if let Some(o) = tensor.as_deref_mut() {
                        s.observation_tensor(observer, &mut o[j * obs_size..(j + 1) * obs_size]);
                    }
                }
                Ok(())
            })
        });
        self.slots = slots;
        played
    }

    /// Play the learner's `action` in game `i` of `n`, then the opponents up
    /// to its next turn, and write its rewards; a game that ends is dealt
    /// again (its next episode). Returns whether it ended.
    fn step_slot(&self, slot: &mut Slot, action: Action, i: usize, n: usize, stop: Option<&AtomicBool>, reward: &mut [f32]) -> Result<bool, Error> {
        slot.state.apply_unchecked(action);
        slot.played.push(action);
        self.play_opponents(slot, stop)?;
        self.rewards(slot, reward);
        if !slot.state.is_over() {
            return Ok(false);
        }
        // The setup was validated: dealing again cannot fail.
        if let Ok(mut next) = self.deal_n(i, slot.episode + 1, n) {
            self.play_opponents(&mut next, stop)?;
            *slot = next;
        }
        Ok(true)
    }

    fn rewards(&self, slot: &mut Slot, out: &mut [f32]) {
        let s = &slot.state;
        match self.reward {
            RewardKind::Win => {
                if s.is_over() {
                    let r = s.returns();
                    for (o, v) in out.iter_mut().zip(r.iter()) {
                        *o = *v as f32;
                    }
                }
            }
            RewardKind::Score => {
                for (p, o) in out.iter_mut().enumerate() {
                    let now = s.score(p);
                    *o = (now - slot.scores[p]) as f32;
                    slot.scores[p] = now;
                }
            }
        }
    }
}
