//! Bird Dog: one test per ruling of `docs/rules/bird_dog.md` where testable, every worked example
//! B1..B13.

use engine::cards::{Card, CardSet};
use engine::games::bird_dog::rules::TeamPairs;
use engine::games::bird_dog::scoring::{pairs, score_hand, solo_points, team_tally};
use engine::registry;
use engine::{Match, NewGame, Viewer};
use serde_json::{Value, json};

use crate::support::refused;

fn codes(list: &str) -> Vec<String> {
    list.split_whitespace().map(String::from).collect()
}

fn set(list: &str) -> CardSet {
    CardSet::from_cards(Card::parse_list(list).unwrap())
}

/// 3 players: `hands[seat]` in the order each seat receives its cards (one at a time from the
/// dealer's left), then the widow W1 W2 W3 (§2, R20).
fn stack3(dealer: usize, hands: [&str; 3], widow: &str) -> Vec<String> {
    let hands: Vec<Vec<String>> = hands.iter().map(|h| codes(h)).collect();
    let mut entry = Vec::new();
    for i in 0..21 {
        entry.push(hands[(dealer + 1 + i) % 3][i / 3].clone());
    }
    entry.extend(codes(widow));
    entry
}

/// 2 players: non-dealer's hand, the dummy's pile (top first), the dealer's hand, the widow.
fn stack2(nd: &str, dummy: &str, dl: &str, widow: &str) -> Vec<String> {
    let parts = [codes(nd), codes(dummy), codes(dl)];
    let mut entry = Vec::new();
    for i in 0..21 {
        entry.push(parts[i % 3][i / 3].clone());
    }
    entry.extend(codes(widow));
    entry
}

fn start(id: &str, players: usize, options: Value, deals: Vec<Vec<String>>) -> Box<dyn Match> {
    crate::support::start(id, players, options, deals, 11)
}

fn ok(m: &mut Box<dyn Match>, seat: usize, action: Value) -> Vec<Value> {
    m.apply(seat, &action)
        .unwrap_or_else(|e| panic!("seat {seat} {action}: {e}"))
        .events
}

fn pass() -> Value {
    json!({"type": "pass"})
}

fn solo() -> Value {
    json!({"type": "declare", "contract": "solo"})
}

fn nil() -> Value {
    json!({"type": "declare", "contract": "nil"})
}

fn play(card: &str) -> Value {
    json!({"type": "play", "cards": [card]})
}

fn spectator(m: &dyn Match) -> Value {
    m.view(Viewer::Spectator)
}

fn legal_cards(m: &dyn Match, seat: usize) -> Vec<String> {
    m.legal_actions(seat)
        .iter()
        .map(|a| a["cards"][0].as_str().unwrap().to_string())
        .collect()
}

fn hand(m: &dyn Match, seat: usize) -> Vec<String> {
    serde_json::from_value(m.view(Viewer::Seat(seat))["hand"].clone()).unwrap()
}

fn sorted(list: &str) -> Vec<String> {
    set(list).iter().map(|c| c.to_string()).collect()
}

/// B3's deal: dealer 2, W1 = TH (trump H, Bird Dog TD).
fn b3_deal() -> Vec<String> {
    stack3(
        2,
        [
            "AD QD JD 9D AS KS QS",
            "TD KD 9S JS TS AC KC",
            "AH KH QH JH 9H QC JC",
        ],
        "TH TC 9C",
    )
}

/// B9's deal: dealer 2, W1 = 9H (trump H; the Bird Dog 9D lies in the widow).
fn b9_deal() -> Vec<String> {
    stack3(
        2,
        [
            "AS KS QS AC KC QC TH",
            "9S TS 9C TC JD QD KD",
            "JS JC AD TD QH KH AH",
        ],
        "9H 9D JH",
    )
}

