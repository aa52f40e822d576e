//! The edge's one table library (`jtb_edge::Tables`): a rule set's tables that appear, change or
//! go while it is open are found by a refresh, what a front end kept of them is dropped with
//! them, and a batch's pinned tables answer as the library does.

use std::sync::atomic::{AtomicUsize, Ordering};

use jtb_edge::{AnyPosition, Rules, Tables};
use jtb_gen::{
    driver::Silent,
    run::{generate, GenOptions},
};
use jtb_probe::{RuleSet, Wdl};

fn generate_into(dir: &std::path::Path, material: &str) {
    let opts = GenOptions {
        rules: RuleSet::Mistboard,
        targets: vec![material.parse().unwrap()],
        out: dir.to_owned(),
        memory_limit: u64::MAX,
        only_targets: false,
    };
    generate(&opts, &Silent).unwrap();
}

/// Generates the tables `names` of `rules` and those they need into `dir`.
fn generate_set(dir: &std::path::Path, rules: Rules, names: &[&str]) {
    let targets = rules.targets(names, 0).unwrap();
    let opts = jtb_gen::targets::Options {
        out: dir,
        memory_limit: u64::MAX,
        only_targets: false,
    };
    jtb_gen::targets::generate(&targets, opts, &Silent).unwrap();
}

#[test]
fn a_refresh_finds_tables_that_appear_and_go() {
    let dir = tempfile::tempdir().unwrap();
    let rules = Rules::Jungle(RuleSet::Mistboard);
    let tables = Tables::new(dir.path(), 1 << 20);
    let pos = AnyPosition::parse("L6/7/7/7/7/7/7/7/6e r", Some(rules), None).unwrap();
    // No folder: every question says so, and nothing changed is nothing to find.
    assert!(tables.wdl(&pos).unwrap_err().is_missing_table());
    assert_eq!(tables.fingerprint(rules), 0);
    assert!(!tables.refresh());

    generate_into(dir.path(), "LvE");
    // The miss is kept until the library looks again.
    assert!(tables.size(rules).is_err());
    assert!(tables.refresh());
    assert_eq!(tables.size(rules).unwrap(), (1, 2));
    let wdl = tables.wdl(&pos).unwrap();
    assert_eq!(wdl, Wdl::Win);
    assert_ne!(tables.fingerprint(rules), 0);
    let mut pinned = tables.pinned();
    assert_eq!(pinned.wdl(&pos).unwrap(), wdl);
    assert_eq!(pinned.dtm(&pos).unwrap(), tables.dtm(&pos).unwrap());

    // What a front end keeps of the tables is computed once per scan.
    let computed = AtomicUsize::new(0);
    let memo = || {
        tables.memo().get(rules, "count", &"LvE", || {
            Ok::<_, ()>(computed.fetch_add(1, Ordering::Relaxed))
        })
    };
    assert_eq!(*memo().unwrap(), 0);
    assert_eq!(*memo().unwrap(), 0);

    std::fs::remove_dir_all(dir.path().join("mistboard")).unwrap();
    assert!(tables.refresh());
    assert!(tables.wdl(&pos).unwrap_err().is_missing_table());
    assert_eq!(tables.fingerprint(rules), 0);
    assert_eq!(*memo().unwrap(), 1, "kept past the scan");
    // The pinned tables are those of its run.
    assert_eq!(pinned.wdl(&pos).unwrap(), wdl);
    assert!(tables.pinned().wdl(&pos).is_err());
}

#[test]
fn a_value_computed_while_its_tables_are_replaced_is_not_kept() {
    let dir = tempfile::tempdir().unwrap();
    let rules = Rules::Jungle(RuleSet::Mistboard);
    generate_into(dir.path(), "LvE");
    let tables = Tables::new(dir.path(), 1 << 20);
    assert_eq!(tables.size(rules).unwrap(), (1, 2));
    let computed = AtomicUsize::new(0);
    // The tables go while the value is computed: it serves its caller, and is not kept.
    let first = tables.memo().get(rules, "count", &"LvE", || {
        std::fs::remove_dir_all(dir.path().join("mistboard")).unwrap();
        assert!(tables.refresh());
        Ok::<_, ()>(computed.fetch_add(1, Ordering::Relaxed))
    });
    assert_eq!(*first.unwrap(), 0);
    let again = tables.memo().get(rules, "count", &"LvE", || {
        Ok::<_, ()>(computed.fetch_add(1, Ordering::Relaxed))
    });
    assert_eq!(*again.unwrap(), 1);
}

