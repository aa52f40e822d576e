//! `jtb serve` on Clesto tables (RULES.md 6): every field of the position, line and move
//! endpoints checked against the probe library on generated tables (plain wins and losses, wins
//! and losses by the repetition ban with the banned side's exit, starvations, hungry sets not
//! the board's), the statistics against `jtb stats`, and bad Clesto text refused in the
//! parser's words.

mod serve_support;

use std::path::Path;

use jtb_probe::{
    banned_side, Clesto, ClestoValue, Color, Material, Move, MoveKind, Outcome, Piece, Position,
    RuleSet, Tablebase, Value, Wdl,
};
use serde_json::{json, Value as Json};
use serve_support::{gen, get, probe_url, random_positions, Conn, Rng, Server};

/// The tables of these tests: `DvCR` (Blue, with more animals, is banned; ban wins with exits
/// up to 20) and `ECvR` (a hungry cat that starves when it does not take), with the smaller
/// tables they need.
fn tables(dir: &Path) {
    gen(dir, "clesto", &["DvCR", "ECvR"]);
}

/// A ban win of Blue, the banned side: out of the material in 20 plies.
const BAN_WIN: &str = "1r5/1c5/7/7/7/7/7/7/6D b";
/// The red cat a1 is hungry for the blue rat a2: any other move starves it.
const HUNGRY: &str = "7/7/7/7/7/7/7/r6/C5E r";

/// A position of a table these tests do not make (`LvCR`).
const MISSING: &str = "1r5/1c5/7/7/7/7/7/7/6L b";

fn pieces(letters: &str) -> Vec<Piece> {
    letters
        .chars()
        .map(|c| Piece::from_letter(c).unwrap())
        .collect()
}

fn banned(pos: &Position) -> &'static str {
    match banned_side(Material::of(pos)) {
        Color::Red => "red",
        Color::Blue => "blue",
    }
}

/// A Clesto value's fields as the API writes them.
fn fields(v: ClestoValue) -> Json {
    json!({"wdl": v.wdl().name(), "dtm": v.dtm(), "category": v.category(), "exit": v.exit()})
}

fn starvations(pos: &Position, mv: Move) -> Vec<String> {
    pos.starvations(mv)
        .unwrap()
        .into_iter()
        .map(|(p, sq)| format!("{}{sq}", p.letter()))
        .collect()
}

fn kind_name(kind: MoveKind) -> &'static str {
    match kind {
        MoveKind::Quiet => "quiet",
        MoveKind::DenEntry => "den-entry",
        MoveKind::Capture => "capture",
        MoveKind::Trade => "trade",
    }
}

fn squares(pos: &Position, set: jtb_probe::SquareSet) -> Vec<String> {
    pos.board()
        .squares()
        .filter(|&sq| set & jtb_probe::bit(sq) != 0)
        .map(|sq| sq.to_string())
        .collect()
}

