//! Rulings (R1-R18) and worked examples (X1-X13) of `docs/rules/chinese_ten.md` (the
//! heuristic against random play: `strength.rs`).

use engine::cards::{Card, CardSet, PackSpec};
use engine::game::GameState;
use engine::game::{GameDef, Setup};
use engine::games::chinese_ten::ChineseTen;
use engine::games::chinese_ten::action::{Action, Cards};
use engine::games::chinese_ten::rules::Options;
use engine::games::chinese_ten::scoring;
use engine::games::chinese_ten::state::{State, main_merah_redeal};
use engine::options::merge_options;
use engine::rng::PlayoutRng;
use engine::{Match, NewGame, Viewer, registry};
use serde_json::{Map, Value, json};

use crate::support::act;

fn c(code: &str) -> Card {
    Card::parse(code).unwrap()
}

fn cs(list: &str) -> Vec<Card> {
    Card::parse_list(list).unwrap()
}

fn set(list: &str) -> CardSet {
    CardSet::from_cards(cs(list))
}

fn obj(v: Value) -> Map<String, Value> {
    v.as_object().cloned().unwrap_or_default()
}

/// A full stacked entry: `hands[s]` = the first cards of seat s, then the layout, then the stock
/// top first; every other position is filled with the unused cards in pack order.
fn entry(
    n: usize,
    dealer: usize,
    h: usize,
    hands: &[&str],
    layout: &str,
    stock: &str,
) -> Vec<String> {
    let mut slots: Vec<Option<Card>> = vec![None; 52];
    for (s, list) in hands.iter().enumerate() {
        for (k, card) in cs(list).into_iter().enumerate() {
            let i = k * n + (s + n - dealer - 1) % n;
            slots[i] = Some(card);
        }
    }
    for (j, card) in cs(layout).into_iter().enumerate() {
        slots[n * h + j] = Some(card);
    }
    let l = if n * h == 24 { 4 } else { 52 - 2 * n * h };
    for (j, card) in cs(stock).into_iter().enumerate() {
        slots[n * h + l + j] = Some(card);
    }
    let used = CardSet::from_cards(slots.iter().flatten().copied());
    let mut rest = PackSpec::standard()
        .cards()
        .into_iter()
        .filter(|c| !used.contains(*c));
    slots
        .into_iter()
        .map(|s| s.or_else(|| rest.next()).unwrap().to_string())
        .collect()
}

fn start(id: &str, n: usize, options: Value, deals: Vec<Vec<String>>) -> Box<dyn Match> {
    registry::find(id)
        .unwrap()
        .start(&NewGame {
            players: n,
            options: obj(options),
            seed: 7,
            deals,
        })
        .unwrap()
}

fn reason(m: &mut Box<dyn Match>, seat: usize, action: Value) -> String {
    m.apply(seat, &action).unwrap_err().reason().to_string()
}

fn play(card: &str, capture: &[&str]) -> Value {
    json!({"type": "play", "cards": [card], "capture": capture})
}

/// Plays the first legal action until the game ends; returns all events.
fn finish(m: &mut Box<dyn Match>) -> Vec<Value> {
    let mut events = Vec::new();
    while let Some(&seat) = m.to_act().first() {
        let action = m.legal_actions(seat)[0].clone();
        events.extend(act(m, seat, action));
    }
    events
}

fn options(id: &str, overrides: Value) -> Options {
    let family = ChineseTen::family();
    let preset = family.presets.iter().find(|p| p.id == id).unwrap();
    let merged = merge_options(&family.options, preset, &obj(overrides)).unwrap();
    serde_json::from_value(Value::Object(merged)).unwrap()
}

/// A 4-player game of preset `id` dealt from a stacked entry (typed, to compare whole states).
fn typed_dealt(id: &str, overrides: Value, deal: Vec<String>) -> State {
    ChineseTen::setup(
        &Setup {
            players: 4,
            options: options(id, overrides),
            seed: 3,
            deals: vec![deal],
        },
        &mut Vec::new(),
    )
    .unwrap()
}

