//! How a table draws Watten: a German pack (Eichel, Laub, Herz, Schellen; Unter, Ober), the
//! Schlag and trump once known, the stake and a pending raise, scores per side.

use crate::table::{
    Badge, HandOrder, INK_RED, PieceName, Scores, SuitFace, SuitSymbol, TableLayout, TrickEvents,
    TrickLayout, ValueKind, sentences,
};

/// The dark colour of the German pack's acorns and leaves: 3.2:1 against its red hearts and
/// bells, which the symbols tell apart (as ♣ and ♠ share black).
const INK_DARK_OLIVE: &str = "#1c2408";

/// The German names of the suits and ranks Watten's French codes stand for
/// (docs/rules/watten.md, "Card codes"), the suits with their pictures.
fn german_pack() -> (Vec<SuitFace>, Vec<PieceName>) {
    let name = |code, name, short| PieceName { code, name, short };
    (
        vec![
            SuitFace::new("C", "Eichel", SuitSymbol::Acorns, INK_DARK_OLIVE),
            SuitFace::new("S", "Laub", SuitSymbol::Leaves, INK_DARK_OLIVE),
            SuitFace::new("H", "Herz", SuitSymbol::Hearts, INK_RED),
            SuitFace::new("D", "Schellen", SuitSymbol::Bells, INK_RED),
        ],
        vec![
            name("J", "Unter", "U"),
            name("Q", "Ober", "O"),
            name("K", "König", "K"),
            name("A", "Ass", "A"),
            name("T", "Zehner", "10"),
            name("9", "Neuner", "9"),
            name("8", "Achter", "8"),
            name("7", "Siebener", "7"),
            name("6", "Sechser", "6"),
        ],
    )
}

/// The table layout of Watten.
pub fn table_layout() -> TableLayout {
    let (suits, ranks) = german_pack();
    TableLayout {
        suits,
        ranks,
        trick: Some(TrickLayout {
            path: "/current",
            plays: "/plays",
            seat: "/0",
            pieces: "/1",
            finished: Some("/tricks"),
            winner: Some("/winner"),
            events: Some(TrickEvents::standard()),
        }),
        // The Schlag's cards (the Hauptschlag first), the trump suit, then the German suits,
        // colours alternating; Ass, König, Ober, Unter, Zehner ... Sechser.
        hand_order: Some(HandOrder {
            trump_rank: Some("/schlag"),
            ..HandOrder::by_suit(
                &["C", "H", "S", "D"],
                &["A", "K", "Q", "J", "T", "9", "8", "7", "6"],
            )
            .with_trump("/trump")
        }),
        badges: vec![
            Badge::new("Schlag", "/schlag", ValueKind::Rank),
            Badge::new("Trump", "/trump", ValueKind::Suit),
            Badge::new("Stake", "/stake", ValueKind::Text),
            Badge::new("Raised to", "/pending_raise/to", ValueKind::Text),
            Badge::new("Turned up", "/turn_up", ValueKind::Pieces),
            Badge::new("Shown at the cut", "/cut_shown", ValueKind::Pieces),
            Badge::new("Partner's hand", "/partner_hand", ValueKind::Pieces),
        ],
        deal_end: vec!["deal_end"],
        events: sentences(&[
            ("deal", "{dealer:seat} deals"),
            (
                "cut",
                "{seat} cuts{taken? and takes |}{taken}{shown? and shows |}{shown}",
            ),
            ("turn_up", "{card} is turned up: {trump:suit} is trump"),
            ("maschine", "{seat} shows the Maschine {cards}"),
            ("propose", "{seat} proposes {proposal}"),
            ("answer", "{seat} {accepted?accepts|declines}"),
            (
                "declare",
                "{seat} declares{trump? trump |}{trump:suit}{schlag? with the Schlag |}{schlag:rank}",
            ),
            ("designate", "{seat} designates a card"),
            ("play", "{seat} plays {cards}"),
            ("trick_won", "{seat} wins the trick"),
            ("raise", "{seat} raises to {to}"),
            ("accept", "{seat} accepts the raise"),
            ("fold", "{seat} folds"),
            (
                "challenge",
                "{seat} challenges with {card}: {qualifies?it qualifies|it does not qualify}",
            ),
            ("signal", "{seat} signals {code}"),
            ("discard", "{seat} discards a card"),
            ("draw", "{seat} draws {count}"),
            (
                "deal_end",
                "{winners:seats} wins the deal for {points} points ({reason}){schlag?; Schlag |}{schlag:rank}{trump?, trump |}{trump:suit}",
            ),
            ("game_over", "The game is over: {scores:scores}"),
        ]),
        actions: sentences(&[
            ("propose", "Propose {proposal}"),
            ("accept", "Accept"),
            ("decline", "Decline"),
            (
                "declare",
                "Declare{schlag? the Schlag |}{schlag:rank}{trump? trump |}{trump:suit}{card? designating |}{card}",
            ),
            ("play", "Play {cards}"),
            ("raise", "Raise to {to}"),
            ("fold", "Fold"),
            ("challenge", "Challenge"),
            ("discard", "Discard {card}"),
            ("draw", "Draw"),
            ("signal", "Signal {code}"),
        ]),
        ..TableLayout::cards(Scores {
            sides: Some("/sides"),
            target: Some(Badge::new("Game to", "/options/target", ValueKind::Text)),
            ..Scores::at("points", "/scores")
        })
    }
}
