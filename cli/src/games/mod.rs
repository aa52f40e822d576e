//! What a game prints and puts in its JSON where the games differ: the statistics of a table of
//! the Jungle family's type ([`FamilyStats`]: Jungle's and the flip game's in [`jungle`],
//! Clesto's without draws in [`clesto`]), Animal Gambit's side of the table commands, what
//! `jtb probe` prints of each game's answer (`probe_text` in each module, [`flip`]'s for the
//! positions with face-down tiles), and what `jtb moves` prints ([`MovesText`]).

use std::io::{self, Write};

use jtb_edge::games::EdgeGame;
use jtb_probe::{Material, RuleSet, SideStats};

pub mod clesto;
pub mod flip;
pub mod gambit;
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
