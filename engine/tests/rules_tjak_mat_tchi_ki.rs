//! Rulings (R1..R14) and worked examples (K1..K10) of Tjak-mat-tchi-ki, through the erased API
//! with stacked deals. See: docs/rules/tjak_mat_tchi_ki.md.

use engine::games::tjak_mat_tchi_ki::combination::is_pair;
use engine::games::tjak_mat_tchi_ki::state::decide_draw;
use engine::tiles::Tile;
use engine::{Match, NewGame, Viewer, registry};
use serde_json::{Value, json};

use crate::support::{act, refused, view};

/// A stacked entry for first player `f`: five rounds from `f` (hands[s] lists seat s's tiles,
/// the first player's sixth tile last), then the reserve from the top.
fn entry(hands: &[&str], f: usize, reserve: &str) -> Vec<String> {
    let hands: Vec<Vec<&str>> = hands
        .iter()
        .map(|h| h.split_whitespace().collect())
        .collect();
    let n = hands.len();
    let mut out: Vec<String> = (0..5 * n)
        .map(|j| hands[(f + j % n) % n][j / n].to_string())
        .collect();
    out.push(hands[f][5].to_string());
    out.extend(reserve.split_whitespace().map(String::from));
    out
}

fn start(id: &str, players: usize, options: Value, deals: Vec<Vec<String>>) -> Box<dyn Match> {
    crate::support::start(id, players, options, deals, 11)
}

fn tile(code: &str) -> Tile {
    Tile::parse(code).unwrap()
}

fn take(code: &str) -> Value {
    json!({"type": "take", "tiles": [code]})
}

fn discard(code: &str) -> Value {
    json!({"type": "discard", "tiles": [code]})
}

fn draw() -> Value {
    json!({"type": "draw"})
}

fn hand(m: &dyn Match, seat: usize) -> Vec<String> {
    serde_json::from_value(view(m, seat)["hand"].clone()).unwrap()
}

#[test]
fn k1_r1_r2_pair_tests() {
    assert!(is_pair(tile("6-6#1"), tile("6-6#2")));
    assert!(is_pair(tile("2-4"), tile("1-2")));
    assert!(is_pair(tile("3-6"), tile("4-5")));
    assert!(is_pair(tile("2-6"), tile("3-5")));
    assert!(is_pair(tile("2-5"), tile("3-4")));
    assert!(is_pair(tile("1-4"), tile("2-3")));
    assert!(!is_pair(tile("3-6"), tile("2-6")));
    assert!(!is_pair(tile("1-1#1"), tile("1-2")));
    assert!(!is_pair(tile("5-6#1"), tile("4-6#1")));
    assert!(!is_pair(tile("6-6#1"), tile("5-5#1")));
    assert!(!is_pair(tile("6-6#1"), tile("6-6#1")));
}

#[test]
fn k2_dealt_win() {
    let deal = [
        "2-2#1 5-6#1 4-6#1 1-6#1 1-5#1",
        "6-6#1 6-6#2 2-4 1-2 3-6 4-5",
        "2-2#2 5-6#2 4-6#2 1-6#2 1-5#2",
        "3-3#1 3-3#2 3-5 2-5 1-4",
    ];
    // Note: seat 3's 3-3#1 + 3-3#2 is a pair, laid only on its own first turn.
    let m = start(
        "tjak_mat_tchi_ki",
        4,
        json!({"first_player": 1, "hands": 1}),
        vec![entry(&deal, 1, "")],
    );
    assert!(m.is_over(), "seat 1 wins before any discard");
    let result = m.result().unwrap();
    assert_eq!(result.scores, vec![19.0, 23.0, 19.0, 19.0]);
    assert_eq!(result.ranking, vec![vec![1], vec![0, 2, 3]]);
    assert_eq!(result.details["hands"][0]["by"], "dealt");
    assert_eq!(
        result.details["hands"][0]["payoffs"],
        json!([-1, 3, -1, -1])
    );
}

const K3: [&str; 4] = [
    "2-2#2 5-6#2 4-6#2 1-6#2 1-5#2",
    "3-5 6-6#1 4-4#1 5-5#2 1-3#2 3-3#1",
    "2-6 1-1#1 4-4#2 5-5#1 1-3#1",
    "2-2#1 5-6#1 4-6#1 1-6#1 1-5#1",
];

