//! Options of Sloppy Seconds (spec §7) and the published presets.

pub use crate::options::FirstDealer;
use crate::options::{OptionSpec, Preset};
use serde::{Deserialize, Serialize};
use serde_json::json;

/// The five-point minimum (spec §5.1, ruling R6).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum MinimumRule {
    /// Designer: a hand total below 5 is raised to 5.
    HandFloor,
    /// Seed 001: a player who captured at most 4 card points in all gets 5 for the hand.
    LowCapture,
}

/// What happens when the highest total is tied at the end (ruling R9).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum TieRule {
    /// Play further whole hands until one player alone leads.
    PlayOn,
    /// Tied leaders share first place.
    Shared,
}

/// The options of one game of Sloppy Seconds (ids exactly as in spec §7; the player count is the
/// game's player count, 3 or 4, not an option).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Options {
    /// `target`: the game ends after a hand in which someone reached this total (R8).
    pub target: i64,
    /// `minimum_rule`: how the five-point minimum applies (R6).
    pub minimum_rule: MinimumRule,
    /// `tie_rule`: a tie for the highest total at the end (R9).
    pub tie_rule: TieRule,
    /// `first_dealer`: `"random"` or a seat.
    pub first_dealer: FirstDealer,
}

impl Default for Options {
    /// The defaults the option specs declare (stated there only).
    fn default() -> Self {
        crate::options::spec_defaults(&option_specs())
    }
}

/// The declared options, with defaults and sources.
pub fn option_specs() -> Vec<OptionSpec> {
    vec![
        OptionSpec::integer(
            "target",
            1,
            10_000,
            300,
            "Total that ends the game at the end of a hand (designer: 300, or maybe 364; any integer allowed).",
        ),
        OptionSpec::choice(
            "minimum_rule",
            &["hand_floor", "low_capture"],
            "hand_floor",
            "Five-point minimum: `hand_floor` (designer) raises a hand total below 5 to 5; `low_capture` (seed 001) gives 5 to a player who captured 4 card points or fewer (R6).",
        ),
        OptionSpec::choice(
            "tie_rule",
            &["play_on", "shared"],
            "play_on",
            "Tie for the highest total at the end: `play_on` plays more hands until one player leads alone; `shared` shares first place (R9, not in the sources).",
        ),
        OptionSpec::choice_or_integer(
            "first_dealer",
            &["random"],
            0,
            3,
            json!("random"),
            "First dealer: a uniformly random seat, or this seat (seed: any method). The deal then passes clockwise.",
        ),
    ]
}

/// The published game ids; the first is the family's default.
pub fn presets() -> Vec<Preset> {
    vec![
        Preset::plain(
            "sloppy_seconds",
            "Sloppy Seconds",
            "Peter Schell's trick-taking game for 3 or 4: the second suit broken in becomes trump, and in each suit only the second-highest point total scores. First to 300 ends the game; the highest total wins.",
        ),
        Preset::plain(
            "sloppy_seconds_364",
            "Sloppy Seconds (to 364)",
            "Sloppy Seconds played to 364, the designer's longer alternative target (one full deck of card points).",
        )
        .fixing(json!({"target": 364})),
    ]
}
