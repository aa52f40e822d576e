//! Clesto at the edge (RULES.md 6): the Jungle family's position type with hungry animals, the
//! repetition ban and no clock; tables with a plain value or a win by the ban.

use std::sync::Arc;

use jtb_probe::{
    ClestoValue, IllegalMove, LineStep, Move, MoveKind, Outcome, Plies, Position, ProbeResult,
    SquareSet, Tablebase, Value, Wdl,
};
use serde_json::{json, Value as Json};

use super::{jungle, split_opened, Asked, EdgeGame, GameAnswer};
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

    /// The Jungle family's moves with Clesto's fields: the animals each move starves, and the
    /// mover's hungry set.
    fn moves_json(pos: &Position) -> Json {
        let mut listed = jungle::moves_json(pos);
        if let Some(moves) = listed["moves"].as_array_mut() {
            for (mv, entry) in pos.revealed_moves().into_iter().zip(moves) {
                entry["starves"] = json!(starvations(pos, mv).expect("a listed move is legal"));
            }
        }
        listed["hungry"] = json!(square_names(pos, pos.hungry()));
        listed["hungry_canonical"] = json!(pos.hungry_is_canonical());
        listed
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

    fn position_of(pos: &crate::AnyPosition) -> Option<&Position> {
        match pos {
            crate::AnyPosition::Clesto(pos) => Some(pos),
            _ => None,
        }
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
        let asked = Asked {
            lines: line,
            moves: false,
        };
        Ok(Answer::Clesto(ClestoAnswer::probe(&tb, pos, asked)?))
    }

    /// The value, the best move, the banned side, the hungry set and every move, best first;
    /// or the best line (RULES.md 6.6), which stops at the first position the unbanned side
    /// wins only by the ban.
    fn api_text(
        tables: &Tables,
        pos: &Position,
        lines: bool,
        note: &dyn Fn(&MissingFiles) -> Option<String>,
    ) -> ProbeResult<String> {
        super::check_probeable(pos)?;
        let material = jtb_probe::Material::of(pos);
        let rules = Clesto::rules(pos);
        let tb =
            super::holding::<Clesto, _>(tables, rules, pos.rules(), material, material.total())?;
        let asked = if lines { Asked::LINES } else { Asked::MOVES };
        let answer = ClestoAnswer::probe(&tb, pos.clone(), asked)?;
        let note = note(&answer.missing);
        Ok(if lines {
            answer.api_line_json(note).to_string()
        } else {
            answer.api_text(note)
        })
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
    pub line: Option<Option<Vec<ClestoStep>>>,
    /// Whether the line stops at a position the ban alone decides.
    pub line_stops_at_ban: bool,
    /// Every move, best first for the mover (in move order where the DTM and ban files are
    /// missing), when asked.
    pub moves: Option<Vec<ClestoMove>>,
    /// The files the set lacks that the answer needed.
    pub missing: MissingFiles,
}

/// A move of a [`ClestoAnswer`]: the animals it starves, where it leads, and its worth to its
/// mover.
#[derive(Debug, Clone, PartialEq)]
pub struct ClestoMove {
    /// The move.
    pub mv: Move,
    /// What kind of move it is.
    pub kind: MoveKind,
    /// The animals it starves: letter and square after the move (`Cb1`).
    pub starves: Vec<String>,
    /// The position it gives (`None` when it ended the game, with how).
    pub position: Result<Box<Position>, String>,
    /// The value after it for the side then to move (where the game ended: in 0), or its WDL
    /// alone where the set lacks the files.
    pub after: (Wdl, Option<ClestoValue>),
    /// Its worth to its mover (the exit counted in this position's material), or the WDL
    /// alone.
    pub mover: (Wdl, Option<ClestoValue>),
}

/// A step of a Clesto line: the move, the animals it starves, and the position after it with
/// its value (or how the game ended).
#[derive(Debug, Clone, PartialEq)]
pub struct ClestoStep {
    /// The move.
    pub mv: Move,
    /// What kind of move it is.
    pub kind: MoveKind,
    /// The animals it starves.
    pub starves: Vec<String>,
    /// The position after it with its value, or how the game ended.
    pub after: Result<(Box<Position>, Option<ClestoValue>), String>,
}

impl ClestoStep {
    /// The steps of the library's `line` played from `pos`.
    ///
    /// # Panics
    /// If a move of the line is not legal (it always is).
    fn played(pos: &Position, line: &[LineStep<ClestoValue, jtb_probe::Clesto>]) -> Vec<Self> {
        let mut before = pos.clone();
        let mut steps = Vec::with_capacity(line.len());
        for step in line {
            let kind = before.move_kind(step.mv).expect("a line's move is legal");
            let starves = starvations(&before, step.mv).expect("a line's move is legal");
            let after = match &step.position {
                Some(next) => Ok((Box::new(next.clone()), step.value)),
                None => match before.play(step.mv).expect("a line's move is legal") {
                    Outcome::Over { reason, .. } => Err(reason.to_string()),
                    Outcome::Ongoing(next) => Ok((Box::new(next), step.value)),
                },
            };
            if let Ok((next, _)) = &after {
                before = (**next).clone();
            }
            steps.push(ClestoStep {
                mv: step.mv,
                kind,
                starves,
                after,
            });
        }
        steps
    }

    /// The moves of `line`.
    fn moves(line: &[ClestoStep]) -> Vec<String> {
        line.iter().map(|s| s.mv.to_string()).collect()
    }

    /// The API's object of the step: its value, banned side and hungry set after it (`null`
    /// once the game ended).
    fn api_json(&self) -> Json {
        let (end, next, value) = match &self.after {
            Ok((next, value)) => (None, Some(&**next), *value),
            Err(reason) => (Some(reason.as_str()), None, None),
        };
        json!({
            "move": self.mv.to_string(),
            "kind": super::jungle::kind_name(self.kind),
            "end": end,
            "starves": self.starves,
            "position": next.map(ToString::to_string),
            "wdl": value.map(|v| v.wdl().name()),
            "dtm": value.and_then(ClestoValue::dtm),
            "category": value.map(ClestoValue::category),
            "exit": value.and_then(ClestoValue::exit),
            "banned": next.map(banned_of),
            "hungry": next.map(|p| square_names(p, p.hungry())),
        })
    }
}

/// The animals that `mv` starves, each as its letter and its square after the move (`Cb1`).
///
/// # Errors
/// `mv` is not legal in `pos`.
pub fn starvations(pos: &Position, mv: Move) -> Result<Vec<String>, IllegalMove> {
    Ok(pos
        .starvations(mv)?
        .into_iter()
        .map(|(piece, sq)| format!("{}{sq}", piece.letter()))
        .collect())
}

/// The side the repetition ban binds in `pos`'s material, by name (`red`, `blue`).
#[must_use]
pub fn banned_of(pos: &Position) -> String {
    jtb_probe::banned_side(jtb_probe::Material::of(pos)).to_string()
}

/// The names of the squares of `set`, in the board's order.
#[must_use]
pub fn square_names(pos: &Position, set: SquareSet) -> Vec<String> {
    pos.board()
        .squares()
        .filter(|&sq| set & jtb_probe::bit(sq) != 0)
        .map(|sq| sq.to_string())
        .collect()
}

/// A Clesto value as the API writes it, for the side to move: `wdl` always win or loss, `dtm`
/// for a plain value (null where the ban decides), `category` `win`, `loss`, `ban-win` or
/// `ban-loss`, and `exit`, the banned side's plies to a smaller material it wins, where the
/// ban decides and it can force one (null otherwise); the WDL alone, the rest null, where the
/// set lacks the DTM and ban files.
#[must_use]
pub fn clesto_fields(wdl: Wdl, value: Option<ClestoValue>) -> Json {
    serde_json::to_value(ApiValue::of(wdl, value)).expect("a value serializes")
}

/// [`clesto_fields`] as it is written.
#[derive(serde::Serialize)]
struct ApiValue {
    wdl: &'static str,
    dtm: Option<u16>,
    category: Option<&'static str>,
    exit: Option<u16>,
}

impl ApiValue {
    fn of(wdl: Wdl, value: Option<ClestoValue>) -> ApiValue {
        ApiValue {
            wdl: value.map_or(wdl, ClestoValue::wdl).name(),
            dtm: value.and_then(ClestoValue::dtm),
            category: value.map(ClestoValue::category),
            exit: value.and_then(ClestoValue::exit),
        }
    }
}

/// The API's answer of a Clesto position, serialized as it is written.
#[derive(serde::Serialize)]
struct ApiAnswer<'a> {
    position: String,
    rules: &'static str,
    #[serde(flatten)]
    value: ApiValue,
    best: Option<&'a str>,
    banned: String,
    hungry: Vec<String>,
    hungry_canonical: bool,
    moves: Vec<ApiMove<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    missing: Option<String>,
}

