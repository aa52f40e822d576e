//! Adjudication: is a position decided at its clock? One rule for every caller (the CLI, the C
//! ABI): Jungle positions and flip positions with more animals by the tables under the clock
//! rule (RULES.md 5.7), one-animal-each flip positions by the built-in check (section 2).

use std::fmt;

use crate::Tablebase;
use crate::{
    ban::ClestoValue,
    clock::RuleValue,
    core::{ProbeError, ProbeResult},
    flip::{dead_draw, Adjudication, NotApplicable},
    piece::Color,
    position::Position,
    rules::RuleSet,
    value::{Plies, Value, Wdl},
};

/// Why a position is, or is not, a dead draw.
#[derive(Debug)]
pub enum VerdictReason {
    /// The tables say neither side can force a win (a plain draw).
    TablesDraw,
    /// The clock has reached the limit: the game is drawn.
    ClockRunOut {
        /// The limit.
        limit: u32,
    },
    /// A side can force a win without the clock, but no winning conversion or game end comes
    /// before the clock runs out.
    ClockTooShort {
        /// The side that would win without the clock.
        winner: Color,
        /// The distance to conversion (a draw where no winning conversion can be forced).
        dtc: Value,
        /// Half-moves left before the clock reaches the limit.
        left: u32,
    },
    /// A side wins under the rule: the next conversion or the end comes in time.
    Decided {
        /// The side that wins.
        winner: Color,
        /// The distance to conversion.
        dtc: Value,
    },
    /// The flip game's built-in one-animal-each check decided.
    OneEach(Adjudication),
    /// No table covers the position (too many pieces, a missing table, or no tables given).
    NotCovered(Option<ProbeError>),
    /// Clesto has no draws (no move-count rule, and the repetition ban): the tables give the
    /// forced result.
    NoDraws {
        /// The side that wins.
        winner: Color,
        /// The position's value for the side to move.
        value: ClestoValue,
    },
}

impl fmt::Display for VerdictReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            VerdictReason::TablesDraw => f.write_str("the tables say neither side can force a win"),
            VerdictReason::ClockRunOut { limit } => {
                write!(
                    f,
                    "the clock has run out ({limit} half-moves without a capture)"
                )
            }
            VerdictReason::ClockTooShort { winner, dtc, left } => match dtc.dtm() {
                Some(d) => write!(
                    f,
                    "no conversion can be forced before the clock runs out: {winner} needs {} \
                     to the next capture, {left} are left",
                    Plies(d)
                ),
                None => write!(
                    f,
                    "no conversion can be forced before the clock runs out: {winner} wins \
                     without the clock, but cannot force a capture that keeps the win"
                ),
            },
            VerdictReason::Decided { winner, dtc } => write!(
                f,
                "{winner} wins under the clock rule: {} to the next capture or the end",
                Plies(dtc.dtm().unwrap_or(0))
            ),
            VerdictReason::OneEach(Adjudication::DeadDraw(r)) => r.fmt(f),
            VerdictReason::OneEach(Adjudication::PlayOn { winner, dtm }) => {
                write!(f, "{winner} forces the capture in {}", Plies(*dtm))
            }
            VerdictReason::OneEach(Adjudication::NotApplicable(r)) => {
                write!(f, "not applicable: {r}")
            }
            VerdictReason::NotCovered(Some(e)) => write!(f, "not covered: {e}"),
            VerdictReason::NotCovered(None) => f.write_str("not covered: no tables"),
            VerdictReason::NoDraws { winner, value } => match value {
                ClestoValue::Plain(v) => write!(
                    f,
                    "clesto has no draws: {winner} wins, {} to the end",
                    Plies(v.dtm().unwrap_or(0))
                ),
                _ => write!(
                    f,
                    "clesto has no draws: {winner} wins by the repetition ban ({} for the side \
                     to move)",
                    value.category()
                ),
            },
        }
    }
}

/// The verdict on a position at its clock.
#[derive(Debug)]
pub struct Verdict {
    /// Drawn at once: the rule value at the position's clock is a draw.
    pub dead_draw: bool,
    /// The plain value (no clock), where known.
    pub value: Option<Value>,
    /// The value under the clock rule, where known.
    pub rule: Option<RuleValue>,
    /// Why.
    pub reason: VerdictReason,
}

impl Verdict {
    /// Win or loss for the side to move, where known: the plain value, or in Clesto the value
    /// the ban gives too.
    #[must_use]
    pub fn wdl(&self) -> Option<Wdl> {
        match &self.reason {
            VerdictReason::NoDraws { value, .. } => Some(value.wdl()),
            _ => self.value.map(Value::wdl),
        }
    }

