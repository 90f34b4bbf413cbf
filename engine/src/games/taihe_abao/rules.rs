//! Options and presets of Taihe A Bao (spec §7).

use crate::options::{OptionSpec, Preset};
use serde::{Deserialize, Serialize};
use serde_json::json;

/// How stakes are sized (spec §5).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum StakeScheme {
    /// First-round declarer: players + 1; second round: the number of callers.
    Seed,
    /// First-round declarer: 2; second round: 1.
    Flat,
}

/// Options of one game of Taihe A Bao. The player count (3, 4 or 5; spec option `players`) is the
/// game's seat count, not an entry of this struct.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Options {
    /// `no_aces`: play without Aces (36 cards; 5 players also without KS).
    pub no_aces: bool,
    /// `hands`: number of hands in the game (thrown-in hands count, R15).
    pub hands: u32,
    /// `allow_recall`: a card already called in this hand may be called again.
    pub allow_recall: bool,
    /// `four_hearts_always_starts`: the holder of 4H is first bidder in every hand.
    pub four_hearts_always_starts: bool,
    /// `first_bidder_must_call`: the first bidder may not pass in round 2.
    pub first_bidder_must_call: bool,
    /// `single_call_wins`: with exactly one caller the hand is not played; the caller wins.
    pub single_call_wins: bool,
    /// `stake_scheme`: `"seed"` or `"flat"`.
    pub stake_scheme: StakeScheme,
    /// `spring_double`: stakes ×2 for a spring / anti-spring (R7).
    pub spring_double: bool,
    /// `return_called_card_allowed`: the caller may give back the card just received (R6).
    pub return_called_card_allowed: bool,
    /// `missing_card_triple_is_top_quad`: the triple of the rank with a card removed (AAA with 3
    /// players, KKK with 5 players without Aces) is the highest quad (R8).
    pub missing_card_triple_is_top_quad: bool,
}

/// Every option with its default (spec §7; `players` is the seat count).
pub fn option_specs() -> Vec<OptionSpec> {
    vec![
        OptionSpec::boolean(
            "no_aces",
            false,
            "Play without the Aces: 36 cards (5 players: also without KS). Seed.",
        ),
        OptionSpec::integer(
            "hands",
            1,
            1000,
            8,
            "Number of hands in the game; a thrown-in hand counts (R12, R15).",
        ),
        OptionSpec::boolean(
            "allow_recall",
            false,
            "A card already called in this hand may be called again. Seed variant.",
        ),
        OptionSpec::boolean(
            "four_hearts_always_starts",
            false,
            "The holder of the four of hearts begins the bidding in every hand. Seed variant.",
        ),
        OptionSpec::boolean(
            "first_bidder_must_call",
            false,
            "The first bidder may not pass in the second bidding round. Seed variant.",
        ),
        OptionSpec::boolean(
            "single_call_wins",
            false,
            "With exactly one caller the hand is not played: the caller wins one stake from each player. Seed variant.",
        ),
        OptionSpec::choice(
            "stake_scheme",
            &["seed", "flat"],
            "seed",
            "\"seed\": first-round stake players+1, second-round stake = number of callers; \"flat\": 2 and 1.",
        ),
        OptionSpec::boolean(
            "spring_double",
            false,
            "Stakes doubled if the declarer wins with no opponent card played, or loses after playing only the opening lead (R7).",
        ),
        OptionSpec::boolean(
            "return_called_card_allowed",
            false,
            "The caller may give back the card just received (R6).",
        ),
        OptionSpec::boolean(
            "missing_card_triple_is_top_quad",
            true,
            "AAA (3 players) or KKK (5 players without Aces) counts as the highest quad (R8).",
        ),
    ]
}

/// The published game ids of the family, the base id first.
pub fn presets() -> Vec<Preset> {
    vec![
        Preset::plain(
            "taihe_abao",
            "Taihe A Bao",
            "Chinese climbing game, one declarer against all: 40 cards (no 2, 3, 8), two bidding rounds (declare, or call a card and exchange), singles, pairs, runs that never bridge 7 and 9, double runs, triples and quads as bombs. 3 to 5 players.",
        ),
        Preset::plain(
            "taihe_abao_no_aces",
            "Taihe A Bao without Aces",
            "Taihe A Bao with the Aces removed (36 cards; 5 players also without KS, making KKK the top quad).",
        )
        .fixing(json!({"no_aces": true})),
    ]
}
