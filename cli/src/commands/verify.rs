//! `jtb verify`: checksums, then every entry against the best of its successors, for every
//! game through its type of tables ([`games::TableSet::verify`]).

use std::{io::Write, path::Path};

use jtb_edge::TableName;
use jtb_gen::driver::{self, Unchecked, Verify};
use jtb_probe::{format::family_table_path, Family, Kind, TableFile};

use crate::{games, input, CliResult};

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

/// Why verification could not run at all.
#[derive(Debug)]
pub struct NoTables(pub &'static str, pub std::path::PathBuf);

impl std::fmt::Display for NoTables {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "no tables of {} under {}", self.0, self.1.display())
    }
}

impl std::error::Error for NoTables {}

pub fn run(args: &Args) -> CliResult {
    args.threads.apply()?;
    let mut out = std::io::stdout().lock();
    let named = args
        .materials
        .iter()
        .map(|m| args.set.rules.table_name(m))
        .collect::<Result<Vec<_>, _>>()?;
    let asked = Asked {
        root: &args.set.tables.dir,
        named: &named,
        checksums_only: args.checksums_only,
    };
    games::tables_of(args.set.rules, |t| t.verify(&mut out, &asked))
}

/// What `jtb verify` was asked to check.
pub struct Asked<'a> {
    /// The tables' directory.
    pub root: &'a Path,
    /// The tables named (`--material`); none for every table present.
    pub named: &'a [TableName],
    /// Only the checksums, not the values.
    pub checksums_only: bool,
}

/// Checks the checksums of every file of `tables`, then (unless `--checksums-only`) every entry
/// of each intact one one ply deep ([`jtb_gen::driver::verify`]): one report for every game.
/// A table that cannot be checked because tables it needs are missing or damaged, or because
/// it does not fit in memory, stops the run with no verdict.
pub fn verify_set<G, R>(
    out: &mut dyn Write,
    game: &G,
    rules: R,
    tables: &[G::Table],
    kinds: &[Kind],
    asked: &Asked,
) -> CliResult
where
    G: Verify,
    R: Family<Material = G::Table>,
{
    let intact = check_checksums(out, asked.root, rules, tables, kinds)?;
    let mut ok = intact.len() == tables.len();
    if asked.checksums_only {
        return Ok(ok);
    }
    for table in intact {
        match driver::verify(game, table, 10) {
            Ok(checked) => {
                for failure in &checked.failures {
                    writeln!(out, "FAIL {failure}")?;
                }
                if checked.failures.is_empty() {
                    writeln!(
                        out,
                        "ok   {table}: {} entries agree with {}",
                        checked.entries,
                        game.checked_against(table)
                    )?;
                } else {
                    ok = false;
                }
            }
            Err(Unchecked::Failed(e)) => {
                writeln!(out, "FAIL {table}: {e}")?;
                ok = false;
            }
            Err(e) => return Err(e.into()),
        }
    }
    Ok(ok)
}

/// Checks the checksums of every `kinds` file of each of `materials` under `root`, for a table
/// of any game, reporting each failure and the count; returns the intact tables, in order.
fn check_checksums<R: Family>(
    out: &mut dyn Write,
    root: &Path,
    rules: R,
    materials: &[R::Material],
    kinds: &[Kind],
) -> std::io::Result<Vec<R::Material>> {
    let mut intact = Vec::new();
    for &m in materials {
        let mut good = true;
        for &kind in kinds {
            let path = family_table_path(root, rules, m, kind);
            let result =
                TableFile::open_expecting(&path, rules, m, kind).and_then(|f| f.verify_checksum());
            if let Err(e) = result {
                writeln!(out, "FAIL {e}")?;
                good = false;
            }
        }
        if good {
            intact.push(m);
        }
    }
    writeln!(
        out,
        "checksums: {} of {} tables intact",
        intact.len(),
        materials.len()
    )?;
    Ok(intact)
}
