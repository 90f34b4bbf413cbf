//! Trump Crew (トランプクルー, 草場純): a cooperative exact-bid trick-taking game for 2-17 players.
//!
//! Rules: `docs/rules/trump_crew.md` (rulings R1..R17, examples T1..T11). A 53-card pack
//! (52 + joker). The crew climbs stages 1..S (S = floor(52/n) by default): in stage N everybody
//! gets N cards, the next card is turned as the trump indicator (the joker: no trump), the dealer
//! announces "strong", "medium" or "weak", everybody bids so that the bids add up to exactly N (the
//! dealer's bid is forced), and N tricks are played. Every seat must take exactly its bid, or the
//! stage is replayed; the crew wins when the final stage is cleared. The joker beats everything and
//! may be played at any time; led, it names a suit or none.
//!
//! Some notes on this implementation:
//! - The dealer's forced bid is applied automatically (event `bid` with `forced: true`).
//! - `max_deals` (default 3·S) ends a game that has not cleared the final stage as a loss (R13).
//! - Result (R17): every seat is ranked first together, as one team, with the same score
//!   x = stages cleared / stages to clear (1 exactly when cleared); `details` carries the facts.
//! - Views show only the current deal's cards; finished deals are summarised without cards.

pub mod action;
pub mod bot;
pub mod rules;
pub mod scoring;
pub mod state;
pub mod table;
pub mod view;

use crate::error::SetupError;
use crate::game::{Family, GameDef, Setup};
use crate::options::PlayerRange;
pub use action::{Action, Event, Strength};
pub use rules::Options;
pub use state::{Phase, State};
pub use view::View;

/// The Trump Crew family.
pub struct TrumpCrew;

impl GameDef for TrumpCrew {
    type State = State;

    fn family() -> Family {
        Family {
            id: "trump_crew",
            name: "Trump Crew",
            description: "Cooperative exact-bid trick taking (Jun Kusaba): the whole table wins or loses together.",
            rules_summary: "2-17 players, 52 cards + joker. Stage N: N cards each, the next card turned up fixes trump (joker: no trump). The dealer says strong, medium or weak; then each player bids tricks so that the bids total exactly N (the dealer bids last, forced). Follow suit if you can; the joker may be played any time and wins the trick; led, it names a suit or none. If every player takes exactly his bid the crew goes on to stage N+1, otherwise stage N is replayed. Clear stage floor(52/n) to win; after max_deals deals (default 3 x stages) the crew has lost. Every seat shares the score stages cleared / stages.",
            players: PlayerRange {
                min: rules::MIN_PLAYERS,
                max: rules::MAX_PLAYERS,
            },
            options: rules::option_specs(),
            presets: rules::presets(),
            players_when: Vec::new(),
            table: table::table_layout(),
        }
    }

    fn setup(setup: &Setup<Options>, events: &mut Vec<Event>) -> Result<State, SetupError> {
        State::new(setup, events)
    }

    fn heuristic(view: &View, legal: &[Action]) -> usize {
        bot::heuristic(view, legal)
    }
}
