//! `jtb serve`'s JSON API over a real bound port: every field checked against the probe
//! library on generated tables, every error status, hostile requests, damaged and missing
//! tables, and concurrent clients.

mod serve_support;

use std::{path::Path, thread};

use jtb_probe::{adjudicate, Move, MoveKind, Outcome, Piece, Position, RuleSet, Tablebase, Value};
use serde_json::{json, Value as Json};
use serve_support::{enc, gen, get, probe_url, random_positions, raw_status, Conn, Rng, Server};

/// The tables of these tests: `LRvE` (wins up to 35 plies, a DTC of 7 in the README's example,
/// captures into `EvL` and `EvR`) and the flip game's `LRvE` with its one-animal-each tables.
fn tables(dir: &Path) {
    gen(dir, "mistboard", &["LRvE"]);
    gen(dir, "flip4x4", &["LRvE"]);
}

fn pieces(letters: &str) -> Vec<Piece> {
    letters
        .chars()
        .map(|c| Piece::from_letter(c).unwrap())
        .collect()
}

fn name_of(v: Value) -> &'static str {
    v.wdl().name()
}

/// The answer expected for the position after `mv` (or the end of the game it brings).
fn expected_move(tb: &Tablebase, pos: &Position, mv: Move) -> Json {
    let capture = matches!(pos.move_kind(mv), Some(MoveKind::Capture | MoveKind::Trade));
    match pos.play(mv).unwrap() {
        Outcome::Over { result, reason } => {
            let after = result.flipped();
            let dtm = (after != jtb_probe::Wdl::Draw).then_some(0);
            json!({"move": mv.to_string(), "position": null, "capture": capture,
                   "end": reason.to_string(), "wdl": after.name(), "dtm": dtm, "dtc": dtm,
                   "category": after.name(), "clock": null, "rule_wdl": after.name()})
        }
        Outcome::Ongoing(next) => {
            let v = tb.probe_dtm(&next).unwrap();
            let r = tb.probe_rule(&next).unwrap();
            json!({"move": mv.to_string(), "position": next.to_string(), "capture": capture,
                   "end": null, "wdl": name_of(v), "dtm": v.dtm(), "dtc": r.dtc.dtm(),
                   "category": r.category.name(), "clock": r.clock, "rule_wdl": r.wdl.name()})
        }
    }
}

/// Checks every field of a probe answer against the library: the value, DTM, best move, DTC,
/// category, clock and rule value, and each move's position and values; and that the moves are
/// every legal move, best first (shortest win, draws, longest loss; ties in ASCII order).
fn check_answer(tb: &Tablebase, pos: &Position, answer: &Json) {
    let value = tb.probe_dtm(pos).unwrap();
    let rule = tb.probe_rule(pos).unwrap();
    let best = match value {
        Value::Draw => None,
        _ => tb.best_move(pos).unwrap().map(|m| m.mv.to_string()),
    };
    let expected = json!({
        "position": pos.to_string(), "rules": pos.rules().name(), "wdl": name_of(value),
        "dtm": value.dtm(), "best": best, "dtc": rule.dtc.dtm(), "category": rule.category.name(),
        "clock": rule.clock, "rule_wdl": rule.wdl.name(),
    });
    for (k, v) in expected.as_object().unwrap() {
        assert_eq!(&answer[k], v, "{k} of {pos}");
    }
    let moves = answer["moves"].as_array().unwrap();
    let mut listed: Vec<String> = moves
        .iter()
        .map(|m| m["move"].as_str().unwrap().to_owned())
        .collect();
    // Best first: the mover's value never rises, and equal values go in ASCII order.
    let scored = tb.scored_moves(pos).unwrap();
    let scores: Vec<(Value, Move)> = listed
        .iter()
        .map(|m| {
            let mv = Move::parse(m, pos).unwrap();
            (scored.iter().find(|x| x.mv == mv).unwrap().value, mv)
        })
        .collect();
    for w in scores.windows(2) {
        assert!(
            w[0].0 > w[1].0 || (w[0].0 == w[1].0 && w[0].1 < w[1].1),
            "{pos}: {w:?}"
        );
    }
    if let Some(best) = &answer["best"].as_str() {
        assert_eq!(*best, listed[0]);
    }
    for m in moves {
        let mv = Move::parse(m["move"].as_str().unwrap(), pos).unwrap();
        assert_eq!(m, &expected_move(tb, pos, mv), "{pos}");
    }
    listed.sort();
    let legal: Vec<String> = pos.legal_moves().iter().map(|m| m.to_string()).collect();
    assert_eq!(listed, legal, "{pos}");
}

