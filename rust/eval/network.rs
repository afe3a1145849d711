//! A small network that values positions and ranks their actions, evaluated
//! inside the search without Python, at about the cost of a rollout.
//!
//! Shape (NNUE's, `docs/training.md`): the active [`features`] of the mover's
//! compact observation are summed into an accumulator of `hidden` floats
//! (plus a bias), clipped to `[0, 1]`; one dense layer of `hidden2` with
//! ReLU; then two heads: values for the four relative seats (solo: the
//! expected final score / 100 of the player; with rivals, softmax over the
//! seats in the game = chances to win), and one logit per action id, of
//! which only the legal ones are computed.
//!
//! Weights file: the line `dragoncastle-network`, a JSON header line (format,
//! observation version, action space, feature count and fingerprint, sizes,
//! and how the weights were trained), then the arrays as little-endian f32
//! in the order of [`Network::ARRAYS`].
//!
//! [`features`]: super::features

use std::io::{BufRead, BufReader, Read};
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use super::features::TABLE;
use super::rollout::RolloutEval;
use crate::action::{Action, ActionList, NUM_ACTIONS};
use crate::rng::SplitMix64;
use crate::search::{EvalError, Evaluator, MAX_SEATS};
use crate::state::observe::{COMPACT_OBSERVATION_SIZE, OBSERVATION_VERSION};
use crate::state::State;

/// The first line of a weights file.
pub const MAGIC: &str = "dragoncastle-network";
/// The layout of the file after the header.
pub const FORMAT: u32 = 1;

/// What a weights file says about itself.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Header {
    /// Layout of the file after the header ([`FORMAT`]).
    pub format: u32,
    /// The observation layout the features come from ([`OBSERVATION_VERSION`]): a new one means retraining.
    pub observation_version: u32,
    /// Action ids of the policy head ([`NUM_ACTIONS`]).
    pub num_actions: usize,
    /// Input features (the size of the feature table).
    pub features: usize,
    /// [`super::features::Table::fingerprint`], as hex.
    pub feature_fingerprint: String,
    /// Floats of the accumulator, the first layer (1 to 1024).
    pub hidden: usize,
    /// Floats of the second layer (1 to 1024).
    pub hidden2: usize,
    /// How the weights were made: the command, the seed, anything else.
    #[serde(default)]
    pub training: serde_json::Value,
}

impl Header {
    /// The header of a network of these sizes for this build's observation.
    pub fn new(hidden: usize, hidden2: usize, training: serde_json::Value) -> Header {
        Header {
            format: FORMAT,
            observation_version: OBSERVATION_VERSION,
            num_actions: NUM_ACTIONS,
            features: TABLE.count(),
            feature_fingerprint: format!("{:016x}", TABLE.fingerprint()),
            hidden,
            hidden2,
            training,
        }
    }

    /// Whether this build can use such weights; else why not.
    pub fn check(&self) -> Result<(), String> {
        let here = Header::new(self.hidden, self.hidden2, serde_json::Value::Null);
        if self.format != FORMAT {
            return Err(format!("weights file format {} (this version reads {FORMAT})", self.format));
        }
        if self.observation_version != here.observation_version {
            return Err(format!(
                "weights made for observation version {} (this version has {}): retrain them",
                self.observation_version, here.observation_version
            ));
        }
        if self.num_actions != here.num_actions {
            return Err(format!("weights made for {} action ids (this version has {})", self.num_actions, here.num_actions));
        }
        if self.features != here.features || self.feature_fingerprint != here.feature_fingerprint {
            return Err(format!(
                "weights made for other input features ({} features, fingerprint {}; this version has {}, {})",
                self.features, self.feature_fingerprint, here.features, here.feature_fingerprint
            ));
        }
        if !(1..=1024).contains(&self.hidden) || !(1..=1024).contains(&self.hidden2) {
            return Err(format!("layer sizes {} and {} out of range (1 to 1024)", self.hidden, self.hidden2));
        }
        Ok(())
    }
}

