//! Rulings (R1-R34) and worked examples (B1-B18) of `docs/rules/basra.md` (the
//! heuristic against random play: `strength.rs`).

use engine::cards::{Card, CardSet, PackSpec};
use engine::common::capture::Layout;
use engine::game::GameState;
use engine::game::{GameDef, Setup};
use engine::games::basra::Basra;
use engine::games::basra::action::Event;
use engine::games::basra::action::{Action, Cards};
use engine::games::basra::rules::{GameEnd, Options};
use engine::games::basra::scoring;
use engine::games::basra::state::{Phase, State};
use engine::options::merge_options;
use engine::rng::PlayoutRng;
use engine::{Match, NewGame, Viewer, registry};
use serde_json::{Map, Value, json};

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

fn options(id: &str, overrides: Value) -> Options {
    let family = Basra::family();
    let preset = family.presets.iter().find(|p| p.id == id).unwrap();
    let merged = merge_options(&family.options, preset, &obj(overrides)).unwrap();
    serde_json::from_value(Value::Object(merged)).unwrap()
}

fn typed(id: &str, n: usize, overrides: Value) -> State {
    Basra::setup(
        &Setup {
            players: n,
            options: options(id, overrides),
            seed: 3,
            deals: vec![],
        },
        &mut Vec::new(),
    )
    .unwrap()
}

/// A stacked 2-player deal of four cards each: card i goes to seat dealer+1+i (R20), then the
/// floor of four (no jack or 7D, which would be buried).
fn entry(dealer: usize, hands: [&str; 2], floor: &str) -> Vec<String> {
    let hands = hands.map(cs);
    let mut out: Vec<String> = (0..8)
        .map(|i| hands[(dealer + 1 + i) % 2][i / 2].to_string())
        .collect();
    out.extend(cs(floor).iter().map(Card::to_string));
    out
}

/// A 2-player game of the `basra` preset dealt from `entry(dealer, hands, floor)`.
fn dealt(overrides: Value, dealer: usize, hands: [&str; 2], floor: &str) -> State {
    let mut overrides = obj(overrides);
    overrides.insert("first_dealer".into(), json!(dealer));
    Basra::setup(
        &Setup {
            players: 2,
            options: options("basra", Value::Object(overrides)),
            seed: 3,
            deals: vec![entry(dealer, hands, floor)],
        },
        &mut Vec::new(),
    )
    .unwrap()
}

fn k(opts: &Options, floor: &str, card: &str) -> Vec<CardSet> {
    let mut out = scoring::capture_sets(opts, &Layout::of(cs(floor)), c(card));
    out.sort_by_key(|s| s.0);
    out.to_vec()
}

fn sets(list: &[&str]) -> Vec<CardSet> {
    let mut out: Vec<CardSet> = list.iter().map(|l| set(l)).collect();
    out.sort_by_key(|s| s.0);
    out
}

fn apply(state: &mut State, seat: usize, action: Action) -> Vec<Event> {
    let mut events = Vec::new();
    state
        .apply(seat, &action, &mut events)
        .unwrap_or_else(|e| panic!("{action:?}: {e}"));
    events
}

fn legal(state: &State, seat: usize) -> Vec<Action> {
    let mut out = Vec::new();
    state.legal_actions(seat, &mut out);
    out
}

fn play(card: &str) -> Action {
    Action::Play {
        cards: Cards::one(c(card)),
    }
}

fn cap(card: &str) -> Action {
    Action::Capture {
        cards: Cards::one(c(card)),
    }
}

fn captured(events: &[Event]) -> Option<(CardSet, f64)> {
    events.iter().find_map(|e| match e {
        Event::Capture { cards, bonus, .. } => Some((CardSet::from_cards(cards.clone()), *bonus)),
        _ => None,
    })
}

/// Bonus in points of `card` capturing all of `floor` (or `taking`).
fn bonus(opts: &Options, card: &str, floor: &str, taking: Option<&str>) -> f64 {
    let taken = taking.map_or_else(|| set(floor), set);
    scoring::bonus(opts, c(card), &cs(floor), taken) as f64 / 2.0
}

fn start(id: &str, n: usize, opts: Value, deals: Vec<Vec<String>>) -> Box<dyn Match> {
    registry::find(id)
        .unwrap()
        .start(&NewGame {
            players: n,
            options: obj(opts),
            seed: 11,
            deals,
        })
        .unwrap()
}

fn finish(m: &mut Box<dyn Match>) -> Vec<Value> {
    let mut events = Vec::new();
    while let Some(&seat) = m.to_act().first() {
        let a = m.legal_actions(seat)[0].clone();
        events.extend(m.apply(seat, &a).unwrap().events);
    }
    events
}

fn egypt() -> Options {
    options("basra", json!({}))
}

// ---------------------------------------------------------------- worked examples

#[test]
fn b1_seed_example_sums_clear_the_floor() {
    let o = egypt();
    assert_eq!(k(&o, "AS 2H 6C 4D 5C", "9S"), sets(&["AS 2H 6C 4D 5C"]));
    // Seat 1 leads and trails the ace, making the seed's floor of five.
    let mut s = dealt(json!({}), 0, ["9S 3C KC KD", "AS QH QD QC"], "2H 6C 4D 5C");
    let trail = apply(&mut s, 1, play("AS"));
    assert!(captured(&trail).is_none());
    let ev = apply(&mut s, 0, play("9S"));
    assert_eq!(captured(&ev), Some((set("AS 2H 6C 4D 5C"), 10.0)));
    assert!(s.floor.is_empty());
    assert_eq!(s.bonus[0], 20);
}

