//! Operations on the SQL store: readiness, the queue by class, the pool, the built-in bots'
//! seeding matches ([`UpkeepStore`]); the seal key a database was used with; online backups and
//! reading a SQLite database a running server holds ([`SqlStore::inspect`]).

use super::{Columns, Dialect, Pool, SqlStore};
use crate::seal::SealKey;
use crate::store::now_ms;
use crate::store::upkeep::{PoolStats, QueueDepth, Readiness, UpkeepStore};
use anyhow::Context;
use sha2::{Digest, Sha256};
use std::path::Path;

#[async_trait::async_trait]
impl UpkeepStore for SqlStore {
    async fn readiness(&self) -> anyhow::Result<Readiness> {
        let applied: Vec<(i64, bool)> = on_pool!(&self.pool, p => {
            sqlx::query_as("SELECT version, success FROM _sqlx_migrations")
                .fetch_all(p)
                .await
        })?;
        let pending_migrations = self
            .dialect
            .migrator()
            .iter()
            .map(|migration| migration.version)
            .filter(|version| !applied.contains(&(*version, true)))
            .collect();
        Ok(Readiness { pending_migrations })
    }

    async fn queue_depths(&self) -> anyhow::Result<Vec<QueueDepth>> {
        on_pool!(&self.pool, p => {
            sqlx::query(
                "SELECT status, ladder, ranked, COUNT(*) AS matches, MIN(created_at) AS oldest \
                 FROM matches WHERE status IN ('queued', 'running') GROUP BY status, ladder, ranked",
            )
            .fetch_all(p)
            .await?
            .iter()
            .map(|row| {
                Ok(QueueDepth {
                    class: QueueDepth::class(row.flag("ladder")?, row.flag("ranked")?),
                    running: row.text("status")? == "running",
                    matches: row.int("matches")?.max(0) as u64,
                    oldest_created_at: row.int("oldest")?,
                })
            })
            .collect()
        })
    }

    fn pool_stats(&self) -> PoolStats {
        on_pool!(&self.pool, p => {
            let size = p.size();
            let idle = u32::try_from(p.num_idle()).unwrap_or(u32::MAX).min(size);
            PoolStats {
                in_use: size - idle,
                idle,
                max: p.options().get_max_connections(),
            }
        })
    }

    async fn builtin_matches(&self, game: &str, at_most: u32) -> anyhow::Result<u64> {
        let count: i64 = on_pool!(&self.pool, p => {
            sqlx::query_scalar(
                "SELECT COUNT(*) FROM (SELECT 1 FROM matches m WHERE m.game = $1 AND m.ranked \
                 AND m.status <> 'aborted' AND NOT EXISTS (SELECT 1 FROM match_seats s \
                 JOIN bots b ON b.id = s.bot_id WHERE s.match_id = m.id AND NOT b.builtin) \
                 LIMIT $2) AS seeds",
            )
            .bind(game)
            .bind(i64::from(at_most))
            .fetch_one(p)
            .await
        })?;
        Ok(count.max(0) as u64)
    }
}

/// What the database keeps of a seal key: the first 16 bytes of SHA-256 of a fixed label and the
/// key, in hex. It tells keys apart and gives nothing of the key away.
pub fn seal_key_fingerprint(key: &SealKey) -> String {
    let mut hasher = Sha256::new();
    hasher.update(b"cardroom seal key check v1\0");
    hasher.update(key.bytes());
    crate::client::hex(&hasher.finalize()[..16])
}

impl SqlStore {
    /// The fingerprint of the seal key the database was used with, if one was recorded.
    pub async fn recorded_seal_key(&self) -> anyhow::Result<Option<String>> {
        Ok(on_pool!(&self.pool, p => {
            sqlx::query_scalar("SELECT fingerprint FROM seal_key_check WHERE id = 1")
                .fetch_optional(p)
                .await
        })?)
    }

    /// Whether the database was used already: a seal key recorded, or a match stored (a database
    /// from before the fingerprint was kept).
    pub(super) async fn used_before(&self) -> anyhow::Result<bool> {
        if self.recorded_seal_key().await?.is_some() {
            return Ok(true);
        }
        let any: Option<i64> = on_pool!(&self.pool, p => {
            sqlx::query_scalar("SELECT seq FROM matches LIMIT 1").fetch_optional(p).await
        })?;
        Ok(any.is_some())
    }

