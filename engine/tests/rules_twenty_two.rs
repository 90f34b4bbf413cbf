//! Rulings (R-numbers) and every worked example (E1-E15) of `docs/rules/twenty_two.md`.
//! Scenarios are set up with stacked `deals` through the erased API, or, where a scenario needs
//! totals or eliminations from earlier deals, on the typed state.

use engine::cards::Card;
use engine::erased::NewGame;
use engine::game::GameState;
use engine::game::{GameDef, Setup, Viewer};
use engine::games::twenty_two::TwentyTwo;
use engine::games::twenty_two::action::Action;
use engine::games::twenty_two::action::Event;
use engine::games::twenty_two::rules::Options;
use engine::games::twenty_two::state::{Phase, State};
use engine::registry;
use engine::{ActionError, Match};
use serde_json::{Value, json};
use std::collections::BTreeSet;

use crate::support::{act, start};

// ---------------------------------------------------------------------------------------------
// Helpers

/// Interleaves hands given in dealing order (leader first) into one deal entry (§2.4), then the
/// stock cards from the top.
fn stack(hands: &[&str], stock: &str) -> Vec<String> {
    let hands: Vec<Vec<&str>> = hands
        .iter()
        .map(|h| h.split_whitespace().collect())
        .collect();
    let k = hands[0].len();
    let mut entry = Vec::new();
    for j in 0..k {
        for hand in &hands {
            entry.push(hand[j].to_string());
        }
    }
    entry.extend(stock.split_whitespace().map(String::from));
    entry
}

fn play(game: &mut Box<dyn Match>, seat: usize, cards: &str) -> Vec<Value> {
    let cards: Vec<&str> = cards.split_whitespace().collect();
    act(game, seat, json!({"type": "play", "cards": cards}))
}

fn refused(game: &mut Box<dyn Match>, seat: usize, action: Value) -> (&'static str, String) {
    let before = game.save();
    let err = game.apply(seat, &action).unwrap_err();
    assert_eq!(game.save(), before, "a refused action changed the state");
    match err {
        ActionError::Illegal { reason, message } => (reason, message),
        other => panic!("expected an illegal action, got {other:?}"),
    }
}

/// Everyone in `seats` ends his exchange without discarding.
fn no_exchange(game: &mut Box<dyn Match>, seats: &[usize]) {
    for &seat in seats {
        act(game, seat, json!({"type": "draw"}));
    }
}

/// The legal plays of `seat`, each as a sorted list of codes.
fn plays(game: &dyn Match, seat: usize) -> BTreeSet<Vec<String>> {
    game.legal_actions(seat)
        .iter()
        .map(|a| {
            assert_eq!(a["type"], "play");
            let mut cards: Vec<String> = a["cards"]
                .as_array()
                .unwrap()
                .iter()
                .map(|c| c.as_str().unwrap().to_string())
                .collect();
            cards.sort();
            cards
        })
        .collect()
}

fn set(lists: &[&str]) -> BTreeSet<Vec<String>> {
    lists
        .iter()
        .map(|l| {
            let mut cards: Vec<String> = l.split_whitespace().map(String::from).collect();
            cards.sort();
            cards
        })
        .collect()
}

fn hand(game: &dyn Match, seat: usize) -> Vec<String> {
    let view = game.view(Viewer::Seat(seat));
    view["hand"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_str().unwrap().to_string())
        .collect()
}

fn sorted_codes(codes: &str) -> Vec<String> {
    let mut cards = Card::parse_list(codes).unwrap();
    cards.sort();
    cards.iter().map(|c| c.to_string()).collect()
}

fn to_act(game: &dyn Match) -> usize {
    game.to_act()[0]
}

// Typed helpers.

fn typed(options: Options, players: usize, seed: u64, deals: Vec<Vec<String>>) -> State {
    TwentyTwo::setup(
        &Setup {
            players,
            options,
            seed,
            deals,
        },
        &mut Vec::new(),
    )
    .unwrap()
}

fn preset_options(id: &str, players: usize, options: Value) -> Options {
    let family = TwentyTwo::family();
    let preset = family.presets.iter().find(|p| p.id == id).unwrap().clone();
    let merged =
        engine::options::merge_options(&family.options, &preset, options.as_object().unwrap())
            .unwrap();
    let _ = players;
    serde_json::from_value(Value::Object(merged)).unwrap()
}

fn tlegal(state: &State, seat: usize) -> Vec<Action> {
    let mut out = Vec::new();
    state.legal_actions(seat, &mut out);
    out
}

/// The 4-player quick deal (leader 0, dealer 3): a set of four, a pair, then the last cards
/// `last[0..4]`. Usable for any last cards other than 2s, 3s, 4s, 6s, aces, 7S 7H, 8S 8H.
fn quick4(last: [&str; 4]) -> Vec<String> {
    let hands = [
        format!("2S 2H 2D 2C 3S 3H {}", last[0]),
        format!("4S 4H 4D 4C 3D 3C {}", last[1]),
        format!("6S 6H 6D 6C 8S 8H {}", last[2]),
        format!("AS AH AD AC 7S 7H {}", last[3]),
    ];
    let refs: Vec<&str> = hands.iter().map(String::as_str).collect();
    stack(&refs, "")
}

fn play_quick4(game: &mut Box<dyn Match>) -> Vec<Value> {
    no_exchange(game, &[0, 1, 2, 3]);
    play(game, 0, "2S 2H 2D 2C");
    play(game, 1, "4S 4H 4D 4C");
    play(game, 2, "6S 6H 6D 6C");
    play(game, 3, "AS AH AD AC");
    assert_eq!(to_act(game.as_ref()), 3, "the aces win trick 1");
    play(game, 3, "7S 7H");
    play(game, 0, "3S 3H");
    play(game, 1, "3D 3C");
    play(game, 2, "8S 8H")
}

// ---------------------------------------------------------------------------------------------
// Worked examples

const E1_SEAT0: &str = "TS 3H 4H 6H 7H 9H TH";

#[test]
fn e1_single_card_no_cover_only_lowest() {
    let deal = stack(
        &[E1_SEAT0, "KD 3S 4S 5S 6S 7S 9S", "QH JC 8S 8D 6C 5H 2D"],
        "",
    );
    let mut game = start("twenty_two", 3, json!({"first_dealer": 2}), vec![deal], 1);
    no_exchange(&mut game, &[0, 1, 2]);
    play(&mut game, 0, "TS");
    play(&mut game, 1, "KD");
    assert_eq!(plays(game.as_ref(), 2), set(&["2D"]));
    let (reason, message) = refused(&mut game, 2, json!({"type": "play", "cards": ["QH"]}));
    assert_eq!(reason, "must_cover_or_play_lowest");
    assert!(
        message.contains("must cover the target K or play your lowest card (2)"),
        "{message}"
    );
}

