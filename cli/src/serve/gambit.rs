//! Animal Gambit in the API (RULES.md 7), on the same routes as the other games
//! (`/api/v1/animal-gambit...`): a position's value in turns (no clock: a table draw is a game
//! the repetition rule decides), every turn with its steps and the position it gives, best
//! first, the best line, the turns without tables, a turn played one step at a time
//! (`/steps`), and the materials' statistics.

use std::sync::Arc;

use jtb_edge::{MissingFiles, Rules};
use jtb_probe::{
    format::family_table_path,
    gambit::{self, AnimalGambit, Category, Next, Position, Turn},
    Family, Kind, ProbeError, Tablebase, Value, Wdl,
};
use serde::Serialize;
use serde_json::json;

use axum::{
    response::{IntoResponse, Response},
    Json,
};

use crate::games::{self, gambit::GambitTables};

use super::{
    api::Routes,
    error::{ApiError, Problem},
    source::Library,
    tables::{damaged, index_entry, oriented_histogram, TableRoutes},
};

/// Longer `steps` text is refused before it is read.
const MAX_STEPS_BYTES: usize = 64;

/// A value as the API writes it for a side to move: `wdl`, `dtm` in turns (null for a draw),
/// and `category` (`win`, `loss` or `repetition`: neither side can force an end).
#[derive(Serialize)]
pub struct Fields {
    wdl: &'static str,
    dtm: Option<u16>,
    category: &'static str,
}

impl Fields {
    /// The fields of a WDL alone, where the set holds no DTM file (`dtm` null; the category
    /// is the WDL's).
    fn of_wdl(wdl: Wdl) -> Fields {
        Fields {
            wdl: wdl.name(),
            dtm: None,
            category: Category::of(match wdl {
                Wdl::Win => Value::Win(0),
                Wdl::Draw => Value::Draw,
                Wdl::Loss => Value::Loss(0),
            })
            .name(),
        }
    }
}

impl From<Value> for Fields {
    fn from(v: Value) -> Fields {
        Fields {
            wdl: v.wdl().name(),
            dtm: v.dtm(),
            category: Category::of(v).name(),
        }
    }
}

/// A turn: its canonical text and tokens, the board it leaves, and the position it gives or
/// how it ends the game.
#[derive(Serialize)]
pub struct TurnAnswer {
    /// Canonical turn text (`rd3w rc3x Ed2n`).
    turn: String,
    /// Its tokens in order: steps, each followed by the removal it causes.
    steps: Vec<String>,
    /// How many of the turn's four steps it takes (a push or a pull counts two).
    step_count: u8,
    /// The board at the end of the turn (board text), trap removals done.
    board: String,
    /// The position after the turn; `null` when it ended the game.
    position: Option<String>,
    /// How the turn ended the game, if it did.
    end: Option<String>,
    /// Who won when the turn ended the game (`gold`, `silver`).
    winner: Option<String>,
}

fn turn_answer(pos: &Position, turn: &Turn) -> TurnAnswer {
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
    TurnAnswer {
        turn: turn.to_string(),
        steps: turn.tokens().iter().map(ToString::to_string).collect(),
        step_count: turn.steps(),
        board: turn.board().to_string(),
        position,
        end,
        winner,
    }
}

/// A turn with its values: after it for the side then to move (as the other games' moves;
/// a game it ended is lost or won in 0 by that side), and for its mover (the order).
#[derive(Serialize)]
pub struct ScoredAnswer {
    #[serde(flatten)]
    turn: TurnAnswer,
    #[serde(flatten)]
    after: Fields,
    /// What the turn is worth to its mover: a win or loss in 1 when it ends the game.
    mover: Fields,
}

