//! What a request names: the rule set in its path, the position and clock in its query, each
//! checked and refused in the project's words; and where its answer is computed.

use jtb_edge::Tables;
use std::sync::Arc;

use axum::{
    extract::{rejection::PathRejection, FromRequestParts, Path},
    http::request::Parts,
};
use jtb_edge::AnyPosition;
use percent_encoding::percent_decode_str;

use crate::api::{ApiError, ApiTables, Problem};
use crate::input::Rules;

/// Runs `answer` on a blocking thread (table reads are file reads, a directory is read for
/// tables that have appeared), once more if it met a missing table that has appeared since
/// ([`ApiTables::answer`]).
///
/// # Errors
/// `answer`'s error; 500 if it panicked.
pub async fn blocking<T: Send + 'static>(
    lib: Arc<Tables>,
    answer: impl Fn(&Tables) -> Result<T, ApiError> + Send + 'static,
) -> Result<T, ApiError> {
    tokio::task::spawn_blocking(move || lib.answer(answer))
        .await
        .map_err(|_| ApiError::internal("internal error"))?
}

/// Runs `answer`, a probe's, at once on this async thread if every table block it reads is in
/// memory (`jtb_probe::in_memory_only`): a warm table's answer then costs no hop to another
/// thread and back. Else, and for a missing table (which may have appeared: a directory read),
/// as [`blocking`].
///
/// # Errors
/// As [`blocking`].
pub async fn probed<T: Send + 'static>(
    lib: Arc<Tables>,
    answer: impl Fn(&Tables) -> Result<T, ApiError> + Send + 'static,
) -> Result<T, ApiError> {
    match jtb_probe::in_memory_only(|| answer(&lib)) {
        Some(Err(e)) if e.problem == Problem::MissingTable => {}
        Some(answered) => return answered,
        None => {}
    }
    blocking(lib, answer).await
}

/// The rule set named in the path (`{rules}`): one of the Jungle family's, or Animal Gambit.
pub struct RulesPath(pub Rules);

impl<S: Send + Sync> FromRequestParts<S> for RulesPath {
    type Rejection = ApiError;

    /// # Errors
    /// 400 for a path that is not UTF-8, 404 for a name that is no rule set (whatever it holds:
    /// it is only compared with the names, never used as a path).
    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<RulesPath, ApiError> {
        let Path(name) = Path::<String>::from_request_parts(parts, state)
            .await
            .map_err(path_error)?;
        rule_set(&name).map(RulesPath)
    }
}

/// A path that axum could not take apart: it is not UTF-8 once percent-decoded (the only way
/// a matched route's parameters fail).
pub fn path_error(_: PathRejection) -> ApiError {
    ApiError::bad_query("the path is not UTF-8 once percent-decoded")
}

pub use jtb_edge::api::rule_set;

/// The query of the position endpoints: `position`, the optional `clock`, and Animal Gambit's
/// `steps` (a turn played so far), as written. Other parameters are ignored, as lichess's API
/// does.
pub struct PositionParams {
    position: Option<String>,
    clock: Option<String>,
    /// The steps of a turn being played (`/steps`), in turn text.
    pub steps: Option<String>,
}

impl<S: Send + Sync> FromRequestParts<S> for PositionParams {
    type Rejection = ApiError;

    /// # Errors
    /// 400 for a query that is not UTF-8 once percent-decoded, or names a parameter twice.
    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<PositionParams, ApiError> {
        let raw = parts.uri.query().unwrap_or("");
        let mut params = PositionParams {
            position: None,
            clock: None,
            steps: None,
        };
        for pair in raw.split('&').filter(|p| !p.is_empty()) {
            let (name, value) = pair.split_once('=').unwrap_or((pair, ""));
            let decode = |s: &str| {
                percent_decode_str(&s.replace('+', " "))
                    .decode_utf8()
                    .map(|s| s.into_owned())
                    .map_err(|_| {
                        ApiError::bad_query("the query string is not UTF-8 once percent-decoded")
                    })
            };
            let (name, value) = (decode(name)?, decode(value)?);
            let slot = match name.as_str() {
                "position" => &mut params.position,
                "clock" => &mut params.clock,
                "steps" => &mut params.steps,
                _ => continue,
            };
            if slot.is_some() {
                return Err(ApiError::bad_query(format!(
                    "query parameter `{name}` given twice (duplicate)"
                )));
            }
            *slot = Some(value);
        }
        Ok(params)
    }
}

/// The position of the query as the game it is, with its clock (the query's `clock`, else the
/// text's, else 0; none in a game without a clock): where each route tells the games apart,
/// once.
///
/// # Errors
/// 400 for missing or bad position text, or a clock that is no number, above the limit or
/// given for a game without one.
pub fn any_position(rules: Rules, params: &PositionParams) -> Result<AnyPosition, ApiError> {
    let text = params
        .position
        .as_deref()
        .ok_or_else(|| ApiError::bad_query("missing query parameter `position`"))?;
    jtb_edge::api::position(rules, text, params.clock.as_deref())
}
