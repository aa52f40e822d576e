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
    let mut reason = v.reason.to_string();
    if let (Some(e), jtb_probe::VerdictReason::NotCovered(None)) = (open_error, &v.reason) {
        reason = format!("not covered: {e}");
    }
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
    let all_good = input::answer_each(&args.input.positions, args.input.json, true, |text| {
        if args.input.is_gambit(text) {
            input::refuse_clock(jtb_probe::gambit::Rules::NAME, args.clock)?;
            return crate::gambit::adjudicate(&mut gambit_tbs, text, args.input.json);
        }
        judge(&mut tbs, text, rules, args)
    })?;
    Ok(all_good)
}
