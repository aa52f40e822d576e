//! `jtb serve`'s JSON API over a real bound port: every field checked against the probe
//! library on generated tables, every error status, hostile requests, damaged and missing
//! tables, and concurrent clients.

mod serve_support;

use std::{path::Path, thread};

use jtb_probe::{
    adjudicate, Jungle, Move, MoveKind, Outcome, Piece, Position, RuleSet, Tablebase, Value,
};
use serde_json::{json, Value as Json};
use serve_support::{
    assert_index_matches_stats, enc, gen, get, probe_url, random_positions, raw_status,
    wdl_files_alone, Conn, Rng, Server,
};

/// The tables of these tests: `LRvE` (wins up to 35 plies, a DTC of 7 in the README's example,
/// captures into `EvL` and `EvR`) and the flip game's `LRvE` with its one-animal-each tables.
fn tables(dir: &Path) {
    gen(dir, "mistboard", &["LRvE"]);
    gen(dir, "flip4x4", &["LRvE"]);
}

fn pieces(letters: &str) -> Vec<Piece> {
    letters
        .chars()
        .map(|c| Piece::from_letter(c).unwrap())
        .collect()
}

fn name_of(v: Value) -> &'static str {
    v.wdl().name()
}

fn kind_name(kind: MoveKind) -> &'static str {
    match kind {
        MoveKind::Quiet => "quiet",
        MoveKind::DenEntry => "den-entry",
        MoveKind::Capture => "capture",
        MoveKind::Trade => "trade",
    }
}

/// The answer expected for the position after `mv` (or the end of the game it brings).
fn expected_move(tb: &Tablebase, pos: &Position, mv: Move) -> Json {
    let capture = matches!(pos.move_kind(mv), Some(MoveKind::Capture | MoveKind::Trade));
    let kind = kind_name(pos.move_kind(mv).unwrap());
    match pos.play(mv).unwrap() {
        Outcome::Over { result, reason } => {
            let after = result.flipped();
            let dtm = (after != jtb_probe::Wdl::Draw).then_some(0);
            json!({"move": mv.to_string(), "position": null, "capture": capture, "kind": kind,
                   "end": reason.to_string(), "wdl": after.name(), "dtm": dtm, "dtc": dtm,
                   "category": after.name(), "clock": null, "rule_wdl": after.name()})
        }
        Outcome::Ongoing(next) => {
            let v = tb.probe_dtm(&next).unwrap();
            let r = tb.probe_rule(&next).unwrap();
            json!({"move": mv.to_string(), "position": next.to_string(), "capture": capture,
                   "kind": kind, "end": null, "wdl": name_of(v), "dtm": v.dtm(), "dtc": r.dtc.dtm(),
                   "category": r.category.name(), "clock": r.clock, "rule_wdl": r.wdl.name()})
        }
    }
}

/// Checks every field of a probe answer against the library: the value, DTM, best move, DTC,
/// category, clock and rule value, and each move's position and values; and that the moves are
/// every legal move, best first (shortest win, draws, longest loss; ties in ASCII order).
fn check_answer(tb: &Tablebase, pos: &Position, answer: &Json) {
    let value = tb.probe_dtm(pos).unwrap();
    let rule = tb.probe_rule(pos).unwrap();
    let best = match value {
        Value::Draw => None,
        _ => tb.best_move(pos).unwrap().map(|m| m.mv.to_string()),
    };
    // The best move under the clock rule, none in a rule draw (as `best` in a draw).
    let rule_best = match rule.wdl {
        jtb_probe::Wdl::Draw => None,
        _ => tb.rule_best_move(pos).unwrap().map(|m| m.mv.to_string()),
    };
    let expected = json!({
        "position": pos.to_string(), "rules": pos.rules().name(), "wdl": name_of(value),
        "dtm": value.dtm(), "best": best, "dtc": rule.dtc.dtm(), "category": rule.category.name(),
        "clock": rule.clock, "rule_wdl": rule.wdl.name(), "rule_best": rule_best,
    });
    for (k, v) in expected.as_object().unwrap() {
        assert_eq!(&answer[k], v, "{k} of {pos}");
    }
    let moves = answer["moves"].as_array().unwrap();
    // At the clock limit the game is drawn: no move leads on from it.
    if rule.clock >= pos.rules().clock_limit() {
        assert!(moves.is_empty(), "{pos}: {moves:?}");
        return;
    }
    let mut listed: Vec<String> = moves
        .iter()
        .map(|m| m["move"].as_str().unwrap().to_owned())
        .collect();
    // Best first: the mover's value never rises, and equal values go in ASCII order.
    let scored = tb.scored_moves(pos).unwrap();
    let scores: Vec<(Value, Move)> = listed
        .iter()
        .map(|m| {
            let mv = Move::parse(m, pos).unwrap();
            (scored.iter().find(|x| x.mv == mv).unwrap().value, mv)
        })
        .collect();
    for w in scores.windows(2) {
        assert!(
            w[0].0 > w[1].0 || (w[0].0 == w[1].0 && w[0].1 < w[1].1),
            "{pos}: {w:?}"
        );
    }
    if let Some(best) = &answer["best"].as_str() {
        assert_eq!(*best, listed[0]);
    }
    for m in moves {
        let mv = Move::parse(m["move"].as_str().unwrap(), pos).unwrap();
        assert_eq!(m, &expected_move(tb, pos, mv), "{pos}");
    }
    listed.sort();
    let legal: Vec<String> = pos.legal_moves().iter().map(|m| m.to_string()).collect();
    assert_eq!(listed, legal, "{pos}");
}

#[test]
fn every_field_agrees_with_the_library() {
    let dir = tempfile::tempdir().unwrap();
    tables(dir.path());
    let server = Server::start(dir.path());
    let tb = Tablebase::open(dir.path(), Jungle::Mistboard).unwrap();
    let mut conn = Conn::open(server.addr);
    let mut rng = Rng(0x5eed);
    let mut positions = random_positions(RuleSet::Mistboard, &pieces("LRe"), 150, &mut rng);
    positions.extend(random_positions(
        RuleSet::Mistboard,
        &pieces("Le"),
        30,
        &mut rng,
    ));
    let mut kinds = std::collections::BTreeSet::new();
    for (i, mut pos) in positions.into_iter().enumerate() {
        // Every third position at a random clock: given in the text or as `&clock=`.
        let clock = (i % 3 == 0).then(|| rng.below(101) as u32);
        let mut url = probe_url("mistboard", "", &pos.to_string());
        if let Some(c) = clock {
            url += &format!("&clock={c}");
        }
        pos.set_rule_clock(clock).unwrap();
        let r = conn.get(&url);
        assert_eq!(r.status, 200, "{}", String::from_utf8_lossy(&r.body));
        let answer = r.json();
        check_answer(&tb, &pos, &answer);
        kinds.insert((answer["wdl"].to_string(), answer["rule_wdl"].to_string()));
    }
    // Wins, draws and losses, and wins the clock turns into draws, were all seen.
    assert!(kinds.len() >= 4, "{kinds:?}");

    // The README's example: DTC 7, so a dead draw from clock 94.
    let text = "7/7/7/7/7/7/2L4/1e5/R6 r";
    let a = conn
        .get(&(probe_url("mistboard", "", text) + "&clock=94"))
        .json();
    assert_eq!(
        (&a["wdl"], &a["dtm"], &a["dtc"], &a["rule_wdl"], &a["best"]),
        (
            &json!("win"),
            &json!(35),
            &json!(7),
            &json!("draw"),
            &json!("a1b1")
        )
    );
    assert_eq!(a["position"], "7/7/7/7/7/7/2L4/1e5/R6 r 94");
    // The text's clock counts when no `&clock=` is given.
    let b = conn
        .get(&probe_url("mistboard", "", "7/7/7/7/7/7/2L4/1e5/R6 r 94 3"))
        .json();
    assert_eq!(
        (b["clock"].clone(), b["rule_wdl"].clone()),
        (json!(94), json!("draw"))
    );
}

