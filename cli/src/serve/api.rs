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
use jtb_probe::{
    banned_side, ClestoValue, LineStep, Material, MoveKind, Outcome, Position, RuleStep, SquareSet,
    Value,
};
use serde::Serialize;
use serde_json::json;

use super::{
    error::{ApiError, Problem},
    gambit,
    query::{blocking, gambit_position, position, Game, PositionParams, Rules},
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

const fn kind_name(kind: MoveKind) -> &'static str {
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
    let Game::Jungle(rules) = game else {
        let pos = gambit_position(&params)?;
        return blocking(lib, move |lib| gambit::probe(lib, &pos).map(Probed::Gambit))
            .await
            .map(Json);
    };
    let pos = position(rules, &params)?;
    blocking(lib, move |lib| {
        if pos.rules().has_hunger() {
            return clesto_answer(lib, &pos).map(Probed::Clesto);
        }
        if pos.hidden() != 0 {
            return chance_answer(lib, &pos).map(Probed::Chance);
        }
        probe_answer(lib, &pos).map(Probed::Jungle)
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
    Clesto(ClestoAnswer),
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

fn move_kind(pos: &Position, mv: jtb_probe::Move) -> Result<MoveKind, ApiError> {
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
    let Game::Jungle(rules) = game else {
        let pos = gambit_position(&params)?;
        return blocking(lib, move |lib| gambit::line(lib, &pos))
            .await
            .map(Json);
    };
    let pos = position(rules, &params)?;
    blocking(lib, move |lib| {
        if pos.rules().has_hunger() {
            return clesto_line(lib, &pos);
        }
        let source = lib.source(&pos)?;
        let plain = source.line(&pos)?.into_iter().map(|s| s.mv).collect();
        let rule = source
            .rule_line(&pos)?
            .into_iter()
            .map(|s: RuleStep| s.mv)
            .collect();
        Ok(json!({
            "position": pos.to_string(),
            "rules": pos.rules().name(),
            "clock": pos.clock().unwrap_or(0),
            "line": steps(&source, &pos, plain)?,
            "rule_line": steps(&source, &pos, rule)?,
        }))
    })
    .await
    .map(Json)
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
    let Game::Jungle(rules) = game else {
        let pos = gambit_position(&params)?;
        return Ok(Json(gambit::moves(&pos)));
    };
    let pos = position(rules, &params)?;
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
        let mut listed = json!({"move": mv.to_string(), "position": after, "capture": capture,
                                "kind": kind_name(kind), "end": end});
        if pos.rules().has_hunger() {
            listed["starves"] = json!(starves(&pos, mv)?);
        }
        moves.push(listed);
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
    if pos.rules().has_hunger() {
        answer["hungry"] = json!(square_names(&pos, pos.hungry()));
        answer["hungry_canonical"] = json!(pos.hungry_is_canonical());
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

// ---------------------------------------------------------------------------------------------
// Clesto (RULES.md 6): no draws, no clock; a value is a plain win or loss with its distance to
// mate, or a win or loss by the repetition ban, with the banned side's exit distance.

/// A Clesto value as the API writes it, for the side to move: `wdl` always win or loss, `dtm`
/// for a plain value (null where the ban decides), `category` `win`, `loss`, `ban-win` or
/// `ban-loss`, and `exit`, the banned side's plies to a smaller material it wins, where the
/// ban decides and it can force one (null otherwise).
#[derive(Serialize)]
pub struct ClestoFields {
    wdl: &'static str,
    dtm: Option<u16>,
    category: &'static str,
    exit: Option<u16>,
}

impl From<ClestoValue> for ClestoFields {
    fn from(v: ClestoValue) -> ClestoFields {
        ClestoFields {
            wdl: v.wdl().name(),
            dtm: v.dtm(),
            category: v.category(),
            exit: v.exit(),
        }
    }
}

/// The answer of `GET /api/v1/clesto`: the fields of `jtb probe --rules clesto --json`, the
/// banned side and the mover's hungry set, and the moves, best first.
#[derive(Serialize)]
pub struct ClestoAnswer {
    position: String,
    rules: &'static str,
    #[serde(flatten)]
    value: ClestoFields,
    /// The best move (RULES.md 6.6); `null` without a move.
    best: Option<String>,
    /// The side the repetition ban binds in this material (B: more animals, Red when equal),
    /// whose exit `exit` counts.
    banned: String,
    /// The squares of the mover's hungry animals.
    hungry: Vec<String>,
    /// Whether the hungry set is the one the board gives (else the text's `h:` field set it).
    hungry_canonical: bool,
    moves: Vec<ClestoMoveAnswer>,
}

/// A Clesto move: the position after it with its value for the side then to move (as the other
/// rule sets' moves), the animals it starves, and what it is worth to its mover.
#[derive(Serialize)]
pub struct ClestoMoveAnswer {
    #[serde(rename = "move")]
    mv: String,
    /// The position after the move; `null` when the move ended the game.
    position: Option<String>,
    capture: bool,
    kind: &'static str,
    end: Option<String>,
    /// The animals the move starves: letter and square after the move (`Cb1`).
    starves: Vec<String>,
    /// The value after the move for the side then to move (a game that ended: in 0).
    #[serde(flatten)]
    after: ClestoFields,
    /// The banned side after the move (a smaller material may bind the other side); `null`
    /// when the game ended.
    banned: Option<String>,
    /// The move's value for its mover (the exit counted in this position's material): the
    /// order of the moves.
    mover: ClestoFields,
}

/// The side the repetition ban binds in `pos`'s material, by name (`red`, `blue`).
fn banned_of(pos: &Position) -> String {
    banned_side(Material::of(pos)).to_string()
}

fn square_names(pos: &Position, set: SquareSet) -> Vec<String> {
    pos.board()
        .squares()
        .filter(|&sq| set & jtb_probe::bit(sq) != 0)
        .map(|sq| sq.to_string())
        .collect()
}

fn starves(pos: &Position, mv: jtb_probe::Move) -> Result<Vec<String>, ApiError> {
    crate::moves::starvations(pos, mv).map_err(|e| ApiError::internal(e.to_string()))
}

fn clesto_answer(lib: &Library, pos: &Position) -> Result<ClestoAnswer, ApiError> {
    let source = lib.source(pos)?;
    let value = source.clesto(pos, |tb| tb.probe_clesto(pos))?;
    let best = source.clesto(pos, |tb| tb.clesto_best_move(pos))?;
    let mut scored = source.clesto(pos, |tb| tb.clesto_moves(pos))?;
    // Best first for the mover; equal values stay in ASCII order (the library's order).
    scored.sort_by_key(|&(_, v)| std::cmp::Reverse(v));
    let mut moves = Vec::with_capacity(scored.len());
    for (mv, mover) in scored {
        let kind = move_kind(pos, mv)?;
        let (position, after, banned, end) = match play(pos, mv)? {
            Outcome::Over { result, reason } => (
                None,
                // The side that would move next has lost (or won, after the mover's own last
                // animal starved) in 0.
                ClestoValue::Plain(match result.flipped() {
                    jtb_probe::Wdl::Win => Value::Win(0),
                    jtb_probe::Wdl::Loss => Value::Loss(0),
                    jtb_probe::Wdl::Draw => Value::Draw,
                }),
                None,
                Some(reason.to_string()),
            ),
            Outcome::Ongoing(next) => {
                let v = source.clesto(&next, |tb| tb.probe_clesto(&next))?;
                (Some(next.to_string()), v, Some(banned_of(&next)), None)
            }
        };
        moves.push(ClestoMoveAnswer {
            mv: mv.to_string(),
            position,
            capture: matches!(kind, MoveKind::Capture | MoveKind::Trade),
            kind: kind_name(kind),
            end,
            starves: starves(pos, mv)?,
            after: after.into(),
            banned,
            mover: mover.into(),
        });
    }
    Ok(ClestoAnswer {
        position: pos.to_string(),
        rules: pos.rules().name(),
        value: value.into(),
        best: best.map(|(mv, _)| mv.to_string()),
        banned: banned_of(pos),
        hungry: square_names(pos, pos.hungry()),
        hungry_canonical: pos.hungry_is_canonical(),
        moves,
    })
}

/// A step of a Clesto line: the move, the animals it starves, and the position after it with
/// its value, its banned side and its hungry set (`null` once the game ended).
#[derive(Serialize)]
struct ClestoStep {
    #[serde(rename = "move")]
    mv: String,
    kind: &'static str,
    end: Option<String>,
    starves: Vec<String>,
    position: Option<String>,
    wdl: Option<&'static str>,
    dtm: Option<u16>,
    category: Option<&'static str>,
    exit: Option<u16>,
    banned: Option<String>,
    hungry: Option<Vec<String>>,
}

/// `GET /api/v1/clesto/line`: the best line (RULES.md 6.6), which stops at the first position
/// the unbanned side wins only by the ban (`line_stops_at_ban`, as `jtb probe --line`).
fn clesto_line(lib: &Library, pos: &Position) -> Result<serde_json::Value, ApiError> {
    let source = lib.source(pos)?;
    let value = source.clesto(pos, |tb| tb.probe_clesto(pos))?;
    let line: Vec<LineStep<ClestoValue>> = source.clesto(pos, |tb| tb.clesto_line(pos))?;
    let stops = jtb_edge::line_stops_at_ban(value, &line);
    let mut before = pos.clone();
    let mut steps = Vec::with_capacity(line.len());
    for step in &line {
        let kind = kind_name(move_kind(&before, step.mv)?);
        let starves = starves(&before, step.mv)?;
        let end = match &step.position {
            Some(_) => None,
            None => match play(&before, step.mv)? {
                Outcome::Over { reason, .. } => Some(reason.to_string()),
                Outcome::Ongoing(_) => {
                    return Err(ApiError::internal("a line step without a position"))
                }
            },
        };
        let fields = step.value.map(ClestoFields::from);
        steps.push(ClestoStep {
            mv: step.mv.to_string(),
            kind,
            end,
            starves,
            position: step.position.as_ref().map(ToString::to_string),
            wdl: fields.as_ref().map(|f| f.wdl),
            dtm: fields.as_ref().and_then(|f| f.dtm),
            category: fields.as_ref().map(|f| f.category),
            exit: fields.as_ref().and_then(|f| f.exit),
            banned: step.position.as_ref().map(banned_of),
            hungry: step.position.as_ref().map(|p| square_names(p, p.hungry())),
        });
        if let Some(next) = &step.position {
            before = next.clone();
        }
    }
    Ok(json!({
        "position": pos.to_string(),
        "rules": pos.rules().name(),
        "line": steps,
        "line_stops_at_ban": stops,
    }))
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
