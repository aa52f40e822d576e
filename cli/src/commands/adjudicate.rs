//! `jtb adjudicate`: is a position decided at its clock? The rule is the library's
//! ([`jtb_probe::adjudicate`]); this prints it.

use jtb_probe::{RuleSet, Value};
use serde_json::json;

use crate::{
    input::{self, AnswerError, Tablebases},
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

fn judge(
    tbs: &mut Tablebases<RuleSet>,
    text: &str,
    rules: Option<RuleSet>,
    args: &Args,
) -> Result<String, AnswerError> {
    let pos = input::parse_with_clock(text, rules, args.clock)?;
    // The flip game's one-animal-each check needs no tables: a missing directory only matters
    // where the tables are asked.
    let (tables, open_error) = match tbs.get(pos.rules()) {
        Ok(tb) => (Some(tb), None),
        Err(e) => (None, Some(e.to_string())),
    };
    let v = jtb_probe::adjudicate(tables, &pos)?;
    // No tables for it: an error of its own (exit status 3), never "play on".
    if let jtb_probe::VerdictReason::NotCovered(why) = &v.reason {
        return Err(AnswerError::NotCovered(match (open_error, why) {
            (Some(e), None) => format!("not covered: {e}"),
            _ => v.reason.to_string(),
        }));
    }
    let reason = v.reason.to_string();
    Ok(if args.input.json {
        json!({
            "position": text,
            "dead_draw": v.dead_draw,
            "wdl": v.wdl().map(|w| w.name()),
            "dtm": v.value.and_then(Value::dtm),
            "dtc": v.dtc(),
            "rule_wdl": v.rule_wdl().map(|w| w.name()),
            "clock": pos.clock(),
            "reason": reason,
        })
        .to_string()
    } else {
        let verdict = if v.dead_draw { "dead draw" } else { "play on" };
        format!("{text}: {verdict}: {reason}")
    })
}

pub fn run(args: &Args) -> CliResult {
    let rules = args.input.jungle();
    let mut tbs = Tablebases::new(args.tables.dir.clone());
    let mut gambit_tbs = Tablebases::new(args.tables.dir.clone());
    let (mut uncovered, mut bad) = (false, false);
    let all_good = input::answer_each(&args.input.positions, args.input.json, true, |text| {
        let answer = if args.input.is_gambit(text) {
            input::refuse_clock(jtb_probe::gambit::Rules::NAME, args.clock)
                .and_then(|()| crate::gambit::adjudicate(&mut gambit_tbs, text, args.input.json))
        } else {
            judge(&mut tbs, text, rules, args)
        };
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
