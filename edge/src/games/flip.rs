//! The flip game's positions with face-down tiles at the edge (RULES.md 8): a flip is a move
//! whose outcome is chance, and the chance tables give exact expected results at every clock.
//! [`super::jungle`] hands such positions here.

use jtb_probe::{
    flip::{ChanceMove, ChanceTables, ChanceValue, Fraction, CLOCKS},
    FlipOutcome, Outcome, Position, ProbeResult, Square,
};
use serde_json::{json, Value as Json};

use super::{extend, GameAnswer};
use crate::{AnyPosition, PositionError};

/// The moves of a position with face-down tiles, the game not over: a flip of each tile (`?a4`)
/// and the revealed animals' steps, sorted as ASCII strings (flips first).
pub(super) fn moves(pos: &Position) -> Vec<String> {
    let flips = pos.flips().into_iter().map(|sq| format!("?{sq}"));
    let steps = pos.revealed_moves().into_iter().map(|mv| mv.to_string());
    let mut moves: Vec<String> = flips.chain(steps).collect();
    moves.sort_unstable();
    moves
}

impl AnyPosition {
    /// What the flip `mv` (`?a4`) may reveal (RULES.md 8): each animal of the hidden set, its
    /// chance (one in the number given) and the position it gives, in canonical order.
    ///
    /// # Errors
    /// `mv` is no flip of a face-down tile of this position, the game is over, or the hidden
    /// set is not known (animals were captured and the text has no `?:` field).
    pub fn flip_outcomes(
        &self,
        mv: &str,
    ) -> Result<Vec<(char, usize, AnyPosition)>, PositionError> {
        let not_a_flip = || PositionError::IllegalMove {
            mv: mv.to_owned(),
            position: self.to_string(),
        };
        let AnyPosition::Jungle(pos) = self else {
            return Err(not_a_flip());
        };
        if !self.moves().iter().any(|m| m == mv) || !mv.starts_with('?') {
            return Err(not_a_flip());
        }
        let sq = Square::parse(&mv[1..], pos.board()).ok_or_else(not_a_flip)?;
        let outcomes = pos.flip_outcomes(sq).ok_or(PositionError::NoHiddenSet)?;
        Ok(outcomes
            .into_iter()
            .map(|o| (o.piece.letter(), o.of, AnyPosition::Jungle(o.position)))
            .collect())
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
    /// Its DTE where the score is 0 or 1 (RULES.md 8): the plies within which the winner ends
    /// the game whatever the flips show.
    pub dte: Option<u32>,
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
    /// Its DTE worth where its worth is a certain win or loss (RULES.md 8).
    pub dte: Option<u32>,
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
        let dte = tables.dte(&pos)?;
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
                    dte: m.dte,
                    outcomes,
                    after,
                }
            })
            .collect();
        Ok(ChanceAnswer {
            best: moves.first().cloned(),
            pos,
            value,
            dte,
            moves,
        })
    }
}

