//! Rulings R1..R17 and worked examples E1..E10, M1..M3 of `docs/rules/marglia.md`.

use engine::cards::{Card, CardSet, Suit};
use engine::game::GameState;
use engine::game::{GameDef, Setup};
use engine::games::marglia::rules::{
    Communication, FirstDealer, GameLength, Options, TrickBonus, Variant,
};
use engine::games::marglia::state::{Phase, legal_cards};
use engine::games::marglia::{Maniglia, Marglia, State, scoring};
use engine::rng::PlayoutRng;
use engine::{ActionError, Match, NewGame, Viewer, registry};
use serde_json::{Value, json};

use crate::support::{act, view};

fn cards(list: &str) -> CardSet {
    CardSet::from_cards(Card::parse_list(list).unwrap())
}

fn card(code: &str) -> Card {
    Card::parse(code).unwrap()
}

fn trick(plays: &[(usize, &str)]) -> Vec<(usize, Card)> {
    plays.iter().map(|(s, c)| (*s, card(c))).collect()
}

fn teams(a: usize, b: usize) -> bool {
    a != b && a % 2 == b % 2
}

/// A Marglia stacked entry (§2, R16): the trump card first, then blocks of five from dealer+1,
/// the dealer's second block having four. `hands[dealer]` lists the dealer's 9 dealt cards.
fn marglia_entry(dealer: usize, trump: &str, hands: [&str; 4]) -> Vec<String> {
    let hands: Vec<Vec<&str>> = hands
        .iter()
        .map(|h| h.split_whitespace().collect())
        .collect();
    let mut entry = vec![trump.to_string()];
    for block in 0..8 {
        let seat = (dealer + 1 + block) % 4;
        let from = if block < 4 { 0 } else { 5 };
        let to = (from + 5).min(hands[seat].len());
        entry.extend(hands[seat][from..to].iter().map(|c| c.to_string()));
    }
    entry
}

fn start(id: &str, players: usize, options: Value, deals: Vec<Vec<String>>) -> Box<dyn Match> {
    crate::support::start(id, players, options, deals, 11)
}

fn play(game: &mut Box<dyn Match>, seat: usize, code: &str) -> Vec<Value> {
    act(game, seat, json!({"type": "play", "cards": [code]}))
}

#[test]
fn r1_card_points_total_60_and_j_ranks_above_q() {
    let pack = engine::games::marglia::state::pack(&Options::default(), 4);
    assert_eq!(pack.len(), 40);
    assert_eq!(pack.iter().map(|c| scoring::points(*c)).sum::<i64>(), 60);
    let order = ["7S", "AS", "KS", "JS", "QS", "6S", "5S", "4S", "3S", "2S"];
    for pair in order.windows(2) {
        assert!(scoring::strength(card(pair[0])) > scoring::strength(card(pair[1])));
    }
    assert_eq!(
        ["7H", "AH", "KH", "JH", "QH", "6H"].map(|c| scoring::points(card(c))),
        [5, 4, 3, 2, 1, 0]
    );
}

#[test]
fn e1_r6_must_follow_with_any_card_of_the_suit() {
    let t = trick(&[(1, "5S")]);
    let legal = legal_cards(cards("AS 3S 7H KC"), &t, Some(Suit::Hearts), true, |w| {
        teams(2, w)
    });
    assert_eq!(legal, cards("AS 3S"));
}

#[test]
fn e2_void_opponent_winning_must_trump() {
    let t = trick(&[(1, "KS")]);
    let legal = legal_cards(cards("4H AH QC 6D"), &t, Some(Suit::Hearts), true, |w| {
        teams(2, w)
    });
    assert_eq!(legal, cards("4H AH"));
}

#[test]
fn e3_exception_a_partner_winning_frees_the_player() {
    let t = trick(&[(1, "AS"), (2, "3S")]);
    let hand = cards("2H 7H QD 6C");
    let legal = legal_cards(hand, &t, Some(Suit::Hearts), true, |w| teams(3, w));
    assert_eq!(legal, hand);
}

