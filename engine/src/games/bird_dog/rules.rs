//! Options of Bird Dog (spec §7), the option list the API publishes and the presets.

pub use crate::options::FirstDealer;
use crate::options::{OptionSpec, Preset};
use serde::{Deserialize, Serialize};
use serde_json::json;

/// Cards in the pack: 9 T J Q K A of four suits.
pub const PACK_SIZE: usize = 24;
/// Cards per hand (and in the dummy's pile).
pub const HAND_SIZE: usize = 7;

/// How the team's pairs are counted (§5.2, R6).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum TeamPairs {
    /// Each teammate's own pairs, added (designer's site).
    IndividualSum,
    /// Pairs of both teammates' cards together (seed 001's wording).
    Pooled,
}

/// Who deals after an annulled 2-player hand (R16).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum AllPass {
    /// The other player deals.
    RedealNextDealer,
    /// The same dealer deals again.
    RedealSameDealer,
}

/// What a tie for the highest total at the target does (§5.4, R14).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum TieRule {
    /// Play whole hands until one player alone leads.
    PlayOn,
    /// The tied players share first place.
    Shared,
}

/// Options for one game of Bird Dog (spec §7). The player count (2 or 3) is the setup's `players`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields, default)]
pub struct Options {
    /// `target`: total that ends the game (21 for 3 players, 11 for 2 players; R13).
    pub target: u32,
    /// `team_pairs`: how the team's pairs are counted (R6).
    pub team_pairs: TeamPairs,
    /// `two_player_all_pass`: who redeals an annulled 2-player hand (R16).
    pub two_player_all_pass: AllPass,
    /// `tie_rule`: a tie for the highest total at the end (R14).
    pub tie_rule: TieRule,
    /// `max_hands`: hands after which the game ends anyway (None = no limit; R21).
    pub max_hands: Option<u32>,
    /// `first_dealer`: `random` or a seat (R19).
    pub first_dealer: FirstDealer,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            target: 21,
            team_pairs: TeamPairs::IndividualSum,
            two_player_all_pass: AllPass::RedealNextDealer,
            tie_rule: TieRule::PlayOn,
            max_hands: Some(50),
            first_dealer: FirstDealer::Random,
        }
    }
}

impl Options {
    /// Player-dependent checks.
    pub fn check(&self, players: usize) -> Result<(), String> {
        if self.target == 0 {
            return Err("option `target` must be at least 1".into());
        }
        if self.max_hands == Some(0) {
            return Err("option `max_hands` must be at least 1 or null".into());
        }
        self.first_dealer.check(players)
    }
}

/// The option list the API publishes (spec §7).
pub fn option_specs() -> Vec<OptionSpec> {
    vec![
        OptionSpec::integer(
            "target",
            1,
            1000,
            21,
            "Total that ends the game: 21 with 3 players, 11 with 2 players (seed; R13). The older designer version plays to 11 with 3.",
        ),
        OptionSpec::choice(
            "team_pairs",
            &["individual_sum", "pooled"],
            "individual_sum",
            "The team's tally: each teammate's own pairs added (designer's site), or the pairs of their cards pooled (seed 001's wording) (R6).",
        ),
        OptionSpec::choice(
            "two_player_all_pass",
            &["redeal_next_dealer", "redeal_same_dealer"],
            "redeal_next_dealer",
            "2 players, all pass on all three turn-ups: the hand is annulled and redealt by the other player or by the same dealer (R16).",
        ),
        OptionSpec::choice(
            "tie_rule",
            &["play_on", "shared"],
            "play_on",
            "A tie for the highest total at the end: play further whole hands until one player alone leads, or share first place (R14).",
        ),
        OptionSpec::integer(
            "max_hands",
            1,
            10_000,
            50,
            "Hands (annulled ones included) after which the game ends anyway, ranked by totals; null = no limit (R21).",
        )
        .or_null(),
        OptionSpec::choice_or_integer(
            "first_dealer",
            &["random"],
            0,
            2,
            json!("random"),
            "The first dealer: \"random\" (designer: random or high card, R19) or a seat.",
        ),
    ]
}

/// The published game ids: the 3-player game, the 2-player dummy game, and the 3-player game to 11.
pub fn presets() -> Vec<Preset> {
    vec![
        Preset::plain(
            "bird_dog",
            "Bird Dog",
            "Bird Dog for 3 players (Nathaniel Meadow, 2017): solo against a team of two, pairs of J/Q/K score, first to 21.",
        )
        .players(3, 3),
        Preset::plain(
            "bird_dog_two_player",
            "Bird Dog (2 players)",
            "Bird Dog for 2 players with a dummy hand (the \"bird dog\") whose face-up cards are played by the player who is not solo; first to 11.",
        )
        .players(2, 2)
        .defaulting(json!({"target": 11})),
        Preset::plain(
            "bird_dog_short",
            "Bird Dog to 11",
            "Bird Dog for 3 players played to 11 points (the designer's older version and gamerules.com).",
        )
        .players(3, 3)
        .fixing(json!({"target": 11})),
    ]
}
