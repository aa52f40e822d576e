//! `jtb serve` as a process: a closed output pipe does not stop it, and SIGTERM ends it cleanly.

use std::{
    process::{Command, Stdio},
    thread,
    time::{Duration, Instant},
};

/// `jtb serve | true`: the pipe is closed before the server says where it listens. The server
/// goes on serving without a panic, and exits 0 on SIGTERM.
#[test]
fn a_closed_output_pipe_is_no_panic_and_sigterm_exits_cleanly() {
    let empty = tempfile::tempdir().unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_jtb"))
        .args(["serve", "--addr", "127.0.0.1:0", "--tables"])
        .arg(empty.path())
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // The reader goes away at once, as `true` does.
    drop(child.stdout.take());
    // Long enough to have bound the socket and written its line into the closed pipe.
    thread::sleep(Duration::from_millis(1500));
    assert!(
        child.try_wait().unwrap().is_none(),
        "the server stopped when its output pipe closed"
    );
    let term = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(term.success());
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "no exit after SIGTERM"
        );
        thread::sleep(Duration::from_millis(50));
    };
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(status.code(), Some(0), "{err}");
    assert!(!err.contains("panicked"), "{err}");
}

/// `--log-level info --log-json`: every request is one JSON line on standard error with its
/// method, path, status, client and time; the default level logs no good answer.
#[test]
fn the_request_log_has_a_line_per_request_at_info() {
    use std::io::{BufRead, BufReader, Read, Write};
    let empty = tempfile::tempdir().unwrap();
    let serve = |options: &[&str]| {
        let mut child = Command::new(env!("CARGO_BIN_EXE_jtb"))
            .args(["serve", "--addr", "127.0.0.1:0", "--tables"])
            .arg(empty.path())
            .args(options)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        let addr = line
            .trim()
            .strip_prefix("listening on http://")
            .unwrap()
            .to_owned();
        for target in ["/api/v1/flip4x4/moves?position=4/4/4/c2L%20r", "/nowhere"] {
            let mut conn = std::net::TcpStream::connect(&addr).unwrap();
            write!(
                conn,
                "GET {target} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
            )
            .unwrap();
            let mut answer = Vec::new();
            conn.read_to_end(&mut answer).unwrap();
        }
        let _ = child.kill();
        let out = child.wait_with_output().unwrap();
        String::from_utf8_lossy(&out.stderr).into_owned()
    };
    let log = serve(&["--log-level", "info", "--log-json"]);
    let lines: Vec<serde_json::Value> = log
        .lines()
        .filter_map(|l| serde_json::from_str(l).ok())
        .collect();
    let request = |status: u64| {
        lines
            .iter()
            .find(|l| l["fields"]["status"] == status)
            .unwrap_or_else(|| panic!("no {status} line in {log}"))
    };
    let ok = &request(200)["fields"];
    assert_eq!(ok["method"], "GET");
    assert!(ok["uri"]
        .as_str()
        .unwrap()
        .starts_with("/api/v1/flip4x4/moves?position="));
    assert_eq!(ok["client"], "127.0.0.1");
    assert!(ok["micros"].is_u64());
    assert_eq!(request(200)["level"], "INFO");
    assert_eq!(request(404)["fields"]["uri"], "/nowhere");
    // The default level keeps good answers and 4xx out of the log.
    let quiet = serve(&[]);
    assert!(
        !quiet.contains("/nowhere") && !quiet.contains("moves?"),
        "{quiet}"
    );
}