/// Checks every field of a Clesto probe answer against the library: the value (win or loss,
/// DTM or the ban's category and exit), the best move (RULES.md 6.6), the banned side, the
/// hungry set; and each move: its position, starvations, the value after it for the side
/// then to move, and what it is worth to its mover, best first (ties in ASCII order).
fn check_answer(tb: &Tablebase<Clesto>, pos: &Position, answer: &Json) {
    let value = tb.probe_clesto(pos).unwrap();
    let best = tb.clesto_best_move(pos).unwrap();
    let mut expected = fields(value);
    let extra = json!({
        "position": pos.to_string(), "rules": "clesto",
        "best": best.map(|(mv, _)| mv.to_string()), "banned": banned(pos),
        "hungry": squares(pos, pos.hungry()), "hungry_canonical": pos.hungry_is_canonical(),
    });
    expected
        .as_object_mut()
        .unwrap()
        .extend(extra.as_object().unwrap().clone());
    for (k, v) in expected.as_object().unwrap() {
        assert_eq!(&answer[k], v, "{k} of {pos}");
    }
    // No field of the clock rule: Clesto has none.
    for k in ["dtc", "clock", "rule_wdl", "rule_best"] {
        assert!(answer.get(k).is_none(), "{k} of {pos}");
    }
    let moves = answer["moves"].as_array().unwrap();
    let scored = tb.clesto_moves(pos).unwrap();
    assert_eq!(moves.len(), scored.len(), "{pos}");
    let mut previous: Option<(ClestoValue, Move)> = None;
    for m in moves {
        let mv = Move::parse(m["move"].as_str().unwrap(), pos).unwrap();
        let mover = scored.iter().find(|(x, _)| *x == mv).unwrap().1;
        if let Some((v, p)) = previous {
            assert!(
                v > mover || (v == mover && p < mv),
                "{pos}: {p} before {mv}"
            );
        }
        previous = Some((mover, mv));
        let kind = pos.move_kind(mv).unwrap();
        let (position, after, after_banned, end) = match pos.play(mv).unwrap() {
            Outcome::Over { result, reason } => {
                let after = match result.flipped() {
                    Wdl::Win => Value::Win(0),
                    Wdl::Loss => Value::Loss(0),
                    Wdl::Draw => Value::Draw,
                };
                (
                    Json::Null,
                    ClestoValue::Plain(after),
                    Json::Null,
                    json!(reason.to_string()),
                )
            }
            Outcome::Ongoing(next) => {
                // The mover's value is the position after's, one move back (RULES.md 6).
                let after = tb.probe_clesto(&next).unwrap();
                let same = Material::of(&next) == Material::of(pos);
                let mover_banned = pos.turn() == banned_side(Material::of(pos));
                assert_eq!(after.after_move(same, mover_banned), mover, "{pos} {mv}");
                (
                    json!(next.to_string()),
                    after,
                    json!(banned(&next)),
                    Json::Null,
                )
            }
        };
        let mut want = fields(after);
        let extra = json!({
            "move": mv.to_string(), "position": position,
            "capture": matches!(kind, MoveKind::Capture | MoveKind::Trade),
            "kind": kind_name(kind), "end": end, "starves": starvations(pos, mv),
            "banned": after_banned, "mover": fields(mover),
        });
        want.as_object_mut()
            .unwrap()
            .extend(extra.as_object().unwrap().clone());
        assert_eq!(m, &want, "{pos}");
    }
    if let Some((mv, v)) = best {
        assert_eq!(moves[0]["move"], mv.to_string(), "{pos}");
        assert_eq!(moves[0]["mover"], fields(v), "{pos}");
        assert_eq!(v, value, "{pos}");
    }
}

