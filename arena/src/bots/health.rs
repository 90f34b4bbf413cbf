//! When a failing bot is paused from the ladder, when it is probed again, and how it returns: the
//! ladder applies it to failed probes, the runner to disqualifications and trial matches. A paused
//! bot returns only after a clean probe *and* a clean unranked trial match against a built-in bot.

use crate::config::ArenaConfig;
use crate::store::{BotHealth, PauseReason};
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
    /// the window, for the reason of the failure that paused it (a failed probe: unreachable;
    /// otherwise a disqualification).
    pub fn failed(&self, health: &BotHealth, now: i64, probe: bool) -> BotHealth {
        let failures = health.failures.saturating_add(1);
        let since = health.failing_since.unwrap_or(now);
        let window = i64::try_from(self.window.as_millis()).unwrap_or(i64::MAX);
        let pauses = failures >= self.pause_after && now.saturating_sub(since) >= window;
        let reason = if probe {
            PauseReason::Unreachable
        } else {
            PauseReason::Disqualified
        };
        BotHealth {
            paused: health.paused || pauses,
            failures,
            failing_since: Some(since),
            retry_at: if probe {
                Some(self.next_probe(failures, now))
            } else {
                health.retry_at
            },
            pause_reason: if health.paused {
                health.pause_reason
            } else {
                pauses.then_some(reason)
            },
            trial_match: health.trial_match.clone(),
        }
    }

    /// The health of a paused bot whose trial match (`trial`, unranked, against a built-in bot)
    /// has ended at `now`: back on the ladder if it played without a fault of its own
    /// (`clean`); otherwise still paused (`trial_faulted`), its next probe and trial after the
    /// back-off.
    pub fn trial_ended(&self, health: &BotHealth, now: i64, clean: bool) -> BotHealth {
        if clean {
            return BotHealth::default();
        }
        let failures = health.failures.saturating_add(1);
        BotHealth {
            paused: true,
            failures,
            failing_since: health.failing_since.or(Some(now)),
            retry_at: Some(self.next_probe(failures, now)),
            pause_reason: Some(PauseReason::TrialFaulted),
            trial_match: None,
        }
    }

    /// When to probe again after `failures` failures in a row, from `now` (unix ms).
    fn next_probe(&self, failures: u32, now: i64) -> i64 {
        let delay = i64::try_from(self.retry_delay(failures).as_millis()).unwrap_or(0);
        now.saturating_add(delay)
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
        assert_eq!(health.pause_reason, Some(PauseReason::Unreachable));
    }

    #[test]
    fn a_paused_bot_returns_only_after_a_clean_trial() {
        let policy = HealthPolicy {
            pause_after: 1,
            window: Duration::ZERO,
            backoff: Duration::from_secs(1),
        };
        let paused = policy.failed(&BotHealth::default(), 1_000, false);
        assert_eq!(
            (paused.paused, paused.pause_reason),
            (true, Some(PauseReason::Disqualified))
        );
        let on_trial = BotHealth {
            trial_match: Some("m_1".into()),
            ..paused.clone()
        };
        // Faults in the trial keep it paused, and the next trial waits for the back-off.
        let faulted = policy.trial_ended(&on_trial, 5_000, false);
        assert_eq!(
            (
                faulted.paused,
                faulted.pause_reason,
                faulted.trial_match.clone()
            ),
            (true, Some(PauseReason::TrialFaulted), None)
        );
        assert_eq!(faulted.retry_at, Some(5_000 + 1_000));
        assert_eq!(
            policy.trial_ended(&faulted, 9_000, true),
            BotHealth::default()
        );
    }
}
