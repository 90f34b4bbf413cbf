//! # Sloppy Seconds (Peter Schell)
//!
//! 3 or 4 players, each for himself, 52 cards (51 without the 2C for 3). Plain must-follow trick
//! taking with no trump at the start of a hand: the second suit to be broken in (played off-suit)
//! becomes trump at once, for the rest of the hand. In each suit only the player(s) with the
//! second-highest captured card points score them; a hand is worth at least 5. The game ends after
//! the hand in which someone reaches the target (300); the highest total wins.
//!
//! Spec: `shared/rules/sloppy_seconds.md` (rulings R1..R11, worked examples S1..S9); project doc:
//! `docs/rules/sloppy_seconds.md`.
//!
//! Some notes on this implementation:
//! - The player count is the game's player count (3 or 4), not an option.
//! - Tricks use `common::trick` with the natural rank order (ace high); the trump is tracked per
//!   hand as `first_broken` / `trump` exactly as spec §3 describes.
//! - The heuristic evaluates each legal card by the hand score it would leave the player with if
//!   the trick went to the card winning it after the play (one-step look-ahead on public points).

pub mod action;
pub mod rules;
pub mod scoring;
pub mod state;
pub mod view;

pub use action::{Action, Event};
pub use rules::Options;
pub use state::State;
pub use view::View;

use crate::cards::Card;
use crate::common::trick::{plain_strength, winner_by_strength};
use crate::error::{ActionError, SetupError};
use crate::game::{Actors, Family, GameDef, GameResult, Seat, Setup, Viewer};
use crate::options::PlayerRange;

/// The Sloppy Seconds family.
pub struct SloppySeconds;

impl GameDef for SloppySeconds {
    type Options = Options;
    type State = State;
    type Action = Action;
    type Event = Event;
    type View = View;

    fn family() -> Family {
        Family {
            id: "sloppy_seconds",
            name: "Sloppy Seconds",
            description: "Trick taking for 3 or 4 where the second suit broken in becomes trump and only second place in each suit scores.",
            rules_summary: "52 cards (3 players: without the 2C), dealt out one at a time from the dealer's left. Follow suit if you can; there is no trump at first. The first suit played off-suit in a hand can never be trump; the second different suit played off-suit becomes trump immediately, even within the trick, for the rest of the hand. Cards score face value (A 1, J 11, Q 12, K 13; 91 per suit) but the ace ranks high in play. After each hand, in every suit only the player(s) with the second-highest point total score that total; every hand is worth at least 5. After a hand in which someone reaches 300, the highest total wins.",
            players: PlayerRange { min: 3, max: 4 },
            options: rules::option_specs(),
            presets: rules::presets(),
        }
    }

    fn setup(setup: &Setup<Options>) -> Result<State, SetupError> {
        State::new(setup, &mut Vec::new())
    }

    fn to_act(state: &State) -> Actors {
        state.current().map_or(Actors::None, Actors::One)
    }

    fn legal_actions(state: &State, seat: Seat, out: &mut Vec<Action>) {
        state.legal_actions(seat, out);
    }

    fn apply(
        state: &mut State,
        seat: Seat,
        action: &Action,
        events: &mut Vec<Event>,
    ) -> Result<(), ActionError> {
        state.apply(seat, action, events)
    }

    fn view(state: &State, viewer: Viewer) -> View {
        view::view(state, viewer)
    }

    fn result(state: &State) -> Option<GameResult> {
        if !state.over {
            return None;
        }
        let totals = &state.totals;
        Some(GameResult {
            ranking: GameResult::ranking_by_key(0..state.players, |s| {
                std::cmp::Reverse(totals.get(s).copied().unwrap_or(0))
            }),
            scores: totals.iter().map(|t| *t as f64).collect(),
            teams: None,
            details: serde_json::json!({ "hands": state.hand_number }),
        })
    }

    fn players(state: &State) -> usize {
        state.players
    }

    fn options(state: &State) -> &Options {
        &state.options
    }

    fn seed(state: &State) -> u64 {
        state.seed
    }

    fn validate(state: &State) -> Result<(), String> {
        state.validate()
    }

    fn pieces(state: &State) -> Vec<String> {
        state.all_cards().iter().map(|c| c.code()).collect()
    }

    fn heuristic(view: &View, legal: &[Action]) -> usize {
        let Some(me) = view.seat else { return 0 };
        let mut best = (i64::MIN, 0usize);
        for (index, action) in legal.iter().enumerate() {
            let Action::Play { cards } = action;
            let Some(&card) = cards.first() else { continue };
            let value = evaluate(view, me, card);
            // Ties: the lower card (keep strength for later).
            let tie = -(card.rank().map_or(0, |r| i64::from(r.value())));
            let key = value * 100 + tie;
            if key > best.0 {
                best = (key, index);
            }
        }
        best.1
    }

    fn hidden_from(state: &State, viewer: Viewer) -> Vec<String> {
        view::hidden_from(state, viewer)
    }
}

/// The hand score `me` would have if the trick went to whoever wins it right after `card`.
fn evaluate(view: &View, me: Seat, card: Card) -> i64 {
    let mut plays = view.trick.clone();
    plays.push((me, card));
    let led = plays
        .first()
        .and_then(|(_, c)| c.suit())
        .unwrap_or(crate::cards::Suit::Spades);
    let mut trump = view.trump;
    if let (Some(suit), None) = (card.suit(), trump)
        && plays.len() > 1
        && suit != led
        && view.first_broken.is_some_and(|f| f != suit)
    {
        trump = Some(suit);
    }
    let index = winner_by_strength(&plays, |_, c| plain_strength(c, led, trump));
    let winner = plays.get(index).map_or(me, |(s, _)| *s);
    let mut points = view.points.clone();
    if let Some(row) = points.get_mut(winner) {
        for (_, c) in &plays {
            if let Some(suit) = c.suit() {
                row[suit.index()] += scoring::card_points(*c);
            }
        }
    }
    let mut mine = 0i64;
    for suit in 0..4 {
        let values: Vec<u32> = points.iter().map(|p| p[suit]).collect();
        mine += i64::from(scoring::second_place(&values).get(me).copied().unwrap_or(0));
    }
    mine
}
