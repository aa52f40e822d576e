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
}

pub fn run(args: &Args) -> CliResult {
    let mut out = std::io::stdout().lock();
    let rules = args.set.rules;
    let materials: Vec<Material> = if args.materials.is_empty() {
        Tablebase::open(&args.set.tables.dir, rules)?.materials()
    } else {
        args.materials.iter().map(|m| m.canonical()).collect()
    };
    if materials.is_empty() {
        return Err(format!(
            "no tables of {rules} under {}",
            args.set.tables.dir.display()
        )
        .into());
    }
    let mut ok = true;
    let mut intact = BTreeSet::new();
    for &m in &materials {
        let mut good = true;
        for kind in Kind::ALL {
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
        } else {
            ok = false;
        }
    }
    writeln!(
        out,
        "checksums: {} of {} tables intact",
        intact.len(),
        materials.len()
    )?;
    if args.checksums_only {
        return Ok(ok);
    }
    for m in materials.iter().filter(|m| intact.contains(m)) {
        let mut tables = SubTables::new();
        let table = Arc::new(load(&args.set.tables.dir, rules, *m)?);
        tables.insert(Arc::clone(&table));
        for s in plan::successors(rules, *m) {
            match load(&args.set.tables.dir, rules, s) {
                Ok(t) => tables.insert(Arc::new(t)),
                Err(e) => return Err(format!("verifying {m} needs {s}: {e}").into()),
            }
        }
        let wdl_ok = check_wdl_file(&mut out, &args.set.tables.dir, rules, *m, &table)?;
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
                table_path(&args.set.tables.dir, rules, *m, kind).display(),
                x.position,
                x.stored,
                x.computed
            )?;
        }
        if mismatches.is_empty() && wdl_ok {
            writeln!(
                out,
                "ok   {m}: {} entries agree with their successors (DTM and DTC)",
                table.codes.len()
            )?;
        } else {
            ok = false;
        }
    }
    Ok(ok)
}

/// Every position's WDL as the probe reads it agrees with the DTM file's value.
fn check_wdl_file(
    out: &mut impl Write,
    root: &std::path::Path,
    rules: RuleSet,
    m: Material,
    table: &jtb_gen::Solved,
) -> Result<bool, Box<dyn std::error::Error>> {
    use rayon::prelude::*;
    let tb = Tablebase::open(root, rules)?;
    let mut used = Vec::new();
    table.layout.for_each_used_entry(|idx, _| used.push(idx));
    let path = table_path(root, rules, m, Kind::Wdl);
    let bad = used.par_iter().find_map_any(|&idx| {
        let pos = table.layout.position(idx).expect("used entry");
        let expected = table.value(idx).wdl();
        match tb.probe_wdl(&pos) {
            Ok(w) if w == expected => None,
            Ok(w) => Some(format!(
                "{pos}: WDL file says {w}, DTM file says {}",
                table.value(idx)
            )),
            Err(e) => Some(format!("{pos}: {e}")),
        }
    });
    if let Some(why) = &bad {
        writeln!(out, "FAIL {}: {why}", path.display())?;
    }
    Ok(bad.is_none())
}