/// The answer of `GET /api/v1/animal-gambit`: the fields of `jtb probe --rules animal-gambit
/// --json` and every turn, best first (ties in the ASCII order of their texts).
#[derive(Serialize)]
pub struct ProbeAnswer {
    position: String,
    rules: &'static str,
    #[serde(flatten)]
    value: Fields,
    /// The best turn (as `jtb probe`); `null` when the side to move has none.
    best: Option<String>,
    turns: Vec<ScoredAnswer>,
    /// The files of the tables that the set does not hold (WDL files alone), where the answer
    /// needed one: the fields that need them are `null`.
    #[serde(skip_serializing_if = "Option::is_none")]
    missing: Option<String>,
}

/// Animal Gambit's tables, or why there are none.
fn tables(lib: &Library) -> Result<Arc<Tablebase<AnimalGambit>>, ApiError> {
    lib.game_tables::<jtb_edge::games::Gambit>(Rules::AnimalGambit)
}

/// The tables for `pos`, or the missing-table error naming its own table (whether the
/// directory or the file is missing).
fn tables_for(lib: &Library, pos: &Position) -> Result<Arc<Tablebase<AnimalGambit>>, ApiError> {
    let tb = tables(lib);
    let material = gambit::Material::of(pos.board()).canonical();
    let missing = || {
        let path = family_table_path(lib.root(), gambit::AnimalGambit, material, Kind::Dtm);
        lib.missing(gambit::AnimalGambit, material, &path)
    };
    match tb {
        Ok(tb) if material.total() <= tb.max_pieces() => Ok(tb),
        _ => Err(missing()),
    }
}

/// `GET /api/v1/animal-gambit/steps?position=...&steps=...`: a turn played one step at a time
/// ([`Position::partial_turn`]): the board after the steps so far, the steps that may follow
/// (each with the removal it causes and the squares it joins), and the turn they play when
/// the turn may end there; no tables needed.
///
/// # Errors
/// 400 (`bad-turn`) for steps that are not a legal beginning of a turn, naming the first
/// token that does not follow.
pub fn steps(pos: &Position, text: &str) -> Result<serde_json::Value, ApiError> {
    // Four steps and their removals are 8 tokens of 4 letters: longer text is no turn.
    if text.len() > MAX_STEPS_BYTES {
        return Err(ApiError::new(
            Problem::BadTurn,
            format!(
                "steps text of {} bytes: at most {MAX_STEPS_BYTES} (a turn is 1 to 4 steps \
                 with their removals)",
                text.len()
            ),
        ));
    }
    let shown: String = text.chars().take(60).collect();
    let partial = pos.partial_turn(text).map_err(|e| {
        ApiError::new(
            Problem::BadTurn,
            format!("steps `{}`: {e}", shown.escape_debug()),
        )
    })?;
    let next: Vec<serde_json::Value> = partial
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
        "turn": partial.turn.map(|t| turn_answer(pos, &t)),
        "why_not": why_not,
        "next": next,
    }))
}

impl TableRoutes for GambitTables {
    /// 8x8, the four traps, no water and no den; the sides Gold (upper case, moves first) and
    /// Silver, and distances in turns.
    fn board(&self) -> serde_json::Value {
        let traps: Vec<String> = gambit::TRAPS.map(|sq| sq.to_string()).collect();
        json!({
            "game": gambit::AnimalGambit::NAME, "width": 8, "height": 8, "water": [], "traps": traps,
            "sides": <gambit::AnimalGambit as Family>::SIDES, "pieces": "EMHDCR", "clock_limit": 0,
            "hunger": false, "distance_unit": "turns",
        })
    }

    /// Gold to move, then Silver.
    fn materials(&self, lib: &Library) -> Result<serde_json::Value, ApiError> {
        let tb = tables(lib)?;
        let mut names = Vec::new();
        let mut tables = Vec::new();
        for m in tb.materials() {
            names.push(m.to_string());
            // A table whose header cannot be read is listed as damaged; the others still are.
            match games::gambit::side_stats(lib.root(), m) {
                Ok(sides) => tables.push(index_entry(
                    &m.to_string(),
                    m.total(),
                    [&sides[0], &sides[1]],
                )),
                Err(e) => {
                    let why = lib.error(ProbeError::from(e), AnimalGambit);
                    tables.push(damaged(&m.to_string(), m.total(), &why));
                }
            }
        }
        Ok(json!({"rules": gambit::AnimalGambit::NAME, "materials": names, "tables": tables}))
    }

