//! The arena's Prometheus metrics: matches started and finished, moves, faults and bot call
//! latency. Counted in process (each process counts what it played) and encoded by
//! `prometheus-client` into the OpenMetrics text the API's `/metrics` route serves after its own
//! request families.

use crate::client::FaultKind;
use prometheus_client::encoding::EncodeLabelSet;
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::histogram::Histogram;
use prometheus_client::registry::Registry;

/// Upper bounds of the bot call latency buckets, in seconds (deadlines go up to 60 s).
const LATENCY_BUCKETS: [f64; 12] = [
    0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 10.0,
];

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

/// The arena's counters. One per [`crate::Arena`]; cheap to update from every match task.
#[derive(Debug)]
pub struct ArenaMetrics {
    registry: Registry,
    started: Family<GameLabels, Counter>,
    finished: Family<FinishedLabels, Counter>,
    moves: Family<GameLabels, Counter>,
    faults: Family<FaultLabels, Counter>,
    bot_call_seconds: Histogram,
}

impl Default for ArenaMetrics {
    fn default() -> Self {
        let started = Family::<GameLabels, Counter>::default();
        let finished = Family::<FinishedLabels, Counter>::default();
        let moves = Family::<GameLabels, Counter>::default();
        let faults = Family::<FaultLabels, Counter>::default();
        // Every kind from zero: the family is always exposed, and `rate()` sees a series
        // before its first fault.
        for kind in [
            FaultKind::Timeout,
            FaultKind::Transport,
            FaultKind::BadStatus,
            FaultKind::BadJson,
            FaultKind::IllegalAction,
            FaultKind::Disqualified,
            FaultKind::Flagged,
        ] {
            let _series = faults.get_or_create(&FaultLabels { kind: kind.label() });
        }
        let bot_call_seconds = Histogram::new(LATENCY_BUCKETS);
        let mut registry = Registry::default();
        // Counters are registered without `_total`: the encoder appends it to every sample.
        registry.register(
            "cardroom_arena_matches_started",
            "Matches started or resumed by this process, by game",
            started.clone(),
        );
        registry.register(
            "cardroom_arena_matches_finished",
            "Matches ended by this process, by game and outcome (clean, faulted, aborted)",
            finished.clone(),
        );
        registry.register(
            "cardroom_arena_moves",
            "Moves stored, by game",
            moves.clone(),
        );
        registry.register(
            "cardroom_arena_faults",
            "Faults recorded, by kind",
            faults.clone(),
        );
        registry.register(
            "cardroom_arena_bot_call_duration_seconds",
            "Time bots took to answer a move request (timeouts included)",
            bot_call_seconds.clone(),
        );
        ArenaMetrics {
            registry,
            started,
            finished,
            moves,
            faults,
            bot_call_seconds,
        }
    }
}

impl ArenaMetrics {
    /// A match of `game` starts (or resumes) in this process.
    pub fn match_started(&self, game: &str) {
        self.started
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

    /// One `POST /move` call to a bot took `millis` (answered or not).
    pub fn bot_call(&self, millis: u64) {
        self.bot_call_seconds.observe(millis as f64 / 1000.0);
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counters_render_as_prometheus_families() {
        let metrics = ArenaMetrics::default();
        metrics.match_started("twenty_two");
        metrics.move_played("twenty_two", None);
        metrics.move_played("twenty_two", Some(FaultKind::Timeout));
        metrics.bot_call(3);
        metrics.bot_call(2000);
        metrics.match_finished("twenty_two", MatchOutcome::Faulted);
        let text = metrics.render();
        for line in [
            "cardroom_arena_matches_started_total{game=\"twenty_two\"} 1",
            "cardroom_arena_matches_finished_total{game=\"twenty_two\",outcome=\"faulted\"} 1",
            "cardroom_arena_moves_total{game=\"twenty_two\"} 2",
            "cardroom_arena_faults_total{kind=\"timeout\"} 1",
            "cardroom_arena_bot_call_duration_seconds_bucket{le=\"0.0025\"} 0",
            "cardroom_arena_bot_call_duration_seconds_bucket{le=\"0.005\"} 1",
            "cardroom_arena_bot_call_duration_seconds_bucket{le=\"2.5\"} 2",
            "cardroom_arena_bot_call_duration_seconds_count 2",
        ] {
            assert!(text.lines().any(|l| l == line), "{line} missing in\n{text}");
        }
    }
}
