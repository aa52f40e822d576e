//! `jtb moves`: the legal moves of positions (Animal Gambit: every distinct turn).

use std::io;

use jtb_probe::{gambit, IllegalMove, Move, Position, RuleSet};
use serde_json::json;

use crate::input::{self, AnswerError, Rules};

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
        // RULES.md 8: a flip of each face-down tile (`?a4`) and the revealed animals' steps,
        // sorted as ASCII strings (flips first), as the API lists them.
        let flips = pos
            .board()
            .squares()
            .filter(|&sq| pos.hidden() & jtb_probe::bit(sq) != 0)
            .map(|sq| format!("?{sq}"));
        let steps = pos.revealed_moves().into_iter().map(|mv| mv.to_string());
        let mut moves: Vec<String> = flips.chain(steps).collect();
        moves.sort_unstable();
        let moves = moves
            .into_iter()
            .map(|mv| Listed {
                mv,
                starves: Vec::new(),
            })
            .collect();
        return Ok((pos, moves));
    }
    let moves = pos
        .legal_moves()
        .into_iter()
        .map(|mv| Listed {
            mv: mv.to_string(),
            starves: starvations(&pos, mv).expect("a listed move is legal"),
        })
        .collect();
    Ok((pos, moves))
}

/// The animals that `mv` starves (Clesto), each as its letter and its square after the move
/// (`Cb1`); empty outside Clesto.
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

/// The answer line of a Jungle-family position. In Clesto a move that starves animals is
/// printed `e3e4(starves:Le5,Dd4)`, and the JSON has `starvations`.
fn jungle_line(text: &str, rules: Option<RuleSet>, json: bool) -> Result<String, AnswerError> {
    let (pos, moves) = moves_of(text, rules)?;
    Ok(if json {
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
}

/// The answer line of an Animal Gambit position: every distinct turn in its canonical text,
/// sorted as ASCII strings, separated by `, ` in the plain output (turn text has spaces).
fn gambit_line(text: &str, json: bool) -> Result<String, AnswerError> {
    let pos: gambit::Position = text.parse()?;
    let turns: Vec<String> = pos.turns().iter().map(ToString::to_string).collect();
    Ok(if json {
        json!({"position": text, "moves": turns}).to_string()
    } else {
        turns.join(", ")
    })
}

/// Prints the moves (turns) of each position; `Ok(false)` when some line was bad. Without
/// `--rules` an 8x8 board is Animal Gambit's.
pub fn run(args: &Args) -> io::Result<bool> {
    let json = args.input.json;
    input::answer_each(&args.input.positions, json, false, |text| {
        match args.input.rules {
            Some(Rules::AnimalGambit) => gambit_line(text, json),
            None if input::is_gambit_shape(text) => gambit_line(text, json),
            Some(Rules::Jungle(r)) => jungle_line(text, Some(r), json),
            None => jungle_line(text, None, json),
        }
    })
}
