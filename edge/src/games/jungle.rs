//! Jungle and the flip game (the Jungle family's rule sets but Clesto) at the edge: positions
//! with the clock rule, tables with DTM and DTC, and the moves, play and verdicts of the
//! family's position type that Clesto shares; the family's rule sets as the edge reads their
//! names ([`RuleFamily`] for [`RuleSet`]), and the family's positions as packed records
//! ([`crate::packed`]) and its tables' positions ([`crate::table_records`]). A position with
//! face-down tiles is the flip game's chance tables' ([`super::flip`]).

use std::{path::Path, sync::Arc};

use jtb_probe::{
    flip::{revealed_needs, ChanceMaterial, ChanceTables, ChanceValue},
    Animal, Color, HiddenSet, Layout, Material, Move, MoveKind, Outcome, ParseError, Piece,
    Placement, Plies, Position, ProbeError, ProbeResult, RuleSet, RuleValue, Square, SquareSet,
    Storage, Tablebase, Value, VerdictReason, Wdl,
};
use serde_json::{json, Value as Json};

use super::{add_missing, extend, flip, split_opened, Asked, EdgeGame, GameAnswer, GameVerdict};

mod values;

use crate::{
    packed::not_packed, scan::sample, table_material, Answer, AnyPosition, AnyTablebase,
    ChanceAnswer, EdgeError, GameEnd, JungleTable, MissingFiles, Pick, Played, PositionError,
    RuleFamily, Rules, ScanError, TableNameError, Tables, Targets, Verdict, PACKED_LEN,
};
pub use values::Values;

/// Jungle and the flip game.
#[derive(Debug, Clone, Copy)]
pub struct Jungle;

impl EdgeGame for Jungle {
    type Position = Position;
    type Tables = jtb_probe::Jungle;

    fn rules(pos: &Position) -> Rules {
        Rules::Jungle(pos.rules())
    }

    fn side_to_move(pos: &Position) -> &'static str {
        color_name(pos.turn())
    }

    fn clock(pos: &Position) -> Option<u32> {
        pos.clock()
    }

    fn moves(pos: &Position) -> Vec<String> {
        moves(pos)
    }

    fn is_game_over(pos: &Position) -> bool {
        is_game_over(pos)
    }

    fn moves_json(pos: &Position) -> Json {
        moves_json(pos)
    }

    fn play(pos: &Position, mv: &str) -> Result<Played, PositionError> {
        play(pos, mv)
    }

    fn set_rule_clock(pos: &mut Position) -> Result<(), PositionError> {
        Ok(pos.set_rule_clock(None)?)
    }

    fn pack(pos: &Position, out: &mut [u8; PACKED_LEN]) {
        pack(pos, out);
    }

    fn tables(any: &AnyTablebase) -> Option<&Arc<Tablebase>> {
        match any {
            AnyTablebase::Jungle(tb) => Some(tb),
            _ => None,
        }
    }

    fn tables_rules(tb: &Tablebase) -> Rules {
        Rules::Jungle(tb.rules().rule_set())
    }

    fn wdl(tb: &Tablebase, pos: &Position) -> ProbeResult<Wdl> {
        tb.probe_wdl(pos)
    }

    fn position_of(pos: &AnyPosition) -> Option<&Position> {
        match pos {
            AnyPosition::Jungle(pos) => Some(pos),
            _ => None,
        }
    }

    fn wdl_many(
        tb: &Tablebase,
        positions: &[&Position],
        each: &mut dyn FnMut(usize, ProbeResult<Wdl>),
    ) {
        tb.probe_wdl_many(positions, each);
    }

    fn value(tb: &Tablebase, pos: &Position) -> ProbeResult<Option<Value>> {
        tb.probe_dtm(pos).map(Some)
    }

    fn best_move(tb: &Tablebase, pos: &Position) -> ProbeResult<Option<String>> {
        Ok(tb.best_move(pos)?.map(|b| b.mv.to_string()))
    }

    fn probe(tables: &Tables, pos: Position, line: bool) -> Result<Answer, EdgeError> {
        if pos.hidden() != 0 {
            let answer = ChanceAnswer::probe(&*tables.chance()?, pos)?;
            return Ok(Answer::Jungle(crate::JungleGameAnswer::Chance(Box::new(
                answer,
            ))));
        }
        let asked = Asked {
            lines: line,
            moves: false,
        };
        // Where the tables are not there, the flip game's one-animal-each check answers as the
        // server does (its values are the tables', RULES.md 5.7).
        let one_each = Values::is_one_each(&pos);
        let answer = match tables.of::<Jungle>(Jungle::rules(&pos)) {
            Ok(tb) => match JungleAnswer::probe(Values::Tables(&tb), pos.clone(), asked) {
                Err(e) if one_each && e.is_missing() => {
                    JungleAnswer::probe(Values::OneEach, pos, asked)?
                }
                answer => answer?,
            },
            Err(_) if one_each => JungleAnswer::probe(Values::OneEach, pos, asked)?,
            Err(e) => return Err(e),
        };
        let answer = with_certain(tables, answer)?;
        Ok(Answer::Jungle(crate::JungleGameAnswer::Revealed(answer)))
    }

    /// The value with its distance to mate and its value under the clock rule at its clock,
    /// every move with both; or the best line and the line under the clock rule. A position
    /// with face-down tiles is answered by the flip game's chance tables (its chance values,
    /// or the best moves up to the first flip), a one-animal-each flip position by the
    /// built-in check.
    fn api_text(
        tables: &Tables,
        pos: &Position,
        lines: bool,
        note: &dyn Fn(&MissingFiles) -> Option<String>,
    ) -> ProbeResult<String> {
        if pos.is_game_over() {
            return Err(ProbeError::GameOver);
        }
        if pos.hidden() != 0 {
            let chance = tables
                .chance()
                .map_err(|_| no_directory(tables, pos.rules()))?;
            return if lines {
                crate::ChanceLine::probe(&chance, pos.clone()).map(|line| line.json().to_string())
            } else {
                ChanceAnswer::probe(&chance, pos.clone())
                    .map(|a| a.json(&pos.to_string()).to_string())
            };
        }
        let asked = if lines { Asked::LINES } else { Asked::MOVES };
        let answer = if Values::is_one_each(pos) {
            JungleAnswer::probe(Values::OneEach, pos.clone(), asked)?
        } else {
            let material = Material::of(pos);
            let rules = Jungle::rules(pos);
            let tb = super::holding::<Jungle, _>(
                tables,
                rules,
                pos.rules(),
                material,
                material.total(),
            )?;
            JungleAnswer::probe(Values::Tables(&tb), pos.clone(), asked)?
        };
        let answer = with_certain(tables, answer)?;
        let note = note(&answer.missing);
        Ok(if lines {
            answer.api_line_json(note).to_string()
        } else {
            answer.api_text(note)
        })
    }

    fn adjudicate(
        tables: Result<&Tablebase, EdgeError>,
        pos: Position,
    ) -> Result<Verdict, EdgeError> {
        // The flip game's one-animal-each check needs no tables: a missing directory only
        // matters where the tables are asked.
        Verdict::of_jungle(tables, pos)
    }
}

