//! One question asked of every game, with the same test body: the CLI answers each game the
//! same way where the games agree, and says so in the same words where they differ.

mod serve_support;

use std::process::{Command, Output};

/// Every game's rule set, a position of it, and whether it has a move-count clock.
const GAMES: [(&str, &str, bool); 4] = [
    ("mistboard", "7/7/7/7/7/3l3/7/3E3/7 r", true),
    ("flip4x4", "4/1c2/4/2L1 r", true),
    ("clesto", "7/7/7/7/7/3l3/7/3E3/7 r", false),
    ("animal-gambit", "8/3r4/8/8/8/8/4R3/8 g", false),
];

fn jtb(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_jtb"))
        .args(args)
        .output()
        .unwrap()
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// A clock given to a game without a move-count rule is refused in words, by `probe` and by
/// `adjudicate` alike; a game with one takes it (and answers, here, that it has no tables).
#[test]
fn a_clock_is_refused_exactly_where_the_game_has_none() {
    let empty = tempfile::tempdir().unwrap();
    let root = empty.path().to_str().unwrap();
    for (rules, position, has_clock) in GAMES {
        for command in ["probe", "adjudicate"] {
            let o = jtb(&[
                command, "--rules", rules, "--tables", root, "--json", "--clock", "3", position,
            ]);
            let out = stdout(&o);
            let line: serde_json::Value = serde_json::from_str(out.trim()).unwrap_or_else(|e| {
                panic!("{command} {rules}: {e}: {out}");
            });
            let error = line["error"].as_str().unwrap_or("");
            assert_eq!(
                error.contains("has no clock"),
                !has_clock,
                "{command} {rules}: {out}"
            );
            if !has_clock {
                assert_eq!(o.status.code(), Some(1), "{command} {rules}: {out}");
                assert!(error.contains(rules), "{command} {rules}: {out}");
            }
        }
    }
}

/// Every table of up to 2 pieces of each rule set in `rules`, under `root`.
fn gen_up_to_2(root: &std::path::Path, rules: &[&str]) {
    for rules in rules {
        let o = jtb(&[
            "gen",
            "--rules",
            rules,
            "--max-pieces",
            "2",
            "--out",
            root.to_str().unwrap(),
            "--quiet",
        ]);
        assert!(o.status.success(), "{rules}: {}", stderr(&o));
    }
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// A set whose largest table exceeds the memory limit is refused before anything is written,
/// naming the table and its estimate.
#[test]
fn a_set_beyond_the_memory_limit_is_refused_before_anything_is_written() {
    for (rules, _, _) in GAMES {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().to_str().unwrap();
        let o = jtb(&[
            "gen",
            "--rules",
            rules,
            "--max-pieces",
            "4",
            "--memory-limit",
            "1",
            "--out",
            root,
            "--quiet",
        ]);
        assert_eq!(o.status.code(), Some(2), "{rules}: {}", stderr(&o));
        assert!(
            stderr(&o).contains("MiB of memory, more than the 1 MiB allowed"),
            "{rules}: {}",
            stderr(&o)
        );
        let written: Vec<_> = std::fs::read_dir(dir.path().join(rules))
            .map(|d| d.flatten().map(|e| e.file_name()).collect())
            .unwrap_or_default();
        assert!(written.is_empty(), "{rules}: wrote {written:?}");
    }
}

/// A table file with one byte changed in its blocks: `info` and `stats`, which read only
/// headers, still check every byte against the file's checksum and say "damaged" with exit 1.
#[test]
fn info_and_stats_say_a_corrupted_table_is_damaged() {
    for (rules, material) in [
        ("mistboard", "EvL"),
        ("flip4x4", "EvL"),
        ("clesto", "LvE"),
        ("animal-gambit", "RvR"),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().to_str().unwrap();
        let o = jtb(&[
            "gen",
            "--rules",
            rules,
            "--material",
            material,
            "--out",
            root,
            "--quiet",
        ]);
        assert!(o.status.success(), "{rules}: {}", stderr(&o));
        let dtm = dir.path().join(rules).join(format!("{material}.dtm"));
        let o = jtb(&["info", dtm.to_str().unwrap()]);
        assert!(o.status.success(), "{rules}: {}", stdout(&o));
        let o = jtb(&["stats", "--rules", rules, "--tables", root]);
        assert!(o.status.success(), "{rules}: {}", stderr(&o));
        let mut bytes = std::fs::read(&dtm).unwrap();
        let at = bytes.len() - 12;
        bytes[at] ^= 0x5a;
        std::fs::write(&dtm, bytes).unwrap();
        let o = jtb(&["info", dtm.to_str().unwrap()]);
        assert_eq!(o.status.code(), Some(1), "{rules}: {}", stdout(&o));
        assert!(
            stdout(&o).starts_with("damaged: "),
            "{rules}: {}",
            stdout(&o)
        );
        assert!(stdout(&o).contains(&format!("{material}.dtm")), "{rules}");
        let o = jtb(&["stats", "--rules", rules, "--tables", root]);
        assert_eq!(o.status.code(), Some(1), "{rules}: {}", stderr(&o));
        assert!(stderr(&o).contains("damaged: "), "{rules}: {}", stderr(&o));
    }
}

/// `jtb adjudicate` without the tables a position needs: an error line saying it is not
/// covered, and exit status 3, never "play on".
#[test]
fn adjudicate_without_tables_is_an_error_of_its_own() {
    let empty = tempfile::tempdir().unwrap();
    let root = empty.path().to_str().unwrap();
    for (rules, position) in [
        ("mistboard", "7/7/7/7/7/3l3/7/3E3/7 r"),
        // Two animals on a side: beyond the built-in one-each check.
        ("flip4x4", "4/1c2/4/1RL1 r"),
        ("clesto", "7/7/7/7/7/3l3/7/3E3/7 r"),
        ("animal-gambit", "8/3r4/8/8/8/8/4R3/8 g"),
    ] {
        let o = jtb(&["adjudicate", "--rules", rules, "--tables", root, position]);
        let out = stdout(&o);
        assert_eq!(o.status.code(), Some(3), "{rules}: {out}");
        assert!(out.starts_with("error: "), "{rules}: {out}");
        assert!(out.contains("not covered"), "{rules}: {out}");
        assert!(!out.contains("play on"), "{rules}: {out}");
        // With a malformed line beside it, the bad input's status wins.
        let o = jtb(&[
            "adjudicate",
            "--rules",
            rules,
            "--tables",
            root,
            position,
            "not a position",
        ]);
        assert_eq!(o.status.code(), Some(1), "{rules}: {}", stdout(&o));
    }
}

/// `jtb verify` over every game (the flip game's chance tables as a fifth): each table's
/// checksums, then every entry one ply deep, reported as `ok   <table>: <n> entries agree
/// with ...`; a table whose smaller table is missing gets no verdict, in one wording for every
/// game (`cannot verify <table>: the tables it needs: <table> is missing`) with exit 2 (the
/// Jungle family's read "the tables it needs EvL is missing", and a chance table's was a
/// failure of the table itself, exit 1).
#[test]
fn verify_reports_every_game_in_the_same_words() {
    // Rule set, the table checked, and a smaller table it reads.
    let cases = [
        ("mistboard", "LRvE", "EvL"),
        ("flip4x4", "LvE-T", "Ev-t"),
        ("clesto", "LRvE", "LvE"),
        ("animal-gambit", "RRvR", "RvR"),
    ];
    for (rules, table, smaller) in cases {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().to_str().unwrap();
        let o = jtb(&[
            "gen",
            "--rules",
            rules,
            "--material",
            table,
            "--out",
            root,
            "--quiet",
        ]);
        assert!(o.status.success(), "{rules}: {}", stderr(&o));
        let verify = || {
            jtb(&[
                "verify",
                "--rules",
                rules,
                "--tables",
                root,
                "--material",
                table,
            ])
        };
        let o = verify();
        assert!(o.status.success(), "{rules}: {}{}", stdout(&o), stderr(&o));
        assert!(
            stdout(&o).contains("checksums: 1 of 1 tables intact"),
            "{rules}: {}",
            stdout(&o)
        );
        let ok_line = stdout(&o)
            .lines()
            .find(|l| l.starts_with("ok   "))
            .map(str::to_owned)
            .unwrap_or_default();
        assert!(
            ok_line.contains(" entries agree with their "),
            "{rules}: {}",
            stdout(&o)
        );
        let smaller_files: Vec<_> = std::fs::read_dir(dir.path().join(rules))
            .unwrap()
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.file_stem().and_then(|s| s.to_str()) == Some(smaller))
            .collect();
        assert!(!smaller_files.is_empty(), "{rules}: no {smaller}");
        for file in smaller_files {
            std::fs::remove_file(file).unwrap();
        }
        let o = verify();
        assert_eq!(o.status.code(), Some(2), "{rules}: {}", stderr(&o));
        let expected = format!("cannot verify {table}: the tables it needs: {smaller} is missing");
        assert!(stderr(&o).contains(&expected), "{rules}: {}", stderr(&o));
    }
}

/// Every rule set's tables open as their game's own tablebase type (`jtb_edge::AnyTablebase`,
/// what `jtb probe`, `jtb stats` and the server hold), with their tables counted; a rule set
/// without a directory says so; Clesto's tables asked for as a Jungle rule set's are refused
/// with the library's reason.
#[test]
fn every_rule_set_opens_as_its_own_tablebase() {
    use jtb_edge::{AnyTablebase, Rules, Tables};
    use jtb_probe::{ProbeError, RuleSet};

    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    // No flip4x4 tables: its directory is missing.
    gen_up_to_2(root, &["mistboard", "clesto", "animal-gambit"]);
    for rules in Rules::all() {
        let opened = AnyTablebase::open(root, rules, 1 << 20);
        let name = rules.name();
        let (tables, pieces) = match (rules, &opened) {
            (Rules::Jungle(RuleSet::Clesto), Ok(AnyTablebase::Clesto(_)))
            | (Rules::AnimalGambit, Ok(AnyTablebase::Gambit(_))) => opened.as_ref().unwrap().size(),
            (Rules::Jungle(RuleSet::Clesto) | Rules::AnimalGambit, _) => {
                panic!("{name}: not its own tablebase type")
            }
            (_, Ok(AnyTablebase::Jungle(_))) => opened.as_ref().unwrap().size(),
            (_, Err(ProbeError::NoDirectory { .. })) => {
                assert!(!root.join(name).exists(), "{name}");
                continue;
            }
            _ => panic!("{name}: not opened as a Jungle rule set's tables"),
        };
        let on_disk = std::fs::read_dir(root.join(name))
            .unwrap()
            .filter(|e| {
                let name = e.as_ref().unwrap().file_name();
                name.to_str().unwrap().ends_with(".wdl")
            })
            .count();
        assert_eq!((tables, pieces), (on_disk, 2), "{name}");
        let materials = opened.unwrap().family_materials();
        assert_eq!(
            materials.map(|m| m.len()),
            (rules != Rules::AnimalGambit).then_some(on_disk),
            "{name}"
        );
    }
    // Clesto's tables asked for as a Jungle rule set's do not compile (a doctest of
    // `Tables::jungle`): Clesto is no `jtb_probe::Jungle`.
    let tables = Tables::new(root, 1 << 20);
    assert!(tables.clesto().is_ok() && tables.gambit().is_ok());
    assert!(tables.jungle(jtb_probe::Jungle::Mistboard).is_ok());
}

/// A table that is not there is worded one way, by `jtb probe` and by the API alike, whether
/// the position has more pieces than any table present (the CLI said "3 pieces: more than the
/// tables cover" where the API named the table) or as many: the table, its file, and the
/// command that makes it, which writes where `--tables` looks.
#[test]
fn a_missing_table_is_worded_one_way_by_the_cli_and_the_api() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().to_str().unwrap();
    gen_up_to_2(dir.path(), &GAMES.map(|(rules, _, _)| rules));
    let server = serve_support::Server::start(dir.path());
    // Per game: a position of 3 pieces (more than any table present), and the table it needs.
    for (rules, position, table) in [
        ("mistboard", "7/7/7/7/7/3l3/7/3E3/R6 r", "ERvL"),
        ("flip4x4", "4/1c2/4/1RL1 r", "LRvC"),
        ("clesto", "7/7/7/7/7/3l3/7/3E3/R6 r", "ERvL"),
        ("animal-gambit", "8/3r4/8/8/8/8/4R3/R7 g", "RRvR"),
    ] {
        let api = serve_support::get(server.addr, &serve_support::probe_url(rules, "", position));
        assert_eq!(api.status, 404, "{rules}");
        let answer = api.json();
        assert_eq!(answer["code"], "missing-table", "{rules}: {answer}");
        let says = answer["error"].as_str().unwrap();
        let file = format!("{rules}/{table}.dtm");
        assert_eq!(
            says,
            format!(
                "missing table {table}: {file} is not there (make it with `jtb gen --rules \
                 {rules} --material {table}`)"
            ),
            "{rules}"
        );
        // The CLI names its own root, in the file and in the command.
        let cli = jtb(&["probe", "--rules", rules, "--tables", root, position]);
        assert_eq!(cli.status.code(), Some(1), "{rules}");
        let shown = says.replacen(&file, &format!("{root}/{file}"), 1).replacen(
            &format!("{table}`)"),
            &format!("{table} --out {root}`)"),
            1,
        );
        assert_eq!(
            stdout(&cli).trim(),
            format!("error: {position}: {shown}"),
            "{rules}"
        );
    }
}

