//! A soak test of `jtb serve` (bounded in time, loopback only): many clients at once send a mix
//! of good, bad and hostile requests (path tricks, huge queries, non-UTF-8 bytes, oversized
//! bodies, slow clients that never finish a request) while one table is damaged and another
//! replaced under the server. Every good answer must be right, every bad one a 4xx in the
//! API's words, the server must live through it, and its memory must stay bounded. The figures
//! are printed (`cargo test -p jtb --test serve_soak -- --nocapture`).

mod serve_support;

use std::{
    collections::HashMap,
    fs,
    io::Write,
    net::TcpStream,
    path::Path,
    sync::{
        atomic::{AtomicBool, AtomicU64, Ordering},
        Arc,
    },
    thread,
    time::{Duration, Instant},
};

use jtb_probe::{Color, Jungle, Piece, RuleSet, Tablebase};
use serve_support::{gen, probe_url, random_positions, raw_status, Conn, Rng, Server};

/// How long the clients keep asking.
const SOAK: Duration = Duration::from_secs(12);
/// Clients asking at once (besides the slow ones).
const CLIENTS: usize = 12;
/// Slow clients: each sends half a request and then nothing.
const SLOW: usize = 64;

/// The server's peak resident memory in KiB (`VmHWM`).
fn peak_kib(pid: u32) -> u64 {
    let status = fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    let line = status.lines().find(|l| l.starts_with("VmHWM:")).unwrap();
    line.split_whitespace().nth(1).unwrap().parse().unwrap()
}

/// Replaces `path` by `bytes` the way a careful copy does: a temporary file renamed over it.
fn replace(path: &Path, bytes: &[u8]) {
    let tmp = path.with_extension("incoming");
    fs::write(&tmp, bytes).unwrap();
    fs::rename(&tmp, path).unwrap();
}

#[derive(Default)]
struct Tally {
    good: AtomicU64,
    bad: AtomicU64,
    hostile: AtomicU64,
    wrong: AtomicU64,
    damaged_5xx: AtomicU64,
}

