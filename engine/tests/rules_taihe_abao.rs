//! Rulings (R1..R17) and worked examples (T1..T12) of Taihe A Bao, through the erased API with
//! stacked deals. See: docs/rules/taihe_abao.md.

use engine::cards::{Card, CardSet};
use engine::games::taihe_abao::combination::{Kind, classify, rank_counts};
use engine::{Match, NewGame, registry};
use serde_json::{Value, json};

use crate::support::{act, refused, view};

/// Interleaves equal-length hands into a stacked entry for a deal from seat `base`:
/// card i goes to seat (base + i) mod n.
fn entry(hands: &[&str], base: usize) -> Vec<String> {
    let hands: Vec<Vec<&str>> = hands
        .iter()
        .map(|h| h.split_whitespace().collect())
        .collect();
    let n = hands.len();
    let k = hands[0].len();
    assert!(hands.iter().all(|h| h.len() == k), "hands of equal length");
    (0..k * n)
        .map(|j| hands[(base + j % n) % n][j / n].to_string())
        .collect()
}

fn start(id: &str, players: usize, options: Value, deals: Vec<Vec<String>>) -> Box<dyn Match> {
    crate::support::start(id, players, options, deals, 7)
}

fn turn(m: &dyn Match) -> usize {
    m.to_act()[0]
}

fn hand(m: &dyn Match, seat: usize) -> Vec<String> {
    serde_json::from_value(view(m, seat)["hand"].clone()).unwrap()
}

fn play(cards: &str) -> Value {
    json!({"type": "play", "cards": cards.split_whitespace().collect::<Vec<_>>()})
}

fn plays_of(legal: &[Value]) -> Vec<Vec<String>> {
    legal
        .iter()
        .filter(|a| a["type"] == "play")
        .map(|a| serde_json::from_value(a["cards"].clone()).unwrap())
        .collect()
}

fn cards(list: &str) -> Vec<String> {
    list.split_whitespace().map(String::from).collect()
}

/// Plays the current hand to its end: the declarer plays its first listed action (always a
/// play when leading) or `declarer_passes` decides; opponents pass or play their first play.
fn finish_hand(m: &mut Box<dyn Match>, declarer_passes: bool, opponents_pass: bool) -> Value {
    let hands_before = view(m.as_ref(), 0)["history"].as_array().unwrap().len();
    loop {
        let v = view(m.as_ref(), 0);
        if v["history"].as_array().unwrap().len() > hands_before {
            return v["history"][hands_before].clone();
        }
        let seat = turn(m.as_ref());
        let legal = m.legal_actions(seat);
        let declarer = v["declarer"].as_u64().unwrap() as usize;
        let can_pass = legal[0]["type"] == "pass";
        let passes = if seat == declarer {
            declarer_passes
        } else {
            opponents_pass
        };
        let action = if can_pass && passes {
            legal[0].clone()
        } else if can_pass {
            legal.get(1).cloned().unwrap_or_else(|| legal[0].clone())
        } else {
            legal[0].clone()
        };
        act(m, seat, action);
    }
}

// The T3/T4-style deal: seat 0 holds 4H (first bidder in hand 1).
const T3: [&str; 4] = [
    "4H 9S TH JD 6H 7H QH KH AH AS",
    "TC JC QC KC 4S 5S 6S 7S 5H 5D",
    "4D 4C 5C 6D 6C 7D 7C 9H 9D 9C",
    "TS TD JS JH QS QD KS KD AD AC",
];

#[test]
fn t1_runs_never_bridge_seven_and_nine_and_never_use_aces() {
    let kind = |list: &str| {
        classify(
            &rank_counts(CardSet::from_cards(Card::parse_list(list).unwrap())),
            None,
        )
        .map(|c| c.kind)
    };
    assert_eq!(kind("9S TH JD"), Some(Kind::Sequence));
    assert_eq!(kind("4C 5C 6H 7D"), Some(Kind::Sequence));
    assert_eq!(kind("9S TS JS QS KS"), Some(Kind::Sequence));
    assert_eq!(kind("6S 7S 9S"), None);
    assert_eq!(kind("QS KS AS"), None);
    assert_eq!(kind("5S 6S"), None);
    assert_eq!(kind("4S 5S 5H"), None);
    // Through the game: leading 6-7-9 is refused with a reason.
    let mut m = start(
        "taihe_abao",
        4,
        json!({}),
        vec![entry(
            &[
                "4H 6S 7S 9S 5H 5D TH JH QH KH",
                "4S 5S 6H 7H 9H TS JS QS KS AS",
                "4D 5C 6D 7D 9D TD JD QD KD AD",
                "4C 6C 7C 9C TC JC QC KC AH AC",
            ],
            0,
        )],
    );
    act(&mut m, 0, json!({"type": "declare"}));
    assert_eq!(refused(&mut m, 0, play("6S 7S 9S")), "not_a_combination");
}

