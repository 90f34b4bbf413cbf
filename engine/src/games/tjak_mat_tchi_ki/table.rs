//! How a table draws Tjak-mat-tchi-ki: tiles (drawn with pips), the table of discarded tiles and
//! the live discard, each seat's laid pairs, the reserve, chips.

use crate::table::{Badge, PieceKind, Pile, Scores, TableLayout, ValueKind, sentences};

/// The table layout of Tjak-mat-tchi-ki.
pub fn table_layout() -> TableLayout {
    TableLayout {
        pieces: PieceKind::Tiles,
        suits: Vec::new(),
        // Tiles stay in the canonical order every state keeps them in.
        hand_order: None,
        hand_sizes: "/concealed_sizes",
        to_act: "/turn",
        dealer: Some("/first_player"),
        centre: vec![
            Pile {
                pieces: "/tile",
                seat: "/seat",
                ..Pile::faces("Last discard", "/last_discard")
            },
            Pile {
                pieces: "/tile",
                seat: "/seat",
                ..Pile::faces("Table", "/table")
            },
            Pile::count("Reserve", "/reserve_size"),
        ],
        seat_piles: vec![Pile::faces("Pairs", "/laid")],
        badges: vec![
            Badge::new("Hand", "/hand_number", ValueKind::Text),
            Badge::new("Phase", "/phase", ValueKind::Text),
            Badge::new("Take from", "/take_from", ValueKind::Text),
        ],
        deal_end: vec!["hand_end"],
        events: sentences(&[
            (
                "deal",
                "Hand {hand} is dealt; {first_player:seat} plays first",
            ),
            ("lay", "{seat} lays the pair {tiles}"),
            ("take", "{seat} takes {tiles} from {from:seat}"),
            ("draw", "{seat} draws from the reserve"),
            ("discard", "{seat} discards {tiles}"),
            (
                "hand_end",
                "Hand {record/hand} ends: {record/winner:seat} wins{record/by? by |}{record/by}; chips {record/payoffs:scores}",
            ),
            ("game_over", "The game is over: chips {chips:scores}"),
        ]),
        actions: sentences(&[
            ("take", "Take {tiles}"),
            ("draw", "Draw from the reserve"),
            ("discard", "Discard {tiles}"),
        ]),
        ..TableLayout::cards(Scores {
            target: Some(Badge::new("Hands", "/hands", ValueKind::Text)),
            ..Scores::at("chips", "/chips")
        })
    }
}
