//! People as players through the arena's service, on SQLite and, when `DATABASE_URL` names a
//! PostgreSQL database, on PostgreSQL: players (a name taken once), the lobby (a table listed
//! while it has an open seat, a seat taken with a player's token becoming the player's), a rated
//! table of two players and two bots played to its end (every seat rated at its table size, the
//! people on their own board) and its one rematch. A seat is offered a move only from the
//! position its view shows.

use crate::support::{fresh_postgres, spawn_arena};
use arena::dto::{LeaderboardKind, LeaderboardQuery};
use arena::players::CreatePlayer;
use arena::store::{Creator, MatchStatus};
use arena::tables::{
    CreateTable, JoinTable, SeatKey, SeatRequest, TableMove, TableQuery, TableView,
};
use arena::{Arena, ArenaConfig, ErrorCode};
use std::time::Duration;

fn table(game: &str, seats: Vec<SeatRequest>, rated: bool) -> CreateTable {
    CreateTable {
        game: game.into(),
        players: seats.len(),
        options: None,
        seats,
        seed: None,
        clock: None,
        pace_ms: None,
        rated: Some(rated),
    }
}

/// The key in a seat's link.
fn key_of(join_url: Option<&String>) -> String {
    let url = join_url.expect("a join_url");
    url.split_once("&key=").expect("a key").1.to_string()
}

fn lobby_ids(tables: &[TableView]) -> Vec<&str> {
    tables.iter().map(|t| t.id.as_str()).collect()
}

