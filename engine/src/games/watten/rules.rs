//! The options of Watten (ids exactly as in spec §7), their declared specs, the presets (one game
//! id per variant), and the option resolution of R64 (variant defaults, inapplicable options).

use crate::cards::{Card, CardSet, PackSpec, Rank, Suit};
use crate::error::SetupError;
use crate::options::{FirstDealer, OptionSpec, PlayerRange, PlayersWhen, Preset};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};
use std::sync::LazyLock;

/// The regional ruleset (`variant`, spec §7).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Variant {
    /// Bavarian Watten (default): criticals KH > 7D > 7C, target 11.
    Bavarian,
    /// Salzburg / North Tyrol: criticals KH > 6D > 7C, 33 cards.
    Austrian,
    /// Carinthia: four criticals JH (or JD) > KH > 7D > 7C.
    Carinthian,
    /// Tyrolean Watten: no criticals, the Weli 6D, target 15.
    Tyrolean,
    /// Kritische Watten: Tyrolean with criticals KH > 6D > 7C (or four).
    Kritische,
    /// Blind Watten: designated cards, two seats do not know the trump.
    Blind,
    /// Bohemian Watten: every player for himself, scores count down.
    Bohemian,
}

impl Variant {
    /// Bavarian, Austrian, Carinthian: the cut with criticals, trick-1 duty.
    pub fn bavarian_family(self) -> bool {
        matches!(
            self,
            Variant::Bavarian | Variant::Austrian | Variant::Carinthian
        )
    }

    /// Tyrolean, Kritische, Blind: no cut, trump-lead duty in every trick.
    pub fn tyrolean_family(self) -> bool {
        matches!(
            self,
            Variant::Tyrolean | Variant::Kritische | Variant::Blind
        )
    }

    /// Uses the 33-card pack (with the Weli 6D).
    pub fn has_weli(self) -> bool {
        matches!(
            self,
            Variant::Austrian | Variant::Tyrolean | Variant::Kritische | Variant::Blind
        )
    }

    /// The id as written in options.
    pub fn id(self) -> &'static str {
        match self {
            Variant::Bavarian => "bavarian",
            Variant::Austrian => "austrian",
            Variant::Carinthian => "carinthian",
            Variant::Tyrolean => "tyrolean",
            Variant::Kritische => "kritische",
            Variant::Blind => "blind",
            Variant::Bohemian => "bohemian",
        }
    }

    fn parse(id: &str) -> Option<Variant> {
        ALL_VARIANTS.iter().copied().find(|v| v.id() == id)
    }
}

const ALL_VARIANTS: [Variant; 7] = [
    Variant::Bavarian,
    Variant::Austrian,
    Variant::Carinthian,
    Variant::Tyrolean,
    Variant::Kritische,
    Variant::Blind,
    Variant::Bohemian,
];

/// Who declares in a 3-player game (`three_player_declarer`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ThreePlayerDeclarer {
    /// E names rank and suit (seed).
    EldestBoth,
    /// E names the rank, the dealer the suit.
    EldestRankDealerSuit,
}

/// When a raise may be made (`raise_timing`, §3.4.1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum RaiseTiming {
    /// Any seat of an eligible side, at any moment of play (several actors).
    AnyTime,
    /// Only the seat to play; one actor at a time.
    OnTurn,
}

/// The raise cap (`raise_cap`, §3.4.1 item 5).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum RaiseCap {
    /// A raise to v needs v ≤ target − own score.
    Needed,
    /// A raise to v needs v ≤ target; sides at target − 2 or more are barred.
    Target,
}

/// The last-trick raise rule (`last_trick_raise`, §3.4.4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum LastTrickRaise {
    /// No special rule.
    Free,
    /// At 2:2 in trick 5 the first raise needs a qualifying last card.
    Restricted,
    /// At 2:2 in trick 5 the first raise may be challenged.
    Challenge,
}

/// The Guate when 6 is the Schlag (`guate_on_six_schlag`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum GuateOnSix {
    /// No Guate.
    None,
    /// The 7 of trumps.
    TrumpSeven,
}

/// The Weli's role (`weli_mode`, §4.1 item 5).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum WeliMode {
    /// Always the lowest trump.
    AlwaysTrump,
    /// An ordinary bells card.
    Bells,
    /// Belongs to no suit (Blind only).
    NoSuit,
}

/// The Kritische set (`kritische_set`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum KritischeSet {
    /// KH > 6D > 7C.
    Three,
    /// KH > 6D > 7D > 7C.
    Four,
}

