//! Watten rules: every worked example of `docs/rules/watten.md` and the testable rulings,
//! with stacked deals through the erased API (and the typed roles where an example is a ranking).

use engine::cards::{Card, CardSet, Rank, Suit};
use engine::games::watten::Watten;
use engine::games::watten::rules::Options;
use engine::games::watten::scoring::Roles;
use engine::{ActionError, GameDef, Match, NewGame, Viewer, registry};
use serde_json::{Map, Value, json};

use crate::support::act;

fn c(code: &str) -> Card {
    Card::parse(code).unwrap()
}

fn cards(codes: &str) -> Vec<Card> {
    Card::parse_list(codes).unwrap()
}

fn set(codes: &str) -> CardSet {
    CardSet::from_cards(cards(codes))
}

fn obj(v: Value) -> Map<String, Value> {
    v.as_object().cloned().unwrap_or_default()
}

/// Typed options of a game id with request options.
fn options(id: &str, players: usize, opts: Value) -> Options {
    let game = registry::find(id).unwrap();
    let m = game
        .start(&NewGame {
            players,
            options: obj(opts),
            ..NewGame::default()
        })
        .unwrap();
    serde_json::from_value(m.options()).unwrap()
}

fn roles(id: &str, opts: Value, s: Option<&str>, t: &str) -> Roles {
    let o = options(id, 4, opts);
    Roles::new(
        &o,
        s.map(|s| Rank::from_code(s).unwrap()),
        Suit::from_code(t).unwrap(),
    )
}

/// Asserts the listed cards rank strictly in that order, `=` joining equals (as trump-like cards).
fn assert_order(r: &Roles, order: &str) {
    let led = Card::JOKER;
    let mut prev: Option<(u8, u8)> = None;
    let mut equal_next = false;
    for token in order.split_whitespace() {
        if token == "=" {
            equal_next = true;
            continue;
        }
        let k = r.key(c(token), led, false).unwrap_or((0, 0));
        if let Some(p) = prev {
            if equal_next {
                assert_eq!(k, p, "{token} should equal its predecessor in {order}");
            } else {
                assert!(
                    k < p,
                    "{token} should rank below its predecessor in {order}"
                );
            }
        }
        equal_next = false;
        prev = Some(k);
    }
}

/// Builds a deal sequence: an optional cut prefix, then 3+2 packets from E round to the dealer.
/// `hands` is indexed by seat; `dealer` deals; `cutter_short` = number of criticals the cutter
/// already took (its packets shrink, §2.7).
fn sequence(
    prefix: &str,
    hands: &[&str],
    dealer: usize,
    cutter: Option<(usize, usize)>,
) -> Vec<String> {
    let n = hands.len();
    let hands: Vec<Vec<String>> = hands
        .iter()
        .map(|h| h.split_whitespace().map(String::from).collect())
        .collect();
    let mut seq: Vec<String> = prefix.split_whitespace().map(String::from).collect();
    let mut taken = vec![0usize; n];
    for round in 0..2 {
        for i in 0..n {
            let seat = (dealer + 1 + i) % n;
            let mut size = if round == 0 { 3 } else { 2 };
            if let Some((cs, c)) = cutter
                && cs == seat
                && c > 0
            {
                let first = 3usize.saturating_sub(c);
                size = if round == 0 { first } else { 5 - c - first };
            }
            for _ in 0..size {
                seq.push(hands[seat][taken[seat]].clone());
                taken[seat] += 1;
            }
        }
    }
    seq
}

fn start(id: &str, players: usize, opts: Value, deals: Vec<Vec<String>>) -> Box<dyn Match> {
    registry::find(id)
        .unwrap()
        .start(&NewGame {
            players,
            options: obj(opts),
            seed: 7,
            deals,
        })
        .unwrap()
}

fn reason(m: &mut Box<dyn Match>, seat: usize, action: Value) -> String {
    let before = m.save();
    let err = m.apply(seat, &action).unwrap_err();
    assert_eq!(m.save(), before, "a refused action changed the state");
    match err {
        ActionError::Illegal { reason, .. } => reason.to_string(),
        other => other.code().to_string(),
    }
}

fn plays(m: &dyn Match, seat: usize) -> Vec<String> {
    let mut out: Vec<String> = m
        .legal_actions(seat)
        .iter()
        .filter(|a| a["type"] == "play")
        .map(|a| a["cards"][0].as_str().unwrap().to_string())
        .collect();
    out.sort();
    out
}

fn sorted(codes: &str) -> Vec<String> {
    let mut v: Vec<String> = codes.split_whitespace().map(String::from).collect();
    v.sort();
    v
}

fn scores(m: &dyn Match) -> Vec<i64> {
    m.view(Viewer::Spectator)["scores"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_i64().unwrap())
        .collect()
}

/// Plays one deal so that the seats for which `wins` holds take it by a fold: every naming and
/// card is the first legal one; the winners raise at their first chance and the others fold.
fn win_deal(m: &mut Box<dyn Match>, wins: impl Fn(usize) -> bool) {
    let deal = m.view(Viewer::Spectator)["deal"].clone();
    while m.view(Viewer::Spectator)["deal"] == deal && !m.is_over() {
        let seat = m.to_act()[0];
        let legal = m.legal_actions(seat);
        let of = |kind: &str| legal.iter().find(|a| a["type"] == kind).cloned();
        let chosen = if wins(seat) { of("raise") } else { of("fold") };
        let action = chosen.unwrap_or_else(|| {
            legal
                .iter()
                .find(|a| a["type"] != "raise" && a["type"] != "fold")
                .unwrap()
                .clone()
        });
        act(m, seat, action);
    }
}

/// A game of `players` whose first deals are won by fold as `winners` says (each a predicate on
/// seats, 2 points a deal), then dealt `last` with seat `dealer` dealing (R49: the deal passes
/// to the next seat). Scores are reached by play, never edited.
fn after_deals(
    id: &str,
    players: usize,
    options: Value,
    winners: &[fn(usize) -> bool],
    dealer: usize,
    last: Vec<String>,
) -> Box<dyn Match> {
    let mut options = obj(options);
    let first = (dealer + players * winners.len() - winners.len()) % players;
    options.insert("first_dealer".into(), json!(first));
    let mut deals = vec![Vec::new(); winners.len()];
    deals.push(last);
    let mut m = start(id, players, Value::Object(options), deals);
    for wins in winners {
        win_deal(&mut m, wins);
    }
    assert_eq!(m.view(Viewer::Spectator)["dealer"], json!(dealer));
    m
}

fn side_a(seat: usize) -> bool {
    seat.is_multiple_of(2)
}

fn side_b(seat: usize) -> bool {
    seat % 2 == 1
}

fn name(m: &mut Box<dyn Match>, e: usize, dealer: usize, s: &str, t: &str) {
    act(m, e, json!({"type":"declare","schlag": s}));
    act(m, dealer, json!({"type":"declare","trump": t}));
}

// Standard 4p Bavarian hands (dealer 0, E 1, cutter 3) used when only a few cards matter.
const SHOWN: &str = "8C";

// ---------------------------------------------------------------- Bavarian

#[test]
fn b1_equal_blinde_first_played_wins() {
    let r = roles("watten", json!({}), Some("9"), "H");
    let trick = [(1, c("9S")), (2, c("AH")), (3, c("9C")), (0, c("8D"))];
    assert_eq!(trick[r.winner(&trick)].0, 1);
    let trick = [(1, c("9S")), (2, c("AH")), (3, c("9C")), (0, c("7C"))];
    assert_eq!(trick[r.winner(&trick)].0, 0);
}

fn b2_game() -> Box<dyn Match> {
    let hands = [
        "JH 9C 7D AS AC",
        "9H KS QS JS TS",
        "AH 9S 7C QD 8S",
        "8H JD QC TC 8D",
    ];
    let seq = sequence(SHOWN, &hands, 0, None);
    let mut m = start("watten", 4, json!({}), vec![seq]);
    name(&mut m, 1, 0, "9", "H");
    m
}