/// The Jungle family's rule sets (Jungle's, the flip game's and Clesto's) as the edge reads their
/// names, positions and tables: a Clesto rule set's tables open as Clesto's.
impl RuleFamily for RuleSet {
    const RULE_SETS: &'static [RuleSet] = &RuleSet::ALL;

    fn rules(self) -> Rules {
        Rules::Jungle(self)
    }

    fn move_count_limit(self) -> Option<u32> {
        self.has_clock().then(|| self.clock_limit())
    }

    fn parse(
        text: &str,
        rules: Option<RuleSet>,
        clock: Option<u32>,
    ) -> Result<AnyPosition, PositionError> {
        let mut pos = Position::parse(text, rules)?;
        pos.set_rule_clock(clock)?;
        Ok(AnyPosition::of_family(pos))
    }

    fn from_text(text: &str, rules: Option<RuleSet>) -> Result<AnyPosition, PositionError> {
        Ok(AnyPosition::of_family(Position::parse(text, rules)?))
    }

    /// Under `flip4x4` a name with `-` is a chance table (RULES.md 8), any other a revealed one.
    type Table = JungleTable;

    fn table_name(self, text: &str) -> Result<JungleTable, TableNameError> {
        if self == RuleSet::Flip4x4 && text.contains('-') {
            return text
                .parse()
                .map(JungleTable::Chance)
                .map_err(TableNameError::Chance);
        }
        table_material(text).map(JungleTable::Revealed)
    }

    /// Under flip4x4 the chance tables too (every one of up to `max_pieces` tiles without
    /// names), with the revealed tables they lead into.
    fn targets_of(
        self,
        named: &[JungleTable],
        max_pieces: usize,
        with_needs: bool,
    ) -> Result<Targets, TableNameError> {
        let (mut revealed, chance): (Vec<Material>, Vec<ChanceMaterial>) = if named.is_empty() {
            let chance = if self == RuleSet::Flip4x4 {
                ChanceMaterial::all(2, max_pieces)
            } else {
                Vec::new()
            };
            (Material::all_tables(self, 2, max_pieces), chance)
        } else {
            (
                named.iter().filter_map(|n| n.revealed()).collect(),
                named.iter().filter_map(|n| n.chance()).collect(),
            )
        };
        for all in revealed_needs(&chance) {
            if all.total() > Layout::MAX_PIECES {
                return Err(TableNameError::TooManyPieces(all.to_string(), all.total()));
            }
            if with_needs && !revealed.contains(&all) {
                revealed.push(all);
            }
        }
        Ok(Targets::Jungle(self, revealed, chance))
    }

    fn open(
        self,
        root: &Path,
        cache_bytes: u64,
        storage: Arc<dyn Storage>,
    ) -> Result<AnyTablebase, ProbeError> {
        Ok(match jtb_probe::Jungle::of(self) {
            Some(game) => AnyTablebase::Jungle(Arc::new(Tablebase::with_storage(
                root,
                game,
                cache_bytes,
                storage,
            )?)),
            None => AnyTablebase::Clesto(Arc::new(Tablebase::with_storage(
                root,
                jtb_probe::Clesto,
                cache_bytes,
                storage,
            )?)),
        })
    }

    fn unpack(self, record: &[u8; PACKED_LEN]) -> Result<AnyPosition, PositionError> {
        unpack(self, record).map(AnyPosition::of_family)
    }