/// The Carinthian top Unter (`carinthian_top`, R21).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub enum CarinthianTop {
    /// Jack of hearts.
    #[serde(rename = "JH")]
    Jh,
    /// Jack of bells.
    #[serde(rename = "JD")]
    Jd,
}

/// Blind designation reveal (`blind_reveal`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum BlindReveal {
    /// The dealer sees E's card only after his own designation.
    Simultaneous,
    /// The dealer sees E's card before choosing.
    Sequential,
}

/// Public signals (`signals`, §3.8).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Signals {
    /// No signals (default).
    Off,
    /// Cheap-talk codes visible to all seats.
    Public,
}

/// Options of one Watten game (spec §7). Every field is an option id.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Options {
    /// `variant`.
    pub variant: Variant,
    /// `first_dealer`: seat of the first deal's dealer.
    pub first_dealer: usize,
    /// `target`: 11, 15 or 18.
    #[schemars(extend("enum" = [11, 15, 18]))]
    pub target: i32,
    /// `cut_criticals`.
    pub cut_criticals: bool,
    /// `maschine`.
    pub maschine: bool,
    /// `maschine_points`.
    pub maschine_points: i32,
    /// `schlag_swap`.
    pub schlag_swap: bool,
    /// `schlag_must_hold`.
    pub schlag_must_hold: bool,
    /// `three_player_declarer`.
    pub three_player_declarer: ThreePlayerDeclarer,
    /// `new_cards`.
    pub new_cards: bool,
    /// `raise_timing`.
    pub raise_timing: RaiseTiming,
    /// `raise_cap`.
    pub raise_cap: RaiseCap,
    /// `jump_to_four`.
    pub jump_to_four: bool,
    /// `last_trick_raise`.
    pub last_trick_raise: LastTrickRaise,
    /// `guate`.
    pub guate: bool,
    /// `guate_on_six_schlag`.
    pub guate_on_six_schlag: GuateOnSix,
    /// `weli_mode`.
    pub weli_mode: WeliMode,
    /// `rechte_exempt`.
    pub rechte_exempt: bool,
    /// `kritische_set`.
    pub kritische_set: KritischeSet,
    /// `carinthian_top`.
    pub carinthian_top: CarinthianTop,
    /// `six_schlag_partner_view`.
    pub six_schlag_partner_view: bool,
    /// `blind_reveal`.
    pub blind_reveal: BlindReveal,
    /// `signals`.
    pub signals: Signals,
    /// `bohemian_start`.
    pub bohemian_start: i32,
    /// `bohemian_trick_points`.
    pub bohemian_trick_points: i32,
    /// `max_deals`.
    pub max_deals: u32,
}

/// The Weli, 6 of bells.
pub fn weli() -> Card {
    Card::new(Rank::Six, Suit::Diamonds)
}

/// Sevens to aces, and the Weli when the variant has it.
fn pack_of(with_weli: bool) -> PackSpec {
    let pack = PackSpec::ranks_from(Rank::Seven);
    if with_weli {
        pack.extra(&[weli()])
    } else {
        pack
    }
}

impl Options {
    /// The pack of the variant: 32 cards, or 33 with the Weli.
    pub fn pack(&self) -> PackSpec {
        pack_of(self.variant.has_weli())
    }

    /// The cards of [`Options::pack`] in its order, built once per pack (every deal shuffles them).
    pub fn pack_cards(&self) -> &'static [Card] {
        static WITH_WELI: LazyLock<Vec<Card>> = LazyLock::new(|| pack_of(true).cards());
        static WITHOUT_WELI: LazyLock<Vec<Card>> = LazyLock::new(|| pack_of(false).cards());
        if self.variant.has_weli() {
            &WITH_WELI
        } else {
            &WITHOUT_WELI
        }
    }

    /// The criticals, highest first (`CRIT`, §2.1): a constant list per variant (the roles of a
    /// deal are computed on every move; nothing is allocated for them).
    pub fn criticals(&self) -> &'static [Card] {
        const KH: Card = Card::new(Rank::King, Suit::Hearts);
        const JH: Card = Card::new(Rank::Jack, Suit::Hearts);
        const JD: Card = Card::new(Rank::Jack, Suit::Diamonds);
        const D6: Card = Card::new(Rank::Six, Suit::Diamonds);
        const D7: Card = Card::new(Rank::Seven, Suit::Diamonds);
        const C7: Card = Card::new(Rank::Seven, Suit::Clubs);
        match self.variant {
            Variant::Bavarian | Variant::Bohemian => &[KH, D7, C7],
            Variant::Austrian => &[KH, D6, C7],
            Variant::Carinthian => match self.carinthian_top {
                CarinthianTop::Jh => &[JH, KH, D7, C7],
                CarinthianTop::Jd => &[JD, KH, D7, C7],
            },
            Variant::Kritische => match self.kritische_set {
                KritischeSet::Three => &[KH, D6, C7],
                KritischeSet::Four => &[KH, D6, D7, C7],
            },
            Variant::Tyrolean | Variant::Blind => &[],
        }
    }

    /// The cards of [`Options::pack`] as a set, without building the pack's list.
    pub fn pack_set(&self) -> CardSet {
        // Sevens up to aces are the bits from the first seven to the last ace (cards are indexed
        // rank-major); a constant, since this runs for every legal list and every move.
        const SEVEN_TO_ACE: u64 = (1u64 << (Card::new(Rank::Ace, Suit::Clubs).index() + 1))
            - (1u64 << Card::new(Rank::Seven, Suit::Spades).index());
        let mut set = CardSet(SEVEN_TO_ACE);
        if self.variant.has_weli() {
            set.insert(weli());
        }
        set
    }

    /// The ranks that may be declared as Schlag (R8), low to high: a constant list (it is read for
    /// every naming move).
    pub fn schlag_ranks(&self) -> &'static [Rank] {
        // `Rank::ALL` runs 2..A: Six is its fifth entry, Seven its sixth.
        if self.variant == Variant::Tyrolean {
            &Rank::ALL[4..]
        } else {
            &Rank::ALL[5..]
        }
    }
}

