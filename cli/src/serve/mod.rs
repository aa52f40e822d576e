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
mod limits;
mod metrics;
pub(crate) mod page;
mod query;
pub(crate) mod tables;

use jtb_edge::Tables;
use std::{
    convert::Infallible,
    future::Future,
    io::Write,
    net::SocketAddr,
    pin::Pin,
    sync::Arc,
    task::{Context, Poll},
    time::Instant,
};

use axum::{
    extract::{ConnectInfo, Request},
    http::{Method, Uri},
    response::Response,
    routing::{get, MethodRouter},
    Router,
};
use tower::{Layer, Service};
use tower_http::{
    catch_panic::CatchPanicLayer,
    cors::{AllowOrigin, Any, Cors, CorsLayer},
};

use crate::api::{ApiError, ApiTables};
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

/// The routes: each pattern with its handlers. The router and the metrics' names of the routes
/// ([`Edge::route_of`]) are both made from this one list.
fn routes(watched: &Arc<metrics::Watched>) -> Vec<(&'static str, MethodRouter<Arc<Tables>>)> {
    vec![
        ("/", get(page::index)),
        ("/assets/{file}", get(page::file)),
        ("/api/v1", get(tables::index)),
        ("/api/v1/{rules}", get(api::probe)),
        ("/api/v1/{rules}/line", get(api::line)),
        ("/api/v1/{rules}/moves", get(api::moves)),
        ("/api/v1/{rules}/steps", get(api::turn_steps)),
        ("/api/v1/{rules}/materials", get(tables::materials)),
        ("/api/v1/{rules}/stats/{material}", get(tables::stats)),
        (
            "/metrics",
            get(metrics::metrics).with_state(Arc::clone(watched)),
        ),
    ]
}

/// The server as one service: the API and the page over the tables of `lib`, callable from
/// the pages of `origins`, with up to `cache_bytes` of recent answers kept in memory, within
/// `limits`. In front of the router is the edge ([`EdgeService`]), and in front of that CORS.
pub fn app(
    lib: Arc<Tables>,
    origins: Origins,
    cache_bytes: u64,
    limits: limits::Limits,
) -> Cors<EdgeService> {
    let answers = Arc::new(cache::Answers::new(Arc::clone(&lib), cache_bytes));
    let watched = Arc::new(metrics::Watched {
        metrics: metrics::Metrics::new(),
        lib: Arc::clone(&lib),
        answers: Arc::clone(&answers),
    });
    let mut router = Router::new();
    let mut patterns = matchit::Router::new();
    for (pattern, handlers) in routes(&watched) {
        router = router.route(pattern, handlers);
        // The patterns are axum's, which took each just now.
        patterns.insert(pattern, pattern).expect("a route pattern");
    }
    let router = router
        .fallback(api::not_found)
        .method_not_allowed_fallback(api::method_not_allowed)
        .with_state(lib)
        // A bug must cost one request, not the server: a panic becomes a 500.
        .layer(CatchPanicLayer::custom(|_| {
            axum::response::IntoResponse::into_response(ApiError::internal("internal error"))
        }));
    let edge = EdgeService {
        edge: Arc::new(Edge {
            watched,
            limits,
            answers,
            patterns,
        }),
        router,
    };
    CorsLayer::new()
        .allow_origin(match origins {
            Origins::Any => AllowOrigin::from(Any),
            Origins::List(list) => AllowOrigin::list(list),
        })
        .allow_methods([Method::GET, Method::HEAD])
        .layer(edge)
}

/// What every request passes through before it is routed: counted and timed for `/metrics`,
/// held to the limits, and answered from the answers' cache where it can be (such a request
/// is never routed, and costs no future of its own).
struct Edge {
    watched: Arc<metrics::Watched>,
    limits: limits::Limits,
    answers: Arc<cache::Answers>,
    /// The route patterns, each its own value: a request's route for the metrics.
    patterns: matchit::Router<&'static str>,
}

impl Edge {
    /// The route pattern `path` matches (`/api/v1/{rules}`), never the raw path, so that the
    /// metrics' labels stay few; `other` for none (the fallback's 404).
    fn route_of(&self, path: &str) -> &'static str {
        self.patterns.at(path).map_or("other", |found| *found.value)
    }

    /// Counts and logs `response` to a request for `route` (its method and target in `asked`,
    /// where the log takes anything) from `client`, begun at `start`.
    fn done(
        &self,
        route: &str,
        asked: Option<(&Method, &Uri)>,
        client: SocketAddr,
        start: Instant,
        response: Response,
    ) -> Response {
        let elapsed = start.elapsed();
        let status = response.status().as_u16();
        self.watched
            .metrics
            .record(route, status, elapsed.as_secs_f64());
        if let Some((method, uri)) = asked {
            log_request(method, uri, status, client, elapsed);
        }
        response
    }
}

/// The edge in front of the router ([`Edge`]), as the server's service.
#[derive(Clone)]
pub struct EdgeService {
    edge: Arc<Edge>,
    router: Router,
}

impl Service<Request> for EdgeService {
    type Response = Response;
    type Error = Infallible;
    type Future = EdgeFuture;