#[test]
fn e2_r10_lowest_throw_keeps_the_target() {
    let deal = stack(
        &[
            "TS 3S 4S 6S 7S 9S 2S",
            "3C 4D 5S 9H JS QD KC",
            "QH JC 8S 8D 6C 5H 2D",
        ],
        "",
    );
    let mut game = start("twenty_two", 3, json!({"first_dealer": 2}), vec![deal], 1);
    no_exchange(&mut game, &[0, 1, 2]);
    play(&mut game, 0, "TS");
    // R10: seat 1 may throw its lowest card although JS, QD, KC would cover.
    assert!(plays(game.as_ref(), 1).contains(&set(&["3C"]).into_iter().next().unwrap()));
    play(&mut game, 1, "3C");
    assert_eq!(game.view(Viewer::Spectator)["target"], json!(["TS"]));
    assert_eq!(plays(game.as_ref(), 2), set(&["QH", "JC", "2D"]));
    let (reason, _) = refused(&mut game, 2, json!({"type": "play", "cards": ["8S"]}));
    assert_eq!(reason, "must_cover_or_play_lowest");
}

#[test]
fn e3_r11_sets_cover_componentwise() {
    let deal = stack(
        &[
            "6S 6H 6D 4S 4H 4D 5C",
            "TC 9D 7H 5D 5S 5H 4C",
            "KS 9H 8C JS JH JD JC",
            "KH KD 6C 3S 3H 2C 2S",
        ],
        "",
    );
    let mut game = start("twenty_two", 4, json!({"first_dealer": 3}), vec![deal], 2);
    no_exchange(&mut game, &[0, 1, 2, 3]);
    play(&mut game, 0, "6S 6H 6D");
    play(&mut game, 1, "TC 9D 7H");
    assert_eq!(
        game.view(Viewer::Spectator)["target"],
        json!(["7H", "9D", "TC"])
    );
    play(&mut game, 2, "KS 9H 8C");
    assert_eq!(
        game.view(Viewer::Spectator)["target"],
        json!(["8C", "9H", "KS"])
    );
    assert_eq!(plays(game.as_ref(), 3), set(&["2C 2S 3S", "2C 2S 3H"]));
    let events = play(&mut game, 3, "3S 2S 2C");
    assert!(events.contains(&json!({"type": "trick_won", "seat": 2})));
    assert_eq!(to_act(game.as_ref()), 2);
    assert_eq!(game.view(Viewer::Spectator)["target"], Value::Null);
}

#[test]
fn e4_pairs_against_j_k() {
    let deal = stack(
        &[
            "TS TH 4S 4H 4D 6S 6H",
            "JD KC 7S 7H 7D 8S 8H",
            "AS QS QH JC 5S 3D 2H",
        ],
        "",
    );
    let mut game = start("twenty_two", 3, json!({"first_dealer": 2}), vec![deal], 3);
    no_exchange(&mut game, &[0, 1, 2]);
    play(&mut game, 0, "TS TH");
    play(&mut game, 1, "JD KC");
    assert_eq!(
        plays(game.as_ref(), 2),
        set(&["AS QS", "AS QH", "AS JC", "2H 3D"])
    );
    // Q-Q fails (Q < K): the error names the target and the lowest cards.
    let (reason, message) = refused(&mut game, 2, json!({"type": "play", "cards": ["QS", "QH"]}));
    assert_eq!(reason, "must_cover_or_play_lowest");
    assert!(
        message.contains("must cover the target J-K or play your lowest two cards (2-3)"),
        "{message}"
    );
}

/// E5 set-up: two single-card tricks won by seat 0 leave the example's 5-card hands.
fn e5_game(options: Value) -> Box<dyn Match> {
    let deal = stack(
        &[
            "AC KC 6S 6H 6D 9C 4H",
            "2H 2S 2C 2D AS AH AD",
            "3C 3D 7S 7H 7C 3S 5D",
        ],
        "",
    );
    let mut game = start("twenty_two", 3, options, vec![deal], 4);
    no_exchange(&mut game, &[0, 1, 2]);
    play(&mut game, 0, "AC");
    play(&mut game, 1, "2H");
    play(&mut game, 2, "3C");
    play(&mut game, 0, "KC");
    play(&mut game, 1, "2S");
    play(&mut game, 2, "3D");
    assert_eq!(to_act(game.as_ref()), 0);
    assert_eq!(hand(game.as_ref(), 0), sorted_codes("6S 6H 6D 9C 4H"));
    game
}

#[test]
fn e5_r12_r14_lowest_throw_with_the_top_card_wins() {
    let mut game = e5_game(json!({"first_dealer": 2}));
    play(&mut game, 0, "6S 6H 6D");
    assert_eq!(
        plays(game.as_ref(), 1),
        set(&["AS AH AD", "2C 2D AS", "2C 2D AH", "2C 2D AD"])
    );
    play(&mut game, 1, "2C 2D AS");
    // R12: the non-covering throw leaves the target at 6-6-6.
    assert_eq!(
        game.view(Viewer::Spectator)["target"],
        json!(["6S", "6H", "6D"])
    );
    assert_eq!(
        plays(game.as_ref(), 2),
        set(&["7S 7H 7C", "3S 5D 7S", "3S 5D 7H", "3S 5D 7C"])
    );
    let events = play(&mut game, 2, "7S 7H 7C");
    // R14: the ace (seat 1) wins although seat 1 did not cover.
    assert!(events.contains(&json!({"type": "trick_won", "seat": 1})));
    assert_eq!(plays(game.as_ref(), 1), set(&["AH", "AD"]));
}

#[test]
fn e5_r14_last_cover_option_gives_the_trick_to_the_last_cover() {
    let mut game = e5_game(json!({"first_dealer": 2, "set_trick_winner": "last_cover"}));
    play(&mut game, 0, "6S 6H 6D");
    play(&mut game, 1, "2C 2D AS");
    let events = play(&mut game, 2, "7S 7H 7C");
    assert!(events.contains(&json!({"type": "trick_won", "seat": 2})));
}

#[test]
fn e6_r9_lead_must_keep_a_card() {
    let deal = stack(&["4S 4H 4D 4C 9S 9H 9D", "2S 2H 2D 3S 8S 8H 8D"], "");
    let mut game = start("twenty_two", 2, json!({"first_dealer": 1}), vec![deal], 5);
    no_exchange(&mut game, &[0, 1]);
    play(&mut game, 0, "4S 4H 4D 4C");
    play(&mut game, 1, "2S 2H 2D 3S");
    assert_eq!(to_act(game.as_ref()), 0);
    assert_eq!(
        plays(game.as_ref(), 0),
        set(&["9S", "9H", "9D", "9S 9H", "9S 9D", "9H 9D"])
    );
    let (reason, message) = refused(
        &mut game,
        0,
        json!({"type": "play", "cards": ["9S", "9H", "9D"]}),
    );
    assert_eq!(reason, "must_keep_a_card");
    assert!(
        message.contains("lead at most 2 of your 3 cards"),
        "{message}"
    );
}

