//! The JSON API, modelled on the lichess tablebase API: a position's value with every move
//! (each describing the position after it, from the view of its side to move, best first),
//! the best line, legal moves, and per-material statistics.

use std::sync::Arc;

use axum::{
    extract::{
        rejection::{PathRejection, QueryRejection},
        FromRequestParts, Path, Query, State,
    },
    http::{request::Parts, Method, Uri},
    Json,
};
use jtb_probe::{
    Layout, LineStep, Material, MoveKind, Outcome, Position, RuleSet, RuleStep, RuleValue, Value,
};
use percent_encoding::percent_decode_str;
use serde::{Deserialize, Serialize};
use serde_json::json;

use super::{
    error::ApiError,
    source::{play, Library, Source},
};
use crate::stats::MaterialStats;

/// Longer position text is refused before it is parsed: the longest canonical text of a Jungle
/// position with its clocks is under 100 bytes.
const MAX_POSITION_BYTES: usize = 256;

/// Longer material names are refused before they are parsed (`ELRvTR` has 6 bytes).
const MAX_MATERIAL_BYTES: usize = 24;

/// The query of the position endpoints.
#[derive(Deserialize)]
pub struct PositionQuery {
    position: Option<String>,
    clock: Option<u32>,
}

/// The answer of `GET /api/v1/{rules}`: the fields of `jtb probe --json`, and the moves.
#[derive(Serialize)]
pub struct ProbeAnswer {
    position: String,
    rules: &'static str,
    wdl: &'static str,
    dtm: Option<u16>,
    best: Option<String>,
    dtc: Option<u16>,
    category: &'static str,
    clock: u32,
    rule_wdl: &'static str,
    moves: Vec<MoveAnswer>,
}

/// A move and the position after it, seen by the side then to move.
#[derive(Serialize)]
pub struct MoveAnswer {
    #[serde(rename = "move")]
    mv: String,
    /// The position after the move; `null` when the move ended the game.
    position: Option<String>,
    /// Whether the move takes a piece (or trades, in the flip game).
    capture: bool,
    /// How the move ended the game, if it did.
    end: Option<String>,
    wdl: &'static str,
    dtm: Option<u16>,
    dtc: Option<u16>,
    category: &'static str,
    /// The clock after the move (0 after a capture); `null` when the game ended.
    clock: Option<u32>,
    rule_wdl: &'static str,
}

/// A step of the best line.
#[derive(Serialize)]
struct LineAnswer {
    #[serde(rename = "move")]
    mv: String,
    position: Option<String>,
    wdl: Option<&'static str>,
    dtm: Option<u16>,
}

/// A step of the line under the clock rule.
#[derive(Serialize)]
struct RuleLineAnswer {
    #[serde(rename = "move")]
    mv: String,
    position: Option<String>,
    clock: Option<u32>,
    rule_wdl: Option<&'static str>,
    dtc: Option<u16>,
}

/// The rule set named in the path (`{rules}`).
pub struct Rules(RuleSet);

impl<S: Send + Sync> FromRequestParts<S> for Rules {
    type Rejection = ApiError;

    /// # Errors
    /// 400 for a path that is not UTF-8, 404 for a name that is no rule set (whatever it holds:
    /// it is only compared with the names, never used as a path).
    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Rules, ApiError> {
        let Path(name) = Path::<String>::from_request_parts(parts, state)
            .await
            .map_err(|e| ApiError::bad_request(e.body_text()))?;
        rule_set(&name).map(Rules)
    }
}

/// The rule set called `name`.
///
/// # Errors
/// 404 when there is none.
fn rule_set(name: &str) -> Result<RuleSet, ApiError> {
    name.parse().map_err(|_| {
        let known: Vec<&str> = RuleSet::ALL.iter().map(|r| r.name()).collect();
        let shown: String = name.chars().take(40).collect();
        ApiError::not_found(format!(
            "unknown rule set `{}` (known: {})",
            shown.escape_debug(),
            known.join(", ")
        ))
    })
}