/// A move of [`ApiAnswer`]: the position it gives or how it ends the game, the animals it
/// starves, the value after it and its worth to its mover.
#[derive(serde::Serialize)]
struct ApiMove<'a> {
    #[serde(rename = "move")]
    mv: String,
    position: Option<String>,
    capture: bool,
    kind: &'static str,
    end: Option<&'a str>,
    starves: &'a [String],
    #[serde(flatten)]
    after: ApiValue,
    banned: Option<String>,
    mover: ApiValue,
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
        asked: Asked,
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
        let (line, line_stops_at_ban) = match (asked.lines, value) {
            (false, _) => (None, false),
            (true, value) => match (missing.or_note(tb.clesto_line(&pos))?, value) {
                (Some(steps), Some(value)) => (
                    Some(Some(ClestoStep::played(&pos, &steps))),
                    line_stops_at_ban(value, &steps),
                ),
                _ => (Some(None), false),
            },
        };
        let moves = if asked.moves {
            Some(ClestoMove::list(tb, &pos, &mut missing)?)
        } else {
            None
        };
        Ok(ClestoAnswer {
            pos,
            wdl,
            value,
            best,
            line,
            line_stops_at_ban,
            moves,
            missing,
        })
    }

    /// The API's answer as JSON text (`GET /api/v1/clesto?position=`): the fields of `jtb probe --json` for
    /// the canonical text, the banned side and the mover's hungry set, and every move; the
    /// `missing` note in `missing`'s words (the server names a file relative to its root).
    #[must_use]
    pub fn api_text(&self, missing: Option<String>) -> String {
        let answer = ApiAnswer {
            position: self.pos.to_string(),
            rules: self.pos.rules().name(),
            value: ApiValue::of(self.wdl, self.value),
            best: self.best.as_deref(),
            banned: banned_of(&self.pos),
            hungry: square_names(&self.pos, self.pos.hungry()),
            hungry_canonical: self.pos.hungry_is_canonical(),
            moves: self.moves.iter().flatten().map(ClestoMove::api).collect(),
            missing,
        };
        serde_json::to_string(&answer).expect("an answer serializes")
    }
}