/// Every option with its family default (the Bavarian values; variant defaults: R64 resolution).
pub fn option_specs() -> Vec<OptionSpec> {
    vec![
        OptionSpec::choice(
            "variant",
            &ALL_VARIANTS.map(Variant::id),
            "bavarian",
            "Regional ruleset: bavarian, austrian (Salzburg/North Tyrol), carinthian, tyrolean, kritische, blind, bohemian (spec §7).",
        ),
        OptionSpec::integer(
            "first_dealer",
            0,
            5,
            0,
            "Seat of the first dealer; the deal then passes to seat+1 (R49).",
        ),
        OptionSpec::integer_choice(
            "target",
            &[11, 15, 18],
            11,
            "Points to win: 11, 15 or 18 (default 11 in the Bavarian family, 15 in the Tyrolean family; not Bohemian).",
        )
        .not_when(json!({"variant": ["bohemian"]})),
        OptionSpec::boolean(
            "cut_criticals",
            true,
            "Bavarian family: criticals revealed at the cut go to the cutter (§2.4).",
        )
        .not_when(json!({"variant": ["tyrolean", "kritische", "blind", "bohemian"]})),
        OptionSpec::boolean(
            "maschine",
            false,
            "A seat dealt every critical scores maschine_points at once (§3.1.1).",
        )
        .not_when(json!({"variant": ["tyrolean", "blind", "bohemian"]})),
        OptionSpec::integer(
            "maschine_points",
            1,
            18,
            2,
            "Points of a Maschine (with maschine).",
        )
        .not_when(json!({"variant": ["tyrolean", "blind", "bohemian"]}))
        .not_when(json!({"maschine": [false]})),
        OptionSpec::boolean(
            "schlag_swap",
            false,
            "E may propose the Schlagwechsel (2/4 players, not Blind).",
        )
        .not_when(json!({"variant": ["blind", "bohemian"]}))
        .not_when(json!({"players": [3]})),
        OptionSpec::boolean(
            "schlag_must_hold",
            false,
            "The Schlag must be a rank the declarer holds (house rule).",
        )
        .not_when(json!({"variant": ["blind", "bohemian"]})),
        OptionSpec::choice(
            "three_player_declarer",
            &["eldest_both", "eldest_rank_dealer_suit"],
            "eldest_both",
            "3 players: who names the trump suit.",
        )
        .not_when(json!({"variant": ["bohemian"]}))
        .not_when(json!({"players": [2, 4, 5, 6]})),
        OptionSpec::boolean(
            "new_cards",
            false,
            "E may propose new cards (Schöneres); default on in the Tyrolean family.",
        )
        .not_when(json!({"variant": ["bohemian"]})),
        OptionSpec::choice(
            "raise_timing",
            &["any_time", "on_turn"],
            "any_time",
            "any_time: any seat of an eligible side may raise at any moment; on_turn: only the seat to play (one actor).",
        )
        .not_when(json!({"variant": ["bohemian"]})),
        OptionSpec::choice(
            "raise_cap",
            &["needed", "target"],
            "needed",
            "Raise cap: to the points needed, or to the target with a bar at target−2.",
        )
        .not_when(json!({"variant": ["bohemian"]})),
        OptionSpec::boolean(
            "jump_to_four",
            false,
            "2/4 players: a side 4+ behind may open with a raise to 4.",
        )
        .not_when(json!({"variant": ["bohemian"]}))
        .not_when(json!({"players": [3]})),
        OptionSpec::choice(
            "last_trick_raise",
            &["free", "restricted", "challenge"],
            "free",
            "Tyrolean family: first raise at 2:2 in trick 5 (§3.4.4).",
        )
        .not_when(json!({"variant": ["bavarian", "austrian", "carinthian", "bohemian"]})),
        OptionSpec::boolean(
            "guate",
            false,
            "Tyrolean family: the Guate (trump card one rank above the Schlag); always on in Blind.",
        )
        .not_when(json!({"variant": ["bavarian", "austrian", "carinthian", "bohemian"]}))
        .constrained(json!({"variant": ["blind"]}), json!([true])),
        OptionSpec::choice(
            "guate_on_six_schlag",
            &["none", "trump_seven"],
            "none",
            "With Guate: the Guate when 6 is the Schlag.",
        )
        .not_when(json!({"variant": ["bavarian", "austrian", "carinthian", "bohemian"]}))
        .not_when(json!({"guate": [false]})),
        OptionSpec::choice(
            "weli_mode",
            &["always_trump", "bells", "no_suit"],
            "always_trump",
            "tyrolean: always_trump (default) or bells; blind: bells (default) or no_suit.",
        )
        .not_when(json!({"variant": ["bavarian", "austrian", "carinthian", "kritische", "bohemian"]}))
        .constrained(json!({"variant": ["tyrolean"]}), json!(["always_trump", "bells"]))
        .constrained(json!({"variant": ["blind"]}), json!(["bells", "no_suit"])),
        OptionSpec::boolean(
            "rechte_exempt",
            false,
            "Tyrolean family: the Rechte is never forced by a trump lead.",
        )
        .not_when(json!({"variant": ["bavarian", "austrian", "carinthian", "bohemian"]})),
        OptionSpec::choice(
            "kritische_set",
            &["three", "four"],
            "three",
            "Kritische: three or four criticals.",
        )
        .not_when(json!({"variant": ["bavarian", "austrian", "carinthian", "tyrolean", "blind", "bohemian"]})),
        OptionSpec::choice(
            "carinthian_top",
            &["JH", "JD"],
            "JH",
            "Carinthian: the top critical Unter (R21).",
        )
        .not_when(json!({"variant": ["bavarian", "austrian", "tyrolean", "kritische", "blind", "bohemian"]})),
        OptionSpec::boolean(
            "six_schlag_partner_view",
            true,
            "Tyrolean 4 players: with Schlag 6 partners see each other's hands (R31).",
        )
        .not_when(json!({"variant": ["bavarian", "austrian", "carinthian", "kritische", "blind", "bohemian"]}))
        .not_when(json!({"players": [2, 3, 5, 6]})),
        OptionSpec::choice(
            "blind_reveal",
            &["simultaneous", "sequential"],
            "simultaneous",
            "Blind: whether the dealer sees E's card before designating.",
        )
        .not_when(json!({"variant": ["bavarian", "austrian", "carinthian", "tyrolean", "kritische", "bohemian"]})),
        OptionSpec::choice(
            "signals",
            &["off", "public"],
            "off",
            "4 players: public cheap-talk signals (§3.8).",
        )
        .not_when(json!({"variant": ["bohemian"]}))
        .not_when(json!({"players": [2, 3, 5, 6]})),
        OptionSpec::integer("bohemian_start", 1, 1000, 20, "Bohemian: starting score.")
            .not_when(json!({"variant": ["bavarian", "austrian", "carinthian", "tyrolean", "kritische", "blind"]})),
        OptionSpec::integer(
            "bohemian_trick_points",
            1,
            2,
            1,
            "Bohemian: points per trick (seed literal 2).",
        )
        .not_when(json!({"variant": ["bavarian", "austrian", "carinthian", "tyrolean", "kritische", "blind"]})),
        OptionSpec::integer(
            "max_deals",
            1,
            100_000,
            100,
            "Bohemian: safety cap on the number of deals (R47).",
        )
        .not_when(json!({"variant": ["bavarian", "austrian", "carinthian", "tyrolean", "kritische", "blind"]})),
    ]
}

