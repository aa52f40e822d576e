//! `jtb serve`: the tablebase explorer in the browser and an HTTP JSON API, in one process.
//!
//! The API (modelled on the lichess tablebase API):
//! - `GET /api/v1/{rules}?position=...[&clock=N]`: the fields of `jtb probe --json` and
//!   `moves`, best first, each describing the position after the move for its side to move;
//! - `GET /api/v1/{rules}/line?position=...`: the best line and the line under the clock rule;
//! - `GET /api/v1/{rules}/moves?position=...`: the legal moves (no tables needed);
//! - `GET /api/v1/{rules}/stats/{material}`: the material's `jtb stats --json` objects and its
//!   distance histograms, in the orientation asked;
//! - `GET /api/v1/{rules}/materials` and `GET /api/v1`: what tables there are, and the boards.
//!
//! Animal Gambit's answers (RULES.md 7, `{rules}` = `animal-gambit`) count distances in turns
//! and have no clock: every turn with its steps and the position it gives, best first; its
//! `/moves` lists the turns in ASCII order, and `GET /api/v1/animal-gambit/steps?position=...
//! &steps=...` plays a turn one step at a time (the steps that may follow, the turn they make).
//!
//! Clesto's answers (RULES.md 6) have no draws and no clock: win or loss by DTM or by the
//! repetition ban, with the banned side, its exit distance, the hungry set and each move's
//! starvations; its line stops where only the ban decides.
//!
//! Errors are `{"error": "...", "code": "..."}` with 400 (bad input), 404 (no such rule set,
//! route or table), 405 or 500 (a damaged table, never user input). Tables generated while the
//! server runs are found on the first request that misses them, and tables replaced (renamed
//! over) or removed within about a second. The page is at `/`.

mod api;
mod cache;
mod clesto;
mod error;
mod family;
mod flip;
mod gambit;
mod jungle;
mod limits;
mod metrics;
mod page;
mod query;
mod source;
pub(crate) mod tables;

use std::{io::Write, net::SocketAddr, sync::Arc};

use axum::{
    extract::{ConnectInfo, MatchedPath, Request, State},
    http::Method,
    middleware::Next,
    response::Response,
    routing::get,
    Router,
};
use tower_http::{
    catch_panic::CatchPanicLayer,
    cors::{AllowOrigin, Any, CorsLayer},
};

use self::{error::ApiError, source::Library};
use crate::{input, CliResult};

#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    tables: input::TablesArg,
    /// Address to listen on (localhost by default; port 0 picks a free port).
    #[arg(long, default_value = "127.0.0.1:8080")]
    addr: SocketAddr,
    /// Bound of each rule set's cache of decoded table blocks, in MiB.
    #[arg(long, default_value_t = 512, value_parser = clap::value_parser!(u64).range(1..=1 << 20))]
    cache_mib: u64,
    /// Worker threads (default: one per core).
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..))]
    threads: Option<u16>,
    /// An origin whose pages may call the API from the browser (CORS), such as
    /// `https://play.example.org`; repeatable. `*` (the default) allows every origin.
    #[arg(long = "cors-origin", value_name = "ORIGIN", default_value = "*", value_parser = cors_origin)]
    cors_origins: Vec<String>,
    /// Bound of the in-memory cache of recent API answers, in MiB (0: none; answers still carry
    /// their ETag and 304s are still given).
    #[arg(long, default_value_t = 64, value_parser = clap::value_parser!(u64).range(0..=1 << 20))]
    response_cache_mib: u64,
    /// Requests a second one client address may make (0, the default: no limit); over it the
    /// answer is 429 with `Retry-After`.
    #[arg(long, default_value_t = 0, value_name = "N")]
    rate_limit: u32,
    /// Requests a client may make at once beyond its rate (default: twice the rate).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    rate_burst: Option<u32>,
    /// Requests answered at once; more get 503 at once rather than waiting.
    #[arg(long, default_value_t = 1024, value_parser = clap::value_parser!(u32).range(1..))]
    max_in_flight: u32,
    /// Seconds a request may take before it gets 503.
    #[arg(long, default_value_t = 30, value_parser = clap::value_parser!(u64).range(1..=3600))]
    request_timeout: u64,
    /// The request log on standard error: `info` logs every request (method, path, status,
    /// client, microseconds), `warn` (the default) only the answers that failed on the
    /// server's side (5xx), `off` nothing.
    #[arg(long, default_value = "warn", value_name = "LEVEL")]
    log_level: tracing_subscriber::filter::LevelFilter,
    /// The request log as one JSON object per line.
    #[arg(long)]
    log_json: bool,
}

