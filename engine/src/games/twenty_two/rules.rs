//! Options of 22 (spec §7), their declared [`OptionSpec`]s and the presets.

pub use crate::options::FirstDealer;
use crate::options::{OptionSpec, Preset};
use serde::{Deserialize, Serialize};
use serde_json::json;

/// The word `"auto"` (for `packs`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum AutoWord {
    /// `"auto"`
    Auto,
}

/// `packs`: `"auto"` (1 for up to 6 players, else ceil(n/4)) or a fixed count 1..3 (R22).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(untagged)]
pub enum Packs {
    /// `"auto"`
    Auto(AutoWord),
    /// A fixed number of packs.
    Count(u8),
}

/// `end_condition` (§3.5).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum EndCondition {
    /// Play until at most one player is left (pagat, seed 003).
    LastSurvivor,
    /// Stop at the first elimination (seed 000's short form).
    FirstElimination,
    /// Gambling Cucumber: stop at an elimination among the last three (R30).
    Pot,
}

/// `penalty_scale` (§5.1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum PenaltyScale {
    /// A 11, K/Q/J 10, pips face value.
    Standard,
    /// A 14, K 13, Q 12, J 11, pips face value.
    Cucumber,
}

/// `deal_size` (§2.3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum DealSize {
    /// 7, then the value of the previous deal's losing card.
    ByLoserCard,
    /// Always 7.
    #[serde(rename = "fixed_7")]
    Fixed7,
}

/// `play_style` (§3.2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum PlayStyle {
    /// 22: exchange, sets, cover or throw lowest.
    TwentyTwo,
    /// Danish Agurk: no exchange, single cards, must head if able, ace led forces lowest (R25).
    Agurk,
}

/// `dealer_when_losers_out` (§3.7, R21).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum DealerWhenLosersOut {
    /// Uniform draw among the players still in.
    RandomSurvivor,
    /// The player after the (drawn) loser leads; the one before the leader deals.
    NextSeat,
}

/// `simultaneous_elimination` (§5.2, R20).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum SimultaneousElimination {
    /// Lower total ranks better; equal totals share.
    LowerScore,
    /// Everyone eliminated in one deal shares a rank.
    Shared,
}

/// `set_trick_winner` (§4.2, R14).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum SetTrickWinner {
    /// The last player to play the highest card in the trick.
    HighestCard,
    /// The player who made the final target.
    LastCover,
}

/// Options of one game of 22; ids exactly as in the spec's options table (§7).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Options {
    /// `packs`: number of 52-card packs, or auto.
    pub packs: Packs,
    /// `end_condition`.
    pub end_condition: EndCondition,
    /// `elimination_threshold`: total at which a player is out (10..99).
    pub elimination_threshold: u32,
    /// `penalty_scale`.
    pub penalty_scale: PenaltyScale,
    /// `deal_size`.
    pub deal_size: DealSize,
    /// `penalty_cards_leave_pack`: losing cards become markers and leave the pack (R6).
    pub penalty_cards_leave_pack: bool,
    /// `play_style`.
    pub play_style: PlayStyle,
    /// `buy_back`: one optional buy-back per player (R24).
    pub buy_back: bool,
    /// `dealer_when_losers_out`.
    pub dealer_when_losers_out: DealerWhenLosersOut,
    /// `simultaneous_elimination`.
    pub simultaneous_elimination: SimultaneousElimination,
    /// `set_trick_winner`.
    pub set_trick_winner: SetTrickWinner,
    /// `first_dealer`.
    pub first_dealer: FirstDealer,
}

impl Default for Options {
    /// The defaults the option specs declare (stated there only).
    fn default() -> Self {
        crate::options::spec_defaults(&option_specs())
    }
}

impl Options {
    /// The number of packs for `players` (R22: auto = 1 up to 6 players, else ceil(n/4)).
    pub fn pack_count(&self, players: usize) -> usize {
        match self.packs {
            Packs::Count(n) => n as usize,
            Packs::Auto(_) if players <= 6 => 1,
            Packs::Auto(_) => players.div_ceil(4),
        }
    }

    /// True if stakes are paid into a pot (§3.6).
    pub fn has_stakes(&self) -> bool {
        self.buy_back || self.end_condition == EndCondition::Pot
    }