    /// The DTM file's statistics, Gold to move first, as `jtb stats --rules animal-gambit
    /// --json` writes them (`RvER` answers for Gold with one rabbit, although the table is
    /// `ERvR`), and the positions per distance in turns.
    fn stats(&self, lib: &Library, material: &str) -> Result<serde_json::Value, ApiError> {
        let asked: gambit::Material = material
            .parse()
            .map_err(|e: gambit::BadMaterial| ApiError::new(Problem::BadMaterial, e.to_string()))?;
        stats(lib, asked)
    }
}

/// [`GambitTables::stats`] of `asked`.
fn stats(lib: &Library, asked: gambit::Material) -> Result<serde_json::Value, ApiError> {
    let table = asked.canonical();
    tables(lib)?;
    let sides = games::gambit::side_stats(lib.root(), table)
        .map_err(|e| lib.error(ProbeError::from(e), gambit::AnimalGambit))?;
    let flipped = asked != table;
    // Side `i` of the answer is side `order[i]` of the table.
    let order = if flipped { [1, 0] } else { [0, 1] };
    let mut stats = Vec::with_capacity(2);
    for (&i, to_move) in order.iter().zip(<gambit::AnimalGambit as Family>::SIDES) {
        let mut s = sides[i].clone();
        if flipped && !s.longest_win_position.is_empty() {
            s.longest_win_position = colour_flip(&s.longest_win_position)?;
        }
        stats.push(games::gambit::side_json(asked, to_move, &s));
    }
    let counted = lib
        .memo
        .get(Rules::AnimalGambit, "histograms", &table, || {
            games::gambit::histograms(lib.root(), table)
                .map_err(|e| lib.error(ProbeError::from(e), gambit::AnimalGambit))
        })?;
    let histogram = oriented_histogram(&counted, order, <gambit::AnimalGambit as Family>::SIDES);
    let mut depends: Vec<String> = asked.smaller().iter().map(ToString::to_string).collect();
    depends.sort_unstable();
    Ok(json!({
        "rules": gambit::AnimalGambit::NAME,
        "material": asked.to_string(),
        "table": table.to_string(),
        "flipped": flipped,
        "stats": stats,
        "histogram": {"dtm": histogram},
        "depends_on": depends,
    }))
}

/// `text` seen from the other side (a position of a table header).
fn colour_flip(text: &str) -> Result<String, ApiError> {
    text.parse::<Position>()
        .map(|p| p.flip().to_string())
        .map_err(|e| {
            ApiError::new(
                Problem::DamagedTable,
                format!("a table header's {text}: {e}"),
            )
        })
}

impl Routes for jtb_edge::games::Gambit {
    type Position = Position;

