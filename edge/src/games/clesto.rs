//! Clesto at the edge (RULES.md 6): the Jungle family's position type with hungry animals, the
//! repetition ban and no clock; tables with a plain value or a win by the ban.

use std::sync::Arc;

use jtb_probe::{ClestoValue, LineStep, Plies, Position, ProbeResult, Tablebase, Value, Wdl};
use serde_json::{json, Value as Json};

use super::{jungle, split_opened, EdgeGame, GameAnswer};
use crate::{
    Answer, AnyTablebase, EdgeError, MissingFiles, Played, PositionError, Rules, Tables, Verdict,
};

/// Clesto.
#[derive(Debug, Clone, Copy)]
pub struct Clesto;

impl EdgeGame for Clesto {
    type Position = Position;
    type Tables = jtb_probe::Clesto;
    const DTM_OF_EVERY_VALUE: bool = false;

    fn rules(pos: &Position) -> Rules {
        Rules::Jungle(pos.rules())
    }

    fn side_to_move(pos: &Position) -> &'static str {
        jungle::color_name(pos.turn())
    }

    fn clock(pos: &Position) -> Option<u32> {
        pos.clock()
    }

    fn moves(pos: &Position) -> Vec<String> {
        jungle::moves(pos)
    }

    fn is_game_over(pos: &Position) -> bool {
        jungle::is_game_over(pos)
    }

    fn play(pos: &Position, mv: &str) -> Result<Played, PositionError> {
        jungle::play(pos, mv)
    }

    fn set_rule_clock(pos: &mut Position) -> Result<(), PositionError> {
        Ok(pos.set_rule_clock(None)?)
    }

    /// As Jungle's: the family's record.
    fn pack(pos: &Position, out: &mut [u8; crate::PACKED_LEN]) {
        super::jungle::pack(pos, out);
    }

    fn tables(any: &AnyTablebase) -> Option<&Arc<Tablebase<jtb_probe::Clesto>>> {
        match any {
            AnyTablebase::Clesto(tb) => Some(tb),
            _ => None,
        }
    }

    fn tables_rules(_: &Tablebase<jtb_probe::Clesto>) -> Rules {
        Rules::Jungle(jtb_probe::Clesto::RULES)
    }

    fn wdl(tb: &Tablebase<jtb_probe::Clesto>, pos: &Position) -> ProbeResult<Wdl> {
        tb.probe_wdl(pos)
    }

    /// `None` where only the repetition ban decides (no distance to mate).
    fn value(tb: &Tablebase<jtb_probe::Clesto>, pos: &Position) -> ProbeResult<Option<Value>> {
        Ok(match tb.probe_clesto(pos)? {
            ClestoValue::Plain(v) => Some(v),
            _ => None,
        })
    }

    fn best_move(tb: &Tablebase<jtb_probe::Clesto>, pos: &Position) -> ProbeResult<Option<String>> {
        Ok(tb.clesto_best_move(pos)?.map(|(mv, _)| mv.to_string()))
    }

    fn probe(tables: &Tables, pos: Position, line: bool) -> Result<Answer, EdgeError> {
        let tb = tables.of::<Clesto>(Clesto::rules(&pos))?;
        Ok(Answer::Clesto(ClestoAnswer::probe(tb, pos, line)?))
    }

    fn adjudicate(
        tables: Result<&Tablebase<jtb_probe::Clesto>, EdgeError>,
        pos: Position,
    ) -> Result<Verdict, EdgeError> {
        Verdict::of_clesto(tables, pos)
    }
}

/// A Clesto position's answer. A set that lacks some of the table's files (WDL files alone)
/// leaves what needs them `None`, noted in `missing`.
#[derive(Debug, Clone, PartialEq)]
pub struct ClestoAnswer {
    /// The position.
    pub pos: Position,
    /// Win or loss (a win by the repetition ban is a win).
    pub wdl: Wdl,
    /// A plain win or loss with its distance to mate, or a win by the repetition ban (from the
    /// DTM and ban files).
    pub value: Option<ClestoValue>,
    /// The best move.
    pub best: Option<String>,
    /// The best line, when asked (`None` inside when a file it needs is missing).
    pub line: Option<Option<Vec<String>>>,
    /// Whether the line stops at a position the ban alone decides.
    pub line_stops_at_ban: bool,
    /// The files the set lacks that the answer needed.
    pub missing: MissingFiles,
}