#[test]
fn every_field_agrees_with_the_library() {
    let dir = tempfile::tempdir().unwrap();
    tables(dir.path());
    let server = Server::start(dir.path());
    let tb = Tablebase::open(dir.path(), RuleSet::Mistboard).unwrap();
    let mut conn = Conn::open(server.addr);
    let mut rng = Rng(0x5eed);
    let mut positions = random_positions(RuleSet::Mistboard, &pieces("LRe"), 150, &mut rng);
    positions.extend(random_positions(
        RuleSet::Mistboard,
        &pieces("Le"),
        30,
        &mut rng,
    ));
    let mut kinds = std::collections::BTreeSet::new();
    for (i, mut pos) in positions.into_iter().enumerate() {
        // Every third position at a random clock: given in the text or as `&clock=`.
        let clock = (i % 3 == 0).then(|| rng.below(101) as u32);
        let mut url = probe_url("mistboard", "", &pos.to_string());
        if let Some(c) = clock {
            url += &format!("&clock={c}");
        }
        pos.set_rule_clock(clock).unwrap();
        let r = conn.get(&url);
        assert_eq!(r.status, 200, "{}", String::from_utf8_lossy(&r.body));
        let answer = r.json();
        check_answer(&tb, &pos, &answer);
        kinds.insert((answer["wdl"].to_string(), answer["rule_wdl"].to_string()));
    }
    // Wins, draws and losses, and wins the clock turns into draws, were all seen.
    assert!(kinds.len() >= 4, "{kinds:?}");

    // The README's example: DTC 7, so a dead draw from clock 94.
    let text = "7/7/7/7/7/7/2L4/1e5/R6 r";
    let a = conn
        .get(&(probe_url("mistboard", "", text) + "&clock=94"))
        .json();
    assert_eq!(
        (&a["wdl"], &a["dtm"], &a["dtc"], &a["rule_wdl"], &a["best"]),
        (
            &json!("win"),
            &json!(35),
            &json!(7),
            &json!("draw"),
            &json!("a1b1")
        )
    );
    assert_eq!(a["position"], "7/7/7/7/7/7/2L4/1e5/R6 r 94");
    // The text's clock counts when no `&clock=` is given.
    let b = conn
        .get(&probe_url("mistboard", "", "7/7/7/7/7/7/2L4/1e5/R6 r 94 3"))
        .json();
    assert_eq!(
        (b["clock"].clone(), b["rule_wdl"].clone()),
        (json!(94), json!("draw"))
    );
}

/// The probe fields mean what they mean in `jtb probe --json`.
#[test]
fn fields_mean_what_jtb_probe_says() {
    let dir = tempfile::tempdir().unwrap();
    tables(dir.path());
    let server = Server::start(dir.path());
    let texts = [
        "7/7/7/7/7/7/2L4/1e5/R6 r",
        "7/7/7/7/7/7/2L4/1e5/R6 b 40",
        "7/3e3/7/7/7/7/7/2L4/R6 b",
        "4/4/1R2/L2e r 12",
    ];
    for text in texts {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_jtb"))
            .args(["probe", "--json", "--tables"])
            .arg(dir.path())
            .arg(text)
            .output()
            .unwrap();
        let cli: Json = serde_json::from_slice(&out.stdout).unwrap();
        let rules = if text.split('/').count() == 4 {
            "flip4x4"
        } else {
            "mistboard"
        };
        let api = get(server.addr, &probe_url(rules, "", text)).json();
        for k in [
            "rules", "wdl", "dtm", "best", "dtc", "category", "clock", "rule_wdl",
        ] {
            assert_eq!(api[k], cli[k], "{k} of {text}");
        }
    }
}