#[test]
fn b2_trick_one_duty_released_by_a_critical() {
    let mut m = b2_game();
    act(&mut m, 1, json!({"type":"play","cards":["9H"]}));
    assert_eq!(plays(m.as_ref(), 2), sorted("AH 9S 7C"));
    assert_eq!(
        reason(&mut m, 2, json!({"type":"play","cards":["QD"]})),
        "must_give_trump"
    );
    act(&mut m, 2, json!({"type":"play","cards":["7C"]}));
    assert_eq!(plays(m.as_ref(), 3), sorted("8H JD QC TC 8D"));
    act(&mut m, 3, json!({"type":"play","cards":["8H"]}));
    assert_eq!(plays(m.as_ref(), 0), sorted("JH 9C 7D AS AC"));
    let events = act(&mut m, 0, json!({"type":"play","cards":["AS"]}));
    assert!(events.contains(&json!({"type":"trick_won","seat":2})));
}

#[test]
fn b3_criticals_satisfy_but_are_never_forced() {
    let hands = [
        "JH 9C 7D AS AC",
        "9H KS QS JS TS",
        "AH 9S 7C QD 8S",
        "KH 8D JS QC TC",
    ];
    // JS twice is impossible: seat 1 gets other spades.
    let hands = [hands[0], "9H KS QS TS 8C", hands[2], hands[3]];
    let seq = sequence("7S", &hands, 0, None);
    let mut m = start("watten", 4, json!({}), vec![seq]);
    name(&mut m, 1, 0, "9", "H");
    act(&mut m, 1, json!({"type":"play","cards":["9H"]}));
    act(&mut m, 2, json!({"type":"play","cards":["AH"]}));
    assert_eq!(plays(m.as_ref(), 3), sorted("KH 8D JS QC TC"));
    let mut alt = m.clone_match();
    act(&mut m, 3, json!({"type":"play","cards":["8D"]}));
    assert_eq!(plays(m.as_ref(), 0), sorted("JH 9C 7D"));
    act(&mut alt, 3, json!({"type":"play","cards":["KH"]}));
    assert_eq!(plays(alt.as_ref(), 0), sorted("JH 9C 7D AS AC"));
}

#[test]
fn b4_hauptschlag_coinciding_with_a_critical_does_not_exist() {
    let r = roles("watten", json!({}), Some("K"), "H");
    assert_eq!(r.rechte, None);
    assert_eq!(r.linke, set("KS KD KC"));
    assert_eq!(r.trs, set("AH QH JH TH 9H 8H 7H"));
    // No duty: KS led to trick 1, every follower free.
    let o = options("watten", 4, json!({}));
    let hand = set("AH 8S QD TC 9C");
    assert_eq!(r.legal_follow(&o, hand, &[(1, c("KS"))], 0, true), hand);
    let r = roles("watten", json!({}), Some("7"), "D");
    assert_eq!(r.rechte, None);
    assert_eq!(r.linke, set("7S 7H"));
    assert_eq!(r.trs, set("AD KD QD JD TD 9D 8D"));
}

#[test]
fn b5_cut_gives_criticals_to_the_cutter() {
    let rest = "AS KS QS JS TS 9H 8S 7S AH QH JH TH AD KD QD JD TD 9D";
    let seq: Vec<String> = format!("7D KH 9S {rest}")
        .split_whitespace()
        .map(String::from)
        .collect();
    let c_ = |i: usize| seq[2 + i].clone(); // c1 = q3
    let m = start("watten", 4, json!({}), vec![seq.clone()]);
    let v3 = m.view(Viewer::Seat(3));
    assert_eq!(v3["cut_taken"], json!(["7D", "KH"]));
    assert_eq!(v3["cut_shown"], json!("9S"));
    assert_eq!(
        v3["hand"],
        Value::Null,
        "seat 3 sees only the public criticals before naming"
    );
    let saved = m.save();
    let hand3: Vec<String> = saved["data"]["deal"]["hands"][3]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap().to_string())
        .collect();
    let mut want = vec!["7D".into(), "KH".into(), c_(7), c_(15), c_(16)];
    want.sort();
    let mut got = hand3;
    got.sort();
    assert_eq!(got, want);
    let hand1 = m.view(Viewer::Seat(1))["hand"].clone();
    let mut h1: Vec<String> = hand1
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap().into())
        .collect();
    h1.sort();
    let mut w1 = vec![c_(1), c_(2), c_(3), c_(11), c_(12)];
    w1.sort();
    assert_eq!(h1, w1);
    // All three criticals: no card shown; with maschine team B scores 2 at once.
    let seq: Vec<String> = format!("KH 7D 7C {rest}")
        .split_whitespace()
        .map(String::from)
        .collect();
    let m = start("watten", 4, json!({"maschine": true}), vec![seq]);
    assert_eq!(scores(m.as_ref()), vec![0, 2, 0, 2]);
    let m = start(
        "watten",
        4,
        json!({}),
        vec![
            format!("KH 7D 7C {rest}")
                .split_whitespace()
                .map(String::from)
                .collect(),
        ],
    );
    assert_eq!(m.view(Viewer::Spectator)["cut_shown"], Value::Null);
    assert_eq!(m.view(Viewer::Spectator)["hand_sizes"], json!([5, 5, 5, 5]));
}

#[test]
fn b6_raise_sequence_and_fold_values_any_time() {
    let mut m = b2_game();
    let mut g = start("watten", 4, json!({"raise_timing":"any_time"}), vec![]);
    // Use the stacked b2 deal with any_time.
    let hands = [
        "JH 9C 7D AS AC",
        "9H KS QS JS TS",
        "AH 9S 7C QD 8S",
        "8H JD QC TC 8D",
    ];
    g = {
        let _ = g;
        start(
            "watten",
            4,
            json!({"raise_timing":"any_time"}),
            vec![sequence(SHOWN, &hands, 0, None)],
        )
    };
    name(&mut g, 1, 0, "9", "H");
    assert_eq!(g.to_act(), vec![1, 2, 3, 0]);
    act(&mut g, 0, json!({"type":"raise","to":3}));
    assert_eq!(g.to_act(), vec![1, 3]);
    assert_eq!(
        g.legal_actions(3),
        vec![
            json!({"type":"accept"}),
            json!({"type":"fold"}),
            json!({"type":"raise","to":4})
        ]
    );
    let mut first_fold = g.clone_match();
    act(&mut g, 3, json!({"type":"raise","to":4}));
    assert_eq!(g.to_act(), vec![0, 2]);
    let mut accepted = g.clone_match();
    act(&mut g, 2, json!({"type":"fold"}));
    assert_eq!(scores(g.as_ref()), vec![0, 3, 0, 3]);
    act(&mut accepted, 2, json!({"type":"accept"}));
    assert_eq!(accepted.view(Viewer::Spectator)["stake"], json!(4));
    assert_eq!(accepted.to_act(), vec![1, 2, 0]);
    assert!(
        accepted
            .legal_actions(1)
            .iter()
            .all(|a| a["type"] == "play")
    );
    assert_eq!(
        accepted.legal_actions(2),
        vec![json!({"type":"raise","to":5})]
    );
    // Seat 1 folds the first raise: team A +2; seat 3's late accept is refused (R67).
    let mut late = first_fold.clone_match();
    act(&mut first_fold, 1, json!({"type":"fold"}));
    assert_eq!(scores(first_fold.as_ref()), vec![2, 0, 2, 0]);
    assert_eq!(
        reason(&mut first_fold, 3, json!({"type":"accept"})),
        "not_your_turn"
    );
    act(&mut late, 1, json!({"type":"accept"}));
    assert_eq!(
        reason(&mut late, 3, json!({"type":"accept"})),
        "no_raise_pending"
    );
    // on_turn (the id's default) for comparison: one actor.
    assert_eq!(m.to_act(), vec![1]);
    act(&mut m, 1, json!({"type":"play","cards":["9H"]}));
}

