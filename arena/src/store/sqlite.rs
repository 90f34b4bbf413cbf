//! The SQLite [`Store`]: one database file, WAL journal, migrations embedded in the binary and
//! applied on open.

use super::{
    BotRecord, Finish, MatchFilter, MatchRecord, MatchStatus, MoveRecord, RatingRecord, Store,
    now_ms,
};
use crate::ratings::{self, Rating, Side};
use anyhow::Context;
use serde_json::Value;
use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePoolOptions, SqliteRow};
use sqlx::{AssertSqlSafe, Row, SqlitePool};
use std::str::FromStr;
use std::time::Duration;

/// Migrations, in order: (version, SQL).
const MIGRATIONS: &[(i64, &str)] = &[(1, include_str!("../../migrations/sqlite/0001_init.sql"))];

/// The SQLite store.
#[derive(Debug, Clone)]
pub struct SqliteStore {
    pool: SqlitePool,
}

impl SqliteStore {
    /// Opens (creating if missing) and migrates the database at `database`: a file path, or a
    /// `sqlite:` URL such as `sqlite::memory:`.
    pub async fn open(database: &str) -> anyhow::Result<Self> {
        let options = if database.starts_with("sqlite:") {
            SqliteConnectOptions::from_str(database)?
        } else {
            SqliteConnectOptions::new().filename(database)
        };
        let memory = database.contains(":memory:");
        let options = options
            .create_if_missing(true)
            .journal_mode(if memory {
                SqliteJournalMode::Memory
            } else {
                SqliteJournalMode::Wal
            })
            .busy_timeout(Duration::from_secs(30))
            .foreign_keys(true);
        let pool = SqlitePoolOptions::new()
            .max_connections(if memory { 1 } else { 8 })
            .connect_with(options)
            .await
            .with_context(|| format!("opening the arena database `{database}`"))?;
        let store = SqliteStore { pool };
        store.migrate().await?;
        Ok(store)
    }

    async fn migrate(&self) -> anyhow::Result<()> {
        sqlx::query(
            "CREATE TABLE IF NOT EXISTS arena_migrations (version INTEGER PRIMARY KEY, applied_at INTEGER NOT NULL)",
        )
        .execute(&self.pool)
        .await?;
        for (version, sql) in MIGRATIONS {
            let mut tx = self.pool.begin().await?;
            let done: Option<i64> =
                sqlx::query_scalar("SELECT version FROM arena_migrations WHERE version = ?")
                    .bind(version)
                    .fetch_optional(&mut *tx)
                    .await?;
            if done.is_none() {
                sqlx::raw_sql(*sql)
                    .execute(&mut *tx)
                    .await
                    .with_context(|| format!("applying arena migration {version}"))?;
                sqlx::query("INSERT INTO arena_migrations (version, applied_at) VALUES (?, ?)")
                    .bind(version)
                    .bind(now_ms())
                    .execute(&mut *tx)
                    .await?;
            }
            tx.commit().await?;
        }
        Ok(())
    }
}

fn json<T: serde::Serialize>(value: &T) -> anyhow::Result<String> {
    Ok(serde_json::to_string(value)?)
}

fn parse<T: serde::de::DeserializeOwned>(text: &str) -> anyhow::Result<T> {
    Ok(serde_json::from_str(text)?)
}

fn bot_row(row: &SqliteRow) -> anyhow::Result<BotRecord> {
    Ok(BotRecord {
        id: row.try_get("id")?,
        name: row.try_get("name")?,
        url: row.try_get("url")?,
        games: parse(&row.try_get::<String, _>("games")?)?,
        author: row.try_get("author")?,
        version: row.try_get("version")?,
        token_hash: row.try_get("token_hash")?,
        signing_secret: row.try_get("signing_secret")?,
        builtin: row.try_get("builtin")?,
        paused: row.try_get("paused")?,
        failures: row.try_get::<i64, _>("failures")? as u32,
        created_at: row.try_get("created_at")?,
    })
}

const MATCH_COLUMNS: &str = "m.id, m.game, m.options, m.seed, m.deals, m.ranked, m.ladder, \
    m.deadline_ms, m.max_faults, m.status, m.result, m.error, m.created_at, m.started_at, \
    m.finished_at, (SELECT json_group_array(bot_id) FROM (SELECT bot_id FROM match_seats s \
    WHERE s.match_id = m.id ORDER BY seat)) AS bots";

