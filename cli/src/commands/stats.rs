//! `jtb stats`: win/draw/loss counts and longest wins per material and side to move, and what
//! the clock rule changes: the longest DTC, cursed wins and blessed losses. `jtb serve` answers
//! the same objects per material ([`games::family::MaterialStats`]).

use jtb_probe::RuleSet;

use crate::{games, input, CliResult};

#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    set: input::TableSetArgs,
    /// One JSON object per material and side to move.
    #[arg(long)]
    json: bool,
    /// Also count the positions per distance: DTM and DTC (Clesto: DTM and the ban's exit;
    /// Animal Gambit: DTM in turns). Reads every entry of every table: a minute or more for a
    /// large set.
    #[arg(long)]
    histogram: bool,
    /// The flip game's chance tables (positions with face-down tiles, RULES.md 8) instead: per
    /// table the positions, the mean score, the certain wins, draws and losses, how often a
    /// flip is best, and the largest swing of one flip, all at clock 0 (reads and checks every
    /// entry one ply deep).
    #[arg(long)]
    chance: bool,
}

pub fn run(args: &Args) -> CliResult {
    let mut out = std::io::stdout().lock();
    let root = &args.set.tables.dir;
    if args.chance {
        if args.set.rules != input::Rules::Jungle(RuleSet::Flip4x4) {
            return Err(
                "--chance is for --rules flip4x4 (only the flip game has face-down tiles)".into(),
            );
        }
        return games::flip::chance_stats(&mut out, root, args.json);
    }
    games::tables_of(args.set.rules, |t| {
        t.print_stats(&mut out, root, args.json, args.histogram)
    })
}
