//! The API's table answers of the Jungle family's rule sets (Jungle, the flip game and Clesto, whose
//! tables share one type): the board as data, the material index from the tables' headers, and
//! a material's statistics and distance histograms. Where Clesto's differ (no draws, its ban
//! file), its [`crate::games::FamilyStats`] says so.

use jtb_edge::Tables;
use std::sync::Arc;

use jtb_edge::Rules;

use jtb_probe::{Color, Layout, Material, Position, RuleSet, SideHistogram};
use serde_json::json;

use super::family::{self, FamilyTables, Histograms, MaterialStats};
use crate::api::{
    damaged, index_entry, oriented_histogram, ApiError, ApiTables, Problem, TableRoutes,
};

impl TableRoutes for FamilyTables {
    /// The board's size, water, traps and dens, its clock limit, and what the page would
    /// otherwise tell from the game: its name, its sides, the unit of its distances, whether a
    /// move is a turn of steps, how the board is drawn, and what the rule set adds (Clesto:
    /// `hunger`, its name).
    fn board(&self) -> serde_json::Value {
        let rules = self.0;
        let board = rules.board();
        let names = |set: jtb_probe::SquareSet| -> Vec<String> {
            board
                .squares()
                .filter(|&sq| set & jtb_probe::bit(sq) != 0)
                .map(|sq| sq.to_string())
                .collect()
        };
        let side = |c: Color| json!({"den": board.den(c).map(|s| s.to_string()), "traps": names(board.traps(c))});
        let traps = board.traps(Color::Red) | board.traps(Color::Blue);
        let dens: Vec<String> = [Color::Red, Color::Blue]
            .into_iter()
            .filter_map(|c| board.den(c).map(|s| s.to_string()))
            .collect();
        // The flip game's board has no water, trap or den: drawn as tiles.
        let tiles = board.water() == 0 && traps == 0 && dens.is_empty();
        let (game, title) = if tiles {
            ("flip", "Flip game")
        } else {
            ("jungle", "Jungle")
        };
        let mut out = json!({
            "game": game, "title": title,
            "width": board.width, "height": board.height, "water": names(board.water()),
            "red": side(Color::Red), "blue": side(Color::Blue),
            "traps": names(traps), "dens": dens,
            "clock_limit": rules.clock_limit(), "hunger": false,
            "sides": ["red", "blue"], "side_letters": ["r", "b"], "distance_unit": "plies",
            "turns_of_steps": false, "style": if tiles { "tiles" } else { "land" },
            "piece_set": "jungle",
            "piece_names": jtb_probe::Animal::ALL.map(|a| (a.letter().to_string(), json!(a.name())))
                .into_iter().collect::<serde_json::Map<_, _>>(),
        });
        crate::games::family_stats(rules).board_fields(&mut out);
        out
    }

    /// The flip game's: its chance tables (positions with face-down tiles) and what it answers
    /// with no tables (the built-in check of one animal each, RULES.md 5.7).
    fn index_fields(&self, tables: &Tables, entry: &mut serde_json::Value) {
        if self.0 == RuleSet::Flip4x4 {
            entry["chance_tables"] = json!(tables.chance_count());
            entry["without_tables"] = json!("one each");
        }
    }

    /// Red to move, then Blue; in Clesto the wins and losses by the ban (`ban_wins`,
    /// `ban_losses`) instead of draws.
    fn materials(&self, lib: &Tables) -> Result<serde_json::Value, ApiError> {
        let rules = self.0;
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
            let mut table = index_entry(
                &m.to_string(),
                m.total(),
                [&found.sides[0].0, &found.sides[1].0],
            );
            crate::games::family_stats(rules)
                .index_entry(&mut table, [&found.sides[0].1, &found.sides[1].1]);
            tables.push(table);
        }
        Ok(json!({"rules": rules.name(), "materials": names, "tables": tables}))
    }

    /// The DTM and second files' histograms, and the tables its captures lead to.
    fn stats(&self, lib: &Tables, material: &str) -> Result<serde_json::Value, ApiError> {
        let asked: Material = material.parse().map_err(|e: jtb_probe::BadMaterial| {
            ApiError::new(Problem::BadMaterial, e.to_string())
        })?;
        if asked.total() > Layout::MAX_PIECES {
            return Err(ApiError::new(
                Problem::MissingTable,
                format!(
                    "no table {asked}: tables hold at most {} pieces",
                    Layout::MAX_PIECES
                ),
            ));
        }
        stats_answer(lib, self.0, asked)
    }
}

/// The statistics in a material's file headers, read once per scan of its rule set.
///
/// # Errors
/// As [`ApiTables::table_error`].
fn headers(lib: &Tables, rules: RuleSet, m: Material) -> Result<Arc<MaterialStats>, ApiError> {
    lib.memo().get(Rules::Jungle(rules), "headers", &m, || {
        MaterialStats::read(lib.root(), rules, m).map_err(|e| lib.table_error(e, rules, m))
    })
}

/// Positions per distance of a material's DTM and DTC files, counted once per scan.
fn histograms(lib: &Tables, rules: RuleSet, m: Material) -> Result<Arc<Histograms>, ApiError> {
    lib.memo().get(Rules::Jungle(rules), "histograms", &m, || {
        family::histograms(lib.root(), rules, m).map_err(|e| lib.table_error(e, rules, m))
    })
}

/// The `/stats/{material}` answer of `asked` under `rules`.
fn stats_answer(
    lib: &Tables,
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
    let sides = |h: &[SideHistogram; 2]| oriented_histogram(h, order, ["red", "blue"]);
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
