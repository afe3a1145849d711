//! Built-in agents as text, and how they draw their random numbers: the one
//! parser of agent specs (`random`, `greedy`, `dragon`,
//! `mcts:iterations=2000,c=0.3`; `docs/agents.md`) behind the arena,
//! playouts, self-play, the vectorized environment and the bindings, and the
//! one seed rule of their decisions.
//!
//! Seed rule: decision `d` of the agent in seat `i` of the game dealt from
//! seed `g` draws from [`decision_rng`]`(g, i, d)`, a function of those three
//! numbers only; so a game's result never depends on the thread count, on
//! which thread plays it, or on how a run is split into shards. (Batch
//! playouts of `random` and `greedy`, where every seat plays the same fixed
//! policy, draw from one stream per game instead, `rng::stream::PLAYOUT`:
//! a fresh generator per decision would cost them a tenth of their speed.)

use std::sync::atomic::AtomicBool;

use crate::action::{Action, ActionList};
use crate::agents::{greedy_action, random_action};
use crate::error::Error;
use std::sync::Arc;

use crate::eval::network::{Network, NetworkEval};
use crate::eval::{LeafEval, Reward, Rollout, RolloutEval};
use crate::plan::{pimc, Nested};
use crate::rng::{stream, SplitMix64};
use crate::search::{self, Config, EvalError, DEFAULT_ITERATIONS};
use crate::state::State;

/// A built-in agent as written, `name` or `name:key=value,...`
/// (`mcts:iterations=2000,c=0.3`; `docs/agents.md`): every setting a typed
/// field. Parsing is pure (a model path is kept, not opened: [`AgentSpec::load`]
/// opens it), and the text round-trips: `parse(&s.to_string()) == s`.
#[derive(Clone, Debug, PartialEq)]
pub enum AgentSpec {
    /// A uniformly random legal action.
    Random,
    /// One decision of look-ahead with the greedy position value (`docs/agents.md`).
    Greedy,
    /// The Dragon of Ingenuity's priorities (`docs/solo.md`).
    Dragon,
    /// ISMCTS (`crate::search`).
    Mcts(MctsSpec),
    /// The solo planner (`crate::plan`, `docs/plan.md`); with `determinize`
    /// false it plans on the true deal (the oracle, for analysis only).
    Plan(pimc::Config),
}

/// The settings of an `mcts` agent.
#[derive(Clone, Debug, PartialEq)]
pub struct MctsSpec {
    /// Budgets and tuning of each decision's search (`exploration` unused: see below).
    pub config: Config,
    /// Rollouts: the reward, the rollout policy and its epsilon, the depth.
    pub rollout: RolloutEval,
    /// Keep the tree between the agent's moves.
    pub reuse: bool,
    /// The exploration constant; `None`: the default for the game played.
    pub exploration: Option<f64>,
    /// A weights file or `builtin`: leaves are valued by that network.
    pub model: Option<String>,
    /// With a model: how much rollouts weigh in a leaf's value; `None`: as trained.
    pub rollout_weight: Option<f64>,
    /// With a model: whether its priors guide the selection; `None`: as trained.
    pub priors: Option<bool>,
    /// With a model: value a leaf this many rollout decisions later.
    pub cutoff: Option<u32>,
}

impl Default for MctsSpec {
    /// The spec `mcts`.
    fn default() -> Self {
        MctsSpec {
            config: Config { iterations: Some(DEFAULT_ITERATIONS), ..Config::default() },
            rollout: RolloutEval::default(),
            reuse: search::DEFAULT_REUSE,
            exploration: None,
            model: None,
            rollout_weight: None,
            priors: None,
            cutoff: None,
        }
    }
}