#[test]
fn e7_r13_lowest_cards_tie_at_the_boundary() {
    let deal = stack(&["KS KH KD QS QH 4C 5C", "2S 2H 2D 3S 3H 3D 8C"], "");
    let mut game = start("twenty_two", 2, json!({"first_dealer": 1}), vec![deal], 6);
    no_exchange(&mut game, &[0, 1]);
    play(&mut game, 0, "KS KH KD");
    play(&mut game, 1, "2S 2H 2D");
    play(&mut game, 0, "QS QH");
    assert_eq!(plays(game.as_ref(), 1), set(&["3S 3H", "3S 3D", "3H 3D"]));
    let (reason, message) = refused(&mut game, 1, json!({"type": "play", "cards": ["3S", "8C"]}));
    assert_eq!(reason, "must_cover_or_play_lowest");
    assert!(
        message.contains("must cover the target Q-Q or play your lowest two cards (3-3)"),
        "{message}"
    );
}

/// E8 deal 1 (6 players, leader 0): seat 2 alone loses with QC.
fn e8_game() -> Box<dyn Match> {
    let deal = stack(
        &[
            "2S 2H 2D 2C 7S 7H 8S",
            "3S 3H 3D 3C 7D 7C 8H",
            "4S 4H 4D 4C 8D 8C QC",
            "5S 5H 5D 5C 9S 9H 9D",
            "6S 6H 6D 6C TS TH TD",
            "AS AH AD AC KS KH JS",
        ],
        "",
    );
    let mut game = start("twenty_two", 6, json!({"first_dealer": 5}), vec![deal], 7);
    no_exchange(&mut game, &[0, 1, 2, 3, 4, 5]);
    play(&mut game, 0, "2S 2H 2D 2C");
    play(&mut game, 1, "3S 3H 3D 3C");
    play(&mut game, 2, "4S 4H 4D 4C");
    play(&mut game, 3, "5S 5H 5D 5C");
    play(&mut game, 4, "6S 6H 6D 6C");
    play(&mut game, 5, "AS AH AD AC");
    play(&mut game, 5, "KS KH");
    play(&mut game, 0, "7S 7H");
    play(&mut game, 1, "7D 7C");
    play(&mut game, 2, "8D 8C");
    play(&mut game, 3, "9S 9H");
    let events = play(&mut game, 4, "TS TH");
    assert!(
        events.contains(
            &json!({"type": "penalty", "seat": 2, "card": "QC", "points": 10, "total": 10})
        )
    );
    game
}

#[test]
fn e8_r5_r7_deal_size_and_exchange_cap() {
    let mut game = e8_game();
    let view = game.view(Viewer::Spectator);
    // R5: P = 51, T = 10, k = min(10, 8) = 8, stock 3; the loser deals (seat 2), seat 3 leads.
    assert_eq!(view["deal"], 2);
    assert_eq!(view["dealer"], 2);
    assert_eq!(view["cards_each"], 8);
    assert_eq!(view["stock_size"], 3);
    assert_eq!(view["hand_sizes"], json!([8, 8, 8, 8, 8, 8]));
    assert_eq!(view["markers"][2], json!(["QC"]));
    assert_eq!(to_act(game.as_ref()), 3);
    let h3 = hand(game.as_ref(), 3);
    act(&mut game, 3, json!({"type": "discard", "card": h3[0]}));
    act(&mut game, 3, json!({"type": "discard", "card": h3[1]}));
    let events = act(&mut game, 3, json!({"type": "draw"}));
    assert!(events.contains(&json!({"type": "draw", "seat": 3, "count": 2})));
    assert_eq!(game.view(Viewer::Spectator)["stock_size"], 1);
    // Seat 4 (S0 = 1): one discard per distinct card plus draw; then draw only.
    assert_eq!(game.legal_actions(4).len(), 9);
    let h4 = hand(game.as_ref(), 4);
    act(&mut game, 4, json!({"type": "discard", "card": h4[7]}));
    assert_eq!(game.legal_actions(4), vec![json!({"type": "draw"})]);
    let (reason, _) = refused(&mut game, 4, json!({"type": "discard", "card": h4[0]}));
    assert_eq!(reason, "stock_exhausted");
    act(&mut game, 4, json!({"type": "draw"}));
    // The stock is empty: the other four turns are skipped; the leader leads.
    assert_eq!(game.view(Viewer::Spectator)["phase"], "play");
    assert_eq!(to_act(game.as_ref()), 3);
    assert_eq!(hand(game.as_ref(), 3).len(), 8);
}

#[test]
fn e9_r16_r21_last_trick_tie_both_lose_and_draw_for_dealer() {
    let mut dealers = BTreeSet::new();
    for seed in 0..16 {
        let mut game = start(
            "twenty_two",
            4,
            json!({"first_dealer": 3}),
            vec![quick4(["KS", "5D", "KH", "9C"])],
            seed,
        );
        let events = play_quick4(&mut game);
        assert!(events.contains(
            &json!({"type": "penalty", "seat": 0, "card": "KS", "points": 10, "total": 10})
        ));
        assert!(events.contains(
            &json!({"type": "penalty", "seat": 2, "card": "KH", "points": 10, "total": 10})
        ));
        let view = game.view(Viewer::Spectator);
        assert_eq!(view["totals"], json!([10, 0, 10, 0]));
        assert_eq!(view["markers"], json!([["KS"], [], ["KH"], []]));
        assert_eq!(view["last_losers"], json!([0, 2]));
        // R6: the pack lost both markers (50 cards); T = 10 gives 10 cards each, stock 10.
        assert_eq!(view["cards_each"], 10);
        assert_eq!(view["stock_size"], 10);
        let pieces = game.pieces();
        assert_eq!(pieces.len(), 52);
        let dealer = view["dealer"].as_u64().unwrap();
        assert!(dealer == 0 || dealer == 2, "dealer {dealer}");
        dealers.insert(dealer);
    }
    assert_eq!(
        dealers.len(),
        2,
        "R21: the draw between the losers is random"
    );
}

/// A uniformly random game of `id` (seeded): the game at its end and the events of every action.
fn random_game(
    id: &str,
    players: usize,
    options: Value,
    seed: u64,
) -> (Box<dyn Match>, Vec<Vec<Value>>) {
    let mut game = start(id, players, options, Vec::new(), seed);
    let mut rng = engine::rng::PlayoutRng::new(seed ^ 0x5EED);
    let mut steps = Vec::new();
    while let Some(&seat) = game.to_act().first() {
        let legal = game.legal_actions(seat);
        steps.push(act(&mut game, seat, legal[rng.below(legal.len())].clone()));
    }
    (game, steps)
}

fn seats_of(view: &Value, key: &str) -> Vec<Value> {
    view[key].as_array().unwrap().clone()
}

/// Groups `seats` best first by `key` ascending (equal keys share a rank).
fn groups_by(seats: Vec<usize>, key: impl Fn(usize) -> i64) -> Vec<Vec<usize>> {
    let mut seats = seats;
    seats.sort_by_key(|s| (key(*s), *s));
    let mut out: Vec<Vec<usize>> = Vec::new();
    for s in seats {
        match out.last_mut() {
            Some(g) if key(g[0]) == key(s) => g.push(s),
            _ => out.push(vec![s]),
        }
    }
    out
}

