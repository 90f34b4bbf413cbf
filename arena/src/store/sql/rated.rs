//! Ratings on SQLite and PostgreSQL: kept per rated entity (`kind` 'bot'), game id and table
//! size. One statement sequence rates a match ([`rate_sides!`]), used by a finishing match and by
//! the rebuild that replays every ranked result in rating order (the upgrade from ratings that
//! mixed table sizes); the leaderboards and a bot's ratings and their history read it.

use super::{Columns, Pool, SqlStore, older_than};
use crate::ratings::Rating;
use crate::store::{RatingPoint, RatingRecord};
use sqlx::AssertSqlSafe;

/// The kinds of rated entities (`ratings.kind`): bots, and people as players.
pub(super) const BOT: &str = "bot";
pub(super) const PLAYER: &str = "player";

/// The kind and id of a rated member of a match: a bot id, or a player's key
/// ([`crate::store::players::rated_key`]).
pub(super) fn entity(member: &str) -> (&'static str, &str) {
    match member.strip_prefix(crate::store::players::RATED_PLAYER_PREFIX) {
        Some(player) => (PLAYER, player),
        None => (BOT, member),
    }
}

/// The built-in bot whose rating a match of disqualified sides only loses to.
pub(super) const YARDSTICK_URL: &str = "builtin:random";

pub(super) fn rating_row(row: &impl Columns) -> anyhow::Result<RatingRecord> {
    Ok(RatingRecord {
        bot_id: row.text("rated_id")?,
        game: row.text("game")?,
        players: usize::try_from(row.int("players")?)?,
        rating: Rating {
            mu: row.real("mu")?,
            sigma: row.real("sigma")?,
        },
        played: row.int("played")? as u64,
        wins: row.int("wins")? as u64,
        draws: row.int("draws")? as u64,
        losses: row.int("losses")? as u64,
        faults: row.int("faults")? as u64,
        last_match: row.opt_text("last_match")?,
        updated_at: row.int("updated_at")?,
    })
}

/// Rates one ranked match on a transaction: reads each side's members' ratings at the game id
/// and table size (and the yardstick's, for forfeits), applies [`crate::ratings::rate`] and
/// writes every member's row. Evaluates to the members' `(bot, before, after)`, side by side.
/// `$sides` are `(bots, place)` per side, `$faults` `(bot, faults)`, `$now` the time written.
macro_rules! rate_sides {
    ($tx:ident, $match_id:expr, $game:expr, $players:expr, $sides:expr, $forfeited:expr, $faults:expr, $now:expr) => {{
        let (match_id, game, players): (&str, &str, i64) = ($match_id, $game, $players);
        let sides: &[(Vec<String>, usize)] = $sides;
        let faults: &[(String, u32)] = $faults;
        let mut before = Vec::new();
        for (bots, place) in sides {
            let mut members = Vec::new();
            for bot in bots {
                let (kind, rated_id) = crate::store::sql::rated::entity(bot);
                let row = sqlx::query(
                    "SELECT mu, sigma FROM ratings WHERE kind = $1 AND rated_id = $2 \
                     AND game = $3 AND players = $4",
                )
                .bind(kind)
                .bind(rated_id)
                .bind(game)
                .bind(players)
                .fetch_optional(&mut *$tx)
                .await?;
                members.push(match row {
                    Some(row) => crate::ratings::Rating {
                        mu: row.real("mu")?,
                        sigma: row.real("sigma")?,
                    },
                    None => crate::ratings::Rating::default(),
                });
            }
            before.push(crate::ratings::Side {
                members,
                place: *place,
            });
        }
        // Disqualified sides lose to the game's `random` at this table size when no side played.
        let yardstick = sqlx::query(
            "SELECT r.mu, r.sigma FROM ratings r JOIN bots b ON b.id = r.rated_id \
             WHERE r.kind = $1 AND b.builtin = TRUE AND b.url = $2 AND r.game = $3 AND r.players = $4",
        )
        .bind(crate::store::sql::rated::BOT)
        .bind(crate::store::sql::rated::YARDSTICK_URL)
        .bind(game)
        .bind(players)
        .fetch_optional(&mut *$tx)
        .await?
        .map(|row| -> anyhow::Result<crate::ratings::Rating> {
            Ok(crate::ratings::Rating {
                mu: row.real("mu")?,
                sigma: row.real("sigma")?,
            })
        })
        .transpose()?
        .unwrap_or_default();
        let (after, outcomes) = crate::ratings::rate(&before, $forfeited, yardstick);
        let mut rated: Vec<(String, crate::ratings::Rating, crate::ratings::Rating)> = Vec::new();
        for ((((bots, _), old), new), outcome) in sides.iter().zip(&before).zip(&after).zip(outcomes)
        {
            let (win, draw, loss) = match outcome {
                crate::ratings::Outcome::Win => (1i64, 0i64, 0i64),
                crate::ratings::Outcome::Draw => (0, 1, 0),
                crate::ratings::Outcome::Loss => (0, 0, 1),
            };
            for ((bot, old), new) in bots.iter().zip(&old.members).zip(new) {
                let bot_faults = faults
                    .iter()
                    .find(|(faulty, _)| faulty == bot)
                    .map_or(0, |(_, n)| i64::from(*n));
                let (kind, rated_id) = crate::store::sql::rated::entity(bot);
                sqlx::query(
                    "INSERT INTO ratings (kind, rated_id, game, players, mu, sigma, played, last_match, \
                     updated_at, wins, draws, losses, faults) \
                     VALUES ($1, $2, $3, $4, $5, $6, 1, $7, $8, $9, $10, $11, $12) \
                     ON CONFLICT (kind, rated_id, game, players) DO UPDATE SET \
                     mu = excluded.mu, sigma = excluded.sigma, played = ratings.played + 1, \
                     last_match = excluded.last_match, updated_at = excluded.updated_at, \
                     wins = ratings.wins + excluded.wins, draws = ratings.draws + excluded.draws, \
                     losses = ratings.losses + excluded.losses, faults = ratings.faults + excluded.faults",
                )
                .bind(kind)
                .bind(rated_id)
                .bind(game)
                .bind(players)
                .bind(new.mu)
                .bind(new.sigma)
                .bind(match_id)
                .bind($now)
                .bind(win)
                .bind(draw)
                .bind(loss)
                .bind(bot_faults)
                .execute(&mut *$tx)
                .await?;
                rated.push((bot.clone(), *old, *new));
            }
        }
        rated
    }};
}

