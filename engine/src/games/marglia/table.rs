//! How a table draws Marglia and Maniglia: the turned card and trump, the auction and contract
//! (Maniglia), partners' answers, tricks, raw points of the deal and cumulative scores per side.

use crate::table::{
    Badge, FRENCH_SUIT_ORDER, HandOrder, Pile, Scores, TableLayout, TrickLayout, ValueKind,
    sentences,
};

/// The table layout of Marglia and Maniglia.
pub fn table_layout() -> TableLayout {
    TableLayout {
        trick: Some(TrickLayout::plays("/trick", "/0", "/1")),
        // Trumps first; in every suit 7 A K J Q 6 5 4 3 2 (docs/rules/marglia.md).
        hand_order: Some(
            HandOrder::by_suit(
                FRENCH_SUIT_ORDER,
                &["7", "A", "K", "J", "Q", "6", "5", "4", "3", "2"],
            )
            .with_trump("/trump"),
        ),
        centre: vec![Pile::faces("Turned", "/turned")],
        badges: vec![
            Badge::new("Deal", "/deal_number", ValueKind::Text),
            Badge::new("Trump", "/trump", ValueKind::Suit),
            Badge::new("Contract", "/contract/points", ValueKind::Text),
            Badge::new("Declarer", "/contract/seat", ValueKind::Seat),
            Badge::new("Removed", "/removed", ValueKind::Pieces),
            Badge::new("Points this deal", "/raw", ValueKind::Text),
        ],
        deal_end: vec!["deal_scored", "thrown_in"],
        events: sentences(&[
            ("deal", "Deal {deal}: {dealer:seat} deals"),
            (
                "turn_up",
                "{card} is turned up{trump?: trump is |}{trump:suit}",
            ),
            ("turnup_bonus", "{seat} scores {points} for the turned card"),
            ("stop", "{seat} stops"),
            ("pass", "{seat} passes"),
            ("bid", "{seat} bids {points}"),
            ("thrown_in", "The deal is thrown in"),
            ("trump", "{seat} makes {suit:suit} trump for {points}"),
            ("answer", "{seat} answers {partner:seat}: {answer}"),
            ("play", "{seat} plays {cards}"),
            ("trick_won", "{seat} wins the trick"),
            (
                "deal_scored",
                "The deal scores {scores:scores} (cards {raw:scores}); totals {cumulative:scores}",
            ),
            ("game_over", "The game is over: {cumulative:scores}"),
        ]),
        actions: sentences(&[
            ("play", "Play {cards}"),
            ("pass", "Pass"),
            ("declare", "Declare {what}{suit? trump |}{suit:suit}"),
            ("bid", "Bid {points}"),
            (
                "ask",
                "Ask about {question}{suit? in |}{suit:suit}{rank? of |}{rank:rank}",
            ),
        ]),
        ..TableLayout::cards(Scores {
            sides: Some("/teams"),
            ..Scores::at("points", "/cumulative")
        })
    }
}
