//! The arena's Prometheus metrics. Counted in process (each process counts what it played,
//! cancelled or served): matches started, finished and aborted, moves, faults, lease resumes,
//! stream connections, each registered bot's move latency (built-in bots apart); read from the
//! database at each scrape ([`ArenaMetrics::observe`], shared by every process): the queue by
//! class and the connection pool. Encoded by `prometheus-client`, in the OpenMetrics or the
//! Prometheus 0.0.4 text format, after the API's own families (`/metrics`).

use crate::client::FaultKind;
use crate::store::{AbortReason, PoolStats, QueueDepth};
use prometheus_client::collector::Collector;
use prometheus_client::encoding::{DescriptorEncoder, EncodeLabelSet, EncodeMetric as _};
use prometheus_client::metrics::counter::{ConstCounter, Counter};
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::gauge::Gauge;
use prometheus_client::metrics::histogram::Histogram;
use prometheus_client::registry::Registry;
use std::sync::atomic::{AtomicU64, Ordering};

/// Upper bounds of a registered bot's move latency buckets, in seconds (deadlines go up to 60 s).
const LATENCY_BUCKETS: [f64; 12] = [
    0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 10.0,
];

/// Upper bounds of a built-in bot's move latency buckets, in seconds: most answer within the
/// millisecond; the searchers take their budget (200 ms by default).
const BUILTIN_BUCKETS: [f64; 8] = [0.001, 0.002, 0.005, 0.01, 0.05, 0.1, 0.25, 1.0];

/// The classes of the queue, as `QueueDepth::class` names them.
const QUEUE_CLASSES: [&str; 3] = ["ladder", "ranked", "unranked"];

/// Pool acquires that waited at least [`crate::store::sql::SLOW_ACQUIRE`], process-wide (sqlx
/// reports them as log events; the binary's telemetry counts them here).
static SLOW_ACQUIRES: AtomicU64 = AtomicU64::new(0);

/// Counts one slow pool acquire (see [`SLOW_ACQUIRES`]).
pub fn count_slow_acquire() {
    SLOW_ACQUIRES.fetch_add(1, Ordering::Relaxed);
}

/// How a match run ended, as the `outcome` label of `cardroom_arena_matches_finished_total`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MatchOutcome {
    /// Played to the end with no fault.
    Clean,
    /// Played to the end with at least one fault (a seat disqualified or flagged included).
    Faulted,
    /// Stopped without a result.
    Aborted,
}

impl MatchOutcome {
    fn label(self) -> &'static str {
        match self {
            MatchOutcome::Clean => "clean",
            MatchOutcome::Faulted => "faulted",
            MatchOutcome::Aborted => "aborted",
        }
    }
}

/// The streams a process holds open, as the `kind` label of
/// `cardroom_arena_stream_connections`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StreamKind {
    /// A stream bot's `GET /v1/bot/stream`.
    Bot,
    /// A spectator's `GET /v1/matches/{id}/events`.
    Spectator,
}

impl StreamKind {
    fn label(self) -> &'static str {
        match self {
            StreamKind::Bot => "bot",
            StreamKind::Spectator => "spectator",
        }
    }
}

#[derive(Debug, Clone, Hash, PartialEq, Eq, EncodeLabelSet)]
struct GameLabels {
    game: String,
}

#[derive(Debug, Clone, Hash, PartialEq, Eq, EncodeLabelSet)]
struct FinishedLabels {
    game: String,
    outcome: &'static str,
}

#[derive(Debug, Clone, Hash, PartialEq, Eq, EncodeLabelSet)]
struct FaultLabels {
    kind: &'static str,
}

#[derive(Debug, Clone, Hash, PartialEq, Eq, EncodeLabelSet)]
struct ReasonLabels {
    reason: &'static str,
}

#[derive(Debug, Clone, Hash, PartialEq, Eq, EncodeLabelSet)]
struct KindLabels {
    kind: &'static str,
}

#[derive(Debug, Clone, Hash, PartialEq, Eq, EncodeLabelSet)]
struct BotLabels {
    bot: String,
}

#[derive(Debug, Clone, Hash, PartialEq, Eq, EncodeLabelSet)]
struct QueueLabels {
    class: &'static str,
    status: &'static str,
}

#[derive(Debug, Clone, Hash, PartialEq, Eq, EncodeLabelSet)]
struct StateLabels {
    state: &'static str,
}

type HistogramFamily<L> = Family<L, Histogram, fn() -> Histogram>;