fn legal(state: &State, seat: usize) -> Vec<Action> {
    let mut out = Vec::new();
    state.legal_actions(seat, &mut out);
    out
}

fn tplay(card: &str, capture: &str) -> Action {
    Action::Play {
        cards: Cards::one(c(card)),
        capture: Cards::of(&cs(capture)).unwrap_or_default(),
    }
}

// ---------------------------------------------------------------- worked examples

#[test]
fn x1_choice_of_target() {
    // 4 players, dealer 3: seat 0 plays first.
    let e = entry(4, 3, 6, &["7D KH 9C"], "3S 3H 8D KC", "");
    let mut m = start("chinese_ten", 4, json!({"first_dealer": 3}), vec![e]);
    let legal = m.legal_actions(0);
    assert!(legal.contains(&play("7D", &["3S"])));
    assert!(legal.contains(&play("7D", &["3H"])));
    assert_eq!(
        legal.iter().filter(|a| a["cards"] == json!(["7D"])).count(),
        2
    );
    assert_eq!(
        legal
            .iter()
            .filter(|a| a["cards"] == json!(["KH"]))
            .collect::<Vec<_>>(),
        vec![&play("KH", &["KC"])]
    );
    assert!(legal.contains(&play("9C", &[])));
    act(&mut m, 0, play("9C", &[]));
    let layout = &m.view(Viewer::Spectator)["layout"];
    assert!(layout.as_array().unwrap().contains(&json!("9C")));
}

/// R15: a card with several targets is listed once per target; the list names the targets in
/// card order (suits S, H, D, C), whatever order they arrived on the layout in
/// (docs/rules/chinese_ten.md, "Order of the legal list").
#[test]
fn r15_several_targets_listed_in_card_order() {
    let e = entry(4, 3, 6, &["7S"], "3C 2H 3H KD", "");
    let state = typed_dealt("chinese_ten", json!({"first_dealer": 3}), e);
    let plays: Vec<Action> = legal(&state, 0)
        .into_iter()
        .filter(|a| matches!(a, Action::Play { cards, .. } if cards[0] == cs("7S")[0]))
        .collect();
    assert_eq!(plays, vec![tplay("7S", "3H"), tplay("7S", "3C")]);
}

#[test]
fn x2_r5_compulsory_capture_free_card_choice() {
    // Seat 0 (dealer 3) holds 8S and 4C; the layout's KD and JC take only their own ranks.
    let e = entry(4, 3, 6, &["8S 4C"], "2H QS KD JC", "");
    let mut state = typed_dealt("chinese_ten", json!({"first_dealer": 3}), e);
    let choices: Vec<Action> = legal(&state, 0)
        .into_iter()
        .filter(|a| matches!(a, Action::Play { cards, .. } if set("8S 4C").contains(cards[0])))
        .collect();
    assert_eq!(choices, vec![tplay("4C", ""), tplay("8S", "2H")]);
    let before = state.clone();
    let err = state
        .apply(0, &tplay("8S", ""), &mut Vec::new())
        .unwrap_err();
    assert_eq!(err.reason(), "capture_compulsory");
    assert!(err.to_string().contains("8S"), "{err}");
    assert_eq!(state, before);
}

