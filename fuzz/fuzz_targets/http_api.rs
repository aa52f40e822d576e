//! The HTTP API of `jtb serve`, in-process: requests built from the fuzzer's bytes (a route of
//! the API or a path of its own, a rule set or any name, a query string, a method) go through
//! the whole server (CORS, the edge with its limits and answers' cache, the router, the
//! handlers) over a small intact table set of each game. Every answer is one the API documents
//! for user input (200, 304, 400, 404, 405, 406, 413, 414, 429): never a 500 (a handler's panic
//! becomes one) nor a 503; an API answer other than a 304 has a JSON body.

#![no_main]

use std::{net::SocketAddr, sync::OnceLock};

use axum::{
    body::Body,
    extract::ConnectInfo,
    http::{Method, Request, StatusCode},
};
use jtb_fuzz::table_root;
use libfuzzer_sys::fuzz_target;
use tower::ServiceExt;

/// The routes the first byte picks (`{rules}` and `{material}` filled from the input), the
/// last entry a path taken whole from it.
const ROUTES: [&str; 10] = [
    "/api/v1/{rules}",
    "/api/v1/{rules}/line",
    "/api/v1/{rules}/moves",
    "/api/v1/{rules}/stats/{material}",
    "/api/v1/{rules}/materials",
    "/api/v1/animal-gambit/steps",
    "/api/v1",
    "/metrics",
    "/",
    "{path}",
];

/// Rule set names the second byte picks, the last one taken from the input.
const RULES: [&str; 7] = [
    "mistboard",
    "tiger-lengthwise",
    "leiden",
    "flip4x4",
    "clesto",
    "animal-gambit",
    "{name}",
];

fn runtime() -> &'static tokio::runtime::Runtime {
    static RUNTIME: OnceLock<tokio::runtime::Runtime> = OnceLock::new();
    RUNTIME.get_or_init(|| {
        // With the time driver: the edge holds each request to its timeout.
        tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("a runtime")
    })
}

// The table sets are generated before the fuzzing starts (a few seconds, more on a loaded
// machine), not within the first input's time limit.
fuzz_target!(
    init: {
        table_root();
    },
    |data: &[u8]| {
    let [route, rules, method, rest @ ..] = data else {
        return;
    };
    // The rest: a name, a material and a query, separated by 0xff bytes.
    let mut parts = rest.split(|&b| b == 0xff).map(String::from_utf8_lossy);
    let (name, material, query) = (
        parts.next().unwrap_or_default(),
        parts.next().unwrap_or_default(),
        parts.next().unwrap_or_default(),
    );
    let rules = RULES[usize::from(*rules) % RULES.len()].replace("{name}", &name);
    let path = ROUTES[usize::from(*route) % ROUTES.len()]
        .replace("{path}", &name)
        .replace("{rules}", &rules)
        .replace("{material}", &material);
    let target = if query.is_empty() {
        path
    } else {
        format!("{path}?{query}")
    };
    let method = match method % 4 {
        0 | 1 => Method::GET,
        2 => Method::HEAD,
        _ => Method::POST,
    };
    // What a client could not send (hyper refuses a target that is no URI) is not asked.
    let Ok(mut request) = Request::builder()
        .method(method.clone())
        .uri(&target)
        .body(Body::empty())
    else {
        return;
    };
    let client: SocketAddr = ([127, 0, 0, 1], 4000).into();
    request.extensions_mut().insert(ConnectInfo(client));

    // The server as a router's one service: a type this target can name.
    static SERVER: OnceLock<axum::Router> = OnceLock::new();
    let server = SERVER.get_or_init(|| {
        axum::Router::new().fallback_service(jtb_cli::serve_in_process(table_root()))
    });
    let (status, body) = runtime().block_on(async {
        let response = server.clone().oneshot(request).await.expect("infallible");
        let status = response.status();
        let body = axum::body::to_bytes(response.into_body(), 64 << 20)
            .await
            .expect("a body that ends");
        (status, body)
    });
    assert!(
        ![
            StatusCode::INTERNAL_SERVER_ERROR,
            StatusCode::SERVICE_UNAVAILABLE
        ]
        .contains(&status),
        "{method} {target}: {status} {}",
        String::from_utf8_lossy(&body)
    );
    let api = target.starts_with("/api/");
    if api && method == Method::GET && status != StatusCode::NOT_MODIFIED {
        assert!(
            serde_json::from_slice::<serde_json::Value>(&body).is_ok(),
            "{method} {target}: {status}, not JSON: {}",
            String::from_utf8_lossy(&body)
        );
    }
    }
);
