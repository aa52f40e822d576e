//! Table files: deterministic bytes, resumable generation, and rejection of damaged or foreign
//! files with a clear error.

use std::{fs, path::Path, sync::Arc};

use jtb_gen::{
    driver::Silent,
    run::{generate, GenOptions},
};
use jtb_probe::{
    format::table_path, Jungle, Kind, Material, MemoryFiles, Position, ProbeError, RuleSet,
    TableErrorKind, TableFile, Tablebase,
};

fn gen(dir: &Path, rules: RuleSet, targets: &[&str]) -> jtb_gen::run::Summary {
    let opts = GenOptions {
        rules,
        targets: targets.iter().map(|m| m.parse().unwrap()).collect(),
        out: dir.to_owned(),
        memory_limit: u64::MAX,
        only_targets: false,
    };
    generate(&opts, &Silent).unwrap()
}

fn files(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut out: Vec<(String, Vec<u8>)> = fs::read_dir(dir)
        .unwrap()
        .map(|e| {
            let p = e.unwrap().path();
            (
                p.file_name().unwrap().to_string_lossy().into_owned(),
                fs::read(&p).unwrap(),
            )
        })
        .collect();
    out.sort();
    out
}

#[test]
fn same_bytes_whatever_the_thread_count_and_resume_redoes_only_what_is_missing() {
    let a = tempfile::tempdir().unwrap();
    let b = tempfile::tempdir().unwrap();
    rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap()
        .install(|| gen(a.path(), RuleSet::Mistboard, &["LRvE", "TvW"]));
    rayon::ThreadPoolBuilder::new()
        .num_threads(2)
        .build()
        .unwrap()
        .install(|| gen(b.path(), RuleSet::Mistboard, &["LRvE", "TvW"]));
    let (fa, fb) = (
        files(&a.path().join("mistboard")),
        files(&b.path().join("mistboard")),
    );
    assert_eq!(fa.len(), 12);
    assert_eq!(fa, fb);

    // An interrupted run: a stray temporary file, a table without its WDL file, one without its
    // DTC file (as tables written before the clock rule), one truncated, one missing.
    let dir = a.path().join("mistboard");
    // (pid 4999999 is above the largest pid_max, 2^22: a process that no longer runs. Another
    // host's temporary may be a live process there: it stays.)
    let host = jtb_gen::driver::files::host_name();
    let stale = dir.join(format!(".EvL.dtm.{host}.4999999.tmp"));
    let foreign = dir.join(".EvL.dtc.other-host.4999999.tmp");
    fs::write(&stale, b"partial").unwrap();
    fs::write(&foreign, b"partial").unwrap();
    fs::remove_file(dir.join("LRvE.wdl")).unwrap();
    fs::remove_file(dir.join("EvR.dtc")).unwrap();
    let el = dir.join("EvL.dtm");
    let bytes = fs::read(&el).unwrap();
    fs::write(&el, &bytes[..bytes.len() / 2]).unwrap();
    fs::remove_file(dir.join("TvW.dtm")).unwrap();
    fs::remove_file(dir.join("TvW.wdl")).unwrap();
    let summary = gen(a.path(), RuleSet::Mistboard, &["LRvE", "TvW"]);
    let mut redone: Vec<String> = summary.generated.iter().map(ToString::to_string).collect();
    redone.sort();
    assert_eq!(redone, ["EvL", "EvR", "LRvE", "TvW"]);
    assert!(summary.kept.is_empty());
    assert!(!stale.exists(), "stale temporary removed");
    assert!(foreign.exists(), "another host's temporary kept");
    fs::remove_file(&foreign).unwrap();
    assert_eq!(files(&dir), fb);
}

#[test]
fn files_compressed_as_each_metric_ends_are_those_encoded_after_the_solve() {
    // `generate` compresses each metric's files while the other metric may still be solving;
    // `write_table` encodes the finished table. Both must give the same bytes.
    let a = tempfile::tempdir().unwrap();
    let b = tempfile::tempdir().unwrap();
    gen(a.path(), RuleSet::Mistboard, &["LRvE"]);
    let lrve: Material = "LRvE".parse().unwrap();
    let tables = jtb_gen::solve_all(RuleSet::Mistboard, &[lrve]).unwrap();
    for group in jtb_gen::plan::closure(RuleSet::Mistboard, &[lrve]) {
        for m in group {
            jtb_gen::write::write_table(b.path(), tables.get(m).unwrap()).unwrap();
        }
    }
    let (fa, fb) = (
        files(&a.path().join("mistboard")),
        files(&b.path().join("mistboard")),
    );
    assert_eq!(fa.len(), 9, "LRvE, EvL and EvR");
    assert_eq!(fa, fb);
}

