//! The arena's Prometheus metrics: matches started and finished, moves, faults and bot call
//! latency. Counted in process (each process counts what it played) and rendered in the text
//! exposition format by the API's `/metrics` route after its own request families.

use crate::client::FaultKind;
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::sync::Mutex;

/// Upper bounds of the bot call latency buckets, in seconds (deadlines go up to 60 s).
const LATENCY_BUCKETS: [f64; 12] = [
    0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 10.0,
];

#[derive(Debug, Default)]
struct Counts {
    started: BTreeMap<String, u64>,
    finished: BTreeMap<(String, &'static str), u64>,
    moves: BTreeMap<String, u64>,
    faults: BTreeMap<&'static str, u64>,
    latency_buckets: [u64; LATENCY_BUCKETS.len()],
    latency_count: u64,
    latency_sum_seconds: f64,
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

/// The arena's counters. One per [`crate::Arena`]; cheap to update from every match task.
#[derive(Debug, Default)]
pub struct ArenaMetrics {
    counts: Mutex<Counts>,
}

impl ArenaMetrics {
    fn with(&self, update: impl FnOnce(&mut Counts)) {
        if let Ok(mut counts) = self.counts.lock() {
            update(&mut counts);
        }
    }

    /// A match of `game` starts (or resumes) in this process.
    pub fn match_started(&self, game: &str) {
        self.with(|c| *c.started.entry(game.to_string()).or_default() += 1);
    }

    /// A match of `game` ended in this process.
    pub fn match_finished(&self, game: &str, outcome: MatchOutcome) {
        self.with(|c| {
            *c.finished
                .entry((game.to_string(), outcome.label()))
                .or_default() += 1
        });
    }

    /// A move of `game` was stored, with its fault if any.
    pub fn move_played(&self, game: &str, fault: Option<FaultKind>) {
        self.with(|c| {
            *c.moves.entry(game.to_string()).or_default() += 1;
            if let Some(kind) = fault {
                *c.faults.entry(kind.label()).or_default() += 1;
            }
        });
    }

    /// One `POST /move` call to a bot took `millis` (answered or not).
    pub fn bot_call(&self, millis: u64) {
        let seconds = millis as f64 / 1000.0;
        self.with(|c| {
            c.latency_count += 1;
            c.latency_sum_seconds += seconds;
            for (bucket, bound) in c.latency_buckets.iter_mut().zip(LATENCY_BUCKETS) {
                if seconds <= bound {
                    *bucket += 1;
                }
            }
        });
    }

    /// The families in the Prometheus text exposition format.
    pub fn render(&self) -> String {
        let mut out = String::new();
        let Ok(c) = self.counts.lock() else {
            return out;
        };
        out.push_str("# HELP cardroom_arena_matches_started_total Matches started or resumed by this process, by game.\n# TYPE cardroom_arena_matches_started_total counter\n");
        for (game, n) in &c.started {
            let _ = writeln!(
                out,
                "cardroom_arena_matches_started_total{{game=\"{game}\"}} {n}"
            );
        }
        out.push_str("# HELP cardroom_arena_matches_finished_total Matches ended by this process, by game and outcome (clean, faulted, aborted).\n# TYPE cardroom_arena_matches_finished_total counter\n");
        for ((game, outcome), n) in &c.finished {
            let _ = writeln!(
                out,
                "cardroom_arena_matches_finished_total{{game=\"{game}\",outcome=\"{outcome}\"}} {n}"
            );
        }
        out.push_str("# HELP cardroom_arena_moves_total Moves stored, by game.\n# TYPE cardroom_arena_moves_total counter\n");
        for (game, n) in &c.moves {
            let _ = writeln!(out, "cardroom_arena_moves_total{{game=\"{game}\"}} {n}");
        }
        out.push_str("# HELP cardroom_arena_faults_total Faults recorded, by kind.\n# TYPE cardroom_arena_faults_total counter\n");
        for (kind, n) in &c.faults {
            let _ = writeln!(out, "cardroom_arena_faults_total{{kind=\"{kind}\"}} {n}");
        }
        out.push_str("# HELP cardroom_arena_bot_call_duration_seconds Time bots took to answer a move request (timeouts included).\n# TYPE cardroom_arena_bot_call_duration_seconds histogram\n");
        for (n, bound) in c.latency_buckets.iter().zip(LATENCY_BUCKETS) {
            let _ = writeln!(
                out,
                "cardroom_arena_bot_call_duration_seconds_bucket{{le=\"{bound}\"}} {n}"
            );
        }
        let _ = writeln!(
            out,
            "cardroom_arena_bot_call_duration_seconds_bucket{{le=\"+Inf\"}} {}\ncardroom_arena_bot_call_duration_seconds_sum {:.6}\ncardroom_arena_bot_call_duration_seconds_count {}",
            c.latency_count, c.latency_sum_seconds, c.latency_count
        );
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
