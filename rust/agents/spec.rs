//! Built-in agents as text: the one parser of agent specs (`random`,
//! `greedy`, `dragon`, `mcts:iterations=2000,c=0.3`, `plan:time=1`;
//! `docs/agents.md`), driven by one table of settings per agent kind
//! ([`MCTS`], [`PLAN`]; `super::settings`), behind every runner and the
//! bindings.

use std::sync::Arc;

pub use super::player::{decision_rng, Agent};
use super::settings::{self, Kind, Setting, Value};
use crate::error::Error;
use crate::eval::network::{Network, NetworkEval};
use crate::eval::{LeafEval, Reward, Rollout, RolloutEval};
use crate::limits::{MAX_THREADS, MAX_TIME_LIMIT};
use crate::plan::pimc::{self, Mode};
use crate::plan::{Nested, MAX_LEVEL};
use crate::search::{self, Config, DEFAULT_ITERATIONS};

/// A built-in agent as written, `name` or `name:key=value,...`: every
/// setting a typed field. Parsing is pure (a model path is kept, not opened:
/// [`AgentSpec::load`] opens it), and the text round-trips:
/// `parse(&s.to_string()) == s`.
#[derive(Clone, Debug, PartialEq)]
#[allow(clippy::large_enum_variant)] // a handful per run: size does not matter
pub enum AgentSpec {
    /// A uniformly random legal action.
    Random,
    /// One decision of look-ahead with the greedy position value (`docs/agents.md`).
    Greedy,
    /// The Dragon of Ingenuity's priorities (`docs/solo.md`).
    Dragon,
    /// ISMCTS (`crate::search`).
    Mcts(MctsSpec),
    /// The solo planner (`crate::plan`, `docs/plan.md`).
    Plan(pimc::Config),
}

/// The settings of an `mcts` agent, as the table [`MCTS`] reads and writes them.
#[derive(Clone, Debug, PartialEq)]
pub struct MctsSpec {
    /// Budgets and tuning of each decision's search; `iterations` and
    /// `time_limit` both `None` means [`DEFAULT_ITERATIONS`] (`exploration`
    /// unused: see below).
    pub config: Config,
    /// The rollouts: reward, policy, cut-off, Spirits.
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
            config: Config { iterations: None, ..Config::default() },
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

/// The spec `plan`: the strongest planner measured, what `dragoncastle
/// solo` plays (`docs/plan.md`); without a budget, one second per decision.
pub const PLAN_DEFAULT: pimc::Config = pimc::Config {
    nested: Nested { level: 2, iterations: 30, alpha: 1.0, temperature: 0.25 },
    playouts: None,
    time_limit: None,
    threads: 1,
    mode: Mode::Follow,
    warm: None,
};

/// Seconds per decision of a plan given no budget.
pub const PLAN_SECONDS: f64 = 1.0;

fn opt_num(v: Option<f64>) -> Value {
    v.map_or(Value::None, Value::Number)
}
fn opt_whole(v: Option<u64>) -> Value {
    v.map_or(Value::None, Value::Whole)
}
fn num(v: Value) -> Option<f64> {
    match v {
        Value::Number(x) => Some(x),
        _ => None,
    }
}
fn whole(v: Value) -> Option<u64> {
    match v {
        Value::Whole(n) => Some(n),
        _ => None,
    }
}
fn flag(v: Value) -> bool {
    v == Value::Flag(true)
}
fn text(v: Value) -> Option<String> {
    match v {
        Value::Text(t) => Some(t),
        _ => None,
    }
}
/// A name of `names` as the `'static` string the table holds.
fn choice(names: &'static [&'static str], v: Value) -> &'static str {
    let t = text(v).unwrap_or_default();
    names.iter().find(|n| **n == t).copied().unwrap_or(names[0])
}

const TIME: Kind = Kind::Number { min: 0.0, max: MAX_TIME_LIMIT, open: true };
const THREADS: Kind = Kind::Whole { min: 1, max: MAX_THREADS as u64 };
const POSITIVE: Kind = Kind::Number { min: 0.0, max: f64::MAX, open: true };
const NON_NEGATIVE: Kind = Kind::Number { min: 0.0, max: f64::MAX, open: false };
const UNIT: Kind = Kind::Number { min: 0.0, max: 1.0, open: false };
const REWARDS: &[&str] = &["win", "margin"];
const ROLLOUTS: &[&str] = &Rollout::NAMES;
const MODES: &[&str] = &["follow", "mean", "oracle"];

