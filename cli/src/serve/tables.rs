//! What tables there are: each rule set's board and table count, the materials present with
//! their counts for the material index, and per material its statistics and distance
//! histograms, in the orientation asked.

use std::sync::{Arc, PoisonError};

use axum::{
    extract::{rejection::PathRejection, Path, State},
    Json,
};
use jtb_probe::{Color, Layout, Material, Position, RuleSet, SideHistogram};
use serde_json::json;

use super::{
    error::{ApiError, Problem},
    gambit,
    query::{blocking, path_error, rule_set, Game, Rules},
    source::{Library, Memo},
};
use crate::stats::{self, Histograms, MaterialStats};

/// Longer material names are refused before they are parsed (`ELRvTR` has 6 bytes).
const MAX_MATERIAL_BYTES: usize = 24;

/// The board of a rule set as data: its size, water, traps and dens, its clock limit, and
/// whether its animals get hungry, so that the page draws any board from the server's
/// description.
fn board_json(rules: RuleSet) -> serde_json::Value {
    let board = rules.board();
    let names = |set: jtb_probe::SquareSet| -> Vec<String> {
        board
            .squares()
            .filter(|&sq| set & jtb_probe::bit(sq) != 0)
            .map(|sq| sq.to_string())
            .collect()
    };
    let side = |c: Color| json!({"den": board.den(c).map(|s| s.to_string()), "traps": names(board.traps(c))});
    json!({
        "width": board.width, "height": board.height, "water": names(board.water()),
        "red": side(Color::Red), "blue": side(Color::Blue),
        "clock_limit": rules.clock_limit(),
        // Clesto: hungry animals, no draws and no clock (its clock limit is 0).
        "hunger": rules.has_hunger(),
    })
}

/// `GET /api/v1`: the rule sets, their boards and what tables each has.
///
/// # Errors
/// 500 only if the task answering it failed.
pub async fn index(State(lib): State<Arc<Library>>) -> Result<Json<serde_json::Value>, ApiError> {
    // Looking for new tables reads the directories: off the async workers too.
    blocking(lib, |lib| {
        lib.refresh();
        let entry = |name: &str, found: Result<(usize, usize), ApiError>, board| match found {
            Ok((tables, max)) => json!({"rules": name, "tables": tables, "max_pieces": max,
                                        "error": null, "board": board}),
            Err(e) => json!({"rules": name, "tables": 0, "max_pieces": 0, "error": e.message,
                             "board": board}),
        };
        let sets: Vec<_> = Game::all()
            .into_iter()
            .map(|game| {
                let board = match game {
                    Game::Jungle(rules) => board_json(rules),
                    Game::AnimalGambit => gambit::board_json(),
                };
                entry(game.name(), lib.size(game.name()), board)
            })
            .collect();
        Ok(json!({ "rule_sets": sets }))
    })
    .await
    .map(Json)
}

/// The statistics in a material's file headers, read once per scan of its rule set.
///
/// # Errors
/// As [`Library::table_error`].
fn headers(lib: &Library, rules: RuleSet, m: Material) -> Result<Arc<MaterialStats>, ApiError> {
    memo(&lib.headers, rules, m, || {
        MaterialStats::read(lib.root(), rules, m).map_err(|e| lib.table_error(e, rules, m))
    })
}

/// Positions per distance of a material's DTM and DTC files, counted once per scan.
fn histograms(lib: &Library, rules: RuleSet, m: Material) -> Result<Arc<Histograms>, ApiError> {
    memo(&lib.histograms, rules, m, || {
        stats::histograms(lib.root(), rules, m).map_err(|e| lib.table_error(e, rules, m))
    })
}

fn memo<T>(
    map: &Memo<T>,
    rules: RuleSet,
    m: Material,
    compute: impl FnOnce() -> Result<T, ApiError>,
) -> Result<Arc<T>, ApiError> {
    let key = (rules, m);
    if let Some(found) = map.lock().unwrap_or_else(PoisonError::into_inner).get(&key) {
        return Ok(Arc::clone(found));
    }
    // Computed without the lock: two requests may both compute it, and either copy serves.
    let value = Arc::new(compute()?);
    map.lock()
        .unwrap_or_else(PoisonError::into_inner)
        .insert(key, Arc::clone(&value));
    Ok(value)
}

/// `GET /api/v1/{rules}/materials`: the materials present, fewest pieces first, and for the
/// material index each one's counts and longest wins (Red to move, then Blue); in Clesto the
/// wins and losses by the ban (`ban_wins`, `ban_losses`) instead of draws.
///
/// # Errors
/// 404 for an unknown rule set or one without tables. A table whose header cannot be read is
/// listed with `damaged` (why) instead of its counts.
pub async fn materials(
    State(lib): State<Arc<Library>>,
    Rules(game): Rules,
) -> Result<Json<serde_json::Value>, ApiError> {
    let Game::Jungle(rules) = game else {
        return blocking(lib, |lib| {
            lib.refresh();
            gambit::materials(lib)
        })
        .await
        .map(Json);
    };
    blocking(lib, move |lib| {
        lib.refresh();
        let mut names = Vec::new();
        let mut tables = Vec::new();
        for m in lib.materials(rules)? {
            names.push(m.to_string());
            // A table whose files cannot be read is listed as damaged; the others still are.
            let found = match headers(lib, rules, m) {
                Ok(found) => found,
                Err(e) => {
                    tables.push(damaged(&m.to_string(), m.total(), &e));
                    continue;
                }
            };
            let side = |i: usize| &found.sides[i].0;
            let pair = |f: &dyn Fn(&jtb_probe::SideStats) -> serde_json::Value| {
                json!([f(side(0)), f(side(1))])
            };
            let position =
                |s: &jtb_probe::SideStats| json!(crate::games::shown(&s.longest_win_position));
            let mut table = json!({
                "material": m.to_string(), "pieces": m.total(),
                "wins": pair(&|s| json!(s.wins)), "draws": pair(&|s| json!(s.draws)),
                "losses": pair(&|s| json!(s.losses)),
                "longest_win": pair(&|s| json!(s.longest_win)),
                "longest_win_position": pair(&position),
            });
            crate::games::family_stats(rules)
                .index_entry(&mut table, [&found.sides[0].1, &found.sides[1].1]);
            tables.push(table);
        }
        Ok(json!({"rules": rules.name(), "materials": names, "tables": tables}))
    })
    .await
    .map(Json)
}