/// The presets: one game id per variant. Ranked ids default `raise_timing=on_turn` (R71); a
/// request may still set `any_time`. Every preset but `watten` fixes its variant.
pub fn presets() -> Vec<Preset> {
    let on_turn = json!({"raise_timing": "on_turn"});
    vec![
        Preset::plain(
            "watten",
            "Watten (Bavarian)",
            "Bavarian Watten, 2-4 players (4 in partnerships), criticals Maxi, Belli, Spitz, to 11. The family's base id: `variant` selects any other ruleset.",
        )
        .defaulting(on_turn.clone())
        .players(2, 4),
        Preset::plain(
            "watten_austrian",
            "Watten (Salzburg / North Tyrol)",
            "Austrian Watten: 33 cards, criticals KH > 6D (Weli) > 7C, to 11.",
        )
        .fixing(json!({"variant": "austrian"}))
        .defaulting(on_turn.clone())
        .players(2, 4),
        Preset::plain(
            "watten_carinthian",
            "Watten (Carinthia)",
            "Carinthian Watten: four criticals JH > KH > 7D > 7C, to 11.",
        )
        .fixing(json!({"variant": "carinthian"}))
        .defaulting(on_turn.clone())
        .players(2, 4),
        Preset::plain(
            "watten_tyrolean",
            "Watten (Tyrolean)",
            "Tyrolean Watten: 33 cards with the Weli, no criticals, new-cards proposal, trump-lead duty, to 15.",
        )
        .fixing(json!({"variant": "tyrolean"}))
        .defaulting(json!({"raise_timing": "on_turn", "target": 15, "new_cards": true}))
        .players(2, 4),
        Preset::plain(
            "watten_kritische",
            "Kritische Watten",
            "Tyrolean Watten with the criticals Martl KH, Weli 6D, Nell 7C (option: four), to 15.",
        )
        .fixing(json!({"variant": "kritische"}))
        .defaulting(json!({"raise_timing": "on_turn", "target": 15, "new_cards": true}))
        .players(2, 4),
        Preset::plain(
            "watten_blind",
            "Blind Watten",
            "Blind (Ladin) Watten, 4 players: E and the dealer secretly designate Schlag and trump; their partners play blind. Guate on, to 15.",
        )
        .fixing(json!({"variant": "blind"}))
        .defaulting(json!({"raise_timing": "on_turn", "target": 15, "new_cards": true, "guate": true, "weli_mode": "bells"}))
        .players(4, 4),
        Preset::plain(
            "watten_bohemian",
            "Bohemian Watten",
            "Bohemian Watten, 2-6 players each for himself: trump from the bottom card, exchange, follow and beat; scores count down from 20.",
        )
        .fixing(json!({"variant": "bohemian"}))
        .players(2, 6),
    ]
}