#[test]
fn e4_exception_c_cannot_beat_the_trump_in_the_trick() {
    let t = trick(&[(0, "4C"), (1, "7H")]);
    let hand = cards("AH 2H KS QD");
    let legal = legal_cards(hand, &t, Some(Suit::Hearts), true, |w| teams(2, w));
    assert_eq!(legal, hand);
}

#[test]
fn e5_r5_must_overtrump_or_any_trump_with_the_option_off() {
    let t = trick(&[(0, "4C"), (1, "5H")]);
    let hand = cards("KH 3H AS");
    let on = legal_cards(hand, &t, Some(Suit::Hearts), true, |w| teams(2, w));
    assert_eq!(on, cards("KH"));
    let off = legal_cards(hand, &t, Some(Suit::Hearts), false, |w| teams(2, w));
    assert_eq!(off, cards("KH 3H"));
}

#[test]
fn r5_exception_b_no_trump_in_hand_frees_the_player() {
    let t = trick(&[(0, "4C")]);
    let hand = cards("AS KD");
    assert_eq!(
        legal_cards(hand, &t, Some(Suit::Hearts), true, |w| teams(1, w)),
        hand
    );
}

#[test]
fn e6_trick_winner_jack_above_queen_and_trump_wins() {
    let plain = trick(&[(0, "2S"), (1, "JS"), (2, "QS"), (3, "6H")]);
    assert_eq!(State::winning_index(&plain, Some(Suit::Diamonds)), Some(1));
    let trumped = trick(&[(0, "2S"), (1, "JS"), (2, "QS"), (3, "2D")]);
    assert_eq!(
        State::winning_index(&trumped, Some(Suit::Diamonds)),
        Some(3)
    );
}

#[test]
fn e7_r2_deal_scoring_only_above_35() {
    // Team A: 41 card points, 5 of its 6 tricks hold a frillo → raw 46 → 11.
    assert_eq!(scoring::deal_score(41 + 5, 35), 11);
    assert_eq!(scoring::deal_score(19 + 3, 35), 0);
    // every_trick: A 41 + 6 = 47 → 12; B 19 + 4 = 23 → 0.
    assert_eq!(scoring::deal_score(41 + 6, 35), 12);
    assert_eq!(scoring::deal_score(19 + 4, 35), 0);
    // The per-trick values behind those totals.
    let with_frillo = [card("7S"), card("AS"), card("2S"), card("3S")];
    let without = [card("7S"), card("AS"), card("KS"), card("QS")];
    assert_eq!(scoring::trick_value(with_frillo, TrickBonus::Frillo), 10);
    assert_eq!(scoring::trick_value(without, TrickBonus::Frillo), 13);
    assert_eq!(scoring::trick_value(without, TrickBonus::EveryTrick), 14);
    assert_eq!(scoring::trick_value(with_frillo, TrickBonus::None), 9);
    // 45 threshold (option).
    assert_eq!(scoring::deal_score(47, 45), 2);
}

fn marglia_state(options: Options, deals: Vec<Vec<String>>) -> State {
    Marglia::setup(
        &Setup {
            players: 4,
            options,
            seed: 3,
            deals,
        },
        &mut Vec::new(),
    )
    .unwrap()
}

