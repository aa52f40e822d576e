//! `GET /metrics`: what the server is doing, in the Prometheus text format (version 0.0.4):
//! requests by route and status, errors, latency as a histogram by route (quantiles come from
//! `histogram_quantile`), the tables of each rule set, their block caches (blocks, bytes,
//! lookups and misses) and open files, the answers kept in memory, and uptime.

use jtb_edge::Tables;
use std::{
    collections::BTreeMap,
    fmt::Write,
    sync::{Arc, Mutex, PoisonError},
    time::Instant,
};

use axum::{
    extract::State,
    http::header,
    response::{IntoResponse, Response},
};

use super::cache::Answers;

/// Upper bounds of the latency buckets, in seconds.
const BUCKETS: [f64; 12] = [
    0.000_1, 0.000_25, 0.000_5, 0.001, 0.002_5, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1.0,
];

/// What one route did: answers by status, and latencies (counts per bucket, cumulative when
/// written; sum and count).
#[derive(Default)]
struct Route {
    statuses: BTreeMap<u16, u64>,
    buckets: [u64; BUCKETS.len()],
    sum: f64,
    count: u64,
}

/// Counters since the server started.
pub struct Metrics {
    start: Instant,
    /// By route pattern (a route is named once: no allocation per request).
    routes: Mutex<BTreeMap<String, Route>>,
}

impl Metrics {
    /// Counters starting now.
    #[must_use]
    pub fn new() -> Metrics {
        Metrics {
            start: Instant::now(),
            routes: Mutex::default(),
        }
    }

    /// Counts a request to `route` answered with `status` in `seconds`.
    pub fn record(&self, route: &str, status: u16, seconds: f64) {
        let mut routes = self.routes.lock().unwrap_or_else(PoisonError::into_inner);
        if !routes.contains_key(route) {
            routes.insert(route.to_owned(), Route::default());
        }
        let r = routes.get_mut(route).expect("just made");
        *r.statuses.entry(status).or_default() += 1;
        if let Some(i) = BUCKETS.iter().position(|&b| seconds <= b) {
            r.buckets[i] += 1;
        }
        r.sum += seconds;
        r.count += 1;
    }

    /// The metrics as Prometheus text.
    fn text(&self, lib: &Tables, answers: &Answers) -> String {
        let mut out = String::new();
        let routes = self.routes.lock().unwrap_or_else(PoisonError::into_inner);
        out += "# HELP jtb_requests_total HTTP requests answered, by route and status.\n";
        out += "# TYPE jtb_requests_total counter\n";
        for (route, r) in routes.iter() {
            for (status, n) in &r.statuses {
                let _ = writeln!(
                    out,
                    "jtb_requests_total{{route=\"{route}\",status=\"{status}\"}} {n}"
                );
            }
        }
        out += "# HELP jtb_errors_total HTTP requests answered with a 4xx or 5xx, by route and \
                status.\n";
        out += "# TYPE jtb_errors_total counter\n";
        for (route, r) in routes.iter() {
            for (status, n) in r.statuses.iter().filter(|(s, _)| **s >= 400) {
                let _ = writeln!(
                    out,
                    "jtb_errors_total{{route=\"{route}\",status=\"{status}\"}} {n}"
                );
            }
        }
        out += "# HELP jtb_request_duration_seconds Time to answer a request, by route.\n";
        out += "# TYPE jtb_request_duration_seconds histogram\n";
        for (route, l) in routes.iter() {
            let mut cumulative = 0;
            for (bound, n) in BUCKETS.iter().zip(l.buckets) {
                cumulative += n;
                let _ = writeln!(
                    out,
                    "jtb_request_duration_seconds_bucket{{route=\"{route}\",le=\"{bound}\"}} \
                     {cumulative}"
                );
            }
            let _ = writeln!(
                out,
                "jtb_request_duration_seconds_bucket{{route=\"{route}\",le=\"+Inf\"}} {}",
                l.count
            );
            let _ = writeln!(
                out,
                "jtb_request_duration_seconds_sum{{route=\"{route}\"}} {}",
                l.sum
            );
            let _ = writeln!(
                out,
                "jtb_request_duration_seconds_count{{route=\"{route}\"}} {}",
                l.count
            );
        }
        drop(routes);
        out += "# HELP jtb_tables Tables found, by rule set.\n";
        out += "# TYPE jtb_tables gauge\n";
        for (rules, n) in lib.table_counts() {
            let _ = writeln!(out, "jtb_tables{{rules=\"{rules}\"}} {n}");
        }
        let caches = lib.cache_stats();
        let per_rules = |out: &mut String,
                         name: &str,
                         kind: &str,
                         help: &str,
                         f: &dyn Fn(&jtb_probe::CacheStats) -> u64| {
            let _ = writeln!(out, "# HELP {name} {help}");
            let _ = writeln!(out, "# TYPE {name} {kind}");
            for (rules, stats) in &caches {
                let _ = writeln!(out, "{name}{{rules=\"{rules}\"}} {}", f(stats));
            }
        };
        per_rules(
            &mut out,
            "jtb_block_cache_blocks",
            "gauge",
            "Decoded table blocks in the shared cache, by rule set.",
            &|s| s.blocks,
        );
        per_rules(&mut out, "jtb_block_cache_bytes", "gauge", "Bytes of the decoded blocks in the shared cache, by rule set (bounded by --cache-mib).", &|s| s.bytes);
        per_rules(&mut out, "jtb_block_cache_lookups_total", "counter", "Lookups in the shared block cache, by rule set (probes served by a thread's front cache make none).", &|s| s.lookups);
        per_rules(&mut out, "jtb_block_cache_misses_total", "counter", "Blocks read from a file and decoded, by rule set: the shared cache's misses (its hits are the lookups less these).", &|s| s.decodes);
        per_rules(
            &mut out,
            "jtb_open_files",
            "gauge",
            "Table files open, by rule set.",
            &|s| s.open_files,
        );
        let (entries, bytes) = answers.usage();
        out += "# HELP jtb_answer_cache_entries API answers kept in memory.\n";
        out += "# TYPE jtb_answer_cache_entries gauge\n";
        let _ = writeln!(out, "jtb_answer_cache_entries {entries}");
        out += "# HELP jtb_answer_cache_bytes Bytes of the API answers kept in memory.\n";
        out += "# TYPE jtb_answer_cache_bytes gauge\n";
        let _ = writeln!(out, "jtb_answer_cache_bytes {bytes}");
        out += "# HELP jtb_uptime_seconds Seconds since the server started.\n";
        out += "# TYPE jtb_uptime_seconds gauge\n";
        let _ = writeln!(
            out,
            "jtb_uptime_seconds {:.3}",
            self.start.elapsed().as_secs_f64()
        );
        out
    }
}

impl Default for Metrics {
    fn default() -> Metrics {
        Metrics::new()
    }
}

/// What `/metrics` reads: the counters, the tables and the answers' cache.
pub struct Watched {
    /// The counters.
    pub metrics: Metrics,
    /// The tables.
    pub lib: Arc<Tables>,
    /// The answers kept in memory.
    pub answers: Arc<Answers>,
}

/// `GET /metrics`.
pub async fn metrics(State(watched): State<Arc<Watched>>) -> Response {
    let text = watched.metrics.text(&watched.lib, &watched.answers);
    (
        [(
            header::CONTENT_TYPE,
            "text/plain; version=0.0.4; charset=utf-8",
        )],
        text,
    )
        .into_response()
}
