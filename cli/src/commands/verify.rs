//! `jtb verify`: checksums, then every entry against the best of its successors.

use std::io::Write;
use std::{path::Path, sync::Arc};

use jtb_gen::{
    plan,
    run::{available_memory, load, needed_problems, verify_memory_estimate, Unusable},
    verify::{verify_table, Check},
    SubTables,
};
use jtb_probe::{
    flip::{Chance, ChanceMaterial, ChanceTables},
    format::{family_table_path, table_path, Encoding},
    Family, Kind, Material, RuleSet, TableFile, Tablebase,
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

/// Why verification could not run.
#[derive(Debug)]
pub enum VerifyError {
    /// No table of the rule set is there.
    NoTables(RuleSet, std::path::PathBuf),
    /// Tables that a table's captures lead into are missing (`None`) or unusable: no verdict
    /// on the table.
    Needs {
        /// The table to verify.
        material: Material,
        /// Each table it needs that is missing or unusable, and why.
        problems: Vec<(Material, Option<Unusable>)>,
    },
    /// The table and those it needs would take more memory than this process may use.
    TooLarge(jtb_gen::GenError),
}

impl std::fmt::Display for VerifyError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            VerifyError::NoTables(rules, dir) => {
                write!(f, "no tables of {rules} under {}", dir.display())
            }
            VerifyError::Needs { material, problems } => {
                write!(f, "cannot verify {material}: the tables it needs")?;
                for (i, (m, why)) in problems.iter().enumerate() {
                    let sep = if i == 0 { "" } else { ";" };
                    match why {
                        None => write!(f, "{sep} {m} is missing")?,
                        Some(why) => write!(f, "{sep} {m} is unusable ({why})")?,
                    }
                }
                Ok(())
            }
            VerifyError::TooLarge(e) => write!(f, "cannot verify: {e}"),
        }
    }
}

impl std::error::Error for VerifyError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            VerifyError::NoTables(..) | VerifyError::Needs { .. } => None,
            VerifyError::TooLarge(e) => Some(e),
        }
    }
}

pub fn run(args: &Args) -> CliResult {
    args.threads.apply()?;
    let mut out = std::io::stdout().lock();
    let named = args
        .materials
        .iter()
        .map(|m| args.set.rules.table_name(m))
        .collect::<Result<Vec<_>, _>>()?;
    let rules = match args.set.rules {
        input::Rules::Jungle(r) => r,
        input::Rules::AnimalGambit => {
            let materials: Vec<_> = named.iter().filter_map(|n| n.gambit()).collect();
            let dir = &args.set.tables.dir;
            return crate::gambit::verify(&mut out, dir, &materials, args.checksums_only);
        }
    };
    let root = &args.set.tables.dir;
    let (materials, chance): (Vec<Material>, Vec<ChanceMaterial>) = if args.materials.is_empty() {
        let chance = if rules == RuleSet::Flip4x4 {
            Tablebase::open(root, Chance)?.materials()
        } else {
            Vec::new()
        };
        (Tablebase::open(root, rules)?.materials(), chance)
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
        return Err(VerifyError::NoTables(rules, root.clone()).into());
    }
    let mut ok = true;
    if !materials.is_empty() {
        let intact = check_checksums(&mut out, root, rules, &materials, &Kind::of(rules))?;
        ok &= intact.len() == materials.len();
        if !args.checksums_only {
            for &m in materials.iter().filter(|m| intact.contains(m)) {
                ok &= verify_values(&mut out, args, rules, m)?;
            }
        }
    }
    if !chance.is_empty() {
        let intact = check_checksums(&mut out, root, Chance, &chance, &[Kind::Chance])?;
        ok &= intact.len() == chance.len();
        if !args.checksums_only {
            let tables = ChanceTables::open(root)?;
            for &m in chance.iter().filter(|m| intact.contains(m)) {
                ok &= verify_chance(&mut out, &tables, root, m)?;
            }
        }
    }
    Ok(ok)
}

