//! Backup and restore as docs/deploy.md tells them, with the binary: `cardroom db size` and
//! `cardroom db backup` read a SQLite database while its server runs; the copy, started with the
//! key kept beside it, opens the sealed states and `info` tokens issued before; a copy without
//! its key refuses to start, saying why, unless told `--new-seal-key` (and then the old tokens no
//! longer open). `cardroom db migrate` applies what a database lacks; PostgreSQL's backup is
//! `pg_dump`, as the command says.

use crate::seat_info::{
    RecordingBot, play_match, post, problem, refused_start, serve, with_a_choice,
};
use crate::support::{GAME, cardroom, run, run_refused, temp_dir};
use serde_json::{Value, json};

/// Runs `cardroom db <args>` on `database` to its end: its JSON line.
fn db(database: &str, args: &[&str]) -> Value {
    let out = run(
        cardroom(["db", "--database", database]).args(args),
        &format!("cardroom db {args:?}"),
    );
    serde_json::from_str(out.trim()).unwrap_or_else(|_| panic!("a JSON line: {out}"))
}

/// Runs `cardroom db <args>` that must fail: its error output.
fn db_refused(database: &str, args: &[&str]) -> String {
    run_refused(
        cardroom(["db", "--database", database]).args(args),
        &format!("cardroom db {args:?}"),
    )
}

#[tokio::test(flavor = "multi_thread")]
async fn a_backup_of_a_running_server_restores_with_its_key_and_old_tokens_open() {
    let dir = temp_dir("backup");
    let path = |name: &str| dir.path().join(name).to_string_lossy().to_string();
    let (database, key, copy) = (path("arena.db"), path("server.key"), path("backup.db"));
    std::fs::write(&key, format!("{}\n", "c4".repeat(32))).expect("key");
    arena::client::install_crypto_provider();
    let http = reqwest::Client::new();
    let bot = RecordingBot::spawn();

    let (server, base) = serve(&database, &["--seal-key-file", &key]);
    let (status, step) = post(
        &http,
        format!("{base}/v1/games/{GAME}/new"),
        &json!({"players": 3, "seed": 4}),
    )
    .await;
    assert_eq!(status, 200, "{step}");
    let sealed = step["state"].as_str().expect("a sealed state").to_string();
    assert!(sealed.starts_with("v2."), "{sealed}");
    let requests = play_match(&http, &base, &bot, 5).await;
    let info = with_a_choice(&requests)["info"].clone();
    let determinize = json!({"info": info, "count": 2, "seed": 9});
    let before = post(
        &http,
        format!("{base}/v1/games/{GAME}/determinize"),
        &determinize,
    )
    .await;
    assert_eq!(before.0, 200, "{}", before.1);

    // Beside the running server: its size, and a copy (the key is not beside the database, so
    // the command wants it named).
    let size = db(&database, &["size"]);
    assert!(
        size["database"].as_u64().is_some_and(|bytes| bytes > 0),
        "{size}"
    );
    let refused = db_refused(&database, &["backup", &path("nokey.db")]);
    assert!(refused.contains("--seal-key-file"), "{refused}");
    assert!(!dir.path().join("nokey.db").exists());
    let made = db(&database, &["backup", &copy, "--seal-key-file", &key]);
    let copy_key = format!("{copy}.seal-key");
    assert_eq!(made["seal_key"], copy_key.as_str(), "{made}");
    assert!(made["bytes"].as_u64().is_some_and(|bytes| bytes > 0));
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        // The key and the copy itself (issue 48), and the server's own database.
        for file in [&copy_key, &copy, &database] {
            let mode = std::fs::metadata(file).expect("file").permissions().mode();
            assert_eq!(mode & 0o777, 0o600, "{file}");
        }
    }
    // A backup never overwrites.
    let again = db_refused(&database, &["backup", &copy, "--seal-key-file", &key]);
    assert!(again.contains("exists already"), "{again}");
    drop(server);

    // Restored: the copy with the key beside it opens what was issued before.
    let (restored, base) = serve(&copy, &["--seal-key-file", &copy_key]);
    let legal = post(
        &http,
        format!("{base}/v1/games/{GAME}/legal"),
        &json!({"state": sealed, "seat": 0}),
    )
    .await;
    assert_eq!(legal.0, 200, "{}", legal.1);
    let after = post(
        &http,
        format!("{base}/v1/games/{GAME}/determinize"),
        &determinize,
    )
    .await;
    // The same samples, sealed anew (a fresh nonce each time).
    assert_eq!(after.0, 200, "{}", after.1);
    assert_eq!(after.1["states"].as_array().map(Vec::len), Some(2));
    drop(restored);

    // A copy without its key: refused, saying why; told, a new key, and old tokens are refused.
    let lost = path("lost.db");
    std::fs::copy(&copy, &lost).expect("copy");
    let refused = refused_start(&lost, &[]);
    assert!(
        refused.contains("seal key") && refused.contains("--new-seal-key"),
        "{refused}"
    );
    let (_fresh, base) = serve(&lost, &["--new-seal-key"]);
    let stale = post(
        &http,
        format!("{base}/v1/games/{GAME}/determinize"),
        &determinize,
    )
    .await;
    assert_eq!(problem(&stale), (400, "invalid_info"), "{}", stale.1);
}

#[test]
fn db_migrate_applies_what_a_database_lacks_and_postgresql_backups_are_pg_dumps() {
    let dir = temp_dir("migrate");
    let database = dir.path().join("new.db").to_string_lossy().to_string();
    assert_eq!(
        db(&database, &["migrate"]),
        json!({"migrated": "all", "current": true})
    );
    assert_eq!(
        db(&database, &["migrate"]),
        json!({"migrated": [], "current": true})
    );
    let refused = db_refused(
        "postgres://nobody@127.0.0.1:1/none",
        &["backup", "cardroom.dump"],
    );
    assert!(refused.contains("pg_dump"), "{refused}");
}