#[test]
fn x3_r7_trio_taken_by_the_fourth_card_from_hand_or_stock() {
    // From hand: seat 0 (dealer 3) holds QC.
    let e = entry(4, 3, 6, &["QC"], "QS QH QD 4C", "");
    let mut m = start("chinese_ten", 4, json!({"first_dealer": 3}), vec![e]);
    assert_eq!(m.view(Viewer::Spectator)["trio"], json!("Q"));
    assert_eq!(
        m.legal_actions(0)
            .iter()
            .filter(|a| a["cards"] == json!(["QC"]))
            .collect::<Vec<_>>(),
        vec![&play("QC", &["QS", "QH", "QD"])]
    );
    act(&mut m, 0, play("QC", &["QS", "QH", "QD"]));
    let v = m.view(Viewer::Spectator);
    assert_eq!(v["piles"][0].as_array().unwrap().len(), 4);
    assert_eq!(v["card_points"][0], json!(20));

    // From the stock during seat 2's turn (dealer 0: seat 1 plays first, then seat 2).
    let e = entry(4, 0, 6, &["", "2S", "3D"], "QS QH QD 4C", "9S QC");
    let mut m = start("chinese_ten", 4, json!({"first_dealer": 0}), vec![e]);
    act(&mut m, 1, play("2S", &[]));
    act(&mut m, 2, play("3D", &[]));
    let v = m.view(Viewer::Spectator);
    assert_eq!(v["piles"][2].as_array().unwrap().len(), 4);
    assert_eq!(v["card_points"][2], json!(20));
    assert_eq!(v["trio"], Value::Null);
}

#[test]
fn x4_four_of_a_kind_to_the_dealer() {
    let e = entry(4, 2, 6, &[], "5S 5H 5D 5C", "");
    let m = start("chinese_ten", 4, json!({"first_dealer": 2}), vec![e]);
    let v = m.view(Viewer::Spectator);
    assert_eq!(v["layout"], json!([]));
    assert_eq!(v["piles"][2], json!(["5S", "5H", "5D", "5C"]));
    assert_eq!(v["card_points"][2], json!(10));
    assert_eq!(m.to_act(), vec![3]);
}

#[test]
fn x5_stock_step_choice() {
    let e = entry(4, 0, 6, &["", "6C"], "4H 3C 3D JH", "7S");
    let mut m = start("chinese_ten", 4, json!({"first_dealer": 0}), vec![e]);
    act(&mut m, 1, play("6C", &["4H"]));
    assert_eq!(m.to_act(), vec![1]);
    // The targets in card order (suits S, H, D, C), not the layout's (3C arrived first).
    assert_eq!(
        m.legal_actions(1),
        vec![
            json!({"type": "capture", "cards": ["3D"]}),
            json!({"type": "capture", "cards": ["3C"]})
        ]
    );
    assert_eq!(reason(&mut m, 1, play("2C", &[])), "choose_stock_capture");
    act(&mut m, 1, json!({"type": "capture", "cards": ["3D"]}));
    let v = m.view(Viewer::Spectator);
    assert_eq!(v["card_points"][1], json!(7));
    assert_eq!(v["layout"], json!(["3C", "JH"]));
    assert_eq!(m.to_act(), vec![2]);
}

#[test]
fn x6_r2_three_and_four_player_scoring() {
    let o = options("chinese_ten", json!({}));
    let pile = set("AH AS 9D KH 5D 5S 2C 8H");
    assert_eq!(scoring::pile_points(&o, 3, pile), 83);
    assert!(83 >= scoring::par(&o, 3).unwrap());
    let mut four = pile;
    four.insert(c("AC"));
    assert_eq!(scoring::pile_points(&o, 4, four), 123);
}

#[test]
fn x7_r13_red_five_bonus() {
    let e = entry(4, 3, 6, &["5D"], "5H 2C 9S KD", "");
    let mut m = start(
        "chinese_ten_red_five",
        4,
        json!({"first_dealer": 3, "deals": 1}),
        vec![e],
    );
    act(&mut m, 0, play("5D", &["5H"]));
    assert_eq!(
        m.view(Viewer::Spectator)["red_five_captures"],
        json!([1, 0, 0, 0])
    );
    finish(&mut m);
    let result = m.result().unwrap();
    assert_eq!(
        result.details["last_deal"]["transfers"],
        json!([30, -10, -10, -10])
    );
    let pts = &result.details["last_deal"]["points"];
    let cards = &result.details["last_deal"]["card_points"];
    assert_eq!(pts[0].as_i64().unwrap(), cards[0].as_i64().unwrap() + 30);
    // Without the bonus preset, no transfer.
    let e = entry(4, 3, 6, &["5D"], "5H 2C 9S KD", "");
    let mut m = start(
        "chinese_ten",
        4,
        json!({"first_dealer": 3, "deals": 1}),
        vec![e],
    );
    finish(&mut m);
    assert_eq!(
        m.result().unwrap().details["last_deal"]["transfers"],
        json!([0, 0, 0, 0])
    );
}

