//! `jtb gen`, `info`, `verify`, `stats`, `probe` and `adjudicate` end to end, on tables up to 5
//! pieces.

mod cli_support;
mod serve_support;

use cli_support::{jtb, stderr, stdout};
use serve_support::wdl_files_alone;
use std::{
    path::Path,
    process::{Command, Output},
};

fn json_lines(o: &Output) -> Vec<serde_json::Value> {
    stdout(o)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

fn gen(dir: &Path, extra: &[&str]) -> Output {
    let mut args = vec!["gen", "--out", dir.to_str().unwrap()];
    args.extend_from_slice(extra);
    jtb(&args)
}

#[test]
fn generate_inspect_verify_and_probe() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().to_str().unwrap();
    let o = gen(dir.path(), &["--material", "ELvR"]);
    assert!(o.status.success(), "{}", stderr(&o));
    // Not a terminal: plain log lines, and a summary with time and memory.
    assert!(stderr(&o).contains("solved ELvR"), "{}", stderr(&o));
    assert!(stderr(&o).contains("generated 3 tables"), "{}", stderr(&o));
    // Again: everything is kept.
    let o = gen(dir.path(), &["--material", "RvLE", "--quiet"]);
    assert!(o.status.success());
    assert!(stderr(&o).is_empty());

    let o = jtb(&["info", "--json", &format!("{root}/mistboard/ELvR.dtm")]);
    assert!(o.status.success());
    let info = &json_lines(&o)[0];
    assert_eq!(info["kind"], "DTM");
    assert_eq!(info["rules"], "mistboard");
    assert_eq!(info["material"], "ELvR");
    assert_eq!(info["stats"][0]["to_move"], "red");
    let o = jtb(&["info", root]);
    assert!(stdout(&o).contains("WDL table of EvR under mistboard"));

    let o = jtb(&["verify", "--tables", root]);
    assert!(o.status.success(), "{}", stdout(&o));
    assert!(stdout(&o).contains("ok   ELvR"));

    let o = jtb(&["stats", "--tables", root, "--json"]);
    let rows = json_lines(&o);
    assert_eq!(rows.len(), 6);
    let elr = rows
        .iter()
        .find(|r| r["material"] == "ELvR" && r["to_move"] == "red")
        .unwrap();
    assert!(elr["wins"].as_u64().unwrap() > 0);
    assert!(elr["longest_win_position"]
        .as_str()
        .unwrap()
        .ends_with(" r"));
    // Positions per distance: the counts sum to the statistics, the last win is the longest.
    let o = jtb(&["stats", "--tables", root, "--json", "--histogram"]);
    assert!(o.status.success(), "{}", stderr(&o));
    for row in json_lines(&o) {
        let h = &row["histogram"]["dtm"];
        let sum = |k: &str| -> u64 {
            h[k].as_array()
                .unwrap()
                .iter()
                .map(|n| n.as_u64().unwrap())
                .sum()
        };
        assert_eq!(sum("wins"), row["wins"].as_u64().unwrap(), "{row}");
        assert_eq!(sum("losses"), row["losses"].as_u64().unwrap(), "{row}");
        assert_eq!(h["draws"], row["draws"], "{row}");
        let wins = h["wins"].as_array().unwrap();
        let last = wins
            .iter()
            .rposition(|n| n.as_u64() != Some(0))
            .unwrap_or(0);
        assert_eq!(serde_json::json!(last), row["longest_win"], "{row}");
        assert!(row["histogram"]["dtc"]["wins"].is_array());
    }
    let o = jtb(&["stats", "--tables", root, "--histogram"]);
    assert!(
        stdout(&o).contains("ELvR       red   DTM wins   "),
        "{}",
        stdout(&o)
    );

    let o = jtb(&[
        "probe",
        "--tables",
        root,
        "--json",
        "--line",
        "7/7/7/7/7/7/2L4/2E4/r6 b",
        "7/7/7/7/7/7/2LT3/2E4/r6 b",
        "junk",
    ]);
    assert_eq!(o.status.code(), Some(1));
    let rows = json_lines(&o);
    assert_eq!(rows[0]["rules"], "mistboard");
    assert!(rows[0]["wdl"] == "loss" || rows[0]["wdl"] == "win" || rows[0]["wdl"] == "draw");
    if rows[0]["wdl"] != "draw" {
        assert_eq!(
            rows[0]["line"].as_array().unwrap().len() as u64,
            rows[0]["dtm"].as_u64().unwrap()
        );
    }
    assert!(rows[1]["error"]
        .as_str()
        .unwrap()
        .contains("missing table ELTvR: "));
    assert!(rows[2]["error"].is_string());
    let o = jtb(&["probe", "--tables", root, "7/7/7/7/7/7/2L4/2E4/r6 b"]);
    assert!(
        stdout(&o).contains("value: ") && stdout(&o).contains(" a b c d e f g"),
        "{}",
        stdout(&o)
    );

    let o = jtb(&[
        "adjudicate",
        "--tables",
        root,
        "--json",
        "7/7/7/7/7/7/2L4/2E4/r6 b",
        "7/7/7/7/7/7/2LT3/2E4/r6 b",
    ]);
    // A position without its table is an error of its own (exit 3), never "play on".
    assert_eq!(o.status.code(), Some(3));
    let rows = json_lines(&o);
    assert_eq!(rows[0]["dead_draw"], rows[0]["wdl"] == "draw");
    assert!(rows[1]["dead_draw"].is_null());
    assert!(rows[1]["wdl"].is_null() && rows[1]["dtm"].is_null());
    assert!(rows[1]["error"].as_str().unwrap().contains("not covered"));

    // A corrupted file: verify names it and fails.
    let path = dir.path().join("mistboard/ELvR.dtm");
    let mut bytes = std::fs::read(&path).unwrap();
    let n = bytes.len();
    bytes[n / 2] ^= 0xff;
    std::fs::write(&path, bytes).unwrap();
    let o = jtb(&["verify", "--tables", root]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stdout(&o).contains("FAIL") && stdout(&o).contains("ELvR.dtm"),
        "{}",
        stdout(&o)
    );
    // gen notices and regenerates it.
    let o = gen(dir.path(), &["--material", "ELvR"]);
    assert!(stderr(&o).contains("regenerating ELvR"), "{}", stderr(&o));
    assert!(jtb(&["verify", "--tables", root]).status.success());
}

