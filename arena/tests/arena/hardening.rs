//! Issue 48 (48f), files: "`cardroom.db`, its `-wal` and `-shm` are created 0644 and hold
//! signing secrets". The files are now created readable by their owner only, files left open to
//! others are tightened at start, and no signing or rematch secret is stored in the clear: not
//! in the database file, its log, nor a backup (SQLite); not in the column (PostgreSQL).

use crate::support::{fresh_postgres, temp_dir};
use arena::dto::RegisterBot;
use arena::store::{BotRecord, SqlStore, Store, Transport, now_ms};
use arena::{Arena, ArenaConfig};
use std::path::{Path, PathBuf};

/// A bot as an older version stored it: its secret in plaintext.
fn legacy_bot(id: &str, secret: &str) -> BotRecord {
    BotRecord {
        id: id.into(),
        name: format!("legacy {id}"),
        url: String::new(),
        games: vec!["twenty_two".into()],
        author: "a".into(),
        version: "1".into(),
        token_hash: "h".into(),
        signing_secret: secret.into(),
        previous_secret: None,
        builtin: false,
        transport: Transport::Stream,
        paused: false,
        failures: 0,
        failing_since: None,
        retry_at: None,
        pause_reason: None,
        trial_match: None,
        created_at: now_ms(),
        history: Default::default(),
        open_to_challenges: false,
    }
}

fn stream_bot(name: &str) -> RegisterBot {
    RegisterBot {
        name: name.into(),
        url: String::new(),
        games: vec!["twenty_two".into()],
        transport: Transport::Stream,
        history: Default::default(),
        open_to_challenges: false,
    }
}

fn with_suffix(path: &Path, suffix: &str) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(suffix);
    PathBuf::from(name)
}

fn mode(path: &Path) -> u32 {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path)
        .unwrap_or_else(|error| panic!("{}: {error}", path.display()))
        .permissions()
        .mode()
        & 0o777
}

/// Whether any of the files that exist among `paths` holds `needle`'s bytes.
fn any_file_holds(paths: &[PathBuf], needle: &str) -> bool {
    paths.iter().filter(|path| path.exists()).any(|path| {
        let bytes = std::fs::read(path).expect("read");
        bytes
            .windows(needle.len())
            .any(|window| window == needle.as_bytes())
    })
}

/// Opens `db` with the store alone, retrying while an arena dropped just before still holds the
/// process lock (its tasks end as they notice).
async fn open_store(db: &str) -> SqlStore {
    for _ in 0..200 {
        match SqlStore::open(db).await {
            Ok(store) => return store,
            Err(error) if format!("{error:#}").contains("in use") => {
                tokio::time::sleep(std::time::Duration::from_millis(50)).await;
            }
            Err(error) => panic!("{error:#}"),
        }
    }
    panic!("the arena's lock was never released")
}

#[tokio::test]
async fn database_files_are_created_0600_and_open_ones_are_tightened_at_start() {
    use std::os::unix::fs::PermissionsExt;
    let dir = temp_dir("files-private");
    let db = dir.path().join("arena.db");
    let database = db.to_string_lossy().to_string();
    let files = ["", "-wal", "-shm", ".lock"].map(|suffix| with_suffix(&db, suffix));

    // A new database: every file the store makes is the owner's only.
    let store = open_store(&database).await;
    assert!(
        store
            .insert_bot(&legacy_bot("b_f1", "0123"))
            .await
            .expect("insert")
    );
    for file in &files {
        assert_eq!(mode(file), 0o600, "{}", file.display());
    }
    drop(store);

    // An older version's files, readable by everyone: tightened when the arena starts.
    for file in files.iter().filter(|file| file.exists()) {
        std::fs::set_permissions(file, std::fs::Permissions::from_mode(0o644)).expect("chmod");
    }
    let arena = Arena::open(ArenaConfig::local(database.clone()))
        .await
        .expect("open");
    for file in files
        .iter()
        .chain([&with_suffix(&db, ".seal-key")])
        .filter(|file| file.exists())
    {
        assert_eq!(mode(file), 0o600, "{}", file.display());
    }
    assert_eq!(mode(&db), 0o600);
    drop(arena);
}

