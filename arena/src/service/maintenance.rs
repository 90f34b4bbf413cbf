//! Background upkeep that keeps an arena left running for months within bounds, paced so it never
//! competes with the matches for long:
//! - SQLite: the write-ahead log is checkpointed into the database and truncated every
//!   `maintenance_interval` (30 s), beside SQLite's own checkpoint every 1000 pages and its size
//!   limit at reset ([`crate::store::sql::WAL_SIZE_LIMIT`]): readers are short, so the truncating
//!   checkpoint finishes and the log stays far below 64 MB whatever the load.
//! - Retention (`--retain-unranked-days`, `--retain-builtin-days`): the moves of unranked
//!   matches, and of ranked matches between built-in bots alone, that ended longer ago are
//!   deleted in small batches, oldest first; their results (and rating changes) stay. The pages freed are reused
//!   by new moves (the file stops growing); `cardroom db vacuum` returns them to the file system.
//! - Idempotency keys (`Idempotency-Key` on creates) are deleted a day after their first use.
//! - Tables left waiting for their people longer than `--table-expiry-minutes` are aborted
//!   (`table_expired`), a batch per pass.

use super::Arena;
use crate::store::{Retention, now_ms};
use std::time::Duration;

/// Matches whose moves one retention batch deletes (one short transaction).
const PRUNE_BATCH: u32 = 100;
/// Batches per maintenance pass at most; the rest waits for the next pass.
const PRUNE_BATCHES_PER_PASS: u32 = 50;
/// The pause between two batches, so the writer of moves is never held for long.
const PRUNE_PAUSE: Duration = Duration::from_millis(20);

/// Runs the upkeep for ever, one pass every `maintenance_interval`.
pub async fn run(arena: Arena) {
    let mut ticker = tokio::time::interval(arena.config().maintenance_interval);
    loop {
        ticker.tick().await;
        pass(&arena).await;
    }
}

/// One pass: retention, then the checkpoint (which then also carries the deletions out of the
/// log).
pub async fn pass(arena: &Arena) {
    let config = arena.config();
    for (class, days) in [
        (Retention::Unranked, config.retain_unranked_days),
        (Retention::Builtin, config.retain_builtin_days),
    ] {
        if days > 0 {
            prune(arena, class, days).await;
        }
    }
    match arena.expire_tables().await {
        Ok(_) => {}
        Err(error) => tracing::warn!(error = format!("{error:#}"), "expiring tables failed"),
    }
    // Idempotency keys answer retries for a day, then go.
    match arena.prune_idempotency_keys().await {
        Ok(0) => {}
        Ok(keys) => tracing::debug!(keys, "deleted idempotency keys older than a day"),
        Err(error) => tracing::warn!(
            error = format!("{error:#}"),
            "pruning idempotency keys failed"
        ),
    }
    match arena.store().checkpoint().await {
        Ok(checkpoint) if checkpoint.busy => {
            tracing::info!("the write-ahead log checkpoint waited out readers; tried again later")
        }
        Ok(_) => {}
        Err(error) => tracing::warn!(error = format!("{error:#}"), "checkpoint failed"),
    }
}

/// Deletes, in batches, the moves of the `class`'s matches that ended more than `days` ago.
async fn prune(arena: &Arena, class: Retention, days: u32) {
    let ended_before = now_ms().saturating_sub(i64::from(days) * 86_400_000);
    let mut pruned = crate::store::Pruned::default();
    for _ in 0..PRUNE_BATCHES_PER_PASS {
        match arena
            .store()
            .prune_moves(class, ended_before, PRUNE_BATCH)
            .await
        {
            Ok(batch) => {
                pruned.matches += batch.matches;
                pruned.moves += batch.moves;
                if batch.matches < u64::from(PRUNE_BATCH) {
                    break;
                }
            }
            Err(error) => {
                tracing::warn!(error = format!("{error:#}"), "retention failed");
                break;
            }
        }
        tokio::time::sleep(PRUNE_PAUSE).await;
    }
    if pruned.matches > 0 {
        match class {
            Retention::Unranked => tracing::info!(
                matches = pruned.matches,
                moves = pruned.moves,
                retain_unranked_days = days,
                "deleted the moves of old unranked matches (their results stay)"
            ),
            Retention::Builtin => tracing::info!(
                matches = pruned.matches,
                moves = pruned.moves,
                retain_builtin_days = days,
                "deleted the moves of old ranked matches between built-in bots (their results and ratings stay)"
            ),
        }
    }
}