/// The settings of `mcts` (`docs/search.md` says what each does).
pub const MCTS: &[Setting<MctsSpec>] = &[
    Setting { name: "iterations", aliases: &[], kind: Kind::Whole { min: 1, max: u64::MAX }, optional: true, help: "iterations per decision (1000 when no time is given either)", get: |m| opt_whole(m.config.iterations), set: |m, v| m.config.iterations = whole(v) },
    Setting { name: "time", aliases: &["time_limit"], kind: TIME, optional: true, help: "seconds per decision, whichever budget ends first", get: |m| opt_num(m.config.time_limit), set: |m, v| m.config.time_limit = num(v) },
    Setting { name: "threads", aliases: &[], kind: THREADS, optional: false, help: "root-parallel trees sharing the iterations", get: |m| Value::Whole(m.config.threads as u64), set: |m, v| m.config.threads = whole(v).unwrap_or(1) as usize },
    Setting { name: "c", aliases: &["exploration"], kind: NON_NEGATIVE, optional: true, help: "the exploration constant (none: 0.5 with win, 0.05 with margin and in solo, 1 with a network's priors)", get: |m| opt_num(m.exploration), set: |m, v| m.exploration = num(v) },
    Setting { name: "reward", aliases: &[], kind: Kind::Choice(REWARDS), optional: false, help: "what a rollout's end is worth: a win, or the score margin (solo: the score)", get: |m| Value::Text(m.rollout.reward.name().into()), set: |m, v| m.rollout.reward = if choice(REWARDS, v) == "margin" { Reward::Margin } else { Reward::Win } },
    Setting { name: "rollout", aliases: &[], kind: Kind::Choice(ROLLOUTS), optional: false, help: "the rollout policy", get: |m| Value::Text(m.rollout.rollout.name().into()), set: |m, v| {
        // The table checked the name, so the parse cannot fail.
        m.rollout.rollout = Rollout::parse(choice(ROLLOUTS, v)).unwrap_or(Rollout::TUNED);
    } },
    Setting { name: "rollout_spirits", aliases: &[], kind: Kind::Flag, optional: false, help: "heuristic rollouts weigh Spirits as the greedy agent does, playing an effect out (slower; experimental)", get: |m| Value::Flag(m.rollout.spirits), set: |m, v| m.rollout.spirits = flag(v) },
    Setting { name: "depth", aliases: &["rollout_depth"], kind: Kind::Whole { min: 0, max: u32::MAX as u64 }, optional: true, help: "cut rollouts after so many decisions and value the position (none: play to the end)", get: |m| opt_whole(m.rollout.depth.map(u64::from)), set: |m, v| m.rollout.depth = whole(v).map(|d| d as u32) },
    Setting { name: "reuse", aliases: &["reuse_tree"], kind: Kind::Flag, optional: false, help: "keep the tree between the agent's moves", get: |m| Value::Flag(m.reuse), set: |m, v| m.reuse = flag(v) },
    Setting { name: "reuse_weight", aliases: &[], kind: Kind::Number { min: 0.0, max: 1.0, open: true }, optional: false, help: "the weight of a kept tree's statistics", get: |m| Value::Number(m.config.reuse_weight), set: |m, v| m.config.reuse_weight = num(v).unwrap_or(1.0) },
    Setting { name: "max_nodes", aliases: &[], kind: Kind::Whole { min: search::MIN_NODES as u64, max: search::MAX_NODES as u64 }, optional: false, help: "nodes per tree; past it iterations only evaluate", get: |m| Value::Whole(m.config.max_nodes as u64), set: |m, v| m.config.max_nodes = whole(v).unwrap_or(0) as usize },
    Setting { name: "widening", aliases: &[], kind: POSITIVE, optional: true, help: "progressive widening's constant (none: every legal move)", get: |m| opt_num(m.config.widening), set: |m, v| m.config.widening = num(v) },
    Setting { name: "determinize", aliases: &[], kind: Kind::Flag, optional: false, help: "search determinizations; false searches the true deal (reads hidden tiles: analysis only)", get: |m| Value::Flag(m.config.determinize), set: |m, v| m.config.determinize = flag(v) },
    Setting { name: "temperature", aliases: &["tau"], kind: NON_NEGATIVE, optional: false, help: "0 plays the most visited move; t > 0 draws by visits^(1/t) (self-play)", get: |m| Value::Number(m.config.temperature), set: |m, v| m.config.temperature = num(v).unwrap_or(0.0) },
    Setting { name: "noise", aliases: &[], kind: Kind::Pair, optional: true, help: "Dirichlet noise on the root's priors, alpha/fraction (self-play)", get: |m| m.config.noise.map_or(Value::None, |(a, f)| Value::Pair(a, f)), set: |m, v| m.config.noise = if let Value::Pair(a, f) = v { Some((a, f)) } else { None } },
    Setting { name: "model", aliases: &[], kind: Kind::Path, optional: true, help: "a weights file of dragoncastle train, or builtin: leaves valued by that network", get: |m| m.model.clone().map_or(Value::None, Value::Text), set: |m, v| m.model = text(v) },
    Setting { name: "rollout_weight", aliases: &["lambda"], kind: UNIT, optional: true, help: "with a model: the rollouts' weight in a leaf's value (none: as trained)", get: |m| opt_num(m.rollout_weight), set: |m, v| m.rollout_weight = num(v) },
    Setting { name: "priors", aliases: &[], kind: Kind::Flag, optional: true, help: "with a model: select by its priors (none: as trained)", get: |m| m.priors.map_or(Value::None, Value::Flag), set: |m, v| m.priors = if v == Value::None { None } else { Some(flag(v)) } },
    Setting { name: "cutoff", aliases: &["net_depth"], kind: Kind::Whole { min: 0, max: u32::MAX as u64 }, optional: true, help: "with a model: value a leaf this many rollout decisions later", get: |m| opt_whole(m.cutoff.map(u64::from)), set: |m, v| m.cutoff = whole(v).map(|d| d as u32) },
];

