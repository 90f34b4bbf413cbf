//! Trump Crew: one test per ruling of `docs/rules/trump_crew.md` where testable, every worked
//! example T1..T11.

use engine::games::trump_crew::{Action, TrumpCrew, View};
use engine::registry;
use engine::{ActionError, GameDef, Match, NewGame, Viewer};
use serde_json::{Value, json};

use crate::support::{refused, view};

fn game() -> &'static dyn engine::Game {
    registry::find("trump_crew").expect("trump_crew is registered")
}

/// Builds a stacked entry: `hands[seat]` in the order each seat receives its cards, dealt one at a
/// time from dealer+1 (§2, R16), then the indicator, then any further cards.
fn stack(dealer: usize, hands: &[&str], rest: &str) -> Vec<String> {
    let n = hands.len();
    let hands: Vec<Vec<&str>> = hands
        .iter()
        .map(|h| h.split_whitespace().collect())
        .collect();
    let mut entry = Vec::new();
    for i in 0..n * hands[0].len() {
        entry.push(hands[(dealer + 1 + i) % n][i / n].to_string());
    }
    entry.extend(rest.split_whitespace().map(String::from));
    entry
}

fn start(players: usize, options: Value, deals: Vec<Vec<String>>) -> Box<dyn Match> {
    game()
        .start(&NewGame {
            players,
            options: options.as_object().cloned().unwrap_or_default(),
            seed: 7,
            deals,
        })
        .expect("setup")
}

fn hand(m: &dyn Match, seat: usize) -> Vec<String> {
    serde_json::from_value(view(m, seat)["hand"].clone()).unwrap()
}

fn ok(m: &mut Box<dyn Match>, seat: usize, action: Value) -> Vec<Value> {
    m.apply(seat, &action)
        .unwrap_or_else(|e| panic!("seat {seat} {action}: {e}"))
        .events
}

fn bid(tricks: u32) -> Value {
    json!({"type": "bid", "tricks": tricks})
}

fn play(card: &str) -> Value {
    json!({"type": "play", "cards": [card]})
}

fn declare(m: &mut Box<dyn Match>, seat: usize) {
    ok(m, seat, json!({"type": "declare", "strength": "medium"}));
}

fn legal_bids(m: &dyn Match, seat: usize) -> Vec<u64> {
    m.legal_actions(seat)
        .iter()
        .map(|a| a["tricks"].as_u64().unwrap())
        .collect()
}

fn legal_cards(m: &dyn Match, seat: usize) -> Vec<String> {
    m.legal_actions(seat)
        .iter()
        .map(|a| a["cards"][0].as_str().unwrap().to_string())
        .collect()
}

/// Four players, dealer 3, stage `hands[0].len()`, the given indicator; declare and bid.
fn four(hands: [&str; 4], indicator: &str, bids: [u32; 3]) -> Box<dyn Match> {
    let stage = hands[0].split_whitespace().count();
    let mut m = start(
        4,
        json!({"first_dealer": 3, "start_stage": stage}),
        vec![stack(3, &hands, indicator)],
    );
    declare(&mut m, 3);
    for (seat, b) in bids.iter().enumerate() {
        ok(&mut m, seat, bid(*b));
    }
    m
}

#[test]
fn t1_deal_and_bids() {
    let hands = ["AS 2S 3S", "AH 2H 3H", "AD 2D 3D", "AC 2C 3C"];
    let mut m = start(
        4,
        json!({"first_dealer": 3, "start_stage": 3}),
        vec![stack(3, &hands, "7H")],
    );
    let v = view(m.as_ref(), 0);
    assert_eq!(v["indicator"], "7H");
    assert_eq!(v["trump"], "H");
    assert_eq!(v["hand_sizes"], json!([3, 3, 3, 3]));
    assert_eq!(m.to_act(), vec![3]);
    ok(&mut m, 3, json!({"type": "declare", "strength": "weak"}));
    assert_eq!(view(m.as_ref(), 1)["strength"], "weak");
    assert_eq!(legal_bids(m.as_ref(), 0), [0, 1, 2, 3]);
    ok(&mut m, 0, bid(2));
    assert_eq!(legal_bids(m.as_ref(), 1), [0, 1]);
    ok(&mut m, 1, bid(1));
    assert_eq!(legal_bids(m.as_ref(), 2), [0]);
    let events = ok(&mut m, 2, bid(0));
    assert!(events.contains(&json!({"type": "bid", "seat": 3, "tricks": 0, "forced": true})));
    assert_eq!(view(m.as_ref(), 2)["bids"], json!([2, 1, 0, 0]));
    assert_eq!(view(m.as_ref(), 2)["phase"], "play");
}