#[test]
fn k3_r10_take_legality() {
    let mut m = start(
        "tjak_mat_tchi_ki",
        4,
        json!({"first_player": 1}),
        vec![entry(&K3, 1, "")],
    );
    assert_eq!(m.to_act(), vec![1]);
    assert_eq!(m.legal_actions(1).len(), 6, "one discard per tile");
    act(&mut m, 1, discard("3-5"));
    // Taking is optional (R10): both take and draw are listed.
    assert_eq!(m.legal_actions(2), vec![take("3-5"), draw()]);
    let events = act(&mut m, 2, take("3-5"));
    assert_eq!(
        events[0],
        json!({"type": "take", "seat": 2, "tiles": ["3-5"], "from": 1})
    );
    assert_eq!(
        events[1],
        json!({"type": "lay", "seat": 2, "tiles": ["2-6", "3-5"]})
    );
    assert_eq!(view(m.as_ref(), 2)["laid"][2], json!([["2-6", "3-5"]]));
    let legal = m.legal_actions(2);
    assert_eq!(legal.len(), 4);
    assert!(legal.iter().all(|a| a["type"] == "discard"));
    // Had seat 2 no 2-6, only draw: swap 2-6 with seat 0's 2-2#2.
    let mut swapped = K3;
    swapped[0] = "2-6 5-6#2 4-6#2 1-6#2 1-5#2";
    swapped[2] = "2-2#2 1-1#1 4-4#2 5-5#1 1-3#1";
    let mut m = start(
        "tjak_mat_tchi_ki",
        4,
        json!({"first_player": 1}),
        vec![entry(&swapped, 1, "")],
    );
    act(&mut m, 1, discard("3-5"));
    assert_eq!(m.legal_actions(2), vec![draw()]);
    assert_eq!(refused(&mut m, 2, take("3-5")), "no_pair");
}

#[test]
fn k4_win_on_a_discard_the_discarder_pays_for_all() {
    let deal = [
        "5-6#2 4-6#2 1-6#2 1-5#2 3-5",
        "3-4 4-4#1 5-5#1 1-3#1 3-3#1 2-2#1",
        "6-6#1 6-6#2 1-1#1 1-1#2 2-5",
        "5-6#1 4-6#1 1-6#1 1-5#1 2-6",
    ];
    let mut m = start(
        "tjak_mat_tchi_ki",
        4,
        json!({"first_player": 1, "stake": 2, "hands": 1}),
        vec![entry(&deal, 1, "")],
    );
    act(&mut m, 1, discard("3-4"));
    // R5: seat 2's dealt pairs were laid at the start of its turn.
    let v = view(m.as_ref(), 2);
    assert_eq!(v["laid"][2].as_array().unwrap().len(), 2);
    assert_eq!(v["hand"], json!(["2-5"]));
    let events = act(&mut m, 2, take("3-4"));
    let end = events.iter().find(|e| e["type"] == "hand_end").unwrap();
    assert_eq!(end["record"]["by"], "take");
    assert_eq!(end["record"]["responsible"], 1);
    assert_eq!(end["record"]["payoffs"], json!([0, -6, 6, 0]));
    assert_eq!(m.result().unwrap().scores, vec![20.0, 14.0, 26.0, 20.0]);
}

#[test]
fn k5_win_on_a_draw_everybody_pays() {
    let deal = [
        "5-6#2 4-6#2 1-6#2 3-5 2-6",
        "3-4 4-4#1 5-5#1 1-3#1 3-3#1",
        "5-6#1 4-6#1 1-6#1 2-2#1 2-5 2-2#2",
        "6-6#1 6-6#2 1-1#1 1-1#2 1-5#1",
    ];
    // Seat 2 is first and holds 2-2#1 + 2-2#2: laid at once; it discards 2-5.
    let mut m = start(
        "tjak_mat_tchi_ki",
        4,
        json!({"first_player": 2, "stake": 2, "hands": 1}),
        vec![entry(&deal, 2, "1-5#2")],
    );
    assert_eq!(view(m.as_ref(), 0)["laid"][2], json!([["2-2#1", "2-2#2"]]));
    act(&mut m, 2, discard("2-5"));
    assert_eq!(m.legal_actions(3), vec![draw()]);
    let events = act(&mut m, 3, draw());
    assert!(events.contains(&json!({"type": "draw", "seat": 3})));
    let end = events.iter().find(|e| e["type"] == "hand_end").unwrap();
    assert_eq!(end["record"]["by"], "draw");
    assert_eq!(end["record"]["payoffs"], json!([-2, -2, -2, 6]));
}