/// Parses `--cors-origin`: `*`, or an origin as browsers send it (`scheme://host[:port]`, no
/// path, no trailing slash).
fn cors_origin(text: &str) -> Result<String, String> {
    if text == "*" {
        return Ok(text.to_owned());
    }
    let rest = text
        .strip_prefix("https://")
        .or_else(|| text.strip_prefix("http://"))
        .ok_or_else(|| format!("origin `{text}`: expected `*` or http(s)://host[:port]"))?;
    let well_formed = !rest.is_empty()
        && rest
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-.:[]".contains(&b));
    if !well_formed {
        return Err(format!(
            "origin `{text}`: expected `*` or http(s)://host[:port], with no path"
        ));
    }
    Ok(text.to_owned())
}

/// Which origins' pages may call the API (CORS): every one, or those listed.
#[derive(Debug, Clone)]
pub enum Origins {
    /// `Access-Control-Allow-Origin: *`.
    Any,
    /// Only these (each echoed back to its own requests).
    List(Vec<axum::http::HeaderValue>),
}

impl Origins {
    /// The origins of `--cors-origin`: any if `*` is among them.
    fn from_args(origins: &[String]) -> Origins {
        if origins.iter().any(|o| o == "*") {
            return Origins::Any;
        }
        Origins::List(
            origins
                .iter()
                .filter_map(|o| axum::http::HeaderValue::from_str(o).ok())
                .collect(),
        )
    }
}

/// The routes of the API and the page over the tables of `lib`, callable from the pages of
/// `origins`, with up to `cache_bytes` of recent answers kept in memory, within `limits`.
pub fn router(
    lib: Arc<Library>,
    origins: Origins,
    cache_bytes: u64,
    limits: limits::Limits,
) -> Router {
    let answers = Arc::new(cache::Answers::new(Arc::clone(&lib), cache_bytes));
    let watched = Arc::new(metrics::Watched {
        metrics: metrics::Metrics::new(),
        lib: Arc::clone(&lib),
        answers: Arc::clone(&answers),
    });
    let cors = CorsLayer::new()
        .allow_origin(match origins {
            Origins::Any => AllowOrigin::from(Any),
            Origins::List(list) => AllowOrigin::list(list),
        })
        .allow_methods([Method::GET, Method::HEAD]);
    Router::new()
        .route("/", get(page::index))
        .route("/assets/{file}", get(page::file))
        .route("/api/v1", get(tables::index))
        .route("/api/v1/{rules}", get(api::probe))
        .route("/api/v1/{rules}/line", get(api::line))
        .route("/api/v1/{rules}/moves", get(api::moves))
        .route("/api/v1/{rules}/steps", get(api::turn_steps))
        .route("/api/v1/{rules}/materials", get(tables::materials))
        .route("/api/v1/{rules}/stats/{material}", get(tables::stats))
        .route(
            "/metrics",
            get(metrics::metrics).with_state(Arc::clone(&watched)),
        )
        .fallback(api::not_found)
        .method_not_allowed_fallback(api::method_not_allowed)
        .with_state(lib)
        .layer(axum::middleware::from_fn_with_state(
            Arc::new(Edge {
                watched,
                limits,
                answers,
            }),
            edge,
        ))
        .layer(cors)
        // A bug must cost one request, not the server: a panic becomes a 500.
        .layer(CatchPanicLayer::custom(|_| {
            axum::response::IntoResponse::into_response(ApiError::internal("internal error"))
        }))
}

/// What every request passes through, in one layer (a layer each would cost an allocation a
/// request each): counted and timed for `/metrics`, held to the limits, and answered from the
/// answers' cache where it can be.
struct Edge {
    watched: Arc<metrics::Watched>,
    limits: limits::Limits,
    answers: Arc<cache::Answers>,
}

async fn edge(
    State(edge): State<Arc<Edge>>,
    ConnectInfo(client): ConnectInfo<SocketAddr>,
    request: Request,
    next: Next,
) -> Response {
    // The pattern matched (`/api/v1/{rules}`), never the raw path: the labels stay few.
    let route = request.extensions().get::<MatchedPath>().cloned();
    // Kept only when the log takes anything (a 5xx at least).
    let asked = tracing::enabled!(tracing::Level::WARN)
        .then(|| (request.method().clone(), request.uri().clone()));
    let start = std::time::Instant::now();
    // The checks and the cache first, each synchronous: the request goes whole into the
    // routes' future, carried by no future of the edge's (this one is boxed for every request).
    let response = match limits::admit(&edge.limits, client, &request) {
        Ok(_in_flight) => {
            if cache::needs_refresh(&edge.answers, &request) {
                Box::pin(cache::refresh(&edge.answers)).await;
            }
            match cache::prepare(&edge.answers, &request) {
                cache::Prepared::Answered(response) => response,
                cache::Prepared::Pending(pending) => {
                    let routed = tokio::time::timeout(edge.limits.timeout(), next.run(request));
                    match routed.await {
                        Ok(response) => pending.finish(&edge.answers, response).await,
                        Err(_) => limits::timed_out(&edge.limits),
                    }
                }
            }
        }
        Err(refused) => refused,
    };
    let elapsed = start.elapsed();
    let status = response.status().as_u16();
    edge.watched.metrics.record(
        route.as_ref().map_or("other", MatchedPath::as_str),
        status,
        elapsed.as_secs_f64(),
    );
    if let Some((method, uri)) = asked {
        log_request(&method, &uri, status, client, elapsed);
    }
    response
}