#[test]
fn a_failed_write_stops_the_generation_with_an_error_naming_the_file() {
    // Files are written on a thread of their own while later tables are solved: a write that
    // fails must still end the run with its error, and leave no file of that table.
    let dir = tempfile::tempdir().unwrap();
    let tables = dir.path().join("mistboard");
    fs::create_dir_all(tables.join("LRvE.dtm")).unwrap();
    let opts = GenOptions {
        rules: RuleSet::Mistboard,
        targets: vec!["LRvE".parse().unwrap()],
        out: dir.path().to_owned(),
        memory_limit: u64::MAX,
        only_targets: false,
    };
    let err = generate(&opts, &Silent).unwrap_err().to_string();
    assert!(err.contains("LRvE.dtm"), "{err}");
    assert!(!tables.join("LRvE.wdl").exists());
    // Nothing half-written is left under a temporary name either.
    let strays: Vec<_> = fs::read_dir(&tables)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".tmp"))
        .collect();
    assert!(strays.is_empty(), "{strays:?}");

    // An output root that cannot be a directory fails at once, naming it.
    let file = dir.path().join("plain-file");
    fs::write(&file, b"not a directory").unwrap();
    let opts = GenOptions {
        out: file.clone(),
        ..opts
    };
    let err = generate(&opts, &Silent).unwrap_err().to_string();
    assert!(err.contains("plain-file"), "{err}");
}

fn expect_error(path: &Path, rules: RuleSet, material: &str, kind: Kind) -> TableErrorKind {
    let m: Material = material.parse().unwrap();
    match TableFile::open_expecting(path, rules, m, kind).and_then(|f| {
        f.verify_checksum()?;
        for b in 0..f.header().blocks {
            f.block(b)?;
        }
        Ok(f)
    }) {
        Ok(_) => panic!("{} accepted", path.display()),
        Err(e) => {
            assert!(e.to_string().contains(&path.display().to_string()), "{e}");
            e.kind
        }
    }
}

#[test]
fn damaged_and_foreign_files_are_rejected() {
    let dir = tempfile::tempdir().unwrap();
    gen(dir.path(), RuleSet::Mistboard, &["LvE"]);
    gen(dir.path(), RuleSet::Leiden, &["LvE"]);
    let good = table_path(
        dir.path(),
        RuleSet::Mistboard,
        "LvE".parse().unwrap(),
        Kind::Dtm,
    );
    let bytes = fs::read(&good).unwrap();
    let bad = dir.path().join("bad.dtm");

    // Truncated.
    for cut in [0, 7, 100, 600, bytes.len() - 1] {
        fs::write(&bad, &bytes[..cut]).unwrap();
        let k = expect_error(&bad, RuleSet::Mistboard, "LvE", Kind::Dtm);
        assert!(
            matches!(
                k,
                TableErrorKind::Truncated { .. } | TableErrorKind::NotATable
            ),
            "{cut}: {k:?}"
        );
    }
    // A flipped byte anywhere is caught (header checksum, block checksum or file checksum).
    for at in [
        9,
        20,
        300,
        520,
        bytes.len() / 2,
        bytes.len() - 20,
        bytes.len() - 3,
    ] {
        let mut b = bytes.clone();
        b[at] ^= 0x10;
        fs::write(&bad, &b).unwrap();
        expect_error(&bad, RuleSet::Mistboard, "LvE", Kind::Dtm);
    }
    // Not a table at all.
    fs::write(&bad, b"hello, world, this is not a table file at all").unwrap();
    assert!(matches!(
        expect_error(&bad, RuleSet::Mistboard, "LvE", Kind::Dtm),
        TableErrorKind::NotATable
    ));
    // Unknown format version.
    let mut b = bytes.clone();
    b[8] = 99;
    fs::write(&bad, &b).unwrap();
    assert!(matches!(
        expect_error(&bad, RuleSet::Mistboard, "LvE", Kind::Dtm),
        TableErrorKind::UnsupportedVersion(99)
    ));
    // Another rule set's table.
    let leiden = table_path(
        dir.path(),
        RuleSet::Leiden,
        "LvE".parse().unwrap(),
        Kind::Dtm,
    );
    assert!(matches!(
        expect_error(&leiden, RuleSet::Mistboard, "LvE", Kind::Dtm),
        TableErrorKind::WrongRules {
            expected: "mistboard",
            found: "leiden"
        }
    ));
    // Another material or kind under this name.
    assert!(matches!(
        expect_error(&good, RuleSet::Mistboard, "EvR", Kind::Dtm),
        TableErrorKind::WrongMaterial { .. }
    ));
    assert!(matches!(
        expect_error(&good, RuleSet::Mistboard, "LvE", Kind::Wdl),
        TableErrorKind::WrongKind {
            expected: Kind::Wdl,
            found: Kind::Dtm
        }
    ));
    assert!(matches!(
        expect_error(&good, RuleSet::Mistboard, "LvE", Kind::Dtc),
        TableErrorKind::WrongKind { .. }
    ));
}

