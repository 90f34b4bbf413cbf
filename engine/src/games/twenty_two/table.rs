//! How a table draws Twenty-Two: tricks of one or more cards, penalty markers before each seat,
//! penalty totals (lowest best) up to the elimination threshold.

use crate::table::{Badge, Pile, Scores, TableLayout, TrickLayout, ValueKind, sentences};

/// The table layout of Twenty-Two.
pub fn table_layout() -> TableLayout {
    TableLayout {
        trick: Some(TrickLayout::plays("/trick", "/seat", "/cards")),
        centre: vec![
            Pile::faces("To beat", "/target"),
            Pile::count("Stock", "/stock_size"),
        ],
        seat_piles: vec![Pile::faces("Penalty markers", "/markers")],
        badges: vec![
            Badge::new("Deal", "/deal", ValueKind::Text),
            Badge::new("Phase", "/phase", ValueKind::Text),
            Badge::new("Pot", "/pot", ValueKind::Text),
        ],
        seat_badges: vec![Badge::new("out", "/eliminated", ValueKind::Flag)],
        deal_end: vec!["eliminated", "last_trick"],
        events: sentences(&[
            (
                "deal",
                "{dealer:seat} deals {cards_each} cards each; {leader:seat} leads",
            ),
            ("discard", "{seat} discards a card"),
            ("draw", "{seat} draws {count}"),
            ("play", "{seat} plays {cards}"),
            ("trick_won", "{seat} wins the trick"),
            ("last_trick", "Last cards of the deal: {cards}"),
            (
                "penalty",
                "{seat} takes {points} penalty points for {card}, total {total}",
            ),
            ("buy_back", "{seat} buys back in at {total}"),
            ("fold", "{seat} folds"),
            ("eliminated", "{seat} is out with {total} penalty points"),
            ("game_over", "The game is over"),
        ]),
        actions: sentences(&[
            ("discard", "Discard {card}"),
            ("draw", "Draw"),
            ("play", "Play {cards}"),
            ("accept", "Buy back in"),
            ("fold", "Fold"),
        ]),
        ..TableLayout::cards(Scores {
            lower_is_better: true,
            target: Some(Badge::new(
                "Out at",
                "/options/elimination_threshold",
                ValueKind::Text,
            )),
            ..Scores::at("penalty points", "/totals")
        })
    }
}