/// The arena's counters and gauges. One per [`crate::Arena`]; cheap to update from every match
/// task.
#[derive(Debug)]
pub struct ArenaMetrics {
    registry: Registry,
    started: Family<GameLabels, Counter>,
    finished: Family<FinishedLabels, Counter>,
    aborted: Family<ReasonLabels, Counter>,
    suspended: Family<GameLabels, Counter>,
    moves: Family<GameLabels, Counter>,
    faults: Family<FaultLabels, Counter>,
    lease_resumes: Counter,
    bot_call_seconds: HistogramFamily<BotLabels>,
    builtin_call_seconds: HistogramFamily<BotLabels>,
    streams: Family<KindLabels, Gauge>,
    queue_depth: Family<QueueLabels, Gauge>,
    queue_oldest: Family<QueueLabels, Gauge<f64, AtomicU64>>,
    pool_connections: Family<StateLabels, Gauge>,
    pool_max: Gauge,
    ladder_leader: Gauge,
}

/// Counts [`SLOW_ACQUIRES`] at each scrape.
#[derive(Debug)]
struct SlowAcquires;

impl Collector for SlowAcquires {
    fn encode(&self, mut encoder: DescriptorEncoder) -> Result<(), std::fmt::Error> {
        let counter = ConstCounter::new(SLOW_ACQUIRES.load(Ordering::Relaxed));
        let metric = encoder.encode_descriptor(
            "cardroom_db_pool_slow_acquires",
            "Waits of 50 ms or more for a database connection (a busy pool, or a database slow to connect)",
            None,
            counter.metric_type(),
        )?;
        counter.encode(metric)
    }
}

fn latency_histogram() -> Histogram {
    Histogram::new(LATENCY_BUCKETS)
}

fn builtin_histogram() -> Histogram {
    Histogram::new(BUILTIN_BUCKETS)
}

impl Default for ArenaMetrics {
    fn default() -> Self {
        let metrics = ArenaMetrics {
            registry: Registry::default(),
            started: Family::default(),
            finished: Family::default(),
            aborted: Family::default(),
            suspended: Family::default(),
            moves: Family::default(),
            faults: Family::default(),
            lease_resumes: Counter::default(),
            bot_call_seconds: Family::new_with_constructor(latency_histogram),
            builtin_call_seconds: Family::new_with_constructor(builtin_histogram),
            streams: Family::default(),
            queue_depth: Family::default(),
            queue_oldest: Family::default(),
            pool_connections: Family::default(),
            pool_max: Gauge::default(),
            ladder_leader: Gauge::default(),
        };
        metrics.expose_from_zero();
        metrics.registered()
    }
}

impl ArenaMetrics {
    /// Every fault kind, abort reason, stream kind and queue class from zero: the families are
    /// always exposed, and `rate()` sees a series before its first event.
    fn expose_from_zero(&self) {
        for kind in [
            FaultKind::Timeout,
            FaultKind::Transport,
            FaultKind::BadStatus,
            FaultKind::BadJson,
            FaultKind::IllegalAction,
            FaultKind::Disqualified,
            FaultKind::Flagged,
        ] {
            let _series = self
                .faults
                .get_or_create(&FaultLabels { kind: kind.label() });
        }
        for reason in [
            AbortReason::Cancelled,
            AbortReason::BotUnavailable,
            AbortReason::Failed,
            AbortReason::TableExpired,
        ] {
            let _series = self.aborted.get_or_create(&ReasonLabels {
                reason: reason.as_str(),
            });
        }
        for kind in [StreamKind::Bot, StreamKind::Spectator] {
            let _series = self
                .streams
                .get_or_create(&KindLabels { kind: kind.label() });
        }
        self.observe_queue(&[]);
    }

    /// The families, registered (counters without `_total`: the encoders append it).
    fn registered(mut self) -> Self {
        let registry = &mut self.registry;
        registry.register(
            "cardroom_arena_matches_started",
            "Matches started or resumed by this process, by game",
            self.started.clone(),
        );
        registry.register(
            "cardroom_arena_matches_finished",
            "Matches ended by this process, by game and outcome (clean, faulted, aborted)",
            self.finished.clone(),
        );
        registry.register(
            "cardroom_arena_matches_aborted",
            "Matches aborted by this process (its worker, or a cancel it served), by reason",
            self.aborted.clone(),
        );
        registry.register(
            "cardroom_arena_matches_suspended",
            "Matches this process stopped at a move boundary when its drain time was up (resumed elsewhere or after the restart), by game",
            self.suspended.clone(),
        );
        registry.register(
            "cardroom_arena_moves",
            "Moves stored, by game",
            self.moves.clone(),
        );
        registry.register(
            "cardroom_arena_faults",
            "Faults recorded, by kind",
            self.faults.clone(),
        );
        registry.register(
            "cardroom_arena_lease_resumes",
            "Matches this process resumed from their logged moves (their worker died or stopped)",
            self.lease_resumes.clone(),
        );
        registry.register(
            "cardroom_arena_bot_call_duration_seconds",
            "Time a registered bot took to answer a move request (timeouts included), by bot id",
            self.bot_call_seconds.clone(),
        );
        registry.register(
            "cardroom_arena_builtin_call_duration_seconds",
            "Time a built-in bot took to choose a move, by bot name",
            self.builtin_call_seconds.clone(),
        );
        registry.register(
            "cardroom_arena_stream_connections",
            "Streams open on this process: bots (GET /v1/bot/stream) and spectators (SSE)",
            self.streams.clone(),
        );
        registry.register(
            "cardroom_arena_queue_depth",
            "Matches queued for a worker or running, by class (ladder, ranked, unranked); the database's, the same on every process",
            self.queue_depth.clone(),
        );
        registry.register(
            "cardroom_arena_queue_oldest_age_seconds",
            "Age of the oldest queued (or running) match, by class; 0 when there is none",
            self.queue_oldest.clone(),
        );
        registry.register(
            "cardroom_db_pool_connections",
            "This process's database connections, in use or idle",
            self.pool_connections.clone(),
        );
        registry.register(
            "cardroom_db_pool_max_connections",
            "The size limit of this process's database pool",
            self.pool_max.clone(),
        );
        registry.register_collector(Box::new(SlowAcquires));
        registry.register(
            "cardroom_arena_ladder_leader",
            "1 while this process schedules the ladder",
            self.ladder_leader.clone(),
        );
        self
    }