#[test]
fn probes_of_damaged_or_foreign_tables_are_errors_never_values() {
    let dir = tempfile::tempdir().unwrap();
    gen(dir.path(), RuleSet::Mistboard, &["LvE"]);
    gen(dir.path(), RuleSet::Leiden, &["LvE"]);
    let pos = Position::parse("7/7/7/7/7/3l3/7/3E3/7 r", None).unwrap();
    let tb = Tablebase::open(dir.path(), Jungle::Mistboard).unwrap();
    assert!(tb.probe_dtm(&pos).is_ok());

    // The leiden file copied over the mistboard one.
    let m = "LvE".parse().unwrap();
    for kind in RuleSet::Mistboard.table_kinds() {
        fs::copy(
            table_path(dir.path(), RuleSet::Leiden, m, kind),
            table_path(dir.path(), RuleSet::Mistboard, m, kind),
        )
        .unwrap();
    }
    let tb = Tablebase::open(dir.path(), Jungle::Mistboard).unwrap();
    assert!(matches!(tb.probe_dtm(&pos), Err(ProbeError::Table(_))));
    assert!(matches!(tb.probe_wdl(&pos), Err(ProbeError::Table(_))));
    assert!(matches!(tb.probe_dtc(&pos), Err(ProbeError::Table(_))));
    assert!(matches!(tb.probe_rule(&pos), Err(ProbeError::Table(_))));

    // Truncated files.
    gen(dir.path(), RuleSet::Mistboard, &["LvE"]);
    for kind in RuleSet::Mistboard.table_kinds() {
        let p = table_path(dir.path(), RuleSet::Mistboard, m, kind);
        let b = fs::read(&p).unwrap();
        fs::write(&p, &b[..b.len() - 5]).unwrap();
    }
    let tb = Tablebase::open(dir.path(), Jungle::Mistboard).unwrap();
    let e = tb.probe_dtm(&pos).unwrap_err().to_string();
    assert!(e.contains("EvL.dtm") && e.contains("truncated"), "{e}");
    let e = tb.probe_rule(&pos).unwrap_err().to_string();
    assert!(e.contains("EvL.dtc") && e.contains("truncated"), "{e}");

    // A missing DTC file (tables written before the clock rule) is a missing file naming it.
    gen(dir.path(), RuleSet::Mistboard, &["LvE"]);
    fs::remove_file(table_path(dir.path(), RuleSet::Mistboard, m, Kind::Dtc)).unwrap();
    let tb = Tablebase::open(dir.path(), Jungle::Mistboard).unwrap();
    assert!(tb.probe_dtm(&pos).is_ok());
    match tb.probe_dtc(&pos) {
        Err(
            e @ ProbeError::MissingFile {
                kind: Kind::Dtc, ..
            },
        ) => {
            assert!(e.is_missing());
            assert!(
                e.to_string().starts_with("no DTC file for table EvL: "),
                "{e}"
            );
        }
        other => panic!("{other:?}"),
    }

    // Missing tables and too many pieces.
    let p = Position::parse("7/7/7/7/7/3l3/7/3T3/7 r", None).unwrap();
    assert!(matches!(
        tb.probe_dtm(&p),
        Err(ProbeError::MissingTable { .. })
    ));
    let p = Position::parse("7/7/7/7/7/3l3/7/3TE2/7 r", None).unwrap();
    assert!(matches!(
        tb.probe_dtm(&p),
        Err(ProbeError::MissingTable { path, .. }) if path.ends_with("ETvL.dtm")
    ));
    // A rule set without a folder: a set not made yet, and the command that makes it.
    let e = Tablebase::open(dir.path().join("nowhere"), Jungle::Mistboard).unwrap_err();
    assert!(matches!(e, ProbeError::NoDirectory(..)));
    let nowhere = dir.path().join("nowhere");
    assert_eq!(
        e.to_string(),
        format!(
            "no tables for rule set mistboard: {} is not there (make them with `jtb gen \
             --rules mistboard --out {}`)",
            nowhere.join("mistboard").display(),
            nowhere.display()
        )
    );
}

