//! # Taihe A Bao (泰和A包)
//!
//! A Chinese climbing (shedding) game, one declarer against all the others, for 4 players (3 or 5
//! in variants) with 40 cards (no 2, 3, 8; 3 players also without AS). Each hand: two bidding
//! rounds (round 1: declare alone, stake players+1; round 2: call a card, receive it face up and give
//! one back face down, the last caller declares with a stake of the number of callers), then the
//! climbing play: singles, pairs, runs of 3+ adjacent ranks (7 and 9 are not adjacent, no Aces),
//! double runs, and triples and quads as bombs. The declarer wins the stake from every opponent
//! if first out, and pays each of them otherwise.
//!
//! Spec: `shared/rules/taihe_abao.md` (rulings R1..R16, examples T1..T12); project doc
//! `docs/rules/taihe_abao.md`.
//!
//! Implementation notes:
//! - Player count is the seat count (3..=5); the spec's `players` option is not an `options` entry.
//! - Plays are rank multisets named by canonical cards (R13): per rank the suits S, H, D, C first.
//! - The R8 "top quad" (AAA with 3 players, KKK with 5 players without Aces) is a quad whose top
//!   rank index is 10, above every real quad.
//! - A game is `hands` hands, thrown-in hands included (R15); cumulative stakes rank the players.
//!   `teams` is set only for a one-hand game with a declarer (the sides change every hand).

pub mod action;
pub mod rules;
pub mod state;
pub mod view;

use crate::cards::{Card, CardSet};
use crate::error::SetupError;
use crate::game::{Family, GameDef, Setup};
use crate::options::PlayerRange;
pub use action::Action;
use rules::{Kind, Options, classify, rank_counts, rank_index};
use state::{Phase, State};
use view::View;

/// The Taihe A Bao family.
pub struct TaiheAbao;

impl GameDef for TaiheAbao {
    type State = State;

    fn family() -> Family {
        Family {
            id: "taihe_abao",
            name: "Taihe A Bao",
            description: "Chinese climbing game: one declarer against all the others; be first to shed your cards.",
            rules_summary: "40 cards (no 2, 3, 8), 10 each with 4 players. Round 1: each player may declare (stake players+1). If nobody does, round 2: each player may call a card not held (no Ace or 4): its holder hands it over face up and gets one card back face down; the last caller declares with a stake equal to the number of callers. No call: redeal. The declarer leads; each player beats the last combination with a higher one of the same kind and size (single, pair, run of 3+ adjacent ranks where 7 and 9 are not adjacent and Aces never run, double run), or plays a bomb (a triple beats anything but a higher triple or a quad; a quad beats anything but a higher quad), or passes. After everyone else passes the last player leads again. The declarer wins the stake from each opponent by going out first, and pays each of them otherwise.",
            players: PlayerRange { min: 3, max: 5 },
            options: rules::option_specs(),
            presets: rules::presets(),
            players_when: Vec::new(),
        }
    }

    fn setup(setup: &Setup<Options>) -> Result<State, SetupError> {
        State::new(setup)
    }

    fn heuristic(view: &View, legal: &[Action]) -> usize {
        heuristic(view, legal).unwrap_or(0)
    }
}

/// Hand strength for bidding: bombs, Aces, Kings.
fn strength(hand: &[Card]) -> f64 {
    let counts = rank_counts(CardSet::from_cards(hand.iter().copied()));
    let bombs = counts.iter().filter(|&&c| c >= 3).count() as f64;
    3.0 * bombs + f64::from(counts[9]) + 0.5 * f64::from(counts[8])
}

fn position(legal: &[Action], wanted: &Action) -> Option<usize> {
    legal.iter().position(|a| a == wanted)
}

/// Simple policy: bid on strong hands, call towards a bomb, give a lone low card, lead the lowest
/// rank in its longest combination, follow as cheaply as possible, never beat a partner, bomb only
/// against a player close to going out.
fn heuristic(view: &View, legal: &[Action]) -> Option<usize> {
    let me = view.seat?;
    let hand = view.hand.as_ref()?;
    let counts = rank_counts(CardSet::from_cards(hand.iter().copied()));
    let count_of = |card: &Card| rank_index(*card).map_or(0, |r| counts[r]);
    let rank_of = |card: &Card| rank_index(*card).unwrap_or(0);
    match view.phase {
        Phase::Bid1 => {
            let wanted = if strength(hand) >= 4.0 {
                Action::Declare {}
            } else {
                Action::Pass {}
            };
            position(legal, &wanted)
        }
        Phase::Bid2 => {
            if strength(hand) >= 3.0 || !legal.contains(&Action::Pass {}) {
                legal
                    .iter()
                    .enumerate()
                    .filter_map(|(i, a)| match a {
                        Action::Call { cards } => cards.first().map(|c| (i, c)),
                        _ => None,
                    })
                    .max_by_key(|(_, c)| (count_of(c), rank_of(c)))
                    .map(|(i, _)| i)
            } else {
                position(legal, &Action::Pass {})
            }
        }
        Phase::Exchange => legal
            .iter()
            .enumerate()
            .filter_map(|(i, a)| match a {
                Action::Exchange { cards } => cards.first().map(|c| (i, c)),
                _ => None,
            })
            .min_by_key(|(_, c)| (count_of(c), rank_of(c)))
            .map(|(i, _)| i),
        Phase::Play => {
            let plays: Vec<(usize, &Vec<Card>, Kind, usize, usize)> = legal
                .iter()
                .enumerate()
                .filter_map(|(i, a)| match a {
                    Action::Play { cards } => {
                        let c = rank_counts(CardSet::from_cards(cards.iter().copied()));
                        let combo = classify(&c, None)?;
                        let low = (0..10).find(|&r| c[r] > 0)?;
                        Some((i, cards, combo.kind, combo.top, low))
                    }
                    _ => None,
                })
                .collect();
            if let Some(out) = plays.iter().find(|p| p.1.len() == hand.len()) {
                return Some(out.0);
            }
            let bomb = |k: Kind| matches!(k, Kind::Triple | Kind::Quad);
            let pass = position(legal, &Action::Pass {});
            let Some(top) = &view.top else {
                // Leading: the lowest rank, in its longest non-bomb combination.
                return plays
                    .iter()
                    .filter(|p| !bomb(p.2))
                    .min_by_key(|p| (p.4, std::cmp::Reverse(p.1.len())))
                    .or_else(|| plays.iter().min_by_key(|p| p.3))
                    .map(|p| p.0);
            };
            let partner_on_top = view.declarer.is_some_and(|d| d != me && top.seat != d);
            if partner_on_top {
                return pass;
            }
            if let Some(cheap) = plays.iter().filter(|p| !bomb(p.2)).min_by_key(|p| p.3) {
                return Some(cheap.0);
            }
            let danger = view.hand_sizes.get(top.seat).copied().unwrap_or(0) <= 4;
            if (danger || view.declarer == Some(me))
                && let Some(b) = plays.iter().min_by_key(|p| (p.1.len(), p.3))
            {
                return Some(b.0);
            }
            pass
        }
        Phase::Over => None,
    }
}