    fn poll_ready(&mut self, _: &mut Context<'_>) -> Poll<Result<(), Infallible>> {
        // The router is always ready.
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, request: Request) -> EdgeFuture {
        let start = Instant::now();
        let edge = &self.edge;
        // Every request over TCP has its peer's address (`serve`); one made otherwise counts
        // as from the unspecified address.
        let client = request
            .extensions()
            .get::<ConnectInfo<SocketAddr>>()
            .map_or(SocketAddr::from(([0, 0, 0, 0], 0)), |info| info.0);
        let route = edge.route_of(request.uri().path());
        // The method and target are kept only when the log takes anything (a 5xx at least).
        let logged = tracing::enabled!(tracing::Level::WARN);
        // The checks and the cache first, each synchronous.
        let in_flight = match limits::admit(&edge.limits, client, &request) {
            Ok(in_flight) => in_flight,
            Err(refused) => {
                let asked = logged.then_some((request.method(), request.uri()));
                return EdgeFuture::Ready(Some(edge.done(route, asked, client, start, refused)));
            }
        };
        let pending = if cache::needs_refresh(&edge.answers, &request) {
            None
        } else {
            match cache::prepare(&edge.answers, &request) {
                cache::Prepared::Answered(response) => {
                    let asked = logged.then_some((request.method(), request.uri()));
                    return EdgeFuture::Ready(Some(
                        edge.done(route, asked, client, start, response),
                    ));
                }
                cache::Prepared::Pending(pending) => Some(pending),
            }
        };
        let (edge, mut router) = (Arc::clone(edge), self.router.clone());
        let asked = logged.then(|| (request.method().clone(), request.uri().clone()));
        EdgeFuture::Routed(Box::pin(async move {
            let _in_flight = in_flight;
            let asked = asked.as_ref().map(|(method, uri)| (method, uri));
            let pending = match pending {
                Some(pending) => pending,
                None => {
                    cache::refresh(&edge.answers).await;
                    match cache::prepare(&edge.answers, &request) {
                        cache::Prepared::Answered(response) => {
                            return edge.done(route, asked, client, start, response);
                        }
                        cache::Prepared::Pending(pending) => pending,
                    }
                }
            };
            let routed = tokio::time::timeout(edge.limits.timeout(), router.call(request));
            let response = match routed.await {
                Ok(Ok(response)) => pending.finish(&edge.answers, response).await,
                Ok(Err(never)) => match never {},
                Err(_) => limits::timed_out(&edge.limits),
            };
            edge.done(route, asked, client, start, response)
        }))
    }
}

/// The future of [`EdgeService`]: an answer made already (refused, or from the answers'
/// cache), or the router's on its way.
pub enum EdgeFuture {
    /// Taken when polled.
    Ready(Option<Response>),
    /// The routed request, its answer tagged, kept and counted.
    Routed(Pin<Box<dyn Future<Output = Response> + Send>>),
}

impl Future for EdgeFuture {
    type Output = Result<Response, Infallible>;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        match self.get_mut() {
            EdgeFuture::Ready(response) => Poll::Ready(Ok(response
                .take()
                .expect("an edge future polled after it completed"))),
            EdgeFuture::Routed(routed) => routed.as_mut().poll(cx).map(Ok),
        }
    }
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
    let lib = Tables::new(&args.tables.dir, args.cache_mib << 20);
    lib.open_all();
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
    let app = app(
        Arc::clone(&lib),
        origins,
        args.response_cache_mib << 20,
        limits,
    );
    runtime.block_on(serve(args.addr, &lib, app))?;
    Ok(true)
}

/// The server `jtb serve` runs, over the tables under `root`, as one in-process service: its
/// defaults (every origin, a 64 MiB answers' cache, no rate limit, 1,024 requests at once, 30 s
/// each) and no socket. A request needs its client address as axum's
/// `ConnectInfo<SocketAddr>` extension, as the server's listener adds it. For the fuzz target
/// of the HTTP API.
pub fn in_process(root: &std::path::Path) -> Cors<EdgeService> {
    let lib = Arc::new(Tables::new(root, 64 << 20));
    lib.open_all();
    let limits = limits::Limits::new(0, 0, 1024, std::time::Duration::from_secs(30));
    app(lib, Origins::Any, 64 << 20, limits)
}

async fn serve(addr: SocketAddr, lib: &Tables, app: Cors<EdgeService>) -> std::io::Result<()> {
    let listener = tokio::net::TcpListener::bind(addr).await?;
    // What the server says at start is for whoever watches; a closed pipe (`jtb serve | true`)
    // is no reason to stop serving, nor to panic.
    let mut err = std::io::stderr().lock();
    for rules in jtb_edge::Rules::all() {
        let _ = match lib.table_size(rules) {
            Ok((tables, _)) => writeln!(err, "{rules}: {}", crate::commands::tables(tables, "")),
            Err(why) => writeln!(err, "{rules}: {}", why.message),
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
        axum::ServiceExt::<Request>::into_make_service_with_connect_info::<SocketAddr>(app),
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