async fn people(arena: &Arena) {
    arena.register_builtins().await.expect("builtins");
    let suffix = arena::client::hex(&rand::random::<[u8; 4]>());
    let player = |name: &str| CreatePlayer {
        name: format!("{name} {suffix}"),
    };
    let anna = arena.create_player(player("Anna")).await.expect("Anna");
    let bob = arena.create_player(player("Bob")).await.expect("Bob");
    let taken = arena
        .create_player(player("Anna"))
        .await
        .expect_err("taken");
    assert_eq!(taken.code, ErrorCode::PlayerNameTaken);

    // The lobby: listed while a seat is open; a seat taken with a token is the player's.
    let open = arena
        .create_table(
            table(
                "twenty_two",
                vec![SeatRequest::Open(true), SeatRequest::Bot("random".into())],
                false,
            ),
            Creator::admin(),
        )
        .await
        .expect("open table");
    let waiting = TableQuery {
        status: Some(MatchStatus::Waiting),
        ..TableQuery::default()
    };
    let lobby = arena.list_tables(waiting.clone()).await.expect("lobby");
    assert!(lobby_ids(&lobby.tables).contains(&open.id.as_str()));
    let joined = arena
        .join_table(&open.id, JoinTable::default(), Some(&bob.token))
        .await
        .expect("join");
    assert_eq!(joined.name, bob.name);
    let lobby = arena.list_tables(waiting).await.expect("lobby");
    assert!(!lobby_ids(&lobby.tables).contains(&open.id.as_str()));
    let shown = arena.get_table(&open.id).await.expect("table");
    assert_eq!(shown.seats[0].player.as_deref(), Some(bob.id.as_str()));

    // A rated table of two players and two bots, played to its end.
    let game = "chinese_ten_taiwan";
    let created = arena
        .create_table(
            table(
                game,
                vec![
                    SeatRequest::Player(anna.id.clone()),
                    SeatRequest::Bot("random".into()),
                    SeatRequest::Player(bob.id.clone()),
                    SeatRequest::Bot("heuristic".into()),
                ],
                true,
            ),
            Creator::admin(),
        )
        .await
        .expect("rated table");
    let keys = [
        (0, key_of(created.seats[0].join_url.as_ref()), &anna.token),
        (2, key_of(created.seats[2].join_url.as_ref()), &bob.token),
    ];
    let refused = arena
        .join_table(
            &created.id,
            JoinTable {
                key: Some(keys[0].1.clone()),
                ..JoinTable::default()
            },
            Some(&bob.token),
        )
        .await
        .expect_err("Bob's token at Anna's seat");
    assert_eq!(refused.code, ErrorCode::PlayerTokenRefused);
    for (_, key, token) in &keys {
        let request = JoinTable {
            key: Some(key.clone()),
            ..JoinTable::default()
        };
        arena
            .join_table(&created.id, request, Some(token))
            .await
            .expect("join");
    }
    for _ in 0..20_000 {
        let shown = arena.get_table(&created.id).await.expect("table");
        if shown.status == MatchStatus::Finished {
            break;
        }
        assert_ne!(shown.status, MatchStatus::Aborted, "{shown:?}");
        for (seat, key, _) in &keys {
            let state = arena
                .table_seat(
                    &created.id,
                    SeatKey {
                        seat: *seat,
                        key: key.clone(),
                    },
                )
                .await
                .expect("seat");
            if let (Some(request_id), Some(action)) =
                (state.request_id, state.legal_actions.first())
            {
                // The move is asked from the position shown: the seat is to act in it.
                assert!(state.to_act.contains(seat), "{:?} at {seat}", state.to_act);
                arena
                    .table_move(
                        &created.id,
                        TableMove {
                            seat: *seat,
                            key: key.clone(),
                            action: action.clone(),
                            request_id: Some(request_id),
                        },
                    )
                    .await
                    .expect("move");
            }
        }
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    for who in [&anna, &bob] {
        let page = arena.get_player(&who.id).await.expect("player");
        assert_eq!(page.ratings.len(), 1, "{page:?}");
        assert_eq!((page.ratings[0].players, page.ratings[0].played), (4, 1));
    }
    let board = arena
        .leaderboard(
            game,
            LeaderboardQuery {
                kind: Some(LeaderboardKind::People),
                players: Some(4),
                ..LeaderboardQuery::default()
            },
        )
        .await
        .expect("people's board");
    assert_eq!(board.entries.len(), 2);
    let bots = arena
        .leaderboard(
            game,
            LeaderboardQuery {
                players: Some(4),
                ..LeaderboardQuery::default()
            },
        )
        .await
        .expect("bots' board");
    assert!(bots.entries.iter().all(|e| e.bot.is_some()));
    assert!(bots.entries.iter().any(|e| e.name == "random"));

    // One rematch, whoever asks.
    let ask = |seat: usize, key: &str| SeatKey {
        seat,
        key: key.to_string(),
    };
    let (first, opened) = arena
        .rematch_table(&created.id, ask(2, &keys[1].1), Creator::admin())
        .await
        .expect("rematch");
    assert!(opened);
    let (second, opened) = arena
        .rematch_table(&created.id, ask(0, &keys[0].1), Creator::admin())
        .await
        .expect("rematch again");
    assert!(!opened);
    assert_eq!(first.id, second.id);
    let again = arena.get_table(&first.id).await.expect("rematch table");
    assert!(again.rated);
    assert_eq!(again.seats[0].player.as_deref(), Some(anna.id.as_str()));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn people_play_rated_tables_on_sqlite() {
    let arena = spawn_arena("people").await;
    people(&arena).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn people_play_rated_tables_on_postgres_when_a_database_is_given() {
    let Some(url) = fresh_postgres().await else {
        return;
    };
    let arena = Arena::open(ArenaConfig::local(url)).await.expect("open");
    people(&arena).await;
}

/// A pending request made from a position other than the one the stored moves give (the moves
/// read before a bot's last card was stored, or the request answered meanwhile) is not offered:
/// the seat sees no `request_id` until the two agree.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_seat_is_asked_to_move_only_from_the_position_it_is_shown() {
    let arena = spawn_arena("people_position").await;
    arena.register_builtins().await.expect("builtins");
    let created = arena
        .create_table(
            table(
                "twenty_two",
                vec![SeatRequest::Human(None), SeatRequest::Bot("random".into())],
                false,
            ),
            Creator::admin(),
        )
        .await
        .expect("table");
    let key = key_of(created.seats[0].join_url.as_ref());
    let request = JoinTable {
        key: Some(key.clone()),
        ..JoinTable::default()
    };
    arena
        .join_table(&created.id, request, None)
        .await
        .expect("join");
    let seat = || SeatKey {
        seat: 0,
        key: key.clone(),
    };
    let mut asked = None;
    for _ in 0..2_000 {
        let state = arena.table_seat(&created.id, seat()).await.expect("seat");
        if state.request_id.is_some() {
            asked = Some(state);
            break;
        }
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    let asked = asked.expect("the person is asked to move");
    let match_id = created.match_id.clone();
    let pending = arena
        .match_pending_moves(&match_id)
        .await
        .expect("pending")
        .into_iter()
        .find(|p| p.seat == 0)
        .expect("the seat's pending move");
    // The same request, as if made from a later position than the stored moves give.
    let mut line: serde_json::Value = serde_json::from_str(&pending.request).expect("line");
    line["view"]["hand"] = serde_json::json!([]);
    let mut ahead = pending.clone();
    ahead.request = line.to_string();
    arena.store().put_pending(&ahead).await.expect("put");
    let state = arena.table_seat(&created.id, seat()).await.expect("seat");
    assert_eq!(state.request_id, None, "offered from another position");
    assert!(state.legal_actions.is_empty());
    arena.store().put_pending(&pending).await.expect("put back");
    let state = arena.table_seat(&created.id, seat()).await.expect("seat");
    assert_eq!(state.request_id, Some(pending.request_id));
    assert_eq!(state.legal_actions, asked.legal_actions);
}
