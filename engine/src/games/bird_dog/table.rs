//! How a table draws Bird Dog: the candidate turned up for trump, the calls, trump, the Bird Dog
//! card, the dummy's face-up cards (2 players), tricks, cards won, totals to the target.

use crate::table::{
    ACE_HIGH, Badge, FRENCH_SUIT_ORDER, HandOrder, Pile, Scores, TableLayout, TrickLayout,
    ValueKind, sentences,
};

/// The table layout of Bird Dog.
pub fn table_layout() -> TableLayout {
    TableLayout {
        trick: Some(TrickLayout::plays("/trick", "/by", "/card")),
        // Trumps first; the Bird Dog card stays in its own suit, where it is followed (R1).
        hand_order: Some(HandOrder::by_suit(FRENCH_SUIT_ORDER, ACE_HIGH).with_trump("/trump")),
        centre: vec![
            Pile::faces("Dummy", "/dummy/face_up"),
            Pile::count("Dummy face down", "/dummy/face_down"),
            Pile::faces("Turned up for trump", "/candidate"),
            Pile::faces("Widow seen", "/widow_seen"),
        ],
        seat_piles: vec![Pile::count("Cards won", "/won_cards")],
        badges: vec![
            Badge::new("Hand", "/hand_number", ValueKind::Text),
            Badge::new("Trump", "/trump", ValueKind::Suit),
            Badge::new("Indicator", "/indicator", ValueKind::Pieces),
            Badge::new("Bird Dog", "/bird_dog", ValueKind::Pieces),
            Badge::new("Solo", "/solo", ValueKind::Seat),
            Badge::new("Nil", "/nil", ValueKind::Seat),
        ],
        seat_badges: vec![Badge::new("tricks", "/tricks_won", ValueKind::Text)],
        deal_end: vec!["hand_end"],
        events: sentences(&[
            (
                "deal",
                "{dealer:seat} deals hand {hand}; {candidate} is turned up",
            ),
            ("turn_up", "{candidate} is turned up"),
            ("declare", "{seat} declares {contract}"),
            ("pass", "{seat} passes"),
            (
                "trump",
                "{trump:suit} is trump ({indicator}); the Bird Dog is {bird_dog}",
            ),
            ("play", "{seat} plays {cards}{dummy? from the dummy|}"),
            ("trick_won", "{seat:seat} wins the trick"),
            ("dummy_turn_up", "The dummy turns up {card}"),
            (
                "hand_end",
                "Hand {summary/hand} ({summary/kind}) scores {summary/scores:scores}; totals {totals:scores}",
            ),
            ("game_over", "The game is over: {totals:scores}"),
        ]),
        actions: sentences(&[
            ("declare", "Declare {contract}"),
            ("pass", "Pass"),
            ("play", "Play {cards}"),
        ]),
        ..TableLayout::cards(Scores {
            target: Some(Badge::new("Game to", "/target", ValueKind::Text)),
            ..Scores::at("points", "/totals")
        })
    }
}