/// A material index's entry for a table that cannot be read: its name, its piece count, and
/// why (the file and the fault).
pub fn damaged(material: &str, pieces: usize, why: &ApiError) -> serde_json::Value {
    json!({"material": material, "pieces": pieces, "damaged": why.message})
}

/// `GET /api/v1/{rules}/stats/{material}`: the material's `jtb stats --json` objects (Red to
/// move, then Blue), its distance histograms, and the tables it depends on (where its
/// captures lead), in the orientation asked: `LRvET` answers for Red with L+R, although the
/// table is stored as `ETvLR` (`table`, and `flipped` says the colours were swapped).
///
/// # Errors
/// 400 for a malformed material, 404 for an unknown rule set or a table that is not there, 500
/// for a damaged one.
pub async fn stats(
    State(lib): State<Arc<Library>>,
    path: Result<Path<(String, String)>, PathRejection>,
) -> Result<Json<serde_json::Value>, ApiError> {
    let Path((rules, material)) = path.map_err(path_error)?;
    let game = rule_set(&rules)?;
    if material.len() > MAX_MATERIAL_BYTES {
        return Err(ApiError::new(
            Problem::BadMaterial,
            format!(
                "material name of {} bytes: at most {MAX_MATERIAL_BYTES}",
                material.len()
            ),
        ));
    }
    let Game::Jungle(rules) = game else {
        let asked: jtb_probe::gambit::Material =
            material
                .parse()
                .map_err(|e: jtb_probe::gambit::BadMaterial| {
                    ApiError::new(Problem::BadMaterial, e.to_string())
                })?;
        return blocking(lib, move |lib| gambit::stats(lib, asked))
            .await
            .map(Json);
    };
    let asked: Material = material
        .parse()
        .map_err(|e: jtb_probe::BadMaterial| ApiError::new(Problem::BadMaterial, e.to_string()))?;
    if asked.total() > Layout::MAX_PIECES {
        return Err(ApiError::new(
            Problem::MissingTable,
            format!(
                "no table {asked}: tables hold at most {} pieces",
                Layout::MAX_PIECES
            ),
        ));
    }
    blocking(lib, move |lib| stats_answer(lib, rules, asked))
        .await
        .map(Json)
}

fn stats_answer(
    lib: &Library,
    rules: RuleSet,
    asked: Material,
) -> Result<serde_json::Value, ApiError> {
    let table = asked.table_of(rules);
    lib.materials(rules)?;
    // The material is parsed and printed again, so the file name is built from animal letters
    // only: no request can name a file outside the table directory.
    let found = headers(lib, rules, table)?;
    let counted = histograms(lib, rules, table)?;
    let flipped = asked != table;
    // Side `i` of the answer is side `order[i]` of the table.
    let order = if flipped { [1, 0] } else { [0, 1] };
    let objects = found.json();
    let stats: Vec<serde_json::Value> = order
        .iter()
        .zip(["red", "blue"])
        .map(|(&i, to_move)| {
            let mut o = objects[i].clone();
            o["material"] = json!(asked.to_string());
            o["to_move"] = json!(to_move);
            if flipped {
                for key in ["longest_win_position", "longest_dtc_position"] {
                    if let Some(text) = o[key].as_str() {
                        o[key] = json!(colour_flip(text, rules)?);
                    }
                }
            }
            Ok(o)
        })
        .collect::<Result<_, ApiError>>()?;
    let sides = |h: &[SideHistogram; 2]| -> Vec<serde_json::Value> {
        order
            .iter()
            .zip(["red", "blue"])
            .map(|(&i, to_move)| {
                json!({"to_move": to_move, "wins": h[i].wins, "losses": h[i].losses,
                       "draws": h[i].draws})
            })
            .collect()
    };
    // Where captures lead, each seen with the colours of the material asked.
    let within = |m: Material| {
        [Color::Red, Color::Blue]
            .iter()
            .all(|&c| m.set(c) & !asked.set(c) == 0)
    };
    let mut depends: Vec<String> = jtb_gen::plan::successors(rules, table)
        .into_iter()
        .map(|m| if within(m) { m } else { m.flipped() })
        .map(|m| m.to_string())
        .collect();
    depends.sort_unstable();
    Ok(json!({
        "rules": rules.name(),
        "material": asked.to_string(),
        "table": table.to_string(),
        "flipped": flipped,
        "stats": stats,
        // The second file is DTC, or Clesto's ban file: named by its extension.
        "histogram": {"dtm": sides(&counted[0]),
                      rules.second_kind().extension(): sides(&counted[1])},
        "depends_on": depends,
    }))
}

/// `text` seen from the other side (a position of a table header).
fn colour_flip(text: &str, rules: RuleSet) -> Result<String, ApiError> {
    Position::parse(text, Some(rules))
        .map(|p| p.color_flipped().to_string())
        .map_err(|e| {
            ApiError::new(
                Problem::DamagedTable,
                format!("a table header's {text}: {e}"),
            )
        })
}
