//! How a table draws Trump Crew: the indicator and trump, the dealer's strength, bids per seat,
//! tricks won per seat, the stage of the crew's climb.

use crate::table::{
    ACE_HIGH, Badge, FRENCH_SUIT_ORDER, HandOrder, Pile, Scores, TableLayout, TrickLayout,
    ValueKind, sentences,
};

/// The table layout of Trump Crew.
pub fn table_layout() -> TableLayout {
    TableLayout {
        trick: Some(TrickLayout::plays("/trick", "/seat", "/card")),
        // The joker, then trumps A down to 2, then the other suits (docs/rules/trump_crew.md).
        hand_order: Some(HandOrder {
            first: vec!["JK"],
            ..HandOrder::by_suit(FRENCH_SUIT_ORDER, ACE_HIGH).with_trump("/trump")
        }),
        centre: vec![Pile::count("Chips in the centre", "/chips_left")],
        badges: vec![
            Badge::new("Stage", "/stage", ValueKind::Text),
            Badge::new("Indicator", "/indicator", ValueKind::Pieces),
            Badge::new("Trump", "/trump", ValueKind::Suit),
            Badge::new("Strength", "/strength", ValueKind::Text),
            Badge::new("Led", "/led_suit", ValueKind::Suit),
        ],
        seat_badges: vec![
            Badge::new("bid", "/bids", ValueKind::Text),
            Badge::new("tricks", "/tricks_won", ValueKind::Text),
        ],
        deal_end: vec!["deal_end"],
        events: sentences(&[
            (
                "deal",
                "Deal {deal}, stage {stage}: {dealer:seat} deals and turns up {indicator}{trump?; trump is |, so no trump this deal}{trump:suit}",
            ),
            ("declare", "{seat} announces a {strength} hand"),
            ("bid", "{seat} bids {tricks}{forced? (forced)|}"),
            ("play", "{seat} plays {cards}{suit? naming |}{suit:suit}"),
            ("trick_won", "{seat} wins the trick"),
            (
                "deal_end",
                "Stage {stage} {cleared?is cleared|is not cleared}: bids {bids:scores}, tricks {tricks_won:scores}",
            ),
            (
                "game_over",
                "The game is over: {stages_cleared} stages cleared in {deals} deals",
            ),
        ]),
        actions: sentences(&[
            ("declare", "Announce {strength}"),
            ("bid", "Bid {tricks}"),
            ("play", "Play {cards}{suit? naming |}{suit:suit}"),
        ]),
        ..TableLayout::cards(Scores {
            target: Some(Badge::new("Final stage", "/final_stage", ValueKind::Text)),
            ..Scores::at("stages cleared", "/stages_cleared")
        })
    }
}