/// The probe fields mean what they mean in `jtb probe --json`.
#[test]
fn fields_mean_what_jtb_probe_says() {
    let dir = tempfile::tempdir().unwrap();
    tables(dir.path());
    let server = Server::start(dir.path());
    let texts = [
        "7/7/7/7/7/7/2L4/1e5/R6 r",
        "7/7/7/7/7/7/2L4/1e5/R6 b 40",
        "7/3e3/7/7/7/7/7/2L4/R6 b",
        "4/4/1R2/L2e r 12",
    ];
    for text in texts {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_jtb"))
            .args(["probe", "--json", "--tables"])
            .arg(dir.path())
            .arg(text)
            .output()
            .unwrap();
        let cli: Json = serde_json::from_slice(&out.stdout).unwrap();
        let rules = if text.split('/').count() == 4 {
            "flip4x4"
        } else {
            "mistboard"
        };
        let api = get(server.addr, &probe_url(rules, "", text)).json();
        for k in [
            "rules", "wdl", "dtm", "best", "dtc", "category", "clock", "rule_wdl",
        ] {
            assert_eq!(api[k], cli[k], "{k} of {text}");
        }
    }
}

/// `jtb probe` words a missing table as the server does: the one wording of the library, with
/// the file named under `--tables` rather than relative to the root.
#[test]
fn jtb_probe_words_a_missing_table_as_the_server_does() {
    let dir = tempfile::tempdir().unwrap();
    tables(dir.path());
    let server = Server::start(dir.path());
    let text = "7/7/7/7/7/7/2L4/1t5/R6 r";
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_jtb"))
        .args(["probe", "--tables"])
        .arg(dir.path())
        .arg(text)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let cli = String::from_utf8(out.stdout).unwrap();
    let api = get(server.addr, &probe_url("mistboard", "", text)).json();
    let says = api["error"].as_str().unwrap();
    assert!(says.starts_with("missing table LRvT: mistboard/LRvT.dtm is not there (make it with `jtb gen --rules mistboard --material LRvT`)"), "{says}");
    // The CLI names its own root: the command it suggests writes where `--tables` looks.
    let file = "mistboard/LRvT.dtm";
    let root = dir.path().display();
    let shown = says.replacen(file, &format!("{root}/{file}"), 1).replacen(
        "LRvT`)",
        &format!("LRvT --out {root}`)"),
        1,
    );
    assert_eq!(cli.trim(), format!("error: {text}: {shown}"));
}

/// The steps of a line of `moves` played from `pos`, as the API writes them.
fn expected_steps(tb: &Tablebase, pos: &Position, moves: &[Move]) -> Vec<Json> {
    let mut current = pos.clone();
    let mut out = Vec::new();
    for &mv in moves {
        let kind = kind_name(current.move_kind(mv).unwrap());
        match current.play(mv).unwrap() {
            Outcome::Over { reason, .. } => out.push(json!({
                "move": mv.to_string(), "kind": kind, "end": reason.to_string(),
                "position": null, "clock": null, "wdl": null, "dtm": null, "rule_wdl": null,
                "dtc": null})),
            Outcome::Ongoing(next) => {
                let (v, r) = (tb.probe_dtm(&next).unwrap(), tb.probe_rule(&next).unwrap());
                out.push(json!({
                    "move": mv.to_string(), "kind": kind, "end": null,
                    "position": next.to_string(), "clock": r.clock, "wdl": name_of(v),
                    "dtm": v.dtm(), "rule_wdl": r.wdl.name(), "dtc": r.dtc.dtm()}));
                current = next;
            }
        }
    }
    out
}

#[test]
fn lines_and_moves_agree_with_the_library() {
    let dir = tempfile::tempdir().unwrap();
    tables(dir.path());
    let server = Server::start(dir.path());
    let tb = Tablebase::open(dir.path(), Jungle::Mistboard).unwrap();
    let mut conn = Conn::open(server.addr);
    let mut rng = Rng(77);
    for pos in random_positions(RuleSet::Mistboard, &pieces("LRe"), 25, &mut rng) {
        for clock in [0, 70, 95] {
            let mut pos = pos.clone();
            pos.set_rule_clock(Some(clock)).unwrap();
            let a = conn
                .get(&probe_url("mistboard", "/line", &pos.to_string()))
                .json();
            // The lines' positions carry the clock as the line is played from `pos`, and each
            // step both its values.
            let plain: Vec<Move> = tb.line(&pos).unwrap().iter().map(|s| s.mv).collect();
            let rule: Vec<Move> = tb.rule_line(&pos).unwrap().iter().map(|s| s.mv).collect();
            assert_eq!(a["line"], json!(expected_steps(&tb, &pos, &plain)), "{pos}");
            assert_eq!(
                a["rule_line"],
                json!(expected_steps(&tb, &pos, &rule)),
                "{pos}"
            );
            // The plain line's values are the library's.
            for (step, lib) in a["line"]
                .as_array()
                .unwrap()
                .iter()
                .zip(tb.line(&pos).unwrap())
            {
                assert_eq!(step["dtm"], json!(lib.value.and_then(Value::dtm)));
            }
            assert_eq!(a["clock"], clock);
            let m = conn
                .get(&probe_url("mistboard", "/moves", &pos.to_string()))
                .json();
            let legal: Vec<String> = pos.legal_moves().iter().map(|m| m.to_string()).collect();
            let listed: Vec<&str> = m["moves"]
                .as_array()
                .unwrap()
                .iter()
                .map(|m| m["move"].as_str().unwrap())
                .collect();
            assert_eq!(listed, legal);
        }
    }
}

/// The statistics are the objects of `jtb stats --json`, for either orientation of a material.
#[test]
fn stats_agree_with_jtb_stats() {
    let dir = tempfile::tempdir().unwrap();
    tables(dir.path());
    let server = Server::start(dir.path());
    let mut conn = Conn::open(server.addr);

    let out = std::process::Command::new(env!("CARGO_BIN_EXE_jtb"))
        .args(["stats", "--json", "--tables"])
        .arg(dir.path())
        .output()
        .unwrap();
    let cli: Vec<Json> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    for (material, canonical, depends) in [
        // Where captures lead, in the orientation asked: Red keeps its colour.
        ("LRvE", "LRvE", vec!["LvE", "RvE"]),
        ("EvR", "EvR", vec![]),
    ] {
        let r = conn.get(&format!("/api/v1/mistboard/stats/{material}"));
        assert_eq!(r.status, 200);
        let s = r.json();
        let expected: Vec<&Json> = cli.iter().filter(|o| o["material"] == canonical).collect();
        assert_eq!(
            s["stats"].as_array().unwrap().iter().collect::<Vec<_>>(),
            expected
        );
        assert_eq!(
            (&s["material"], &s["table"], &s["flipped"]),
            (&json!(canonical), &json!(canonical), &json!(false))
        );
        let mut listed: Vec<&str> = s["depends_on"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m.as_str().unwrap())
            .collect();
        listed.sort_unstable();
        assert_eq!(listed, depends);
    }
    let index = conn.get("/api/v1").json();
    let set = &index["rule_sets"][0];
    assert_eq!(
        (
            &set["rules"],
            &set["tables"],
            &set["max_pieces"],
            &set["error"]
        ),
        (&json!("mistboard"), &json!(3), &json!(3), &Json::Null)
    );
    // The board as data: the page draws any rule set's board from it.
    let board = &set["board"];
    assert_eq!((&board["width"], &board["height"]), (&json!(7), &json!(9)));
    assert_eq!(board["water"].as_array().unwrap().len(), 12);
    assert_eq!(
        board["red"],
        json!({"den": "d1", "traps": ["c1", "e1", "d2"]})
    );
    assert_eq!(
        board["blue"],
        json!({"den": "d9", "traps": ["d8", "c9", "e9"]})
    );
    assert_eq!(board["clock_limit"], 100);
    let flip = &index["rule_sets"][3]["board"];
    let names = json!({"R": "rat", "C": "cat", "D": "dog", "W": "wolf", "P": "leopard",
                       "T": "tiger", "L": "lion", "E": "elephant"});
    assert_eq!(
        flip,
        &json!({"game": "flip", "title": "Flip game", "width": 4, "height": 4, "water": [],
                "red": {"den": null, "traps": []}, "blue": {"den": null, "traps": []},
                "traps": [], "dens": [], "clock_limit": 40, "hunger": false,
                "sides": ["red", "blue"], "side_letters": ["r", "b"], "distance_unit": "plies",
                "turns_of_steps": false, "style": "tiles", "piece_set": "jungle",
                "piece_names": names})
    );
    // What the page would otherwise tell from the game's name, the API says for every game.
    let said: Vec<(String, Json)> = index["rule_sets"]
        .as_array()
        .unwrap()
        .iter()
        .map(|set| {
            let b = &set["board"];
            let fields = [
                "game",
                "title",
                "sides",
                "side_letters",
                "distance_unit",
                "turns_of_steps",
                "style",
                "piece_set",
                "traps",
                "dens",
            ];
            for key in fields {
                assert!(!b[key].is_null(), "{}: no {key}", set["rules"]);
            }
            let said = json!([
                b["game"],
                b["title"],
                b["distance_unit"],
                b["turns_of_steps"],
                b["style"],
                b["traps"].as_array().unwrap().len()
            ]);
            (set["rules"].as_str().unwrap().to_owned(), said)
        })
        .collect();
    let expected = [
        (
            "mistboard",
            json!(["jungle", "Jungle", "plies", false, "land", 6]),
        ),
        (
            "tiger-lengthwise",
            json!(["jungle", "Jungle", "plies", false, "land", 6]),
        ),
        (
            "leiden",
            json!(["jungle", "Jungle", "plies", false, "land", 6]),
        ),
        (
            "flip4x4",
            json!(["flip", "Flip game", "plies", false, "tiles", 0]),
        ),
        (
            "clesto",
            json!(["clesto", "Clesto", "plies", false, "land", 6]),
        ),
        (
            "animal-gambit",
            json!(["animal-gambit", "Animal Gambit", "turns", true, "plain", 4]),
        ),
    ];
    let expected: Vec<(String, Json)> = expected
        .into_iter()
        .map(|(r, j)| (r.to_owned(), j))
        .collect();
    assert_eq!(said, expected);
    assert_eq!(index["rule_sets"][3]["without_tables"], "one each");
    assert_eq!(
        index["rule_sets"][5]["board"]["sides"],
        json!(["gold", "silver"])
    );
    let materials = conn.get("/api/v1/mistboard/materials").json();
    assert_eq!(materials["materials"], json!(["EvL", "EvR", "LRvE"]));
    // The material index: each table's counts and longest wins, as `jtb stats`.
    for (entry, name) in materials["tables"]
        .as_array()
        .unwrap()
        .iter()
        .zip(["EvL", "EvR", "LRvE"])
    {
        assert_eq!(entry["material"], name);
        let rows: Vec<&Json> = cli.iter().filter(|o| o["material"] == name).collect();
        assert_index_matches_stats(entry, &rows, name);
        assert_eq!(entry["pieces"], name.len() - 1);
    }
}

