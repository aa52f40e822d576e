//! The Clesto side of `jtb stats`, of `jtb probe` and of the API's material index (RULES.md 6): no draws, so it
//! counts what the ban decides (the DTM file's draws, as the ban file's wins and losses, with
//! B's longest way out) where the other rule sets count draws and the clock rule.

use std::io::{self, Write};

use jtb_edge::{
    games::{Clesto, EdgeGame},
    ClestoAnswer,
};
use jtb_probe::{ClestoValue, IllegalMove, Material, Move, Plies, Position, SideStats};
use serde_json::json;

use super::{shown, FamilyStats, MovesText};
use crate::board;

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
    }
}

/// What `jtb probe` prints of a Clesto position (`text`, as given).
pub fn probe_text(text: &str, a: &ClestoAnswer) -> String {
    let exit = a.value.exit();
    let mut s = format!("{text}\n{}rules: {}\n", board::draw(&a.pos), a.pos.rules());
    let banned = jtb_probe::banned_side(jtb_probe::Material::of(&a.pos));
    s += &match a.value {
        ClestoValue::Plain(v) => format!(
            "value: {} for {} to move, {} to the end\n",
            v.wdl(),
            a.pos.turn(),
            Plies(v.dtm().unwrap_or(0))
        ),
        v => format!(
            "value: {} for {} to move by the repetition ban ({}): {}\n",
            v.wdl(),
            a.pos.turn(),
            v.category(),
            match exit {
                Some(e) => format!(
                    "{banned}, the banned side, forces the game out of this material into a \
                     position it wins in {}",
                    Plies(e)
                ),
                None => format!(
                    "{banned}, the banned side, can neither win nor repeat forever, so {} wins",
                    banned.other()
                ),
            }
        ),
    };
    if let Some(b) = &a.best {
        s += &format!("best: {b}\n");
    }
    if let Some(line) = &a.line {
        s += &format!("line: {}\n", line.join(" "));
        if a.line_stops_at_ban {
            s += "(the line stops where only the repetition ban decides)\n";
        }
    }
    s
}

/// The animals that `mv` starves, each as its letter and its square after the move (`Cb1`).
///
/// # Errors
/// `mv` is not legal in `pos`.
pub fn starvations(pos: &Position, mv: Move) -> Result<Vec<String>, IllegalMove> {
    Ok(pos
        .starvations(mv)?
        .into_iter()
        .map(|(piece, sq)| format!("{}{sq}", piece.letter()))
        .collect())
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
                starvations(pos, mv).expect("a listed move is legal")
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