#[test]
fn t2_dealer_forced_to_a_large_bid() {
    let hands = [
        "AS 2S 3S 4S",
        "AH 2H 3H 4H",
        "AD 2D 3D 4D",
        "AC 2C 3C 4C",
        "KS KH KD KC",
    ];
    let mut m = start(
        5,
        json!({"first_dealer": 4, "start_stage": 4}),
        vec![stack(4, &hands, "5S")],
    );
    declare(&mut m, 4);
    for (seat, b) in [0, 0, 1, 0].into_iter().enumerate() {
        ok(&mut m, seat, bid(b));
    }
    assert_eq!(view(m.as_ref(), 4)["bids"], json!([0, 0, 1, 0, 3]));
    assert_eq!(m.to_act(), vec![0]);
}

#[test]
fn r2_a_bid_above_the_chips_left_is_refused() {
    let mut m = start(4, json!({"first_dealer": 3, "start_stage": 2}), vec![]);
    declare(&mut m, 3);
    assert_eq!(refused(&mut m, 0, bid(3)), "bid_too_high");
    ok(&mut m, 0, bid(2));
    assert_eq!(refused(&mut m, 1, bid(1)), "bid_too_high");
    ok(&mut m, 1, bid(0));
    ok(&mut m, 2, bid(0));
    // The dealer never bids by hand: his forced 0 was applied.
    assert_eq!(view(m.as_ref(), 3)["bids"], json!([2, 0, 0, 0]));
    assert_eq!(refused(&mut m, 0, bid(0)), "must_play");
}

#[test]
fn r3_the_dealer_must_declare_first_and_publicly() {
    let mut m = start(4, json!({"first_dealer": 1}), vec![]);
    assert_eq!(m.to_act(), vec![1]);
    let legal = m.legal_actions(1);
    assert_eq!(
        legal,
        ["strong", "medium", "weak"]
            .map(|s| json!({"type": "declare", "strength": s}))
            .to_vec()
    );
    assert_eq!(refused(&mut m, 1, bid(0)), "must_declare");
    assert!(matches!(
        m.apply(2, &bid(0)),
        Err(ActionError::NotYourTurn { .. })
    ));
    ok(&mut m, 1, json!({"type": "declare", "strength": "strong"}));
    assert_eq!(m.view(Viewer::Spectator)["strength"], "strong");
    assert_eq!(
        refused(&mut m, 2, json!({"type": "declare", "strength": "weak"})),
        "must_bid"
    );
}

#[test]
fn t3_r4_joker_indicator_means_no_trump_and_no_joker() {
    let mut m = four(["2H AS", "3H KS", "4H QS", "5H JS"], "JK", [0, 0, 0]);
    let v = m.view(Viewer::Spectator);
    assert_eq!(v["indicator"], "JK");
    assert_eq!(v["trump"], Value::Null);
    for seat in 0..4 {
        assert!(!hand(m.as_ref(), seat).contains(&"JK".to_string()));
    }
    // Seat 0 leads 2H; a heart-less player cannot win with a "trump".
    ok(&mut m, 0, play("2H"));
    ok(&mut m, 1, play("3H"));
    ok(&mut m, 2, play("4H"));
    let events = ok(&mut m, 3, play("5H"));
    assert!(events.contains(&json!({"type": "trick_won", "seat": 3})));
}

