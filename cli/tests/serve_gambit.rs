//! `jtb serve` on Animal Gambit tables (RULES.md 7): every field of the position, line, turn
//! and step endpoints checked against the probe library on random positions of several 2- and
//! 3-piece materials (both orientations), the turns against `jtb moves`, the lines against
//! `jtb probe --line`, the statistics against `jtb stats`, every turn played one step at a
//! time, and bad input refused in the parser's words.

mod serve_support;

use std::{collections::BTreeSet, path::Path, process::Command};

use jtb_probe::gambit::{
    AnimalGambit, Board, Category, Color, Next, Piece, Position, Square, Token, Turn,
};
use jtb_probe::{Tablebase, Value};
use serde_json::{json, Value as Json};
use serve_support::{assert_index_matches_stats, enc, gen, probe_url, Conn, Rng, Server};

const AG: &str = "animal-gambit";

/// The tables of these tests: `ERvR`, `RRvR` and `CRvR`, with `RvR` that they need.
fn tables(dir: &Path) {
    gen(dir, AG, &["ERvR", "RRvR", "CRvR"]);
}

/// Gold's rabbit e2 outruns Silver's d7: a win in 3 turns.
const RACE: &str = "8/3r4/8/8/8/8/4R3/8 g";
/// Gold's elephant d2 can push the silver rabbit d3 onto the trap c3.
const PUSH: &str = "8/8/8/8/8/3r4/3E4/7R g";

/// Up to `n` positions with these pieces (`ERr`: upper case Gold, lower case Silver) on random
/// squares, each side to move in turn; texts a position refuses (a rabbit on its goal, a piece
/// alone on a trap) are skipped.
fn random_positions(pieces: &str, n: usize, rng: &mut Rng) -> Vec<Position> {
    let mut out = Vec::new();
    let mut tries = 0;
    while out.len() < n && tries < n * 100 {
        tries += 1;
        let mut board = Board::default();
        let mut squares = BTreeSet::new();
        for c in pieces.chars() {
            let sq = loop {
                let sq = rng.below(64) as u8;
                if squares.insert(sq) {
                    break sq;
                }
            };
            board.put(Piece::from_letter(c).unwrap(), Square::from_index(sq));
        }
        let turn = if out.len() % 2 == 0 {
            Color::Gold
        } else {
            Color::Silver
        };
        if let Ok(pos) = Position::new(board, turn) {
            out.push(pos);
        }
    }
    out
}

/// Positions of RvR, ERvR and RvER (the table seen from the other side), RRvR and CRvR.
fn sample(rng: &mut Rng, each: usize) -> Vec<Position> {
    let mut out = Vec::new();
    for pieces in ["Rr", "ERr", "Rer", "RRr", "CRr"] {
        out.extend(random_positions(pieces, each, rng));
    }
    out.push(RACE.parse().unwrap());
    out.push(PUSH.parse().unwrap());
    out
}

/// A value's fields as the API writes them.
fn fields(v: Value) -> Json {
    json!({"wdl": v.wdl().name(), "dtm": v.dtm(), "category": Category::of(v).name()})
}

fn tokens(t: &Turn) -> Vec<String> {
    t.tokens().iter().map(ToString::to_string).collect()
}

/// The fields of a turn the API lists: its text, tokens, board and what it gives.
fn turn_fields(pos: &Position, t: &Turn) -> Json {
    let (position, end, winner) = match pos.play(t) {
        Next::Continues(next) => (json!(next.to_string()), Json::Null, Json::Null),
        Next::Over(end) => {
            let winner = if end.mover_wins() {
                pos.turn()
            } else {
                pos.turn().other()
            };
            (
                Json::Null,
                json!(end.to_string()),
                json!(winner.to_string()),
            )
        }
    };
    json!({"turn": t.to_string(), "steps": tokens(t), "step_count": t.steps(),
           "board": t.board().to_string(), "position": position, "end": end, "winner": winner})
}

