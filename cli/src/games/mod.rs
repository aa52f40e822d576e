//! What a game prints and puts in its JSON where the games differ: the table commands of each
//! type of tables ([`TableSet`]: the Jungle family's in [`family`], Animal Gambit's in
//! [`gambit`], reached through [`tables_of`]), the statistics of a rule set of the Jungle
//! family's type ([`FamilyStats`]: Jungle's and the flip game's in [`jungle`], Clesto's without
//! draws in [`clesto`]), and what `jtb moves` prints ([`MovesText`]). What `jtb probe` prints of
//! an answer is the edge's, with its JSON (`jtb_edge::Answer::text`).

use std::{
    io::{self, Write},
    path::Path,
};

use jtb_edge::{games::EdgeGame, RuleFamily, Rules};
use jtb_probe::{Material, RuleSet, SideHistogram, SideStats};

use crate::{
    commands::{info, stats, verify},
    serve::tables::TableRoutes,
    CliResult,
};

pub mod clesto;
pub mod family;
pub mod flip;
pub mod gambit;
pub mod jungle;

/// What the table commands (`jtb stats`, `jtb verify`, `jtb info`) and the server's table
/// routes ([`TableRoutes`]) ask of one type of tables. Implemented once per type, in its
/// game's module ([`family::FamilyTables`] for the Jungle family's rule sets,
/// [`gambit::GambitTables`]); [`tables_of`] is the one place a rule set meets its type.
pub trait TableSet: TableRoutes {
    /// `jtb stats`: per material present under `root` and side to move, the statistics in its
    /// files' headers (with `histogram` also the positions per distance), as text or one JSON
    /// object each. Tables that are damaged are reported on standard error and skipped.
    ///
    /// # Errors
    /// The tables cannot be listed, or writing failed. `Ok(false)` when a table was damaged.
    fn print_stats(&self, out: &mut dyn Write, asked: &stats::Asked) -> CliResult;

    /// `jtb verify` of the tables `asked` names (every one present without names): checksums,
    /// then each entry one ply deep ([`verify::verify_set`]).
    ///
    /// # Errors
    /// No tables to check, or a table that cannot be checked: tables it needs are missing or
    /// damaged, or it does not fit in memory. `Ok(false)` when a check failed.
    fn verify(&self, out: &mut dyn Write, asked: &verify::Asked) -> CliResult;

    /// `jtb info` of the file at `path`, whose header names a rule set of this type.
    fn info(&self, out: &mut dyn Write, path: &Path, json: bool) -> info::Shown;
}

/// A type of rule sets' tables as the table commands and routes see them: implemented once per
/// type of rule sets ([`jtb_edge::RuleFamily`]), in its game's module.
pub trait TablesOf: RuleFamily {
    /// Evaluates `f` with the tables of the rule set `self`.
    fn with_tables<T>(self, f: impl FnOnce(&dyn TableSet) -> T) -> T;
}

/// Evaluates `f` with the type of tables of `rules`, through the edge's one list of the types
/// of rule sets ([`jtb_edge::each_family!`]).
pub fn tables_of<T>(rules: Rules, f: impl FnOnce(&dyn TableSet) -> T) -> T {
    jtb_edge::each_family!(rules, |r, F| F::with_tables(r, f))
}

/// How `jtb stats`, the API's material index and its board description show a rule set of the
/// Jungle family's type: a table from the statistics in the headers of its DTM file (`plain`)
/// and of its second file (`second`: DTC, or Clesto's ban file).
pub trait FamilyStats: Sync {
    /// The header line of `jtb stats`.
    ///
    /// # Errors
    /// Writing failed.
    fn header(&self, out: &mut dyn Write) -> io::Result<()>;

    /// A line of `jtb stats`: `material` with `side` to move.
    ///
    /// # Errors
    /// Writing failed.
    fn row(
        &self,
        out: &mut dyn Write,
        material: Material,
        side: &str,
        plain: &SideStats,
        second: &SideStats,
    ) -> io::Result<()>;