#[test]
fn b1_r4_trump_and_bird_dog() {
    let deal = stack3(
        2,
        [
            "AD QD JD 9D AS KS 9S",
            "TD KD JS TS AC KC QC",
            "AH KH QH JH 9H JC TC",
        ],
        "QS TH 9C",
    );
    let mut m = start("bird_dog", 3, json!({"first_dealer": 2}), vec![deal]);
    assert_eq!(spectator(m.as_ref())["candidate"], "QS");
    assert_eq!(m.to_act(), vec![0]);
    for seat in [0, 1, 2] {
        ok(&mut m, seat, pass());
    }
    let v = spectator(m.as_ref());
    assert_eq!(v["candidate"], "TH");
    assert_eq!(v["widow_seen"], json!(["QS", "TH"]));
    ok(&mut m, 0, pass());
    let events = ok(&mut m, 1, solo());
    assert!(events.iter().any(|e| e["type"] == "trump"
        && e["trump"] == "H"
        && e["indicator"] == "TH"
        && e["bird_dog"] == json!({"rank": "T", "suit": "D"})
        && e["solo"] == 1));
    let v = spectator(m.as_ref());
    assert_eq!(v["solo"], 1);
    assert_eq!(v["phase"], "nil");
    // W3 stays unknown to everyone.
    for viewer in [
        Viewer::Seat(0),
        Viewer::Seat(1),
        Viewer::Seat(2),
        Viewer::Spectator,
    ] {
        assert!(m.hidden_from(viewer).contains(&"9C".to_string()));
        assert!(!m.view(viewer).to_string().contains("\"9C\""));
    }
}

#[test]
fn b2_r9_third_card_and_free_for_all() {
    let deal = stack3(
        2,
        [
            "AD QD JD 9D AS KS 9S",
            "TD KD JS TS AC KC QC",
            "AH KH QH JH 9H JC TC",
        ],
        "QS TH 9C",
    );
    let mut m = start("bird_dog", 3, json!({"first_dealer": 2}), vec![deal]);
    for _ in 0..2 {
        for seat in [0, 1, 2] {
            ok(&mut m, seat, pass());
        }
    }
    assert_eq!(spectator(m.as_ref())["candidate"], "9C");
    assert_eq!(spectator(m.as_ref())["round"], 3);
    ok(&mut m, 0, pass());
    ok(&mut m, 1, pass());
    let events = ok(&mut m, 2, pass());
    assert!(events.iter().any(|e| e["type"] == "trump"
        && e["trump"] == "C"
        && e["bird_dog"] == json!({"rank": "9", "suit": "S"})
        && e["solo"].is_null()));
    assert_eq!(spectator(m.as_ref())["phase"], "nil");
    // Free-for-all scoring: own pairs, no bonus.
    let won = [set("JS JH JD QS"), set("KS KH KD KC"), set("AS 9H")];
    let s = score_hand(1, &won, &[2, 2, 3], None, None, TeamPairs::IndividualSum);
    assert_eq!(s.kind, "free_for_all");
    assert_eq!(s.scores, [1, 2, 0]);
}

#[test]
fn b3_r3_bird_dog_wins_in_its_own_suit() {
    let mut m = start("bird_dog", 3, json!({"first_dealer": 2}), vec![b3_deal()]);
    ok(&mut m, 0, solo());
    for seat in [0, 1, 2] {
        ok(&mut m, seat, pass());
    }
    assert_eq!(
        spectator(m.as_ref())["bird_dog"],
        json!({"rank": "T", "suit": "D"})
    );
    ok(&mut m, 0, play("AD"));
    assert_eq!(legal_cards(m.as_ref(), 1), ["TD", "KD"]);
    assert_eq!(refused(&mut m, 1, play("9S")), "must_follow_suit");
    ok(&mut m, 1, play("TD"));
    ok(&mut m, 2, play("AH"));
    let v = spectator(m.as_ref());
    assert_eq!(v["tricks"][0]["winner"], 1);
    assert_eq!(m.to_act(), vec![1]);
}

#[test]
fn b4_bird_dog_as_a_void_play() {
    let deal = stack3(
        2,
        [
            "KS AS QS JS 9D JD QD",
            "TD 9C TC JC QC KC AC",
            "AH KH QH JH 9H KD AD",
        ],
        "TH TS 9S",
    );
    let mut m = start("bird_dog", 3, json!({"first_dealer": 2}), vec![deal]);
    ok(&mut m, 0, solo());
    for seat in [0, 1, 2] {
        ok(&mut m, seat, pass());
    }
    ok(&mut m, 0, play("KS"));
    let legal = legal_cards(m.as_ref(), 1);
    assert!(legal.contains(&"TD".to_string()) && legal.contains(&"9C".to_string()));
    assert_eq!(legal.len(), 7);
    ok(&mut m, 1, play("TD"));
    ok(&mut m, 2, play("AH"));
    assert_eq!(spectator(m.as_ref())["tricks"][0]["winner"], 1);
}

