//! The group-commit move writer: every match hands its move to the writer and waits for the
//! commit, and the writer commits all the moves waiting at that moment in one transaction. A move
//! is durable before its match goes on (kill -9 loses nothing), and the database pays one commit
//! (one fsync) per batch instead of one per move.

use super::sql::{Dialect, Pool};
use super::{MoveRecord, WriterStopped};
use sqlx::pool::PoolConnection;
use sqlx::{QueryBuilder, Row};
use std::collections::HashSet;
use std::sync::Arc;
use tokio::sync::{Mutex, mpsc, oneshot};

/// A move ready for the writer: JSON already serialized by the match's own task. Its events are
/// not stored (replaying the actions gives them back).
#[derive(Debug)]
struct PendingMove {
    match_seq: i64,
    worker: String,
    index: i64,
    seat: i64,
    action: String,
    latency_ms: i64,
    fault: Option<String>,
    comment: Option<String>,
    done: oneshot::Sender<Result<bool, String>>,
}

/// Moves per batch at most: one multi-row INSERT, every row count up to it its own prepared
/// statement in the connection's statement cache.
const MAX_BATCH: usize = 32;

/// How many times at most the writer lets the ready tasks run to gather a batch (it stops at the
/// first round that brings no move).
const GATHER_ROUNDS: usize = 4;

/// The sending end of the move writers: what [`super::Store::append_move`] hands each move to.
#[derive(Debug, Clone)]
pub(super) struct MoveWriter {
    moves: mpsc::UnboundedSender<PendingMove>,
}

impl MoveWriter {
    /// Starts the writers on `pool`. SQLite has one writer at a time: one batch writer.
    /// PostgreSQL commits several transactions at once: a few writers keep its WAL flushes busy.
    pub(super) fn spawn(pool: &Pool, dialect: Dialect) -> Self {
        let (moves, receiver) = mpsc::unbounded_channel();
        let writers = match dialect {
            Dialect::Sqlite => 1,
            Dialect::Postgres => 4,
        };
        let receiver = Arc::new(Mutex::new(receiver));
        for _ in 0..writers {
            tokio::spawn(write_moves(pool.clone(), receiver.clone()));
        }
        MoveWriter { moves }
    }

    /// Stores `record` as `worker`'s move of the match `match_seq` once a batch commits it.
    /// Returns false if the worker no longer holds the match or the index is already taken.
    pub(super) async fn append(
        &self,
        match_seq: i64,
        worker: &str,
        record: &MoveRecord,
    ) -> anyhow::Result<bool> {
        let (done, stored) = oneshot::channel();
        self.moves
            .send(PendingMove {
                match_seq,
                worker: worker.to_string(),
                index: record.index as i64,
                seat: record.seat as i64,
                action: serde_json::to_string(&record.action)?,
                latency_ms: record.latency_ms as i64,
                fault: record
                    .fault
                    .as_ref()
                    .map(serde_json::to_string)
                    .transpose()?,
                comment: record.comment.clone(),
                done,
            })
            .map_err(|_| WriterStopped)?;
        stored
            .await
            .map_err(|_| WriterStopped)?
            .map_err(|error| anyhow::anyhow!("storing a move: {error}"))
    }
}

/// A move writer's own connection, kept from batch to batch: no pool checkout per commit, and
/// (SQLite) a page cache that other connections' writes rarely invalidate.
enum WriterConnection {
    Sqlite(PoolConnection<sqlx::Sqlite>),
    Postgres(PoolConnection<sqlx::Postgres>),
}