impl ClestoAnswer {
    /// The API's object of the best line (`GET /api/v1/clesto/line?position=`), which stops at
    /// the first position the unbanned side wins only by the ban (`line_stops_at_ban`): each
    /// step with the animals it starves and the position it gives with its value; `null` where
    /// the set lacks the files, with the `missing` note in `missing`'s words.
    #[must_use]
    pub fn api_line_json(&self, missing: Option<String>) -> Json {
        match self.line.as_ref().and_then(Option::as_ref) {
            Some(line) if self.value.is_some() => json!({
                "position": self.pos.to_string(),
                "rules": self.pos.rules().name(),
                "line": line.iter().map(ClestoStep::api_json).collect::<Vec<_>>(),
                "line_stops_at_ban": self.line_stops_at_ban,
            }),
            _ => json!({
                "position": self.pos.to_string(),
                "rules": self.pos.rules().name(),
                "line": null,
                "line_stops_at_ban": null,
                "missing": missing,
            }),
        }
    }
}

impl ClestoMove {
    /// Every move of `pos`, best first for the mover (equal values in ASCII order); in move
    /// order where the set lacks the files of values.
    ///
    /// # Panics
    /// If a move the move generator lists is not legal (it always is).
    fn list(
        tb: &Tablebase<jtb_probe::Clesto>,
        pos: &Position,
        missing: &mut MissingFiles,
    ) -> ProbeResult<Vec<ClestoMove>> {
        let scored: Vec<(Move, Option<ClestoValue>)> =
            match missing.or_note(tb.clesto_moves(pos))? {
                Some(mut scored) => {
                    // Best first for the mover; equal values stay in ASCII order (the
                    // library's order).
                    scored.sort_by_key(|&(_, v)| std::cmp::Reverse(v));
                    scored.into_iter().map(|(mv, v)| (mv, Some(v))).collect()
                }
                None => pos.legal_moves().into_iter().map(|mv| (mv, None)).collect(),
            };
        let mut moves = Vec::with_capacity(scored.len());
        for (mv, mover) in scored {
            let kind = pos.move_kind(mv).expect("a listed move is legal");
            let starves = starvations(pos, mv).expect("a listed move is legal");
            let (position, after, ended) = match pos.play(mv).expect("a listed move is legal") {
                Outcome::Over { result, reason } => {
                    // The side that would move next has lost (or won, after the mover's own
                    // last animal starved) in 0.
                    let next = result.flipped();
                    let after = ClestoValue::Plain(match next {
                        Wdl::Win => Value::Win(0),
                        Wdl::Loss => Value::Loss(0),
                        Wdl::Draw => Value::Draw,
                    });
                    // A move that ends the game is won or lost in 1, with every file or not.
                    let ended = ClestoValue::Plain(result.of_final_move());
                    (Err(reason.to_string()), (next, Some(after)), Some(ended))
                }
                Outcome::Ongoing(next) => {
                    let v = missing.or_note(tb.probe_clesto(&next))?;
                    let next_wdl = match v {
                        Some(v) => v.wdl(),
                        None => tb.probe_wdl(&next)?,
                    };
                    (Ok(Box::new(next)), (next_wdl, v), None)
                }
            };
            // The move's worth to its mover: the table's, else the WDL after it, seen back.
            let mover = match mover.or(ended) {
                Some(v) => (v.wdl(), Some(v)),
                None => (after.0.flipped(), None),
            };
            moves.push(ClestoMove {
                mv,
                kind,
                starves,
                position,
                after,
                mover,
            });
        }
        Ok(moves)
    }