/// Where a text lists the games (the help, a board of no game's shape, an unknown rule set),
/// it names all four and every rule set (it said "Jungle and flip-game" and "expected 9
/// (Jungle, 7x9) or 4 (flip game, 4x4)" while 8x8 boards were read).
#[test]
fn every_text_that_lists_the_games_names_all_four() {
    let help = stdout(&jtb(&["--help"]));
    for game in ["Jungle", "flip game", "Clesto", "Animal Gambit"] {
        assert!(help.contains(game), "--help: {help}");
    }
    let o = jtb(&["moves", "7 r"]);
    assert_eq!(o.status.code(), Some(1));
    for board in [
        "9 (Jungle and Clesto, 7x9)",
        "4 (flip game, 4x4)",
        "8 (Animal Gambit, 8x8)",
    ] {
        assert!(stdout(&o).contains(board), "{}", stdout(&o));
    }
    let o = jtb(&["probe", "--rules", "chess", "7 r"]);
    assert_eq!(o.status.code(), Some(2));
    let names: Vec<String> = jtb_edge::Rules::all()
        .iter()
        .map(ToString::to_string)
        .collect();
    assert_eq!(names.len(), 6);
    assert!(
        stderr(&o).contains(&format!("expected one of: {}", names.join(", "))),
        "{}",
        stderr(&o)
    );
}