#[test]
fn x8_r9_main_merah_redeal_checks() {
    assert!(main_merah_redeal(&cs("8S 8H 8C 2D 2S 4C 6D 9H AS KD QC TH")).is_some());
    assert!(main_merah_redeal(&cs("JS JH JD 4C 6D 9H AS KD QC TH 2C 3C")).is_some());
    assert!(main_merah_redeal(&cs("3S 3H 7D 7C 5H 2C 4D 9H KD QC TH JS")).is_none());
    // At the deal: the first entry is void and redealt by the same dealer with the next entry.
    let bad = entry(2, 0, 10, &[], "8S 8H 8C 2D 2S 4C 6D 9H AS KD QC TH", "");
    let good = entry(2, 0, 10, &["7H"], "3S 3H 7D 7C 5H 2C 4D 9H KD QC TH JS", "");
    let m = start(
        "chinese_ten_main_merah",
        2,
        json!({"first_dealer": 0}),
        vec![bad, good],
    );
    let v = m.view(Viewer::Seat(0));
    assert_eq!(v["dealer"], json!(0));
    assert_eq!(v["layout"].as_array().unwrap().len(), 12);
    assert_eq!(v["layout"][0], json!("3S"));
    assert!(v["hand"].as_array().unwrap().contains(&json!("7H")));
    assert_eq!(v["stock_size"], json!(20));
}

#[test]
fn x9_taiwan_race_ends_the_game_at_once() {
    // X9's piles (Taiwan card points, 4 players): seat 3 takes TD with TH and reaches 72.
    let o = options("chinese_ten_taiwan", json!({}));
    let before = [
        set("AH KH QH JH 8H"),
        set("AD JD 6D 5D"),
        set("AS"),
        set("9H 7H 6H 5H 4H QD KD"),
    ];
    let pts = before.map(|p| scoring::pile_points(&o, 4, p));
    assert_eq!(pts, [58, 41, 30, 52]);
    assert_eq!(scoring::race_reached(&o, 4, before[3]), None);
    let mut after = before;
    after[3] = CardSet(after[3].0 | set("TH TD").0);
    assert_eq!(scoring::race_reached(&o, 4, after[3]), Some(72));
    assert_eq!(
        scoring::deal_score(&o, &after, &[0; 4]).points.to_vec(),
        vec![58, 41, 30, 72]
    );
    // In play: the capture that reaches the target ends the game at once, its taker first.
    let races = taiwan_races(json!({}), 0..40);
    assert!(
        races.len() >= 5,
        "only {races:?} of 40 seeded games reached the target"
    );
}

/// Plays seeded random Taiwan race games; wherever a capture reaches the target, checks that the
/// game ends in that same action, the taker ranked first alone with the deal's points as scores.
/// Returns the (seat, points) of every race won.
fn taiwan_races(overrides: Value, seeds: std::ops::Range<u64>) -> Vec<(u64, i64)> {
    let mut races = Vec::new();
    for seed in seeds {
        let mut m = crate::support::start("chinese_ten_taiwan", 4, overrides.clone(), vec![], seed);
        let mut rng = PlayoutRng::new(seed);
        while let Some(&seat) = m.to_act().first() {
            let legal = m.legal_actions(seat);
            let events = act(&mut m, seat, legal[rng.below(legal.len())].clone());
            let Some(reached) = events.iter().find(|e| e["type"] == "target_reached") else {
                continue;
            };
            let points = reached["points"].as_i64().unwrap();
            let taker = reached["seat"].as_u64().unwrap() as usize;
            assert!(points >= 60, "{reached}");
            assert!(m.is_over(), "the race did not end the game");
            let scored = events.iter().find(|e| e["type"] == "deal_scored").unwrap();
            assert_eq!(scored["score"]["card_points"][taker], json!(points));
            let result = m.result().unwrap();
            assert_eq!(result.ranking[0], vec![taker]);
            let deal_points: Vec<f64> = scored["score"]["points"]
                .as_array()
                .unwrap()
                .iter()
                .map(|p| p.as_f64().unwrap())
                .collect();
            assert_eq!(result.scores, deal_points);
            races.push((seed, points));
        }
    }
    races
}

