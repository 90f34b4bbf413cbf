//! The standard `process_*` families, read at each scrape: CPU time (the process's CPU clock),
//! resident and virtual memory, threads, open and allowed file descriptors (Linux's `/proc`),
//! and the start time. A family whose source cannot be read on this system is left out.

use prometheus_client::collector::Collector;
use prometheus_client::encoding::{DescriptorEncoder, EncodeMetric};
use prometheus_client::metrics::counter::ConstCounter;
use prometheus_client::metrics::gauge::ConstGauge;
use std::sync::OnceLock;
use std::time::{SystemTime, UNIX_EPOCH};

/// When the process started, in unix seconds (set by [`mark_process_start`] as `main` begins).
static PROCESS_START: OnceLock<f64> = OnceLock::new();

/// Notes the process's start time for `process_start_time_seconds` (the binary calls it first
/// thing; without it the first scrape's time stands in).
pub fn mark_process_start() {
    PROCESS_START.get_or_init(|| {
        SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0.0, |d| d.as_secs_f64())
    });
}

/// Encodes the `process_*` families at each scrape.
#[derive(Debug)]
pub struct ProcessCollector;

/// The fields of `/proc/self/status` used here, in bytes or counts.
#[derive(Debug, Default, PartialEq)]
struct Status {
    resident_bytes: Option<f64>,
    virtual_bytes: Option<f64>,
    threads: Option<f64>,
}

/// Reads `VmRSS`, `VmSize` (kB) and `Threads` from the text of `/proc/self/status`.
fn parse_status(text: &str) -> Status {
    let field = |name: &str| {
        text.lines()
            .find_map(|line| line.strip_prefix(name))
            .and_then(|rest| rest.split_whitespace().next())
            .and_then(|value| value.parse::<f64>().ok())
    };
    Status {
        resident_bytes: field("VmRSS:").map(|kb| kb * 1024.0),
        virtual_bytes: field("VmSize:").map(|kb| kb * 1024.0),
        threads: field("Threads:"),
    }
}

/// The soft limit of open files from the text of `/proc/self/limits` (None if unlimited).
fn parse_max_fds(text: &str) -> Option<f64> {
    let line = text.lines().find(|l| l.starts_with("Max open files"))?;
    line.trim_start_matches("Max open files")
        .split_whitespace()
        .next()?
        .parse()
        .ok()
}

fn gauge(
    encoder: &mut DescriptorEncoder,
    name: &str,
    help: &str,
    value: f64,
) -> Result<(), std::fmt::Error> {
    let metric = ConstGauge::new(value);
    metric.encode(encoder.encode_descriptor(name, help, None, metric.metric_type())?)
}

impl Collector for ProcessCollector {
    fn encode(&self, mut encoder: DescriptorEncoder) -> Result<(), std::fmt::Error> {
        let cpu = cpu_time::ProcessTime::try_now().map(|t| t.as_duration().as_secs_f64());
        if let Ok(seconds) = cpu {
            let counter = ConstCounter::new(seconds);
            counter.encode(encoder.encode_descriptor(
                "process_cpu_seconds",
                "Total user and system CPU time spent in seconds",
                None,
                counter.metric_type(),
            )?)?;
        }
        let status = std::fs::read_to_string("/proc/self/status")
            .map(|text| parse_status(&text))
            .unwrap_or_default();
        if let Some(bytes) = status.resident_bytes {
            gauge(
                &mut encoder,
                "process_resident_memory_bytes",
                "Resident memory size in bytes",
                bytes,
            )?;
        }
        if let Some(bytes) = status.virtual_bytes {
            gauge(
                &mut encoder,
                "process_virtual_memory_bytes",
                "Virtual memory size in bytes",
                bytes,
            )?;
        }
        if let Some(threads) = status.threads {
            gauge(
                &mut encoder,
                "process_threads",
                "Number of OS threads in the process",
                threads,
            )?;
        }
        if let Ok(entries) = std::fs::read_dir("/proc/self/fd") {
            gauge(
                &mut encoder,
                "process_open_fds",
                "Number of open file descriptors",
                entries.count() as f64,
            )?;
        }
        if let Some(max) = std::fs::read_to_string("/proc/self/limits")
            .ok()
            .and_then(|text| parse_max_fds(&text))
        {
            gauge(
                &mut encoder,
                "process_max_fds",
                "Maximum number of open file descriptors",
                max,
            )?;
        }
        mark_process_start();
        if let Some(start) = PROCESS_START.get() {
            gauge(
                &mut encoder,
                "process_start_time_seconds",
                "Start time of the process since unix epoch in seconds",
                *start,
            )?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn status_and_limits_are_read_in_bytes_and_counts() {
        let status = "Name:\tcardroom\nVmSize:\t  123456 kB\nVmRSS:\t   70000 kB\nThreads:\t9\n";
        assert_eq!(
            parse_status(status),
            Status {
                resident_bytes: Some(70000.0 * 1024.0),
                virtual_bytes: Some(123456.0 * 1024.0),
                threads: Some(9.0),
            }
        );
        let limits = "Limit                     Soft Limit           Hard Limit           Units\n\
                      Max open files            1024                 524288               files\n";
        assert_eq!(parse_max_fds(limits), Some(1024.0));
        assert_eq!(
            parse_max_fds("Max open files unlimited unlimited files"),
            None
        );
    }
}