/// §5.2's ranking of a finished game, recomputed from the public view: survivors, then (pot) the
/// other players of the final deal, then the eliminated by later elimination, a group eliminated
/// in one deal ordered by lower total or sharing (R20).
fn expected_ranking(view: &Value) -> Vec<Vec<usize>> {
    let totals: Vec<i64> = seats_of(view, "totals")
        .iter()
        .map(|t| t.as_i64().unwrap())
        .collect();
    let out_in: Vec<Option<u64>> = seats_of(view, "eliminated_in")
        .iter()
        .map(Value::as_u64)
        .collect();
    let options = &view["options"];
    let shared = options["simultaneous_elimination"] == "shared";
    let final_deal = view["deal"].as_u64().unwrap();
    let total = |s: usize| totals[s];
    let same_deal = |group: Vec<usize>| -> Vec<Vec<usize>> {
        if shared {
            vec![group]
        } else {
            groups_by(group, total)
        }
    };
    let n = totals.len();
    let mut ranking = Vec::new();
    let mut earlier: Vec<usize> = (0..n).collect();
    match options["end_condition"].as_str().unwrap() {
        "first_elimination" => {
            ranking.extend(groups_by(
                (0..n).filter(|s| out_in[*s].is_none()).collect(),
                total,
            ));
            ranking.extend(groups_by(
                (0..n).filter(|s| out_in[*s].is_some()).collect(),
                total,
            ));
            return ranking;
        }
        "pot" => {
            let last: Vec<usize> = (0..n)
                .filter(|s| out_in[*s].is_none_or(|d| d == final_deal))
                .collect();
            ranking.extend(groups_by(last.clone(), total));
            earlier.retain(|s| !last.contains(s));
        }
        _ => {
            ranking.extend((0..n).filter(|s| out_in[*s].is_none()).map(|s| vec![s]));
            earlier.retain(|s| out_in[*s].is_some());
        }
    }
    let mut deals: Vec<u64> = earlier.iter().map(|s| out_in[*s].unwrap()).collect();
    deals.sort_unstable_by(|a, b| b.cmp(a));
    deals.dedup();
    for d in deals {
        ranking.extend(same_deal(
            earlier
                .iter()
                .copied()
                .filter(|s| out_in[*s] == Some(d))
                .collect(),
        ));
    }
    ranking
}

/// Seats whose elimination came in the final deal, when nobody survived it (E10's case).
fn all_out_at_once(view: &Value) -> bool {
    let out_in: Vec<Option<u64>> = seats_of(view, "eliminated_in")
        .iter()
        .map(Value::as_u64)
        .collect();
    let final_deal = view["deal"].as_u64();
    out_in.iter().all(Option::is_some) && out_in.iter().filter(|d| **d == final_deal).count() >= 2
}

#[test]
fn e10_r20_everyone_left_eliminated_lower_total_wins_or_shares() {
    // E10: the last two players both go out in one deal; by default the lower total ranks first,
    // with `shared` both rank first. Checked on every seeded game, counting E10's case.
    for option in ["lower_score", "shared"] {
        let mut all_out = 0;
        for seed in 0..150 {
            let options = json!({"simultaneous_elimination": option});
            let (game, _) = random_game("twenty_two", 4, options, seed);
            let view = game.view(Viewer::Spectator);
            let result = game.result().unwrap();
            assert_eq!(
                result.ranking,
                expected_ranking(&view),
                "seed {seed}: {view}"
            );
            let totals: Vec<f64> = seats_of(&view, "totals")
                .iter()
                .map(|t| t.as_f64().unwrap())
                .collect();
            assert_eq!(result.scores, totals);
            if all_out_at_once(&view) {
                all_out += 1;
                let top = &result.ranking[0];
                if option == "shared" {
                    assert!(top.len() >= 2, "seed {seed}: {:?}", result.ranking);
                }
            }
        }
        assert!(
            all_out > 0,
            "{option}: no seeded game ended with everyone out at once"
        );
    }
}

#[test]
fn e11_r19_first_elimination_ranking() {
    // E11: the game ends at the first elimination; the others rank by lower total (ties share),
    // the eliminated last.
    let mut shared_ranks = 0;
    for seed in 0..60 {
        let (game, _) = random_game("twenty_two_short", 4, json!({}), seed);
        let view = game.view(Viewer::Spectator);
        let eliminated = seats_of(&view, "eliminated")
            .iter()
            .filter(|e| **e == json!(true))
            .count();
        assert!(eliminated >= 1);
        let result = game.result().unwrap();
        assert_eq!(
            result.ranking,
            expected_ranking(&view),
            "seed {seed}: {view}"
        );
        shared_ranks += usize::from(result.ranking.iter().any(|g| g.len() > 1));
    }
    assert!(shared_ranks > 0, "no seeded game had a shared rank");
}

#[test]
fn e12_r24_r30_gambling_buy_back_once_and_the_pot() {
    // E12 over seeded 5-player games of `gambling_cucumber`: a player reaching 30 in a deal that
    // started with 4 or more, who never bought back, chooses (accept: one more stake, back to his
    // total before the deal); a second time he is out without a choice; a deal starting with three
    // ends the game at its first elimination; the pot goes to the lowest total of the final deal.
    let (mut offers, mut accepted, mut second_time, mut three_left) = (0, 0, 0, 0);
    for seed in 0..60 {
        let mut game = start("gambling_cucumber", 5, json!({}), Vec::new(), seed);
        let mut rng = engine::rng::PlayoutRng::new(seed);
        let mut before = seats_of(&game.view(Viewer::Spectator), "totals");
        let mut in_at_start = 5;
        while let Some(&seat) = game.to_act().first() {
            let view = game.view(Viewer::Spectator);
            let legal = game.legal_actions(seat);
            let choice = legal.iter().any(|a| a["type"] == "accept");
            if choice {
                offers += 1;
                assert_eq!(
                    legal,
                    vec![json!({"type": "accept"}), json!({"type": "fold"})]
                );
                assert!(
                    in_at_start >= 4,
                    "seed {seed}: a buy-back with {in_at_start} at the start"
                );
                assert_eq!(view["bought_back"][seat], json!(false));
                assert!(view["totals"][seat].as_u64().unwrap() >= 30);
            }
            let action = legal[rng.below(legal.len())].clone();
            let events = act(&mut game, seat, action.clone());
            let after = game.view(Viewer::Spectator);
            if choice && action["type"] == "accept" {
                accepted += 1;
                assert!(
                    events.contains(
                        &json!({"type": "buy_back", "seat": seat, "total": before[seat]})
                    )
                );
                assert_eq!(after["stakes"][seat], json!(2));
            }
            for e in &events {
                if e["type"] == "eliminated" {
                    let out = e["seat"].as_u64().unwrap() as usize;
                    if view["bought_back"][out] == json!(true) {
                        second_time += 1;
                    }
                    if in_at_start <= 3 {
                        three_left += 1;
                        assert!(
                            game.is_over(),
                            "seed {seed}: a deal of three ended without the game"
                        );
                    }
                }
            }
            if let Some(deal) = events.iter().find(|e| e["type"] == "deal") {
                let fresh = game.view(Viewer::Spectator);
                before = seats_of(&fresh, "totals");
                in_at_start = seats_of(&fresh, "eliminated")
                    .iter()
                    .filter(|e| **e == json!(false))
                    .count();
                assert_eq!(deal["cards_each"], json!(7));
            }
        }
        let view = game.view(Viewer::Spectator);
        let result = game.result().unwrap();
        assert_eq!(
            result.ranking,
            expected_ranking(&view),
            "seed {seed}: {view}"
        );
        let stakes: Vec<f64> = seats_of(&view, "stakes")
            .iter()
            .map(|s| s.as_f64().unwrap())
            .collect();
        let pot: f64 = stakes.iter().sum();
        assert_eq!(result.details["pot"], json!(pot as u64));
        let winners = &result.ranking[0];
        let payoffs: Vec<f64> = (0..5)
            .map(|s| if winners.contains(&s) { pot / winners.len() as f64 } else { 0.0 } - stakes[s])
            .collect();
        assert_eq!(result.details["payoffs"], json!(payoffs));
    }
    assert!(
        offers > 0 && accepted > 0 && second_time > 0 && three_left > 0,
        "offers {offers}, accepted {accepted}, second eliminations {second_time}, three left {three_left}"
    );
}

