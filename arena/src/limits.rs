//! Rate limits on the arena's costly requests (bot registration probes a URL; a match occupies a
//! worker): a GCRA limiter (the algorithm of the `governor` crate, in a few lines) per client
//! address and per owner token. A limit of `n` per minute lets a burst of `n` through, then one
//! every `60/n` seconds. Requests that create matches are charged one unit per match they create
//! (a tournament its tables), once that number is known and before anything is stored
//! ([`Meter`]); tables with people have an allowance of their own. Refusals are 429
//! `rate_limited` problems with `Retry-After` and the `RateLimit-Limit`, `RateLimit-Remaining`
//! and `RateLimit-Reset` headers; a client over its cap of queued matches gets 429 `queue_full`
//! with `Retry-After` ([`QueueFull`]).
//!
//! The client address is the TCP peer: behind a reverse proxy every client shares the proxy's
//! address, so put the limit in the proxy there, or rely on the per-token limit.

use crate::problem::ServiceError;
use actix_web::http::StatusCode;
use actix_web::http::header::{HeaderMap, HeaderName, HeaderValue, RETRY_AFTER};
use actix_web::{HttpRequest, HttpResponse, ResponseError};
use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// What a limit applies to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Limited {
    /// `POST /v1/bots`.
    Registration,
    /// Matches created (`POST /v1/matches`, `/v1/tournaments` per table, `/v1/tables` without
    /// people, a rematch of such a table): one unit per match.
    MatchCreation,
    /// Tables with people created (`POST /v1/tables`, rematches): an allowance of their own, so
    /// a client's bots' matches never use up its people's tables.
    TableCreation,
}

impl Limited {
    fn noun(self) -> &'static str {
        match self {
            Limited::Registration => "bot registrations",
            Limited::MatchCreation => "matches created",
            Limited::TableCreation => "tables with people created",
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
        self.check_cost(keys, 1, now)
    }