/// The settings of `plan` (`docs/plan.md` says what each does).
pub const PLAN: &[Setting<pimc::Config>] = &[
    Setting { name: "time", aliases: &["time_limit"], kind: TIME, optional: true, help: "seconds per decision, whichever budget ends first (1 when no playouts are given either)", get: |c| opt_num(c.time_limit), set: |c, v| c.time_limit = num(v) },
    Setting { name: "playouts", aliases: &[], kind: Kind::Whole { min: 1, max: u64::MAX }, optional: true, help: "playouts per decision", get: |c| opt_whole(c.playouts), set: |c, v| c.playouts = whole(v) },
    Setting { name: "mode", aliases: &[], kind: Kind::Choice(MODES), optional: false, help: "follow: one policy shared by the determinizations; mean: each move searched apart; oracle: plans on the true deal (reads hidden tiles: analysis only)", get: |c| Value::Text(c.mode.name().into()), set: |c, v| {
        let name = choice(MODES, v);
        c.mode = Mode::ALL[MODES.iter().position(|m| *m == name).unwrap_or(0)];
    } },
    Setting { name: "threads", aliases: &[], kind: THREADS, optional: false, help: "threads sharing the searches (mean and oracle; follow plans on one)", get: |c| Value::Whole(c.threads as u64), set: |c, v| c.threads = whole(v).unwrap_or(1) as usize },
    Setting { name: "level", aliases: &[], kind: Kind::Whole { min: 1, max: MAX_LEVEL as u64 }, optional: false, help: "nesting level of each search", get: |c| Value::Whole(c.nested.level.into()), set: |c, v| c.nested.level = whole(v).unwrap_or(1) as u32 },
    Setting { name: "iterations", aliases: &[], kind: Kind::Whole { min: 1, max: u32::MAX as u64 }, optional: false, help: "searches of the level below per level (iterations^level playouts a search)", get: |c| Value::Whole(c.nested.iterations.into()), set: |c, v| c.nested.iterations = whole(v).unwrap_or(1) as u32 },
    Setting { name: "alpha", aliases: &[], kind: POSITIVE, optional: false, help: "the adaptation step", get: |c| Value::Number(c.nested.alpha), set: |c, v| c.nested.alpha = num(v).unwrap_or(1.0) },
    Setting { name: "temperature", aliases: &["tau"], kind: Kind::Number { min: 0.0, max: f64::INFINITY, open: true }, optional: false, help: "the bias's temperature (inf: no bias, plain NRPA)", get: |c| Value::Number(c.nested.temperature), set: |c, v| c.nested.temperature = num(v).unwrap_or(1.0) },
    Setting { name: "warm", aliases: &[], kind: Kind::Flag, optional: true, help: "follow: carry the shared policy to the next decision (none: on)", get: |c| c.warm.map_or(Value::None, Value::Flag), set: |c, v| c.warm = if v == Value::None { None } else { Some(flag(v)) } },
];

