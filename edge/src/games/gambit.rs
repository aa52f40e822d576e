//! Animal Gambit at the edge: turns of up to four steps in Arimaa notation, distances in turns,
//! no clock; the tables settle a position (win, loss or repetition) where they cover it.

use std::{path::Path, sync::Arc};

use jtb_probe::{
    gambit::{self, AnimalGambit, Category, Next},
    ProbeError, ProbeResult, Storage, Tablebase, Turns, Value, Wdl,
};
use serde_json::{json, Value as Json};

use super::{extend, Asked, EdgeGame, GameAnswer, GameVerdict};
use crate::{
    is_gambit_shape, packed::not_packed, scan::sample, Answer, AnyPosition, AnyTablebase,
    EdgeError, GameEnd, MissingFiles, Pick, Played, PositionError, RuleFamily, Rules, ScanError,
    TableNameError, Tables, Targets, Verdict, PACKED_LEN,
};

/// Animal Gambit's one rule set as the edge reads its name, positions and tables.
impl RuleFamily for AnimalGambit {
    const RULE_SETS: &'static [AnimalGambit] = &[AnimalGambit];
    const TURNS_OF_STEPS: bool = true;

    fn rules(self) -> Rules {
        Rules::AnimalGambit
    }

    fn move_count_limit(self) -> Option<u32> {
        None
    }

    /// 8 ranks: the Jungle boards have 9 and 4.
    fn of_shape(text: &str) -> Option<AnimalGambit> {
        is_gambit_shape(text).then_some(AnimalGambit)
    }

    /// A clock is refused: Animal Gambit has none.
    fn parse(
        text: &str,
        rules: Option<AnimalGambit>,
        clock: Option<u32>,
    ) -> Result<AnyPosition, PositionError> {
        if let Some(clock) = clock {
            return Err(PositionError::Clock(jtb_probe::ClockError {
                rules: AnimalGambit::NAME,
                clock,
                limit: 0,
            }));
        }
        Self::from_text(text, rules)
    }

    fn from_text(text: &str, _: Option<AnimalGambit>) -> Result<AnyPosition, PositionError> {
        Ok(AnyPosition::Gambit(text.parse()?))
    }

    type Table = gambit::Material;

    fn table_name(self, text: &str) -> Result<gambit::Material, TableNameError> {
        let m: gambit::Material = text.parse().map_err(TableNameError::Gambit)?;
        if m.total() > jtb_probe::Layout::MAX_PIECES {
            return Err(TableNameError::TooManyPieces(m.to_string(), m.total()));
        }
        Ok(m)
    }

    /// No table needs another to be named: the generation adds what they lead into.
    fn targets_of(
        self,
        named: &[gambit::Material],
        max_pieces: usize,
        _with_needs: bool,
    ) -> Result<Targets, TableNameError> {
        Ok(Targets::Gambit(if named.is_empty() {
            gambit::Material::all(2, max_pieces)
        } else {
            named.to_vec()
        }))
    }

    fn open(
        self,
        root: &Path,
        cache_bytes: u64,
        storage: Arc<dyn Storage>,
    ) -> Result<AnyTablebase, ProbeError> {
        let tables = Tablebase::with_storage(root, self, cache_bytes, storage)?;
        Ok(AnyTablebase::Gambit(Arc::new(tables)))
    }

    fn unpack(self, record: &[u8; PACKED_LEN]) -> Result<AnyPosition, PositionError> {
        unpack(record).map(AnyPosition::Gambit)
    }

    fn table_positions(
        self,
        name: &str,
        pick: Pick,
        keep: &mut dyn FnMut(AnyPosition),
    ) -> Result<(), ScanError> {
        let material = self.table_name(name).map_err(ScanError::Name)?;
        let layout = gambit::Layout::new(material.canonical());
        let at = |idx| {
            let (board, turn) = layout.board(idx)?;
            gambit::Position::new(board, turn)
                .ok()
                .map(AnyPosition::Gambit)
        };
        match pick {
            Pick::All => (0..layout.len()).filter_map(at).for_each(keep),
            Pick::Sample { count, seed } => sample(layout.len(), count, seed, at, keep),
        }
        Ok(())
    }
}