#[test]
fn lines_and_moves_agree_with_the_library() {
    let dir = tempfile::tempdir().unwrap();
    tables(dir.path());
    let server = Server::start(dir.path());
    let tb = Tablebase::open(dir.path(), RuleSet::Mistboard).unwrap();
    let mut conn = Conn::open(server.addr);
    let mut rng = Rng(77);
    for pos in random_positions(RuleSet::Mistboard, &pieces("LRe"), 25, &mut rng) {
        for clock in [0, 70, 95] {
            let mut pos = pos.clone();
            pos.set_rule_clock(Some(clock)).unwrap();
            let a = conn
                .get(&probe_url("mistboard", "/line", &pos.to_string()))
                .json();
            // The line's positions carry the clock as the line is played from `pos`.
            let mut current = pos.clone();
            let plain: Vec<Json> = tb
                .line(&pos)
                .unwrap()
                .iter()
                .map(|s| {
                    let after = match current.play(s.mv).unwrap() {
                        Outcome::Ongoing(next) => Some(next),
                        Outcome::Over { .. } => None,
                    };
                    assert_eq!(after.as_ref().map(Position::without_clocks), s.position);
                    if let Some(next) = &after {
                        current = next.clone();
                    }
                    json!({"move": s.mv.to_string(), "position": after.map(|p| p.to_string()),
                           "wdl": s.value.map(name_of), "dtm": s.value.and_then(Value::dtm)})
                })
                .collect();
            let rule: Vec<Json> = tb.rule_line(&pos).unwrap().iter().map(|s| {
                json!({"move": s.mv.to_string(), "position": s.position.as_ref().map(ToString::to_string),
                       "clock": s.value.map(|v| v.clock), "rule_wdl": s.value.map(|v| v.wdl.name()),
                       "dtc": s.value.and_then(|v| v.dtc.dtm())})
            }).collect();
            assert_eq!(a["line"], json!(plain), "{pos}");
            assert_eq!(a["rule_line"], json!(rule), "{pos}");
            assert_eq!(a["clock"], clock);
            let m = conn
                .get(&probe_url("mistboard", "/moves", &pos.to_string()))
                .json();
            let legal: Vec<String> = pos.legal_moves().iter().map(|m| m.to_string()).collect();
            let listed: Vec<&str> = m["moves"]
                .as_array()
                .unwrap()
                .iter()
                .map(|m| m["move"].as_str().unwrap())
                .collect();
            assert_eq!(listed, legal);
        }
    }
}

/// The statistics are the objects of `jtb stats --json`, for either orientation of a material.
#[test]
fn stats_agree_with_jtb_stats() {
    let dir = tempfile::tempdir().unwrap();
    tables(dir.path());
    let server = Server::start(dir.path());
    let mut conn = Conn::open(server.addr);

    let out = std::process::Command::new(env!("CARGO_BIN_EXE_jtb"))
        .args(["stats", "--json", "--tables"])
        .arg(dir.path())
        .output()
        .unwrap();
    let cli: Vec<Json> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    for (material, canonical, depends) in [
        ("LRvE", "LRvE", vec!["EvL", "EvR"]),
        ("EvLR", "LRvE", vec!["EvL", "EvR"]),
        ("EvR", "EvR", vec![]),
    ] {
        let r = conn.get(&format!("/api/v1/mistboard/stats/{material}"));
        assert_eq!(r.status, 200);
        let s = r.json();
        let expected: Vec<&Json> = cli.iter().filter(|o| o["material"] == canonical).collect();
        assert_eq!(
            s["stats"].as_array().unwrap().iter().collect::<Vec<_>>(),
            expected
        );
        assert_eq!(s["material"], canonical);
        let mut listed: Vec<&str> = s["depends_on"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m.as_str().unwrap())
            .collect();
        listed.sort_unstable();
        assert_eq!(listed, depends);
    }
    let index = conn.get("/api/v1").json();
    assert_eq!(
        index["rule_sets"][0],
        json!({"rules": "mistboard", "tables": 3, "max_pieces": 3, "error": null})
    );
    let materials = conn.get("/api/v1/mistboard/materials").json();
    assert_eq!(materials["materials"], json!(["EvL", "EvR", "LRvE"]));
}