    /// The `jtb stats --json` object of `material` with `side` to move.
    fn json(
        &self,
        material: Material,
        side: &str,
        plain: &SideStats,
        second: &SideStats,
    ) -> serde_json::Value;

    /// Makes the API's material index entry `table` (the DTM file's counts, Red to move first)
    /// the game's, from its second file's statistics.
    fn index_entry(&self, table: &mut serde_json::Value, second: [&SideStats; 2]) {
        let _ = (table, second);
    }

    /// Sets the rule set's own fields of the API's board description `board` (Clesto's
    /// `hunger`).
    fn board_fields(&self, board: &mut serde_json::Value) {
        let _ = board;
    }
}

/// What `jtb moves` prints of a position: implemented once per game, in its module, on the
/// edge's type for it, and reached through [`jtb_edge::each_game!`].
pub trait MovesText: EdgeGame {
    /// The answer line for `pos` (`text`, as given): its moves sorted as ASCII strings, with
    /// what the game adds to a move (Clesto's starvations, a flip's outcomes); with `json` the
    /// JSON object `{"position": text, "moves": [...], ...}`.
    fn moves_text(text: &str, pos: &Self::Position, json: bool) -> String;
}

/// `jtb moves`'s answer for a game whose moves need no more than their text.
fn plain_moves_text(text: &str, moves: &[String], separator: &str, json: bool) -> String {
    if json {
        serde_json::json!({"position": text, "moves": moves}).to_string()
    } else {
        moves.join(separator)
    }
}

/// One side's histogram as JSON: `wins[d]` and `losses[d]` positions at distance `d` (in the
/// game's unit), and draws.
#[must_use]
pub(crate) fn histogram_json(h: &SideHistogram) -> serde_json::Value {
    serde_json::json!({"wins": h.wins, "losses": h.losses, "draws": h.draws})
}

/// `count()` when `wanted` (`jtb stats --histogram`), else nothing. A table it cannot count is
/// reported on standard error and gives `Err`, for the caller to skip it.
pub(crate) fn histograms_if<T>(
    wanted: bool,
    count: impl FnOnce() -> Result<T, jtb_probe::TableError>,
) -> Result<Option<T>, ()> {
    if !wanted {
        return Ok(None);
    }
    count().map(Some).map_err(|e| eprintln!("{e}"))
}

/// `jtb stats --histogram`'s text lines of one file's histograms `h` of `material`: per side to
/// move (`sides`, in a column `width` wide), its wins' and its losses' `d:n` pairs.
///
/// # Errors
/// Writing failed.
pub(crate) fn histogram_lines(
    out: &mut dyn Write,
    material: &str,
    sides: [&str; 2],
    width: usize,
    metric: &str,
    h: &[SideHistogram; 2],
) -> io::Result<()> {
    for (side, h) in sides.iter().zip(h) {
        let (wins, losses) = (spread(&h.wins), spread(&h.losses));
        writeln!(out, "{material:<10} {side:<width$} {metric} wins   {wins}")?;
        writeln!(
            out,
            "{material:<10} {side:<width$} {metric} losses {losses}"
        )?;
    }
    Ok(())
}

/// Non-zero counts as `d:n`, for the text output.
fn spread(counts: &[u64]) -> String {
    let cells: Vec<String> = counts
        .iter()
        .enumerate()
        .filter(|(_, &n)| n != 0)
        .map(|(d, n)| format!("{d}:{n}"))
        .collect();
    if cells.is_empty() {
        "-".to_owned()
    } else {
        cells.join(" ")
    }
}

/// A position a table's header names (its longest win, say) as the JSON answers give it:
/// `null` where there is none.
pub(crate) fn shown(position: &str) -> Option<&str> {
    (!position.is_empty()).then_some(position)
}

/// The statistics printer of a rule set of the Jungle family's type: the one place `jtb stats`
/// and the material index tell its games apart.
#[must_use]
pub fn family_stats(rules: RuleSet) -> &'static dyn FamilyStats {
    match rules {
        RuleSet::Clesto => &clesto::Stats,
        _ => &jungle::Stats,
    }
}