impl GameAnswer for ChanceAnswer {
    /// The JSON object `jtb probe --json` prints for the input `text`: `score`, `win`, `draw`
    /// and `loss` as exact fractions in lowest terms written as strings, the best move, and
    /// every move's worth (a flip's with its outcomes).
    fn json(&self, text: &str) -> Json {
        json!({
            "position": text,
            "rules": self.pos.rules().name(),
            "clock": self.pos.clock().unwrap_or(0),
            "hidden": self.pos.hidden_set().map(|h| h.to_string()),
            "score": self.value.score().to_string(),
            "win": self.value.win().to_string(),
            "draw": self.value.draw().to_string(),
            "loss": self.value.loss().to_string(),
            "dte": self.dte,
            "best": self.best.as_ref().map(|m| m.text.clone()),
            "moves": self.moves.iter().map(|m| {
                let mut obj = json!({ "move": m.text });
                extend(&mut obj, chance_json(m.value));
                obj["dte"] = json!(m.dte);
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

    fn best(&self) -> Option<&str> {
        self.best.as_ref().map(|m| m.text.as_str())
    }

    /// A flip's outcome is chance: there is no single line.
    fn line(&self) -> Option<Vec<String>> {
        None
    }

    /// The chance values ([`chance_json`]) and each flip outcome's probability.
    fn exact_fractions(&self) -> &'static [&'static str] {
        &["score", "win", "draw", "loss", "probability"]
    }

    /// What `jtb probe` prints for the input `text`.
    fn text(&self, text: &str) -> String {
        let mut s = format!("{text}\nrules: {}\n", self.pos.rules());
        s += &format!(
            "value: {} for {} to move at clock {}\n",
            chance_text(self.value),
            self.pos.turn(),
            self.pos.clock().unwrap_or(0)
        );
        if let Some(d) = self.dte {
            s += &format!("certain: {}\n", certain_text(self.value, d));
        }
        if let Some(b) = &self.best {
            s += &format!("best: {}\n", b.text);
        }
        s += "moves:\n";
        for m in &self.moves {
            let certain = m
                .dte
                .map(|d| format!("  ({})", certain_text(m.value, d)))
                .unwrap_or_default();
            s += &format!("  {:<5} {}{certain}\n", m.text, chance_text(m.value));
            for (animal, chance, v, pos) in &m.outcomes {
                s += &format!("        {animal} {chance:<4} {}  {pos}\n", chance_text(*v));
            }
        }
        s.trim_end().to_owned()
    }
}

/// A chance value as text: `score 5/8 (62.5%): win 1/2 (50.0%), draw 1/4 (25.0%), loss 1/4
/// (25.0%)`.
fn chance_text(v: ChanceValue) -> String {
    let part = |f: Fraction| format!("{f} ({:.1}%)", f.percent());
    format!(
        "score {}: win {}, draw {}, loss {}",
        part(v.score()),
        part(v.win()),
        part(v.draw()),
        part(v.loss())
    )
}

/// A certain result with its DTE, for the side it is the value of: `win in 3 plies whatever
/// the flips show`.
fn certain_text(v: ChanceValue, dte: u32) -> String {
    format!("{} whatever the flips show", certain_in(v, dte))
}

/// A certain win or loss with its DTE: `win in 3 plies`.
pub(super) fn certain_in(v: ChanceValue, dte: u32) -> String {
    let result = if v == ChanceValue::WIN { "win" } else { "loss" };
    let plies = if dte == 1 { "ply" } else { "plies" };
    format!("{result} in {dte} {plies}")
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

/// A flip's outcomes as the JSON answers give them: each animal, its chance as an exact
/// fraction and the position it gives (`jtb moves --json`'s `flips`, the API's
/// `flip_outcomes`).
#[must_use]
pub fn outcomes_json(outcomes: &[FlipOutcome]) -> Json {
    outcomes.iter().map(outcome_json).collect()
}

fn outcome_json(o: &FlipOutcome) -> Json {
    json!({
        "animal": o.piece.letter().to_string(),
        "probability": o.probability(),
        "position": o.position.to_string(),
    })
}

/// What each of the tiles `flipped` of `pos` may reveal, as the API's `flip_outcomes` list
/// gives it: the flip (`?a4`) and its outcomes (`null` where the hidden set is not known).
#[must_use]
pub fn flips_json(pos: &Position, flipped: &[Square]) -> Json {
    flipped
        .iter()
        .map(|&sq| {
            let outcomes = pos.flip_outcomes(sq).map(|o| outcomes_json(&o));
            json!({"flip": format!("?{sq}"), "outcomes": outcomes})
        })
        .collect()
}

/// The line of a position with face-down tiles: its best moves up to the first flip, each step
/// with the position after it and its chance value, and that flip with each outcome's worth, to
/// step into (a flip's outcome is chance: no single line goes past it). It ends earlier where
/// the game ends or the last tile is revealed.
#[derive(Debug, Clone, PartialEq)]
pub struct ChanceLine {
    /// The position, with its clock.
    pub pos: Position,
    /// The steps before the flip.
    pub steps: Vec<ChanceStep>,
    /// The flip the line stops at, if it does.
    pub flip: Option<ChanceFlip>,
}

/// A step of a [`ChanceLine`]: a move of a revealed animal.
#[derive(Debug, Clone, PartialEq)]
pub enum ChanceStep {
    /// The move ended the game.
    End {
        /// The move.
        mv: jtb_probe::Move,
        /// How it ended the game.
        reason: String,
    },
    /// The move led on.
    Next {
        /// The move.
        mv: jtb_probe::Move,
        /// The position after it, with its clock (boxed: it is most of the step).
        position: Box<Position>,
        /// Its value for its side to move.
        value: ChanceValue,
        /// Its DTE where its result is certain.
        dte: Option<u32>,
    },
}

/// The flip a [`ChanceLine`] stops at: its worth and each outcome's.
#[derive(Debug, Clone, PartialEq)]
pub struct ChanceFlip {
    /// The flip (`?a4`).
    pub mv: ChanceMove,
    /// Its worth to the mover.
    pub value: ChanceValue,
    /// Its DTE where its result is certain.
    pub dte: Option<u32>,
    /// Each outcome with its worth to the mover.
    pub outcomes: Vec<(FlipOutcome, ChanceValue)>,
}

impl ChanceLine {
    /// The line of `pos` (face-down tiles, the game not over) at its clock.
    ///
    /// # Errors
    /// As [`ChanceTables::best_move`], for the position or one on the line.
    ///
    /// # Panics
    /// If a best move the tables give is not legal (it always is).
    pub fn probe(tables: &ChanceTables, pos: Position) -> ProbeResult<ChanceLine> {
        let mut current = pos.clone();
        current
            .set_clock(Some(pos.clock().unwrap_or(0)))
            .expect("the flip game has a clock");
        let mut steps = Vec::new();
        let mut flip = None;
        // Steps raise the clock: at most 40 plies before the best move is a flip or the game
        // is drawn.
        for _ in 0..=CLOCKS {
            let Some(best) = tables.best_move(&current)? else {
                break;
            };
            match best.mv {
                ChanceMove::Flip(sq) => {
                    let outcomes = current.flip_outcomes(sq).unwrap_or_default();
                    flip = Some(ChanceFlip {
                        mv: best.mv,
                        value: best.value,
                        dte: best.dte,
                        outcomes: outcomes
                            .into_iter()
                            .zip(&best.outcomes)
                            .map(|(o, &(_, worth))| (o, worth))
                            .collect(),
                    });
                    break;
                }
                ChanceMove::Step(mv) => match current.play(mv).expect("a best move is legal") {
                    Outcome::Over { reason, .. } => {
                        steps.push(ChanceStep::End {
                            mv,
                            reason: reason.to_string(),
                        });
                        break;
                    }
                    Outcome::Ongoing(next) => {
                        let value = tables.probe(&next)?;
                        let dte = tables.dte(&next)?;
                        let revealed = next.hidden() == 0;
                        steps.push(ChanceStep::Next {
                            mv,
                            position: Box::new(next.clone()),
                            value,
                            dte,
                        });
                        if revealed {
                            break;
                        }
                        current = next;
                    }
                },
            }
        }
        Ok(ChanceLine { pos, steps, flip })
    }

    /// The API's object of the line (`GET /api/v1/flip4x4/line` of a position with face-down
    /// tiles).
    #[must_use]
    pub fn json(&self) -> Json {
        let steps: Vec<Json> = self
            .steps
            .iter()
            .map(|step| match step {
                ChanceStep::End { mv, reason } => {
                    json!({ "move": mv.to_string(), "end": reason })
                }
                ChanceStep::Next {
                    mv,
                    position,
                    value,
                    dte,
                } => {
                    let mut obj = json!({
                        "move": mv.to_string(),
                        "position": position.to_string(),
                        "clock": position.clock().unwrap_or(0),
                        "dte": dte,
                    });
                    extend(&mut obj, chance_json(*value));
                    obj
                }
            })
            .collect();
        let flip = self.flip.as_ref().map_or(Json::Null, |flip| {
            let outcomes: Vec<Json> = flip
                .outcomes
                .iter()
                .map(|(o, worth)| {
                    let mut obj = outcome_json(o);
                    extend(&mut obj, chance_json(*worth));
                    obj
                })
                .collect();
            let mut obj = json!({ "move": flip.mv.to_string(), "dte": flip.dte });
            extend(&mut obj, chance_json(flip.value));
            obj["outcomes"] = outcomes.into();
            obj
        });
        json!({
            "position": self.pos.to_string(),
            "rules": self.pos.rules().name(),
            "clock": self.pos.clock().unwrap_or(0),
            "line": steps,
            "flip": flip,
        })
    }
}