/// One line of the request log: a 5xx (the server's fault, or its limits) as a warning, every
/// other answer as information.
fn log_request(
    method: &Method,
    uri: &axum::http::Uri,
    status: u16,
    client: SocketAddr,
    elapsed: std::time::Duration,
) {
    let micros = u64::try_from(elapsed.as_micros()).unwrap_or(u64::MAX);
    let client = client.ip();
    if status >= 500 {
        tracing::warn!(%method, %uri, status, %client, micros, "request");
    } else {
        tracing::info!(%method, %uri, status, %client, micros, "request");
    }
}

/// Sends the `tracing` events at `level` and above to standard error, as text or JSON lines.
fn start_log(level: tracing_subscriber::filter::LevelFilter, json: bool) {
    let log = tracing_subscriber::fmt()
        .with_max_level(level)
        .with_writer(std::io::stderr)
        .with_ansi(false)
        .with_target(false);
    // Another subscriber already set (only in tests that call `run` twice) keeps its place.
    let _ = if json {
        log.json().try_init()
    } else {
        log.try_init()
    };
}

/// Serves until interrupted (Ctrl-C or SIGTERM). Prints `listening on http://ADDR` on standard
/// output once the socket is bound, and which tables each rule set has on standard error.
///
/// # Errors
/// The address cannot be bound, or the runtime cannot start.
pub fn run(args: &Args) -> CliResult {
    start_log(args.log_level, args.log_json);
    let lib = Library::open(&args.tables.dir, args.cache_mib << 20);
    let mut runtime = tokio::runtime::Builder::new_multi_thread();
    if let Some(n) = args.threads {
        runtime.worker_threads(usize::from(n));
    }
    let runtime = runtime.enable_all().build()?;
    let origins = Origins::from_args(&args.cors_origins);
    let lib = Arc::new(lib);
    let limits = limits::Limits::new(
        args.rate_limit,
        args.rate_burst
            .unwrap_or_else(|| args.rate_limit.saturating_mul(2)),
        args.max_in_flight as usize,
        std::time::Duration::from_secs(args.request_timeout),
    );
    let router = router(
        Arc::clone(&lib),
        origins,
        args.response_cache_mib << 20,
        limits,
    );
    runtime.block_on(serve(args.addr, &lib, router))?;
    Ok(true)
}

async fn serve(addr: SocketAddr, lib: &Library, router: Router) -> std::io::Result<()> {
    let listener = tokio::net::TcpListener::bind(addr).await?;
    // What the server says at start is for whoever watches; a closed pipe (`jtb serve | true`)
    // is no reason to stop serving, nor to panic.
    let mut err = std::io::stderr().lock();
    for id in Library::ids() {
        let _ = match lib.size(id) {
            Ok((tables, _)) => writeln!(err, "{id}: {}", crate::commands::tables(tables, "")),
            Err(why) => writeln!(err, "{id}: {}", why.message),
        };
    }
    drop(err);
    let mut out = std::io::stdout().lock();
    let _ = writeln!(out, "listening on http://{}", listener.local_addr()?);
    let _ = out.flush();
    drop(out);
    // Small answers on kept-alive connections: send each at once.
    let listener = axum::serve::ListenerExt::tap_io(listener, |tcp| {
        let _ = tcp.set_nodelay(true);
    });
    axum::serve(
        listener,
        router.into_make_service_with_connect_info::<SocketAddr>(),
    )
    .with_graceful_shutdown(shutdown())
    .await
}

/// Resolves on Ctrl-C or SIGTERM.
async fn shutdown() {
    let interrupt = tokio::signal::ctrl_c();
    #[cfg(unix)]
    {
        let mut term =
            match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
                Ok(term) => term,
                Err(_) => return interrupt.await.unwrap_or(()),
            };
        tokio::select! {
            _ = interrupt => {}
            _ = term.recv() => {}
        }
    }
    #[cfg(not(unix))]
    interrupt.await.unwrap_or(());
}
