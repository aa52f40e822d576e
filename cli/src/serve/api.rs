//! The position endpoints of the JSON API, modelled on the lichess tablebase API: a position's
//! value with every move (each describing the position after it, from the view of its side to
//! move, best first), the best lines, and the legal moves. Each route asks the position's game
//! through [`Routes`], implemented in the game's module (`jungle`, which hands positions with
//! face-down tiles to `flip`; `clesto`; `gambit`) and reached through [`jtb_edge::each_game!`].
//!
//! An answer whose table blocks are all in memory is computed at once on the async thread;
//! one that must read a block (a file read) runs on tokio's blocking threads ([`probed`]).

use std::sync::Arc;

use axum::{
    extract::State,
    http::{Method, Uri},
    response::Response,
    Json,
};
use jtb_edge::{each_game, AnyPosition, Rules};

use super::{
    error::{ApiError, Problem},
    gambit,
    query::{any_position, probed, PositionParams, RulesPath},
    source::Library,
};

/// What the position routes ask of a game: implemented once per game, in its module
/// (`jungle`, `clesto`, `gambit`), on the edge's type for it, and reached through the edge's
/// one list of the games ([`jtb_edge::each_game!`]). The answers are the edge's; a game's
/// module finds its tables and prints them. The moves need no tables: the edge's
/// `AnyPosition::moves_json` answers them.
pub trait Routes {
    /// The game's position type.
    type Position;

    /// The answer of `GET /api/v1/{rules}`: a response, so that each game serializes its own
    /// typed answer without building a JSON value first.
    ///
    /// # Errors
    /// A missing table (404), a damaged one (500).
    fn probe(lib: &Library, pos: &Self::Position) -> Result<Response, ApiError>;

    /// The answer of `GET /api/v1/{rules}/line`.
    ///
    /// # Errors
    /// As [`Routes::probe`].
    fn line(lib: &Library, pos: &Self::Position) -> Result<serde_json::Value, ApiError>;
}

/// `GET /api/v1/{rules}?position=...[&clock=N]`.
///
/// # Errors
/// 400 for bad input, 404 for a missing table, 500 for a damaged one.
pub async fn probe(
    State(lib): State<Arc<Library>>,
    RulesPath(rules): RulesPath,
    params: PositionParams,
) -> Result<Response, ApiError> {
    let pos = any_position(rules, &params)?;
    probed(lib, move |lib| {
        each_game!(&pos, AnyPosition, |pos, G| G::probe(lib, pos))
    })
    .await
}

/// `GET /api/v1/{rules}/line?position=...[&clock=N]`: the best line, and the line under the
/// clock rule from the position's clock, each step with its DTM and its DTC.
///
/// # Errors
/// As [`probe`].
pub async fn line(
    State(lib): State<Arc<Library>>,
    RulesPath(rules): RulesPath,
    params: PositionParams,
) -> Result<Json<serde_json::Value>, ApiError> {
    let pos = any_position(rules, &params)?;
    probed(lib, move |lib| {
        each_game!(&pos, AnyPosition, |pos, G| G::line(lib, pos))
    })
    .await
    .map(Json)
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

/// `GET /api/v1/animal-gambit/steps?position=...&steps=...`: a turn played one step at a time
/// ([`gambit::steps`]); no tables needed.
///
/// # Errors
/// 400 for bad input or steps that are no legal beginning of a turn, and for the other rule
/// sets (a move there is one step); 404 for an unknown rule set.
pub async fn turn_steps(
    RulesPath(rules): RulesPath,
    params: PositionParams,
) -> Result<Json<serde_json::Value>, ApiError> {
    // Only Animal Gambit's moves are turns of several steps; the rule set is refused before
    // the position is read.
    if rules != Rules::AnimalGambit {
        return Err(not_turns(rules));
    }
    let AnyPosition::Gambit(pos) = any_position(rules, &params)? else {
        return Err(not_turns(rules));
    };
    gambit::steps(&pos, params.steps.as_deref().unwrap_or("")).map(Json)
}

/// The answer of `/steps` under a rule set whose moves are single steps.
fn not_turns(rules: Rules) -> ApiError {
    ApiError::new(
        Problem::NotForRules,
        format!(
            "rule set {rules} has no turns of several steps: a move is one step (from-square \
             to-square), listed by /api/v1/{rules}/moves"
        ),
    )
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
