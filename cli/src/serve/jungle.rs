//! Jungle and the flip game in the API (the Jungle family's rule sets but Clesto, whose answers
//! add to these): a position's value with its distance to mate and its value under the clock
//! rule at its clock, every move with both, the best line and the line under the clock rule,
//! and the legal moves (with face-down tiles, the flips too, answered by the edge's chance
//! answers: `jtb_edge::ChanceAnswer`, `jtb_edge::ChanceLine`); and where the values of a position
//! and of the positions after it come from ([`Source`]: the tables, or the flip game's built-in
//! check of one animal each).

use std::sync::Arc;

use jtb_edge::{games::GameAnswer, MissingFiles};
use jtb_probe::{
    dead_draw, Adjudication, Category, LineStep, Move, MoveKind, NotApplicable, Outcome, Position,
    RuleSet, RuleStep, RuleValue, ScoredMove, Tablebase, Value, Wdl,
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
    source::{play, Library},
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
    category: Option<&'static str>,
    clock: u32,
    rule_wdl: Option<&'static str>,
    /// The best move under the clock rule at `clock` (`null` in a rule draw).
    rule_best: Option<String>,
    moves: Vec<MoveAnswer>,
    /// The files of the tables that the set does not hold (WDL files alone), where the answer
    /// needed one: the fields that need them are `null`.
    #[serde(skip_serializing_if = "Option::is_none")]
    missing: Option<String>,
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
    category: Option<&'static str>,
    /// The clock after the move (0 after a capture); `null` when the game ended.
    clock: Option<u32>,
    rule_wdl: Option<&'static str>,
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

pub const fn kind_name(kind: MoveKind) -> &'static str {
    match kind {
        MoveKind::Quiet => "quiet",
        MoveKind::DenEntry => "den-entry",
        MoveKind::Capture => "capture",
        MoveKind::Trade => "trade",
    }
}

pub fn move_kind(pos: &Position, mv: jtb_probe::Move) -> Result<MoveKind, ApiError> {
    pos.move_kind(mv)
        .ok_or_else(|| ApiError::internal(format!("{mv} is not legal in {pos}")))
}

fn move_answer(
    source: &Source<'_>,
    pos: &Position,
    mv: jtb_probe::Move,
    missing: &mut MissingFiles,
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
                category: Some(after.name()),
                clock: None,
                rule_wdl: Some(after.name()),
            }
        }
        Outcome::Ongoing(next) => {
            let value = source.value_noting(&next, missing)?;
            let wdl = match value {
                Some(v) => v.wdl(),
                None => source.wdl(&next)?,
            };
            let rule = source.rule_noting(&next, missing)?;
            MoveAnswer {
                mv: mv.to_string(),
                position: Some(next.to_string()),
                capture,
                kind: kind_name(kind),
                end: None,
                wdl: wdl.name(),
                dtm: value.and_then(Value::dtm),
                dtc: rule.and_then(|r| r.dtc.dtm()),
                category: rule.map(|r| r.category.name()),
                clock: Some(next.clock().unwrap_or(0)),
                rule_wdl: rule.map(|r| r.wdl.name()),
            }
        }
    })
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
    missing: &mut MissingFiles,
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
                let value = source.value_noting(&next, missing)?;
                let wdl = match value {
                    Some(v) => v.wdl(),
                    None => source.wdl(&next)?,
                };
                let rule = source.rule_noting(&next, missing)?;
                let step = StepAnswer {
                    mv: mv.to_string(),
                    kind,
                    end: None,
                    position: Some(next.to_string()),
                    clock: Some(next.clock().unwrap_or(0)),
                    wdl: Some(wdl.name()),
                    dtm: value.and_then(Value::dtm),
                    rule_wdl: rule.map(|r| r.wdl.name()),
                    dtc: rule.and_then(|r| r.dtc.dtm()),
                };
                current = next;
                step
            }
        };
        out.push(step);
    }
    Ok(out)
}

impl Routes for jtb_edge::games::Jungle {
    type Position = Position;