/// A material asked with the colours the other way round (`EvLR`: Blue has the lion and the
/// rat) answers in that orientation: its Red row is the table's Blue row with the colours
/// swapped, the longest wins are positions where Red has the elephant, and `table` names the
/// stored table.
#[test]
fn stats_answer_in_the_orientation_asked() {
    let dir = tempfile::tempdir().unwrap();
    tables(dir.path());
    let server = Server::start(dir.path());
    let stored = get(server.addr, "/api/v1/mistboard/stats/LRvE").json();
    let asked = get(server.addr, "/api/v1/mistboard/stats/EvLR").json();
    assert_eq!(
        (&asked["material"], &asked["table"], &asked["flipped"]),
        (&json!("EvLR"), &json!("LRvE"), &json!(true))
    );
    for (side, to_move) in [(0, "red"), (1, "blue")] {
        let theirs = &stored["stats"][1 - side];
        let mine = &asked["stats"][side];
        assert_eq!(mine["to_move"], to_move);
        assert_eq!(mine["material"], "EvLR");
        for k in [
            "wins",
            "draws",
            "losses",
            "longest_win",
            "cursed_wins",
            "longest_dtc",
        ] {
            assert_eq!(mine[k], theirs[k], "{k} of {to_move}");
        }
        for k in ["longest_win_position", "longest_dtc_position"] {
            let Some(text) = theirs[k].as_str() else {
                assert!(mine[k].is_null());
                continue;
            };
            let flipped: Position = text.parse::<Position>().unwrap().color_flipped();
            assert_eq!(mine[k], flipped.to_string(), "{k}");
            // Red has the elephant in the position shown for EvLR.
            let pos: Position = mine[k].as_str().unwrap().parse().unwrap();
            assert_eq!(jtb_probe::Material::of(&pos).to_string(), "EvLR");
        }
        assert_eq!(
            asked["histogram"]["dtm"][side]["wins"],
            stored["histogram"]["dtm"][1 - side]["wins"]
        );
    }
    let mut deps: Vec<&str> = asked["depends_on"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap())
        .collect();
    deps.sort_unstable();
    assert_eq!(deps, ["EvL", "EvR"]);
}

/// The histograms count every legal position (before symmetry) per distance, as the headers'
/// statistics do: their totals are the win, draw and loss counts, the longest win is the last
/// distance with a win, and they agree with probing every position of a small table.
#[test]
fn histograms_count_every_position_by_its_distance() {
    let dir = tempfile::tempdir().unwrap();
    tables(dir.path());
    let server = Server::start(dir.path());
    let tb = Tablebase::open(dir.path(), Jungle::Mistboard).unwrap();
    for material in ["LRvE", "EvL", "EvR"] {
        let s = get(server.addr, &format!("/api/v1/mistboard/stats/{material}")).json();
        for side in 0..2 {
            let st = &s["stats"][side];
            let h = &s["histogram"]["dtm"][side];
            let sum = |k: &str| -> u64 {
                h[k].as_array()
                    .unwrap()
                    .iter()
                    .map(|n| n.as_u64().unwrap())
                    .sum()
            };
            assert_eq!(sum("wins"), st["wins"].as_u64().unwrap(), "{material}");
            assert_eq!(sum("losses"), st["losses"].as_u64().unwrap(), "{material}");
            assert_eq!(h["draws"], st["draws"], "{material}");
            let wins = h["wins"].as_array().unwrap();
            let longest = wins
                .iter()
                .rposition(|n| n.as_u64() != Some(0))
                .unwrap_or(0);
            assert_eq!(json!(longest), st["longest_win"], "{material}");
            let d = &s["histogram"]["dtc"][side];
            let total = |h: &Json| -> u64 {
                ["wins", "losses"]
                    .iter()
                    .flat_map(|k| h[k].as_array().unwrap())
                    .map(|n| n.as_u64().unwrap())
                    .sum::<u64>()
                    + h["draws"].as_u64().unwrap()
            };
            assert_eq!(total(d), total(h), "{material}");
        }
    }
    // EvR by brute force: every placement of the two pieces, each side to move.
    let mut counts = [
        std::collections::BTreeMap::<Value, u64>::new(),
        Default::default(),
    ];
    let squares: Vec<_> = RuleSet::Mistboard.board().squares().collect();
    for (side, turn) in [jtb_probe::Color::Red, jtb_probe::Color::Blue]
        .into_iter()
        .enumerate()
    {
        for &a in &squares {
            for &b in &squares {
                let placed = [
                    (Piece::from_letter('E').unwrap(), a),
                    (Piece::from_letter('r').unwrap(), b),
                ];
                let Ok(pos) = Position::from_pieces(RuleSet::Mistboard, turn, placed) else {
                    continue;
                };
                *counts[side].entry(tb.probe_dtm(&pos).unwrap()).or_default() += 1;
            }
        }
    }
    let s = get(server.addr, "/api/v1/mistboard/stats/EvR").json();
    for side in 0..2 {
        let h = &s["histogram"]["dtm"][side];
        for (value, n) in &counts[side] {
            let found = match value {
                Value::Win(d) => &h["wins"][usize::from(*d)],
                Value::Loss(d) => &h["losses"][usize::from(*d)],
                Value::Draw => &h["draws"],
            };
            assert_eq!(found, &json!(n), "{value:?}");
        }
    }
}

