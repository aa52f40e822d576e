//! The flip game's positions with face-down tiles in the API (RULES.md 8): a position's exact
//! chance value at its clock, and what each flip may reveal.

use jtb_edge::{chance_json, games::GameAnswer};
use jtb_probe::{
    flip::{ChanceMove, CLOCKS},
    Outcome, Position, Square,
};
use serde_json::json;

use super::{error::ApiError, source::Library};

/// The answer of `GET /api/v1/flip4x4` for a position with face-down tiles: its chance value at
/// its clock, as `jtb probe --json` gives it for the canonical text.
///
/// # Errors
/// A finished game (400), missing chance tables (404), damaged ones (500).
pub fn probe(lib: &Library, pos: &Position) -> Result<serde_json::Value, ApiError> {
    if pos.is_game_over() {
        return Err(lib.error(jtb_probe::ProbeError::GameOver, pos.rules()));
    }
    let tables = lib.chance_tables()?;
    let answer = jtb_edge::ChanceAnswer::probe(&tables, pos.clone())
        .map_err(|e| lib.error(e, pos.rules()))?;
    Ok(answer.json(&pos.to_string()))
}

/// What each flip of `flipped` may reveal, each animal equally likely, where the hidden set is
/// known (`null` outcomes where it is not): the moves answer's `flip_outcomes`.
pub fn outcomes(pos: &Position, flipped: &[Square]) -> serde_json::Value {
    flipped
        .iter()
        .map(|&sq| {
            let outcomes = pos
                .flip_outcomes(sq)
                .map(|o| crate::games::flip::outcomes_json(&o));
            json!({"flip": format!("?{sq}"), "outcomes": outcomes})
        })
        .collect()
}

/// The answer of `GET /api/v1/flip4x4/line` for a position with face-down tiles: the best moves
/// of both sides (RULES.md 8) step by step until the best move is a flip, whose outcome is
/// chance (`flip`: the flip and each outcome, its probability, the position it gives and its
/// value there), or the game ends, or the clock reaches 40. Each step has the position it gives
/// and that position's value for its side to move (score, win, draw, loss, DTE).
///
/// # Errors
/// As [`probe`].
pub fn line(lib: &Library, pos: &Position) -> Result<serde_json::Value, ApiError> {
    if pos.is_game_over() {
        return Err(lib.error(jtb_probe::ProbeError::GameOver, pos.rules()));
    }
    let tables = lib.chance_tables()?;
    let fail = |e| lib.error(e, pos.rules());
    let mut current = pos.clone();
    current
        .set_clock(Some(pos.clock().unwrap_or(0)))
        .expect("the flip game has a clock");
    let mut steps = Vec::new();
    let mut flip = serde_json::Value::Null;
    // Steps raise the clock: at most 40 plies before the best move is a flip or the game is
    // drawn.
    for _ in 0..=CLOCKS {
        let Some(best) = tables.best_move(&current).map_err(fail)? else {
            break;
        };
        match best.mv {
            ChanceMove::Flip(sq) => {
                let outcomes = current.flip_outcomes(sq).unwrap_or_default();
                let each: Vec<serde_json::Value> = outcomes
                    .iter()
                    .zip(&best.outcomes)
                    .map(|(o, &(_, worth))| {
                        let mut obj = json!({
                            "animal": o.piece.letter().to_string(),
                            "probability": o.probability(),
                            "position": o.position.to_string(),
                        });
                        extend(&mut obj, chance_json(worth));
                        obj
                    })
                    .collect();
                let mut obj = json!({ "move": best.mv.to_string(), "dte": best.dte });
                extend(&mut obj, chance_json(best.value));
                obj["outcomes"] = each.into();
                flip = obj;
                break;
            }
            ChanceMove::Step(mv) => match current
                .play(mv)
                .map_err(|e| ApiError::internal(format!("a best move that is not legal: {e}")))?
            {
                Outcome::Over { reason, .. } => {
                    steps.push(json!({ "move": mv.to_string(), "end": reason.to_string() }));
                    break;
                }
                Outcome::Ongoing(next) => {
                    let value = tables.probe(&next).map_err(fail)?;
                    let dte = tables.dte(&next).map_err(fail)?;
                    let mut step = json!({
                        "move": mv.to_string(),
                        "position": next.to_string(),
                        "clock": next.clock().unwrap_or(0),
                        "dte": dte,
                    });
                    extend(&mut step, chance_json(value));
                    steps.push(step);
                    if next.hidden() == 0 {
                        break;
                    }
                    current = next;
                }
            },
        }
    }
    Ok(json!({
        "position": pos.to_string(),
        "rules": pos.rules().name(),
        "clock": pos.clock().unwrap_or(0),
        "line": steps,
        "flip": flip,
    }))
}

/// Adds the fields of the object `more` to the object `obj`.
fn extend(obj: &mut serde_json::Value, more: serde_json::Value) {
    if let (serde_json::Value::Object(obj), serde_json::Value::Object(more)) = (obj, more) {
        obj.extend(more);
    }
}