/// The weights.
#[derive(Clone, Debug, PartialEq)]
pub struct Network {
    /// What the weights file says about itself: sizes and compatibility.
    pub header: Header,
    /// Where the weights came from (`builtin`, a path), for messages and specs.
    pub source: String,
    /// Whether the weights were trained on solo games (`Some(true)`) or with
    /// rivals (`Some(false)`), from the header's `training.players`; `None`
    /// when it does not say. Read once: the search checks it per batch.
    pub solo: Option<bool>,
    /// `features × hidden`, row per feature.
    pub embed: Vec<f32>,
    /// `hidden`: the accumulator's bias.
    pub b0: Vec<f32>,
    /// `hidden × hidden2`, row per input.
    pub w1: Vec<f32>,
    /// `hidden2`: the second layer's bias.
    pub b1: Vec<f32>,
    /// `hidden2 × 4`.
    pub wv: Vec<f32>,
    /// `4`: the value head's bias, per relative seat.
    pub bv: Vec<f32>,
    /// `NUM_ACTIONS × hidden2`, row per action.
    pub wp: Vec<f32>,
    /// `NUM_ACTIONS`: the policy head's bias, per action id.
    pub bp: Vec<f32>,
}

/// The largest hidden layer (stack buffers).
const MAX_HIDDEN: usize = 1024;

impl Network {
    /// The arrays in file order, with their shapes.
    pub const ARRAYS: [&'static str; 8] = ["embed", "b0", "w1", "b1", "wv", "bv", "wp", "bp"];

    /// The shape of each array of [`Network::ARRAYS`] for a header.
    pub fn shapes(h: &Header) -> [(usize, usize); 8] {
        [
            (h.features, h.hidden),
            (1, h.hidden),
            (h.hidden, h.hidden2),
            (1, h.hidden2),
            (h.hidden2, MAX_SEATS),
            (1, MAX_SEATS),
            (h.num_actions, h.hidden2),
            (1, h.num_actions),
        ]
    }

    /// A network from its header and arrays (in [`Network::ARRAYS`] order).
    pub fn from_arrays(header: Header, arrays: Vec<Vec<f32>>) -> Result<Network, String> {
        header.check()?;
        let shapes = Network::shapes(&header);
        if arrays.len() != shapes.len() {
            return Err(format!("a network has {} arrays; got {}", shapes.len(), arrays.len()));
        }
        for ((name, (r, c)), a) in Network::ARRAYS.iter().zip(shapes).zip(&arrays) {
            if a.len() != r * c {
                return Err(format!("{name} must hold {r} x {c} numbers; got {}", a.len()));
            }
            if a.iter().any(|x| !x.is_finite()) {
                return Err(format!("{name} holds a number that is not finite"));
            }
        }
        let mut it = arrays.into_iter();
        let mut next = || it.next().unwrap_or_default();
        let solo = header.training["players"].as_u64().map(|p| p == 1);
        Ok(Network { header, source: String::new(), solo, embed: next(), b0: next(), w1: next(), b1: next(), wv: next(), bv: next(), wp: next(), bp: next() })
    }

    /// How the search uses these weights unless told otherwise, `(priors,
    /// rollout_weight)`: as the self-play that trained them did (the header's
    /// `training.config`, written by `dragoncastle train`), so that a network
    /// whose value alone was trained (`--targets siblings --priors 0`) is not
    /// asked for priors it never learnt. Without a record: PUCT on the
    /// network's priors, no rollouts.
    ///
    /// ```
    /// # use _core::eval::network::{Header, Network};
    /// let arrays = |h: &Header| Network::shapes(h).iter().map(|(r, c)| vec![0.0; r * c]).collect();
    /// let plain = Header::new(4, 2, serde_json::json!({"command": "test"}));
    /// assert_eq!(Network::from_arrays(plain.clone(), arrays(&plain)).unwrap().trained_use(), (true, 0.0));
    /// let siblings = Header::new(4, 2, serde_json::json!({"config": {"priors": 0, "rollout_weight": 0.5}}));
    /// assert_eq!(Network::from_arrays(siblings.clone(), arrays(&siblings)).unwrap().trained_use(), (false, 0.5));
    /// ```
    pub fn trained_use(&self) -> (bool, f64) {
        let config = &self.header.training["config"];
        let priors = config["priors"].as_f64().map_or(true, |p| p != 0.0);
        let weight = config["rollout_weight"].as_f64().filter(|w| (0.0..=1.0).contains(w)).unwrap_or(0.0);
        (priors, weight)
    }

    /// The arrays in file order.
    pub fn arrays(&self) -> [&[f32]; 8] {
        [&self.embed, &self.b0, &self.w1, &self.b1, &self.wv, &self.bv, &self.wp, &self.bp]
    }

    /// The file's bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = format!("{MAGIC}\n{}\n", serde_json::to_string(&self.header).unwrap_or_default()).into_bytes();
        for a in self.arrays() {
            for x in a {
                out.extend_from_slice(&x.to_le_bytes());
            }
        }
        out
    }