#[test]
fn b2_same_rank_plus_sums() {
    assert_eq!(k(&egypt(), "5H 2C 3D 8S", "5C"), sets(&["5H 2C 3D"]));
    let mut s = dealt(json!({}), 1, ["5C 3C 9H 9D", "KH KS QH QS"], "5H 2C 3D 8S");
    let seat = 0;
    let ev = apply(&mut s, seat, play("5C"));
    assert_eq!(captured(&ev), Some((set("5H 2C 3D"), 0.0)));
    assert_eq!(s.floor.cards(), &cs("8S")[..]);
}

#[test]
fn b3_r2_several_same_rank_cards() {
    assert_eq!(k(&egypt(), "5H 5D KC", "5S"), sets(&["5H", "5D"]));
    let all = options("basra", json!({"same_rank_capture": "all"}));
    assert_eq!(k(&all, "5H 5D KC", "5S"), sets(&["5H 5D"]));
    let mut s = dealt(json!({}), 1, ["5S 3C 9H 9D", "KH KS QC QS"], "5H 5D KC QH");
    let seat = 0;
    apply(&mut s, seat, play("5S"));
    assert_eq!(legal(&s, seat), vec![cap("5H"), cap("5D")]);
    let ev = apply(&mut s, seat, cap("5D"));
    assert_eq!(captured(&ev), Some((set("5D"), 0.0)));
    assert_eq!(s.floor.cards(), &cs("5H KC QH")[..]);
}

#[test]
fn b4_tied_maximal_sets_chosen_step_by_step() {
    assert_eq!(
        k(&egypt(), "AS AH 2C 3D", "3S"),
        sets(&["3D AS 2C", "3D AH 2C"])
    );
    let mut s = dealt(json!({}), 1, ["3S 9C 9H 9D", "KH KS QC QS"], "AS AH 2C 3D");
    let seat = 0;
    apply(&mut s, seat, play("3S"));
    assert_eq!(
        legal(&s, seat),
        vec![cap("AS"), cap("AH"), cap("2C"), cap("3D")]
    );
    let mut alt = s.clone();
    let ev = apply(&mut alt, seat, cap("AH"));
    assert_eq!(captured(&ev), Some((set("AH 2C 3D"), 0.0)));
    apply(&mut s, seat, cap("3D"));
    assert_eq!(legal(&s, seat), vec![cap("AS"), cap("AH"), cap("2C")]);
    apply(&mut s, seat, cap("2C"));
    assert_eq!(legal(&s, seat), vec![cap("AS"), cap("AH")]);
    let ev = apply(&mut s, seat, cap("AS"));
    assert_eq!(captured(&ev), Some((set("AS 2C 3D"), 0.0)));
    assert_eq!(s.floor.cards(), &cs("AH")[..]);
}

#[test]
fn b5_r5_jack_sweeps_and_is_trailed_on_an_empty_floor() {
    let o = egypt();
    assert_eq!(k(&o, "3C KD", "JH"), sets(&["3C KD"]));
    assert_eq!(bonus(&o, "JH", "3C KD", None), 0.0);
    assert_eq!(k(&o, "", "JS"), sets(&[""]));
    // Seat 1's jack sweeps the floor; seat 0's jack then falls on an empty floor.
    let mut s = dealt(json!({}), 0, ["JS 9C 9H 9D", "JH KS QC QS"], "2C 3C 4C 6C");
    apply(&mut s, 1, play("JH"));
    assert!(s.floor.is_empty());
    let ev = apply(&mut s, 0, play("JS"));
    assert!(ev.iter().any(|e| matches!(e, Event::Trail { .. })));
    assert_eq!(s.floor.cards(), &cs("JS")[..]);
}

#[test]
fn b6_r6_r16_seven_of_diamonds_basras() {
    let o = egypt();
    assert_eq!(k(&o, "AS 2C 3H 5S", "7D"), sets(&["AS 2C 3H 5S"]));
    assert_eq!(bonus(&o, "7D", "AS 2C 3H 4S", None), 10.0);
    assert_eq!(bonus(&o, "7D", "AS 2C 3H 5S", None), 0.0);
    assert_eq!(bonus(&o, "7D", "2C QS", None), 0.0);
    let y = options("basra_yemen", json!({}));
    assert_eq!(bonus(&y, "7D", "AS 2C 3H 4S", None), 10.0);
    assert_eq!(bonus(&y, "7D", "AS 2C 7H 8S", None), 10.0);
    assert_eq!(bonus(&y, "7D", "TS QD", None), 10.0);
    assert_eq!(bonus(&y, "7D", "TS 2C", None), 0.0);
    assert_eq!(bonus(&y, "7D", "AS 2C 3H", None), 10.0); // (a) total 6 < 10
    assert_eq!(bonus(&y, "7D", "TS JD", None), 0.0); // (b) a jack breaks it
}

#[test]
fn b7_r5_a_trailed_seven_of_diamonds_is_a_plain_seven() {
    let mut s = dealt(json!({}), 0, ["7D 9C 9H 9S", "JH KS QC QS"], "2C 3C 4C 6C");
    apply(&mut s, 1, play("JH"));
    assert!(s.floor.is_empty());
    apply(&mut s, 0, play("7D"));
    assert_eq!(s.floor.cards(), &cs("7D")[..]);
    let o = egypt();
    assert_eq!(k(&o, "7D", "7C"), sets(&["7D"]));
    assert_eq!(bonus(&o, "7C", "7D", None), 10.0);
    assert_eq!(k(&o, "7D 3H", "TS"), sets(&["7D 3H"]));
    assert_eq!(bonus(&o, "TS", "7D 3H", None), 10.0);
}

