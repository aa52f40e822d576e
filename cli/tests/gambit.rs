//! `jtb gen`, `probe`, `adjudicate`, `stats`, `info` and `verify` with `--rules
//! animal-gambit`, end to end on the 2- and 3-piece tables, and the bad input of each: one
//! clear line naming the problem, never a panic.

mod cli_support;

use cli_support::{jtb, stderr, stdout};
use std::process::Output;

fn json_lines(o: &Output) -> Vec<serde_json::Value> {
    stdout(o)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

const AG: &str = "animal-gambit";

#[test]
fn generate_probe_adjudicate_stats_info_and_verify() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().to_str().unwrap();
    let o = jtb(&["gen", "--rules", AG, "--material", "RvRR", "--out", root]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stderr(&o).contains("solved RRvR"), "{}", stderr(&o));
    assert!(stderr(&o).contains("generated 2 tables"), "{}", stderr(&o));
    // Again: both kept.
    let o = jtb(&["gen", "--rules", AG, "--material", "RRvR", "--out", root]);
    assert!(stderr(&o).contains("generated 0 tables") && stderr(&o).contains("kept 2"));

    // Gold's rabbit on e2 outruns Silver's on d7: a win in 3 turns, and its whole line.
    let o = jtb(&[
        "probe",
        "--tables",
        root,
        "--line",
        "--json",
        "8/3r4/8/8/8/8/4R3/8 g",
    ]);
    assert!(o.status.success(), "{}", stdout(&o));
    let a = &json_lines(&o)[0];
    assert_eq!(a["rules"], AG);
    assert_eq!(a["wdl"], "win");
    assert_eq!(a["dtm"], 3);
    assert_eq!(a["category"], "win");
    assert_eq!(a["best"], "Re2n Re3n Re4e Rf4n");
    assert_eq!(a["line"].as_array().unwrap().len(), 3);
    // Without --rules an 8x8 board is Animal Gambit's; text output says turns.
    let o = jtb(&["probe", "--tables", root, "8/3r4/8/8/8/8/4R3/8 s"]);
    assert!(o.status.success(), "{}", stdout(&o));
    assert!(stdout(&o).contains("for silver to move"), "{}", stdout(&o));
    assert!(stdout(&o).contains("turns to the end"), "{}", stdout(&o));

    let o = jtb(&[
        "adjudicate",
        "--tables",
        root,
        "--json",
        "8/3r4/8/8/8/8/3RR3/8 s",
    ]);
    let a = &json_lines(&o)[0];
    assert_eq!(a["settled"], true, "{a}");
    assert!(a["category"] == "loss" || a["category"] == "win", "{a}");
    // Not covered (four pieces): an error of its own (exit 3), never "play on".
    let o = jtb(&["adjudicate", "--tables", root, "8/3rr3/8/8/8/8/3RR3/8 s"]);
    assert_eq!(o.status.code(), Some(3));
    assert!(
        stdout(&o).contains(": not covered: missing table RRvRR: "),
        "{}",
        stdout(&o)
    );
    assert!(stdout(&o).starts_with("error: "), "{}", stdout(&o));

    let o = jtb(&["stats", "--rules", AG, "--tables", root, "--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let rows = json_lines(&o);
    assert_eq!(rows.len(), 4);
    assert_eq!(rows[0]["material"], "RvR");
    assert_eq!(rows[0]["to_move"], "gold");
    assert_eq!(rows[1]["to_move"], "silver");
    for r in &rows {
        assert!(r["wins"].as_u64().unwrap() > 0, "{r}");
    }
    // With the positions per distance in turns: as many as the header counts.
    let o = jtb(&[
        "stats",
        "--rules",
        AG,
        "--tables",
        root,
        "--json",
        "--histogram",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    for r in &json_lines(&o) {
        let h = &r["histogram"]["dtm"];
        let sum = |v: &serde_json::Value| -> u64 {
            v.as_array()
                .unwrap()
                .iter()
                .map(|n| n.as_u64().unwrap())
                .sum()
        };
        assert_eq!(sum(&h["wins"]), r["wins"].as_u64().unwrap(), "{r}");
        assert_eq!(sum(&h["losses"]), r["losses"].as_u64().unwrap(), "{r}");
        assert_eq!(h["draws"], r["draws"], "{r}");
        let longest = h["wins"].as_array().unwrap().len() - 1;
        assert_eq!(longest as u64, r["longest_win"].as_u64().unwrap(), "{r}");
    }
    let o = jtb(&["stats", "--rules", AG, "--tables", root, "--histogram"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("RRvR       silver DTM wins   "),
        "{}",
        stdout(&o)
    );

    let o = jtb(&["info", "--json", &format!("{root}/{AG}/RRvR.dtm")]);
    assert!(o.status.success(), "{}", stdout(&o));
    let info = &json_lines(&o)[0];
    assert_eq!(info["rules"], AG);
    assert_eq!(info["material"], "RRvR");
    assert_eq!(info["stats"][0]["to_move"], "gold");
    let o = jtb(&["info", root]);
    assert!(
        stdout(&o).contains("WDL table of RvR under animal-gambit"),
        "{}",
        stdout(&o)
    );
    assert!(stdout(&o).contains("turns"));

    let o = jtb(&["verify", "--rules", AG, "--tables", root]);
    assert!(o.status.success(), "{}", stdout(&o));
    assert!(stdout(&o).contains("checksums: 2 of 2 tables intact"));
    assert!(stdout(&o).contains("ok   RRvR: 129024 entries agree with their turns"));

    // A damaged file: verify fails naming it, probe refuses, gen makes it again.
    let path = format!("{root}/{AG}/RRvR.dtm");
    let mut bytes = std::fs::read(&path).unwrap();
    let mid = bytes.len() / 2;
    bytes[mid] ^= 0x5a;
    std::fs::write(&path, bytes).unwrap();
    let o = jtb(&["verify", "--rules", AG, "--tables", root]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stdout(&o).contains("FAIL") && stdout(&o).contains("RRvR.dtm"),
        "{}",
        stdout(&o)
    );
    let o = jtb(&[
        "gen",
        "--rules",
        AG,
        "--material",
        "RRvR",
        "--out",
        root,
        "--quiet",
    ]);
    assert!(o.status.success());
    let o = jtb(&[
        "verify",
        "--rules",
        AG,
        "--tables",
        root,
        "--material",
        "RRvR",
    ]);
    assert!(o.status.success(), "{}", stdout(&o));
    // Verifying a table whose smaller table is missing names it and gives no verdict.
    std::fs::remove_file(format!("{root}/{AG}/RvR.wdl")).unwrap();
    let o = jtb(&[
        "verify",
        "--rules",
        AG,
        "--tables",
        root,
        "--material",
        "RRvR",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("cannot verify RRvR: the tables it needs: RvR is missing"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn bad_positions_and_materials_are_errors_naming_the_problem() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().to_str().unwrap();
    let o = jtb(&[
        "gen",
        "--rules",
        AG,
        "--material",
        "RvR",
        "--out",
        root,
        "--quiet",
    ]);
    assert!(o.status.success());
    for (text, expected) in [
        ("7/7/7/7/7/7/7/3R3/2e4 b", "Jungle (7x9) board"),
        ("8/3r4/8/8/8/8/4R3/8 g 0", "unexpected `0`"),
        ("8/3r4/8/8/8/8/4L3/8 g", "unknown letter `L`"),
        ("8/3r4/8/8/8/8/RRRRRRRR/RH6 g", "9 rabbits of gold"),
        ("8/3r4/8/8/8/2R5/8/8 g", "gold rabbit on trap c3"),
        (
            "R7/3r4/8/8/8/8/8/8 s",
            "gold rabbit on a8 stands on its goal rank",
        ),
        ("8/3e4/8/8/8/8/4R3/8 g", "silver has no rabbit"),
        ("8/3r4/8/8/8/8/3RR3/8 g", "missing table RRvR: "),
    ] {
        for command in ["probe", "adjudicate"] {
            let o = jtb(&[command, "--rules", AG, "--tables", root, text]);
            let out = stdout(&o);
            if expected.starts_with("missing table") && command == "adjudicate" {
                assert!(
                    out.contains(": not covered: missing table RRvR"),
                    "{text}: {out}"
                );
                assert_eq!(o.status.code(), Some(3), "{text}: {out}");
                continue;
            }
            assert_eq!(o.status.code(), Some(1), "{command} {text}: {out}");
            assert!(
                out.starts_with("error: ") && out.contains(expected),
                "{command} {text}: {out}"
            );
        }
    }
    // An Animal Gambit position under a Jungle rule set.
    let o = jtb(&[
        "probe",
        "--rules",
        "mistboard",
        "--tables",
        root,
        "8/3r4/8/8/8/8/4R3/8 g",
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stdout(&o).contains("rule set mistboard plays on 9 ranks"),
        "{}",
        stdout(&o)
    );
    // Bad materials, each named.
    for (m, expected) in [
        ("EvR", "gold has no rabbit"),
        ("EERvR", "more than 1 elephants of gold"),
        ("RxvR", "`x` is no piece letter"),
        ("RR", "no `v` between the sides"),
        ("LRvE", "`L` is no piece letter"),
    ] {
        let o = jtb(&["gen", "--rules", AG, "--material", m, "--out", root]);
        assert_eq!(o.status.code(), Some(2), "{m}");
        assert!(stderr(&o).contains(expected), "{m}: {}", stderr(&o));
        assert!(!stderr(&o).contains("panicked"), "{m}");
    }
    // A Jungle material is refused under Animal Gambit, and the reverse.
    let o = jtb(&[
        "verify",
        "--rules",
        "mistboard",
        "--tables",
        root,
        "--material",
        "RRvR",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("an animal twice in one side"),
        "{}",
        stderr(&o)
    );
    // No tables of the rule set.
    let empty = tempfile::tempdir().unwrap();
    let o = jtb(&[
        "stats",
        "--rules",
        AG,
        "--tables",
        empty.path().to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    // A rule set without a folder: the command that makes its tables.
    assert!(
        stderr(&o).contains("no tables for rule set animal-gambit: ")
            && stderr(&o).contains("(make them with `jtb gen --rules animal-gambit --out "),
        "{}",
        stderr(&o)
    );
    // A table beyond the memory limit is refused before it starts.
    let o = jtb(&[
        "gen",
        "--rules",
        AG,
        "--material",
        "RRvR",
        "--out",
        root,
        "--memory-limit",
        "10",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("table RRvR needs about 25 MiB"),
        "{}",
        stderr(&o)
    );
    // --no-deps without the smaller tables names them and writes nothing.
    let o = jtb(&[
        "gen",
        "--rules",
        AG,
        "--no-deps",
        "--material",
        "ERRvR",
        "--out",
        root,
    ]);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert!(
        err.contains("ERvR is missing") && err.contains("RRvR is missing"),
        "{err}"
    );
    assert!(!dir.path().join(AG).join("ERRvR.dtm").exists());
}

#[test]
fn a_plan_of_the_set_up_to_three_pieces_runs_under_make() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().to_str().unwrap();
    let o = jtb(&[
        "plan",
        "--rules",
        AG,
        "--max-pieces",
        "3",
        "--format",
        "list",
        "--out",
        root,
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let list = stdout(&o);
    assert_eq!(list.lines().count(), 7, "{list}");
    assert!(list.starts_with("2 RvR\n"), "{list}");
    assert!(
        list.contains("3 ERvR RvR\n") && list.contains("3 RRvR RvR\n"),
        "{list}"
    );
    let o = jtb(&[
        "plan",
        "--rules",
        AG,
        "--max-pieces",
        "3",
        "--format",
        "make",
        "--out",
        root,
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let makefile = dir.path().join("Makefile");
    std::fs::write(&makefile, stdout(&o)).unwrap();
    assert!(stdout(&o).contains("gen --rules animal-gambit"));
    let make = std::process::Command::new("make")
        .args(["-j", "2", "-f"])
        .arg(&makefile)
        .arg("verify")
        .output()
        .unwrap();
    assert!(
        make.status.success(),
        "{}",
        String::from_utf8_lossy(&make.stderr)
    );
    let out = String::from_utf8_lossy(&make.stdout);
    assert!(out.contains("checksums: 7 of 7 tables intact"), "{out}");
    assert!(out.contains("ok   MRvR"), "{out}");
    let o = jtb(&[
        "plan",
        "--rules",
        AG,
        "--max-pieces",
        "3",
        "--format",
        "slurm",
        "--out",
        root,
    ]);
    assert!(o.status.success());
    let script = stdout(&o);
    assert!(
        script.contains("--job-name=jtb-animal-gambit-3-gen --array=0-5"),
        "{script}"
    );
    assert!(
        script.contains("tables=(CRvR DRvR ERvR HRvR MRvR RRvR)"),
        "{script}"
    );
}