/// Plays seeded random games of `tjak_mat_tchi_ki` (4 players, `options`), calling `check` with
/// the game before and after every action and that action's events.
fn seeded_games(
    options: Value,
    seeds: std::ops::Range<u64>,
    mut check: impl FnMut(&dyn Match, &Value, &dyn Match, &[Value]),
) {
    for seed in seeds {
        let mut m = crate::support::start("tjak_mat_tchi_ki", 4, options.clone(), vec![], seed);
        let mut rng = engine::rng::PlayoutRng::new(seed);
        while let Some(&seat) = m.to_act().first() {
            let legal = m.legal_actions(seat);
            let action = legal[rng.below(legal.len())].clone();
            let before = m.clone_match();
            let events = act(&mut m, seat, action.clone());
            check(before.as_ref(), &action, m.as_ref(), &events);
        }
    }
}

#[test]
fn k6_r6_r8_exhausted_reserve_ends_the_hand_without_a_winner() {
    // Over seeded random games: a hand that uses up the reserve without a winner pays nobody,
    // leaves the chips as they were, and the next hand starts with the same first player or the
    // next seat, as `no_winner_next` says.
    for (next, step) in [("same", 0), ("next_seat", 1)] {
        let mut exhausted = 0;
        seeded_games(
            json!({"hands": 3, "no_winner_next": next}),
            0..30,
            |before, _, after, events| {
                let Some(end) = events.iter().find(|e| e["type"] == "hand_end") else {
                    return;
                };
                if end["record"]["winner"] != Value::Null {
                    return;
                }
                exhausted += 1;
                let (was, now) = (view(before, 0), view(after, 0));
                assert_eq!(end["record"]["payoffs"], json!([0, 0, 0, 0]));
                assert_eq!(now["chips"], was["chips"]);
                if !after.is_over() {
                    assert_eq!(
                        now["hand_number"],
                        json!(was["hand_number"].as_u64().unwrap() + 1)
                    );
                    let first = was["first_player"].as_u64().unwrap();
                    assert_eq!(now["first_player"], json!((first + step) % 4), "{next}");
                }
            },
        );
        assert!(exhausted > 0, "{next}: no seeded hand ran out of tiles");
    }
}

#[test]
fn r6_r10_empty_reserve_take_still_possible_draw_refused() {
    // Whenever the reserve is empty and a player is to take or draw, drawing is not listed and is
    // refused with `reserve_empty`, while taking the last discard stays possible.
    let mut empty_turns = 0;
    let mut takes = 0;
    seeded_games(json!({}), 0..20, |before, action, _, _| {
        let seat = before.to_act()[0];
        let legal = before.legal_actions(seat);
        if view(before, 0)["reserve_size"] != json!(0) || !legal.iter().any(|a| a["type"] == "take")
        {
            return;
        }
        assert!(!legal.contains(&draw()), "{legal:?}");
        let mut probe = before.clone_match();
        let err = probe.apply(seat, &draw()).unwrap_err();
        assert_eq!(err.reason(), "reserve_empty");
        empty_turns += 1;
        takes += usize::from(action["type"] == "take");
    });
    assert!(
        empty_turns > 0 && takes > 0,
        "empty-reserve turns {empty_turns}, takes {takes}"
    );
}