/// The table library over another storage than the local files (the files held in memory, as a
/// host without a file system holds them) gives the same answers as over the local files, for
/// every game, and the same errors; a file the storage cannot read fails naming it.
#[test]
fn tables_over_another_storage_answer_as_over_local_files() {
    use jtb_probe::{ByteSource, MemoryFiles, Storage};
    use std::{path::Path, sync::Arc};

    let dir = tempfile::tempdir().unwrap();
    let sets: [(&str, &[&str]); 4] = [
        ("mistboard", &["LRvE"]),
        ("flip4x4", &["LvE-T"]),
        ("clesto", &["LvE"]),
        ("animal-gambit", &["ERvR"]),
    ];
    let mut memory = MemoryFiles::new();
    let root = Path::new("/in-memory");
    for (rules, names) in sets {
        let rules: Rules = rules.parse().unwrap();
        generate_set(dir.path(), rules, names);
        for entry in std::fs::read_dir(dir.path().join(rules.name())).unwrap() {
            let entry = entry.unwrap();
            let path = root.join(rules.name()).join(entry.file_name());
            memory.insert(path, std::fs::read(entry.path()).unwrap());
        }
    }
    let local = Tables::new(dir.path(), 1 << 24);
    let stored = Tables::with_storage(root, 1 << 24, Arc::new(memory.clone()));
    let mut compared = 0;
    for (rules, names) in sets {
        let rules: Rules = rules.parse().unwrap();
        let table = match rules {
            Rules::Jungle(RuleSet::Flip4x4) => "LvE",
            _ => names[0],
        };
        let pick = jtb_edge::Pick::Sample {
            count: 150,
            seed: 7,
        };
        let records = jtb_edge::table_records(rules, table, pick).unwrap();
        let mut positions: Vec<AnyPosition> = records
            .chunks(jtb_edge::PACKED_LEN)
            .map(|r| AnyPosition::unpack(r).unwrap())
            .collect();
        if rules == Rules::Jungle(RuleSet::Flip4x4) {
            for text in ["4/2?1/1L2/4 r 0 ?:T", "1?2/4/2e1/1L2 b 7 ?:T"] {
                positions.push(AnyPosition::parse(text, Some(rules), None).unwrap());
            }
        }
        for pos in positions {
            let text = pos.to_string();
            for lines in [false, true] {
                let a = local
                    .api_text(&pos, lines, &|m| m.note())
                    .map_err(|e| e.to_string());
                let b = stored
                    .api_text(&pos, lines, &|m| m.note())
                    .map_err(|e| e.to_string());
                // The in-memory root names the files where the local one did.
                let b = b.map(|t| t.replace("/in-memory", dir.path().to_str().unwrap()));
                assert_eq!(a, b, "{text}");
            }
            let a = local.probe(pos.clone(), true).map(|a| a.json(&text));
            let b = stored.probe(pos.clone(), true).map(|a| a.json(&text));
            assert_eq!(a.map_err(|e| e.to_string()), b.map_err(|e| e.to_string()));
            compared += 1;
        }
    }
    assert!(compared > 500, "{compared}");

    // A storage whose reads fail: the probe fails naming the file, it never answers.
    #[derive(Debug)]
    struct Failing(MemoryFiles);
    #[derive(Debug)]
    struct Unreadable(Box<dyn ByteSource>);
    impl ByteSource for Unreadable {
        fn size(&self) -> std::io::Result<u64> {
            self.0.size()
        }
        fn read_at(&self, offset: u64, buf: &mut [u8]) -> std::io::Result<()> {
            if offset == 0 {
                return self.0.read_at(offset, buf);
            }
            Err(std::io::Error::other("the host is gone"))
        }
    }
    impl Storage for Failing {
        fn list(&self, dir: &Path) -> std::io::Result<Vec<String>> {
            self.0.list(dir)
        }
        fn open(&self, path: &Path) -> std::io::Result<Option<Box<dyn ByteSource>>> {
            Ok(self
                .0
                .open(path)?
                .map(|s| Box::new(Unreadable(s)) as Box<dyn ByteSource>))
        }
    }
    let failing = Tables::with_storage(root, 1 << 24, Arc::new(Failing(memory)));
    let mistboard = Some(Rules::Jungle(RuleSet::Mistboard));
    let pos = AnyPosition::parse("7/7/7/7/7/3e3/7/2LR3/7 r", mistboard, None).unwrap();
    let e = failing.wdl(&pos).unwrap_err().to_string();
    assert!(
        e.contains("/in-memory/mistboard/") && e.contains("the host is gone"),
        "{e}"
    );
}