    /// Penalty value of a rank index (0 = two .. 12 = ace) under the scale (§5.1, R17).
    pub fn penalty(&self, rank: u8) -> u32 {
        let natural = rank as u32 + 2;
        match self.penalty_scale {
            PenaltyScale::Cucumber => natural,
            PenaltyScale::Standard if natural == 14 => 11,
            PenaltyScale::Standard => natural.min(10),
        }
    }
}

/// Every option of the family, with its default and source.
pub fn option_specs() -> Vec<OptionSpec> {
    vec![
        OptionSpec::choice_or_integer(
            "packs",
            &["auto"],
            1,
            3,
            json!("auto"),
            "Number of 52-card packs; auto = 1 for up to 6 players, else one per four players (pagat; R22).",
        ),
        OptionSpec::choice(
            "end_condition",
            &["last_survivor", "first_elimination", "pot"],
            "last_survivor",
            "last_survivor (pagat/seed 003), first_elimination (seed 000's short game), pot (gambling Cucumber, R30).",
        ),
        OptionSpec::integer(
            "elimination_threshold",
            10,
            99,
            22,
            "A player whose total reaches this is eliminated (22; 30 in gambling Cucumber).",
        ),
        OptionSpec::choice(
            "penalty_scale",
            &["standard", "cucumber"],
            "standard",
            "standard: A 11, K/Q/J 10; cucumber: A 14, K 13, Q 12, J 11 (pips face value).",
        ),
        OptionSpec::choice(
            "deal_size",
            &["by_loser_card", "fixed_7"],
            "by_loser_card",
            "by_loser_card: 7, then the value of the last losing card (seeds); fixed_7: always 7 (Agurk).",
        ),
        OptionSpec::boolean(
            "penalty_cards_leave_pack",
            true,
            "Losing cards lie in front of their losers and are not dealt again (seeds 000/003, R6).",
        ),
        OptionSpec::choice(
            "play_style",
            &["twenty_two", "agurk"],
            "twenty_two",
            "twenty_two: exchange, sets, cover or throw lowest; agurk: Danish Agurk (single cards, must head, R25).",
        ),
        OptionSpec::boolean(
            "buy_back",
            false,
            "An eliminated player may buy back in once for one stake (gambling Cucumber, R24).",
        ),
        OptionSpec::choice(
            "dealer_when_losers_out",
            &["random_survivor", "next_seat"],
            "random_survivor",
            "Who deals when every loser is out: a random survivor (seed 003) or by seating (seed 000), R21.",
        ),
        OptionSpec::choice(
            "simultaneous_elimination",
            &["lower_score", "shared"],
            "lower_score",
            "Players eliminated together: lower total ranks better, or all share a rank (seed 003, R20).",
        ),
        OptionSpec::choice(
            "set_trick_winner",
            &["highest_card", "last_cover"],
            "highest_card",
            "Trick winner: last player of the highest card (seeds, R14) or the final covering play.",
        ),
        OptionSpec::choice_or_integer(
            "first_dealer",
            &["random"],
            0,
            11,
            json!("random"),
            "First dealer: a uniform random seat (pagat's draw, R3) or a fixed seat.",
        ),
    ]
}

/// The presets; the first is the family's base id.
pub fn presets() -> Vec<Preset> {
    vec![
        Preset::plain(
            "twenty_two",
            "22 (Twenty-Two)",
            "Shedding trick game: cover the best play or throw your lowest cards; the highest last card scores; 22 points and you are out. Last player in wins.",
        ),
        Preset::plain(
            "twenty_two_short",
            "22, short game",
            "22 ending at the first elimination (seed 000's usual way); lowest total wins.",
        )
        .fixing(json!({"end_condition": "first_elimination"})),
        Preset::plain(
            "gambling_cucumber",
            "Gambling Cucumber",
            "Danish Agurk for stakes (Parlett via seed 003): single cards, must head, J 11 .. A 14, out at 30, one buy-back, lowest of the last three takes the pot.",
        )
        .players(3, 7)
        .fixing(json!({
            "packs": 1,
            "play_style": "agurk",
            "penalty_scale": "cucumber",
            "elimination_threshold": 30,
            "deal_size": "fixed_7",
            "penalty_cards_leave_pack": false,
            "buy_back": true,
            "end_condition": "pot",
        })),
    ]
}