#[tokio::test]
async fn no_signing_secret_is_readable_in_the_database_file_its_log_or_a_backup() {
    let dir = temp_dir("secrets-sealed");
    let db = dir.path().join("arena.db");
    let database = db.to_string_lossy().to_string();
    let files: Vec<PathBuf> = ["", "-wal", "-shm"]
        .iter()
        .map(|suffix| with_suffix(&db, suffix))
        .collect();
    let (old, current) = (
        arena::client::hex(&rand::random::<[u8; 32]>()),
        arena::client::hex(&rand::random::<[u8; 32]>()),
    );

    // The attack: an older version stored the secrets in plaintext, readable in the file.
    let store = open_store(&database).await;
    assert!(
        store
            .insert_bot(&legacy_bot("b_0000000000000001", &old))
            .await
            .expect("insert")
    );
    assert!(
        store
            .rotate_secret("b_0000000000000001", &current, now_ms() + 600_000)
            .await
            .expect("rotate")
    );
    assert!(any_file_holds(&files, &current), "the reproduction");
    drop(store);

    // The first start with a key seals them; the bot keeps both secrets.
    let arena = Arena::open(ArenaConfig::local(database.clone()))
        .await
        .expect("open");
    let bot = arena
        .store()
        .bot("b_0000000000000001")
        .await
        .expect("bot")
        .expect("still there");
    assert_eq!(bot.signing_secret, current);
    assert_eq!(
        bot.previous_secret.as_ref().map(|p| p.secret.as_str()),
        Some(old.as_str())
    );
    // A bot registered now, and a secret rotated now.
    let registered = arena
        .register_bot(stream_bot("sealed"))
        .await
        .expect("register");
    let rotated = arena
        .rotate_secret(&registered.id, Some(&registered.token))
        .await
        .expect("rotate");
    let secrets = [
        old.clone(),
        current.clone(),
        registered.signing_secret.clone(),
        rotated.signing_secret.clone(),
    ];
    for secret in &secrets {
        assert!(!any_file_holds(&files, secret), "{secret} in the clear");
    }
    let reread = arena
        .store()
        .bot(&registered.id)
        .await
        .expect("bot")
        .expect("bot");
    assert_eq!(reread.signing_secret, rotated.signing_secret);

    // A backup (`cardroom db backup`'s copy): private, and no secret in it either.
    let copy = dir.path().join("backup.db");
    let inspect = SqlStore::inspect(&database).await.expect("inspect");
    inspect.backup_into(&copy).await.expect("backup");
    assert_eq!(mode(&copy), 0o600);
    for secret in &secrets {
        assert!(
            !any_file_holds(std::slice::from_ref(&copy), secret),
            "{secret} in the backup"
        );
    }
    drop(arena);
}

#[tokio::test]
async fn postgres_stores_signing_secrets_sealed_when_a_database_is_given() {
    let Some(url) = fresh_postgres().await else {
        return;
    };
    let legacy = arena::client::hex(&rand::random::<[u8; 32]>());
    let store = SqlStore::open(&url).await.expect("open");
    let id = format!("b_{}", arena::client::hex(&rand::random::<[u8; 8]>()));
    assert!(
        store
            .insert_bot(&legacy_bot(&id, &legacy))
            .await
            .expect("insert")
    );
    let arena = Arena::open(ArenaConfig::local(url.clone()))
        .await
        .expect("open");
    let registered = arena
        .register_bot(stream_bot(&format!("sealed {id}")))
        .await
        .expect("register");
    let pool = store.postgres_pool().expect("postgres");
    for (bot, secret) in [(&id, &legacy), (&registered.id, &registered.signing_secret)] {
        let stored: String = sqlx::query_scalar("SELECT signing_secret FROM bots WHERE id = $1")
            .bind(bot)
            .fetch_one(&pool)
            .await
            .expect("row");
        assert!(stored.starts_with("s1."), "{stored}");
        assert!(!stored.contains(secret.as_str()));
        let read = arena.store().bot(bot).await.expect("bot").expect("bot");
        assert_eq!(&read.signing_secret, secret);
    }
}