/// The query of the position endpoints: `position` and the optional `clock`.
pub struct PositionParams(PositionQuery);

impl<S: Send + Sync> FromRequestParts<S> for PositionParams {
    type Rejection = ApiError;

    /// # Errors
    /// 400 for a query that is not UTF-8 once percent-decoded, or that does not parse.
    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<PositionParams, ApiError> {
        let raw = parts.uri.query().unwrap_or("");
        // The query parser would replace bad bytes silently; say what is wrong instead.
        if percent_decode_str(raw).decode_utf8().is_err() {
            return Err(ApiError::bad_request(
                "the query string is not UTF-8 once percent-decoded",
            ));
        }
        let Query(q) = Query::try_from_uri(&parts.uri)
            .map_err(|e: QueryRejection| ApiError::bad_request(e.body_text()))?;
        Ok(PositionParams(q))
    }
}

/// The position of the query, with its clock (the query's `clock`, else the text's, else 0).
///
/// # Errors
/// 400 for missing or bad position text, or a clock above the limit.
fn position(rules: RuleSet, params: PositionParams) -> Result<Position, ApiError> {
    let PositionParams(q) = params;
    let text = q
        .position
        .ok_or_else(|| ApiError::bad_request("missing query parameter `position`"))?;
    if text.len() > MAX_POSITION_BYTES {
        return Err(ApiError::bad_request(format!(
            "position text of {} bytes: at most {MAX_POSITION_BYTES}",
            text.len()
        )));
    }
    let mut pos = Position::parse(&text, Some(rules))?;
    pos.set_rule_clock(q.clock)?;
    Ok(pos)
}

/// `GET /api/v1/{rules}?position=...[&clock=N]`.
///
/// # Errors
/// 400 for bad input, 404 for a missing table, 500 for a damaged one.
pub async fn probe(
    State(lib): State<Arc<Library>>,
    Rules(rules): Rules,
    params: PositionParams,
) -> Result<Json<ProbeAnswer>, ApiError> {
    // Cached probes take well under a microsecond each, and a first touch of a block one
    // positioned read: cheaper than handing the work to another thread.
    let pos = position(rules, params)?;
    probe_answer(&lib, &pos).map(Json)
}

fn probe_answer(lib: &Library, pos: &Position) -> Result<ProbeAnswer, ApiError> {
    let source = lib.source(pos)?;
    let value = source.value(pos)?;
    let rule = source.rule(pos)?;
    let ranked = source.ranked_moves(pos)?;
    // As `jtb probe`: no best move in a draw, where every drawing move is as good.
    let best = match value {
        Value::Draw => None,
        _ => ranked.first().map(|m| m.mv.to_string()),
    };
    let moves = ranked
        .iter()
        .map(|m| move_answer(&source, pos, m.mv))
        .collect::<Result<_, _>>()?;
    Ok(ProbeAnswer {
        position: pos.to_string(),
        rules: pos.rules().name(),
        wdl: value.wdl().name(),
        dtm: value.dtm(),
        best,
        dtc: rule.dtc.dtm(),
        category: rule.category.name(),
        clock: rule.clock,
        rule_wdl: rule.wdl.name(),
        moves,
    })
}

