//! When a failing bot is paused from the ladder and when it is probed again: the ladder applies it
//! to failed probes, the runner to disqualifications.

use crate::config::ArenaConfig;
use crate::store::BotHealth;
use std::time::Duration;

/// When a failing bot is paused from the ladder and when it is probed again.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HealthPolicy {
    /// Failures in a row needed before a pause.
    pub pause_after: u32,
    /// How long the failures must go on before a pause.
    pub window: Duration,
    /// Wait before the first re-probe; doubled after each further failure.
    pub backoff: Duration,
}

/// The longest wait between two probes of a failing bot.
const MAX_BACKOFF: Duration = Duration::from_secs(30);

impl HealthPolicy {
    /// The policy of an arena configuration.
    pub fn of(config: &ArenaConfig) -> Self {
        HealthPolicy {
            pause_after: config.pause_after,
            window: config.pause_window,
            backoff: config.retry_backoff,
        }
    }

    /// The wait before the next probe after `failures` failures in a row: the back-off doubled
    /// per failure, at most half the window (so a pause is decided close to the window's end)
    /// and at most 30 s.
    pub fn retry_delay(&self, failures: u32) -> Duration {
        let cap = MAX_BACKOFF.min(self.window / 2).max(self.backoff);
        self.backoff
            .saturating_mul(1u32 << failures.saturating_sub(1).min(16))
            .min(cap)
    }

    /// The health after one more failure at `now` (unix ms): a failed probe (`probe`) also sets
    /// the time of the next probe. Paused once the streak has `pause_after` failures and spans
    /// the window.
    pub fn failed(&self, health: &BotHealth, now: i64, probe: bool) -> BotHealth {
        let failures = health.failures.saturating_add(1);
        let since = health.failing_since.unwrap_or(now);
        let window = i64::try_from(self.window.as_millis()).unwrap_or(i64::MAX);
        BotHealth {
            paused: health.paused
                || (failures >= self.pause_after && now.saturating_sub(since) >= window),
            failures,
            failing_since: Some(since),
            retry_at: if probe {
                let delay = i64::try_from(self.retry_delay(failures).as_millis()).unwrap_or(0);
                Some(now.saturating_add(delay))
            } else {
                health.retry_at
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bot_is_paused_only_once_its_failures_span_the_window() {
        let policy = HealthPolicy {
            pause_after: 3,
            window: Duration::from_secs(60),
            backoff: Duration::from_secs(1),
        };
        let mut health = BotHealth::default();
        let mut now = 1_000_000;
        let mut waits = Vec::new();
        while !health.paused {
            health = policy.failed(&health, now, true);
            let next = health.retry_at.expect("a failed probe sets the next probe");
            waits.push(next - now);
            if !health.paused {
                now = next;
            }
        }
        // Back-off doubles up to half the window; the pause comes at the first failure at least
        // a window after the first one.
        assert_eq!(waits, vec![1000, 2000, 4000, 8000, 16000, 30000, 30000]);
        assert_eq!(now - 1_000_000, 61_000);
        // A short streak, however many failures, does not pause.
        let mut burst = BotHealth::default();
        for i in 0..10 {
            burst = policy.failed(&burst, 5_000 + i * 100, false);
        }
        assert!(!burst.paused && burst.failures == 10 && burst.retry_at.is_none());
    }
}
