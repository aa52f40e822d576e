//! The one error type of the HTTP API: what went wrong, as a kind and a message, answered as
//! `{"error": "...", "code": "..."}` with the kind's status. The server sends it (with the
//! `axum` feature it is a response), and the browser's probe rejects with its message.

use std::fmt;

use jtb_probe::{ClockError, ParseError};

use crate::PositionError;

/// What kind of problem a request met: the page chooses what it offers by it (a bad position is
/// not drawn, a missing table still lets the user play on), and each kind has one status.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Problem {
    /// Position text that does not parse or breaks the placement rules (400).
    BadPosition,
    /// A clock that is not a number of half-moves, or above the rule set's limit (400).
    BadClock,
    /// A malformed query: not UTF-8, a parameter twice, a missing parameter (400).
    BadQuery,
    /// A material name that does not parse (400).
    BadMaterial,
    /// Animal Gambit steps that are no legal beginning of a turn (400).
    BadTurn,
    /// The game is over in the position: a side has no piece left (400).
    GameOver,
    /// Flip position with face-down tiles: no table holds it (400).
    HiddenTiles,
    /// A value the rule set's tables do not hold (Clesto has no draws, DTC or clock rule) (400).
    NotForRules,
    /// No such rule set (404).
    UnknownRules,
    /// A table that is not there, or a rule set without tables (404).
    MissingTable,
    /// No such page, asset or route (404).
    NotFound,
    /// Another method than GET or HEAD (405).
    MethodNotAllowed,
    /// A damaged table file, or tables that disagree: the server's fault (500).
    DamagedTable,
    /// A bug: never the client's fault (500).
    Internal,
    /// A request body over the bound (413).
    TooLarge,
    /// A client over its request rate (429, with `Retry-After`).
    RateLimited,
    /// The server is at its cap of requests in flight, or the request ran out of time (503).
    Busy,
}

impl Problem {
    /// The code of the answer's `code` field.
    #[must_use]
    pub const fn code(self) -> &'static str {
        match self {
            Problem::BadPosition => "bad-position",
            Problem::BadClock => "bad-clock",
            Problem::BadQuery => "bad-query",
            Problem::BadMaterial => "bad-material",
            Problem::BadTurn => "bad-turn",
            Problem::GameOver => "game-over",
            Problem::HiddenTiles => "hidden-tiles",
            Problem::NotForRules => "not-for-rules",
            Problem::UnknownRules => "unknown-rules",
            Problem::MissingTable => "missing-table",
            Problem::NotFound => "not-found",
            Problem::MethodNotAllowed => "method-not-allowed",
            Problem::DamagedTable => "damaged-table",
            Problem::Internal => "internal",
            Problem::TooLarge => "too-large",
            Problem::RateLimited => "rate-limited",
            Problem::Busy => "busy",
        }
    }

    /// The HTTP status of the kind.
    #[must_use]
    pub const fn status(self) -> u16 {
        match self {
            Problem::BadPosition
            | Problem::BadClock
            | Problem::BadQuery
            | Problem::BadMaterial
            | Problem::BadTurn
            | Problem::GameOver
            | Problem::HiddenTiles
            | Problem::NotForRules => 400,
            Problem::UnknownRules | Problem::MissingTable | Problem::NotFound => 404,
            Problem::MethodNotAllowed => 405,
            Problem::DamagedTable | Problem::Internal => 500,
            Problem::TooLarge => 413,
            Problem::RateLimited => 429,
            Problem::Busy => 503,
        }
    }
}

/// Why a request got no answer: 4xx for what the client sent or asked for, 500 only for what
/// is wrong on the server (a damaged table file, inconsistent tables).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApiError {
    /// What kind of problem it is (and so the status).
    pub problem: Problem,
    /// One line for a person.
    pub message: String,
}

impl ApiError {
    /// An error of kind `problem`.
    pub fn new(problem: Problem, message: impl Into<String>) -> ApiError {
        ApiError {
            problem,
            message: message.into(),
        }
    }

    /// 400, a malformed query.
    pub fn bad_query(message: impl Into<String>) -> ApiError {
        ApiError::new(Problem::BadQuery, message)
    }

    /// 404, no such page or route.
    pub fn not_found(message: impl Into<String>) -> ApiError {
        ApiError::new(Problem::NotFound, message)
    }

    /// 500, a bug.
    pub fn internal(message: impl Into<String>) -> ApiError {
        ApiError::new(Problem::Internal, message)
    }

    /// The HTTP status.
    #[must_use]
    pub const fn status(&self) -> u16 {
        self.problem.status()
    }
}

impl fmt::Display for ApiError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} ({}): {}",
            self.status(),
            self.problem.code(),
            self.message
        )
    }
}

impl std::error::Error for ApiError {}

#[cfg(feature = "axum")]
impl axum::response::IntoResponse for ApiError {
    fn into_response(self) -> axum::response::Response {
        let body = serde_json::json!({ "error": self.message, "code": self.problem.code() });
        let status = axum::http::StatusCode::from_u16(self.status())
            .expect("every problem's status is a status code");
        (status, axum::Json(body)).into_response()
    }
}

impl From<ParseError> for ApiError {
    fn from(e: ParseError) -> ApiError {
        let problem = match e {
            ParseError::ClockTooHigh(_) => Problem::BadClock,
            _ => Problem::BadPosition,
        };
        ApiError::new(problem, format!("bad position text: {e}"))
    }
}

impl From<ClockError> for ApiError {
    fn from(e: ClockError) -> ApiError {
        ApiError::new(Problem::BadClock, e.to_string())
    }
}

impl From<PositionError> for ApiError {
    fn from(e: PositionError) -> ApiError {
        match e {
            PositionError::Parse(e) => e.into(),
            PositionError::Clock(e) => e.into(),
            e => ApiError::new(Problem::BadPosition, format!("bad position text: {e}")),
        }
    }
}