#[test]
fn b5_r2_dummy_follows_from_face_up_cards_only() {
    // Dealer 1, ND 0. The dummy's top three: 9H JD AC.
    let deal = stack2(
        "AH KS QS JS 9S TS 9C",
        "9H JD AC QH TD KH TH",
        "AS KD QD JC QC KC 9D",
        "AD JH TC",
    );
    let mut m = start(
        "bird_dog_two_player",
        2,
        json!({"first_dealer": 1}),
        vec![deal],
    );
    ok(&mut m, 0, pass());
    ok(&mut m, 1, solo());
    ok(&mut m, 0, pass());
    ok(&mut m, 1, pass());
    assert_eq!(
        spectator(m.as_ref())["dummy"]["face_up"],
        json!(["9H", "JD", "AC"])
    );
    ok(&mut m, 0, play("AH"));
    assert_eq!(m.to_act(), vec![0]);
    assert_eq!(spectator(m.as_ref())["dummy_to_play"], true);
    assert_eq!(legal_cards(m.as_ref(), 0), ["9H"]);
    // Face-down hearts (QH KH TH) do not count; a card of the hand is not a dummy card.
    assert_eq!(refused(&mut m, 0, play("JD")), "must_follow_suit");
    assert_eq!(refused(&mut m, 0, play("KS")), "not_a_dummy_card");
    // Face-up JD AC KS, hearts led: any of the three.
    let deal = stack2(
        "AH QS JS 9S TS 9C 9H",
        "JD AC KS QH TD KH TH",
        "AS KD QD JC QC KC 9D",
        "AD JH TC",
    );
    let mut m = start(
        "bird_dog_two_player",
        2,
        json!({"first_dealer": 1}),
        vec![deal],
    );
    ok(&mut m, 0, pass());
    ok(&mut m, 1, solo());
    ok(&mut m, 0, pass());
    ok(&mut m, 1, pass());
    ok(&mut m, 0, play("AH"));
    assert_eq!(legal_cards(m.as_ref(), 0), ["JD", "KS", "AC"]);
}

#[test]
fn b6_r10_pairs() {
    assert_eq!(pairs(set("JS JH JD JC QS QH QD KS KH AS")), 4);
    assert_eq!(pairs(set("JS JH JD")), 1);
    assert_eq!(pairs(set("JS JH JD JC")), 2);
    assert_eq!(pairs(set("AS AH TS TH 9S 9H")), 0);
}

#[test]
fn b7_r6_team_tally_individual_vs_pooled() {
    let (a, b) = (set("JS JH QS"), set("QD KC KD"));
    assert_eq!(team_tally(a, b, TeamPairs::IndividualSum), 2);
    assert_eq!(team_tally(a, b, TeamPairs::Pooled), 3);
    // Through a hand's scoring: solo seat 0 with no pairs; the team scores T each.
    let won = [set("AS"), a, b];
    let s = score_hand(1, &won, &[1, 3, 3], Some(0), None, TeamPairs::Pooled);
    assert_eq!(s.scores, [0, 3, 3]);
    let s = score_hand(1, &won, &[1, 3, 3], Some(0), None, TeamPairs::IndividualSum);
    assert_eq!(s.scores, [0, 2, 2]);
}

#[test]
fn b8_r7_r8_solo_bonus() {
    assert_eq!(solo_points(4, 2), 5);
    assert_eq!(solo_points(2, 2), 2);
    assert_eq!(solo_points(1, 3), 1);
    // Seat 0 solo with S = 4 against T = 0: 4 + 1.
    let won = [set("JS JH JD JC QS QH QD KS KH"), set("AH"), set("AD")];
    let s = score_hand(1, &won, &[5, 1, 1], Some(0), None, TeamPairs::IndividualSum);
    assert_eq!(s.scores, [5, 0, 0]);
    let won = [set("JS JH QS QH"), set("KS KH"), set("KD KC")];
    let s = score_hand(1, &won, &[3, 2, 2], Some(0), None, TeamPairs::IndividualSum);
    assert_eq!(s.scores, [2, 2, 2]);
}