#[test]
fn b7_barred_side_and_cap() {
    // 8-4 at 11: side A needs 3, so its raises stop at 3.
    let b2 = |options: Value, winners: &[fn(usize) -> bool]| {
        let hands = [
            "JH 9C 7D AS AC",
            "9H KS QS JS TS",
            "AH 9S 7C QD 8S",
            "8H JD QC TC 8D",
        ];
        let mut m = after_deals(
            "watten",
            4,
            options,
            winners,
            0,
            sequence(SHOWN, &hands, 0, None),
        );
        name(&mut m, 1, 0, "9", "H");
        m
    };
    let mut m = b2(json!({}), &[side_b, side_b, side_a, side_a, side_a, side_a]);
    assert_eq!(scores(m.as_ref()), vec![8, 4, 8, 4]);
    act(&mut m, 1, json!({"type":"raise","to":3}));
    assert_eq!(
        m.legal_actions(2),
        vec![json!({"type":"accept"}), json!({"type":"fold"})]
    );
    act(&mut m, 2, json!({"type":"accept"}));
    // A holds the raise right but its cap is 3.
    for seat in 0..4 {
        assert!(m.legal_actions(seat).iter().all(|a| a["type"] != "raise"));
    }
    // A barred side (at target - 2 or more: the spec's 9 of 11; here 16 of 18) never raises.
    let mut a_eight = vec![side_b as fn(usize) -> bool, side_b];
    a_eight.extend([side_a as fn(usize) -> bool; 8]);
    let mut nine = b2(json!({"target": 18}), &a_eight);
    assert_eq!(scores(nine.as_ref()), vec![16, 4, 16, 4]);
    act(&mut nine, 1, json!({"type":"play","cards":["9H"]}));
    assert!(nine.legal_actions(2).iter().all(|a| a["type"] != "raise"));
}

#[test]
fn b8_maschine_scores_for_the_holder_side() {
    let hands = [
        "JH 9C 9D AS AC",
        "9H KS QS JS TS",
        "KH 7D 7C 8S QH",
        "8H JD QC TC 8D",
    ];
    let m = start(
        "watten",
        4,
        json!({"maschine": true}),
        vec![sequence(SHOWN, &hands, 0, None)],
    );
    assert_eq!(scores(m.as_ref()), vec![2, 0, 2, 0]);
    assert_eq!(m.view(Viewer::Spectator)["deal"], json!(1));
}

#[test]
fn b9_three_players() {
    // dealer 0, E 1 solo, pair {0, 2}, cutter 2.
    let hands = ["JH 9C 9D AS AC", "9H KS QS JS TS", "AH 8S QH 7S 8H"];
    // Scores 6, 2, 10 before the deal (the spec's 5, 5, 10 needs a 3-point deal; these keep
    // what matters: seat 2 within one deal of 11, barred, seat 0 ahead of seat 1). Deals by fold,
    // E (the solo) moving round from seat 1: E1 pair, E2 solo, E0 solo, E1 pair, E2 solo, E0 pair.
    let winners: [fn(usize) -> bool; 6] = [
        |s| s != 1,
        |s| s == 2,
        |s| s == 0,
        |s| s != 1,
        |s| s == 2,
        |s| s != 0,
    ];
    let mut m = after_deals(
        "watten",
        3,
        json!({"raise_timing":"any_time"}),
        &winners,
        0,
        sequence(SHOWN, &hands, 0, None),
    );
    assert_eq!(scores(m.as_ref()), vec![6, 2, 10]);
    act(&mut m, 1, json!({"type":"declare","schlag":"7"}));
    assert_eq!(m.to_act(), vec![1], "E names the suit too (eldest_both)");
    act(&mut m, 1, json!({"type":"declare","trump":"D"}));
    assert_eq!(m.to_act(), vec![1, 0]);
    let mut raised = m.clone_match();
    act(&mut raised, 1, json!({"type":"raise","to":3}));
    assert_eq!(raised.to_act(), vec![2, 0]);
    assert_eq!(
        raised.legal_actions(2),
        vec![json!({"type":"accept"}), json!({"type":"fold"})]
    );
    assert!(
        raised
            .legal_actions(0)
            .contains(&json!({"type":"raise","to":4}))
    );
    // No raise; the pair takes 3 tricks. Seat 1 leads low cards, the pair wins.
    let pair_win = [
        (1, "TS"),
        (2, "AH"),
        (0, "AS"),
        (0, "AC"),
        (1, "JS"),
        (2, "8S"),
        (0, "9C"),
        (1, "QS"),
        (2, "QH"),
    ];
    for (seat, card) in pair_win {
        act(&mut m, seat, json!({"type":"play","cards":[card]}));
    }
    assert_eq!(scores(m.as_ref()), vec![8, 2, 12]);
    assert!(m.is_over());
    let r = m.result().unwrap();
    assert_eq!(r.ranking, vec![vec![2], vec![0], vec![1]]);
    assert_eq!(r.teams, None);
}

#[test]
fn b10_schlag_swap() {
    let hands = [
        "JH 9C 9D AS AC",
        "9H KS QS JS TS",
        "AH 9S 7C QD 8S",
        "8H JD QC TC 8D",
    ];
    let mut m = start(
        "watten",
        4,
        json!({"schlag_swap": true}),
        vec![sequence(SHOWN, &hands, 0, None)],
    );
    act(
        &mut m,
        1,
        json!({"type":"propose","proposal":"schlag_swap"}),
    );
    act(&mut m, 0, json!({"type":"accept"}));
    assert_eq!(m.to_act(), vec![1]);
    act(&mut m, 1, json!({"type":"declare","trump":"S"}));
    act(&mut m, 0, json!({"type":"declare","schlag":"Q"}));
    let v = m.view(Viewer::Spectator);
    assert_eq!(
        (v["schlag"].clone(), v["trump"].clone()),
        (json!("Q"), json!("S"))
    );
    let o = options("watten", 4, json!({}));
    let r = Roles::new(&o, Some(Rank::Queen), Suit::Spades);
    assert_eq!(r.rechte, Some(c("QS")));
}

#[test]
fn b11_austrian_ranking() {
    let r = roles("watten_austrian", json!({}), Some("7"), "C");
    assert_eq!(r.rechte, None);
    assert_eq!(r.linke, set("7S 7H 7D"));
    assert_order(&r, "KH 6D 7C 7S = 7H = 7D AC KC QC JC TC 9C 8C");
}

#[test]
fn b12_one_actor_at_a_time() {
    let mut m = b2_game();
    assert_eq!(m.to_act(), vec![1]);
    let legal = m.legal_actions(1);
    assert_eq!(legal.len(), 6);
    assert_eq!(legal[5], json!({"type":"raise","to":3}));
    act(&mut m, 1, json!({"type":"raise","to":3}));
    assert_eq!(m.to_act(), vec![2]);
    assert_eq!(
        m.legal_actions(2),
        vec![
            json!({"type":"accept"}),
            json!({"type":"fold"}),
            json!({"type":"raise","to":4})
        ]
    );
    act(&mut m, 2, json!({"type":"raise","to":4}));
    assert_eq!(m.to_act(), vec![3]);
    act(&mut m, 3, json!({"type":"accept"}));
    assert_eq!(m.view(Viewer::Spectator)["stake"], json!(4));
    assert_eq!(m.to_act(), vec![1]);
    assert!(m.legal_actions(1).contains(&json!({"type":"raise","to":5})));
    act(&mut m, 1, json!({"type":"play","cards":["9H"]}));
    assert_eq!(m.to_act(), vec![2]);
    assert!(m.legal_actions(2).iter().all(|a| a["type"] == "play"));
}