fn match_row(row: &SqliteRow) -> anyhow::Result<MatchRecord> {
    let status: String = row.try_get("status")?;
    Ok(MatchRecord {
        id: row.try_get("id")?,
        game: row.try_get("game")?,
        bots: parse(&row.try_get::<String, _>("bots")?)?,
        options: parse(&row.try_get::<String, _>("options")?)?,
        seed: row.try_get::<i64, _>("seed")? as u64,
        deals: parse(&row.try_get::<String, _>("deals")?)?,
        ranked: row.try_get("ranked")?,
        ladder: row.try_get("ladder")?,
        deadline_ms: row.try_get::<i64, _>("deadline_ms")? as u64,
        max_faults: row.try_get::<i64, _>("max_faults")? as u32,
        status: MatchStatus::parse(&status)
            .with_context(|| format!("unknown match status `{status}`"))?,
        result: row
            .try_get::<Option<String>, _>("result")?
            .map(|text| parse::<Value>(&text))
            .transpose()?,
        error: row.try_get("error")?,
        created_at: row.try_get("created_at")?,
        started_at: row.try_get("started_at")?,
        finished_at: row.try_get("finished_at")?,
    })
}

fn rating_row(row: &SqliteRow) -> anyhow::Result<RatingRecord> {
    Ok(RatingRecord {
        bot_id: row.try_get("bot_id")?,
        game: row.try_get("game")?,
        rating: Rating {
            mu: row.try_get("mu")?,
            sigma: row.try_get("sigma")?,
        },
        played: row.try_get::<i64, _>("played")? as u64,
        last_match: row.try_get("last_match")?,
        updated_at: row.try_get("updated_at")?,
    })
}

