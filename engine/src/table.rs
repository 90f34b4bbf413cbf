//! How a table draws a family's view: each family declares once which fields of its view are the
//! hands, the trick, the piles in the centre and before each seat, the badges, the scores and the
//! sides, how its suits are named, and the sentences its events and actions read as. The web pages
//! draw every family from this declaration (served as `table` in the catalog entry of each game
//! id), so a new family adds a declaration, not a page.
//!
//! Paths are JSON Pointers (RFC 6901) into the family's view (or into one item of a list the
//! declaration names). Sentences are templates over an event's or action's fields:
//! `{field}` is the field written in words (pieces as faces, seats as the seat's name),
//! `{field:kind}` says how (see [`Sentence`]), `{field?when true|when false}` chooses by a flag.
//!
//! Every suit of a pack is declared with a symbol and a colour ([`SuitFace`]): suits of one
//! pack either share a colour (their symbols tell them apart) or differ by at least 3:1 in
//! contrast, and every colour reads at 4.5:1 on the white card face (tested below).

use schemars::JsonSchema;
use serde::Serialize;

/// What a family plays with.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum PieceKind {
    /// Playing cards (`AS`, `TD`, `JK`).
    Cards,
    /// Chinese domino tiles (`2-5`).
    Tiles,
}

/// A family's own name of a rank, where it is not the French pack's.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct PieceName {
    /// The code as the wire writes it (`J`).
    pub code: &'static str,
    /// The name in words (`Unter`).
    pub name: &'static str,
    /// What a card face shows (`U`).
    pub short: &'static str,
}

/// The picture of a suit, drawn on card faces in the suit's colour.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum SuitSymbol {
    /// ♣
    Clubs,
    /// ♦
    Diamonds,
    /// ♥ (also the German pack's Herz)
    Hearts,
    /// ♠
    Spades,
    /// An acorn (the German pack's Eichel).
    Acorns,
    /// A leaf (the German pack's Laub).
    Leaves,
    /// A round bell (the German pack's Schellen).
    Bells,
}

/// One suit of a pack as the table shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct SuitFace {
    /// The code as the wire writes it (`C`).
    pub code: &'static str,
    /// The name in words (`clubs`, `Eichel`).
    pub name: &'static str,
    /// The picture on the card face.
    pub symbol: SuitSymbol,
    /// The colour of the suit's symbol and rank on the white card face (`#rrggbb`).
    pub colour: &'static str,
}

/// How the viewer's hand is ordered, left to right: cards named in `first`, then (once the
/// view names them) the cards of the trump rank (the trump suit's first), then the trump suit,
/// then the other suits in `suits` order; within a group by `ranks`, highest first.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct HandOrder {
    /// Suit codes in the order their groups are laid out (alternating colours).
    pub suits: Vec<&'static str>,
    /// Rank codes from the highest to the lowest, in the family's own order.
    pub ranks: Vec<&'static str>,
    /// Card codes that lead the hand whatever trump is (the joker).
    pub first: Vec<&'static str>,
    /// Where the view holds the trump suit (a suit code, or null while there is none).
    pub trump_suit: Option<&'static str>,
    /// Where the view holds a rank that is trump in every suit (Watten's Schlag).
    pub trump_rank: Option<&'static str>,
}

/// The events that build tricks: each play event adds one play to the trick in progress, the
/// won event closes it. The pages rebuild a finished trick from them where the view has moved
/// on (the last trick of a deal, when the next deal is dealt in the same move).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct TrickEvents {
    /// The event type of one play (`play`).
    pub play: &'static str,
    /// Within a play event, the seat that played.
    pub seat: &'static str,
    /// Within a play event, the pieces played.
    pub pieces: &'static str,
    /// The event type that closes a trick (`trick_won`).
    pub won: &'static str,
    /// Within the won event, the seat that won the trick.
    pub winner: &'static str,
}

/// Tricks: where the plays are and, in each play, who played what.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct TrickLayout {
    /// The trick in progress (a list of plays, or an object whose `plays` holds them).
    pub path: &'static str,
    /// Within the value at `path`, the list of plays (empty: the value is the list).
    pub plays: &'static str,
    /// Within one play, the seat that played it (a seat number, or a word such as `dummy`).
    pub seat: &'static str,
    /// Within one play, the piece or pieces played.
    pub pieces: &'static str,
    /// The finished tricks of the deal (a list of tricks, each shaped as the trick in progress),
    /// the last of which is shown on demand.
    pub finished: Option<&'static str>,
    /// Within a finished trick, the seat that won it.
    pub winner: Option<&'static str>,
    /// The events that play into and close a trick.
    pub events: Option<TrickEvents>,
}

