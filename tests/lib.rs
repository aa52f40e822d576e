//! End-to-end tests live in this package's `tests/` folder; see `cli.rs` and friends.