/// Animal Gambit.
#[derive(Debug, Clone, Copy)]
pub struct Gambit;

impl EdgeGame for Gambit {
    type Position = gambit::Position;
    type Tables = gambit::AnimalGambit;

    fn rules(_: &gambit::Position) -> Rules {
        Rules::AnimalGambit
    }

    fn side_to_move(pos: &gambit::Position) -> &'static str {
        color_name(pos.turn())
    }

    fn clock(_: &gambit::Position) -> Option<u32> {
        None
    }

    fn moves(pos: &gambit::Position) -> Vec<String> {
        pos.turns().iter().map(ToString::to_string).collect()
    }

    /// Every turn in the ASCII order of its text (as `jtb moves`), with the position it gives.
    fn moves_json(pos: &gambit::Position) -> Json {
        let turns: Vec<Json> = pos.turns().iter().map(|t| turn_json(pos, t)).collect();
        json!({"position": pos.to_string(), "rules": AnimalGambit::NAME, "turns": turns})
    }

    fn is_game_over(pos: &gambit::Position) -> bool {
        pos.turns().is_empty()
    }

    fn play(pos: &gambit::Position, mv: &str) -> Result<Played, PositionError> {
        let turn = pos
            .parse_turn(mv)
            .map_err(|e| PositionError::IllegalTurn(e.to_string()))?;
        Ok(match pos.play(&turn) {
            Next::Continues(next) => Played::Next(AnyPosition::Gambit(next)),
            Next::Over(end) => Played::End(GameEnd {
                result: if end.mover_wins() {
                    Wdl::Win
                } else {
                    Wdl::Loss
                },
                mover: color_name(pos.turn()),
                reason: end.to_string(),
            }),
        })
    }

    fn set_rule_clock(_: &mut gambit::Position) -> Result<(), PositionError> {
        Ok(())
    }

    fn pack(pos: &gambit::Position, out: &mut [u8; PACKED_LEN]) {
        pack(pos, out);
    }

    fn tables(any: &AnyTablebase) -> Option<&Arc<Tablebase<gambit::AnimalGambit>>> {
        match any {
            AnyTablebase::Gambit(tb) => Some(tb),
            _ => None,
        }
    }

    fn tables_rules(_: &Tablebase<gambit::AnimalGambit>) -> Rules {
        Rules::AnimalGambit
    }

    fn wdl(tb: &Tablebase<gambit::AnimalGambit>, pos: &gambit::Position) -> ProbeResult<Wdl> {
        tb.probe_wdl(pos)
    }

    fn position_of(pos: &AnyPosition) -> Option<&gambit::Position> {
        match pos {
            AnyPosition::Gambit(pos) => Some(pos),
            _ => None,
        }
    }

    fn wdl_many(
        tb: &Tablebase<gambit::AnimalGambit>,
        positions: &[&gambit::Position],
        each: &mut dyn FnMut(usize, ProbeResult<Wdl>),
    ) {
        tb.probe_wdl_many(positions, each);
    }

    fn value(
        tb: &Tablebase<gambit::AnimalGambit>,
        pos: &gambit::Position,
    ) -> ProbeResult<Option<Value>> {
        tb.probe_dtm(pos).map(Some)
    }

    fn best_move(
        tb: &Tablebase<gambit::AnimalGambit>,
        pos: &gambit::Position,
    ) -> ProbeResult<Option<String>> {
        Ok(tb.best_move(pos)?.map(|b| b.mv.to_string()))
    }

    fn probe(tables: &Tables, pos: gambit::Position, line: bool) -> Result<Answer, EdgeError> {
        let tb = tables.of::<Gambit>(Rules::AnimalGambit)?;
        let asked = Asked {
            lines: line,
            moves: false,
        };
        Ok(Answer::Gambit(GambitAnswer::probe(&tb, pos, asked)?))
    }

    /// The value in turns with every turn, best first (its steps and the position it gives);
    /// or the best line to the end of the game (empty where the repetition rule decides).
    fn api_text(
        tables: &Tables,
        pos: &gambit::Position,
        lines: bool,
        note: &dyn Fn(&MissingFiles) -> Option<String>,
    ) -> ProbeResult<String> {
        let material = gambit::Material::of(pos.board()).canonical();
        let tb = super::holding::<Gambit, _>(
            tables,
            Rules::AnimalGambit,
            gambit::AnimalGambit,
            material,
            material.total(),
        )?;
        let asked = if lines { Asked::LINES } else { Asked::MOVES };
        let answer = GambitAnswer::probe(&tb, *pos, asked)?;
        let note = note(&answer.missing);
        Ok(if lines {
            answer.api_line_json(note).to_string()
        } else {
            answer.api_text(note)
        })
    }

    fn steps_json(pos: &gambit::Position, steps: &str) -> Option<Result<Json, String>> {
        Some(steps_json(pos, steps))
    }

    fn adjudicate(
        tables: Result<&Tablebase<gambit::AnimalGambit>, EdgeError>,
        pos: gambit::Position,
    ) -> Result<Verdict, EdgeError> {
        Verdict::of_gambit(tables, pos)
    }
}

