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

/// A family's own name of a suit or a rank, where it is not the French pack's.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct PieceName {
    /// The code as the wire writes it (`C`, `J`).
    pub code: &'static str,
    /// The name in words (`Eichel`, `Unter`).
    pub name: &'static str,
    /// What a card face shows (`Eichel`, `U`).
    pub short: &'static str,
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
    /// The family's own suit names (empty: the French suits, ♣ ♦ ♥ ♠).
    pub suits: Vec<PieceName>,
    /// The family's own rank names where they differ from the French pack's.
    pub ranks: Vec<PieceName>,
    /// The viewer's hand (a list of pieces; absent or null for a spectator).
    pub hand: &'static str,
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
            suits: Vec::new(),
            ranks: Vec::new(),
            hand: "/hand",
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

impl TrickLayout {
    /// The trick at `path` as a list of plays with the seat at `seat` and the pieces at
    /// `pieces`; the finished tricks at `/tricks`, each `{plays, winner}`.
    pub fn plays(path: &'static str, seat: &'static str, pieces: &'static str) -> TrickLayout {
        TrickLayout {
            path,
            plays: "",
            seat,
            pieces,
            finished: Some("/tricks"),
            winner: Some("/winner"),
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