#[test]
fn b9_r11_r12_nil() {
    // Seat 2 declares nil and wins the third trick: the hand ends at once, seats 0 and 1 +3.
    let mut m = start("bird_dog", 3, json!({"first_dealer": 2}), vec![b9_deal()]);
    ok(&mut m, 0, solo());
    ok(&mut m, 0, pass());
    ok(&mut m, 1, pass());
    ok(&mut m, 2, nil());
    // R11: one nil per hand: play starts at once.
    assert_eq!(spectator(m.as_ref())["phase"], "play");
    for (seat, card) in [
        (0, "AS"),
        (1, "9S"),
        (2, "JS"),
        (0, "AC"),
        (1, "9C"),
        (2, "JC"),
    ] {
        ok(&mut m, seat, play(card));
    }
    ok(&mut m, 0, play("KS"));
    ok(&mut m, 1, play("TS"));
    let events = ok(&mut m, 2, play("AH"));
    let end = events
        .iter()
        .find(|e| e["type"] == "hand_end")
        .expect("hand ended");
    assert_eq!(end["summary"]["kind"], "nil");
    assert_eq!(end["summary"]["scores"], json!([3, 3, 0]));
    assert_eq!(end["totals"], json!([3, 3, 0]));
    assert!(events.iter().any(|e| e["type"] == "deal"));
    // A made nil: the nil player scores 3, nobody else; pairs are not scored.
    let won = [set("JS JH JD JC"), set("QS QH"), CardSet::EMPTY];
    let s = score_hand(
        1,
        &won,
        &[4, 3, 0],
        Some(0),
        Some(2),
        TeamPairs::IndividualSum,
    );
    assert_eq!(s.scores, [0, 0, 3]);
}

#[test]
fn r11_the_solo_player_may_go_nil() {
    let mut m = start("bird_dog", 3, json!({"first_dealer": 2}), vec![b9_deal()]);
    ok(&mut m, 0, solo());
    assert_eq!(m.legal_actions(0), vec![nil(), pass()]);
    assert_eq!(refused(&mut m, 0, solo()), "nil_or_pass");
    ok(&mut m, 0, nil());
    let v = spectator(m.as_ref());
    assert_eq!((v["solo"].clone(), v["nil"].clone()), (json!(0), json!(0)));
}

#[test]
fn b10_b12_b13_r15_r17_two_player_order_and_control() {
    let deal: Vec<String> =
        codes("9S AH KD TS QC 9H JS KS AD QS TD JC AS 9C KH QH JH TC KC AC JD 9D QD TH");
    let mut m = start(
        "bird_dog_two_player",
        2,
        json!({"first_dealer": 1}),
        vec![deal],
    );
    // B12: the deal.
    assert_eq!(hand(m.as_ref(), 0), sorted("9S TS JS QS AS QH KC"));
    assert_eq!(hand(m.as_ref(), 1), sorted("KD 9H AD JC KH TC JD"));
    let v = spectator(m.as_ref());
    assert_eq!(
        v["dummy"],
        json!({"face_up": [], "face_down": 7, "controller": null})
    );
    assert_eq!(v["candidate"], "9D");
    for viewer in [Viewer::Seat(0), Viewer::Seat(1), Viewer::Spectator] {
        let hidden = m.hidden_from(viewer);
        for card in ["AH", "QC", "KS", "TD", "9C", "JH", "AC", "QD", "TH"] {
            assert!(
                hidden.contains(&card.to_string()),
                "{card} hidden from {viewer:?}"
            );
        }
    }
    // B13: seat 0 passes W1, seat 1 goes solo: trump D, Bird Dog 9H (in seat 1's hand, unseen:
    // R22 keeps where it lies hidden, so the view only says it has not been seen).
    assert_eq!(m.to_act(), vec![0]);
    ok(&mut m, 0, pass());
    ok(&mut m, 1, solo());
    ok(&mut m, 0, pass());
    ok(&mut m, 1, pass());
    let v = spectator(m.as_ref());
    assert_eq!(v["trump"], "D");
    assert_eq!(v["bird_dog"], json!({"rank": "9", "suit": "H"}));
    assert_eq!(v["bird_dog_seen"], false);
    assert_eq!(v["dummy"]["controller"], 0);
    assert_eq!(v["dummy"]["face_up"], json!(["QC", "KS", "AH"]));
    assert_eq!(v["dummy"]["face_down"], 4);
    // B10: seat 0 leads; order seat 0 -> dummy -> seat 1.
    assert_eq!(m.to_act(), vec![0]);
    ok(&mut m, 0, play("QS"));
    assert_eq!(m.to_act(), vec![0]);
    assert_eq!(
        m.legal_actions(0),
        vec![json!({"type": "play", "cards": ["KS"]})]
    );
    let events = ok(&mut m, 0, play("KS"));
    assert_eq!(
        events[0],
        json!({"type": "play", "seat": 0, "cards": ["KS"], "dummy": true})
    );
    assert_eq!(m.to_act(), vec![1]);
    let events = ok(&mut m, 1, play("JC"));
    assert!(events.contains(&json!({"type": "trick_won", "seat": "dummy"})));
    assert!(events.contains(&json!({"type": "dummy_turn_up", "card": "TD"})));
    // The dummy won: seat 0 chooses its lead among the face-up cards, TD included.
    let v = spectator(m.as_ref());
    assert_eq!(v["dummy"]["face_up"], json!(["TD", "QC", "AH"]));
    assert_eq!(v["dummy_to_play"], true);
    assert_eq!(m.to_act(), vec![0]);
    assert_eq!(legal_cards(m.as_ref(), 0), ["TD", "QC", "AH"]);
    // The dummy's won cards belong to the controller.
    assert_eq!(v["won_cards"][0], json!(["JC", "QS", "KS"]));
    assert_eq!(v["dummy_tricks"], 1);
    assert_eq!(v["tricks_won"], json!([0, 0]));
}

