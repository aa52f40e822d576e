//! What the tables say of a position, per game, with the JSON objects `jtb probe --json` and
//! `jtb adjudicate --json` print (the Python package returns the same objects).

use jtb_probe::{
    flip::{ChanceMove, ChanceTables, ChanceValue},
    gambit::{self, Category},
    Clesto, ClestoValue, LineStep, Outcome, Position, ProbeError, ProbeResult, RuleValue,
    Tablebase, Turns, Value, VerdictReason,
};
use serde_json::{json, Value as Json};

use crate::{AnyPosition, EdgeError};

/// The answer of `jtb probe` for a position of one of the games.
#[derive(Debug, Clone, PartialEq)]
pub enum Answer {
    /// Jungle and the flip game: the value with its distance to mate, and the value under the
    /// clock rule at the position's clock.
    Jungle(JungleAnswer),
    /// Clesto: no draws and no clock; wins by the repetition ban.
    Clesto(ClestoAnswer),
    /// Animal Gambit: the distance to mate in turns.
    Gambit(GambitAnswer),
    /// The flip game with face-down tiles: exact chance values at the position's clock (boxed:
    /// it carries every move's outcomes).
    Chance(Box<ChanceAnswer>),
}

impl Answer {
    /// The JSON object `jtb probe --json` prints for the input `text`.
    #[must_use]
    pub fn json(&self, text: &str) -> Json {
        match self {
            Answer::Jungle(a) => a.json(text),
            Answer::Clesto(a) => a.json(text),
            Answer::Gambit(a) => a.json(text),
            Answer::Chance(a) => a.json(text),
        }
    }

    /// The best move, where there is one.
    #[must_use]
    pub fn best(&self) -> Option<&str> {
        match self {
            Answer::Jungle(a) => a.best.as_deref(),
            Answer::Clesto(a) => a.best.as_deref(),
            Answer::Gambit(a) => a.best.as_deref(),
            Answer::Chance(a) => a.best.as_ref().map(|m| m.text.as_str()),
        }
    }
}

/// A flip position with face-down tiles (RULES.md 8): its exact value at its clock, and every
/// move's worth, a flip's with each of its outcomes.
#[derive(Debug, Clone, PartialEq)]
pub struct ChanceAnswer {
    /// The position, with its clock.
    pub pos: Position,
    /// Its value for the side to move.
    pub value: ChanceValue,
    /// Every move with its worth, best first (ties in move order: flips first).
    pub moves: Vec<ChanceMoveAnswer>,
    /// The best move (none at clock 40).
    pub best: Option<ChanceMoveAnswer>,
}

/// One move of a [`ChanceAnswer`].
#[derive(Debug, Clone, PartialEq)]
pub struct ChanceMoveAnswer {
    /// The move's text (`?a4`, `a1a2`).
    pub text: String,
    /// Its worth for the mover.
    pub value: ChanceValue,
    /// A flip's outcomes: the animal's letter, the chance (`1/2`), the worth for the mover, and
    /// the position it gives.
    pub outcomes: Vec<(char, String, ChanceValue, Position)>,
    /// A step's outcome: the position it gives, or how it ends the game.
    pub after: Option<Result<Position, String>>,
}

