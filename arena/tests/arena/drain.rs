//! A process that drains on PostgreSQL hands its running match to another process at once: when
//! its drain time is up the match stops at a move boundary and its lease is released (long
//! before it would run out), the other process resumes it from its logged moves, and it
//! finishes once, no fault charged.

use crate::support::{Behavior, fresh_postgres, register, spawn_bot, two_player_game};
use arena::dto::CreateMatch;
use arena::store::MatchStatus;
use arena::{Arena, ArenaConfig, Role};
use std::time::Duration;

/// Longer than the test may take: a handover within it came from the release, not the lease
/// running out.
const LEASE: Duration = Duration::from_secs(120);

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_draining_process_hands_its_match_to_another_at_once_and_nothing_is_charged() {
    let Some(database) = fresh_postgres().await else {
        return;
    };
    let game = two_player_game();
    let (a, b) = (
        spawn_bot(Behavior::Slow(30)).await,
        spawn_bot(Behavior::Slow(30)).await,
    );
    let first = Arena::open(ArenaConfig {
        lease: LEASE,
        ..ArenaConfig::local(database.clone())
    })
    .await
    .expect("open");
    let a_id = register(&first, &a, &game).await;
    let b_id = register(&first, &b, &game).await;
    let created = first
        .create_match(CreateMatch {
            game,
            bots: vec![a_id, b_id],
            ranked: Some(true),
            deadline_ms: Some(2000),
            ..CreateMatch::default()
        })
        .await
        .expect("create");
    loop {
        let moves = first.store().moves(&created.id).await.expect("moves").len();
        if moves >= 3 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    // Another process, with nothing to play until the first lets the match go.
    let second = Arena::open(ArenaConfig {
        role: Role::Worker,
        lease: LEASE,
        ..ArenaConfig::local(database)
    })
    .await
    .expect("open");
    let drained = first.drain_within(Duration::from_millis(100)).await;
    // Both counts include a worker caught mid-claim (it may become a run; seen under a loaded
    // CI), so they are at least the one match still playing when the drain time was up.
    assert!(
        drained.suspended >= 1 && drained.running >= drained.suspended,
        "{drained:?}"
    );
    let logged_at_drain = first.store().moves(&created.id).await.expect("moves");
    assert!(first.is_draining() && !second.is_draining());

    let finished = second
        .wait_for(&created.id, LEASE / 2)
        .await
        .expect("the other process resumes the match long before the lease would run out");
    assert_eq!(finished.status, MatchStatus::Finished);
    let result = finished.result.expect("a result");
    assert!(result.faults.iter().all(|n| *n == 0), "{result:?}");
    assert!(result.disqualified.is_empty(), "{result:?}");
    let moves = second.store().moves(&created.id).await.expect("moves");
    assert!(
        moves.len() > logged_at_drain.len(),
        "played on after the drain"
    );
    assert!(moves.iter().all(|m| m.fault.is_none()), "no fault charged");
    assert_eq!(
        moves[..logged_at_drain.len()]
            .iter()
            .map(|m| (m.index, &m.action))
            .collect::<Vec<_>>(),
        logged_at_drain
            .iter()
            .map(|m| (m.index, &m.action))
            .collect::<Vec<_>>(),
        "resumed from the moves logged before the drain"
    );
}