#[test]
fn b8_r17_queens_and_kings() {
    let o = egypt();
    assert_eq!(bonus(&o, "QS", "QH", None), 10.0);
    assert_eq!(k(&o, "QH 4C", "QS"), sets(&["QH"]));
    assert_eq!(bonus(&o, "QS", "QH 4C", Some("QH")), 0.0);
    let e = options("basra_ethiopia", json!({}));
    assert_eq!(bonus(&e, "QS", "QH", None), 0.0);
    assert_eq!(bonus(&e, "KS", "KH", None), 10.0);
    assert_eq!(k(&o, "3C 4D", "KS"), sets(&[""]));
}

#[test]
fn b9_deal_scoring() {
    let pack: Vec<Card> = PackSpec::standard().cards();
    let side1 = set("AD AC JD JS 2S 3S 4S 5S 6S 7S 8S 9S TS QS KS 2H 3H 4H 5H 6H 7H 8H");
    assert_eq!(side1.len(), 22);
    let side0 = CardSet::from_cards(pack.into_iter().filter(|c| !side1.contains(*c)));
    assert_eq!(side0.len(), 30);
    let mut carry = 0;
    let (total, d) = scoring::score_deal(&egypt(), &[side0, side1], &[40, 20], &mut carry);
    assert_eq!(total, [118, 28]);
    assert_eq!(d.total, vec![59.0, 14.0]);
    assert_eq!(d.card_points, vec![9.0, 4.0]);
    assert_eq!(d.majority, vec![30.0, 0.0]);
}

#[test]
fn b10_r8_majority_carry() {
    let pack: Vec<Card> = PackSpec::standard().cards();
    let half = |n: usize| CardSet::from_cards(pack.iter().copied().take(n));
    let rest = |n: usize| CardSet::from_cards(pack.iter().copied().skip(n));
    let majority = |o: &Options, n: usize, carry: &mut u32| {
        scoring::score_deal(o, &[half(n), rest(n)], &[0, 0], carry)
            .1
            .majority
    };
    let mut carry = 0;
    assert_eq!(majority(&egypt(), 26, &mut carry), vec![0.0, 0.0]);
    assert_eq!(carry, 1);
    assert_eq!(majority(&egypt(), 24, &mut carry), vec![0.0, 60.0]);
    assert_eq!(carry, 0);
    // Variants: 3 points, no carry.
    let jordan = options("basra_jordan", json!({}));
    let mut carry = 0;
    assert_eq!(majority(&jordan, 26, &mut carry), vec![0.0, 0.0]);
    assert_eq!(carry, 0);
    assert_eq!(majority(&jordan, 27, &mut carry), vec![3.0, 0.0]);
}

#[test]
fn b11_r10_r11_pairing_bonuses() {
    let j = options("basra_jordan", json!({}));
    assert_eq!(bonus(&j, "7H", "7C", None), 14.0);
    assert_eq!(bonus(&j, "KS", "KD", None), 20.0);
    assert_eq!(bonus(&j, "JD", "JC", None), 0.0);
    assert_eq!(k(&j, "5C 2H", "7H"), sets(&["5C 2H"]));
    assert_eq!(bonus(&j, "7H", "5C 2H", None), 0.0);
    assert_eq!(bonus(&j, "7D", "7C", None), 14.0);
    assert_eq!(k(&j, "3H KD", "7D"), sets(&[""])); // not special in Jordan
    assert_eq!(bonus(&j, "AS", "AH", None), 2.0);
    let flat = options("basra_jordan", json!({"pairing_value": "seed_flat"}));
    assert_eq!(bonus(&flat, "AS", "AH", None), 20.0);
    assert_eq!(bonus(&flat, "7S", "7H", None), 14.0);
    assert_eq!(bonus(&flat, "TS", "TH", None), 20.0);
}

#[test]
fn b12_r15_lebanon() {
    let a = options("basra_lebanon_a", json!({}));
    assert_eq!(bonus(&a, "TS", "4H 6C", None), 10.0);
    assert_eq!(k(&a, "4H 6C 2S 8D", "TS"), sets(&["4H 6C 2S 8D"]));
    assert_eq!(bonus(&a, "TS", "4H 6C 2S 8D", None), 0.0);
    assert_eq!(bonus(&a, "JD", "JC", None), 10.0);
    assert_eq!(bonus(&a, "JD", "JC 4H", None), 0.0);
    let b = options("basra_lebanon_b", json!({}));
    assert_eq!(bonus(&b, "TS", "4H 6C", None), 0.0);
    assert_eq!(bonus(&b, "4S", "4H", None), 10.0);
    assert_eq!(bonus(&b, "JD", "JC", None), 10.0);
    assert!(!a.seven_d_special && !b.seven_d_special);
    assert_eq!(typed("basra_lebanon_a", 2, json!({})).hands[0].len(), 6);
}

#[test]
fn b13_r14_syria_jacks() {
    let o = options("basra_syria", json!({}));
    assert_eq!(scoring::card_points(&o, c("JS")), 25);
    assert_eq!(scoring::bonus(&o, c("JD"), &cs("JC"), set("JC")), 50);
    assert_eq!(
        scoring::pile_points(&o, set("JD JC")) + scoring::bonus(&o, c("JD"), &cs("JC"), set("JC")),
        100
    );
    assert_eq!(bonus(&o, "5S", "5H", None), 0.0); // no 10-point basra
    let jonly = options("basra_syria", json!({"syria_card_points": "j_only"}));
    assert_eq!(scoring::card_points(&jonly, c("TD")), 0);
    let full52 = options("basra_syria", json!({"deck": "52"}));
    assert_eq!(bonus(&full52, "QS", "QH", None), 6.0);
    assert_eq!(bonus(&full52, "KS", "KH", None), 8.0);
    let j_only_double = options("basra_syria", json!({"deck": "52", "syria_double": "J"}));
    assert_eq!(bonus(&j_only_double, "QS", "QH", None), 0.0);
}

