//! A game's JSON record: its setup and every action, checked by replaying
//! it on load.

use serde::{Deserialize, Serialize};

use super::{Game, JSON_FORMAT, JSON_VERSION};
use crate::action::Action;
use crate::cards::{Cards, DRAGONS, SPIRITS};
use crate::error::Error;
use crate::layout::Layout;
use crate::setup::Setup;
use crate::state::{seeded_deal, Rules};
use crate::tile::Tile;

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct RulesJson {
    dragon_set_bonus: bool,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct SummaryJson {
    phase: String,
    current_player: usize,
    scores: Vec<i32>,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct GameJson {
    format: String,
    version: u32,
    players: usize,
    seed: Option<u64>,
    layout: String,
    rules: RulesJson,
    /// Cards in play by name (version 2; version 1 has none).
    #[serde(default)]
    spirits: Vec<String>,
    #[serde(default)]
    dragons: Vec<String>,
    /// Left out when `seed` makes it: a record that shows no covered tile.
    #[serde(default)]
    deal: Option<Vec<String>>,
    actions: Vec<i64>,
    /// Written for readers and checked on load; the replay is the truth.
    summary: Option<SummaryJson>,
    /// Free-form notes of the writer (the arena records its agents here);
    /// never written by `to_json` and ignored on load.
    #[serde(default, skip_serializing)]
    #[allow(dead_code)] // read only to check that it is an object
    meta: Option<serde_json::Map<String, serde_json::Value>>,
}

impl Game {
    /// The game as JSON: its setup and every action, replayed by [`Game::from_json`].
    pub fn to_json(&self) -> String {
        let j = GameJson {
            format: JSON_FORMAT.into(),
            version: JSON_VERSION,
            players: self.players,
            seed: self.seed,
            layout: self.layout.to_text(),
            rules: RulesJson { dragon_set_bonus: self.state.rules().dragon_set_bonus },
            spirits: self.spirit_names().into_iter().map(String::from).collect(),
            dragons: self.dragon_names().into_iter().map(String::from).collect(),
            deal: Some(self.deal.iter().map(|t| t.code()).collect()),
            actions: self.actions().map(|a| a.id() as i64).collect(),
            summary: Some(SummaryJson {
                phase: self.state.phase().name().into(),
                current_player: self.state.current_player(),
                scores: (0..self.players).map(|s| self.state.score(s)).collect(),
            }),
            meta: None,
        };
        serde_json::to_string(&j).unwrap_or_default() // plain data: serialization cannot fail
    }

    /// Load and check: the deal, the layout and every action are validated by
    /// replaying the game; a summary that disagrees with the replay is an error.
    pub fn from_json(text: &str) -> Result<Game, Error> {
        let bad = |m: String| Error::Setup(format!("invalid game JSON: {m}"));
        // Objects only: serde would also read a struct from a JSON array.
        let value: serde_json::Value = serde_json::from_str(text).map_err(|e| bad(e.to_string()))?;
        let object = |v: Option<&serde_json::Value>| v.is_none_or(|v| v.is_object() || v.is_null());
        if !value.is_object() || !object(value.get("rules")) || value.get("rules").is_some_and(|r| r.is_null()) || !object(value.get("summary")) {
            return Err(bad("the game, its rules and its summary must be JSON objects".into()));
        }
        let j: GameJson = serde_json::from_value(value).map_err(|e| bad(e.to_string()))?;
        if j.format != JSON_FORMAT {
            return Err(bad(format!("format is {:?}, expected {JSON_FORMAT:?}", j.format)));
        }
        if !(1..=JSON_VERSION).contains(&j.version) {
            return Err(bad(format!("version {} is not supported (this library reads 1 to 3, and writes {JSON_VERSION})", j.version)));
        }
        if j.version == 1 && (!j.spirits.is_empty() || !j.dragons.is_empty()) {
            return Err(bad("version 1 has no cards".into()));
        }
        // Spirits were offered in four windows only until version 3
        // (R-SPIRIT-2); the base game and the Dragons did not change.
        if j.version == 2 && !j.spirits.is_empty() {
            return Err(bad(
                "version 2 games with Spirit cards were recorded under the four-window Spirit rule withdrawn in 2026-12 \
                 (R-SPIRIT-2) and cannot be replayed"
                    .into(),
            ));
        }
        let layout = Layout::parse(&j.layout).map_err(|e| bad(e.to_string()))?;
        let deal = match (&j.deal, j.seed) {
            (Some(codes), _) => codes.iter().map(|c| Tile::parse(c)).collect::<Result<Vec<_>, _>>().map_err(|e| bad(e.to_string()))?,
            (None, Some(seed)) => seeded_deal(seed).to_vec(),
            (None, None) => return Err(bad("a game without a seed needs its deal".into())),
        };
        let rules = Rules { dragon_set_bonus: j.rules.dragon_set_bonus };
        let spirit_names: Vec<&str> = j.spirits.iter().map(String::as_str).collect();
        let dragon_names: Vec<&str> = j.dragons.iter().map(String::as_str).collect();
        let spirits = Cards::named(&spirit_names, &SPIRITS, "Spirit").map_err(|e| bad(e.to_string()))?;
        let dragons = Cards::named(&dragon_names, &DRAGONS, "Dragon").map_err(|e| bad(e.to_string()))?;
        let setup = Setup { layout: Some(layout), deal: Some(deal), ..Setup::new(j.players, 0).with_rules(rules).with_cards(spirits, dragons) };
        let mut g = Game::from_setup(&setup).map_err(|e| bad(e.to_string()))?;
        g.seed = j.seed;
        if let Some(seed) = j.seed {
            if seeded_deal(seed) != g.deal {
                return Err(bad(format!("the deal is not the one seed {seed} makes")));
            }
        }
        let mut k = 0;
        while k < j.actions.len() {
            let a = Action::from_id(j.actions[k]).map_err(|e| bad(format!("action {k}: {e}")))?;
            g.apply(a).map_err(|e| bad(format!("action {k}: {e}")))?;
            k += 1;
            // The Dragon of Ingenuity's recorded actions must be the ones it plays.
            for d in g.state.dragon_log() {
                if j.actions.get(k) != Some(&(d.id() as i64)) {
                    return Err(bad(format!("action {k}: the Dragon of Ingenuity plays {d} here")));
                }
                k += 1;
            }
        }
        if let Some(s) = j.summary {
            let scores: Vec<i32> = (0..g.players).map(|p| g.state.score(p)).collect();
            if s.phase != g.state.phase().name() || s.current_player != g.state.current_player() || s.scores != scores {
                return Err(bad("the summary does not match the replayed actions".into()));
            }
        }
        Ok(g)
    }
}