#[test]
fn t4_r5_r7_must_follow_with_the_joker_exception() {
    // Trump H (indicator 7H); dealer 0, so seat 1 leads 5S. (T4's third hand "2H 3D 9C" shares
    // 2H with the joker hand, so it is played as 8H 3D 9C; the joker hand is checked below.)
    let hands = ["4C 4D 4H", "5S 6S 6D", "KS 2H JK", "8H 3D 9C"];
    let mut m = start(
        4,
        json!({"first_dealer": 0, "start_stage": 3}),
        vec![stack(0, &hands, "7H")],
    );
    declare(&mut m, 0);
    for seat in 1..4 {
        ok(&mut m, seat, bid(0));
    }
    ok(&mut m, 1, play("5S"));
    assert_eq!(legal_cards(m.as_ref(), 2), ["KS", "JK"]);
    assert_eq!(refused(&mut m, 2, play("2H")), "must_follow_suit");
    ok(&mut m, 2, play("KS"));
    // Void in spades: any card, trump or discard (R7).
    assert_eq!(legal_cards(m.as_ref(), 3), ["3D", "8H", "9C"]);
    // T4's last hand: 2H 3D JK, void in spades: all three, the joker optional.
    let hands = ["4C 4D 4H", "5S 6S 6D", "KS 8H 9C", "2H 3D JK"];
    let mut m = start(
        4,
        json!({"first_dealer": 0, "start_stage": 3}),
        vec![stack(0, &hands, "7H")],
    );
    declare(&mut m, 0);
    for seat in 1..4 {
        ok(&mut m, seat, bid(0));
    }
    ok(&mut m, 1, play("5S"));
    ok(&mut m, 2, play("KS"));
    assert_eq!(legal_cards(m.as_ref(), 3), ["2H", "3D", "JK"]);
    ok(&mut m, 3, play("3D"));
}

#[test]
fn t5_r8_trick_resolution() {
    // Trump H. Lead 9S (seat 0), AS (1), 2H (2), KH (3): seat 3 wins.
    let m = |third: &str| {
        let hands = ["9S 4C", "AS 4D", &format!("{third} 5C"), "KH 5D"];
        let hands: Vec<&str> = hands.iter().map(|s| s.as_ref()).collect();
        let mut m = start(
            4,
            json!({"first_dealer": 3, "start_stage": 2}),
            vec![stack(3, &hands, "7H")],
        );
        declare(&mut m, 3);
        for seat in 0..3 {
            ok(&mut m, seat, bid(0));
        }
        ok(&mut m, 0, play("9S"));
        ok(&mut m, 1, play("AS"));
        ok(&mut m, 2, play(third));
        ok(&mut m, 3, play("KH"))
    };
    assert!(m("2H").contains(&json!({"type": "trick_won", "seat": 3})));
    assert!(m("JK").contains(&json!({"type": "trick_won", "seat": 2})));
}

#[test]
fn t6_r6_joker_lead_naming_a_suit() {
    // Trump C. Seat 0 leads JK naming D; seat 1 (4D 9S) must play 4D; seat 2 (AS KC) either.
    let mut m = four(["JK 2S", "4D 9S", "AS KC", "5H 6H"], "7C", [1, 0, 0]);
    let leads = m.legal_actions(0);
    assert!(leads.contains(&json!({"type": "play", "cards": ["JK"], "suit": "D"})));
    assert!(leads.contains(&json!({"type": "play", "cards": ["JK"], "suit": null})));
    assert_eq!(refused(&mut m, 0, play("JK")), "joker_lead_needs_suit");
    assert_eq!(
        refused(
            &mut m,
            0,
            json!({"type": "play", "cards": ["2S"], "suit": "S"})
        ),
        "suit_only_for_joker_lead"
    );
    ok(
        &mut m,
        0,
        json!({"type": "play", "cards": ["JK"], "suit": "D"}),
    );
    assert_eq!(view(m.as_ref(), 1)["led_suit"], "D");
    assert_eq!(legal_cards(m.as_ref(), 1), ["4D"]);
    assert_eq!(refused(&mut m, 1, play("9S")), "must_follow_suit");
    ok(&mut m, 1, play("4D"));
    assert_eq!(legal_cards(m.as_ref(), 2), ["KC", "AS"]);
    ok(&mut m, 2, play("KC"));
    let events = ok(&mut m, 3, play("5H"));
    assert!(events.contains(&json!({"type": "trick_won", "seat": 0})));
}