#[test]
fn the_server_keeps_answering_right_under_a_mix_of_requests_and_table_changes() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    gen(root, "mistboard", &["LRvE", "TvL", "DvC"]);
    // The same tables again, for the replacement made while serving.
    let spare = tempfile::tempdir().unwrap();
    gen(spare.path(), "mistboard", &["TvL"]);
    let table = |m: &str| root.join("mistboard").join(format!("{m}.dtm"));
    let damaged = "DvC";
    let replaced = "LvT";
    assert!(table(damaged).exists() && table(replaced).exists());

    // What every good request must answer: the library's values, read before the soak.
    let tb = Tablebase::open(root, Jungle::Mistboard).unwrap();
    let mut rng = Rng(0x5eed);
    let piece = |c, a: char| Piece::new(c, jtb_probe::Animal::from_letter(a).unwrap());
    let mut expected = Vec::new();
    for pieces in [
        vec![
            piece(Color::Red, 'L'),
            piece(Color::Red, 'R'),
            piece(Color::Blue, 'E'),
        ],
        vec![piece(Color::Red, 'T'), piece(Color::Blue, 'L')],
        vec![piece(Color::Red, 'D'), piece(Color::Blue, 'C')],
    ] {
        for pos in random_positions(RuleSet::Mistboard, &pieces, 150, &mut rng) {
            let text = pos.to_string();
            let value = tb.probe_dtm(&pos).unwrap();
            let material = jtb_probe::Material::of(&pos).to_string();
            let on_damaged = ["DvC", "CvD"].contains(&material.as_str());
            expected.push((text, value, on_damaged));
        }
    }
    drop(tb);
    let expected = Arc::new(expected);

    let mut server = Server::start_with(root, &["--response-cache-mib", "8"]);
    let addr = server.addr;
    let pid = server.pid();
    let stop = Arc::new(AtomicBool::new(false));
    let tally = Arc::new(Tally::default());

    // Slow clients hold connections with half a request.
    let slow: Vec<TcpStream> = (0..SLOW)
        .filter_map(|_| {
            let mut s = TcpStream::connect(addr).ok()?;
            s.write_all(b"GET /api/v1/mistboard?position=7/7").ok()?;
            Some(s)
        })
        .collect();

    let clients: Vec<_> = (0..CLIENTS)
        .map(|k| {
            let (expected, stop, tally) =
                (Arc::clone(&expected), Arc::clone(&stop), Arc::clone(&tally));
            thread::spawn(move || {
                let mut rng = Rng(0x1234 + k as u64);
                let mut conn = Conn::open(addr);
                let mut wrong = Vec::new();
                while !stop.load(Ordering::Relaxed) {
                    match rng.below(20) {
                        // Good requests, on one kept-alive connection.
                        0..=11 => {
                            let (text, value, on_damaged) =
                                &expected[rng.below(expected.len())];
                            let answer = conn.get(&probe_url("mistboard", "", text));
                            tally.good.fetch_add(1, Ordering::Relaxed);
                            if answer.status >= 500 && *on_damaged {
                                tally.damaged_5xx.fetch_add(1, Ordering::Relaxed);
                                continue;
                            }
                            let json = answer.json();
                            let dtm = json["dtm"].as_u64().map(|d| d as u16);
                            let right = answer.status == 200
                                && json["wdl"] == value.wdl().name()
                                && dtm == value.dtm();
                            if !right {
                                tally.wrong.fetch_add(1, Ordering::Relaxed);
                                wrong.push(format!("{text}: {} {json}", answer.status));
                            }
                        }
                        // Bad input: each a 4xx with the API's error shape.
                        12..=14 => {
                            let target = match rng.below(4) {
                                0 => probe_url("mistboard", "", "7/7 r"),
                                1 => "/api/v1/chess?position=x".to_owned(),
                                2 => probe_url("mistboard", "", "7/7/7/7/7/3l3/7/3E3/7 r 500"),
                                _ => "/api/v1/mistboard/stats/QvZ".to_owned(),
                            };
                            let answer = conn.get(&target);
                            tally.bad.fetch_add(1, Ordering::Relaxed);
                            let ok = (400..500).contains(&answer.status)
                                && answer.json()["error"].is_string();
                            if !ok {
                                tally.wrong.fetch_add(1, Ordering::Relaxed);
                                wrong.push(format!("{target}: {}", answer.status));
                            }
                        }
                        // Hostile requests, each on a connection of its own.
                        _ => {
                            let huge = format!(
                                "GET /api/v1/mistboard?position={} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
                                "7".repeat(64 << 10)
                            );
                            let request: Vec<u8> = match rng.below(5) {
                                0 => b"GET /assets/..%2f..%2fCargo.toml HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
                                    .to_vec(),
                                1 => b"GET /assets/../../../../etc/passwd HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
                                    .to_vec(),
                                2 => huge.into_bytes(),
                                3 => b"GET /api/v1/mistboard?position=\xff\xfe%ff HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
                                    .to_vec(),
                                _ => b"POST /api/v1/mistboard HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Length: 1048576\r\n\r\n"
                                    .to_vec(),
                            };
                            tally.hostile.fetch_add(1, Ordering::Relaxed);
                            // Refused (4xx) or the connection closed: never a 2xx or a 5xx.
                            if let Some(status) = raw_status(addr, &request) {
                                if !(400..500).contains(&status) {
                                    tally.wrong.fetch_add(1, Ordering::Relaxed);
                                    wrong.push(format!(
                                        "{}: {status}",
                                        String::from_utf8_lossy(&request[..40.min(request.len())])
                                    ));
                                }
                            }
                        }
                    }
                }
                wrong
            })
        })
        .collect();

    // Meanwhile: a table damaged (a bad copy renamed over it), another replaced by a fresh
    // copy of itself.
    let start = Instant::now();
    thread::sleep(SOAK / 4);
    let mut bytes = fs::read(table(damaged)).unwrap();
    let middle = bytes.len() / 2;
    for b in &mut bytes[middle..middle + 64] {
        *b ^= 0x5a;
    }
    bytes[0] ^= 0xff;
    replace(&table(damaged), &bytes);
    thread::sleep(SOAK / 4);
    let fresh = fs::read(
        spare
            .path()
            .join("mistboard")
            .join(format!("{replaced}.dtm")),
    )
    .unwrap();
    replace(&table(replaced), &fresh);
    thread::sleep(SOAK.saturating_sub(start.elapsed()));
    stop.store(true, Ordering::Relaxed);

    let mut wrong = Vec::new();
    for c in clients {
        wrong.extend(c.join().unwrap());
    }
    drop(slow);
    assert!(server.alive(), "the server died");
    // After it all, good requests still get right answers and the damaged table a 500.
    let mut conn = Conn::open(addr);
    for (text, value, on_damaged) in expected.iter().step_by(7) {
        let answer = conn.get(&probe_url("mistboard", "", text));
        if *on_damaged {
            assert_eq!(answer.status, 500, "{text}");
            assert!(answer.json()["error"].as_str().unwrap().contains(damaged));
        } else {
            assert_eq!(answer.status, 200, "{text}");
            assert_eq!(answer.json()["wdl"], value.wdl().name(), "{text}");
        }
    }
    let index = conn.get("/api/v1/mistboard/materials").json();
    let damaged_listed = index["tables"]
        .as_array()
        .unwrap()
        .iter()
        .any(|m| m["material"] == damaged && m["damaged"].is_string());
    assert!(damaged_listed, "{index}");
    let peak = peak_kib(pid);
    let by_kind: HashMap<&str, u64> = [
        ("good", tally.good.load(Ordering::Relaxed)),
        ("bad", tally.bad.load(Ordering::Relaxed)),
        ("hostile", tally.hostile.load(Ordering::Relaxed)),
        (
            "5xx of the damaged table",
            tally.damaged_5xx.load(Ordering::Relaxed),
        ),
    ]
    .into_iter()
    .collect();
    println!(
        "soak: {} s, {CLIENTS} clients and {SLOW} slow ones: {by_kind:?}, wrong {}, server peak \
         memory {} MiB",
        SOAK.as_secs(),
        wrong.len(),
        peak >> 10
    );
    assert!(
        wrong.is_empty(),
        "wrong answers: {:?}",
        &wrong[..wrong.len().min(10)]
    );
    assert!(by_kind["good"] > 1000, "too few requests: {by_kind:?}");
    // Block caches of 64 MiB a rule set, 8 MiB of answers, the runtime: far below this.
    assert!(peak < 256 << 10, "peak memory {} MiB", peak >> 10);
}
