//! `jtb adjudicate`: is a position decided? Jungle positions by their tables, flip positions
//! by the built-in one-animal-each check.

use jtb_probe::{dead_draw, Adjudication, NotApplicable, ProbeError, RuleSet, Value};
use serde_json::json;

use crate::{input, probe::Tablebases, CliResult};

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

/// The verdict on one position.
pub struct Verdict {
    pub dead_draw: bool,
    pub value: Option<Value>,
    pub reason: String,
}

fn judge(tbs: &mut Tablebases, text: &str, args: &Args) -> Result<Verdict, String> {
    let mut pos = input::parse(text, args.input.rules).map_err(|e| e.to_string())?;
    if args.clock.is_some() {
        pos.set_clock(args.clock).map_err(|e| e.to_string())?;
    }
    if pos.rules() == RuleSet::Flip4x4 {
        return flip_verdict(&pos);
    }
    let tb = match tbs.get(pos.rules()) {
        Ok(tb) => tb,
        Err(e) => {
            return Ok(Verdict {
                dead_draw: false,
                value: None,
                reason: format!("not covered: {e}"),
            })
        }
    };
    match tb.probe_dtm(&pos) {
        Ok(Value::Draw) => Ok(Verdict {
            dead_draw: true,
            value: Some(Value::Draw),
            reason: "the tables say neither side can force a win".into(),
        }),
        Ok(v) => Ok(Verdict {
            dead_draw: false,
            value: Some(v),
            reason: format!("{} to move: {v}", pos.turn()),
        }),
        Err(e @ (ProbeError::TooManyPieces { .. } | ProbeError::MissingTable { .. })) => {
            Ok(Verdict {
                dead_draw: false,
                value: None,
                reason: format!("not covered: {e}"),
            })
        }
        Err(e) => Err(e.to_string()),
    }
}

/// The flip game's one-animal-each check; needs no tables.
fn flip_verdict(pos: &jtb_probe::Position) -> Result<Verdict, String> {
    let adjudication = dead_draw(pos, None);
    if adjudication == Adjudication::NotApplicable(NotApplicable::GameOver) {
        return Err(NotApplicable::GameOver.to_string());
    }
    let reason = match adjudication {
        Adjudication::DeadDraw(r) => r.to_string(),
        Adjudication::PlayOn { winner, dtm } => {
            format!("{winner} forces the capture in {dtm} plies")
        }
        Adjudication::NotApplicable(r) => format!("not applicable: {r}"),
    };
    Ok(Verdict {
        dead_draw: matches!(adjudication, Adjudication::DeadDraw(_)),
        value: adjudication.value_for(pos),
        reason,
    })
}

pub fn run(args: &Args) -> CliResult {
    let mut tbs = Tablebases::new(args.tables.dir.clone());
    let all_good = input::answer_each(&args.input.positions, args.input.json, |text| {
        let v = judge(&mut tbs, text, args).map_err(|e| {
            if args.input.json {
                e
            } else {
                format!("{text}: {e}")
            }
        })?;
        Ok(if args.input.json {
            json!({
                "position": text,
                "dead_draw": v.dead_draw,
                "wdl": v.value.map(|x| x.wdl().name()),
                "dtm": v.value.and_then(Value::dtm),
                "reason": v.reason,
            })
            .to_string()
        } else {
            let verdict = if v.dead_draw { "dead draw" } else { "play on" };
            format!("{text}: {verdict}: {}", v.reason)
        })
    })?;
    Ok(all_good)
}