impl SqlStore {
    /// Rebuilds every rating from the ranked results, in the order they were rated, when the
    /// schema asks for it (`rating_rebuild`: the upgrade to ratings per table size): the
    /// ratings are replaced, and each rating-history row gets its match's table size and the
    /// values at that size (its time and version stay). Done once, by the one process whose
    /// transaction takes the request; a no-op otherwise.
    pub(super) async fn rebuild_ratings(&self) -> anyhow::Result<u64> {
        let dialect = self.dialect;
        let matches = format!(
            "SELECT m.id, m.game, m.result, m.finished_at, {} AS bots FROM matches m \
             WHERE m.rating_seq IS NOT NULL AND m.result IS NOT NULL ORDER BY m.rating_seq",
            dialect.seat_bots()
        );
        on_pool!(&self.pool, p => {
            let mut tx = p.begin_with(dialect.begin_writing()).await?;
            let requested = sqlx::query("DELETE FROM rating_rebuild WHERE id = 1")
                .execute(&mut *tx)
                .await?
                .rows_affected();
            if requested == 0 {
                tx.rollback().await?;
                return Ok(0);
            }
            if dialect == super::Dialect::Postgres {
                // As a finishing match does: no rating update interleaves.
                sqlx::query("SELECT pg_advisory_xact_lock($1)")
                    .bind(super::RATINGS_LOCK)
                    .execute(&mut *tx)
                    .await?;
            }
            sqlx::query("DELETE FROM ratings").execute(&mut *tx).await?;
            let rows = sqlx::query(AssertSqlSafe(matches)).fetch_all(&mut *tx).await?;
            let mut rated_matches = 0;
            for row in &rows {
                let id = row.text("id")?;
                let game = row.text("game")?;
                let mut bots: Vec<String> = super::parse(&row.text("bots")?)?;
                if bots.iter().any(|b| b == crate::store::tables::PERSON_BOT_ID) {
                    // A rated table's people are rated as the players in its seats.
                    let seated: Vec<(i64, Option<String>)> = sqlx::query_as(
                        "SELECT s.seat, s.player_id FROM table_seats s JOIN tables t \
                         ON t.id = s.table_id WHERE t.match_id = $1",
                    )
                    .bind(&id)
                    .fetch_all(&mut *tx)
                    .await?;
                    for (seat, player) in seated {
                        if let (Some(player), Ok(seat)) = (player, usize::try_from(seat))
                            && let Some(member) = bots.get_mut(seat)
                        {
                            *member = crate::store::players::rated_key(&player);
                        }
                    }
                }
                let result: crate::result::MatchResult = super::parse(&row.text("result")?)?;
                let at = row.opt_int("finished_at")?.unwrap_or_default();
                let (sides, forfeited) = crate::ratings::rated_sides(
                    &result.ranking,
                    result.teams.as_deref(),
                    &result.disqualified,
                    &bots,
                );
                let faults: Vec<(String, u32)> =
                    bots.iter().cloned().zip(result.faults.iter().copied()).collect();
                let players = bots.len() as i64;
                let rated = rate_sides!(tx, &id, &game, players, &sides, &forfeited, &faults, at);
                for (bot, old, new) in rated {
                    if entity(&bot).0 != BOT {
                        continue;
                    }
                    sqlx::query(
                        "UPDATE rating_history SET mu_before = $1, sigma_before = $2, mu_after = $3, \
                         sigma_after = $4, players = $5 WHERE match_id = $6 AND bot_id = $7",
                    )
                    .bind(old.mu)
                    .bind(old.sigma)
                    .bind(new.mu)
                    .bind(new.sigma)
                    .bind(players)
                    .bind(&id)
                    .bind(&bot)
                    .execute(&mut *tx)
                    .await?;
                }
                rated_matches += 1;
            }
            tx.commit().await?;
            tracing::info!(matches = rated_matches, "ratings rebuilt per game id and table size");
            Ok(rated_matches)
        })
    }

