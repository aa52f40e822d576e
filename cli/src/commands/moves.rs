//! `jtb moves`: the legal moves of positions (Animal Gambit: every distinct turn), as the
//! edge lists them ([`AnyPosition::moves`]), each game printing its own
//! ([`MovesText`]).

use std::io;

use jtb_edge::{each_game, AnyPosition};

use crate::{games::MovesText, input};

#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    input: input::PositionArgs,
}

/// Prints the moves (turns) of each position; `Ok(false)` when some line was bad. Without
/// `--rules` an 8x8 board is Animal Gambit's.
pub fn run(args: &Args) -> io::Result<bool> {
    let json = args.input.json;
    input::answer_each(&args.input.positions, json, false, |text| {
        let pos = AnyPosition::parse(text, args.input.rules, None)?;
        Ok(each_game!(&pos, AnyPosition, |p, G| G::moves_text(
            text, p, json
        )))
    })
}
