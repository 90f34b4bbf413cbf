//! Bounded search: where `/rollouts` and `/determinize` run, and what they may cost.
//!
//! - A dedicated pool of `--search-threads` threads (by default the cores but one) runs every
//!   search: never actix's workers, which keep answering `/apply` and the arena's routes, nor
//!   an unbounded set of blocking threads.
//! - A client (its TCP peer address: the rules API has no tokens) has at most
//!   `--search-per-client` searches admitted at once, and the pool at most
//!   [`QUEUED_PER_THREAD`] per thread; beyond, 429 `too_many_searches` or 503 `server_busy`,
//!   with `Retry-After`, before anything is read or run.
//! - A search's cost is estimated before it runs, from a per-game cost measured the first time
//!   the game is searched (a few playouts from its start, in thread CPU time, kept in memory):
//!   a request whose estimate is over [`MAX_BUDGET`] is refused at once (422
//!   `search_over_budget`) unless it gave `budget_ms`, which answers what fits instead.

use crate::codec::StateCodec;
use arena::problem::{ErrorCode, ServiceError};
use engine::search::{Rollout, RolloutPlan, RolloutStart};
use engine::{Game, NewGame};
use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The most time one search may take, and the largest `budget_ms`.
pub const MAX_BUDGET: Duration = Duration::from_secs(2);

/// Searches admitted per pool thread (running or waiting for a thread): beyond, 503.
pub const QUEUED_PER_THREAD: usize = 8;

/// Seconds a refused search is told to wait (`Retry-After`).
pub const SEARCH_RETRY_AFTER_SECS: u64 = 1;

/// The CPU a game's cost is measured with, the first time it is searched.
const CALIBRATION: Duration = Duration::from_millis(8);

/// Playouts at most in a game's calibration.
const CALIBRATION_PLAYOUTS: u64 = 64;

/// The search limits (`--search-threads`, `--search-per-client`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SearchLimits {
    /// Threads of the search pool.
    pub threads: usize,
    /// Searches one client may have admitted at once.
    pub per_client: usize,
}

impl SearchLimits {
    /// The default pool on a machine with `cores` cores: all but one, at least one.
    pub fn for_cores(cores: usize) -> SearchLimits {
        SearchLimits {
            threads: cores.saturating_sub(1).max(1),
            per_client: DEFAULT_SEARCH_PER_CLIENT,
        }
    }
}

impl Default for SearchLimits {
    fn default() -> Self {
        SearchLimits::for_cores(std::thread::available_parallelism().map_or(1, |n| n.get()))
    }
}

/// Searches one client may have admitted at once by default (`--search-per-client`).
pub const DEFAULT_SEARCH_PER_CLIENT: usize = 2;

/// What a search costs per unit: one playout of a policy, or one determinization (encoded).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CostKind {
    /// A playout with uniformly random moves.
    RandomPlayout,
    /// A playout with the built-in heuristic's moves.
    HeuristicPlayout,
    /// One sampled state, encoded as `/determinize` answers it.
    Determinization,
}

type CostCell = Arc<tokio::sync::OnceCell<Duration>>;

/// The search pool, the admissions per client and the per-game costs.
pub struct SearchPool {
    pool: rayon::ThreadPool,
    limits: SearchLimits,
    admitted: Arc<Admissions>,
    costs: Mutex<HashMap<(String, CostKind), CostCell>>,
}

/// The searches admitted, per client and in all.
#[derive(Default)]
struct Admissions {
    per_client: Mutex<HashMap<Option<IpAddr>, usize>>,
    total: AtomicUsize,
}

/// One admitted search: released when dropped (when its job has run, or was refused).
pub struct SearchPermit {
    admitted: Arc<Admissions>,
    client: Option<IpAddr>,
}

impl Drop for SearchPermit {
    fn drop(&mut self) {
        self.admitted.total.fetch_sub(1, Ordering::AcqRel);
        if let Ok(mut clients) = self.admitted.per_client.lock()
            && let Some(count) = clients.get_mut(&self.client)
        {
            *count = count.saturating_sub(1);
            if *count == 0 {
                clients.remove(&self.client);
            }
        }
    }
}

impl SearchPool {
    /// A pool with these limits (its threads start at once).
    pub fn new(limits: SearchLimits) -> std::io::Result<SearchPool> {
        let limits = SearchLimits {
            threads: limits.threads.max(1),
            per_client: limits.per_client.max(1),
        };
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(limits.threads)
            .thread_name(|index| format!("cardroom-search-{index}"))
            .build()
            .map_err(std::io::Error::other)?;
        Ok(SearchPool {
            pool,
            limits,
            admitted: Arc::default(),
            costs: Mutex::default(),
        })
    }

    /// The limits the pool runs with.
    pub fn limits(&self) -> SearchLimits {
        self.limits
    }

