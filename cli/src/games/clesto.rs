//! The Clesto side of `jtb stats` (RULES.md 6): no draws, so it counts what the ban decides
//! (the DTM file's draws, as the ban file's wins and losses, with B's longest way out) where
//! the other rule sets count draws and the clock rule.

use std::io::Write;

use jtb_probe::{Material, SideStats};
use serde_json::json;

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