/// A side's name (`gold`, `silver`).
fn color_name(c: gambit::Color) -> &'static str {
    match c {
        gambit::Color::Gold => "gold",
        gambit::Color::Silver => "silver",
    }
}

/// An Animal Gambit position's answer. A set that lacks some of the table's files (WDL files
/// alone) leaves what needs them `None`, noted in `missing`.
#[derive(Debug, Clone, PartialEq)]
pub struct GambitAnswer {
    /// The position.
    pub pos: gambit::Position,
    /// Win, draw (the repetition rule decides) or loss.
    pub wdl: Wdl,
    /// The value with the distance to mate in turns (from the DTM file).
    pub value: Option<Value>,
    /// Win, loss or repetition.
    pub category: Category,
    /// The best turn, in its canonical text.
    pub best: Option<String>,
    /// The best line, when asked (`None` inside when a file it needs is missing).
    pub line: Option<Option<Vec<GambitStep>>>,
    /// Every turn, best first (the best turn first among equals; in the ASCII order of their
    /// texts where the DTM files are missing), when asked.
    pub turns: Option<Vec<GambitTurn>>,
    /// The files the set lacks that the answer needed.
    pub missing: MissingFiles,
}

/// A turn of a line, with the position it is played from and the value after it (`None` once
/// the game ended).
#[derive(Debug, Clone, PartialEq)]
pub struct GambitStep {
    /// The position the turn is played from.
    pub before: gambit::Position,
    /// The turn.
    pub turn: gambit::Turn,
    /// The value after it for the side then to move.
    pub value: Option<Value>,
}

impl GambitStep {
    /// The steps of the library's `line` played from `pos`.
    fn played(
        pos: gambit::Position,
        line: &[jtb_probe::LineStep<Value, gambit::AnimalGambit>],
    ) -> Vec<GambitStep> {
        let mut before = pos;
        let mut steps = Vec::with_capacity(line.len());
        for step in line {
            steps.push(GambitStep {
                before,
                turn: step.mv,
                value: step.value,
            });
            if let Some(next) = step.position {
                before = next;
            }
        }
        steps
    }

    /// The turns of `line`, in their canonical texts.
    fn turns(line: &[GambitStep]) -> Vec<String> {
        line.iter().map(|s| s.turn.to_string()).collect()
    }

    /// The API's object of the step: the turn, and the value after it (`null` once the game
    /// ended).
    fn api_json(&self) -> Json {
        let mut obj = turn_json(&self.before, &self.turn);
        match self.value {
            Some(v) => extend(&mut obj, gambit_fields(v.wdl(), Some(v))),
            None => extend(
                &mut obj,
                json!({"wdl": null, "dtm": null, "category": null}),
            ),
        }
        obj
    }
}

/// A turn of a [`GambitAnswer`] with its values.
#[derive(Debug, Clone, PartialEq)]
pub struct GambitTurn {
    /// The turn.
    pub turn: gambit::Turn,
    /// The value after it for the side then to move (a game it ended is lost or won in 0 by
    /// that side), or the WDL alone where the set lacks the DTM file.
    pub after: (Wdl, Option<Value>),
    /// Its worth to its mover (a win or loss in 1 when it ends the game), or the WDL alone.
    pub mover: (Wdl, Option<Value>),
}

