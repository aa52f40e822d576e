//! The Clesto side of the table commands (RULES.md 6): no draws, so `stats` counts what the ban
//! decides (the DTM file's draws, as the ban file's wins and losses, with B's longest way out)
//! where the other rule sets count draws and the clock rule; `verify` checks each entry one
//! ply deep with the ban.

use std::{io::Write, path::Path};

use jtb_gen::SubTables;
use jtb_probe::{format::table_path, Kind, Material, RuleSet, SideStats};
use serde_json::json;

use crate::CliResult;

/// The header line of `jtb stats --rules clesto`.
///
/// # Errors
/// Writing failed.
pub fn stats_header(out: &mut impl Write) -> std::io::Result<()> {
    writeln!(
        out,
        "{:<10} {:<5} {:>14} {:>14} {:>14} {:>14} {:>8} {:>8}  longest win",
        "material", "move", "wins", "ban wins", "losses", "ban losses", "longest", "max exit"
    )
}

/// A line of `jtb stats --rules clesto`: the DTM file's statistics `plain` and the ban file's
/// `ban` for `material` with `side` to move.
///
/// # Errors
/// Writing failed.
pub fn stats_row(
    out: &mut impl Write,
    material: Material,
    side: &str,
    plain: &SideStats,
    ban: &SideStats,
) -> std::io::Result<()> {
    writeln!(
        out,
        "{:<10} {:<5} {:>14} {:>14} {:>14} {:>14} {:>8} {:>8}  {}",
        material.to_string(),
        side,
        plain.wins,
        ban.wins,
        plain.losses,
        ban.losses,
        plain.longest_win,
        ban.longest_win,
        plain.longest_win_position
    )
}

/// The `jtb stats --rules clesto --json` object of `material` with `side` to move: the DTM
/// file's draws are the positions the ban decides.
#[must_use]
pub fn stats_json(
    material: Material,
    side: &str,
    plain: &SideStats,
    ban: &SideStats,
) -> serde_json::Value {
    let position = |p: &String| (!p.is_empty()).then(|| p.clone());
    json!({
        "material": material.to_string(), "to_move": side, "wins": plain.wins,
        "ban_wins": ban.wins, "losses": plain.losses, "ban_losses": ban.losses,
        "longest_win": plain.longest_win,
        "longest_win_position": position(&plain.longest_win_position),
        "longest_exit": ban.longest_win,
        "longest_exit_position": position(&ban.longest_win_position),
    })
}

/// `jtb verify --rules clesto`: checks every entry of table `m` one ply deep (plain values and
/// the ban's) against `tables` (its own included) and reports failures.
///
/// # Errors
/// The check could not run; writing failed.
pub fn verify(
    out: &mut impl Write,
    root: &Path,
    m: Material,
    table: &jtb_gen::Solved,
    tables: &SubTables,
    wdl_ok: bool,
) -> CliResult {
    let mismatches = jtb_gen::clesto::verify(table, tables, 10)?;
    let path = table_path(root, RuleSet::Clesto, m, Kind::Ban);
    let failures = mismatches.iter().map(|x| {
        format!(
            "{}: {}: stored {}, its moves give {}",
            path.display(),
            x.position,
            x.stored,
            x.computed
        )
    });
    let what = "their moves (plain values and the ban's)";
    crate::verify::report(out, m, table.codes.len(), wdl_ok, failures, what)
}