    /// Admits one search of `client`, or refuses it at once: 429 `too_many_searches` when the
    /// client has `per_client` admitted, 503 `server_busy` when the pool's queue is full.
    pub fn admit(&self, client: Option<IpAddr>) -> Result<SearchPermit, ServiceError> {
        let mut clients = self
            .admitted
            .per_client
            .lock()
            .map_err(|_| ServiceError::new(ErrorCode::Internal, "the search pool failed"))?;
        let count = clients.entry(client).or_insert(0);
        if *count >= self.limits.per_client {
            return Err(ServiceError::new(
                ErrorCode::TooManySearches,
                format!(
                    "at most {} searches (`/rollouts`, `/determinize`) per client at once: wait for an answer before asking again (retry in {SEARCH_RETRY_AFTER_SECS} s)",
                    self.limits.per_client
                ),
            ));
        }
        let most = self.limits.threads * QUEUED_PER_THREAD;
        if self.admitted.total.load(Ordering::Acquire) >= most {
            return Err(ServiceError::new(
                ErrorCode::ServerBusy,
                format!(
                    "the server runs {most} searches already: retry in {SEARCH_RETRY_AFTER_SECS} s"
                ),
            ));
        }
        *count += 1;
        self.admitted.total.fetch_add(1, Ordering::AcqRel);
        Ok(SearchPermit {
            admitted: self.admitted.clone(),
            client,
        })
    }

    /// Runs `job` on the pool, in the order admitted, and answers its result. The permit is
    /// held until the job ends. `job` is told whether its caller is gone (the client hung up):
    /// a search asks before every round and stops.
    pub async fn run<T: Send + 'static>(
        &self,
        permit: SearchPermit,
        job: impl FnOnce(&dyn Fn() -> bool) -> T + Send + 'static,
    ) -> Result<T, ServiceError> {
        let (sender, receiver) = tokio::sync::oneshot::channel();
        self.pool.spawn_fifo(move || {
            let _permit = permit;
            if sender.is_closed() {
                return;
            }
            let gone = || sender.is_closed();
            let answer = job(&gone);
            let _ = sender.send(answer);
        });
        receiver
            .await
            .map_err(|_| ServiceError::new(ErrorCode::Internal, "the search was interrupted"))
    }

    /// The cost of one unit of `kind` in `game`: measured the first time (on a blocking thread,
    /// in thread CPU time, so a busy machine does not inflate it), then kept.
    pub async fn cost(
        &self,
        game: &'static dyn Game,
        kind: CostKind,
        codec: &StateCodec,
    ) -> Duration {
        let cell = {
            let Ok(mut costs) = self.costs.lock() else {
                return Duration::ZERO;
            };
            costs
                .entry((game.info().id.clone(), kind))
                .or_default()
                .clone()
        };
        let codec = codec.clone();
        *cell
            .get_or_init(|| async move {
                tokio::task::spawn_blocking(move || calibrate(game, kind, &codec))
                    .await
                    .unwrap_or(Duration::ZERO)
            })
            .await
    }
}

/// Measures one unit of `kind` in `game`: a few playouts (or determinizations) from a new game
/// at its fewest players, seat to act first, for about [`CALIBRATION`] of CPU. A game's start is
/// its longest position, so the estimate errs on the side of the server.
fn calibrate(game: &dyn Game, kind: CostKind, codec: &StateCodec) -> Duration {
    let Ok(start) = game.start(&NewGame {
        players: game.info().players.min,
        options: Default::default(),
        seed: 1,
        deals: Vec::new(),
    }) else {
        return Duration::ZERO;
    };
    let Some(&seat) = start.to_act().first() else {
        return Duration::ZERO;
    };
    let mut rng = engine::rng::PlayoutRng::new(1);
    let cpu = cpu_time::ThreadTime::now();
    let units = match kind {
        CostKind::Determinization => {
            let mut drawn = 0u32;
            while cpu.elapsed() < CALIBRATION && u64::from(drawn) < CALIBRATION_PLAYOUTS {
                if let Some(sample) = start.determinize(seat, &mut rng) {
                    let _ = codec.encode(sample.as_ref());
                }
                drawn += 1;
            }
            u64::from(drawn)
        }
        CostKind::RandomPlayout | CostKind::HeuristicPlayout => {
            let actions: Vec<usize> = (0..start.legal_actions(seat).len()).collect();
            let policy = if kind == CostKind::RandomPlayout {
                Rollout::Uniform
            } else {
                Rollout::Heuristic { percent: 100 }
            };
            let mut played = 0u64;
            let plan = RolloutPlan {
                actions: &actions,
                count: CALIBRATION_PLAYOUTS as u32,
                start: RolloutStart::Determinized,
                partial: true,
            };
            let _ = start.rollouts(seat, plan, policy, &mut rng, &mut |done| {
                played = done;
                done < CALIBRATION_PLAYOUTS && cpu.elapsed() < CALIBRATION
            });
            played
        }
    };
    cpu.elapsed() / u32::try_from(units.max(1)).unwrap_or(u32::MAX)
}

