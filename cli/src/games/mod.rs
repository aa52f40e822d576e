//! What a game prints and puts in its JSON where the games differ: the statistics of a table of
//! the Jungle family's type ([`FamilyStats`]: Jungle's and the flip game's in [`jungle`],
//! Clesto's without draws in [`clesto`]), Animal Gambit's side of the table commands, and what
//! `jtb probe` prints of each game's answer (`probe_text` in each module, [`flip`]'s for the
//! positions with face-down tiles).

use std::io::{self, Write};

use jtb_probe::{Material, RuleSet, SideStats};

pub mod clesto;
pub mod flip;
pub mod gambit;
pub mod jungle;

/// How `jtb stats` and the API's material index show a table of the Jungle family's type, from
/// the statistics in the headers of its DTM file (`plain`) and of its second file (`second`:
/// DTC, or Clesto's ban file).
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