/// A 3-player `gambling_cucumber` deal (dealer 2, leader 0; no exchange in Agurk) with E13's
/// hands first: seat 0 AS 8S 2C 3C, seat 1 AH 4C 9D 5S, seat 2 the kings.
fn agurk_e13() -> Box<dyn Match> {
    let entry = stack(
        &[
            "AS 8S 2C 3C 5C 6C 7C",
            "AH 4C 9D 5S 5H 6H 7H",
            "KS KH KD KC 5D 6D 7D",
        ],
        "",
    );
    let game = start(
        "gambling_cucumber",
        3,
        json!({"first_dealer": 2}),
        vec![entry],
        10,
    );
    assert_eq!(to_act(game.as_ref()), 0);
    game
}

#[test]
fn e13_r25_agurk_ace_led_forces_lowest_else_must_head() {
    let mut game = agurk_e13();
    play(&mut game, 0, "AS");
    assert_eq!(plays(game.as_ref(), 1), set(&["4C"]));
    let (reason, _) = refused(&mut game, 1, json!({"type": "play", "cards": ["AH"]}));
    assert_eq!(reason, "must_play_lowest");
    let mut game = agurk_e13();
    play(&mut game, 0, "8S");
    assert_eq!(plays(game.as_ref(), 1), set(&["9D", "AH"]));
    let (reason, _) = refused(&mut game, 1, json!({"type": "play", "cards": ["4C"]}));
    assert_eq!(reason, "must_head");
    // Agurk leads are single cards (no sets) and there is no exchange.
    assert!(game.legal_actions(0).is_empty());
    let view = game.view(Viewer::Spectator);
    assert_eq!(view["discarded"], json!([0, 0, 0]));
}

#[test]
fn e14_r27_r28_exchange_steps_with_two_packs() {
    let leader = ["7H", "7H", "2C", "3D", "9S", "KC", "AS"];
    // Fill the other seats and the top of the stock from the double pack.
    let mut pool: Vec<String> = engine::cards::PackSpec::standard()
        .copies(2)
        .cards()
        .iter()
        .map(|c| c.to_string())
        .collect();
    for code in leader {
        let pos = pool.iter().position(|c| c == code).unwrap();
        pool.remove(pos);
    }
    let mut entry = Vec::new();
    let mut rest = pool.into_iter();
    for j in 0..59 {
        if j % 8 == 0 && j < 56 {
            entry.push(leader[j / 8].to_string());
        } else {
            entry.push(rest.next().unwrap());
        }
    }
    let top3: Vec<String> = entry[56..59].to_vec();
    let mut game = start("twenty_two", 8, json!({"first_dealer": 7}), vec![entry], 11);
    let view = game.view(Viewer::Spectator);
    assert_eq!(view["packs"], 2);
    assert_eq!(view["cards_each"], 7);
    assert_eq!(view["stock_size"], 48);
    assert_eq!(hand(game.as_ref(), 0), sorted_codes("7H 7H 2C 3D 9S KC AS"));
    let expected: Vec<Value> = ["2C", "3D", "7H", "9S", "KC", "AS"]
        .iter()
        .map(|c| json!({"type": "discard", "card": c}))
        .chain([json!({"type": "draw"})])
        .collect();
    assert_eq!(game.legal_actions(0), expected);
    act(&mut game, 0, json!({"type": "discard", "card": "7H"}));
    assert_eq!(game.legal_actions(0), expected, "7H is still held once");
    act(&mut game, 0, json!({"type": "discard", "card": "7H"}));
    act(&mut game, 0, json!({"type": "discard", "card": "2C"}));
    act(&mut game, 0, json!({"type": "draw"}));
    let h = hand(game.as_ref(), 0);
    assert_eq!(h.len(), 7);
    for code in &top3 {
        assert!(h.contains(code), "{code} drawn from the top of the stock");
    }
    let mine = game.view(Viewer::Seat(0));
    assert_eq!(mine["my_discards"], json!(["7H", "7H", "2C"]));
    assert_eq!(game.view(Viewer::Spectator)["discarded"][0], 3);
    assert_eq!(game.view(Viewer::Spectator)["stock_size"], 45);
    assert_eq!(to_act(game.as_ref()), 1);
    let err = game
        .apply(0, &json!({"type": "discard", "card": "9S"}))
        .unwrap_err();
    assert_eq!(err.code(), "not_your_turn");
}

fn e15_deal() -> Vec<String> {
    "AS KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S AH KH QH JH TH 9H 8H 7H 6H 5H 4H"
        .split_whitespace()
        .map(String::from)
        .collect()
}

#[test]
fn e15_r4_r29_stacked_deal_consumption() {
    let game = start(
        "twenty_two",
        3,
        json!({"first_dealer": 0}),
        vec![e15_deal()],
        12,
    );
    assert_eq!(hand(game.as_ref(), 1), sorted_codes("AS JS 8S 5S 2S QH 9H"));
    assert_eq!(hand(game.as_ref(), 2), sorted_codes("KS TS 7S 4S AH JH 8H"));
    assert_eq!(hand(game.as_ref(), 0), sorted_codes("QS 9S 6S 3S KH TH 7H"));
    assert_eq!(game.view(Viewer::Spectator)["stock_size"], 31);
    // Seat 1 discards two and draws: 6H and 5H.
    let mut a = game.clone_match();
    act(&mut a, 1, json!({"type": "discard", "card": "AS"}));
    act(&mut a, 1, json!({"type": "discard", "card": "JS"}));
    act(&mut a, 1, json!({"type": "draw"}));
    assert_eq!(a.view(Viewer::Seat(1))["my_draws"], json!(["6H", "5H"]));
    // Seat 1 keeps its hand, seat 2 discards one: seat 2 receives 6H.
    let mut b = game.clone_match();
    act(&mut b, 1, json!({"type": "draw"}));
    act(&mut b, 2, json!({"type": "discard", "card": "KS"}));
    act(&mut b, 2, json!({"type": "draw"}));
    assert_eq!(b.view(Viewer::Seat(2))["my_draws"], json!(["6H"]));
}

