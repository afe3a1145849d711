//! Built-in agents as text, and how they draw their random numbers: the one
//! parser of agent specs (`random`, `greedy`, `dragon`,
//! `mcts:iterations=2000,c=0.3`; `docs/search.md`) behind the arena,
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

/// A built-in agent and its parameters, written `name` or `name:key=value,...`
/// (`mcts:iterations=2000,c=0.3`); see `docs/search.md`.
#[derive(Clone, Debug, PartialEq)]
#[allow(clippy::large_enum_variant)] // a handful per arena: size does not matter
pub enum AgentSpec {
    /// A uniformly random legal action.
    Random,
    /// One decision of look-ahead with the greedy position value (`docs/agents.md`).
    Greedy,
    /// The Dragon of Ingenuity's priorities (`docs/solo.md`).
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
    /// The solo planner (`crate::plan`, `docs/plan.md`): GNRPA over
    /// determinizations, replanning at every decision. With `config.determinize`
    /// false it plans on the true deal (the oracle, for analysis only).
    Plan {
        /// Budgets and shape of each decision.
        config: pimc::Config,
    },
}

impl AgentSpec {
    /// Parse a spec.
    pub fn parse(text: &str) -> Result<AgentSpec, Error> {
        let bad = |m: String| Error::Setup(format!("agent spec {text:?}: {m}"));
        let (name, params) = match text.split_once(':') {
            Some((n, p)) => (n.trim(), p.trim()),
            None => (text.trim(), ""),
        };
        let pairs: Vec<(&str, &str)> = if params.is_empty() {
            Vec::new()
        } else {
            params
                .split(',')
                .map(|kv| {
                    kv.split_once('=')
                        .map(|(k, v)| (k.trim(), v.trim()))
                        .ok_or_else(|| bad(format!("expected key=value, got {kv:?}")))
                })
                .collect::<Result<_, _>>()?
        };
        for (i, (k, _)) in pairs.iter().enumerate() {
            let canon = canonical(k);
            if let Some((other, _)) = pairs[..i].iter().find(|(o, _)| canonical(o) == canon) {
                return Err(bad(if other == k {
                    format!("{k} is given twice")
                } else {
                    format!("{other} and {k} name one setting")
                }));
            }
        }
        let simple = |a: AgentSpec| {
            if pairs.is_empty() {
                Ok(a)
            } else {
                Err(bad(format!("{name} takes no parameters")))
            }
        };
        match name {
            "random" => simple(AgentSpec::Random),
            "greedy" => simple(AgentSpec::Greedy),
            "dragon" => simple(AgentSpec::Dragon),
            "mcts" => {
                let mut cfg = Config {
                    iterations: None,
                    ..Config::default()
                };
                let mut eval = RolloutEval::default();
                let mut model: Option<Arc<Network>> = None;
                // Left out: as the network was trained (`NetworkEval::new`).
                let mut rollout_weight: Option<f64> = None;
                let mut priors: Option<bool> = None;
                let mut cutoff = None;
                let mut exploration = None;
                let mut epsilon = 0.0f32;
                let mut rollout = "tuned".to_string();
                let mut reuse = search::DEFAULT_REUSE;
                for (k, v) in pairs {
                    let num = |v: &str| {
                        v.parse::<f64>()
                            .map_err(|_| bad(format!("{k} must be a number, got {v:?}")))
                    };
                    let int = |v: &str| {
                        v.parse::<u64>()
                            .map_err(|_| bad(format!("{k} must be a whole number, got {v:?}")))
                    };
                    match k {
                        "iterations" => cfg.iterations = Some(int(v)?),
                        "time" | "time_limit" => cfg.time_limit = Some(num(v)?),
                        "threads" => cfg.threads = int(v)? as usize,
                        "c" | "exploration" => exploration = Some(num(v)?),
                        "reward" => eval.reward = Reward::parse(v).map_err(bad)?,
                        "rollout" => rollout = v.to_string(),
                        "epsilon" => epsilon = num(v)? as f32,
                        "depth" | "rollout_depth" => {
                            eval.depth = Some(int(v)?.min(u32::MAX as u64) as u32)
                        }
                        "reuse" | "reuse_tree" => reuse = flag(k, v).map_err(bad)?,
                        "determinize" => cfg.determinize = flag(k, v).map_err(bad)?,
                        "temperature" | "tau" => cfg.temperature = num(v)?,
                        "noise" => {
                            // Dirichlet noise on the root's priors: alpha/fraction.
                            let (a, f) = v.split_once('/').ok_or_else(|| {
                                bad(format!("noise is alpha/fraction, got {v:?}"))
                            })?;
                            cfg.noise = Some((num(a)?, num(f)?));
                        }
                        "reuse_weight" => cfg.reuse_weight = num(v)?,
                        "max_nodes" => cfg.max_nodes = int(v)? as usize,
                        "widening" => {
                            cfg.widening = if matches!(v, "off" | "none") {
                                None
                            } else {
                                Some(num(v)?)
                            }
                        }
                        "model" => model = Some(Arc::new(load_model(v).map_err(bad)?)),
                        "rollout_weight" | "lambda" => rollout_weight = Some(num(v)?),
                        "cutoff" | "net_depth" => {
                            cutoff = Some(int(v)?.min(u32::MAX as u64) as u32)
                        }
                        "priors" => priors = Some(flag(k, v).map_err(bad)?),
                        _ => return Err(bad(format!("unknown MCTS parameter {k:?}"))),
                    }
                }
                if cfg.iterations.is_none() && cfg.time_limit.is_none() {
                    cfg.iterations = Some(DEFAULT_ITERATIONS);
                }
                eval.rollout = Rollout::parse(&rollout, epsilon).map_err(bad)?;
                if let Some(w) = rollout_weight.filter(|w| !(0.0..=1.0).contains(w)) {
                    return Err(bad(format!("rollout_weight must be in [0, 1]; got {w}")));
                }
                let eval = match model {
                    Some(net) => LeafEval::Network(NetworkEval::new(
                        net,
                        eval,
                        priors,
                        rollout_weight,
                        cutoff,
                    )),
                    None if rollout_weight.is_some_and(|w| w != 0.0)
                        || priors == Some(false)
                        || cutoff.is_some() =>
                    {
                        return Err(bad("rollout_weight, priors and cutoff need a model".into()))
                    }
                    None => LeafEval::Rollout(eval),
                };
                cfg.exploration = exploration.unwrap_or_else(|| eval.default_exploration(false));
                search::check(&cfg).map_err(bad)?;
                Ok(AgentSpec::Mcts {
                    config: cfg,
                    eval,
                    reuse,
                    exploration,
                })
            }
            "plan" => parse_plan(&pairs).map_err(bad),
            _ => Err(bad(format!(
                "unknown agent {name:?} (random, greedy, dragon, mcts, plan)"
            ))),
        }
    }

