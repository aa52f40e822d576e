//! `jtb probe`: value, distance to mate, best move and line of positions.

use std::{collections::HashMap, path::PathBuf};

use jtb_probe::{Position, ProbeError, RuleSet, Tablebase, Value};
use serde_json::json;

use crate::{board, input, CliResult};

#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    input: input::PositionArgs,
    #[command(flatten)]
    tables: input::TablesArg,
    /// Also give the whole best line.
    #[arg(long)]
    line: bool,
}

/// Tablebases of each rule set under one root, opened on first use.
pub struct Tablebases {
    root: PathBuf,
    open: HashMap<RuleSet, Result<Tablebase, String>>,
}

impl Tablebases {
    pub fn new(root: PathBuf) -> Tablebases {
        Tablebases {
            root,
            open: HashMap::new(),
        }
    }

    pub fn get(&mut self, rules: RuleSet) -> Result<&Tablebase, String> {
        let root = &self.root;
        self.open
            .entry(rules)
            .or_insert_with(|| Tablebase::open(root, rules).map_err(|e| e.to_string()))
            .as_ref()
            .map_err(Clone::clone)
    }
}

struct Answer {
    pos: Position,
    value: Value,
    best: Option<String>,
    line: Option<Vec<String>>,
}

fn answer(tbs: &mut Tablebases, text: &str, args: &Args) -> Result<Answer, String> {
    let pos = input::parse(text, args.input.rules).map_err(|e| e.to_string())?;
    let tb = tbs.get(pos.rules())?;
    let err = |e: ProbeError| e.to_string();
    let value = tb.probe_dtm(&pos).map_err(err)?;
    let best = if value == Value::Draw {
        None
    } else {
        tb.best_move(&pos).map_err(err)?.map(|m| m.mv.to_string())
    };
    let line = if args.line {
        Some(
            tb.line(&pos)
                .map_err(err)?
                .iter()
                .map(|s| s.mv.to_string())
                .collect(),
        )
    } else {
        None
    };
    Ok(Answer {
        pos,
        value,
        best,
        line,
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
        });
        if let Some(line) = &a.line {
            obj["line"] = json!(line);
        }
        return obj.to_string();
    }
    let mut s = format!("{text}\n{}rules: {}\n", board::draw(&a.pos), a.pos.rules());
    s += &match a.value {
        Value::Draw => "value: draw\n".to_owned(),
        v => format!(
            "value: {} for {} to move, {} plies to the end\n",
            v.wdl(),
            a.pos.turn(),
            v.dtm().unwrap_or(0)
        ),
    };
    if let Some(b) = &a.best {
        s += &format!("best: {b}\n");
    }
    if let Some(line) = &a.line {
        s += &format!("line: {}\n", line.join(" "));
    }
    s
}

pub fn run(args: &Args) -> CliResult {
    let mut tbs = Tablebases::new(args.tables.dir.clone());
    let all_good = input::answer_each(&args.input.positions, args.input.json, |text| {
        answer(&mut tbs, text, args)
            .map(|a| print(text, &a, args.input.json))
            .map_err(|e| {
                if args.input.json {
                    e
                } else {
                    format!("{text}: {e}")
                }
            })
    })?;
    Ok(all_good)
}