/// A value as the API writes it for a side to move: `wdl`, `dtm` in turns (null for a draw,
/// or where the set lacks the DTM file), and `category` (`win`, `loss` or `repetition`: the
/// WDL's).
#[must_use]
pub fn gambit_fields(wdl: Wdl, value: Option<Value>) -> Json {
    serde_json::to_value(ApiValue::of(wdl, value)).expect("a value serializes")
}

/// [`gambit_fields`] as it is written.
#[derive(serde::Serialize)]
struct ApiValue {
    wdl: &'static str,
    dtm: Option<u16>,
    category: &'static str,
}

impl ApiValue {
    fn of(wdl: Wdl, value: Option<Value>) -> ApiValue {
        ApiValue {
            wdl: wdl.name(),
            dtm: value.and_then(Value::dtm),
            category: category_of(wdl).name(),
        }
    }
}

/// The category of a value of `wdl`: a draw is the repetition rule's.
fn category_of(wdl: Wdl) -> Category {
    Category::of(match wdl {
        Wdl::Win => Value::Win(0),
        Wdl::Draw => Value::Draw,
        Wdl::Loss => Value::Loss(0),
    })
}

/// A turn as the API writes it: its canonical text and tokens, the board it leaves, and the
/// position it gives or how it ends the game and who won.
#[must_use]
pub fn turn_json(pos: &gambit::Position, turn: &gambit::Turn) -> Json {
    serde_json::to_value(ApiTurn::of(pos, turn)).expect("a turn serializes")
}

/// [`turn_json`] as it is written.
#[derive(serde::Serialize)]
struct ApiTurn {
    turn: String,
    steps: Vec<String>,
    step_count: u8,
    board: String,
    position: Option<String>,
    end: Option<String>,
    winner: Option<String>,
}

impl ApiTurn {
    fn of(pos: &gambit::Position, turn: &gambit::Turn) -> ApiTurn {
        let (position, end, winner) = match pos.play(turn) {
            Next::Continues(next) => (Some(next.to_string()), None, None),
            Next::Over(end) => {
                let mover = pos.turn();
                let winner = if end.mover_wins() {
                    mover
                } else {
                    mover.other()
                };
                (None, Some(end.to_string()), Some(winner.to_string()))
            }
        };
        ApiTurn {
            turn: turn.to_string(),
            steps: turn.tokens().iter().map(ToString::to_string).collect(),
            step_count: turn.steps(),
            board: turn.board().to_string(),
            position,
            end,
            winner,
        }
    }
}

/// The API's answer of an Animal Gambit position, serialized as it is written.
#[derive(serde::Serialize)]
struct ApiAnswer<'a> {
    position: String,
    rules: &'static str,
    #[serde(flatten)]
    value: ApiValue,
    best: Option<&'a str>,
    turns: Vec<ApiTurnValued>,
    #[serde(skip_serializing_if = "Option::is_none")]
    missing: Option<String>,
}

/// A turn of [`ApiAnswer`] with the value after it, and its worth to its mover.
#[derive(serde::Serialize)]
struct ApiTurnValued {
    #[serde(flatten)]
    turn: ApiTurn,
    #[serde(flatten)]
    after: ApiValue,
    mover: ApiValue,
}

impl GambitAnswer {
    /// Probes `pos` (with `line`, also the best line).
    ///
    /// # Errors
    /// As [`Tablebase::probe_dtm`], but for the files of the position's tables that the set
    /// does not hold (noted in the answer).
    pub fn probe(
        tb: &Tablebase<gambit::AnimalGambit>,
        pos: gambit::Position,
        asked: Asked,
    ) -> ProbeResult<GambitAnswer> {
        let mut missing = MissingFiles::default();
        let value = missing.or_note(tb.probe_dtm(&pos))?;
        let wdl = match value {
            Some(v) => v.wdl(),
            None => tb.probe_wdl(&pos)?,
        };
        // Best first, the best turn first among equals.
        let ranked = match value {
            Some(_) => missing.or_note(tb.ranked_moves(&pos))?,
            None => None,
        };
        let best = ranked
            .as_ref()
            .and_then(|r| r.first())
            .map(|b| b.mv.to_string());
        let line = if asked.lines {
            let line = missing.or_note(tb.line(&pos))?;
            Some(line.map(|l| GambitStep::played(pos, &l)))
        } else {
            None
        };
        let turns = if asked.moves {
            Some(GambitTurn::list(tb, &pos, ranked, &mut missing)?)
        } else {
            None
        };
        let category = category_of(wdl);
        Ok(GambitAnswer {
            pos,
            wdl,
            value,
            category,
            best,
            line,
            turns,
            missing,
        })
    }