// ---------------------------------------------------------------------------------------------
// Rulings

#[test]
fn r3_first_dealer_is_a_uniform_draw_or_fixed() {
    let mut seen = BTreeSet::new();
    for seed in 0..40 {
        let game = start("twenty_two", 4, json!({}), Vec::new(), seed);
        seen.insert(game.view(Viewer::Spectator)["dealer"].as_u64().unwrap());
    }
    assert_eq!(seen.len(), 4);
    let game = start("twenty_two", 4, json!({"first_dealer": 2}), Vec::new(), 1);
    assert_eq!(game.view(Viewer::Spectator)["dealer"], 2);
    let err = registry::find("twenty_two")
        .unwrap()
        .start(&NewGame {
            players: 4,
            options: json!({"first_dealer": 5}).as_object().cloned().unwrap(),
            ..NewGame::default()
        })
        .unwrap_err();
    assert!(err.to_string().contains("first_dealer"), "{err}");
}

#[test]
fn r5_first_deal_shortened_for_eight_players_with_one_pack() {
    let game = start("twenty_two", 8, json!({"packs": 1}), Vec::new(), 2);
    let view = game.view(Viewer::Spectator);
    assert_eq!(view["cards_each"], 6);
    assert_eq!(view["stock_size"], 4);
}

#[test]
fn r8_leader_is_the_player_after_the_dealer_and_exchanges_first() {
    let game = start("twenty_two", 5, json!({"first_dealer": 4}), Vec::new(), 3);
    let view = game.view(Viewer::Spectator);
    assert_eq!(view["leader"], 0);
    assert_eq!(view["phase"], "exchange");
    assert_eq!(to_act(game.as_ref()), 0);
}

#[test]
fn r17_r18_penalty_values_and_elimination_after_the_deal() {
    let o = Options::default();
    let values: Vec<u32> = (0..13).map(|r| o.penalty(r)).collect();
    assert_eq!(values, vec![2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10, 11]);
    let c = preset_options("gambling_cucumber", 3, json!({}));
    assert_eq!(c.penalty(9), 11);
    assert_eq!(c.penalty(10), 12);
    assert_eq!(c.penalty(11), 13);
    assert_eq!(c.penalty(12), 14);
    // A king alone scores 10; reaching the threshold puts the player out at the end of the deal
    // (R18). (The spec's 12 + 10 = 22 with the default threshold; here the lowest threshold, 10,
    // makes that one deal's king fatal.)
    let mut game = start(
        "twenty_two",
        4,
        json!({"first_dealer": 3, "elimination_threshold": 10}),
        vec![quick4(["KD", "5D", "9C", "5H"])],
        13,
    );
    let events = play_quick4(&mut game);
    let penalty = events.iter().position(|e| e["type"] == "penalty").unwrap();
    let out = events
        .iter()
        .position(|e| *e == json!({"type": "eliminated", "seat": 0, "total": 10}))
        .unwrap();
    assert!(penalty < out);
    let view = game.view(Viewer::Spectator);
    assert_eq!(view["eliminated"], json!([true, false, false, false]));
    assert_eq!(view["deal"], 2);
    assert_eq!(view["hand_sizes"][0], 0);
}

#[test]
fn r21_losers_out_random_survivor_or_next_seat() {
    // Seat 0 alone loses and goes out: random survivor deals (seats 1-3), or by next_seat the
    // player after seat 0 (seat 1) leads and the one before him (seat 3) deals.
    let mut dealers = BTreeSet::new();
    for seed in 0..20 {
        for next_seat in [false, true] {
            let options = if next_seat {
                json!({"first_dealer": 3, "dealer_when_losers_out": "next_seat"})
            } else {
                json!({"first_dealer": 3})
            };
            let mut options = options;
            options["elimination_threshold"] = json!(10);
            let mut game = start(
                "twenty_two",
                4,
                options,
                vec![quick4(["KD", "5D", "9C", "5H"])],
                seed,
            );
            play_quick4(&mut game);
            assert_eq!(game.view(Viewer::Spectator)["eliminated"][0], json!(true));
            let view = game.view(Viewer::Spectator);
            let dealer = view["dealer"].as_u64().unwrap();
            if next_seat {
                assert_eq!((dealer, view["leader"].as_u64().unwrap()), (3, 1));
            } else {
                assert_ne!(dealer, 0);
                dealers.insert(dealer);
            }
        }
    }
    assert_eq!(dealers.len(), 3);
}

#[test]
fn r22_packs_auto_and_large_sets() {
    for (players, packs) in [(2, 1), (6, 1), (7, 2), (8, 2), (9, 3), (12, 3)] {
        let game = start("twenty_two", players, json!({}), Vec::new(), 1);
        assert_eq!(
            game.view(Viewer::Spectator)["packs"],
            packs,
            "{players} players"
        );
        assert_eq!(game.pieces().len(), 52 * packs);
    }
    // With two packs a set of five sevens can be led (8 players, h = 7).
    let five = ["7S", "7S", "7H", "7H", "7D", "2C", "3C"];
    let mut entry = Vec::new();
    let mut pool: Vec<String> = engine::cards::PackSpec::standard()
        .copies(2)
        .cards()
        .iter()
        .map(|c| c.to_string())
        .collect();
    for code in five {
        let pos = pool.iter().position(|c| c == code).unwrap();
        pool.remove(pos);
    }
    let mut rest = pool.into_iter();
    for j in 0..56 {
        entry.push(if j % 8 == 0 {
            five[j / 8].to_string()
        } else {
            rest.next().unwrap()
        });
    }
    let mut game = start("twenty_two", 8, json!({"first_dealer": 7}), vec![entry], 2);
    no_exchange(&mut game, &[0, 1, 2, 3, 4, 5, 6, 7]);
    let leads = plays(game.as_ref(), 0);
    assert!(leads.is_superset(&set(&["7S 7S 7H 7H 7D"])));
    // R27: copies are interchangeable: ["7S","7H"] is listed once, not per copy.
    let pairs = game
        .legal_actions(0)
        .iter()
        .filter(|a| a["cards"] == json!(["7S", "7H"]))
        .count();
    assert_eq!(pairs, 1);
    // Any order is accepted.
    play(&mut game, 0, "7D 7H 7S 7H 7S");
    assert_eq!(hand(game.as_ref(), 0), sorted_codes("2C 3C"));
}

#[test]
fn r22_full_pack_order_is_the_pack_spec_order() {
    for packs in 1..=3 {
        let state = typed(
            Options {
                packs: engine::games::twenty_two::rules::Packs::Count(packs as u8),
                ..Options::default()
            },
            3,
            1,
            Vec::new(),
        );
        assert_eq!(
            state.full_pack(),
            engine::cards::PackSpec::standard().copies(packs).cards()
        );
    }
}

#[test]
fn r26_two_players_play_to_the_end() {
    let game = registry::find("twenty_two").unwrap();
    for seed in 0..5 {
        assert!(game.random_playout(2, seed).unwrap() > 10);
    }
}