#[test]
fn e8_r3_r4_turnup_bonus_to_the_cumulative_score_and_early_stop() {
    // E8's team B stands at 32 when seat 3 turns the KD (+3 = 35 = early_stop_at). The same
    // reaching of the threshold on the first deal: early_stop_at 3, seat 3 deals and turns the KD.
    let options = Options {
        first_dealer: FirstDealer::Seat(3),
        early_stop_at: Some(3),
        ..Options::default()
    };
    let state = marglia_state(options.clone(), vec![vec!["KD".into()]]);
    assert_eq!(state.trump, Some(Suit::Diamonds));
    assert_eq!(state.cumulative, [0, 3]);
    assert_eq!(state.phase, Phase::EarlyStop);
    let mut legal = Vec::new();
    state.legal_actions(3, &mut legal);
    assert_eq!(
        serde_json::to_value(&legal).unwrap(),
        json!([{"type": "declare", "what": "stop"}, {"type": "pass"}])
    );
    // Stop: the deal ends, both teams score 0 for it, team B keeps its 3; seat 0 deals next.
    let mut stopped = state.clone();
    let mut events = Vec::new();
    let stop = legal[0].clone();
    stopped.apply(3, &stop, &mut events).unwrap();
    assert_eq!(stopped.cumulative, [0, 3]);
    let report = stopped.last_deal.clone().unwrap();
    assert_eq!((report.scores, report.unplayed), (vec![0, 0], true));
    assert_eq!(stopped.dealer, 0);
    assert_eq!(stopped.deal_number, 2);
    // Pass: play starts with seat 0 leading.
    let mut passed = state.clone();
    passed
        .apply(3, &engine::games::marglia::Action::Pass {}, &mut events)
        .unwrap();
    assert_eq!(passed.phase, Phase::Play);
    assert_eq!(passed.current(), Some(0));
    // A 5D turn-up: no bonus, 0 < 3, no decision.
    let state = marglia_state(options, vec![vec!["5D".into()]]);
    assert_eq!(state.cumulative, [0, 0]);
    assert_eq!(state.phase, Phase::Play);
    assert_eq!(state.current(), Some(0));
}

#[test]
fn r4_early_stop_disabled_with_null() {
    // Even with a bonus on the first deal (7D: +5 to the dealer's team B), no decision is offered.
    let options = Options {
        first_dealer: FirstDealer::Seat(3),
        early_stop_at: None,
        ..Options::default()
    };
    let state = marglia_state(options, vec![vec!["7D".into()]]);
    assert_eq!(state.cumulative, [0, 5]);
    assert_eq!(state.phase, Phase::Play);
}

#[test]
fn e10_r7_r16_stacked_deal_layout_and_turn_up() {
    let entry: Vec<String> = "KH 7S AS KS JS QS 2C 3C 4C 5C 6C"
        .split_whitespace()
        .map(String::from)
        .collect();
    let mut game = start("marglia", 4, json!({"first_dealer": 1}), vec![entry]);
    let v = view(game.as_ref(), 2);
    assert_eq!(v["trump"], json!("H"));
    assert_eq!(v["turned"], json!("KH"));
    assert_eq!(v["cumulative"], json!([0, 3]));
    let hand2: Vec<Value> = v["hand"].as_array().unwrap().clone();
    for c in ["7S", "AS", "KS", "JS", "QS"] {
        assert!(hand2.contains(&json!(c)), "{c}");
    }
    let hand3 = view(game.as_ref(), 3)["hand"].as_array().unwrap().clone();
    for c in ["2C", "3C", "4C", "5C", "6C"] {
        assert!(hand3.contains(&json!(c)), "{c}");
    }
    // R3/§6: the dealer holds the trump card (10 cards), everyone sees that it is there.
    let dealer = view(game.as_ref(), 1);
    assert!(dealer["hand"].as_array().unwrap().contains(&json!("KH")));
    assert_eq!(dealer["hand_sizes"], json!([10, 10, 10, 10]));
    assert_eq!(view(game.as_ref(), 0)["turned_in_dealer_hand"], json!(true));
    // First lead: dealer+1.
    assert_eq!(game.to_act(), vec![2]);
    play(&mut game, 2, "7S");
}

