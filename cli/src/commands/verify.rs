//! `jtb verify`: checksums, then every entry against the best of its successors, for every
//! game through its type of tables ([`crate::table_set::TableSet::verify`]).

use crate::{
    input,
    table_set::{tables_of, VerifyAsked},
    CliResult,
};

#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    set: input::TableSetArgs,
    /// Materials to verify (default: every table present, under flip4x4 the chance tables
    /// too); repeatable. Under flip4x4 `LvE-Tw` names a chance table.
    #[arg(long = "material", value_name = "M")]
    materials: Vec<String>,
    /// Only check checksums, not values.
    #[arg(long)]
    checksums_only: bool,
    #[command(flatten)]
    threads: input::ThreadsArg,
}

pub fn run(args: &Args) -> CliResult {
    args.threads.apply()?;
    let mut out = std::io::stdout().lock();
    let named = args
        .materials
        .iter()
        .map(|m| args.set.rules.table_name(m))
        .collect::<Result<Vec<_>, _>>()?;
    let asked = VerifyAsked {
        root: &args.set.tables.dir,
        named: &named,
        checksums_only: args.checksums_only,
    };
    tables_of(args.set.rules, |t| t.verify(&mut out, &asked))
}
