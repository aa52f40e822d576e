//! Running the `jtb` binary in the end-to-end tests.

use std::process::{Command, Output};

/// Runs `jtb` with `args`.
pub fn jtb(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_jtb"))
        .args(args)
        .output()
        .unwrap()
}

/// Standard output as text.
pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// Standard error as text.
pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}