    /// The API's answer as JSON text (`GET /api/v1/animal-gambit?position=`): the fields of `jtb probe
    /// --json` for the canonical text and every turn with its values; the `missing` note in
    /// `missing`'s words (the server names a file relative to its root).
    #[must_use]
    pub fn api_text(&self, missing: Option<String>) -> String {
        let turns = self.turns.iter().flatten();
        let answer = ApiAnswer {
            position: self.pos.to_string(),
            rules: AnimalGambit::NAME,
            value: ApiValue::of(self.wdl, self.value),
            best: self.best.as_deref(),
            turns: turns
                .map(|t| ApiTurnValued {
                    turn: ApiTurn::of(&self.pos, &t.turn),
                    after: ApiValue::of(t.after.0, t.after.1),
                    mover: ApiValue::of(t.mover.0, t.mover.1),
                })
                .collect(),
            missing,
        };
        serde_json::to_string(&answer).expect("an answer serializes")
    }
}

impl GambitAnswer {
    /// The API's object of the best line (`GET /api/v1/animal-gambit/line?position=`): each
    /// turn with the value after it (empty where the repetition rule decides); `null` where
    /// the set lacks the files, with the `missing` note in `missing`'s words.
    #[must_use]
    pub fn api_line_json(&self, missing: Option<String>) -> Json {
        match self.line.as_ref().and_then(Option::as_ref) {
            Some(line) => json!({
                "position": self.pos.to_string(),
                "rules": AnimalGambit::NAME,
                "line": line.iter().map(GambitStep::api_json).collect::<Vec<_>>(),
            }),
            None => json!({
                "position": self.pos.to_string(), "rules": AnimalGambit::NAME, "line": null,
                "missing": missing,
            }),
        }
    }
}

impl GambitTurn {
    /// Every turn of `pos` with its values: in `ranked`'s order where the DTM file gave it,
    /// else in the ASCII order of their texts.
    fn list(
        tb: &Tablebase<gambit::AnimalGambit>,
        pos: &gambit::Position,
        ranked: Option<Vec<jtb_probe::ScoredMove<gambit::AnimalGambit>>>,
        missing: &mut MissingFiles,
    ) -> ProbeResult<Vec<GambitTurn>> {
        let listed: Vec<(gambit::Turn, Option<Value>)> = match ranked {
            Some(ranked) => ranked.iter().map(|t| (t.mv, Some(t.value))).collect(),
            None => pos.turns().into_iter().map(|t| (t, None)).collect(),
        };
        let mut turns = Vec::with_capacity(listed.len());
        for (turn, mover) in listed {
            // The turn's worth to its mover: the table's, else the WDL after it, seen back.
            let (after, mover) = match pos.play(&turn) {
                Next::Continues(next) => match missing.or_note(tb.probe_dtm(&next))? {
                    Some(after) => (
                        (after.wdl(), Some(after)),
                        mover.map_or((after.wdl().flipped(), None), |m| (m.wdl(), Some(m))),
                    ),
                    None => {
                        let after = tb.probe_wdl(&next)?;
                        ((after, None), (after.flipped(), None))
                    }
                },
                // A turn that ends the game is won or lost in 1, with every file or without.
                Next::Over(end) if end.mover_wins() => (
                    (Wdl::Loss, Some(Value::Loss(0))),
                    (Wdl::Win, Some(Value::Win(1))),
                ),
                Next::Over(_) => (
                    (Wdl::Win, Some(Value::Win(0))),
                    (Wdl::Loss, Some(Value::Loss(1))),
                ),
            };
            turns.push(GambitTurn { turn, after, mover });
        }
        Ok(turns)
    }
}