    /// `GET /api/v1/animal-gambit?position=...`.
    ///
    /// # Errors
    /// 404 for a missing table, 500 for a damaged or inconsistent one.
    fn probe(lib: &Library, pos: &Position) -> Result<Response, ApiError> {
        let tb = tables_for(lib, pos)?;
        let fail = |e| lib.error(e, AnimalGambit);
        // A set without some of the table's files (WDL files alone) answers what it holds:
        // the fields that need another file are null, and `missing` names it.
        let mut missing = MissingFiles::default();
        let value = lib.noting(AnimalGambit, &mut missing, tb.probe_dtm(pos))?;
        // Best first, the best turn first among equals.
        let scored = match value {
            Some(_) => lib.noting(AnimalGambit, &mut missing, tb.ranked_moves(pos))?,
            None => None,
        };
        let value = match value {
            Some(v) => Fields::from(v),
            None => Fields::of_wdl(tb.probe_wdl(pos).map_err(fail)?),
        };
        // Without distances, every turn in the ASCII order of its text.
        let listed: Vec<(Turn, Option<Value>)> = match &scored {
            Some(scored) => scored.iter().map(|t| (t.mv, Some(t.value))).collect(),
            None => pos.turns().into_iter().map(|t| (t, None)).collect(),
        };
        let mut turns = Vec::with_capacity(listed.len());
        for (turn, mover) in listed {
            // The turn's worth to its mover: the table's, else the WDL after it, seen back.
            let (after, mover) = match pos.play(&turn) {
                Next::Continues(next) => {
                    match lib.noting(AnimalGambit, &mut missing, tb.probe_dtm(&next))? {
                        Some(after) => (
                            Fields::from(after),
                            mover.map_or_else(
                                || Fields::of_wdl(after.wdl().flipped()),
                                Fields::from,
                            ),
                        ),
                        None => {
                            let after = tb.probe_wdl(&next).map_err(fail)?;
                            (Fields::of_wdl(after), Fields::of_wdl(after.flipped()))
                        }
                    }
                }
                // A turn that ends the game is won or lost in 1, with every file or without.
                Next::Over(end) if end.mover_wins() => {
                    (Value::Loss(0).into(), Value::Win(1).into())
                }
                Next::Over(_) => (Value::Win(0).into(), Value::Loss(1).into()),
            };
            turns.push(ScoredAnswer {
                turn: turn_answer(pos, &turn),
                after,
                mover,
            });
        }
        Ok(Json(ProbeAnswer {
            position: pos.to_string(),
            rules: gambit::AnimalGambit::NAME,
            value,
            best: scored.and_then(|s| s.first().map(|b| b.mv.to_string())),
            turns,
            missing: lib.missing_note(AnimalGambit, &missing),
        })
        .into_response())
    }

    /// `GET /api/v1/animal-gambit/line?position=...`: the best line to the end of the game (empty
    /// where the repetition rule decides), each turn with the position after it and its value.
    ///
    /// # Errors
    /// As [`Routes::probe`].
    fn line(lib: &Library, pos: &Position) -> Result<serde_json::Value, ApiError> {
        let tb = tables_for(lib, pos)?;
        // A set without the files a line needs answers `null` for it, and `missing` names them.
        let mut missing = MissingFiles::default();
        let line = lib.noting(AnimalGambit, &mut missing, tb.line(pos))?;
        let Some(line) = line else {
            return Ok(json!({
                "position": pos.to_string(), "rules": gambit::AnimalGambit::NAME, "line": null,
                "missing": lib.missing_note(AnimalGambit, &missing),
            }));
        };
        let mut at = *pos;
        let mut steps = Vec::with_capacity(line.len());
        for step in &line {
            let turn = turn_answer(&at, &step.mv);
            let value = step.value.map(Fields::from);
            steps.push(json!({
                "turn": turn.turn, "steps": turn.steps, "step_count": turn.step_count,
                "board": turn.board, "position": turn.position, "end": turn.end,
                "winner": turn.winner,
                "wdl": value.as_ref().map(|v| v.wdl), "dtm": value.as_ref().and_then(|v| v.dtm),
                "category": value.as_ref().map(|v| v.category),
            }));
            if let Some(next) = step.position {
                at = next;
            }
        }
        Ok(json!({"position": pos.to_string(), "rules": gambit::AnimalGambit::NAME, "line": steps}))
    }

    /// `GET /api/v1/animal-gambit/moves?position=...`: every turn in the ASCII order of its text
    /// (as `jtb moves`) with the position it gives; no tables needed.
    fn moves(pos: &Position) -> Result<serde_json::Value, ApiError> {
        let turns: Vec<TurnAnswer> = pos.turns().iter().map(|t| turn_answer(pos, t)).collect();
        Ok(
            json!({"position": pos.to_string(), "rules": gambit::AnimalGambit::NAME, "turns": turns}),
        )
    }
}
