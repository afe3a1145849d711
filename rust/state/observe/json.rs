//! The observation as JSON-like data, for people and for Python.

use serde_json::{json, Value};

use crate::coords::{Cell, Space};
use crate::realm::SIDE;
use crate::state::State;
use crate::tile::Tile;

impl State {
    /// The observation of `seat` as JSON-like data (`observation(player)` in Python).
    pub fn observation(&self, seat: usize) -> Value {
        let c = &self.castle;
        let grid = |f: &dyn Fn(usize) -> Value| -> Value {
            (0..c.rows())
                .map(|r| (0..c.cols()).filter_map(|col| Space::new(r, col)).map(|s| f(s.index())).collect::<Vec<_>>())
                .collect::<Vec<_>>()
                .into()
        };
        let dragons_of = |seat: usize| -> Value {
            let b = self.breakdown(seat);
            let m: serde_json::Map<String, Value> = (0..crate::cards::DRAGON_CARDS)
                .filter(|k| self.dragons & (1 << k) != 0)
                .map(|k| (crate::cards::DRAGONS[k].to_string(), b.dragons[k].into()))
                .collect();
            Value::Object(m)
        };
        let realm = |seat: usize| -> Value {
            let p = &self.players[seat];
            let cells = |f: &dyn Fn(usize) -> Value| -> Value {
                (0..SIDE).map(|r| (0..SIDE).filter_map(|col| Cell::new(r, col)).map(|c| f(c.index())).collect::<Vec<_>>()).collect::<Vec<_>>().into()
            };
            json!({
                "heights": cells(&|i| p.realm.height(i).into()),
                "tops": cells(&|i| p.realm.face_up_tile(i).map(|t| t.code()).into()),
                "face_up": cells(&|i| (p.realm.face_up() & (1 << i) != 0).into()),
                "shrines": cells(&|i| p.realm.has_shrine(i).into()),
                "shrine_pool": p.shrine_pool,
                "vp": p.vp,
                "countdown": p.countdown,
                "score": self.score(seat),
                "dragons": dragons_of(seat),
            })
        };
        let hidden = self.hidden_counts();
        let hidden: serde_json::Map<String, Value> = Tile::all()
            .filter(|t| hidden[t.index() as usize] > 0)
            .map(|t| (t.code(), hidden[t.index() as usize].into()))
            .collect();
        let dragon: serde_json::Map<String, Value> = Tile::all()
            .filter(|t| self.dragon_tiles[t.index() as usize] > 0)
            .map(|t| (t.code(), self.dragon_tiles[t.index() as usize].into()))
            .collect();
        json!({
            "player": seat,
            "players": self.players(),
            "solo": self.solo,
            "dragon_tiles": dragon,
            "last_pick": (0..self.seats()).map(|p| self.last_pick[p].map(|t| t.name())).collect::<Vec<_>>(),
            "current_player": self.current,
            "phase": self.phase.name(),
            "turn": self.turn,
            "top_floor": c.top_floor(),
            "castle": {
                "rows": c.rows(),
                "cols": c.cols(),
                "heights": grid(&|s| c.height(s).into()),
                "tops": grid(&|s| c.top(s).map(|t| t.code()).into()),
                "available": grid(&|s| c.is_available(s).into()),
            },
            "hidden_tiles": hidden,
            "realms": (0..self.players()).map(realm).collect::<Vec<_>>(),
            "held": self.held().iter().map(|t| t.code()).collect::<Vec<_>>(),
            "general_shrines": self.general_shrines,
            "countdown_left": self.countdown_left(),
            "end_triggered": self.end_triggered,
            "discarded": self.discarded,
            "spirits": crate::cards::names(self.spirits, &crate::cards::SPIRITS),
            "dragons": crate::cards::names(self.dragons, &crate::cards::DRAGONS),
            "spirits_used": crate::cards::names(self.turn_cards.used, &crate::cards::SPIRITS),
            "elegance": self.turn_cards.elegance,
            "second_pick": self.turn_cards.second.name(),
            "faith_extra": self.turn_cards.faith_extra,
            "spirit_between_placements": self.turn_cards.apart,
        })
    }
}