/// One animal each in the flip game: the built-in check answers without any table, and agrees
/// with the tables where they exist.
#[test]
fn flip_one_each_needs_no_tables() {
    let empty = tempfile::tempdir().unwrap();
    let bare = Server::start(empty.path());
    let dir = tempfile::tempdir().unwrap();
    tables(dir.path());
    let tb = Tablebase::open(dir.path(), Jungle::Flip4x4).unwrap();
    let mut conn = Conn::open(bare.addr);
    let mut rng = Rng(4242);
    let mut seen = std::collections::BTreeSet::new();
    for letters in ["Le", "El", "Re", "Er"] {
        for mut pos in random_positions(RuleSet::Flip4x4, &pieces(letters), 40, &mut rng) {
            pos.set_rule_clock(Some(rng.below(41) as u32)).unwrap();
            let r = conn.get(&probe_url("flip4x4", "", &pos.to_string()));
            assert_eq!(r.status, 200, "{}", String::from_utf8_lossy(&r.body));
            let a = r.json();
            check_answer(&tb, &pos, &a);
            // The library's adjudication says the same at the position's clock.
            let verdict = adjudicate(None, &pos).unwrap();
            assert_eq!(a["rule_wdl"], verdict.rule_wdl().unwrap().name(), "{pos}");
            seen.insert(a["rule_wdl"].to_string());
            let line = conn
                .get(&probe_url("flip4x4", "/line", &pos.to_string()))
                .json();
            let plain: Vec<String> = tb
                .line(&pos)
                .unwrap()
                .iter()
                .map(|s| s.mv.to_string())
                .collect();
            let rule: Vec<String> = tb
                .rule_line(&pos)
                .unwrap()
                .iter()
                .map(|s| s.mv.to_string())
                .collect();
            let moves = |k: &str| -> Vec<String> {
                line[k]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|s| s["move"].as_str().unwrap().to_owned())
                    .collect()
            };
            assert_eq!(moves("line"), plain, "{pos}");
            assert_eq!(moves("rule_line"), rule, "{pos}");
        }
    }
    assert_eq!(seen.len(), 3, "{seen:?}");
    // More than one animal a side needs the tables, which this server has not.
    let r = conn.get(&probe_url("flip4x4", "", "4/4/1R2/L2e r"));
    assert_eq!(r.status, 404);
    assert!(r.json()["error"].as_str().unwrap().contains("flip4x4"));
}

/// A position the tables of these tests answer.
const OK: &str = "7/7/7/7/7/7/2L4/1e5/R6 r";

/// Requests that must fail: the target, its status, its code, and words of its error.
fn error_cases() -> Vec<(String, u16, &'static str, &'static str)> {
    let p = |rules: &str, path: &str, text: &str| probe_url(rules, path, text);
    let ok = |extra: &str| probe_url("mistboard", "", OK) + extra;
    let stats = |m: &str| format!("/api/v1/mistboard/stats/{m}");
    let long = "7/".repeat(200) + " r";
    let missing_lrvt = "missing table LRvT: mistboard/LRvT.dtm is not there (make it with \
                        `jtb gen --rules mistboard --material LRvT`)";
    vec![
        (p("mistboard", "", "7/7/7 r"), 400, "bad-position", "ranks"),
        (
            p("mistboard", "", "hello"),
            400,
            "bad-position",
            "bad position",
        ),
        (
            p("mistboard", "", "7/7/7/7/7/7/2L4/1e5/X6 r"),
            400,
            "bad-position",
            "bad position",
        ),
        (
            p("mistboard", "", "7/7/7/7/7/7/2L4/1e5/R6 x"),
            400,
            "bad-position",
            "bad position",
        ),
        (
            p("mistboard", "", "7/7/7/7/7/7/2L4/1e5/R6 r 101"),
            400,
            "bad-clock",
            "above the limit",
        ),
        (ok("&clock=101"), 400, "bad-clock", "above the limit"),
        (
            ok("&clock=-1"),
            400,
            "bad-clock",
            "clock `-1` is not a number of half-moves (0 to 100 for mistboard)",
        ),
        (
            ok("&clock=x"),
            400,
            "bad-clock",
            "clock `x` is not a number",
        ),
        (ok("&clock="), 400, "bad-clock", "clock `` is not a number"),
        (
            ok("&clock=99999999999"),
            400,
            "bad-clock",
            "clock 99999999999 is above the limit of 100",
        ),
        (
            ok("&position=x"),
            400,
            "bad-query",
            "`position` given twice",
        ),
        (
            ok("&clock=1&clock=2"),
            400,
            "bad-query",
            "`clock` given twice",
        ),
        (
            p("flip4x4", "", "4/4/4/c2L r") + "&clock=41",
            400,
            "bad-clock",
            "above the limit",
        ),
        (
            "/api/v1/mistboard".into(),
            400,
            "bad-query",
            "missing query parameter `position`",
        ),
        (
            "/api/v1/mistboard?position=%FF%FE".into(),
            400,
            "bad-query",
            "not UTF-8",
        ),
        (p("mistboard", "", &long), 400, "bad-query", "at most"),
        (
            p("mistboard", "", "7/7/7/7/7/7/7/7/R6 r"),
            400,
            "game-over",
            "game over",
        ),
        (
            p("flip4x4", "", "4/4/1?2/L2e r"),
            400,
            "hidden-tiles",
            "face-down",
        ),
        (
            p("mistboard", "", "4/4/4/c2L r"),
            400,
            "bad-position",
            "ranks",
        ),
        (
            p("leiden", "", OK),
            404,
            "missing-table",
            "missing table LRvE: leiden/LRvE.dtm is not there (make it with `jtb gen --rules \
             leiden --material LRvE`)",
        ),
        (p("chess", "", OK), 404, "unknown-rules", "unknown rule set"),
        (
            p("..%2F..%2Fetc%2Fpasswd", "", OK),
            404,
            "unknown-rules",
            "unknown rule set",
        ),
        (
            p("%2e%2e", "/line", OK),
            404,
            "unknown-rules",
            "unknown rule set",
        ),
        (
            p("mistboard", "", "7/7/7/7/7/7/2L4/1e5/RT5 r"),
            404,
            "missing-table",
            "missing table LTRvE: mistboard/LTRvE.dtm is not there (make it with `jtb gen \
             --rules mistboard --material LTRvE`)",
        ),
        (
            p("mistboard", "", "7/7/7/7/7/7/2L4/1t5/R6 r"),
            404,
            "missing-table",
            missing_lrvt,
        ),
        (
            p("mistboard", "/line", "7/7/7/7/7/7/2L4/1t5/R6 r"),
            404,
            "missing-table",
            missing_lrvt,
        ),
        (
            stats("LTvE"),
            404,
            "missing-table",
            "missing table LTvE: mistboard/LTvE.dtm is not there (make it with `jtb gen \
             --rules mistboard --material LTvE`)",
        ),
        (stats("ELTPWDCvRE"), 404, "missing-table", "at most"),
        (
            stats("..%2F..%2Fetc%2Fpasswd"),
            400,
            "bad-material",
            "bad material",
        ),
        (stats("LLvE"), 400, "bad-material", "bad material"),
        (stats("LvE.dtm"), 400, "bad-material", "bad material"),
        (stats(&"L".repeat(1000)), 400, "bad-material", "at most"),
        (
            "/api/v1/leiden/stats/LRvE".into(),
            404,
            "missing-table",
            "no tables for rule set leiden: leiden/ is not there (make them with `jtb gen \
             --rules leiden`)",
        ),
        (
            "/api/v1/leiden/materials".into(),
            404,
            "missing-table",
            "no tables for rule set leiden",
        ),
        (
            "/api/v1/../../etc/passwd".into(),
            404,
            "not-found",
            "no such page",
        ),
        (
            "/assets/../../Cargo.toml".into(),
            404,
            "not-found",
            "no such",
        ),
        (
            "/assets/app.js.map".into(),
            404,
            "not-found",
            "no such asset",
        ),
        ("/etc/passwd".into(), 404, "not-found", "no such page"),
        (
            "/api/v1/%FF?position=x".into(),
            400,
            "bad-query",
            "the path is not UTF-8",
        ),
        (stats("%FF"), 400, "bad-query", "the path is not UTF-8"),
        (
            "/assets/%FF".into(),
            400,
            "bad-query",
            "the path is not UTF-8",
        ),
    ]
}

/// Each error answers JSON `{"error": ..., "code": ...}` with its status: 400 for bad input,
/// 404 for what is not there, 405 for other methods; never 500. The messages are the
/// project's: no framework's text, no operating system's error.
#[test]
fn errors_have_their_status() {
    let dir = tempfile::tempdir().unwrap();
    tables(dir.path());
    let server = Server::start(dir.path());
    let mut conn = Conn::open(server.addr);
    for (url, status, code, says) in &error_cases() {
        let r = conn.get(url);
        let body = String::from_utf8_lossy(&r.body).into_owned();
        assert_eq!(r.status, *status, "{url}: {body}");
        assert_eq!(r.header("content-type"), Some("application/json"), "{url}");
        let answer = r.json();
        let error = answer["error"].as_str().unwrap().to_owned();
        assert!(error.contains(says), "{url}: {error}");
        assert_eq!(answer["code"], *code, "{url}: {error}");
        for framework in [
            "deserialize",
            "Failed",
            "Invalid URL",
            "os error",
            "No such file",
        ] {
            assert!(!error.contains(framework), "{url}: {error}");
        }
        // No answer tells where the server keeps its tables.
        let root = dir.path().to_str().unwrap();
        assert!(!error.contains(root), "{url}: {error}");
    }
    let post = "POST /api/v1/mistboard HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n";
    let post = conn.send(post.as_bytes());
    assert_eq!(post.status, 405);
    assert!(post.json()["error"].as_str().unwrap().contains("GET"));
}