#[test]
fn e2_e5_in_a_dealt_game_with_refusal_reasons() {
    // Dealer 3, trump H (turn-up 2H to the dealer). Seat 0 leads.
    let hands = [
        "4C 7C AC KC JC QC 6C 5C 3C 2C",
        "5H AS KS JS QS 6S 5S 4S 3S 2S",
        "KH 3H 7S AD KD JD QD 6D 5D 4D",
        "7H AH JH QH 6H 4H 7D 3D 2D",
    ];
    let entry = marglia_entry(3, "2H", hands);
    let mut game = start("marglia", 4, json!({"first_dealer": 3}), vec![entry]);
    assert_eq!(view(game.as_ref(), 0)["trump"], json!("H"));
    play(&mut game, 0, "4C");
    // Seat 1 (void in clubs, opponent winning) must trump: only hearts.
    let legal = game.legal_actions(1);
    assert_eq!(legal, vec![json!({"type": "play", "cards": ["5H"]})]);
    let err = game
        .apply(1, &json!({"type": "play", "cards": ["AS"]}))
        .unwrap_err();
    assert_eq!(err.reason(), "must_trump");
    play(&mut game, 1, "5H");
    // E5: seat 2 (void in clubs) must overtrump 5H: only KH.
    assert_eq!(
        game.legal_actions(2),
        vec![json!({"type": "play", "cards": ["KH"]})]
    );
    let err = game
        .apply(2, &json!({"type": "play", "cards": ["3H"]}))
        .unwrap_err();
    assert_eq!(err.reason(), "must_overtrump");
    assert!(err.to_string().contains("KH"), "{err}");
    play(&mut game, 2, "KH");
    // Seat 3: partner (seat 1) is not winning; seat 3 holds 7H AH above KH → must overtrump.
    let legal: Vec<Value> = game.legal_actions(3);
    assert_eq!(
        legal,
        vec![
            json!({"type": "play", "cards": ["7H"]}),
            json!({"type": "play", "cards": ["AH"]})
        ]
    );
    let events = play(&mut game, 3, "AH");
    assert!(events.contains(&json!({"type": "trick_won", "seat": 3})));
    // Seat 3 leads; seat 0 must follow? 0 holds only clubs: void, opponent winning, no trump → any.
    play(&mut game, 3, "7D");
    assert_eq!(game.legal_actions(0).len(), 9);
    let err = game
        .apply(0, &json!({"type": "play", "cards": ["KH"]}))
        .unwrap_err();
    assert_eq!(err.reason(), "card_not_in_hand");
    let err = game
        .apply(0, &json!({"type": "bid", "points": 40}))
        .unwrap_err();
    assert_eq!(err.reason(), "not_now");
    assert!(matches!(
        game.apply(1, &json!({"type": "pass"})),
        Err(ActionError::NotYourTurn { .. })
    ));
}

