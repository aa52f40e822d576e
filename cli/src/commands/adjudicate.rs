//! `jtb adjudicate`: is a position decided at its clock? The rule is the library's
//! ([`jtb_probe::adjudicate`], Animal Gambit's [`jtb_probe::Tablebase::adjudicate`]), through
//! the edge ([`jtb_edge::Tables::adjudicate`]); this prints it.

use jtb_edge::{AnyPosition, Tables};

use crate::{
    input::{self, AnswerError},
    CliResult,
};

#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    input: input::PositionArgs,
    #[command(flatten)]
    tables: input::TablesArg,
    /// Half-move clock, overriding the position text's.
    #[arg(long)]
    clock: Option<u32>,
}

fn judge(tables: &Tables, text: &str, args: &Args) -> Result<String, AnswerError> {
    let pos = AnyPosition::parse(text, args.input.rules, args.clock)?;
    let v = tables.adjudicate(pos)?;
    Ok(if args.input.json {
        v.json(text).to_string()
    } else {
        format!("{text}: {}: {}", v.status(), v.reason())
    })
}

pub fn run(args: &Args) -> CliResult {
    let tables = Tables::new(&args.tables.dir, jtb_probe::DEFAULT_CACHE_BYTES);
    let (mut uncovered, mut bad) = (false, false);
    let all_good = input::answer_each(&args.input.positions, args.input.json, true, |text| {
        let answer = judge(&tables, text, args);
        match &answer {
            Err(AnswerError::NotCovered(_)) => uncovered = true,
            Err(_) => bad = true,
            Ok(_) => {}
        }
        answer
    })?;
    if !all_good && uncovered && !bad {
        return Err(input::Uncovered.into());
    }
    Ok(all_good)
}
