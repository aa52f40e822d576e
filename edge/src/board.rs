//! A position of the Jungle family drawn as text for people (`jtb probe`'s board).

use std::fmt::Write;

use jtb_probe::{bit, Color, Position, Square};

/// The board with rank and file labels: pieces by letter, `~` water, `#` den, `^` trap, `.`
/// other land, `?` face-down tile.
pub(crate) fn draw(pos: &Position) -> String {
    let board = pos.board();
    let mut out = String::new();
    for rank in (0..board.height).rev() {
        let _ = write!(out, "{} ", rank + 1);
        for file in 0..board.width {
            let sq = Square::new(file, rank);
            let traps = board.traps(Color::Red) | board.traps(Color::Blue);
            let c = match pos.piece_at(sq) {
                Some(p) => p.letter(),
                None if pos.hidden() & bit(sq) != 0 => '?',
                None if board.is_water(sq) => '~',
                None if board.is_den(sq) => '#',
                None if traps & bit(sq) != 0 => '^',
                None => '.',
            };
            let _ = write!(out, " {c}");
        }
        out.push('\n');
    }
    out.push_str("  ");
    for file in 0..board.width {
        let _ = write!(out, " {}", (b'a' + file) as char);
    }
    out.push('\n');
    out
}
