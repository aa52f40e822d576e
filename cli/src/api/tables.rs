//! What the table routes answer of a type of tables ([`TableRoutes`], implemented in each
//! game's module of `games/`), and the parts of their answers that every type shares.

use jtb_edge::Tables;
use jtb_probe::{SideHistogram, SideStats};
use serde_json::json;

use super::ApiError;

/// What the table routes ask of a rule set's tables.
pub trait TableRoutes {
    /// The board as data, so that the page draws any board from the server's description.
    fn board(&self) -> serde_json::Value;

    /// What the index (`GET /api/v1`) adds to the rule set's entry beyond its table count and
    /// board. Provided: nothing.
    fn index_fields(&self, tables: &Tables, entry: &mut serde_json::Value) {
        let _ = (tables, entry);
    }

    /// The answer of `GET /api/v1/{rules}/materials`: the materials present, fewest pieces
    /// first, and for the material index each one's counts and longest wins, for each side to
    /// move.
    ///
    /// # Errors
    /// 404 without tables. A table whose header cannot be read is listed with `damaged` (why)
    /// instead of its counts.
    fn materials(&self, lib: &Tables) -> Result<serde_json::Value, ApiError>;

    /// The answer of `GET /api/v1/{rules}/stats/{material}` for `material` as the path names
    /// it: its statistics (`jtb stats --json`'s objects, for each side to move), the
    /// histograms counted, and the tables it depends on, in the orientation asked (`table`
    /// names the one stored, `flipped` says the colours were swapped).
    ///
    /// # Errors
    /// 400 for a malformed material, 404 for a table that is not there, 500 for a damaged one.
    fn stats(&self, lib: &Tables, material: &str) -> Result<serde_json::Value, ApiError>;
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
        "longest_win_position": pair(&|s| json!(shown(&s.longest_win_position))),
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

/// A position a table's header names (its longest win, say) as the JSON answers give it:
/// `null` where there is none.
pub(crate) fn shown(position: &str) -> Option<&str> {
    (!position.is_empty()).then_some(position)
}