fn move_answer(
    source: &Source<'_>,
    pos: &Position,
    mv: jtb_probe::Move,
) -> Result<MoveAnswer, ApiError> {
    let capture = matches!(pos.move_kind(mv), Some(MoveKind::Capture | MoveKind::Trade));
    Ok(match play(pos, mv)? {
        Outcome::Over { result, reason } => {
            // The game is over: the side that would move next has lost (or drawn) in 0.
            let after = result.flipped();
            let dtm = (after != jtb_probe::Wdl::Draw).then_some(0);
            MoveAnswer {
                mv: mv.to_string(),
                position: None,
                capture,
                end: Some(reason.to_string()),
                wdl: after.name(),
                dtm,
                dtc: dtm,
                category: after.name(),
                clock: None,
                rule_wdl: after.name(),
            }
        }
        Outcome::Ongoing(next) => {
            let value = source.value(&next)?;
            let rule: RuleValue = source.rule(&next)?;
            MoveAnswer {
                mv: mv.to_string(),
                position: Some(next.to_string()),
                capture,
                end: None,
                wdl: value.wdl().name(),
                dtm: value.dtm(),
                dtc: rule.dtc.dtm(),
                category: rule.category.name(),
                clock: Some(rule.clock),
                rule_wdl: rule.wdl.name(),
            }
        }
    })
}

/// `GET /api/v1/{rules}/line?position=...[&clock=N]`: the best line, and the line under the
/// clock rule from the position's clock.
///
/// # Errors
/// As [`probe`].
pub async fn line(
    State(lib): State<Arc<Library>>,
    Rules(rules): Rules,
    params: PositionParams,
) -> Result<Json<serde_json::Value>, ApiError> {
    let pos = position(rules, params)?;
    let source = lib.source(&pos)?;
    let plain = plain_line(&pos, source.line(&pos)?)?;
    let rule: Vec<RuleLineAnswer> = source.rule_line(&pos)?.into_iter().map(rule_step).collect();
    Ok(Json(json!({
        "position": pos.to_string(),
        "rules": pos.rules().name(),
        "clock": pos.clock().unwrap_or(0),
        "line": plain,
        "rule_line": rule,
    })))
}

/// The steps of the best line, each position with the half-move clock it has when the line is
/// played from `pos` at its clock (the library's plain line carries none), so that a step can be
/// opened as it stands in the game.
///
/// # Errors
/// 500 if a move of the line is not legal (it always is).
fn plain_line(pos: &Position, steps: Vec<LineStep>) -> Result<Vec<LineAnswer>, ApiError> {
    let mut current = pos.clone();
    let mut out = Vec::with_capacity(steps.len());
    for step in steps {
        let position = match play(&current, step.mv)? {
            Outcome::Ongoing(next) => {
                let text = next.to_string();
                current = next;
                Some(text)
            }
            Outcome::Over { .. } => None,
        };
        out.push(LineAnswer {
            mv: step.mv.to_string(),
            position,
            wdl: step.value.map(|v| v.wdl().name()),
            dtm: step.value.and_then(Value::dtm),
        });
    }
    Ok(out)
}

fn rule_step(step: RuleStep) -> RuleLineAnswer {
    RuleLineAnswer {
        mv: step.mv.to_string(),
        position: step.position.map(|p| p.to_string()),
        clock: step.value.map(|v| v.clock),
        rule_wdl: step.value.map(|v| v.wdl.name()),
        dtc: step.value.and_then(|v| v.dtc.dtm()),
    }
}

/// `GET /api/v1/{rules}/moves?position=...`: the legal moves, in ASCII order, with the position
/// after each; no tables needed (the explorer plays on where no table answers).
///
/// # Errors
/// 400 for bad input, 404 for an unknown rule set.
pub async fn moves(
    Rules(rules): Rules,
    params: PositionParams,
) -> Result<Json<serde_json::Value>, ApiError> {
    let pos = position(rules, params)?;
    let mut moves = Vec::new();
    for mv in pos.legal_moves() {
        let capture = matches!(pos.move_kind(mv), Some(MoveKind::Capture | MoveKind::Trade));
        let (after, end) = match play(&pos, mv)? {
            Outcome::Over { reason, .. } => (None, Some(reason.to_string())),
            Outcome::Ongoing(next) => (Some(next.to_string()), None),
        };
        moves.push(
            json!({"move": mv.to_string(), "position": after, "capture": capture, "end": end}),
        );
    }
    Ok(Json(json!({
        "position": pos.to_string(),
        "rules": pos.rules().name(),
        "moves": moves,
    })))
}