    /// A revealed table's positions; a chance table's are not listed.
    fn table_positions(
        self,
        name: &str,
        pick: Pick,
        keep: &mut dyn FnMut(AnyPosition),
    ) -> Result<(), ScanError> {
        let material = match self.table_name(name).map_err(ScanError::Name)? {
            JungleTable::Revealed(material) => material,
            JungleTable::Chance(material) => return Err(ScanError::Chance(material)),
        };
        let layout = Layout::new(self, material.table_of(self));
        let at = |idx| layout.position(idx).map(AnyPosition::of_family);
        match pick {
            Pick::All => {
                layout.for_each_used_entry(|idx, _| at(idx).into_iter().for_each(&mut *keep))
            }
            Pick::Sample { count, seed } => sample(layout.len(), count, seed, at, keep),
        }
        Ok(())
    }
}

/// The legal moves of a position of the family's type, sorted as ASCII strings (with face-down
/// tiles each tile's flip, `?a4`, beside the revealed animals' steps); none at the clock limit
/// or once the game is over.
pub(super) fn moves(pos: &Position) -> Vec<String> {
    if pos.at_clock_limit() || pos.is_game_over() {
        Vec::new()
    } else if pos.hidden() != 0 {
        flip::moves(pos)
    } else {
        pos.legal_moves().iter().map(Move::to_string).collect()
    }
}

/// Whether no move can be played in a position of the family's type.
pub(super) fn is_game_over(pos: &Position) -> bool {
    pos.is_game_over() || moves(pos).is_empty()
}

/// Plays `mv` in a position of the family's type.
pub(super) fn play(pos: &Position, mv: &str) -> Result<Played, PositionError> {
    if pos.hidden() != 0 {
        return Err(PositionError::FaceDown);
    }
    if pos.at_clock_limit() {
        return Err(PositionError::ClockLimit(pos.rules().clock_limit()));
    }
    let illegal = || PositionError::IllegalMove {
        mv: mv.to_owned(),
        position: pos.to_string(),
    };
    let parsed = Move::parse(mv, pos).ok_or_else(illegal)?;
    Ok(match pos.play(parsed).map_err(|_| illegal())? {
        Outcome::Ongoing(next) => Played::Next(AnyPosition::of_family(next)),
        Outcome::Over { result, reason } => Played::End(GameEnd {
            result,
            mover: color_name(pos.turn()),
            reason: reason.to_string(),
        }),
    })
}

/// A side's name (`red`, `blue`).
pub(super) fn color_name(c: Color) -> &'static str {
    match c {
        Color::Red => "red",
        Color::Blue => "blue",
    }
}

/// A Jungle or flip-game position's answer: one model for `jtb probe` (text and JSON), the
/// Python package and the API, each a printer over it. A set that lacks some of the table's
/// files (WDL files alone) leaves what needs them `None`, noted in `missing`.
#[derive(Debug, Clone, PartialEq)]
pub struct JungleAnswer {
    /// The position, with the clock the rule value is for.
    pub pos: Position,
    /// Win, draw or loss, ignoring the clock rule.
    pub wdl: Wdl,
    /// The value with its distance to mate (from the DTM file).
    pub value: Option<Value>,
    /// The value under the clock rule at the position's clock (from the DTC file).
    pub rule: Option<RuleValue>,
    /// The best move (none in a draw).
    pub best: Option<String>,
    /// The whole best line, when asked (`None` inside when a file it needs is missing): each
    /// move with the position it gives (with its clock, as it stands in the game) and that
    /// position's values.
    pub line: Option<Option<Vec<JungleMove>>>,
    /// The whole best line under the clock rule, when asked.
    pub rule_line: Option<Option<Vec<JungleMove>>>,
    /// The best move under the clock rule at the position's clock (`None` in a rule draw),
    /// when the moves were asked.
    pub rule_best: Option<String>,
    /// Every move, best first (in move order where the DTM files are missing), when asked.
    pub moves: Option<Vec<JungleMove>>,
    /// The flip game's certain result (RULES.md 8; `None` for the other rule sets): the
    /// score of the rule value at the position's clock (1, 1/2 or 0), and the distance to the
    /// end of a win or loss (DTE, `None` in a draw and where the set lacks the `.dte` file).
    pub certain: Option<(ChanceValue, Option<u32>)>,
    /// The files the set lacks that the answer needed.
    pub missing: MissingFiles,
}

/// A move of a [`JungleAnswer`] and where it leads.
#[derive(Debug, Clone, PartialEq)]
pub struct JungleMove {
    /// The move.
    pub mv: Move,
    /// What kind of move it is.
    pub kind: MoveKind,
    /// How it ends the game, or the position it gives with its values.
    pub after: MoveAfter,
}

/// Where a move leads.
#[derive(Debug, Clone, PartialEq)]
pub enum MoveAfter {
    /// The move ended the game.
    End {
        /// The result for the side that would move next.
        result: Wdl,
        /// How the game ended.
        reason: String,
    },
    /// The position after the move, with what the set holds of its values for its side to
    /// move (boxed: it is most of the move).
    Next(Box<NextValues>),
}

/// A position a move gives, with its values.
#[derive(Debug, Clone, PartialEq)]
pub struct NextValues {
    /// The position, with its clock.
    pub position: Position,
    /// Win, draw or loss.
    pub wdl: Wdl,
    /// The value with its distance to mate, where the set holds the DTM file.
    pub value: Option<Value>,
    /// The value under the clock rule, where the set holds the DTC file.
    pub rule: Option<RuleValue>,
}