/// A built-in agent ready to play: an [`AgentSpec`] with its model loaded
/// (what the runners play).
#[derive(Clone, Debug, PartialEq)]
#[allow(clippy::large_enum_variant)] // a handful per arena: size does not matter
pub enum Agent {
    /// A uniformly random legal action.
    Random,
    /// One decision of look-ahead with the greedy position value.
    Greedy,
    /// The Dragon of Ingenuity's priorities.
    Dragon,
    /// ISMCTS valuing leaves with `eval` (rollouts, or a network);
    /// `config.seed` is ignored (each decision draws one by the seed rule).
    /// `reuse` keeps the tree between the agent's moves. `exploration` is the
    /// constant given in the spec; `None` takes the default for the game
    /// played (solo or not), the reward and the evaluator.
    Mcts {
        /// Budgets and tuning of each decision's search.
        config: Config,
        /// How leaves are valued.
        eval: LeafEval,
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

impl AgentSpec {
    /// Parse a spec; nothing is opened or read.
    ///
    /// ```
    /// use _core::arena::AgentSpec;
    /// let s = AgentSpec::parse("mcts:time=0.5,c=0.3,model=builtin").unwrap();
    /// assert_eq!(s.to_string(), "mcts:time=0.5,c=0.3,model=builtin");
    /// assert_eq!(AgentSpec::parse(&s.to_string()).unwrap(), s);
    /// assert!(AgentSpec::parse("mcts:c=0.3,exploration=0.4").is_err()); // one setting, two names
    /// ```
    pub fn parse(text: &str) -> Result<AgentSpec, Error> {
        let bad = |m: String| Error::Setup(format!("agent spec {text:?}: {m}"));
        let (name, params) = match text.split_once(':') {
            Some((n, p)) => (n.trim(), p.trim()),
            None => (text.trim(), ""),
        };
        let pairs = pairs(params).map_err(bad)?;
        let simple = |a: AgentSpec| if pairs.is_empty() { Ok(a) } else { Err(bad(format!("{name} takes no parameters"))) };
        match name {
            "random" => simple(AgentSpec::Random),
            "greedy" => simple(AgentSpec::Greedy),
            "dragon" => simple(AgentSpec::Dragon),
            "mcts" => parse_mcts(&pairs).map(AgentSpec::Mcts).map_err(bad),
            "plan" => parse_plan(&pairs).map(AgentSpec::Plan).map_err(bad),
            _ => Err(bad(format!("unknown agent {name:?} (random, greedy, dragon, mcts, plan)"))),
        }
    }

    /// The agent ready to play: its model file, if any, opened and checked.
    pub fn load(&self) -> Result<Agent, Error> {
        Ok(match self {
            AgentSpec::Random => Agent::Random,
            AgentSpec::Greedy => Agent::Greedy,
            AgentSpec::Dragon => Agent::Dragon,
            AgentSpec::Plan(config) => Agent::Plan { config: *config },
            AgentSpec::Mcts(m) => {
                let eval = match &m.model {
                    Some(path) => {
                        let net = load_model(path).map_err(|e| Error::Setup(format!("agent spec \"{self}\": {e}")))?;
                        LeafEval::Network(NetworkEval::new(Arc::new(net), m.rollout, m.priors, m.rollout_weight, m.cutoff))
                    }
                    None => LeafEval::Rollout(m.rollout),
                };
                let config = Config { exploration: m.exploration.unwrap_or_else(|| eval.default_exploration(false)), ..m.config };
                Agent::Mcts { config, eval, reuse: m.reuse, exploration: m.exploration }
            }
        })
    }
}

impl Agent {
    /// Parse `text` and load its model: [`AgentSpec::parse`] then [`AgentSpec::load`].
    pub fn parse(text: &str) -> Result<Agent, Error> {
        AgentSpec::parse(text)?.load()
    }

    /// Refuses a game of `players` this agent cannot play: a network trained
    /// for solo games in a game with rivals (or the other way round), the
    /// planner with rivals.
    pub fn check_players(&self, players: usize) -> Result<(), String> {
        match self {
            Agent::Mcts { eval: LeafEval::Network(n), .. } => n.check_players(players),
            Agent::Plan { .. } if players != 1 => {
                Err(format!("the planner (plan) plays solo games only; this game has {players} players (use mcts with rivals)"))
            }
            _ => Ok(()),
        }
    }

    /// Whether a decision may take long (a search or a plan): runners then watch for Ctrl-C.
    pub fn searches(&self) -> bool {
        matches!(self, Agent::Mcts { .. } | Agent::Plan { .. })
    }
}

/// `key=value` pairs of a spec, each setting given once under one name.
fn pairs(params: &str) -> Result<Vec<(&str, &str)>, String> {
    if params.is_empty() {
        return Ok(Vec::new());
    }
    let pairs: Vec<(&str, &str)> = params
        .split(',')
        .map(|kv| kv.split_once('=').map(|(k, v)| (k.trim(), v.trim())).ok_or_else(|| format!("expected key=value, got {kv:?}")))
        .collect::<Result<_, _>>()?;
    for (i, (k, _)) in pairs.iter().enumerate() {
        if let Some((other, _)) = pairs[..i].iter().find(|(o, _)| canonical(o) == canonical(k)) {
            return Err(if other == k { format!("{k} is given twice") } else { format!("{other} and {k} name one setting") });
        }
    }
    Ok(pairs)
}

fn number(k: &str, v: &str) -> Result<f64, String> {
    v.parse::<f64>().map_err(|_| format!("{k} must be a number, got {v:?}"))
}

fn whole(k: &str, v: &str) -> Result<u64, String> {
    v.parse::<u64>().map_err(|_| format!("{k} must be a whole number, got {v:?}"))
}

fn small(k: &str, v: &str) -> Result<u32, String> {
    whole(k, v).and_then(|n| u32::try_from(n).map_err(|_| format!("{k} is too large: {n}")))
}

fn parse_mcts(pairs: &[(&str, &str)]) -> Result<MctsSpec, String> {
    let mut m = MctsSpec { config: Config { iterations: None, ..Config::default() }, ..MctsSpec::default() };
    let mut rollout = m.rollout.rollout.name().0.to_string();
    let mut epsilon = 0.0f32;
    for &(k, v) in pairs {
        let cfg = &mut m.config;
        match k {
            "iterations" => cfg.iterations = Some(whole(k, v)?),
            "time" | "time_limit" => cfg.time_limit = Some(number(k, v)?),
            "threads" => cfg.threads = whole(k, v)?.min(u32::MAX as u64) as usize,
            "c" | "exploration" => m.exploration = Some(number(k, v)?),
            "reward" => m.rollout.reward = Reward::parse(v)?,
            "rollout" => rollout = v.to_string(),
            "epsilon" => epsilon = number(k, v)? as f32,
            "depth" | "rollout_depth" => m.rollout.depth = Some(small(k, v)?),
            "reuse" | "reuse_tree" => m.reuse = flag(k, v)?,
            "reuse_weight" => cfg.reuse_weight = number(k, v)?,
            "max_nodes" => cfg.max_nodes = whole(k, v)?.min(u32::MAX as u64) as usize,
            "widening" => cfg.widening = if matches!(v, "off" | "none") { None } else { Some(number(k, v)?) },
            "determinize" => cfg.determinize = flag(k, v)?,
            "temperature" | "tau" => cfg.temperature = number(k, v)?,
            "noise" => {
                // Dirichlet noise on the root's priors: alpha/fraction.
                let (a, f) = v.split_once('/').ok_or_else(|| format!("noise is alpha/fraction, got {v:?}"))?;
                cfg.noise = Some((number(k, a)?, number(k, f)?));
            }
            "model" if !v.is_empty() => m.model = Some(v.to_string()),
            "rollout_weight" | "lambda" => m.rollout_weight = Some(number(k, v)?),
            "cutoff" | "net_depth" => m.cutoff = Some(small(k, v)?),
            "priors" => m.priors = Some(flag(k, v)?),
            _ => return Err(format!("unknown MCTS parameter {k:?}")),
        }
    }
    if m.config.iterations.is_none() && m.config.time_limit.is_none() {
        m.config.iterations = Some(DEFAULT_ITERATIONS);
    }
    m.rollout.rollout = Rollout::parse(&rollout, epsilon)?;
    if let Some(w) = m.rollout_weight.filter(|w| !(0.0..=1.0).contains(w)) {
        return Err(format!("rollout_weight must be in [0, 1]; got {w}"));
    }
    if m.model.is_none() && (m.rollout_weight.is_some_and(|w| w != 0.0) || m.priors == Some(false) || m.cutoff.is_some()) {
        return Err("rollout_weight, priors and cutoff need a model".into());
    }
    // Checked with the exploration a run would take (any valid one).
    search::check(&Config { exploration: m.exploration.unwrap_or(Config::default().exploration), ..m.config })?;
    Ok(m)
}

impl std::fmt::Display for AgentSpec {
    /// The spec's text: its name, then the settings that differ from the
    /// defaults under their one name, in a fixed order.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (name, settings) = match self {
            AgentSpec::Random => ("random", Vec::new()),
            AgentSpec::Greedy => ("greedy", Vec::new()),
            AgentSpec::Dragon => ("dragon", Vec::new()),
            AgentSpec::Mcts(m) => ("mcts", mcts_settings(m)),
            AgentSpec::Plan(c) => ("plan", plan_settings(c)),
        };
        f.write_str(name)?;
        for (i, (k, v)) in settings.iter().enumerate() {
            write!(f, "{}{k}={v}", if i == 0 { ':' } else { ',' })?;
        }
        Ok(())
    }
}

