//! How a table draws Basra: the floor to capture from, the capture being chosen, each side's
//! captured pile (counted), basras per side, totals per side (partners opposite).

use crate::table::{
    Badge, FRENCH_SUIT_ORDER, HandOrder, Pile, Scores, TableLayout, ValueKind, sentences,
};

/// The table layout of Basra.
pub fn table_layout() -> TableLayout {
    TableLayout {
        to_act: "/turn",
        // The ace counts 1 here: kings high, aces low.
        hand_order: Some(HandOrder::by_suit(
            FRENCH_SUIT_ORDER,
            &[
                "K", "Q", "J", "T", "9", "8", "7", "6", "5", "4", "3", "2", "A",
            ],
        )),
        centre: vec![
            Pile::faces("Floor", "/floor"),
            Pile::faces("Capturing with", "/pending"),
            Pile::faces("Taken so far", "/selection"),
            Pile::count("Stock", "/stock_size"),
        ],
        seat_piles: vec![Pile::count("Captured", "/piles")],
        badges: vec![
            Badge::new("Deal", "/deal", ValueKind::Text),
            Badge::new("Buried in the stock", "/buried", ValueKind::Pieces),
            Badge::new("Seen at the cut", "/peek", ValueKind::Pieces),
        ],
        seat_badges: vec![Badge::new("basras", "/basras", ValueKind::Text)],
        deal_end: vec!["deal_scored", "game_ended"],
        events: sentences(&[
            ("deal", "{dealer:seat} deals; the floor is {floor}"),
            ("round", "{cards_each} more cards to each player"),
            ("play", "{seat} plays {cards}"),
            ("select", "{seat} takes {card}"),
            (
                "capture",
                "{seat} captures {cards} with {card}{bonus?, a basra worth |}{bonus}",
            ),
            ("trail", "{seat} lays {card} on the floor"),
            (
                "remainder",
                "{side:side} takes the rest of the floor: {cards}",
            ),
            (
                "deal_scored",
                "Deal {deal} scored: {score/total:scores}; totals {totals:scores}",
            ),
            (
                "game_ended",
                "{winner:side} wins the game; totals {totals:scores}",
            ),
            ("game_over", "The game is over"),
        ]),
        actions: sentences(&[
            ("play", "Play {cards}"),
            ("capture", "Take {cards}"),
            ("pass", "Take no more"),
        ]),
        ..TableLayout::cards(Scores {
            partners_at: Some(4),
            ..Scores::at("points", "/totals")
        })
    }
}