#[test]
fn t7_r6_joker_lead_without_a_suit() {
    let mut m = four(["JK 2S", "AH 9S", "2C KC", "7S 6H"], "3D", [1, 0, 0]);
    ok(
        &mut m,
        0,
        json!({"type": "play", "cards": ["JK"], "suit": null}),
    );
    assert_eq!(view(m.as_ref(), 1)["led_suit"], Value::Null);
    assert_eq!(legal_cards(m.as_ref(), 1), ["9S", "AH"]);
    ok(&mut m, 1, play("AH"));
    ok(&mut m, 2, play("2C"));
    let events = ok(&mut m, 3, play("7S"));
    assert!(events.contains(&json!({"type": "trick_won", "seat": 0})));
    // Following with the joker never names a suit.
    let mut m = four(["2S 3S", "JK 9S", "2C KC", "7S 6H"], "3D", [0, 0, 0]);
    ok(&mut m, 0, play("2S"));
    assert_eq!(
        refused(
            &mut m,
            1,
            json!({"type": "play", "cards": ["JK"], "suit": null})
        ),
        "suit_only_for_joker_lead"
    );
    ok(&mut m, 1, play("JK"));
}

/// Plays a whole 4-player stage-5 deal (dealer 3, trump D) where seats win 2,1,0,2 tricks.
fn t8_deal(bids: [u32; 3]) -> Box<dyn Match> {
    // Seat 0 wins tricks 1-2 (AS, AH), seat 1 trick 3 (AC), seat 3 tricks 4-5 (trumps).
    let hands = [
        "AS AH 2C 3H 4S",
        "2S 2H AC 5H 6S",
        "3S 4H 3C 7H 8S",
        "5S 6H 4C AD KD",
    ];
    let mut m = four(hands, "9D", bids);
    let order = [
        [(0, "AS"), (1, "2S"), (2, "3S"), (3, "5S")],
        [(0, "AH"), (1, "2H"), (2, "4H"), (3, "6H")],
        [(0, "2C"), (1, "AC"), (2, "3C"), (3, "4C")],
        [(1, "5H"), (2, "7H"), (3, "AD"), (0, "3H")],
        [(3, "KD"), (0, "4S"), (1, "6S"), (2, "8S")],
    ];
    for trick in order {
        for (seat, card) in trick {
            ok(&mut m, seat, play(card));
        }
    }
    m
}

#[test]
fn t8_r9_cleared_goes_up_failed_replays_the_stage() {
    let m = t8_deal([2, 1, 0]);
    let v = m.view(Viewer::Spectator);
    assert_eq!(v["last_deal"]["tricks_won"], json!([2, 1, 0, 2]));
    assert_eq!(v["last_deal"]["cleared"], true);
    assert_eq!(v["stage"], 6);
    assert_eq!(v["dealer"], 0);
    assert_eq!(v["stages_cleared"], 1);
    // Bids 2,1,1 (dealer forced 1) against tricks 2,1,0,2: not cleared.
    let m = t8_deal([2, 1, 1]);
    let v = m.view(Viewer::Spectator);
    assert_eq!(v["last_deal"]["bids"], json!([2, 1, 1, 1]));
    assert_eq!(v["last_deal"]["cleared"], false);
    assert_eq!(v["stage"], 5);
    assert_eq!(v["dealer"], 0);
    assert_eq!(v["stages_cleared"], 0);
    assert_eq!(v["deals_played"], 1);
}

#[test]
fn t9_final_stage_with_two_players() {
    let mut cards: Vec<String> = engine::cards::PackSpec::standard()
        .cards()
        .iter()
        .map(|c| c.to_string())
        .collect();
    cards.push("JK".into());
    // 2 players, stage 26: 52 cards dealt, the indicator is the 53rd (the last card).
    let mut m = start(
        2,
        json!({"first_dealer": 1, "start_stage": 26}),
        vec![cards],
    );
    assert_eq!(view(m.as_ref(), 0)["final_stage"], 26);
    assert_eq!(view(m.as_ref(), 0)["hand_sizes"], json!([26, 26]));
    assert_eq!(view(m.as_ref(), 0)["indicator"], "JK");
    // Find the outcome of a fixed policy, then bid it: both make their bids and the crew wins.
    let tricks = outcome(m.as_ref());
    declare(&mut m, 1);
    ok(&mut m, 0, bid(tricks[0]));
    play_first_legal(&mut m);
    let result = m.result().expect("over");
    assert_eq!(result.details["cleared"], true);
    assert_eq!(result.details["deals"], 1);
    assert_eq!(result.scores, [1.0, 1.0]);
}