/// How much of a pile the table shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum PileShow {
    /// Every piece face up.
    Faces,
    /// Only how many pieces it holds (won cards, a stock).
    Count,
}

/// A pile of pieces: in the centre of the table (the floor, the layout, a combination to beat),
/// or one per seat (captured cards, laid pairs, penalty markers).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct Pile {
    /// What players call it (`Floor`, `Captured`).
    pub label: &'static str,
    /// The pile: a list of pieces, a number (a count), or a list of items holding pieces; per
    /// seat: a list with one such value per seat (or per side, seat modulo the list's length).
    pub path: &'static str,
    /// Within one item, its pieces (empty: the item is a piece or a list of pieces).
    pub pieces: &'static str,
    /// Within one item, the seat it came from, shown beside it (empty: none).
    pub seat: &'static str,
    /// A word naming the pile's items, read from the value at `path` (Taihe's combination).
    pub caption: Option<&'static str>,
    /// Faces or only a count.
    pub show: PileShow,
}

/// How a badge's value is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ValueKind {
    /// A number or a word as it is (words with `_` read as spaces).
    Text,
    /// A suit code, in the family's suit names.
    Suit,
    /// A rank code, in the family's rank names.
    Rank,
    /// A piece or a list of pieces, drawn as faces.
    Pieces,
    /// A seat, by the seat's name.
    Seat,
    /// Yes or no.
    Flag,
}

/// A labelled value: trump, contract, stake, bid. Shown only while the view holds a value there.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct Badge {
    /// Its label (`Trump`).
    pub label: &'static str,
    /// The value (for a seat badge, a list with one value per seat, or per side).
    pub path: &'static str,
    /// How the value is written.
    pub kind: ValueKind,
}

/// The running scores.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct Scores {
    /// What they count (`points`, `penalty points`, `chips`).
    pub label: &'static str,
    /// One number per seat, or one per side.
    pub path: &'static str,
    /// The sides as lists of seats, where the view names them (else: one number per seat is
    /// per seat, fewer numbers are per side with seat modulo their count).
    pub sides: Option<&'static str>,
    /// The fixed partnerships when the view does not name them and seats play in sides only
    /// with this many players (e.g. 4: partners opposite, seat modulo 2).
    pub partners_at: Option<usize>,
    /// What ends the game (a target total, a number of deals), if the view holds it.
    pub target: Option<Badge>,
    /// True when the lowest score is best (penalty points).
    pub lower_is_better: bool,
}

/// The sentence of one event or action type. Placeholders: `{field}` writes the field by its
/// value (pieces as faces, numbers as numbers); `{field:seat}` a seat's name, `{field:side}` a
/// side's name, `{field:suit}` and `{field:rank}` in the family's names, `{field:scores}` a list
/// per seat or side; `{field?text if true|text if false}` chooses by a flag or a present value;
/// `{actor}` is whoever moved. A field that is absent or null writes nothing.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct Sentence {
    /// The event's or action's `type`.
    #[serde(rename = "type")]
    pub kind: &'static str,
    /// The template.
    pub text: &'static str,
}

/// A family's table: which fields of its view are what, and how its moves read.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct TableLayout {
    /// Cards or tiles.
    pub pieces: PieceKind,
    /// The suits of the pack: names, symbols and colours (empty for tiles).
    pub suits: Vec<SuitFace>,
    /// The family's own rank names where they differ from the French pack's.
    pub ranks: Vec<PieceName>,
    /// The viewer's hand (a list of pieces; absent or null for a spectator).
    pub hand: &'static str,
    /// How the hand is ordered on the table (none: as the view lists it).
    pub hand_order: Option<HandOrder>,
    /// How many pieces each seat holds hidden.
    pub hand_sizes: &'static str,
    /// The seat or seats to act (a seat, a list of seats, or null).
    pub to_act: &'static str,
    /// The dealer (or whoever starts the hand), credited with the public setup events.
    pub dealer: Option<&'static str>,
    /// The trick, where the family plays tricks.
    pub trick: Option<TrickLayout>,
    /// What lies in the centre of the table.
    pub centre: Vec<Pile>,
    /// What lies before each seat, face up or counted.
    pub seat_piles: Vec<Pile>,
    /// Badges of the table (trump, contract, stake).
    pub badges: Vec<Badge>,
    /// Badges of each seat (bids, tricks won).
    pub seat_badges: Vec<Badge>,
    /// The scores.
    pub scores: Scores,
    /// The events that end a deal (shown as a summary), by type.
    pub deal_end: Vec<&'static str>,
    /// Sentences of events (a type not listed reads as a generic sentence).
    pub events: Vec<Sentence>,
    /// Labels of actions (a type not listed reads as a generic label).
    pub actions: Vec<Sentence>,
}

