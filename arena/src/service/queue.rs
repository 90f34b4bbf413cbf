//! The queue's side of the service: what a request that creates matches costs its client (every
//! match it creates, against the rate limit and the cap of queued matches), who may cancel a
//! match still waiting (its creator too), and the expiry of tables nobody joined.

use super::Arena;
use crate::limits::{Limited, Meter};
use crate::live::LiveEnd;
use crate::problem::{ErrorCode, ServiceError};
use crate::store::queue::AdmissionHold;
use crate::store::{AbortReason, Creator, CreatorKind, MatchStatus, now_ms};

/// Tables one expiry pass aborts at most (the rest wait for the next pass).
const EXPIRY_BATCH: u32 = 200;

/// A request admitted to the queue: while it is held, no other creation of this process is
/// admitted, nor (on PostgreSQL) another creation of the same client in any process, so what the
/// cap counted is still true when the request's matches are stored.
pub(super) struct Admitted<'a> {
    _held: tokio::sync::MutexGuard<'a, ()>,
    _client: AdmissionHold,
}

impl Arena {
    /// Admits `matches` new matches of `creator` (a table with people if `people`: its own cap
    /// and allowance), before anything is stored: 429 `queue_full` if the client would then have
    /// more than `--max-queued-per-client` waiting, then 429 `rate_limited` if the client's rate
    /// limit cannot pay one unit per match. The admin (the operator) and the ladder are neither
    /// capped nor rate limited here. Hold the answer until the matches are stored.
    pub(super) async fn admit(
        &self,
        creator: &Creator,
        people: bool,
        matches: u32,
        meter: &Meter<'_>,
    ) -> Result<Admitted<'_>, ServiceError> {
        let held = self.inner.admission.lock().await;
        if matches!(creator.kind, CreatorKind::Admin | CreatorKind::Ladder) {
            return Ok(Admitted {
                _held: held,
                _client: AdmissionHold::none(),
            });
        }
        let cap = self.inner.config.max_queued_per_client;
        let admitted = Admitted {
            _held: held,
            _client: if cap > 0 {
                self.inner.store.hold_admission(&creator.key).await?
            } else {
                AdmissionHold::none()
            },
        };
        if cap > 0 {
            let queued = self.inner.store.queued_by(&creator.key, people).await?;
            if queued + u64::from(matches) > u64::from(cap) {
                tracing::info!(
                    client = creator.key,
                    queued,
                    matches,
                    cap,
                    "creation refused: the client's queue is full"
                );
                return Err(meter.queue_full(queued, matches, cap));
            }
        }
        let what = if people {
            Limited::TableCreation
        } else {
            Limited::MatchCreation
        };
        meter.charge(what, matches)?;
        Ok(admitted)
    }

    /// 403 `admin_required` for a tournament of `matches` tables past
    /// `--max-tournament-matches`, unless `creator` is the admin.
    pub(super) fn check_tournament_size(
        &self,
        creator: &Creator,
        matches: usize,
    ) -> Result<(), ServiceError> {
        let most = self.inner.config.max_tournament_matches;
        if creator.kind == CreatorKind::Admin || matches <= most as usize {
            return Ok(());
        }
        Err(ServiceError::new(
            ErrorCode::AdminRequired,
            format!(
                "this tournament has {matches} tables (deals times seat rotations): more than {most} need the server's admin token (`Authorization: Bearer <admin token>`); play fewer `deals`"
            ),
        ))
    }

    /// Whether the HTTP caller whose creator is `caller` created a match of `creator`: the
    /// same client key (its token; anonymous clients by address).
    pub(super) fn same_client(caller: &Creator, creator: Option<&Creator>) -> bool {
        creator.is_some_and(|creator| creator.key == caller.key)
            && !matches!(caller.kind, CreatorKind::Ladder)
    }

    /// Aborts (`table_expired`) the tables that waited for their people longer than
    /// `--table-expiry-minutes`; their watchers are told. Returns how many.
    pub async fn expire_tables(&self) -> anyhow::Result<usize> {
        let expiry = self.inner.config.table_expiry;
        if expiry.is_zero() {
            return Ok(0);
        }
        let before = now_ms().saturating_sub(i64::try_from(expiry.as_millis()).unwrap_or(i64::MAX));
        let expired = self
            .inner
            .store
            .expire_waiting(before, EXPIRY_BATCH)
            .await?;
        for match_id in &expired {
            self.inner.metrics.match_aborted(AbortReason::TableExpired);
            self.inner
                .live
                .close(
                    match_id,
                    LiveEnd {
                        status: MatchStatus::Aborted,
                        result: None,
                        error: Some("the table waited for its people too long".into()),
                    },
                )
                .await;
        }
        if !expired.is_empty() {
            tracing::info!(
                tables = expired.len(),
                expiry_minutes = expiry.as_secs() / 60,
                "aborted tables nobody joined in time (table_expired)"
            );
        }
        Ok(expired.len())
    }
}