/// Plays a game with uniformly random legal actions, checking each deal's raw totals (E9).
fn random_game(id: &str, players: usize, options: Value, seed: u64) -> Box<dyn Match> {
    let mut game = registry::find(id)
        .unwrap()
        .start(&NewGame {
            players,
            options: options.as_object().cloned().unwrap_or_default(),
            seed,
            deals: vec![],
        })
        .unwrap();
    let mut rng = PlayoutRng::new(seed);
    while !game.is_over() {
        let seat = game.to_act()[0];
        let legal = game.legal_actions(seat);
        let before = view(game.as_ref(), seat);
        let events = game
            .apply(seat, &legal[rng.below(legal.len())])
            .unwrap()
            .events;
        for event in events.iter().filter(|e| e["type"] == "deal_scored") {
            let raw: Vec<i64> = serde_json::from_value(event["raw"].clone()).unwrap();
            if raw.iter().all(|r| *r == 0) {
                continue;
            }
            // E9: card points 60 + one per trick holding a frillo (frillo bonus), all 40 cards.
            let mut tricks: Vec<Vec<Card>> = before["tricks"]
                .as_array()
                .unwrap()
                .iter()
                .map(|t| {
                    t["plays"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .map(|p| card(p[1].as_str().unwrap()))
                        .collect()
                })
                .collect();
            let mut last: Vec<Card> = before["trick"]
                .as_array()
                .unwrap()
                .iter()
                .map(|p| card(p[1].as_str().unwrap()))
                .collect();
            for e in &events {
                if e["type"] == "play" {
                    last.push(card(e["cards"][0].as_str().unwrap()));
                }
            }
            tricks.push(last);
            let frillo_tricks = tricks
                .iter()
                .filter(|t| t.iter().any(|c| scoring::is_frillo(*c)))
                .count() as i64;
            let pack_points: i64 = tricks.iter().flatten().map(|c| scoring::points(*c)).sum();
            let expected = match options["trick_bonus"].as_str() {
                Some("every_trick") => pack_points + tricks.len() as i64,
                _ => pack_points + frillo_tricks,
            };
            assert_eq!(raw.iter().sum::<i64>(), expected, "{event}");
            assert!(expected <= 60 + tricks.len() as i64);
            if players == 4 {
                assert!(expected <= 70);
            }
        }
    }
    game
}

#[test]
fn e9_raw_totals_are_60_plus_frillo_tricks_and_at_most_one_team_scores() {
    for seed in 0..6 {
        let game = random_game("marglia", 4, json!({}), seed);
        let result = game.result().unwrap();
        assert_eq!(result.teams, Some(vec![vec![0, 2], vec![1, 3]]));
        assert_eq!(result.scores[0], result.scores[2]);
        assert_eq!(result.scores[1], result.scores[3]);
        assert!(result.ranking.iter().all(|g| g.len() % 2 == 0));
        assert_eq!(result.details["deals"], json!(4));
    }
    random_game("marglia_pagat", 4, json!({"trick_bonus": "every_trick"}), 1);
}

#[test]
fn r15_equal_scores_are_a_draw() {
    // One-deal games the dealer (seat 3, team B) stops at once (early_stop_at 0): the turn-up
    // bonus is the whole score. A 5D is worth nothing: 0-0 is a draw.
    let one_stopped_deal = |turn_up: &str| {
        let mut game = start(
            "marglia",
            4,
            json!({"first_dealer": 3, "early_stop_at": 0, "game_length": {"deals": 1}}),
            vec![vec![turn_up.to_string()]],
        );
        act(&mut game, 3, json!({"type": "declare", "what": "stop"}));
        game.result().unwrap()
    };
    let result = one_stopped_deal("5D");
    assert_eq!(result.ranking, vec![vec![0, 1, 2, 3]]);
    assert_eq!(result.scores, [0.0; 4]);
    let result = one_stopped_deal("KD");
    assert_eq!(result.ranking, vec![vec![1, 3], vec![0, 2]]);
    assert_eq!(result.scores, [0.0, 3.0, 0.0, 3.0]);
}

#[test]
fn game_length_deals_or_target() {
    let game = random_game("marglia", 4, json!({"game_length": {"deals": 2}}), 4);
    assert_eq!(game.result().unwrap().details["deals"], json!(2));
    let game = random_game("marglia", 4, json!({"game_length": {"target": 20}}), 4);
    let result = game.result().unwrap();
    assert!(result.scores.iter().any(|s| *s >= 20.0), "{result:?}");
    let err = registry::find("marglia")
        .unwrap()
        .start(&NewGame {
            players: 4,
            options: json!({"game_length": {"deals": 0}})
                .as_object()
                .cloned()
                .unwrap(),
            ..NewGame::default()
        })
        .unwrap_err();
    assert_eq!(err.code(), "invalid_options");
    let err = registry::find("marglia")
        .unwrap()
        .start(&NewGame {
            players: 4,
            options: json!({"variant": "maniglia"}).as_object().cloned().unwrap(),
            ..NewGame::default()
        })
        .unwrap_err();
    assert!(err.to_string().contains("fixed"), "{err}");
    assert_eq!(
        registry::find("marglia")
            .unwrap()
            .start(&NewGame {
                players: 3,
                ..NewGame::default()
            })
            .unwrap_err()
            .code(),
        "invalid_players"
    );
}

#[test]
fn r9_structured_communication_truthful_public_answers_in_seat_order() {
    let hands = [
        "4C 7C AC KC JC QC 6C 5C 3C 2C",
        "5H AS KS JS QS 6S 5S 4S 3S 2S",
        "KH 3H 7S AD KD JD QD 6D 5D 4D",
        "7H AH JH QH 6H 4H 7D 3D 2D",
    ];
    let entry = marglia_entry(3, "2H", hands);
    let mut game = start(
        "marglia",
        4,
        json!({"first_dealer": 3, "communication": "structured"}),
        vec![entry],
    );
    assert_eq!(game.to_act(), vec![0]);
    assert_eq!(game.legal_actions(0).len(), 16);
    let events = act(
        &mut game,
        0,
        json!({"type": "ask", "question": "suit_count", "suit": "D"}),
    );
    // Seat 2 holds AD KD JD QD 6D 5D 4D: 7 diamonds.
    assert!(
        events.contains(&json!({"type": "answer", "seat": 0, "partner": 2,
        "question": "suit_count", "suit": "D", "answer": 7}))
    );
    act(&mut game, 1, json!({"type": "pass"}));
    let events = act(
        &mut game,
        2,
        json!({"type": "ask", "question": "hand_points"}),
    );
    // Seat 0: 7C AC KC JC QC = 5+4+3+2+1 = 15.
    assert!(events.iter().any(|e| e["answer"] == json!(15)));
    let err = game
        .apply(3, &json!({"type": "ask", "question": "rank_count"}))
        .unwrap_err();
    assert_eq!(err.reason(), "malformed_question");
    act(
        &mut game,
        3,
        json!({"type": "ask", "question": "rank_count", "rank": "5"}),
    );
    // Public: a spectator sees all three answers; play starts with seat 0.
    let spectator = game.view(Viewer::Spectator);
    assert_eq!(spectator["answers"].as_array().unwrap().len(), 3);
    // Seat 1 holds 5H and 5S.
    assert_eq!(spectator["answers"][2]["answer"], json!(2));
    assert_eq!(game.to_act(), vec![0]);
    assert_eq!(view(game.as_ref(), 0)["phase"]["phase"], json!("play"));
}

// ---------------------------------------------------------------- Maniglia (experimental)

#[test]
fn m1_auction_then_trump_declaration_and_turned_card_bonus() {
    // Dealer 3; the turned card (last card, to the dealer) is KD.
    let mut entry: Vec<String> = engine::games::marglia::state::pack(&Options::default(), 4)
        .into_iter()
        .filter(|c| c.code() != "KD")
        .map(|c| c.code())
        .collect();
    entry.push("KD".into());
    let mut game = start("maniglia", 4, json!({"first_dealer": 3}), vec![entry]);
    assert_eq!(view(game.as_ref(), 0)["turned"], json!("KD"));
    assert!(
        view(game.as_ref(), 3)["hand"]
            .as_array()
            .unwrap()
            .contains(&json!("KD"))
    );
    assert_eq!(game.to_act(), vec![0]);
    let legal = game.legal_actions(0);
    assert_eq!(legal[0], json!({"type": "bid", "points": 36}));
    assert_eq!(legal.last().unwrap(), &json!({"type": "pass"}));
    act(&mut game, 0, json!({"type": "bid", "points": 40}));
    let err = game
        .apply(1, &json!({"type": "bid", "points": 40}))
        .unwrap_err();
    assert_eq!(err.reason(), "bid_out_of_range");
    assert_eq!(
        game.legal_actions(1)[0],
        json!({"type": "bid", "points": 41})
    );
    act(&mut game, 1, json!({"type": "bid", "points": 45}));
    act(&mut game, 2, json!({"type": "pass"}));
    act(&mut game, 3, json!({"type": "pass"}));
    assert_eq!(game.to_act(), vec![0]);
    assert_eq!(
        game.legal_actions(0)[0],
        json!({"type": "bid", "points": 46})
    );
    act(&mut game, 0, json!({"type": "bid", "points": 50}));
    assert_eq!(game.to_act(), vec![1]);
    act(&mut game, 1, json!({"type": "pass"}));
    assert_eq!(game.to_act(), vec![0]);
    assert_eq!(game.legal_actions(0).len(), 4);
    let events = act(&mut game, 0, json!({"type": "declare", "suit": "C"}));
    assert!(events.contains(&json!({"type": "trump", "seat": 0, "suit": "C", "points": 50})));
    assert!(events.contains(&json!({"type": "turnup_bonus", "seat": 3, "points": 3})));
    let v = view(game.as_ref(), 1);
    assert_eq!(v["cumulative"], json!([0, 3]));
    assert_eq!(v["contract"], json!({"seat": 0, "points": 50}));
    assert_eq!(v["trump"], json!("C"));
    assert_eq!(game.to_act(), vec![0]);
}

#[test]
fn r12_turned_card_gives_nothing_at_29_or_more() {
    // R12: the turned 7D (5 points) goes to the dealer's side once trumps are named, unless that
    // side already has `turnup_block_at` (the spec's 29; here 0 blocks it and 1 does not).
    let mut entry: Vec<Card> = engine::games::marglia::state::pack(
        &Options {
            variant: Variant::Maniglia,
            ..Options::default()
        },
        4,
    )
    .into_iter()
    .filter(|c| *c != card("7D"))
    .collect();
    entry.push(card("7D"));
    let entry: Vec<String> = entry.iter().map(Card::to_string).collect();
    let cumulative_after_trumps = |block_at: i64| {
        let mut state = Maniglia::setup(
            &Setup {
                players: 4,
                options: Options {
                    variant: Variant::Maniglia,
                    first_dealer: FirstDealer::Seat(3),
                    game_length: None,
                    turnup_block_at: Some(block_at),
                    ..Options::default()
                },
                seed: 5,
                deals: vec![entry.clone()],
            },
            &mut Vec::new(),
        )
        .unwrap();
        assert_eq!(state.turned, Some(card("7D")));
        let mut events = Vec::new();
        let mut legal = Vec::new();
        state.legal_actions(0, &mut legal);
        state.apply(0, &legal[0], &mut events).unwrap();
        for seat in [1, 2, 3] {
            state
                .apply(seat, &engine::games::marglia::Action::Pass {}, &mut events)
                .unwrap();
        }
        let declare = engine::games::marglia::Action::Declare {
            what: None,
            suit: Some(Suit::Spades),
        };
        state.apply(0, &declare, &mut events).unwrap();
        state.cumulative
    };
    assert_eq!(cumulative_after_trumps(0), [0, 0]);
    assert_eq!(cumulative_after_trumps(1), [0, 5]);
}

#[test]
fn m2_contract_scoring() {
    assert_eq!(scoring::contract_score(52, 50, 35), 17);
    assert_eq!(scoring::contract_score(48, 50, 35), -15);
    assert_eq!(scoring::contract_score(50, 50, 35), 15);
}

#[test]
fn m3_r17_thrown_in_deal_counts_and_the_next_dealer_deals() {
    let mut game = start("maniglia", 4, json!({"first_dealer": 3}), vec![]);
    for seat in [0, 1, 2] {
        act(&mut game, seat, json!({"type": "pass"}));
    }
    let events = act(&mut game, 3, json!({"type": "pass"}));
    assert!(events.contains(&json!({"type": "thrown_in"})));
    assert!(!events.iter().any(|e| e["type"] == "turnup_bonus"));
    let v = view(game.as_ref(), 0);
    assert_eq!(v["cumulative"], json!([0, 0]));
    assert_eq!(v["dealer"], json!(0));
    assert_eq!(v["deal_number"], json!(2));
    // Always passing ends the game after n = 4 deals.
    while !game.is_over() {
        let seat = game.to_act()[0];
        act(&mut game, seat, json!({"type": "pass"}));
    }
    let result = game.result().unwrap();
    assert_eq!(result.details["deals"], json!(4));
    assert_eq!(result.ranking, vec![vec![0, 1, 2, 3]]);
}

#[test]
fn r13_three_players_remove_one_two_and_play_alone() {
    let game = start("maniglia", 3, json!({"maniglia_removed_two": "2H"}), vec![]);
    assert_eq!(game.pieces().len(), 39);
    assert!(!game.pieces().contains(&"2H".to_string()));
    assert_eq!(view(game.as_ref(), 0)["hand_sizes"], json!([13, 13, 13]));
    assert_eq!(view(game.as_ref(), 0)["removed"], json!("2H"));
    let five = start("maniglia", 5, json!({}), vec![]);
    assert_eq!(view(five.as_ref(), 0)["hand_sizes"], json!([8, 8, 8, 8, 8]));
    let err = registry::find("maniglia")
        .unwrap()
        .start(&NewGame {
            players: 3,
            options: json!({"communication": "structured"})
                .as_object()
                .cloned()
                .unwrap(),
            ..NewGame::default()
        })
        .unwrap_err();
    assert_eq!(err.code(), "invalid_options");
    let err = registry::find("maniglia")
        .unwrap()
        .start(&NewGame {
            players: 3,
            deals: vec![vec!["2S".into()]],
            ..NewGame::default()
        })
        .unwrap_err();
    assert_eq!(err.code(), "invalid_deals");
}

#[test]
fn maniglia_individual_play_codefenders_are_partners_and_only_the_bidder_scores() {
    for seed in 0..6 {
        let game = random_game("maniglia", 3, json!({}), seed);
        let result = game.result().unwrap();
        assert_eq!(result.teams, None);
        assert_eq!(result.details["deals"], json!(3));
    }
    // Co-defenders (1 and 2 against bidder 0) may discard freely when the other is winning.
    let mut state = Maniglia::setup(
        &Setup {
            players: 3,
            options: Options {
                variant: Variant::Maniglia,
                first_dealer: FirstDealer::Seat(2),
                game_length: None,
                ..Options::default()
            },
            seed: 2,
            deals: vec![],
        },
        &mut Vec::new(),
    )
    .unwrap();
    // Seat 0 (first after dealer 2) wins the auction with the lowest bid; 1 and 2 pass.
    let mut legal = Vec::new();
    state.legal_actions(0, &mut legal);
    let mut events = Vec::new();
    state.apply(0, &legal[0], &mut events).unwrap();
    for seat in [1, 2] {
        state
            .apply(seat, &engine::games::marglia::Action::Pass {}, &mut events)
            .unwrap();
    }
    assert_eq!(state.contract.map(|c| c.seat), Some(0));
    assert!(state.partners(1, 2));
    assert!(!state.partners(0, 1));
    let t = trick(&[(1, "AS")]);
    let hand = cards("2H 7H QD");
    assert_eq!(
        legal_cards(hand, &t, Some(Suit::Hearts), true, |w| state.partners(2, w)),
        hand
    );
    assert_eq!(
        legal_cards(hand, &t, Some(Suit::Hearts), true, |w| state.partners(0, w)),
        cards("2H 7H")
    );
    let _ = Communication::Off;
    let _ = GameLength::Deals(1);
}

#[test]
fn heuristic_works_through_the_json_api_in_every_phase() {
    for (id, players, options) in [
        ("marglia", 4, json!({"communication": "structured"})),
        ("marglia_pagat", 4, json!({})),
        ("maniglia", 3, json!({})),
        ("maniglia", 4, json!({"communication": "structured"})),
        ("maniglia", 5, json!({})),
    ] {
        let game = registry::find(id).unwrap();
        let mut m = game
            .start(&NewGame {
                players,
                options: options.as_object().cloned().unwrap(),
                seed: 9,
                deals: vec![],
            })
            .unwrap();
        let mut phases = std::collections::BTreeSet::new();
        while !m.is_over() {
            let seat = m.to_act()[0];
            let v = m.view(Viewer::Seat(seat));
            phases.insert(v["phase"]["phase"].as_str().unwrap().to_string());
            let legal = m.legal_actions(seat);
            let index = game.heuristic(&v, &legal).unwrap();
            m.apply(seat, &legal[index]).unwrap();
        }
        assert!(phases.contains("play"), "{id}: {phases:?}");
        if id == "maniglia" {
            assert!(
                phases.contains("bidding") && phases.contains("declare"),
                "{phases:?}"
            );
        }
        if players == 4 && options["communication"] == json!("structured") {
            assert!(phases.contains("communication"), "{phases:?}");
        }
    }
}
