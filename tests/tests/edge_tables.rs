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
