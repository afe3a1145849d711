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
//! | 350..494   | `Destroy(space)` (Spirit of Destruction) |
//! | 494..510   | `Flip(cell)` (Wind)                      |
//! | 510..526   | `ShrineFrom(cell)` (Wind)                |
//! | 526..542   | `ShrineTo(cell)` (Wind)                  |
//! | 542..558   | `MoveFrom(cell)` (Strength)              |
//! | 558..574   | `MoveTo(cell)` (Strength)                |
//! | 574..590   | `Set(cell)` (Beauty, Cunning)            |
//! | 590..686   | `Change { cell, ty }`: 590 + cell * 6 + type |
//! | 686..1024  | reserved                                 |

mod list;

pub use list::{ActionList, LEGAL_BOUND, MAX_LEGAL};

use std::fmt;

use crate::error::Error;
use crate::coords::{Cell, Space};
use crate::layout::{MAX_COLS, MAX_ROWS, SPACES};
use crate::realm::{CELLS, SIDE};
use crate::tile::TileType;

/// Size of the action-id space: ids `0..1024` whatever the layout and the player count, so
/// masks and policy heads have one fixed shape (ids `686..1024` are reserved).
pub const NUM_ACTIONS: usize = 1024;
const PLACE0: u16 = SPACES as u16; // 144
const SHRINE0: u16 = PLACE0 + CELLS as u16; // 160
const TAKE_SHRINE: u16 = SHRINE0 + CELLS as u16; // 176
const DISCARD: u16 = TAKE_SHRINE + 1;
const SUMMON: u16 = DISCARD + 1;
const DONE: u16 = SUMMON + 1;
const SPIRIT0: u16 = DONE + 1; // 180
pub use crate::cards::spirit::{SPIRITS, SPIRIT_CARDS};
const PAY_OPTIONS: u16 = CELLS as u16 + 1;
const DESTROY0: u16 = SPIRIT0 + SPIRIT_CARDS as u16 * PAY_OPTIONS; // 350
const FLIP0: u16 = DESTROY0 + SPACES as u16; // 494
const SHRINE_FROM0: u16 = FLIP0 + CELLS as u16; // 510
const SHRINE_TO0: u16 = SHRINE_FROM0 + CELLS as u16; // 526
const MOVE_FROM0: u16 = SHRINE_TO0 + CELLS as u16; // 542
const MOVE_TO0: u16 = MOVE_FROM0 + CELLS as u16; // 558
const SET0: u16 = MOVE_TO0 + CELLS as u16; // 574
const CHANGE0: u16 = SET0 + CELLS as u16; // 590
const RESERVED0: u16 = CHANGE0 + (CELLS * TileType::COUNT) as u16; // 686

/// The kind of an [`Action`], without its space, cell or card: what a phase accepts
/// ([`crate::Phase::kinds`]), named as in `docs/actions.md`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ActionKind {
    /// `TAKE`: a castle tile, as the first pick or as the second tile of a Pair (R-ACT-4).
    Take,
    /// `TAKE_SHRINE`: complete the action with a Shrine from the general pool (Tile and Shrine).
    TakeShrine,
    /// `DISCARD`: complete the action by discarding the first tile for 1 VP.
    Discard,
    /// `SUMMON`: Summon the Dragon, taking a Countdown token (R-ACT-5).
    Summon,
    /// `PLACE`: put the next collected tile on a Realm cell (R-PLACE-1).
    Place,
    /// `SHRINE`: build a Shrine on a tile of a set Consolidated this turn (R-SHRINE-1).
    Shrine,
    /// `DONE`: end an optional step (the Shrine step, `SPIRITS`, `END_TURN`, Wind, Strength).
    Done,
    /// `SPIRIT`: activate a Spirit card, paying a face-up Realm tile or a Shrine (R-SPIRIT-1).
    Spirit,
    /// `DESTROY`: the castle tile Destruction discards.
    Destroy,
    /// `FLIP`: the face-up Realm tile Wind turns face down.
    Flip,
    /// `SHRINE_FROM`: the built Shrine Wind lifts.
    ShrineFrom,
    /// `SHRINE_TO`: where Wind puts the lifted Shrine.
    ShrineTo,
    /// `MOVE_FROM`: the Realm top tile Strength lifts.
    MoveFrom,
    /// `MOVE_TO`: where Strength puts the lifted tile.
    MoveTo,
    /// `SET`: the group Beauty or Cunning Consolidates.
    Set,
    /// `CHANGE`: the face-up Special tile Change counts as another type.
    Change,
}

impl ActionKind {
    /// The sixteen kinds in index order (`ActionKind` in Python numbers them so).
    pub const ALL: [ActionKind; 16] = [
        ActionKind::Take,
        ActionKind::TakeShrine,
        ActionKind::Discard,
        ActionKind::Summon,
        ActionKind::Place,
        ActionKind::Shrine,
        ActionKind::Done,
        ActionKind::Spirit,
        ActionKind::Destroy,
        ActionKind::Flip,
        ActionKind::ShrineFrom,
        ActionKind::ShrineTo,
        ActionKind::MoveFrom,
        ActionKind::MoveTo,
        ActionKind::Set,
        ActionKind::Change,
    ];