/// Each setting of `m` that differs from `mcts`'s, as written.
fn mcts_settings(m: &MctsSpec) -> Vec<(&'static str, String)> {
    let (d, c) = (MctsSpec::default(), &m.config);
    let mut out = Vec::new();
    let mut put = |k: &'static str, differs: bool, v: String| {
        if differs {
            out.push((k, v));
        }
    };
    let iterations_default = c.time_limit.is_none() && c.iterations == d.config.iterations;
    put("iterations", c.iterations.is_some() && !iterations_default, c.iterations.unwrap_or(0).to_string());
    put("time", c.time_limit.is_some(), c.time_limit.unwrap_or(0.0).to_string());
    put("threads", c.threads != d.config.threads, c.threads.to_string());
    put("c", m.exploration.is_some(), m.exploration.unwrap_or(0.0).to_string());
    put("reward", m.rollout.reward != d.rollout.reward, m.rollout.reward.name().to_string());
    let (rollout, epsilon) = m.rollout.rollout.name();
    put("rollout", rollout != d.rollout.rollout.name().0, rollout.to_string());
    put("epsilon", epsilon != 0.0, epsilon.to_string());
    put("depth", m.rollout.depth.is_some(), m.rollout.depth.unwrap_or(0).to_string());
    put("reuse", m.reuse != d.reuse, m.reuse.to_string());
    put("reuse_weight", c.reuse_weight != d.config.reuse_weight, c.reuse_weight.to_string());
    put("max_nodes", c.max_nodes != d.config.max_nodes, c.max_nodes.to_string());
    put("widening", c.widening != d.config.widening, c.widening.map_or("none".into(), |w| w.to_string()));
    put("determinize", c.determinize != d.config.determinize, c.determinize.to_string());
    put("temperature", c.temperature != d.config.temperature, c.temperature.to_string());
    put("noise", c.noise.is_some(), c.noise.map_or(String::new(), |(a, f)| format!("{a}/{f}")));
    put("model", m.model.is_some(), m.model.clone().unwrap_or_default());
    put("rollout_weight", m.rollout_weight.is_some(), m.rollout_weight.unwrap_or(0.0).to_string());
    put("priors", m.priors.is_some(), m.priors.unwrap_or(true).to_string());
    put("cutoff", m.cutoff.is_some(), m.cutoff.unwrap_or(0).to_string());
    out
}

