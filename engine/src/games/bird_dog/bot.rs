//! The built-in heuristic bot of Bird Dog: chooses from a seat's view and legal actions only (never
//! the full state).

use super::action::*;
use super::state::*;
use super::view::*;
use crate::cards::*;
use crate::game::Seat;

fn index_of(legal: &[Action], wanted: &Action) -> usize {
    legal.iter().position(|a| a == wanted).unwrap_or(0)
}

fn card_of(action: &Action) -> Option<Card> {
    match action {
        Action::Play { cards } => cards.first().copied(),
        _ => None,
    }
}

fn rank_value(card: Card) -> u8 {
    card.rank().map_or(0, Rank::value)
}

/// How good a hand is with `trump` and its Bird Dog card (a rough trick count).
fn hand_strength(hand: &[Card], trump: Suit, bird_dog: Option<Card>) -> f64 {
    hand.iter()
        .map(|&c| {
            if Some(c) == bird_dog {
                1.5
            } else if c.suit() == Some(trump) {
                0.7 + f64::from(rank_value(c).saturating_sub(9)) * 0.1
            } else if c.rank() == Some(Rank::Ace) {
                0.6
            } else {
                0.0
            }
        })
        .sum()
}

/// The heuristic: go solo with a strong hand for the turned suit, nil with a hopeless one, then
/// win tricks cheaply (or duck everything when nil).
pub fn heuristic(view: &View, legal: &[Action]) -> usize {
    let Some(me) = view.seat else { return 0 };
    let hand = view.hand.clone().unwrap_or_default();
    match legal.first() {
        Some(Action::Declare {
            contract: Contract::Solo,
        }) => {
            let Some(candidate) = view.candidate else {
                return 1;
            };
            let trump = candidate.suit().unwrap_or(Suit::Spades);
            let bird_dog = bird_dog_of(candidate).filter(|c| !view.widow_seen.contains(c));
            let strong = hand_strength(&hand, trump, bird_dog);
            let bar = if view.players == 2 { 3.2 } else { 3.6 };
            let wanted = if strong >= bar {
                Action::Declare {
                    contract: Contract::Solo,
                }
            } else {
                Action::Pass {}
            };
            index_of(legal, &wanted)
        }
        Some(Action::Declare {
            contract: Contract::Nil,
        }) => {
            let trump = view.trump.unwrap_or(Suit::Spades);
            let bird_dog = view.bird_dog.map(|b| Card::new(b.rank, b.suit));
            let hopeless = view.solo != Some(me)
                && hand.iter().all(|&c| {
                    Some(c) != bird_dog && c.suit() != Some(trump) && rank_value(c) <= 11
                });
            index_of(
                legal,
                if hopeless {
                    &legal[0]
                } else {
                    &Action::Pass {}
                },
            )
        }
        Some(Action::Pass {}) => 0,
        Some(Action::Play { .. }) => play(view, me, legal),
        None => 0,
    }
}

fn play(view: &View, me: Seat, legal: &[Action]) -> usize {
    let trump = view.trump;
    // R22: the bot knows the Bird Dog card's identity only, not whether it lies in the widow;
    // a card never played cannot win a trick, so ranking it as the Bird Dog is harmless.
    let bird_dog = view.bird_dog.map(|b| Card::new(b.rank, b.suit));
    let ducking = view.nil == Some(me) && !view.dummy_to_play;
    let cards: Vec<(usize, Card)> = legal
        .iter()
        .enumerate()
        .filter_map(|(i, a)| card_of(a).map(|c| (i, c)))
        .collect();
    let is_trump = |c: Card| trump.is_some() && c.suit() == trump;
    let Some(first) = view.trick.first() else {
        // Leading.
        let pick = if ducking {
            cards
                .iter()
                .filter(|(_, c)| Some(*c) != bird_dog && !is_trump(*c))
                .min_by_key(|(_, c)| rank_value(*c))
                .or(cards.iter().min_by_key(|(_, c)| rank_value(*c)))
        } else {
            cards
                .iter()
                .find(|(_, c)| Some(*c) == bird_dog)
                .or(cards
                    .iter()
                    .filter(|(_, c)| rank_value(*c) == 14)
                    .max_by_key(|(_, c)| is_trump(*c)))
                .or(cards
                    .iter()
                    .filter(|(_, c)| !is_trump(*c))
                    .min_by_key(|(_, c)| rank_value(*c)))
                .or(cards.first())
        };
        return pick.map_or(0, |(i, _)| *i);
    };
    let led = first.card.suit().unwrap_or(Suit::Spades);
    let best = view
        .trick
        .iter()
        .filter_map(|p| strength(p.card, led, trump, bird_dog))
        .max();
    let power = |c: Card| strength(c, led, trump, bird_dog);
    let beats = |c: Card| power(c).is_some() && power(c) > best;
    let last = view.trick.len() == 2;
    if ducking {
        let pick = cards
            .iter()
            .filter(|(_, c)| !beats(*c))
            .max_by_key(|(_, c)| (power(*c), rank_value(*c)))
            .or(cards.iter().min_by_key(|(_, c)| power(*c)));
        return pick.map_or(0, |(i, _)| *i);
    }
    // Win cheaply when last or when the win is sure (Bird Dog, ace of trump); else throw low.
    let winners = cards.iter().filter(|(_, c)| beats(*c));
    let pick = if last {
        winners.min_by_key(|(_, c)| power(*c))
    } else {
        winners
            .filter(|(_, c)| Some(*c) == bird_dog || (is_trump(*c) && rank_value(*c) == 14))
            .min_by_key(|(_, c)| power(*c))
    };
    let pick = pick.or(cards
        .iter()
        .min_by_key(|(_, c)| (is_trump(*c) || Some(*c) == bird_dog, rank_value(*c))));
    pick.map_or(0, |(i, _)| *i)
}