impl ChanceAnswer {
    /// Probes `pos`, a position with face-down tiles.
    ///
    /// # Errors
    /// As [`ChanceTables::ranked_moves`].
    pub fn probe(tables: &ChanceTables, pos: Position) -> ProbeResult<ChanceAnswer> {
        let value = tables.probe(&pos)?;
        let moves: Vec<ChanceMoveAnswer> = tables
            .ranked_moves(&pos)?
            .into_iter()
            .map(|m| {
                let (outcomes, after) = match m.mv {
                    ChanceMove::Flip(sq) => (
                        pos.flip_outcomes(sq)
                            .unwrap_or_default()
                            .into_iter()
                            .zip(&m.outcomes)
                            .map(|(o, &(_, v))| (o.piece.letter(), o.probability(), v, o.position))
                            .collect(),
                        None,
                    ),
                    ChanceMove::Step(mv) => (
                        Vec::new(),
                        pos.play(mv).ok().map(|outcome| match outcome {
                            Outcome::Ongoing(next) => Ok(next),
                            Outcome::Over { reason, .. } => Err(reason.to_string()),
                        }),
                    ),
                };
                ChanceMoveAnswer {
                    text: m.mv.to_string(),
                    value: m.value,
                    outcomes,
                    after,
                }
            })
            .collect();
        Ok(ChanceAnswer {
            best: moves.first().cloned(),
            pos,
            value,
            moves,
        })
    }

    /// The JSON object `jtb probe --json` prints for the input `text`: `score`, `win`, `draw`
    /// and `loss` as exact fractions in lowest terms written as strings, the best move, and
    /// every move's worth (a flip's with its outcomes).
    #[must_use]
    pub fn json(&self, text: &str) -> Json {
        json!({
            "position": text,
            "rules": self.pos.rules().name(),
            "clock": self.pos.clock().unwrap_or(0),
            "hidden": self.pos.hidden_set().map(|h| h.to_string()),
            "score": self.value.score().to_string(),
            "win": self.value.win().to_string(),
            "draw": self.value.draw().to_string(),
            "loss": self.value.loss().to_string(),
            "best": self.best.as_ref().map(|m| m.text.clone()),
            "moves": self.moves.iter().map(|m| {
                let mut obj = json!({ "move": m.text });
                extend(&mut obj, chance_json(m.value));
                match &m.after {
                    Some(Ok(next)) => obj["position"] = json!(next.to_string()),
                    Some(Err(end)) => obj["end"] = json!(end),
                    None => {}
                }
                if !m.outcomes.is_empty() {
                    obj["outcomes"] = m.outcomes.iter().map(|(animal, chance, v, pos)| {
                        let mut o = json!({ "animal": animal.to_string(), "probability": chance });
                        extend(&mut o, chance_json(*v));
                        o["position"] = json!(pos.to_string());
                        o
                    }).collect();
                }
                obj
            }).collect::<Vec<_>>(),
        })
    }
}

/// Adds the fields of the object `more` to the object `obj`, in their order.
fn extend(obj: &mut Json, more: Json) {
    if let (Json::Object(obj), Json::Object(more)) = (obj, more) {
        obj.extend(more);
    }
}

/// A chance value's fractions as JSON strings.
pub fn chance_json(v: ChanceValue) -> Json {
    json!({
        "score": v.score().to_string(),
        "win": v.win().to_string(),
        "draw": v.draw().to_string(),
        "loss": v.loss().to_string(),
    })
}

/// A Jungle or flip-game position's answer.
#[derive(Debug, Clone, PartialEq)]
pub struct JungleAnswer {
    /// The position, with the clock the rule value is for.
    pub pos: Position,
    /// Win, draw or loss with the distance to mate, ignoring the clock rule.
    pub value: Value,
    /// The value under the clock rule at the position's clock.
    pub rule: RuleValue,
    /// The best move (none in a draw).
    pub best: Option<String>,
    /// The whole best line, when asked.
    pub line: Option<Vec<String>>,
    /// The whole best line under the clock rule, when asked.
    pub rule_line: Option<Vec<String>>,
}

