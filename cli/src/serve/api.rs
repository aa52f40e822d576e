//! The position endpoints of the JSON API, modelled on the lichess tablebase API: a position's
//! value with every move (each describing the position after it, from the view of its side to
//! move, best first), the best lines, the legal moves, and a turn of Animal Gambit played one
//! step at a time. Every answer is the edge's ([`Tables::api_text`], `AnyPosition::moves_json`,
//! `AnyPosition::steps_json`), in the API's words ([`ApiTables`]).
//!
//! An answer whose table blocks are all in memory is computed at once on the async thread;
//! one that must read a block (a file read) runs on tokio's blocking threads ([`probed`]).

use std::sync::Arc;

use axum::{
    extract::State,
    http::{header, HeaderValue, Method, Uri},
    response::{IntoResponse, Response},
    Json,
};
use jtb_edge::{
    api::{self as edge_api, not_turns},
    AnyPosition, Tables,
};

use super::query::{any_position, probed, PositionParams, RulesPath};
use crate::api::{ApiError, Problem};

/// `GET /api/v1/{rules}?position=...[&clock=N]`.
///
/// # Errors
/// 400 for bad input, 404 for a missing table, 500 for a damaged one.
pub async fn probe(
    State(lib): State<Arc<Tables>>,
    RulesPath(rules): RulesPath,
    params: PositionParams,
) -> Result<Response, ApiError> {
    let pos = any_position(rules, &params)?;
    probed(lib, move |lib| answer(lib, &pos, false))
        .await
        .map(json_text)
}

/// `GET /api/v1/{rules}/line?position=...[&clock=N]`: the best line, and the line under the
/// clock rule from the position's clock, each step with its DTM and its DTC.
///
/// # Errors
/// As [`probe`].
pub async fn line(
    State(lib): State<Arc<Tables>>,
    RulesPath(rules): RulesPath,
    params: PositionParams,
) -> Result<Response, ApiError> {
    let pos = any_position(rules, &params)?;
    probed(lib, move |lib| answer(lib, &pos, true))
        .await
        .map(json_text)
}

/// A JSON answer already written as text.
fn json_text(text: String) -> Response {
    let json = HeaderValue::from_static("application/json");
    ([(header::CONTENT_TYPE, json)], text).into_response()
}

/// The edge's answer of a position route ([`Tables::api_text`]), its errors and its `missing`
/// note in the API's words.
///
/// # Errors
/// As [`ApiTables::api_error`].
fn answer(tables: &Tables, pos: &AnyPosition, lines: bool) -> Result<String, ApiError> {
    let rules = pos.rules();
    tables
        .api_text(pos, lines, &|missing| tables.missing_note(rules, missing))
        .map_err(|e| tables.api_error(e, rules))
}

/// `GET /api/v1/{rules}/moves?position=...`: the legal moves, in ASCII order, with the position
/// after each; no tables needed (the explorer plays on where no table answers). With face-down
/// tiles: the moves of the revealed pieces, and the tiles that can be flipped.
///
/// # Errors
/// 400 for bad input, 404 for an unknown rule set.
pub async fn moves(
    RulesPath(rules): RulesPath,
    params: PositionParams,
) -> Result<Json<serde_json::Value>, ApiError> {
    let pos = any_position(rules, &params)?;
    Ok(Json(pos.moves_json()))
}

/// `GET /api/v1/{rules}/steps?position=...&steps=...`: a turn played one step at a time
/// ([`AnyPosition::steps_json`]: Animal Gambit's); no tables needed.
///
/// # Errors
/// 400 for bad input or steps that are no legal beginning of a turn, and for the rule sets
/// whose moves are single steps; 404 for an unknown rule set.
pub async fn turn_steps(
    RulesPath(rules): RulesPath,
    params: PositionParams,
) -> Result<Json<serde_json::Value>, ApiError> {
    // The rule set is refused before the position is read.
    if !rules.has_turns_of_steps() {
        return Err(not_turns(rules));
    }
    let pos = any_position(rules, &params)?;
    let steps = params.steps.as_deref().unwrap_or("");
    Ok(Json(edge_api::turn_steps(&pos, steps)?))
}

/// Any path the server does not know.
pub async fn not_found(uri: Uri) -> ApiError {
    let path = uri.path();
    let shown: String = path.chars().take(100).collect();
    ApiError::not_found(format!("no such page: {}", shown.escape_debug()))
}

/// A known path asked with a method other than GET or HEAD.
pub async fn method_not_allowed(method: Method) -> ApiError {
    ApiError::new(
        Problem::MethodNotAllowed,
        format!("method {method} not allowed: the API answers GET"),
    )
}