/// `quiet`, `den-entry`, `capture` or `trade`: a move's kind as the answers name it.
#[must_use]
pub const fn kind_name(kind: MoveKind) -> &'static str {
    match kind {
        MoveKind::Quiet => "quiet",
        MoveKind::DenEntry => "den-entry",
        MoveKind::Capture => "capture",
        MoveKind::Trade => "trade",
    }
}

impl JungleAnswer {
    /// Probes `pos` with `values` (what `asked` adds too).
    ///
    /// # Errors
    /// As [`Tablebase::probe_dtm`] and [`Tablebase::probe_rule`], but for the files of the
    /// position's tables that the set does not hold (noted in the answer).
    ///
    /// # Panics
    /// If a move the move generator lists is not legal (it always is).
    pub fn probe(values: Values<'_>, pos: Position, asked: Asked) -> ProbeResult<JungleAnswer> {
        let mut missing = MissingFiles::default();
        let value = missing.or_note(values.value(&pos))?;
        let wdl = match value {
            Some(v) => v.wdl(),
            None => values.wdl(&pos)?,
        };
        let rule = missing.or_note(values.rule(&pos))?;
        let ranked = match value {
            Some(_) => missing.or_note(values.ranked_moves(&pos))?,
            None => None,
        };
        // No best move in a draw, where every drawing move is as good.
        let best = match (wdl, &ranked) {
            (Wdl::Draw, _) | (_, None) => None,
            (_, Some(ranked)) => ranked.first().map(|m| m.mv.to_string()),
        };
        let (line, rule_line) = if asked.lines {
            let plain = missing.or_note(values.line(&pos))?;
            let rule = missing.or_note(values.rule_line(&pos))?;
            let plain = plain.map(|l| l.iter().map(|s| s.mv).collect::<Vec<_>>());
            let rule = rule.map(|l| l.iter().map(|s| s.mv).collect::<Vec<_>>());
            (
                Some(JungleMove::play_line(values, &pos, plain, &mut missing)?),
                Some(JungleMove::play_line(values, &pos, rule, &mut missing)?),
            )
        } else {
            (None, None)
        };
        let (rule_best, moves) = if asked.moves {
            let rule_best = match &rule {
                Some(rule) => missing
                    .or_note(values.rule_best(&pos, rule))?
                    .flatten()
                    .map(|m| m.to_string()),
                None => None,
            };
            // Without distances, the moves in move order (ASCII), each with what it holds.
            let order: Vec<Move> = match &ranked {
                Some(ranked) => ranked.iter().map(|m| m.mv).collect(),
                None => pos.legal_moves(),
            };
            // At the clock limit the game is drawn (RULES.md 5): no move leads on from it.
            let moves = if pos.at_clock_limit() {
                Vec::new()
            } else {
                order
                    .into_iter()
                    .map(|mv| JungleMove::probe(values, &pos, mv, &mut missing))
                    .collect::<ProbeResult<_>>()?
            };
            (rule_best, Some(moves))
        } else {
            (None, None)
        };
        Ok(JungleAnswer {
            pos,
            wdl,
            value,
            rule,
            best,
            line,
            rule_line,
            rule_best,
            moves,
            certain: None,
            missing,
        })
    }

    /// The answer with the flip game's certain result of a fully revealed position filled
    /// (RULES.md 8: its score is its rule value's, and a win or loss has a DTE), from `chance`'s
    /// revealed `.dte` file; for one animal each, its DTC, which is the DTE there (every
    /// capture ends the game). Other rule sets are left as they are.
    ///
    /// # Errors
    /// A damaged `.dte` file (a missing one is noted).
    pub fn with_certain(mut self, chance: Option<&ChanceTables>) -> ProbeResult<JungleAnswer> {
        let Some(rule) = self
            .rule
            .as_ref()
            .filter(|_| self.pos.rules() == RuleSet::Flip4x4)
        else {
            return Ok(self);
        };
        let dte = match rule.wdl {
            Wdl::Draw => None,
            _ if Values::is_one_each(&self.pos) => rule.dtc.dtm().map(u32::from),
            // The rule value is known: the `.dte` file alone is read.
            _ => match chance {
                Some(chance) => {
                    let dte = chance.revealed_dte().probe_dte(&self.pos);
                    self.missing.or_note(dte.map_err(dte_file))?.flatten()
                }
                None => None,
            },
        };
        self.certain = Some((ChanceValue::certain(rule.wdl), dte));
        Ok(self)
    }

    /// The API's answer as JSON text (`GET /api/v1/{rules}?position=`): the fields of `jtb probe --json`
    /// for the canonical text, the best move under the clock rule, and every move with the
    /// position it gives and that position's values for its side to move; the `missing` note
    /// in `missing`'s words (the server names a file relative to its root).
    #[must_use]
    pub fn api_text(&self, missing: Option<String>) -> String {
        let rule = self.rule.as_ref();
        let certain = self.certain;
        let moves = self.moves.iter().flatten().map(JungleMove::api).collect();
        let answer = ApiAnswer {
            position: self.pos.to_string(),
            rules: self.pos.rules().name(),
            wdl: self.wdl.name(),
            dtm: self.value.and_then(Value::dtm),
            best: self.best.as_deref(),
            dtc: rule.and_then(|r| r.dtc.dtm()),
            category: rule.map(|r| r.category.name()),
            clock: self.pos.clock().unwrap_or(0),
            rule_wdl: rule.map(|r| r.wdl.name()),
            rule_best: self.rule_best.as_deref(),
            score: certain.map(|(v, _)| v.score().to_string()),
            win: certain.map(|(v, _)| v.win().to_string()),
            draw: certain.map(|(v, _)| v.draw().to_string()),
            loss: certain.map(|(v, _)| v.loss().to_string()),
            dte: certain.map(|(_, dte)| dte),
            moves,
            missing,
        };
        serde_json::to_string(&answer).expect("an answer serializes")
    }
}