/// Tables generated while the server runs are served on the first request that needs them,
/// and a rule set whose directory appears later gets its tables too.
#[test]
fn tables_generated_while_serving_are_found() {
    let dir = tempfile::tempdir().unwrap();
    gen(dir.path(), "mistboard", &["EvR"]);
    let server = Server::start(dir.path());
    let text = "7/7/7/7/7/7/2L4/1e5/R6 r";
    let before = get(server.addr, &probe_url("mistboard", "", text));
    assert_eq!(before.status, 404);
    assert!(before.json()["error"]
        .as_str()
        .unwrap()
        .starts_with("missing table LRvE: mistboard/LRvE.dtm is not there"));
    let leiden = get(
        server.addr,
        &probe_url("leiden", "", "7/7/7/7/7/7/7/1e5/R6 r"),
    );
    assert_eq!(leiden.status, 404);
    gen(dir.path(), "mistboard", &["LRvE"]);
    gen(dir.path(), "leiden", &["EvR"]);
    let after = get(server.addr, &probe_url("mistboard", "", text));
    assert_eq!(
        after.status,
        200,
        "{}",
        String::from_utf8_lossy(&after.body)
    );
    assert_eq!(after.json()["dtm"], 35);
    let leiden = get(
        server.addr,
        &probe_url("leiden", "", "7/7/7/7/7/7/7/1e5/R6 r"),
    );
    assert_eq!(
        leiden.status,
        200,
        "{}",
        String::from_utf8_lossy(&leiden.body)
    );
    let stats = get(server.addr, "/api/v1/mistboard/stats/LRvE");
    assert_eq!(stats.status, 200);
    let materials = get(server.addr, "/api/v1/mistboard/materials").json();
    assert_eq!(materials["materials"], json!(["EvL", "EvR", "LRvE"]));
}

#[test]
fn cors_is_open_for_get() {
    let dir = tempfile::tempdir().unwrap();
    tables(dir.path());
    let server = Server::start(dir.path());
    let mut conn = Conn::open(server.addr);
    let origin = "Host: x\r\nOrigin: https://example.org\r\n";
    let target = probe_url("mistboard", "", OK);
    let r = conn.send(format!("GET {target} HTTP/1.1\r\n{origin}\r\n").as_bytes());
    assert_eq!(r.status, 200);
    assert_eq!(r.header("access-control-allow-origin"), Some("*"));
    let preflight = format!(
        "OPTIONS /api/v1/mistboard HTTP/1.1\r\n{origin}Access-Control-Request-Method: GET\r\n\r\n"
    );
    let r = conn.send(preflight.as_bytes());
    assert_eq!(r.status, 200);
    let methods = r.header("access-control-allow-methods").unwrap();
    assert!(methods.contains("GET"), "{methods}");
}