impl GameAnswer for GambitAnswer {
    /// The JSON object `jtb probe --json` prints for the input `text`.
    fn json(&self, text: &str) -> Json {
        let mut obj = json!({
            "position": text,
            "rules": AnimalGambit::NAME,
            "wdl": self.wdl.name(),
            "dtm": self.value.and_then(Value::dtm),
            "category": self.category.name(),
            "best": self.best,
        });
        if let Some(line) = &self.line {
            obj["line"] = json!(line.as_deref().map(GambitStep::turns));
        }
        self.missing.add_to(&mut obj);
        obj
    }

    fn best(&self) -> Option<&str> {
        self.best.as_deref()
    }

    fn line(&self) -> Option<Vec<String>> {
        Some(GambitStep::turns(self.line.as_ref()?.as_ref()?))
    }

    fn missing(&self) -> Option<String> {
        self.missing.note()
    }

    /// What `jtb probe` prints for the input `text`.
    fn text(&self, text: &str) -> String {
        let mut s = format!("{text}\nrules: {}\n", AnimalGambit::NAME);
        s += &match (self.wdl, self.value) {
            (Wdl::Draw, _) => {
                "value: draw (repetition: neither side can force an end; the repetition \
                            rule decides with the history)\n"
                    .to_owned()
            }
            (wdl, Some(v)) => format!(
                "value: {wdl} for {} to move, {} to the end ({})\n",
                self.pos.turn(),
                Turns(v.dtm().unwrap_or(0)),
                self.category
            ),
            (wdl, None) => format!(
                "value: {wdl} for {} to move ({})\n",
                self.pos.turn(),
                self.category
            ),
        };
        if let Some(b) = &self.best {
            s += &format!("best: {b}\n");
        }
        if let Some(Some(line)) = &self.line {
            s += &format!("line: {}\n", GambitStep::turns(line).join(", "));
        }
        s += &self.missing.text();
        s.trim_end().to_owned()
    }
}

impl Verdict {
    /// Adjudicates an Animal Gambit position: whether the tables settle it.
    ///
    /// # Errors
    /// [`EdgeError::NotCovered`] where no tables cover the position; damaged tables.
    pub fn of_gambit(
        tables: Result<&Tablebase<gambit::AnimalGambit>, EdgeError>,
        pos: gambit::Position,
    ) -> Result<Verdict, EdgeError> {
        let not_covered =
            |e: &dyn std::fmt::Display| EdgeError::NotCovered(format!("not covered: {e}"));
        let verdict = match tables {
            Ok(tb) => match tb.adjudicate(&pos) {
                Ok(v) => v,
                Err(e) if e.is_missing() => return Err(not_covered(&e)),
                Err(e) => return Err(e.into()),
            },
            Err(e) => return Err(not_covered(&e)),
        };
        Ok(Verdict::Gambit(GambitVerdict { pos, verdict }))
    }
}

/// The verdict on an Animal Gambit position the tables settle (it has no move-count draw).
#[derive(Debug)]
pub struct GambitVerdict {
    /// The position.
    pub pos: gambit::Position,
    /// Win, loss or repetition, with the turns to the end.
    pub verdict: gambit::Verdict,
}

impl GameVerdict for GambitVerdict {
    fn position(&self) -> AnyPosition {
        AnyPosition::Gambit(self.pos)
    }

    fn is_settled(&self) -> bool {
        true
    }

    fn status(&self) -> &'static str {
        "settled by the tables"
    }

    /// Animal Gambit has no move-count rule.
    fn is_dead_draw(&self) -> bool {
        false
    }

    fn value(&self) -> Option<Value> {
        let dtm = self.verdict.dtm.unwrap_or(0);
        match self.verdict.category {
            Category::Win => Some(Value::Win(dtm)),
            Category::Loss => Some(Value::Loss(dtm)),
            Category::Repetition => None,
        }
    }

    fn reason(&self) -> String {
        let (pos, verdict) = (&self.pos, &self.verdict);
        match verdict.category {
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
            Category::Repetition => "neither side can force an end: the repetition rule \
                                     decides (Animal Gambit has no move-count draw)"
                .to_owned(),
        }
    }

    fn json(&self, text: &str) -> Json {
        json!({
            "position": text,
            "rules": AnimalGambit::NAME,
            "settled": true,
            "category": self.verdict.category.name(),
            "dtm": self.verdict.dtm,
            "reason": self.reason(),
        })
    }
}

