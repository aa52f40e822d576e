//! What tables there are: each rule set's board and table count, the materials present with
//! their counts for the material index, and per material its statistics and distance
//! histograms, in the orientation asked. Each route answers through [`TableRoutes`], implemented
//! once per type of tables (in `games/family_api.rs` for the Jungle family's rule sets,
//! `games/gambit_api.rs` for Animal Gambit's), and [`routes_of`] (over the table commands' one
//! list of the types of tables, [`TablesOf`]) is the one place a rule set meets its type.

use jtb_edge::Tables;
use std::sync::Arc;

use axum::{
    extract::{rejection::PathRejection, Path, State},
    Json,
};
use serde_json::json;

use super::query::{blocking, path_error, rule_set, RulesPath};
use crate::{
    api::{ApiError, ApiTables, Problem, TableRoutes},
    input::Rules,
    table_set::TablesOf,
};

/// Longer material names are refused before they are parsed (`ELRvTR` has 6 bytes).
const MAX_MATERIAL_BYTES: usize = 24;

/// Evaluates `f` with the table routes of `rules`' type of tables: the table commands' types
/// ([`TablesOf`]), reached through the edge's one list of the types of rule sets.
fn routes_of<T>(rules: Rules, f: impl FnOnce(&dyn TableRoutes) -> T) -> T {
    jtb_edge::each_family!(rules, |r, F| f(&F::tables(r)))
}

/// `GET /api/v1`: the rule sets, their boards and what tables each has.
///
/// # Errors
/// 500 only if the task answering it failed.
pub async fn index(State(lib): State<Arc<Tables>>) -> Result<Json<serde_json::Value>, ApiError> {
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
                    lib.table_size(rules),
                    routes_of(rules, |t| t.board()),
                );
                routes_of(rules, |t| t.index_fields(lib, &mut e));
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
    State(lib): State<Arc<Tables>>,
    RulesPath(rules): RulesPath,
) -> Result<Json<serde_json::Value>, ApiError> {
    blocking(lib, move |lib| {
        lib.refresh();
        routes_of(rules, |t| t.materials(lib))
    })
    .await
    .map(Json)
}

/// `GET /api/v1/{rules}/stats/{material}` ([`TableRoutes::stats`]): `LRvET` answers for Red
/// with L+R, although the table is stored as `ETvLR`.
///
/// # Errors
/// 400 for a malformed material, 404 for an unknown rule set or a table that is not there, 500
/// for a damaged one.
pub async fn stats(
    State(lib): State<Arc<Tables>>,
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