#[test]
fn t2_double_runs() {
    let kind = |list: &str| {
        classify(
            &rank_counts(CardSet::from_cards(Card::parse_list(list).unwrap())),
            None,
        )
        .map(|c| c.kind)
    };
    assert_eq!(kind("5S 5H 6C 6D"), Some(Kind::DoubleSequence));
    assert_eq!(kind("JS JH QS QH KS KH"), Some(Kind::DoubleSequence));
    assert_eq!(kind("4S 4H 5S 5H 6S 6H 7S 7H"), Some(Kind::DoubleSequence));
    assert_eq!(kind("7S 7H 9S 9H"), None);
    assert_eq!(kind("QS QH KS KH AS AH"), None);
    assert_eq!(kind("5S 5H 6S 6H 7S"), None);
}

#[test]
fn t3_following_a_sequence() {
    let mut m = start("taihe_abao", 4, json!({}), vec![entry(&T3, 0)]);
    assert_eq!(view(m.as_ref(), 0)["first_bidder"], 0);
    act(&mut m, 0, json!({"type": "declare"}));
    act(&mut m, 0, play("9S TH JD"));
    let legal = m.legal_actions(1);
    assert_eq!(legal[0], json!({"type": "pass"}));
    assert_eq!(
        plays_of(&legal),
        vec![cards("TC JC QC"), cards("JC QC KC"), cards("5S 5H 5D")]
    );
    assert_eq!(refused(&mut m, 1, play("4S 5S 6S 7S")), "does_not_beat");
    assert_eq!(refused(&mut m, 1, play("QC KC")), "not_a_combination");
    act(&mut m, 1, play("JC QC KC"));
}

// T4's deal: seat 0 leads 9-T-J-Q-K; seat 1 holds 444 and an equal run; seat 2 holds 555 and 6666;
// seat 3 holds AAA.
const T4: [&str; 4] = [
    "4H 9S TS JS QS KS AS 7S 7H 5C",
    "4S 4D 4C 9H TH JH QH KH 7D 7C",
    "5S 5H 5D 6S 6H 6D 6C 9D TD JD",
    "QD KD AD 9C TC JC QC KC AC AH",
];

#[test]
fn t4_bombs() {
    let mut m = start("taihe_abao", 4, json!({}), vec![entry(&T4, 0)]);
    act(&mut m, 0, json!({"type": "declare"}));
    act(&mut m, 0, play("9S TS JS QS KS"));
    // Seat 1: 444 beats the run; its own 9-K run (equal top) does not.
    assert_eq!(plays_of(&m.legal_actions(1)), vec![cards("4S 4D 4C")]);
    assert_eq!(refused(&mut m, 1, play("9H TH JH QH KH")), "does_not_beat");
    act(&mut m, 1, play("4S 4D 4C"));
    let legal = plays_of(&m.legal_actions(2));
    assert!(legal.contains(&cards("5S 5H 5D")));
    assert!(legal.contains(&cards("6S 6H 6D 6C")));
    act(&mut m, 2, play("6S 6H 6D 6C"));
    // On 6666 only a higher quad: seat 3's AAA (a triple with 4 players) is not legal.
    assert_eq!(m.legal_actions(3), vec![json!({"type": "pass"})]);
    assert_eq!(refused(&mut m, 3, play("AH AD AC")), "does_not_beat");
}

#[test]
fn t5_three_players_aaa_is_the_top_quad() {
    let deal = [
        "4H KS KH KD KC 5S 5H 6S 6H 7S 7H 9S 9H",
        "AH AD AC 4S 5D 6D 7D 9D TS TH JS JH QS",
        "4D 4C 5C 6C 7C 9C TD TC JD JC QH QD QC",
    ];
    let mut m = start("taihe_abao", 3, json!({}), vec![entry(&deal, 0)]);
    assert_eq!(view(m.as_ref(), 0)["hand_sizes"], json!([13, 13, 13]));
    act(&mut m, 0, json!({"type": "declare"}));
    act(&mut m, 0, play("KS KH KD KC"));
    assert!(plays_of(&m.legal_actions(1)).contains(&cards("AH AD AC")));
    act(&mut m, 1, play("AH AD AC"));
    // Nothing beats it, not even seat 2's QQQ.
    assert_eq!(m.legal_actions(2), vec![json!({"type": "pass"})]);
    act(&mut m, 2, json!({"type": "pass"}));
    act(&mut m, 0, json!({"type": "pass"}));
    assert_eq!(turn(m.as_ref()), 1);
    assert!(m.legal_actions(1).iter().all(|a| a["type"] == "play"));
}

