//! Options of Marglia and Maniglia (spec §7 and Part II) and the published presets.

use crate::cards::{Card, Rank, Suit};
pub use crate::options::FirstDealer;
use crate::options::{OptionSpec, Preset};
use serde::{Deserialize, Serialize};
use serde_json::json;

/// Which game: Marglia (Part I) or the experimental Maniglia (Part II).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Variant {
    /// Marglia: 4 players in partnerships, trump turned up from the bottom card.
    Marglia,
    /// Maniglia: 3-5 players, trumps named by the winner of a points auction (proposed rules).
    Maniglia,
}

/// The per-trick bonus point (R2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum TrickBonus {
    /// +1 per trick holding at least one frillo (2-6) (seed).
    Frillo,
    /// +1 per trick (pagat).
    EveryTrick,
    /// No trick bonus.
    None,
}

/// The structured partner questions (R9).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Communication {
    /// No communication phase.
    Off,
    /// One engine-answered public question per player before the first lead.
    Structured,
}

/// How long a game lasts (`game_length`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum GameLength {
    /// A fixed number of deals (thrown-in and stopped deals count).
    Deals(u32),
    /// Until a side's cumulative score reaches this after a deal.
    Target(i64),
}

/// The options of a game of Marglia or Maniglia (ids exactly as in the spec). Options that only
/// one of the two games declares take their defaults in the other.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields, default)]
pub struct Options {
    /// `variant`: Marglia or Maniglia (fixed by the game id).
    pub variant: Variant,
    /// `first_dealer`: `"random"` or a seat (R16).
    pub first_dealer: FirstDealer,
    /// `trick_bonus`: the per-trick bonus point (R2).
    pub trick_bonus: TrickBonus,
    /// `deal_threshold`: a side scores only the points above this (35; 45 "not recommended").
    pub deal_threshold: i64,
    /// `turnup_bonus`: the turned card's points go to the dealer's side (R3).
    pub turnup_bonus: bool,
    /// `early_stop_at`: Marglia: the dealer may stop the deal when his side has this many (R4).
    pub early_stop_at: Option<i64>,
    /// `must_overtrump`: a void player must beat a trump already in the trick (R5).
    pub must_overtrump: bool,
    /// `communication`: structured partner questions (R9).
    pub communication: Communication,
    /// `game_length`: deals or a target; `None` = one deal per player (Maniglia's default).
    pub game_length: Option<GameLength>,
    /// `maniglia_partnership`: Maniglia with 4 players in two partnerships.
    pub maniglia_partnership: bool,
    /// `maniglia_removed_two`: the 2 removed with 3 players (R13).
    pub maniglia_removed_two: Card,
    /// `turnup_block_at`: Maniglia: no turned-card bonus if the dealer's side already has this (R12).
    pub turnup_block_at: Option<i64>,
    /// `maniglia_min_bid`: the lowest bid of the auction (R11).
    pub maniglia_min_bid: i64,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            variant: Variant::Marglia,
            first_dealer: FirstDealer::Random,
            trick_bonus: TrickBonus::Frillo,
            deal_threshold: 35,
            turnup_bonus: true,
            early_stop_at: Some(35),
            must_overtrump: true,
            communication: Communication::Off,
            game_length: Some(GameLength::Deals(4)),
            maniglia_partnership: true,
            maniglia_removed_two: Card::new(Rank::Two, Suit::Spades),
            turnup_block_at: Some(29),
            maniglia_min_bid: 36,
        }
    }
}

impl Options {
    /// The number of deals or the target, resolved for `players`.
    pub fn length(&self, players: usize) -> GameLength {
        self.game_length
            .unwrap_or(GameLength::Deals(players as u32))
    }
}

fn shared_specs(first_dealer_max: i64) -> Vec<OptionSpec> {
    vec![
        OptionSpec::choice_or_integer(
            "first_dealer",
            &["random"],
            0,
            first_dealer_max,
            json!("random"),
            "First dealer: a uniformly random seat, or this seat (R16). The deal then passes to the next player.",
        ),
        OptionSpec::choice(
            "trick_bonus",
            &["frillo", "every_trick", "none"],
            "frillo",
            "Trick bonus: +1 per trick holding a frillo (2-6) (seed), +1 per trick (pagat), or none (R2).",
        ),
        OptionSpec::integer(
            "deal_threshold",
            0,
            70,
            35,
            "A side scores only the part of its deal total above this (seed: 35; 45 not recommended).",
        ),
        OptionSpec::boolean(
            "turnup_bonus",
            true,
            "The turned card's points go at once to the dealer's side's cumulative score (R3).",
        ),
        OptionSpec::boolean(
            "must_overtrump",
            true,
            "A void player who must trump must beat a trump already in the trick (R5).",
        ),
        OptionSpec::choice(
            "communication",
            &["off", "structured"],
            "off",
            "Partner communication before the first lead: off, or one engine-answered public question each (R9).",
        ),
    ]
}