/// `GET /api/v1`: the rule sets and what tables each has.
pub async fn index(State(lib): State<Arc<Library>>) -> Json<serde_json::Value> {
    let sets: Vec<_> = RuleSet::ALL
        .iter()
        .map(|&rules| match lib.tables(rules) {
            Ok(tb) => json!({"rules": rules.name(), "tables": tb.materials().len(),
                             "max_pieces": tb.max_pieces(), "error": null}),
            Err(e) => json!({"rules": rules.name(), "tables": 0, "max_pieces": 0, "error": e}),
        })
        .collect();
    Json(json!({ "rule_sets": sets }))
}

/// `GET /api/v1/{rules}/materials`: the materials present, fewest pieces first.
///
/// # Errors
/// 404 for an unknown rule set or one without tables.
pub async fn materials(
    State(lib): State<Arc<Library>>,
    Rules(rules): Rules,
) -> Result<Json<serde_json::Value>, ApiError> {
    let tb = lib.tables(rules).map_err(ApiError::not_found)?;
    let names: Vec<String> = tb.materials().iter().map(ToString::to_string).collect();
    Ok(Json(json!({"rules": rules.name(), "materials": names})))
}

/// `GET /api/v1/{rules}/stats/{material}`: the material's `jtb stats --json` objects (Red to
/// move, then Blue), and the tables it depends on (where its captures lead).
///
/// # Errors
/// 400 for a malformed material, 404 for an unknown rule set or a table that is not there, 500
/// for a damaged one.
pub async fn stats(
    State(lib): State<Arc<Library>>,
    path: Result<Path<(String, String)>, PathRejection>,
) -> Result<Json<serde_json::Value>, ApiError> {
    let Path((rules, material)) = path.map_err(|e| ApiError::bad_request(e.body_text()))?;
    let rules = rule_set(&rules)?;
    if material.len() > MAX_MATERIAL_BYTES {
        return Err(ApiError::bad_request(format!(
            "material name of {} bytes: at most {MAX_MATERIAL_BYTES}",
            material.len()
        )));
    }
    let material: Material = material
        .parse()
        .map_err(|e: jtb_probe::BadMaterial| ApiError::bad_request(e.to_string()))?;
    let material = material.canonical();
    if material.total() > Layout::MAX_PIECES {
        return Err(ApiError::not_found(format!(
            "no table {material}: tables hold at most {} pieces",
            Layout::MAX_PIECES
        )));
    }
    lib.tables(rules).map_err(ApiError::not_found)?;
    // The material is parsed and printed again, so the file name is built from animal letters
    // only: no request can name a file outside the table directory.
    let found = MaterialStats::read(lib.root(), rules, material).map_err(|e| {
        let missing = matches!(&e.kind, jtb_probe::TableErrorKind::Io(io)
            if io.kind() == std::io::ErrorKind::NotFound);
        let message = lib.describe_table(e);
        if missing {
            ApiError::not_found(format!("missing table {material}: {message}"))
        } else {
            ApiError::internal(message)
        }
    })?;
    let depends: Vec<String> = jtb_gen::plan::successors(rules, material)
        .iter()
        .map(ToString::to_string)
        .collect();
    Ok(Json(json!({
        "rules": rules.name(),
        "material": material.to_string(),
        "stats": found.json(),
        "depends_on": depends,
    })))
}

/// Any path the server does not know.
pub async fn not_found(uri: Uri) -> ApiError {
    let path = uri.path();
    let shown: String = path.chars().take(100).collect();
    ApiError::not_found(format!("no such page: {}", shown.escape_debug()))
}

/// A known path asked with a method other than GET or HEAD.
pub async fn method_not_allowed(method: Method) -> ApiError {
    ApiError {
        status: axum::http::StatusCode::METHOD_NOT_ALLOWED,
        message: format!("method {method} not allowed: the API answers GET"),
    }
}