/// Writes a position into bytes 1.. of its packed record ([`crate::packed`] says how).
fn pack(pos: &gambit::Position, out: &mut [u8; PACKED_LEN]) {
    out[1] = pos.turn().index() as u8;
    for (sq, piece) in pos.board().iter() {
        let code = 1 + piece.color.index() as u8 * 6 + piece.animal as u8;
        out[8 + sq.index() / 2] |= code << (4 * (sq.index() % 2));
    }
}

/// The position of a packed record, checked as its text would be.
fn unpack(record: &[u8; PACKED_LEN]) -> Result<gambit::Position, PositionError> {
    let turn = gambit::Color::ALL[usize::from(record[1])];
    if record[2..8].iter().chain(&record[40..]).any(|&b| b != 0) {
        return Err(not_packed(
            "an Animal Gambit record has only its side to move and its board",
        ));
    }
    let mut board = gambit::Board::EMPTY;
    for index in 0..64u8 {
        let code = record[8 + usize::from(index / 2)] >> (4 * (index % 2)) & 0xF;
        if code == 0 {
            continue;
        }
        if code > 12 {
            return Err(not_packed(format!("piece code {code} on square {index}")));
        }
        let color = gambit::Color::ALL[usize::from((code - 1) / 6)];
        let animal = gambit::Animal::ALL[usize::from((code - 1) % 6)];
        board.put(
            gambit::Piece::new(color, animal),
            gambit::Square::from_index(index),
        );
    }
    gambit::Position::new(board, turn)
        .map_err(|e| PositionError::Gambit(gambit::ParseError::from(e)))
}

/// Longer `steps` text is refused before it is read.
const MAX_STEPS_BYTES: usize = 64;

/// A turn of `pos` played one step at a time ([`gambit::Position::partial_turn`], the API's
/// `/steps` answer): the board after the steps so far, the steps that may follow (each with
/// the removal it causes and the squares it joins), and the turn they play when the turn may
/// end there; no tables needed.
///
/// # Errors
/// Steps that are not a legal beginning of a turn, naming the first token that does not
/// follow; text over the length of any turn.
fn steps_json(pos: &gambit::Position, text: &str) -> Result<Json, String> {
    // Four steps and their removals are 8 tokens of 4 letters: longer text is no turn.
    if text.len() > MAX_STEPS_BYTES {
        return Err(format!(
            "steps text of {} bytes: at most {MAX_STEPS_BYTES} (a turn is 1 to 4 steps with \
             their removals)",
            text.len()
        ));
    }
    let shown: String = text.chars().take(60).collect();
    let partial = pos
        .partial_turn(text)
        .map_err(|e| format!("steps `{}`: {e}", shown.escape_debug()))?;
    let next: Vec<Json> = partial
        .next
        .iter()
        .map(|n| {
            json!({"step": gambit::Token::Step(n.step).to_string(),
                   "removal": n.removal.map(|r| gambit::Token::Removal(r).to_string()),
                   "text": n.text(), "from": n.step.from.to_string(),
                   "to": n.step.to().to_string()})
        })
        .collect();
    let words: Vec<&str> = text.split_whitespace().collect();
    // Where the turn may not end, why not.
    let why_not = if partial.turn.is_some() {
        None
    } else if words.is_empty() {
        Some("no step yet: a turn is 1 to 4 steps")
    } else if !partial.finished {
        Some("inside a push: the pushing piece must step into the square it emptied")
    } else {
        Some("the steps give back the starting board: no turn")
    };
    Ok(json!({
        "position": pos.to_string(),
        "rules": gambit::AnimalGambit::NAME,
        "steps": words.join(" "),
        "step_count": partial.steps,
        "board": partial.board.to_string(),
        "finished": partial.finished,
        "turn": partial.turn.map(|t| turn_json(pos, &t)),
        "why_not": why_not,
        "next": next,
    }))
}