#[test]
fn b13_naming_sequence_and_public_declarations() {
    let hands = [
        "JH 9C 9D AS AC",
        "9H KS QS JS TS",
        "AH 9S 7C QD 8S",
        "8H JD QC TC 8D",
    ];
    let mut m = start(
        "watten",
        4,
        json!({"schlag_swap": true, "new_cards": true, "raise_timing": "any_time"}),
        vec![sequence(SHOWN, &hands, 0, None)],
    );
    assert_eq!(m.legal_actions(1).len(), 10);
    let mut swap_first = m.clone_match();
    act(&mut m, 1, json!({"type":"propose","proposal":"new_cards"}));
    act(&mut m, 0, json!({"type":"decline"}));
    let legal = m.legal_actions(1);
    assert_eq!(legal.len(), 9);
    assert_eq!(legal[0], json!({"type":"propose","proposal":"schlag_swap"}));
    assert_eq!(m.view(Viewer::Seat(2))["hand"], Value::Null);
    act(&mut m, 1, json!({"type":"declare","schlag":"9"}));
    for seat in 0..4 {
        assert_eq!(m.view(Viewer::Seat(seat))["schlag"], json!("9"));
    }
    assert_eq!(m.legal_actions(0).len(), 4);
    act(&mut m, 0, json!({"type":"declare","trump":"H"}));
    assert!(m.view(Viewer::Seat(2))["hand"].is_array());
    assert!(m.view(Viewer::Seat(3))["hand"].is_array());
    assert_eq!(m.to_act(), vec![1, 2, 3, 0]);
    act(
        &mut swap_first,
        1,
        json!({"type":"propose","proposal":"schlag_swap"}),
    );
    act(&mut swap_first, 0, json!({"type":"decline"}));
    assert!(
        !swap_first
            .legal_actions(1)
            .contains(&json!({"type":"propose","proposal":"new_cards"}))
    );
}

// ---------------------------------------------------------------- Tyrolean

#[test]
fn t1_weli_lead_duty_and_linke_not_trumps() {
    let o = options("watten_tyrolean", 4, json!({}));
    let r = Roles::new(&o, Some(Rank::Nine), Suit::Spades);
    let lead = [(1, c("6D"))];
    assert_eq!(
        r.legal_follow(&o, set("9C AH KD 8H TC"), &lead, 1, true),
        set("9C AH KD 8H TC")
    );
    assert_eq!(
        r.legal_follow(&o, set("7S 9H QD JC 8C"), &lead, 1, true),
        set("7S 9H")
    );
    assert_eq!(
        r.legal_follow(&o, set("AS 9D 8D 7H QC"), &lead, 1, true),
        set("AS 9D")
    );
    let trick = [(1, c("6D")), (2, c("AH")), (3, c("9H")), (0, c("9D"))];
    assert_eq!(trick[r.winner(&trick)].0, 3);
    assert_order(&r, "9S 9H = 9D = 9C AS KS QS JS TS 8S 7S 6D");
}

#[test]
fn t2_schlag_six_and_partner_view() {
    let o = options("watten_tyrolean", 4, json!({}));
    let r = Roles::new(&o, Some(Rank::Six), Suit::Hearts);
    assert_eq!(r.rechte, Some(c("6D")));
    assert!(r.linke.is_empty());
    assert_eq!(r.trs, set("AH KH QH JH TH 9H 8H 7H"));
    let trick = [(1, c("9S")), (2, c("9H")), (3, c("6D")), (0, c("AS"))];
    assert_eq!(trick[r.winner(&trick)].0, 3);
    assert_eq!(
        r.legal_follow(&o, set("7H AS KS 8C 9D"), &[(1, c("6D"))], 0, true),
        set("7H")
    );
    // Partner view through a game.
    let hands = [
        "AC KC QC JC TC",
        "6D 9S 8S 7S AS",
        "9H KS QS JS TS",
        "AH KH QH JH TH",
    ];
    let mut m = start(
        "watten_tyrolean",
        4,
        json!({}),
        vec![sequence("", &hands, 0, None)],
    );
    act(&mut m, 1, json!({"type":"declare","schlag":"6"}));
    act(&mut m, 0, json!({"type":"declare","trump":"H"}));
    let v = m.view(Viewer::Seat(1));
    let mut partner: Vec<String> = v["partner_hand"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_str().unwrap().into())
        .collect();
    partner.sort();
    assert_eq!(partner, sorted("AH KH QH JH TH"));
    assert_eq!(m.view(Viewer::Spectator)["partner_hand"], Value::Null);
}

#[test]
fn t3_guate() {
    let g = json!({"guate": true});
    let r = roles("watten_tyrolean", g.clone(), Some("T"), "C");
    assert_order(&r, "JC TC TS = TH = TD AC KC QC 9C 8C 7C 6D");
    let r = roles("watten_tyrolean", g.clone(), Some("A"), "D");
    assert_eq!((r.guate, r.rechte), (Some(c("7D")), Some(c("AD"))));
    assert_eq!(r.linke, set("AS AH AC"));
    assert_eq!(r.trs, set("KD QD JD TD 9D 8D 6D"));
    let r = roles("watten_tyrolean", g, Some("6"), "S");
    assert_eq!(r.guate, None);
    assert_order(&r, "6D AS KS QS JS TS 9S 8S 7S");
    let r = roles(
        "watten_tyrolean",
        json!({"guate": true, "guate_on_six_schlag": "trump_seven"}),
        Some("6"),
        "S",
    );
    assert_order(&r, "7S 6D AS KS QS JS TS 9S 8S");
}

#[test]
fn t4_rechte_exemption() {
    let lead = [(1, c("AS"))];
    let hand = set("9S QH 8D 7C TC");
    let o = options("watten_tyrolean", 4, json!({}));
    let r = Roles::new(&o, Some(Rank::Nine), Suit::Spades);
    assert_eq!(r.legal_follow(&o, hand, &lead, 0, true), set("9S"));
    let o = options("watten_tyrolean", 4, json!({"rechte_exempt": true}));
    let r = Roles::new(&o, Some(Rank::Nine), Suit::Spades);
    assert_eq!(r.legal_follow(&o, hand, &lead, 0, true), hand);
}

#[test]
fn t5_new_cards_exchange_positions() {
    for (players, stock_from) in [(4usize, 20usize), (3, 15), (2, 10)] {
        let pack: Vec<String> = "7S 8S 9S TS JS QS KS AS 7H 8H 9H TH JH QH KH AH 7D 8D 9D TD JD QD KD AD 7C 8C 9C TC JC QC KC AC 6D"
            .split_whitespace()
            .map(String::from)
            .collect();
        let mut m = start("watten_tyrolean", players, json!({}), vec![pack.clone()]);
        act(&mut m, 1, json!({"type":"propose","proposal":"new_cards"}));
        act(&mut m, 0, json!({"type":"accept"}));
        let mut e: Vec<String> = m.view(Viewer::Seat(1))["hand"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_str().unwrap().into())
            .collect();
        e.sort();
        let mut want: Vec<String> = pack[stock_from..stock_from + 5].to_vec();
        want.sort();
        assert_eq!(e, want, "{players} players: E gets the first 5 stock cards");
        let mut d: Vec<String> = m.view(Viewer::Seat(0))["hand"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_str().unwrap().into())
            .collect();
        d.sort();
        let mut want: Vec<String> = pack[stock_from + 5..stock_from + 10].to_vec();
        want.sort();
        assert_eq!(d, want);
        assert_eq!(
            m.view(Viewer::Seat(1))["own_discards"]
                .as_array()
                .unwrap()
                .len(),
            5
        );
        assert!(m.legal_actions(1).iter().all(|a| a["type"] == "declare"));
        assert_eq!(m.legal_actions(1).len(), 9, "Schlag 6..A");
    }
}

fn t6_game(opts: Value) -> Box<dyn Match> {
    // s=9, t=S. Tricks 1-4 split 2:2 and seat 1 wins trick 4; last cards: seat 1 8H, seat 2 KD,
    // seat 3 9C, seat 0 TH (spec T6).
    let hands = [
        "AC KC QC JC TH",
        "AH 7S QH JH 8H",
        "7H 8D 9D TD KD",
        "KH 8C 9S QD 9C",
    ];
    let mut o = json!({"raise_timing":"any_time"});
    for (k, v) in opts.as_object().unwrap() {
        o[k] = v.clone();
    }
    let mut m = start("watten_tyrolean", 4, o, vec![sequence("", &hands, 0, None)]);
    name(&mut m, 1, 0, "9", "S");
    let script = [
        (1, "AH"),
        (2, "9D"),
        (3, "KH"),
        (0, "AC"), // seat 2 (Linke)
        (2, "TD"),
        (3, "8C"),
        (0, "KC"),
        (1, "QH"), // seat 2
        (2, "8D"),
        (3, "9S"),
        (0, "QC"),
        (1, "JH"), // seat 3 (Rechte)
        (3, "QD"),
        (0, "JC"),
        (1, "7S"),
        (2, "7H"), // seat 1 (trump)
    ];
    for (seat, card) in script {
        act(&mut m, seat, json!({"type":"play","cards":[card]}));
    }
    assert_eq!(m.view(Viewer::Spectator)["won"], json!([2, 2]));
    act(&mut m, 1, json!({"type":"play","cards":["8H"]}));
    m
}