const T6: [&str; 4] = [
    "KS KH 5S 5H 6S 6H 9S 9H TS TH",
    "4S 4D 5D 6D 7S 7D JS JH AS AH",
    "4H QS QH 5C 6C 7C 9D TD JD AD",
    "4C 7H 9C TC JC QD QC KD KC AC",
];

#[test]
fn t6_round_end_and_lead() {
    // Seat 2 plays QQ, seats 3, 0, 1 pass: seat 2 leads again.
    let mut m = start("taihe_abao", 4, json!({}), vec![entry(&T6, 0)]);
    assert_eq!(view(m.as_ref(), 0)["first_bidder"], 2);
    act(&mut m, 2, json!({"type": "declare"}));
    act(&mut m, 2, play("QS QH"));
    act(&mut m, 3, json!({"type": "pass"}));
    act(&mut m, 0, json!({"type": "pass"}));
    let events = act(&mut m, 1, json!({"type": "pass"}));
    assert!(events.contains(&json!({"type": "round_won", "seat": 2})));
    assert_eq!(turn(m.as_ref()), 2);
    assert_eq!(view(m.as_ref(), 2)["top"], Value::Null);
    assert_eq!(refused(&mut m, 2, json!({"type": "pass"})), "must_lead");

    // Seat 3 passes, seat 0 plays KK, seats 1, 2, 3 pass: seat 0 leads.
    let mut m = start("taihe_abao", 4, json!({}), vec![entry(&T6, 0)]);
    act(&mut m, 2, json!({"type": "declare"}));
    act(&mut m, 2, play("QS QH"));
    act(&mut m, 3, json!({"type": "pass"}));
    act(&mut m, 0, play("KS KH"));
    act(&mut m, 1, json!({"type": "pass"}));
    act(&mut m, 2, json!({"type": "pass"}));
    act(&mut m, 3, json!({"type": "pass"}));
    assert_eq!(turn(m.as_ref()), 0);
    assert!(m.legal_actions(0).iter().all(|a| a["type"] == "play"));
}

const T7: [&str; 4] = [
    "5S 5H 6S 6H 9S 9H TS TH JD JS",
    "4H KH 7C AC 4D 5D 6D 7D 9D TD",
    "4S 5C 6C 7S 9C TC JC QC KC AS",
    "QS 4C 7H JH QH QD KS KD AH AD",
];

fn all_pass_round1(m: &mut Box<dyn Match>, first: usize, n: usize) {
    for i in 0..n {
        act(m, (first + i) % n, json!({"type": "pass"}));
    }
}

#[test]
fn t7_calls_exchange_and_the_last_caller_declares() {
    let mut m = start("taihe_abao", 4, json!({"hands": 1}), vec![entry(&T7, 0)]);
    assert_eq!(view(m.as_ref(), 0)["first_bidder"], 1);
    all_pass_round1(&mut m, 1, 4);
    assert_eq!(view(m.as_ref(), 1)["phase"], "bid2");
    assert_eq!(turn(m.as_ref()), 1);
    let calls: Vec<String> = m
        .legal_actions(1)
        .iter()
        .filter(|a| a["type"] == "call")
        .map(|a| a["cards"][0].as_str().unwrap().to_string())
        .collect();
    let own = hand(m.as_ref(), 1);
    assert!(calls.iter().all(|c| !own.contains(c)));
    assert!(
        calls
            .iter()
            .all(|c| !c.starts_with('A') && !c.starts_with('4'))
    );
    assert!(calls.contains(&"QS".to_string()));
    assert_eq!(
        calls.len(),
        40 - 8 - 7,
        "40 cards − 8 Aces/4s − 7 other own cards"
    );
    assert_eq!(
        refused(&mut m, 1, json!({"type": "call", "cards": ["KH"]})),
        "call_own_card"
    );
    assert_eq!(
        refused(&mut m, 1, json!({"type": "call", "cards": ["AS"]})),
        "call_ace_or_four"
    );
    let events = act(&mut m, 1, json!({"type": "call", "cards": ["QS"]}));
    assert_eq!(
        events[0],
        json!({"type": "call", "seat": 1, "cards": ["QS"], "from": 3})
    );
    assert!(hand(m.as_ref(), 1).contains(&"QS".to_string()));
    // The exchange: no Ace, no 4, not the called card (R6).
    assert_eq!(
        refused(&mut m, 1, json!({"type": "exchange", "cards": ["AC"]})),
        "give_ace_or_four"
    );
    assert_eq!(
        refused(&mut m, 1, json!({"type": "exchange", "cards": ["4D"]})),
        "give_ace_or_four"
    );
    assert_eq!(
        refused(&mut m, 1, json!({"type": "exchange", "cards": ["QS"]})),
        "return_called_card"
    );
    let events = act(&mut m, 1, json!({"type": "exchange", "cards": ["7C"]}));
    assert_eq!(events[0], json!({"type": "exchange", "seat": 1, "to": 3}));
    assert!(hand(m.as_ref(), 3).contains(&"7C".to_string()));
    // Seat 0 and seat 2 do not learn which card went back.
    assert!(!view(m.as_ref(), 0).to_string().contains("\"7C\""));
    act(&mut m, 2, json!({"type": "pass"}));
    assert_eq!(
        refused(&mut m, 3, json!({"type": "call", "cards": ["QS"]})),
        "already_called"
    );
    act(&mut m, 3, json!({"type": "call", "cards": ["JD"]}));
    act(&mut m, 3, json!({"type": "exchange", "cards": ["7H"]}));
    act(&mut m, 0, json!({"type": "pass"}));
    let v = view(m.as_ref(), 0);
    assert_eq!(
        (v["declarer"].clone(), v["stake"].clone()),
        (json!(3), json!(2))
    );
    assert_eq!(turn(m.as_ref()), 3);
    let record = finish_hand(&mut m, false, true);
    assert_eq!(record["declarer_won"], true);
    assert_eq!(record["payoffs"], json!([-2, -2, -2, 6]));
    let result = m.result().unwrap();
    assert_eq!(result.scores, vec![-2.0, -2.0, -2.0, 6.0]);
    assert_eq!(result.ranking, vec![vec![3], vec![0, 1, 2]]);
    assert_eq!(result.teams, Some(vec![vec![3], vec![0, 1, 2]]));
}

