//! Options of Basra (ids exactly as in the spec's §7 table) and the published presets.

pub use crate::options::FirstDealer;
use crate::options::{OptionSpec, Preset};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

macro_rules! word_enum {
    ($(#[$m:meta])* $name:ident { $($(#[$vm:meta])* $variant:ident = $text:literal),+ $(,)? }) => {
        $(#[$m])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
        pub enum $name {
            $($(#[$vm])* #[serde(rename = $text)] $variant),+
        }
    };
}

word_enum!(
    /// `ruleset`: the national preset; selects the card-point table (R27).
    Ruleset {
        /// Egypt (default).
        Egypt = "egypt",
        /// Jordan.
        Jordan = "jordan",
        /// Yemen.
        Yemen = "yemen",
        /// Ethiopia.
        Ethiopia = "ethiopia",
        /// Lebanon A.
        LebanonA = "lebanon_a",
        /// Lebanon B (Ashush).
        LebanonB = "lebanon_b",
        /// Palestine.
        Palestine = "palestine",
        /// Syria.
        Syria = "syria",
    }
);
word_enum!(
    /// `bury_mode`: where J/7D removed from the initial floor go (R4, R25).
    BuryMode {
        /// A random position each (one RNG draw per card).
        Random = "random",
        /// Under the bottom card, in order.
        Bottom = "bottom",
        /// Shuffled into the bottom ten cards.
        Bottom10 = "bottom10",
    }
);
word_enum!(
    /// `same_rank_capture` (R2).
    SameRank {
        /// Exactly one same-rank card (the player's choice).
        One = "one",
        /// All of them.
        All = "all",
    }
);
word_enum!(
    /// `sum_capture` (R3).
    SumCapture {
        /// The sum groups must cover as many cards as possible.
        Maximal = "maximal",
        /// Any family of sum groups, none included.
        Optional = "optional",
    }
);
word_enum!(
    /// `majority` award (R8).
    Majority {
        /// 30 points, carried (accumulating) on an equal split.
        Carry30 = "30_carry",
        /// 3 points, nothing on a tie.
        NoCarry3 = "3_no_carry",
    }
);
word_enum!(
    /// `basra_rule` (§4.5, §7).
    BasraRule {
        /// Egypt.
        Egypt = "egypt",
        /// Yemen.
        Yemen = "yemen",
        /// Ethiopia.
        Ethiopia = "ethiopia",
        /// Lebanon A.
        LebanonA = "lebanon_a",
        /// Lebanon B.
        LebanonB = "lebanon_b",
        /// Jordan, Palestine.
        Pairing = "pairing",
        /// Syria.
        Syria = "syria",
    }
);
word_enum!(
    /// `deck`.
    Deck {
        /// All 52 cards.
        Full = "52",
        /// 44 cards, no queens or kings.
        NoQk = "44_no_qk",
    }
);
word_enum!(
    /// `tie_rule` (R9, R30).
    TieRule {
        /// Equal highest totals draw.
        Draw = "draw",
        /// Deal on until one side leads alone.
        SuddenDeath = "sudden_death",
    }
);
word_enum!(
    /// `rubber` (R24).
    Rubber {
        /// A single game.
        None = "none",
        /// First to 3 games; the fifth game (2-2) to 150.
        Parlett = "parlett",
        /// First to 3 games, each to 150.
        Seed = "seed",
    }
);
word_enum!(
    /// `pairing_value` (R11).
    PairingValue {
        /// Twice the card's value (A 2 ... T/Q/K 20).
        DoubleValue = "double_value",
        /// 20 for every rank, 7 on 7 14.
        SeedFlat = "seed_flat",
    }
);
word_enum!(
    /// `syria_double`.
    SyriaDouble {
        /// Jacks, queens and kings double.
        Jqk = "JQK",
        /// Only jacks double.
        J = "J",
    }
);
word_enum!(
    /// `syria_card_points`.
    SyriaCardPoints {
        /// J 12.5, Q 3, K 4, TD 3, 2C 2, aces 1.
        Full = "full",
        /// Only the jacks (12.5).
        JOnly = "j_only",
    }
);
/// `game_end` (R33): `{"target": T}` or `{"ladder": [t1, ...]}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum GameEnd {
    /// First side at or above T wins (highest total).
    Target(i64),
    /// Successive targets (§5).
    Ladder(Vec<i64>),
}

/// Options of one game of Basra (spec §7).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Options {
    /// `ruleset`.
    pub ruleset: Ruleset,
    /// `open_cut`: the bottom card is shown to both players (2 players only, R32).
    pub open_cut: bool,
    /// `bury_mode`.
    pub bury_mode: BuryMode,
    /// `same_rank_capture`.
    pub same_rank_capture: SameRank,
    /// `sum_capture`.
    pub sum_capture: SumCapture,
    /// `basra_on_last_card` (R7).
    pub basra_on_last_card: bool,
    /// `first_dealer`.
    pub first_dealer: FirstDealer,
    /// `hand_size`: cards per player per round.
    pub hand_size: usize,
    /// `seven_d_special`: 7D sweeps and is buried from the initial floor.
    pub seven_d_special: bool,
    /// `majority`.
    pub majority: Majority,
    /// `basra_rule`.
    pub basra_rule: BasraRule,
    /// `deck`.
    pub deck: Deck,
    /// `game_end`.
    pub game_end: GameEnd,
    /// `tie_rule`.
    pub tie_rule: TieRule,
    /// `rubber`.
    pub rubber: Rubber,
    /// `pairing_value`.
    pub pairing_value: PairingValue,
    /// `syria_double`.
    pub syria_double: SyriaDouble,
    /// `syria_card_points`.
    pub syria_card_points: SyriaCardPoints,
}

/// Every option of the family with Egypt's defaults.
pub fn option_specs() -> Vec<OptionSpec> {
    vec![
        OptionSpec::choice(
            "ruleset",
            &[
                "egypt",
                "jordan",
                "yemen",
                "ethiopia",
                "lebanon_a",
                "lebanon_b",
                "palestine",
                "syria",
            ],
            "egypt",
            "National preset; fixed by each game id. Selects the card-point table (R27).",
        ),
        OptionSpec::boolean(
            "open_cut",
            false,
            "Two players: the bottom card after the cut is shown to both (R32).",
        ),
        OptionSpec::choice(
            "bury_mode",
            &["random", "bottom", "bottom10"],
            "random",
            "Where jacks (and the 7D) dealt to the initial floor are buried in the stock (R4, R25).",
        ),
        OptionSpec::choice(
            "same_rank_capture",
            &["one", "all"],
            "one",
            "With several same-rank floor cards: take one (player's choice) or all (R2).",
        ),
        OptionSpec::choice(
            "sum_capture",
            &["maximal", "optional"],
            "maximal",
            "Sum captures: compulsory and maximal, or optional (R3).",
        ),
        OptionSpec::boolean(
            "basra_on_last_card",
            true,
            "Whether a bonus made with the last card of the deal counts (R7).",
        ),
        OptionSpec::choice_or_integer(
            "first_dealer",
            &["random"],
            0,
            3,
            json!("random"),
            "First dealer: random or a seat.",
        ),
        OptionSpec::integer(
            "hand_size",
            4,
            6,
            4,
            "Cards dealt to each player per round (R20).",
        ),
        OptionSpec::boolean(
            "seven_d_special",
            true,
            "The 7D sweeps the floor and is buried from the initial floor (R15).",
        ),
        OptionSpec::choice(
            "majority",
            &["30_carry", "3_no_carry"],
            "30_carry",
            "Majority of cards: 30 carried on ties, or 3 with no carry (R8).",
        ),
        OptionSpec::choice(
            "basra_rule",
            &[
                "egypt",
                "yemen",
                "ethiopia",
                "lebanon_a",
                "lebanon_b",
                "pairing",
                "syria",
            ],
            "egypt",
            "Which captures earn a bonus (§4.5, §7).",
        ),
        OptionSpec::choice(
            "deck",
            &["52", "44_no_qk"],
            "52",
            "The pack: 52 cards, or 44 without queens and kings (R12, R13).",
        ),
        OptionSpec::object(
            "game_end",
            &["{\"target\": T}", "{\"ladder\": [t1, ...]}"],
            json!({"target": 101}),
            "Game end: first to a target, or a ladder of targets (R30, R33).",
        ),
        OptionSpec::choice(
            "tie_rule",
            &["draw", "sudden_death"],
            "draw",
            "Equal highest totals at the target: draw, or deal on (R9).",
        ),
        OptionSpec::choice(
            "rubber",
            &["none", "parlett", "seed"],
            "none",
            "Match of games: none, first to 3 (Parlett: 5th game to 150), or first to 3 with games to 150 (R24).",
        ),
        OptionSpec::choice(
            "pairing_value",
            &["double_value", "seed_flat"],
            "double_value",
            "Pairing bonus: twice the card's value, or 20 (7 on 7: 14) (R11).",
        ),
        OptionSpec::choice(
            "syria_double",
            &["JQK", "J"],
            "JQK",
            "Syria: which lone cards double when taken by their rank.",
        ),
        OptionSpec::choice(
            "syria_card_points",
            &["full", "j_only"],
            "full",
            "Syria: the full card-point table or the jacks only.",
        ),
    ]
}

fn pair(
    ids: [&'static str; 4],
    description: &'static str,
    fixed: Value,
    defaults: Value,
) -> [Preset; 2] {
    [
        Preset::plain(ids[0], ids[1], description)
            .fixing(fixed.clone())
            .defaulting(defaults.clone())
            .players(2, 2),
        Preset::plain(ids[2], ids[3], description)
            .fixing(fixed)
            .defaulting(defaults)
            .players(4, 4),
    ]
}

/// The published game ids: each ruleset for 2 players and, as `<id>_partners`, for 4 players in
/// two partnerships; plus the two-player open cut. The first is the family default.
pub fn presets() -> Vec<Preset> {
    let mut out = Vec::new();
    out.extend(pair(
        ["basra", "Basra", "basra_partners", "Basra, partnerships"],
        "Egyptian Basra: capture by rank and by sums, jacks and the 7D sweep, basras score 10; game to 101.",
        json!({"ruleset": "egypt"}),
        json!({}),
    ));
    out.push(
        Preset::plain(
            "basra_open_cut",
            "Basra, open cut",
            "Two-player Egyptian Basra where the bottom card after the cut is shown to both players.",
        )
        .fixing(json!({"ruleset": "egypt", "open_cut": true}))
        .players(2, 2),
    );
    let variants: [([&'static str; 4], &'static str, &'static str, Value); 7] = [
        (
            [
                "basra_jordan",
                "Basra (Jordan)",
                "basra_jordan_partners",
                "Basra (Jordan), partnerships",
            ],
            "jordan",
            "Jordanian Basra: a lone card taken by its rank scores twice its value (Q, K = 10); majority 3.",
            json!({"seven_d_special": false, "majority": "3_no_carry", "basra_rule": "pairing"}),
        ),
        (
            [
                "basra_yemen",
                "Basra (Yemen)",
                "basra_yemen_partners",
                "Basra (Yemen), partnerships",
            ],
            "yemen",
            "Yemeni Basra: wider 7D basras and 20 for a jack on a lone jack.",
            json!({"basra_rule": "yemen"}),
        ),
        (
            [
                "basra_ethiopia",
                "Basra (Ethiopia)",
                "basra_ethiopia_partners",
                "Basra (Ethiopia), partnerships",
            ],
            "ethiopia",
            "Ethiopian Basra: a queen on a lone queen is no basra; majority 3; game to 51.",
            json!({"majority": "3_no_carry", "basra_rule": "ethiopia", "game_end": {"target": 51}}),
        ),
        (
            [
                "basra_lebanon_a",
                "Basra (Lebanon A)",
                "basra_lebanon_a_partners",
                "Basra (Lebanon A), partnerships",
            ],
            "lebanon_a",
            "Lebanese Basra: six cards, basras only on floors of one or two cards; sudden death.",
            json!({"hand_size": 6, "seven_d_special": false, "majority": "3_no_carry", "basra_rule": "lebanon_a", "tie_rule": "sudden_death"}),
        ),
        (
            [
                "basra_lebanon_b",
                "Ashush (Lebanon B)",
                "basra_lebanon_b_partners",
                "Ashush (Lebanon B), partnerships",
            ],
            "lebanon_b",
            "Lebanese Ashush: basras only on a lone floor card; sudden death.",
            json!({"seven_d_special": false, "majority": "3_no_carry", "basra_rule": "lebanon_b", "tie_rule": "sudden_death"}),
        ),
        (
            [
                "basra_palestine",
                "Basra (Palestine)",
                "basra_palestine_partners",
                "Basra (Palestine), partnerships",
            ],
            "palestine",
            "Palestinian Basra: 44 cards without queens and kings; pairing bonuses.",
            json!({"deck": "44_no_qk", "seven_d_special": false, "majority": "3_no_carry", "basra_rule": "pairing"}),
        ),
        (
            [
                "basra_syria",
                "Basra (Syria)",
                "basra_syria_partners",
                "Basra (Syria), partnerships",
            ],
            "syria",
            "Syrian Basra: 44 cards, jacks 12.5 points, a jack on a lone jack doubles.",
            json!({"deck": "44_no_qk", "majority": "3_no_carry", "basra_rule": "syria"}),
        ),
    ];
    for (ids, ruleset, description, defaults) in variants {
        out.extend(pair(
            ids,
            description,
            json!({"ruleset": ruleset}),
            defaults,
        ));
    }
    out
}