impl JungleAnswer {
    /// Probes `pos` (with `line`, also both best lines).
    ///
    /// # Errors
    /// As [`Tablebase::probe_dtm`] and [`Tablebase::probe_rule`].
    pub fn probe(tb: &Tablebase, pos: Position, line: bool) -> ProbeResult<JungleAnswer> {
        let value = tb.probe_dtm(&pos)?;
        let rule = tb.probe_rule(&pos)?;
        let best = if value == Value::Draw {
            None
        } else {
            tb.best_move(&pos)?.map(|m| m.mv.to_string())
        };
        let (line, rule_line) = if line {
            let texts = |mvs: &mut dyn Iterator<Item = jtb_probe::Move>| {
                mvs.map(|m| m.to_string()).collect::<Vec<_>>()
            };
            (
                Some(texts(&mut tb.line(&pos)?.iter().map(|s| s.mv))),
                Some(texts(&mut tb.rule_line(&pos)?.iter().map(|s| s.mv))),
            )
        } else {
            (None, None)
        };
        Ok(JungleAnswer {
            pos,
            value,
            rule,
            best,
            line,
            rule_line,
        })
    }

    /// The JSON object `jtb probe --json` prints for the input `text`.
    #[must_use]
    pub fn json(&self, text: &str) -> Json {
        let mut obj = json!({
            "position": text,
            "rules": self.pos.rules().name(),
            "wdl": self.value.wdl().name(),
            "dtm": self.value.dtm(),
            "best": self.best,
            "dtc": self.rule.dtc.dtm(),
            "category": self.rule.category.name(),
            "clock": self.rule.clock,
            "rule_wdl": self.rule.wdl.name(),
        });
        if let Some(line) = &self.line {
            obj["line"] = json!(line);
        }
        if let Some(line) = &self.rule_line {
            obj["rule_line"] = json!(line);
        }
        obj
    }
}

/// A Clesto position's answer (RULES.md 6): no draws, no clock; the best line stops where the
/// unbanned side wins only by the ban.
#[derive(Debug, Clone, PartialEq)]
pub struct ClestoAnswer {
    /// The position.
    pub pos: Position,
    /// A plain win or loss with its distance to mate, or a win by the repetition ban.
    pub value: ClestoValue,
    /// The best move.
    pub best: Option<String>,
    /// The best line, when asked.
    pub line: Option<Vec<String>>,
    /// Whether the line stops at a position the ban alone decides.
    pub line_stops_at_ban: bool,
}

impl ClestoAnswer {
    /// Probes `pos` (with `line`, also the best line).
    ///
    /// # Errors
    /// As [`Tablebase::probe_clesto`].
    pub fn probe(tb: &Tablebase<Clesto>, pos: Position, line: bool) -> ProbeResult<ClestoAnswer> {
        let value = tb.probe_clesto(&pos)?;
        let best = tb.clesto_best_move(&pos)?.map(|(mv, _)| mv.to_string());
        let (line, line_stops_at_ban) = if line {
            let steps = tb.clesto_line(&pos)?;
            let stops = line_stops_at_ban(value, &steps);
            (
                Some(steps.iter().map(|s| s.mv.to_string()).collect()),
                stops,
            )
        } else {
            (None, false)
        };
        Ok(ClestoAnswer {
            pos,
            value,
            best,
            line,
            line_stops_at_ban,
        })
    }

    /// The JSON object `jtb probe --json` prints for the input `text`.
    #[must_use]
    pub fn json(&self, text: &str) -> Json {
        let mut obj = json!({
            "position": text,
            "rules": self.pos.rules().name(),
            "wdl": self.value.wdl().name(),
            "dtm": self.value.dtm(),
            "category": self.value.category(),
            "exit": self.value.exit(),
            "best": self.best,
        });
        if let Some(line) = &self.line {
            obj["line"] = json!(line);
            obj["line_stops_at_ban"] = json!(self.line_stops_at_ban);
        }
        obj
    }
}

/// Whether a Clesto best line from a position of value `root` stops at a position that the
/// unbanned side wins only by the ban (RULES.md 6.6), not at the end of the game: its last move
/// leaves a position on the board, or it has no move because `root` is such a position.
#[must_use]
pub fn line_stops_at_ban(root: ClestoValue, line: &[LineStep<ClestoValue, Clesto>]) -> bool {
    match line.last() {
        Some(step) => step.value.is_some(),
        None => root.dtm().is_none(),
    }
}