#[test]
fn t8_stakes_five_players_and_flat() {
    // 5 players, first-round declarer loses: s = 6, declarer −24, each opponent +6.
    let mut m = start("taihe_abao", 5, json!({"hands": 1}), vec![]);
    let declarer = turn(m.as_ref());
    act(&mut m, declarer, json!({"type": "declare"}));
    assert_eq!(view(m.as_ref(), 0)["stake"], 6);
    let record = finish_hand(&mut m, true, false);
    assert_eq!(record["declarer_won"], false);
    let mut expected = vec![6; 5];
    expected[declarer] = -24;
    assert_eq!(record["payoffs"], json!(expected));

    // Flat: first-round s = 2, a 4-player win is +6.
    let mut m = start(
        "taihe_abao",
        4,
        json!({"hands": 1, "stake_scheme": "flat"}),
        vec![],
    );
    let declarer = turn(m.as_ref());
    act(&mut m, declarer, json!({"type": "declare"}));
    let record = finish_hand(&mut m, false, true);
    assert_eq!(record["stake"], 2);
    assert_eq!(record["payoffs"][declarer], 6);
}

#[test]
fn t9_r3_next_first_bidder() {
    // Seat 2 (holder of 4H) declares and wins: seat 2 starts hand 2.
    let mut m = start("taihe_abao", 4, json!({"hands": 2}), vec![entry(&T6, 0)]);
    act(&mut m, 2, json!({"type": "declare"}));
    finish_hand(&mut m, false, true);
    assert_eq!(view(m.as_ref(), 0)["first_bidder"], 2);
    // Seat 2 declares and loses: seat 3 (its right-hand neighbour, next in play) starts.
    let mut m = start("taihe_abao", 4, json!({"hands": 2}), vec![entry(&T6, 0)]);
    act(&mut m, 2, json!({"type": "declare"}));
    let record = finish_hand(&mut m, true, false);
    assert_eq!(record["declarer_won"], false);
    assert_eq!(view(m.as_ref(), 0)["first_bidder"], 3);
    assert_eq!(turn(m.as_ref()), 3);
}