    /// Takes `cost` units for every key at `now`, or none if any key is over its limit. A cost
    /// within the burst needs that many units free; a larger one (a tournament of more tables
    /// than the limit per minute) needs the whole burst free, and is charged in full: the
    /// client's next creation waits until the cost is paid off.
    pub fn check_cost(&self, keys: &[String], cost: u32, now: Instant) -> Decision {
        let open = Decision {
            allowed: true,
            remaining: self.per_minute,
            reset: Duration::ZERO,
            retry_after: Duration::ZERO,
        };
        if self.per_minute == 0 || keys.is_empty() {
            return open;
        }
        let cost = cost.max(1);
        let interval = WINDOW / self.per_minute;
        // What must be free now, and what is charged.
        let needed = interval * cost.min(self.per_minute);
        let charged = interval.saturating_mul(cost);
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
            if ahead + needed > WINDOW {
                return Decision {
                    allowed: false,
                    remaining: 0,
                    reset: ahead,
                    retry_after: ahead + needed - WINDOW,
                };
            }
            let new_tat = tat + charged;
            let used = new_tat - now;
            let remaining =
                (WINDOW.saturating_sub(used).as_millis() / interval.as_millis().max(1)) as u32;
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

/// The arena's limits: registrations, matches created and tables with people created.
#[derive(Debug)]
pub struct Limits {
    registrations: RateLimiter,
    matches: RateLimiter,
    tables: RateLimiter,
}

impl Limits {
    /// Limits of `registrations` and `matches` per minute (0 turns one off); tables with people
    /// have an allowance of `matches` per minute of their own.
    pub fn new(registrations: u32, matches: u32) -> Self {
        Limits {
            registrations: RateLimiter::new(registrations),
            matches: RateLimiter::new(matches),
            tables: RateLimiter::new(matches),
        }
    }

    fn limiter(&self, what: Limited) -> &RateLimiter {
        match what {
            Limited::Registration => &self.registrations,
            Limited::MatchCreation => &self.matches,
            Limited::TableCreation => &self.tables,
        }
    }

    /// The keys a request is counted by: its client address and, if it carries one, its bearer
    /// token.
    fn keys(request: &HttpRequest) -> Vec<String> {
        let mut keys = Vec::with_capacity(2);
        if let Some(peer) = request.peer_addr() {
            keys.push(format!("addr:{}", peer.ip()));
        }
        if let Some(token) = crate::bots::bearer(request) {
            keys.push(format!("token:{}", crate::bots::hash_token(token)));
        }
        keys
    }

    /// Counts `request` against the limit of `what` for its client address and, if it carries
    /// one, its bearer token: where it stands (for the `RateLimit-*` headers of the answer), or
    /// a 429 if either is over.
    pub fn check(&self, what: Limited, request: &HttpRequest) -> Result<RateLimit, RateLimited> {
        self.charge(what, &Self::keys(request), 1)
    }

    /// Charges `cost` units of `what` to every one of `keys`, or nothing if one is over.
    fn charge(&self, what: Limited, keys: &[String], cost: u32) -> Result<RateLimit, RateLimited> {
        let limiter = self.limiter(what);
        let decision = limiter.check_cost(keys, cost, Instant::now());
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

/// How long a client over its cap of queued matches is told to wait (`Retry-After`): about the
/// time a worker slot takes to play a few matches.
pub const QUEUE_FULL_RETRY_SECS: u64 = 30;

/// Charges the matches one request creates to its client, once their number is known and before
/// anything is stored; keeps where the request stands (its answer's `RateLimit-*` headers) or
/// the refusal (answered with its own headers in place of the service's error).
#[derive(Debug)]
pub struct Meter<'a> {
    /// None: the process's own creations (tools, tests), not rate limited.
    limits: Option<&'a Limits>,
    keys: Vec<String>,
    outcome: RefCell<Option<Result<RateLimit, Refusal>>>,
}

/// Why a metered request was refused.
#[derive(Debug, Clone)]
pub enum Refusal {
    /// Over the rate limit.
    Rate(RateLimited),
    /// Over the cap of queued matches.
    Queue(QueueFull),
}

impl<'a> Meter<'a> {
    /// The meter of an HTTP request: its client address and bearer token.
    pub fn of(limits: &'a Limits, request: &HttpRequest) -> Self {
        Meter {
            limits: Some(limits),
            keys: Limits::keys(request),
            outcome: RefCell::new(None),
        }
    }

    /// The process's own creations: no rate limit (the caps on queued matches still apply by
    /// creator).
    pub fn unmetered() -> Meter<'static> {
        Meter {
            limits: None,
            keys: Vec::new(),
            outcome: RefCell::new(None),
        }
    }

    /// Charges `matches` units of `what` (429 `rate_limited` if over; nothing is charged then).
    pub fn charge(&self, what: Limited, matches: u32) -> Result<(), ServiceError> {
        let Some(limits) = self.limits else {
            return Ok(());
        };
        match limits.charge(what, &self.keys, matches) {
            Ok(limit) => {
                *self.outcome.borrow_mut() = Some(Ok(limit));
                Ok(())
            }
            Err(refused) => {
                let error = refused.service_error();
                *self.outcome.borrow_mut() = Some(Err(Refusal::Rate(refused)));
                Err(error)
            }
        }
    }

    /// Refuses the request: the client has `queued` matches waiting, `cap` at most.
    pub fn queue_full(&self, queued: u64, adding: u32, cap: u32) -> ServiceError {
        let full = QueueFull {
            queued,
            adding,
            cap,
        };
        let error = full.service_error();
        *self.outcome.borrow_mut() = Some(Err(Refusal::Queue(full)));
        error
    }

    /// Where the request stood after its charge (None: not charged).
    pub fn counted(&self) -> Option<RateLimit> {
        match &*self.outcome.borrow() {
            Some(Ok(limit)) => Some(*limit),
            _ => None,
        }
    }

    /// The refusal, if the request was refused here.
    pub fn refusal(&self) -> Option<Refusal> {
        match &*self.outcome.borrow() {
            Some(Err(refusal)) => Some(refusal.clone()),
            _ => None,
        }
    }
}

impl Refusal {
    /// The answer: the problem with its headers.
    pub fn response(&self) -> HttpResponse {
        match self {
            Refusal::Rate(refused) => refused.error_response(),
            Refusal::Queue(full) => full.error_response(),
        }
    }
}

/// A client over its cap of queued matches (`--max-queued-per-client`): 429 `queue_full` with
/// `Retry-After`. Nothing of the request was stored.
#[derive(Debug, Clone, thiserror::Error)]
#[error("queue full: {queued} queued + {adding} > {cap}")]
pub struct QueueFull {
    queued: u64,
    adding: u32,
    cap: u32,
}

impl QueueFull {
    fn service_error(&self) -> ServiceError {
        ServiceError::new(
            crate::problem::ErrorCode::QueueFull,
            format!(
                "this request would queue {} matches beside the {} this client already has waiting; at most {} per client (retry once some have started, or cancel some: `DELETE /v1/matches/{{id}}`)",
                self.adding, self.queued, self.cap
            ),
        )
    }
}

impl ResponseError for QueueFull {
    fn status_code(&self) -> StatusCode {
        StatusCode::TOO_MANY_REQUESTS
    }

    fn error_response(&self) -> HttpResponse {
        let mut response = self.service_error().error_response();
        response
            .headers_mut()
            .insert(RETRY_AFTER, HeaderValue::from(QUEUE_FULL_RETRY_SECS));
        response
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

impl RateLimited {
    fn service_error(&self) -> ServiceError {
        ServiceError::rate_limited(
            self.what.noun(),
            self.per_minute,
            ceil_secs(self.decision.retry_after),
        )
    }
}

impl ResponseError for RateLimited {
    fn status_code(&self) -> StatusCode {
        StatusCode::TOO_MANY_REQUESTS
    }

    fn error_response(&self) -> HttpResponse {
        let retry_after = ceil_secs(self.decision.retry_after);
        let mut response = self.service_error().error_response();
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

    #[test]
    fn a_request_is_charged_one_unit_per_match_it_creates() {
        let limiter = RateLimiter::new(60);
        let keys = vec!["addr:127.0.0.1".to_string()];
        let start = Instant::now();
        // 40 then 20 matches use up the burst; one more is refused, charging nothing.
        assert_eq!(limiter.check_cost(&keys, 40, start).remaining, 20);
        assert!(limiter.check_cost(&keys, 20, start).allowed);
        let refused = limiter.check_cost(&keys, 1, start);
        assert!(!refused.allowed);
        assert_eq!(refused.retry_after, Duration::from_secs(1));
        // 5 matches need 5 s of refill.
        let later = start + Duration::from_secs(3);
        let refused = limiter.check_cost(&keys, 5, later);
        assert!(!refused.allowed);
        assert_eq!(refused.retry_after, Duration::from_secs(2));
        assert!(limiter.check_cost(&keys, 3, later).allowed);
        // More than the burst: allowed only from a full bucket, then paid off in full (100
        // matches: 100 s before the next one).
        let fresh = vec!["addr:10.0.0.10".to_string()];
        let big = limiter.check_cost(&fresh, 100, start);
        assert!(big.allowed);
        assert_eq!(big.remaining, 0);
        let next = limiter.check_cost(&fresh, 1, start + Duration::from_secs(30));
        assert!(!next.allowed);
        assert_eq!(next.retry_after, Duration::from_secs(11));
    }
}
