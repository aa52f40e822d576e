//! `jtb stats`: win/draw/loss counts and longest wins per material and side to move.

use jtb_probe::{Kind, TableFile, Tablebase};
use serde_json::json;

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
    let tb = Tablebase::open(&args.set.tables.dir, args.set.rules)?;
    let dir = args.set.tables.dir.join(args.set.rules.name());
    if !args.json {
        println!(
            "{:<10} {:<5} {:>14} {:>14} {:>14} {:>8}  longest win",
            "material", "move", "wins", "draws", "losses", "longest"
        );
    }
    let mut ok = true;
    for m in tb.materials() {
        let path = dir.join(format!("{m}.{}", Kind::Dtm.extension()));
        let file = match TableFile::open_expecting(&path, args.set.rules, m, Kind::Dtm) {
            Ok(f) => f,
            Err(e) => {
                ok = false;
                eprintln!("{e}");
                continue;
            }
        };
        for (side, s) in ["red", "blue"].iter().zip(&file.header().stats) {
            if args.json {
                println!(
                    "{}",
                    json!({
                        "material": m.to_string(), "to_move": side, "wins": s.wins, "draws": s.draws,
                        "losses": s.losses, "longest_win": s.longest_win,
                        "longest_win_position": (!s.longest_win_position.is_empty()).then_some(&s.longest_win_position),
                    })
                );
            } else {
                println!(
                    "{:<10} {:<5} {:>14} {:>14} {:>14} {:>8}  {}",
                    m.to_string(),
                    side,
                    s.wins,
                    s.draws,
                    s.losses,
                    s.longest_win,
                    s.longest_win_position
                );
            }
        }
    }
    Ok(ok)
}
