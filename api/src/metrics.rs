//! In-process request metrics, rendered in the Prometheus text format at `/metrics`.

use std::collections::BTreeMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Upper bounds of the latency histogram buckets, in seconds.
const BUCKETS: [f64; 10] = [
    0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1.0,
];

#[derive(Default)]
struct RouteSeries {
    by_status: BTreeMap<u16, u64>,
    buckets: [u64; BUCKETS.len()],
    count: u64,
    sum_seconds: f64,
}

/// Request counters and latency histograms by route.
pub struct Metrics {
    started: Instant,
    /// Route pattern, then method: looked up by `&str`, so recording a request allocates only the
    /// first time a route and method are seen.
    routes: Mutex<BTreeMap<String, BTreeMap<String, RouteSeries>>>,
}

impl Default for Metrics {
    fn default() -> Self {
        Metrics {
            started: Instant::now(),
            routes: Mutex::new(BTreeMap::new()),
        }
    }
}

impl Metrics {
    /// Records one finished request (`route` is the matched pattern, e.g. `/v1/games/{game}/apply`).
    pub fn record(&self, method: &str, route: &str, status: u16, elapsed: Duration) {
        let seconds = elapsed.as_secs_f64();
        let Ok(mut routes) = self.routes.lock() else {
            return;
        };
        if !routes.contains_key(route) {
            routes.insert(route.to_string(), BTreeMap::new());
        }
        let Some(methods) = routes.get_mut(route) else {
            return;
        };
        if !methods.contains_key(method) {
            methods.insert(method.to_string(), RouteSeries::default());
        }
        let Some(series) = methods.get_mut(method) else {
            return;
        };
        *series.by_status.entry(status).or_default() += 1;
        series.count += 1;
        series.sum_seconds += seconds;
        for (bucket, bound) in series.buckets.iter_mut().zip(BUCKETS) {
            if seconds <= bound {
                *bucket += 1;
            }
        }
    }

    /// The Prometheus text exposition.
    pub fn render(&self) -> String {
        use std::fmt::Write as _;
        let mut out = String::new();
        let _ = writeln!(
            out,
            "# HELP cardroom_uptime_seconds Seconds since the server started.\n# TYPE cardroom_uptime_seconds gauge\ncardroom_uptime_seconds {:.3}",
            self.started.elapsed().as_secs_f64()
        );
        let _ = writeln!(
            out,
            "# HELP cardroom_games Number of game ids served.\n# TYPE cardroom_games gauge\ncardroom_games {}",
            engine::registry::games().len()
        );
        let Ok(routes) = self.routes.lock() else {
            return out;
        };
        out.push_str("# HELP cardroom_http_requests_total HTTP requests by route, method and status.\n# TYPE cardroom_http_requests_total counter\n");
        let series_list = || {
            routes.iter().flat_map(|(route, methods)| {
                methods.iter().map(move |(method, s)| (route, method, s))
            })
        };
        for (route, method, series) in series_list() {
            for (status, n) in &series.by_status {
                let _ = writeln!(
                    out,
                    "cardroom_http_requests_total{{route=\"{route}\",method=\"{method}\",status=\"{status}\"}} {n}"
                );
            }
        }
        out.push_str("# HELP cardroom_http_request_duration_seconds Request latency by route and method.\n# TYPE cardroom_http_request_duration_seconds histogram\n");
        for (route, method, series) in series_list() {
            let labels = format!("route=\"{route}\",method=\"{method}\"");
            for (n, bound) in series.buckets.iter().zip(BUCKETS) {
                let _ = writeln!(
                    out,
                    "cardroom_http_request_duration_seconds_bucket{{{labels},le=\"{bound}\"}} {n}"
                );
            }
            let _ = writeln!(
                out,
                "cardroom_http_request_duration_seconds_bucket{{{labels},le=\"+Inf\"}} {}\ncardroom_http_request_duration_seconds_sum{{{labels}}} {:.6}\ncardroom_http_request_duration_seconds_count{{{labels}}} {}",
                series.count, series.sum_seconds, series.count
            );
        }
        out
    }
}
