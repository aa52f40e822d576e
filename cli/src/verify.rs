//! `jtb verify`: checksums, then every entry against the best of its successors.

use std::io::Write;
use std::{collections::BTreeSet, sync::Arc};

use jtb_gen::{
    plan,
    run::load,
    verify::{verify_table, Check},
    Metric, SubTables,
};
use jtb_probe::{format::table_path, Kind, Material, RuleSet, TableFile, Tablebase};

use crate::{input, CliResult};

#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    set: input::TableSetArgs,
    /// Materials to verify (default: every table present); repeatable.
    #[arg(long = "material", value_name = "M", value_parser = input::table_material)]
    materials: Vec<Material>,
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
    /// A table's successor could not be loaded.
    Needs {
        /// The table verified.
        material: Material,
        /// The table its captures lead into.
        needs: Material,
        /// Why it could not be loaded.
        source: jtb_gen::GenError,
    },
}

impl std::fmt::Display for VerifyError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            VerifyError::NoTables(rules, dir) => {
                write!(f, "no tables of {rules} under {}", dir.display())
            }
            VerifyError::Needs {
                material,
                needs,
                source,
            } => write!(f, "verifying {material} needs {needs}: {source}"),
        }
    }
}

impl std::error::Error for VerifyError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            VerifyError::NoTables(..) => None,
            VerifyError::Needs { source, .. } => Some(source),
        }
    }
}

pub fn run(args: &Args) -> CliResult {
    args.threads.apply()?;
    let mut out = std::io::stdout().lock();
    let rules = args.set.rules;
    let materials: Vec<Material> = if args.materials.is_empty() {
        Tablebase::open(&args.set.tables.dir, rules)?.materials()
    } else {
        args.materials.iter().map(|m| m.table_of(rules)).collect()
    };
    if materials.is_empty() {
        return Err(VerifyError::NoTables(rules, args.set.tables.dir.clone()).into());
    }
    let intact = check_checksums(&mut out, args, &materials)?;
    let mut ok = intact.len() == materials.len();
    if args.checksums_only {
        return Ok(ok);
    }
    for &m in materials.iter().filter(|m| intact.contains(m)) {
        ok &= verify_values(&mut out, args, m)?;
    }
    Ok(ok)
}

/// Checks every file's checksums, reporting each failure; returns the intact tables.
fn check_checksums(
    out: &mut impl Write,
    args: &Args,
    materials: &[Material],
) -> std::io::Result<BTreeSet<Material>> {
    let rules = args.set.rules;
    let mut intact = BTreeSet::new();
    for &m in materials {
        let mut good = true;
        for kind in Kind::of(rules) {
            let path = table_path(&args.set.tables.dir, rules, m, kind);
            let result =
                TableFile::open_expecting(&path, rules, m, kind).and_then(|f| f.verify_checksum());
            if let Err(e) = result {
                writeln!(out, "FAIL {e}")?;
                good = false;
            }
        }
        if good {
            intact.insert(m);
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
fn verify_values(out: &mut impl Write, args: &Args, m: Material) -> CliResult {
    let (root, rules) = (&args.set.tables.dir, args.set.rules);
    let mut tables = SubTables::new();
    let table = Arc::new(load(root, rules, m)?);
    tables.insert(Arc::clone(&table));
    for needs in plan::successors(rules, m) {
        let sub = load(root, rules, needs).map_err(|source| VerifyError::Needs {
            material: m,
            needs,
            source,
        })?;
        tables.insert(Arc::new(sub));
    }
    let wdl_ok = check_wdl_file(out, root, rules, m, &table)?;
    if rules.has_hunger() {
        return report_clesto(out, root, m, &table, &tables, wdl_ok);
    }
    let mismatches = verify_table(&table, &tables, 10)?;
    for x in &mismatches {
        let (kind, what) = match x.check {
            Check::OnePly(Metric::Dtm) => (Kind::Dtm, "successors give"),
            Check::OnePly(Metric::Dtc) => (Kind::Dtc, "successors give"),
            Check::DtcImpliesPlain => (Kind::Dtc, "but the plain value is"),
        };
        writeln!(
            out,
            "FAIL {}: {}: stored {}, {what} {}",
            table_path(root, rules, m, kind).display(),
            x.position,
            x.stored,
            x.computed
        )?;
    }
    let ok = mismatches.is_empty() && wdl_ok;
    if ok {
        writeln!(
            out,
            "ok   {m}: {} entries agree with their successors (DTM and DTC)",
            table.codes.len()
        )?;
    }
    Ok(ok)
}

/// Checks every entry of the Clesto table `m` one ply deep and reports failures.
fn report_clesto(
    out: &mut impl Write,
    root: &std::path::Path,
    m: Material,
    table: &jtb_gen::Solved,
    tables: &SubTables,
    wdl_ok: bool,
) -> CliResult {
    let mismatches = jtb_gen::clesto::verify(table, tables, 10)?;
    for x in &mismatches {
        writeln!(
            out,
            "FAIL {}: {}: stored {}, its moves give {}",
            table_path(root, RuleSet::Clesto, m, Kind::Ban).display(),
            x.position,
            x.stored,
            x.computed
        )?;
    }
    let ok = mismatches.is_empty() && wdl_ok;
    if ok {
        writeln!(
            out,
            "ok   {m}: {} entries agree with their moves (plain values and the ban's)",
            table.codes.len()
        )?;
    }
    Ok(ok)
}

/// Every position's WDL as the probe reads it agrees with the DTM file's value (in Clesto,
/// with the value of both files, the ban's included).
fn check_wdl_file(
    out: &mut impl Write,
    root: &std::path::Path,
    rules: RuleSet,
    m: Material,
    table: &jtb_gen::Solved,
) -> Result<bool, Box<dyn std::error::Error>> {
    use rayon::prelude::*;
    let tb = Tablebase::open(root, rules)?;
    let path = table_path(root, rules, m, Kind::Wdl);
    let layout = &table.layout;
    let bad = jtb_gen::verify::entry_ranges(layout).find_map_any(|range| {
        let mut bad = None;
        layout.for_each_used_entry_in(range, |idx, _| {
            if bad.is_some() {
                return;
            }
            let pos = layout.position(idx).expect("used entry");
            let expected = if rules.has_hunger() {
                table.clesto_value(idx).wdl()
            } else {
                table.value(idx).wdl()
            };
            bad = match tb.probe_wdl(&pos) {
                Ok(w) if w == expected => None,
                Ok(w) => Some(format!(
                    "{pos}: WDL file says {w}, DTM file says {}",
                    table.value(idx)
                )),
                Err(e) => Some(format!("{pos}: {e}")),
            };
        });
        bad
    });
    if let Some(why) = &bad {
        writeln!(out, "FAIL {}: {why}", path.display())?;
    }
    Ok(bad.is_none())
}