fn can_raise(m: &dyn Match, seat: usize) -> bool {
    m.legal_actions(seat)
        .contains(&json!({"type":"raise","to":3}))
}

#[test]
fn t6_last_trick_window() {
    let m = t6_game(json!({"last_trick_raise":"restricted"}));
    assert!(
        !can_raise(m.as_ref(), 2),
        "KD: not hearts, not trump, not Linke"
    );
    assert!(can_raise(m.as_ref(), 3), "9C is a Linke");
    assert!(can_raise(m.as_ref(), 1), "the leader always qualifies");
    assert!(can_raise(m.as_ref(), 0), "TH follows the led plain suit");
    assert_eq!(m.to_act(), vec![2, 3, 0, 1]);
    // Only the deal's first raise is restricted: seat 2 may counter-raise seat 3's raise.
    let mut r = m.clone_match();
    act(&mut r, 3, json!({"type":"raise","to":3}));
    assert!(r.legal_actions(2).contains(&json!({"type":"raise","to":4})));
    // Challenge: seat 2 raises anyway; seat 1 challenges; KD does not qualify → team B +2.
    let mut ch = t6_game(json!({"last_trick_raise":"challenge"}));
    act(&mut ch, 2, json!({"type":"raise","to":3}));
    assert_eq!(ch.to_act(), vec![3, 1]);
    assert!(ch.legal_actions(1).contains(&json!({"type":"challenge"})));
    let events = act(&mut ch, 1, json!({"type":"challenge"}));
    assert!(events.contains(&json!({"type":"challenge","seat":1,"card":"KD","qualifies":false})));
    assert_eq!(scores(ch.as_ref()), vec![0, 2, 0, 2]);
    // Under on_turn the responder to seat 2's raise is seat 3.
    let mut on_turn = t6_game(json!({"last_trick_raise":"challenge","raise_timing":"on_turn"}));
    act(&mut on_turn, 2, json!({"type":"raise","to":3}));
    assert_eq!(on_turn.to_act(), vec![3]);
}

#[test]
fn t7_jump_to_four() {
    let hands = [
        "AC KC QC JC TH",
        "AH KH QH JH 8H",
        "7H 8D 9D TD KD",
        "7D 8C 9S TS 9C",
    ];
    // A at 2, B at 10 of 15 (the spec's 9 needs a 3-point deal; 10 keeps B free to raise to 5).
    let mut winners = vec![side_a as fn(usize) -> bool];
    winners.extend([side_b as fn(usize) -> bool; 5]);
    let mut m = after_deals(
        "watten_tyrolean",
        4,
        json!({"jump_to_four": true, "raise_timing": "any_time"}),
        &winners,
        0,
        sequence("", &hands, 0, None),
    );
    assert_eq!(scores(m.as_ref()), vec![2, 10, 2, 10]);
    name(&mut m, 1, 0, "9", "S");
    let raises: Vec<Value> = m
        .legal_actions(0)
        .into_iter()
        .filter(|a| a["type"] == "raise")
        .collect();
    assert_eq!(
        raises,
        vec![
            json!({"type":"raise","to":3}),
            json!({"type":"raise","to":4})
        ]
    );
    let mut fold = m.clone_match();
    act(&mut m, 0, json!({"type":"raise","to":4}));
    act(&mut fold, 0, json!({"type":"raise","to":4}));
    act(&mut fold, 1, json!({"type":"fold"}));
    assert_eq!(scores(fold.as_ref()), vec![4, 10, 4, 10]);
    act(&mut m, 1, json!({"type":"accept"}));
    let v = m.view(Viewer::Spectator);
    assert_eq!(
        (v["stake"].clone(), v["raise_right"].clone()),
        (json!(4), json!(1))
    );
    assert!(m.legal_actions(3).contains(&json!({"type":"raise","to":5})));
}

// ---------------------------------------------------------------- Kritische

#[test]
fn k1_criticals_remove_roles() {
    let r = roles("watten_kritische", json!({}), Some("K"), "H");
    assert_eq!(r.rechte, None);
    assert_eq!(r.linke, set("KS KD KC"));
    assert_eq!(r.trs, set("AH QH JH TH 9H 8H 7H"));
    assert_order(&r, "KH 6D 7C KS = KD = KC AH QH JH TH 9H 8H 7H");
}

#[test]
fn k2_k3_trump_lead_critical_never_forced_and_critical_lead_frees() {
    let o = options("watten_kritische", 4, json!({}));
    let r = Roles::new(&o, Some(Rank::King), Suit::Hearts);
    let lead = [(1, c("AH"))];
    assert_eq!(
        r.legal_follow(&o, set("7C QD 8S JD 9S"), &lead, 0, true),
        set("7C QD 8S JD 9S")
    );
    assert_eq!(
        r.legal_follow(&o, set("KS 8H AD 9C 7D"), &lead, 0, true),
        set("8H KS")
    );
    assert_eq!(
        r.legal_follow(&o, set("6D 9H 8C QS JS"), &lead, 0, true),
        set("9H 6D")
    );
    let hand = set("8H 9H AD 9C 7D");
    assert_eq!(r.legal_follow(&o, hand, &[(1, c("KH"))], 0, true), hand);
    let trick = [(1, c("KH")), (2, c("6D")), (3, c("7C")), (0, c("KS"))];
    assert_eq!(trick[r.winner(&trick)].0, 1);
    // Schlag 6 may not be declared.
    let mut m = start("watten_kritische", 4, json!({"new_cards": false}), vec![]);
    assert_eq!(
        reason(&mut m, 1, json!({"type":"declare","schlag":"6"})),
        "bad_declaration"
    );
}

#[test]
fn k4_four_card_set() {
    let r = roles(
        "watten_kritische",
        json!({"kritische_set":"four"}),
        Some("7"),
        "S",
    );
    assert_eq!(r.crit, &cards("KH 6D 7D 7C")[..]);
    assert_eq!(r.rechte, Some(c("7S")));
    assert_eq!(r.linke, set("7H"));
}

// ---------------------------------------------------------------- Blind

fn bl_game(opts: Value) -> Box<dyn Match> {
    let hands = [
        "AS 9C KD 8C JH",
        "9H 8S TC QC AC",
        "QS AD 7C 6D KH",
        "7S 9D QH JC TD",
    ];
    let mut o = json!({"raise_timing":"any_time"});
    for (k, v) in opts.as_object().unwrap() {
        o[k] = v.clone();
    }
    start("watten_blind", 4, o, vec![sequence("", &hands, 0, None)])
}