/// A request's time limit: `budget_ms` (1 to 2000) answers what fits in it; none, the whole
/// count within [`MAX_BUDGET`].
pub fn budget(budget_ms: Option<u64>) -> Result<Option<Duration>, ServiceError> {
    match budget_ms {
        None => Ok(None),
        Some(ms) if (1..=MAX_BUDGET.as_millis() as u64).contains(&ms) => {
            Ok(Some(Duration::from_millis(ms)))
        }
        Some(ms) => Err(ServiceError::invalid(format!(
            "budget_ms must be 1 to {}, not {ms}",
            MAX_BUDGET.as_millis()
        ))),
    }
}

/// Refuses a request whose estimate is over [`MAX_BUDGET`] (a request without `budget_ms`
/// must be met whole): 422 `search_over_budget`, naming the estimate and what fits.
pub fn check_estimate(units: u64, unit_cost: Duration, what: &str) -> Result<(), ServiceError> {
    let estimate = unit_cost.saturating_mul(u32::try_from(units).unwrap_or(u32::MAX));
    if estimate <= MAX_BUDGET {
        return Ok(());
    }
    let fits = MAX_BUDGET.as_nanos() / unit_cost.as_nanos().max(1);
    Err(ServiceError::new(
        ErrorCode::SearchOverBudget,
        format!(
            "{units} {what} would take about {} ms, more than the {} ms a search may take: about {fits} fit; ask for fewer, or give `budget_ms` to get what fits",
            estimate.as_millis(),
            MAX_BUDGET.as_millis()
        ),
    ))
}

/// When a search must stop: at its deadline (`budget_ms` after the request arrived), or for a
/// whole count at [`MAX_BUDGET`] of its thread's CPU (an estimate that was too low).
pub struct SearchClock {
    arrived: Instant,
    budget: Option<Duration>,
    cpu: Option<cpu_time::ThreadTime>,
}

impl SearchClock {
    /// A clock for a request that arrived at `arrived` with `budget`.
    pub fn new(arrived: Instant, budget: Option<Duration>) -> SearchClock {
        SearchClock {
            arrived,
            budget,
            cpu: None,
        }
    }

    /// Starts counting (on the pool thread that runs the search).
    pub fn start(&mut self) {
        self.cpu = Some(cpu_time::ThreadTime::now());
    }

    /// Whether the search may run another round.
    pub fn keep_going(&self) -> bool {
        match self.budget {
            Some(budget) => self.arrived.elapsed() < budget,
            None => self
                .cpu
                .as_ref()
                .is_none_or(|cpu| cpu.elapsed() < MAX_BUDGET),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_client_has_at_most_its_share_admitted_and_a_released_permit_frees_it() {
        let pool = SearchPool::new(SearchLimits {
            threads: 1,
            per_client: 2,
        })
        .expect("pool");
        let client = Some(IpAddr::from([127, 0, 0, 1]));
        let first = pool.admit(client).expect("first");
        let _second = pool.admit(client).expect("second");
        let third = pool.admit(client).err().expect("third refused");
        assert_eq!(third.code, ErrorCode::TooManySearches);
        // Another client is admitted meanwhile.
        let _other = pool
            .admit(Some(IpAddr::from([10, 0, 0, 1])))
            .expect("other");
        drop(first);
        pool.admit(client).expect("admitted again");
    }

    #[test]
    fn the_pool_admits_at_most_its_queue_in_all() {
        let pool = SearchPool::new(SearchLimits {
            threads: 1,
            per_client: 1,
        })
        .expect("pool");
        let permits: Vec<SearchPermit> = (0..QUEUED_PER_THREAD as u8)
            .map(|i| {
                pool.admit(Some(IpAddr::from([10, 0, 0, i])))
                    .expect("admitted")
            })
            .collect();
        let refused = pool.admit(Some(IpAddr::from([10, 0, 1, 1]))).err();
        assert_eq!(refused.map(|e| e.code), Some(ErrorCode::ServerBusy));
        drop(permits);
        pool.admit(Some(IpAddr::from([10, 0, 1, 1])))
            .expect("admitted once the queue drained");
    }

    #[test]
    fn an_estimate_over_the_budget_is_refused_and_names_what_fits() {
        let unit = Duration::from_micros(100);
        assert!(check_estimate(20_000, unit, "playouts").is_ok());
        let refused = check_estimate(20_001, unit, "playouts").expect_err("refused");
        assert_eq!(refused.code, ErrorCode::SearchOverBudget);
        assert!(
            refused.detail.contains("about 20000 fit"),
            "{}",
            refused.detail
        );
    }

    #[test]
    fn budget_ms_is_one_to_two_thousand() {
        assert_eq!(budget(None).ok(), Some(None));
        assert_eq!(
            budget(Some(300)).ok(),
            Some(Some(Duration::from_millis(300)))
        );
        assert!(budget(Some(0)).is_err());
        assert!(budget(Some(2001)).is_err());
    }
}
