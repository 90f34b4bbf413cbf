//! `cardroom db backup` and `cardroom db migrate`: the commands an operator runs beside the
//! servers (docs/deploy.md, "Backup and restore" and "Upgrading").

use anyhow::{Context, bail};
use arena::seal::SealKey;
use arena::store::{SqlStore, UpkeepStore};
use clap::Args;
use serde_json::{Value, json};
use std::path::{Path, PathBuf};

/// What `db backup` says to a PostgreSQL database: its own tool makes the consistent copy.
pub const PG_DUMP_ADVICE: &str = "a PostgreSQL arena is backed up with PostgreSQL's own tools, \
    while the servers run: `pg_dump --format=custom --file=cardroom.dump \"$DATABASE_URL\"` makes \
    a consistent copy (the seal key is in it, in the table seal_key, unless the servers run with \
    --seal-key-file: keep a copy of that file beside the dump), and `pg_restore --clean \
    --if-exists --dbname=\"$DATABASE_URL\" cardroom.dump` restores it; see docs/deploy.md, \
    \"Backup and restore\"";

/// Flags of `db backup`.
#[derive(Debug, Clone, Args)]
pub struct BackupArgs {
    /// Where to write the copy (must not exist); the key goes to `FILE.seal-key`.
    pub file: PathBuf,
    /// The server's seal key file, when it runs with `--seal-key-file` (its key is then not
    /// beside the database): copied beside the backup, once checked against the database.
    #[arg(long, env = "CARDROOM_SEAL_KEY_FILE", value_name = "PATH")]
    pub seal_key_file: Option<PathBuf>,
    /// Copy the database without a seal key (keep the key safe elsewhere: restored without it,
    /// a server refuses to start unless given `--new-seal-key`, and old tokens stop opening).
    #[arg(long)]
    pub without_seal_key: bool,
}

/// Applies the migrations the database lacks and reports which.
pub async fn migrate(database: &str) -> anyhow::Result<Value> {
    // What was missing, read before migrating (a new SQLite file has nothing yet).
    let missing = match SqlStore::inspect(database).await {
        Ok(store) => match store.readiness().await {
            Ok(readiness) => Some(readiness.pending_migrations),
            // No migrations table yet: a new database.
            Err(_) => None,
        },
        Err(_) => None,
    };
    let store = SqlStore::open_as(database, "cardroom-db").await?;
    let after = store.readiness().await?;
    anyhow::ensure!(
        after.pending_migrations.is_empty(),
        "migrations {:?} are still not applied",
        after.pending_migrations
    );
    Ok(json!({
        "migrated": missing.map_or_else(|| json!("all"), |versions| json!(versions)),
        "current": true,
    }))
}

/// Copies a SQLite database and its seal key (`cardroom db backup`).
pub async fn backup(database: &str, args: &BackupArgs) -> anyhow::Result<Value> {
    if arena::store::sql::is_postgres(database) {
        bail!("{PG_DUMP_ADVICE}");
    }
    let key_copy = SealKey::beside(&args.file);
    for target in [&args.file, &key_copy] {
        anyhow::ensure!(
            !target.exists(),
            "{} exists already: a backup never overwrites a file",
            target.display()
        );
    }
    let store = SqlStore::inspect(database).await?;
    let key = seal_key_to_copy(&store, database, args).await?;
    let bytes = store.backup_into(&args.file).await?;
    if let Some(key) = &key {
        write_key(&key_copy, key)?;
    }
    Ok(json!({
        "backup": args.file,
        "bytes": bytes,
        "seal_key": key.as_ref().map(|_| key_copy),
    }))
}

/// The seal key to keep beside the copy: `--seal-key-file`'s, else the one beside the database;
/// checked against the key the database records. None with `--without-seal-key`; an error,
/// saying why, when there is none to copy.
async fn seal_key_to_copy(
    store: &SqlStore,
    database: &str,
    args: &BackupArgs,
) -> anyhow::Result<Option<SealKey>> {
    if args.without_seal_key {
        return Ok(None);
    }
    let path = match &args.seal_key_file {
        Some(path) => path.clone(),
        None => {
            let path = database.strip_prefix("sqlite:").unwrap_or(database);
            let path = path.split('?').next().unwrap_or(path);
            SealKey::beside(Path::new(path))
        }
    };
    if !path.exists() {
        bail!(
            "no seal key to copy beside the backup: {} does not exist. A server on this \
             database runs with --seal-key-file (or CARDROOM_SEAL_KEY): give that file with \
             --seal-key-file, or copy the database alone with --without-seal-key and keep the \
             key safe yourself (restored without it, the sealed states and info tokens issued \
             before would not open)",
            path.display()
        );
    }
    let key = SealKey::from_file(&path)?;
    if let Some(recorded) = store.recorded_seal_key().await? {
        let given = arena::store::sql::seal_key_fingerprint(&key);
        anyhow::ensure!(
            recorded == given,
            "the key in {} is not the one the database was used with (fingerprint {given}, the \
             database's {recorded}): give the server's key with --seal-key-file",
            path.display()
        );
    }
    Ok(Some(key))
}

/// Writes `key` to `path` (64 hex digits, readable by the owner only; never over a file).
fn write_key(path: &Path, key: &SealKey) -> anyhow::Result<()> {
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    let mut file = options
        .open(path)
        .with_context(|| format!("creating {}", path.display()))?;
    std::io::Write::write_all(&mut file, format!("{}\n", key.to_hex()).as_bytes())
        .and_then(|()| file.sync_all())
        .with_context(|| format!("writing {}", path.display()))
}