#[test]
fn k7_r7_first_player_selection() {
    assert_eq!(
        decide_draw(&[(0, tile("6-6#2")), (1, tile("2-5")), (2, tile("5-5#1"))]),
        Ok(1)
    );
    assert_eq!(
        decide_draw(&[(0, tile("5-6#1")), (1, tile("5-6#2")), (2, tile("1-2"))]),
        Err(vec![0, 1])
    );
    // In a redraw 2-5 wins too, and otherwise the most pips.
    assert_eq!(decide_draw(&[(0, tile("6-6#1")), (1, tile("2-5"))]), Ok(1));
    assert_eq!(decide_draw(&[(0, tile("1-1#1")), (1, tile("3-6"))]), Ok(1));
    // Through setup: the public draw decides the first player; redraws only among the tied.
    for seed in 0..40 {
        let m = registry::find("tjak_mat_tchi_ki")
            .unwrap()
            .start(&NewGame {
                players: 4,
                seed,
                ..NewGame::default()
            })
            .unwrap();
        let v = view(m.as_ref(), 0);
        let rounds: Vec<Vec<(usize, Tile)>> =
            serde_json::from_value(v["first_player_draw"].clone()).unwrap();
        assert_eq!(rounds[0].len(), 4);
        for pair in rounds.windows(2) {
            assert_eq!(
                decide_draw(&pair[0]),
                Err(pair[1].iter().map(|(s, _)| *s).collect::<Vec<_>>())
            );
        }
        assert_eq!(
            decide_draw(rounds.last().unwrap()),
            Ok(v["first_player"].as_u64().unwrap() as usize)
        );
    }
}

#[test]
fn k8_counts() {
    let m = start("tjak_mat_tchi_ki", 3, json!({"first_player": 1}), vec![]);
    let v = view(m.as_ref(), 0);
    let total = |s: usize| {
        v["concealed_sizes"][s].as_u64().unwrap()
            + 2 * v["laid"][s].as_array().unwrap().len() as u64
    };
    assert_eq!((total(0), total(1), total(2)), (5, 6, 5));
    assert_eq!(v["reserve_size"], 16);
    for (players, reserve) in [(2, 21), (4, 11)] {
        let m = start(
            "tjak_mat_tchi_ki",
            players,
            json!({"first_player": 0}),
            vec![],
        );
        assert_eq!(view(m.as_ref(), 0)["reserve_size"], reserve);
    }
}

#[test]
fn k9_r12_stacked_deal_order() {
    let order =
        "6-6#1 1-2 3-4 2-4 5-5#2 1-1#1 4-4#1 1-3#1 3-3#1 2-2#1 5-6#1 4-6#1 1-6#1 1-5#1 3-6 2-6 4-5";
    let deals = vec![
        order
            .split_whitespace()
            .map(String::from)
            .collect::<Vec<_>>(),
    ];
    let mut m = start("tjak_mat_tchi_ki", 3, json!({"first_player": 2}), deals);
    assert_eq!(
        hand(m.as_ref(), 2),
        ["1-6#1", "2-2#1", "2-4", "2-6", "4-4#1", "6-6#1"]
    );
    assert_eq!(
        hand(m.as_ref(), 0),
        ["1-2", "1-3#1", "1-5#1", "5-5#2", "5-6#1"]
    );
    assert_eq!(
        hand(m.as_ref(), 1),
        ["1-1#1", "3-3#1", "3-4", "3-6", "4-6#1"]
    );
    act(&mut m, 2, discard("6-6#1"));
    act(&mut m, 0, draw());
    assert!(
        hand(m.as_ref(), 0).contains(&"4-5".to_string()),
        "tile 16 tops the reserve"
    );
}

fn k10_deal(seat2: &str) -> Vec<String> {
    let deal = [
        "2-3 6-6#2 5-5#2 1-3#2 3-3#1 2-2#1",
        "6-6#1 4-4#1 1-6#1 1-5#1 2-5",
        seat2,
        "5-6#1 4-6#1 1-6#2 1-5#2 2-6",
    ];
    entry(&deal, 0, "3-3#2")
}