/// Spellings of a setting's value under another key: `oracle=true` is `mode=oracle`.
const PLAN_FLAGS: &[(&str, &str, &str)] = &[("oracle", "mode", "oracle")];

/// The agent kinds and what each is, in the order `dragoncastle agents` lists them.
pub const KINDS: &[(&str, &str)] = &[
    ("random", "a uniformly random legal action"),
    ("greedy", "one decision of look-ahead with the greedy position value"),
    ("dragon", "the Dragon of Ingenuity's priorities"),
    ("mcts", "information-set MCTS with heuristic rollouts or a network"),
    ("plan", "the solo planner: nested rollout policy adaptation over determinizations"),
];

impl AgentSpec {
    /// Parse a spec; nothing is opened or read.
    ///
    /// ```
    /// use _core::arena::AgentSpec;
    /// let s = AgentSpec::parse("mcts:time=0.5,c=0.3,model=builtin").unwrap();
    /// assert_eq!(s.to_string(), "mcts:time=0.5,c=0.3,model=builtin");
    /// assert_eq!(AgentSpec::parse(&s.to_string()).unwrap(), s);
    /// assert!(AgentSpec::parse("mcts:c=0.3,exploration=0.4").is_err()); // one setting, two names
    /// assert_eq!(AgentSpec::parse("plan:time=1").unwrap().to_string(), "plan:time=1");
    /// ```
    pub fn parse(text: &str) -> Result<AgentSpec, Error> {
        let (name, params) = match text.split_once(':') {
            Some((n, p)) => (n.trim(), p.trim()),
            None => (text.trim(), ""),
        };
        let pairs = pairs(params).map_err(|m| spec_error(text, m))?;
        AgentSpec::from_pairs(name, &pairs, false, |s, v: &&str| s.read(v)).map_err(|m| spec_error(text, m))
    }

    /// The agent `name` with the settings `pairs` (a key and a value for
    /// `read` to turn into a [`Value`]): what the parser and the Python
    /// keywords share, so every entry point gives the same errors. `guided`:
    /// a Python evaluator stands in for a model (`rollout_weight` mixes into it).
    pub fn from_pairs<V>(name: &str, pairs: &[(&str, V)], guided: bool, read: impl Fn(&dyn Check, &V) -> Result<Value, String>) -> Result<AgentSpec, String> {
        let simple = |a: AgentSpec| if pairs.is_empty() { Ok(a) } else { Err(format!("{name} takes no settings")) };
        match name {
            "random" => simple(AgentSpec::Random),
            "greedy" => simple(AgentSpec::Greedy),
            "dragon" => simple(AgentSpec::Dragon),
            "mcts" => {
                let mut m = MctsSpec::default();
                settings::assign(MCTS, name, pairs, &mut m, |s, v| read(s, v))?;
                check_mcts(&m, guided).map(|()| AgentSpec::Mcts(m))
            }
            "plan" => {
                let mut c = PLAN_DEFAULT;
                let pairs = plan_flags(pairs, &read)?;
                settings::assign(PLAN, name, &pairs, &mut c, |s, v| match v {
                    Pending::Given(value) => s.check(value).map(|()| value.clone()),
                    Pending::Read(v) => read(s, v),
                })?;
                with_budget(c).check().map(|()| AgentSpec::Plan(c))
            }
            _ => Err(format!("unknown agent {name:?} ({})", KINDS.iter().map(|k| k.0).collect::<Vec<_>>().join(", "))),
        }
    }