impl ClestoAnswer {
    /// Probes `pos` (with `line`, also the best line).
    ///
    /// # Errors
    /// As [`Tablebase::probe_clesto`], but for the files of the position's tables that the set
    /// does not hold (noted in the answer).
    pub fn probe(
        tb: &Tablebase<jtb_probe::Clesto>,
        pos: Position,
        line: bool,
    ) -> ProbeResult<ClestoAnswer> {
        let mut missing = MissingFiles::default();
        let value = missing.or_note(tb.probe_clesto(&pos))?;
        let wdl = match value {
            Some(v) => v.wdl(),
            None => tb.probe_wdl(&pos)?,
        };
        let best = missing
            .or_note(tb.clesto_best_move(&pos))?
            .flatten()
            .map(|(mv, _)| mv.to_string());
        let (line, line_stops_at_ban) = match (line, value) {
            (false, _) => (None, false),
            (true, value) => match (missing.or_note(tb.clesto_line(&pos))?, value) {
                (Some(steps), Some(value)) => (
                    Some(Some(steps.iter().map(|s| s.mv.to_string()).collect())),
                    line_stops_at_ban(value, &steps),
                ),
                _ => (Some(None), false),
            },
        };
        Ok(ClestoAnswer {
            pos,
            wdl,
            value,
            best,
            line,
            line_stops_at_ban,
            missing,
        })
    }
}

impl GameAnswer for ClestoAnswer {
    /// The JSON object `jtb probe --json` prints for the input `text`.
    fn json(&self, text: &str) -> Json {
        let mut obj = json!({
            "position": text,
            "rules": self.pos.rules().name(),
            "wdl": self.wdl.name(),
            "dtm": self.value.and_then(ClestoValue::dtm),
            "category": self.value.map(ClestoValue::category),
            "exit": self.value.and_then(ClestoValue::exit),
            "best": self.best,
        });
        if let Some(line) = &self.line {
            obj["line"] = json!(line);
            obj["line_stops_at_ban"] = json!(self.line_stops_at_ban);
        }
        self.missing.add_to(&mut obj);
        obj
    }

    fn best(&self) -> Option<&str> {
        self.best.as_deref()
    }

    fn line(&self) -> Option<&[String]> {
        self.line.as_ref()?.as_deref()
    }

    fn missing(&self) -> Option<String> {
        self.missing.note()
    }

    /// What `jtb probe` prints for the input `text`.
    fn text(&self, text: &str) -> String {
        let mut s = format!(
            "{text}\n{}rules: {}\n",
            crate::board::draw(&self.pos),
            self.pos.rules()
        );
        let banned = jtb_probe::banned_side(jtb_probe::Material::of(&self.pos));
        s += &match self.value {
            None => format!("value: {} for {} to move\n", self.wdl, self.pos.turn()),
            Some(ClestoValue::Plain(v)) => format!(
                "value: {} for {} to move, {} to the end\n",
                v.wdl(),
                self.pos.turn(),
                Plies(v.dtm().unwrap_or(0))
            ),
            Some(v) => format!(
                "value: {} for {} to move by the repetition ban ({}): {}\n",
                v.wdl(),
                self.pos.turn(),
                v.category(),
                match v.exit() {
                    Some(e) => format!(
                        "{banned}, the banned side, forces the game out of this material into a \
                         position it wins in {}",
                        Plies(e)
                    ),
                    None => format!(
                        "{banned}, the banned side, can neither win nor repeat forever, so {} wins",
                        banned.other()
                    ),
                }
            ),
        };
        if let Some(b) = &self.best {
            s += &format!("best: {b}\n");
        }
        if let Some(Some(line)) = &self.line {
            s += &format!("line: {}\n", line.join(" "));
            if self.line_stops_at_ban {
                s += "(the line stops where only the repetition ban decides)\n";
            }
        }
        s + &self.missing.text()
    }
}

/// Whether a Clesto best line from a position of value `root` stops at a position that the
/// unbanned side wins only by the ban (RULES.md 6.6), not at the end of the game: its last move
/// leaves a position on the board, or it has no move because `root` is such a position.
#[must_use]
pub fn line_stops_at_ban(
    root: ClestoValue,
    line: &[LineStep<ClestoValue, jtb_probe::Clesto>],
) -> bool {
    match line.last() {
        Some(step) => step.value.is_some(),
        None => root.dtm().is_none(),
    }
}

impl Verdict {
    /// Adjudicates a Clesto position with `tables`, or the error that kept them from opening:
    /// never a dead draw (Clesto has no draws), the forced result where the tables cover it.
    ///
    /// # Errors
    /// As [`Verdict::of_jungle`].
    pub fn of_clesto(
        tables: Result<&Tablebase<jtb_probe::Clesto>, EdgeError>,
        pos: Position,
    ) -> Result<Verdict, EdgeError> {
        let (tables, open_error) = split_opened(tables);
        Verdict::of_family(jtb_probe::adjudicate_clesto(tables, &pos), open_error, pos)
    }
}