    /// The API's record of the move.
    fn api(&self) -> ApiMove<'_> {
        let (position, end) = match &self.position {
            Ok(next) => (Some(next.to_string()), None),
            Err(reason) => (None, Some(reason.as_str())),
        };
        ApiMove {
            mv: self.mv.to_string(),
            position,
            capture: matches!(self.kind, MoveKind::Capture | MoveKind::Trade),
            kind: super::jungle::kind_name(self.kind),
            end,
            starves: &self.starves,
            after: ApiValue::of(self.after.0, self.after.1),
            banned: self.position.as_ref().ok().map(|p| banned_of(p)),
            mover: ApiValue::of(self.mover.0, self.mover.1),
        }
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
            obj["line"] = json!(line.as_deref().map(ClestoStep::moves));
            obj["line_stops_at_ban"] = json!(self.line_stops_at_ban);
        }
        self.missing.add_to(&mut obj);
        obj
    }

    fn best(&self) -> Option<&str> {
        self.best.as_deref()
    }

    fn line(&self) -> Option<Vec<String>> {
        Some(ClestoStep::moves(self.line.as_ref()?.as_ref()?))
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
            s += &format!("line: {}\n", ClestoStep::moves(line).join(" "));
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
            .map(Verdict::Clesto)
    }
}