#[test]
fn x10_x12_r4_thai_scoring() {
    let pile = set("AS 9C KS 7C 3S AH KD");
    let black = options("chinese_ten_thai", json!({}));
    assert_eq!(scoring::pile_points(&black, 4, pile), 80);
    let nine = options("chinese_ten_thai", json!({"thai_nine": 9}));
    assert_eq!(scoring::pile_points(&nine, 4, pile), 79);
    let red = options("chinese_ten_thai", json!({"thai_low_cards": "red"}));
    assert_eq!(scoring::pile_points(&red, 4, pile), 70);
    let red9 = options(
        "chinese_ten_thai",
        json!({"thai_low_cards": "red", "thai_nine": 9}),
    );
    assert_eq!(scoring::pile_points(&red9, 4, pile), 69);
    assert_eq!(scoring::pile_points(&red, 4, set("5H 8D")), 13);
    assert_eq!(scoring::pile_points(&black, 4, set("5H 8D")), 0);
    let all = CardSet::from_cards(PackSpec::standard().cards());
    assert_eq!(scoring::pile_points(&black, 4, all), 220);
    assert_eq!(scoring::pile_points(&nine, 4, all), 218);
    assert_eq!(scoring::pile_points(&red, 2, all), 220);
}

#[test]
fn x11_r10_cutter_peeks_at_the_last_stock_card() {
    let e = entry(4, 2, 6, &[], "2C 3C 4C 6C", "");
    let last = e[51].clone();
    let mut m = start("chinese_ten", 4, json!({"first_dealer": 2}), vec![e]);
    assert_eq!(m.view(Viewer::Seat(1))["peek"], json!(last));
    for s in [0, 2, 3] {
        assert_eq!(m.view(Viewer::Seat(s))["peek"], Value::Null);
    }
    assert_eq!(m.view(Viewer::Spectator)["peek"], Value::Null);
    assert!(m.hidden_from(Viewer::Seat(0)).contains(&last));
    assert!(!m.hidden_from(Viewer::Seat(1)).contains(&last));
    // It is flipped on the 24th and last turn.
    let mut flips = Vec::new();
    while m.view(Viewer::Spectator)["deal"] == json!(1) && !m.is_over() {
        let seat = m.to_act()[0];
        let a = m.legal_actions(seat)[0].clone();
        for ev in act(&mut m, seat, a) {
            if ev["type"] == "flip" {
                flips.push(ev["card"].clone());
            }
        }
    }
    assert_eq!(flips.len(), 24);
    assert_eq!(flips[23], json!(last));
    let no_peek = start(
        "chinese_ten",
        4,
        json!({"first_dealer": 2, "cutter_peek": false}),
        vec![],
    );
    assert_eq!(no_peek.view(Viewer::Seat(1))["peek"], Value::Null);
}