/// The group-commit writer: takes the moves waiting (at most [`MAX_BATCH`]), stores them in one
/// transaction per worker (one in practice), then answers each match. Several writers may share the receiver (PostgreSQL).
async fn write_moves(pool: Pool, receiver: Arc<Mutex<mpsc::UnboundedReceiver<PendingMove>>>) {
    let mut connection: Option<WriterConnection> = None;
    // A one-connection pool (an in-memory database) cannot spare its connection between batches.
    let keep_connection = match &pool {
        Pool::Sqlite(p) => p.options().get_max_connections() > 1,
        Pool::Postgres(p) => p.options().get_max_connections() > 1,
    };
    loop {
        let mut batch = Vec::new();
        {
            let mut receiver = receiver.lock().await;
            let Some(first) = receiver.recv().await else {
                return;
            };
            batch.push(first);
            // Whatever is waiting, then again after letting the tasks that are ready run (a
            // match whose bot has answered is about to log its move), for as long as that
            // brings more (a few rounds at most): a commit's own cost (its statement, the log's
            // frame headers and index, the locks) is paid once for one move or for twenty, and
            // with nothing else ready a yield returns at once.
            take_waiting(&mut receiver, &mut batch);
            for _ in 0..GATHER_ROUNDS {
                if batch.len() >= MAX_BATCH {
                    break;
                }
                tokio::task::yield_now().await;
                if take_waiting(&mut receiver, &mut batch) == 0 {
                    break;
                }
            }
        }
        // Row locks in id order, like the lease renewal: no deadlock between the two.
        batch.sort_by(|a, b| a.match_seq.cmp(&b.match_seq).then(a.index.cmp(&b.index)));
        let written = async {
            let connection = match &mut connection {
                Some(connection) => connection,
                None => connection.insert(match &pool {
                    Pool::Sqlite(p) => WriterConnection::Sqlite(p.acquire().await?),
                    Pool::Postgres(p) => WriterConnection::Postgres(p.acquire().await?),
                }),
            };
            match connection {
                WriterConnection::Sqlite(c) => write_batch_sqlite(c, &batch).await,
                WriterConnection::Postgres(c) => write_batch_postgres(c, &batch).await,
            }
        }
        .await;
        if written.is_err()
            && let Some(WriterConnection::Sqlite(c)) = &mut connection
        {
            // The batch's transaction may have stayed open after a failed INSERT: the
            // connection goes back to the pool without it (an error here means none was open).
            let _ = sqlx::raw_sql("ROLLBACK").execute(&mut **c).await;
        }
        if !keep_connection {
            connection = None;
        }
        match written {
            Ok(stored) => {
                for (pending, stored) in batch.into_iter().zip(stored) {
                    let _ = pending.done.send(Ok(stored));
                }
            }
            Err(error) => {
                // The connection may be what failed: the next batch takes a fresh one.
                connection = None;
                let message = format!("{error:#}");
                for pending in batch {
                    let _ = pending.done.send(Err(message.clone()));
                }
            }
        }
    }
}

/// Moves already waiting in the writer's queue, added to `batch` up to [`MAX_BATCH`]; how many.
fn take_waiting(
    receiver: &mut mpsc::UnboundedReceiver<PendingMove>,
    batch: &mut Vec<PendingMove>,
) -> usize {
    let before = batch.len();
    while batch.len() < MAX_BATCH {
        match receiver.try_recv() {
            Ok(next) => batch.push(next),
            Err(_) => break,
        }
    }
    batch.len() - before
}

// A batch is one statement per worker (one in practice), wrapped as the dialect says: a
// multi-row INSERT of the moves whose match the worker still holds (its fence, a primary-key
// lookup per move; the batch is sorted by `match_seq`, so PostgreSQL's row locks come in
// `seq` order like the lease renewal's).
macro_rules! write_batch_for {
    ($name:ident, $db:ty, $dialect:expr) => {
        async fn $name(
            connection: &mut <$db as sqlx::Database>::Connection,
            batch: &[PendingMove],
        ) -> anyhow::Result<Vec<bool>> {
            let mut workers: Vec<&str> = batch.iter().map(|m| m.worker.as_str()).collect();
            workers.sort_unstable();
            workers.dedup();
            let mut stored: HashSet<(i64, i64)> = HashSet::new();
            for worker in workers {
                let rows = batch.iter().filter(|m| m.worker == worker);
                let (begin, commit) = $dialect.batch_wrapping();
                let mut query = QueryBuilder::<$db>::new(begin);
                query.push(
                    "INSERT INTO match_moves (match_seq, idx, seat, action, latency_ms, fault, comment) \
                     SELECT v.column1, v.column2, v.column3, v.column4, v.column5, v.column6, v.column7 FROM (",
                );
                query.push_values(rows, |mut row, pending| {
                    row.push_bind(pending.match_seq)
                        .push_bind(pending.index)
                        .push_bind(pending.seat)
                        .push_bind(&pending.action)
                        .push_bind(pending.latency_ms)
                        .push_bind(&pending.fault)
                        .push_bind(&pending.comment);
                });
                query.push(
                    ") AS v WHERE EXISTS (SELECT 1 FROM matches m WHERE m.seq = v.column1 \
                     AND m.status = 'running' AND m.lease_owner = ",
                );
                query.push_bind(worker);
                query.push($dialect.share_lock());
                // A move already logged (a resumed match replaying a stale step) is not stored
                // twice; its runner learns it from the missing row.
                query.push(") ON CONFLICT DO NOTHING RETURNING match_seq, idx");
                query.push(commit);
                for row in query.build().fetch_all(&mut *connection).await? {
                    stored.insert((row.try_get(0)?, row.try_get(1)?));
                }
            }
            Ok(batch
                .iter()
                .map(|m| stored.contains(&(m.match_seq, m.index)))
                .collect())
        }
    };
}

write_batch_for!(write_batch_sqlite, sqlx::Sqlite, Dialect::Sqlite);
write_batch_for!(write_batch_postgres, sqlx::Postgres, Dialect::Postgres);
