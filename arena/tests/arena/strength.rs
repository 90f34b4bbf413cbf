//! The built-in heuristic bot beats the built-in random bot, in every game, through the same
//! protocol types the arena sends over HTTP. Prints the figure per game.

use arena::builtin::{ISMCTS_BUDGET_MS, choose};
use arena::wire::MoveRequest;
use engine::{NewGame, Viewer};

/// Plays one game: `heuristic` in `seat`, `random` elsewhere. Returns true if the heuristic seat
/// is in the first group of the ranking.
fn heuristic_wins(
    game: &dyn engine::Game,
    players: usize,
    seat_of_heuristic: usize,
    seed: u64,
) -> bool {
    let mut state = game
        .start(&NewGame {
            players,
            seed,
            ..NewGame::default()
        })
        .expect("start");
    let mut turns = 0;
    while !state.is_over() {
        let seat = state.to_act()[0];
        let request = MoveRequest {
            match_id: format!("m_{seed}"),
            game: game.info().id.clone(),
            seat,
            view: state.view(Viewer::Seat(seat)),
            legal_actions: state.legal_actions(seat),
            deadline_ms: 1000,
            time_left_ms: None,
            history: None,
            history_from: None,
            info: None,
            state: None,
        };
        let name = if seat == seat_of_heuristic {
            "heuristic"
        } else {
            "random"
        };
        let answer = choose(name, &request, ISMCTS_BUDGET_MS).expect("a choice");
        state.apply(seat, &answer.action).expect("a legal choice");
        turns += 1;
        assert!(turns < 100_000, "the game does not end");
    }
    let result = state.result().expect("result");
    result
        .ranking
        .first()
        .is_some_and(|group| group.contains(&seat_of_heuristic))
}

#[test]
fn the_heuristic_bot_beats_random_in_every_game() {
    const GAMES: u64 = 40;
    let games = engine::registry::games();
    // Game ids in parallel, one thread per core; every game is seeded, so the figures are exact.
    let cores = std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(2);
    let lines: Vec<(String, bool)> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..cores)
            .map(|core| {
                scope.spawn(move || {
                    games
                        .iter()
                        .skip(core)
                        .step_by(cores)
                        .map(|game| {
                            let info = game.info();
                            let players = info.players.min.max(2).min(info.players.max);
                            let wins = (0..GAMES)
                                .filter(|i| heuristic_wins(game.as_ref(), players, (*i as usize) % players, 1000 + i))
                                .count();
                            let rate = wins as f64 / GAMES as f64;
                            let baseline = 1.0 / players as f64;
                            (
                                format!(
                                    "{}: heuristic first in {wins}/{GAMES} games ({:.0}%) against random, {players} players (random share {:.0}%)",
                                    info.id,
                                    rate * 100.0,
                                    baseline * 100.0
                                ),
                                rate > baseline,
                            )
                        })
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().expect("thread"))
            .collect()
    });
    for (line, _) in &lines {
        println!("{line}");
    }
    let weak: Vec<&String> = lines
        .iter()
        .filter(|(_, ok)| !ok)
        .map(|(line, _)| line)
        .collect();
    assert!(
        weak.is_empty(),
        "the heuristic does not beat random: {weak:?}"
    );
}

#[test]
fn the_ismcts_bot_searches_the_state_it_is_sent_and_refuses_a_request_without_one() {
    let game = engine::registry::find("sloppy_seconds").expect("game");
    let mut state = game
        .start(&NewGame {
            players: 3,
            seed: 8,
            ..NewGame::default()
        })
        .expect("start");
    for _ in 0..6 {
        let seat = state.to_act()[0];
        let mut request = MoveRequest {
            match_id: "m_ismcts".into(),
            game: game.info().id.clone(),
            seat,
            view: state.view(Viewer::Seat(seat)),
            legal_actions: state.legal_actions(seat),
            deadline_ms: 40,
            time_left_ms: None,
            history: None,
            history_from: None,
            info: None,
            state: None,
        };
        let refusal = choose("ismcts", &request, ISMCTS_BUDGET_MS).unwrap_err();
        assert!(refusal.contains("send `state`"), "{refusal}");
        request.state = Some(state.save());
        let answer = choose("ismcts", &request, ISMCTS_BUDGET_MS).expect("a choice");
        assert!(request.legal_actions.contains(&answer.action));
        // A state that does not match the request's legal actions is refused.
        let mut wrong = request.clone();
        wrong.legal_actions.pop();
        if !wrong.legal_actions.is_empty() {
            assert!(choose("ismcts", &wrong, ISMCTS_BUDGET_MS).is_err());
        }
        state.apply(seat, &answer.action).expect("a legal choice");
    }
}
