//! # 22 (Twenty-Two), with the gambling Cucumber option set
//!
//! A shedding trick game for 2-12 players (one 52-card pack up to 6 players, more packs beyond).
//! Each deal: players exchange once with the stock, then play tricks in which a follower either
//! *covers* the best play so far (componentwise on ascending ranks) or throws his lowest cards.
//! When every hand is down to one card, the holders of the highest last card take it as penalty
//! points; 22 or more and a player is out. Default: the last player in wins.
//!
//! The contract is `docs/rules/twenty_two.md` (rulings R1-R31, examples E1-E15). Game ids: `twenty_two`, `twenty_two_short`,
//! `gambling_cucumber`.
//!
//! ## Some notes on this implementation
//! - Hands are multisets of card codes held as per-code counts ([`state::Hand`]): copies of
//!   several packs are interchangeable (§2.1) and suits only name cards.
//! - Plays carry an inline card list ([`action::Cards`], at most 12 cards): no allocation per
//!   move. Legal lists name every distinct multiset of codes once (R27), in ascending code order;
//!   covering follows are enumerated by a pruned walk over the hand's codes (position p of the
//!   ascending play must be >= position p of the target, R11), then the lowest-cards throws
//!   (R13) unless they cover.
//! - The exchange is offered in steps (R28): `discard` one card at a time, then `draw`.
//! - Automatic steps inside `apply`: skipped exchange turns, the last trick, penalties,
//!   eliminations of ineligible players, dealer draws and the next deal.
//! - Chance: `first_dealer`, then per deal one `shuffle` (with the stacked `deals` entry, R29),
//!   `loser_draw` / `dealer_draw` as §2.4 lists them. Several losers are drawn among in
//!   ascending seat order.
//! - Scores are the final penalty totals: lower is better.
//! - Speed (benches/playouts.rs, typed random playouts, legal generation included): about 9-10
//!   million applied actions per CPU-second for 2-6 players. Per-deal work (the shuffle through
//!   `deal_sequence`/ChaCha8) is the largest single cost, then play checks and set enumeration.

pub mod action;
pub mod bot;
pub mod rules;
pub mod scoring;
pub mod state;
pub mod table;
pub mod view;

use crate::cards::PackSpec;
use crate::deal::parse_card_deals;
use crate::error::SetupError;
use crate::game::{Family, GameDef, Setup, Table};
use crate::options::PlayerRange;
use crate::rng::GameRng;
use crate::search::Rollout;
use action::{Action, Event};
use rules::Options;
use state::{Hand, Phase, State};
use view::View;

/// The 22 family.
pub struct TwentyTwo;

const SUMMARY: &str = "Each deal every player gets 7 cards (later: the value of the last losing card, \
fewer when the pack runs short), may exchange cards once with the stock, then tricks are played: \
the leader plays a card or a set of equal cards (keeping at least one), each follower plays as many \
cards, either covering the best play so far card by card or throwing his lowest cards. The last \
player of the highest card wins the trick and leads. When one card is left each, the highest last \
card loses and its holder scores it (A 11, K/Q/J 10, pips face value) and keeps it out of the pack. \
At 22 points a player is out; the last player in wins.";

impl GameDef for TwentyTwo {
    type State = State;

    /// The heuristic plays every rollout move: against `heuristic` at 200 ms a move, uniform
    /// rollouts finish level (53% of paired games) and heuristic ones well ahead (77%; 60 pairs,
    /// 3 players).
    const SEARCH_ROLLOUT: Rollout = Rollout::Heuristic { percent: 100 };

    fn family() -> Family {
        Family {
            id: "twenty_two",
            name: "22 (Twenty-Two)",
            description: "Shedding trick game of the Cucumber family: avoid holding the highest last card.",
            rules_summary: SUMMARY,
            players: PlayerRange { min: 2, max: 12 },
            options: rules::option_specs(),
            presets: rules::presets(),
            players_when: Vec::new(),
            table: table::table_layout(),
        }
    }

    fn setup(setup: &Setup<Options>, events: &mut Vec<Event>) -> Result<State, SetupError> {
        let n = setup.players;
        let options = setup.options.clone();
        let packs = options.pack_count(n);
        if !(1..=3).contains(&packs) {
            return Err(SetupError::InvalidOptions(
                "option `packs` must be \"auto\" or an integer from 1 to 3".into(),
            ));
        }
        if !(10..=99).contains(&options.elimination_threshold) {
            return Err(SetupError::InvalidOptions(
                "option `elimination_threshold` must be an integer from 10 to 99".into(),
            ));
        }
        options
            .first_dealer
            .check(n)
            .map_err(SetupError::InvalidOptions)?;
        let stacked = parse_card_deals(&setup.deals, &PackSpec::standard().copies(packs))?;
        let mut rng = GameRng::new(setup.seed);
        // R3: the first dealer is one uniform draw (event "first_dealer").
        let dealer = options.first_dealer.pick(&mut rng, n);
        let stake = u32::from(options.has_stakes());
        let mut state = State {
            table: Table {
                players: n,
                options,
                rng,
            },
            packs,
            stacked,
            deal: 0,
            dealer,
            leader: dealer,
            cards_each: 0,
            started_with: n,
            next_size: 7,
            totals: vec![0; n],
            eliminated_in: vec![None; n],
            bought_back: vec![false; n],
            stakes: vec![stake; n],
            markers: vec![Vec::new(); n],
            withheld: Vec::new(),
            hands: vec![Hand::default(); n],
            stock: Vec::new(),
            discards: Vec::new(),
            drawn: Vec::new(),
            plays: Vec::new(),
            winners: Vec::new(),
            target: 0,
            laid_aside: Vec::new(),
            revealed: Vec::new(),
            losers: Vec::new(),
            buy_back_queue: Vec::new(),
            fatal: Vec::new(),
            phase: Phase::Over,
        };
        state.start_deal(events);
        Ok(state)
    }

    fn heuristic(view: &View, legal: &[Action]) -> usize {
        bot::heuristic(view, legal)
    }
}