#[test]
fn b14_r30_ladder() {
    // Totals in half-points, as the state keeps them.
    let ladder = options("basra", json!({"game_end": {"ladder": [51, 61, 71]}}));
    let decide = |o: &Options, totals: [i64; 2], step: &mut usize| {
        scoring::game_decision(&o.game_end, o.tie_rule, totals, step)
    };
    let mut step = 0;
    assert_eq!(decide(&ladder, [110, 116], &mut step), None);
    assert_eq!(step, 1);
    assert_eq!(decide(&ladder, [132, 118], &mut step), Some(Some(0)));
    let mut step = 0;
    assert_eq!(decide(&ladder, [150, 144], &mut step), Some(Some(0)));
    assert_eq!(step, 2);
    // Equal totals at the last step: a draw, even with sudden death (R30).
    let sudden = options(
        "basra",
        json!({"game_end": {"ladder": [51]}, "tie_rule": "sudden_death"}),
    );
    assert_eq!(decide(&sudden, [120, 120], &mut 0), Some(None));
}

#[test]
fn b15_r20_dealing_arithmetic() {
    let mut m = start("basra_partners", 4, json!({"first_dealer": 0}), vec![]);
    let v = m.view(Viewer::Seat(1));
    assert_eq!(
        (
            v["hand"].as_array().unwrap().len(),
            v["floor"].as_array().unwrap().len(),
            v["stock_size"].clone()
        ),
        (4, 4, json!(32))
    );
    let mut rounds = Vec::new();
    while m.view(Viewer::Spectator)["deal"] == json!(1) && !m.is_over() {
        let seat = m.to_act()[0];
        let a = m.legal_actions(seat)[0].clone();
        for e in m.apply(seat, &a).unwrap().events {
            if e["type"] == "round" {
                rounds.push(e["cards_each"].as_u64().unwrap());
            }
        }
    }
    assert_eq!(rounds, vec![4, 4]);
    let mut m = start(
        "basra_syria_partners",
        4,
        json!({"first_dealer": 0}),
        vec![],
    );
    let mut rounds = Vec::new();
    while m.view(Viewer::Spectator)["deal"] == json!(1) && !m.is_over() {
        let seat = m.to_act()[0];
        let a = m.legal_actions(seat)[0].clone();
        for e in m.apply(seat, &a).unwrap().events {
            if e["type"] == "round" {
                rounds.push(e["cards_each"].as_u64().unwrap());
            }
        }
    }
    assert_eq!(rounds, vec![4, 2]);
}

fn b18_entry() -> Vec<String> {
    let head = cs("2S 3S 4S 5S 6S 8S 9S TS JD 3C 4H 9H 6C");
    let mut out: Vec<String> = head.iter().map(|c| c.to_string()).collect();
    for card in PackSpec::standard().cards() {
        if !head.contains(&card) && card != c("7D") && card.rank() != c("JS").rank() {
            out.push(card.to_string());
        }
    }
    for extra in ["7D", "JS", "JH", "JC"] {
        out.push(extra.to_string());
    }
    out
}

#[test]
fn b16_r32_open_cut() {
    let e = b18_entry();
    let last = e[51].clone();
    let m = start(
        "basra_open_cut",
        2,
        json!({"first_dealer": 0, "bury_mode": "bottom"}),
        vec![e.clone()],
    );
    assert_eq!(m.view(Viewer::Seat(0))["peek"], json!(last));
    assert_eq!(m.view(Viewer::Seat(1))["peek"], json!(last));
    assert_eq!(m.view(Viewer::Spectator)["peek"], Value::Null);
    let m = start(
        "basra",
        2,
        json!({"first_dealer": 0, "bury_mode": "bottom"}),
        vec![e],
    );
    assert_eq!(m.view(Viewer::Seat(0))["peek"], json!(last));
    assert_eq!(m.view(Viewer::Seat(1))["peek"], Value::Null);
    assert!(m.hidden_from(Viewer::Seat(1)).contains(&last));
    // R32: the open cut cannot apply to 4 players.
    let err = registry::find("basra_partners")
        .unwrap()
        .start(&NewGame {
            players: 4,
            options: obj(json!({"open_cut": true})),
            ..NewGame::default()
        })
        .unwrap_err();
    assert_eq!(err.code(), "invalid_options");
    assert!(err.to_string().contains("open_cut"));
    assert!(
        registry::find("basra_partners")
            .unwrap()
            .start(&NewGame {
                players: 4,
                options: obj(json!({"open_cut": false})),
                ..NewGame::default()
            })
            .is_ok()
    );
}