/// One animal each in the flip game: the built-in check answers without any table, and agrees
/// with the tables where they exist.
#[test]
fn flip_one_each_needs_no_tables() {
    let empty = tempfile::tempdir().unwrap();
    let bare = Server::start(empty.path());
    let dir = tempfile::tempdir().unwrap();
    tables(dir.path());
    let tb = Tablebase::open(dir.path(), RuleSet::Flip4x4).unwrap();
    let mut conn = Conn::open(bare.addr);
    let mut rng = Rng(4242);
    let mut seen = std::collections::BTreeSet::new();
    for letters in ["Le", "El", "Re", "Er"] {
        for mut pos in random_positions(RuleSet::Flip4x4, &pieces(letters), 40, &mut rng) {
            pos.set_rule_clock(Some(rng.below(41) as u32)).unwrap();
            let r = conn.get(&probe_url("flip4x4", "", &pos.to_string()));
            assert_eq!(r.status, 200, "{}", String::from_utf8_lossy(&r.body));
            let a = r.json();
            check_answer(&tb, &pos, &a);
            // The library's adjudication says the same at the position's clock.
            let verdict = adjudicate(None, &pos).unwrap();
            assert_eq!(a["rule_wdl"], verdict.rule_wdl().unwrap().name(), "{pos}");
            seen.insert(a["rule_wdl"].to_string());
            let line = conn
                .get(&probe_url("flip4x4", "/line", &pos.to_string()))
                .json();
            let plain: Vec<String> = tb
                .line(&pos)
                .unwrap()
                .iter()
                .map(|s| s.mv.to_string())
                .collect();
            let rule: Vec<String> = tb
                .rule_line(&pos)
                .unwrap()
                .iter()
                .map(|s| s.mv.to_string())
                .collect();
            let moves = |k: &str| -> Vec<String> {
                line[k]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|s| s["move"].as_str().unwrap().to_owned())
                    .collect()
            };
            assert_eq!(moves("line"), plain, "{pos}");
            assert_eq!(moves("rule_line"), rule, "{pos}");
        }
    }
    assert_eq!(seen.len(), 3, "{seen:?}");
    // More than one animal a side needs the tables, which this server has not.
    let r = conn.get(&probe_url("flip4x4", "", "4/4/1R2/L2e r"));
    assert_eq!(r.status, 404);
    assert!(r.json()["error"].as_str().unwrap().contains("flip4x4"));
}

/// A position the tables of these tests answer.
const OK: &str = "7/7/7/7/7/7/2L4/1e5/R6 r";

/// Requests that must fail: the target, its status, and words of its error.
fn error_cases() -> Vec<(String, u16, &'static str)> {
    let p = |rules: &str, path: &str, text: &str| probe_url(rules, path, text);
    let ok = |extra: &str| probe_url("mistboard", "", OK) + extra;
    let stats = |m: &str| format!("/api/v1/mistboard/stats/{m}");
    let long = "7/".repeat(200) + " r";
    vec![
        (p("mistboard", "", "7/7/7 r"), 400, "ranks"),
        (
            p("mistboard", "", "7/7/7/7/7/7/2L4/1e5/X6 r"),
            400,
            "bad position",
        ),
        (
            p("mistboard", "", "7/7/7/7/7/7/2L4/1e5/R6 x"),
            400,
            "bad position",
        ),
        (
            p("mistboard", "", "7/7/7/7/7/7/2L4/1e5/R6 r 101"),
            400,
            "above the limit",
        ),
        (ok("&clock=101"), 400, "above the limit"),
        (ok("&clock=-1"), 400, "clock"),
        (ok("&clock=99999999999"), 400, "clock"),
        (ok("&position=x"), 400, "duplicate"),
        (
            p("flip4x4", "", "4/4/4/c2L r") + "&clock=41",
            400,
            "above the limit",
        ),
        (
            "/api/v1/mistboard".into(),
            400,
            "missing query parameter `position`",
        ),
        ("/api/v1/mistboard?position=%FF%FE".into(), 400, "not UTF-8"),
        (p("mistboard", "", &long), 400, "at most"),
        (p("mistboard", "", "7/7/7/7/7/7/7/7/R6 r"), 400, "game over"),
        (p("flip4x4", "", "4/4/1?2/L2e r"), 400, "face-down"),
        (p("mistboard", "", "4/4/4/c2L r"), 400, "ranks"),
        (p("leiden", "", OK), 404, "no tables in leiden"),
        (p("chess", "", OK), 404, "unknown rule set"),
        (p("..%2F..%2Fetc%2Fpasswd", "", OK), 404, "unknown rule set"),
        (p("%2e%2e", "/line", OK), 404, "unknown rule set"),
        (
            p("mistboard", "", "7/7/7/7/7/7/2L4/1e5/RT5 r"),
            404,
            "more than the tables cover",
        ),
        (
            p("mistboard", "", "7/7/7/7/7/7/2L4/1t5/R6 r"),
            404,
            "missing table LRvT (mistboard/LRvT.dtm",
        ),
        (
            p("mistboard", "/line", "7/7/7/7/7/7/2L4/1t5/R6 r"),
            404,
            "missing table LRvT",
        ),
        (stats("LTvE"), 404, "missing table LTvE: mistboard/LTvE.dtm"),
        (stats("ELTPWDCvRE"), 404, "at most"),
        (stats("..%2F..%2Fetc%2Fpasswd"), 400, "bad material"),
        (stats("LLvE"), 400, "bad material"),
        (stats("LvE.dtm"), 400, "bad material"),
        (stats(&"L".repeat(1000)), 400, "at most"),
        (
            "/api/v1/leiden/stats/LRvE".into(),
            404,
            "no tables in leiden",
        ),
        (
            "/api/v1/leiden/materials".into(),
            404,
            "no tables in leiden",
        ),
        ("/api/v1/../../etc/passwd".into(), 404, "no such page"),
        ("/assets/../../Cargo.toml".into(), 404, "no such"),
        ("/assets/app.js.map".into(), 404, "no such asset"),
        ("/etc/passwd".into(), 404, "no such page"),
        ("/api/v1/%FF?position=x".into(), 400, "UTF-8"),
        (stats("%FF"), 400, "UTF-8"),
        ("/assets/%FF".into(), 400, "UTF-8"),
    ]
}

