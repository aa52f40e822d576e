//! Clesto in the API (RULES.md 6), on the same routes as the other games
//! (`/api/v1/clesto...`): no draws and no clock; a value is a plain win or loss with its
//! distance to mate, or a win or loss by the repetition ban with the banned side's exit
//! distance. Every move carries the animals it starves, and a position its hungry set. The
//! answers are the edge's (`jtb_edge::ClestoAnswer` with its moves or its line, printed by its
//! `api_json` and `api_line_json`); its values come from Clesto's tables through
//! [`ClestoSource`].

use std::sync::Arc;

use jtb_edge::Asked;
use jtb_probe::{Clesto, Position, ProbeError, Tablebase};

use axum::{
    response::{IntoResponse, Response},
    Json,
};

use super::{api::Routes, error::ApiError, source::Library};

impl Routes for jtb_edge::games::Clesto {
    type Position = Position;

    /// `GET /api/v1/clesto?position=...`: the value, the best move, the banned side, the hungry
    /// set and every move, best first.
    ///
    /// # Errors
    /// As the other rule sets' answers: 404 for a missing table, 500 for a damaged one.
    fn probe(lib: &Library, pos: &Position) -> Result<Response, ApiError> {
        let source = lib.clesto_source(pos)?;
        let answer =
            source.clesto(|tb| jtb_edge::ClestoAnswer::probe(tb, pos.clone(), Asked::MOVES))?;
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
        let answer =
            source.clesto(|tb| jtb_edge::ClestoAnswer::probe(tb, pos.clone(), Asked::LINES))?;
        // A set without the files a line needs answers `null` for it, and `missing` names them.
        Ok(answer.api_line_json(lib.missing_note(Clesto, &answer.missing)))
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
