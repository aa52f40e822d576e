//! `jtb verify`: checksums, then every entry against the best of its successors.

use std::{io::Write, path::Path};

use jtb_gen::{
    driver::{self, Unchecked, Verify},
    gambit::KINDS,
    run,
};
use jtb_probe::{
    flip::{Chance, ChanceMaterial},
    format::family_table_path,
    gambit, Family, Kind, Material, RuleSet, TableFile, Tablebase,
};

use crate::{input, CliResult};

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
pub struct NoTables(&'static str, std::path::PathBuf);

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
    let root = &args.set.tables.dir;
    let rules = match args.set.rules {
        input::Rules::Jungle(r) => r,
        input::Rules::AnimalGambit => {
            let materials: Vec<gambit::Material> = if args.materials.is_empty() {
                Tablebase::open(root, gambit::Rules)?.materials()
            } else {
                named
                    .iter()
                    .filter_map(|n| Some(n.gambit()?.canonical()))
                    .collect()
            };
            if materials.is_empty() {
                return Err(NoTables(gambit::Rules::NAME, root.clone()).into());
            }
            let game = jtb_gen::gambit::OnDisk::new(root);
            return verify_set(&mut out, &game, gambit::Rules, &materials, &KINDS, args);
        }
    };
    let (materials, chance): (Vec<Material>, Vec<ChanceMaterial>) = if args.materials.is_empty() {
        let chance = if rules == RuleSet::Flip4x4 {
            Tablebase::open(root, Chance)?.materials()
        } else {
            Vec::new()
        };
        (jtb_edge::jungle_materials(root, rules)?, chance)
    } else {
        // Under flip4x4 a material with `-` names a chance table (RULES.md 8).
        (
            named
                .iter()
                .filter_map(|n| Some(n.jungle()?.table_of(rules)))
                .collect(),
            named
                .iter()
                .filter_map(|n| Some(n.chance()?.canonical()))
                .collect(),
        )
    };
    if materials.is_empty() && chance.is_empty() {
        return Err(NoTables(rules.name(), root.clone()).into());
    }
    let mut ok = true;
    if !materials.is_empty() {
        let game = run::Family::new(root, rules);
        ok &= verify_set(
            &mut out,
            &game,
            rules,
            &materials,
            &rules.table_kinds(),
            args,
        )?;
    }
    if !chance.is_empty() {
        let game = jtb_gen::chance::OnDisk::new(root);
        ok &= verify_set(&mut out, &game, Chance, &chance, &[Kind::Chance], args)?;
    }
    Ok(ok)
}

/// Checks the checksums of every file of `tables`, then (unless `--checksums-only`) every entry
/// of each intact one one ply deep ([`jtb_gen::driver::verify`]): one report for every game.
/// A table that cannot be checked because tables it needs are missing or damaged, or because
/// it does not fit in memory, stops the run with no verdict.
fn verify_set<G, R>(
    out: &mut impl Write,
    game: &G,
    rules: R,
    tables: &[G::Table],
    kinds: &[Kind],
    args: &Args,
) -> CliResult
where
    G: Verify,
    R: Family<Material = G::Table>,
{
    let intact = check_checksums(out, &args.set.tables.dir, rules, tables, kinds)?;
    let mut ok = intact.len() == tables.len();
    if args.checksums_only {
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
pub(crate) fn check_checksums<R: Family>(
    out: &mut impl Write,
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