    /// The kind's upper-case name (`TAKE`, `TAKE_SHRINE`, …), as in `docs/actions.md`.
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
            ActionKind::Destroy => "DESTROY",
            ActionKind::Flip => "FLIP",
            ActionKind::ShrineFrom => "SHRINE_FROM",
            ActionKind::ShrineTo => "SHRINE_TO",
            ActionKind::MoveFrom => "MOVE_FROM",
            ActionKind::MoveTo => "MOVE_TO",
            ActionKind::Set => "SET",
            ActionKind::Change => "CHANGE",
        }
    }
}

/// One decision of the player to move, with a stable integer id in `0..NUM_ACTIONS`
/// ([`Action::id`], `docs/actions.md`) and a text form (`Display`, [`Action::parse`]).
///
/// ```
/// use _core::Action;
///
/// // Castle spaces are `row * 12 + col`; the id of a TAKE is its space.
/// let take = Action::parse("take 2,5").unwrap();
/// assert_eq!(take, Action::Take(2 * 12 + 5));
/// assert_eq!(take.id(), 29);
/// assert_eq!(Action::from_id(29).unwrap(), take);
/// assert_eq!(take.to_string(), "take 2,5");
///
/// // Activate Wind (card 2), paying a Shrine: id 180 + 2 * 17 + 16.
/// let wind = Action::parse("Spirit Wind shrine").unwrap();
/// assert_eq!(wind, Action::Spirit { card: 2, pay: None });
/// assert_eq!(wind.id(), 230);
/// assert_eq!(Action::parse(&wind.to_string()).unwrap(), wind);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Action {
    /// A castle pick, first or second tile; `space = row * 12 + col`.
    Take(u8),
    /// Place the next collected tile on a Realm cell.
    Place(u8),
    /// Build a Shrine on a just-consolidated tile.
    Shrine(u8),
    /// Tile and Shrine: complete the action with a Shrine from the general pool instead of a second tile.
    TakeShrine,
    /// Discard the first tile for 1 VP instead of placing it: it leaves the game.
    Discard,
    /// Summon the Dragon: take the rightmost Countdown token (2 VP). Allowed when every castle tile
    /// is on the ground floor, and the only action once the castle is empty (R-ACT-5).
    Summon,
    /// End an optional step (stop building Shrines, decline to use a Spirit).
    Done,
    /// Activate Spirit `card`, paying with a face-up tile (`Some(cell)`) or a Shrine.
    Spirit {
        /// The card, by index in [`SPIRITS`].
        card: u8,
        /// The payment: `Some(cell)` discards that face-up Realm tile, `None` a Shrine of the
        /// Shrine Pool.
        pay: Option<u8>,
    },
    /// Destruction: discard the Available top tile of a castle space.
    Destroy(u8),
    /// Wind: turn a face-up Realm tile face down.
    Flip(u8),
    /// Wind: lift the Shrine of a cell ...
    ShrineFrom(u8),
    /// ... and put it on this cell.
    ShrineTo(u8),
    /// Strength: lift the top tile of a cell ...
    MoveFrom(u8),
    /// ... and put it on this cell.
    MoveTo(u8),
    /// Beauty or Cunning: the group whose lowest cell this is.
    Set(u8),
    /// Change: treat the Special tile of `cell` as type `ty` (index in [`TileType::ALL`]).
    Change {
        /// The Realm cell of the face-up Special tile.
        cell: u8,
        /// The type it counts as (index in [`TileType::ALL`]).
        ty: u8,
    },
}