/// `answer` with the flip game's certain result filled ([`JungleAnswer::with_certain`]); the
/// chance tables, which hold the revealed `.dte` files, are opened for a flip position only.
fn with_certain(tables: &Tables, answer: JungleAnswer) -> ProbeResult<JungleAnswer> {
    if answer.pos.rules() != RuleSet::Flip4x4 {
        return Ok(answer);
    }
    answer.with_certain(tables.chance().ok().as_deref())
}

/// An error of the revealed DTE files: a table without its `.dte` file is a missing file of
/// the revealed table, to note (a set made before the flip game's DTE, or one of WDL files
/// alone, still answers).
fn dte_file(e: ProbeError) -> ProbeError {
    match e {
        ProbeError::MissingTable {
            rules,
            material,
            path,
        } => ProbeError::MissingFile {
            rules,
            material,
            kind: jtb_probe::Kind::Dte,
            path,
        },
        e => e,
    }
}

/// The API's answer of a Jungle or flip position, serialized as it is written (a JSON value
/// built first would cost an ordered map and its allocations per move).
#[derive(serde::Serialize)]
struct ApiAnswer<'a> {
    position: String,
    rules: &'static str,
    wdl: &'static str,
    dtm: Option<u16>,
    best: Option<&'a str>,
    dtc: Option<u16>,
    category: Option<&'static str>,
    clock: u32,
    rule_wdl: Option<&'static str>,
    rule_best: Option<&'a str>,
    // A fully revealed flip position's certain result (`JungleAnswer::certain`), as the chance
    // answers give it: exact fractions as strings, and the DTE.
    #[serde(skip_serializing_if = "Option::is_none")]
    score: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    win: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    draw: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    loss: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    dte: Option<Option<u32>>,
    moves: Vec<ApiMove<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    missing: Option<String>,
}

/// A move of [`ApiAnswer`]: the position it gives with that position's values for its side to
/// move, or how it ends the game.
#[derive(serde::Serialize)]
struct ApiMove<'a> {
    #[serde(rename = "move")]
    mv: String,
    position: Option<String>,
    capture: bool,
    kind: &'static str,
    end: Option<&'a str>,
    wdl: &'static str,
    dtm: Option<u16>,
    dtc: Option<u16>,
    category: Option<&'static str>,
    clock: Option<u32>,
    rule_wdl: Option<&'static str>,
}

impl JungleAnswer {
    /// The API's object of the lines (`GET /api/v1/{rules}/line?position=`): the best line
    /// and the line under the clock rule from the position's clock, each step with the
    /// position it gives and both its distances (`null` where the set lacks the files); the
    /// `missing` note in `missing`'s words.
    #[must_use]
    pub fn api_line_json(&self, missing: Option<String>) -> Json {
        let steps = |line: &Option<Option<Vec<JungleMove>>>| {
            line.as_ref()
                .and_then(Option::as_ref)
                .map(|l| l.iter().map(JungleMove::api_step_json).collect::<Vec<_>>())
        };
        let mut obj = json!({
            "position": self.pos.to_string(),
            "rules": self.pos.rules().name(),
            "clock": self.pos.clock().unwrap_or(0),
            "line": steps(&self.line),
            "rule_line": steps(&self.rule_line),
        });
        add_missing(&mut obj, missing);
        obj
    }

    /// A line's moves, as `jtb probe` gives them (`None` inside where the set lacks its
    /// files).
    fn moves_of(line: &Option<Option<Vec<JungleMove>>>) -> Option<Option<Vec<String>>> {
        line.as_ref()
            .map(|l| l.as_ref().map(|l| l.iter().map(JungleMove::text).collect()))
    }
}

impl JungleMove {
    /// The `moves` of a line played from `pos` at its clock, each with the position it gives
    /// and what `values` hold of it (`None` where the line itself was missing).
    fn play_line(
        values: Values<'_>,
        pos: &Position,
        moves: Option<Vec<Move>>,
        missing: &mut MissingFiles,
    ) -> ProbeResult<Option<Vec<JungleMove>>> {
        let Some(moves) = moves else {
            return Ok(None);
        };
        let mut current = pos.clone();
        let mut line = Vec::with_capacity(moves.len());
        for mv in moves {
            let step = JungleMove::probe(values, &current, mv, missing)?;
            if let MoveAfter::Next(next) = &step.after {
                current = next.position.clone();
            }
            line.push(step);
        }
        Ok(Some(line))
    }

    /// The move's text.
    fn text(&self) -> String {
        self.mv.to_string()
    }