#[test]
fn r18_controller_with_nil() {
    let deal = || codes("9S AH KD TS QC 9H JS KS AD QS TD JC AS 9C KH QH JH TC KC AC JD 9D QD TH");
    // The non-solo player declares nil: control passes to the solo player.
    let mut m = start(
        "bird_dog_two_player",
        2,
        json!({"first_dealer": 1}),
        vec![deal()],
    );
    ok(&mut m, 0, pass());
    ok(&mut m, 1, solo());
    ok(&mut m, 0, nil());
    assert_eq!(spectator(m.as_ref())["dummy"]["controller"], 1);
    // Seat 0 solo, seat 1 (not solo) declares nil: control passes to the solo player.
    let mut m = start(
        "bird_dog_two_player",
        2,
        json!({"first_dealer": 1}),
        vec![deal()],
    );
    ok(&mut m, 0, solo());
    ok(&mut m, 0, pass());
    ok(&mut m, 1, nil());
    assert_eq!(spectator(m.as_ref())["dummy"]["controller"], 0);
    let mut m = start(
        "bird_dog_two_player",
        2,
        json!({"first_dealer": 1}),
        vec![deal()],
    );
    ok(&mut m, 0, solo());
    // The solo player declares nil: the non-solo player keeps control.
    ok(&mut m, 0, nil());
    assert_eq!(spectator(m.as_ref())["dummy"]["controller"], 1);
}

#[test]
fn r16_two_player_triple_pass_is_redealt() {
    for (option, next_dealer) in [("redeal_next_dealer", 0), ("redeal_same_dealer", 1)] {
        let mut m = start(
            "bird_dog_two_player",
            2,
            json!({"first_dealer": 1, "two_player_all_pass": option}),
            vec![],
        );
        for _ in 0..3 {
            ok(&mut m, 0, pass());
            ok(&mut m, 1, pass());
        }
        let v = spectator(m.as_ref());
        assert_eq!(v["last_hand"]["kind"], "annulled");
        assert_eq!(v["totals"], json!([0, 0]));
        assert_eq!(v["hand_number"], 2);
        assert_eq!(v["dealer"], next_dealer, "{option}");
        assert_eq!(v["phase"], "trump");
    }
}

#[test]
fn r5_r20_dealing_and_first_lead_three_players() {
    let m = start("bird_dog", 3, json!({"first_dealer": 2}), vec![b3_deal()]);
    assert_eq!(hand(m.as_ref(), 0), sorted("AD QD JD 9D AS KS QS"));
    assert_eq!(hand(m.as_ref(), 1), sorted("TD KD 9S JS TS AC KC"));
    assert_eq!(hand(m.as_ref(), 2), sorted("AH KH QH JH 9H QC JC"));
    let mut m = m;
    // Seat 1 goes solo: the dealer's left (seat 0) still leads (R5).
    ok(&mut m, 0, pass());
    ok(&mut m, 1, solo());
    for seat in [0, 1, 2] {
        ok(&mut m, seat, pass());
    }
    assert_eq!(m.to_act(), vec![0]);
    assert_eq!(spectator(m.as_ref())["phase"], "play");
}