#[test]
fn bl1_designation_and_what_each_seat_knows() {
    let mut m = bl_game(json!({}));
    act(&mut m, 1, json!({"type":"propose","proposal":"new_cards"}));
    act(&mut m, 0, json!({"type":"decline"}));
    let legal = m.legal_actions(1);
    assert_eq!(legal.len(), 5);
    assert!(
        legal
            .iter()
            .all(|a| a["type"] == "declare" && a["card"].is_string())
    );
    let events = act(&mut m, 1, json!({"type":"declare","card":"9H"}));
    assert_eq!(events, vec![json!({"type":"designate","seat":1})]);
    assert_eq!(m.to_act(), vec![0]);
    assert!(!m.view(Viewer::Seat(0)).to_string().contains("\"9H\""));
    let mut seq = bl_game(json!({"blind_reveal":"sequential"}));
    act(&mut seq, 1, json!({"type":"declare","card":"9H"}));
    assert_eq!(seq.view(Viewer::Seat(0))["designated"], json!(["9H", null]));
    act(&mut m, 0, json!({"type":"declare","card":"AS"}));
    for s in [0, 1] {
        let v = m.view(Viewer::Seat(s));
        assert_eq!(v["designated"], json!(["9H", "AS"]));
        assert_eq!(
            (v["schlag"].clone(), v["trump"].clone()),
            (json!("9"), json!("S"))
        );
    }
    for s in [2, 3] {
        let v = m.view(Viewer::Seat(s));
        assert_eq!(v["schlag"], Value::Null);
        assert_eq!(v["trump"], Value::Null);
        assert_eq!(v["designated"], json!([null, null]));
        assert!(v["hand"].is_array());
    }
    assert_eq!(m.to_act(), vec![1, 2, 3, 0]);
    let o = options("watten_blind", 4, json!({}));
    let r = Roles::new(&o, Some(Rank::Nine), Suit::Spades);
    assert_order(&r, "TS 9S 9H = 9D = 9C AS KS QS JS 8S 7S");
    assert!(r.is_plain(c("6D")));
    // The deal's end publishes s, t and both cards: seat 0 folds a raise by seat 1.
    act(&mut m, 1, json!({"type":"raise","to":3}));
    let events = act(&mut m, 0, json!({"type":"fold"}));
    let end = events.iter().find(|e| e["type"] == "deal_end").unwrap();
    assert_eq!(
        (end["schlag"].clone(), end["trump"].clone()),
        (json!("9"), json!("S"))
    );
    assert_eq!(end["designated"], json!(["9H", "AS"]));
}

#[test]
fn bl2_duties_only_for_knowers() {
    let o = options("watten_blind", 4, json!({}));
    let r = Roles::new(&o, Some(Rank::Nine), Suit::Spades);
    let lead = [(1, c("8S"))];
    let blind = set("QS AD 7C 6D KH");
    assert_eq!(r.legal_follow(&o, blind, &lead, 0, false), blind);
    assert_eq!(
        r.legal_follow(&o, set("AS 9C KD 8C JH"), &lead, 0, true),
        set("AS 9C")
    );
    // Through a game: seat 2 (blind) may play anything after a trump lead; the dealer may not.
    let mut m = bl_game(json!({}));
    act(&mut m, 1, json!({"type":"declare","card":"9H"}));
    act(&mut m, 0, json!({"type":"declare","card":"AS"}));
    act(&mut m, 1, json!({"type":"play","cards":["8S"]}));
    assert_eq!(plays(m.as_ref(), 2), sorted("QS AD 7C 6D KH"));
    act(&mut m, 2, json!({"type":"play","cards":["AD"]}));
    assert_eq!(plays(m.as_ref(), 3), sorted("7S 9D QH JC TD"));
    act(&mut m, 3, json!({"type":"play","cards":["TD"]}));
    assert_eq!(plays(m.as_ref(), 0), sorted("AS 9C"));
    let events = act(&mut m, 0, json!({"type":"play","cards":["9C"]}));
    assert_eq!(events.last(), Some(&json!({"type":"trick_won","seat":0})));
}

#[test]
fn bl3_bl4_weli_as_suit_or_schlag_card() {
    let o = options("watten_blind", 4, json!({}));
    let r = Roles::new(&o, Some(Rank::Queen), Suit::Diamonds);
    assert_order(&r, "KD QD QS = QH = QC AD JD TD 9D 8D 7D 6D");
    let r = Roles::new(&o, Some(Rank::Six), Suit::Clubs);
    assert_eq!((r.rechte, r.guate), (Some(c("6D")), None));
    assert!(r.linke.is_empty());
}

#[test]
fn bl5_weli_without_suit() {
    let o = options("watten_blind", 4, json!({"weli_mode":"no_suit"}));
    let r = Roles::new(&o, Some(Rank::Nine), Suit::Spades);
    let trick = [(1, c("6D")), (2, c("AD")), (3, c("KH")), (0, c("QC"))];
    assert_eq!(trick[r.winner(&trick)].0, 1);
    let trick = [(1, c("6D")), (2, c("AD")), (3, c("7S")), (0, c("QC"))];
    assert_eq!(trick[r.winner(&trick)].0, 3);
    let hand = set("AS 9C KD 8C JH");
    assert_eq!(r.legal_follow(&o, hand, &[(1, c("6D"))], 0, true), hand);
}

// ---------------------------------------------------------------- Bohemian

#[test]
fn bo1_trump_from_the_bottom_card() {
    let m = start("watten_bohemian", 4, json!({}), vec![vec!["7C".into()]]);
    let v = m.view(Viewer::Spectator);
    assert_eq!(
        (v["turn_up"].clone(), v["trump"].clone()),
        (json!("7C"), json!("H"))
    );
    let o = options("watten_bohemian", 4, json!({}));
    let r = Roles::new(&o, None, Suit::Hearts);
    assert_order(&r, "KH 7D 7C AH QH JH TH 9H 8H 7H");
    let m = start("watten_bohemian", 4, json!({}), vec![vec!["9S".into()]]);
    assert_eq!(m.view(Viewer::Spectator)["trump"], json!("S"));
}

#[test]
fn bo2_follow_and_beat() {
    let o = options("watten_bohemian", 4, json!({}));
    let r = Roles::new(&o, None, Suit::Hearts);
    let t1 = [(1, c("QS"))];
    assert_eq!(
        r.legal_follow(&o, set("8S AS 7H KD TC"), &t1, 0, true),
        set("AS")
    );
    let t2 = [(1, c("QS")), (2, c("AS"))];
    assert_eq!(
        r.legal_follow(&o, set("9D 9C 8H KH JD"), &t2, 0, true),
        set("8H KH")
    );
    let t3 = [(1, c("QS")), (2, c("AS")), (3, c("8H"))];
    assert_eq!(
        r.legal_follow(&o, set("7S TD AH 8C QD"), &t3, 0, true),
        set("7S")
    );
    assert_eq!(
        r.legal_follow(&o, set("TD JH 9H 8C QD"), &t3, 0, true),
        set("JH 9H")
    );
}

#[test]
fn bo3_exchange_caps_and_order() {
    let pack: Vec<String> = "9S 7S 8S TS JS QS KS AS 7H 8H 9H TH JH QH KH AH 7D 8D 9D TD JD QD KD AD 7C 8C 9C TC JC QC KC AC"
        .split_whitespace()
        .map(String::from)
        .collect();
    let mut m = start("watten_bohemian", 4, json!({}), vec![pack.clone()]);
    // E (seat 1) holds q1-q3 and q13-q14.
    let e_hand = m.view(Viewer::Seat(1))["hand"].clone();
    let hand: Vec<String> = e_hand
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_str().unwrap().into())
        .collect();
    assert_eq!(m.legal_actions(1).len(), 6);
    act(&mut m, 1, json!({"type":"discard","card": hand[0]}));
    act(&mut m, 1, json!({"type":"discard","card": hand[1]}));
    let events = act(&mut m, 1, json!({"type":"draw"}));
    assert_eq!(events, vec![json!({"type":"draw","seat":1,"count":2})]);
    let now: Vec<String> = m.view(Viewer::Seat(1))["hand"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_str().unwrap().into())
        .collect();
    assert!(now.contains(&pack[21]) && now.contains(&pack[22]));
    // Seat 2: three discards, then only draw.
    let h2: Vec<String> = m.view(Viewer::Seat(2))["hand"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_str().unwrap().into())
        .collect();
    for card in &h2[..3] {
        act(&mut m, 2, json!({"type":"discard","card": card}));
    }
    assert_eq!(m.legal_actions(2), vec![json!({"type":"draw"})]);
    act(&mut m, 2, json!({"type":"draw"}));
    act(&mut m, 3, json!({"type":"draw"}));
    let h0: Vec<String> = m.view(Viewer::Seat(0))["hand"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_str().unwrap().into())
        .collect();
    act(&mut m, 0, json!({"type":"discard","card": h0[0]}));
    act(&mut m, 0, json!({"type":"discard","card": h0[1]}));
    assert_eq!(m.legal_actions(0), vec![json!({"type":"draw"})]);
    act(&mut m, 0, json!({"type":"draw"}));
    assert_eq!(m.to_act(), vec![1]);
    assert!(m.legal_actions(1).iter().all(|a| a["type"] == "play"));
    // 6 players: one drawable card.
    let mut six = start("watten_bohemian", 6, json!({}), vec![]);
    let h: Vec<String> = six.view(Viewer::Seat(1))["hand"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_str().unwrap().into())
        .collect();
    act(&mut six, 1, json!({"type":"discard","card": h[0]}));
    assert_eq!(six.legal_actions(1), vec![json!({"type":"draw"})]);
    act(&mut six, 1, json!({"type":"draw"}));
    assert_eq!(six.view(Viewer::Spectator)["phase"], json!("play"));
    assert_eq!(six.to_act(), vec![1]);
}

