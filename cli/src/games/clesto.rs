//! The Clesto side of `jtb stats`, of `jtb moves` and of the API's material index (RULES.md 6):
//! no draws, so it counts what the ban decides (the DTM file's draws, as the ban file's wins and losses, with
//! B's longest way out) where the other rule sets count draws and the clock rule.

use std::io::{self, Write};

use jtb_edge::games::{Clesto, EdgeGame};
use jtb_probe::{Material, Move, Position, SideStats};
use serde_json::json;

use super::{shown, FamilyStats, MovesText};

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

    /// Hungry animals (RULES.md 6): the page shows who must capture.
    fn board_fields(&self, board: &mut serde_json::Value) {
        board["hunger"] = json!(true);
        board["game"] = json!("clesto");
        board["title"] = json!("Clesto");
    }
}

/// A Clesto position's moves, a move that starves animals printed `e3e4(starves:Le5,Dd4)`; the
/// JSON adds `starvations`, each move that starves with the animals it starves.
impl MovesText for Clesto {
    fn moves_text(text: &str, pos: &Position, json: bool) -> String {
        let moves = Clesto::moves(pos);
        let starves: Vec<Vec<String>> = moves
            .iter()
            .map(|m| {
                let mv = Move::parse(m, pos).expect("a listed move parses");
                jtb_edge::starvations(pos, mv).expect("a listed move is legal")
            })
            .collect();
        if json {
            let starvations: Vec<serde_json::Value> = moves
                .iter()
                .zip(&starves)
                .filter(|(_, s)| !s.is_empty())
                .map(|(m, s)| json!({"move": m, "starves": s}))
                .collect();
            return json!({"position": text, "moves": moves, "starvations": starvations})
                .to_string();
        }
        let shown: Vec<String> = moves
            .iter()
            .zip(&starves)
            .map(|(m, s)| match s.is_empty() {
                true => m.clone(),
                false => format!("{m}(starves:{})", s.join(",")),
            })
            .collect();
        shown.join(" ")
    }
}
