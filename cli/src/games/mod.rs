//! What a game prints and puts in its JSON where the games differ: the table commands of each
//! type of tables (`crate::table_set::TableSet`: the Jungle family's in [`family`], Animal
//! Gambit's in [`gambit`]), the statistics of a rule set of the Jungle
//! family's type ([`FamilyStats`]: Jungle's and the flip game's in [`jungle`], Clesto's without
//! draws in [`clesto`]), and what `jtb moves` prints ([`MovesText`]). What `jtb probe` prints of
//! an answer is the edge's, with its JSON (`jtb_edge::Answer::text`).

use std::io::{self, Write};

use jtb_edge::games::EdgeGame;
use jtb_probe::{Material, RuleSet, SideHistogram, SideStats};

pub(crate) use crate::api::shown;

pub mod clesto;
pub mod family;
mod family_api;
pub mod flip;
pub mod gambit;
mod gambit_api;
pub mod jungle;

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

/// The statistics printer of a rule set of the Jungle family's type: the one place `jtb stats`
/// and the material index tell its games apart.
#[must_use]
pub fn family_stats(rules: RuleSet) -> &'static dyn FamilyStats {
    match rules {
        RuleSet::Clesto => &clesto::Stats,
        _ => &jungle::Stats,
    }
}
