//! Clesto in the API (RULES.md 6), on the same routes as the other games
//! (`/api/v1/clesto...`): no draws and no clock; a value is a plain win or loss with its
//! distance to mate, or a win or loss by the repetition ban with the banned side's exit
//! distance. Every move carries the animals it starves, and a position its hungry set. The
//! answer is the edge's (`jtb_edge::ClestoAnswer` with its moves, printed by its `api_json`);
//! its values come from Clesto's tables through [`ClestoSource`].

use std::sync::Arc;

use jtb_edge::{banned_of, kind_name, square_names, starvations, Asked, MissingFiles};
use jtb_probe::{Clesto, ClestoValue, LineStep, Outcome, Position, ProbeError, Tablebase};
use serde::Serialize;
use serde_json::json;

use axum::{
    response::{IntoResponse, Response},
    Json,
};

use super::{
    api::Routes,
    error::ApiError,
    jungle::move_kind,
    source::{play, Library},
};

fn starves(pos: &Position, mv: jtb_probe::Move) -> Result<Vec<String>, ApiError> {
    starvations(pos, mv).map_err(|e| ApiError::internal(e.to_string()))
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

impl Routes for jtb_edge::games::Clesto {
    type Position = Position;

    /// `GET /api/v1/clesto?position=...`: the value, the best move, the banned side, the hungry
    /// set and every move, best first.
    ///
    /// # Errors
    /// As the other rule sets' answers: 404 for a missing table, 500 for a damaged one.
    fn probe(lib: &Library, pos: &Position) -> Result<Response, ApiError> {
        let source = lib.clesto_source(pos)?;
        let asked = Asked {
            lines: false,
            moves: true,
        };
        let answer = source.clesto(|tb| jtb_edge::ClestoAnswer::probe(tb, pos.clone(), asked))?;
        let missing = lib.missing_note(Clesto, &answer.missing);
        Ok(Json(answer.api_json(missing)).into_response())
    }

    /// `GET /api/v1/clesto/line`: the best line (RULES.md 6.6), which stops at the first position
    /// the unbanned side wins only by the ban (`line_stops_at_ban`, as `jtb probe --line`).
    ///
    /// # Errors
    /// As [`Routes::probe`].
    fn line(lib: &Library, pos: &Position) -> Result<serde_json::Value, ApiError> {
        let source = lib.clesto_source(pos)?;
        // A set without the files a line needs answers `null` for it, and `missing` names them.
        let mut missing = MissingFiles::default();
        let value = source.noting(&mut missing, |tb| tb.probe_clesto(pos))?;
        let line: Option<Vec<LineStep<ClestoValue, Clesto>>> = match value {
            Some(_) => source.noting(&mut missing, |tb| tb.clesto_line(pos))?,
            None => None,
        };
        let (Some(value), Some(line)) = (value, line) else {
            return Ok(json!({
                "position": pos.to_string(),
                "rules": pos.rules().name(),
                "line": null,
                "line_stops_at_ban": null,
                "missing": lib.missing_note(Clesto, &missing),
            }));
        };
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
            let value = step.value;
            steps.push(ClestoStep {
                mv: step.mv.to_string(),
                kind,
                end,
                starves,
                position: step.position.as_ref().map(ToString::to_string),
                wdl: value.map(|v| v.wdl().name()),
                dtm: value.and_then(ClestoValue::dtm),
                category: value.map(ClestoValue::category),
                exit: value.and_then(ClestoValue::exit),
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

    /// `GET /api/v1/clesto/moves`: Clesto's fields added to the moves the family's rule sets list
    /// (Jungle's [`Routes::moves`]): the animals each move starves, and the mover's hungry set.
    ///
    /// # Errors
    /// 500 if a listed move is not legal (it always is).
    fn moves(pos: &Position) -> Result<serde_json::Value, ApiError> {
        let mut listed = <jtb_edge::games::Jungle as Routes>::moves(pos)?;
        if let Some(moves) = listed["moves"].as_array_mut() {
            for (mv, entry) in pos.revealed_moves().into_iter().zip(moves) {
                entry["starves"] = json!(starves(pos, mv)?);
            }
        }
        listed["hungry"] = json!(square_names(pos, pos.hungry()));
        listed["hungry_canonical"] = json!(pos.hungry_is_canonical());
        Ok(listed)
    }
}

impl Library {
    /// Clesto's tables for `pos`, a Clesto position.
    ///
    /// # Errors
    /// As [`Library::source`].
    pub fn clesto_source(&self, pos: &Position) -> Result<ClestoSource<'_>, ApiError> {
        self.check_probeable(pos)?;
        let tb = self.holding(
            pos,
            self.game_tables::<jtb_edge::games::Clesto>(jtb_edge::Rules::Jungle(Clesto::RULES)),
            |tb| tb.max_pieces(),
        )?;
        Ok(ClestoSource { lib: self, tb })
    }
}

/// Clesto's tables, for one position and every position reached from it.
pub struct ClestoSource<'a> {
    lib: &'a Library,
    tb: Arc<Tablebase<Clesto>>,
}

impl ClestoSource<'_> {
    /// As [`ClestoSource::clesto`]; `None`, noted in `missing`, where the set holds no file of
    /// a table that `probe` needs.
    ///
    /// # Errors
    /// `probe`'s other errors.
    pub fn noting<T>(
        &self,
        missing: &mut MissingFiles,
        probe: impl FnOnce(&Tablebase<Clesto>) -> Result<T, ProbeError>,
    ) -> Result<Option<T>, ApiError> {
        self.lib.noting(Clesto, missing, probe(&self.tb))
    }

    /// A Clesto answer of the tables (RULES.md 6: values by DTM or by the repetition ban):
    /// `probe` runs on them, its error mapped as [`Library::error`] maps it.
    ///
    /// # Errors
    /// `probe`'s error.
    pub fn clesto<T>(
        &self,
        probe: impl FnOnce(&Tablebase<Clesto>) -> Result<T, ProbeError>,
    ) -> Result<T, ApiError> {
        probe(&self.tb).map_err(|e| self.lib.error(e, Clesto))
    }
}
