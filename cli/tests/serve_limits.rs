//! The limits of `jtb serve`: a client over its request rate gets 429 with `Retry-After`, a
//! request with an oversized body 413, each in the project's words and counted by `/metrics`.

mod serve_support;

use std::{thread, time::Duration};

use serve_support::{gen, probe_url, Conn, Server};

const POSITION: &str = "7/7/7/7/7/7/2L4/1e5/R6 r";

#[test]
fn a_client_over_its_rate_gets_429_with_retry_after() {
    let dir = tempfile::tempdir().unwrap();
    gen(dir.path(), "mistboard", &["LRvE"]);
    let server = Server::start_with(dir.path(), &["--rate-limit", "2", "--rate-burst", "3"]);
    let mut conn = Conn::open(server.addr);
    let target = probe_url("mistboard", "", POSITION);
    // The burst, then the rate: the fourth request at once is refused.
    for i in 0..3 {
        assert_eq!(conn.get(&target).status, 200, "request {i}");
    }
    let refused = conn.get(&target);
    assert_eq!(refused.status, 429);
    assert_eq!(refused.json()["code"], "rate-limited");
    let wait: u64 = refused.header("retry-after").unwrap().parse().unwrap();
    assert!((1..=2).contains(&wait), "{wait}");
    // Once the bucket has refilled, the client is served again, and the refusal was counted.
    thread::sleep(Duration::from_millis(1600));
    let metrics = conn.get("/metrics");
    assert_eq!(metrics.status, 200);
    let text = String::from_utf8(metrics.body).unwrap();
    assert!(
        text.contains("jtb_errors_total{route=\"/api/v1/{rules}\",status=\"429\"} 1"),
        "{text}"
    );
    assert_eq!(conn.get(&target).status, 200);
}

#[test]
fn an_oversized_body_gets_413() {
    let dir = tempfile::tempdir().unwrap();
    gen(dir.path(), "mistboard", &["LvE"]);
    let server = Server::start(dir.path());
    let mut conn = Conn::open(server.addr);
    let target = probe_url("mistboard", "", POSITION);
    let r = conn.send(
        format!("GET {target} HTTP/1.1\r\nHost: x\r\nContent-Length: 1000000\r\nConnection: close\r\n\r\n")
            .as_bytes(),
    );
    assert_eq!(r.status, 413);
    assert_eq!(r.json()["code"], "too-large");
}
