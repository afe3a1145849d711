//! One table of settings per agent kind, as Stockfish's UCI options and
//! OpenSpiel's game parameters keep theirs: each setting's one name, the
//! other spellings it accepts, its type and range, and one line of help.
//! The table is the only place a setting is written: the spec parser, the
//! canonical text, the Python keywords, `agent.settings` and
//! `dragoncastle agents` all read it.
//!
//! ```
//! use _core::agents::spec::{AgentSpec, MCTS};
//! use _core::agents::settings::{self, Value};
//! let s = AgentSpec::parse("mcts:time_limit=0.5,c=0.3").unwrap();
//! assert_eq!(s.to_string(), "mcts:time=0.5,c=0.3");
//! let AgentSpec::Mcts(m) = &s else { unreachable!() };
//! let all = settings::values(MCTS, m);
//! assert!(all.contains(&("time", Value::Number(0.5))));
//! assert!(all.contains(&("iterations", Value::None)));
//! ```

/// A setting's value, whatever its kind.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    /// Not set (an optional setting: `iterations` when a time limit rules).
    None,
    /// On or off.
    Flag(bool),
    /// A whole number.
    Whole(u64),
    /// A real number (`inf` where the range allows it).
    Number(f64),
    /// A name from a fixed list, or a file path.
    Text(String),
    /// Two numbers, written `a/b`.
    Pair(f64, f64),
}

/// A setting's type and range.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Kind {
    /// `true`/`false` (`on`/`off`, `1`/`0`, `yes`/`no` in text).
    Flag,
    /// A whole number in `min..=max`.
    Whole {
        /// The least.
        min: u64,
        /// The most.
        max: u64,
    },
    /// A number in `min..=max`, `min` itself excluded when `open`.
    Number {
        /// The lower bound.
        min: f64,
        /// The most.
        max: f64,
        /// Whether `min` itself is excluded.
        open: bool,
    },
    /// One of these names.
    Choice(&'static [&'static str]),
    /// A file path or a name such as `builtin`; never opened by parsing.
    Path,
    /// Two numbers `a/b`, each at least 0.
    Pair,
}

/// One setting of an agent kind whose settings live in `S`.
pub struct Setting<S> {
    /// The one name: the spec's key and `agent.settings`' key.
    pub name: &'static str,
    /// Other spellings accepted as keys and keywords (`time_limit` for `time`).
    pub aliases: &'static [&'static str],
    /// Type and range.
    pub kind: Kind,
    /// Whether `none` (Python's `None`) is a value: the setting may be unset.
    pub optional: bool,
    /// One line of help: what it does and what its default means.
    pub help: &'static str,
    /// Reads the setting.
    pub get: fn(&S) -> Value,
    /// Writes a value already checked against `kind`.
    pub set: fn(&mut S, Value),
}

/// The setting of `table` spelt `key`.
pub fn find<'t, S>(table: &'t [Setting<S>], key: &str) -> Option<&'t Setting<S>> {
    table.iter().find(|s| s.name == key || s.aliases.contains(&key))
}

impl<S> Setting<S> {
    /// Checks `v` against the kind and the range: the one message per check.
    pub fn check(&self, v: &Value) -> Result<(), String> {
        let name = self.name;
        let bad = || format!("{name} must be {}; got {}", self.expects(), show(v));
        match (self.kind, v) {
            (_, Value::None) if self.optional => Ok(()),
            (Kind::Flag, Value::Flag(_)) => Ok(()),
            (Kind::Path, Value::Text(t)) if !t.trim().is_empty() && t.trim() == t => Ok(()),
            (Kind::Whole { min, max }, Value::Whole(n)) if (min..=max).contains(n) => Ok(()),
            (Kind::Number { min, max, open }, Value::Number(x)) if (*x > min || (!open && *x == min)) && *x <= max => Ok(()),
            (Kind::Choice(names), Value::Text(t)) if names.contains(&t.as_str()) => Ok(()),
            (Kind::Pair, Value::Pair(a, b)) if *a > 0.0 && a.is_finite() && (0.0..=1.0).contains(b) => Ok(()),
            _ => Err(bad()),
        }
    }

