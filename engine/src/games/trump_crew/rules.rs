//! Options of Trump Crew (spec §7), the option list the API publishes and the presets.

pub use crate::options::FirstDealer;
use crate::options::{OptionSpec, Preset};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::{Value, json};

/// Fewest players (R1).
pub const MIN_PLAYERS: usize = 2;
/// Most players (R1).
pub const MAX_PLAYERS: usize = 17;
/// Cards in the pack: 52 + one joker.
pub const PACK_SIZE: usize = 53;

/// S(n) = floor(52 / n): the number of stages of an n-player game (spec §1, R1).
pub const fn auto_stages(players: usize) -> usize {
    match 52usize.checked_div(players) {
        Some(stages) => stages,
        None => 0,
    }
}

/// `"auto"` or a number.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AutoOr {
    /// `"auto"`: the value the spec derives from the player count.
    Auto,
    /// An explicit number.
    Value(u32),
}

impl Serialize for AutoOr {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            AutoOr::Auto => serializer.serialize_str("auto"),
            AutoOr::Value(v) => serializer.serialize_u32(*v),
        }
    }
}

impl<'de> Deserialize<'de> for AutoOr {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        match Value::deserialize(deserializer)? {
            Value::String(s) if s == "auto" => Ok(AutoOr::Auto),
            Value::Number(n) => n
                .as_u64()
                .and_then(|v| u32::try_from(v).ok())
                .map(AutoOr::Value)
                .ok_or_else(|| serde::de::Error::custom(format!("{n} is not a count"))),
            other => Err(serde::de::Error::custom(format!(
                "expected \"auto\" or a number, not {other}"
            ))),
        }
    }
}

/// Options for one game of Trump Crew (spec §7). The player count is the setup's `players`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields, default)]
pub struct Options {
    /// `stages`: the final stage S, `auto` = floor(52 / n) (spec §1, R1).
    pub stages: AutoOr,
    /// `max_deals`: deals after which an uncleared game is lost; `auto` = 3·S, `None` (null) = no
    /// limit (R13).
    pub max_deals: Option<AutoOr>,
    /// `first_dealer`: `random` (R11) or a seat.
    pub first_dealer: FirstDealer,
    /// `start_stage`: the first stage played (testing convenience), 1..=S.
    pub start_stage: u32,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            stages: AutoOr::Auto,
            max_deals: Some(AutoOr::Auto),
            first_dealer: FirstDealer::Random,
            start_stage: 1,
        }
    }
}

impl Options {
    /// The final stage S for `players`.
    pub fn final_stage(&self, players: usize) -> usize {
        match self.stages {
            AutoOr::Auto => auto_stages(players),
            AutoOr::Value(v) => v as usize,
        }
    }

    /// The deal limit (None = unlimited) for a final stage S.
    pub fn deal_limit(&self, final_stage: usize) -> Option<u64> {
        match self.max_deals {
            None => None,
            Some(AutoOr::Auto) => Some(3 * final_stage as u64),
            Some(AutoOr::Value(v)) => Some(u64::from(v)),
        }
    }

    /// Player-dependent checks (the option list checks each value's type and range).
    pub fn check(&self, players: usize) -> Result<(), String> {
        let most = auto_stages(players);
        let stages = self.final_stage(players);
        if !(1..=most).contains(&stages) {
            return Err(format!(
                "option `stages` must be \"auto\" or from 1 to {most} for {players} players (floor(52/{players})), not {stages}"
            ));
        }
        if !(1..=stages).contains(&(self.start_stage as usize)) {
            return Err(format!(
                "option `start_stage` must be from 1 to the final stage {stages}, not {}",
                self.start_stage
            ));
        }
        if let Some(AutoOr::Value(0)) = self.max_deals {
            return Err("option `max_deals` must be \"auto\", null or at least 1, not 0".into());
        }
        self.first_dealer.check(players)
    }
}

/// The option list the API publishes (spec §7).
pub fn option_specs() -> Vec<OptionSpec> {
    vec![
        OptionSpec::choice_or_integer(
            "stages",
            &["auto"],
            1,
            26,
            json!("auto"),
            "The final stage S: \"auto\" = floor(52 / players) (the sources' tables, R1), or a number from 1 to floor(52 / players).",
        ),
        OptionSpec::choice_or_integer(
            "max_deals",
            &["auto"],
            1,
            100_000,
            json!("auto"),
            "Deals after which a game that has not cleared the final stage ends as a loss: \"auto\" = 3 x S, a number, or null for no limit as in the sources (R13).",
        )
        .or_null(),
        OptionSpec::choice_or_integer(
            "first_dealer",
            &["random"],
            0,
            (MAX_PLAYERS - 1) as i64,
            json!("random"),
            "The first dealer: \"random\" (the sources allow any method, R11) or a seat.",
        ),
        OptionSpec::integer(
            "start_stage",
            1,
            26,
            1,
            "The first stage played, 1..S (testing convenience only).",
        ),
    ]
}

/// The published game ids: the base game only (each id is its own leaderboard).
pub fn presets() -> Vec<Preset> {
    vec![Preset::plain(
        "trump_crew",
        "Trump Crew",
        "Cooperative exact-bid trick taking for 2-17 players: clear stages 1..floor(52/n) by making every bid exactly; the dealer may only say strong, medium or weak.",
    )]
}

impl schemars::JsonSchema for AutoOr {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "AutoOr".into()
    }
    fn schema_id() -> std::borrow::Cow<'static, str> {
        concat!(module_path!(), "::AutoOr").into()
    }
    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        crate::schema::word_or_count(
            "auto",
            "`\"auto\"` (derived from the player count) or an explicit number.",
        )
    }
}