    /// Read a weights file's bytes; a clear message for anything wrong.
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, String> {
        Network::read(bytes, bytes.len() as u64)
    }

    /// Read a weights file of `len` bytes from `input`. The header comes
    /// first and says how many bytes of weights follow; they are compared
    /// with `len` before anything is allocated for them, and no more than
    /// that is ever read (a file that grows while read changes nothing).
    pub fn read(input: impl Read, len: u64) -> Result<Network, String> {
        let mut input = BufReader::new(input);
        let mut first = Vec::new();
        (&mut input).take(MAGIC.len() as u64 + 1).read_to_end(&mut first).map_err(|e| format!("cannot read the weights file: {e}"))?;
        if first.strip_suffix(b"\n") != Some(MAGIC.as_bytes()) {
            return Err(format!("not a dragoncastle weights file (its first line is not {MAGIC:?})"));
        }
        let header = line(&mut input, MAX_HEADER_BYTES)?.ok_or("the weights file ends before its header")?;
        let before_weights = first.len() + header.len() + 1;
        let header: Header = serde_json::from_slice(&header).map_err(|e| format!("the weights file's header is not valid: {e}"))?;
        header.check()?;
        let want = Network::body_bytes(&header);
        let have = len.saturating_sub(before_weights as u64);
        if have != want as u64 {
            return Err(format!("the weights file holds {have} bytes of weights; its header says {want}"));
        }
        let mut body = Vec::with_capacity(want);
        input.take(want as u64).read_to_end(&mut body).map_err(|e| format!("cannot read the weights: {e}"))?;
        if body.len() != want {
            return Err(format!("the weights file ends after {} of the {want} bytes of weights its header says", body.len()));
        }
        let sizes = Network::shapes(&header).map(|(r, c)| r * c);
        let mut floats = body.chunks_exact(4).map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]));
        let arrays = sizes.iter().map(|&n| floats.by_ref().take(n).collect()).collect();
        Network::from_arrays(header, arrays)
    }

    /// Bytes of weights after a header that [`Header::check`] accepted (its
    /// sizes are bounded, so this cannot overflow).
    fn body_bytes(h: &Header) -> usize {
        Network::shapes(h).iter().map(|(r, c)| r * c).sum::<usize>() * 4
    }

    /// The largest weights file this build reads: the longest header line
    /// and the largest layers [`Header::check`] allows (about 48 MB). A
    /// larger file is refused before a byte of it is read.
    pub fn max_file_bytes() -> u64 {
        let largest = Header::new(MAX_HIDDEN, MAX_HIDDEN, serde_json::Value::Null);
        (MAGIC.len() + 1 + MAX_HEADER_BYTES + 1 + Network::body_bytes(&largest)) as u64
    }

    /// Read the weights file at `path`, which must be a regular file of at
    /// most [`Network::max_file_bytes`]: a device (`/dev/zero`), a FIFO or
    /// a directory is refused before it is read.
    pub fn load(path: &str) -> Result<Network, String> {
        let (file, len) = open_regular(path, Network::max_file_bytes())?;
        let net = Network::read(file, len).map_err(|e| format!("model {path:?}: {e}"))?;
        Ok(Network { source: path.to_string(), ..net })
    }

    /// The network's answer for one position, seen by the seat to move:
    /// values for the relative seats (`[0]` the mover's) and a logit per
    /// action of `legal` (in its order).
    pub fn forward(&self, obs: &[u8], legal: &[Action], values: &mut [f32; MAX_SEATS], logits: &mut [f32]) {
        let (h, h2) = (self.header.hidden, self.header.hidden2);
        let mut acc = [0f32; MAX_HIDDEN];
        let acc = &mut acc[..h];
        acc.copy_from_slice(&self.b0);
        TABLE.active(obs, |f, w| {
            let row = &self.embed[f as usize * h..(f as usize + 1) * h];
            if w == 1.0 {
                for (a, x) in acc.iter_mut().zip(row) {
                    *a += x;
                }
            } else {
                for (a, x) in acc.iter_mut().zip(row) {
                    *a += w * x;
                }
            }
        });
        let mut z = [0f32; MAX_HIDDEN];
        let z = &mut z[..h2];
        z.copy_from_slice(&self.b1);
        for (i, &a) in acc.iter().enumerate() {
            let a = a.clamp(0.0, 1.0);
            if a != 0.0 {
                for (zj, w) in z.iter_mut().zip(&self.w1[i * h2..(i + 1) * h2]) {
                    *zj += a * w;
                }
            }
        }
        for x in z.iter_mut() {
            *x = x.max(0.0);
        }
        *values = [self.bv[0], self.bv[1], self.bv[2], self.bv[3]];
        for (i, &x) in z.iter().enumerate() {
            for (v, w) in values.iter_mut().zip(&self.wv[i * MAX_SEATS..(i + 1) * MAX_SEATS]) {
                *v += x * w;
            }
        }
        for (out, a) in logits.iter_mut().zip(legal) {
            let k = a.id() as usize;
            *out = self.bp[k] + self.wp[k * h2..(k + 1) * h2].iter().zip(z.iter()).map(|(w, x)| w * x).sum::<f32>();
        }
    }

    /// The values of the seats of the game from the raw outputs: solo, the
    /// output itself clipped to `[0, 1]`; with rivals, softmax over the seats
    /// in the game. `relative[k]` is relative seat `k`'s.
    pub fn seat_values(relative: &[f32; MAX_SEATS], players: usize, mover: usize, out: &mut [f64; MAX_SEATS]) {
        *out = [0.0; MAX_SEATS];
        if players == 1 {
            out[0] = (relative[0] as f64).clamp(0.0, 1.0);
            return;
        }
        let top = relative[..players].iter().copied().fold(f32::NEG_INFINITY, f32::max);
        // An array, not a Vec: this runs once per leaf.
        let mut exps = [0f64; MAX_SEATS];
        for (e, &x) in exps.iter_mut().zip(&relative[..players]) {
            *e = ((x - top) as f64).exp();
        }
        let total: f64 = exps[..players].iter().sum();
        for (k, e) in exps[..players].iter().enumerate() {
            out[(mover + k) % players] = e / total;
        }
    }
}