/// Tricks each seat takes in the current deal if everyone plays its first legal card.
fn outcome(m: &dyn Match) -> Vec<u32> {
    let mut probe = m.clone_match();
    loop {
        let seat = probe.to_act()[0];
        let action = probe.legal_actions(seat)[0].clone();
        let action = if action["type"] == "bid" {
            bid(0)
        } else {
            action
        };
        for event in probe.apply(seat, &action).unwrap().events {
            if event["type"] == "deal_end" {
                return serde_json::from_value(event["tricks_won"].clone()).unwrap();
            }
        }
    }
}

fn play_first_legal(m: &mut Box<dyn Match>) {
    while !m.is_over() && m.view(Viewer::Spectator)["phase"] == "play" {
        let seat = m.to_act()[0];
        let deals = m.view(Viewer::Spectator)["deals_played"].clone();
        let action = m.legal_actions(seat)[0].clone();
        ok(m, seat, action);
        if m.view(Viewer::Spectator)["deals_played"] != deals {
            return;
        }
    }
}

/// Plays one deal; `clear` chooses bids that match (or miss) the fixed policy's outcome.
fn deal(m: &mut Box<dyn Match>, clear: bool) {
    let v = m.view(Viewer::Spectator);
    let (n, dealer) = (
        v["players"].as_u64().unwrap() as usize,
        v["dealer"].as_u64().unwrap() as usize,
    );
    let tricks = outcome(m.as_ref());
    declare(m, dealer);
    for k in 1..n {
        let seat = (dealer + k) % n;
        let mut b = tricks[seat];
        if !clear && k == 1 {
            b = u32::from(b == 0);
        }
        let left = m.view(Viewer::Spectator)["chips_left"].as_u64().unwrap() as u32;
        ok(m, seat, bid(b.min(left)));
    }
    play_first_legal(m);
}

#[test]
fn t10_r13_r17_result_and_termination() {
    // (a) Clear stages 1-9, then fail stage 10 thirty times: the game ends after deal 39.
    let mut a = start(4, json!({}), vec![]);
    assert_eq!(a.view(Viewer::Spectator)["max_deals"], 39);
    for _ in 0..9 {
        deal(&mut a, true);
    }
    for i in 0..30 {
        assert!(!a.is_over(), "over after {i} failures");
        deal(&mut a, false);
    }
    let ra = a.result().expect("over after 39 deals");
    assert_eq!(ra.ranking, vec![vec![0, 1, 2, 3]]);
    assert_eq!(ra.teams, Some(vec![vec![0, 1, 2, 3]]));
    let x = 9.0 / 13.0;
    assert_eq!(ra.scores, vec![x; 4]);
    assert_eq!(ra.details["cleared"], false);
    assert_eq!(ra.details["deals"], 39);
    assert_eq!(ra.details["failures"], 30);
    assert_eq!(ra.details["stages_cleared"], 9);
    assert_eq!(ra.details["stage_reached"], 10);
    assert!((ra.details["score"].as_f64().unwrap() - 0.6923).abs() < 1e-4);
    // (b) Clear all 13 stages in 20 deals (7 failures on the way).
    let mut b = start(4, json!({}), vec![]);
    for stage in 1..=13 {
        if stage <= 7 {
            deal(&mut b, false);
        }
        deal(&mut b, true);
    }
    let rb = b.result().expect("cleared");
    assert_eq!(
        rb.details,
        json!({"cooperative": true, "cleared": true, "deals": 20, "failures": 7,
               "stages_cleared": 13, "stage_reached": 13, "final_stage": 13, "start_stage": 1,
               "max_deals": 39, "score": 1.0})
    );
    assert_eq!(rb.scores, vec![1.0; 4]);
    // Compared (§5): (b) is better than (a); against the virtual opponent (a) lost and (b) won.
    use engine::games::trump_crew::scoring::compare;
    assert_eq!(compare(&rb, &ra), Some(std::cmp::Ordering::Greater));
    assert_eq!(compare(&ra, &rb), Some(std::cmp::Ordering::Less));
    assert_eq!(compare(&ra, &ra), Some(std::cmp::Ordering::Equal));
}