/// Each setting of `c` that differs from `plan`'s, as written.
fn plan_settings(c: &pimc::Config) -> Vec<(&'static str, String)> {
    let d = PLAN_DEFAULT;
    let mut out = Vec::new();
    let mut put = |k: &'static str, differs: bool, v: String| {
        if differs {
            out.push((k, v));
        }
    };
    let time_default = c.playouts.is_none() && c.time_limit == d.time_limit;
    put("time", c.time_limit.is_some() && !time_default, c.time_limit.unwrap_or(0.0).to_string());
    put("playouts", c.playouts.is_some(), c.playouts.unwrap_or(0).to_string());
    put("threads", c.threads != d.threads, c.threads.to_string());
    put("level", c.nested.level != d.nested.level, c.nested.level.to_string());
    put("iterations", c.nested.iterations != d.nested.iterations, c.nested.iterations.to_string());
    put("alpha", c.nested.alpha != d.nested.alpha, c.nested.alpha.to_string());
    put("temperature", c.nested.temperature != d.nested.temperature, c.nested.temperature.to_string());
    put("aggregate", c.aggregate != d.aggregate, c.aggregate.name().to_string());
    put("warm", c.warm != d.warm, c.warm.to_string());
    put("keep", c.keep != d.keep, c.keep.to_string());
    put("prune", c.prune != d.prune, c.prune.to_string());
    put("oracle", c.determinize != d.determinize, (!c.determinize).to_string());
    out
}