/// The longest header line read, in bytes: a header with its training
/// record is about a kilobyte.
pub const MAX_HEADER_BYTES: usize = 1 << 16;

/// The next line of `input` without its newline, read `max` bytes at most;
/// `None` at the end of the input.
fn line(input: &mut impl BufRead, max: usize) -> Result<Option<Vec<u8>>, String> {
    let mut out = Vec::new();
    input.take(max as u64 + 1).read_until(b'\n', &mut out).map_err(|e| format!("cannot read the weights file: {e}"))?;
    match out.pop() {
        None => Ok(None),
        Some(b'\n') => Ok(Some(out)),
        // No newline within the bound: longer than a header line may be (or
        // the file ends on it); either way not a line of a weights file.
        Some(_) if out.len() >= max => Err(format!("the weights file has a line longer than {max} bytes where its header should be")),
        Some(last) => {
            out.push(last);
            Ok(Some(out))
        }
    }
}

/// `path` opened for reading and its size, if it is a regular file of at
/// most `max` bytes. The check reads the metadata before opening, so a FIFO
/// is never opened by it (opening one for reading waits for a writer), and
/// again on the file opened, since the path may name something else by then.
fn open_regular(path: &str, max: u64) -> Result<(std::fs::File, u64), String> {
    let cannot = |e: std::io::Error| format!("cannot read the model {path:?}: {e}");
    let regular = |m: std::fs::Metadata| {
        if !m.is_file() {
            return Err(format!("the model {path:?} is not a regular file (it is {})", file_kind(&m.file_type())));
        }
        if m.len() > max {
            return Err(format!("the model {path:?} has {} bytes; a weights file has at most {max}", m.len()));
        }
        Ok(m.len())
    };
    regular(std::fs::metadata(path).map_err(cannot)?)?;
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    // A FIFO swapped in after the check above would make a plain open wait
    // for a writer; a non-blocking open returns at once (and changes nothing
    // for a regular file), and the check below then refuses it.
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::custom_flags(&mut options, libc::O_NONBLOCK);
    let file = options.open(path).map_err(cannot)?;
    let len = regular(file.metadata().map_err(cannot)?)?;
    Ok((file, len))
}

