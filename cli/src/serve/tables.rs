//! What tables there are: each rule set's board and table count, the materials present with
//! their counts for the material index, and per material its statistics and distance
//! histograms, in the orientation asked. Each route answers through [`TableRoutes`], implemented
//! once per type of tables ([`super::family`] for the Jungle family's rule sets,
//! [`super::gambit`] for Animal Gambit's), and [`routes_of`] (over the table commands' one list
//! of the types of tables, [`TablesOf`]) is the one place a rule set meets its type.

use std::sync::Arc;

use axum::{
    extract::{rejection::PathRejection, Path, State},
    Json,
};
use jtb_probe::{RuleSet, SideHistogram, SideStats};
use serde_json::json;

use super::{
    error::{ApiError, Problem},
    query::{blocking, path_error, rule_set, RulesPath},
    source::Library,
};
use crate::{input::Rules, table_set::TablesOf};

/// Longer material names are refused before they are parsed (`ELRvTR` has 6 bytes).
const MAX_MATERIAL_BYTES: usize = 24;

/// What the table routes ask of a rule set's tables.
pub trait TableRoutes {
    /// The board as data, so that the page draws any board from the server's description.
    fn board(&self) -> serde_json::Value;

    /// The answer of `GET /api/v1/{rules}/materials`: the materials present, fewest pieces
    /// first, and for the material index each one's counts and longest wins, for each side to
    /// move.
    ///
    /// # Errors
    /// 404 without tables. A table whose header cannot be read is listed with `damaged` (why)
    /// instead of its counts.
    fn materials(&self, lib: &Library) -> Result<serde_json::Value, ApiError>;

    /// The answer of `GET /api/v1/{rules}/stats/{material}` for `material` as the path names
    /// it: its statistics (`jtb stats --json`'s objects, for each side to move), the
    /// histograms counted, and the tables it depends on, in the orientation asked (`table`
    /// names the one stored, `flipped` says the colours were swapped).
    ///
    /// # Errors
    /// 400 for a malformed material, 404 for a table that is not there, 500 for a damaged one.
    fn stats(&self, lib: &Library, material: &str) -> Result<serde_json::Value, ApiError>;
}

/// Evaluates `f` with the table routes of `rules`' type of tables: the table commands' types
/// ([`TablesOf`]), reached through the edge's one list of the types of rule sets.
fn routes_of<T>(rules: Rules, f: impl FnOnce(&dyn TableRoutes) -> T) -> T {
    jtb_edge::each_family!(rules, |r, F| f(&F::tables(r)))
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
        let sets: Vec<_> = Rules::all()
            .into_iter()
            .map(|rules| {
                let mut e = entry(
                    rules.name(),
                    lib.size(rules.name()),
                    routes_of(rules, |t| t.board()),
                );
                // The flip game's chance tables (positions with face-down tiles), beside them.
                if rules == Rules::Jungle(RuleSet::Flip4x4) {
                    e["chance_tables"] = json!(lib.chance_count());
                }
                e
            })
            .collect();
        Ok(json!({ "rule_sets": sets }))
    })
    .await
    .map(Json)
}

/// `GET /api/v1/{rules}/materials` ([`TableRoutes::materials`]).
///
/// # Errors
/// 404 for an unknown rule set or one without tables.
pub async fn materials(
    State(lib): State<Arc<Library>>,
    RulesPath(rules): RulesPath,
) -> Result<Json<serde_json::Value>, ApiError> {
    blocking(lib, move |lib| {
        lib.refresh();
        routes_of(rules, |t| t.materials(lib))
    })
    .await
    .map(Json)
}

/// A material index's entry from the counts of a table's DTM file (`sides`, each side to move
/// in turn).
pub fn index_entry(material: &str, pieces: usize, sides: [&SideStats; 2]) -> serde_json::Value {
    let pair = |f: &dyn Fn(&SideStats) -> serde_json::Value| json!([f(sides[0]), f(sides[1])]);
    json!({
        "material": material, "pieces": pieces,
        "wins": pair(&|s| json!(s.wins)), "draws": pair(&|s| json!(s.draws)),
        "losses": pair(&|s| json!(s.losses)),
        "longest_win": pair(&|s| json!(s.longest_win)),
        "longest_win_position": pair(&|s| json!(crate::games::shown(&s.longest_win_position))),
    })
}

/// A table's histogram `h` (each side to move in turn) as the `/stats` answers give it, in the
/// orientation asked: side `i` of the answer is side `order[i]` of the table, named `sides[i]`.
pub fn oriented_histogram(
    h: &[SideHistogram; 2],
    order: [usize; 2],
    sides: [&str; 2],
) -> Vec<serde_json::Value> {
    order
        .iter()
        .zip(sides)
        .map(|(&i, to_move)| {
            let h = &h[i];
            json!({"to_move": to_move, "wins": h.wins, "losses": h.losses, "draws": h.draws})
        })
        .collect()
}

/// A material index's entry for a table that cannot be read: its name, its piece count, and
/// why (the file and the fault).
pub fn damaged(material: &str, pieces: usize, why: &ApiError) -> serde_json::Value {
    json!({"material": material, "pieces": pieces, "damaged": why.message})
}

/// `GET /api/v1/{rules}/stats/{material}` ([`TableRoutes::stats`]): `LRvET` answers for Red
/// with L+R, although the table is stored as `ETvLR`.
///
/// # Errors
/// 400 for a malformed material, 404 for an unknown rule set or a table that is not there, 500
/// for a damaged one.
pub async fn stats(
    State(lib): State<Arc<Library>>,
    path: Result<Path<(String, String)>, PathRejection>,
) -> Result<Json<serde_json::Value>, ApiError> {
    let Path((rules, material)) = path.map_err(path_error)?;
    let asked = rule_set(&rules)?;
    if material.len() > MAX_MATERIAL_BYTES {
        return Err(ApiError::new(
            Problem::BadMaterial,
            format!(
                "material name of {} bytes: at most {MAX_MATERIAL_BYTES}",
                material.len()
            ),
        ));
    }
    blocking(lib, move |lib| {
        routes_of(asked, |t| t.stats(lib, &material))
    })
    .await
    .map(Json)
}