/// Marglia's declared options (spec §7).
pub fn marglia_specs() -> Vec<OptionSpec> {
    let mut specs = vec![OptionSpec::choice(
        "variant",
        &["marglia", "maniglia"],
        "marglia",
        "Marglia (Part I) or Maniglia (Part II); fixed by the game id.",
    )];
    specs.extend(shared_specs(3));
    specs.push(OptionSpec::integer(
        "early_stop_at",
        0,
        10_000,
        35,
        "After the turn-up, if the dealer's team has at least this many, the dealer may stop the deal unplayed (R4); null disables.",
    )
    .or_null());
    specs.push(game_length_spec(json!({"deals": 4}), false));
    specs
}

/// Maniglia's declared options (spec Part II).
pub fn maniglia_specs() -> Vec<OptionSpec> {
    let mut specs = vec![OptionSpec::choice(
        "variant",
        &["marglia", "maniglia"],
        "maniglia",
        "Marglia (Part I) or Maniglia (Part II); fixed by the game id.",
    )];
    specs.extend(shared_specs(4));
    specs.push(game_length_spec(serde_json::Value::Null, true));
    specs.push(OptionSpec::boolean(
        "maniglia_partnership",
        true,
        "With 4 players: partnerships {0,2} against {1,3}; false: individual play.",
    ));
    specs.push(OptionSpec::choice(
        "maniglia_removed_two",
        &["2S", "2H", "2D", "2C"],
        "2S",
        "With 3 players this 2 is removed from the pack (R13).",
    ));
    specs.push(OptionSpec::integer(
        "turnup_block_at",
        0,
        10_000,
        29,
        "No turned-card bonus if the dealer's side already has at least this many (R12); null disables the block.",
    )
    .or_null());
    specs.push(OptionSpec::integer(
        "maniglia_min_bid",
        0,
        70,
        36,
        "The lowest bid of the auction (R11, proposal).",
    ));
    specs
}

fn game_length_spec(default: serde_json::Value, nullable: bool) -> OptionSpec {
    let spec = OptionSpec::single_key_object(
        "game_length",
        &["deals", "target"],
        (1, 10_000),
        default,
        if nullable {
            "{\"deals\": N} deals, or {\"target\": T}: until a side reaches T after a deal; null = one deal per player."
        } else {
            "{\"deals\": N} deals (seed: one per player), or {\"target\": T}: until a team reaches T after a deal."
        },
    );
    if nullable { spec.or_null() } else { spec }
}

/// Marglia's game ids.
pub fn marglia_presets() -> Vec<Preset> {
    vec![
        Preset::plain(
            "marglia",
            "Marglia",
            "Genoese point-trick game for four in partnerships with a 40-card pack: the bottom card turned up fixes trumps, 7 A K J Q count, tricks with a frillo earn a point, and a team scores only what it makes above 35.",
        )
        .fixing(json!({"variant": "marglia"})),
        Preset::plain(
            "marglia_pagat",
            "Marglia (every trick scores)",
            "Marglia with pagat's trick point: every trick is worth 1, so each deal distributes exactly 70.",
        )
        .fixing(json!({"variant": "marglia", "trick_bonus": "every_trick"})),
    ]
}

/// Maniglia's game ids.
pub fn maniglia_presets() -> Vec<Preset> {
    vec![
        Preset::plain(
            "maniglia",
            "Maniglia (experimental)",
            "EXPERIMENTAL: Marglia's relative for 3 to 5 players (partnerships with 4) where trumps go to the winner of a points auction. The seed gives no procedure: the auction, contract scoring and solo play are the spec's proposed defaults, not a sourced rule set.",
        )
        .fixing(json!({"variant": "maniglia"})),
    ]
}