/// What a file that is not a regular file is, for a message.
fn file_kind(t: &std::fs::FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if t.is_fifo() {
            return "a FIFO";
        }
        if t.is_char_device() || t.is_block_device() {
            return "a device";
        }
        if t.is_socket() {
            return "a socket";
        }
    }
    if t.is_dir() {
        "a directory"
    } else {
        "of another kind"
    }
}

/// The weights shipped inside the package (`model=builtin`): made by the
/// command in their header (`docs/training.md`, "The shipped network").
const BUILTIN: &[u8] = include_bytes!("builtin.dcnet");

/// The network shipped inside the package (`model=builtin`), read once per
/// process.
pub fn builtin() -> Result<Network, String> {
    static NET: std::sync::OnceLock<Result<Network, String>> = std::sync::OnceLock::new();
    NET.get_or_init(|| Network::from_bytes(BUILTIN).map(|net| Network { source: "builtin".into(), ..net }))
        .clone()
        .map_err(|e| format!("the shipped network does not load: {e}"))
}

/// The network as the search's evaluator: priors (softmax of the legal
/// actions' logits) and values, with rollouts mixed in at `rollout_weight`.
#[derive(Clone, Debug)]
pub struct NetworkEval {
    /// The weights, shared by every search that uses them.
    pub net: Arc<Network>,
    /// The rollout evaluator mixed into the values when `rollout_weight > 0`.
    pub rollout: RolloutEval,
    /// The rollout's share of a leaf's value: `(1 - w) * network + w * rollout`; 0 uses the network
    /// alone and plays no rollout.
    pub rollout_weight: f64,
    /// Select by PUCT with the network's priors; without, the values alone
    /// replace the rollout in the rollout search's selection (UCB1, widening
    /// in the tuned heuristic's order).
    pub priors: bool,
    /// A learned cut-off (AlphaGo's value network at the end of a short
    /// rollout): play this many decisions with the rollout policy first, then
    /// value the position reached with the network (a game that ends sooner
    /// has its returns). With `rollout_weight > 0` the rollout then goes on to
    /// the end and is mixed in as usual. `None`: the network values the leaf.
    pub cutoff: Option<u32>,
}

impl NetworkEval {
    /// The network as a search's evaluator. `priors` and `rollout_weight`
    /// left out are those the network was trained with
    /// ([`Network::trained_use`]).
    pub fn new(net: Arc<Network>, rollout: RolloutEval, priors: Option<bool>, rollout_weight: Option<f64>, cutoff: Option<u32>) -> NetworkEval {
        let (trained_priors, trained_weight) = net.trained_use();
        NetworkEval { net, rollout, rollout_weight: rollout_weight.unwrap_or(trained_weight), priors: priors.unwrap_or(trained_priors), cutoff }
    }

    /// A solo value (a score) and a value with rivals (chances to win) are
    /// different quantities: weights trained for one are refused in the other.
    pub fn check_players(&self, players: usize) -> Result<(), String> {
        match self.net.solo {
            Some(solo) if solo != (players == 1) => Err(format!(
                "the network {:?} was trained for {}; this game has {} player{}",
                self.net.source,
                if solo { "solo games" } else { "games with rivals" },
                players,
                if players == 1 { "" } else { "s" }
            )),
            _ => Ok(()),
        }
    }
}

impl NetworkEval {
    /// Finite weights can still overflow to an infinite or NaN output, which
    /// the search cannot rank moves by (its values would be NaN, its root
    /// empty): such an answer stops the search, naming the network.
    fn finite(&self, values: &[f32], logits: &[f32]) -> Result<(), EvalError> {
        let bad = |what: &str, x: f32| EvalError(format!("the network {:?} gave {what} {x}: its weights overflow on this position", self.net.source));
        match (values.iter().find(|x| !x.is_finite()), logits.iter().find(|x| !x.is_finite())) {
            (Some(&x), _) => Err(bad("the value", x)),
            (None, Some(&x)) => Err(bad("the prior logit", x)),
            (None, None) => Ok(()),
        }
    }
}