    /// The API's object of a step of a line: the move, its kind, and the position after it
    /// with both its distances (`null` once the game ended).
    fn api_step_json(&self) -> Json {
        match &self.after {
            MoveAfter::End { reason, .. } => {
                json!({"move": self.text(), "kind": kind_name(self.kind), "end": reason,
                       "position": null, "clock": null, "wdl": null, "dtm": null,
                       "rule_wdl": null, "dtc": null})
            }
            MoveAfter::Next(next) => {
                let rule = next.rule.as_ref();
                json!({"move": self.text(), "kind": kind_name(self.kind), "end": null,
                       "position": next.position.to_string(),
                       "clock": next.position.clock().unwrap_or(0), "wdl": next.wdl.name(),
                       "dtm": next.value.and_then(Value::dtm),
                       "rule_wdl": rule.map(|r| r.wdl.name()),
                       "dtc": rule.and_then(|r| r.dtc.dtm())})
            }
        }
    }

    /// `mv` of `pos` and where it leads, with what `values` hold of the position it gives.
    fn probe(
        values: Values<'_>,
        pos: &Position,
        mv: Move,
        missing: &mut MissingFiles,
    ) -> ProbeResult<JungleMove> {
        let kind = pos.move_kind(mv).expect("a listed move is legal");
        let after = match pos.play(mv).expect("a listed move is legal") {
            // The game is over: the side that would move next has lost (or drawn) in 0.
            Outcome::Over { result, reason } => MoveAfter::End {
                result: result.flipped(),
                reason: reason.to_string(),
            },
            Outcome::Ongoing(next) => {
                let value = missing.or_note(values.value(&next))?;
                let wdl = match value {
                    Some(v) => v.wdl(),
                    None => values.wdl(&next)?,
                };
                let rule = missing.or_note(values.rule(&next))?;
                MoveAfter::Next(Box::new(NextValues {
                    position: next,
                    wdl,
                    value,
                    rule,
                }))
            }
        };
        Ok(JungleMove { mv, kind, after })
    }

    /// The API's record of the move: the position after it (`null` when it ended the game) and
    /// its values for the side then to move.
    fn api(&self) -> ApiMove<'_> {
        let capture = matches!(self.kind, MoveKind::Capture | MoveKind::Trade);
        let (mv, kind) = (self.mv.to_string(), kind_name(self.kind));
        match &self.after {
            MoveAfter::End { result, reason } => {
                let dtm = (*result != Wdl::Draw).then_some(0);
                ApiMove {
                    mv,
                    position: None,
                    capture,
                    kind,
                    end: Some(reason),
                    wdl: result.name(),
                    dtm,
                    dtc: dtm,
                    category: Some(result.name()),
                    clock: None,
                    rule_wdl: Some(result.name()),
                }
            }
            MoveAfter::Next(next) => {
                let rule = next.rule.as_ref();
                ApiMove {
                    mv,
                    position: Some(next.position.to_string()),
                    capture,
                    kind,
                    end: None,
                    wdl: next.wdl.name(),
                    dtm: next.value.and_then(Value::dtm),
                    dtc: rule.and_then(|r| r.dtc.dtm()),
                    category: rule.map(|r| r.category.name()),
                    clock: Some(next.position.clock().unwrap_or(0)),
                    rule_wdl: rule.map(|r| r.wdl.name()),
                }
            }
        }
    }
}

impl GameAnswer for JungleAnswer {
    /// The JSON object `jtb probe --json` prints for the input `text`.
    fn json(&self, text: &str) -> Json {
        let rule = self.rule.as_ref();
        let mut obj = json!({
            "position": text,
            "rules": self.pos.rules().name(),
            "wdl": self.wdl.name(),
            "dtm": self.value.and_then(Value::dtm),
            "best": self.best,
            "dtc": rule.and_then(|r| r.dtc.dtm()),
            "category": rule.map(|r| r.category.name()),
            "clock": self.pos.clock().unwrap_or(0),
            "rule_wdl": rule.map(|r| r.wdl.name()),
        });
        if let Some((score, dte)) = self.certain {
            extend(&mut obj, flip::chance_json(score));
            obj["dte"] = json!(dte);
        }
        if let Some(line) = JungleAnswer::moves_of(&self.line) {
            obj["line"] = json!(line);
        }
        if let Some(line) = JungleAnswer::moves_of(&self.rule_line) {
            obj["rule_line"] = json!(line);
        }
        self.missing.add_to(&mut obj);
        obj
    }

    fn best(&self) -> Option<&str> {
        self.best.as_deref()
    }

    fn line(&self) -> Option<Vec<String>> {
        JungleAnswer::moves_of(&self.line)?
    }

    fn missing(&self) -> Option<String> {
        self.missing.note()
    }