#[test]
fn bo4_scoring() {
    // Hearts trumps (bottom 7C): seat1 0 tricks, seat2 2, seat3 3, seat0 0.
    let hands = [
        "7S 8D 9D TD JD",
        "8S 9S TS JS QS",
        "AS JH QH AC AD",
        "KH 7D AH 8C 9C",
    ];
    let mut m = start(
        "watten_bohemian",
        4,
        json!({}),
        vec![sequence("7C", &hands, 0, None)],
    );
    for seat in [1, 2, 3, 0] {
        act(&mut m, seat, json!({"type":"draw"}));
    }
    let script = [
        (1, "8S"),
        (2, "AS"),
        (3, "KH"),
        (0, "7S"),
        (3, "7D"),
        (0, "9D"),
        (1, "9S"),
        (2, "JH"),
        (3, "AH"),
        (0, "TD"),
        (1, "JS"),
        (2, "QH"),
        (3, "8C"),
        (0, "8D"),
        (1, "QS"),
        (2, "AC"),
        (2, "AD"),
        (3, "9C"),
        (0, "JD"),
        (1, "TS"),
    ];
    let mut last = Vec::new();
    for (seat, card) in script {
        last = act(&mut m, seat, json!({"type":"play","cards":[card]}));
    }
    assert_eq!(scores(m.as_ref()), vec![30, 30, 16, 14]);
    let end = last.iter().find(|e| e["type"] == "deal_end").unwrap();
    assert_eq!(end["changes"], json!([10, 10, -4, -6]));
    assert!(!m.is_over());
}

// ---------------------------------------------------------------- rulings and contracts

#[test]
fn r64_inapplicable_options_are_refused_and_variant_defaults_apply() {
    let game = registry::find("watten").unwrap();
    let bad = [
        (json!({"guate": false}), 4),
        (json!({"bohemian_start": 20}), 4),
        (json!({"jump_to_four": true}), 3),
        (json!({"three_player_declarer": "eldest_both"}), 4),
        (json!({"signals": "public"}), 2),
        (json!({"target": 12}), 4),
    ];
    for (opts, players) in bad {
        let err = game
            .start(&NewGame {
                players,
                options: obj(opts.clone()),
                ..NewGame::default()
            })
            .unwrap_err();
        assert_eq!(err.code(), "invalid_options", "{opts}");
    }
    // The player range follows the variant: Blind seats exactly 4.
    let err = game
        .start(&NewGame {
            players: 3,
            options: obj(json!({"variant": "blind"})),
            ..NewGame::default()
        })
        .unwrap_err();
    assert_eq!(err.code(), "invalid_players");
    let o = options("watten", 4, json!({"variant": "tyrolean"}));
    assert_eq!((o.target, o.new_cards), (15, true));
    let o = options("watten", 4, json!({"variant": "blind"}));
    assert!(o.guate);
    let err = registry::find("watten_blind")
        .unwrap()
        .start(&NewGame {
            players: 4,
            options: obj(json!({"guate": false})),
            ..NewGame::default()
        })
        .unwrap_err();
    assert_eq!(err.code(), "invalid_options");
}

#[test]
fn r71_presets_default_on_turn_and_accept_any_time() {
    for id in [
        "watten",
        "watten_austrian",
        "watten_carinthian",
        "watten_tyrolean",
        "watten_kritische",
        "watten_blind",
    ] {
        let game = registry::find(id).unwrap();
        let players = game.info().players.min;
        let o = options(id, players.max(2), json!({}));
        assert_eq!(
            o.raise_timing,
            engine::games::watten::rules::RaiseTiming::OnTurn,
            "{id}"
        );
        let o = options(id, players.max(2), json!({"raise_timing": "any_time"}));
        assert_eq!(
            o.raise_timing,
            engine::games::watten::rules::RaiseTiming::AnyTime,
            "{id}"
        );
    }
    assert_eq!(options("watten_tyrolean", 4, json!({})).target, 15);
    assert_eq!(options("watten", 4, json!({})).target, 11);
    assert_eq!(
        registry::find("watten_blind").unwrap().info().players.min,
        4
    );
    assert_eq!(
        registry::find("watten_bohemian")
            .unwrap()
            .info()
            .players
            .max,
        6
    );
}

#[test]
fn r68_r70_refusal_codes_and_finished_game() {
    let mut m = b2_game();
    assert_eq!(
        reason(&mut m, 2, json!({"type":"play","cards":["AH"]})),
        "not_your_turn"
    );
    assert_eq!(
        reason(&mut m, 1, json!({"type":"play","cards":["AH"]})),
        "card_not_in_hand"
    );
    // Play the deal to its end repeatedly with seat-order choices until the game is over.
    let mut guard = 0;
    while !m.is_over() && guard < 10_000 {
        let seat = m.to_act()[0];
        let legal = m.legal_actions(seat);
        m.apply(seat, &legal[0]).unwrap();
        guard += 1;
    }
    assert!(m.is_over());
    assert!(m.to_act().is_empty());
    assert_eq!(reason(&mut m, 0, json!({"type":"accept"})), "game_over");
    let r = m.result().unwrap();
    assert_eq!(r.teams, Some(vec![vec![0, 2], vec![1, 3]]));
    assert_eq!(r.scores[0], r.scores[2]);
    assert!(r.scores.iter().any(|s| *s >= 11.0));
}

#[test]
fn views_of_others_never_show_hidden_hands() {
    let m = b2_game();
    let spectator = m.view(Viewer::Spectator).to_string();
    for code in ["9H", "AH", "JH", "8H"] {
        assert!(!spectator.contains(&format!("\"{code}\"")));
    }
    assert_eq!(m.view(Viewer::Spectator)["hand"], Value::Null);
}

#[test]
fn typed_family_lists_seven_ids() {
    let ids: Vec<&str> = Watten::family().presets.iter().map(|p| p.id).collect();
    assert_eq!(
        ids,
        vec![
            "watten",
            "watten_austrian",
            "watten_carinthian",
            "watten_tyrolean",
            "watten_kritische",
            "watten_blind",
            "watten_bohemian"
        ]
    );
}