/// Checks every field of a probe answer against the library: the value, the best turn, and
/// every turn (read back from its text) with the position it gives, the value after it for
/// the side then to move and its value for the mover, best first with ties in ASCII order.
fn check_answer(tb: &Tablebase<AnimalGambit>, pos: &Position, answer: &Json) {
    let value = tb.probe_dtm(pos).unwrap();
    let best = tb.best_move(pos).unwrap();
    let mut want = fields(value);
    want["position"] = json!(pos.to_string());
    want["rules"] = json!(AG);
    want["best"] = json!(best.map(|b| b.mv.to_string()));
    for (k, v) in want.as_object().unwrap() {
        assert_eq!(&answer[k], v, "{k} of {pos}");
    }
    let turns = answer["turns"].as_array().unwrap();
    let all: BTreeSet<String> = pos.turns().iter().map(ToString::to_string).collect();
    let listed: BTreeSet<String> = turns
        .iter()
        .map(|t| t["turn"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!((turns.len(), &listed), (all.len(), &all), "{pos}");
    let scored = tb.scored_moves(pos).unwrap();
    let mut previous: Option<(Value, String)> = None;
    for t in turns {
        let text = t["turn"].as_str().unwrap();
        let turn = pos.parse_turn(text).unwrap();
        let mover = scored.iter().find(|s| s.mv == turn).unwrap().value;
        if let Some((v, p)) = &previous {
            assert!(
                *v > mover || (*v == mover && p.as_str() < text),
                "{pos}: {p} before {text}"
            );
        }
        previous = Some((mover, text.to_owned()));
        let after = match pos.play(&turn) {
            Next::Continues(next) => {
                let after = tb.probe_dtm(&next).unwrap();
                // The mover's value is the position after's, one turn back.
                assert_eq!(after.back_one_ply(), mover, "{pos} {text}");
                after
            }
            Next::Over(end) => {
                assert_eq!(
                    mover,
                    if end.mover_wins() {
                        Value::Win(1)
                    } else {
                        Value::Loss(1)
                    }
                );
                if end.mover_wins() {
                    Value::Loss(0)
                } else {
                    Value::Win(0)
                }
            }
        };
        let mut want = turn_fields(pos, &turn);
        want.as_object_mut()
            .unwrap()
            .extend(fields(after).as_object().unwrap().clone());
        want["mover"] = fields(mover);
        assert_eq!(t, &want, "{pos}");
    }
    if let Some(b) = best {
        assert_eq!(turns[0]["turn"], b.mv.to_string(), "{pos}");
        assert_eq!(turns[0]["mover"], fields(value), "{pos}");
    }
}

#[test]
fn every_field_agrees_with_the_library() {
    let dir = tempfile::tempdir().unwrap();
    tables(dir.path());
    let server = Server::start(dir.path());
    let tb = Tablebase::open(dir.path(), AnimalGambit).unwrap();
    let mut conn = Conn::open(server.addr);
    let mut categories = BTreeSet::new();
    let mut ends = BTreeSet::new();
    let mut rng = Rng(0xa9);
    let mut positions = sample(&mut rng, 40);
    // A draw (the repetition rule decides) is rare in these tables: look for one of each side.
    for pieces in ["ERr", "Rer"] {
        let draw = (0..100_000)
            .flat_map(|_| random_positions(pieces, 1, &mut rng))
            .find(|p| tb.probe_dtm(p).unwrap() == Value::Draw)
            .expect("a draw");
        positions.push(draw);
    }
    for pos in positions {
        let r = conn.get(&probe_url(AG, "", &pos.to_string()));
        assert_eq!(r.status, 200, "{}", String::from_utf8_lossy(&r.body));
        let answer = r.json();
        check_answer(&tb, &pos, &answer);
        categories.insert(answer["category"].as_str().unwrap().to_owned());
        for t in answer["turns"].as_array().unwrap() {
            if let Some(e) = t["end"].as_str() {
                ends.insert(e.to_owned());
            }
        }
    }
    // Wins, losses and repetitions, and turns that end the game in more than one way.
    assert_eq!(
        categories.into_iter().collect::<Vec<_>>(),
        ["loss", "repetition", "win"]
    );
    assert!(ends.len() >= 2, "{ends:?}");
}

fn jtb(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_jtb"))
        .args(args)
        .output()
        .unwrap()
}

/// The probe fields and the best line mean what they mean in `jtb probe --rules
/// animal-gambit --json --line`; each turn of the line gives the next, one turn nearer the end.
#[test]
fn fields_and_lines_mean_what_jtb_probe_says() {
    let dir = tempfile::tempdir().unwrap();
    tables(dir.path());
    let root = dir.path().to_str().unwrap();
    let server = Server::start(dir.path());
    let tb = Tablebase::open(dir.path(), AnimalGambit).unwrap();
    let mut conn = Conn::open(server.addr);
    let mut ended = 0;
    for pos in sample(&mut Rng(0x11e), 6) {
        let text = pos.to_string();
        let out = jtb(&[
            "probe", "--rules", AG, "--json", "--line", "--tables", root, &text,
        ]);
        assert!(out.status.success(), "{text}");
        let cli: Json = serde_json::from_slice(&out.stdout).unwrap();
        let api = conn.get(&probe_url(AG, "", &text)).json();
        for k in ["position", "rules", "wdl", "dtm", "category", "best"] {
            assert_eq!(api[k], cli[k], "{k} of {text}");
        }
        let line = conn.get(&probe_url(AG, "/line", &text)).json();
        let steps = line["line"].as_array().unwrap();
        let turns: Vec<&Json> = steps.iter().map(|s| &s["turn"]).collect();
        let cli_turns: Vec<&Json> = cli["line"].as_array().unwrap().iter().collect();
        assert_eq!(turns, cli_turns, "{text}");
        let mut at = pos;
        let mut dtm = tb.probe_dtm(&pos).unwrap().dtm();
        for step in steps {
            let turn = at.parse_turn(step["turn"].as_str().unwrap()).unwrap();
            let mut want = turn_fields(&at, &turn);
            match at.play(&turn) {
                Next::Continues(next) => {
                    let v = tb.probe_dtm(&next).unwrap();
                    want.as_object_mut()
                        .unwrap()
                        .extend(fields(v).as_object().unwrap().clone());
                    assert_eq!(v.dtm(), dtm.map(|d| d - 1), "{text}");
                    dtm = v.dtm();
                    at = next;
                }
                Next::Over(_) => {
                    for k in ["wdl", "dtm", "category"] {
                        want[k] = Json::Null;
                    }
                    assert_eq!(dtm, Some(1), "{text}");
                    ended += 1;
                }
            }
            assert_eq!(step, &want, "{text}");
        }
        // A line is empty exactly where the repetition rule decides, else it ends the game.
        let draw = api["category"] == "repetition";
        assert_eq!(steps.is_empty(), draw, "{text}");
        assert_eq!(line["rules"], AG);
    }
    assert!(ended > 10, "{ended}");
}

/// `/moves` lists the turns as `jtb moves --rules animal-gambit` does (ASCII order), each with
/// the position it gives; it needs no tables.
#[test]
fn turns_agree_with_jtb_moves_without_tables() {
    let dir = tempfile::tempdir().unwrap();
    let server = Server::start(dir.path());
    let mut conn = Conn::open(server.addr);
    let mut rng = Rng(0x7e57);
    let mut positions = sample(&mut rng, 3);
    // Crowded boards too: no table has them, and `/moves` does not need one.
    positions.extend(random_positions("EMHDCRemhdcr", 4, &mut rng));
    for pos in positions {
        let text = pos.to_string();
        let out = jtb(&["moves", "--rules", AG, "--json", &text]);
        assert!(out.status.success(), "{text}");
        let cli: Json = serde_json::from_slice(&out.stdout).unwrap();
        let r = conn.get(&probe_url(AG, "/moves", &text));
        assert_eq!(r.status, 200, "{text}");
        let api = r.json();
        let listed: Vec<&Json> = api["turns"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| &t["turn"])
            .collect();
        let cli_moves: Vec<&Json> = cli["moves"].as_array().unwrap().iter().collect();
        assert_eq!(listed, cli_moves, "{text}");
        let mut sorted: Vec<&str> = listed.iter().map(|t| t.as_str().unwrap()).collect();
        sorted.sort_unstable();
        assert_eq!(
            sorted,
            cli_moves
                .iter()
                .map(|t| t.as_str().unwrap())
                .collect::<Vec<_>>()
        );
        for (t, turn) in api["turns"].as_array().unwrap().iter().zip(pos.turns()) {
            assert_eq!(t, &turn_fields(&pos, &turn), "{text}");
        }
    }
}

/// Every turn of a sample of positions played one step at a time through `/steps`: before
/// each of its steps the step is offered with the removal it causes and the squares it joins,
/// the turn may end only after its last step, and then it is the turn itself; an illegal step,
/// a missing removal and a way back to the starting board are each refused or explained.
#[test]
fn every_turn_can_be_played_step_by_step() {
    let dir = tempfile::tempdir().unwrap();
    let server = Server::start(dir.path());
    let mut conn = Conn::open(server.addr);
    let mut requests = 0;
    let mut inside_push = 0;
    for pos in sample(&mut Rng(0x57e9), 2) {
        let text = pos.to_string();
        let steps_url = |steps: &str| {
            format!(
                "/api/v1/{AG}/steps?position={}&steps={}",
                enc(&text),
                enc(steps)
            )
        };
        for turn in pos.turns() {
            let tokens = tokens(&turn);
            let mut done: Vec<String> = Vec::new();
            let mut i = 0;
            while i <= tokens.len() {
                let r = conn.get(&steps_url(&done.join(" ")));
                requests += 1;
                assert_eq!(r.status, 200, "{text}: {done:?}");
                let a = r.json();
                let partial = pos.partial_turn(&done.join(" ")).unwrap();
                assert_eq!(a["board"], partial.board.to_string(), "{text}");
                assert_eq!(a["step_count"], partial.steps, "{text}");
                assert_eq!(a["finished"], partial.finished, "{text}");
                if i == tokens.len() {
                    assert_eq!(a["turn"], turn_fields(&pos, &turn), "{text}: {turn}");
                    assert_eq!(a.get("why_not"), Some(&Json::Null), "{text}");
                    break;
                }
                if !partial.finished {
                    inside_push += 1;
                    assert!(a["turn"].is_null() && a["why_not"].is_string());
                }
                // The next step of the turn is offered, with the removal it causes.
                let step = &tokens[i];
                let removal = tokens.get(i + 1).filter(|t| t.ends_with('x'));
                let offered = a["next"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .find(|n| n["step"] == step.as_str())
                    .unwrap_or_else(|| panic!("{text}: {turn}: {step} not offered"));
                assert_eq!(offered["removal"], json!(removal), "{text}: {turn}");
                assert_eq!(offered["from"], step[1..3], "{text}");
                let Token::Step(s) = turn.tokens()[i] else {
                    panic!("a removal where a step was expected")
                };
                assert_eq!(offered["to"], s.to().to_string(), "{text}");
                done.push(step.clone());
                i += 1;
                if let Some(r) = removal {
                    done.push(r.clone());
                    i += 1;
                }
            }
        }
    }
    assert!(
        requests > 1000 && inside_push > 0,
        "{requests} {inside_push}"
    );

    let url = |pos: &str, steps: &str| {
        format!(
            "/api/v1/{AG}/steps?position={}&steps={}",
            enc(pos),
            enc(steps)
        )
    };
    // Refused: a step the rules do not allow there, a removal left out, a bad token.
    for (steps, words) in [
        ("Ed2n", "token 1 `Ed2n` is not a legal step here"),
        ("rd3w", "removes `rc3x` on its trap"),
        ("rd3w rc3x Ed2w", "token 3 `Ed2w` is not a legal step here"),
        ("Xd2n", "token 1 `Xd2n` is not a step"),
        ("Rh1n Rh2n Rh3n Rh4n Rh5n", "5 steps: a turn is at most 4"),
        (&"rc3x ".repeat(20), "steps text of 100 bytes: at most 64"),
    ] {
        let r = conn.get(&url(PUSH, steps));
        assert_eq!(r.status, 400, "{steps}");
        let e = r.json();
        assert_eq!(e["code"], "bad-turn", "{steps}");
        assert!(e["error"].as_str().unwrap().contains(words), "{steps}: {e}");
    }
    // Back to the starting board: legal steps, but no turn, and why.
    let a = conn.get(&url(PUSH, "Ed2w Ec2e")).json();
    assert_eq!(
        (&a["finished"], a.get("turn")),
        (&json!(true), Some(&Json::Null))
    );
    assert!(a["why_not"].as_str().unwrap().contains("starting board"));
    assert_eq!(a["board"], PUSH.split(' ').next().unwrap());
    // Inside the push only the pusher's step may follow.
    let a = conn.get(&url(PUSH, "rd3w rc3x")).json();
    assert_eq!(a["next"].as_array().unwrap().len(), 1);
    assert_eq!(a["next"][0]["text"], "Ed2n");
    assert!(a["why_not"].as_str().unwrap().contains("push"));
    // The other rule sets have no steps.
    let r = conn.get(&format!(
        "/api/v1/mistboard/steps?position={}&steps=a1a2",
        enc("7/7/7/7/7/7/2L4/1e5/R6 r")
    ));
    assert_eq!(
        (r.status, r.json()["code"].clone()),
        (400, json!("not-for-rules"))
    );
}

/// The statistics and the material index say what `jtb stats --rules animal-gambit --json`
/// says; a material asked the other way round answers with the colours swapped, its longest
/// win a position of that material with its side to move winning in that many turns.
#[test]
fn stats_agree_with_jtb_stats() {
    let dir = tempfile::tempdir().unwrap();
    tables(dir.path());
    let root = dir.path().to_str().unwrap();
    let server = Server::start(dir.path());
    let tb = Tablebase::open(dir.path(), AnimalGambit).unwrap();
    let mut conn = Conn::open(server.addr);
    let out = jtb(&["stats", "--rules", AG, "--json", "--tables", root]);
    assert!(out.status.success());
    let cli: Vec<Json> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let out = jtb(&[
        "stats",
        "--rules",
        AG,
        "--json",
        "--histogram",
        "--tables",
        root,
    ]);
    assert!(out.status.success());
    let counted: Vec<Json> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let index = conn.get(&format!("/api/v1/{AG}/materials")).json();
    let names: Vec<String> = tb.materials().iter().map(ToString::to_string).collect();
    assert_eq!(index["materials"], json!(names));
    assert_eq!(names, ["RvR", "CRvR", "ERvR", "RRvR"]);
    for (m, table) in names.iter().zip(index["tables"].as_array().unwrap()) {
        let s = conn.get(&format!("/api/v1/{AG}/stats/{m}")).json();
        let sides: Vec<&Json> = cli.iter().filter(|o| o["material"] == m.as_str()).collect();
        assert_eq!(s["stats"], json!(sides), "{m}");
        assert_eq!((&s["table"], &s["flipped"]), (&json!(m), &json!(false)));
        assert_index_matches_stats(table, &sides, m);
        // The positions per distance in turns are `jtb stats --histogram`'s.
        let hist: Vec<&Json> = counted
            .iter()
            .filter(|o| o["material"] == m.as_str())
            .collect();
        for (i, to_move) in ["gold", "silver"].into_iter().enumerate() {
            let mut h = hist[i]["histogram"]["dtm"].clone();
            h["to_move"] = json!(to_move);
            assert_eq!(s["histogram"]["dtm"][i], h, "{m}");
        }
        // The other way round: Gold's pieces are the table's Silver's.
        let (gold, silver) = m.split_once('v').unwrap();
        let other = format!("{silver}v{gold}");
        if other == *m {
            continue;
        }
        let f = conn.get(&format!("/api/v1/{AG}/stats/{other}")).json();
        assert_eq!((&f["table"], &f["flipped"]), (&json!(m), &json!(true)));
        for (i, to_move) in ["gold", "silver"].into_iter().enumerate() {
            let (asked, stored) = (&f["stats"][i], sides[1 - i]);
            assert_eq!(
                (&asked["material"], &asked["to_move"]),
                (&json!(other), &json!(to_move))
            );
            for k in ["wins", "draws", "losses", "longest_win"] {
                assert_eq!(asked[k], stored[k], "{k} of {other}");
            }
            let (h, stored_h) = (&f["histogram"]["dtm"][i], &s["histogram"]["dtm"][1 - i]);
            assert_eq!(h["to_move"], json!(to_move));
            for k in ["wins", "draws", "losses"] {
                assert_eq!(h[k], stored_h[k], "histogram {k} of {other}");
            }
            let text = asked["longest_win_position"].as_str().unwrap();
            let pos: Position = text.parse().unwrap();
            assert_eq!(
                jtb_probe::gambit::Material::of(pos.board()).to_string(),
                other
            );
            assert_eq!(pos.turn().to_string(), to_move, "{text}");
            let longest = u16::try_from(asked["longest_win"].as_u64().unwrap()).unwrap();
            assert_eq!(tb.probe_dtm(&pos).unwrap(), Value::Win(longest), "{text}");
        }
        assert_eq!(
            f["depends_on"].as_array().unwrap().len(),
            s["depends_on"].as_array().unwrap().len()
        );
    }
    // The index of rule sets names Animal Gambit with its board: 8x8 and four traps.
    let all = conn.get("/api/v1").json();
    let ag = all["rule_sets"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["rules"] == AG)
        .unwrap()
        .clone();
    assert_eq!((&ag["tables"], &ag["max_pieces"]), (&json!(4), &json!(3)));
    assert_eq!(ag["board"]["traps"], json!(["c3", "f3", "c6", "f6"]));
    assert_eq!(
        (&ag["board"]["width"], &ag["board"]["height"]),
        (&json!(8), &json!(8))
    );
}

/// Bad input: each a 4xx naming the problem, the server alive after all of it.
#[test]
fn bad_input_is_refused_in_the_parsers_words() {
    let dir = tempfile::tempdir().unwrap();
    tables(dir.path());
    let mut server = Server::start(dir.path());
    let mut conn = Conn::open(server.addr);
    let jungle = "7/7/7/7/7/7/2L4/1e5/R6 r";
    for (rules, path, text, status, code, words) in [
        (AG, "", "8/8/8 g", 400, "bad-position", "board has 3 ranks"),
        (
            AG,
            "",
            "8/3r4/8/8/8/8/4R3/8 x",
            400,
            "bad-position",
            "bad side to move",
        ),
        (
            AG,
            "/moves",
            "8/3r4/8/8/8/8/4X3/8 g",
            400,
            "bad-position",
            "unknown letter `X`",
        ),
        (
            AG,
            "/line",
            "R7/8/8/8/8/8/8/r7 g",
            400,
            "bad-position",
            "goal",
        ),
        (
            AG,
            "",
            jungle,
            400,
            "bad-position",
            "Jungle (7x9) board, not an Animal Gambit one",
        ),
        (
            AG,
            "/moves",
            jungle,
            400,
            "bad-position",
            "Jungle (7x9) board",
        ),
        (
            "mistboard",
            "",
            RACE,
            400,
            "bad-position",
            "8 ranks is an Animal Gambit board",
        ),
        (
            "mistboard",
            "/moves",
            RACE,
            400,
            "bad-position",
            "rule set animal-gambit",
        ),
        (
            AG,
            "",
            "8/3r4/8/8/8/8/3HR3/8 g",
            404,
            "missing-table",
            "missing table HRvR: animal-gambit/HRvR.dtm is not there (make it with `jtb gen \
             --rules animal-gambit --material HRvR`)",
        ),
        (
            AG,
            "/line",
            "8/3r4/8/8/8/8/2ERR3/8 g",
            404,
            "missing-table",
            "missing table ERRvR",
        ),
    ] {
        let r = conn.get(&probe_url(rules, path, text));
        assert_eq!(r.status, status, "{rules}{path} {text}");
        let e = r.json();
        assert_eq!(e["code"], code, "{text}");
        assert!(e["error"].as_str().unwrap().contains(words), "{text}: {e}");
    }
    let r = conn.get(&format!("{}&clock=3", probe_url(AG, "", RACE)));
    assert_eq!(
        (r.status, r.json()["code"].clone()),
        (400, json!("bad-clock"))
    );
    let r = conn.get(&format!("/api/v1/{AG}"));
    assert_eq!(
        (r.status, r.json()["code"].clone()),
        (400, json!("bad-query"))
    );
    for (m, code) in [
        ("XvR", "bad-material"),
        ("EvR", "bad-material"),
        ("HRvR", "missing-table"),
    ] {
        let r = conn.get(&format!("/api/v1/{AG}/stats/{m}"));
        assert_eq!(r.json()["code"], code, "{m}");
    }
    assert!(server.alive());

    // Without any Animal Gambit table: the position's own table named, in the same words.
    let empty = tempfile::tempdir().unwrap();
    let bare = Server::start(empty.path());
    let mut conn = Conn::open(bare.addr);
    let r = conn.get(&probe_url(AG, "", RACE));
    assert_eq!(r.status, 404);
    assert!(r.json()["error"]
        .as_str()
        .unwrap()
        .starts_with("missing table RvR: animal-gambit/RvR.dtm is not there"));
    let r = conn.get(&format!("/api/v1/{AG}/materials"));
    assert_eq!(r.status, 404);
    assert!(r.json()["error"]
        .as_str()
        .unwrap()
        .contains("no tables for rule set animal-gambit"));
    // Playing on still works there.
    assert_eq!(conn.get(&probe_url(AG, "/moves", RACE)).status, 200);
    // Tables generated while the server runs are served from the first request that needs them.
    gen(empty.path(), AG, &["RvR"]);
    let r = conn.get(&probe_url(AG, "", RACE));
    assert_eq!(r.status, 200, "{}", String::from_utf8_lossy(&r.body));
    assert_eq!(r.json()["dtm"], 3);
    let r = conn.get(&format!("/api/v1/{AG}/materials"));
    assert_eq!(r.json()["materials"], json!(["RvR"]));
}
