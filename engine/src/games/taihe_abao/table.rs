//! How a table draws Taihe A Bao: the calls of the auction, the declarer and the stake, the
//! combination to beat (with who played it and its kind), cumulative stakes.

use crate::table::{Badge, Pile, Scores, TableLayout, ValueKind, sentences};

/// The table layout of Taihe A Bao.
pub fn table_layout() -> TableLayout {
    TableLayout {
        to_act: "/turn",
        dealer: Some("/first_bidder"),
        centre: vec![
            Pile {
                pieces: "/cards",
                seat: "/seat",
                caption: Some("/combo/kind"),
                ..Pile::faces("To beat", "/top")
            },
            Pile {
                pieces: "/card",
                seat: "/seat",
                ..Pile::faces("Calls", "/calls")
            },
        ],
        badges: vec![
            Badge::new("Hand", "/hand_number", ValueKind::Text),
            Badge::new("Phase", "/phase", ValueKind::Text),
            Badge::new("Declarer", "/declarer", ValueKind::Seat),
            Badge::new("Stake", "/stake", ValueKind::Text),
            Badge::new("Passes", "/passes", ValueKind::Text),
        ],
        seat_badges: vec![Badge::new("plays", "/plays_per_seat", ValueKind::Text)],
        deal_end: vec!["hand_end"],
        events: sentences(&[
            (
                "deal",
                "Hand {hand} is dealt; {first_bidder:seat} bids first",
            ),
            ("declare", "{seat} declares"),
            ("pass", "{seat} passes"),
            ("call", "{seat} calls {cards} from {from:seat}"),
            ("exchange", "{seat} gives a card to {to:seat}"),
            (
                "declarer",
                "{seat} is the declarer for a stake of {stake}{first_round? in the first round|}",
            ),
            ("play", "{seat} plays {cards}"),
            ("round_won", "{seat} wins the round"),
            (
                "hand_end",
                "Hand {record/hand} ends ({record/outcome}): {record/payoffs:scores}",
            ),
            ("game_over", "The game is over: {scores:scores}"),
        ]),
        actions: sentences(&[
            ("declare", "Declare"),
            ("pass", "Pass"),
            ("call", "Call {cards}"),
            ("exchange", "Give {cards}"),
            ("play", "Play {cards}"),
        ]),
        ..TableLayout::cards(Scores {
            target: Some(Badge::new("Hands", "/hands", ValueKind::Text)),
            ..Scores::at("stakes", "/scores")
        })
    }
}