/// B9's deal with seat 0 solo and nil, failing on the first trick: seats 1 and 2 score 3.
fn quick_failed_nil(m: &mut Box<dyn Match>) {
    ok(m, 0, solo());
    ok(m, 0, nil());
    ok(m, 0, play("AS"));
    ok(m, 1, play("9S"));
    ok(m, 2, play("JS"));
}

#[test]
fn b11_r14_ties_play_on_or_share() {
    // B11: 19, 19, 19 + a hand of 0, 3, 3 = 19, 22, 22, a tie for the highest total at the target
    // 21. The same hand from 0, 0, 0 with the target 3 gives 0, 3, 3: the same tie at the target.
    let mut m = start(
        "bird_dog",
        3,
        json!({"first_dealer": 2, "target": 3}),
        vec![b9_deal()],
    );
    quick_failed_nil(&mut m);
    assert_eq!(spectator(m.as_ref())["totals"], json!([0, 3, 3]));
    assert!(!m.is_over(), "play_on: another hand");
    // play_on: after every further hand the game ends exactly when one seat alone has the highest
    // total at or above the target, that seat first.
    let totals = |m: &dyn Match| -> Vec<u64> {
        spectator(m)["totals"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t.as_u64().unwrap())
            .collect()
    };
    let mut before = totals(m.as_ref());
    while let Some(&seat) = m.to_act().first() {
        let first = m.legal_actions(seat)[0].clone();
        ok(&mut m, seat, first);
        let now = totals(m.as_ref());
        if now != before {
            let top = *now.iter().max().unwrap();
            let leaders = now.iter().filter(|t| **t == top).count();
            assert_eq!(m.is_over(), top >= 3 && leaders == 1, "totals {now:?}");
            before = now;
        }
    }
    let r = m.result().unwrap();
    let top = *before.iter().max().unwrap();
    let leader = before.iter().position(|t| *t == top).unwrap();
    assert_eq!(r.ranking[0], vec![leader]);
    // shared: the tie at the target ends the game, both first.
    let mut m = start(
        "bird_dog",
        3,
        json!({"first_dealer": 2, "tie_rule": "shared", "target": 3}),
        vec![b9_deal()],
    );
    quick_failed_nil(&mut m);
    let r = m.result().expect("shared: over");
    assert_eq!(r.ranking, vec![vec![1, 2], vec![0]]);
    assert_eq!(r.scores, [0.0, 3.0, 3.0]);
}

#[test]
fn r13_targets_per_preset() {
    let target = |id: &str, players: usize| {
        start(id, players, json!({}), vec![]).view(Viewer::Spectator)["target"].clone()
    };
    assert_eq!(target("bird_dog", 3), 21);
    assert_eq!(target("bird_dog_two_player", 2), 11);
    assert_eq!(target("bird_dog_short", 3), 11);
    let err = registry::find("bird_dog_short")
        .unwrap()
        .start(&NewGame {
            players: 3,
            options: json!({"target": 21}).as_object().cloned().unwrap(),
            ..NewGame::default()
        })
        .unwrap_err();
    assert!(err.to_string().contains("fixed"), "{err}");
    for (id, bad) in [("bird_dog", 2), ("bird_dog_two_player", 3)] {
        let err = registry::find(id)
            .unwrap()
            .start(&NewGame {
                players: bad,
                ..NewGame::default()
            })
            .unwrap_err();
        assert_eq!(err.code(), "invalid_players");
    }
}

#[test]
fn r19_first_dealer_random_then_rotating() {
    let mut seen = [false; 3];
    for seed in 0..40 {
        let m = registry::find("bird_dog")
            .unwrap()
            .start(&NewGame {
                players: 3,
                seed,
                ..NewGame::default()
            })
            .unwrap();
        seen[spectator(m.as_ref())["dealer"].as_u64().unwrap() as usize] = true;
    }
    assert!(seen.iter().all(|s| *s));
    let mut m = start("bird_dog", 3, json!({"first_dealer": 2}), vec![b9_deal()]);
    quick_failed_nil(&mut m);
    assert_eq!(spectator(m.as_ref())["dealer"], 0);
}

