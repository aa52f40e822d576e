//! `jtb probe`: value, distance to mate, best move and line of positions, in any game. The
//! answers and their text are the edge's ([`jtb_edge::Tables::probe`], [`jtb_edge::Answer::text`]).

use jtb_edge::{AnyPosition, Tables};

use crate::{input, CliResult};

#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    input: input::PositionArgs,
    #[command(flatten)]
    tables: input::TablesArg,
    /// Also give the whole best line, and the whole line under the clock rule.
    #[arg(long)]
    line: bool,
    /// Half-move clock for the clock rule, overriding the position text's.
    #[arg(long)]
    clock: Option<u32>,
}

pub fn run(args: &Args) -> CliResult {
    let tables = Tables::new(&args.tables.dir, jtb_probe::DEFAULT_CACHE_BYTES);
    let json = args.input.json;
    let all_good = input::answer_each(&args.input.positions, json, true, |text| {
        let pos = AnyPosition::parse(text, args.input.rules, args.clock)?;
        let answer = tables.probe(pos, args.line)?;
        Ok(if json {
            answer.json(text).to_string()
        } else {
            answer.text(text)
        })
    })?;
    Ok(all_good)
}
