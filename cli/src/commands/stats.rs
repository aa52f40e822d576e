//! `jtb stats`: win/draw/loss counts and longest wins per material and side to move, and what
//! the clock rule changes: the longest DTC, cursed wins and blessed losses. `jtb serve` answers
//! the same objects per material (`games::family::MaterialStats`).

use crate::{
    games, input,
    table_set::{tables_of, StatsAsked},
    CliResult,
};

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
    /// With --chance, only these chance tables (e.g. `LvE-Tw`); repeatable.
    #[arg(long = "material", value_name = "M", requires = "chance")]
    materials: Vec<String>,
}

pub fn run(args: &Args) -> CliResult {
    let mut out = std::io::stdout().lock();
    let root = &args.set.tables.dir;
    if args.chance {
        return games::flip::chance_stats(
            &mut out,
            args.set.rules,
            root,
            &args.materials,
            args.json,
        );
    }
    let asked = StatsAsked {
        root,
        json: args.json,
        histogram: args.histogram,
    };
    tables_of(args.set.rules, |t| t.print_stats(&mut out, &asked))
}
