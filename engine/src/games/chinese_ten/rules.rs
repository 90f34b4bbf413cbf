//! Options of Chinese Ten (ids exactly as in the spec's §7 table) and the published presets.

pub use crate::options::FirstDealer;
use crate::options::{OptionSpec, Preset};
use serde::{Deserialize, Serialize};
use serde_json::json;

/// The rule set (spec §5, §7).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Ruleset {
    /// Chinese Ten as the seed describes it first (2-4 players).
    Base,
    /// Taiwan: 4 players, race to `taiwan_target` card points.
    Taiwan,
    /// Thai Red Frog / Black Frog scoring.
    Thai,
    /// Indonesian Main Merah (2-3 players, larger layout, redeals).
    MainMerah,
}

/// `black_aces` (R2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum BlackAces {
    /// AS 30 from 3 players, AC 40 only with 4.
    ByPlayerCount,
    /// AS 30 and AC 40 whenever 3 or more play.
    SeedLiteral,
}

/// `thai_low_cards` (R4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ThaiLowCards {
    /// Black 2-8 score face value (pagat).
    Black,
    /// Red 2-8 score face value (the seed's literal line).
    Red,
}

/// `taiwan_end` (R3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum TaiwanEnd {
    /// The game ends the moment someone's card points reach the target.
    Race,
    /// The deal is played out and ranked by points.
    FullDeal,
}

/// `"one_per_player"`, the default number of deals (n, each player deals once; R14).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum DealsWord {
    /// As many deals as players.
    OnePerPlayer,
}

/// `deals`: number of deals in a game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(untagged)]
pub enum Deals {
    /// Exactly this many.
    Count(usize),
    /// One per player.
    Named(DealsWord),
}

/// Options of one game of Chinese Ten (spec §7).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Options {
    /// `ruleset`: base, taiwan, thai, main_merah.
    pub ruleset: Ruleset,
    /// `first_dealer`: `"random"` or a seat.
    pub first_dealer: FirstDealer,
    /// `black_aces`: how AS/AC score in the base game (R2).
    pub black_aces: BlackAces,
    /// `red_five_bonus`: a red five capturing the other red five earns 10 from each other player.
    pub red_five_bonus: bool,
    /// `thai_nine`: value of a black 9 in Thai scoring (10 or 9).
    pub thai_nine: i64,
    /// `thai_low_cards`: which 2-8 score in Thai scoring (R4).
    pub thai_low_cards: ThaiLowCards,
    /// `taiwan_target`: card points that end a Taiwan game.
    pub taiwan_target: i64,
    /// `taiwan_end`: race or full deal (R3).
    pub taiwan_end: TaiwanEnd,
    /// `cutter_peek`: the cutter privately sees the last stock card (R10).
    pub cutter_peek: bool,
    /// `deals`: number of deals (`"one_per_player"` = n).
    pub deals: Deals,
}

impl Options {
    /// Number of deals in the game for `players` seats.
    pub fn deal_count(&self, players: usize) -> usize {
        match self.deals {
            Deals::Count(d) => d,
            Deals::Named(DealsWord::OnePerPlayer) => players,
        }
    }
}

/// Every option of the family, with the base game's defaults.
pub fn option_specs() -> Vec<OptionSpec> {
    vec![
        OptionSpec::choice(
            "ruleset",
            &["base", "taiwan", "thai", "main_merah"],
            "base",
            "Rule set: base Chinese Ten, Taiwan race, Thai Red Frog/Black Frog scoring, Indonesian Main Merah (spec §5, §7). Fixed by each game id.",
        ),
        OptionSpec::choice_or_integer(
            "first_dealer",
            &["random"],
            0,
            3,
            json!("random"),
            "First dealer: drawn at random or a fixed seat (R17).",
        ),
        OptionSpec::choice(
            "black_aces",
            &["by_player_count", "seed_literal"],
            "by_player_count",
            "Black aces: AS 30 from 3 players and AC 40 only with 4 (default), or both whenever 3+ play (R2).",
        ),
        OptionSpec::boolean(
            "red_five_bonus",
            false,
            "A red five capturing the other red five earns 10 points from each other player (R13).",
        ),
        OptionSpec::integer(
            "thai_nine",
            9,
            10,
            10,
            "Thai scoring: value of a scoring 9 (R4).",
        ),
        OptionSpec::choice(
            "thai_low_cards",
            &["black", "red"],
            "black",
            "Thai scoring: whether black (pagat, default) or red (seed literal) 2-8 score face value (R4).",
        ),
        OptionSpec::integer(
            "taiwan_target",
            1,
            240,
            60,
            "Taiwan: card points that win the game (R3, R16).",
        ),
        OptionSpec::choice(
            "taiwan_end",
            &["race", "full_deal"],
            "race",
            "Taiwan: end at the moment the target is reached (default) or play the deal out (R3).",
        ),
        OptionSpec::boolean(
            "cutter_peek",
            true,
            "The cutter privately sees the bottom card, the last stock card (R10).",
        ),
        OptionSpec::choice_or_integer(
            "deals",
            &["one_per_player"],
            1,
            100,
            json!("one_per_player"),
            "Number of deals: one per player (default) or a number; Taiwan: exactly 1 (R14).",
        ),
    ]
}

/// The published game ids; the first is the family default.
pub fn presets() -> Vec<Preset> {
    vec![
        Preset::plain(
            "chinese_ten",
            "Chinese Ten",
            "Capture pairs making ten; red cards (and black aces with 3-4 players) score. 2-4 players.",
        )
        .fixing(json!({"ruleset": "base"})),
        Preset::plain(
            "chinese_ten_red_five",
            "Chinese Ten, red-five bonus",
            "Chinese Ten where a red five capturing the other red five earns 10 from every other player.",
        )
        .fixing(json!({"ruleset": "base", "red_five_bonus": true})),
        Preset::plain(
            "chinese_ten_taiwan",
            "Chinese Ten, Taiwan",
            "Four players, one deal: the first to 60 card points wins at once (AC worthless).",
        )
        .fixing(json!({"ruleset": "taiwan", "deals": 1}))
        .players(4, 4),
        Preset::plain(
            "chinese_ten_thai",
            "Red Frog Black Frog (Thailand)",
            "Chinese Ten with Thai scoring: black cards score, AS 50, red cards nothing.",
        )
        .fixing(json!({"ruleset": "thai"})),
        Preset::plain(
            "chinese_ten_main_merah",
            "Main Merah (Indonesia)",
            "Two or three players, a 12- or 10-card layout, red cards score; stuck layouts are redealt.",
        )
        .fixing(json!({"ruleset": "main_merah"}))
        .players(2, 3),
    ]
}