    /// The value under the clock rule at the position's clock, where known: from the tables, or
    /// for a one-animal-each flip position the built-in check's (there every capture ends the
    /// game, so the check is the rule value; RULES.md 5.7).
    #[must_use]
    pub fn rule_wdl(&self) -> Option<Wdl> {
        match (&self.rule, &self.reason) {
            (Some(r), _) => Some(r.wdl),
            (None, VerdictReason::OneEach(_)) => self.value.map(Value::wdl),
            (None, _) => None,
        }
    }

    /// The distance to conversion, where known and some conversion can be forced (for a
    /// one-animal-each flip position it is the check's distance to the capture).
    #[must_use]
    pub fn dtc(&self) -> Option<u16> {
        match (&self.rule, &self.reason) {
            (Some(r), _) => r.dtc.dtm(),
            (None, VerdictReason::OneEach(_)) => self.value.and_then(Value::dtm),
            (None, _) => None,
        }
    }
}

/// Whether `pos` is decided at its clock (0 when it has none; set it with
/// [`Position::set_clock`]). Jungle positions and flip positions of more than one animal each
/// are judged by `tables` under the clock rule: a dead draw exactly when the rule value at the
/// clock is a draw. A one-animal-each flip position needs no tables (RULES.md section 2).
/// Positions no table covers are not dead draws ([`VerdictReason::NotCovered`]). Clesto's
/// positions are adjudicated by [`crate::adjudicate_clesto`].
///
/// # Errors
/// [`ProbeError::GameOver`] for a finished game, [`ProbeError::HiddenTiles`] for a flip position
/// with face-down tiles, [`ProbeError::WrongRules`] when `tables` are of another rule set,
/// [`ProbeError::NotForRules`] for a Clesto position, and errors of damaged table files.
pub fn adjudicate(tables: Option<&Tablebase>, pos: &Position) -> ProbeResult<Verdict> {
    if pos.is_game_over() {
        return Err(ProbeError::GameOver);
    }
    if pos.hidden() != 0 {
        return Err(ProbeError::HiddenTiles);
    }
    let limit = pos.rules().clock_limit();
    let clock = pos.clock().unwrap_or(0);
    if pos.rules() == RuleSet::Clesto {
        return Err(ProbeError::NotForRules {
            rules: RuleSet::Clesto.name(),
            what: "its positions are adjudicated with its own tables (adjudicate_clesto)",
        });
    }
    if pos.rules() == RuleSet::Flip4x4 {
        let check = dead_draw(pos, None);
        if !matches!(
            check,
            Adjudication::NotApplicable(NotApplicable::NotOneEach { .. })
        ) {
            return Ok(Verdict {
                dead_draw: matches!(check, Adjudication::DeadDraw(_)),
                value: check.value_for(pos),
                rule: None,
                reason: VerdictReason::OneEach(check),
            });
        }
    }
    let probed = tables.map(|tb| tb.probe_dtm(pos).and_then(|v| Ok((v, tb.probe_rule(pos)?))));
    let (value, rule) = match probed {
        Some(Ok(found)) => found,
        Some(Err(e)) if e.is_missing() => {
            return Ok(not_covered(Some(e), clock, limit));
        }
        Some(Err(e)) => return Err(e),
        None => return Ok(not_covered(None, clock, limit)),
    };
    let winner = match value.wdl() {
        Wdl::Win => pos.turn(),
        _ => pos.turn().other(),
    };
    let reason = if value == Value::Draw {
        VerdictReason::TablesDraw
    } else if clock >= limit {
        VerdictReason::ClockRunOut { limit }
    } else if rule.is_draw() {
        VerdictReason::ClockTooShort {
            winner,
            dtc: rule.dtc,
            left: limit - clock,
        }
    } else {
        VerdictReason::Decided {
            winner,
            dtc: rule.dtc,
        }
    };
    Ok(Verdict {
        dead_draw: rule.is_draw(),
        value: Some(value),
        rule: Some(rule),
        reason,
    })
}

/// A position no table answers: drawn only when the clock has run out.
pub(crate) fn not_covered(why: Option<ProbeError>, clock: u32, limit: u32) -> Verdict {
    let run_out = clock >= limit;
    Verdict {
        dead_draw: run_out,
        value: None,
        rule: None,
        reason: if run_out {
            VerdictReason::ClockRunOut { limit }
        } else {
            VerdictReason::NotCovered(why)
        },
    }
}