#[test]
fn r27_plays_accept_any_order_and_name_cards_in_errors() {
    let mut game = e5_game(json!({"first_dealer": 2}));
    let (reason, message) = refused(&mut game, 0, json!({"type": "play", "cards": ["QS"]}));
    assert_eq!(reason, "card_not_in_hand");
    assert_eq!(message, "QS is not in your hand");
    let (reason, _) = refused(&mut game, 0, json!({"type": "play", "cards": ["6S", "9C"]}));
    assert_eq!(reason, "not_a_set");
    let (reason, _) = refused(&mut game, 0, json!({"type": "play", "cards": []}));
    assert_eq!(reason, "empty_play");
    play(&mut game, 0, "6D 6S 6H");
    let (reason, message) = refused(&mut game, 1, json!({"type": "play", "cards": ["AS"]}));
    assert_eq!(reason, "wrong_count");
    assert!(message.contains("play exactly 3"), "{message}");
    let (reason, _) = refused(&mut game, 1, json!({"type": "draw"}));
    assert_eq!(reason, "wrong_phase");
    play(&mut game, 1, "AS 2D 2C");
}

#[test]
fn r29_later_entries_drop_marker_cards_and_bad_entries_are_refused() {
    // Deal 2's entry starts with KS and KH, which became markers in deal 1 (E9): they are
    // dropped and the next entry cards move up (the leader gets 2S first).
    let deal2: Vec<String> = "KS KH 2S 2H 2D 2C"
        .split_whitespace()
        .map(String::from)
        .collect();
    let mut game = start(
        "twenty_two",
        4,
        json!({"first_dealer": 3}),
        vec![quick4(["KS", "5D", "KH", "9C"]), deal2],
        0,
    );
    play_quick4(&mut game);
    let view = game.view(Viewer::Spectator);
    let leader = view["leader"].as_u64().unwrap() as usize;
    let order: Vec<usize> = (0..4).map(|i| (leader + i) % 4).collect();
    for (i, code) in ["2S", "2H", "2D", "2C"].iter().enumerate() {
        assert!(hand(game.as_ref(), order[i]).contains(&code.to_string()));
    }
    let bad = [
        (vec!["XX"], "not a card code"),
        (vec!["AS", "AS"], "AS is listed 2 times"),
        (vec!["JK"], "not a card of this game's pack"),
    ];
    for (entry, expected) in bad {
        let err = registry::find("twenty_two")
            .unwrap()
            .start(&NewGame {
                players: 3,
                deals: vec![entry.iter().map(|s| s.to_string()).collect()],
                ..NewGame::default()
            })
            .unwrap_err();
        assert_eq!(err.code(), "invalid_deals");
        assert!(err.to_string().contains(expected), "{err}");
    }
}

#[test]
fn r30_two_player_pot_game_ends_only_with_an_elimination() {
    let game = registry::find("twenty_two").unwrap();
    let options = json!({"end_condition": "pot", "buy_back": true});
    for seed in 0..10 {
        let mut m = game
            .start(&NewGame {
                players: 2,
                options: options.as_object().cloned().unwrap(),
                seed,
                deals: Vec::new(),
            })
            .unwrap();
        let mut deals_seen = 0;
        while !m.is_over() {
            let seat = m.to_act()[0];
            let legal = m.legal_actions(seat);
            m.apply(seat, &legal[legal.len() / 2]).unwrap();
            deals_seen = m.view(Viewer::Spectator)["deal"].as_u64().unwrap();
        }
        let view = m.view(Viewer::Spectator);
        let out = view["eliminated"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|e| **e == json!(true))
            .count();
        assert!(
            out >= 1,
            "seed {seed}: ended after {deals_seen} deals without elimination"
        );
        // Two players: no buy-back (deal started with fewer than 4), pot of 2 to the winner.
        let result = m.result().unwrap();
        assert_eq!(result.details["pot"], 2);
    }
}