/// Checks every entry of the chance table `m` at every clock one ply deep.
fn verify_chance(
    out: &mut impl Write,
    tables: &ChanceTables,
    root: &Path,
    m: ChanceMaterial,
) -> CliResult {
    let report = match jtb_gen::chance::analyse(tables, root, m) {
        Ok(report) => report,
        Err(e) => {
            writeln!(out, "FAIL {m}: {e}")?;
            return Ok(false);
        }
    };
    if let Some((position, stored, best)) = &report.mismatch {
        let path = jtb_gen::chance::table_path(root, m);
        writeln!(
            out,
            "FAIL {}: {position}: stored {stored}, its moves give {best}",
            path.display()
        )?;
        return Ok(false);
    }
    writeln!(
        out,
        "ok   {m}: {} entries agree with their moves (flips as the average of their outcomes)",
        report.checked
    )?;
    Ok(true)
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

/// Checks every entry of `m` one ply deep (DTM and DTC) and its WDL file; reports failures.
fn verify_values(out: &mut impl Write, args: &Args, rules: RuleSet, m: Material) -> CliResult {
    let root = &args.set.tables.dir;
    // Every table it needs must be there and intact (checksums included) before anything is
    // loaded: a verdict on the table needs them all.
    let problems = needed_problems(root, rules, &[m]);
    if !problems.is_empty() {
        return Err(VerifyError::Needs {
            material: m,
            problems,
        }
        .into());
    }
    let wide_files = [Kind::Dtm, Kind::second(rules)]
        .into_iter()
        .map(|kind| {
            let path = table_path(root, rules, m, kind);
            TableFile::open_expecting(&path, rules, m, kind)
                .map(|f| u64::from(f.header().encoding == Encoding::Code16))
        })
        .sum::<Result<u64, _>>()?;
    let need = verify_memory_estimate(rules, m, wide_files);
    let limit = available_memory().unwrap_or(u64::MAX);
    if need > limit {
        let e = jtb_gen::GenError::TooLarge {
            material: m,
            need,
            limit,
        };
        return Err(VerifyError::TooLarge(e).into());
    }
    let mut tables = SubTables::new();
    let table = load(root, rules, m)?;
    for needs in plan::successors(rules, m) {
        tables.insert(Arc::new(load(root, rules, needs)?));
    }
    let wdl_ok = check_wdl_file(out, root, rules, m, &table)?;
    if rules == RuleSet::Clesto {
        // Clesto's one-ply check looks its own table up too.
        let table = Arc::new(table);
        tables.insert(Arc::clone(&table));
        return crate::clesto::verify(out, root, m, &table, &tables, wdl_ok);
    }
    let mismatches = verify_table(&table, &tables, 10)?;
    let failures = mismatches.iter().map(|x| {
        let (kind, what) = match x.check {
            Check::OnePly(metric) => (metric.kind(), "successors give"),
            Check::DtcImpliesPlain => (Kind::Dtc, "but the plain value is"),
        };
        let path = table_path(root, rules, m, kind);
        format!(
            "{}: {}: stored {}, {what} {}",
            path.display(),
            x.position,
            x.stored,
            x.computed
        )
    });
    report(
        out,
        m,
        table.codes.len(),
        wdl_ok,
        failures,
        "their successors (DTM and DTC)",
    )
}

/// Prints each failure of a table's one-ply check, or that its `entries` all agree with
/// `what`; whether the table passed (its WDL file too).
pub(crate) fn report(
    out: &mut impl Write,
    m: Material,
    entries: usize,
    wdl_ok: bool,
    failures: impl Iterator<Item = String>,
    what: &str,
) -> CliResult {
    let mut ok = wdl_ok;
    for failure in failures {
        writeln!(out, "FAIL {failure}")?;
        ok = false;
    }
    if ok {
        writeln!(out, "ok   {m}: {entries} entries agree with {what}")?;
    }
    Ok(ok)
}

/// Every entry of the WDL file agrees with the DTM file's value (in Clesto, with the value of
/// both files, the ban's included).
fn check_wdl_file(
    out: &mut impl Write,
    root: &std::path::Path,
    rules: RuleSet,
    m: Material,
    table: &jtb_gen::Solved,
) -> std::io::Result<bool> {
    let path = table_path(root, rules, m, Kind::Wdl);
    let checked = TableFile::open_expecting(&path, rules, m, Kind::Wdl)
        .and_then(|file| jtb_gen::verify::check_wdl_file(table, &file));
    let why = match checked {
        Ok(None) => return Ok(true),
        Ok(Some(x)) => format!(
            "{}: WDL file says {}, DTM file says {}",
            x.position, x.wdl, x.plain
        ),
        Err(e) => e.to_string(),
    };
    writeln!(out, "FAIL {}: {why}", path.display())?;
    Ok(false)
}
