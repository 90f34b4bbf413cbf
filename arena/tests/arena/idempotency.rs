//! Idempotency keys: the store's contract (SQLite, and PostgreSQL when `DATABASE_URL` names
//! one), and the arena running a create once per key, its answer kept unreadable without the
//! client's key.

use crate::support::{fresh_postgres, spawn_arena, temp_dir};
use arena::service::idempotency::{Created, IdempotencyKey, body_hash};
use arena::store::{Reservation, SqlStore, Store, now_ms};
use std::sync::atomic::{AtomicUsize, Ordering};

async fn keys_contract(store: &dyn Store) {
    let now = now_ms();
    let long_ago = now - 24 * 3_600_000;
    let lock = now + 60_000;
    let (a, b) = ("hash-of-a", "hash-of-b");
    // A new key is reserved; while its request runs, the same body waits and another is refused.
    assert_eq!(
        store
            .reserve_key("k1", a, lock, long_ago)
            .await
            .expect("reserve"),
        Reservation::Reserved
    );
    assert_eq!(
        store
            .reserve_key("k1", a, lock, long_ago)
            .await
            .expect("again"),
        Reservation::InFlight
    );
    assert_eq!(
        store
            .reserve_key("k1", b, lock, long_ago)
            .await
            .expect("other"),
        Reservation::OtherBody
    );
    // Answered: the answer, to the same body only; a release no longer frees it.
    store
        .answer_key("k1", "sealed answer")
        .await
        .expect("answer");
    store.release_key("k1").await.expect("release");
    assert_eq!(
        store
            .reserve_key("k1", a, lock, long_ago)
            .await
            .expect("replay"),
        Reservation::Answered("sealed answer".into())
    );
    assert_eq!(
        store
            .reserve_key("k1", b, lock, long_ago)
            .await
            .expect("other"),
        Reservation::OtherBody
    );
    // A failed request frees its key: the retry runs.
    assert_eq!(
        store
            .reserve_key("k2", a, lock, long_ago)
            .await
            .expect("k2"),
        Reservation::Reserved
    );
    store.release_key("k2").await.expect("release");
    assert_eq!(
        store
            .reserve_key("k2", b, lock, long_ago)
            .await
            .expect("k2 again"),
        Reservation::Reserved
    );
    // A request whose process died (its lock ran out, no answer) leaves the key to a retry of
    // the same body, not to another body.
    assert_eq!(
        store
            .reserve_key("k3", a, now - 1, long_ago)
            .await
            .expect("k3"),
        Reservation::Reserved
    );
    assert_eq!(
        store
            .reserve_key("k3", b, lock, long_ago)
            .await
            .expect("other"),
        Reservation::OtherBody
    );
    assert_eq!(
        store
            .reserve_key("k3", a, lock, long_ago)
            .await
            .expect("taken over"),
        Reservation::Reserved
    );
    // A key past its day is new again, whatever its body was.
    assert_eq!(
        store
            .reserve_key("k1", b, lock, now + 1)
            .await
            .expect("a day later"),
        Reservation::Reserved
    );
    // Pruning deletes the keys made before a time, in batches.
    assert_eq!(
        store
            .prune_keys(now - 60_000, 10)
            .await
            .expect("prune nothing"),
        0
    );
    assert_eq!(store.prune_keys(now_ms() + 1, 2).await.expect("prune"), 2);
    assert_eq!(
        store
            .prune_keys(now_ms() + 1, 10)
            .await
            .expect("prune the rest"),
        1
    );
    assert_eq!(
        store
            .reserve_key("k2", a, lock, long_ago)
            .await
            .expect("gone"),
        Reservation::Reserved
    );
}

#[tokio::test]
async fn the_sqlite_store_keeps_idempotency_keys() {
    let dir = temp_dir("idempotency-sqlite");
    let store = SqlStore::open(&dir.path().join("keys.db").to_string_lossy())
        .await
        .expect("open");
    keys_contract(&store).await;
}

#[tokio::test]
async fn the_postgres_store_keeps_idempotency_keys_when_a_database_is_given() {
    let Some(url) = fresh_postgres().await else {
        return;
    };
    let store = SqlStore::open(&url).await.expect("open");
    keys_contract(&store).await;
}

#[tokio::test]
async fn a_create_runs_once_per_key_and_its_stored_answer_hides_its_secrets() {
    let arena = spawn_arena("idempotent-arena").await;
    let runs = AtomicUsize::new(0);
    let body = br#"{"name": "secretive"}"#;
    let key = IdempotencyKey {
        key: "3f1d-key",
        client: "addr:127.0.0.1",
        route: "POST /v1/bots",
    };
    let make = || async {
        runs.fetch_add(1, Ordering::SeqCst);
        Ok::<_, arena::ServiceError>(Created {
            status: 201,
            location: "/v1/bots/b_1".into(),
            body: r#"{"token": "owner-token-shown-once"}"#.into(),
        })
    };
    let first = arena
        .idempotent(Some(key), body, make)
        .await
        .expect("first");
    let again = arena
        .idempotent(Some(key), body, make)
        .await
        .expect("again");
    assert_eq!(runs.load(Ordering::SeqCst), 1, "one run");
    assert!(!first.replayed && again.replayed);
    assert_eq!(first.created, again.created);
    // Another client with the same key runs on its own.
    let theirs = IdempotencyKey {
        client: "addr:10.0.0.9",
        ..key
    };
    assert!(
        !arena
            .idempotent(Some(theirs), body, make)
            .await
            .expect("theirs")
            .replayed
    );
    assert_eq!(runs.load(Ordering::SeqCst), 2);
    // What the store holds names neither the token nor the key.
    let stored = arena
        .store()
        .reserve_key(&key.hash(), &body_hash(body), now_ms() + 1000, 0)
        .await
        .expect("read");
    let Reservation::Answered(sealed) = stored else {
        panic!("answered: {stored:?}")
    };
    assert!(
        !sealed.contains("owner-token") && !key.hash().contains("3f1d"),
        "{sealed}"
    );
    // Another body with the key.
    let refused = arena
        .idempotent(Some(key), br#"{"name": "other"}"#, make)
        .await
        .expect_err("refused");
    assert_eq!(refused.code, arena::ErrorCode::IdempotencyKeyReused);
    // No key: every request runs.
    arena.idempotent(None, body, make).await.expect("runs");
    assert_eq!(runs.load(Ordering::SeqCst), 3);
}