/// Property checks over seeded random playouts of option sets the published ids' defaults do not
/// reach (any_time, signals, challenge, Maschine, swaps...): pieces conserved, termination, every
/// listed action applies, seats not listed are refused, views leak nothing, replays are identical.
#[test]
fn random_playouts_of_every_ruleset_and_option_set() {
    let cases = [
        (
            "watten",
            4,
            json!({"raise_timing":"any_time","signals":"public","maschine":true,"schlag_swap":true,"new_cards":true,"jump_to_four":true}),
        ),
        (
            "watten",
            3,
            json!({"raise_timing":"any_time","three_player_declarer":"eldest_rank_dealer_suit","schlag_must_hold":true,"new_cards":true}),
        ),
        (
            "watten",
            2,
            json!({"raise_timing":"any_time","raise_cap":"target","schlag_swap":true,"jump_to_four":true,"cut_criticals":false}),
        ),
        (
            "watten_austrian",
            3,
            json!({"raise_timing":"any_time","maschine":true}),
        ),
        (
            "watten_carinthian",
            4,
            json!({"raise_timing":"any_time","maschine":true,"carinthian_top":"JD"}),
        ),
        (
            "watten_tyrolean",
            4,
            json!({"raise_timing":"any_time","last_trick_raise":"restricted","guate":true,"weli_mode":"bells"}),
        ),
        (
            "watten_tyrolean",
            4,
            json!({"raise_timing":"any_time","last_trick_raise":"challenge","rechte_exempt":true,"target":18}),
        ),
        (
            "watten_tyrolean",
            2,
            json!({"last_trick_raise":"challenge","guate":true,"guate_on_six_schlag":"trump_seven"}),
        ),
        (
            "watten_kritische",
            4,
            json!({"raise_timing":"any_time","kritische_set":"four","maschine":true,"target":11}),
        ),
        (
            "watten_blind",
            4,
            json!({"raise_timing":"any_time","last_trick_raise":"challenge","blind_reveal":"sequential","weli_mode":"no_suit"}),
        ),
        (
            "watten_blind",
            4,
            json!({"raise_timing":"any_time","last_trick_raise":"restricted","signals":"public"}),
        ),
        (
            "watten_bohemian",
            3,
            json!({"bohemian_trick_points":2,"max_deals":20}),
        ),
    ];
    for (id, players, opts) in cases {
        let game = registry::find(id).unwrap();
        for seed in 0..6u64 {
            let request = NewGame {
                players,
                options: obj(opts.clone()),
                seed,
                deals: vec![],
            };
            let mut m = game
                .start(&request)
                .unwrap_or_else(|e| panic!("{id} {opts}: {e}"));
            let mut pieces = m.pieces();
            pieces.sort();
            let mut history = Vec::new();
            let mut x = seed * 2 + 1;
            while !m.is_over() {
                assert!(history.len() < 50_000, "{id}: no end");
                let to_act = m.to_act();
                for viewer in (0..players).map(Viewer::Seat).chain([Viewer::Spectator]) {
                    let v = m.view(viewer).to_string();
                    for code in m.hidden_from(viewer) {
                        assert!(
                            !v.contains(&format!("\"{code}\"")),
                            "{id}: {viewer:?} sees {code}"
                        );
                    }
                }
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                let seat = to_act[(x % to_act.len() as u64) as usize];
                let legal = m.legal_actions(seat);
                assert!(
                    !legal.is_empty(),
                    "{id}: listed seat {seat} has nothing to do"
                );
                if history.len() % 7 == 0 {
                    for a in &legal {
                        m.clone_match()
                            .apply(seat, a)
                            .unwrap_or_else(|e| panic!("{id}: {a} refused: {e}"));
                    }
                    if let Some(idle) = (0..players).find(|s| !to_act.contains(s)) {
                        let err = m.clone_match().apply(idle, &legal[0]).unwrap_err();
                        assert_eq!(err.code(), "not_your_turn");
                    }
                }
                let a = legal[(x >> 11) as usize % legal.len()].clone();
                m.apply(seat, &a).unwrap();
                history.push((seat, a));
                let mut now = m.pieces();
                now.sort();
                assert_eq!(now, pieces, "{id}: pieces not conserved");
            }
            let r = m.result().unwrap();
            assert_eq!(r.ranking.iter().flatten().count(), players);
            let replay = game.replay(&request, &history).unwrap();
            assert!(replay.refused.is_none());
            assert_eq!(replay.game.save(), m.save(), "{id}: replay differs");
            assert!(game.load(&m.save()).is_ok());
        }
    }
}

/// Issue 11 item 7: the catalog lists exactly the targets a game accepts (11, 15 or 18) and, machine
/// readably, that `target` does not apply to Bohemian; 12 is refused naming the allowed values.
#[test]
fn issue11_watten_catalog_says_which_targets_are_allowed() {
    let game = registry::find("watten").unwrap();
    let entry = serde_json::to_value(game.info()).unwrap();
    let target = entry["options"]
        .as_array()
        .unwrap()
        .iter()
        .find(|o| o["id"] == "target")
        .cloned()
        .unwrap();
    assert_eq!(target["type"], "integer_choice");
    assert_eq!(target["values"], json!([11, 15, 18]));
    assert_eq!(
        target["constraints"],
        json!([{"when": {"variant": ["bohemian"]}, "values": []}])
    );
    for value in [11, 15, 18] {
        game.start(&NewGame {
            players: 2,
            options: obj(json!({ "target": value })),
            ..NewGame::default()
        })
        .unwrap_or_else(|e| panic!("target {value}: {e}"));
    }
    let err = game
        .start(&NewGame {
            players: 2,
            options: obj(json!({"target": 12})),
            ..NewGame::default()
        })
        .unwrap_err();
    assert_eq!(err.code(), "invalid_options");
    assert!(err.to_string().contains("one of 11, 15, 18"), "{err}");
    // Every option's constraints are honoured as the catalog states them: weli_mode under blind.
    let weli = entry["options"]
        .as_array()
        .unwrap()
        .iter()
        .find(|o| o["id"] == "weli_mode")
        .cloned()
        .unwrap();
    assert!(
        weli["constraints"]
            .as_array()
            .unwrap()
            .contains(&json!({"when": {"variant": ["blind"]}, "values": ["bells", "no_suit"]}))
    );
    let err = game
        .start(&NewGame {
            players: 4,
            options: obj(json!({"variant": "blind", "weli_mode": "always_trump"})),
            ..NewGame::default()
        })
        .unwrap_err();
    assert!(err.to_string().contains("weli_mode"), "{err}");
}

/// Issue 11 item 8: `watten` with `{"variant": "bohemian"}` seats 2 to 6 like `watten_bohemian`,
/// and the catalog says the range follows the variant.
#[test]
fn issue11_watten_bohemian_variant_seats_five_and_six() {
    let game = registry::find("watten").unwrap();
    for players in [5, 6] {
        let mut m = game
            .start(&NewGame {
                players,
                options: obj(json!({"variant": "bohemian"})),
                seed: 3,
                ..NewGame::default()
            })
            .unwrap_or_else(|e| panic!("{players} players: {e}"));
        assert_eq!(m.players(), players);
        // The state a client gets back loads again (its range follows its options too).
        let loaded = game.load(&m.save()).unwrap();
        assert_eq!(loaded.save(), m.save());
        let seat = m.to_act()[0];
        let first = m.legal_actions(seat)[0].clone();
        act(&mut m, seat, first);
    }
    let err = game
        .start(&NewGame {
            players: 5,
            ..NewGame::default()
        })
        .unwrap_err();
    assert_eq!(err.code(), "invalid_players");
    assert!(err.to_string().contains("watten_bohemian"), "{err}");
    let entry = serde_json::to_value(game.info()).unwrap();
    assert!(
        entry["players_when"]
            .as_array()
            .unwrap()
            .contains(&json!({"when": {"variant": ["bohemian"]}, "players": {"min": 2, "max": 6}}))
    );
}

/// `Options::pack_set` (a constant mask) and `Options::pack_cards` (a list built once) stand in for
/// the pack on the hot path; they must be exactly the pack's cards (33 with the Weli, 32 without),
/// the list in the pack's order, for every variant.
#[test]
fn pack_set_and_pack_cards_are_the_pack_of_every_variant() {
    let ids: Vec<&str> = registry::games()
        .iter()
        .map(|g| g.info())
        .filter(|info| info.family == "watten")
        .map(|info| info.id.as_str())
        .collect();
    assert_eq!(ids.len(), 7, "every Watten preset: {ids:?}");
    for id in ids {
        let o = options(id, 4, json!({}));
        let pack = CardSet::from_cards(o.pack().cards());
        assert_eq!(o.pack_set(), pack, "{id}");
        assert_eq!(o.pack_cards(), &o.pack().cards()[..], "{id}");
        let size = if o.variant.has_weli() { 33 } else { 32 };
        assert_eq!(pack.len(), size, "{id}");
    }
}

#[test]
fn r8_schlag_ranks_run_from_seven_to_ace_and_from_six_in_tyrolean() {
    let codes = |id: &str| -> Vec<char> {
        options(id, 4, json!({}))
            .schlag_ranks()
            .iter()
            .map(|r| r.code())
            .collect()
    };
    let seven_up = ['7', '8', '9', 'T', 'J', 'Q', 'K', 'A'];
    assert_eq!(codes("watten"), seven_up);
    assert_eq!(codes("watten_bohemian"), seven_up);
    assert_eq!(codes("watten_tyrolean")[0], '6');
    assert_eq!(codes("watten_tyrolean")[1..], seven_up);
}
