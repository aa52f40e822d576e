//! The position endpoints of the JSON API, modelled on the lichess tablebase API: a position's
//! value with every move (each describing the position after it, from the view of its side to
//! move, best first), the best lines, and the legal moves.
//!
//! Every table read runs on tokio's blocking threads ([`blocking`]): a cold block is a file
//! read, and an answer may read many.

use std::sync::Arc;

use axum::{
    extract::State,
    http::{Method, Uri},
    Json,
};
use jtb_edge::AnyPosition;
use jtb_probe::{MoveKind, Outcome, Position, RuleStep, Value};
use serde::Serialize;
use serde_json::json;

use super::{
    clesto,
    error::{ApiError, Problem},
    gambit,
    query::{any_position, blocking, gambit_position, Game, PositionParams, Rules},
    source::{play, Library, Source},
};

/// The answer of `GET /api/v1/{rules}`: the fields of `jtb probe --json`, the best move under
/// the clock rule, and the moves.
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
    /// The best move under the clock rule at `clock` (`null` in a rule draw).
    rule_best: Option<String>,
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
    /// `quiet`, `den-entry`, `capture` or `trade`.
    kind: &'static str,
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

/// A step of a line: the move, what kind it is, and the position after it with both its
/// distances (`null` once the game ended).
#[derive(Serialize)]
struct StepAnswer {
    #[serde(rename = "move")]
    mv: String,
    kind: &'static str,
    end: Option<String>,
    position: Option<String>,
    clock: Option<u32>,
    wdl: Option<&'static str>,
    dtm: Option<u16>,
    rule_wdl: Option<&'static str>,
    dtc: Option<u16>,
}

pub(super) const fn kind_name(kind: MoveKind) -> &'static str {
    match kind {
        MoveKind::Quiet => "quiet",
        MoveKind::DenEntry => "den-entry",
        MoveKind::Capture => "capture",
        MoveKind::Trade => "trade",
    }
}

/// `GET /api/v1/{rules}?position=...[&clock=N]`.
///
/// # Errors
/// 400 for bad input, 404 for a missing table, 500 for a damaged one.
pub async fn probe(
    State(lib): State<Arc<Library>>,
    Rules(game): Rules,
    params: PositionParams,
) -> Result<Json<Probed>, ApiError> {
    let pos = any_position(game, &params)?;
    blocking(lib, move |lib| match &pos {
        AnyPosition::Gambit(pos) => gambit::probe(lib, pos).map(Probed::Gambit),
        AnyPosition::Clesto(pos) => clesto::probe(lib, pos).map(Probed::Clesto),
        AnyPosition::Jungle(pos) if pos.hidden() != 0 => {
            chance_answer(lib, pos).map(Probed::Chance)
        }
        AnyPosition::Jungle(pos) => probe_answer(lib, pos).map(Probed::Jungle),
    })
    .await
    .map(Json)
}

/// The answer of `GET /api/v1/{rules}`: the clock rule's fields, or Clesto's.
#[derive(Serialize)]
#[serde(untagged)]
pub enum Probed {
    /// A rule set with draws and the clock rule.
    Jungle(ProbeAnswer),
    /// Clesto: win or loss, by DTM or by the repetition ban.
    Clesto(clesto::ClestoAnswer),
    /// Animal Gambit: distances in turns, every turn with its steps.
    Gambit(gambit::ProbeAnswer),
    /// The flip game with face-down tiles: `jtb probe --json`'s object (exact fractions, every
    /// move's worth, each flip's outcomes).
    Chance(serde_json::Value),
}

/// A flip position with face-down tiles (RULES.md 8): its chance value at its clock, as `jtb
/// probe --json` gives it for the canonical text.
fn chance_answer(lib: &Library, pos: &Position) -> Result<serde_json::Value, ApiError> {
    if pos.is_game_over() {
        return Err(lib.error(jtb_probe::ProbeError::GameOver, pos.rules()));
    }
    let tables = lib.chance_tables()?;
    let answer = jtb_edge::ChanceAnswer::probe(&tables, pos.clone())
        .map_err(|e| lib.error(e, pos.rules()))?;
    Ok(answer.json(&pos.to_string()))
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
    let rule_best = source.rule_best(pos)?.map(|m| m.to_string());
    // At the clock limit the game is drawn (RULES.md 5): no move leads on from it.
    let moves = if pos.at_clock_limit() {
        Vec::new()
    } else {
        ranked
            .iter()
            .map(|m| move_answer(&source, pos, m.mv))
            .collect::<Result<_, _>>()?
    };
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
        rule_best,
        moves,
    })
}