#[async_trait::async_trait]
impl Store for SqliteStore {
    async fn insert_bot(&self, bot: &BotRecord) -> anyhow::Result<()> {
        sqlx::query(
            "INSERT INTO bots (id, name, url, games, author, version, token_hash, signing_secret, \
             builtin, paused, failures, deleted, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0, ?)",
        )
        .bind(&bot.id)
        .bind(&bot.name)
        .bind(&bot.url)
        .bind(json(&bot.games)?)
        .bind(&bot.author)
        .bind(&bot.version)
        .bind(&bot.token_hash)
        .bind(&bot.signing_secret)
        .bind(bot.builtin)
        .bind(bot.paused)
        .bind(i64::from(bot.failures))
        .bind(bot.created_at)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    async fn update_bot(&self, bot: &BotRecord) -> anyhow::Result<()> {
        sqlx::query(
            "UPDATE bots SET name = ?, url = ?, games = ?, author = ?, version = ?, paused = ?, \
             failures = ? WHERE id = ?",
        )
        .bind(&bot.name)
        .bind(&bot.url)
        .bind(json(&bot.games)?)
        .bind(&bot.author)
        .bind(&bot.version)
        .bind(bot.paused)
        .bind(i64::from(bot.failures))
        .bind(&bot.id)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    async fn delete_bot(&self, id: &str) -> anyhow::Result<()> {
        sqlx::query("UPDATE bots SET deleted = 1 WHERE id = ?")
            .bind(id)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    async fn bot(&self, id: &str) -> anyhow::Result<Option<BotRecord>> {
        sqlx::query("SELECT * FROM bots WHERE id = ? AND deleted = 0")
            .bind(id)
            .fetch_optional(&self.pool)
            .await?
            .as_ref()
            .map(bot_row)
            .transpose()
    }

    async fn bot_any(&self, id: &str) -> anyhow::Result<Option<BotRecord>> {
        sqlx::query("SELECT * FROM bots WHERE id = ?")
            .bind(id)
            .fetch_optional(&self.pool)
            .await?
            .as_ref()
            .map(bot_row)
            .transpose()
    }

    async fn bots(&self) -> anyhow::Result<Vec<BotRecord>> {
        sqlx::query("SELECT * FROM bots WHERE deleted = 0 ORDER BY created_at, id")
            .fetch_all(&self.pool)
            .await?
            .iter()
            .map(bot_row)
            .collect()
    }

    async fn set_bot_health(&self, id: &str, paused: bool, failures: u32) -> anyhow::Result<()> {
        sqlx::query("UPDATE bots SET paused = ?, failures = ? WHERE id = ?")
            .bind(paused)
            .bind(i64::from(failures))
            .bind(id)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    async fn insert_match(&self, record: &MatchRecord) -> anyhow::Result<()> {
        let mut tx = self.pool.begin().await?;
        sqlx::query(
            "INSERT INTO matches (id, game, options, seed, deals, ranked, ladder, deadline_ms, \
             max_faults, status, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 'queued', ?)",
        )
        .bind(&record.id)
        .bind(&record.game)
        .bind(json(&record.options)?)
        .bind(record.seed as i64)
        .bind(json(&record.deals)?)
        .bind(record.ranked)
        .bind(record.ladder)
        .bind(record.deadline_ms as i64)
        .bind(i64::from(record.max_faults))
        .bind(record.created_at)
        .execute(&mut *tx)
        .await?;
        for (seat, bot) in record.bots.iter().enumerate() {
            sqlx::query("INSERT INTO match_seats (match_id, seat, bot_id) VALUES (?, ?, ?)")
                .bind(&record.id)
                .bind(seat as i64)
                .bind(bot)
                .execute(&mut *tx)
                .await?;
        }
        tx.commit().await?;
        Ok(())
    }

    async fn get_match(&self, id: &str) -> anyhow::Result<Option<MatchRecord>> {
        sqlx::query(AssertSqlSafe(format!(
            "SELECT {MATCH_COLUMNS} FROM matches m WHERE m.id = ?"
        )))
        .bind(id)
        .fetch_optional(&self.pool)
        .await?
        .as_ref()
        .map(match_row)
        .transpose()
    }

    async fn matches(&self, filter: &MatchFilter) -> anyhow::Result<Vec<MatchRecord>> {
        let mut sql = format!("SELECT {MATCH_COLUMNS} FROM matches m WHERE 1 = 1");
        if filter.game.is_some() {
            sql.push_str(" AND m.game = ?");
        }
        if filter.bot.is_some() {
            sql.push_str(" AND EXISTS (SELECT 1 FROM match_seats s WHERE s.match_id = m.id AND s.bot_id = ?)");
        }
        if !filter.statuses.is_empty() {
            let names: Vec<String> = filter
                .statuses
                .iter()
                .map(|s| format!("'{}'", s.as_str()))
                .collect();
            sql.push_str(&format!(" AND m.status IN ({})", names.join(", ")));
        }
        sql.push_str(" ORDER BY m.created_at DESC, m.id DESC LIMIT ?");
        let mut query = sqlx::query(AssertSqlSafe(sql));
        if let Some(game) = &filter.game {
            query = query.bind(game);
        }
        if let Some(bot) = &filter.bot {
            query = query.bind(bot);
        }
        query
            .bind(i64::from(filter.limit))
            .fetch_all(&self.pool)
            .await?
            .iter()
            .map(match_row)
            .collect()
    }

    async fn mark_running(&self, id: &str) -> anyhow::Result<()> {
        sqlx::query(
            "UPDATE matches SET status = 'running', started_at = COALESCE(started_at, ?) \
             WHERE id = ? AND status IN ('queued', 'running')",
        )
        .bind(now_ms())
        .bind(id)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    async fn append_move(&self, match_id: &str, record: &MoveRecord) -> anyhow::Result<()> {
        sqlx::query(
            "INSERT OR IGNORE INTO moves (match_id, idx, seat, action, latency_ms, fault, comment, events) \
             VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        )
        .bind(match_id)
        .bind(record.index as i64)
        .bind(record.seat as i64)
        .bind(json(&record.action)?)
        .bind(record.latency_ms as i64)
        .bind(record.fault.as_ref().map(json).transpose()?)
        .bind(&record.comment)
        .bind(json(&record.events)?)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    async fn moves(&self, match_id: &str) -> anyhow::Result<Vec<MoveRecord>> {
        sqlx::query("SELECT * FROM moves WHERE match_id = ? ORDER BY idx")
            .bind(match_id)
            .fetch_all(&self.pool)
            .await?
            .iter()
            .map(|row| {
                Ok(MoveRecord {
                    index: row.try_get::<i64, _>("idx")? as usize,
                    seat: row.try_get::<i64, _>("seat")? as usize,
                    action: parse(&row.try_get::<String, _>("action")?)?,
                    latency_ms: row.try_get::<i64, _>("latency_ms")? as u64,
                    fault: row
                        .try_get::<Option<String>, _>("fault")?
                        .map(|text| parse(&text))
                        .transpose()?,
                    comment: row.try_get("comment")?,
                    events: parse(&row.try_get::<String, _>("events")?)?,
                })
            })
            .collect()
    }

    async fn finish_match(&self, id: &str, finish: &Finish) -> anyhow::Result<bool> {
        let now = now_ms();
        let mut tx = self.pool.begin().await?;
        // The first statement writes, so this transaction holds the write lock from here on: no
        // other transaction can change these ratings between our read and our write.
        let updated = sqlx::query(
            "UPDATE matches SET status = 'finished', result = ?, finished_at = ? \
             WHERE id = ? AND status = 'running'",
        )
        .bind(json(&finish.result)?)
        .bind(now)
        .bind(id)
        .execute(&mut *tx)
        .await?
        .rows_affected();
        if updated == 0 {
            tx.rollback().await?;
            return Ok(false);
        }
        if let Some(sides) = &finish.sides {
            let game: String = sqlx::query_scalar("SELECT game FROM matches WHERE id = ?")
                .bind(id)
                .fetch_one(&mut *tx)
                .await?;
            let mut before = Vec::new();
            for (bots, place) in sides {
                let mut members = Vec::new();
                for bot in bots {
                    let row =
                        sqlx::query("SELECT mu, sigma FROM ratings WHERE bot_id = ? AND game = ?")
                            .bind(bot)
                            .bind(&game)
                            .fetch_optional(&mut *tx)
                            .await?;
                    members.push(match row {
                        Some(row) => Rating {
                            mu: row.try_get("mu")?,
                            sigma: row.try_get("sigma")?,
                        },
                        None => Rating::default(),
                    });
                }
                before.push(Side {
                    members,
                    place: *place,
                });
            }
            let after = ratings::update(&before);
            for (((bots, _), old), new) in sides.iter().zip(&before).zip(&after) {
                for ((bot, old), new) in bots.iter().zip(&old.members).zip(new) {
                    sqlx::query(
                        "INSERT INTO ratings (bot_id, game, mu, sigma, played, last_match, updated_at) \
                         VALUES (?, ?, ?, ?, 1, ?, ?) ON CONFLICT (bot_id, game) DO UPDATE SET \
                         mu = excluded.mu, sigma = excluded.sigma, played = ratings.played + 1, \
                         last_match = excluded.last_match, updated_at = excluded.updated_at",
                    )
                    .bind(bot)
                    .bind(&game)
                    .bind(new.mu)
                    .bind(new.sigma)
                    .bind(id)
                    .bind(now)
                    .execute(&mut *tx)
                    .await?;
                    sqlx::query(
                        "INSERT INTO rating_history (match_id, bot_id, game, mu_before, sigma_before, \
                         mu_after, sigma_after, at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                    )
                    .bind(id)
                    .bind(bot)
                    .bind(&game)
                    .bind(old.mu)
                    .bind(old.sigma)
                    .bind(new.mu)
                    .bind(new.sigma)
                    .bind(now)
                    .execute(&mut *tx)
                    .await?;
                }
            }
        }
        tx.commit().await?;
        Ok(true)
    }

    async fn abort_match(&self, id: &str, reason: &str) -> anyhow::Result<bool> {
        let updated = sqlx::query(
            "UPDATE matches SET status = 'aborted', error = ?, finished_at = ? \
             WHERE id = ? AND status IN ('queued', 'running')",
        )
        .bind(reason)
        .bind(now_ms())
        .bind(id)
        .execute(&self.pool)
        .await?
        .rows_affected();
        Ok(updated > 0)
    }

    async fn leaderboard(&self, game: &str) -> anyhow::Result<Vec<RatingRecord>> {
        sqlx::query(
            "SELECT r.* FROM ratings r JOIN bots b ON b.id = r.bot_id \
             WHERE r.game = ? AND b.deleted = 0 ORDER BY (r.mu - 3 * r.sigma) DESC, r.bot_id",
        )
        .bind(game)
        .fetch_all(&self.pool)
        .await?
        .iter()
        .map(rating_row)
        .collect()
    }

    async fn bot_ratings(&self, bot_id: &str) -> anyhow::Result<Vec<RatingRecord>> {
        sqlx::query("SELECT * FROM ratings WHERE bot_id = ? ORDER BY game")
            .bind(bot_id)
            .fetch_all(&self.pool)
            .await?
            .iter()
            .map(rating_row)
            .collect()
    }

    async fn rating_history_count(&self, match_id: &str) -> anyhow::Result<u64> {
        let count: i64 =
            sqlx::query_scalar("SELECT COUNT(*) FROM rating_history WHERE match_id = ?")
                .bind(match_id)
                .fetch_one(&self.pool)
                .await?;
        Ok(count as u64)
    }
}
