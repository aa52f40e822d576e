//! The flip game's positions with face-down tiles at the edge (RULES.md 8): a flip is a move
//! whose outcome is chance, and the chance tables give exact expected results at every clock.
//! [`super::jungle`] hands such positions here.

use jtb_probe::{
    flip::{ChanceMove, ChanceTables, ChanceValue, Fraction},
    Outcome, Position, ProbeResult, Square,
};
use serde_json::{json, Value as Json};

use super::GameAnswer;
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
    fn line(&self) -> Option<&[String]> {
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
    let result = if v == ChanceValue::WIN { "win" } else { "loss" };
    let plies = if dte == 1 { "ply" } else { "plies" };
    format!("{result} in {dte} {plies} whatever the flips show")
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