#[test]
fn x13_r17_stacked_deal_order() {
    let mut e: Vec<String> = ["KH", "2S", "9D"].iter().map(|s| s.to_string()).collect();
    let full = entry(3, 0, 8, &[], "", "");
    for code in full {
        if !e.contains(&code) {
            e.push(code);
        }
    }
    let mut m = start(
        "chinese_ten",
        3,
        json!({"first_dealer": 0}),
        vec![e.clone()],
    );
    let hand = |m: &dyn Match, s: usize| m.view(Viewer::Seat(s))["hand"].clone();
    assert!(
        hand(m.as_ref(), 1)
            .as_array()
            .unwrap()
            .contains(&json!("KH"))
    );
    assert!(
        hand(m.as_ref(), 2)
            .as_array()
            .unwrap()
            .contains(&json!("2S"))
    );
    assert!(
        hand(m.as_ref(), 0)
            .as_array()
            .unwrap()
            .contains(&json!("9D"))
    );
    assert_eq!(m.view(Viewer::Spectator)["layout"], json!(e[24..28]));
    let a = m.legal_actions(1)[0].clone();
    let events = act(&mut m, 1, a);
    let flip = events.iter().find(|ev| ev["type"] == "flip").unwrap();
    assert_eq!(flip["card"], json!(e[28]));
    assert_eq!(flip["seat"], json!(1));
}

// ---------------------------------------------------------------- rulings

#[test]
fn r1_red_cards_score() {
    let o = options("chinese_ten", json!({}));
    let p = |code: &str| scoring::card_points(&o, 2, c(code));
    assert_eq!((p("5H"), p("5D"), p("5S"), p("5C")), (5, 5, 0, 0));
    assert_eq!((p("9H"), p("KD"), p("AH"), p("KS")), (10, 10, 20, 0));
}

#[test]
fn r2_black_aces_by_player_count_and_pars() {
    let o = options("chinese_ten", json!({}));
    let lit = options("chinese_ten", json!({"black_aces": "seed_literal"}));
    let all = CardSet::from_cards(PackSpec::standard().cards());
    let totals: Vec<i64> = (2..=4).map(|n| scoring::pile_points(&o, n, all)).collect();
    assert_eq!(totals, vec![210, 240, 280]);
    let pars: Vec<i64> = (2..=4).map(|n| scoring::par(&o, n).unwrap()).collect();
    assert_eq!(pars, vec![105, 80, 70]);
    assert_eq!(scoring::card_points(&lit, 3, c("AC")), 40);
    assert_eq!(scoring::card_points(&o, 3, c("AC")), 0);
    assert_eq!(scoring::pile_points(&lit, 3, all), 280);
    let tw = options("chinese_ten_taiwan", json!({}));
    assert_eq!(scoring::pile_points(&tw, 4, all), 240);
    assert_eq!(scoring::par(&tw, 4), Some(60));
}

#[test]
fn r3_r16_taiwan_race_always_has_a_winner_and_full_deal_plays_out() {
    for seed in 0..20u64 {
        let mut m = registry::find("chinese_ten_taiwan")
            .unwrap()
            .start(&NewGame {
                players: 4,
                seed,
                ..NewGame::default()
            })
            .unwrap();
        finish(&mut m);
        let r = m.result().unwrap();
        let winner = r.details["target_reached_by"]
            .as_u64()
            .expect("a race winner") as usize;
        assert_eq!(r.ranking[0], vec![winner]);
        let mut full = registry::find("chinese_ten_taiwan")
            .unwrap()
            .start(&NewGame {
                players: 4,
                seed,
                options: obj(json!({"taiwan_end": "full_deal"})),
                ..NewGame::default()
            })
            .unwrap();
        let events = finish(&mut full);
        assert_eq!(events.iter().filter(|e| e["type"] == "flip").count(), 24);
        let r = full.result().unwrap();
        assert_eq!(r.details["target_reached_by"], Value::Null);
        assert_eq!(r.scores.iter().sum::<f64>(), 240.0);
    }
    // `deals` other than 1 is refused for Taiwan.
    let err = registry::find("chinese_ten_taiwan")
        .unwrap()
        .start(&NewGame {
            players: 4,
            options: obj(json!({"deals": 2})),
            ..NewGame::default()
        })
        .unwrap_err();
    assert_eq!(err.code(), "invalid_options");
}

