//! Shared helpers of the end-to-end tests: reference files and solved tables.

use std::path::PathBuf;

/// The directory of the project's reference vectors (`shared/reference` beside the clone), or
/// the directory named by `JTB_REFERENCE_DIR`.
#[must_use]
pub fn reference_dir() -> PathBuf {
    std::env::var_os("JTB_REFERENCE_DIR").map_or_else(
        || PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/reference"),
        PathBuf::from,
    )
}

/// The text of a reference file, or `None` (with a note on stderr saying the test is skipped)
/// when it is absent.
#[must_use]
pub fn reference_file(name: &str) -> Option<String> {
    let path = reference_dir().join(name);
    match std::fs::read_to_string(&path) {
        Ok(text) => Some(text),
        Err(e) => {
            eprintln!(
                "SKIPPED: reference file {} not readable ({e})",
                path.display()
            );
            None
        }
    }
}
