//! How a table draws Sloppy Seconds: tricks, the first suit broken and trump, card points taken
//! this hand, totals to the target.

use crate::table::{
    ACE_HIGH, Badge, FRENCH_SUIT_ORDER, HandOrder, Scores, TableLayout, TrickLayout, ValueKind,
    sentences,
};

/// The table layout of Sloppy Seconds.
pub fn table_layout() -> TableLayout {
    TableLayout {
        trick: Some(TrickLayout::plays("/trick", "/0", "/1")),
        // Trumps first once the second broken suit makes them.
        hand_order: Some(HandOrder::by_suit(FRENCH_SUIT_ORDER, ACE_HIGH).with_trump("/trump")),
        badges: vec![
            Badge::new("Hand", "/hand_number", ValueKind::Text),
            Badge::new("First broken", "/first_broken", ValueKind::Suit),
            Badge::new("Trump", "/trump", ValueKind::Suit),
            Badge::new("Removed", "/removed", ValueKind::Pieces),
        ],
        deal_end: vec!["hand_scored"],
        events: sentences(&[
            ("deal", "Hand {deal}: {dealer:seat} deals"),
            ("play", "{seat} plays {cards}"),
            ("first_broken", "{seat} breaks {suit:suit} first"),
            ("trump", "{suit:suit} is trump, set by {seat:seat}"),
            ("trick_won", "{seat} wins the trick"),
            (
                "hand_scored",
                "The hand scores {scores:scores}; totals {totals:scores}",
            ),
            ("game_over", "The game is over: {totals:scores}"),
        ]),
        actions: sentences(&[("play", "Play {cards}")]),
        ..TableLayout::cards(Scores {
            target: Some(Badge::new("Game to", "/target", ValueKind::Text)),
            ..Scores::at("points", "/totals")
        })
    }
}
