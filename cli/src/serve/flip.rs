//! The flip game's positions with face-down tiles in the API (RULES.md 8): a position's exact
//! chance value at its clock, and what each flip may reveal.

use jtb_edge::games::GameAnswer;
use jtb_probe::{Position, Square};
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
