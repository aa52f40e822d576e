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

fn moves_of(text: &str, rules: Option<RuleSet>) -> Result<Vec<String>, AnswerError> {
    let pos: Position = input::parse(text, rules)?;
    if pos.hidden() != 0 {
        return Err(AnswerError::HiddenTiles);
    }
    Ok(pos.legal_moves().iter().map(ToString::to_string).collect())
}

/// Prints the moves of each position; `Ok(false)` when some line was bad.
pub fn run(args: &Args) -> io::Result<bool> {
    input::answer_each(&args.input.positions, args.input.json, false, |text| {
        let moves = moves_of(text, args.input.rules)?;
        Ok(if args.input.json {
            json!({"position": text, "moves": moves}).to_string()
        } else {
            moves.join(" ")
        })
    })
}