#[test]
fn r16_taiwan_race_counts_card_points_only() {
    let o = options("chinese_ten_taiwan", json!({"red_five_bonus": true}));
    // 54 card points; taking 5H with 5D adds 10 card points -> 64 >= 60 (the +30 transfer is not
    // what ends it), then transfers are settled.
    let pile = set("AH KH QH 9H 4H 5D 5H");
    assert_eq!(scoring::race_reached(&o, 4, pile), Some(64));
    let piles = [CardSet::EMPTY, CardSet::EMPTY, CardSet::EMPTY, pile];
    let score = scoring::deal_score(&o, &piles, &[0, 0, 0, 1]);
    assert_eq!(score.card_points[3], 64);
    assert_eq!(score.transfers.to_vec(), vec![-10, -10, -10, 30]);
    // 44 card points + a red-five capture (+10 card points) = 54 < 60: play goes on, though the
    // transfer would lift the seat to 84.
    let pile = set("AH KH 9H 4H 5D 5H");
    assert_eq!(scoring::pile_points(&o, 4, pile), 54);
    assert_eq!(scoring::race_reached(&o, 4, pile), None);
    // In play, with the bonus on: a race is never ended by a transfer.
    for (_, points) in taiwan_races(json!({"red_five_bonus": true}), 0..20) {
        assert!(points >= 60);
    }
}

#[test]
fn r6_base_and_main_merah_deals_end_with_an_empty_layout() {
    for (id, n) in [
        ("chinese_ten", 2),
        ("chinese_ten", 3),
        ("chinese_ten", 4),
        ("chinese_ten_main_merah", 2),
        ("chinese_ten_main_merah", 3),
    ] {
        for seed in 0..15u64 {
            let mut m = registry::find(id)
                .unwrap()
                .start(&NewGame {
                    players: n,
                    seed,
                    ..NewGame::default()
                })
                .unwrap();
            let mut rng = PlayoutRng::new(seed);
            while let Some(&seat) = m.to_act().first() {
                let legal = m.legal_actions(seat);
                let a = legal[rng.below(legal.len())].clone();
                for ev in act(&mut m, seat, a) {
                    if ev["type"] == "deal_scored" {
                        let sizes = ev["score"]["pile_sizes"].as_array().unwrap();
                        let total: u64 = sizes.iter().map(|s| s.as_u64().unwrap()).sum();
                        assert_eq!(total, 52, "{id}/{n} seed {seed}: cards left on the layout");
                    }
                }
            }
        }
    }
}

#[test]
fn r8_four_sevens_are_played_normally() {
    let e = entry(4, 3, 6, &["3C"], "7S 7H 7D 7C", "");
    let mut m = start("chinese_ten", 4, json!({"first_dealer": 3}), vec![e]);
    let v = m.view(Viewer::Spectator);
    assert_eq!(v["layout"].as_array().unwrap().len(), 4);
    assert_eq!(v["trio"], Value::Null);
    let threes: Vec<Value> = m
        .legal_actions(0)
        .into_iter()
        .filter(|a| a["cards"] == json!(["3C"]))
        .collect();
    assert_eq!(threes.len(), 4);
    act(&mut m, 0, play("3C", &["7H"]));
    assert_eq!(m.view(Viewer::Spectator)["piles"][0], json!(["3C", "7H"]));
}

#[test]
fn r12_won_deal_flags_and_r14_one_deal_per_player() {
    let mut m = start("chinese_ten", 3, json!({}), vec![]);
    let events = finish(&mut m);
    let scored: Vec<&Value> = events
        .iter()
        .filter(|e| e["type"] == "deal_scored")
        .collect();
    assert_eq!(scored.len(), 3);
    for ev in scored {
        let pts = ev["score"]["points"].as_array().unwrap();
        let flags = ev["score"]["won_deal"].as_array().unwrap();
        for (p, f) in pts.iter().zip(flags) {
            assert_eq!(f.as_bool().unwrap(), p.as_i64().unwrap() >= 80);
        }
    }
    let r = m.result().unwrap();
    let totals: Vec<i64> = r.scores.iter().map(|s| *s as i64).collect();
    assert_eq!(totals.iter().sum::<i64>(), 3 * 240);
    let mut m = start("chinese_ten_thai", 2, json!({"deals": 2}), vec![]);
    let events = finish(&mut m);
    let scored: Vec<&Value> = events
        .iter()
        .filter(|e| e["type"] == "deal_scored")
        .collect();
    assert_eq!(scored.len(), 2);
    assert_eq!(scored[0]["score"]["won_deal"], Value::Null);
}