impl TableLayout {
    /// A card table with the French pack: set the fields the family has.
    pub fn cards(scores: Scores) -> TableLayout {
        TableLayout {
            pieces: PieceKind::Cards,
            suits: french_suits(),
            ranks: Vec::new(),
            hand: "/hand",
            hand_order: Some(HandOrder::by_suit(FRENCH_SUIT_ORDER, ACE_HIGH)),
            hand_sizes: "/hand_sizes",
            to_act: "/to_act",
            dealer: Some("/dealer"),
            trick: None,
            centre: Vec::new(),
            seat_piles: Vec::new(),
            badges: Vec::new(),
            seat_badges: Vec::new(),
            scores,
            deal_end: Vec::new(),
            events: Vec::new(),
            actions: Vec::new(),
        }
    }
}

/// The black and red colours of a pack: 3.7:1 between them, each at least 5:1 on white.
pub const INK_BLACK: &str = "#111111";
/// See [`INK_BLACK`].
pub const INK_RED: &str = "#e00000";

/// The French suits in the order a hand lays them out, colours alternating.
pub const FRENCH_SUIT_ORDER: &[&str] = &["S", "H", "C", "D"];
/// Ranks from the ace down to the two.
pub const ACE_HIGH: &[&str] = &[
    "A", "K", "Q", "J", "T", "9", "8", "7", "6", "5", "4", "3", "2",
];

/// The French suits: ♣ and ♠ black, ♦ and ♥ red.
pub fn french_suits() -> Vec<SuitFace> {
    vec![
        SuitFace::new("C", "clubs", SuitSymbol::Clubs, INK_BLACK),
        SuitFace::new("D", "diamonds", SuitSymbol::Diamonds, INK_RED),
        SuitFace::new("H", "hearts", SuitSymbol::Hearts, INK_RED),
        SuitFace::new("S", "spades", SuitSymbol::Spades, INK_BLACK),
    ]
}

impl SuitFace {
    /// A suit: its code, name, picture and colour.
    pub fn new(
        code: &'static str,
        name: &'static str,
        symbol: SuitSymbol,
        colour: &'static str,
    ) -> SuitFace {
        SuitFace {
            code,
            name,
            symbol,
            colour,
        }
    }
}

impl HandOrder {
    /// By suit in `suits` order, then by `ranks` (highest first); no trump.
    pub fn by_suit(suits: &[&'static str], ranks: &[&'static str]) -> HandOrder {
        HandOrder {
            suits: suits.to_vec(),
            ranks: ranks.to_vec(),
            first: Vec::new(),
            trump_suit: None,
            trump_rank: None,
        }
    }

    /// The same order with the trump suit the view holds at `pointer` laid out first.
    pub fn with_trump(self, pointer: &'static str) -> HandOrder {
        HandOrder {
            trump_suit: Some(pointer),
            ..self
        }
    }
}

impl TrickEvents {
    /// `play {seat, cards}` events into the trick, `trick_won {seat}` closing it.
    pub fn standard() -> TrickEvents {
        TrickEvents {
            play: "play",
            seat: "/seat",
            pieces: "/cards",
            won: "trick_won",
            winner: "/seat",
        }
    }
}

impl TrickLayout {
    /// The trick at `path` as a list of plays with the seat at `seat` and the pieces at
    /// `pieces`; the finished tricks at `/tricks`, each `{plays, winner}`; the standard trick
    /// events.
    pub fn plays(path: &'static str, seat: &'static str, pieces: &'static str) -> TrickLayout {
        TrickLayout {
            path,
            plays: "",
            seat,
            pieces,
            finished: Some("/tricks"),
            winner: Some("/winner"),
            events: Some(TrickEvents::standard()),
        }
    }
}

impl Scores {
    /// Scores at `path`, counted in `label`, highest best, sides as the list's length says.
    pub fn at(label: &'static str, path: &'static str) -> Scores {
        Scores {
            label,
            path,
            sides: None,
            partners_at: None,
            target: None,
            lower_is_better: false,
        }
    }
}