#[test]
fn r31_stakes_outside_pot_go_to_rank_one() {
    let game = registry::find("twenty_two").unwrap();
    let mut m = game
        .start(&NewGame {
            players: 4,
            options: json!({"buy_back": true}).as_object().cloned().unwrap(),
            seed: 21,
            deals: Vec::new(),
        })
        .unwrap();
    while !m.is_over() {
        let seat = m.to_act()[0];
        let legal = m.legal_actions(seat);
        m.apply(seat, &legal[0]).unwrap();
    }
    let result = m.result().unwrap();
    let pot = result.details["pot"].as_u64().unwrap();
    let stakes: Vec<u64> = result.details["stakes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_u64().unwrap())
        .collect();
    assert_eq!(pot, stakes.iter().sum::<u64>());
    let winners = &result.ranking[0];
    let payoffs = result.details["payoffs"].as_array().unwrap();
    let sum: f64 = payoffs.iter().map(|p| p.as_f64().unwrap()).sum();
    assert!(sum.abs() < 1e-9, "payoffs sum to zero");
    for seat in 0..4 {
        let expected = if winners.contains(&seat) {
            pot as f64 / winners.len() as f64
        } else {
            0.0
        } - stakes[seat] as f64;
        assert!((payoffs[seat].as_f64().unwrap() - expected).abs() < 1e-9);
    }
}

#[test]
fn views_hide_hands_stock_and_others_discards() {
    let mut game = start(
        "twenty_two",
        3,
        json!({"first_dealer": 0}),
        vec![e15_deal()],
        12,
    );
    act(&mut game, 1, json!({"type": "discard", "card": "AS"}));
    let spectator = game.view(Viewer::Spectator);
    assert!(spectator.get("hand").is_none());
    assert!(!spectator.to_string().contains("\"AS\""));
    let other = game.view(Viewer::Seat(2));
    assert!(!other.to_string().contains("\"AS\""));
    assert_eq!(other["discarded"], json!([0, 1, 0]));
    let own = game.view(Viewer::Seat(1));
    assert_eq!(own["my_discards"], json!(["AS"]));
    assert_eq!(own["hand_sizes"], json!([7, 6, 7]));
}

// ---------------------------------------------------------------------------------------------
// Heuristic

#[test]
fn r22_nine_to_eleven_players_play_out_conserving_cards() {
    // The generic conformance suite covers 2..8 and 12 players; this covers 9, 10 and 11.
    for id in ["twenty_two", "twenty_two_short"] {
        let game = registry::find(id).unwrap();
        for players in 9..=11 {
            for seed in 0..2 {
                let mut m = game
                    .start(&NewGame {
                        players,
                        seed,
                        ..NewGame::default()
                    })
                    .unwrap();
                let mut pieces = m.pieces();
                pieces.sort();
                assert_eq!(pieces.len(), 156);
                let mut steps = 0u64;
                while !m.is_over() {
                    let seat = m.to_act()[0];
                    let legal = m.legal_actions(seat);
                    steps = steps
                        .wrapping_mul(6364136223846793005)
                        .wrapping_add(1442695040888963407);
                    let action = legal[(steps >> 33) as usize % legal.len()].clone();
                    m.apply(seat, &action).unwrap();
                    let mut now = m.pieces();
                    now.sort();
                    assert_eq!(now, pieces);
                }
                let result = m.result().unwrap();
                let mut ranked: Vec<usize> = result.ranking.concat();
                ranked.sort();
                assert_eq!(ranked, (0..players).collect::<Vec<_>>());
                let saved = m.save();
                assert_eq!(game.load(&saved).unwrap().save(), saved);
            }
        }
    }
}

#[test]
fn r5_r6_one_card_each_still_exchanges_then_goes_to_the_last_trick() {
    // 12 players, one pack, threshold 99: markers pile up until P < 24 and k = min(T, P / 12)
    // = 1 (the spec's example: 30 markers out, P = 22, stock 10). Every player still exchanges,
    // then the single cards go straight to the last trick and the next deal starts.
    let mut one_card_deals = 0;
    for seed in 0..8 {
        let mut state = typed(
            Options {
                packs: engine::games::twenty_two::rules::Packs::Count(1),
                elimination_threshold: 99,
                ..Options::default()
            },
            12,
            seed,
            Vec::new(),
        );
        let mut rng = engine::rng::PlayoutRng::new(seed);
        loop {
            let seat = match state.to_act() {
                engine::Actors::One(seat) => seat,
                engine::Actors::None => break,
                engine::Actors::Many(seats) => seats[0],
            };
            if state.cards_each == 1 && matches!(state.phase, Phase::Exchange { discarded: 0, .. })
            {
                let in_game = state.totals.len() - state.eliminated_in.iter().flatten().count();
                assert_eq!(
                    state.stock.len(),
                    state.full_pack().len() - state.withheld.len() - in_game
                );
                let deal = state.deal;
                let mut events = Vec::new();
                for _ in 0..in_game {
                    let Phase::Exchange { seat, .. } = state.phase else {
                        panic!("seed {seed}: {:?} before everyone exchanged", state.phase);
                    };
                    assert!(tlegal(&state, seat).contains(&Action::Draw {}));
                    events.clear();
                    state.apply(seat, &Action::Draw {}, &mut events).unwrap();
                }
                assert!(
                    events.iter().any(|e| matches!(e, Event::LastTrick { .. })),
                    "{events:?}"
                );
                assert!(
                    state.result().is_some() || state.deal > deal,
                    "the next deal started automatically"
                );
                state.validate().unwrap();
                one_card_deals += 1;
                continue;
            }
            let legal = tlegal(&state, seat);
            let action = legal[rng.below(legal.len())];
            state.apply(seat, &action, &mut Vec::new()).unwrap();
        }
    }
    assert!(one_card_deals > 0, "no seeded game reached one card each");
}

// ---------------------------------------------------------------------------------------------
// Properties over thousands of seeded random playouts (typed, so they stay fast)

/// Plays one uniformly random game on the typed API and checks, at every step: the pieces are the
/// ones dealt at setup; exactly the seats in `to_act` have legal actions; the chosen listed action
/// applies; a play of a card the seat does not hold is refused and leaves the state unchanged. At
/// the end: a result ranking every seat once, and nothing more to do.
fn random_typed_playout(setup: &Setup<Options>, choice_seed: u64) -> usize {
    let mut state = TwentyTwo::setup(setup, &mut Vec::new()).expect("setup");
    let mut pieces = state.pieces();
    pieces.sort();
    let mut chooser = choice_seed | 1;
    let mut actions = Vec::new();
    let mut events = Vec::new();
    let mut steps = 0;
    loop {
        let actors = state.to_act();
        let Some(&seat) = actors.as_slice().first() else {
            break;
        };
        actions.clear();
        state.legal_actions(seat, &mut actions);
        assert!(!actions.is_empty(), "seat {seat} to act without actions");
        chooser ^= chooser << 13;
        chooser ^= chooser >> 7;
        chooser ^= chooser << 17;
        let action = actions[(chooser % actions.len() as u64) as usize];
        if steps % 7 == 0 {
            // A card the seat does not hold (another seat's card) is refused, state unchanged.
            let other = (seat + 1) % setup.players;
            let before = serde_json::to_string(&state).unwrap();
            let hands = serde_json::to_value(state.view(Viewer::Seat(other))).unwrap();
            if let Some(code) = hands["hand"]
                .as_array()
                .and_then(|h| h.first())
                .and_then(Value::as_str)
            {
                let foreign: Action =
                    serde_json::from_value(json!({"type": "play", "cards": [code]})).unwrap();
                if !actions.contains(&foreign) {
                    let mut scratch = Vec::new();
                    assert!(state.apply(seat, &foreign, &mut scratch).is_err());
                    assert_eq!(serde_json::to_string(&state).unwrap(), before);
                }
            }
        }
        events.clear();
        state
            .apply(seat, &action, &mut events)
            .unwrap_or_else(|e| panic!("listed action {action:?} refused: {e}"));
        let mut now = state.pieces();
        now.sort();
        assert_eq!(now, pieces, "cards not conserved after {steps} steps");
        steps += 1;
        assert!(steps < 100_000, "no end");
    }
    let result = state.result().expect("a result at the end");
    let mut ranked: Vec<usize> = result.ranking.iter().flatten().copied().collect();
    ranked.sort();
    assert_eq!(ranked, (0..setup.players).collect::<Vec<_>>());
    assert_eq!(result.scores.len(), setup.players);
    steps
}

#[test]
fn thousands_of_random_playouts_conserve_cards_and_terminate_for_every_count_and_option_set() {
    let option_sets = [
        ("twenty_two", json!({})),
        ("twenty_two_short", json!({})),
        ("gambling_cucumber", json!({})),
        (
            "twenty_two",
            json!({"set_trick_winner": "last_cover", "dealer_when_losers_out": "next_seat", "simultaneous_elimination": "shared"}),
        ),
        (
            "twenty_two",
            json!({"buy_back": true, "end_condition": "pot", "deal_size": "fixed_7", "penalty_cards_leave_pack": false}),
        ),
        (
            "twenty_two",
            json!({"play_style": "agurk", "penalty_scale": "cucumber", "elimination_threshold": 30}),
        ),
    ];
    let mut games = 0;
    for (id, options) in option_sets {
        let range = registry::find(id).unwrap().info().players;
        for players in range.min..=range.max {
            for seed in 0..40u64 {
                let request = NewGame {
                    players,
                    options: options.as_object().unwrap().clone(),
                    seed,
                    deals: Vec::new(),
                };
                let setup = typed_setup(id, &request);
                random_typed_playout(&setup, seed.wrapping_mul(0x9E37_79B9_7F4A_7C15));
                games += 1;
            }
        }
    }
    assert!(games >= 2000, "{games} games");
}

fn typed_setup(id: &str, request: &NewGame) -> Setup<Options> {
    // PresetGame::typed_setup merges and checks options exactly as `start` does.
    let family = TwentyTwo::family();
    let preset = family.presets.iter().find(|p| p.id == id).unwrap().clone();
    let mut merged =
        engine::options::merge_options(&family.options, &preset, &request.options).unwrap();
    TwentyTwo::resolve_options(&request.options, &mut merged).unwrap();
    Setup {
        players: request.players,
        options: serde_json::from_value(Value::Object(merged)).unwrap(),
        seed: request.seed,
        deals: Vec::new(),
    }
}