#[test]
fn t10_r7_spring_doubles() {
    // The declarer goes out while every opponent passed: doubled (4p first round: 5 → 10).
    let mut m = start(
        "taihe_abao",
        4,
        json!({"hands": 1, "spring_double": true}),
        vec![],
    );
    let declarer = turn(m.as_ref());
    act(&mut m, declarer, json!({"type": "declare"}));
    let record = finish_hand(&mut m, false, true);
    assert_eq!(record["doubled"], true);
    assert_eq!(record["payoffs"][declarer], 30);
    // The opponents win and the declarer only made the opening lead: doubled for them.
    let mut m = start(
        "taihe_abao",
        4,
        json!({"hands": 1, "spring_double": true}),
        vec![],
    );
    let declarer = turn(m.as_ref());
    act(&mut m, declarer, json!({"type": "declare"}));
    let record = finish_hand(&mut m, true, false);
    assert_eq!(record["declarer_won"], false);
    assert_eq!(view(m.as_ref(), 0)["plays_per_seat"][declarer], 1);
    assert_eq!(record["doubled"], true);
    assert_eq!(record["payoffs"][declarer], -30);
    // Without the option: not doubled.
    let mut m = start("taihe_abao", 4, json!({"hands": 1}), vec![]);
    let declarer = turn(m.as_ref());
    act(&mut m, declarer, json!({"type": "declare"}));
    let record = finish_hand(&mut m, false, true);
    assert_eq!(
        (
            record["doubled"].clone(),
            record["payoffs"][declarer].clone()
        ),
        (json!(false), json!(15))
    );
}

#[test]
fn t11_r13_canonical_plays() {
    let deal = [
        "9C 9H TD TS JS JC QH 4D 5S 6H",
        "4H 4S 5H 6S 7S 9S TH JH QS KS",
        "4C 5D 6D 7H 9D TC JD QD KH AS",
        "5C 6C 7D 7C QC KD KC AH AD AC",
    ];
    let mut m = start("taihe_abao", 4, json!({}), vec![entry(&deal, 0)]);
    assert_eq!(view(m.as_ref(), 0)["first_bidder"], 1);
    for seat in [1, 2, 3] {
        act(&mut m, seat, json!({"type": "pass"}));
    }
    act(&mut m, 0, json!({"type": "declare"}));
    let plays = plays_of(&m.legal_actions(0));
    let runs_9tj: Vec<_> = plays
        .iter()
        .filter(|p| p.len() == 3 && p[0].starts_with('9') && p[2].starts_with('J'))
        .collect();
    assert_eq!(runs_9tj, vec![&cards("9H TS JS")]);
    assert!(plays.contains(&cards("9H 9C")));
    assert!(plays.contains(&cards("9H 9C TS TD JS JC")));
    assert_eq!(plays.iter().filter(|p| **p == cards("9H 9C")).count(), 1);
    assert_eq!(refused(&mut m, 0, play("9C TS JS")), "not_canonical");
    // The order of the cards inside the action does not matter.
    act(&mut m, 0, play("JS 9H TS"));
}

#[test]
fn t12_r16_stacked_deal_order() {
    // Hand 1: seat 0 gets AS, seat 1 KH, seat 2 QD, seat 3 JC.
    let hand2 = cards("AS KH QD JC");
    let m = start("taihe_abao", 4, json!({}), vec![hand2.clone()]);
    for (seat, card) in ["AS", "KH", "QD", "JC"].iter().enumerate() {
        assert!(hand(m.as_ref(), seat).contains(&card.to_string()));
    }
    // Hand 2 after the previous declarer seat 1 lost: the deal starts at seat 2.
    let hand1 = [
        "4H 5S 6S 7S 9S TS JS QS KS AS",
        "4S 5H 6H 7H 9H TH JH QH KH AH",
        "4D 5D 6D 7D 9D TD JD QD KD AD",
        "4C 5C 6C 7C 9C TC JC QC KC AC",
    ];
    let mut m = start(
        "taihe_abao",
        4,
        json!({"hands": 2}),
        vec![entry(&hand1, 0), hand2],
    );
    act(&mut m, 0, json!({"type": "pass"}));
    act(&mut m, 1, json!({"type": "declare"}));
    let record = finish_hand(&mut m, true, false);
    assert_eq!(
        (record["declarer"].clone(), record["declarer_won"].clone()),
        (json!(1), json!(false))
    );
    assert_eq!(view(m.as_ref(), 0)["first_bidder"], 2);
    for (seat, card) in [(2, "AS"), (3, "KH"), (0, "QD"), (1, "JC")] {
        assert!(
            hand(m.as_ref(), seat).contains(&card.to_string()),
            "seat {seat} {card}"
        );
    }
}

#[test]
fn r1_holder_of_four_of_hearts_bids_first_in_hand_one() {
    for (deal, holder) in [(T3, 0), (T6, 2), (T7, 1)] {
        let m = start("taihe_abao", 4, json!({}), vec![entry(&deal, 0)]);
        assert_eq!(view(m.as_ref(), 0)["first_bidder"], holder);
        assert_eq!(m.to_act(), vec![holder]);
    }
}