/// `AnyTablebase::{wdl, dtm, best_move}` (what the C ABI and the edge's `Tables` probe
/// through) give each game's own answer: the typed tablebase's, its distance signed, the best
/// move in its text; a position of another game is `WrongRules`, never a value.
#[test]
fn any_tablebase_probes_answer_as_each_game_does() {
    use jtb_edge::{AnyPosition, AnyTablebase, Rules};
    use jtb_probe::{ClestoValue, ProbeError, Value};

    let dir = tempfile::tempdir().unwrap();
    gen_up_to_2(dir.path(), &GAMES.map(|(rules, _, _)| rules));
    let signed = |v: Value| match v {
        Value::Win(n) => i32::from(n),
        Value::Draw => 0,
        Value::Loss(n) => -i32::from(n),
    };
    for (rules, text, _) in GAMES {
        let rules: Rules = rules.parse().unwrap();
        let tb = AnyTablebase::open(dir.path(), rules, 1 << 20).unwrap();
        assert_eq!(tb.rules(), rules);
        let pos = AnyPosition::from_text(text, Some(rules)).unwrap();
        let (wdl, dtm, best) = match (&tb, &pos) {
            (AnyTablebase::Jungle(t), AnyPosition::Jungle(p)) => {
                let v = t.probe_dtm(p).unwrap();
                let best = t.best_move(p).unwrap().map(|b| b.mv.to_string());
                (v.wdl(), Some(signed(v)), best)
            }
            (AnyTablebase::Clesto(t), AnyPosition::Clesto(p)) => {
                let dtm = match t.probe_clesto(p).unwrap() {
                    ClestoValue::Plain(v) => Some(signed(v)),
                    _ => None,
                };
                let best = t.clesto_best_move(p).unwrap().map(|(mv, _)| mv.to_string());
                (t.probe_wdl(p).unwrap(), dtm, best)
            }
            (AnyTablebase::Gambit(t), AnyPosition::Gambit(p)) => {
                let v = t.probe_dtm(p).unwrap();
                let best = t.best_move(p).unwrap().map(|b| b.mv.to_string());
                (v.wdl(), Some(signed(v)), best)
            }
            _ => panic!("{rules}: tables and position of different games"),
        };
        assert_eq!(tb.wdl(&pos).unwrap(), wdl, "{rules}");
        assert_eq!(tb.dtm(&pos).unwrap(), dtm, "{rules}");
        assert_eq!(tb.best_move(&pos).unwrap(), best, "{rules}");
        assert!(best.is_some(), "{rules}: {text} has a best move");
        // A position of every other game is refused by name.
        for (other, other_text, _) in GAMES.iter().filter(|(r, _, _)| *r != rules.name()) {
            let other = AnyPosition::from_text(other_text, Some(other.parse().unwrap())).unwrap();
            for e in [
                tb.wdl(&other).map(|_| ()).unwrap_err(),
                tb.dtm(&other).map(|_| ()).unwrap_err(),
                tb.best_move(&other).map(|_| ()).unwrap_err(),
            ] {
                assert!(
                    matches!(&e, ProbeError::WrongRules { tablebase, .. } if *tablebase == rules.name()),
                    "{rules}: {e}"
                );
            }
        }
    }
}