    /// The answer of `GET /api/v1/{rules}` for a Jungle or flip position; one with face-down
    /// tiles is answered by the flip game's chance tables ([`chance_probe`]).
    ///
    /// # Errors
    /// A missing table (404) or a damaged one (500).
    fn probe(lib: &Library, pos: &Position) -> Result<Response, ApiError> {
        if pos.hidden() != 0 {
            return Ok(Json(chance_probe(lib, pos)?).into_response());
        }
        let source = lib.source(pos)?;
        // A set without some of the table's files (WDL files alone) answers what it holds:
        // the fields that need another file are null, and `missing` names it.
        let mut missing = MissingFiles::default();
        let value = source.value_noting(pos, &mut missing)?;
        let wdl = match value {
            Some(v) => v.wdl(),
            None => source.wdl(pos)?,
        };
        let rule = source.rule_noting(pos, &mut missing)?;
        let ranked = match value {
            Some(_) => source.ranked_moves_noting(pos, &mut missing)?,
            None => None,
        };
        // As `jtb probe`: no best move in a draw, where every drawing move is as good.
        let best = match (wdl, &ranked) {
            (Wdl::Draw, _) | (_, None) => None,
            (_, Some(ranked)) => ranked.first().map(|m| m.mv.to_string()),
        };
        let rule_best = match rule {
            Some(_) => source
                .rule_best_noting(pos, &mut missing)?
                .flatten()
                .map(|m| m.to_string()),
            None => None,
        };
        // Without distances, the moves in move order (ASCII), each with what it holds.
        let order: Vec<jtb_probe::Move> = match ranked {
            Some(ranked) => ranked.iter().map(|m| m.mv).collect(),
            None => pos.legal_moves(),
        };
        // At the clock limit the game is drawn (RULES.md 5): no move leads on from it.
        let moves = if pos.at_clock_limit() {
            Vec::new()
        } else {
            order
                .into_iter()
                .map(|mv| move_answer(&source, pos, mv, &mut missing))
                .collect::<Result<_, _>>()?
        };
        Ok(Json(ProbeAnswer {
            position: pos.to_string(),
            rules: pos.rules().name(),
            wdl: wdl.name(),
            dtm: value.and_then(Value::dtm),
            best,
            dtc: rule.and_then(|r| r.dtc.dtm()),
            category: rule.map(|r| r.category.name()),
            clock: pos.clock().unwrap_or(0),
            rule_wdl: rule.map(|r| r.wdl.name()),
            rule_best,
            moves,
            missing: missing.note(),
        })
        .into_response())
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
        let source = lib.source(pos)?;
        // A set without the files a line needs answers `null` for it, and `missing` names them.
        let mut missing = MissingFiles::default();
        let plain = source.line_noting(pos, &mut missing)?;
        let rule = source.rule_line_noting(pos, &mut missing)?;
        let plain = match plain {
            Some(line) => {
                let moves = line.into_iter().map(|s| s.mv).collect();
                Some(steps(&source, pos, moves, &mut missing)?)
            }
            None => None,
        };
        let rule = match rule {
            Some(line) => {
                let moves = line.into_iter().map(|s: RuleStep| s.mv).collect();
                Some(steps(&source, pos, moves, &mut missing)?)
            }
            None => None,
        };
        let mut answer = json!({
            "position": pos.to_string(),
            "rules": pos.rules().name(),
            "clock": pos.clock().unwrap_or(0),
            "line": plain,
            "rule_line": rule,
        });
        if let Some(note) = missing.note() {
            answer["missing"] = json!(note);
        }
        Ok(answer)
    }

