//! An agent at the table: [`Agent`], a built-in agent ready to play, and
//! [`Player`], that agent with its memory for one game (the search tree it
//! reuses, the planner's policy and plan) and the one decision every loop
//! calls, whatever runs it: the arena, batch playouts, self-play, the
//! vectorized environment's opponents, `agent.act` and the web table.
//!
//! Seed rule: decision `d` of the agent in seat `i` of the game dealt from
//! seed `g` draws from [`decision_rng`]`(g, i, d)`, a function of those three
//! numbers only; so a game's result never depends on the runner, on the
//! thread count, on which thread plays it, or on how a run is split into shards.

use std::sync::atomic::AtomicBool;

use super::spec::AgentSpec;
use super::{greedy_action, random_action};
use crate::action::{Action, ActionList};
use crate::error::{EvalError, Error};
use crate::eval::guided::Guided;
use crate::eval::LeafEval;
use crate::plan::pimc;
use crate::rng::{stream, SplitMix64};
use crate::search::{self, Config, Evaluator, SearchResult, Tree};
use crate::state::State;

/// A built-in agent ready to play: an [`AgentSpec`] with its budget
/// resolved and its model loaded. `E` values the search's leaves: rollouts
/// or a network ([`LeafEval`]), or a guide of the bindings' ([`Guided`]).
#[derive(Clone, Debug, PartialEq)]
#[allow(clippy::large_enum_variant)] // a handful per run: size does not matter
pub enum Agent<E = LeafEval> {
    /// A uniformly random legal action.
    Random,
    /// One decision of look-ahead with the greedy position value.
    Greedy,
    /// The Dragon of Ingenuity's priorities.
    Dragon,
    /// ISMCTS valuing leaves with `eval`; `config.seed` is ignored (each
    /// decision draws one by the seed rule). `exploration` is the constant
    /// given in the spec; `None` takes the default for the game played
    /// (solo or not), the reward and the evaluator.
    Mcts {
        /// Budgets and tuning of each decision's search.
        config: Config,
        /// How leaves are valued.
        eval: E,
        /// Keep the tree between the agent's moves.
        reuse: bool,
        /// The exploration constant of the spec; `None`: the default for the game.
        exploration: Option<f64>,
    },
    /// The solo planner.
    Plan {
        /// Budgets and shape of each decision.
        config: pimc::Config,
    },
}

/// What a leaf evaluation tells a decision besides values: its exploration
/// constant when the spec gives none.
pub trait Explore: Evaluator<State> {
    /// The constant that suits this evaluation in a solo game or not.
    fn default_exploration(&self, solo: bool) -> f64;
}

impl Explore for LeafEval {
    fn default_exploration(&self, solo: bool) -> f64 {
        LeafEval::default_exploration(self, solo)
    }
}

impl<G: Evaluator<State>> Explore for Guided<G>
where
    Guided<G>: Evaluator<State>,
{
    fn default_exploration(&self, solo: bool) -> f64 {
        Guided::default_exploration(self, solo)
    }
}

impl Agent {
    /// Parse `text` and load its model: [`AgentSpec::parse`] then [`AgentSpec::load`].
    pub fn parse(text: &str) -> Result<Agent, Error> {
        AgentSpec::parse(text)?.load()
    }
}

impl<E> Agent<E> {
    /// The same agent with its leaf evaluation replaced by `f(eval)`.
    pub fn map_eval<F>(self, f: impl FnOnce(E) -> F) -> Agent<F> {
        match self {
            Agent::Random => Agent::Random,
            Agent::Greedy => Agent::Greedy,
            Agent::Dragon => Agent::Dragon,
            Agent::Plan { config } => Agent::Plan { config },
            Agent::Mcts { config, eval, reuse, exploration } => Agent::Mcts { config, eval: f(eval), reuse, exploration },
        }
    }

    /// Whether a decision may take long (a search or a plan): runners then watch for Ctrl-C.
    pub fn searches(&self) -> bool {
        matches!(self, Agent::Mcts { .. } | Agent::Plan { .. })
    }

    /// Whether the agent reads what a player cannot see ([`AgentSpec::reads_hidden`]).
    pub fn reads_hidden(&self) -> bool {
        match self {
            Agent::Mcts { config, .. } => !config.determinize,
            Agent::Plan { config } => config.mode == pimc::Mode::Oracle,
            _ => false,
        }
    }
}

impl<E> Agent<E> {
    /// Refuses a game of `players` this agent cannot play: the planner with
    /// rivals, or what `eval_fits` says of its leaf evaluation (a network
    /// trained for solo games in a game with rivals, or the other way round).
    pub fn check_players_with(&self, players: usize, eval_fits: impl Fn(&E) -> Result<(), String>) -> Result<(), String> {
        match self {
            Agent::Mcts { eval, .. } => eval_fits(eval),
            Agent::Plan { .. } if players != 1 => {
                Err(format!("the planner (plan) plays solo games only; this game has {players} players (use mcts with rivals)"))
            }
            _ => Ok(()),
        }
    }
}

impl Agent<LeafEval> {
    /// [`Agent::check_players_with`] for the built-in leaf evaluations.
    pub fn check_players(&self, players: usize) -> Result<(), String> {
        self.check_players_with(players, |eval| match eval {
            LeafEval::Network(n) => n.check_players(players),
            LeafEval::Rollout(_) => Ok(()),
        })
    }
}

