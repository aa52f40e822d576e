//! `jtb moves` end to end.

use std::{
    io::Write,
    process::{Command, Output, Stdio},
};

fn jtb(args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_jtb"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stdin.as_bytes())
        .unwrap();
    child.wait_with_output().unwrap()
}

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).unwrap()
}

#[test]
fn lists_sorted_moves_per_line() {
    let o = jtb(&["moves", "7/7/7/7/7/7/7/3R3/2e4 b", "4/4/4/c2L r"], "");
    assert!(o.status.success());
    assert_eq!(stdout(&o), "c1b1 c1c2 c1d1\nd1c1 d1d2\n");
}

#[test]
fn json_lines_and_bad_lines_go_on_with_status_1() {
    let o = jtb(
        &["moves", "--json", "-"],
        "7/7/7/7/7/7/7/3R3/2e4 b\nnot a position\n\n4/4/4/c2L r\n",
    );
    assert_eq!(o.status.code(), Some(1));
    let lines: Vec<serde_json::Value> = stdout(&o)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 3);
    assert_eq!(lines[0]["position"], "7/7/7/7/7/7/7/3R3/2e4 b");
    assert_eq!(
        lines[0]["moves"],
        serde_json::json!(["c1b1", "c1c2", "c1d1"])
    );
    assert_eq!(lines[1]["position"], "not a position");
    assert!(lines[1]["error"].as_str().unwrap().contains("ranks"));
    assert_eq!(lines[2]["moves"], serde_json::json!(["d1c1", "d1d2"]));
}

#[test]
fn finished_games_have_no_moves_and_face_down_tiles_can_be_flipped() {
    let o = jtb(&["moves", "7/7/7/7/7/7/7/3R3/7 b"], "");
    assert!(o.status.success());
    assert_eq!(stdout(&o), "\n");
    // RULES.md 8: each face-down tile's flip (`?a4`) beside the revealed animals' steps, in
    // ASCII order (flips first); a face-down tile blocks the way.
    let o = jtb(&["moves", "?3/4/4/c2L r", "?3/1e2/4/L2R r"], "");
    assert!(o.status.success(), "{}", stdout(&o));
    assert_eq!(stdout(&o), "?a4 d1c1 d1d2\n?a4 a1a2 a1b1 d1c1 d1d2\n");
    let o = jtb(&["moves", "--json", "?3/4/4/c2L r"], "");
    let line: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert_eq!(line["moves"], serde_json::json!(["?a4", "d1c1", "d1d2"]));
    // Without the hidden set (animals were captured) a flip's outcomes are not known.
    assert_eq!(
        line["flips"],
        serde_json::json!([{"move": "?a4", "outcomes": null}])
    );
}

/// RULES.md 8: with the hidden set known, each flip's outcomes, equally likely, with the
/// position each gives (the opponent to move, clock 0, the rest of the hidden set).
#[test]
fn a_flip_lists_its_outcomes_with_their_chances() {
    let text = "?3/4/1?2/c2L r 12 ?:Tw";
    let o = jtb(&["moves", text], "");
    assert!(o.status.success(), "{}", stdout(&o));
    assert_eq!(
        stdout(&o),
        "?a4 ?b2 d1c1 d1d2\n\
         \x20 ?a4: T 1/2 T3/4/1?2/c2L b 0 ?:w; w 1/2 w3/4/1?2/c2L b 0 ?:T\n\
         \x20 ?b2: T 1/2 ?3/4/1T2/c2L b 0 ?:w; w 1/2 ?3/4/1w2/c2L b 0 ?:T\n"
    );
    let o = jtb(&["moves", "--json", text], "");
    let line: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert_eq!(
        line["flips"][0],
        serde_json::json!({"move": "?a4", "outcomes": [
            {"animal": "T", "probability": "1/2", "position": "T3/4/1?2/c2L b 0 ?:w"},
            {"animal": "w", "probability": "1/2", "position": "w3/4/1?2/c2L b 0 ?:T"},
        ]})
    );
    // A side with no animal face up or face down has lost: no moves.
    let o = jtb(&["moves", "?3/4/4/3L r ?:T"], "");
    assert_eq!(stdout(&o), "\n");
    // A field that does not match the board is an error naming it.
    let o = jtb(&["moves", "?3/4/1?2/c2L r ?:T"], "");
    assert_eq!(o.status.code(), Some(1));
    assert!(stdout(&o).contains("names 1 animal, but the board has 2 face-down tiles"));
}

#[test]
fn rule_set_option() {
    let o = jtb(
        &["moves", "--rules", "leiden", "7/3R3/3e3/7/7/7/7/7/7 b"],
        "",
    );
    assert_eq!(stdout(&o), "d7c7 d7d6 d7d8 d7e7\n");
    let o = jtb(
        &["moves", "--rules", "flip4x4", "7/3R3/3e3/7/7/7/7/7/7 b"],
        "",
    );
    assert_eq!(o.status.code(), Some(1));
    assert!(stdout(&o).contains("rule set flip4x4 plays on 4 ranks"));
    let o = jtb(&["moves", "--rules", "chess", "4/4/4/c2L r"], "");
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("unknown rule set"));
}

