//! `jtb moves`: the legal moves of positions (Animal Gambit: every distinct turn), as the
//! edge lists them ([`AnyPosition::moves`]).

use std::io;

use jtb_edge::AnyPosition;
use jtb_probe::{IllegalMove, Move, Position};
use serde_json::json;

use crate::input::{self, AnswerError};

#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    input: input::PositionArgs,
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

/// A flip's outcomes: the animal's letter, its chance and the position it gives.
type Outcomes = Option<Vec<(String, String, String)>>;

/// Each flip of a position with face-down tiles (`?a4`, ASCII order) and, where the hidden set
/// is known (the `?:` field, or nothing captured yet), its outcomes, each equally likely
/// (RULES.md 8); `None` where it is not.
fn flips(pos: &AnyPosition, moves: &[String]) -> Vec<(String, Outcomes)> {
    moves
        .iter()
        .filter(|mv| mv.starts_with('?'))
        .map(|mv| {
            let outcomes = pos.flip_outcomes(mv).ok().map(|o| {
                o.into_iter()
                    .map(|(animal, of, position)| {
                        let chance = jtb_probe::chance_text(of);
                        (animal.to_string(), chance, position.to_string())
                    })
                    .collect()
            });
            (mv.clone(), outcomes)
        })
        .collect()
}

/// The answer line of a position: its moves sorted as ASCII strings (a flip position with
/// face-down tiles: a flip of each tile, `?a4`, and the revealed animals' steps, RULES.md 8).
/// In Clesto a move that starves animals is printed `e3e4(starves:Le5,Dd4)`, and the JSON has
/// `starvations`. Animal Gambit's turns are separated by `, ` (turn text has spaces).
fn line(text: &str, args: &Args) -> Result<String, AnswerError> {
    let pos = AnyPosition::parse(text, args.input.rules, None)?;
    let moves = pos.moves();
    let starves: Vec<Vec<String>> = match &pos {
        AnyPosition::Clesto(p) => moves
            .iter()
            .map(|m| {
                let mv = Move::parse(m, p).expect("a listed move parses");
                starvations(p, mv).expect("a listed move is legal")
            })
            .collect(),
        _ => vec![Vec::new(); moves.len()],
    };
    let flips = match &pos {
        AnyPosition::Jungle(p) if p.hidden() != 0 && !p.is_game_over() => Some(flips(&pos, &moves)),
        _ => None,
    };
    Ok(if args.input.json {
        let mut out = json!({"position": text, "moves": moves});
        if let Some(flips) = flips {
            out["flips"] = flips
                .iter()
                .map(|(mv, outcomes)| {
                    let outcomes: Option<Vec<serde_json::Value>> = outcomes.as_ref().map(|o| {
                        o.iter()
                            .map(|(piece, p, pos)| {
                                json!({"animal": piece, "probability": p, "position": pos})
                            })
                            .collect()
                    });
                    json!({"move": mv, "outcomes": outcomes})
                })
                .collect();
        }
        if let AnyPosition::Clesto(_) = &pos {
            out["starvations"] = moves
                .iter()
                .zip(&starves)
                .filter(|(_, s)| !s.is_empty())
                .map(|(m, s)| json!({"move": m, "starves": s}))
                .collect();
        }
        out.to_string()
    } else if matches!(pos, AnyPosition::Gambit(_)) {
        moves.join(", ")
    } else if let Some(flips) = flips {
        // The moves, then, where the hidden set is known, a line per flip with each outcome,
        // its chance and the position it gives.
        let mut out = moves.join(" ");
        for (mv, outcomes) in flips {
            if let Some(o) = outcomes {
                let shown: Vec<String> = o
                    .iter()
                    .map(|(piece, p, pos)| format!("{piece} {p} {pos}"))
                    .collect();
                out += &format!("\n  {mv}: {}", shown.join("; "));
            }
        }
        out
    } else {
        let shown: Vec<String> = moves
            .iter()
            .zip(&starves)
            .map(|(m, s)| match s.is_empty() {
                true => m.clone(),
                false => format!("{m}(starves:{})", s.join(",")),
            })
            .collect();
        shown.join(" ")
    })
}

/// Prints the moves (turns) of each position; `Ok(false)` when some line was bad. Without
/// `--rules` an 8x8 board is Animal Gambit's.
pub fn run(args: &Args) -> io::Result<bool> {
    input::answer_each(&args.input.positions, args.input.json, false, |text| {
        line(text, args)
    })
}