/// A batch read in bulk (`Pinned::wdl_many` over positions, `Pinned::wdl_packed` over packed
/// records, whose plain Jungle-type records are probed with no position built) answers each
/// position exactly as `Tables::wdl` does one by one: the same value, or the same error. Over
/// every game's tables, shuffled together, with records damaged byte by byte (most then no
/// position, some another one), positions of missing tables and of a rule set with no tables.
#[test]
fn bulk_reads_answer_as_one_by_one() {
    let dir = tempfile::tempdir().unwrap();
    let sets: [(&str, &[&str], &str); 4] = [
        ("mistboard", &["LRvE"], "LRvE"),
        ("flip4x4", &["LvE-T"], "LvE"),
        ("clesto", &["LvE"], "LvE"),
        ("animal-gambit", &["ERvR"], "ERvR"),
    ];
    let mut records: Vec<[u8; jtb_edge::PACKED_LEN]> = Vec::new();
    for (rules, names, table) in sets {
        let rules: Rules = rules.parse().unwrap();
        generate_set(dir.path(), rules, names);
        let pick = jtb_edge::Pick::Sample {
            count: 600,
            seed: 11,
        };
        let table = jtb_edge::table_records(rules, table, pick).unwrap();
        records.extend(
            table
                .chunks(jtb_edge::PACKED_LEN)
                .map(|r| <[u8; jtb_edge::PACKED_LEN]>::try_from(r).unwrap()),
        );
    }
    // Positions no table here holds: a material not generated, a rule set without tables, a
    // finished game, face-down tiles with their clock, a flip position with a clock.
    for (text, rules) in [
        ("7/7/7/7/7/3l3/7/3EC2/7 r", "mistboard"),
        ("7/7/7/7/7/3l3/w6/3ER2/7 b", "leiden"),
        ("7/7/7/7/7/7/7/3E3/7 r", "mistboard"),
        ("4/2?1/1L2/4 r 5 ?:T", "flip4x4"),
        ("4/1e2/1L2/4 b 12", "flip4x4"),
    ] {
        let pos = AnyPosition::parse(text, Some(rules.parse().unwrap()), None).unwrap();
        records.push(pos.pack());
    }
    let mut seed = 0x9E37_79B9_7F4A_7C15u64;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let whole = records.len();
    for i in 0..2 * whole {
        let mut damaged = records[i % whole];
        let at = (next() % jtb_edge::PACKED_LEN as u64) as usize;
        damaged[at] ^= 1 << (next() % 8);
        records.push(damaged);
    }
    for i in (1..records.len()).rev() {
        records.swap(i, (next() % (i as u64 + 1)) as usize);
    }

    let tables = Tables::new(dir.path(), 1 << 24);
    let one_by_one: Vec<Result<Wdl, String>> = records
        .iter()
        .map(|r| {
            AnyPosition::unpack(r)
                .map_err(jtb_edge::EdgeError::Position)
                .and_then(|pos| tables.wdl(&pos))
                .map_err(|e| e.to_string())
        })
        .collect();
    let values = one_by_one.iter().filter(|v| v.is_ok()).count();
    assert!(values > 2000 && values < records.len() - 2000, "{values}");

    let refs: Vec<&[u8; jtb_edge::PACKED_LEN]> = records.iter().collect();
    let mut packed = vec![None; records.len()];
    tables.pinned().wdl_packed(&refs, |i, wdl| {
        assert!(packed[i].is_none(), "{i} answered twice");
        packed[i] = Some(wdl.map_err(|e| e.to_string()));
    });
    let positions: Vec<AnyPosition> = records
        .iter()
        .filter_map(|r| AnyPosition::unpack(r).ok())
        .collect();
    let expected: Vec<_> = records
        .iter()
        .zip(&one_by_one)
        .filter(|(r, _)| AnyPosition::unpack(*r).is_ok())
        .map(|(_, v)| v.clone())
        .collect();
    let refs: Vec<&AnyPosition> = positions.iter().collect();
    let mut many = vec![None; positions.len()];
    tables.pinned().wdl_many(&refs, |i, wdl| {
        assert!(many[i].is_none(), "{i} answered twice");
        many[i] = Some(wdl.map_err(|e| e.to_string()));
    });
    for (i, (bulk, one)) in packed.into_iter().zip(&one_by_one).enumerate() {
        assert_eq!(bulk.as_ref(), Some(one), "record {i}: {:?}", records[i]);
    }
    for (i, (bulk, one)) in many.into_iter().zip(&expected).enumerate() {
        assert_eq!(bulk.as_ref(), Some(one), "{}", positions[i]);
    }
}