/// Who sits at a table: with rivals, or with a person, an agent that reads
/// the covered tiles would play a game nobody else can. Analysis (a solo
/// game run by a script, `dragoncastle solo --oracle`) allows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Table {
    /// Agents alone: a solo game, or analysis.
    Analysis,
    /// Rivals or a person play.
    Fair,
}

/// The one check that keeps an agent reading hidden information from a
/// fair table, with its one message.
pub fn check_table(reads_hidden: &[bool], players: usize, person: bool) -> Result<(), Error> {
    let table = if players > 1 || person { Table::Fair } else { Table::Analysis };
    match reads_hidden.iter().position(|&r| r) {
        Some(i) if table == Table::Fair => Err(Error::Setup(format!(
            "the agent in seat {i} reads the covered tiles (plan:mode=oracle, mcts:determinize=false): it is for analysis only, not for a table with rivals or a person"
        ))),
        _ => Ok(()),
    }
}

/// The generator of decision `decision` of the agent in `seat` of the game
/// dealt from `game_seed` (the module's seed rule).
pub fn decision_rng(game_seed: u64, seat: usize, decision: u32) -> SplitMix64 {
    SplitMix64::new(SplitMix64::stream(game_seed ^ ((seat as u64) << 56) ^ ((decision as u64) << 32), stream::AGENT).next_u64())
}

/// What a decision saw, for a record.
#[derive(Clone, Debug, Default, PartialEq)]
pub enum Stats {
    /// An agent that neither searches nor plans.
    #[default]
    None,
    /// The search's root statistics.
    Search(SearchResult<Action>),
    /// The planner's findings.
    Plan(pimc::Decision<Action>),
}

/// An agent with its memory for one game.
#[derive(Clone)]
pub struct Player<E = LeafEval> {
    agent: Agent<E>,
    /// The kept tree and how many moves of the game were played when it was rooted.
    tree: Option<(Tree<Action>, usize)>,
    /// The planner's warm policy or kept plan.
    plan: pimc::Memory<Action>,
    /// The moves played before the last decision that kept a memory.
    seen: Vec<Action>,
    buf: ActionList,
}

impl<E: std::fmt::Debug> std::fmt::Debug for Player<E> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Player").field("agent", &self.agent).field("keeps_tree", &self.tree.is_some()).finish_non_exhaustive()
    }
}

impl<E: Explore> Player<E> {
    /// `agent` at a new game.
    pub fn new(agent: Agent<E>) -> Player<E> {
        Player { agent, tree: None, plan: pimc::Memory::default(), seen: Vec::new(), buf: ActionList::default() }
    }

    /// The agent.
    pub fn agent(&self) -> &Agent<E> {
        &self.agent
    }

    /// The agent, to change how it values leaves (the bindings watch a Python evaluator per call).
    pub fn agent_mut(&mut self) -> &mut Agent<E> {
        &mut self.agent
    }

    /// Forget the game: the next decision starts afresh.
    pub fn forget(&mut self) {
        (self.tree, self.plan) = (None, pimc::Memory::default());
        self.seen.clear();
    }

    /// The decision for the seat to move of `s`, drawing from `rng`;
    /// `played` is every player decision of the game so far (the solo
    /// Dragon's moves left out): a memory kept at an earlier point of the
    /// same game goes on, any other is forgotten. A search or a plan stops
    /// early when `stop` is set. `None` when the game is over. An error is
    /// an evaluator's that stopped a search.
    pub fn decide(&mut self, s: &State, played: &[Action], rng: &mut SplitMix64, stop: Option<&AtomicBool>) -> Result<(Option<Action>, Stats), EvalError> {
        if !played.starts_with(&self.seen) {
            self.forget();
        }
        let out = match &self.agent {
            Agent::Random => (random_action(s, rng, &mut self.buf), Stats::None),
            Agent::Greedy => (greedy_action(s, rng), Stats::None),
            Agent::Dragon => (s.dragon_action(), Stats::None),
            Agent::Plan { config } => {
                let mut root = *s;
                // The planner never activates a Spirit: planning with them was
                // not stronger at equal time (`crate::eval::plan`).
                root.never_activate();
                let d = pimc::decide(&root, config, rng.next_u64(), &mut self.plan, stop);
                (d.best, Stats::Plan(d))
            }
            Agent::Mcts { config, eval, reuse, exploration } => {
                let exploration = exploration.unwrap_or_else(|| eval.default_exploration(s.is_solo()));
                let cfg = Config { seed: rng.next_u64(), exploration, ..*config };
                // Tree reuse: re-root the last tree along the moves played since.
                let old = self.tree.take().filter(|_| *reuse).and_then(|(mut t, from)| t.advance(&played[from.min(played.len())..]).then_some(t));
                let (r, tree) = search::search_until(s, &cfg, eval, old, stop)?;
                self.tree = tree.filter(|_| *reuse).map(|t| (t, played.len()));
                (r.best, Stats::Search(r))
            }
        };
        if self.tree.is_some() || self.plan.policy.is_some() || !self.plan.plan.is_empty() {
            self.seen.clear();
            self.seen.extend_from_slice(played);
        }
        Ok(out)
    }
}