    /// A leaderboard: the live bots' ratings in `game` at `players`, best display value first.
    pub(super) async fn leaderboard_rows(
        &self,
        game: &str,
        players: usize,
    ) -> anyhow::Result<Vec<RatingRecord>> {
        on_pool!(&self.pool, p => sqlx::query(
            "SELECT r.* FROM ratings r JOIN bots b ON b.id = r.rated_id \
             WHERE r.kind = $1 AND r.game = $2 AND r.players = $3 AND b.deleted = FALSE \
             ORDER BY (r.mu - 3 * r.sigma) DESC, r.rated_id",
        )
        .bind(BOT)
        .bind(game)
        .bind(players as i64)
        .fetch_all(p)
        .await?
        .iter()
        .map(rating_row)
        .collect())
    }

    /// A bot's ratings (`bot_id`), or every live bot's (None), by bot, game and table size.
    pub(super) async fn rating_rows(
        &self,
        bot_id: Option<&str>,
    ) -> anyhow::Result<Vec<RatingRecord>> {
        let sql = match bot_id {
            Some(_) => {
                "SELECT * FROM ratings WHERE kind = $1 AND rated_id = $2 ORDER BY game, players"
            }
            None => {
                "SELECT r.* FROM ratings r JOIN bots b ON b.id = r.rated_id \
                 WHERE r.kind = $1 AND b.deleted = FALSE ORDER BY r.rated_id, r.game, r.players"
            }
        };
        on_pool!(&self.pool, p => {
            let mut query = sqlx::query(sql).bind(BOT);
            if let Some(bot_id) = bot_id {
                query = query.bind(bot_id);
            }
            query.fetch_all(p).await?.iter().map(rating_row).collect()
        })
    }

    /// A bot's rating after each ranked match of `game` (at `players`, if given), newest first.
    pub(super) async fn rating_history_rows(
        &self,
        bot_id: &str,
        game: &str,
        players: Option<usize>,
        before: Option<(i64, String)>,
        limit: u32,
    ) -> anyhow::Result<Vec<RatingPoint>> {
        let size = if players.is_some() {
            " AND players = $4"
        } else {
            ""
        };
        let first = if players.is_some() { 5 } else { 4 };
        let sql = format!(
            "SELECT match_id, at, mu_after, sigma_after, version, players FROM rating_history \
             WHERE bot_id = $1 AND game = $2{size}{} ORDER BY at DESC, match_id DESC LIMIT $3",
            older_than(before.is_some(), "AND", "at, match_id", first)
        );
        on_pool!(&self.pool, p => {
            let mut query = sqlx::query(AssertSqlSafe(sql.clone()))
                .bind(bot_id)
                .bind(game)
                .bind(i64::from(limit));
            if let Some(players) = players {
                query = query.bind(players as i64);
            }
            if let Some((at, match_id)) = &before {
                query = query.bind(*at).bind(match_id.clone());
            }
            query.fetch_all(p)
                .await?
                .iter()
                .map(|row| {
                    Ok(RatingPoint {
                        match_id: row.text("match_id")?,
                        at: row.int("at")?,
                        rating: Rating {
                            mu: row.real("mu_after")?,
                            sigma: row.real("sigma_after")?,
                        },
                        version: row.opt_text("version")?,
                        players: usize::try_from(row.opt_int("players")?.unwrap_or_default())?,
                    })
                })
                .collect()
        })
    }
}