#[test]
fn k10_r4_r13_any_table_tile() {
    let scenario = |id: &str, seat2: &str| {
        let mut m = start(
            id,
            4,
            json!({"first_player": 0, "hands": 1}),
            vec![k10_deal(seat2)],
        );
        act(&mut m, 0, discard("2-3"));
        act(&mut m, 1, draw());
        act(&mut m, 1, discard("6-6#1"));
        m
    };
    let seat2 = "1-4 1-1#2 4-4#2 5-6#2 4-6#2";
    // Default: the dead 2-3 cannot be taken; the last discard pairs nothing: draw only.
    let mut m = scenario("tjak_mat_tchi_ki", seat2);
    assert_eq!(m.legal_actions(2), vec![draw()]);
    assert_eq!(refused(&mut m, 2, take("2-3")), "dead_discard");
    // Any table tile: 2-3 (pairs 1-4) may be taken too.
    let m = scenario("tjak_mat_tchi_ki_any_tile", seat2);
    assert_eq!(m.legal_actions(2), vec![take("2-3"), draw()]);
    // Completing a third pair this way: see the next test.
}

#[test]
fn k10_any_table_tile_responsibility_falls_on_the_discarder() {
    // Seat 2 holds two dealt pairs and 1-4; seat 0's old discard 2-3 completes the third pair.
    let deal = [
        "2-3 6-6#2 5-6#2 1-3#2 3-3#1 2-2#1",
        "6-6#1 4-4#1 1-6#1 1-5#1 2-5",
        "1-1#1 1-1#2 5-5#1 5-5#2 1-4",
        "5-6#1 4-6#1 1-6#2 1-5#2 2-6",
    ];
    let mut m = start(
        "tjak_mat_tchi_ki_any_tile",
        4,
        json!({"first_player": 0, "hands": 1}),
        vec![entry(&deal, 0, "3-3#2")],
    );
    act(&mut m, 0, discard("2-3"));
    act(&mut m, 1, draw());
    act(&mut m, 1, discard("6-6#1"));
    assert_eq!(m.legal_actions(2), vec![take("2-3"), draw()]);
    let events = act(&mut m, 2, take("2-3"));
    let end = events.iter().find(|e| e["type"] == "hand_end").unwrap();
    assert_eq!(end["record"]["responsible"], 0);
    assert_eq!(end["record"]["payoffs"], json!([-3, 0, 3, 0]));
}

#[test]
fn r3_turn_order_acquire_then_discard() {
    let mut m = start(
        "tjak_mat_tchi_ki",
        4,
        json!({"first_player": 1}),
        vec![entry(&K3, 1, "")],
    );
    assert_eq!(refused(&mut m, 1, draw()), "must_discard");
    assert_eq!(refused(&mut m, 1, discard("2-6")), "tile_not_in_hand");
    assert_eq!(
        refused(
            &mut m,
            1,
            json!({"type": "discard", "tiles": ["3-5", "6-6#1"]})
        ),
        "one_tile_expected"
    );
    act(&mut m, 1, discard("3-5"));
    assert_eq!(refused(&mut m, 2, discard("2-6")), "must_acquire");
    assert_eq!(refused(&mut m, 3, draw()), "not_your_turn");
    act(&mut m, 2, draw());
    assert_eq!(refused(&mut m, 2, draw()), "must_discard");
}

#[test]
fn r9_chips_may_go_negative() {
    let deal = [
        "2-2#1 5-6#1 4-6#1 1-6#1 1-5#1",
        "6-6#1 6-6#2 2-4 1-2 3-6 4-5",
        "2-2#2 5-6#2 4-6#2 1-6#2 1-5#2",
        "3-3#1 3-3#2 3-5 2-5 1-4",
    ];
    let m = start(
        "tjak_mat_tchi_ki",
        4,
        json!({"first_player": 1, "hands": 1, "start_chips": 0}),
        vec![entry(&deal, 1, "")],
    );
    assert_eq!(m.result().unwrap().scores, vec![-1.0, 3.0, -1.0, -1.0]);
}

