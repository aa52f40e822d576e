//! Where the values of a Jungle or flip position and of the positions after it come from: its
//! rule set's tables, or, for a flip position of one animal each, the flip game's built-in
//! check (RULES.md 5.7), which needs none: every capture there ends the game, so the check's
//! distance is the DTM and the DTC alike.

use jtb_probe::{
    dead_draw, Adjudication, Category, LineStep, Move, NotApplicable, Outcome, Position,
    ProbeError, ProbeResult, RuleSet, RuleStep, RuleValue, ScoredMove, Tablebase, Value, Wdl,
};

/// Where the values of a position and of every position reached from it come from.
#[derive(Clone, Copy)]
pub enum Values<'a> {
    /// The rule set's tables.
    Tables(&'a Tablebase),
    /// The flip game's built-in check of one animal each.
    OneEach,
}

impl<'a> Values<'a> {
    /// Whether `pos` is a flip position of one animal each, which the built-in check values
    /// without tables.
    #[must_use]
    pub fn is_one_each(pos: &Position) -> bool {
        pos.rules() == RuleSet::Flip4x4
            && !matches!(
                dead_draw(pos, Some(0)),
                Adjudication::NotApplicable(NotApplicable::NotOneEach { .. })
            )
    }

    /// The plain value with its distance to mate.
    ///
    /// # Errors
    /// The tables' error.
    pub fn value(&self, pos: &Position) -> ProbeResult<Value> {
        match self {
            Values::Tables(tb) => tb.probe_dtm(pos),
            Values::OneEach => one_each_value(pos),
        }
    }

    /// Win, draw or loss, the clock rule aside (from the WDL file).
    ///
    /// # Errors
    /// As [`Values::value`].
    pub fn wdl(&self, pos: &Position) -> ProbeResult<Wdl> {
        match self {
            Values::Tables(tb) => tb.probe_wdl(pos),
            Values::OneEach => Ok(one_each_value(pos)?.wdl()),
        }
    }

    /// The value under the clock rule at the position's clock, with DTC and category.
    ///
    /// # Errors
    /// As [`Values::value`].
    pub fn rule(&self, pos: &Position) -> ProbeResult<RuleValue> {
        match self {
            Values::Tables(tb) => tb.probe_rule(pos),
            Values::OneEach => {
                let dtc = one_each_value(pos)?;
                let limit = RuleSet::Flip4x4.clock_limit();
                let category = Category::of(dtc.wdl(), dtc, limit);
                let clock = pos.clock().unwrap_or(0);
                Ok(RuleValue::new(RuleSet::Flip4x4, clock, dtc, category))
            }
        }
    }

    /// Every legal move with its value for the mover, best first (the library's order).
    ///
    /// # Errors
    /// As [`Values::value`], for the position or a successor.
    pub fn ranked_moves(&self, pos: &Position) -> ProbeResult<Vec<ScoredMove>> {
        let Values::Tables(tb) = self else {
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
    }

    /// The best move under the clock rule at the position's clock, whose value under the rule
    /// is `rule` (probed already): `None` in a rule draw (every drawing move is as good) and
    /// when the side to move has no move.
    ///
    /// # Errors
    /// As [`Values::ranked_moves`].
    pub fn rule_best(&self, pos: &Position, rule: &RuleValue) -> ProbeResult<Option<Move>> {
        if rule.is_draw() {
            return Ok(None);
        }
        match self {
            Values::Tables(tb) => Ok(tb.rule_best_move(pos)?.map(|m| m.mv)),
            // One animal each: DTC is DTM (see `rule_line`).
            Values::OneEach => Ok(self.ranked_moves(pos)?.first().map(|m| m.mv)),
        }
    }

    /// The best line to the end of the game (empty for a draw).
    ///
    /// # Errors
    /// As [`Values::ranked_moves`].
    pub fn line(&self, pos: &Position) -> ProbeResult<Vec<LineStep>> {
        match self {
            Values::Tables(tb) => tb.line(pos),
            Values::OneEach if self.value(pos)? == Value::Draw => Ok(Vec::new()),
            Values::OneEach => self.one_each_line(pos.without_clocks(), |p| self.value(p)),
        }
    }

    /// The line under the clock rule from the position at its clock (empty for a rule draw).
    ///
    /// # Errors
    /// As [`Values::ranked_moves`].
    pub fn rule_line(&self, pos: &Position) -> ProbeResult<Vec<RuleStep>> {
        match self {
            Values::Tables(tb) => tb.rule_line(pos),
            Values::OneEach if self.rule(pos)?.is_draw() => Ok(Vec::new()),
            // One animal each: DTC is DTM, so in a rule win or loss the rule's best move (the
            // smallest DTC for the winner, the largest for the loser) is the plain best move.
            Values::OneEach => self.one_each_line(pos.clone(), |p| self.rule(p)),
        }
    }

    /// Plays best moves from `start` to the end of the game, each step with the `value` of the
    /// position after it.
    fn one_each_line<V>(
        &self,
        start: Position,
        value: impl Fn(&Position) -> ProbeResult<V>,
    ) -> ProbeResult<Vec<LineStep<V>>> {
        let mut line = Vec::new();
        let mut current = start;
        while let Some(best) = self.ranked_moves(&current)?.first().map(|m| m.mv) {
            match current.play(best).map_err(|_| not_one_each(&current))? {
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
fn one_each_value(pos: &Position) -> ProbeResult<Value> {
    dead_draw(pos, Some(0))
        .value_for(pos)
        .ok_or_else(|| not_one_each(pos))
}

/// A position the check was asked about that it does not apply to (a move from a position of
/// one animal each leads to one, or ends the game: only a bug gets here).
#[cold]
fn not_one_each(pos: &Position) -> ProbeError {
    ProbeError::NotForRules {
        rules: pos.rules().name(),
        what: "the one-animal-each check: the position is not one animal each",
    }
}