#[test]
fn r4_bombs_compare_with_the_last_play_and_triples_never_beat_quads() {
    let mut m = start("taihe_abao", 4, json!({}), vec![entry(&T4, 0)]);
    act(&mut m, 0, json!({"type": "declare"}));
    act(&mut m, 0, play("5C"));
    act(&mut m, 1, play("4S 4D 4C"));
    // A single (the lead's kind) no longer counts: only a higher triple or a quad.
    let legal = plays_of(&m.legal_actions(2));
    assert!(legal.iter().all(|p| p.len() >= 3));
    assert!(legal.contains(&cards("5S 5H 5D")));
    assert_eq!(refused(&mut m, 2, play("9D")), "does_not_beat");
    act(&mut m, 2, play("6S 6H 6D 6C"));
    assert_eq!(refused(&mut m, 3, play("AH AD AC")), "does_not_beat");
}

#[test]
fn r5_round_two_is_one_circuit_and_everyone_may_call() {
    let mut m = start("taihe_abao", 4, json!({"hands": 1}), vec![entry(&T7, 0)]);
    all_pass_round1(&mut m, 1, 4);
    for seat in [1, 2, 3, 0] {
        let call = m
            .legal_actions(seat)
            .into_iter()
            .find(|a| a["type"] == "call")
            .unwrap();
        act(&mut m, seat, call);
        let gift = m.legal_actions(seat)[0].clone();
        act(&mut m, seat, gift);
    }
    let v = view(m.as_ref(), 0);
    assert_eq!(v["declarer"], 0, "the last caller declares");
    assert_eq!(v["stake"], 4, "s = number of callers");
    assert_eq!(v["phase"], "play");
    assert_eq!(turn(m.as_ref()), 0);
}

#[test]
fn r6_returning_the_called_card_needs_the_option() {
    let mut m = start(
        "taihe_abao",
        4,
        json!({"return_called_card_allowed": true}),
        vec![entry(&T7, 0)],
    );
    all_pass_round1(&mut m, 1, 4);
    act(&mut m, 1, json!({"type": "call", "cards": ["QS"]}));
    assert!(
        m.legal_actions(1)
            .contains(&json!({"type": "exchange", "cards": ["QS"]}))
    );
    act(&mut m, 1, json!({"type": "exchange", "cards": ["QS"]}));
    assert!(hand(m.as_ref(), 3).contains(&"QS".to_string()));
}

#[test]
fn r8_five_players_without_aces_kkk_is_the_top_quad() {
    // 35 cards (no Aces, no KS): 7 each. Seat 0 holds 4H; seat 1 holds 5555; seat 2 KKK.
    let deal = [
        "4H 6S 6H 6D 6C 7S 9S",
        "5S 5H 5D 5C 7H 9H TS",
        "KH KD KC 7D 9D TH JS",
        "4S 7C 9C TD JH QS QH",
        "4D 4C TC JD JC QD QC",
    ];
    let mut m = start("taihe_abao_no_aces", 5, json!({}), vec![entry(&deal, 0)]);
    assert_eq!(view(m.as_ref(), 0)["hand_sizes"], json!([7, 7, 7, 7, 7]));
    act(&mut m, 0, json!({"type": "declare"}));
    act(&mut m, 0, play("6S 6H 6D 6C"));
    // A lower quad does not beat 6666.
    assert_eq!(refused(&mut m, 1, play("5S 5H 5D 5C")), "does_not_beat");
    act(&mut m, 1, json!({"type": "pass"}));
    assert!(plays_of(&m.legal_actions(2)).contains(&cards("KH KD KC")));
    act(&mut m, 2, play("KH KD KC"));
    // With the option off KKK is an ordinary triple and cannot beat 6666.
    let mut m = start(
        "taihe_abao_no_aces",
        5,
        json!({"missing_card_triple_is_top_quad": false}),
        vec![entry(&deal, 0)],
    );
    act(&mut m, 0, json!({"type": "declare"}));
    act(&mut m, 0, play("6S 6H 6D 6C"));
    act(&mut m, 1, json!({"type": "pass"}));
    assert_eq!(refused(&mut m, 2, play("KH KD KC")), "does_not_beat");
}

#[test]
fn r9_first_round_stake_is_players_plus_one() {
    for (players, stake) in [(3, 4), (4, 5), (5, 6)] {
        let mut m = start("taihe_abao", players, json!({"hands": 1}), vec![]);
        let declarer = turn(m.as_ref());
        act(&mut m, declarer, json!({"type": "declare"}));
        assert_eq!(view(m.as_ref(), 0)["stake"], stake);
        let record = finish_hand(&mut m, false, true);
        assert_eq!(
            record["payoffs"][declarer],
            json!(stake * (players as i64 - 1))
        );
    }
}