/// Each error answers JSON `{"error": ...}` with its status: 400 for bad input, 404 for what is
/// not there, 405 for other methods; never 500.
#[test]
fn errors_have_their_status() {
    let dir = tempfile::tempdir().unwrap();
    tables(dir.path());
    let server = Server::start(dir.path());
    let mut conn = Conn::open(server.addr);
    for (url, status, says) in &error_cases() {
        let r = conn.get(url);
        let body = String::from_utf8_lossy(&r.body).into_owned();
        assert_eq!(r.status, *status, "{url}: {body}");
        assert_eq!(r.header("content-type"), Some("application/json"), "{url}");
        let error = r.json()["error"].as_str().unwrap().to_owned();
        assert!(error.contains(says), "{url}: {error}");
        // No answer tells where the server keeps its tables.
        let root = dir.path().to_str().unwrap();
        assert!(!error.contains(root), "{url}: {error}");
    }
    let post = "POST /api/v1/mistboard HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n";
    let post = conn.send(post.as_bytes());
    assert_eq!(post.status, 405);
    assert!(post.json()["error"].as_str().unwrap().contains("GET"));
}

#[test]
fn cors_is_open_for_get() {
    let dir = tempfile::tempdir().unwrap();
    tables(dir.path());
    let server = Server::start(dir.path());
    let mut conn = Conn::open(server.addr);
    let origin = "Host: x\r\nOrigin: https://example.org\r\n";
    let target = probe_url("mistboard", "", OK);
    let r = conn.send(format!("GET {target} HTTP/1.1\r\n{origin}\r\n").as_bytes());
    assert_eq!(r.status, 200);
    assert_eq!(r.header("access-control-allow-origin"), Some("*"));
    let preflight = format!(
        "OPTIONS /api/v1/mistboard HTTP/1.1\r\n{origin}Access-Control-Request-Method: GET\r\n\r\n"
    );
    let r = conn.send(preflight.as_bytes());
    assert_eq!(r.status, 200);
    let methods = r.header("access-control-allow-methods").unwrap();
    assert!(methods.contains("GET"), "{methods}");
}

/// Raw requests no client library would send (bytes that are not UTF-8 in the path and the
/// query, a megabyte of query or header, no HTTP at all, dot segments) get a 4xx, never a 5xx,
/// and the server goes on.
#[test]
fn hostile_requests_get_a_4xx() {
    let dir = tempfile::tempdir().unwrap();
    tables(dir.path());
    let mut server = Server::start(dir.path());
    let close = "Host: x\r\nConnection: close\r\n";
    let mut raw: Vec<Vec<u8>> = vec![
        b"GET /api/v1/\xff\xfe?position=\xff HTTP/1.1\r\n".to_vec(),
        b"GET /api/v1/mistboard?position=7/7/7/7/7/7/2L4/1e5/R6\xc0 r HTTP/1.1\r\n".to_vec(),
        format!(
            "GET /api/v1/mistboard?position={} HTTP/1.1\r\n",
            "7".repeat(1 << 20)
        )
        .into_bytes(),
        format!(
            "GET /api/v1/mistboard HTTP/1.1\r\nX-Big: {}\r\n",
            "a".repeat(1 << 20)
        )
        .into_bytes(),
        b"GET /../../../../etc/passwd HTTP/1.1\r\n".to_vec(),
    ];
    for request in &mut raw {
        request.extend_from_slice(close.as_bytes());
        request.extend_from_slice(b"\r\n");
    }
    raw.push(b"GARBAGE\r\n\r\n".to_vec());
    for request in &raw {
        let status = raw_status(server.addr, request);
        let head = String::from_utf8_lossy(&request[..60.min(request.len())]).into_owned();
        let client_error = status.is_some_and(|s| (400..500).contains(&s));
        assert!(client_error, "{status:?} for {head:?}");
    }
    assert!(server.alive());
    assert_eq!(
        get(server.addr, &probe_url("mistboard", "", OK)).status,
        200
    );
}

