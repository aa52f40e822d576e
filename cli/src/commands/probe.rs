//! `jtb probe`: value, distance to mate, best move and line of positions.

use jtb_probe::{ClestoValue, LineStep, Plies, Position, RuleSet, RuleValue, Tablebase, Value};
use serde_json::json;

use crate::{
    board,
    input::{self, AnswerError, Tablebases},
    CliResult,
};

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

struct Answer {
    pos: Position,
    value: Value,
    rule: RuleValue,
    best: Option<String>,
    line: Option<Vec<String>>,
    rule_line: Option<Vec<String>>,
}

fn answer(
    tbs: &mut Tablebases<RuleSet>,
    pos: Position,
    args: &Args,
) -> Result<Answer, AnswerError> {
    let tb = tbs.get(pos.rules())?;
    let value = tb.probe_dtm(&pos)?;
    let rule = tb.probe_rule(&pos)?;
    let best = if value == Value::Draw {
        None
    } else {
        tb.best_move(&pos)?.map(|m| m.mv.to_string())
    };
    let (line, rule_line) = if args.line {
        let moves = |mvs: &mut dyn Iterator<Item = jtb_probe::Move>| {
            mvs.map(|m| m.to_string()).collect::<Vec<_>>()
        };
        (
            Some(moves(&mut tb.line(&pos)?.iter().map(|s| s.mv))),
            Some(moves(&mut tb.rule_line(&pos)?.iter().map(|s| s.mv))),
        )
    } else {
        (None, None)
    };
    Ok(Answer {
        pos,
        value,
        rule,
        best,
        line,
        rule_line,
    })
}

fn print(text: &str, a: &Answer, json: bool) -> String {
    if json {
        let mut obj = json!({
            "position": text,
            "rules": a.pos.rules().name(),
            "wdl": a.value.wdl().name(),
            "dtm": a.value.dtm(),
            "best": a.best,
            "dtc": a.rule.dtc.dtm(),
            "category": a.rule.category.name(),
            "clock": a.rule.clock,
            "rule_wdl": a.rule.wdl.name(),
        });
        if let Some(line) = &a.line {
            obj["line"] = json!(line);
        }
        if let Some(line) = &a.rule_line {
            obj["rule_line"] = json!(line);
        }
        return obj.to_string();
    }
    let mut s = format!("{text}\n{}rules: {}\n", board::draw(&a.pos), a.pos.rules());
    s += &match a.value {
        Value::Draw => "value: draw\n".to_owned(),
        v => format!(
            "value: {} for {} to move, {} to the end\n",
            v.wdl(),
            a.pos.turn(),
            Plies(v.dtm().unwrap_or(0))
        ),
    };
    s += &format!(
        "clock rule: {} at clock {} of {} ({}; {})\n",
        a.rule.wdl,
        a.rule.clock,
        a.rule.limit,
        a.rule.category,
        match a.rule.dtc.dtm() {
            Some(d) => format!("{} to the next capture or the end", Plies(d)),
            None => "no capture can be forced".to_owned(),
        }
    );
    if let Some(b) = &a.best {
        s += &format!("best: {b}\n");
    }
    if let Some(line) = &a.line {
        s += &format!("line: {}\n", line.join(" "));
    }
    if let Some(line) = &a.rule_line {
        s += &format!("rule line: {}\n", line.join(" "));
    }
    s
}

/// A Clesto position's answer (RULES.md 6): no draws, no clock; the best line stops where the
/// unbanned side wins only by the ban.
struct ClestoAnswer {
    pos: Position,
    value: ClestoValue,
    best: Option<String>,
    line: Option<Vec<String>>,
    /// Whether the line stops at a position the ban alone decides.
    line_stops_at_ban: bool,
}

fn clesto_answer(tb: &Tablebase, pos: Position, args: &Args) -> Result<ClestoAnswer, AnswerError> {
    let value = tb.probe_clesto(&pos)?;
    let best = tb.clesto_best_move(&pos)?.map(|(mv, _)| mv.to_string());
    let (line, line_stops_at_ban) = if args.line {
        let steps = tb.clesto_line(&pos)?;
        let stops = line_stops_at_ban(value, &steps);
        let moves = steps.iter().map(|s| s.mv.to_string()).collect();
        (Some(moves), stops)
    } else {
        (None, false)
    };
    Ok(ClestoAnswer {
        pos,
        value,
        best,
        line,
        line_stops_at_ban,
    })
}

/// Whether a Clesto best line from a position of value `root` stops at a position that the
/// unbanned side wins only by the ban (RULES.md 6.6), not at the end of the game: its last move
/// leaves a position on the board, or it has no move because `root` is such a position.
pub fn line_stops_at_ban(root: ClestoValue, line: &[LineStep<ClestoValue>]) -> bool {
    match line.last() {
        Some(step) => step.value.is_some(),
        None => root.dtm().is_none(),
    }
}

fn print_clesto(text: &str, a: &ClestoAnswer, json: bool) -> String {
    let exit = a.value.exit();
    if json {
        let mut obj = json!({
            "position": text,
            "rules": a.pos.rules().name(),
            "wdl": a.value.wdl().name(),
            "dtm": a.value.dtm(),
            "category": a.value.category(),
            "exit": exit,
            "best": a.best,
        });
        if let Some(line) = &a.line {
            obj["line"] = json!(line);
            obj["line_stops_at_ban"] = json!(a.line_stops_at_ban);
        }
        return obj.to_string();
    }
    let mut s = format!("{text}\n{}rules: {}\n", board::draw(&a.pos), a.pos.rules());
    let banned = jtb_probe::banned_side(jtb_probe::Material::of(&a.pos));
    s += &match a.value {
        ClestoValue::Plain(v) => format!(
            "value: {} for {} to move, {} to the end\n",
            v.wdl(),
            a.pos.turn(),
            Plies(v.dtm().unwrap_or(0))
        ),
        v => format!(
            "value: {} for {} to move by the repetition ban ({}): {}\n",
            v.wdl(),
            a.pos.turn(),
            v.category(),
            match exit {
                Some(e) => format!(
                    "{banned}, the banned side, forces the game out of this material into a \
                     position it wins in {}",
                    Plies(e)
                ),
                None => format!(
                    "{banned}, the banned side, can neither win nor repeat forever, so {} wins",
                    banned.other()
                ),
            }
        ),
    };
    if let Some(b) = &a.best {
        s += &format!("best: {b}\n");
    }
    if let Some(line) = &a.line {
        s += &format!("line: {}\n", line.join(" "));
        if a.line_stops_at_ban {
            s += "(the line stops where only the repetition ban decides)\n";
        }
    }
    s
}

pub fn run(args: &Args) -> CliResult {
    let rules = args.input.jungle();
    let mut tbs = Tablebases::new(args.tables.dir.clone());
    let mut gambit_tbs = Tablebases::new(args.tables.dir.clone());
    let all_good = input::answer_each(&args.input.positions, args.input.json, true, |text| {
        if args.input.is_gambit(text) {
            input::refuse_clock(jtb_probe::gambit::Rules::NAME, args.clock)?;
            return crate::gambit::probe(&mut gambit_tbs, text, args.line, args.input.json);
        }
        let pos = input::parse_with_clock(text, rules, args.clock)?;
        if pos.rules().has_hunger() {
            let tb = tbs.get(pos.rules())?;
            return clesto_answer(tb, pos, args).map(|a| print_clesto(text, &a, args.input.json));
        }
        answer(&mut tbs, pos, args).map(|a| print(text, &a, args.input.json))
    })?;
    Ok(all_good)
}