#[test]
fn r21_max_hands_ends_a_game_of_passers() {
    let mut m = start("bird_dog_two_player", 2, json!({"max_hands": 4}), vec![]);
    while !m.is_over() {
        let seat = m.to_act()[0];
        ok(&mut m, seat, pass());
    }
    let r = m.result().unwrap();
    assert_eq!(r.details["hands"], 4);
    assert_eq!(r.ranking, vec![vec![0, 1]]);
    let m = start("bird_dog_two_player", 2, json!({"max_hands": null}), vec![]);
    assert_eq!(m.options()["max_hands"], Value::Null);
}

#[test]
fn illegal_actions_are_refused_with_reasons() {
    let mut m = start("bird_dog", 3, json!({"first_dealer": 2}), vec![b3_deal()]);
    assert_eq!(refused(&mut m, 0, nil()), "solo_or_pass");
    assert_eq!(refused(&mut m, 0, play("AD")), "solo_or_pass");
    ok(&mut m, 0, solo());
    for seat in [0, 1, 2] {
        ok(&mut m, seat, pass());
    }
    assert_eq!(refused(&mut m, 0, pass()), "must_play");
    assert_eq!(refused(&mut m, 0, play("TD")), "card_not_in_hand");
    assert_eq!(
        refused(&mut m, 0, json!({"type": "play", "cards": ["AD", "QD"]})),
        "one_card"
    );
}

#[test]
fn forged_states_are_refused() {
    let game = registry::find("bird_dog").unwrap();
    let m = start("bird_dog", 3, json!({}), vec![]);
    let saved = m.save();
    let mut dup = saved.clone();
    dup["data"]["hands"][1] = dup["data"]["hands"][0].clone();
    assert!(game.load(&dup).is_err());
    let mut dummy = saved.clone();
    dummy["data"]["next"] = json!("dummy");
    assert!(game.load(&dummy).is_err());
    let mut over = saved.clone();
    over["data"]["totals"] = json!([30, 0, 0]);
    assert!(game.load(&over).is_err());
}

/// Issue 11 item 1, R22: with the Bird Dog card 9D unturned in the widow, nothing public (the trump
/// event, any seat's view, the spectator's) differs from the same position with 9D in a hand.
#[test]
fn issue11_bird_dog_card_location_not_leaked() {
    let in_widow = codes("9S TS JS QS KS AS TH JH QH KH AH 9C TC JC QC KC AC TD JD QD KD 9H 9D AD");
    // The same deal with 9D and 9C swapped: 9D now lies in a hand, 9C in the widow.
    let mut in_hand = in_widow.clone();
    in_hand.swap(11, 22);
    let mut public = Vec::new();
    for deal in [in_widow, in_hand] {
        let mut m = crate::support::start("bird_dog", 3, json!({"first_dealer": 0}), vec![deal], 1);
        assert_eq!(m.to_act(), vec![1]);
        let events = ok(&mut m, 1, solo());
        let trump = events
            .iter()
            .find(|e| e["type"] == "trump")
            .cloned()
            .expect("declaring solo fixes trump");
        assert_eq!(trump["indicator"], "9H");
        assert_eq!(trump["bird_dog"], json!({"rank": "9", "suit": "D"}));
        assert!(trump.get("bird_dog_in_play").is_none(), "{trump}");
        let mut views = vec![spectator(m.as_ref())];
        views.extend((0..3).map(|s| m.view(Viewer::Seat(s))));
        for v in &views {
            assert!(v.get("bird_dog_in_play").is_none(), "{v}");
            assert_eq!(v["bird_dog_seen"], false);
        }
        public.push((events, views[0].clone()));
    }
    assert_eq!(
        public[0], public[1],
        "public events and view differ with 9D's place"
    );
}

#[test]
fn r22_bird_dog_seen_once_turned_up_from_the_widow() {
    // W1 = 9D turned and passed by all, W2 = 9H: trump H, Bird Dog 9D, seen face up (R4, R22).
    let deal = codes("9S TS JS QS KS AS TH JH QH KH AH 9C TC JC QC KC AC TD JD QD KD 9D 9H AD");
    let mut m = crate::support::start("bird_dog", 3, json!({"first_dealer": 0}), vec![deal], 1);
    for seat in [1, 2, 0] {
        ok(&mut m, seat, pass());
    }
    ok(&mut m, 1, solo());
    let v = spectator(m.as_ref());
    assert_eq!(v["indicator"], "9H");
    assert_eq!(v["bird_dog_seen"], true);
}
