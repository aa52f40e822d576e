//! Clesto in the API (RULES.md 6), on the same routes as the other games
//! (`/api/v1/clesto...`): no draws and no clock; a value is a plain win or loss with its
//! distance to mate, or a win or loss by the repetition ban with the banned side's exit
//! distance. Every move carries the animals it starves, and a position its hungry set. Its
//! values come from Clesto's tables through [`ClestoSource`].

use std::sync::Arc;

use jtb_edge::{kind_name, MissingFiles};
use jtb_probe::{
    banned_side, Clesto, ClestoValue, LineStep, Material, MoveKind, Outcome, Position, ProbeError,
    SquareSet, Tablebase, Value, Wdl,
};
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

/// A Clesto value as the API writes it, for the side to move: `wdl` always win or loss, `dtm`
/// for a plain value (null where the ban decides), `category` `win`, `loss`, `ban-win` or
/// `ban-loss`, and `exit`, the banned side's plies to a smaller material it wins, where the
/// ban decides and it can force one (null otherwise).
#[derive(Serialize)]
pub struct ClestoFields {
    wdl: &'static str,
    dtm: Option<u16>,
    category: Option<&'static str>,
    exit: Option<u16>,
}

impl ClestoFields {
    /// The fields of a value, or of a WDL alone where the set holds no DTM or ban file (the
    /// rest `null`).
    fn of(wdl: Wdl, value: Option<ClestoValue>) -> ClestoFields {
        value.map_or(
            ClestoFields {
                wdl: wdl.name(),
                dtm: None,
                category: None,
                exit: None,
            },
            ClestoFields::from,
        )
    }
}

impl From<ClestoValue> for ClestoFields {
    fn from(v: ClestoValue) -> ClestoFields {
        ClestoFields {
            wdl: v.wdl().name(),
            dtm: v.dtm(),
            category: Some(v.category()),
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
    /// The files of the tables that the set does not hold (WDL files alone), where the answer
    /// needed one: the fields that need them are `null`.
    #[serde(skip_serializing_if = "Option::is_none")]
    missing: Option<String>,
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
    crate::games::clesto::starvations(pos, mv).map_err(|e| ApiError::internal(e.to_string()))
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
        // A set without some of the table's files (WDL files alone) answers what it holds:
        // the fields that need another file are null, and `missing` names it.
        let mut missing = MissingFiles::default();
        let value = source.noting(&mut missing, |tb| tb.probe_clesto(pos))?;
        let wdl = match value {
            Some(v) => v.wdl(),
            None => source.clesto(|tb| tb.probe_wdl(pos))?,
        };
        let best = source
            .noting(&mut missing, |tb| tb.clesto_best_move(pos))?
            .flatten();
        let scored: Vec<(jtb_probe::Move, Option<ClestoValue>)> =
            match source.noting(&mut missing, |tb| tb.clesto_moves(pos))? {
                Some(mut scored) => {
                    // Best first for the mover; equal values stay in ASCII order (the
                    // library's order).
                    scored.sort_by_key(|&(_, v)| std::cmp::Reverse(v));
                    scored.into_iter().map(|(mv, v)| (mv, Some(v))).collect()
                }
                // Without distances, in move order (ASCII).
                None => pos.legal_moves().into_iter().map(|mv| (mv, None)).collect(),
            };
        let mut moves = Vec::with_capacity(scored.len());
        for (mv, mover) in scored {
            let kind = move_kind(pos, mv)?;
            let (position, after, banned, end, after_wdl, ended) = match play(pos, mv)? {
                Outcome::Over { result, reason } => (
                    None,
                    // The side that would move next has lost (or won, after the mover's own last
                    // animal starved) in 0.
                    ClestoFields::from(ClestoValue::Plain(match result.flipped() {
                        Wdl::Win => Value::Win(0),
                        Wdl::Loss => Value::Loss(0),
                        Wdl::Draw => Value::Draw,
                    })),
                    None,
                    Some(reason.to_string()),
                    result.flipped(),
                    // A move that ends the game is won or lost in 1, with every file or without.
                    Some(ClestoValue::Plain(result.of_final_move())),
                ),
                Outcome::Ongoing(next) => {
                    let v = source.noting(&mut missing, |tb| tb.probe_clesto(&next))?;
                    let next_wdl = match v {
                        Some(v) => v.wdl(),
                        None => source.clesto(|tb| tb.probe_wdl(&next))?,
                    };
                    (
                        Some(next.to_string()),
                        ClestoFields::of(next_wdl, v),
                        Some(banned_of(&next)),
                        None,
                        next_wdl,
                        None,
                    )
                }
            };
            // The move's worth to its mover: the table's, else the WDL after it, seen back.
            let mover = match (mover, ended) {
                (Some(v), _) | (None, Some(v)) => ClestoFields::from(v),
                (None, None) => ClestoFields::of(after_wdl.flipped(), None),
            };
            moves.push(ClestoMoveAnswer {
                mv: mv.to_string(),
                position,
                capture: matches!(kind, MoveKind::Capture | MoveKind::Trade),
                kind: kind_name(kind),
                end,
                starves: starves(pos, mv)?,
                after,
                banned,
                mover,
            });
        }
        Ok(Json(ClestoAnswer {
            position: pos.to_string(),
            rules: pos.rules().name(),
            value: ClestoFields::of(wdl, value),
            best: best.map(|(mv, _)| mv.to_string()),
            banned: banned_of(pos),
            hungry: square_names(pos, pos.hungry()),
            hungry_canonical: pos.hungry_is_canonical(),
            moves,
            missing: lib.missing_note(Clesto, &missing),
        })
        .into_response())
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
            let fields = step.value.map(ClestoFields::from);
            steps.push(ClestoStep {
                mv: step.mv.to_string(),
                kind,
                end,
                starves,
                position: step.position.as_ref().map(ToString::to_string),
                wdl: fields.as_ref().map(|f| f.wdl),
                dtm: fields.as_ref().and_then(|f| f.dtm),
                category: fields.as_ref().and_then(|f| f.category),
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