#[test]
fn b17_r3_optional_sums_step_by_step() {
    let o = options("basra", json!({"sum_capture": "optional"}));
    assert_eq!(
        k(&o, "AS 4D 5C 8H", "9S"),
        sets(&["", "AS 8H", "4D 5C", "AS 8H 4D 5C"])
    );
    let mut s = dealt(
        json!({"sum_capture": "optional"}),
        1,
        ["9S 2C 9H 9D", "KH KS QC QS"],
        "AS 4D 5C 8H",
    );
    let seat = 0;
    apply(&mut s, seat, play("9S"));
    assert_eq!(
        legal(&s, seat),
        vec![cap("AS"), cap("4D"), cap("5C"), cap("8H"), Action::Pass {}]
    );
    let mut trail = s.clone();
    apply(&mut trail, seat, Action::Pass {});
    assert_eq!(trail.floor.cards(), &cs("AS 4D 5C 8H 9S")[..]);
    apply(&mut s, seat, cap("AS"));
    assert_eq!(legal(&s, seat), vec![cap("4D"), cap("5C"), cap("8H")]);
    apply(&mut s, seat, cap("8H"));
    assert_eq!(legal(&s, seat), vec![cap("4D"), cap("5C"), Action::Pass {}]);
    let mut stop = s.clone();
    let ev = apply(&mut stop, seat, Action::Pass {});
    assert_eq!(captured(&ev), Some((set("AS 8H"), 0.0)));
    assert_eq!(stop.floor.cards(), &cs("4D 5C")[..]);
    let ev = apply(&mut s, seat, cap("4D"));
    assert_eq!(captured(&ev), Some((set("AS 4D 5C 8H"), 10.0)));
    // Default maximal: one play takes all four.
    assert_eq!(k(&egypt(), "AS 4D 5C 8H", "9S"), sets(&["AS 4D 5C 8H"]));
}

#[test]
fn b18_r23_stacked_deal_with_burial() {
    let m = start(
        "basra",
        2,
        json!({"first_dealer": 0, "bury_mode": "bottom"}),
        vec![b18_entry()],
    );
    let hand = |s: usize| m.view(Viewer::Seat(s))["hand"].clone();
    assert_eq!(hand(1), json!(["2S", "4S", "6S", "9S"]));
    assert_eq!(hand(0), json!(["3S", "5S", "8S", "TS"]));
    let v = m.view(Viewer::Spectator);
    assert_eq!(v["floor"], json!(["3C", "4H", "9H", "6C"]));
    assert_eq!(v["buried"], json!(["JD"]));
    assert_eq!(m.to_act(), vec![1]);
    let data = &m.save()["data"];
    assert_eq!(
        data["stock"].as_array().unwrap().last().unwrap(),
        &json!("JD")
    );
}

// ---------------------------------------------------------------- rulings

#[test]
fn r1_r27_card_point_tables() {
    let o = egypt();
    let p = |x: &str| scoring::card_points(&o, c(x));
    assert_eq!(
        (
            p("TD"),
            p("TH"),
            p("2C"),
            p("2S"),
            p("AH"),
            p("JS"),
            p("7D")
        ),
        (6, 0, 4, 0, 2, 2, 0)
    );
    assert_eq!(
        scoring::pile_points(&o, CardSet::from_cards(PackSpec::standard().cards())),
        26
    );
    // R27: the Syrian doubling under Egypt's table doubles jacks worth 1 each.
    let mixed = options("basra", json!({"basra_rule": "syria"}));
    assert_eq!(bonus(&mixed, "JD", "JC", None), 2.0);
    assert_eq!(bonus(&mixed, "QD", "QC", None), 0.0);
    assert_eq!(bonus(&mixed, "5D", "5C", None), 0.0);
}

#[test]
fn r4_r25_bury_modes() {
    // JD dealt to the floor (position 8 of a 2-player deal).
    let e = b18_entry();
    let stock_of = |mode: &str, seed: u64| -> Vec<String> {
        let m = registry::find("basra")
            .unwrap()
            .start(&NewGame {
                players: 2,
                options: obj(json!({"first_dealer": 0, "bury_mode": mode})),
                seed,
                deals: vec![e.clone()],
            })
            .unwrap();
        serde_json::from_value(m.save()["data"]["stock"].clone()).unwrap()
    };
    let bottom = stock_of("bottom", 1);
    assert_eq!(bottom.last().unwrap(), "JD");
    assert_eq!(bottom.len(), 40);
    let mut positions = std::collections::BTreeSet::new();
    for seed in 0..30 {
        let stock = stock_of("random", seed);
        positions.insert(stock.iter().position(|x| x == "JD").unwrap());
        let b10 = stock_of("bottom10", seed);
        let at = b10.iter().position(|x| x == "JD").unwrap();
        assert!(at >= 40 - 11, "bottom10 put JD at {at}");
        assert_eq!(b10[..29], bottom[..29]);
    }
    assert!(positions.len() > 5, "random burial positions {positions:?}");
    assert_eq!(stock_of("random", 4), stock_of("random", 4));
}