/// The one name of a setting that has two (`time` and `time_limit`, ...).
fn canonical(key: &str) -> &str {
    match key {
        "time_limit" => "time",
        "exploration" => "c",
        "rollout_depth" => "depth",
        "reuse_tree" => "reuse",
        "lambda" => "rollout_weight",
        "net_depth" => "cutoff",
        "tau" => "temperature",
        k => k,
    }
}

/// The planner's defaults (`docs/plan.md` has the measurements behind them).
pub const PLAN_DEFAULT: pimc::Config = pimc::Config {
    nested: Nested {
        level: 1,
        iterations: 100,
        alpha: 1.0,
        temperature: 0.25,
    },
    playouts: None,
    time_limit: Some(1.0),
    threads: 1,
    aggregate: pimc::Aggregate::Mean,
    warm: false,
    keep: false,
    determinize: true,
    prune: false,
};

/// A setting that is on or off, as every spec writes it.
fn flag(k: &str, v: &str) -> Result<bool, String> {
    match v {
        "true" | "on" | "1" | "yes" => Ok(true),
        "false" | "off" | "0" | "no" => Ok(false),
        _ => Err(format!("{k} is true or false, got {v:?}")),
    }
}

fn parse_plan(pairs: &[(&str, &str)]) -> Result<pimc::Config, String> {
    let mut cfg = pimc::Config {
        time_limit: None,
        ..PLAN_DEFAULT
    };
    let mut oracle = false;
    for &(k, v) in pairs {
        let num = |v: &str| {
            v.parse::<f64>()
                .map_err(|_| format!("{k} must be a number, got {v:?}"))
        };
        let int = |v: &str| {
            v.parse::<u64>()
                .map_err(|_| format!("{k} must be a whole number, got {v:?}"))
        };
        let small = |v: &str| {
            int(v).and_then(|n| u32::try_from(n).map_err(|_| format!("{k} is too large: {n}")))
        };
        match k {
            "time" | "time_limit" => cfg.time_limit = Some(num(v)?),
            "playouts" => cfg.playouts = Some(int(v)?),
            "threads" => cfg.threads = int(v)?.min(u32::MAX as u64) as usize,
            "level" => cfg.nested.level = small(v)?,
            "iterations" => cfg.nested.iterations = small(v)?,
            "alpha" => cfg.nested.alpha = num(v)?,
            "temperature" | "tau" => cfg.nested.temperature = num(v)?,
            "bias" => {
                if !flag(k, v)? {
                    cfg.nested.temperature = f64::INFINITY;
                }
            }
            "aggregate" => cfg.aggregate = pimc::Aggregate::parse(v)?,
            "warm" => cfg.warm = flag(k, v)?,
            "keep" => cfg.keep = flag(k, v)?,
            "prune" => cfg.prune = flag(k, v)?,
            "oracle" => oracle = flag(k, v)?,
            _ => return Err(format!("unknown plan parameter {k:?}")),
        }
    }
    if pairs.iter().any(|(k, _)| *k == "bias")
        && pairs.iter().any(|(k, _)| canonical(k) == "temperature")
    {
        return Err("bias=off and a temperature contradict each other".into());
    }
    if cfg.playouts.is_none() && cfg.time_limit.is_none() {
        cfg.time_limit = PLAN_DEFAULT.time_limit;
    }
    cfg.determinize = !oracle;
    cfg.check()?;
    Ok(cfg)
}

/// The weights of `model=`: a file written by `dragoncastle train`, or
/// `builtin`, the network shipped inside the package.
pub fn load_model(name: &str) -> Result<Network, String> {
    if name == "builtin" {
        return crate::eval::network::builtin();
    }
    Network::load(name)
}

/// The generator of decision `decision` of the agent in `seat` of the game
/// dealt from `game_seed` (the module's seed rule).
pub fn decision_rng(game_seed: u64, seat: usize, decision: u32) -> SplitMix64 {
    SplitMix64::new(
        SplitMix64::stream(
            game_seed ^ ((seat as u64) << 56) ^ ((decision as u64) << 32),
            stream::AGENT,
        )
        .next_u64(),
    )
}