#[test]
fn every_field_agrees_with_the_library() {
    let dir = tempfile::tempdir().unwrap();
    tables(dir.path());
    let server = Server::start(dir.path());
    let tb = Tablebase::open(dir.path(), Clesto).unwrap();
    let mut conn = Conn::open(server.addr);
    let mut rng = Rng(0xc1e5);
    let mut positions = random_positions(RuleSet::Clesto, &pieces("Dcr"), 160, &mut rng);
    positions.extend(random_positions(
        RuleSet::Clesto,
        &pieces("CEr"),
        60,
        &mut rng,
    ));
    positions.push(Position::parse(BAN_WIN, Some(RuleSet::Clesto)).unwrap());
    positions.push(Position::parse(HUNGRY, Some(RuleSet::Clesto)).unwrap());
    let mut categories = std::collections::BTreeSet::new();
    let mut exits = 0;
    let mut starving = 0;
    for pos in positions {
        let r = conn.get(&probe_url("clesto", "", &pos.to_string()));
        assert_eq!(r.status, 200, "{}", String::from_utf8_lossy(&r.body));
        let answer = r.json();
        check_answer(&tb, &pos, &answer);
        categories.insert(answer["category"].as_str().unwrap().to_owned());
        exits += usize::from(answer["exit"].is_u64());
        starving += answer["moves"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|m| !m["starves"].as_array().unwrap().is_empty())
            .count();
    }
    // Plain wins and losses, wins and losses by the ban (with and without an exit), and moves
    // that starve were all seen.
    assert_eq!(
        categories.into_iter().collect::<Vec<_>>(),
        ["ban-loss", "ban-win", "loss", "win"]
    );
    assert!(exits > 0 && starving > 0, "{exits} {starving}");

    // The ban win of the CLI's test: Blue, banned, gets out in 20 plies.
    let a = conn.get(&probe_url("clesto", "", BAN_WIN)).json();
    assert_eq!(
        (
            &a["wdl"],
            &a["dtm"],
            &a["category"],
            &a["exit"],
            &a["banned"]
        ),
        (
            &json!("win"),
            &Json::Null,
            &json!("ban-win"),
            &json!(20),
            &json!("blue")
        )
    );
    // The hungry cat: the capture wins at once; every other move starves it.
    let a = conn.get(&probe_url("clesto", "", HUNGRY)).json();
    assert_eq!(a["hungry"], json!(["a1"]));
    assert_eq!(a["best"], "a1a2");
    let starves: Vec<&Json> = a["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| &m["starves"])
        .collect();
    assert_eq!(
        starves,
        [
            &json!([]),
            &json!(["Cb1"]),
            &json!(["Ca1"]),
            &json!(["Ca1"])
        ]
    );
}

/// The probe fields mean what they mean in `jtb probe --rules clesto --json --line`.
#[test]
fn fields_and_lines_mean_what_jtb_probe_says() {
    let dir = tempfile::tempdir().unwrap();
    tables(dir.path());
    let server = Server::start(dir.path());
    let tb = Tablebase::open(dir.path(), Clesto).unwrap();
    let mut conn = Conn::open(server.addr);
    let mut rng = Rng(0x11e);
    let mut texts: Vec<String> = random_positions(RuleSet::Clesto, &pieces("Dcr"), 40, &mut rng)
        .iter()
        .map(ToString::to_string)
        .collect();
    texts.push(BAN_WIN.into());
    texts.push(HUNGRY.into());
    let mut stops = [0, 0];
    for text in &texts {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_jtb"))
            .args(["probe", "--rules", "clesto", "--json", "--line", "--tables"])
            .arg(dir.path())
            .arg(text)
            .output()
            .unwrap();
        let cli: Json = serde_json::from_slice(&out.stdout).unwrap();
        let api = conn.get(&probe_url("clesto", "", text)).json();
        for k in ["rules", "wdl", "dtm", "category", "exit", "best"] {
            assert_eq!(api[k], cli[k], "{k} of {text}");
        }
        let line = conn.get(&probe_url("clesto", "/line", text)).json();
        let moves: Vec<&Json> = line["line"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| &s["move"])
            .collect();
        let cli_moves: Vec<&Json> = cli["line"].as_array().unwrap().iter().collect();
        assert_eq!(moves, cli_moves, "{text}");
        assert_eq!(
            line["line_stops_at_ban"], cli["line_stops_at_ban"],
            "{text}"
        );
        stops[usize::from(line["line_stops_at_ban"] == true)] += 1;
        // Each step: the position after the move, its value, banned side and hungry set,
        // and the animals the move starves.
        let pos = Position::parse(text, Some(RuleSet::Clesto)).unwrap();
        let mut before = pos.clone();
        for (step, lib) in line["line"]
            .as_array()
            .unwrap()
            .iter()
            .zip(tb.clesto_line(&pos).unwrap())
        {
            assert_eq!(step["move"], lib.mv.to_string());
            assert_eq!(step["starves"], json!(starvations(&before, lib.mv)));
            match (&lib.position, lib.value) {
                (Some(next), Some(v)) => {
                    let f = fields(v);
                    for k in ["wdl", "dtm", "category", "exit"] {
                        assert_eq!(step[k], f[k], "{k} of {text}");
                    }
                    assert_eq!(step["position"], next.to_string());
                    assert_eq!(step["banned"], banned(next));
                    assert_eq!(step["hungry"], json!(squares(next, next.hungry())));
                    before = next.clone();
                }
                _ => {
                    assert!(step["position"].is_null() && step["end"].is_string());
                    assert!(step["wdl"].is_null() && step["category"].is_null());
                }
            }
        }
        // A line that stops at the ban ends at a position the unbanned side wins by it.
        if line["line_stops_at_ban"] == true {
            let last = line["line"].as_array().unwrap().last();
            let (category, exit) = match last {
                Some(s) => (s["category"].clone(), s["exit"].clone()),
                None => (api["category"].clone(), api["exit"].clone()),
            };
            assert!(category.as_str().unwrap().starts_with("ban-"), "{text}");
            assert!(exit.is_null(), "{text}");
        }
        assert!(line.get("rule_line").is_none());
    }
    // Lines that end the game and lines that stop at the ban were both seen.
    assert!(stops[0] > 0 && stops[1] > 0, "{stops:?}");
}

/// Hungry sets: a set the board gives is the canonical text; another one is kept, named, and
/// valued one move ahead; the legal moves (no tables needed) show what each move starves.
#[test]
fn hungry_sets_and_starvations() {
    let dir = tempfile::tempdir().unwrap();
    tables(dir.path());
    let server = Server::start(dir.path());
    let tb = Tablebase::open(dir.path(), Clesto).unwrap();
    let mut conn = Conn::open(server.addr);
    // The board's own set, written out: the canonical text, without `h:`.
    let a = conn
        .get(&probe_url("clesto", "", &format!("{HUNGRY} h:a1")))
        .json();
    assert_eq!(
        (&a["position"], &a["hungry_canonical"]),
        (&json!(HUNGRY), &json!(true))
    );
    // Not the board's: the elephant hungry too (as right after a starvation), or nobody.
    for text in [format!("{HUNGRY} h:a1,g1"), format!("{HUNGRY} h:-")] {
        let pos = Position::parse(&text, Some(RuleSet::Clesto)).unwrap();
        assert!(!pos.hungry_is_canonical());
        let a = conn.get(&probe_url("clesto", "", &text)).json();
        assert_eq!(a["position"], text);
        assert_eq!(a["hungry_canonical"], false);
        check_answer(&tb, &pos, &a);
        // Valued one move ahead, from the moves' values.
        let ahead = jtb_probe::value_by_lookahead(&pos, |p| tb.probe_clesto(p)).unwrap();
        assert_eq!(
            (&a["wdl"], &a["dtm"], &a["category"]),
            (
                &fields(ahead)["wdl"],
                &fields(ahead)["dtm"],
                &fields(ahead)["category"]
            )
        );
    }
    // With both hungry, stepping the cat away starves the cat and the elephant: Red's last
    // animals, so Red loses at once.
    let a = conn
        .get(&probe_url("clesto", "", &format!("{HUNGRY} h:a1,g1")))
        .json();
    let a1b1 = a["moves"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["move"] == "a1b1")
        .unwrap();
    assert_eq!(a1b1["starves"], json!(["Cb1", "Eg1"]));
    assert_eq!(a1b1["end"], "own last animal starved");
    assert_eq!(a1b1["mover"]["wdl"], "loss");

    // The legal moves without tables: each with its starvations, and the hungry set.
    let m = conn.get(&probe_url("clesto", "/moves", HUNGRY)).json();
    assert_eq!(
        (&m["hungry"], &m["hungry_canonical"]),
        (&json!(["a1"]), &json!(true))
    );
    let pos = Position::parse(HUNGRY, Some(RuleSet::Clesto)).unwrap();
    for listed in m["moves"].as_array().unwrap() {
        let mv = Move::parse(listed["move"].as_str().unwrap(), &pos).unwrap();
        assert_eq!(listed["starves"], json!(starvations(&pos, mv)));
    }
    // A hungry animal beside the enemy den: its den entry is not listed (it was, then
    // refused as illegal: a 500).
    let beside_den = "7/3Ld2/7/7/7/7/7/7/7 r";
    let m = conn.get(&probe_url("clesto", "/moves", beside_den)).json();
    let listed: Vec<&str> = m["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["move"].as_str().unwrap())
        .collect();
    let pos = Position::parse(beside_den, Some(RuleSet::Clesto)).unwrap();
    let legal: Vec<String> = pos.legal_moves().iter().map(ToString::to_string).collect();
    assert_eq!(listed, legal);
    assert!(!listed.contains(&"d8d9"));
    let m = conn
        .get(&probe_url("clesto", "/moves", &format!("{HUNGRY} h:a1,g1")))
        .json();
    assert_eq!(
        (&m["hungry"], &m["hungry_canonical"]),
        (&json!(["a1", "g1"]), &json!(false))
    );
    // Other rule sets' moves say nothing of hunger.
    let m = conn
        .get(&probe_url(
            "mistboard",
            "/moves",
            "7/7/7/7/7/7/2L4/1e5/R6 r",
        ))
        .json();
    assert!(m.get("hungry").is_none() && m["moves"][0].get("starves").is_none());
}

/// The statistics of a Clesto material are `jtb stats --rules clesto --json`'s (wins and
/// losses plain and by the ban, the longest exit), and the material index counts them.
#[test]
fn stats_agree_with_jtb_stats() {
    let dir = tempfile::tempdir().unwrap();
    tables(dir.path());
    let server = Server::start(dir.path());
    let mut conn = Conn::open(server.addr);
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_jtb"))
        .args(["stats", "--rules", "clesto", "--json", "--tables"])
        .arg(dir.path())
        .output()
        .unwrap();
    let cli: Vec<Json> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let materials = conn.get("/api/v1/clesto/materials").json();
    for m in ["DvCR", "ECvR", "DvR"] {
        let api = conn.get(&format!("/api/v1/clesto/stats/{m}")).json();
        assert_eq!(api["flipped"], false, "{m}: no colour flip in Clesto");
        let rows: Vec<&Json> = cli.iter().filter(|r| r["material"] == m).collect();
        assert_eq!(api["stats"].as_array().unwrap().len(), 2);
        for (a, c) in api["stats"].as_array().unwrap().iter().zip(&rows) {
            assert_eq!(a, *c, "{m}");
        }
        // The exit histogram is the ban file's: as many ban wins as the header counts.
        let ban = &api["histogram"]["ban"];
        for (i, row) in rows.iter().enumerate() {
            let exits: u64 = ban[i]["wins"]
                .as_array()
                .unwrap()
                .iter()
                .map(|n| n.as_u64().unwrap())
                .sum();
            assert!(exits <= row["ban_wins"].as_u64().unwrap(), "{m}");
        }
        assert!(api["histogram"].get("dtc").is_none());
        let listed = materials["tables"]
            .as_array()
            .unwrap()
            .iter()
            .find(|t| t["material"] == m)
            .unwrap();
        for (key, field) in [
            ("wins", "wins"),
            ("losses", "losses"),
            ("ban_wins", "ban_wins"),
            ("ban_losses", "ban_losses"),
        ] {
            assert_eq!(
                listed[key],
                json!([rows[0][field], rows[1][field]]),
                "{m} {key}"
            );
        }
        assert!(listed.get("draws").is_none());
    }
    let blue = &conn.get("/api/v1/clesto/stats/DvCR").json()["stats"][1];
    assert_eq!(
        (&blue["longest_exit"], &blue["longest_exit_position"]),
        (&json!(20), &json!(BAN_WIN))
    );
    let index = conn.get("/api/v1").json();
    let clesto = index["rule_sets"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["rules"] == "clesto")
        .unwrap();
    assert_eq!(
        (&clesto["board"]["hunger"], &clesto["board"]["clock_limit"]),
        (&json!(true), &json!(0))
    );
}

/// Bad Clesto text gets the parser's message, and what Clesto lacks (a clock) is refused in
/// words; a table that is not there is named with the command that makes it. Nothing is 500.
#[test]
fn bad_clesto_text_is_refused_in_the_parsers_words() {
    let dir = tempfile::tempdir().unwrap();
    tables(dir.path());
    let server = Server::start(dir.path());
    let mut conn = Conn::open(server.addr);
    let cases = [
        (
            probe_url("clesto", "", &format!("{HUNGRY} h:b1")),
            400,
            "bad-position",
            "hungry set names b1, which is empty",
        ),
        (
            probe_url("clesto", "", &format!("{HUNGRY} h:a2")),
            400,
            "bad-position",
            "hungry set names a2, which holds blue rat `r`",
        ),
        (
            probe_url("clesto", "/moves", &format!("{HUNGRY} h:")),
            400,
            "bad-position",
            "bad hungry set `h:`",
        ),
        (
            probe_url("mistboard", "", &format!("{HUNGRY} h:a1")),
            400,
            "bad-position",
            "rule set mistboard has no hunger",
        ),
        (
            probe_url("clesto", "/line", &format!("{HUNGRY} 0")),
            400,
            "bad-position",
            "rule set clesto has no clock or move number",
        ),
        (
            probe_url("clesto", "", HUNGRY) + "&clock=3",
            400,
            "bad-clock",
            "rule set clesto has no clock rule",
        ),
        (
            probe_url("clesto", "", "7/7/7/7/7/7/7/7/3D3 r"),
            400,
            "bad-position",
            "stands in a den",
        ),
        (
            probe_url("clesto", "", "7/7/7/7/7/7/7/r6/C5E x"),
            400,
            "bad-position",
            "bad position",
        ),
        (
            probe_url("clesto", "", "7/7/7/7/7/7/3L3/r6/C5E r"),
            404,
            "missing-table",
            "missing table ELCvR: clesto/ELCvR.dtm is not there (make it with `jtb gen --rules \
             clesto --material ELCvR`)",
        ),
        (
            probe_url("clesto", "", MISSING),
            404,
            "missing-table",
            "missing table LvCR: clesto/LvCR.dtm is not there (make it with `jtb gen --rules \
             clesto --material LvCR`)",
        ),
    ];
    for (url, status, code, says) in &cases {
        let r = conn.get(url);
        let body = String::from_utf8_lossy(&r.body).into_owned();
        assert_eq!(r.status, *status, "{url}: {body}");
        let answer = r.json();
        let error = answer["error"].as_str().unwrap();
        assert!(error.contains(says), "{url}: {error}");
        assert_eq!(answer["code"], *code, "{url}: {error}");
    }
    // `jtb probe` words a missing table as the server does, with its path as given.
    let text = MISSING;
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_jtb"))
        .args(["probe", "--rules", "clesto", "--json", "--tables"])
        .arg(dir.path())
        .arg(text)
        .output()
        .unwrap();
    let cli: Json = serde_json::from_slice(&out.stdout).unwrap();
    let api = get(server.addr, &probe_url("clesto", "", text)).json();
    // The CLI names its own root, also in the command it suggests (`--out`), which the
    // server keeps to itself.
    let root = dir.path().display().to_string();
    assert_eq!(
        cli["error"]
            .as_str()
            .unwrap()
            .replacen(&format!("{root}/"), "", 1)
            .replacen(&format!(" --out {root}`"), "`", 1),
        api["error"].as_str().unwrap()
    );
}
