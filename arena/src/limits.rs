//! Rate limits on the arena's costly requests (bot registration probes a URL; a match occupies a
//! worker): a GCRA limiter (the algorithm of the `governor` crate, in a few lines) per client
//! address and per owner token. A limit of `n` per minute lets a burst of `n` through, then one
//! request every `60/n` seconds. Refusals are 429 `rate_limited` problems with `Retry-After`
//! and the `RateLimit-Limit`, `RateLimit-Remaining` and `RateLimit-Reset` headers.
//!
//! The client address is the TCP peer: behind a reverse proxy every client shares the proxy's
//! address, so put the limit in the proxy there, or rely on the per-token limit.

use crate::problem::ServiceError;
use actix_web::http::StatusCode;
use actix_web::http::header::{HeaderMap, HeaderName, HeaderValue, RETRY_AFTER};
use actix_web::{HttpRequest, HttpResponse, ResponseError};
use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// What a limit applies to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Limited {
    /// `POST /v1/bots`.
    Registration,
    /// `POST /v1/matches`.
    MatchCreation,
}

impl Limited {
    fn noun(self) -> &'static str {
        match self {
            Limited::Registration => "bot registrations",
            Limited::MatchCreation => "match creations",
        }
    }
}

/// One limit: `per_minute` requests per key, as a burst or spread out.
#[derive(Debug)]
pub struct RateLimiter {
    per_minute: u32,
    /// Per key: the theoretical arrival time of the next request (GCRA).
    arrivals: Mutex<HashMap<String, Instant>>,
}

/// How the limiter answered a request.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Decision {
    /// Let through.
    pub allowed: bool,
    /// Requests still allowed at once.
    pub remaining: u32,
    /// Until the full burst is available again.
    pub reset: Duration,
    /// When refused: until the next request is allowed.
    pub retry_after: Duration,
}

const WINDOW: Duration = Duration::from_secs(60);

impl RateLimiter {
    /// A limiter of `per_minute` requests per key (0: no limit).
    pub fn new(per_minute: u32) -> Self {
        RateLimiter {
            per_minute,
            arrivals: Mutex::new(HashMap::new()),
        }
    }

    /// Takes one request for every key at `now`, or none if any key is over its limit.
    pub fn check(&self, keys: &[String], now: Instant) -> Decision {
        let open = Decision {
            allowed: true,
            remaining: self.per_minute,
            reset: Duration::ZERO,
            retry_after: Duration::ZERO,
        };
        if self.per_minute == 0 || keys.is_empty() {
            return open;
        }
        let interval = WINDOW / self.per_minute;
        let tolerance = WINDOW - interval;
        let Ok(mut arrivals) = self.arrivals.lock() else {
            return open;
        };
        if arrivals.len() > 100_000 {
            // Forget keys whose bucket is full again: they would be allowed a full burst anyway.
            arrivals.retain(|_, at| *at > now);
        }
        let mut worst = open;
        let mut next = Vec::with_capacity(keys.len());
        for key in keys {
            let tat = arrivals
                .get(key)
                .copied()
                .filter(|at| *at > now)
                .unwrap_or(now);
            let ahead = tat - now;
            if ahead > tolerance {
                let retry_after = ahead - tolerance;
                return Decision {
                    allowed: false,
                    remaining: 0,
                    reset: ahead,
                    retry_after,
                };
            }
            let new_tat = tat + interval;
            let used = new_tat - now;
            let remaining = ((WINDOW - used).as_millis() / interval.as_millis().max(1)) as u32;
            if remaining <= worst.remaining {
                worst = Decision {
                    allowed: true,
                    remaining,
                    reset: used,
                    retry_after: Duration::ZERO,
                };
            }
            next.push((key.clone(), new_tat));
        }
        arrivals.extend(next);
        worst
    }
}

/// The arena's limits: registrations and match creations.
#[derive(Debug)]
pub struct Limits {
    registrations: RateLimiter,
    matches: RateLimiter,
}

impl Limits {
    /// Limits of `registrations` and `matches` per minute (0 turns one off).
    pub fn new(registrations: u32, matches: u32) -> Self {
        Limits {
            registrations: RateLimiter::new(registrations),
            matches: RateLimiter::new(matches),
        }
    }