/// `jtb moves` and the API's `/moves` list the same moves for every game, each printed by its
/// own game: the flip game's face-down tiles as flips (`jtb moves` refused them while the API
/// listed them), Clesto's starving moves with what they starve, Animal Gambit's turns. No
/// tables needed.
#[test]
fn jtb_moves_and_the_api_list_the_same_moves() {
    let dir = tempfile::tempdir().unwrap();
    let server = serve_support::Server::start(dir.path());
    let hidden = ("flip4x4", "?3/1e2/4/L2R r", true);
    // Clesto: the red cat a1 is hungry for the blue rat a2; stepping away starves it.
    let starving = ("clesto", "7/7/7/7/7/7/7/r6/C5E r", false);
    for (rules, position, _) in GAMES.into_iter().chain([hidden, starving]) {
        let cli = jtb(&["moves", "--json", "--rules", rules, position]);
        assert!(cli.status.success(), "{rules}: {}", stdout(&cli));
        let listed: serde_json::Value = serde_json::from_str(stdout(&cli).trim()).unwrap();
        let mut cli_moves: Vec<String> = listed["moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m.as_str().unwrap().to_owned())
            .collect();
        assert!(!cli_moves.is_empty(), "{rules} {position}");
        let api = serve_support::get(
            server.addr,
            &serve_support::probe_url(rules, "/moves", position),
        );
        assert_eq!(api.status, 200, "{rules}");
        let answer = api.json();
        let field = |list: &str, key: &str| -> Vec<String> {
            answer[list]
                .as_array()
                .map(|a| {
                    a.iter()
                        .map(|m| m[key].as_str().unwrap().to_owned())
                        .collect()
                })
                .unwrap_or_default()
        };
        let mut api_moves = if rules == "animal-gambit" {
            field("turns", "turn")
        } else {
            field("moves", "move")
        };
        if let Some(flips) = answer["flips"].as_array() {
            api_moves.extend(flips.iter().map(|sq| format!("?{}", sq.as_str().unwrap())));
        }
        cli_moves.sort();
        api_moves.sort();
        assert_eq!(cli_moves, api_moves, "{rules} {position}");
        // What only one game adds, in its own field.
        assert_eq!(
            listed.get("flips").is_some(),
            position.contains('?'),
            "{rules}"
        );
        assert_eq!(
            listed.get("starvations").is_some(),
            rules == "clesto",
            "{rules}"
        );
    }
    // RULES.md 8: a position at clock 40 is drawn, face-down tiles or not; neither lists a
    // move or a flip.
    let limit = "?3/4/1?2/c2L r 40 ?:Tw";
    let cli = jtb(&["moves", "--json", limit]);
    let listed: serde_json::Value = serde_json::from_str(stdout(&cli).trim()).unwrap();
    let none = serde_json::json!([]);
    assert_eq!((&listed["moves"], &listed["flips"]), (&none, &none));
    let api = serve_support::get(
        server.addr,
        &serve_support::probe_url("flip4x4", "/moves", limit),
    );
    let answer = api.json();
    assert_eq!((&answer["moves"], &answer["flips"]), (&none, &none));
}