    /// The agent ready to play: its budget resolved, its model file, if any,
    /// opened and checked.
    pub fn load(&self) -> Result<Agent, Error> {
        Ok(match self {
            AgentSpec::Random => Agent::Random,
            AgentSpec::Greedy => Agent::Greedy,
            AgentSpec::Dragon => Agent::Dragon,
            AgentSpec::Plan(config) => Agent::Plan { config: with_budget(*config) },
            AgentSpec::Mcts(m) => {
                let roll = m.rollout;
                let eval = match &m.model {
                    Some(path) => {
                        let net = load_model(path).map_err(|e| Error::Setup(format!("agent spec \"{self}\": {e}")))?;
                        LeafEval::Network(NetworkEval::new(Arc::new(net), roll, m.priors, m.rollout_weight, m.cutoff))
                    }
                    None => LeafEval::Rollout(roll),
                };
                let c = m.config;
                let iterations = c.iterations.or(c.time_limit.is_none().then_some(DEFAULT_ITERATIONS));
                let config = Config { iterations, exploration: m.exploration.unwrap_or_else(|| eval.default_exploration(false)), ..c };
                Agent::Mcts { config, eval, reuse: m.reuse, exploration: m.exploration }
            }
        })
    }

    /// Whether the agent reads what a player cannot see (the covered
    /// tiles): `plan:mode=oracle` and `mcts:determinize=false`. Such an agent
    /// is for analysis: [`check_table`] keeps it from a table with rivals
    /// or a person.
    pub fn reads_hidden(&self) -> bool {
        match self {
            AgentSpec::Mcts(m) => !m.config.determinize,
            AgentSpec::Plan(c) => c.mode == Mode::Oracle,
            _ => false,
        }
    }

    /// The seconds by the clock each decision may take, as the agent runs
    /// (a plan with no budget gets [`PLAN_SECONDS`]); `None` when only a count
    /// of iterations or playouts bounds it (a decision is then reproducible).
    pub fn clock(&self) -> Option<f64> {
        match self {
            AgentSpec::Mcts(m) => m.config.time_limit,
            AgentSpec::Plan(c) => with_budget(*c).time_limit,
            _ => None,
        }
    }

    /// The agent kind's name (`mcts`).
    pub fn kind(&self) -> &'static str {
        match self {
            AgentSpec::Random => "random",
            AgentSpec::Greedy => "greedy",
            AgentSpec::Dragon => "dragon",
            AgentSpec::Mcts(_) => "mcts",
            AgentSpec::Plan(_) => "plan",
        }
    }

    /// Every setting's value by its one name, in the table's order.
    pub fn values(&self) -> Vec<(&'static str, Value)> {
        match self {
            AgentSpec::Mcts(m) => settings::values(MCTS, m),
            AgentSpec::Plan(c) => settings::values(PLAN, c),
            _ => Vec::new(),
        }
    }
}

/// What a table row offers [`AgentSpec::from_pairs`]'s reader, whatever the agent kind.
pub trait Check {
    /// The setting's kind and whether it may be `none`.
    fn kind(&self) -> (Kind, bool);
    /// [`Setting::check`].
    fn check(&self, v: &Value) -> Result<(), String>;
    /// [`Setting::read`].
    fn read(&self, text: &str) -> Result<Value, String>;
}

impl<S> Check for Setting<S> {
    fn kind(&self) -> (Kind, bool) {
        (self.kind, self.optional)
    }
    fn check(&self, v: &Value) -> Result<(), String> {
        Setting::check(self, v)
    }
    fn read(&self, text: &str) -> Result<Value, String> {
        Setting::read(self, text)
    }
}