pub(super) fn move_kind(pos: &Position, mv: jtb_probe::Move) -> Result<MoveKind, ApiError> {
    pos.move_kind(mv)
        .ok_or_else(|| ApiError::internal(format!("{mv} is not legal in {pos}")))
}

fn move_answer(
    source: &Source<'_>,
    pos: &Position,
    mv: jtb_probe::Move,
) -> Result<MoveAnswer, ApiError> {
    let kind = move_kind(pos, mv)?;
    let capture = matches!(kind, MoveKind::Capture | MoveKind::Trade);
    Ok(match play(pos, mv)? {
        Outcome::Over { result, reason } => {
            // The game is over: the side that would move next has lost (or drawn) in 0.
            let after = result.flipped();
            let dtm = (after != jtb_probe::Wdl::Draw).then_some(0);
            MoveAnswer {
                mv: mv.to_string(),
                position: None,
                capture,
                kind: kind_name(kind),
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
            let rule = source.rule(&next)?;
            MoveAnswer {
                mv: mv.to_string(),
                position: Some(next.to_string()),
                capture,
                kind: kind_name(kind),
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
/// clock rule from the position's clock, each step with its DTM and its DTC.
///
/// # Errors
/// As [`probe`].
pub async fn line(
    State(lib): State<Arc<Library>>,
    Rules(game): Rules,
    params: PositionParams,
) -> Result<Json<serde_json::Value>, ApiError> {
    let pos = any_position(game, &params)?;
    blocking(lib, move |lib| match &pos {
        AnyPosition::Gambit(pos) => gambit::line(lib, pos),
        AnyPosition::Clesto(pos) => clesto::line(lib, pos),
        AnyPosition::Jungle(pos) => jungle_line(lib, pos),
    })
    .await
    .map(Json)
}

/// The best line of a Jungle or flip position, and its line under the clock rule.
fn jungle_line(lib: &Library, pos: &Position) -> Result<serde_json::Value, ApiError> {
    let source = lib.source(pos)?;
    let plain = source.line(pos)?.into_iter().map(|s| s.mv).collect();
    let rule = source
        .rule_line(pos)?
        .into_iter()
        .map(|s: RuleStep| s.mv)
        .collect();
    Ok(json!({
        "position": pos.to_string(),
        "rules": pos.rules().name(),
        "clock": pos.clock().unwrap_or(0),
        "line": steps(&source, pos, plain)?,
        "rule_line": steps(&source, pos, rule)?,
    }))
}

/// The steps of a line played from `pos` at its clock: each position with the clock it has
/// then (the library's plain line carries none), so that a step can be opened as it stands in
/// the game, and with both its values.
///
/// # Errors
/// As [`Source::value`]; 500 if a move of the line is not legal (it always is).
fn steps(
    source: &Source<'_>,
    pos: &Position,
    moves: Vec<jtb_probe::Move>,
) -> Result<Vec<StepAnswer>, ApiError> {
    let mut current = pos.clone();
    let mut out = Vec::with_capacity(moves.len());
    for mv in moves {
        let kind = kind_name(move_kind(&current, mv)?);
        let step = match play(&current, mv)? {
            Outcome::Over { reason, .. } => StepAnswer {
                mv: mv.to_string(),
                kind,
                end: Some(reason.to_string()),
                position: None,
                clock: None,
                wdl: None,
                dtm: None,
                rule_wdl: None,
                dtc: None,
            },
            Outcome::Ongoing(next) => {
                let value = source.value(&next)?;
                let rule = source.rule(&next)?;
                let step = StepAnswer {
                    mv: mv.to_string(),
                    kind,
                    end: None,
                    position: Some(next.to_string()),
                    clock: Some(rule.clock),
                    wdl: Some(value.wdl().name()),
                    dtm: value.dtm(),
                    rule_wdl: Some(rule.wdl.name()),
                    dtc: rule.dtc.dtm(),
                };
                current = next;
                step
            }
        };
        out.push(step);
    }
    Ok(out)
}

/// `GET /api/v1/{rules}/moves?position=...`: the legal moves, in ASCII order, with the position
/// after each; no tables needed (the explorer plays on where no table answers). With face-down
/// tiles: the moves of the revealed pieces, and the tiles that can be flipped.
///
/// # Errors
/// 400 for bad input, 404 for an unknown rule set.
pub async fn moves(
    Rules(game): Rules,
    params: PositionParams,
) -> Result<Json<serde_json::Value>, ApiError> {
    let (pos, is_clesto) = match any_position(game, &params)? {
        AnyPosition::Gambit(pos) => return Ok(Json(gambit::moves(&pos))),
        AnyPosition::Clesto(pos) => (pos, true),
        AnyPosition::Jungle(pos) => (pos, false),
    };
    let hidden = pos.hidden() != 0;
    let mut moves = Vec::new();
    let listed = if pos.at_clock_limit() {
        Vec::new()
    } else {
        pos.revealed_moves()
    };
    for mv in listed {
        let kind = if hidden {
            // `move_kind` knows no moves while tiles are face down: ask the board.
            match pos.piece_at(mv.to) {
                Some(_) => MoveKind::Capture,
                None => MoveKind::Quiet,
            }
        } else {
            move_kind(&pos, mv)?
        };
        let (after, end) = if hidden {
            (None, None)
        } else {
            match play(&pos, mv)? {
                Outcome::Over { reason, .. } => (None, Some(reason.to_string())),
                Outcome::Ongoing(next) => (Some(next.to_string()), None),
            }
        };
        let capture = matches!(kind, MoveKind::Capture | MoveKind::Trade);
        moves.push(
            json!({"move": mv.to_string(), "position": after, "capture": capture,
                          "kind": kind_name(kind), "end": end}),
        );
    }
    let flipped: Vec<jtb_probe::Square> = if pos.at_clock_limit() || pos.is_game_over() {
        Vec::new()
    } else {
        pos.flips()
    };
    let flips: Vec<String> = flipped.iter().map(ToString::to_string).collect();
    let mut answer = json!({
        "position": pos.to_string(),
        "rules": pos.rules().name(),
        "moves": moves,
        "flips": flips,
        "game_over": pos.is_game_over(),
    });
    if hidden {
        // RULES.md 8: what each flip may reveal, each equally likely, where the hidden set is
        // known (`null` where it is not).
        answer["flip_outcomes"] = flipped
            .iter()
            .map(|&sq| {
                let outcomes = pos.flip_outcomes(sq).map(|o| {
                    o.iter()
                        .map(|o| {
                            json!({
                                "animal": o.piece.letter().to_string(),
                                "probability": o.probability(),
                                "position": o.position.to_string(),
                            })
                        })
                        .collect::<Vec<_>>()
                });
                json!({"flip": format!("?{sq}"), "outcomes": outcomes})
            })
            .collect();
    }
    if is_clesto {
        clesto::moves(&pos, &mut answer)?;
    }
    Ok(Json(answer))
}

/// `GET /api/v1/animal-gambit/steps?position=...&steps=...`: a turn played one step at a time
/// ([`gambit::steps`]); no tables needed.
///
/// # Errors
/// 400 for bad input or steps that are no legal beginning of a turn, and for the other rule
/// sets (a move there is one step); 404 for an unknown rule set.
pub async fn turn_steps(
    Rules(game): Rules,
    params: PositionParams,
) -> Result<Json<serde_json::Value>, ApiError> {
    if let Game::Jungle(rules) = game {
        return Err(ApiError::new(
            Problem::NotForRules,
            format!(
                "rule set {rules} has no turns of several steps: a move is one step (from-square \
                 to-square), listed by /api/v1/{rules}/moves"
            ),
        ));
    }
    let pos = gambit_position(&params)?;
    gambit::steps(&pos, params.steps.as_deref().unwrap_or("")).map(Json)
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