impl Pile {
    /// A pile of pieces shown face up.
    pub fn faces(label: &'static str, path: &'static str) -> Pile {
        Pile {
            label,
            path,
            pieces: "",
            seat: "",
            caption: None,
            show: PileShow::Faces,
        }
    }

    /// A pile shown only by its count.
    pub fn count(label: &'static str, path: &'static str) -> Pile {
        Pile {
            show: PileShow::Count,
            ..Pile::faces(label, path)
        }
    }
}

impl Badge {
    /// A badge.
    pub fn new(label: &'static str, path: &'static str, kind: ValueKind) -> Badge {
        Badge { label, path, kind }
    }
}

/// Sentences from `(type, template)` pairs.
pub fn sentences(list: &[(&'static str, &'static str)]) -> Vec<Sentence> {
    list.iter()
        .map(|&(kind, text)| Sentence { kind, text })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The WCAG 2 relative luminance of a `#rrggbb` colour.
    fn luminance(hex: &str) -> f64 {
        let channel = |i: usize| {
            let value = u8::from_str_radix(&hex[i..i + 2], 16).expect("a hex colour");
            let c = f64::from(value) / 255.0;
            if c <= 0.04045 {
                c / 12.92
            } else {
                ((c + 0.055) / 1.055).powf(2.4)
            }
        };
        assert!(hex.len() == 7 && hex.starts_with('#'), "`{hex}` is #rrggbb");
        0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5)
    }

    /// The WCAG 2 contrast ratio of two colours.
    fn contrast(a: &str, b: &str) -> f64 {
        let (la, lb) = (luminance(a), luminance(b));
        (la.max(lb) + 0.05) / (la.min(lb) + 0.05)
    }

    #[test]
    fn contrast_ratios_are_wcags() {
        assert!((contrast("#000000", "#ffffff") - 21.0).abs() < 1e-9);
        // The two German suits the pages once drew only by colour: 1.26:1.
        assert!((contrast("#6b3a00", "#7a4a00") - 1.26).abs() < 0.005);
    }

    #[test]
    fn every_suit_has_a_symbol_and_suits_of_one_pack_differ_by_3_to_1_or_share_a_colour() {
        let mut packs = 0;
        for game in crate::registry::games() {
            let info = game.info();
            let suits = &info.table.suits;
            if info.table.pieces == PieceKind::Tiles {
                assert!(suits.is_empty(), "{}: tiles have no suits", info.id);
                continue;
            }
            let mut codes: Vec<&str> = suits.iter().map(|s| s.code).collect();
            codes.sort_unstable();
            assert_eq!(
                codes,
                ["C", "D", "H", "S"],
                "{}: one face per suit",
                info.id
            );
            for (i, a) in suits.iter().enumerate() {
                let on_white = contrast(a.colour, "#ffffff");
                assert!(
                    on_white >= 4.5,
                    "{}: {} ({}) reads at {on_white:.2}:1 on the white card face",
                    info.id,
                    a.name,
                    a.colour
                );
                for b in &suits[i + 1..] {
                    assert_ne!(a.symbol, b.symbol, "{}: {} and {}", info.id, a.name, b.name);
                    let ratio = contrast(a.colour, b.colour);
                    assert!(
                        a.colour == b.colour || ratio >= 3.0,
                        "{}: {} ({}) and {} ({}) differ by {ratio:.2}:1",
                        info.id,
                        a.name,
                        a.colour,
                        b.name,
                        b.colour
                    );
                }
            }
            packs += 1;
        }
        assert!(packs >= 9, "every card family declares its suits");
    }

    #[test]
    fn every_card_family_orders_its_hand_by_its_own_suits_and_ranks() {
        for game in crate::registry::games() {
            let info = game.info();
            let table = &info.table;
            let Some(order) = &table.hand_order else {
                assert_eq!(table.pieces, PieceKind::Tiles, "{}: no hand order", info.id);
                continue;
            };
            let mut suits = order.suits.clone();
            suits.sort_unstable();
            assert_eq!(suits, ["C", "D", "H", "S"], "{}: every suit once", info.id);
            let mut ranks = order.ranks.clone();
            ranks.sort_unstable();
            ranks.dedup();
            assert_eq!(ranks.len(), order.ranks.len(), "{}: a rank twice", info.id);
            assert!(
                order
                    .ranks
                    .iter()
                    .all(|r| "23456789TJQKA".contains(r) && r.len() == 1),
                "{}: {:?}",
                info.id,
                order.ranks
            );
        }
    }
}