/// An Animal Gambit position's answer.
#[derive(Debug, Clone, PartialEq)]
pub struct GambitAnswer {
    /// The position.
    pub pos: gambit::Position,
    /// Win, draw (the repetition rule decides) or loss with the distance to mate in turns.
    pub value: Value,
    /// Win, loss or repetition.
    pub category: Category,
    /// The best turn, in its canonical text.
    pub best: Option<String>,
    /// The best line, when asked.
    pub line: Option<Vec<String>>,
}

impl GambitAnswer {
    /// Probes `pos` (with `line`, also the best line).
    ///
    /// # Errors
    /// As [`Tablebase::probe_dtm`].
    pub fn probe(
        tb: &Tablebase<gambit::Rules>,
        pos: gambit::Position,
        line: bool,
    ) -> ProbeResult<GambitAnswer> {
        let value = tb.probe_dtm(&pos)?;
        let best = tb.best_move(&pos)?.map(|b| b.mv.to_string());
        let line = if line {
            Some(tb.line(&pos)?.iter().map(|t| t.mv.to_string()).collect())
        } else {
            None
        };
        Ok(GambitAnswer {
            pos,
            value,
            category: Category::of(value),
            best,
            line,
        })
    }

    /// The JSON object `jtb probe --json` prints for the input `text`.
    #[must_use]
    pub fn json(&self, text: &str) -> Json {
        let mut obj = json!({
            "position": text,
            "rules": gambit::Rules::NAME,
            "wdl": self.value.wdl().name(),
            "dtm": self.value.dtm(),
            "category": self.category.name(),
            "best": self.best,
        });
        if let Some(line) = &self.line {
            obj["line"] = json!(line);
        }
        obj
    }
}

/// The tables if they opened, else none and why.
fn split_opened<T>(opened: Result<&T, EdgeError>) -> (Option<&T>, Option<String>) {
    match opened {
        Ok(tb) => (Some(tb), None),
        Err(e) => (None, Some(e.to_string())),
    }
}

/// Whether a position can be stopped: `jtb adjudicate`'s answer.
// One answer at a time, never stored in bulk: boxing would only add an allocation.
#[allow(clippy::large_enum_variant)]
#[derive(Debug)]
pub enum Verdict {
    /// A position of the Jungle family's type (Jungle, the flip game, Clesto): whether it is a
    /// dead draw at its clock, and why.
    Jungle {
        /// The position, with its clock.
        pos: Position,
        /// The library's verdict.
        verdict: jtb_probe::Verdict,
    },
    /// An Animal Gambit position the tables settle (it has no move-count draw).
    Gambit {
        /// The position.
        pos: gambit::Position,
        /// Win, loss or repetition, with the turns to the end.
        verdict: gambit::Verdict,
    },
}

impl Verdict {
    /// Adjudicates a Jungle or flip position with `tables` (the flip game's one-animal-each
    /// check needs none), or the error that kept them from opening.
    ///
    /// # Errors
    /// [`EdgeError::NotCovered`] where no tables cover the position, never "play on"; a
    /// finished game, face-down tiles and damaged tables are errors too.
    pub fn of_jungle(
        tables: Result<&Tablebase, EdgeError>,
        pos: Position,
    ) -> Result<Verdict, EdgeError> {
        let (tables, open_error) = split_opened(tables);
        Verdict::of_family(jtb_probe::adjudicate(tables, &pos), open_error, pos)
    }

    /// Adjudicates a Clesto position with `tables`, or the error that kept them from opening:
    /// never a dead draw (Clesto has no draws), the forced result where the tables cover it.
    ///
    /// # Errors
    /// As [`Verdict::of_jungle`].
    pub fn of_clesto(
        tables: Result<&Tablebase<Clesto>, EdgeError>,
        pos: Position,
    ) -> Result<Verdict, EdgeError> {
        let (tables, open_error) = split_opened(tables);
        Verdict::of_family(jtb_probe::adjudicate_clesto(tables, &pos), open_error, pos)
    }