#[test]
fn r15_capture_is_always_named() {
    let e = entry(4, 3, 6, &["7D 9C"], "3S 3H 8D KC", "");
    let mut m = start("chinese_ten", 4, json!({"first_dealer": 3}), vec![e]);
    let before = m.save();
    assert_eq!(
        reason(&mut m, 0, json!({"type": "play", "cards": ["7D"]})),
        "malformed_action"
    );
    assert_eq!(
        reason(&mut m, 0, play("7D", &["3S", "3H"])),
        "invalid_capture"
    );
    assert_eq!(reason(&mut m, 0, play("7D", &["8D"])), "invalid_capture");
    assert_eq!(reason(&mut m, 0, play("9C", &["3S"])), "invalid_capture");
    assert_eq!(reason(&mut m, 0, play("AD", &[])), "card_not_in_hand");
    assert_eq!(
        reason(&mut m, 0, json!({"type": "capture", "cards": ["3S"]})),
        "nothing_to_choose"
    );
    assert_eq!(
        reason(
            &mut m,
            0,
            json!({"type": "play", "cards": ["7D", "9C"], "capture": []})
        ),
        "play_one_card"
    );
    assert_eq!(m.save(), before);
}

#[test]
fn r17_first_dealer_is_fixed_or_refused() {
    let m = start("chinese_ten", 4, json!({"first_dealer": 2}), vec![]);
    assert_eq!(m.view(Viewer::Spectator)["dealer"], json!(2));
    assert_eq!(m.to_act(), vec![3]);
    let err = registry::find("chinese_ten")
        .unwrap()
        .start(&NewGame {
            players: 2,
            options: obj(json!({"first_dealer": 3})),
            ..NewGame::default()
        })
        .unwrap_err();
    assert_eq!(err.code(), "invalid_options");
}

#[test]
fn main_merah_sizes_and_lowest_scorer_deals() {
    for (n, hand, layout, stock) in [(2, 10, 12, 20), (3, 7, 10, 21)] {
        let m = start(
            "chinese_ten_main_merah",
            n,
            json!({"first_dealer": 0}),
            vec![],
        );
        let v = m.view(Viewer::Seat(0));
        assert_eq!(v["hand"].as_array().unwrap().len(), hand);
        assert_eq!(v["layout"].as_array().unwrap().len(), layout);
        assert_eq!(v["stock_size"], json!(stock));
    }
    let mut m = start(
        "chinese_ten_main_merah",
        3,
        json!({"first_dealer": 0}),
        vec![],
    );
    let mut last_points: Option<Vec<i64>> = None;
    let mut prev_dealer = 0usize;
    while let Some(&seat) = m.to_act().first() {
        let a = m.legal_actions(seat)[0].clone();
        for ev in act(&mut m, seat, a) {
            if ev["type"] == "deal_scored" {
                last_points = Some(
                    ev["score"]["points"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .map(|p| p.as_i64().unwrap())
                        .collect(),
                );
            }
            if ev["type"] == "deal" && ev["deal"] != json!(1) {
                let pts = last_points.clone().unwrap();
                let min = *pts.iter().min().unwrap();
                let expected = (1..=3)
                    .map(|k| (prev_dealer + k) % 3)
                    .find(|s| pts[*s] == min)
                    .unwrap();
                assert_eq!(ev["dealer"], json!(expected));
                prev_dealer = expected;
            }
        }
    }
}
