//! `jtb stats`: win/draw/loss counts and longest wins per material and side to move, and what
//! the clock rule changes: the longest DTC, cursed wins and blessed losses.

use jtb_probe::{format::table_path, Kind, TableFile, Tablebase};
use serde_json::json;
use std::io::Write;

use crate::{input, CliResult};

#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    set: input::TableSetArgs,
    /// One JSON object per material and side to move.
    #[arg(long)]
    json: bool,
}

pub fn run(args: &Args) -> CliResult {
    let mut out = std::io::stdout().lock();
    let tb = Tablebase::open(&args.set.tables.dir, args.set.rules)?;
    if !args.json {
        writeln!(
            out,
            "{:<10} {:<5} {:>14} {:>14} {:>14} {:>8} {:>12} {:>14} {:>8}  longest win",
            "material",
            "move",
            "wins",
            "draws",
            "losses",
            "longest",
            "cursed wins",
            "blessed losses",
            "max DTC"
        )?;
    }
    let mut ok = true;
    for m in tb.materials() {
        let open = |kind: Kind| {
            let path = table_path(&args.set.tables.dir, args.set.rules, m, kind);
            TableFile::open_expecting(&path, args.set.rules, m, kind)
        };
        let (dtm, dtc) = match (open(Kind::Dtm), open(Kind::Dtc)) {
            (Ok(dtm), Ok(dtc)) => (dtm, dtc),
            (Err(e), _) | (_, Err(e)) => {
                ok = false;
                eprintln!("{e}");
                continue;
            }
        };
        let sides = dtm.header().stats.iter().zip(&dtc.header().stats);
        for (side, (s, r)) in ["red", "blue"].iter().zip(sides) {
            if args.json {
                writeln!(
                    out,
                    "{}",
                    json!({
                        "material": m.to_string(), "to_move": side, "wins": s.wins, "draws": s.draws,
                        "losses": s.losses, "longest_win": s.longest_win,
                        "longest_win_position": (!s.longest_win_position.is_empty()).then_some(&s.longest_win_position),
                        "cursed_wins": r.cursed_wins, "blessed_losses": r.blessed_losses,
                        "longest_dtc": r.longest_win,
                        "longest_dtc_position": (!r.longest_win_position.is_empty()).then_some(&r.longest_win_position),
                    })
                )?;
            } else {
                writeln!(
                    out,
                    "{:<10} {:<5} {:>14} {:>14} {:>14} {:>8} {:>12} {:>14} {:>8}  {}",
                    m.to_string(),
                    side,
                    s.wins,
                    s.draws,
                    s.losses,
                    s.longest_win,
                    r.cursed_wins,
                    r.blessed_losses,
                    r.longest_win,
                    s.longest_win_position
                )?;
            }
        }
    }
    Ok(ok)
}
