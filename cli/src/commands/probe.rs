//! `jtb probe`: value, distance to mate, best move and line of positions, in any game. The
//! answers are the edge's ([`jtb_edge::Tables::probe`]); this prints them.

use jtb_edge::{Answer, AnyPosition, ClestoAnswer, GambitAnswer, JungleAnswer, Tables};
use jtb_probe::{ClestoValue, Plies, Value};

use crate::{board, input, CliResult};

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

fn print(text: &str, a: &JungleAnswer) -> String {
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

fn print_clesto(text: &str, a: &ClestoAnswer) -> String {
    let exit = a.value.exit();
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

fn print_gambit(text: &str, a: &GambitAnswer) -> String {
    let mut s = format!("{text}\nrules: {}\n", jtb_probe::gambit::Rules::NAME);
    s += &match a.value {
        Value::Draw => "value: draw (repetition: neither side can force an end; the repetition \
                        rule decides with the history)\n"
            .to_owned(),
        v => format!(
            "value: {} for {} to move, {} to the end ({})\n",
            v.wdl(),
            a.pos.turn(),
            jtb_probe::Turns(v.dtm().unwrap_or(0)),
            a.category
        ),
    };
    if let Some(b) = &a.best {
        s += &format!("best: {b}\n");
    }
    if let Some(line) = &a.line {
        s += &format!("line: {}\n", line.join(", "));
    }
    s.trim_end().to_owned()
}

/// A chance value as text: `score 5/8 (62.5%): win 1/2 (50.0%), draw 1/4 (25.0%), loss 1/4
/// (25.0%)`.
fn chance_text(v: jtb_probe::flip::ChanceValue) -> String {
    let part = |f: jtb_probe::flip::Fraction| format!("{f} ({:.1}%)", f.percent());
    format!(
        "score {}: win {}, draw {}, loss {}",
        part(v.score()),
        part(v.win()),
        part(v.draw()),
        part(v.loss())
    )
}

fn print_chance(text: &str, a: &jtb_edge::ChanceAnswer) -> String {
    let mut s = format!("{text}\nrules: {}\n", a.pos.rules());
    s += &format!(
        "value: {} for {} to move at clock {}\n",
        chance_text(a.value),
        a.pos.turn(),
        a.pos.clock().unwrap_or(0)
    );
    if let Some(b) = &a.best {
        s += &format!("best: {}\n", b.text);
    }
    s += "moves:\n";
    for m in &a.moves {
        s += &format!("  {:<5} {}\n", m.text, chance_text(m.value));
        for (animal, chance, v, pos) in &m.outcomes {
            s += &format!("        {animal} {chance:<4} {}  {pos}\n", chance_text(*v));
        }
    }
    s.trim_end().to_owned()
}

pub fn run(args: &Args) -> CliResult {
    let tables = Tables::new(&args.tables.dir, jtb_probe::DEFAULT_CACHE_BYTES);
    let json = args.input.json;
    let all_good = input::answer_each(&args.input.positions, json, true, |text| {
        let pos = AnyPosition::parse(text, args.input.rules, args.clock)?;
        let answer = tables.probe(pos, args.line)?;
        Ok(match &answer {
            _ if json => answer.json(text).to_string(),
            Answer::Jungle(a) => print(text, a),
            Answer::Clesto(a) => print_clesto(text, a),
            Answer::Gambit(a) => print_gambit(text, a),
            Answer::Chance(a) => print_chance(text, a),
        })
    })?;
    Ok(all_good)
}