#[test]
fn r10_the_holder_is_always_another_player() {
    let mut m = start("taihe_abao", 4, json!({}), vec![entry(&T7, 0)]);
    all_pass_round1(&mut m, 1, 4);
    for card in hand(m.as_ref(), 1) {
        let reason = refused(&mut m, 1, json!({"type": "call", "cards": [card]}));
        assert!(
            reason == "call_own_card" || reason == "call_ace_or_four",
            "{reason}"
        );
    }
    assert_eq!(
        refused(&mut m, 1, json!({"type": "call", "cards": ["8S"]})),
        "card_not_in_game"
    );
    assert_eq!(
        refused(&mut m, 1, json!({"type": "call", "cards": ["QS", "JD"]})),
        "one_card_expected"
    );
}

#[test]
fn r12_a_game_is_eight_hands_by_default() {
    let mut m = start("taihe_abao", 4, json!({}), vec![]);
    assert_eq!(view(m.as_ref(), 0)["hands"], 8);
    for _ in 0..8 {
        let declarer = turn(m.as_ref());
        act(&mut m, declarer, json!({"type": "declare"}));
        finish_hand(&mut m, false, true);
    }
    assert!(m.is_over());
    assert_eq!(
        m.result().unwrap().details["hands"]
            .as_array()
            .unwrap()
            .len(),
        8
    );
}

#[test]
fn r14_nothing_else_to_give_the_received_card_goes_back() {
    // 5 players, 8 cards each: seat 0 holds the four Aces and the four 4s (4H: first bidder).
    let deal = [
        "AS AH AD AC 4S 4H 4D 4C",
        "5S 5H 5D 5C 6S 6H 6D 6C",
        "7S 7H 7D 7C 9S 9H 9D 9C",
        "TS TH TD TC JS JH JD JC",
        "QS QH QD QC KS KH KD KC",
    ];
    let mut m = start("taihe_abao", 5, json!({}), vec![entry(&deal, 0)]);
    all_pass_round1(&mut m, 0, 5);
    act(&mut m, 0, json!({"type": "call", "cards": ["KS"]}));
    assert_eq!(
        m.legal_actions(0),
        vec![json!({"type": "exchange", "cards": ["KS"]})]
    );
    act(&mut m, 0, json!({"type": "exchange", "cards": ["KS"]}));
    assert!(hand(m.as_ref(), 4).contains(&"KS".to_string()));
}

#[test]
fn r15_a_thrown_in_hand_counts_as_a_hand() {
    let mut m = start("taihe_abao", 4, json!({"hands": 2}), vec![entry(&T7, 0)]);
    all_pass_round1(&mut m, 1, 4);
    let events = (0..4)
        .flat_map(|i| act(&mut m, (1 + i) % 4, json!({"type": "pass"})))
        .collect::<Vec<_>>();
    assert!(
        events
            .iter()
            .any(|e| e["type"] == "hand_end" && e["record"]["outcome"] == "thrown_in")
    );
    let v = view(m.as_ref(), 0);
    assert_eq!(v["hand_number"], 2);
    assert_eq!(v["scores"], json!([0, 0, 0, 0]));
    // Still hand 1's rule: the first bidder is the new holder of 4H.
    let holder = (0..4)
        .find(|&s| hand(m.as_ref(), s).contains(&"4H".to_string()))
        .unwrap();
    assert_eq!(v["first_bidder"], holder);
    // Throw in the second one too: the game is over, everybody even.
    all_pass_round1(&mut m, holder, 4);
    all_pass_round1(&mut m, holder, 4);
    assert!(m.is_over());
    let result = m.result().unwrap();
    assert_eq!(result.ranking, vec![vec![0, 1, 2, 3]]);
    assert_eq!(result.teams, None);
}

#[test]
fn option_four_hearts_always_starts() {
    let mut m = start(
        "taihe_abao",
        4,
        json!({"hands": 2, "four_hearts_always_starts": true}),
        vec![entry(&T6, 0), entry(&T3, 0)],
    );
    act(&mut m, 2, json!({"type": "declare"}));
    finish_hand(&mut m, false, true);
    // Seat 2 won, but in T3's deal seat 0 holds 4H and starts.
    assert_eq!(view(m.as_ref(), 0)["first_bidder"], 0);
}

#[test]
fn option_first_bidder_must_call() {
    let mut m = start(
        "taihe_abao",
        4,
        json!({"first_bidder_must_call": true}),
        vec![entry(&T7, 0)],
    );
    all_pass_round1(&mut m, 1, 4);
    assert!(m.legal_actions(1).iter().all(|a| a["type"] == "call"));
    assert_eq!(
        refused(&mut m, 1, json!({"type": "pass"})),
        "first_bidder_must_call"
    );
    act(&mut m, 1, json!({"type": "call", "cards": ["QS"]}));
    act(&mut m, 1, json!({"type": "exchange", "cards": ["7C"]}));
    // The others may pass.
    assert_eq!(m.legal_actions(2)[0], json!({"type": "pass"}));
}