#[test]
fn r11_first_player_must_be_a_seat_and_deals_are_checked() {
    let game = registry::find("tjak_mat_tchi_ki").unwrap();
    let request = |options: Value, deals: Vec<Vec<String>>| NewGame {
        players: 3,
        options: options.as_object().cloned().unwrap(),
        seed: 1,
        deals,
    };
    let err = game
        .start(&request(json!({"first_player": 3}), vec![]))
        .unwrap_err();
    assert_eq!(err.code(), "invalid_options");
    let err = game
        .start(&request(json!({"first_player": "me"}), vec![]))
        .unwrap_err();
    assert_eq!(err.code(), "invalid_options");
    let err = game
        .start(&request(json!({}), vec![vec!["6-6".to_string()]]))
        .unwrap_err();
    assert_eq!(err.code(), "invalid_deals");
    assert!(err.to_string().contains("suffix"), "{err}");
    let err = game
        .start(&request(json!({"take_from": "anywhere"}), vec![]))
        .unwrap_err();
    assert_eq!(err.code(), "invalid_options");
    let err = registry::find("tjak_mat_tchi_ki_any_tile")
        .unwrap()
        .start(&request(json!({"take_from": "last_discard"}), vec![]))
        .unwrap_err();
    assert!(err.to_string().contains("fixed"), "{err}");
}

#[test]
fn r13_own_discards_cannot_be_taken_back() {
    let deal = [
        "1-2 6-6#2 5-6#2 1-3#2 3-3#1 2-2#1",
        "6-6#1 4-4#1 1-6#1 1-5#1 2-5",
    ];
    let mut m = start(
        "tjak_mat_tchi_ki_any_tile",
        2,
        json!({"first_player": 0}),
        vec![entry(&deal, 0, "3-6 4-5")],
    );
    act(&mut m, 0, discard("1-2"));
    act(&mut m, 1, draw());
    act(&mut m, 1, discard("3-6"));
    // Seat 0 could take 3-6 only with 4-5 (not held); its own 1-2 never.
    assert_eq!(refused(&mut m, 0, take("1-2")), "own_discard");
    assert_eq!(refused(&mut m, 0, take("3-6")), "no_pair");
    assert_eq!(refused(&mut m, 0, take("2-4")), "not_on_table");
}

#[test]
fn views_hide_the_reserve_and_other_hands() {
    let m = start(
        "tjak_mat_tchi_ki",
        4,
        json!({"first_player": 1}),
        vec![entry(&K3, 1, "")],
    );
    let spectator = m.view(Viewer::Spectator).to_string();
    for code in ["3-5", "2-6", "2-2#2"] {
        assert!(!spectator.contains(&format!("\"{code}\"")), "{code}");
    }
    let seat0 = view(m.as_ref(), 0).to_string();
    assert!(seat0.contains("\"2-2#2\"") && !seat0.contains("\"2-6\""));
}

/// The saved state of the K3 deal (4 players, seat 1 first), to forge from.
fn k3_saved() -> Value {
    start(
        "tjak_mat_tchi_ki",
        4,
        json!({"first_player": 1}),
        vec![entry(&K3, 1, "")],
    )
    .save()
}

#[test]
fn forged_states_are_refused() {
    let game = registry::find("tjak_mat_tchi_ki").unwrap();
    let saved = k3_saved();
    assert!(game.load(&saved).is_ok());
    let forge = |f: &dyn Fn(&mut Value)| {
        let mut s = saved.clone();
        f(&mut s["data"]);
        game.load(&s).unwrap_err().code()
    };
    // A tile duplicated, a laid "pair" that is no pair, a seat out of range, absurd chips.
    assert_eq!(
        forge(&|d| d["concealed"][0][0] = json!("3-5")),
        "invalid_state"
    );
    assert_eq!(
        forge(&|d| {
            d["laid"][0] = json!([["2-2#2", "5-6#2"]]);
            d["concealed"][0] = json!(["4-6#2", "1-6#2", "1-5#2"]);
        }),
        "invalid_state"
    );
    assert_eq!(forge(&|d| d["turn"] = json!(7)), "invalid_state");
    assert_eq!(forge(&|d| d["chips"][0] = json!(i64::MAX)), "invalid_state");
    assert_eq!(
        forge(&|d| d["table"]["options"]["stake"] = json!(0)),
        "invalid_state"
    );
}