    /// The answer of `GET /api/v1/{rules}/moves` for a position of the family's type (Clesto's adds
    /// to it): the legal moves, in ASCII order, with the position after each; with face-down tiles
    /// the moves of the revealed pieces, the tiles that can be flipped and what each flip may
    /// reveal.
    ///
    /// # Errors
    /// 500 if a listed move is not legal (it always is).
    fn moves(pos: &Position) -> Result<serde_json::Value, ApiError> {
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
                move_kind(pos, mv)?
            };
            let (after, end) = if hidden {
                (None, None)
            } else {
                match play(pos, mv)? {
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
            answer["flip_outcomes"] = jtb_edge::flips_json(pos, &flipped);
        }
        Ok(answer)
    }
}

impl Library {
    /// Where the values of `pos` come from: the built-in check for a one-animal-each flip
    /// position, else the tables of its rule set.
    ///
    /// # Errors
    /// 400 for a finished game or face-down tiles; 404 when its table is not there.
    pub fn source(&self, pos: &Position) -> Result<Source<'_>, ApiError> {
        let rules = pos.rules();
        self.check_probeable(pos)?;
        let one_each = rules == RuleSet::Flip4x4
            && !matches!(
                dead_draw(pos, Some(0)),
                Adjudication::NotApplicable(NotApplicable::NotOneEach { .. })
            );
        let origin = if one_each {
            Origin::OneEach
        } else {
            let tb = self.tables(rules);
            Origin::Tables(self.holding(pos, tb, |tb| tb.max_pieces())?)
        };
        Ok(Source { lib: self, origin })
    }
}

/// Where a [`Source`]'s values come from.
enum Origin {
    Tables(Arc<Tablebase>),
    /// The flip game's one-animal-each positions: every capture ends the game, so the built-in
    /// check's distance is the DTM and the DTC alike (RULES.md 5.7).
    OneEach,
}

/// The values of one position and of every position reached from it.
pub struct Source<'a> {
    lib: &'a Library,
    origin: Origin,
}