#[test]
fn option_single_call_wins() {
    let mut m = start(
        "taihe_abao",
        4,
        json!({"hands": 1, "single_call_wins": true}),
        vec![entry(&T7, 0)],
    );
    all_pass_round1(&mut m, 1, 4);
    act(&mut m, 1, json!({"type": "call", "cards": ["QS"]}));
    act(&mut m, 1, json!({"type": "exchange", "cards": ["7C"]}));
    for seat in [2, 3, 0] {
        act(&mut m, seat, json!({"type": "pass"}));
    }
    assert!(m.is_over());
    let result = m.result().unwrap();
    assert_eq!(result.scores, vec![-1.0, 3.0, -1.0, -1.0]);
    assert_eq!(result.details["hands"][0]["outcome"], "single_call");
}

#[test]
fn option_allow_recall() {
    let mut m = start(
        "taihe_abao",
        4,
        json!({"allow_recall": true}),
        vec![entry(&T7, 0)],
    );
    all_pass_round1(&mut m, 1, 4);
    act(&mut m, 1, json!({"type": "call", "cards": ["QS"]}));
    act(&mut m, 1, json!({"type": "exchange", "cards": ["7C"]}));
    act(&mut m, 2, json!({"type": "call", "cards": ["QS"]}));
    assert!(hand(m.as_ref(), 2).contains(&"QS".to_string()));
    assert_eq!(
        view(m.as_ref(), 0)["calls"][1],
        json!({"seat": 2, "card": "QS", "from": 1})
    );
}

#[test]
fn option_no_aces_deals_nine_cards_and_bad_setups_are_refused() {
    let m = start("taihe_abao_no_aces", 4, json!({}), vec![]);
    assert_eq!(view(m.as_ref(), 0)["hand_sizes"], json!([9, 9, 9, 9]));
    let game = registry::find("taihe_abao").unwrap();
    let err = game
        .start(&NewGame {
            players: 4,
            deals: vec![cards("8S")],
            ..NewGame::default()
        })
        .unwrap_err();
    assert_eq!(err.code(), "invalid_deals");
    let err = game
        .start(&NewGame {
            players: 3,
            deals: vec![cards("AS")],
            ..NewGame::default()
        })
        .unwrap_err();
    assert!(err.to_string().contains("AS"), "{err}");
    let err = game
        .start(&NewGame {
            players: 4,
            options: json!({"players": 4}).as_object().cloned().unwrap(),
            ..NewGame::default()
        })
        .unwrap_err();
    assert_eq!(err.code(), "invalid_options");
}

#[test]
fn wrong_phase_and_turn_errors() {
    let mut m = start("taihe_abao", 4, json!({}), vec![entry(&T3, 0)]);
    assert_eq!(refused(&mut m, 0, play("9S")), "wrong_phase");
    assert_eq!(refused(&mut m, 1, json!({"type": "pass"})), "not_your_turn");
    assert_eq!(
        refused(&mut m, 0, json!({"type": "call", "cards": ["QS"]})),
        "wrong_phase"
    );
    act(&mut m, 0, json!({"type": "declare"}));
    assert_eq!(refused(&mut m, 0, play("9S 9S")), "duplicate_card");
    assert_eq!(refused(&mut m, 0, play("TC")), "card_not_in_hand");
    assert_eq!(refused(&mut m, 0, play("")), "empty_play");
}

#[test]
fn forged_states_are_refused() {
    let game = registry::find("taihe_abao").unwrap();
    let m = start("taihe_abao", 4, json!({}), vec![entry(&T3, 0)]);
    let saved = m.save();
    assert!(game.load(&saved).is_ok());
    let forge = |f: &dyn Fn(&mut Value)| {
        let mut s = saved.clone();
        f(&mut s["data"]);
        game.load(&s).unwrap_err().code()
    };
    // A card duplicated in two hands, a missing card, a seat out of range, an absurd stake.
    assert_eq!(
        forge(&|d| d["hands"][1] = json!(["4H", "TC"])),
        "invalid_state"
    );
    assert_eq!(forge(&|d| d["turn"] = json!(9)), "invalid_state");
    assert_eq!(forge(&|d| d["stake"] = json!(i64::MAX)), "invalid_state");
    assert_eq!(forge(&|d| d["phase"] = json!("exchange")), "invalid_state");
    assert_eq!(forge(&|d| d["phase"] = json!("over")), "invalid_state");
}