#[test]
fn r7_basra_on_the_last_card() {
    // A whole stacked deck: seat 0 leads every round (dealer 1), so seat 1 plays the deal's last
    // card. Rounds 1-5 are played by the first legal action; in the last round seat 1's jack sweeps
    // the floor, seat 0 trails 5H on the empty floor and seat 1's 5S takes it: a basra on the last
    // card of the deal.
    let last_round = [["2D", "3D", "4D", "5H"], ["TD", "9D", "JS", "5S"]];
    let floor = cs("2C 3C 4C 6C");
    let fixed: Vec<Card> = last_round
        .iter()
        .flatten()
        .map(|x| c(x))
        .chain(floor.clone())
        .collect();
    let free: Vec<Card> = PackSpec::standard()
        .cards()
        .into_iter()
        .filter(|x| !fixed.contains(x))
        .collect();
    let mut deck: Vec<String> = free[..8].iter().map(Card::to_string).collect();
    deck.extend(floor.iter().map(Card::to_string));
    deck.extend(free[8..].iter().map(Card::to_string));
    for i in 0..8 {
        deck.push(last_round[i % 2][i / 2].to_string());
    }
    assert_eq!(deck.len(), 52);
    for (flag, expected) in [(true, 10.0), (false, 0.0)] {
        let mut s = Basra::setup(
            &Setup {
                players: 2,
                options: options(
                    "basra",
                    json!({"basra_on_last_card": flag, "first_dealer": 1}),
                ),
                seed: 5,
                deals: vec![deck.clone()],
            },
            &mut Vec::new(),
        )
        .unwrap();
        let first_legal = |s: &mut State, seat: usize| {
            let action = legal(s, seat).remove(0);
            apply(s, seat, action);
        };
        while !s.stock.is_empty() || s.hands[0].len() > 4 || s.hands[1].len() > 4 {
            let seat = s.turn;
            first_legal(&mut s, seat);
        }
        let mut events = Vec::new();
        for i in 0..8 {
            let seat = i % 2;
            assert_eq!(s.turn, seat);
            if seat == 1 && i / 2 == 2 {
                assert!(!s.floor.is_empty(), "the jack must sweep something");
            }
            events = apply(&mut s, seat, play(last_round[seat][i / 2]));
            while matches!(s.phase, Phase::Choose { .. }) {
                first_legal(&mut s, seat);
            }
            if seat == 1 && i / 2 == 2 {
                assert!(s.floor.is_empty());
            }
        }
        assert_eq!(captured(&events), Some((set("5H"), expected)));
    }
}

#[test]
fn r9_game_end_ties() {
    // Totals in half-points, as the state keeps them.
    let decide = |o: &Options, totals: [i64; 2]| {
        scoring::game_decision(&o.game_end, o.tie_rule, totals, &mut 0)
    };
    assert_eq!(decide(&egypt(), [210, 210]), Some(None));
    let lebanon = options("basra_lebanon_a", json!({}));
    assert_eq!(decide(&lebanon, [210, 210]), None);
    assert_eq!(decide(&lebanon, [212, 210]), Some(Some(0)));
    assert_eq!(decide(&egypt(), [200, 150]), None);
    assert_eq!(decide(&egypt(), [203, 205]), Some(Some(1)));
}

#[test]
fn r12_r13_forty_four_card_decks() {
    for id in ["basra_palestine", "basra_syria"] {
        let m = start(id, 2, json!({}), vec![]);
        assert_eq!(m.pieces().len(), 44);
        assert!(
            m.pieces()
                .iter()
                .all(|p| !p.starts_with('Q') && !p.starts_with('K'))
        );
        let err = registry::find(id)
            .unwrap()
            .start(&NewGame {
                players: 2,
                deals: vec![vec!["QS".into()]],
                ..NewGame::default()
            })
            .unwrap_err();
        assert_eq!(err.code(), "invalid_deals");
        let full = start(id, 2, json!({"deck": "52"}), vec![]);
        assert_eq!(full.pieces().len(), 52);
    }
    // R29(a): Q on a lone Q in Palestine with 52 cards scores 20.
    let p52 = options("basra_palestine", json!({"deck": "52"}));
    assert_eq!(bonus(&p52, "QS", "QH", None), 20.0);
}

#[test]
fn r19_three_players_are_refused() {
    for id in ["basra", "basra_partners"] {
        let err = registry::find(id)
            .unwrap()
            .start(&NewGame {
                players: 3,
                ..NewGame::default()
            })
            .unwrap_err();
        assert_eq!(err.code(), "invalid_players");
    }
}

#[test]
fn r21_choice_lists_stay_small() {
    for id in ["basra", "basra_partners", "basra_jordan"] {
        for seed in 0..20u64 {
            let n = if id.ends_with("partners") { 4 } else { 2 };
            let mut m = registry::find(id)
                .unwrap()
                .start(&NewGame {
                    players: n,
                    seed,
                    options: obj(json!({"sum_capture": "optional"})),
                    ..NewGame::default()
                })
                .unwrap();
            let mut rng = PlayoutRng::new(seed);
            while let Some(&seat) = m.to_act().first() {
                let legal = m.legal_actions(seat);
                let v = m.view(Viewer::Spectator);
                if v["pending"] != Value::Null {
                    assert!(legal.len() <= v["floor"].as_array().unwrap().len() + 1);
                } else {
                    assert!(legal.len() <= 6);
                }
                let a = legal[rng.below(legal.len())].clone();
                m.apply(seat, &a).unwrap();
            }
        }
    }
}

#[test]
fn r22_preset_columns_are_options() {
    let m = start(
        "basra_jordan",
        2,
        json!({"majority": "30_carry", "hand_size": 6}),
        vec![],
    );
    assert_eq!(m.options()["majority"], json!("30_carry"));
    assert_eq!(m.options()["basra_rule"], json!("pairing"));
    let err = registry::find("basra_jordan")
        .unwrap()
        .start(&NewGame {
            players: 2,
            options: obj(json!({"ruleset": "egypt"})),
            ..NewGame::default()
        })
        .unwrap_err();
    assert_eq!(err.code(), "invalid_options");
    let syria = start("basra_syria", 2, json!({}), vec![]);
    assert_eq!(syria.options()["deck"], json!("44_no_qk"));
    assert_eq!(syria.options()["seven_d_special"], json!(true));
}

