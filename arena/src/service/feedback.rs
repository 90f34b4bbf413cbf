//! What a bot's author acts on: every fault of the bot across its matches, its rating after each
//! ranked match, and the rotation of its signing secret.

use super::Arena;
use crate::bots::new_secret;
use crate::dto::{
    CreatedBy, FaultEntry, FaultList, FaultQuery, RatingHistory, RatingPointView, RatingQuery,
    SecretRotated, rfc3339,
};
use crate::paging;
use crate::problem::ServiceError;
use crate::store::now_ms;
use std::time::Duration;

/// How long a signing secret replaced by a rotation stays valid: long enough to restart a bot
/// with the new one.
pub const PREVIOUS_SECRET_VALID: Duration = Duration::from_secs(10 * 60);

impl Arena {
    /// Gives the bot a new signing secret (owner only); the replaced one stays valid for
    /// [`PREVIOUS_SECRET_VALID`], its signature sent beside the new one's.
    pub async fn rotate_secret(
        &self,
        id: &str,
        token: Option<&str>,
    ) -> Result<SecretRotated, ServiceError> {
        let bot = self.owned_bot(id, token).await?;
        let signing_secret = new_secret();
        let until = now_ms() + PREVIOUS_SECRET_VALID.as_millis() as i64;
        if !self
            .inner
            .store
            .rotate_secret(&bot.id, &signing_secret, until)
            .await?
        {
            return Err(ServiceError::unknown_bot(id));
        }
        self.inner.client.secrets_rotated();
        tracing::info!(bot = bot.id, "signing secret rotated");
        Ok(SecretRotated {
            signing_secret,
            previous_valid_until: rfc3339(until),
        })
    }

    /// Every fault of a bot, newest first, a page at a time, each marked with who created its
    /// match and whether it counts toward the bot's pause. A fault of a match still live (or
    /// of a tournament table whose deal is still in play) shows its kind only: its detail and
    /// the bot's answer may quote hidden cards.
    pub async fn bot_faults(&self, id: &str, query: FaultQuery) -> Result<FaultList, ServiceError> {
        if self.inner.store.bot(id).await?.is_none() {
            return Err(ServiceError::unknown_bot(id));
        }
        let limit = paging::limit(query.limit, 50);
        let before = paging::after(query.cursor.as_deref())?;
        let rows = self.inner.store.bot_faults(id, before, limit + 1).await?;
        let (rows, next_cursor) =
            paging::page(rows, limit, |f| (f.at, f.match_seq, f.index as i64));
        let ids: Vec<&str> = rows.iter().map(|f| f.match_id.as_str()).collect();
        let embargoed = self.inner.store.embargoed(&ids).await?;
        let faults = rows
            .into_iter()
            .map(|row| {
                let open = row.match_ended && !embargoed.contains(&row.match_id);
                FaultEntry {
                    created_by: row.creator.as_ref().map(CreatedBy::from),
                    counts_toward_pause: row.creator.as_ref().is_none_or(|c| c.counts_for(id)),
                    index: row.index,
                    seat: row.seat,
                    kind: row.fault.kind,
                    detail: open.then_some(row.fault.detail),
                    answer: row.fault.answer.filter(|_| open),
                    expected: row.fault.expected,
                    at: rfc3339(row.at),
                    match_id: row.match_id,
                }
            })
            .collect();
        Ok(FaultList {
            faults,
            next_cursor,
        })
    }

    /// A bot's rating after each ranked match of a game, newest first, a page at a time.
    pub async fn rating_history(
        &self,
        id: &str,
        query: RatingQuery,
    ) -> Result<RatingHistory, ServiceError> {
        if self.inner.store.bot(id).await?.is_none() {
            return Err(ServiceError::unknown_bot(id));
        }
        if engine::registry::find(&query.game).is_none() {
            return Err(ServiceError::unknown_game(&query.game));
        }
        let limit = paging::limit(query.limit, 100);
        let before = paging::after(query.cursor.as_deref())?;
        let rows = self
            .inner
            .store
            .rating_history(id, &query.game, query.players, before, limit + 1)
            .await?;
        let (rows, next_cursor) = paging::page(rows, limit, |p| (p.at, p.match_id.clone()));
        Ok(RatingHistory {
            game: query.game,
            ratings: rows
                .into_iter()
                .map(|point| RatingPointView {
                    at: rfc3339(point.at),
                    mu: point.rating.mu,
                    sigma: point.rating.sigma,
                    display: point.rating.display(),
                    version: point.version,
                    players: point.players,
                    match_id: point.match_id,
                })
                .collect(),
            next_cursor,
        })
    }
}
