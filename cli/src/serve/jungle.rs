//! Jungle and the flip game in the API (the Jungle family's rule sets but Clesto, whose answers
//! add to these): a position's value with its distance to mate and its value under the clock
//! rule at its clock, every move with both (the edge's [`JungleAnswer`] with its moves, printed
//! by its `api_json`), the best line and the line under the clock rule, and the legal moves
//! (with face-down tiles, the flips too, answered by the edge's chance answers:
//! `jtb_edge::ChanceAnswer`, `jtb_edge::ChanceLine`). Where the values come from is the edge's
//! [`Values`] (the tables, or the flip game's built-in check of one animal each), held for an
//! answer by [`Held`].

use std::sync::Arc;

use jtb_edge::{games::GameAnswer, Asked, JungleAnswer, Values};
use jtb_probe::{Position, Tablebase};

use axum::{
    response::{IntoResponse, Response},
    Json,
};

use super::{api::Routes, error::ApiError, source::Library};

impl Routes for jtb_edge::games::Jungle {
    type Position = Position;

    /// The answer of `GET /api/v1/{rules}` for a Jungle or flip position: the edge's answer
    /// with its moves ([`JungleAnswer::api_json`]); one with face-down tiles is answered by the
    /// flip game's chance tables ([`chance_probe`]).
    ///
    /// # Errors
    /// A missing table (404) or a damaged one (500).
    fn probe(lib: &Library, pos: &Position) -> Result<Response, ApiError> {
        if pos.hidden() != 0 {
            return Ok(Json(chance_probe(lib, pos)?).into_response());
        }
        let (answer, missing) = answer(lib, pos, Asked::MOVES)?;
        Ok(Json(answer.api_json(missing)).into_response())
    }

    /// The best line of a Jungle or flip position, and its line under the clock rule; with
    /// face-down tiles, the best moves up to the first flip ([`chance_line`]).
    ///
    /// # Errors
    /// As [`Routes::probe`].
    fn line(lib: &Library, pos: &Position) -> Result<serde_json::Value, ApiError> {
        if pos.hidden() != 0 {
            return chance_line(lib, pos);
        }
        // A set without the files a line needs answers `null` for it, and `missing` names them.
        let (answer, missing) = answer(lib, pos, Asked::LINES)?;
        Ok(answer.api_line_json(missing))
    }
}

/// The edge's answer of `pos` (revealed) with what `asked` adds, and its `missing` note in the
/// API's words.
///
/// # Errors
/// As [`Library::values`]; the probe's error as [`Library::error`] maps it.
fn answer(
    lib: &Library,
    pos: &Position,
    asked: Asked,
) -> Result<(JungleAnswer, Option<String>), ApiError> {
    let held = lib.values(pos)?;
    let answer = JungleAnswer::probe(held.values(), pos.clone(), asked)
        .map_err(|e| lib.error(e, pos.rules()))?;
    let missing = lib.missing_note(pos.rules(), &answer.missing);
    Ok((answer, missing))
}

impl Library {
    /// Where the values of `pos` come from: the built-in check for a one-animal-each flip
    /// position, else the tables of its rule set.
    ///
    /// # Errors
    /// 400 for a finished game or face-down tiles; 404 when its table is not there.
    pub fn values(&self, pos: &Position) -> Result<Held, ApiError> {
        self.check_probeable(pos)?;
        if Values::is_one_each(pos) {
            return Ok(Held::OneEach);
        }
        let tb = self.tables(pos.rules());
        Ok(Held::Tables(self.holding(pos, tb, |tb| tb.max_pieces())?))
    }
}

/// The values of one answer, held while it is computed: a rule set's tables, or the flip
/// game's built-in check of one animal each.
pub enum Held {
    /// The tables.
    Tables(Arc<Tablebase>),
    /// The built-in check.
    OneEach,
}

impl Held {
    /// The values these hold.
    #[must_use]
    pub fn values(&self) -> Values<'_> {
        match self {
            Held::Tables(tb) => Values::Tables(tb),
            Held::OneEach => Values::OneEach,
        }
    }
}

/// The answer of `GET /api/v1/flip4x4` for a position with face-down tiles: its chance value at
/// its clock, as `jtb probe --json` gives it for the canonical text.
///
/// # Errors
/// A finished game (400), missing chance tables (404), damaged ones (500).
fn chance_probe(lib: &Library, pos: &Position) -> Result<serde_json::Value, ApiError> {
    if pos.is_game_over() {
        return Err(lib.error(jtb_probe::ProbeError::GameOver, pos.rules()));
    }
    let tables = lib.chance_tables()?;
    let answer = jtb_edge::ChanceAnswer::probe(&tables, pos.clone())
        .map_err(|e| lib.error(e, pos.rules()))?;
    Ok(answer.json(&pos.to_string()))
}

/// The answer of `GET /api/v1/flip4x4/line` for a position with face-down tiles: the edge's
/// line up to the first flip ([`jtb_edge::ChanceLine`]).
///
/// # Errors
/// 400 for a finished game; 404 for a missing table, 500 for a damaged one.
fn chance_line(lib: &Library, pos: &Position) -> Result<serde_json::Value, ApiError> {
    if pos.is_game_over() {
        return Err(lib.error(jtb_probe::ProbeError::GameOver, pos.rules()));
    }
    let tables = lib.chance_tables()?;
    jtb_edge::ChanceLine::probe(&tables, pos.clone())
        .map(|line| line.json())
        .map_err(|e| lib.error(e, pos.rules()))
}