    /// The library's verdict on a position of the Jungle family's type, a position no table
    /// covers an error.
    fn of_family(
        verdict: ProbeResult<jtb_probe::Verdict>,
        open_error: Option<String>,
        pos: Position,
    ) -> Result<Verdict, EdgeError> {
        let verdict = verdict?;
        if let VerdictReason::NotCovered(why) = &verdict.reason {
            return Err(EdgeError::NotCovered(match (open_error, why) {
                (Some(e), None) => format!("not covered: {e}"),
                _ => verdict.reason.to_string(),
            }));
        }
        Ok(Verdict::Jungle { pos, verdict })
    }

    /// Adjudicates an Animal Gambit position: whether the tables settle it.
    ///
    /// # Errors
    /// [`EdgeError::NotCovered`] where no tables cover the position; damaged tables.
    pub fn of_gambit(
        tables: Result<&Tablebase<gambit::Rules>, EdgeError>,
        pos: gambit::Position,
    ) -> Result<Verdict, EdgeError> {
        let not_covered =
            |e: &dyn std::fmt::Display| EdgeError::NotCovered(format!("not covered: {e}"));
        let verdict = match tables {
            Ok(tb) => match tb.adjudicate(&pos) {
                Ok(v) => v,
                Err(e @ ProbeError::MissingTable { .. }) => return Err(not_covered(&e)),
                Err(e) => return Err(e.into()),
            },
            Err(e) => return Err(not_covered(&e)),
        };
        Ok(Verdict::Gambit { pos, verdict })
    }

    /// The position adjudicated.
    #[must_use]
    pub fn position(&self) -> AnyPosition {
        match self {
            Verdict::Jungle { pos, .. } => AnyPosition::of_family(pos.clone()),
            Verdict::Gambit { pos, .. } => AnyPosition::Gambit(*pos),
        }
    }

    /// Whether the game can be stopped now: a dead draw at the clock, or (Animal Gambit) a
    /// result the tables settle.
    #[must_use]
    pub fn is_settled(&self) -> bool {
        match self {
            Verdict::Jungle { verdict, .. } => verdict.dead_draw,
            Verdict::Gambit { .. } => true,
        }
    }

    /// Why, in words.
    #[must_use]
    pub fn reason(&self) -> String {
        match self {
            Verdict::Jungle { verdict, .. } => verdict.reason.to_string(),
            Verdict::Gambit { pos, verdict } => match verdict.category {
                Category::Win => {
                    format!("{} wins in {}", pos.turn(), Turns(verdict.dtm.unwrap_or(0)))
                }
                Category::Loss => {
                    format!(
                        "{} loses in {}",
                        pos.turn(),
                        Turns(verdict.dtm.unwrap_or(0))
                    )
                }
                Category::Repetition => "neither side can force an end: the repetition \
                                             rule decides (Animal Gambit has no move-count draw)"
                    .to_owned(),
            },
        }
    }

    /// The JSON object `jtb adjudicate --json` prints for the input `text`.
    #[must_use]
    pub fn json(&self, text: &str) -> Json {
        match self {
            Verdict::Jungle { pos, verdict: v } => json!({
                "position": text,
                "dead_draw": v.dead_draw,
                "wdl": v.wdl().map(|w| w.name()),
                "dtm": v.value.and_then(Value::dtm),
                "dtc": v.dtc(),
                "rule_wdl": v.rule_wdl().map(|w| w.name()),
                "clock": pos.clock(),
                "reason": self.reason(),
            }),
            Verdict::Gambit { verdict: v, .. } => json!({
                "position": text,
                "rules": gambit::Rules::NAME,
                "settled": true,
                "category": v.category.name(),
                "dtm": v.dtm,
                "reason": self.reason(),
            }),
        }
    }
}
