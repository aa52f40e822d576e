//! Clesto tables through every command: `gen`, `probe`, `adjudicate`, `stats`, `verify`, and a
//! damaged file.

mod cli_support;

use cli_support::{jtb, stderr, stdout};

fn json(o: &std::process::Output) -> Vec<serde_json::Value> {
    stdout(o)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[test]
fn clesto_tables_in_every_command() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().to_str().unwrap();
    // DvCR: Blue, with more animals, is the banned side.
    let o = jtb(&[
        "gen",
        "--rules",
        "clesto",
        "--material",
        "DvCR",
        "--out",
        root,
        "--quiet",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let files = std::fs::read_dir(dir.path().join("clesto"))
        .unwrap()
        .count();
    // DvCR, DvC, DvR: both orientations are separate tables, and CRvD is not needed.
    assert_eq!(files, 9);
    assert!(dir.path().join("clesto/DvCR.ban").exists());
    assert!(!dir.path().join("clesto/CRvD.dtm").exists());

    // A plain win, and a win of the banned side by the ban with its exit distance.
    let ban_win = "1r5/1c5/7/7/7/7/7/7/6D b";
    let o = jtb(&[
        "probe", "--rules", "clesto", "--tables", root, "--json", "--line", ban_win,
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v = &json(&o)[0];
    assert_eq!(v["wdl"], "win");
    assert_eq!(v["dtm"], serde_json::Value::Null);
    assert_eq!(v["category"], "ban-win");
    assert_eq!(v["exit"], 20);
    assert!(v["best"].is_string());
    // The line plays until the game leaves the material and then on to the end.
    assert!(v["line"].as_array().unwrap().len() >= 20);
    let o = jtb(&["probe", "--rules", "clesto", "--tables", root, ban_win]);
    assert!(
        stdout(&o).contains("blue, the banned side, forces the game out of this material"),
        "{}",
        stdout(&o)
    );

    // Clesto has no draws: adjudication gives the forced result, never a dead draw.
    let o = jtb(&[
        "adjudicate",
        "--rules",
        "clesto",
        "--tables",
        root,
        "--json",
        ban_win,
    ]);
    let v = &json(&o)[0];
    assert_eq!(v["dead_draw"], false);
    assert_eq!(v["wdl"], "win");
    assert!(v["reason"].as_str().unwrap().contains("no draws"));

    // Statistics: plain and ban wins per side; every position a win or a loss.
    let o = jtb(&["stats", "--rules", "clesto", "--tables", root, "--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let rows = json(&o);
    let blue = rows
        .iter()
        .find(|r| r["material"] == "DvCR" && r["to_move"] == "blue")
        .unwrap();
    assert!(blue["ban_wins"].as_u64().unwrap() > 0);
    assert_eq!(blue["longest_exit"], 20);
    assert!(rows.iter().all(|r| r.get("draws").is_none()));

    // One-ply verification of every entry, then a damaged ban file.
    let o = jtb(&["verify", "--rules", "clesto", "--tables", root]);
    assert!(o.status.success(), "{}", stdout(&o));
    assert!(stdout(&o).contains("ok   DvCR"), "{}", stdout(&o));
    let ban = dir.path().join("clesto/DvCR.ban");
    let mut bytes = std::fs::read(&ban).unwrap();
    let at = bytes.len() - 20;
    bytes[at] ^= 0x55;
    std::fs::write(&ban, bytes).unwrap();
    let o = jtb(&["verify", "--rules", "clesto", "--tables", root]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stdout(&o).contains("DvCR.ban"), "{}", stdout(&o));

    // What Clesto's values lack is refused in words: a clock.
    let o = jtb(&[
        "probe", "--rules", "clesto", "--tables", root, "--clock", "3", ban_win,
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stdout(&o).contains("no clock"), "{}", stdout(&o));
}
