//! The HTTP API's answers apart from HTTP: its one error type ([`ApiError`]) and what it says of
//! the tables' errors, each file named relative to the table root ([`Tables::api_error`]). The
//! server (`jtb serve`) and the browser's probe (the WebAssembly package) answer in these
//! words, so that an error reads the same from either.

mod error;
mod words;

pub use error::{ApiError, Problem};
pub use words::{
    no_tables, not_turns, open_error, position, rule_set, turn_steps, MAX_POSITION_BYTES,
};
