//! Atomic decisions and their stable integer ids (see `docs/actions.md`).
//!
//! | ids        | action                                   |
//! |------------|------------------------------------------|
//! | 0..144     | `Take(space)`, space = row * 12 + col    |
//! | 144..160   | `Place(cell)`, cell = row * 4 + col      |
//! | 160..176   | `Shrine(cell)`                           |
//! | 176        | `TakeShrine`                             |
//! | 177        | `Discard`                                |
//! | 178        | `Summon`                                 |
//! | 179        | `Done`                                   |
//! | 180..350   | `Spirit { card, pay }`: 180 + card * 17 + pay, pay 0..16 a cell, 16 a Shrine |
//! | 350..1024  | reserved for Spirit follow-up decisions  |

use std::fmt;

use crate::error::Error;
use crate::layout::{MAX_COLS, MAX_ROWS, SPACES};
use crate::realm::{CELLS, SIDE};

pub const NUM_ACTIONS: usize = 1024;
const PLACE0: u16 = SPACES as u16; // 144
const SHRINE0: u16 = PLACE0 + CELLS as u16; // 160
const TAKE_SHRINE: u16 = SHRINE0 + CELLS as u16; // 176
const DISCARD: u16 = TAKE_SHRINE + 1;
const SUMMON: u16 = DISCARD + 1;
const DONE: u16 = SUMMON + 1;
const SPIRIT0: u16 = DONE + 1; // 180
pub const SPIRIT_CARDS: usize = 10;
const PAY_OPTIONS: u16 = CELLS as u16 + 1;
const RESERVED0: u16 = SPIRIT0 + SPIRIT_CARDS as u16 * PAY_OPTIONS; // 350

/// Spirit card names in card-index order (R-SPIRIT-2).
pub const SPIRITS: [&str; SPIRIT_CARDS] =
    ["beauty", "elegance", "wind", "deception", "strength", "change", "faith", "destruction", "deep", "cunning"];

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ActionKind {
    Take,
    TakeShrine,
    Discard,
    Summon,
    Place,
    Shrine,
    Done,
    Spirit,
}

