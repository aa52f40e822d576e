//! Where the server's values come from: each rule set's tables under one directory, opened once
//! and shared by every request, or for the flip game's one-animal-each positions the library's
//! built-in check, which needs no table file.

use std::path::{Path, PathBuf};

use jtb_probe::{
    dead_draw, Adjudication, Category, LineStep, Move, NotApplicable, Outcome, Position,
    ProbeError, RuleSet, RuleStep, RuleValue, ScoredMove, TableError, Tablebase, Value,
};

use super::error::ApiError;

/// The tables of every rule set under one root directory.
pub struct Library {
    root: PathBuf,
    /// Per rule set (in [`RuleSet::ALL`] order): its tables, or why there are none.
    sets: Vec<Result<Tablebase, String>>,
}

impl Library {
    /// Finds the tables of every rule set under `root` (`root/<rules>/`), each with a shared
    /// cache of `cache_bytes` decoded bytes. A rule set without a directory is remembered with
    /// the reason: its requests answer 404, and the flip game still has its built-in check.
    #[must_use]
    pub fn open(root: &Path, cache_bytes: u64) -> Library {
        let mut lib = Library {
            root: root.to_owned(),
            sets: Vec::new(),
        };
        for rules in RuleSet::ALL {
            let opened = Tablebase::with_cache(root, rules, cache_bytes);
            let opened = opened.map_err(|e| lib.describe(e));
            lib.sets.push(opened);
        }
        lib
    }

    /// The tables of `rules`, or why there are none.
    pub fn tables(&self, rules: RuleSet) -> Result<&Tablebase, &str> {
        let i = RuleSet::ALL.iter().position(|&r| r == rules).unwrap_or(0);
        self.sets[i].as_ref().map_err(String::as_str)
    }

    /// The table root.
    #[must_use]
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// `path` as the API shows it: relative to the table root, so that an answer names the
    /// table file without telling where the server keeps it.
    #[must_use]
    pub fn show(&self, path: &Path) -> String {
        path.strip_prefix(&self.root)
            .unwrap_or(path)
            .display()
            .to_string()
    }

    /// A table file's error, naming the file relative to the root.
    #[must_use]
    pub fn describe_table(&self, mut e: TableError) -> String {
        e.path = PathBuf::from(self.show(&e.path));
        e.to_string()
    }

    /// A probe's error as one line that names files relative to the root.
    fn describe(&self, e: ProbeError) -> String {
        match e {
            ProbeError::NoDirectory(dir, io) => {
                format!("no tables in {}: {io}", self.show(&dir))
            }
            ProbeError::MissingTable { material, path } => {
                format!(
                    "missing table {material} ({} is not there)",
                    self.show(&path)
                )
            }
            ProbeError::Table(t) => self.describe_table(*t),
            other => other.to_string(),
        }
    }

    /// The API error of a failed probe: 400 for a position no table can hold (a finished game,
    /// face-down tiles), 404 for a table that is not there, 500 for damaged or inconsistent
    /// tables. Every message names the table file where there is one.
    #[must_use]
    pub fn error(&self, e: ProbeError) -> ApiError {
        let status = match &e {
            ProbeError::GameOver
            | ProbeError::HiddenTiles
            | ProbeError::WrongRules { .. }
            | ProbeError::NotForRules { .. } => ApiError::bad_request,
            ProbeError::NoDirectory(..)
            | ProbeError::TooManyPieces { .. }
            | ProbeError::MissingTable { .. } => ApiError::not_found,
            ProbeError::Table(_) | ProbeError::Inconsistent { .. } => ApiError::internal,
        };
        status(self.describe(e))
    }

