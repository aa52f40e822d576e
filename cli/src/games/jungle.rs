//! The Jungle and flip-game side of `jtb stats` (win, draw and loss counts with the longest win,
//! and what the clock rule changes: the DTC file's cursed wins, blessed losses and longest DTC)
//! and of `jtb moves`.

use std::io::{self, Write};

use jtb_edge::games::{EdgeGame, Jungle};
use jtb_probe::{Material, SideStats};
use serde_json::json;

use super::{flip, plain_moves_text, shown, FamilyStats, MovesText};

/// `jtb stats` of Jungle and the flip game.
pub struct Stats;

impl FamilyStats for Stats {
    fn header(&self, out: &mut dyn Write) -> io::Result<()> {
        writeln!(
            out,
            "{:<10} {:<5} {:>14} {:>14} {:>14} {:>8} {:>12} {:>14} {:>8}  longest win",
            "material",
            "move",
            "wins",
            "draws",
            "losses",
            "longest",
            "cursed wins",
            "blessed losses",
            "max DTC"
        )
    }

    fn row(
        &self,
        out: &mut dyn Write,
        material: Material,
        side: &str,
        plain: &SideStats,
        dtc: &SideStats,
    ) -> io::Result<()> {
        writeln!(
            out,
            "{:<10} {:<5} {:>14} {:>14} {:>14} {:>8} {:>12} {:>14} {:>8}  {}",
            material.to_string(),
            side,
            plain.wins,
            plain.draws,
            plain.losses,
            plain.longest_win,
            dtc.cursed_wins,
            dtc.blessed_losses,
            dtc.longest_win,
            plain.longest_win_position
        )
    }

    fn json(
        &self,
        material: Material,
        side: &str,
        plain: &SideStats,
        dtc: &SideStats,
    ) -> serde_json::Value {
        json!({
            "material": material.to_string(), "to_move": side, "wins": plain.wins,
            "draws": plain.draws, "losses": plain.losses, "longest_win": plain.longest_win,
            "longest_win_position": shown(&plain.longest_win_position),
            "cursed_wins": dtc.cursed_wins, "blessed_losses": dtc.blessed_losses,
            "longest_dtc": dtc.longest_win,
            "longest_dtc_position": shown(&dtc.longest_win_position),
        })
    }
}

/// A Jungle or flip-game position's moves, separated by spaces; a flip position with face-down
/// tiles hands its moves and flips to [`flip`].
impl MovesText for Jungle {
    fn moves_text(text: &str, pos: &jtb_probe::Position, json: bool) -> String {
        let moves = Jungle::moves(pos);
        if pos.hidden() != 0 && !pos.is_game_over() {
            return flip::moves_text(text, pos, &moves, json);
        }
        plain_moves_text(text, &moves, " ", json)
    }
}