#[test]
fn a_closed_pipe_ends_quietly_with_0() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_jtb"))
        .args(["moves", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // The reader goes away before the first line is written (as `head -1` does after one).
    drop(child.stdout.take());
    let mut stdin = child.stdin.take().unwrap();
    for _ in 0..1000 {
        if stdin
            .write_all(b"l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L r\n")
            .is_err()
        {
            break;
        }
    }
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn numbers_out_of_range_are_refused_by_the_parser() {
    for args in [
        &["gen", "--max-pieces", "9"][..],
        &["gen", "--max-pieces", "1"],
        &["gen", "--threads", "0"],
        &["gen", "--memory-limit", "0"],
    ] {
        let o = jtb(args, "");
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.contains("invalid value"), "{args:?}: {err}");
    }
    // Materials are read under the rule set (each game has its own names), right after the
    // arguments.
    for args in [
        &["gen", "--material", "RCDWPEvTLD"][..],
        &["verify", "--material", "RCDWPvTLEW"],
    ] {
        let o = jtb(args, "");
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(
            err.contains("has 9 pieces; tables hold at most 8"),
            "{args:?}: {err}"
        );
    }
}

#[test]
fn clesto_moves_show_their_starvations() {
    // The red cat a1 is hungry for the blue rat a2: stepping away starves it.
    let o = jtb(
        &[
            "moves",
            "--rules",
            "clesto",
            "7/7/7/7/7/7/7/r6/C5E r",
            "7/7/R6/7/3L3/7/7/6e/7 r h:a7",
        ],
        "",
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        lines[0],
        "a1a2 a1b1(starves:Cb1) g1f1(starves:Ca1) g1g2(starves:Ca1)"
    );
    assert!(
        lines[1].split(' ').all(|m| m.contains("(starves:R")),
        "{}",
        lines[1]
    );
    let o = jtb(
        &[
            "moves",
            "--json",
            "--rules",
            "clesto",
            "7/7/7/7/7/7/7/r6/C5E r",
        ],
        "",
    );
    let v: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert_eq!(
        v["moves"],
        serde_json::json!(["a1a2", "a1b1", "g1f1", "g1g2"])
    );
    assert_eq!(
        v["starvations"][0],
        serde_json::json!({"move": "a1b1", "starves": ["Cb1"]})
    );
    // A hungry set outside Clesto, and a clock in Clesto, are bad lines.
    let o = jtb(&["moves", "7/7/7/7/7/7/7/r6/C5E r h:a1"], "");
    assert_eq!(o.status.code(), Some(1));
    assert!(stdout(&o).contains("has no hunger"), "{}", stdout(&o));
    let o = jtb(
        &["moves", "--rules", "clesto", "7/7/7/7/7/7/7/r6/C5E r 0 1"],
        "",
    );
    assert!(stdout(&o).contains("has no clock"), "{}", stdout(&o));
}

#[test]
fn animal_gambit_turns_sorted_and_comma_separated() {
    // A lone rabbit each side: 22 turns (counted by hand in probe/tests/gambit_rules.rs).
    let text = "8/3r4/8/8/8/8/4R3/8 g";
    let o = jtb(&["moves", "--rules", "animal-gambit", "--json", text], "");
    assert!(o.status.success());
    let v: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert_eq!(v["position"], text);
    let moves: Vec<String> = v["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap().to_owned())
        .collect();
    assert_eq!(moves.len(), 22);
    let mut sorted = moves.clone();
    sorted.sort();
    assert_eq!(moves, sorted);
    assert_eq!(moves[0], "Re2e");
    assert!(moves.contains(&"Re2e Rf2n Rf3x".to_owned()));
    // Plain output: the same turns on one line, separated by `, `; an 8x8 board needs no
    // --rules.
    let o = jtb(&["moves", text], "");
    assert!(o.status.success());
    assert_eq!(stdout(&o), format!("{}\n", moves.join(", ")));
}

#[test]
fn animal_gambit_pushes_pulls_and_removals() {
    let o = jtb(
        &["moves", "--rules", "animal-gambit", "--json", "-"],
        "8/8/8/8/8/3r4/3E4/7R g\n",
    );
    assert!(o.status.success());
    let v: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    let moves = v["moves"].as_array().unwrap();
    for t in ["rd3w rc3x Ed2n", "rd3e Ed2n", "Ed2e rd3s", "Rh1n"] {
        assert!(moves.contains(&serde_json::json!(t)), "{t}");
    }
}

#[test]
fn animal_gambit_bad_positions_are_errors_naming_the_problem() {
    for (text, expected) in [
        ("7/7/7/7/7/7/7/3R3/2e4 b", "Jungle (7x9) board"),
        ("8/3r4/8/8/8/8/4R3/8 g 0", "unexpected `0`"),
        ("8/3r4/8/8/8/8/4R3/8 r", "bad side to move `r`"),
        ("8/3r4/8/8/8/8/4L3/8 g", "unknown letter `L`"),
        ("8/3r4/8/8/8/8/RRRRRRRR/RH6 g", "9 rabbits of gold"),
        ("8/3r4/8/8/8/2R5/8/8 g", "gold rabbit on trap c3"),
        (
            "R7/3r4/8/8/8/8/8/8 s",
            "gold rabbit on a8 stands on its goal rank",
        ),
        ("8/3e4/8/8/8/8/4R3/8 g", "silver has no rabbit"),
    ] {
        let o = jtb(&["moves", "--rules", "animal-gambit", text], "");
        assert_eq!(o.status.code(), Some(1), "{text}");
        let out = stdout(&o);
        assert!(
            out.starts_with("error: ") && out.contains(expected),
            "{text}: {out}"
        );
    }
    // And an Animal Gambit position under a Jungle rule set.
    let o = jtb(
        &["moves", "--rules", "mistboard", "8/3r4/8/8/8/8/4R3/8 g"],
        "",
    );
    assert_eq!(o.status.code(), Some(1));
    assert!(stdout(&o).contains("rule set mistboard plays on 9 ranks"));
}

#[test]
fn an_unknown_rule_set_is_refused_naming_the_rule_sets() {
    let o = jtb(&["moves", "--rules", "arimaa", "8/3r4/8/8/8/8/4R3/8 g"], "");
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("clesto, animal-gambit"));
}