/// Keeps only the files of `keep`'s kind in `dir`.
fn keep_only(dir: &Path, keep: Kind) {
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().and_then(|e| e.to_str()) != Some(keep.extension()) {
            fs::remove_file(path).unwrap();
        }
    }
}

/// A set of WDL files alone (as an engine ships it) answers WDL exactly as the whole set, reading
/// nothing else; a distance, a best move or a line is a missing file naming its kind, and a
/// table not in the set is still a missing table.
#[test]
fn a_set_of_wdl_files_alone_answers_wdl() {
    let full = tempfile::tempdir().unwrap();
    let wdl_only = tempfile::tempdir().unwrap();
    gen(full.path(), RuleSet::Mistboard, &["LRvE"]);
    let copy = |from: &Path, to: &Path| {
        fs::create_dir_all(to).unwrap();
        for entry in fs::read_dir(from).unwrap() {
            let path = entry.unwrap().path();
            fs::copy(&path, to.join(path.file_name().unwrap())).unwrap();
        }
    };
    copy(
        &full.path().join("mistboard"),
        &wdl_only.path().join("mistboard"),
    );
    keep_only(&wdl_only.path().join("mistboard"), Kind::Wdl);
    let whole = Tablebase::open(full.path(), Jungle::Mistboard).unwrap();
    let wdl = Tablebase::open(wdl_only.path(), Jungle::Mistboard).unwrap();
    assert_eq!(wdl.materials(), whole.materials());
    let layout = jtb_probe::Layout::new(RuleSet::Mistboard, "LRvE".parse().unwrap());
    let mut n = 0;
    layout.for_each_used_entry(|idx, _| {
        let pos = layout.position(idx).unwrap();
        assert_eq!(wdl.probe_wdl(&pos).unwrap(), whole.probe_wdl(&pos).unwrap());
        n += 1;
    });
    assert!(n > 100_000, "{n}");
    // Only WDL files were opened.
    assert_eq!(wdl.cache_stats().open_files, 1);

    let pos = Position::parse("7/7/7/7/7/3e3/7/3LR2/7 r", None).unwrap();
    for e in [
        wdl.probe_dtm(&pos).unwrap_err(),
        wdl.best_move(&pos).unwrap_err(),
        wdl.line(&pos).unwrap_err(),
    ] {
        match &e {
            ProbeError::MissingFile {
                kind: Kind::Dtm,
                material,
                path,
                ..
            } => {
                assert_eq!(material, "LRvE");
                assert!(path.ends_with("mistboard/LRvE.dtm"), "{path:?}");
            }
            other => panic!("{other:?}"),
        }
        assert!(e.to_string().contains("no DTM file for table LRvE"), "{e}");
    }
    assert!(matches!(
        wdl.probe_dtc(&pos),
        Err(ProbeError::MissingFile {
            kind: Kind::Dtc,
            ..
        })
    ));
    // A table of which no file is there is still a missing table.
    let p = Position::parse("7/7/7/7/7/3l3/7/3T3/7 r", None).unwrap();
    assert!(matches!(
        wdl.probe_wdl(&p),
        Err(ProbeError::MissingTable { .. })
    ));
}