impl Evaluator<State> for NetworkEval {
    fn gives_priors(&self) -> bool {
        self.priors
    }
    #[inline]
    fn order(&self, s: &State, m: Action) -> f64 {
        crate::agents::heuristic::move_value(s, m, &crate::agents::heuristic::Weights::TUNED)
    }
    fn evaluate(&self, leaves: &mut [State], rng: &mut SplitMix64, values: &mut [[f64; MAX_SEATS]], priors: &mut [f32]) -> Result<(), EvalError> {
        if let Some(s) = leaves.first() {
            self.check_players(s.players()).map_err(EvalError)?;
        }
        let mut obs = [0u8; COMPACT_OBSERVATION_SIZE];
        let mut legal = ActionList::default();
        let mut logits = [0f32; crate::action::MAX_LEGAL];
        for (i, (s, v)) in leaves.iter_mut().zip(values.iter_mut()).enumerate() {
            let mut raw = [0f32; MAX_SEATS];
            if self.priors {
                // The leaf's priors (and, without a cut-off, its value).
                let mover = s.current_player();
                s.compact_observation(mover, &mut obs);
                s.legal_actions_into(&mut legal);
                self.net.forward(&obs, &legal, &mut raw, &mut logits[..legal.len()]);
                self.finite(&raw[..s.players()], &logits[..legal.len()])?;
                Network::seat_values(&raw, s.players(), mover, v);
                let top = logits[..legal.len()].iter().copied().fold(f32::NEG_INFINITY, f32::max);
                let row = &mut priors[i * NUM_ACTIONS..(i + 1) * NUM_ACTIONS];
                for (a, &l) in legal.iter().zip(&logits[..legal.len()]) {
                    row[a.id() as usize] = (l - top).exp();
                }
            }
            if let Some(d) = self.cutoff {
                // Roll `d` decisions (the static estimate a cut rollout writes is replaced).
                RolloutEval { depth: Some(d), ..self.rollout }.roll(s, rng, v);
                if s.is_over() {
                    continue;
                }
            }
            if self.cutoff.is_some() || !self.priors {
                let mover = s.current_player();
                s.compact_observation(mover, &mut obs);
                legal.clear();
                self.net.forward(&obs, &legal, &mut raw, &mut logits[..0]);
                self.finite(&raw[..s.players()], &[])?;
                Network::seat_values(&raw, s.players(), mover, v);
            }
            if self.rollout_weight > 0.0 {
                let mut r = [0f64; MAX_SEATS];
                // After a learned cut-off the rollout goes on from where it stopped, to the end.
                let rollout = if self.cutoff.is_some() { RolloutEval { depth: None, ..self.rollout } } else { self.rollout };
                rollout.roll(s, rng, &mut r);
                for (x, y) in v.iter_mut().zip(r) {
                    *x = (1.0 - self.rollout_weight) * *x + self.rollout_weight * y;
                }
            }
        }
        Ok(())
    }
    fn terminal(&self, s: &State, out: &mut [f64; MAX_SEATS]) {
        *out = s.returns();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A network with small pseudo-random weights.
    pub(crate) fn random_network(seed: u64, hidden: usize, hidden2: usize) -> Network {
        let header = Header::new(hidden, hidden2, serde_json::json!({"command": "test", "seed": seed}));
        let mut rng = SplitMix64::new(seed);
        let arrays = Network::shapes(&header).iter().map(|(r, c)| (0..r * c).map(|_| (rng.unit() as f32 - 0.5) * 0.2).collect()).collect();
        Network::from_arrays(header, arrays).unwrap()
    }

    #[test]
    fn weights_round_trip_and_bad_files_are_refused() {
        let net = random_network(1, 16, 8);
        let bytes = net.to_bytes();
        assert_eq!(Network::from_bytes(&bytes).unwrap(), net);
        assert!(Network::from_bytes(b"hello\n{}\n").unwrap_err().contains("not a dragoncastle weights file"));
        assert!(Network::from_bytes(&bytes[..bytes.len() - 4]).unwrap_err().contains("bytes of weights"));
        let mut h = net.header.clone();
        h.observation_version = 2;
        let other = Network { header: h, ..net.clone() }.to_bytes();
        assert!(Network::from_bytes(&other).unwrap_err().contains("observation version 2"));
        let mut h = net.header.clone();
        h.feature_fingerprint = "0".into();
        assert!(Network::from_bytes(&Network { header: h, ..net.clone() }.to_bytes()).unwrap_err().contains("other input features"));
    }

    /// A fresh directory for a test's files.
    fn scratch(name: &str) -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!("dc-network-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn only_regular_files_of_a_bounded_size_are_read() {
        let dir = scratch("files");
        let net = random_network(3, 8, 4);
        let good = dir.join("good.dcnet");
        std::fs::write(&good, net.to_bytes()).unwrap();
        let loaded = Network::load(good.to_str().unwrap()).unwrap();
        assert_eq!((loaded.source.as_str(), loaded.arrays()), (good.to_str().unwrap(), net.arrays()));
        let refused = |path: &std::path::Path| Network::load(path.to_str().unwrap()).unwrap_err();
        assert!(refused(std::path::Path::new("/dev/zero")).contains("not a regular file (it is a device)"));
        assert!(refused(&dir).contains("a directory"));
        // Bigger than any weights file: refused by its size, unread.
        let huge = dir.join("huge.dcnet");
        std::fs::File::create(&huge).unwrap().set_len(1 << 30).unwrap();
        let e = refused(&huge);
        assert!(e.contains("1073741824 bytes") && e.contains("at most"), "{e}");
        // A header that promises more than the file holds, or less.
        let bytes = net.to_bytes();
        std::fs::write(&huge, &bytes[..bytes.len() - 8]).unwrap();
        assert!(refused(&huge).contains("bytes of weights"));
        std::fs::write(&huge, [&bytes[..], &[0; 4]].concat()).unwrap();
        assert!(refused(&huge).contains("bytes of weights"));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_header_line_is_read_with_a_bound() {
        let long = [format!("{MAGIC}\n").into_bytes(), vec![b' '; MAX_HEADER_BYTES + 10]].concat();
        assert!(Network::from_bytes(&long).unwrap_err().contains("longer than"));
        assert!(Network::from_bytes(format!("{MAGIC}\n").as_bytes()).unwrap_err().contains("ends before its header"));
        assert!(Network::from_bytes(&[0; 100]).unwrap_err().contains("not a dragoncastle weights file"));
        assert!(Network::max_file_bytes() < 64 << 20);
        assert_eq!(builtin().unwrap().source, "builtin");
    }

    #[test]
    fn the_search_runs_on_the_network() {
        let net = Arc::new(random_network(2, 32, 16));
        let eval = NetworkEval { net, rollout: RolloutEval::default(), rollout_weight: 0.0, priors: true, cutoff: None };
        for players in 1..=4 {
            let s = crate::setup::Setup::new(players, 3).state().unwrap();
            let cfg = crate::search::Config { iterations: Some(300), exploration: 1.0, ..Default::default() };
            let r = crate::search::search(&s, &cfg, &eval).unwrap();
            assert_eq!(r.iterations, 300);
            assert!(s.is_legal(r.best.unwrap()));
        }
    }

    #[test]
    fn a_learned_cutoff_values_the_position_the_rollout_reached() {
        let mut n = random_network(5, 16, 8);
        // Solo values inside (0, 1), where they are not clipped.
        n.bv[0] = 0.4;
        n.wv.iter_mut().for_each(|w| *w *= 0.01);
        let net = Arc::new(n);
        let s = crate::setup::Setup::new(1, 8).state().unwrap();
        let value = |e: &NetworkEval, seed: u64| {
            let mut leaves = [s];
            let mut v = [[0.0; MAX_SEATS]];
            e.evaluate(&mut leaves, &mut SplitMix64::new(seed), &mut v, &mut []).unwrap();
            (v[0][0], leaves[0])
        };
        let plain = NetworkEval { net: net.clone(), rollout: RolloutEval::default(), rollout_weight: 0.0, priors: false, cutoff: None };
        // A cut-off of 0 decisions is the network at the leaf.
        let zero = NetworkEval { cutoff: Some(0), ..plain.clone() };
        assert_eq!(value(&zero, 1).0, value(&plain, 1).0);
        // After d decisions: the network's value of the position the rollout policy reached.
        let four = NetworkEval { cutoff: Some(4), ..plain.clone() };
        let (v4, reached) = value(&four, 3);
        let mut rolled = s;
        RolloutEval { depth: Some(4), ..RolloutEval::default() }.roll(&mut rolled, &mut SplitMix64::new(3), &mut [0.0; MAX_SEATS]);
        assert_eq!(reached, rolled, "the same rollout, the same draws");
        assert_ne!(reached, s);
        let mut obs = [0u8; COMPACT_OBSERVATION_SIZE];
        rolled.compact_observation(0, &mut obs);
        let mut raw = [0f32; MAX_SEATS];
        net.forward(&obs, &ActionList::default(), &mut raw, &mut []);
        let mut want = [0.0; MAX_SEATS];
        Network::seat_values(&raw, 1, 0, &mut want);
        assert_eq!(v4, want[0]);
        assert_ne!(v4, value(&plain, 3).0);
        // A cut-off past the end is the game's own result, as the rollout's.
        let end = NetworkEval { cutoff: Some(10_000), ..plain.clone() };
        let (v_end, over) = value(&end, 7);
        assert!(over.is_over());
        let mut r = [0.0; MAX_SEATS];
        RolloutEval::default().roll(&mut s.clone(), &mut SplitMix64::new(7), &mut r);
        assert_eq!(v_end, r[0]);
        // Mixed: the rollout goes on from the cut to the end.
        let mixed = NetworkEval { rollout_weight: 0.5, ..four.clone() };
        let (vm, end_state) = value(&mixed, 3);
        assert!(end_state.is_over());
        assert!((vm - (0.5 * v4 + 0.5 * end_state.returns()[0])).abs() < 1e-9);
    }

    /// Finite weights whose outputs overflow to infinity (and NaN after the softmax).
    fn overflowing_network() -> Arc<Network> {
        let header = Header::new(8, 4, serde_json::json!({"command": "test"}));
        let arrays = Network::shapes(&header).iter().map(|(r, c)| vec![1e30; r * c]).collect();
        Arc::new(Network { source: "huge.dcnet".into(), ..Network::from_arrays(header, arrays).unwrap() })
    }

    #[test]
    fn a_network_that_overflows_stops_every_runner() {
        let net = overflowing_network();
        let cfg = crate::search::Config { iterations: Some(50), exploration: 1.0, ..Default::default() };
        for (priors, cutoff) in [(true, None), (false, None), (false, Some(2))] {
            let eval = NetworkEval { net: net.clone(), rollout: RolloutEval::default(), rollout_weight: 0.0, priors, cutoff };
            for players in [1, 2] {
                let s = crate::setup::Setup::new(players, 3).state().unwrap();
                let e = crate::search::search(&s, &cfg, &eval).unwrap_err();
                assert!(e.0.contains("\"huge.dcnet\"") && e.0.contains("inf"), "{}", e.0);
            }
        }
        let spec = crate::arena::Agent::Mcts {
            config: cfg,
            eval: crate::eval::LeafEval::Network(NetworkEval::new(net, RolloutEval::default(), None, None, None)),
            reuse: true,
            exploration: None,
        };
        let (stop, done) = (std::sync::atomic::AtomicBool::new(false), std::sync::atomic::AtomicUsize::new(0));
        let setup = crate::setup::Setup::new(2, 1);
        let arena = crate::arena::run(&[spec.clone(), crate::arena::Agent::Greedy], 3, &setup, 2, &done, &stop, 0);
        assert!(matches!(arena, Err(crate::error::Error::Eval(ref m)) if m.contains("huge.dcnet")), "{arena:?}");
        let mut out = vec![Default::default(); 3];
        let batch = crate::batch::playouts(&setup, &spec, 2, &mut out, &stop);
        assert!(matches!(batch, Err(crate::error::Error::Eval(_))), "{batch:?}");
        let selfplay = crate::selfplay::run(&setup, 2, &spec, 1, &done, &stop, None);
        assert!(matches!(selfplay, Err(crate::error::Error::Eval(_))));
    }

    #[test]
    fn seat_values_are_absolute() {
        let mut out = [0.0; MAX_SEATS];
        Network::seat_values(&[2.0, 0.0, 0.0, 9.0], 3, 2, &mut out);
        assert!(out[2] > out[0] && (out[0] - out[1]).abs() < 1e-12 && out[3] == 0.0);
        assert!((out.iter().sum::<f64>() - 1.0).abs() < 1e-9);
        Network::seat_values(&[0.47, 5.0, 0.0, 0.0], 1, 0, &mut out);
        assert!((out[0] - 0.47).abs() < 1e-6);
    }
}