#[test]
fn r24_rubbers() {
    for (rubber, seed) in [("parlett", 1u64), ("seed", 2)] {
        let mut m = registry::find("basra")
            .unwrap()
            .start(&NewGame {
                players: 2,
                seed,
                options: obj(json!({"rubber": rubber})),
                ..NewGame::default()
            })
            .unwrap();
        let events = finish(&mut m);
        let r = m.result().unwrap();
        let won: Vec<u64> = r.details["games_won"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_u64().unwrap())
            .collect();
        let w = r.details["winner_side"].as_u64().unwrap() as usize;
        assert_eq!(won[w], 3);
        assert_eq!(r.ranking, vec![vec![w], vec![1 - w]]);
        assert_eq!(r.scores[w], 3.0);
        let games = events.iter().filter(|e| e["type"] == "game_ended").count() as u64;
        assert!(games >= won[0] + won[1]);
        if rubber == "seed" {
            for e in events
                .iter()
                .filter(|e| e["type"] == "game_ended" && e["winner"] != Value::Null)
            {
                let t = e["totals"].as_array().unwrap();
                assert!(t.iter().any(|x| x.as_f64().unwrap() >= 150.0));
            }
        }
    }
    let parlett = options("basra", json!({"rubber": "parlett"}));
    assert_eq!(
        scoring::effective_end(&parlett, &[2, 1]),
        GameEnd::Target(101)
    );
    assert_eq!(
        scoring::effective_end(&parlett, &[2, 2]),
        GameEnd::Target(150)
    );
}

#[test]
fn r26_entries_beyond_and_surplus() {
    let e = b18_entry();
    let mut m = start(
        "basra",
        2,
        json!({"first_dealer": 0, "bury_mode": "bottom"}),
        vec![
            e.clone(),
            e.clone(),
            e.clone(),
            e.clone(),
            e.clone(),
            e.clone(),
            e.clone(),
            e.clone(),
            e.clone(),
            e.clone(),
            e.clone(),
            e.clone(),
            e.clone(),
            e.clone(),
            e.clone(),
            e.clone(),
            e.clone(),
            e.clone(),
            e.clone(),
            e.clone(),
        ],
    );
    finish(&mut m);
    assert!(m.result().is_some());
    let mut m = start(
        "basra",
        2,
        json!({"first_dealer": 0, "bury_mode": "bottom"}),
        vec![e],
    );
    let events = finish(&mut m);
    assert!(events.iter().filter(|e| e["type"] == "deal").count() >= 1);
    assert!(m.result().is_some());
}

#[test]
fn r28_yemen_single_card_groups() {
    let y = options("basra_yemen", json!({}));
    assert_eq!(bonus(&y, "7D", "9S 4H 5C", None), 10.0);
    assert_eq!(bonus(&y, "7D", "5S 5H", None), 10.0);
    assert_eq!(bonus(&egypt(), "7D", "5S 5H", None), 10.0); // Egypt: total 10 <= 10
    assert_eq!(bonus(&y, "7D", "9S 4H 6C", None), 0.0);
    assert_eq!(bonus(&y, "JD", "JC", None), 20.0);
    assert_eq!(bonus(&y, "JD", "JC 3H", None), 0.0);
}

#[test]
fn r29_pairing_with_the_special_seven() {
    let o = options("basra_jordan", json!({"seven_d_special": true}));
    assert_eq!(k(&o, "7C", "7D"), sets(&["7C"]));
    assert_eq!(bonus(&o, "7D", "7C", None), 14.0);
    assert_eq!(bonus(&o, "7D", "5C", None), 0.0);
    let flat = options(
        "basra_jordan",
        json!({"seven_d_special": true, "pairing_value": "seed_flat"}),
    );
    assert_eq!(bonus(&flat, "7D", "7C", None), 14.0);
}

#[test]
fn r31_partners_share_rank_and_score() {
    let mut m = start("basra_partners", 4, json!({}), vec![]);
    finish(&mut m);
    let r = m.result().unwrap();
    assert_eq!(r.teams, Some(vec![vec![0, 2], vec![1, 3]]));
    assert_eq!(r.scores[0], r.scores[2]);
    assert_eq!(r.scores[1], r.scores[3]);
    for group in &r.ranking {
        let sides: std::collections::BTreeSet<usize> = group.iter().map(|s| s % 2).collect();
        for side in sides {
            assert!(group.contains(&side) && group.contains(&(side + 2)));
        }
    }
    // Syria: half points appear in the scores.
    let mut half_seen = false;
    for seed in 0..10 {
        let mut m = registry::find("basra_syria")
            .unwrap()
            .start(&NewGame {
                players: 2,
                seed,
                ..NewGame::default()
            })
            .unwrap();
        finish(&mut m);
        half_seen |= m.result().unwrap().scores.iter().any(|s| s.fract() == 0.5);
    }
    assert!(half_seen);
}

#[test]
fn r33_game_end_forms() {
    let bad = [
        json!({"target": 0}),
        json!({"ladder": []}),
        json!({"target": 101, "ladder": [51]}),
        json!({"goal": 101}),
        json!({"target": 1.5}),
        json!(101),
    ];
    for value in bad {
        let err = registry::find("basra")
            .unwrap()
            .start(&NewGame {
                players: 2,
                options: obj(json!({"game_end": value.clone()})),
                ..NewGame::default()
            })
            .unwrap_err();
        assert_eq!(err.code(), "invalid_options", "{value}");
    }
    let m = start("basra", 2, json!({"game_end": {"target": 121}}), vec![]);
    assert_eq!(m.options()["game_end"], json!({"target": 121}));
    let m = start(
        "basra",
        2,
        json!({"game_end": {"ladder": [51, 61, 71]}}),
        vec![],
    );
    assert_eq!(m.options()["game_end"], json!({"ladder": [51, 61, 71]}));
}