impl Action {
    /// The stable id in `0..NUM_ACTIONS` (the table of the module docs).
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
            Action::Destroy(s) => DESTROY0 + s as u16,
            Action::Flip(c) => FLIP0 + c as u16,
            Action::ShrineFrom(c) => SHRINE_FROM0 + c as u16,
            Action::ShrineTo(c) => SHRINE_TO0 + c as u16,
            Action::MoveFrom(c) => MOVE_FROM0 + c as u16,
            Action::MoveTo(c) => MOVE_TO0 + c as u16,
            Action::Set(c) => SET0 + c as u16,
            Action::Change { cell, ty } => CHANGE0 + cell as u16 * TileType::COUNT as u16 + ty as u16,
        }
    }

    /// The action of `id`: the inverse of [`Action::id`]. An id outside `0..NUM_ACTIONS`, or in
    /// the reserved block `686..1024`, is an [`Error::Parse`].
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
            _ if id < DESTROY0 => {
                let k = id - SPIRIT0;
                let (card, p) = ((k / PAY_OPTIONS) as u8, k % PAY_OPTIONS);
                Action::Spirit { card, pay: if p == CELLS as u16 { None } else { Some(p as u8) } }
            }
            _ if id < FLIP0 => Action::Destroy((id - DESTROY0) as u8),
            _ if id < SHRINE_FROM0 => Action::Flip((id - FLIP0) as u8),
            _ if id < SHRINE_TO0 => Action::ShrineFrom((id - SHRINE_FROM0) as u8),
            _ if id < MOVE_FROM0 => Action::ShrineTo((id - SHRINE_TO0) as u8),
            _ if id < MOVE_TO0 => Action::MoveFrom((id - MOVE_FROM0) as u8),
            _ if id < SET0 => Action::MoveTo((id - MOVE_TO0) as u8),
            _ if id < CHANGE0 => Action::Set((id - SET0) as u8),
            _ if id < RESERVED0 => {
                let k = id - CHANGE0;
                Action::Change { cell: (k / TileType::COUNT as u16) as u8, ty: (k % TileType::COUNT as u16) as u8 }
            }
            _ => return Err(Error::Parse(format!("action id {id} is reserved"))),
        })
    }

    /// The kind of this action, without its space, cell or card.
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
            Action::Destroy(_) => ActionKind::Destroy,
            Action::Flip(_) => ActionKind::Flip,
            Action::ShrineFrom(_) => ActionKind::ShrineFrom,
            Action::ShrineTo(_) => ActionKind::ShrineTo,
            Action::MoveFrom(_) => ActionKind::MoveFrom,
            Action::MoveTo(_) => ActionKind::MoveTo,
            Action::Set(_) => ActionKind::Set,
            Action::Change { .. } => ActionKind::Change,
        }
    }

    /// Parse the text notation of `Display` (case-insensitive, spaces optional
    /// around the comma): `take 2,5`, `place 1,3`, `shrine 0,0`, `take-shrine`,
    /// `discard`, `summon`, `done`, `spirit wind 1,2`, `spirit wind shrine`,
    /// `destroy 2,5`, `flip 1,1`, `shrine-from 0,0`, `shrine-to 1,0`, `move-from 0,1`,
    /// `move-to 3,3`, `set 2,2`, `change 1,2 merchant`.
    /// A bare integer is read as an id.
    pub fn parse(text: &str) -> Result<Action, Error> {
        let bad = |why: &str| Error::Parse(format!("cannot parse action \"{text}\": {why}"));
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
            let square = if rows == Space::ROWS { Space::new(r, c).map(Space::index) } else { Cell::new(r, c).map(Cell::index) };
            square.map(|i| i as u8).ok_or_else(|| bad(&format!("({r},{c}) is outside the {rows}x{cols} grid")))
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
            "destroy" => Ok(Action::Destroy(coords(rest, MAX_ROWS, MAX_COLS)?)),
            "flip" => Ok(Action::Flip(coords(rest, SIDE, SIDE)?)),
            "shrine-from" => Ok(Action::ShrineFrom(coords(rest, SIDE, SIDE)?)),
            "shrine-to" => Ok(Action::ShrineTo(coords(rest, SIDE, SIDE)?)),
            "move-from" => Ok(Action::MoveFrom(coords(rest, SIDE, SIDE)?)),
            "move-to" => Ok(Action::MoveTo(coords(rest, SIDE, SIDE)?)),
            "set" => Ok(Action::Set(coords(rest, SIDE, SIDE)?)),
            "change" => {
                let (at, ty) = rest.rsplit_once(char::is_whitespace).ok_or_else(|| bad("expected: change row,col TYPE"))?;
                let ty = TileType::ALL.iter().position(|t| t.name().eq_ignore_ascii_case(ty.trim())).ok_or_else(|| bad("unknown tile type"))?;
                Ok(Action::Change { cell: coords(at.trim(), SIDE, SIDE)?, ty: ty as u8 })
            }
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
        let space = |s: u8| Space::row_col_of(s as usize);
        let cell = |c: u8| Cell::row_col_of(c as usize);
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
            Action::Destroy(s) => write!(f, "destroy {},{}", space(s).0, space(s).1),
            Action::Flip(c) => write!(f, "flip {},{}", cell(c).0, cell(c).1),
            Action::ShrineFrom(c) => write!(f, "shrine-from {},{}", cell(c).0, cell(c).1),
            Action::ShrineTo(c) => write!(f, "shrine-to {},{}", cell(c).0, cell(c).1),
            Action::MoveFrom(c) => write!(f, "move-from {},{}", cell(c).0, cell(c).1),
            Action::MoveTo(c) => write!(f, "move-to {},{}", cell(c).0, cell(c).1),
            Action::Set(c) => write!(f, "set {},{}", cell(c).0, cell(c).1),
            Action::Change { cell: c, ty } => {
                let name = TileType::from_index(ty as usize).map(|t| t.name()).unwrap_or("?").to_ascii_lowercase();
                write!(f, "change {},{} {name}", cell(c).0, cell(c).1)
            }
        }
    }
}

#[cfg(test)]
mod tests;