impl ActionKind {
    pub const fn name(self) -> &'static str {
        match self {
            ActionKind::Take => "TAKE",
            ActionKind::TakeShrine => "TAKE_SHRINE",
            ActionKind::Discard => "DISCARD",
            ActionKind::Summon => "SUMMON",
            ActionKind::Place => "PLACE",
            ActionKind::Shrine => "SHRINE",
            ActionKind::Done => "DONE",
            ActionKind::Spirit => "SPIRIT",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Action {
    /// A castle pick, first or second tile; `space = row * 12 + col`.
    Take(u8),
    /// Place the next collected tile on a Realm cell.
    Place(u8),
    /// Build a Shrine on a just-consolidated tile.
    Shrine(u8),
    TakeShrine,
    Discard,
    Summon,
    /// End an optional step (stop building Shrines, decline a Spirit window).
    Done,
    /// Activate Spirit `card`, paying with a face-up tile (`Some(cell)`) or a Shrine.
    Spirit { card: u8, pay: Option<u8> },
}

impl Action {
    pub const fn id(self) -> u16 {
        match self {
            Action::Take(s) => s as u16,
            Action::Place(c) => PLACE0 + c as u16,
            Action::Shrine(c) => SHRINE0 + c as u16,
            Action::TakeShrine => TAKE_SHRINE,
            Action::Discard => DISCARD,
            Action::Summon => SUMMON,
            Action::Done => DONE,
            Action::Spirit { card, pay } => {
                let p = match pay {
                    Some(c) => c as u16,
                    None => CELLS as u16,
                };
                SPIRIT0 + card as u16 * PAY_OPTIONS + p
            }
        }
    }

    pub fn from_id(id: i64) -> Result<Action, Error> {
        if id < 0 || id >= NUM_ACTIONS as i64 {
            return Err(Error::Parse(format!("action id {id} out of range 0..{NUM_ACTIONS}")));
        }
        let id = id as u16;
        Ok(match id {
            _ if id < PLACE0 => Action::Take(id as u8),
            _ if id < SHRINE0 => Action::Place((id - PLACE0) as u8),
            _ if id < TAKE_SHRINE => Action::Shrine((id - SHRINE0) as u8),
            TAKE_SHRINE => Action::TakeShrine,
            DISCARD => Action::Discard,
            SUMMON => Action::Summon,
            DONE => Action::Done,
            _ if id < RESERVED0 => {
                let k = id - SPIRIT0;
                let (card, p) = ((k / PAY_OPTIONS) as u8, k % PAY_OPTIONS);
                Action::Spirit { card, pay: if p == CELLS as u16 { None } else { Some(p as u8) } }
            }
            _ => return Err(Error::Parse(format!("action id {id} is reserved for Spirit follow-ups"))),
        })
    }

    pub const fn kind(self) -> ActionKind {
        match self {
            Action::Take(_) => ActionKind::Take,
            Action::Place(_) => ActionKind::Place,
            Action::Shrine(_) => ActionKind::Shrine,
            Action::TakeShrine => ActionKind::TakeShrine,
            Action::Discard => ActionKind::Discard,
            Action::Summon => ActionKind::Summon,
            Action::Done => ActionKind::Done,
            Action::Spirit { .. } => ActionKind::Spirit,
        }
    }

    /// Parse the text notation of `Display` (case-insensitive, spaces optional
    /// around the comma): `take 2,5`, `place 1,3`, `shrine 0,0`, `take-shrine`,
    /// `discard`, `summon`, `done`, `spirit wind 1,2`, `spirit wind shrine`.
    /// A bare integer is read as an id.
    pub fn parse(text: &str) -> Result<Action, Error> {
        let bad = |why: &str| Error::Parse(format!("cannot parse action {text:?}: {why}"));
        let t = text.trim().to_ascii_lowercase();
        if let Ok(id) = t.parse::<i64>() {
            return Action::from_id(id);
        }
        let (word, rest) = match t.find(char::is_whitespace) {
            Some(i) => (&t[..i], t[i..].trim()),
            None => (t.as_str(), ""),
        };
        let coords = |rest: &str, rows: usize, cols: usize| -> Result<u8, Error> {
            let (r, c) = rest.split_once(',').ok_or_else(|| bad("expected row,col"))?;
            let r: usize = r.trim().parse().map_err(|_| bad("row is not a number"))?;
            let c: usize = c.trim().parse().map_err(|_| bad("column is not a number"))?;
            if r >= rows || c >= cols {
                return Err(bad(&format!("({r},{c}) is outside the {rows}x{cols} grid")));
            }
            Ok((r * cols + c) as u8)
        };
        let no_args = |a: Action| if rest.is_empty() { Ok(a) } else { Err(bad("unexpected arguments")) };
        match word {
            "take" => Ok(Action::Take(coords(rest, MAX_ROWS, MAX_COLS)?)),
            "place" => Ok(Action::Place(coords(rest, SIDE, SIDE)?)),
            "shrine" => Ok(Action::Shrine(coords(rest, SIDE, SIDE)?)),
            "take-shrine" => no_args(Action::TakeShrine),
            "discard" => no_args(Action::Discard),
            "summon" => no_args(Action::Summon),
            "done" => no_args(Action::Done),
            "spirit" => {
                let (name, pay) = rest.split_once(char::is_whitespace).ok_or_else(|| bad("expected: spirit NAME row,col|shrine"))?;
                let card = SPIRITS.iter().position(|s| *s == name).ok_or_else(|| bad("unknown Spirit"))? as u8;
                let pay = pay.trim();
                let pay = if pay == "shrine" { None } else { Some(coords(pay, SIDE, SIDE)?) };
                Ok(Action::Spirit { card, pay })
            }
            _ => Err(bad("unknown action word")),
        }
    }
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let space = |s: u8| ((s as usize) / MAX_COLS, (s as usize) % MAX_COLS);
        let cell = |c: u8| ((c as usize) / SIDE, (c as usize) % SIDE);
        match *self {
            Action::Take(s) => write!(f, "take {},{}", space(s).0, space(s).1),
            Action::Place(c) => write!(f, "place {},{}", cell(c).0, cell(c).1),
            Action::Shrine(c) => write!(f, "shrine {},{}", cell(c).0, cell(c).1),
            Action::TakeShrine => f.write_str("take-shrine"),
            Action::Discard => f.write_str("discard"),
            Action::Summon => f.write_str("summon"),
            Action::Done => f.write_str("done"),
            Action::Spirit { card, pay } => {
                let name = SPIRITS.get(card as usize).copied().unwrap_or("?");
                match pay {
                    Some(c) => write!(f, "spirit {name} {},{}", cell(c).0, cell(c).1),
                    None => write!(f, "spirit {name} shrine"),
                }
            }
        }
    }
}

/// Capacity of a legal-action list. The base game needs at most 117
/// (`docs/actions.md` has the proof: at most 116 first picks plus Summon; the other
/// decisions have at most 17); the slack is for the Spirit cards.
pub const MAX_LEGAL: usize = 256;

/// A fixed-capacity list of legal actions: no allocation per decision.
#[derive(Clone, Copy)]
pub struct ActionList {
    len: u16,
    items: [Action; MAX_LEGAL],
}

impl Default for ActionList {
    fn default() -> Self {
        ActionList { len: 0, items: [Action::Done; MAX_LEGAL] }
    }
}

impl ActionList {
    #[inline]
    pub fn push(&mut self, a: Action) {
        // The bound is proven; in release an overflow would drop actions rather than panic.
        debug_assert!((self.len as usize) < MAX_LEGAL);
        if (self.len as usize) < MAX_LEGAL {
            self.items[self.len as usize] = a;
            self.len += 1;
        }
    }
    #[inline]
    pub fn clear(&mut self) {
        self.len = 0;
    }
    #[inline]
    pub fn len(&self) -> usize {
        self.len as usize
    }
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
    #[inline]
    pub fn as_slice(&self) -> &[Action] {
        &self.items[..self.len as usize]
    }
    pub fn contains(&self, a: Action) -> bool {
        self.as_slice().contains(&a)
    }
}

impl std::ops::Deref for ActionList {
    type Target = [Action];
    fn deref(&self) -> &[Action] {
        self.as_slice()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_round_trip() {
        for id in 0..NUM_ACTIONS as i64 {
            match Action::from_id(id) {
                Ok(a) => {
                    assert_eq!(a.id() as i64, id);
                    assert_eq!(Action::parse(&a.to_string()).unwrap(), a, "{a}");
                }
                Err(_) => assert!(id >= RESERVED0 as i64),
            }
        }
        assert!(Action::from_id(-1).is_err());
        assert!(Action::from_id(NUM_ACTIONS as i64).is_err());
    }

    #[test]
    fn parse_rejects_garbage() {
        for t in ["", "take", "take 12,0", "take 0,12", "place 4,0", "take a,b", "summon now", "fly", "spirit", "spirit x 1,1"] {
            assert!(Action::parse(t).is_err(), "{t:?}");
        }
        assert_eq!(Action::parse(" TAKE 2 , 5 ").unwrap(), Action::Take(29));
    }
}