/// R64: options not given take their variant's default (target, new_cards, guate, weli_mode).
/// Options given for a variant or player count they do not apply to, and values a variant does
/// not allow, are refused by the generic check of each option's declared `constraints`.
pub fn resolve(
    requested: &Map<String, Value>,
    merged: &mut Map<String, Value>,
) -> Result<(), SetupError> {
    let Some(variant) = merged
        .get("variant")
        .and_then(Value::as_str)
        .and_then(Variant::parse)
    else {
        return Ok(()); // typing reports the bad value
    };
    let tyr = variant.tyrolean_family();
    // Variant defaults for options not given.
    let defaults = [
        ("target", json!(if tyr { 15 } else { 11 })),
        ("new_cards", json!(tyr)),
        ("guate", json!(variant == Variant::Blind)),
        (
            "weli_mode",
            json!(if variant == Variant::Blind {
                "bells"
            } else {
                "always_trump"
            }),
        ),
    ];
    for (id, value) in defaults {
        if !requested.contains_key(id) {
            merged.insert(id.into(), value);
        }
    }
    Ok(())
}

/// The player range follows the variant (spec §7 options table): Blind 4, Bohemian 2 to 6; the
/// other variants take the preset's range (2 to 4).
pub fn players_when() -> Vec<PlayersWhen> {
    let range = |variant: &str, min, max| PlayersWhen {
        when: json!({ "variant": [variant] })
            .as_object()
            .cloned()
            .unwrap_or_default(),
        players: PlayerRange { min, max },
    };
    vec![range("blind", 4, 4), range("bohemian", 2, 6)]
}

/// Player-dependent checks done at setup.
pub fn check_players(options: &Options, players: usize) -> Result<(), SetupError> {
    let (min, max) = match options.variant {
        Variant::Blind => (4, 4),
        Variant::Bohemian => (2, 6),
        _ => (2, 4),
    };
    if !(min..=max).contains(&players) {
        return Err(SetupError::InvalidOptions(format!(
            "variant {} is played by {min} to {max} players, not {players}",
            options.variant.id()
        )));
    }
    FirstDealer::Seat(options.first_dealer)
        .check(players)
        .map_err(SetupError::InvalidOptions)
}