    /// A fully revealed flip position's certain result (`score`, `win`, `draw`, `loss`).
    fn exact_fractions(&self) -> &'static [&'static str] {
        match self.certain {
            Some(_) => &["score", "win", "draw", "loss"],
            None => &[],
        }
    }

    /// What `jtb probe` prints for the input `text`.
    fn text(&self, text: &str) -> String {
        let mut s = format!(
            "{text}\n{}rules: {}\n",
            crate::board::draw(&self.pos),
            self.pos.rules()
        );
        s += &match (self.wdl, self.value) {
            (Wdl::Draw, _) => "value: draw\n".to_owned(),
            (wdl, Some(v)) => format!(
                "value: {wdl} for {} to move, {} to the end\n",
                self.pos.turn(),
                Plies(v.dtm().unwrap_or(0))
            ),
            (wdl, None) => format!("value: {wdl} for {} to move\n", self.pos.turn()),
        };
        if let Some(rule) = &self.rule {
            s += &format!(
                "clock rule: {} at clock {} of {} ({}; {})\n",
                rule.wdl,
                rule.clock,
                rule.limit,
                rule.category,
                match rule.dtc.dtm() {
                    Some(d) => format!("{} to the next capture or the end", Plies(d)),
                    None => "no capture can be forced".to_owned(),
                }
            );
        }
        if let Some((score, Some(dte))) = self.certain {
            s += &format!(
                "certain: {} to the end (DTE)\n",
                flip::certain_in(score, dte)
            );
        }
        if let Some(b) = &self.best {
            s += &format!("best: {b}\n");
        }
        if let Some(Some(line)) = JungleAnswer::moves_of(&self.line) {
            s += &format!("line: {}\n", line.join(" "));
        }
        if let Some(Some(line)) = JungleAnswer::moves_of(&self.rule_line) {
            s += &format!("rule line: {}\n", line.join(" "));
        }
        s + &self.missing.text()
    }
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
            .map(Verdict::Jungle)
    }

    /// The library's verdict on a position of the Jungle family's type, a position no table
    /// covers an error.
    pub(super) fn of_family(
        verdict: ProbeResult<jtb_probe::Verdict>,
        open_error: Option<String>,
        pos: Position,
    ) -> Result<JungleVerdict, EdgeError> {
        let verdict = verdict?;
        if let VerdictReason::NotCovered(why) = &verdict.reason {
            return Err(EdgeError::NotCovered(match (open_error, why) {
                (Some(e), None) => format!("not covered: {e}"),
                _ => verdict.reason.to_string(),
            }));
        }
        Ok(JungleVerdict { pos, verdict })
    }
}

/// The verdict on a position of the Jungle family's type (Jungle, the flip game, Clesto):
/// whether it is a dead draw at its clock, and why.
#[derive(Debug)]
pub struct JungleVerdict {
    /// The position, with its clock.
    pub pos: Position,
    /// The library's verdict.
    pub verdict: jtb_probe::Verdict,
}

impl GameVerdict for JungleVerdict {
    fn position(&self) -> AnyPosition {
        AnyPosition::of_family(self.pos.clone())
    }

    fn is_settled(&self) -> bool {
        self.verdict.dead_draw
    }

    fn status(&self) -> &'static str {
        if self.verdict.dead_draw {
            "dead draw"
        } else {
            "play on"
        }
    }

    fn is_dead_draw(&self) -> bool {
        self.verdict.dead_draw
    }

    fn value(&self) -> Option<Value> {
        self.verdict.value
    }

    fn reason(&self) -> String {
        self.verdict.reason.to_string()
    }

    fn json(&self, text: &str) -> Json {
        let v = &self.verdict;
        json!({
            "position": text,
            "dead_draw": v.dead_draw,
            "wdl": v.wdl().map(|w| w.name()),
            "dtm": v.value.and_then(Value::dtm),
            "dtc": v.dtc(),
            "rule_wdl": v.rule_wdl().map(|w| w.name()),
            "clock": self.pos.clock(),
            "reason": v.reason.to_string(),
        })
    }
}

/// The family's flags in byte 2 of a packed record: the hidden set is named, the hungry set is
/// named, a clock is given.
const HIDDEN_NAMED: u8 = 1;
const HUNGRY_NAMED: u8 = 2;
const CLOCK: u8 = 4;
/// The square byte of an animal not on the board.
const ABSENT: u8 = 255;
/// Squares are below 72 (nine ranks of eight): a set of them fits in nine bytes.
const SET_BYTES: usize = 9;

/// Writes a position of the family's type into bytes 1.. of its packed record
/// ([`crate::packed`] says how).
pub(super) fn pack(pos: &Position, out: &mut [u8; PACKED_LEN]) {
    out[1] = pos.turn().index() as u8;
    let mut flags = 0;
    if let Some(clock) = pos.clock() {
        flags |= CLOCK;
        let clock = u16::try_from(clock).unwrap_or(u16::MAX);
        out[4..6].copy_from_slice(&clock.to_le_bytes());
    }
    if pos.hidden() != 0 {
        if let Some(set) = pos.hidden_set() {
            flags |= HIDDEN_NAMED;
            out[6] = set.set(Color::Red);
            out[7] = set.set(Color::Blue);
        }
    }
    if !pos.hungry_is_canonical() {
        flags |= HUNGRY_NAMED;
        put_set(&mut out[33..42], pos.hungry());
    }
    out[2] = flags;
    out[8..24].fill(ABSENT);
    for (piece, sq) in pos.pieces() {
        out[8 + piece.color.index() * 8 + piece.animal as usize] = sq.index() as u8;
    }
    put_set(&mut out[24..33], pos.hidden());
}