#[test]
fn random_damage_is_always_an_error_never_a_panic() {
    let dir = tempfile::tempdir().unwrap();
    gen(dir.path(), RuleSet::Mistboard, &["LvE"]);
    let m: Material = "LvE".parse().unwrap();
    for kind in RuleSet::Mistboard.table_kinds() {
        let good = table_path(dir.path(), RuleSet::Mistboard, m, kind);
        let bytes = fs::read(&good).unwrap();
        let bad = dir.path().join(format!("bad.{}", kind.extension()));
        let mut seed = 0x2545_F491_4F6C_DD1Du64;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for _ in 0..300 {
            let mut b = bytes.clone();
            let at = (next() % b.len() as u64) as usize;
            b[at] ^= (next() % 255 + 1) as u8;
            if next() % 4 == 0 {
                b.truncate((next() % b.len() as u64) as usize);
            }
            fs::write(&bad, &b).unwrap();
            let read_all = |f: TableFile<RuleSet>| {
                let f = f.expecting(RuleSet::Mistboard, m, kind)?;
                f.verify_checksum()?;
                for blk in 0..f.header().blocks {
                    f.block(blk)?;
                }
                Ok::<_, jtb_probe::TableError>(())
            };
            let read = TableFile::open(&bad).and_then(read_all);
            assert!(read.is_err(), "damage at byte {at} went unnoticed");
            // Safety: nothing changes the file while it is mapped.
            let mapped = unsafe { TableFile::open_mapped(&bad) }.and_then(read_all);
            assert!(
                mapped.is_err(),
                "damage at byte {at} went unnoticed when mapped"
            );
        }
    }
}

/// Files read by positioned reads, memory-mapped, or held in memory ([`MemoryFiles`]) give the
/// same values; a file not in memory is a missing table, a rule set with none no directory.
#[test]
fn mapped_read_and_in_memory_files_probe_alike() {
    let dir = tempfile::tempdir().unwrap();
    gen(dir.path(), RuleSet::Mistboard, &["LRvE"]);
    let read = Tablebase::open(dir.path(), Jungle::Mistboard).unwrap();
    // Safety: the files are not changed while the tablebase lives.
    let mapped = unsafe { Tablebase::open_mapped(dir.path(), Jungle::Mistboard, 1 << 20) }.unwrap();
    // The same files held in memory, under a root that is no folder at all.
    let mut held = MemoryFiles::new();
    for entry in fs::read_dir(dir.path().join("mistboard")).unwrap() {
        let path = entry.unwrap().path();
        held.insert(
            Path::new("in-memory/mistboard").join(path.file_name().unwrap()),
            fs::read(&path).unwrap(),
        );
    }
    let memory =
        Tablebase::with_storage("in-memory", Jungle::Mistboard, 1 << 20, Arc::new(held)).unwrap();
    assert_eq!(memory.materials(), read.materials());
    let layout = jtb_probe::Layout::new(RuleSet::Mistboard, "LRvE".parse().unwrap());
    let mut n = 0;
    layout.for_each_used_entry(|idx, _| {
        if idx % 7 == 0 {
            let pos = layout.position(idx).unwrap();
            assert_eq!(
                read.probe_dtm(&pos).unwrap(),
                mapped.probe_dtm(&pos).unwrap()
            );
            assert_eq!(
                read.probe_dtc(&pos).unwrap(),
                mapped.probe_dtc(&pos).unwrap()
            );
            assert_eq!(
                read.probe_wdl(&pos).unwrap(),
                mapped.probe_wdl(&pos).unwrap()
            );
            assert_eq!(
                read.probe_dtm(&pos).unwrap(),
                memory.probe_dtm(&pos).unwrap()
            );
            assert_eq!(
                read.probe_wdl(&pos).unwrap(),
                memory.probe_wdl(&pos).unwrap()
            );
            n += 1;
        }
    });
    assert!(n > 10_000);
    let elsewhere = Position::parse("7/7/7/7/7/3l3/7/3T3/7 r", None).unwrap();
    assert!(matches!(
        memory.probe_wdl(&elsewhere),
        Err(ProbeError::MissingTable { .. })
    ));
    assert!(matches!(
        Tablebase::with_storage(
            "in-memory",
            Jungle::Leiden,
            1 << 20,
            Arc::new(MemoryFiles::new())
        ),
        Err(ProbeError::NoDirectory(..))
    ));
}
