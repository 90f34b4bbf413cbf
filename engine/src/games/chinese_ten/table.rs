//! How a table draws Chinese Ten: the layout to capture from, the flipped stock card and its
//! targets, each seat's captured pile (counted) with its card points, totals.

use crate::table::{
    Badge, FRENCH_SUIT_ORDER, HandOrder, Pile, Scores, TableLayout, ValueKind, sentences,
};

/// The table layout of Chinese Ten.
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
            Pile::faces("Layout", "/layout"),
            Pile::faces("Flipped from the stock", "/flipped"),
            Pile::count("Stock", "/stock_size"),
        ],
        seat_piles: vec![Pile::count("Captured", "/piles")],
        badges: vec![
            Badge::new("Deal", "/deal", ValueKind::Text),
            Badge::new("Turns left", "/turns_left", ValueKind::Text),
            Badge::new("Waiting for the fourth", "/trio", ValueKind::Rank),
            Badge::new("Seen at the cut", "/peek", ValueKind::Pieces),
        ],
        seat_badges: vec![Badge::new("card points", "/card_points", ValueKind::Text)],
        deal_end: vec!["deal_scored"],
        events: sentences(&[
            (
                "deal",
                "Deal {deal}: {dealer:seat} deals; the layout is {layout}",
            ),
            ("redeal", "{dealer:seat} deals again ({reason})"),
            ("four_of_a_kind", "{seat} takes four of a kind: {cards}"),
            (
                "play",
                "{seat} plays {cards}{capture? and takes | onto the layout}{capture}",
            ),
            ("flip", "{seat} turns up {card} from the stock"),
            ("capture", "{seat} takes {cards} with {card}"),
            ("trail", "{seat} lays {card} on the layout"),
            (
                "target_reached",
                "{seat} reaches the target with {points} points",
            ),
            (
                "deal_scored",
                "Deal {deal} scored: {score/points:scores}; totals {totals:scores}",
            ),
            ("game_over", "The game is over"),
        ]),
        actions: sentences(&[
            (
                "play",
                "Play {cards}{capture? taking |, taking nothing}{capture}",
            ),
            ("capture", "Take {cards}"),
        ]),
        ..TableLayout::cards(Scores {
            target: Some(Badge::new("Deals", "/deals", ValueKind::Text)),
            ..Scores::at("points", "/totals")
        })
    }
}