    /// A match of `game` starts (or resumes, `resumed`, from logged moves) in this process.
    pub fn match_started(&self, game: &str, resumed: bool) {
        self.started
            .get_or_create(&GameLabels {
                game: game.to_string(),
            })
            .inc();
        if resumed {
            self.lease_resumes.inc();
        }
    }

    /// A match of `game` was stopped at a move boundary: the process is stopping.
    pub fn match_suspended(&self, game: &str) {
        self.suspended
            .get_or_create(&GameLabels {
                game: game.to_string(),
            })
            .inc();
    }

    /// A match of `game` ended in this process.
    pub fn match_finished(&self, game: &str, outcome: MatchOutcome) {
        self.finished
            .get_or_create(&FinishedLabels {
                game: game.to_string(),
                outcome: outcome.label(),
            })
            .inc();
    }

    /// A match was aborted by this process (its run, or a cancel this process served).
    pub fn match_aborted(&self, reason: AbortReason) {
        self.aborted
            .get_or_create(&ReasonLabels {
                reason: reason.as_str(),
            })
            .inc();
    }

    /// A move of `game` was stored, with its fault if any.
    pub fn move_played(&self, game: &str, fault: Option<FaultKind>) {
        self.moves
            .get_or_create(&GameLabels {
                game: game.to_string(),
            })
            .inc();
        if let Some(kind) = fault {
            self.faults
                .get_or_create(&FaultLabels { kind: kind.label() })
                .inc();
        }
    }

    /// A registered bot (`bot`, its id) answered a move request in `millis` (or did not).
    pub fn bot_call(&self, bot: &str, millis: u64) {
        self.bot_call_seconds
            .get_or_create(&BotLabels {
                bot: bot.to_string(),
            })
            .observe(millis as f64 / 1000.0);
    }

    /// A built-in bot (`name`: `random`, `heuristic`, ...) chose a move in `millis`.
    pub fn builtin_call(&self, name: &str, millis: u64) {
        self.builtin_call_seconds
            .get_or_create(&BotLabels {
                bot: name.to_string(),
            })
            .observe(millis as f64 / 1000.0);
    }

    /// A bot was deleted: its latency series goes (the process that serves the delete).
    pub fn forget_bot(&self, bot: &str) {
        self.bot_call_seconds.remove(&BotLabels {
            bot: bot.to_string(),
        });
    }

    /// A stream opens: counted until the returned guard is dropped.
    pub fn stream_opened(&self, kind: StreamKind) -> StreamGuard {
        let gauge = self
            .streams
            .get_or_create_owned(&KindLabels { kind: kind.label() });
        gauge.inc();
        StreamGuard(gauge)
    }

    /// Whether this process leads the ladder now.
    pub fn set_ladder_leader(&self, leads: bool) {
        self.ladder_leader.set(i64::from(leads));
    }

    /// Sets the queue's gauges from the database's figures (`now_ms` for the ages); a class
    /// without matches reads 0.
    pub fn observe_queue(&self, depths: &[QueueDepth]) {
        self.observe_queue_at(depths, crate::store::now_ms());
    }

    fn observe_queue_at(&self, depths: &[QueueDepth], now_ms: i64) {
        for class in QUEUE_CLASSES {
            for running in [false, true] {
                let labels = QueueLabels {
                    class,
                    status: if running { "running" } else { "queued" },
                };
                let found = depths
                    .iter()
                    .find(|d| d.class == class && d.running == running);
                let (matches, oldest) = found.map_or((0, 0.0), |d| {
                    let age = (now_ms - d.oldest_created_at).max(0) as f64 / 1000.0;
                    (d.matches as i64, age)
                });
                self.queue_depth.get_or_create(&labels).set(matches);
                self.queue_oldest.get_or_create(&labels).set(oldest);
            }
        }
    }

