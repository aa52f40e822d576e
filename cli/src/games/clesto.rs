//! The Clesto side of `jtb stats` and of the API's material index (RULES.md 6): no draws, so it
//! counts what the ban decides (the DTM file's draws, as the ban file's wins and losses, with
//! B's longest way out) where the other rule sets count draws and the clock rule.

use std::io::{self, Write};

use jtb_probe::{Material, SideStats};
use serde_json::json;

use super::{shown, FamilyStats};

/// `jtb stats --rules clesto`: no draws column; the ban file's wins and losses, and B's longest
/// way out.
pub struct Stats;

impl FamilyStats for Stats {
    fn header(&self, out: &mut dyn Write) -> io::Result<()> {
        writeln!(
            out,
            "{:<10} {:<5} {:>14} {:>14} {:>14} {:>14} {:>8} {:>8}  longest win",
            "material", "move", "wins", "ban wins", "losses", "ban losses", "longest", "max exit"
        )
    }

    /// The DTM file's statistics `plain` and the ban file's `ban`.
    fn row(
        &self,
        out: &mut dyn Write,
        material: Material,
        side: &str,
        plain: &SideStats,
        ban: &SideStats,
    ) -> io::Result<()> {
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

    /// The DTM file's draws are the positions the ban decides.
    fn json(
        &self,
        material: Material,
        side: &str,
        plain: &SideStats,
        ban: &SideStats,
    ) -> serde_json::Value {
        json!({
            "material": material.to_string(), "to_move": side, "wins": plain.wins,
            "ban_wins": ban.wins, "losses": plain.losses, "ban_losses": ban.losses,
            "longest_win": plain.longest_win,
            "longest_win_position": shown(&plain.longest_win_position),
            "longest_exit": ban.longest_win,
            "longest_exit_position": shown(&ban.longest_win_position),
        })
    }

    /// No draws: the DTM file's draws are the positions the ban decides, counted by the ban
    /// file as the mover's wins and losses.
    fn index_entry(&self, table: &mut serde_json::Value, ban: [&SideStats; 2]) {
        let obj = table.as_object_mut().expect("an object");
        obj.remove("draws");
        obj.insert("ban_wins".into(), json!([ban[0].wins, ban[1].wins]));
        obj.insert("ban_losses".into(), json!([ban[0].losses, ban[1].losses]));
    }
}