/// One decision of `spec` for the seat to move, without tree reuse (for
/// callers that keep no per-seat memory); a search is abandoned when `stop`
/// is set. An error is a network's that stopped the search.
pub fn agent_action_until(
    spec: &Agent,
    s: &State,
    rng: &mut SplitMix64,
    buf: &mut ActionList,
    stop: Option<&AtomicBool>,
) -> Result<Option<Action>, EvalError> {
    Ok(match spec {
        Agent::Random => random_action(s, rng, buf),
        Agent::Greedy => greedy_action(s, rng),
        Agent::Dragon => s.dragon_action(),
        Agent::Plan { config } => plan_action(config, s, rng, &mut pimc::Memory::default(), stop).best,
        Agent::Mcts { config, eval, exploration, .. } => {
            search::search_until(s, &decision_config(config, eval, *exploration, s, rng), eval, None, stop)?.0.best
        }
    })
}

/// One decision of the planner for the seat to move of `s` (a solo game),
/// seeded from `rng`; `memory` carries the warm policy and the kept plan.
pub fn plan_action(
    config: &pimc::Config,
    s: &State,
    rng: &mut SplitMix64,
    memory: &mut pimc::Memory<Action>,
    stop: Option<&AtomicBool>,
) -> pimc::Decision<Action> {
    let mut root = *s;
    // The planner never activates a Spirit (`crate::eval::plan`).
    root.never_activate();
    pimc::decide(&root, config, rng.next_u64(), memory, stop)
}