    /// Sets the pool's gauges.
    pub fn observe_pool(&self, pool: PoolStats) {
        self.pool_connections
            .get_or_create(&StateLabels { state: "in_use" })
            .set(i64::from(pool.in_use));
        self.pool_connections
            .get_or_create(&StateLabels { state: "idle" })
            .set(i64::from(pool.idle));
        self.pool_max.set(i64::from(pool.max));
    }

    /// The registry (the API's `/metrics` encodes it after its own, in the format asked).
    pub fn registry(&self) -> &Registry {
        &self.registry
    }

    /// The families in the OpenMetrics text format, without the closing `# EOF` (the route
    /// writes it after every registry).
    pub fn render(&self) -> String {
        let mut out = String::new();
        // Writing into a String cannot fail.
        let _ = prometheus_client::encoding::text::encode_registry(&mut out, &self.registry);
        out
    }
}

/// An open stream, counted in `cardroom_arena_stream_connections` until dropped.
#[derive(Debug)]
pub struct StreamGuard(Gauge);

impl Drop for StreamGuard {
    fn drop(&mut self) {
        self.0.dec();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counters_render_as_prometheus_families() {
        let metrics = ArenaMetrics::default();
        metrics.match_started("twenty_two", false);
        metrics.match_started("twenty_two", true);
        metrics.move_played("twenty_two", None);
        metrics.move_played("twenty_two", Some(FaultKind::Timeout));
        metrics.bot_call("b_1", 3);
        metrics.bot_call("b_1", 2000);
        metrics.builtin_call("random", 0);
        metrics.match_finished("twenty_two", MatchOutcome::Faulted);
        metrics.match_aborted(AbortReason::BotUnavailable);
        let stream = metrics.stream_opened(StreamKind::Bot);
        let text = metrics.render();
        for line in [
            "cardroom_arena_matches_started_total{game=\"twenty_two\"} 2",
            "cardroom_arena_lease_resumes_total 1",
            "cardroom_arena_matches_finished_total{game=\"twenty_two\",outcome=\"faulted\"} 1",
            "cardroom_arena_matches_aborted_total{reason=\"bot_unavailable\"} 1",
            "cardroom_arena_matches_aborted_total{reason=\"cancelled\"} 0",
            "cardroom_arena_moves_total{game=\"twenty_two\"} 2",
            "cardroom_arena_faults_total{kind=\"timeout\"} 1",
            "cardroom_arena_bot_call_duration_seconds_bucket{le=\"0.0025\",bot=\"b_1\"} 0",
            "cardroom_arena_bot_call_duration_seconds_bucket{le=\"0.005\",bot=\"b_1\"} 1",
            "cardroom_arena_bot_call_duration_seconds_bucket{le=\"2.5\",bot=\"b_1\"} 2",
            "cardroom_arena_bot_call_duration_seconds_count{bot=\"b_1\"} 2",
            "cardroom_arena_builtin_call_duration_seconds_count{bot=\"random\"} 1",
            "cardroom_arena_stream_connections{kind=\"bot\"} 1",
            "cardroom_arena_queue_depth{class=\"ladder\",status=\"queued\"} 0",
        ] {
            assert!(text.lines().any(|l| l == line), "{line} missing in\n{text}");
        }
        drop(stream);
        assert!(
            metrics
                .render()
                .lines()
                .any(|l| l == "cardroom_arena_stream_connections{kind=\"bot\"} 0")
        );
    }

    #[test]
    fn the_queue_gauges_read_the_databases_figures_and_zero_for_empty_classes() {
        let metrics = ArenaMetrics::default();
        let depths = [QueueDepth {
            class: "ladder",
            running: false,
            matches: 3,
            oldest_created_at: 10_000,
        }];
        metrics.observe_queue_at(&depths, 12_500);
        let text = metrics.render();
        for line in [
            "cardroom_arena_queue_depth{class=\"ladder\",status=\"queued\"} 3",
            "cardroom_arena_queue_oldest_age_seconds{class=\"ladder\",status=\"queued\"} 2.5",
            "cardroom_arena_queue_depth{class=\"unranked\",status=\"running\"} 0",
        ] {
            assert!(text.lines().any(|l| l == line), "{line} missing in\n{text}");
        }
        // The queue emptied: the gauge goes back to 0.
        metrics.observe_queue_at(&[], 20_000);
        assert!(
            metrics
                .render()
                .lines()
                .any(|l| l == "cardroom_arena_queue_depth{class=\"ladder\",status=\"queued\"} 0")
        );
    }
}
