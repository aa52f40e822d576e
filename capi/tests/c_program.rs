//! Compiles `probe.c` against `jtb.h` and the static library, and runs it on generated tables.

use std::{path::PathBuf, process::Command};

use jtb_gen::{
    driver::Silent,
    run::{generate, GenOptions},
};
use jtb_probe::{Family, Material, RuleSet};

#[test]
fn a_c_program_links_and_probes() {
    let dir = tempfile::tempdir().unwrap();
    let opts = GenOptions {
        rules: RuleSet::Mistboard,
        targets: ["LRvE", "LvE"].iter().map(|m| m.parse().unwrap()).collect(),
        out: dir.path().to_owned(),
        memory_limit: u64::MAX,
        only_targets: false,
    };
    generate(&opts, &Silent).unwrap();
    let leiden = GenOptions {
        rules: RuleSet::Leiden,
        targets: vec!["LRvE".parse().unwrap()],
        ..opts.clone()
    };
    generate(&leiden, &Silent).unwrap();
    let clesto = GenOptions {
        rules: RuleSet::Clesto,
        targets: vec!["DvCR".parse().unwrap()],
        ..opts
    };
    generate(&clesto, &Silent).unwrap();
    // A Clesto table's files among mistboard's, under the name mistboard gives its material: a
    // file of another rule set, which the C ABI reports as such.
    let dvcr: Material = "DvCR".parse().unwrap();
    let named = RuleSet::Mistboard.table_of(dvcr);
    for ext in ["wdl", "dtm"] {
        std::fs::copy(
            dir.path().join(format!("clesto/{dvcr}.{ext}")),
            dir.path().join(format!("mistboard/{named}.{ext}")),
        )
        .unwrap();
    }
    // A set of WDL files alone (as an engine ships it): tiger-lengthwise's LvE without its
    // DTM and DTC files.
    let wdl_only = GenOptions {
        rules: RuleSet::TigerLengthwise,
        targets: vec!["LvE".parse().unwrap()],
        out: dir.path().to_owned(),
        memory_limit: u64::MAX,
        only_targets: false,
    };
    generate(&wdl_only, &Silent).unwrap();
    for entry in std::fs::read_dir(dir.path().join("tiger-lengthwise")).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e != "wdl") {
            std::fs::remove_file(path).unwrap();
        }
    }
    let rvr = "RvR".parse().unwrap();
    jtb_gen::gambit::generate(dir.path(), &[rvr], u64::MAX, false, &Silent).unwrap();
    let flip = GenOptions {
        rules: RuleSet::Flip4x4,
        targets: ["TvW", "WvLT"].iter().map(|m| m.parse().unwrap()).collect(),
        out: dir.path().to_owned(),
        memory_limit: u64::MAX,
        only_targets: false,
    };
    generate(&flip, &Silent).unwrap();
    let tw = "v-Tw".parse().unwrap();
    jtb_gen::chance::generate(dir.path(), &[tw], u64::MAX, false, &Silent).unwrap();

    // The test binary lives in target/<profile>/deps. A `cargo test` build leaves the static
    // library beside it; a `cargo build` puts it one level up.
    let exe = std::env::current_exe().unwrap();
    let deps = exe.parent().unwrap();
    let lib = [deps, deps.parent().unwrap()]
        .iter()
        .map(|d| d.join("libjtb_capi.a"))
        .find(|p| p.exists())
        .expect("libjtb_capi.a is built with the tests");
    let here = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let program = dir.path().join("probe");
    let cc = std::env::var("CC").unwrap_or_else(|_| "cc".into());
    let status = Command::new(&cc)
        .arg("-std=c99")
        .arg("-Wall")
        .arg("-Werror")
        .arg("-I")
        .arg(here.join("include"))
        .arg(here.join("tests/probe.c"))
        .arg(&lib)
        .args(["-lpthread", "-ldl", "-lm", "-o"])
        .arg(&program)
        .status()
        .expect("a C compiler (cc) is needed for this test");
    assert!(status.success());
    let out = Command::new(&program).arg(dir.path()).output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.contains("all C checks passed"));
}