#[test]
fn t11_r16_stacked_deal_order() {
    let entry: Vec<String> = "AS KD 7C 2H QS 3D 9C 4H TD"
        .split_whitespace()
        .map(String::from)
        .collect();
    let m = start(4, json!({"first_dealer": 3, "start_stage": 2}), vec![entry]);
    assert_eq!(hand(m.as_ref(), 0), ["QS", "AS"]);
    assert_eq!(hand(m.as_ref(), 1), ["3D", "KD"]);
    assert_eq!(hand(m.as_ref(), 2), ["7C", "9C"]);
    assert_eq!(hand(m.as_ref(), 3), ["2H", "4H"]);
    assert_eq!(m.view(Viewer::Spectator)["indicator"], "TD");
    assert_eq!(m.view(Viewer::Spectator)["trump"], "D");
}

#[test]
fn r16_a_replayed_deal_takes_the_next_entry_with_the_next_dealer() {
    let first = stack(3, &["AS", "KS", "QS", "JS"], "2H");
    let second = stack(0, &["AD", "KD", "QD", "JD"], "2C");
    let mut m = start(4, json!({"first_dealer": 3}), vec![first, second]);
    deal(&mut m, false);
    let v = m.view(Viewer::Spectator);
    assert_eq!(v["stage"], 1);
    assert_eq!(v["dealer"], 0);
    assert_eq!(v["indicator"], "2C");
    assert_eq!(hand(m.as_ref(), 0), ["AD"]);
    assert_eq!(hand(m.as_ref(), 1), ["KD"]);
}

#[test]
fn r1_player_range_and_stage_table() {
    let table = [26, 17, 13, 10, 8, 7, 6, 5, 5, 4, 4, 4, 3, 3, 3, 3];
    for (n, s) in (2..=17).zip(table) {
        let m = start(n, json!({}), vec![]);
        assert_eq!(m.view(Viewer::Spectator)["final_stage"], s, "{n} players");
        assert_eq!(m.view(Viewer::Spectator)["max_deals"], 3 * s, "{n} players");
    }
    for n in [1, 18] {
        let err = game()
            .start(&NewGame {
                players: n,
                ..NewGame::default()
            })
            .unwrap_err();
        assert_eq!(err.code(), "invalid_players");
    }
    // `stages` is limited by floor(52/n).
    let err = game()
        .start(&NewGame {
            players: 5,
            options: json!({"stages": 11}).as_object().cloned().unwrap(),
            ..NewGame::default()
        })
        .unwrap_err();
    assert!(err.to_string().contains("from 1 to 10"), "{err}");
    let m = start(5, json!({"stages": 3}), vec![]);
    assert_eq!(m.view(Viewer::Spectator)["final_stage"], 3);
    assert_eq!(m.view(Viewer::Spectator)["max_deals"], 9);
}

#[test]
fn r11_first_dealer_is_random_or_fixed() {
    let mut seen = [false; 5];
    for seed in 0..60 {
        let m = game()
            .start(&NewGame {
                players: 5,
                seed,
                ..NewGame::default()
            })
            .unwrap();
        seen[m.view(Viewer::Spectator)["dealer"].as_u64().unwrap() as usize] = true;
    }
    assert!(seen.iter().all(|s| *s));
    let m = start(5, json!({"first_dealer": 2}), vec![]);
    assert_eq!(m.to_act(), vec![2]);
    assert!(
        game()
            .start(&NewGame {
                players: 5,
                options: json!({"first_dealer": 5}).as_object().cloned().unwrap(),
                ..NewGame::default()
            })
            .is_err()
    );
}

#[test]
fn r12_dealers_left_bids_and_leads_first() {
    let mut m = start(6, json!({"first_dealer": 4, "start_stage": 2}), vec![]);
    declare(&mut m, 4);
    assert_eq!(m.to_act(), vec![5]);
    for seat in [5, 0, 1, 2, 3] {
        ok(&mut m, seat, bid(0));
    }
    assert_eq!(m.to_act(), vec![5]);
    assert_eq!(view(m.as_ref(), 5)["phase"], "play");
}