    /// What the setting takes, in words (for messages and the description).
    pub fn expects(&self) -> String {
        let none = if self.optional { " or none" } else { "" };
        let kind = match self.kind {
            Kind::Flag => "true or false".to_string(),
            Kind::Whole { min, max } if max == u64::MAX => format!("a whole number >= {min}"),
            Kind::Whole { min, max } => format!("a whole number from {min} to {max}"),
            Kind::Number { min, max, open } => {
                let low = if open { "(" } else { "[" };
                let high = if max.is_infinite() { "inf]".to_string() } else { format!("{max}]") };
                match (open, max == f64::MAX) {
                    (true, true) => format!("a number > {min}"),
                    (false, true) => format!("a number >= {min}"),
                    _ => format!("a number in {low}{min}, {high}"),
                }
            }
            Kind::Choice(names) => format!("one of {}", names.join(", ")),
            Kind::Path => "a weights file or builtin".to_string(),
            Kind::Pair => "alpha/fraction, alpha > 0 and a fraction in [0, 1]".to_string(),
        };
        kind + none
    }

    /// Reads a value written in a spec.
    pub fn read(&self, text: &str) -> Result<Value, String> {
        let v = match self.kind {
            _ if self.optional && (text == "none" || (text == "off" && self.kind != Kind::Flag)) => Value::None,
            Kind::Flag => match text {
                "true" | "on" | "1" | "yes" => Value::Flag(true),
                "false" | "off" | "0" | "no" => Value::Flag(false),
                _ => Value::Text(text.to_string()),
            },
            Kind::Whole { .. } => text.parse().map(Value::Whole).unwrap_or_else(|_| Value::Text(text.to_string())),
            Kind::Number { .. } => text.parse().map(Value::Number).unwrap_or_else(|_| Value::Text(text.to_string())),
            Kind::Choice(_) | Kind::Path if !text.is_empty() => Value::Text(text.to_string()),
            Kind::Pair => match text.split_once('/').map(|(a, b)| (a.parse(), b.parse())) {
                Some((Ok(a), Ok(b))) => Value::Pair(a, b),
                _ => Value::Text(text.to_string()),
            },
            _ => Value::Text(text.to_string()),
        };
        self.check(&v).map(|()| v)
    }
}

/// A value as a spec writes it (`none`, `true`, `0.5`, `0.3/0.25`).
pub fn show(v: &Value) -> String {
    match v {
        Value::None => "none".into(),
        Value::Flag(b) => b.to_string(),
        Value::Whole(n) => n.to_string(),
        Value::Number(x) => x.to_string(),
        Value::Text(t) => format!("{t:?}"),
        Value::Pair(a, b) => format!("{a}/{b}"),
    }
}

/// `show`, with text bare (the spec's own form).
fn write(v: &Value) -> String {
    match v {
        Value::Text(t) => t.clone(),
        v => show(v),
    }
}

/// Settings given as `(key, value)` pairs, each checked and set on `out`;
/// a key unknown, or one setting given twice (under any of its names), is
/// an error. `read` turns a pair's value into a [`Value`] for its setting.
pub fn assign<S, V>(table: &[Setting<S>], kind: &str, pairs: &[(&str, V)], out: &mut S, read: impl Fn(&Setting<S>, &V) -> Result<Value, String>) -> Result<(), String> {
    for (i, (key, v)) in pairs.iter().enumerate() {
        let Some(setting) = find(table, key) else {
            let known: Vec<&str> = table.iter().map(|s| s.name).collect();
            return Err(format!("unknown {kind} setting {key:?} (known: {})", known.join(", ")));
        };
        if let Some((other, _)) = pairs[..i].iter().find(|(o, _)| find(table, o).is_some_and(|s| s.name == setting.name)) {
            return Err(if other == key { format!("{key} is given twice") } else { format!("{other} and {key} name one setting") });
        }
        let value = read(setting, v)?;
        (setting.set)(out, value);
    }
    Ok(())
}

/// Every setting of `s` by its one name, in the table's order.
pub fn values<S>(table: &[Setting<S>], s: &S) -> Vec<(&'static str, Value)> {
    table.iter().map(|t| (t.name, (t.get)(s))).collect()
}

/// `key=value` for each setting of `s` that differs from `default`, in the
/// table's order: the canonical text after the agent's name.
pub fn differences<S>(table: &[Setting<S>], s: &S, default: &S) -> Vec<String> {
    table
        .iter()
        .filter(|t| (t.get)(s) != (t.get)(default))
        .map(|t| format!("{}={}", t.name, write(&(t.get)(s))))
        .collect()
}

/// One line per setting: name (other spellings), what it takes, its
/// default, its help.
pub fn describe<S>(table: &[Setting<S>], default: &S) -> Vec<[String; 4]> {
    table
        .iter()
        .map(|t| {
            let name = if t.aliases.is_empty() { t.name.to_string() } else { format!("{} ({})", t.name, t.aliases.join(", ")) };
            [name, t.expects(), write(&(t.get)(default)), t.help.to_string()]
        })
        .collect()
}
