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
