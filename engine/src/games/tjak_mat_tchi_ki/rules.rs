//! Options and presets of Tjak-mat-tchi-ki (spec §7).

use crate::options::{OptionSpec, Preset};
use serde::{Deserialize, Serialize};
use serde_json::json;

/// Which face-up discards may be taken (R4, R13).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum TakeFrom {
    /// Only the last discard, by the next player (pagat/Culin).
    LastDiscard,
    /// Any unpaired discard of another player lying on the table (the seed's literal wording).
    AnyTableTile,
}

/// Who starts the hand after a hand without a winner (R8).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum NoWinnerNext {
    /// The same first player again.
    Same,
    /// The next seat.
    NextSeat,
}

/// The word `"draw"` of the `first_player` option.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub enum DrawWord {
    /// Decide the first player by drawing tiles.
    #[serde(rename = "draw")]
    Draw,
}

/// `first_player`: `"draw"` or a fixed seat (R11).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(untagged)]
pub enum FirstPlayer {
    /// Draw tiles (§2).
    Draw(DrawWord),
    /// This seat starts the first hand.
    Seat(usize),
}

/// Options of one game. The player count (2, 3 or 4; spec option `players`) is the game's seat
/// count, not an entry of this struct.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Options {
    /// `stake`: chips per loser (c).
    pub stake: i64,
    /// `start_chips`: chips each player starts with.
    pub start_chips: i64,
    /// `hands`: number of hands in the game.
    pub hands: u32,
    /// `take_from`: `"last_discard"` or `"any_table_tile"`.
    pub take_from: TakeFrom,
    /// `no_winner_next`: `"same"` or `"next_seat"`.
    pub no_winner_next: NoWinnerNext,
    /// `first_player`: `"draw"` or a seat.
    pub first_player: FirstPlayer,
}

/// Every option with its default (spec §7; `players` is the seat count).
pub fn option_specs() -> Vec<OptionSpec> {
    vec![
        OptionSpec::integer(
            "stake",
            1,
            1_000_000,
            1,
            "Chips c per loser and hand. Seed.",
        ),
        OptionSpec::integer(
            "start_chips",
            -1_000_000_000,
            1_000_000_000,
            20,
            "Chips each player starts with; balances may go negative (R9).",
        ),
        OptionSpec::integer("hands", 1, 1000, 8, "Number of hands in the game. Seed."),
        OptionSpec::choice(
            "take_from",
            &["last_discard", "any_table_tile"],
            "last_discard",
            "\"last_discard\": only the previous player's discard may be taken; \"any_table_tile\": any unpaired discard of another player (R4, R13).",
        ),
        OptionSpec::choice(
            "no_winner_next",
            &["same", "next_seat"],
            "same",
            "Who starts after a hand without a winner: the same first player or the next seat (R8).",
        ),
        OptionSpec::choice_or_integer(
            "first_player",
            &["draw"],
            0,
            3,
            json!("draw"),
            "\"draw\": the first player of hand 1 is found by drawing tiles; a seat number fixes it (R11).",
        ),
    ]
}

/// The published game ids, the base id first.
pub fn presets() -> Vec<Preset> {
    vec![
        Preset::plain(
            "tjak_mat_tchi_ki",
            "Tjak-mat-tchi-ki",
            "Korean pair-making game with the 32 Chinese domino tiles: draw or take the previous discard when it pairs, lay pairs, discard; first to three pairs wins. 2 to 4 players.",
        ),
        Preset::plain(
            "tjak_mat_tchi_ki_any_tile",
            "Tjak-mat-tchi-ki (any table tile)",
            "Tjak-mat-tchi-ki as the seed words it: any unpaired discard of another player may be taken when it pairs.",
        )
        .fixing(json!({"take_from": "any_table_tile"})),
    ]
}