/// Issue 11 item 2: a client state with hands 4 and 6 while seat 1 is to acquire was accepted, and
/// the draw led to a 7-tile hand the server then refused. Hand sizes are now checked per phase, so
/// the edited state is refused at load (every state `apply` returns loads: see conformance).
#[test]
fn issue11_tjak_hand_sizes_are_checked_per_phase_at_load() {
    for id in ["tjak_mat_tchi_ki", "tjak_mat_tchi_ki_any_tile"] {
        let game = registry::find(id).unwrap();
        let mut m = game
            .start(&NewGame {
                players: 2,
                seed: 1,
                ..NewGame::default()
            })
            .unwrap();
        assert_eq!(m.to_act(), vec![0]);
        act(&mut m, 0, json!({"type": "discard", "tiles": ["1-4"]}));
        let saved = m.save();
        game.load(&saved).expect("the state apply returned loads");
        let mut edited = saved.clone();
        let data = &mut edited["data"];
        let moved = data["concealed"][0].as_array_mut().unwrap().remove(0);
        data["concealed"][1].as_array_mut().unwrap().push(moved);
        let err = game.load(&edited).unwrap_err();
        assert_eq!(err.code(), "invalid_state");
        assert!(err.to_string().contains("tiles"), "{err}");
    }
}

/// R5 at load: a seat past its first turn has laid every pair it held, and concealed tiles are
/// kept in order; a state breaking either is unreachable and refused (apply relies on both: an
/// acquired tile is the only one that can make a pair, and it is put in its sorted place).
#[test]
fn r5_a_started_seat_holding_a_pair_and_an_unsorted_hand_are_refused_at_load() {
    let game = registry::find("tjak_mat_tchi_ki").unwrap();
    let saved = k3_saved();
    let data = &saved["data"];
    let tiles_of = |v: &Value| -> Vec<Tile> {
        v.as_array()
            .unwrap()
            .iter()
            .map(|t| tile(t.as_str().unwrap()))
            .collect()
    };
    let seat = (0..4)
        .find(|&s| {
            data["started"][s] == json!(true)
                && !data["concealed"][s].as_array().unwrap().is_empty()
        })
        .expect("the first player has started");
    let own = tiles_of(&data["concealed"][seat]);
    // A partner of one of the seat's tiles, held by a seat that has not started (or the reserve),
    // swapped for another of the seat's tiles: the counts stay right, only R5 is broken.
    let (holder, at, partner_tile, keep) = (0..4)
        .filter(|&s| s != seat)
        .map(|s| ("concealed", s))
        .chain([("reserve", 0)])
        .find_map(|(list, s)| {
            let tiles = if list == "reserve" {
                tiles_of(&data["reserve"])
            } else {
                tiles_of(&data["concealed"][s])
            };
            tiles.iter().enumerate().find_map(|(i, t)| {
                own.iter()
                    .position(|o| is_pair(*o, *t))
                    .map(|k| ((list, s), i, *t, k))
            })
        })
        .expect("some tile elsewhere pairs with the seat's");
    let mut forged = saved.clone();
    let d = &mut forged["data"];
    let given = own[(keep + 1) % own.len()];
    let mut hand_tiles: Vec<Tile> = own.clone();
    hand_tiles.retain(|t| *t != given);
    hand_tiles.push(partner_tile);
    hand_tiles.sort();
    d["concealed"][seat] = json!(hand_tiles.iter().map(|t| t.to_string()).collect::<Vec<_>>());
    let list = match holder {
        ("reserve", _) => &mut d["reserve"],
        (_, s) => &mut d["concealed"][s],
    };
    list[at] = json!(given.to_string());
    if holder.0 == "concealed" {
        let mut other = tiles_of(list);
        other.sort();
        *list = json!(other.iter().map(|t| t.to_string()).collect::<Vec<_>>());
    }
    let err = game.load(&forged).unwrap_err();
    assert_eq!(err.code(), "invalid_state");
    assert!(err.to_string().contains("R5"), "{err}");

    // The same hand out of order.
    let mut unsorted = saved.clone();
    let mut reversed = own.clone();
    reversed.reverse();
    unsorted["data"]["concealed"][seat] =
        json!(reversed.iter().map(|t| t.to_string()).collect::<Vec<_>>());
    let err = game.load(&unsorted).unwrap_err();
    assert_eq!(err.code(), "invalid_state");
    assert!(err.to_string().contains("not in order"), "{err}");
}