    /// Where the values of `pos` come from: the built-in check for a one-animal-each flip
    /// position, else the tables of its rule set.
    ///
    /// # Errors
    /// 400 for a finished game or face-down tiles; 404 when the rule set has no tables.
    pub fn source(&self, pos: &Position) -> Result<Source<'_>, ApiError> {
        if pos.is_game_over() {
            return Err(self.error(ProbeError::GameOver));
        }
        if pos.hidden() != 0 {
            return Err(self.error(ProbeError::HiddenTiles));
        }
        let one_each = pos.rules() == RuleSet::Flip4x4
            && !matches!(
                dead_draw(pos, Some(0)),
                Adjudication::NotApplicable(NotApplicable::NotOneEach { .. })
            );
        let kind = if one_each {
            Kind::OneEach
        } else {
            let tb = self.tables(pos.rules()).map_err(ApiError::not_found)?;
            Kind::Tables(tb)
        };
        Ok(Source { lib: self, kind })
    }
}

enum Kind<'a> {
    Tables(&'a Tablebase),
    /// The flip game's one-animal-each positions: every capture ends the game, so the built-in
    /// check's distance is the DTM and the DTC alike (RULES.md 5.7).
    OneEach,
}

/// The values of one position and of every position reached from it.
pub struct Source<'a> {
    lib: &'a Library,
    kind: Kind<'a>,
}

impl Source<'_> {
    /// The plain value with its distance to mate.
    ///
    /// # Errors
    /// The probe's error, as [`Library::error`] maps it.
    pub fn value(&self, pos: &Position) -> Result<Value, ApiError> {
        match self.kind {
            Kind::Tables(tb) => tb.probe_dtm(pos).map_err(|e| self.lib.error(e)),
            Kind::OneEach => one_each_value(pos),
        }
    }

    /// The value under the clock rule at the position's clock, with DTC and category.
    ///
    /// # Errors
    /// As [`Source::value`].
    pub fn rule(&self, pos: &Position) -> Result<RuleValue, ApiError> {
        match self.kind {
            Kind::Tables(tb) => tb.probe_rule(pos).map_err(|e| self.lib.error(e)),
            Kind::OneEach => {
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
        let Kind::Tables(tb) = self.kind else {
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
            ScoredMove::sort_best_first(&mut moves);
            return Ok(moves);
        };
        tb.ranked_moves(pos).map_err(|e| self.lib.error(e))
    }

    /// The best line to the end of the game (empty for a draw).
    ///
    /// # Errors
    /// As [`Source::ranked_moves`].
    pub fn line(&self, pos: &Position) -> Result<Vec<LineStep>, ApiError> {
        match self.kind {
            Kind::Tables(tb) => tb.line(pos).map_err(|e| self.lib.error(e)),
            Kind::OneEach if self.value(pos)? == Value::Draw => Ok(Vec::new()),
            Kind::OneEach => self.one_each_line(pos.without_clocks(), |p| self.value(p)),
        }
    }

    /// The line under the clock rule from the position at its clock (empty for a rule draw).
    ///
    /// # Errors
    /// As [`Source::ranked_moves`].
    pub fn rule_line(&self, pos: &Position) -> Result<Vec<RuleStep>, ApiError> {
        match self.kind {
            Kind::Tables(tb) => tb.rule_line(pos).map_err(|e| self.lib.error(e)),
            Kind::OneEach if self.rule(pos)?.is_draw() => Ok(Vec::new()),
            // One animal each: DTC is DTM, so in a rule win or loss the rule's best move (the
            // smallest DTC for the winner, the largest for the loser) is the plain best move.
            Kind::OneEach => self.one_each_line(pos.clone(), |p| self.rule(p)),
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

/// Plays a move the library listed as legal.
///
/// # Errors
/// 500 if it is not legal after all (it always is).
pub fn play(pos: &Position, mv: Move) -> Result<Outcome, ApiError> {
    pos.play(mv).map_err(|e| ApiError::internal(e.to_string()))
}

/// The plain value of a one-animal-each flip position from the built-in check at clock 0 (no
/// such position needs more than 31 plies, so at clock 0 the check is the plain value).
fn one_each_value(pos: &Position) -> Result<Value, ApiError> {
    dead_draw(pos, Some(0)).value_for(pos).ok_or_else(|| {
        ApiError::internal(format!("the one-animal-each check does not apply to {pos}"))
    })
}