#[test]
fn r13_max_deals_auto_number_or_unlimited() {
    let m = start(4, json!({"max_deals": null}), vec![]);
    assert_eq!(m.view(Viewer::Spectator)["max_deals"], Value::Null);
    assert_eq!(m.options()["max_deals"], Value::Null);
    let mut m = start(4, json!({"max_deals": 2}), vec![]);
    deal(&mut m, false);
    assert!(!m.is_over());
    deal(&mut m, true);
    let r = m.result().expect("over after two deals");
    assert_eq!(r.details["deals"], 2);
    assert_eq!(r.details["cleared"], false);
    assert_eq!(r.details["stages_cleared"], 1);
    assert_eq!(r.details["stage_reached"], 1);
    let err = game()
        .start(&NewGame {
            players: 4,
            options: json!({"max_deals": 0}).as_object().cloned().unwrap(),
            ..NewGame::default()
        })
        .unwrap_err();
    assert!(err.to_string().contains("max_deals"), "{err}");
}

#[test]
fn r15_past_tricks_of_the_deal_are_public() {
    let mut m = four(["AS 2S", "KS 3S", "QS 4S", "JS 5S"], "2H", [1, 0, 0]);
    for (seat, card) in [(0, "AS"), (1, "KS"), (2, "QS"), (3, "JS")] {
        ok(&mut m, seat, play(card));
    }
    let v = m.view(Viewer::Seat(2));
    assert_eq!(v["tricks"][0]["winner"], 0);
    assert_eq!(v["tricks"][0]["plays"][3], json!({"seat": 3, "card": "JS"}));
    assert_eq!(v["tricks_won"], json!([1, 0, 0, 0]));
    // Other hands and the undealt cards stay hidden.
    assert!(v["hand"].as_array().unwrap().len() == 1);
    assert_eq!(m.view(Viewer::Spectator)["hand"], Value::Null);
}

#[test]
fn r17_every_seat_shares_one_result() {
    let mut m = start(3, json!({"stages": 1, "first_dealer": 0}), vec![]);
    deal(&mut m, true);
    let r = m.result().expect("one stage cleared");
    assert_eq!(r.ranking, vec![vec![0, 1, 2]]);
    assert_eq!(r.scores, vec![1.0; 3]);
    assert_eq!(r.details["cooperative"], true);
    assert_eq!(r.details["stage_reached"], 1);
    // start_stage counts only the stages to clear in this game.
    let mut m = start(4, json!({"start_stage": 12, "max_deals": 1}), vec![]);
    deal(&mut m, true);
    let r = m.result().unwrap();
    assert_eq!(r.scores, vec![0.5; 4]);
}

#[test]
fn illegal_plays_name_the_cards() {
    let mut m = four(["AS 2S", "KS 3H", "QS 4S", "JS 5S"], "2H", [1, 0, 0]);
    let err = m.apply(0, &play("KS")).unwrap_err();
    assert_eq!(err.reason(), "card_not_in_hand");
    assert!(err.to_string().contains("2S AS"), "{err}");
    assert_eq!(
        refused(&mut m, 0, json!({"type": "play", "cards": ["AS", "2S"]})),
        "one_card"
    );
    ok(&mut m, 0, play("2S"));
    let err = m.apply(1, &play("3H")).unwrap_err();
    assert_eq!(err.reason(), "must_follow_suit");
    assert!(err.to_string().contains("KS"), "{err}");
}

#[test]
fn forged_states_are_refused() {
    let m = start(4, json!({}), vec![]);
    let saved = m.save();
    assert!(game().load(&saved).is_ok());
    let mut dup = saved.clone();
    let h0 = dup["data"]["hands"][0].clone();
    dup["data"]["hands"][1] = h0;
    assert!(game().load(&dup).is_err());
    let mut bad_dealer = saved.clone();
    bad_dealer["data"]["dealer"] = json!(9);
    assert!(game().load(&bad_dealer).is_err());
    let mut bad_stage = saved.clone();
    bad_stage["data"]["stage"] = json!(14);
    assert!(game().load(&bad_stage).is_err());
}

#[test]
fn typed_view_round_trips_for_bots() {
    let m = start(4, json!({}), vec![]);
    let v: View = serde_json::from_value(m.view(Viewer::Seat(0))).unwrap();
    assert_eq!(v.players, 4);
    let legal: Vec<Action> = m
        .legal_actions(m.to_act()[0])
        .into_iter()
        .map(|a| serde_json::from_value(a).unwrap())
        .collect();
    assert!(TrumpCrew::heuristic(&v, &legal) < legal.len());
}
