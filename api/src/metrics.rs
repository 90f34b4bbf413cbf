//! In-process request metrics, encoded by `prometheus-client` as OpenMetrics text at `/metrics`.

use prometheus_client::encoding::EncodeLabelSet;
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::gauge::Gauge;
use prometheus_client::metrics::histogram::Histogram;
use prometheus_client::registry::Registry;
use std::sync::atomic::AtomicU64;
use std::time::{Duration, Instant};

/// Upper bounds of the latency histogram buckets, in seconds.
const BUCKETS: [f64; 10] = [
    0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1.0,
];

#[derive(Debug, Clone, Hash, PartialEq, Eq, EncodeLabelSet)]
struct RequestLabels {
    route: String,
    method: String,
    status: u16,
}

#[derive(Debug, Clone, Hash, PartialEq, Eq, EncodeLabelSet)]
struct RouteLabels {
    route: String,
    method: String,
}

fn latency_histogram() -> Histogram {
    Histogram::new(BUCKETS)
}

/// Request counters and latency histograms by route, the uptime and the number of game ids.
pub struct Metrics {
    started: Instant,
    registry: Registry,
    requests: Family<RequestLabels, Counter>,
    latency: Family<RouteLabels, Histogram, fn() -> Histogram>,
    uptime_seconds: Gauge<f64, AtomicU64>,
}

impl Default for Metrics {
    fn default() -> Self {
        let requests = Family::<RequestLabels, Counter>::default();
        let latency = Family::<RouteLabels, Histogram, fn() -> Histogram>::new_with_constructor(
            latency_histogram,
        );
        let uptime_seconds = Gauge::<f64, AtomicU64>::default();
        let games = Gauge::<i64>::default();
        games.set(engine::registry::games().len() as i64);
        let mut registry = Registry::default();
        registry.register(
            "cardroom_uptime_seconds",
            "Seconds since the server started",
            uptime_seconds.clone(),
        );
        registry.register("cardroom_games", "Number of game ids served", games);
        // Registered without `_total`: the encoder appends it to every sample.
        registry.register(
            "cardroom_http_requests",
            "HTTP requests by route, method and status",
            requests.clone(),
        );
        registry.register(
            "cardroom_http_request_duration_seconds",
            "Request latency by route and method",
            latency.clone(),
        );
        Metrics {
            started: Instant::now(),
            registry,
            requests,
            latency,
            uptime_seconds,
        }
    }
}

impl Metrics {
    /// Records one finished request (`route` is the matched pattern, e.g. `/v1/games/{game}/apply`).
    pub fn record(&self, method: &str, route: &str, status: u16, elapsed: Duration) {
        self.requests
            .get_or_create(&RequestLabels {
                route: route.to_string(),
                method: method.to_string(),
                status,
            })
            .inc();
        self.latency
            .get_or_create(&RouteLabels {
                route: route.to_string(),
                method: method.to_string(),
            })
            .observe(elapsed.as_secs_f64());
    }

    /// The request families in the OpenMetrics text format, then `more` (other registries'
    /// families, such as the arena's), then the closing `# EOF`.
    pub fn render(&self, more: &str) -> String {
        self.uptime_seconds
            .set(self.started.elapsed().as_secs_f64());
        let mut out = String::new();
        // Writing into a String cannot fail.
        let _ = prometheus_client::encoding::text::encode_registry(&mut out, &self.registry);
        out.push_str(more);
        let _ = prometheus_client::encoding::text::encode_eof(&mut out);
        out
    }
}