    /// Counts `request` against the limit of `what` for its client address and, if it carries
    /// one, its bearer token: where it stands (for the `RateLimit-*` headers of the answer), or
    /// a 429 if either is over.
    pub fn check(&self, what: Limited, request: &HttpRequest) -> Result<RateLimit, RateLimited> {
        let limiter = match what {
            Limited::Registration => &self.registrations,
            Limited::MatchCreation => &self.matches,
        };
        let mut keys = Vec::with_capacity(2);
        if let Some(peer) = request.peer_addr() {
            keys.push(format!("addr:{}", peer.ip()));
        }
        if let Some(token) = crate::bots::bearer(request) {
            keys.push(format!("token:{}", crate::bots::hash_token(token)));
        }
        let decision = limiter.check(&keys, Instant::now());
        if decision.allowed {
            Ok(RateLimit {
                per_minute: limiter.per_minute,
                decision,
            })
        } else {
            Err(RateLimited {
                what,
                per_minute: limiter.per_minute,
                decision,
            })
        }
    }
}

/// Where a request stands against its limit: its answer's `RateLimit-*` headers.
#[derive(Debug, Clone, Copy)]
pub struct RateLimit {
    per_minute: u32,
    decision: Decision,
}

impl RateLimit {
    /// Adds `RateLimit-Limit`, `RateLimit-Remaining`, `RateLimit-Reset` and `RateLimit-Policy`
    /// (nothing when the limit is off).
    pub fn add_headers(&self, headers: &mut HeaderMap) {
        if self.per_minute == 0 {
            return;
        }
        let mut set = |name: &'static str, value: String| {
            if let Ok(value) = HeaderValue::from_str(&value) {
                headers.insert(HeaderName::from_static(name), value);
            }
        };
        set("ratelimit-limit", self.per_minute.to_string());
        set("ratelimit-remaining", self.decision.remaining.to_string());
        let reset = if self.decision.reset.is_zero() {
            0
        } else {
            ceil_secs(self.decision.reset)
        };
        set("ratelimit-reset", reset.to_string());
        set("ratelimit-policy", format!("{};w=60", self.per_minute));
    }
}

/// A refused request: a 429 problem with `Retry-After` and `RateLimit-*` headers.
#[derive(Debug, Clone, thiserror::Error)]
#[error("rate limited: {what:?}")]
pub struct RateLimited {
    what: Limited,
    per_minute: u32,
    decision: Decision,
}

fn ceil_secs(duration: Duration) -> u64 {
    duration.as_millis().div_ceil(1000).max(1) as u64
}

impl ResponseError for RateLimited {
    fn status_code(&self) -> StatusCode {
        StatusCode::TOO_MANY_REQUESTS
    }

    fn error_response(&self) -> HttpResponse {
        let retry_after = ceil_secs(self.decision.retry_after);
        let mut response =
            ServiceError::rate_limited(self.what.noun(), self.per_minute, retry_after)
                .error_response();
        let headers = response.headers_mut();
        headers.insert(RETRY_AFTER, HeaderValue::from(retry_after));
        RateLimit {
            per_minute: self.per_minute,
            decision: self.decision,
        }
        .add_headers(headers);
        response
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_burst_of_the_limit_passes_then_one_request_per_interval() {
        let limiter = RateLimiter::new(60);
        let keys = vec!["addr:127.0.0.1".to_string()];
        let start = Instant::now();
        for i in 0..60 {
            let decision = limiter.check(&keys, start);
            assert!(decision.allowed, "request {i}");
            assert_eq!(decision.remaining, 59 - i);
        }
        let refused = limiter.check(&keys, start);
        assert!(!refused.allowed);
        assert_eq!(refused.retry_after, Duration::from_secs(1));
        // Another client is not affected.
        assert!(limiter.check(&["addr:10.0.0.1".to_string()], start).allowed);
        // One interval later one more request passes.
        assert!(limiter.check(&keys, start + Duration::from_secs(1)).allowed);
        assert!(!limiter.check(&keys, start + Duration::from_secs(1)).allowed);
        // A key over its limit refuses the request for every key, and takes nothing.
        let both = vec!["addr:10.0.0.2".to_string(), keys[0].clone()];
        assert!(!limiter.check(&both, start + Duration::from_secs(1)).allowed);
        assert_eq!(
            limiter
                .check(&["addr:10.0.0.2".to_string()], start)
                .remaining,
            59
        );
        assert!(RateLimiter::new(0).check(&keys, start).allowed);
    }
}
