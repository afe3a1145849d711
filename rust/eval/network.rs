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
//!
//! The file's reading is `file`; the search's evaluator is [`NetworkEval`].
//!
//! [`features`]: super::features

mod eval;
mod file;

pub use eval::NetworkEval;
pub use file::MAX_HEADER_BYTES;

use std::io::{BufReader, Read};

use serde::{Deserialize, Serialize};

use super::features::TABLE;
use crate::action::{Action, NUM_ACTIONS};
use crate::search::MAX_SEATS;
use crate::state::observe::OBSERVATION_VERSION;
use file::{line, open_regular};

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

#[cfg(test)]
mod tests;
