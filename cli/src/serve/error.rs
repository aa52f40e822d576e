//! The one error type of the HTTP API: a status and a message, answered as `{"error": "..."}`.

use std::fmt;

use axum::{
    http::StatusCode,
    response::{IntoResponse, Response},
    Json,
};
use jtb_probe::{ClockError, ParseError};
use serde_json::json;

/// Why a request got no answer, with the status it gets: 4xx for what the client sent or asked
/// for, 500 only for what is wrong on the server (a damaged table file, inconsistent tables).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApiError {
    /// The HTTP status.
    pub status: StatusCode,
    /// One line for a person.
    pub message: String,
}

impl ApiError {
    /// 400: the request is malformed (bad position text, a clock out of range, a bad query).
    pub fn bad_request(message: impl Into<String>) -> ApiError {
        ApiError {
            status: StatusCode::BAD_REQUEST,
            message: message.into(),
        }
    }

    /// 404: no such rule set, route or table.
    pub fn not_found(message: impl Into<String>) -> ApiError {
        ApiError {
            status: StatusCode::NOT_FOUND,
            message: message.into(),
        }
    }

    /// 500: the server's tables are damaged or disagree; never the client's fault.
    pub fn internal(message: impl Into<String>) -> ApiError {
        ApiError {
            status: StatusCode::INTERNAL_SERVER_ERROR,
            message: message.into(),
        }
    }
}

impl fmt::Display for ApiError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.status, self.message)
    }
}

impl std::error::Error for ApiError {}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (self.status, Json(json!({ "error": self.message }))).into_response()
    }
}

impl From<ParseError> for ApiError {
    fn from(e: ParseError) -> ApiError {
        ApiError::bad_request(format!("bad position text: {e}"))
    }
}

impl From<ClockError> for ApiError {
    fn from(e: ClockError) -> ApiError {
        ApiError::bad_request(e.to_string())
    }
}