impl Source<'_> {
    /// The plain value with its distance to mate.
    ///
    /// # Errors
    /// The probe's error, as [`Library::error`] maps it.
    pub fn value(&self, pos: &Position) -> Result<Value, ApiError> {
        match &self.origin {
            Origin::Tables(tb) => tb
                .probe_dtm(pos)
                .map_err(|e| self.lib.error(e, pos.rules())),
            Origin::OneEach => one_each_value(pos),
        }
    }

    /// The value under the clock rule at the position's clock, with DTC and category.
    ///
    /// # Errors
    /// As [`Source::value`].
    pub fn rule(&self, pos: &Position) -> Result<RuleValue, ApiError> {
        match &self.origin {
            Origin::Tables(tb) => tb
                .probe_rule(pos)
                .map_err(|e| self.lib.error(e, pos.rules())),
            Origin::OneEach => {
                let dtc = one_each_value(pos)?;
                let category = Category::of(dtc.wdl(), dtc, RuleSet::Flip4x4.clock_limit());
                let clock = pos.clock().unwrap_or(0);
                Ok(RuleValue::new(RuleSet::Flip4x4, clock, dtc, category))
            }
        }
    }

    /// Every legal move with its value for the mover, best first (the library's order).
    ///
    /// # Errors
    /// As [`Source::value`], for the position or a successor.
    pub fn ranked_moves(&self, pos: &Position) -> Result<Vec<ScoredMove>, ApiError> {
        let Origin::Tables(tb) = &self.origin else {
            let mut moves = Vec::new();
            let mut failed = None;
            pos.for_each_outcome(|mv, outcome| {
                let value = match outcome {
                    Outcome::Over { result, .. } => Ok(result.of_final_move()),
                    Outcome::Ongoing(next) => one_each_value(&next).map(Value::back_one_ply),
                };
                match value {
                    Ok(value) => moves.push(ScoredMove { mv, value }),
                    Err(e) => failed = Some(e),
                }
            });
            if let Some(e) = failed {
                return Err(e);
            }
            moves.sort_unstable_by_key(|m| m.mv);
            ScoredMove::sort_best_first(&mut moves);
            return Ok(moves);
        };
        tb.ranked_moves(pos)
            .map_err(|e| self.lib.error(e, pos.rules()))
    }

    /// The result of a probe of the tables, `None` and noted in `missing` where the set holds
    /// no file of the table that it needs.
    fn noting<T>(
        &self,
        pos: &Position,
        missing: &mut MissingFiles,
        probe: impl FnOnce(&Tablebase) -> jtb_probe::ProbeResult<T>,
    ) -> Result<Option<T>, ApiError> {
        let Origin::Tables(tb) = &self.origin else {
            return Err(ApiError::internal("the built-in check has no files"));
        };
        self.lib.noting(pos.rules(), missing, probe(tb))
    }

    /// Win, draw or loss, the clock rule aside (from the WDL file).
    ///
    /// # Errors
    /// As [`Source::value`].
    pub fn wdl(&self, pos: &Position) -> Result<Wdl, ApiError> {
        match &self.origin {
            Origin::Tables(tb) => tb
                .probe_wdl(pos)
                .map_err(|e| self.lib.error(e, pos.rules())),
            Origin::OneEach => Ok(one_each_value(pos)?.wdl()),
        }
    }

    /// As [`Source::value`]; `None`, noted in `missing`, where the set holds no DTM file of
    /// the table.
    ///
    /// # Errors
    /// As [`Source::value`].
    pub fn value_noting(
        &self,
        pos: &Position,
        missing: &mut MissingFiles,
    ) -> Result<Option<Value>, ApiError> {
        match &self.origin {
            Origin::Tables(_) => self.noting(pos, missing, |tb| tb.probe_dtm(pos)),
            Origin::OneEach => self.value(pos).map(Some),
        }
    }

    /// As [`Source::rule`]; `None`, noted in `missing`, where the set holds no DTC file of
    /// the table.
    ///
    /// # Errors
    /// As [`Source::value`].
    pub fn rule_noting(
        &self,
        pos: &Position,
        missing: &mut MissingFiles,
    ) -> Result<Option<RuleValue>, ApiError> {
        match &self.origin {
            Origin::Tables(_) => self.noting(pos, missing, |tb| tb.probe_rule(pos)),
            Origin::OneEach => self.rule(pos).map(Some),
        }
    }

    /// As [`Source::ranked_moves`]; `None`, noted in `missing`, where the set holds no DTM
    /// file of a table it needs.
    ///
    /// # Errors
    /// As [`Source::ranked_moves`].
    pub fn ranked_moves_noting(
        &self,
        pos: &Position,
        missing: &mut MissingFiles,
    ) -> Result<Option<Vec<ScoredMove>>, ApiError> {
        match &self.origin {
            Origin::Tables(_) => self.noting(pos, missing, |tb| tb.ranked_moves(pos)),
            Origin::OneEach => self.ranked_moves(pos).map(Some),
        }
    }

    /// As [`Source::line`]; `None`, noted in `missing`, where the set holds no file of a
    /// table it needs.
    ///
    /// # Errors
    /// As [`Source::line`].
    pub fn line_noting(
        &self,
        pos: &Position,
        missing: &mut MissingFiles,
    ) -> Result<Option<Vec<LineStep>>, ApiError> {
        match &self.origin {
            Origin::Tables(_) => self.noting(pos, missing, |tb| tb.line(pos)),
            Origin::OneEach => self.line(pos).map(Some),
        }
    }

    /// As [`Source::rule_line`]; `None`, noted in `missing`, where the set holds no file of a
    /// table it needs.
    ///
    /// # Errors
    /// As [`Source::rule_line`].
    pub fn rule_line_noting(
        &self,
        pos: &Position,
        missing: &mut MissingFiles,
    ) -> Result<Option<Vec<RuleStep>>, ApiError> {
        match &self.origin {
            Origin::Tables(_) => self.noting(pos, missing, |tb| tb.rule_line(pos)),
            Origin::OneEach => self.rule_line(pos).map(Some),
        }
    }

    /// As [`Source::rule_best`]; `None`, noted in `missing`, where the set holds no file of a
    /// table it needs.
    ///
    /// # Errors
    /// As [`Source::rule_best`].
    pub fn rule_best_noting(
        &self,
        pos: &Position,
        missing: &mut MissingFiles,
    ) -> Result<Option<Option<Move>>, ApiError> {
        match &self.origin {
            Origin::Tables(_) => {
                if self.rule(pos)?.is_draw() {
                    return Ok(Some(None));
                }
                self.noting(pos, missing, |tb| {
                    tb.rule_best_move(pos).map(|m| m.map(|m| m.mv))
                })
            }
            Origin::OneEach => self.rule_best(pos).map(Some),
        }
    }

    /// The best move under the clock rule at the position's clock: `None` in a rule draw
    /// (every drawing move is as good) and when the side to move has no move.
    ///
    /// # Errors
    /// As [`Source::ranked_moves`].
    pub fn rule_best(&self, pos: &Position) -> Result<Option<Move>, ApiError> {
        if self.rule(pos)?.is_draw() {
            return Ok(None);
        }
        match &self.origin {
            Origin::Tables(tb) => tb
                .rule_best_move(pos)
                .map(|m| m.map(|m| m.mv))
                .map_err(|e| self.lib.error(e, pos.rules())),
            // One animal each: DTC is DTM (see `rule_line`).
            Origin::OneEach => Ok(self.ranked_moves(pos)?.first().map(|m| m.mv)),
        }
    }

    /// The best line to the end of the game (empty for a draw).
    ///
    /// # Errors
    /// As [`Source::ranked_moves`].
    pub fn line(&self, pos: &Position) -> Result<Vec<LineStep>, ApiError> {
        match &self.origin {
            Origin::Tables(tb) => tb.line(pos).map_err(|e| self.lib.error(e, pos.rules())),
            Origin::OneEach if self.value(pos)? == Value::Draw => Ok(Vec::new()),
            Origin::OneEach => self.one_each_line(pos.without_clocks(), |p| self.value(p)),
        }
    }

    /// The line under the clock rule from the position at its clock (empty for a rule draw).
    ///
    /// # Errors
    /// As [`Source::ranked_moves`].
    pub fn rule_line(&self, pos: &Position) -> Result<Vec<RuleStep>, ApiError> {
        match &self.origin {
            Origin::Tables(tb) => tb
                .rule_line(pos)
                .map_err(|e| self.lib.error(e, pos.rules())),
            Origin::OneEach if self.rule(pos)?.is_draw() => Ok(Vec::new()),
            // One animal each: DTC is DTM, so in a rule win or loss the rule's best move (the
            // smallest DTC for the winner, the largest for the loser) is the plain best move.
            Origin::OneEach => self.one_each_line(pos.clone(), |p| self.rule(p)),
        }
    }

    /// Plays best moves from `start` to the end of the game, each step with the `value` of the
    /// position after it.
    fn one_each_line<V>(
        &self,
        start: Position,
        value: impl Fn(&Position) -> Result<V, ApiError>,
    ) -> Result<Vec<LineStep<V>>, ApiError> {
        let mut line = Vec::new();
        let mut current = start;
        while let Some(best) = self.ranked_moves(&current)?.first().map(|m| m.mv) {
            match play(&current, best)? {
                Outcome::Over { .. } => {
                    line.push(LineStep {
                        mv: best,
                        position: None,
                        value: None,
                    });
                    break;
                }
                Outcome::Ongoing(next) => {
                    line.push(LineStep {
                        mv: best,
                        value: Some(value(&next)?),
                        position: Some(next.clone()),
                    });
                    current = next;
                }
            }
        }
        Ok(line)
    }
}

/// The plain value of a one-animal-each flip position from the built-in check at clock 0 (no
/// such position needs more than 31 plies, so at clock 0 the check is the plain value).
fn one_each_value(pos: &Position) -> Result<Value, ApiError> {
    dead_draw(pos, Some(0)).value_for(pos).ok_or_else(|| {
        ApiError::internal(format!("the one-animal-each check does not apply to {pos}"))
    })
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