/// The search settings of one decision: the spec's, a seed from the
/// decision's stream, and the default exploration where the spec gave none.
pub(crate) fn decision_config(
    config: &Config,
    eval: &LeafEval,
    exploration: Option<f64>,
    s: &State,
    rng: &mut SplitMix64,
) -> Config {
    let exploration = exploration.unwrap_or_else(|| eval.default_exploration(s.is_solo()));
    Config {
        seed: rng.next_u64(),
        exploration,
        ..*config
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs_parse_and_reject() {
        assert_eq!(Agent::parse("greedy").unwrap(), Agent::Greedy);
        let Agent::Mcts {
            config,
            eval,
            reuse,
            ..
        } = Agent::parse("mcts:iterations=50,c=0.3,rollout=random,reuse=true").unwrap()
        else {
            panic!()
        };
        let LeafEval::Rollout(eval) = eval else {
            panic!()
        };
        assert_eq!(
            (config.iterations, config.exploration, eval.rollout, reuse),
            (Some(50), 0.3, Rollout::Random, true)
        );
        // Tree reuse with the kept statistics weighed 0.2 unless told otherwise.
        let reuse_of = |text: &str| match Agent::parse(text).unwrap() {
            Agent::Mcts { config, reuse, .. } => (reuse, config.reuse_weight),
            _ => panic!(),
        };
        assert_eq!(reuse_of("mcts"), (true, 0.2));
        assert_eq!(reuse_of("mcts:reuse=false"), (false, 0.2));
        assert_eq!(reuse_of("mcts:reuse_weight=1"), (true, 1.0));
        for bad in [
            "mcts:iterations=x",
            "mcts:foo=1",
            "greedy:x=1",
            "mcts:iterations",
            "mcts:iterations=0",
            "mcts:time=-1",
            "nobody",
            "mcts:epsilon=2",
            "mcts:time=1e300",
            "mcts:max_nodes=2",
            "mcts:reuse_weight=0",
            "mcts:reuse_weight=1.5",
            "mcts:model=/nonexistent",
            "mcts:rollout_weight=0.5",
            "mcts:cutoff=4",
            "mcts:cutoff=x",
        ] {
            assert!(Agent::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn decisions_draw_from_the_game_the_seat_and_the_decision_only() {
        let a = decision_rng(7, 1, 3).next_u64();
        assert_eq!(a, decision_rng(7, 1, 3).next_u64());
        assert_ne!(a, decision_rng(7, 2, 3).next_u64());
        assert_ne!(a, decision_rng(7, 1, 4).next_u64());
        assert_ne!(a, decision_rng(8, 1, 3).next_u64());
    }
}

#[cfg(test)]
mod round_trip {
    use super::*;
    use proptest::prelude::*;

    fn mcts() -> impl Strategy<Value = AgentSpec> {
        let budget = (prop::option::of(1u64..1_000_000), prop::option::of(prop::sample::select(vec![0.01, 0.5, 1.0, 2.5])));
        let search = (1usize..9, prop::option::of(0.01f64..5.0), any::<bool>(), prop::sample::select(vec![0.1, 0.2, 1.0]), 1024usize..10_000_000);
        let tuning = (
            prop::option::of(0.0f64..3.0),
            any::<bool>(),
            prop::option::of((0.01f64..1.0, 0.0f64..1.0)),
            0.0f64..2.0,
            prop::sample::select(vec!["tuned", "greedy", "random"]),
            prop::sample::select(vec![0.0f32, 0.1, 0.25]),
            prop::option::of(1u32..200),
        );
        let net = prop::option::of((prop::option::of(0.0f64..1.0), prop::option::of(any::<bool>()), prop::option::of(1u32..9)));
        (budget, search, tuning, net, any::<bool>()).prop_map(|((iterations, time), s, t, net, margin)| {
            let mut m = MctsSpec::default();
            m.config.iterations = iterations.or(time.is_none().then_some(DEFAULT_ITERATIONS));
            m.config.time_limit = time;
            (m.config.threads, m.exploration, m.reuse, m.config.reuse_weight, m.config.max_nodes) = s;
            let (widening, determinize, noise, temperature, rollout, epsilon, depth) = t;
            (m.config.widening, m.config.determinize, m.config.noise, m.config.temperature) = (widening, determinize, noise, temperature);
            let epsilon = if rollout == "random" { 0.0 } else { epsilon };
            m.rollout = RolloutEval { rollout: Rollout::parse(rollout, epsilon).unwrap(), depth, reward: if margin { Reward::Margin } else { Reward::Win } };
            if let Some((weight, priors, cutoff)) = net {
                (m.model, m.rollout_weight, m.priors, m.cutoff) = (Some("weights/a.dcnet".into()), weight, priors, cutoff);
            }
            AgentSpec::Mcts(m)
        })
    }

    fn plan() -> impl Strategy<Value = AgentSpec> {
        let budget = (prop::option::of(prop::sample::select(vec![0.1, 1.0, 3.0])), prop::option::of(1u64..10_000_000), 1usize..9);
        let shape = (1u32..4, 1u32..200, prop::sample::select(vec![0.5, 1.0]), prop::sample::select(vec![0.1, 0.25, f64::INFINITY]));
        let flags = (0usize..4, any::<bool>(), any::<bool>(), any::<bool>(), any::<bool>());
        (budget, shape, flags).prop_map(|((time, playouts, threads), (level, iterations, alpha, temperature), (agg, warm, keep, prune, oracle))| {
            let time = if time.is_none() && playouts.is_none() { PLAN_DEFAULT.time_limit } else { time };
            let aggregate = [pimc::Aggregate::Mean, pimc::Aggregate::Vote, pimc::Aggregate::Best, pimc::Aggregate::Follow][agg];
            let follow = aggregate == pimc::Aggregate::Follow;
            AgentSpec::Plan(pimc::Config {
                nested: Nested { level, iterations, alpha, temperature },
                playouts,
                time_limit: time,
                // Follow: one thread, no kept plan, no pruning (`Config::check`).
                threads: if follow { 1 } else { threads },
                aggregate,
                warm,
                keep: keep && !follow,
                determinize: !oracle,
                prune: prune && !follow,
            })
        })
    }

    proptest! {
        /// `parse(display(s)) == s` for every agent (issue 38).
        #[test]
        fn specs_round_trip_as_text(s in prop_oneof![mcts(), plan(), Just(AgentSpec::Random), Just(AgentSpec::Greedy), Just(AgentSpec::Dragon)]) {
            let text = s.to_string();
            prop_assert_eq!(AgentSpec::parse(&text).unwrap(), s, "{}", text);
        }
    }

    #[test]
    fn parsing_opens_nothing() {
        // A model that does not exist parses (nothing is read) and fails to load.
        let s = AgentSpec::parse("mcts:iterations=5,model=/nonexistent/w.dcnet").unwrap();
        assert_eq!(s.to_string(), "mcts:iterations=5,model=/nonexistent/w.dcnet");
        assert!(s.load().unwrap_err().to_string().contains("/nonexistent/w.dcnet"));
        assert_eq!(AgentSpec::parse("mcts:time_limit=1,exploration=0.3,tau=1").unwrap().to_string(), "mcts:time=1,c=0.3,temperature=1");
    }
}