    /// Refuses a game of `players` this agent cannot play: a network trained
    /// for solo games in a game with rivals (or the other way round), the
    /// planner with rivals.
    pub fn check_players(&self, players: usize) -> Result<(), String> {
        match self {
            AgentSpec::Mcts { eval: LeafEval::Network(n), .. } => n.check_players(players),
            AgentSpec::Plan { .. } if players != 1 => Err(format!(
                "the planner (plan) plays solo games only; this game has {players} players (use mcts with rivals)"
            )),
            _ => Ok(()),
        }
    }

    /// Whether a decision may take long (a search or a plan): runners then watch for Ctrl-C.
    pub fn searches(&self) -> bool {
        matches!(self, AgentSpec::Mcts { .. } | AgentSpec::Plan { .. })
    }
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

fn parse_plan(pairs: &[(&str, &str)]) -> Result<AgentSpec, String> {
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
    Ok(AgentSpec::Plan { config: cfg })
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
    spec: &AgentSpec,
    s: &State,
    rng: &mut SplitMix64,
    buf: &mut ActionList,
    stop: Option<&AtomicBool>,
) -> Result<Option<Action>, EvalError> {
    Ok(match spec {
        AgentSpec::Random => random_action(s, rng, buf),
        AgentSpec::Greedy => greedy_action(s, rng),
        AgentSpec::Dragon => s.dragon_action(),
        AgentSpec::Plan { config } => plan_action(config, s, rng, &mut pimc::Memory::default(), stop).best,
        AgentSpec::Mcts { config, eval, exploration, .. } => {
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
        assert_eq!(AgentSpec::parse("greedy").unwrap(), AgentSpec::Greedy);
        let AgentSpec::Mcts {
            config,
            eval,
            reuse,
            ..
        } = AgentSpec::parse("mcts:iterations=50,c=0.3,rollout=random,reuse=true").unwrap()
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
        let reuse_of = |text: &str| match AgentSpec::parse(text).unwrap() {
            AgentSpec::Mcts { config, reuse, .. } => (reuse, config.reuse_weight),
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
            assert!(AgentSpec::parse(bad).is_err(), "{bad}");
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
