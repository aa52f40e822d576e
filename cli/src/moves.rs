//! `jtb moves`: the legal moves of positions.

use std::io;

use jtb_probe::{Position, RuleSet};
use serde_json::json;

use crate::input::{self, AnswerError};

#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    input: input::PositionArgs,
}

/// A legal move and, in Clesto, the animals it starves (letter and square after the move).
struct Listed {
    mv: String,
    starves: Vec<String>,
}

fn moves_of(text: &str, rules: Option<RuleSet>) -> Result<(Position, Vec<Listed>), AnswerError> {
    let pos: Position = input::parse(text, rules)?;
    if pos.hidden() != 0 {
        return Err(AnswerError::HiddenTiles);
    }
    let moves = pos
        .legal_moves()
        .into_iter()
        .map(|mv| Listed {
            mv: mv.to_string(),
            starves: pos
                .starvations(mv)
                .expect("a listed move is legal")
                .into_iter()
                .map(|(piece, sq)| format!("{}{sq}", piece.letter()))
                .collect(),
        })
        .collect();
    Ok((pos, moves))
}

/// Prints the moves of each position; `Ok(false)` when some line was bad. In Clesto a move
/// that starves animals is printed `e3e4(starves:Le5,Dd4)`, and the JSON has `starvations`.
pub fn run(args: &Args) -> io::Result<bool> {
    input::answer_each(&args.input.positions, args.input.json, false, |text| {
        let (pos, moves) = moves_of(text, args.input.rules)?;
        Ok(if args.input.json {
            let names: Vec<&str> = moves.iter().map(|m| m.mv.as_str()).collect();
            let mut out = json!({"position": text, "moves": names});
            if pos.rules().has_hunger() {
                out["starvations"] = moves
                    .iter()
                    .filter(|m| !m.starves.is_empty())
                    .map(|m| json!({"move": m.mv, "starves": m.starves}))
                    .collect();
            }
            out.to_string()
        } else {
            let shown: Vec<String> = moves
                .iter()
                .map(|m| match m.starves.is_empty() {
                    true => m.mv.clone(),
                    false => format!("{}(starves:{})", m.mv, m.starves.join(",")),
                })
                .collect();
            shown.join(" ")
        })
    })
}
