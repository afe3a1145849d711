//! Change: which Special tile may become which type, and which payments
//! keep such a choice; Cunning joins when Change makes a group of 3.

use crate::state::State;
use super::cells_of;
use crate::cards::spirit::*;
use crate::groups::SETS;
use crate::realm::{flood, neighbours, Realm};
use crate::tile::TileType;

impl State {
    /// Cunning is in play and unused: Change may complete a group of 3.
    pub(super) fn cunning_ready(&self) -> bool {
        self.spirits & !self.turn_cards.used & (1 << CUNNING) != 0
    }

    /// Change's payments in a settled Realm (no face-up group of >= 4): a
    /// choice is then legal iff its group is big enough, and a payment only
    /// matters when it is a tile of that group.
    pub(super) fn change_payments_settled(&self, realm: &Realm, pool: u8) -> (u16, bool) {
        let up = realm.face_up();
        let specials = realm.special_up();
        if specials == 0 {
            return (0, false);
        }
        let cunning = self.cunning_ready();
        if !cunning {
            // Every group is below 4, so the Special on `s` completes a set of
            // `ty` iff `ty`'s tiles with it hold a group of 4, and a payment
            // keeps that choice iff it leaves one: two table look-ups.
            let (mut cells, mut any) = (0u16, false);
            for ty in TileType::ALL {
                let of = realm.of_type(ty);
                // Fewer than 3 tiles: no group of 4 with one Special.
                let two_cleared = of & of.wrapping_sub(1);
                if two_cleared & two_cleared.wrapping_sub(1) == 0 {
                    continue;
                }
                // With every Special beside it at once no group of 4: with one, none either.
                let beside = neighbours(of) & specials & !of;
                if beside == 0 || !SETS.has(of | beside) {
                    continue;
                }
                for s in cells_of(beside) {
                    let with = of | 1 << s;
                    if SETS.has(with) {
                        any = true;
                        cells |= (up & !with) | (SETS.keeping(with) & of);
                    }
                }
            }
            return (cells, pool >= 1 && any);
        }
        // With Cunning ready, a group of 3 will do too.
        let (mut cells, mut shrine) = (0u16, false);
        // Enough tiles of `ty` in a group with the Special on `s`: 4, or 3
        // with Cunning paid next by a tile outside the group or a Shrine.
        let enough = |g: u16, up: u16, pool: u8| match g.count_ones() {
            n if n >= 4 => true,
            3 => pool >= 1 || up & !g != 0,
            _ => false,
        };
        for ty in TileType::ALL {
            let of = realm.of_type(ty);
            if of.count_ones() < 2 {
                continue;
            }
            for s in cells_of(neighbours(of) & specials & !of) {
                let g = flood(1 << s, of | 1 << s);
                if g.count_ones() < 3 {
                    continue;
                }
                shrine |= pool >= 1 && enough(g, up, pool - 1);
                // A tile outside the group leaves it whole.
                let outside = up & !g;
                // (With 3, Cunning is paid next: a Shrine, or another tile outside.)
                if g.count_ones() >= 4 || pool >= 1 || outside.count_ones() >= 2 {
                    cells |= outside;
                }
                // A tile of the group shrinks it, or splits it (a group of
                // exactly 4 then has 3: too few without Cunning).
                for c in cells_of(g & up & !(cells | 1 << s)) {
                    let b = 1u16 << c;
                    if enough(flood(1 << s, (of & !b) | 1 << s), up & !b, pool) {
                        cells |= b;
                    }
                }
            }
            if cells == up && (shrine || pool == 0) {
                break;
            }
        }
        (cells, shrine)
    }

    /// Change's payments while a group waits for Consolidation. Each choice
    /// (a Special tile and a type) rests on a region of the Realm: the group
    /// it would complete and the tile's own type's group. A payment outside
    /// the region keeps the unpaid answer (but for Cunning's own payment,
    /// outside a group of 3); inside it, the choice is judged again.
    pub(super) fn change_payments(&self, realm: &Realm, pool: u8) -> (u16, bool) {
        let up = realm.face_up();
        let need = if self.cunning_ready() { 2 } else { 3 };
        let (mut cells, mut shrine) = (0u16, false);
        for ty in TileType::ALL {
            let of = realm.of_type(ty);
            if of.count_ones() < need {
                continue;
            }
            for s in cells_of(neighbours(of) & realm.special_up() & !of) {
                let Some(own_type) = realm.face_up_tile(s).map(|t| t.tile_type()) else { continue };
                let own = realm.of_type(own_type);
                let region = flood(1 << s, of | 1 << s) | flood(1 << s, own);
                if let Some((g, three)) = self.change_fits(s, own, of, up, pool) {
                    let outside = up & !g;
                    if !three || pool >= 1 || outside.count_ones() >= 2 {
                        cells |= up & !region;
                    }
                    shrine |= pool >= 1 && (!three || pool >= 2 || outside != 0);
                }
                for c in cells_of(region & up & !(cells | 1 << s)) {
                    let b = 1u16 << c;
                    if self.change_fits(s, own & !b, of & !b, up & !b, pool).is_some() {
                        cells |= b;
                    }
                }
            }
        }
        (cells, shrine)
    }


    /// Change: the group the Special tile of `cell` completes as type `ty`, and
    /// whether it needs Cunning (a group of 3). `pool` is the Shrine Pool.
    pub(crate) fn change_group(&self, realm: &Realm, pool: u8, cell: usize, ty: usize) -> Option<(u16, bool)> {
        let t = realm.face_up_tile(cell)?.tile_type();
        let target = TileType::from_index(ty)?;
        if t.is_faction() || t == target {
            return None;
        }
        self.change_fits(cell, realm.of_type(t), realm.of_type(target), realm.face_up(), pool)
    }

    /// [`State::change_group`] on masks: the face-up tiles of the Special's
    /// own type (`own`), of the type it stands for (`of`), and all (`up`).
    fn change_fits(&self, cell: usize, own: u16, of: u16, up: u16, pool: u8) -> Option<(u16, bool)> {
        // Not to prevent a set: the tile must not be in a set of its own type.
        if flood(1 << cell, own).count_ones() >= 4 {
            return None;
        }
        let g = flood(1 << cell, of | 1 << cell);
        // It must complete the set: no group of that type it touches is a set
        // already ("only if, by doing so, you are able to Consolidate a set").
        if SETS.has(g & !(1 << cell)) {
            return None;
        }
        match g.count_ones() {
            n if n >= 4 => Some((g, false)),
            3 if self.cunning_ready() && (pool >= 1 || up & !g != 0) => Some((g, true)),
            _ => None,
        }
    }


    /// The types (a bit per [`TileType`] index) Change may turn the Special
    /// tile of `cell` into now.
    pub(crate) fn change_types(&self, cell: usize) -> u8 {
        let realm = self.mover_realm();
        let pool = self.mover().shrine_pool;
        if !self.cunning_ready() && realm.types_with_groups(&SETS) == 0 {
            // Every group below 4: a type is a choice iff its tiles with this
            // Special hold a group of 4 (`change_fits`, as in `change_payments_settled`).
            let Some(own) = realm.face_up_tile(cell).map(|t| t.tile_type()) else { return 0 };
            if own.is_faction() {
                return 0;
            }
            return TileType::ALL
                .iter()
                .filter(|&&t| t != own && SETS.has(realm.of_type(t) | 1 << cell))
                .fold(0, |m, &t| m | 1 << t.index());
        }
        (0..TileType::COUNT).filter(|&t| self.change_group(realm, pool, cell, t).is_some()).fold(0, |m, t| m | 1 << t)
    }
}