/// The checks across settings of `mcts` (each setting's own range is the table's).
fn check_mcts(m: &MctsSpec, guided: bool) -> Result<(), String> {
    if m.rollout.rollout == Rollout::Random && m.rollout.spirits {
        return Err("rollout_spirits applies to heuristic rollouts (tuned, greedy); random rollouts draw activations as any move".into());
    }
    if m.model.is_none() && (m.priors == Some(false) || m.cutoff.is_some() || (!guided && m.rollout_weight.is_some_and(|w| w != 0.0))) {
        return Err(if guided { "priors and cutoff need a model" } else { "rollout_weight, priors and cutoff need a model" }.into());
    }
    Ok(())
}

/// A plan setting's value: still to read, or given under another spelling.
enum Pending<'v, V> {
    Read(&'v V),
    Given(Value),
}

/// `oracle=true` as `mode=oracle` (`PLAN_FLAGS`): the pairs with such
/// spellings turned into their setting's value.
fn plan_flags<'a, 'v, V>(pairs: &'v [(&'a str, V)], read: &impl Fn(&dyn Check, &V) -> Result<Value, String>) -> Result<Vec<(&'a str, Pending<'v, V>)>, String> {
    let flag = Setting::<()> { name: "oracle", aliases: &[], kind: Kind::Flag, optional: false, help: "", get: |_| Value::None, set: |_, _| {} };
    pairs
        .iter()
        .map(|(k, v)| match PLAN_FLAGS.iter().find(|f| f.0 == *k) {
            Some(&(_, setting, value)) => {
                let on = read(&flag, v)? == Value::Flag(true);
                let default = settings::find(PLAN, setting).map_or(Value::None, |s| (s.get)(&PLAN_DEFAULT));
                Ok((setting, Pending::Given(if on { Value::Text(value.into()) } else { default })))
            }
            None => Ok((*k, Pending::Read(v))),
        })
        .collect()
}

/// A plan's settings with [`PLAN_SECONDS`] when no budget is given.
fn with_budget(c: pimc::Config) -> pimc::Config {
    pimc::Config { time_limit: c.time_limit.or(c.playouts.is_none().then_some(PLAN_SECONDS)), ..c }
}

/// The one error of a spec, whichever entry point read it (text or keywords).
fn spec_error(_text: &str, m: String) -> Error {
    Error::Setup(m)
}

/// `key=value` pairs of a spec.
fn pairs(params: &str) -> Result<Vec<(&str, &str)>, String> {
    if params.is_empty() {
        return Ok(Vec::new());
    }
    params
        .split(',')
        .map(|kv| kv.split_once('=').map(|(k, v)| (k.trim(), v.trim())).ok_or_else(|| format!("expected key=value, got {kv:?}")))
        .collect()
}

impl std::fmt::Display for AgentSpec {
    /// The spec's text: its name, then the settings that differ from the
    /// defaults under their one name, in the table's order.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let settings = match self {
            AgentSpec::Mcts(m) => settings::differences(MCTS, m, &MctsSpec::default()),
            AgentSpec::Plan(c) => settings::differences(PLAN, c, &PLAN_DEFAULT),
            _ => Vec::new(),
        };
        f.write_str(self.kind())?;
        if !settings.is_empty() {
            write!(f, ":{}", settings.join(","))?;
        }
        Ok(())
    }
}

/// Every agent kind with its help and its settings' descriptions
/// (`settings::describe`): what `dragoncastle agents` prints.
pub fn describe() -> Vec<(&'static str, &'static str, Vec<[String; 4]>)> {
    KINDS
        .iter()
        .map(|&(name, help)| {
            let rows = match name {
                "mcts" => settings::describe(MCTS, &MctsSpec::default()),
                "plan" => settings::describe(PLAN, &PLAN_DEFAULT),
                _ => Vec::new(),
            };
            (name, help, rows)
        })
        .collect()
}

/// The weights of `model=`: a file written by `dragoncastle train`, or
/// `builtin`, the network shipped inside the package.
pub fn load_model(name: &str) -> Result<Network, String> {
    if name == "builtin" {
        return crate::eval::network::builtin();
    }
    Network::load(name)
}

#[cfg(test)]
#[path = "spec_tests.rs"]
mod tests;
