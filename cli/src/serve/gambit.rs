//! Animal Gambit in the API (RULES.md 7), on the same routes as the other games
//! (`/api/v1/animal-gambit...`): a position's value in turns (no clock: a table draw is a game
//! the repetition rule decides), every turn with its steps and the position it gives, best
//! first (the edge's `jtb_edge::GambitAnswer` with its turns, printed by its `api_json`), the
//! best line, the turns without tables, a turn played one step at a time (`/steps`), and the
//! materials' statistics.

use std::sync::Arc;

use jtb_edge::{turn_json, Asked, Rules};
use jtb_probe::{
    format::family_table_path,
    gambit::{self, AnimalGambit, Position},
    Family, Kind, ProbeError, Tablebase,
};
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
        "turn": partial.turn.map(|t| turn_json(pos, &t)),
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
        let answer = jtb_edge::GambitAnswer::probe(&tb, *pos, Asked::MOVES)
            .map_err(|e| lib.error(e, AnimalGambit))?;
        let missing = lib.missing_note(AnimalGambit, &answer.missing);
        Ok(Json(answer.api_json(missing)).into_response())
    }

    /// `GET /api/v1/animal-gambit/line?position=...`: the best line to the end of the game (empty
    /// where the repetition rule decides), each turn with the position after it and its value.
    ///
    /// # Errors
    /// As [`Routes::probe`].
    fn line(lib: &Library, pos: &Position) -> Result<serde_json::Value, ApiError> {
        let tb = tables_for(lib, pos)?;
        let answer = jtb_edge::GambitAnswer::probe(&tb, *pos, Asked::LINES)
            .map_err(|e| lib.error(e, AnimalGambit))?;
        // A set without the files a line needs answers `null` for it, and `missing` names them.
        Ok(answer.api_line_json(lib.missing_note(AnimalGambit, &answer.missing)))
    }
}
