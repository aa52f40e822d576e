//! `jtb probe`: value, distance to mate, best move and line of positions, in any game. The
//! answers are the edge's ([`jtb_edge::Tables::probe`]); each game's module of [`games`] prints
//! its own.

use jtb_edge::{Answer, AnyPosition, Tables};

use crate::{games, input, CliResult};

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
        Ok(match &answer {
            _ if json => answer.json(text).to_string(),
            Answer::Jungle(a) => games::jungle::probe_text(text, a),
            Answer::Clesto(a) => games::clesto::probe_text(text, a),
            Answer::Gambit(a) => games::gambit::probe_text(text, a),
            Answer::Chance(a) => games::flip::probe_text(text, a),
        })
    })?;
    Ok(all_good)
}
