//! How a table draws Watten: a German pack (Eichel, Laub, Herz, Schellen; Unter, Ober), the
//! Schlag and trump once known, the stake and a pending raise, scores per side.

use crate::table::{Badge, PieceName, Scores, TableLayout, TrickLayout, ValueKind, sentences};

/// The German names of the suits and ranks Watten's French codes stand for
/// (docs/rules/watten.md, "Card codes").
fn german_pack() -> (Vec<PieceName>, Vec<PieceName>) {
    let name = |code, name, short| PieceName { code, name, short };
    (
        vec![
            name("C", "Eichel", "Eichel"),
            name("S", "Laub", "Laub"),
            name("H", "Herz", "Herz"),
            name("D", "Schellen", "Schellen"),
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
                "{winners:seats} wins deal {deal} for {points} points ({reason}); Schlag {schlag:rank}, trump {trump:suit}",
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
