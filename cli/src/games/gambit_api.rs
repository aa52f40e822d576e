//! Animal Gambit's table routes in the API: its board (8x8, the four traps, Gold and Silver,
//! distances in turns), the material index and a material's statistics and histograms in
//! turns, on [`GambitTables`].

use std::sync::Arc;

use jtb_edge::{Rules, Tables};
use jtb_probe::{
    gambit::{self, AnimalGambit, Position},
    Family, ProbeError, Tablebase,
};
use serde_json::json;

use super::gambit::GambitTables;
use crate::{
    api::{damaged, index_entry, oriented_histogram, ApiError, ApiTables, Problem, TableRoutes},
    games,
};

/// Animal Gambit's tables, or why there are none.
fn tables(lib: &Tables) -> Result<Arc<Tablebase<AnimalGambit>>, ApiError> {
    lib.game_tables::<jtb_edge::games::Gambit>(Rules::AnimalGambit)
}

impl TableRoutes for GambitTables {
    /// 8x8, the four traps, no water and no den; the sides Gold (upper case, moves first) and
    /// Silver, and distances in turns.
    fn board(&self) -> serde_json::Value {
        let traps: Vec<String> = gambit::TRAPS.map(|sq| sq.to_string()).collect();
        json!({
            "game": gambit::AnimalGambit::NAME, "title": "Animal Gambit", "width": 8, "height": 8,
            "water": [], "traps": traps, "dens": [],
            "sides": <gambit::AnimalGambit as Family>::SIDES, "side_letters": ["g", "s"],
            "pieces": "EMHDCR", "clock_limit": 0, "hunger": false, "distance_unit": "turns",
            "turns_of_steps": true, "style": "plain",
            "piece_set": "animal-gambit",
            "piece_names": gambit::Animal::ALL.map(|a| (a.letter().to_string(), json!(a.name())))
                .into_iter().collect::<serde_json::Map<_, _>>(),
        })
    }

    /// Gold to move, then Silver.
    fn materials(&self, lib: &Tables) -> Result<serde_json::Value, ApiError> {
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
                    let why = lib.api_error(ProbeError::from(e), Rules::AnimalGambit);
                    tables.push(damaged(&m.to_string(), m.total(), &why));
                }
            }
        }
        Ok(json!({"rules": gambit::AnimalGambit::NAME, "materials": names, "tables": tables}))
    }

    /// The DTM file's statistics, Gold to move first, as `jtb stats --rules animal-gambit
    /// --json` writes them (`RvER` answers for Gold with one rabbit, although the table is
    /// `ERvR`), and the positions per distance in turns.
    fn stats(&self, lib: &Tables, material: &str) -> Result<serde_json::Value, ApiError> {
        let asked: gambit::Material = material
            .parse()
            .map_err(|e: gambit::BadMaterial| ApiError::new(Problem::BadMaterial, e.to_string()))?;
        stats(lib, asked)
    }
}

/// [`GambitTables::stats`] of `asked`.
fn stats(lib: &Tables, asked: gambit::Material) -> Result<serde_json::Value, ApiError> {
    let table = asked.canonical();
    tables(lib)?;
    let sides = games::gambit::side_stats(lib.root(), table)
        .map_err(|e| lib.api_error(ProbeError::from(e), Rules::AnimalGambit))?;
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
        .memo()
        .get(Rules::AnimalGambit, "histograms", &table, || {
            games::gambit::histograms(lib.root(), table)
                .map_err(|e| lib.api_error(ProbeError::from(e), Rules::AnimalGambit))
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