#[test]
fn generation_errors_are_clear() {
    let dir = tempfile::tempdir().unwrap();
    let o = gen(dir.path(), &["--material", "ELvR", "--memory-limit", "1"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("needs about") && stderr(&o).contains("MiB"),
        "{}",
        stderr(&o)
    );
    let file = dir.path().join("file");
    std::fs::write(&file, b"x").unwrap();
    let o = gen(&file.join("sub"), &["--material", "LvE"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("file/sub"), "{}", stderr(&o));
    let o = gen(dir.path(), &["--material", "LvXE"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("bad material"), "{}", stderr(&o));
    let o = gen(dir.path(), &["--rules", "chess"]);
    assert_eq!(o.status.code(), Some(2));
    // A flip position of one animal each needs no tables (the built-in check, as in the API).
    let none = dir.path().join("none");
    let o = jtb(&["probe", "--tables", none.to_str().unwrap(), "4/4/4/c2L r"]);
    assert!(o.status.success(), "{}", stdout(&o));
    assert!(stdout(&o).contains("best: "), "{}", stdout(&o));
    let o = jtb(&["probe", "--tables", none.to_str().unwrap(), "4/4/4/c1LR r"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stdout(&o).contains("no tables for rule set flip4x4: ")
            && stdout(&o).contains("make them with `jtb gen --rules flip4x4 --out "),
        "{}",
        stdout(&o)
    );
}

#[test]
fn flip_positions_in_probe_and_adjudicate() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().to_str().unwrap();
    let o = gen(
        dir.path(),
        &["--rules", "flip4x4", "--max-pieces", "2", "--quiet"],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let o = jtb(&["probe", "--tables", root, "--json", "4/4/4/c2L r"]);
    let row = &json_lines(&o)[0];
    assert_eq!(
        (
            row["rules"].as_str(),
            row["wdl"].as_str(),
            row["dtm"].as_u64()
        ),
        (Some("flip4x4"), Some("win"), Some(9))
    );
    let o = jtb(&[
        "adjudicate",
        "--json",
        "--clock",
        "31",
        "4/4/4/c2L r",
        "4/4/4/c2L b",
    ]);
    let rows = json_lines(&o);
    assert_eq!(rows[0]["dead_draw"], false);
    assert_eq!(rows[0]["dtm"], 9);
    let o = jtb(&["adjudicate", "--json", "--clock", "32", "4/4/4/c2L r"]);
    let rows = json_lines(&o);
    assert_eq!(
        (rows[0]["dead_draw"].as_bool(), rows[0]["wdl"].as_str()),
        (Some(true), Some("draw"))
    );
    assert!(rows[0]["dtm"].is_null());
    let o = jtb(&["adjudicate", "--json", "4/4/4/3L r", "4/4/4/4 b"]);
    assert_eq!(o.status.code(), Some(1));
    for row in json_lines(&o) {
        assert!(
            row["error"].as_str().unwrap().contains("game over"),
            "{row}"
        );
    }
    let o = jtb(&["adjudicate", "--json", "--clock", "41", "4/4/4/c2L r"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(json_lines(&o)[0]["error"]
        .as_str()
        .unwrap()
        .contains("above the limit"));
}

#[test]
fn a_generation_killed_midway_resumes_to_identical_files() {
    let clean = tempfile::tempdir().unwrap();
    let killed = tempfile::tempdir().unwrap();
    let args = [
        "--material",
        "LRvET",
        "--material",
        "TDvW",
        "--quiet",
        "--threads",
        "1",
    ];
    assert!(gen(clean.path(), &args).status.success());
    for delay_ms in [30, 150, 400] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_jtb"))
            .args(["gen", "--out", killed.path().to_str().unwrap()])
            .args(args)
            .spawn()
            .unwrap();
        std::thread::sleep(std::time::Duration::from_millis(delay_ms));
        let _ = child.kill();
        let _ = child.wait();
    }
    assert!(gen(killed.path(), &args).status.success());
    let tables = |d: &Path| -> Vec<(String, Vec<u8>)> {
        let mut v: Vec<(String, Vec<u8>)> = std::fs::read_dir(d.join("mistboard"))
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| !p.file_name().unwrap().to_string_lossy().starts_with('.'))
            .map(|p| {
                (
                    p.file_name().unwrap().to_string_lossy().into_owned(),
                    std::fs::read(&p).unwrap(),
                )
            })
            .collect();
        v.sort();
        v
    };
    let (a, b) = (tables(clean.path()), tables(killed.path()));
    assert_eq!(a.len(), b.len());
    assert!(a == b, "files differ after resuming");
}

#[test]
fn clock_rule_in_probe_adjudicate_info_and_stats() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().to_str().unwrap();
    assert!(gen(dir.path(), &["--material", "LvE", "--quiet"])
        .status
        .success());
    let win = "7/7/7/7/7/3l3/7/3E3/7 r"; // red wins in 17, the first capture or den entry in 17
    let probe = |extra: &[&str]| {
        let mut args = vec!["probe", "--tables", root, "--json", "--line"];
        args.extend_from_slice(extra);
        json_lines(&jtb(&args))
    };
    let rows = probe(&[win, &format!("{win} 83"), &format!("{win} 84")]);
    for row in &rows {
        // The plain fields stay as they were.
        assert_eq!(
            (row["wdl"].as_str(), row["dtm"].as_u64()),
            (Some("win"), Some(17))
        );
        assert_eq!(row["line"].as_array().unwrap().len(), 17);
        assert_eq!(
            (row["dtc"].as_u64(), row["category"].as_str()),
            (Some(17), Some("win"))
        );
    }
    assert_eq!(
        (rows[0]["clock"].as_u64(), rows[0]["rule_wdl"].as_str()),
        (Some(0), Some("win"))
    );
    assert_eq!(
        (rows[1]["clock"].as_u64(), rows[1]["rule_wdl"].as_str()),
        (Some(83), Some("win"))
    );
    assert_eq!(rows[1]["rule_line"].as_array().unwrap().len(), 17);
    assert_eq!(
        (rows[2]["clock"].as_u64(), rows[2]["rule_wdl"].as_str()),
        (Some(84), Some("draw"))
    );
    assert!(rows[2]["rule_line"].as_array().unwrap().is_empty());
    // --clock overrides the text's clock.
    let rows = probe(&["--clock", "84", &format!("{win} 3")]);
    assert_eq!(rows[0]["rule_wdl"], "draw");
    // The human output shows the rule value beside the plain one.
    let text = stdout(&jtb(&["probe", "--tables", root, &format!("{win} 84")]));
    assert!(
        text.contains("value: win") && text.contains("clock rule: draw at clock 84"),
        "{text}"
    );

    // Bad clocks are errors naming the problem.
    let o = jtb(&["probe", "--tables", root, "--json", "--clock", "101", win]);
    assert_eq!(o.status.code(), Some(1));
    assert!(json_lines(&o)[0]["error"]
        .as_str()
        .unwrap()
        .contains("above the limit"));
    let o = jtb(&["probe", "--tables", root, "--json", &format!("{win} x")]);
    assert_eq!(o.status.code(), Some(1));
    assert!(json_lines(&o)[0]["error"].is_string());
    let o = jtb(&["probe", "--tables", root, "--clock", "x", win]);
    assert_eq!(o.status.code(), Some(2));

    let adjudicate = |positions: &[&str]| {
        let mut args = vec!["adjudicate", "--tables", root, "--json"];
        args.extend_from_slice(positions);
        json_lines(&jtb(&args))
    };
    let rows = adjudicate(&[
        &format!("{win} 83"),
        &format!("{win} 84"),
        &format!("{win} 100"),
        "7/7/7/7/e6/7/7/7/1L5 r",
        "7/7/7/7/7/3l3/7/3E3/7 b 90",
    ]);
    assert_eq!(rows[0]["dead_draw"], false);
    assert_eq!(
        (rows[0]["dtc"].as_u64(), rows[0]["rule_wdl"].as_str()),
        (Some(17), Some("win"))
    );
    assert_eq!(rows[1]["dead_draw"], true);
    assert_eq!(
        (rows[1]["wdl"].as_str(), rows[1]["dtm"].as_u64()),
        (Some("win"), Some(17))
    );
    assert_eq!(
        (rows[1]["dtc"].as_u64(), rows[1]["rule_wdl"].as_str()),
        (Some(17), Some("draw"))
    );
    let reason = |i: usize| rows[i]["reason"].as_str().unwrap().to_owned();
    assert!(
        reason(1).contains("no conversion can be forced"),
        "{}",
        reason(1)
    );
    assert!(reason(2).contains("clock has run out"), "{}", reason(2));
    assert_eq!(rows[3]["dead_draw"], true);
    assert!(reason(3).contains("the tables say"), "{}", reason(3));
    assert_eq!(rows[4]["clock"], 90);

    // Face-down tiles are outside every table: an error, not a verdict.
    let o = jtb(&["adjudicate", "--json", "4/4/4/?2L r"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(json_lines(&o)[0]["error"]
        .as_str()
        .unwrap()
        .contains("face-down"));

    // info and stats show what the clock rule changes.
    let o = jtb(&["info", "--json", &format!("{root}/mistboard/EvL.dtc")]);
    let info = &json_lines(&o)[0];
    assert_eq!(info["kind"], "DTC");
    assert!(info["stats"][0]["cursed_wins"].is_u64());
    let o = jtb(&["stats", "--tables", root, "--json"]);
    for row in json_lines(&o) {
        assert!(row["longest_dtc"].as_u64().unwrap() <= row["longest_win"].as_u64().unwrap());
        assert_eq!(
            (row["cursed_wins"].as_u64(), row["blessed_losses"].as_u64()),
            (Some(0), Some(0))
        );
    }
    let o = jtb(&["verify", "--tables", root]);
    assert!(
        o.status.success() && stdout(&o).contains("DTC"),
        "{}",
        stdout(&o)
    );
}

#[test]
fn flip_positions_of_more_animals_adjudicate_by_the_clock_rule() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().to_str().unwrap();
    let o = gen(
        dir.path(),
        &["--rules", "flip4x4", "--material", "ERvL", "--quiet"],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let pos = "l3/4/4/ER2 r";
    let probe = json_lines(&jtb(&["probe", "--tables", root, "--json", pos]));
    let dtc = probe[0]["dtc"].as_u64().expect("a decided position");
    let rows = json_lines(&jtb(&[
        "adjudicate",
        "--tables",
        root,
        "--json",
        &format!("{pos} {}", 40 - dtc),
        &format!("{pos} {}", 41 - dtc),
    ]));
    assert_eq!(rows[0]["dead_draw"], false);
    assert_eq!(rows[0]["rule_wdl"], probe[0]["wdl"]);
    assert_eq!(rows[1]["dead_draw"], true);
    assert_eq!(rows[1]["rule_wdl"], "draw");
    // Without tables such a position is not covered; one animal each needs none.
    let none = dir.path().join("none");
    let rows = json_lines(&jtb(&[
        "adjudicate",
        "--tables",
        none.to_str().unwrap(),
        "--json",
        pos,
        "4/4/4/c2L r",
    ]));
    assert!(rows[0]["error"].as_str().unwrap().contains("not covered"));
    assert_eq!(
        (rows[1]["dead_draw"].as_bool(), rows[1]["dtc"].as_u64()),
        (Some(false), Some(9))
    );
}

/// A 5-piece table in every command: `gen --material`, `probe`, `adjudicate`, `stats` and
/// `verify` (one ply deep on all 322,828,856 entries, then its checksums), a verify refused
/// for memory or for missing and damaged smaller tables, and a damaged file named. The probe library is the reference for what the
/// commands print (`tests/tests/probe.rs` checks it one ply deep on this table).
#[test]
fn a_five_piece_table_in_every_command() {
    use jtb_probe::{Jungle, Layout, Material, Position, Tablebase, Value, Wdl};
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().to_str().unwrap();
    let o = gen(dir.path(), &["--material", "EDCvTP", "--quiet"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let rules = Jungle::Mistboard;
    let tb = Tablebase::open(dir.path(), rules).unwrap();
    let material: Material = "EDCvTP".parse().unwrap();
    assert!(tb.materials().contains(&material));

    // A win, a loss and a draw of the table, in both orientations.
    let layout = Layout::new(rules.rule_set(), material);
    let mut picked: Vec<(Position, Value)> = Vec::new();
    for idx in (0..layout.len()).step_by(1_000_003) {
        let Some(pos) = layout.position(idx) else {
            continue;
        };
        let value = tb.probe_dtm(&pos).unwrap();
        if picked.iter().all(|(_, v)| v.wdl() != value.wdl()) {
            picked.push((pos.color_flipped(), value));
            picked.push((pos, value));
        }
    }
    assert_eq!(picked.len(), 6, "a win, a loss and a draw");
    let texts: Vec<String> = picked.iter().map(|(p, _)| p.to_string()).collect();

    let mut args = vec!["probe", "--tables", root, "--json", "--line"];
    args.extend(texts.iter().map(String::as_str));
    let rows = json_lines(&jtb(&args));
    for ((pos, value), row) in picked.iter().zip(&rows) {
        assert_eq!(row["wdl"], value.wdl().to_string(), "{pos}");
        assert_eq!(row["dtm"].as_u64(), value.dtm().map(u64::from), "{pos}");
        let line = row["line"].as_array().unwrap();
        assert_eq!(line.len() as u64, row["dtm"].as_u64().unwrap_or(0), "{pos}");
    }

    let mut args = vec!["adjudicate", "--tables", root, "--json"];
    args.extend(texts.iter().map(String::as_str));
    let rows = json_lines(&jtb(&args));
    for ((pos, _), row) in picked.iter().zip(&rows) {
        let rule = tb.probe_rule(pos).unwrap();
        assert_eq!(row["dead_draw"], rule.wdl == Wdl::Draw, "{pos}: {row}");
        assert_eq!(row["rule_wdl"], rule.wdl.to_string(), "{pos}");
    }

    let rows = json_lines(&jtb(&["stats", "--tables", root, "--json"]));
    let five: Vec<_> = rows.iter().filter(|r| r["material"] == "EDCvTP").collect();
    assert_eq!(five.len(), 2);
    assert!(five.iter().all(|r| r["wins"].as_u64().unwrap() > 0));

    // Every entry one ply deep, DTM and DTC, and the WDL file against the DTM file.
    let one_ply = |env: &[(&str, &str)]| {
        let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_jtb"));
        cmd.args(["verify", "--tables", root, "--material", "EDCvTP"]);
        cmd.envs(env.iter().copied());
        cmd.output().unwrap()
    };
    let o = one_ply(&[]);
    assert!(o.status.success(), "{}{}", stdout(&o), stderr(&o));
    assert!(
        stdout(&o).contains("ok   EDCvTP: 322828856 entries agree"),
        "{}",
        stdout(&o)
    );
    // In a Slurm job of too little memory, the estimate refuses it before loading anything.
    let o = one_ply(&[("SLURM_MEM_PER_NODE", "300")]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("EDCvTP needs about") && stderr(&o).contains("300 MiB allowed"),
        "{}",
        stderr(&o)
    );
    // Smaller tables missing or damaged: each is named, and there is no verdict on the table.
    let sub = |m: &str, ext: &str| dir.path().join(format!("mistboard/{m}.{ext}"));
    let (missing, damaged) = (sub("EDCvT", "dtc"), sub("EDvTP", "wdl"));
    let kept = [
        std::fs::read(&missing).unwrap(),
        std::fs::read(&damaged).unwrap(),
    ];
    std::fs::remove_file(&missing).unwrap();
    let mut bytes = kept[1].clone();
    let middle = bytes.len() / 2;
    bytes[middle] ^= 0x01;
    std::fs::write(&damaged, bytes).unwrap();
    let o = one_ply(&[]);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert!(err.contains("cannot verify EDCvTP"), "{err}");
    assert!(
        err.contains("EDCvT is unusable") && err.contains(".dtc file is missing"),
        "{err}"
    );
    assert!(
        err.contains("EDvTP is unusable") && err.contains("EDvTP.wdl"),
        "{err}"
    );
    assert!(!stdout(&o).contains("ok   EDCvTP") && !stdout(&o).contains("FAIL"));
    std::fs::write(&missing, &kept[0]).unwrap();
    std::fs::write(&damaged, &kept[1]).unwrap();

    let verify = || {
        jtb(&[
            "verify",
            "--tables",
            root,
            "--material",
            "EDCvTP",
            "--checksums-only",
        ])
    };
    let o = verify();
    assert!(o.status.success(), "{}", stdout(&o));
    // One byte changed in the middle of the DTM file: the checksums name it.
    let path = dir.path().join("mistboard/EDCvTP.dtm");
    let mut bytes = std::fs::read(&path).unwrap();
    let middle = bytes.len() / 2;
    bytes[middle] ^= 0x20;
    std::fs::write(&path, bytes).unwrap();
    let o = verify();
    assert_eq!(o.status.code(), Some(1));
    let report = stdout(&o) + &stderr(&o);
    assert!(report.contains("EDCvTP.dtm"), "{report}");
}

/// A set of WDL files alone (as an engine ships it) answers `jtb probe` in every game: the WDL
/// as the whole set's, every field that needs another file `null`, and a `"missing"` note that
/// names the file; the text names it too. A whole set's answers have no note.
#[test]
fn a_set_of_wdl_files_alone_answers_probe_with_nulls_and_a_note() {
    use jtb_edge::{table_records, AnyPosition, Pick, Rules, PACKED_LEN};
    for (rules, material, needs) in [
        (
            "mistboard",
            "LRvE",
            &["dtm", "best", "dtc", "category", "rule_wdl"][..],
        ),
        ("clesto", "DvCR", &["dtm", "category", "exit", "best"][..]),
        ("animal-gambit", "ERvR", &["dtm", "best"][..]),
    ] {
        let full = tempfile::tempdir().unwrap();
        let wdl_only = tempfile::tempdir().unwrap();
        let o = gen(
            full.path(),
            &["--rules", rules, "--material", material, "--quiet"],
        );
        assert!(o.status.success(), "{}", stderr(&o));
        wdl_files_alone(full.path(), wdl_only.path(), rules);
        let rules_id: Rules = rules.parse().unwrap();
        let sample = Pick::Sample { count: 40, seed: 7 };
        let texts: Vec<String> = table_records(rules_id, material, sample)
            .unwrap()
            .chunks(PACKED_LEN)
            .map(|r| AnyPosition::unpack(r).unwrap().to_string())
            .collect();
        let probe = |root: &Path| {
            let mut args = vec!["probe", "--json", "--line", "--rules", rules, "--tables"];
            args.push(root.to_str().unwrap());
            args.extend(texts.iter().map(String::as_str));
            let o = jtb(&args);
            assert!(o.status.success(), "{rules}: {}", stderr(&o));
            json_lines(&o)
        };
        let (whole, partial) = (probe(full.path()), probe(wdl_only.path()));
        assert_eq!(whole.len(), texts.len());
        for (w, p) in whole.iter().zip(&partial) {
            assert_eq!(p["wdl"], w["wdl"], "{rules}: {p}");
            assert_eq!(p["position"], w["position"]);
            assert!(w.get("missing").is_none(), "{w}");
            for key in needs.iter().chain(&["line"]) {
                // A draw has no best move, with every file or without.
                if *key != "best" || w["best"] != serde_json::Value::Null {
                    assert!(p[key].is_null(), "{rules}: {key} in {p}");
                }
            }
            let note = p["missing"].as_str().unwrap();
            assert!(
                note.contains(&format!("no DTM file for table {material}")),
                "{note}"
            );
            assert!(
                note.contains(&format!("{material}.dtm is not there")),
                "{note}"
            );
            if rules == "mistboard" {
                assert!(note.contains("no DTC file"), "{note}");
            }
        }
        let mut args = vec!["probe", "--rules", rules, "--tables"];
        args.push(wdl_only.path().to_str().unwrap());
        args.push(&texts[0]);
        let o = jtb(&args);
        assert!(o.status.success(), "{}", stderr(&o));
        let text = stdout(&o);
        assert!(text.contains("missing: no DTM file for table"), "{text}");
    }
}

/// `jtb probe` of a flip position of one animal each answers the same with the tables and
/// without any (the built-in check, as the API answers it), at every clock.
#[test]
fn one_animal_each_is_answered_the_same_without_tables() {
    let dir = tempfile::tempdir().unwrap();
    let o = gen(
        dir.path(),
        &["--rules", "flip4x4", "--max-pieces", "2", "--quiet"],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let mut seed = 0x2545_F491_4F6C_DD1Du64;
    let mut next = |n: u64| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed % n
    };
    let animals = b"ETLWDPCR";
    let mut texts = Vec::new();
    while texts.len() < 300 {
        let (a, b) = (next(16) as usize, next(16) as usize);
        if a == b {
            continue;
        }
        let mut board = [b'.'; 16];
        board[a] = animals[next(8) as usize];
        board[b] = animals[next(8) as usize].to_ascii_lowercase();
        let rows: Vec<String> = board
            .chunks(4)
            .map(|row| {
                let mut text = String::new();
                let mut empty = 0;
                for &c in row {
                    if c == b'.' {
                        empty += 1;
                    } else {
                        if empty > 0 {
                            text += &empty.to_string();
                            empty = 0;
                        }
                        text.push(c as char);
                    }
                }
                if empty > 0 {
                    text += &empty.to_string();
                }
                text
            })
            .collect();
        let side = if next(2) == 0 { "r" } else { "b" };
        texts.push(format!("{} {side} {}", rows.join("/"), next(41)));
    }
    let probe = |root: &Path| {
        let mut args = vec![
            "probe", "--json", "--line", "--rules", "flip4x4", "--tables",
        ];
        args.push(root.to_str().unwrap());
        args.extend(texts.iter().map(String::as_str));
        let o = jtb(&args);
        stdout(&o)
    };
    let with = probe(dir.path());
    let without = probe(&dir.path().join("none"));
    assert_eq!(with.lines().count(), texts.len(), "{with}");
    assert!(
        with.lines().all(|l| l.contains("\"rule_line\":[")),
        "{with}"
    );
    assert_eq!(with, without);
}