/// A damaged table answers 500 naming its file, a missing one 404 naming it; everything else
/// is still served.
#[test]
fn damaged_and_missing_tables_are_named_and_the_rest_served() {
    let dir = tempfile::tempdir().unwrap();
    tables(dir.path());
    let root = dir.path().join("mistboard");
    // Truncate LRvE's DTM file and remove EvL's DTC file.
    let dtm = root.join("LRvE.dtm");
    let len = std::fs::metadata(&dtm).unwrap().len();
    std::fs::OpenOptions::new()
        .write(true)
        .open(&dtm)
        .unwrap()
        .set_len(len / 2)
        .unwrap();
    std::fs::remove_file(root.join("EvL.dtc")).unwrap();
    let mut server = Server::start(dir.path());
    let mut conn = Conn::open(server.addr);
    let r = conn.get(&probe_url("mistboard", "", "7/7/7/7/7/7/2L4/1e5/R6 r"));
    assert_eq!(r.status, 500);
    let error = r.json()["error"].as_str().unwrap().to_owned();
    assert!(error.starts_with("mistboard/LRvE.dtm: "), "{error}");
    let r = conn.get("/api/v1/mistboard/stats/LRvE");
    assert_eq!(r.status, 500);
    assert!(r.json()["error"]
        .as_str()
        .unwrap()
        .contains("mistboard/LRvE.dtm"));
    let r = conn.get(&probe_url("mistboard", "", "7/7/7/7/7/7/2L4/1e5/7 r"));
    assert_eq!(r.status, 404);
    assert!(r.json()["error"]
        .as_str()
        .unwrap()
        .contains("mistboard/EvL.dtc"));
    // The intact table and the other rule set still answer, again and again.
    for _ in 0..3 {
        let r = conn.get(&probe_url("mistboard", "", "7/7/7/7/7/7/7/1e5/R6 r"));
        assert_eq!(r.status, 200);
        let r = conn.get(&probe_url("flip4x4", "", "4/4/1R2/L2e r"));
        assert_eq!(r.status, 200);
    }
    assert!(server.alive());
}

/// Many clients at once, each on its own kept-alive connection, all get right answers.
#[test]
fn concurrent_clients_get_right_answers() {
    let dir = tempfile::tempdir().unwrap();
    tables(dir.path());
    let server = Server::start(dir.path());
    let tb = Tablebase::open(dir.path(), RuleSet::Mistboard).unwrap();
    let positions = random_positions(RuleSet::Mistboard, &pieces("LRe"), 400, &mut Rng(9));
    const CLIENTS: usize = 16;
    thread::scope(|s| {
        for client in 0..CLIENTS {
            let (tb, positions, addr) = (&tb, &positions, server.addr);
            s.spawn(move || {
                let mut conn = Conn::open(addr);
                for pos in positions.iter().skip(client).step_by(CLIENTS / 2) {
                    let mut pos = pos.clone();
                    pos.set_rule_clock(Some((client * 7 % 101) as u32)).unwrap();
                    let r = conn.get(&probe_url("mistboard", "", &pos.to_string()));
                    assert_eq!(r.status, 200);
                    check_answer(tb, &pos, &r.json());
                }
            });
        }
    });
    // The same position from every client: one answer.
    let text = enc("7/7/7/7/7/7/2L4/1e5/R6 r 12");
    let answers: Vec<Vec<u8>> = thread::scope(|s| {
        let handles: Vec<_> = (0..CLIENTS)
            .map(|_| {
                s.spawn(|| get(server.addr, &format!("/api/v1/mistboard?position={text}")).body)
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    assert!(answers.windows(2).all(|w| w[0] == w[1]));
}