/// The position of a packed record of the family's rule set `rules`, through the text parser's
/// placement checks.
fn unpack(rules: RuleSet, record: &[u8; PACKED_LEN]) -> Result<Position, PositionError> {
    let flags = record[2];
    if flags & !(HIDDEN_NAMED | HUNGRY_NAMED | CLOCK) != 0 || record[3] != 0 {
        return Err(not_packed(format!("unknown flags {flags:#04x}")));
    }
    if record[42..].iter().any(|&b| b != 0) {
        return Err(not_packed("bytes 42 to 48 are not 0"));
    }
    let mut pos = Position::empty(rules, Color::ALL[usize::from(record[1])]);
    for (i, &at) in record[8..24].iter().enumerate() {
        if at == ABSENT {
            continue;
        }
        let sq = square(at)?;
        let piece = Piece::new(Color::ALL[i / 8], Animal::ALL[i % 8]);
        pos.put(piece, sq).map_err(placement)?;
    }
    let mut hidden = get_set(&record[24..33]);
    while hidden != 0 {
        let at = hidden.trailing_zeros() as u8;
        hidden &= hidden - 1;
        pos.put_hidden(square(at)?).map_err(placement)?;
    }
    if flags & HIDDEN_NAMED != 0 {
        let set = HiddenSet::from_sets(record[6], record[7]);
        pos.set_hidden_set(Some(set))
            .map_err(|e| PositionError::Parse(ParseError::Hidden(e)))?;
    } else if record[6..8] != [0, 0] {
        return Err(not_packed("a hidden set without its flag"));
    }
    let hungry = get_set(&record[33..42]);
    if flags & HUNGRY_NAMED != 0 {
        pos.set_hungry(Some(hungry)).map_err(placement)?;
    } else if hungry != 0 {
        return Err(not_packed("a hungry set without its flag"));
    }
    let clock = u16::from_le_bytes([record[4], record[5]]);
    if flags & CLOCK != 0 {
        pos.set_clock(Some(u32::from(clock)))?;
    } else if clock != 0 {
        return Err(not_packed("a clock without its flag"));
    }
    pos.settle_chance_clock();
    Ok(pos)
}

/// The placement of the pieces of a packed record of `rules` (bytes 8..24) with its side to
/// move, where their squares are squares of a board and make a position the tables may hold
/// ([`Placement::new`]).
#[inline]
pub(crate) fn packed_placement(rules: RuleSet, record: &[u8; PACKED_LEN]) -> Option<Placement> {
    let mut squares = [[None; 8]; 2];
    for (i, &at) in record[8..24].iter().enumerate() {
        if at != ABSENT {
            squares[i / 8][i % 8] = Some(square_at(at)?);
        }
    }
    Placement::new(rules, Color::ALL[usize::from(record[1])], squares)
}

/// A placement rule the record breaks, as the text parser says it.
fn placement(e: jtb_probe::PositionError) -> PositionError {
    PositionError::Parse(ParseError::from(e))
}

/// The square of packed value `at`, or the error of a value no board has.
fn square(at: u8) -> Result<Square, PositionError> {
    square_at(at).ok_or_else(|| not_packed(format!("square {at} is off every board")))
}

/// The square of packed value `at`, if a board of nine ranks has one.
#[inline]
fn square_at(at: u8) -> Option<Square> {
    (at < 72).then(|| Square::new(at % 8, at / 8))
}

fn put_set(out: &mut [u8], set: SquareSet) {
    out.copy_from_slice(&set.to_le_bytes()[..SET_BYTES]);
}

fn get_set(bytes: &[u8]) -> SquareSet {
    let mut all = [0; 16];
    all[..SET_BYTES].copy_from_slice(bytes);
    SquareSet::from_le_bytes(all)
}

/// The API's object of the legal moves of a position of the Jungle family's type (Clesto's adds
/// to it): the moves in ASCII order, each with the position it gives or how it ends the game;
/// with face-down tiles, the moves of the revealed animals, the tiles that can be flipped and
/// what each flip may reveal.
///
/// # Panics
/// If a move the move generator lists is not legal (it always is).
pub(super) fn moves_json(pos: &Position) -> Json {
    let hidden = pos.hidden() != 0;
    let listed = if pos.at_clock_limit() {
        Vec::new()
    } else {
        pos.revealed_moves()
    };
    let moves: Vec<Json> = listed
        .into_iter()
        .map(|mv| {
            let kind = if hidden {
                // A move's kind is not known while tiles are face down: ask the board.
                match pos.piece_at(mv.to) {
                    Some(_) => MoveKind::Capture,
                    None => MoveKind::Quiet,
                }
            } else {
                pos.move_kind(mv).expect("a listed move is legal")
            };
            let (after, end) = if hidden {
                (None, None)
            } else {
                match pos.play(mv).expect("a listed move is legal") {
                    Outcome::Over { reason, .. } => (None, Some(reason.to_string())),
                    Outcome::Ongoing(next) => (Some(next.to_string()), None),
                }
            };
            let capture = matches!(kind, MoveKind::Capture | MoveKind::Trade);
            json!({"move": mv.to_string(), "position": after, "capture": capture,
                   "kind": kind_name(kind), "end": end})
        })
        .collect();
    let flipped: Vec<Square> = if pos.at_clock_limit() || pos.is_game_over() {
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
        answer["flip_outcomes"] = flip::flips_json(pos, &flipped);
    }
    answer
}

/// The error of a rule set whose table directory cannot be read.
fn no_directory(tables: &Tables, rules: RuleSet) -> ProbeError {
    let dir = tables.root().join(rules.name());
    ProbeError::NoDirectory(dir, std::io::ErrorKind::NotFound.into())
}