    /// Checks `key` against the seal key the database was used with, and records it on first
    /// use. A different key is refused unless `replace` (`--new-seal-key`), which records it:
    /// tokens sealed with the old key then stop opening.
    pub async fn check_seal_key(&self, key: &SealKey, replace: bool) -> anyhow::Result<()> {
        let fingerprint = seal_key_fingerprint(key);
        match self.recorded_seal_key().await? {
            Some(recorded) if recorded == fingerprint => return Ok(()),
            Some(recorded) if !replace => anyhow::bail!(
                "the seal key given is not the one this database was used with (fingerprint \
                 {fingerprint}, the database's {recorded}): every process of an arena needs the \
                 same key, and sealed states and info tokens issued before would no longer open. \
                 Give the database's key (--seal-key-file, or the key file a backup keeps beside \
                 its copy), or start with --new-seal-key to replace it (old tokens stop opening)"
            ),
            Some(_) => tracing::warn!(
                fingerprint,
                "--new-seal-key: the database's seal key is replaced; tokens sealed before no longer open"
            ),
            None => {}
        }
        on_pool!(&self.pool, p => {
            sqlx::query(
                "INSERT INTO seal_key_check (id, fingerprint, recorded_at) VALUES (1, $1, $2) \
                 ON CONFLICT (id) DO UPDATE SET fingerprint = excluded.fingerprint, \
                 recorded_at = excluded.recorded_at",
            )
            .bind(&fingerprint)
            .bind(now_ms())
            .execute(p)
            .await
            .map(|_| ())
        })?;
        Ok(())
    }

    /// A consistent copy of the SQLite database at `to` (which must not exist), taken while
    /// servers write to it: `VACUUM INTO` reads one snapshot (a read transaction) and writes a
    /// compact new file. Returns the copy's size in bytes. PostgreSQL is backed up with
    /// `pg_dump` (refused here).
    pub async fn backup_into(&self, to: &Path) -> anyhow::Result<u64> {
        let Pool::Sqlite(pool) = &self.pool else {
            anyhow::bail!("a PostgreSQL database is backed up with pg_dump");
        };
        let target = to
            .to_str()
            .context("the backup's path must be valid UTF-8")?
            .to_string();
        // Made empty and private first (`VACUUM INTO` fills an empty file, keeping its mode): the
        // copy holds what the database holds, readable by its owner only.
        anyhow::ensure!(
            super::files::create_private(to)?,
            "{} exists already: a backup never overwrites a file",
            to.display()
        );
        let copied = sqlx::query("VACUUM INTO $1")
            .bind(target)
            .execute(pool)
            .await
            .with_context(|| format!("copying the database into {}", to.display()));
        if let Err(error) = copied {
            let _ = std::fs::remove_file(to);
            return Err(error);
        }
        Ok(std::fs::metadata(to)?.len())
    }

    /// Opens a database to read it without taking it from a server that runs on it: on SQLite a
    /// read-only connection beside the server's, without the process lock and without migrating
    /// (`cardroom db size`, `cardroom db backup`); on PostgreSQL a small pool, not migrated.
    pub async fn inspect(database: &str) -> anyhow::Result<SqlStore> {
        use sqlx::postgres::{PgConnectOptions, PgPoolOptions};
        use sqlx::sqlite::{SqliteConnectOptions, SqlitePoolOptions};
        use std::str::FromStr as _;
        let (pool, dialect, sqlite_path) = if super::is_postgres(database) {
            let options = PgConnectOptions::from_str(database)
                .context("parsing the PostgreSQL URL")?
                .application_name("cardroom-db");
            let pool = PgPoolOptions::new()
                .max_connections(2)
                .acquire_timeout(super::ACQUIRE_TIMEOUT)
                .connect_with(options)
                .await
                .context("connecting to the arena's PostgreSQL database")?;
            (Pool::Postgres(pool), Dialect::Postgres, None)
        } else {
            let options = if database.starts_with("sqlite:") {
                SqliteConnectOptions::from_str(database)?
            } else {
                SqliteConnectOptions::new().filename(database)
            };
            let path = options.get_filename().to_path_buf();
            anyhow::ensure!(path.exists(), "there is no database at {}", path.display());
            // Read-only, and no journal mode set: the file's own (WAL) is read from its header.
            let options = options
                .read_only(true)
                .journal_mode(sqlx::sqlite::SqliteJournalMode::Wal)
                .busy_timeout(std::time::Duration::from_secs(30));
            let pool = SqlitePoolOptions::new()
                .max_connections(1)
                .connect_with(options)
                .await
                .with_context(|| format!("opening the arena database `{database}` to read it"))?;
            (Pool::Sqlite(pool), Dialect::Sqlite, Some(path))
        };
        Ok(SqlStore::assemble(pool, dialect, None, None, sqlite_path))
    }
}
