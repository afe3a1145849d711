//! The decision pending: its phase, what each phase accepts, and its names.

use crate::action::ActionKind;

/// Which decision is pending. The Spirit phases are entered only with cards in
/// play (`docs/cards.md`); their order is the observation's one-hot order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Phase {
    /// Start of a turn: take the first tile from the top floor (R-ACT-4) or Summon.
    #[default]
    Action,
    /// The first tile is in hand: complete a Pair, Tile and Shrine, or Discard.
    Complete,
    /// Place the next collected tile (R-PLACE-1).
    Place,
    /// Build Shrines on the sets just Consolidated, or `Done` (R-SHRINE-1).
    Shrine,
    /// The game has ended (R-END-1): no decision is left.
    GameOver,
    /// After the placements, before Consolidation: Spirits, or `Done`.
    Spirits,
    /// Destruction: which castle tile.
    Destroy,
    /// Wind: flip a tile and/or lift a Shrine.
    Wind,
    /// Wind: where the lifted Shrine goes.
    WindTo,
    /// Strength: which tile to move (or `Done` after one).
    Strength,
    /// Strength: where the lifted tile goes.
    StrengthTo,
    /// Beauty or Cunning: which group.
    Set,
    /// Change: which Special tile becomes which type.
    Change,
    /// Change made a group of 3: activate Cunning for it.
    Cunning,
    /// After Consolidation and its Shrine step: Spirits, or `Done` to end the turn.
    EndTurn,
}

impl Phase {
    /// Every phase in declaration order: the compact observation's phase index (the tensor's one-hot
    /// covers the first 14).
    pub const ALL: [Phase; 15] = [
        Phase::Action,
        Phase::Complete,
        Phase::Place,
        Phase::Shrine,
        Phase::GameOver,
        Phase::Spirits,
        Phase::Destroy,
        Phase::Wind,
        Phase::WindTo,
        Phase::Strength,
        Phase::StrengthTo,
        Phase::Set,
        Phase::Change,
        Phase::Cunning,
        Phase::EndTurn,
    ];
    /// The phase's upper-case name (`ACTION`, `END_TURN`, …), as in `docs/cards.md`.
    pub const fn name(self) -> &'static str {
        match self {
            Phase::Action => "ACTION",
            Phase::Complete => "COMPLETE",
            Phase::Place => "PLACE",
            Phase::Shrine => "SHRINE",
            Phase::GameOver => "GAME_OVER",
            Phase::Spirits => "SPIRITS",
            Phase::Destroy => "DESTROY",
            Phase::Wind => "WIND",
            Phase::WindTo => "WIND_TO",
            Phase::Strength => "STRENGTH",
            Phase::StrengthTo => "STRENGTH_TO",
            Phase::Set => "SET",
            Phase::Change => "CHANGE",
            Phase::Cunning => "CUNNING",
            Phase::EndTurn => "END_TURN",
        }
    }
    /// The kinds of decision this phase takes, activations aside (every
    /// decision point adds them, R-SPIRIT-2): the one table the legality
    /// check and the reasons of an illegal action read.
    pub const fn kinds(self) -> &'static [ActionKind] {
        use ActionKind as K;
        match self {
            Phase::Action => &[K::Take, K::Summon],
            Phase::Complete => &[K::Take, K::TakeShrine, K::Discard],
            Phase::Place => &[K::Place],
            Phase::Shrine => &[K::Shrine, K::Done],
            Phase::GameOver => &[],
            Phase::Spirits | Phase::EndTurn => &[K::Done],
            Phase::Destroy => &[K::Destroy],
            Phase::Wind => &[K::Flip, K::ShrineFrom, K::Done],
            Phase::WindTo => &[K::ShrineTo],
            Phase::Strength => &[K::MoveFrom, K::Done],
            Phase::StrengthTo => &[K::MoveTo],
            Phase::Set => &[K::Set],
            Phase::Change => &[K::Change],
            Phase::Cunning => &[K::Spirit],
        }
    }

    /// What the phase expects, in an illegal action's reason.
    pub const fn expects(self) -> &'static str {
        match self {
            Phase::Action => "TAKE (first tile) or SUMMON",
            Phase::Complete => "TAKE (second tile), TAKE_SHRINE or DISCARD",
            Phase::Place => "PLACE",
            Phase::Shrine => "SHRINE or DONE",
            Phase::GameOver => "nothing: the game is over",
            Phase::Spirits | Phase::EndTurn => "SPIRIT or DONE",
            Phase::Destroy => "DESTROY",
            Phase::Wind => "FLIP, SHRINE_FROM or DONE",
            Phase::WindTo => "SHRINE_TO",
            Phase::Strength => "MOVE_FROM or DONE",
            Phase::StrengthTo => "MOVE_TO",
            Phase::Set => "SET",
            Phase::Change => "CHANGE",
            Phase::Cunning => "SPIRIT (Cunning)",
        }
    }

    /// What the phase asks of the player to move, in the game's words: the
    /// status line of a table ("Your turn: take a tile ...").
    pub const fn prompt(self) -> &'static str {
        match self {
            Phase::Action => "take a top-floor tile (to begin a pair, a tile and Shrine, or a discard), or summon once the castle is one floor high",
            Phase::Complete => "complete the action: take the identical tile (a pair), take a Shrine, or discard the tile in hand for 1 VP",
            Phase::Place => "place the tile in hand on an empty cell or a face-down tile without a Shrine",
            Phase::Shrine => "build a Shrine on a tile of a set just consolidated, or done",
            Phase::GameOver => "the game is over",
            Phase::Spirits => "activate a Spirit card, or done to consolidate",
            Phase::Destroy => "Destruction: choose the castle tile to discard",
            Phase::Wind => "Wind: turn a face-up tile face down, lift a Shrine you built, or done",
            Phase::WindTo => "Wind: choose the face-down tile the Shrine goes to",
            Phase::Strength => "Strength: choose a top tile to move, or done after one",
            Phase::StrengthTo => "Strength: choose where the tile goes",
            Phase::Set => "choose the group to consolidate",
            Phase::Change => "Change: choose the Special tile and the type it counts as",
            Phase::Cunning => "Cunning: consolidate the group of 3 that Change made",
            Phase::EndTurn => "activate a Spirit card, or done to end the turn",
        }
    }

    /// A phase inside a Spirit's effect (or the two that only a Spirit opens).
    pub const fn is_spirit_phase(self) -> bool {
        !matches!(self, Phase::Action | Phase::Complete | Phase::Place | Phase::Shrine | Phase::GameOver)
    }

    /// Position in [`Phase::ALL`] (the declaration order).
    pub const fn index(self) -> usize {
        self as usize
    }
    /// The phase of an upper-case name as [`Phase::name`] writes it; `None` for any other text.
    pub fn parse(name: &str) -> Option<Phase> {
        Phase::ALL.into_iter().find(|p| p.name() == name)
    }
}
