//! The process's metrics at `/metrics`, encoded by `prometheus-client` in the format the scraper
//! asks for (`Accept`): the Prometheus text format 0.0.4 (the default, and what
//! `text/plain;version=0.0.4` asks) or OpenMetrics 1.0 (`application/openmetrics-text`).
//! Families: requests and latency by route, problem responses by code, the build, the process
//! (`process_*`, [`process`]), then the arena's ([`arena::metrics`]).

mod process;

use arena::problem::ErrorCode;
use prometheus_client::encoding::EncodeLabelSet;
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::gauge::Gauge;
use prometheus_client::metrics::histogram::Histogram;
use prometheus_client::metrics::info::Info;
use prometheus_client::registry::Registry;
use std::sync::atomic::AtomicU64;
use std::time::{Duration, Instant};

pub use process::mark_process_start;

/// Upper bounds of the latency histogram buckets, in seconds.
const BUCKETS: [f64; 10] = [
    0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1.0,
];

/// An exposition format of `/metrics`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// The Prometheus text format, version 0.0.4.
    Prometheus,
    /// OpenMetrics 1.0 text.
    OpenMetrics,
}

impl Format {
    /// The format an `Accept` header asks for: OpenMetrics when it ranks
    /// `application/openmetrics-text` at least as high as `text/plain` (as Prometheus's scrape
    /// header does), else the 0.0.4 text format (the default, for `*/*` or no header).
    pub fn from_accept(accept: Option<&str>) -> Format {
        let Some(accept) = accept else {
            return Format::Prometheus;
        };
        let (mut openmetrics, mut text) = (0.0f32, 0.0f32);
        for entry in accept.split(',') {
            let mut parts = entry.split(';').map(str::trim);
            let media = parts.next().unwrap_or_default().to_ascii_lowercase();
            let quality = parts
                .filter_map(|p| p.strip_prefix("q="))
                .find_map(|q| q.parse::<f32>().ok())
                .unwrap_or(1.0);
            match media.as_str() {
                "application/openmetrics-text" => openmetrics = openmetrics.max(quality),
                "text/plain" => text = text.max(quality),
                _ => {}
            }
        }
        if openmetrics > 0.0 && openmetrics >= text {
            Format::OpenMetrics
        } else {
            Format::Prometheus
        }
    }

    /// The response's `Content-Type`.
    pub fn content_type(self) -> &'static str {
        match self {
            Format::Prometheus => prometheus_client::encoding::prometheus_text::CONTENT_TYPE,
            Format::OpenMetrics => "application/openmetrics-text; version=1.0.0; charset=utf-8",
        }
    }

    /// Appends `registry`'s families to `out` in this format.
    fn encode(self, out: &mut String, registry: &Registry) {
        // Writing into a String cannot fail.
        let _ = match self {
            Format::Prometheus => {
                prometheus_client::encoding::prometheus_text::encode(out, registry)
            }
            Format::OpenMetrics => {
                prometheus_client::encoding::text::encode_registry(out, registry)
            }
        };
    }
}

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

#[derive(Debug, Clone, Hash, PartialEq, Eq, EncodeLabelSet)]
struct CodeLabels {
    code: &'static str,
}

fn latency_histogram() -> Histogram {
    Histogram::new(BUCKETS)
}

/// Request counters and latency histograms by route, problem responses by code, the uptime,
/// the number of game ids, the build and the process.
pub struct Metrics {
    started: Instant,
    registry: Registry,
    requests: Family<RequestLabels, Counter>,
    latency: Family<RouteLabels, Histogram, fn() -> Histogram>,
    problems: Family<CodeLabels, Counter>,
    uptime_seconds: Gauge<f64, AtomicU64>,
}

impl Default for Metrics {
    fn default() -> Self {
        let requests = Family::<RequestLabels, Counter>::default();
        let latency = Family::<RouteLabels, Histogram, fn() -> Histogram>::new_with_constructor(
            latency_histogram,
        );
        let problems = Family::<CodeLabels, Counter>::default();
        // Every code from zero: `rate()` sees a series before its first response.
        for code in ErrorCode::ALL {
            let _series = problems.get_or_create(&CodeLabels {
                code: code.as_str(),
            });
        }
        let uptime_seconds = Gauge::<f64, AtomicU64>::default();
        let games = Gauge::<i64>::default();
        games.set(engine::registry::games().len() as i64);
        let mut registry = Registry::default();
        registry.register(
            "cardroom_build",
            "The running build: its version",
            Info::new(vec![("version".to_string(), crate::VERSION.to_string())]),
        );
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
        registry.register(
            "cardroom_http_problem_responses",
            "Error responses (problem+json) by code",
            problems.clone(),
        );
        registry.register_collector(Box::new(process::ProcessCollector));
        Metrics {
            started: Instant::now(),
            registry,
            requests,
            latency,
            problems,
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

    /// Records one problem response.
    pub fn record_problem(&self, code: ErrorCode) {
        self.problems
            .get_or_create(&CodeLabels {
                code: code.as_str(),
            })
            .inc();
    }

    /// This registry's families, then `more` registries' (the arena's), in `format`; OpenMetrics
    /// closes with one `# EOF`.
    pub fn render(&self, format: Format, more: &[&Registry]) -> String {
        self.uptime_seconds
            .set(self.started.elapsed().as_secs_f64());
        let mut out = String::new();
        format.encode(&mut out, &self.registry);
        for registry in more {
            format.encode(&mut out, registry);
        }
        if format == Format::OpenMetrics {
            let _ = prometheus_client::encoding::text::encode_eof(&mut out);
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_accept_header_chooses_the_format() {
        // Prometheus's own scrape header ranks OpenMetrics first.
        let prometheus = "application/openmetrics-text;version=1.0.0,application/openmetrics-text;version=0.0.1;q=0.75,text/plain;version=0.0.4;q=0.5,*/*;q=0.1";
        assert_eq!(Format::from_accept(Some(prometheus)), Format::OpenMetrics);
        for text in [
            None,
            Some("*/*"),
            Some("text/plain;version=0.0.4"),
            Some("text/plain; version=0.0.4, application/openmetrics-text; q=0.5"),
            Some("application/openmetrics-text; q=0"),
        ] {
            assert_eq!(Format::from_accept(text), Format::Prometheus, "{text:?}");
        }
    }

    #[test]
    fn both_formats_type_counters_as_their_samples_need() {
        let metrics = Metrics::default();
        metrics.record("GET", "/healthz", 200, Duration::from_millis(1));
        metrics.record_problem(ErrorCode::NotFound);
        let text = metrics.render(Format::Prometheus, &[]);
        assert!(text.contains("# TYPE cardroom_http_requests_total counter\n"));
        assert!(text.contains("# TYPE cardroom_build_info gauge\n"));
        assert!(text.contains("cardroom_http_problem_responses_total{code=\"not_found\"} 1\n"));
        assert!(!text.contains("# EOF") && !text.contains("# UNIT"));
        let open = metrics.render(Format::OpenMetrics, &[]);
        assert!(open.contains("# TYPE cardroom_http_requests counter\n"));
        assert!(open.contains("# TYPE cardroom_build info\n"));
        assert!(open.ends_with("# EOF\n"));
        for family in ["process_cpu_seconds", "process_resident_memory_bytes"] {
            assert!(
                text.contains(&format!("# TYPE {family}")),
                "{family}\n{text}"
            );
        }
    }
}