/// Raw requests no client library would send (bytes that are not UTF-8 in the path and the
/// query, a megabyte of query or header, no HTTP at all, dot segments) get a 4xx, never a 5xx,
/// and the server goes on.
/// `--cors-origin` lists the origins whose pages may call the API: each gets its own origin
/// back, in answers and preflights alike; any other gets no CORS header, so its browser refuses.
#[test]
fn cors_is_for_the_origins_the_operator_names() {
    let dir = tempfile::tempdir().unwrap();
    tables(dir.path());
    let server = Server::start_with(
        dir.path(),
        &[
            "--cors-origin",
            "https://play.example.org",
            "--cors-origin",
            "http://localhost:3000",
        ],
    );
    let mut conn = Conn::open(server.addr);
    let target = probe_url("mistboard", "", OK);
    for (origin, allowed) in [
        ("https://play.example.org", true),
        ("http://localhost:3000", true),
        ("https://evil.example", false),
    ] {
        let r = conn.send(
            format!("GET {target} HTTP/1.1\r\nHost: x\r\nOrigin: {origin}\r\n\r\n").as_bytes(),
        );
        assert_eq!(r.status, 200, "{origin}");
        let expected = allowed.then_some(origin);
        assert_eq!(
            r.header("access-control-allow-origin"),
            expected,
            "{origin}"
        );
        let preflight = format!(
            "OPTIONS /api/v1/mistboard HTTP/1.1\r\nHost: x\r\nOrigin: {origin}\r\n\
             Access-Control-Request-Method: GET\r\n\r\n"
        );
        let r = conn.send(preflight.as_bytes());
        assert_eq!(r.status, 200, "{origin}");
        assert_eq!(
            r.header("access-control-allow-origin"),
            expected,
            "{origin}"
        );
    }
    // A malformed origin is refused before the server starts.
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_jtb"))
        .args(["serve", "--cors-origin", "https://x.example/page"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("no path"));
}

/// Answers are pure functions of the request and the table files: each carries an ETag and
/// Cache-Control, a request naming the current tag gets 304 without a body, a repeated request
/// gets the same bytes (from the server's cache), and a changed table changes the tag.
#[test]
fn answers_carry_etags_and_a_changed_table_changes_them() {
    let dir = tempfile::tempdir().unwrap();
    tables(dir.path());
    let server = Server::start(dir.path());
    let mut conn = Conn::open(server.addr);
    let target = probe_url("mistboard", "", OK);
    let first = conn.get(&target);
    assert_eq!(first.status, 200);
    let etag = first.header("etag").expect("an ETag").to_owned();
    assert!(etag.starts_with('"') && etag.ends_with('"'), "{etag}");
    assert!(first.header("cache-control").unwrap().contains("no-cache"));
    assert_eq!(first.header("vary"), Some("accept-encoding"));
    let again = conn.get(&target);
    assert_eq!((again.status, &again.body), (200, &first.body));
    assert_eq!(again.header("etag"), Some(etag.as_str()));
    let request =
        |tag: &str| format!("GET {target} HTTP/1.1\r\nHost: x\r\nIf-None-Match: {tag}\r\n\r\n");
    let r = conn.send(request(&etag).as_bytes());
    assert_eq!(r.status, 304);
    assert!(r.body.is_empty());
    assert_eq!(r.header("etag"), Some(etag.as_str()));
    assert_eq!(r.header("vary"), Some("accept-encoding"));
    let r = conn.send(request("\"0000000000000000\"").as_bytes());
    assert_eq!((r.status, &r.body), (200, &first.body));
    // Another query, another tag; an error has none.
    let other = conn.get(&probe_url("mistboard", "", "7/7/7/7/7/7/7/1e5/R6 r"));
    assert_ne!(other.header("etag"), Some(etag.as_str()));
    let bad = conn.get(&probe_url("mistboard", "", "not a position"));
    assert_eq!(bad.status, 400);
    assert!(bad.header("etag").is_none());
    // `*` is no tag: a bad request still gets its error, not a 304.
    let bad_target = probe_url("mistboard", "", "not a position");
    let r = conn.send(
        format!("GET {bad_target} HTTP/1.1\r\nHost: x\r\nIf-None-Match: *\r\n\r\n").as_bytes(),
    );
    assert_eq!(r.status, 400);
    // A rule set spelt with escapes is routed but neither tagged nor kept.
    let escaped = conn.get(&target.replacen("mistboard", "%6Distboard", 1));
    assert_eq!((escaped.status, &escaped.body), (200, &first.body));
    assert!(escaped.header("etag").is_none());
    // A table rewritten (here: damaged) changes the tag of the rule set's answers once the
    // server has looked at its directory again.
    let dtm = dir.path().join("mistboard/EvL.dtm");
    let mut bytes = std::fs::read(&dtm).unwrap();
    let at = bytes.len() - 12;
    bytes[at] ^= 0x5a;
    let fresh = dir.path().join("mistboard/EvL.dtm.new");
    std::fs::write(&fresh, bytes).unwrap();
    std::fs::rename(&fresh, &dtm).unwrap();
    let index = conn.get("/api/v1/mistboard/materials");
    assert_eq!(index.status, 200);
    let r = conn.send(request(&etag).as_bytes());
    assert_ne!(r.status, 304, "a stale tag still matched");
    assert_ne!(r.header("etag"), Some(etag.as_str()));
}

/// With no answers kept in memory (`--response-cache-mib 0`) answers still carry their tag,
/// `Cache-Control` and `Vary`, and a request naming the tag still gets 304; a repeated request
/// is computed again, to the same bytes.
#[test]
fn without_the_answers_cache_tags_and_304s_stay() {
    let dir = tempfile::tempdir().unwrap();
    tables(dir.path());
    let server = Server::start_with(dir.path(), &["--response-cache-mib", "0"]);
    let mut conn = Conn::open(server.addr);
    let target = probe_url("mistboard", "", OK);
    let first = conn.get(&target);
    assert_eq!(first.status, 200);
    let etag = first.header("etag").expect("an ETag").to_owned();
    assert!(first.header("cache-control").unwrap().contains("no-cache"));
    assert_eq!(first.header("vary"), Some("accept-encoding"));
    let again = conn.get(&target);
    assert_eq!((again.status, &again.body), (200, &first.body));
    assert_eq!(again.header("etag"), Some(etag.as_str()));
    let r = conn.send(
        format!("GET {target} HTTP/1.1\r\nHost: x\r\nIf-None-Match: {etag}\r\n\r\n").as_bytes(),
    );
    assert_eq!((r.status, r.body.len()), (304, 0));
    let metrics = String::from_utf8(conn.get("/metrics").body).unwrap();
    assert!(metrics.contains("jtb_answer_cache_entries 0"), "{metrics}");
}

/// `/metrics` in the Prometheus text format: requests and errors by route pattern (never by
/// raw path) and status, a latency histogram per route, the tables per rule set, uptime.
#[test]
fn metrics_count_requests_by_route_and_status() {
    let dir = tempfile::tempdir().unwrap();
    tables(dir.path());
    let server = Server::start(dir.path());
    let mut conn = Conn::open(server.addr);
    for _ in 0..2 {
        assert_eq!(conn.get(&probe_url("mistboard", "", OK)).status, 200);
    }
    assert_eq!(conn.get(&probe_url("mistboard", "", "bad")).status, 400);
    assert_eq!(conn.get("/no/such/page/42").status, 404);
    let r = conn.get("/metrics");
    assert_eq!(r.status, 200);
    assert!(r.header("content-type").unwrap().starts_with("text/plain"));
    let text = String::from_utf8(r.body.clone()).unwrap();
    let value = |series: &str| -> f64 {
        text.lines()
            .find_map(|l| l.strip_prefix(series)?.strip_prefix(' ')?.parse().ok())
            .unwrap_or_else(|| panic!("no {series} in\n{text}"))
    };
    let probe = "route=\"/api/v1/{rules}\"";
    assert_eq!(
        value(&format!("jtb_requests_total{{{probe},status=\"200\"}}")),
        2.0
    );
    assert_eq!(
        value(&format!("jtb_requests_total{{{probe},status=\"400\"}}")),
        1.0
    );
    assert_eq!(
        value(&format!("jtb_errors_total{{{probe},status=\"400\"}}")),
        1.0
    );
    assert_eq!(
        value("jtb_errors_total{route=\"other\",status=\"404\"}"),
        1.0
    );
    assert_eq!(
        value(&format!(
            "jtb_request_duration_seconds_bucket{{{probe},le=\"+Inf\"}}"
        )),
        3.0
    );
    assert_eq!(
        value(&format!("jtb_request_duration_seconds_count{{{probe}}}")),
        3.0
    );
    assert_eq!(value("jtb_tables{rules=\"mistboard\"}"), 3.0);
    assert_eq!(value("jtb_tables{rules=\"clesto\"}"), 0.0);
    assert!(value("jtb_uptime_seconds") > 0.0);
    assert!(value("jtb_answer_cache_entries") >= 1.0);
    // The probes read blocks of the mistboard tables: decoded once, kept, their files open.
    let mistboard = "{rules=\"mistboard\"}";
    let misses = value(&format!("jtb_block_cache_misses_total{mistboard}"));
    assert!(misses >= 1.0, "{text}");
    assert!(value(&format!("jtb_block_cache_lookups_total{mistboard}")) >= misses);
    assert!(value(&format!("jtb_block_cache_blocks{mistboard}")) >= 1.0);
    assert!(value(&format!("jtb_block_cache_bytes{mistboard}")) > 0.0);
    assert!(value(&format!("jtb_open_files{mistboard}")) >= 1.0);
    assert!(
        !text.contains("jtb_open_files{rules=\"clesto\"}"),
        "no clesto tables: {text}"
    );
    assert!(!text.contains("/no/such/page"), "{text}");
}

#[test]
fn hostile_requests_get_a_4xx() {
    let dir = tempfile::tempdir().unwrap();
    tables(dir.path());
    let mut server = Server::start(dir.path());
    let close = "Host: x\r\nConnection: close\r\n";
    let mut raw: Vec<Vec<u8>> = vec![
        b"GET /api/v1/\xff\xfe?position=\xff HTTP/1.1\r\n".to_vec(),
        b"GET /api/v1/mistboard?position=7/7/7/7/7/7/2L4/1e5/R6\xc0 r HTTP/1.1\r\n".to_vec(),
        format!(
            "GET /api/v1/mistboard?position={} HTTP/1.1\r\n",
            "7".repeat(1 << 20)
        )
        .into_bytes(),
        format!(
            "GET /api/v1/mistboard HTTP/1.1\r\nX-Big: {}\r\n",
            "a".repeat(1 << 20)
        )
        .into_bytes(),
        b"GET /../../../../etc/passwd HTTP/1.1\r\n".to_vec(),
    ];
    for request in &mut raw {
        request.extend_from_slice(close.as_bytes());
        request.extend_from_slice(b"\r\n");
    }
    raw.push(b"GARBAGE\r\n\r\n".to_vec());
    for request in &raw {
        let status = raw_status(server.addr, request);
        let head = String::from_utf8_lossy(&request[..60.min(request.len())]).into_owned();
        let client_error = status.is_some_and(|s| (400..500).contains(&s));
        assert!(client_error, "{status:?} for {head:?}");
    }
    assert!(server.alive());
    assert_eq!(
        get(server.addr, &probe_url("mistboard", "", OK)).status,
        200
    );
}

/// A damaged table answers 500 naming its file, a missing one 404 naming it; everything else
/// is still served.
#[test]
fn damaged_and_missing_tables_are_named_and_the_rest_served() {
    let dir = tempfile::tempdir().unwrap();
    tables(dir.path());
    let root = dir.path().join("mistboard");
    // Truncate LRvE's DTM file and remove EvL's DTC file.
    let dtm = root.join("LRvE.dtm");
    let len = std::fs::metadata(&dtm).unwrap().len();
    std::fs::OpenOptions::new()
        .write(true)
        .open(&dtm)
        .unwrap()
        .set_len(len / 2)
        .unwrap();
    std::fs::remove_file(root.join("EvL.dtc")).unwrap();
    let mut server = Server::start(dir.path());
    let mut conn = Conn::open(server.addr);
    let r = conn.get(&probe_url("mistboard", "", "7/7/7/7/7/7/2L4/1e5/R6 r"));
    assert_eq!(r.status, 500);
    let error = r.json()["error"].as_str().unwrap().to_owned();
    assert!(error.starts_with("mistboard/LRvE.dtm: "), "{error}");
    let r = conn.get("/api/v1/mistboard/stats/LRvE");
    assert_eq!(r.status, 500);
    assert!(r.json()["error"]
        .as_str()
        .unwrap()
        .contains("mistboard/LRvE.dtm"));
    // A table without one of its files answers what the others hold: the DTC-less fields
    // are null, and the note names the file.
    let r = conn.get(&probe_url("mistboard", "", "7/7/7/7/7/7/2L4/1e5/7 r"));
    assert_eq!(r.status, 200);
    let answer = r.json();
    assert!(
        answer["dtc"].is_null() && answer["dtm"].is_number(),
        "{answer}"
    );
    assert!(answer["missing"]
        .as_str()
        .unwrap()
        .contains("no DTC file for table EvL: mistboard/EvL.dtc is not there"));
    // The intact table and the other rule set still answer, again and again.
    for _ in 0..3 {
        let r = conn.get(&probe_url("mistboard", "", "7/7/7/7/7/7/7/1e5/R6 r"));
        assert_eq!(r.status, 200);
        let r = conn.get(&probe_url("flip4x4", "", "4/4/1R2/L2e r"));
        assert_eq!(r.status, 200);
    }
    assert!(server.alive());
}

/// Many clients at once, each on its own kept-alive connection, all get right answers.
#[test]
fn concurrent_clients_get_right_answers() {
    let dir = tempfile::tempdir().unwrap();
    tables(dir.path());
    let server = Server::start(dir.path());
    let tb = Tablebase::open(dir.path(), Jungle::Mistboard).unwrap();
    let positions = random_positions(RuleSet::Mistboard, &pieces("LRe"), 400, &mut Rng(9));
    const CLIENTS: usize = 16;
    thread::scope(|s| {
        for client in 0..CLIENTS {
            let (tb, positions, addr) = (&tb, &positions, server.addr);
            s.spawn(move || {
                let mut conn = Conn::open(addr);
                for pos in positions.iter().skip(client).step_by(CLIENTS / 2) {
                    let mut pos = pos.clone();
                    pos.set_rule_clock(Some((client * 7 % 101) as u32)).unwrap();
                    let r = conn.get(&probe_url("mistboard", "", &pos.to_string()));
                    assert_eq!(r.status, 200);
                    check_answer(tb, &pos, &r.json());
                }
            });
        }
    });
    // The same position from every client: one answer.
    let text = enc("7/7/7/7/7/7/2L4/1e5/R6 r 12");
    let answers: Vec<Vec<u8>> = thread::scope(|s| {
        let handles: Vec<_> = (0..CLIENTS)
            .map(|_| {
                s.spawn(|| get(server.addr, &format!("/api/v1/mistboard?position={text}")).body)
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    assert!(answers.windows(2).all(|w| w[0] == w[1]));
}

/// With face-down tiles the flip game's revealed pieces still move and the tiles can be
/// flipped: `/moves` lists both (no positions after them: a flip's result is not known), and
/// the probe says why there are no values.
#[test]
fn face_down_tiles_have_moves_and_flips() {
    let dir = tempfile::tempdir().unwrap();
    tables(dir.path());
    let server = Server::start(dir.path());
    let text = "?3/4/4/c2L r";
    let m = get(server.addr, &probe_url("flip4x4", "/moves", text)).json();
    let moves: Vec<&str> = m["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["move"].as_str().unwrap())
        .collect();
    // The lion on d1 steps to c1 or d2; Blue's cat is not Red's to move.
    assert_eq!(moves, ["d1c1", "d1d2"]);
    assert!(m["moves"][0]["position"].is_null());
    assert_eq!(m["flips"], json!(["a4"]));
    // A tile blocks: the lion next to it cannot step onto it.
    let m = get(server.addr, &probe_url("flip4x4", "/moves", "4/4/3?/c2L r")).json();
    assert_eq!(
        m["moves"],
        json!([{"move": "d1c1", "position": null, "capture": false,
                                   "kind": "quiet", "end": null}])
    );
    assert_eq!(m["flips"], json!(["d2"]));
    // Captures were made and no hidden set is given: the outcomes are not known.
    assert_eq!(
        m["flip_outcomes"],
        json!([{"flip": "?d2", "outcomes": null}])
    );
    // With the hidden set (RULES.md 8), each flip's outcomes, equally likely.
    let m = get(
        server.addr,
        &probe_url("flip4x4", "/moves", "?3/4/1?2/c2L r 12 ?:Tw"),
    )
    .json();
    assert_eq!(m["position"], "?3/4/1?2/c2L r 12 ?:Tw");
    assert_eq!(m["flips"], json!(["a4", "b2"]));
    assert_eq!(
        m["flip_outcomes"][0],
        json!({"flip": "?a4", "outcomes": [
            {"animal": "T", "probability": "1/2", "position": "T3/4/1?2/c2L b 0 ?:w"},
            {"animal": "w", "probability": "1/2", "position": "w3/4/1?2/c2L b 0 ?:T"},
        ]})
    );
    let p = get(server.addr, &probe_url("flip4x4", "", text));
    assert_eq!(p.status, 400);
    assert_eq!(p.json()["code"], "hidden-tiles");
    // A revealed position: the moves with the positions after them, no flips.
    let m = get(server.addr, &probe_url("flip4x4", "/moves", "4/4/4/c2L r")).json();
    assert_eq!(m["flips"], json!([]));
    assert_eq!(m["moves"][0]["position"], "4/4/4/c1L1 b 1");
}

/// A move that ends the game says how (`kind`, `end`) and counts as a win at once.
#[test]
fn game_ending_moves_say_how() {
    let dir = tempfile::tempdir().unwrap();
    tables(dir.path());
    let server = Server::start(dir.path());
    // The lion on d8 next to Blue's den d9.
    let a = get(
        server.addr,
        &probe_url("mistboard", "", "7/3L3/7/7/7/7/7/7/R5e r"),
    )
    .json();
    let den = a["moves"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["move"] == "d8d9")
        .unwrap();
    assert_eq!(
        (&den["kind"], &den["end"], &den["position"], &den["wdl"]),
        (
            &json!("den-entry"),
            &json!("den entry"),
            &Json::Null,
            &json!("loss")
        )
    );
    assert_eq!(a["best"], "d8d9");
    assert_eq!(a["rule_best"], "d8d9");
}

/// A position at its clock limit is a drawn game: the API lists no move (nor flip) leading on
/// from it, in the probe answer and in `/moves`; one half-move earlier it does.
#[test]
fn no_moves_lead_on_from_the_clock_limit() {
    let dir = tempfile::tempdir().unwrap();
    tables(dir.path());
    let server = Server::start(dir.path());
    for (rules, text, limit) in [
        ("mistboard", "7/7/7/7/7/3l3/7/3E3/7 r", 100),
        ("flip4x4", "4/1c2/4/2L1 r", 40),
    ] {
        for clock in [limit - 1, limit] {
            let at = format!("{text} {clock}");
            let probed = get(server.addr, &probe_url(rules, "", &at)).json();
            let listed = get(server.addr, &probe_url(rules, "/moves", &at)).json();
            let count = |a: &Json| a["moves"].as_array().map_or(0, Vec::len);
            assert_eq!(
                count(&probed) == 0,
                clock == limit,
                "{rules} {at}: {probed}"
            );
            assert_eq!(
                count(&listed) == 0,
                clock == limit,
                "{rules} {at}: {listed}"
            );
            if clock == limit {
                assert_eq!(probed["rule_wdl"], "draw", "{at}");
            }
        }
    }
    let at_limit = get(
        server.addr,
        &probe_url("flip4x4", "/moves", "?3/4/4/c2L r 40"),
    )
    .json();
    assert_eq!(at_limit["flips"], json!([]));
}

/// One damaged table file: the material index still lists every table, the good ones with
/// their counts and the damaged one named as damaged (its file and the fault), with status 200.
#[test]
fn the_material_index_lists_a_damaged_table_beside_the_good_ones() {
    let dir = tempfile::tempdir().unwrap();
    tables(dir.path());
    let dtm = dir.path().join("mistboard/LRvE.dtm");
    let mut bytes = std::fs::read(&dtm).unwrap();
    bytes[0] ^= 0xff;
    std::fs::write(&dtm, bytes).unwrap();
    let server = Server::start(dir.path());
    let r = get(server.addr, "/api/v1/mistboard/materials");
    assert_eq!(r.status, 200, "{}", String::from_utf8_lossy(&r.body));
    let index = r.json();
    let tables = index["tables"].as_array().unwrap();
    assert_eq!(tables.len(), index["materials"].as_array().unwrap().len());
    for t in tables {
        if t["material"] == "LRvE" {
            let why = t["damaged"].as_str().unwrap();
            assert!(why.contains("mistboard/LRvE.dtm"), "{why}");
            assert!(t.get("wins").is_none(), "{t}");
        } else {
            assert!(t.get("damaged").is_none(), "{t}");
            assert!(t["wins"].is_array(), "{t}");
        }
    }
    assert!(tables.iter().any(|t| t["material"] == "LRvE"));
}

/// A long answer goes gzipped to a client that takes gzip (with a weak tag and `Vary`), the
/// same bytes once unpacked; a short one, or one to a client that does not, goes as it is.
#[test]
fn long_answers_are_gzipped_for_clients_that_take_it() {
    use std::io::Read;
    let dir = tempfile::tempdir().unwrap();
    tables(dir.path());
    let server = Server::start(dir.path());
    let mut conn = Conn::open(server.addr);
    let long = probe_url("mistboard", "/line", "7/7/7/7/7/7/2L4/1e5/R6 r");
    let ask = |conn: &mut Conn, target: &str, encoding: &str| {
        conn.send(
            format!("GET {target} HTTP/1.1\r\nHost: x\r\nAccept-Encoding: {encoding}\r\n\r\n")
                .as_bytes(),
        )
    };
    let plain = ask(&mut conn, &long, "identity");
    assert_eq!(plain.status, 200);
    assert!(
        plain.body.len() >= 1400,
        "a long answer: {}",
        plain.body.len()
    );
    assert_eq!(plain.header("content-encoding"), None);
    assert_eq!(plain.header("vary"), Some("accept-encoding"));
    let etag = plain.header("etag").unwrap().to_owned();
    // Twice: computed, then from the answers' cache.
    for _ in 0..2 {
        let packed = ask(&mut conn, &long, "br;q=1.0, gzip;q=0.8");
        assert_eq!(packed.status, 200);
        assert_eq!(packed.header("content-encoding"), Some("gzip"));
        assert_eq!(packed.header("etag"), Some(format!("W/{etag}").as_str()));
        assert!(packed.body.len() < plain.body.len() / 2);
        let mut unpacked = Vec::new();
        flate2::read::GzDecoder::new(&packed.body[..])
            .read_to_end(&mut unpacked)
            .unwrap();
        assert_eq!(unpacked, plain.body);
    }
    // gzip refused, and a short answer: as they are.
    let refused = ask(&mut conn, &long, "gzip;q=0");
    assert_eq!(refused.header("content-encoding"), None);
    let short = ask(
        &mut conn,
        &probe_url("mistboard", "/moves", "7/7/7/7/7/7/2L4/1e5/R6 r"),
        "gzip",
    );
    assert_eq!(short.status, 200);
    assert_eq!(short.header("content-encoding"), None);
    // Either tag revalidates.
    let revalidate = |conn: &mut Conn, tag: &str| {
        conn.send(
            format!("GET {long} HTTP/1.1\r\nHost: x\r\nAccept-Encoding: gzip\r\nIf-None-Match: {tag}\r\n\r\n")
                .as_bytes(),
        )
        .status
    };
    assert_eq!(revalidate(&mut conn, &etag), 304);
    assert_eq!(revalidate(&mut conn, &format!("W/{etag}")), 304);
}

/// `GET /api/v1/flip4x4/line` with face-down tiles: the best moves of the chance tables
/// (RULES.md 8) step by step, each with the value of what it gives, until the best move is a
/// flip, given with its outcomes; or until the game ends.
#[test]
fn a_line_through_face_down_tiles_stops_at_the_first_flip() {
    use jtb_probe::flip::{ChanceMove, ChanceTables};
    let dir = tempfile::tempdir().unwrap();
    gen(dir.path(), "flip4x4", &["LvW-t", "Lv-Tw", "EvC-P"]);
    let server = Server::start(dir.path());
    let tables = ChanceTables::open(dir.path()).unwrap();
    for text in [
        "?3/4/4/2wL r 0 ?:t",
        "?3/4/1?2/3L r 5 ?:Tw",
        "4/2cE/2?1/4 r 34 ?:P",
        "?3/4/4/w2L b 7 ?:T",
    ] {
        let line = get(server.addr, &probe_url("flip4x4", "/line", text)).json();
        let mut pos: Position = text.parse().unwrap();
        let mut ended = false;
        for step in line["line"].as_array().unwrap() {
            let best = tables.best_move(&pos).unwrap().unwrap();
            assert_eq!(step["move"], best.mv.to_string(), "{text}");
            let ChanceMove::Step(mv) = best.mv else {
                panic!("{text}: a flip in the steps");
            };
            match pos.play(mv).unwrap() {
                Outcome::Over { reason, .. } => {
                    assert_eq!(step["end"], reason.to_string());
                    ended = true;
                }
                Outcome::Ongoing(next) => {
                    assert_eq!(step["position"], next.to_string());
                    let value = tables.probe(&next).unwrap();
                    assert_eq!(step["score"], value.score().to_string());
                    assert_eq!(step["dte"], json!(tables.dte(&next).unwrap()));
                    pos = next;
                }
            }
        }
        let flip = &line["flip"];
        if ended {
            assert!(flip.is_null(), "{text}: {line}");
            continue;
        }
        let best = tables.best_move(&pos).unwrap().unwrap();
        let ChanceMove::Flip(sq) = best.mv else {
            panic!("{text}: the line stopped before a step: {line}");
        };
        assert_eq!(flip["move"], best.mv.to_string());
        assert_eq!(flip["score"], best.value.score().to_string());
        let outcomes: Vec<&str> = flip["outcomes"]
            .as_array()
            .unwrap()
            .iter()
            .map(|o| o["position"].as_str().unwrap())
            .collect();
        let expected: Vec<String> = pos
            .flip_outcomes(sq)
            .unwrap()
            .iter()
            .map(|o| o.position.to_string())
            .collect();
        assert_eq!(outcomes, expected, "{text}");
    }
}

/// A server over a set of WDL files alone (as an engine ships it) answers every game's probe
/// and line routes with what the set holds: the WDL of the position and of each move as the
/// whole set's, every field that needs another file `null`, and a `"missing"` note naming the
/// file; the whole set's answers have no note.
#[test]
fn a_set_of_wdl_files_alone_answers_the_api_with_nulls_and_a_note() {
    use jtb_edge::{table_records, AnyPosition, Pick, Rules, PACKED_LEN};
    let full = tempfile::tempdir().unwrap();
    let wdl_only = tempfile::tempdir().unwrap();
    let games = [
        ("mistboard", "LRvE", "moves", "move"),
        ("clesto", "DvCR", "moves", "move"),
        ("animal-gambit", "ERvR", "turns", "turn"),
    ];
    for (rules, material, _, _) in games {
        gen(full.path(), rules, &[material]);
        wdl_files_alone(full.path(), wdl_only.path(), rules);
    }
    let whole = Server::start(full.path());
    let partial = Server::start(wdl_only.path());
    for (rules, material, moves_key, move_key) in games {
        let rules_id: Rules = rules.parse().unwrap();
        let sample = Pick::Sample { count: 25, seed: 3 };
        let records = table_records(rules_id, material, sample).unwrap();
        for record in records.chunks(PACKED_LEN) {
            let text = AnyPosition::unpack(record).unwrap().to_string();
            let url = probe_url(rules, "", &text);
            let (w, p) = (get(whole.addr, &url), get(partial.addr, &url));
            assert_eq!((w.status, p.status), (200, 200), "{rules} {text}");
            let (w, p) = (w.json(), p.json());
            assert!(w.get("missing").is_none(), "{w}");
            let note = p["missing"].as_str().unwrap_or_else(|| panic!("{p}"));
            assert!(
                note.contains(&format!("no DTM file for table {material}")),
                "{note}"
            );
            // The file named relative to the table root, as every API error names it.
            assert!(
                note.contains(&format!(": {rules}/{material}.dtm is not there")),
                "{note}"
            );
            assert!(!note.contains(wdl_only.path().to_str().unwrap()), "{note}");
            assert_eq!(p["wdl"], w["wdl"], "{rules} {text}");
            assert!(p["dtm"].is_null() && p["best"].is_null(), "{p}");
            // The same moves, each leading to the same position with the same WDL.
            let key = |m: &Json| m[move_key].as_str().unwrap().to_owned();
            let mut wm: Vec<&Json> = w[moves_key].as_array().unwrap().iter().collect();
            let mut pm: Vec<&Json> = p[moves_key].as_array().unwrap().iter().collect();
            wm.sort_by_key(|m| key(m));
            pm.sort_by_key(|m| key(m));
            assert_eq!(wm.len(), pm.len(), "{rules} {text}");
            for (wm, pm) in wm.iter().zip(&pm) {
                for field in [move_key, "position", "end", "wdl"] {
                    assert_eq!(pm.get(field), wm.get(field), "{rules} {text}: {field}");
                }
                if pm["position"].is_string() {
                    assert!(pm["dtm"].is_null(), "{pm}");
                }
            }
            let url = probe_url(rules, "/line", &text);
            let (w, p) = (get(whole.addr, &url), get(partial.addr, &url));
            assert_eq!((w.status, p.status), (200, 200), "{rules} {text}");
            let (w, p) = (w.json(), p.json());
            assert!(w["line"].is_array() && w.get("missing").is_none(), "{w}");
            assert!(p["line"].is_null(), "{p}");
            assert!(
                p["missing"].as_str().unwrap().contains("no DTM file"),
                "{p}"
            );
        }
    }
}