#[test]
fn r34_pending_choice_when_the_hands_run_out() {
    // Seat 0 (the dealer) plays the last card of the round with a choice pending: every card
    // before it falls on the floor or takes only its own rank.
    let mut s = dealt(json!({}), 0, ["8C 6C QD 5S", "9C 7C 4C KD"], "5H 5D KC QC");
    for (seat, card) in [
        (1, "9C"),
        (0, "8C"),
        (1, "7C"),
        (0, "6C"),
        (1, "4C"),
        (0, "QD"),
        (1, "KD"),
    ] {
        apply(&mut s, seat, play(card));
    }
    assert!(s.floor.contains(c("5H")) && s.floor.contains(c("5D")));
    assert_eq!(s.hands[1].len(), 0);
    let stock_before = s.stock.len();
    apply(&mut s, 0, play("5S"));
    assert!(matches!(s.phase, Phase::Choose { .. }));
    assert_eq!(s.stock.len(), stock_before);
    assert_eq!(s.to_act(), engine::Actors::One(0));
    let ev = apply(&mut s, 0, cap("5H"));
    assert!(
        ev.iter()
            .any(|e| matches!(e, Event::Round { cards_each: 4 }))
    );
    assert_eq!(s.turn, 1);
    assert_eq!(s.hands[1].len(), 4);
}

#[test]
fn errors_name_the_cards_and_leave_the_state() {
    let mut s = dealt(json!({}), 1, ["5S 9C 9H 9D", "KH KS QC QS"], "5H 5D KC QH");
    let seat = 0;
    let before = s.clone();
    let err = |s: &mut State, a: Action| s.apply(seat, &a, &mut Vec::new()).unwrap_err();
    assert_eq!(err(&mut s, play("AD")).reason(), "card_not_in_hand");
    assert_eq!(err(&mut s, Action::Pass {}).reason(), "nothing_to_choose");
    assert_eq!(
        err(
            &mut s,
            Action::Play {
                cards: Cards::of(&cs("5S 9C")).unwrap_or_default()
            }
        )
        .reason(),
        "play_one_card"
    );
    assert_eq!(s, before);
    apply(&mut s, seat, play("5S"));
    let before = s.clone();
    let e = err(&mut s, Action::Pass {});
    assert_eq!(e.reason(), "capture_incomplete");
    assert_eq!(err(&mut s, cap("KC")).reason(), "not_capturable");
    assert_eq!(err(&mut s, play("9C")).reason(), "finish_capture");
    assert!(e.to_string().contains("5S"), "{e}");
    assert_eq!(s, before);
}

#[test]
fn r15_lebanon_buries_only_jacks() {
    // Floor dealt as JD 7D 4H 9H (positions 8..11 of a 2-player deal).
    let head = cs("2S 3S 4S 5S 6S 8S 9S TS JD 7D 4H 9H 6C");
    let mut e: Vec<String> = head.iter().map(|c| c.to_string()).collect();
    for card in PackSpec::standard().cards() {
        if !head.contains(&card) {
            e.push(card.to_string());
        }
    }
    let leb = start(
        "basra_lebanon_a",
        2,
        json!({"first_dealer": 0, "bury_mode": "bottom", "hand_size": 4}),
        vec![e.clone()],
    );
    assert_eq!(
        leb.view(Viewer::Spectator)["floor"],
        json!(["7D", "4H", "9H", "6C"])
    );
    assert_eq!(leb.view(Viewer::Spectator)["buried"], json!(["JD"]));
    let egy = start(
        "basra",
        2,
        json!({"first_dealer": 0, "bury_mode": "bottom"}),
        vec![e],
    );
    assert_eq!(egy.view(Viewer::Spectator)["buried"], json!(["JD", "7D"]));
    assert_eq!(
        egy.view(Viewer::Spectator)["floor"]
            .as_array()
            .unwrap()
            .len(),
        4
    );
}

#[test]
fn r25_no_draw_when_nothing_is_buried() {
    // A floor without jacks or the 7D: every bury mode leaves the same stock and RNG count.
    let head = cs("2S 3S 4S 5S 6S 8S 9S TS 3C 4H 9H 6C");
    let mut e: Vec<String> = head.iter().map(|c| c.to_string()).collect();
    for card in PackSpec::standard().cards() {
        if !head.contains(&card) {
            e.push(card.to_string());
        }
    }
    let data = |mode: &str| {
        start(
            "basra",
            2,
            json!({"first_dealer": 0, "bury_mode": mode}),
            vec![e.clone()],
        )
        .save()["data"]
            .clone()
    };
    let (r, b, b10) = (data("random"), data("bottom"), data("bottom10"));
    assert_eq!(r["stock"], b["stock"]);
    assert_eq!(b10["stock"], b["stock"]);
    assert_eq!(r["table"]["rng"], b["table"]["rng"]);
    assert_eq!(b10["table"]["rng"], b["table"]["rng"]);
}

/// Issue 11 item 6: `basra` with 4 players names the partnership id in its refusal, and the
/// catalog entry lists it among the ids for other player counts.
#[test]
fn issue11_basra_four_players_names_the_partnership_id() {
    let game = registry::find("basra").unwrap();
    let err = game
        .start(&NewGame {
            players: 4,
            ..NewGame::default()
        })
        .unwrap_err();
    assert_eq!(err.code(), "invalid_players");
    assert!(err.to_string().contains("basra_partners"), "{err}");
    let entry = serde_json::to_value(game.info()).unwrap();
    assert!(
        entry["for_other_players"]
            .as_array()
            .unwrap()
            .contains(&json!({"id": "basra_partners", "players": {"min": 4, "max": 4}})),
        "{entry}"
    );
    registry::find("basra_partners")
        .unwrap()
        .start(&NewGame {
            players: 4,
            ..NewGame::default()
        })
        .unwrap();
}
