//! `jtb gen` and `jtb probe` on flip positions with face-down tiles (RULES.md 8): the chance
//! tables beside the revealed ones, exact fractions, every move's worth with each flip's
//! outcomes, and the errors of section 8.

mod cli_support;

use cli_support::{jtb, stderr, stdout};
use serde_json::Value as Json;

fn fraction(v: &Json) -> (u64, u64) {
    let text = v
        .as_str()
        .unwrap_or_else(|| panic!("a fraction as a string: {v}"));
    let (n, d) = text.split_once('/').unwrap_or((text, "1"));
    let (n, d): (u64, u64) = (n.parse().unwrap(), d.parse().unwrap());
    assert!(d == 1 && n <= 1 || d > 1 && n < d, "{text}");
    assert_eq!(gcd(n, d), 1, "lowest terms: {text}");
    (n, d)
}

fn gcd(a: u64, b: u64) -> u64 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

/// Over 240: every value of up to five face-down tiles is exact there.
fn over_240(v: &Json) -> u64 {
    let (n, d) = fraction(v);
    assert_eq!(240 % d, 0);
    n * (240 / d)
}

/// Score, win, draw and loss of an object, checked against each other.
fn value(obj: &Json) -> [u64; 4] {
    let [s, w, d, l] = ["score", "win", "draw", "loss"].map(|k| over_240(&obj[k]));
    assert_eq!(w + d + l, 240, "{obj}");
    assert_eq!(2 * s, 2 * w + d, "score = win + draw / 2: {obj}");
    [s, w, d, l]
}

#[test]
fn probe_gives_exact_values_best_moves_and_flip_outcomes() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().to_str().unwrap();
    let o = jtb(&[
        "gen",
        "--rules",
        "flip4x4",
        "--max-pieces",
        "2",
        "--material",
        "Lv-Tw",
        "--material",
        "LvC-T",
        "--out",
        root,
        "--quiet",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(dir.path().join("flip4x4/Lv-Tw.chance").exists());
    assert!(
        dir.path().join("flip4x4/LTvW.wdl").exists(),
        "the revealed tables it needs"
    );

    let texts = [
        "?3/4/4/c2L r ?:T",
        "?3/4/1?2/3L b 17 ?:Tw",
        "?3/4/1T2/3L r 39 ?:w",
    ];
    let o = jtb(&[&["probe", "--tables", root, "--json"][..], &texts].concat());
    assert!(o.status.success(), "{}{}", stdout(&o), stderr(&o));
    let rows: Vec<Json> = stdout(&o)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(rows.len(), 3);
    for (row, text) in rows.iter().zip(texts) {
        assert_eq!(row["position"], text);
        assert_eq!(row["rules"], "flip4x4");
        let v = value(row);
        let moves = row["moves"].as_array().unwrap();
        // Best first; the best is the position's value, and the first move.
        assert_eq!(row["best"], moves[0]["move"]);
        assert_eq!(value(&moves[0]), v, "{text}");
        for pair in moves.windows(2) {
            let key = |m: &Json| (value(m)[0], value(m)[1]);
            assert!(key(&pair[0]) >= key(&pair[1]), "{text}: sorted by worth");
        }
        for m in moves
            .iter()
            .filter(|m| m["move"].as_str().unwrap().starts_with('?'))
        {
            let outcomes = m["outcomes"].as_array().unwrap();
            let sum: [u64; 4] = outcomes.iter().map(value).fold([0; 4], |a, v| {
                [a[0] + v[0], a[1] + v[1], a[2] + v[2], a[3] + v[3]]
            });
            let n = outcomes.len() as u64;
            assert_eq!(
                sum.map(|x| x / n),
                value(m),
                "{text}: a flip is the average"
            );
            for o in outcomes {
                assert_eq!(o["probability"], if n == 1 { "1" } else { "1/2" });
                assert!(
                    o["position"].as_str().unwrap().contains(" 0"),
                    "clock 0 after a flip"
                );
            }
        }
    }
    // Capturing the cat leaves Blue nothing: a certain win, found before the flip.
    assert_eq!(value(&rows[0]), [240, 240, 0, 0]);
    // Clock 39: only a flip can change anything before the draw at 40.
    let last = &rows[2];
    assert_eq!(last["clock"], 39);

    // The text form: percentages, and each flip's outcomes under it.
    let o = jtb(&["probe", "--tables", root, "?3/4/1?2/3L b 17 ?:Tw"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    assert!(text.contains("value: score "), "{text}");
    assert!(text.contains("%)"), "{text}");
    assert!(text.contains("for blue to move at clock 17"), "{text}");
    assert!(
        text.contains("\n  ?a4 ") && text.contains("\n        T 1/2"),
        "{text}"
    );
}

#[test]
fn bad_chance_positions_and_materials_are_named() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().to_str().unwrap();
    let o = jtb(&[
        "gen",
        "--rules",
        "flip4x4",
        "--max-pieces",
        "2",
        "--out",
        root,
        "--quiet",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    for (text, says) in [
        // Animals were captured: the hidden set cannot be deduced.
        ("?3/4/4/3L r", "`?:` field"),
        ("?3/4/1?2/3L r ?:Tw", "missing table Lv-Tw: "),
        ("?3/4/4/3L r ?:L", "stands face up"),
        ("?3/4/4/3L r ?:Tw", "names 2 animals, but the board has 1"),
    ] {
        let o = jtb(&["probe", "--tables", root, text]);
        assert_eq!(o.status.code(), Some(1), "{text}");
        assert!(stdout(&o).contains(says), "{text}: {}", stdout(&o));
    }
    for bad in ["Lv-L", "Lv-x", "LvE-", "v-T"] {
        let o = jtb(&[
            "gen",
            "--rules",
            "flip4x4",
            "--material",
            bad,
            "--out",
            root,
        ]);
        assert_eq!(o.status.code(), Some(2), "{bad}: {}", stderr(&o));
        assert!(
            stderr(&o).contains(&format!("bad material `{bad}`")),
            "{}",
            stderr(&o)
        );
    }
}

/// The chance tables take `--no-deps` and `--memory-limit` as every other game's tables: with
/// `--no-deps` only the chance tables named are made, and the smaller chance tables and the
/// revealed tables they lead into must be there (named when not, nothing written); a chance
/// table beyond the memory limit is refused before anything, revealed tables included, is
/// written.
#[test]
fn chance_tables_take_no_deps_and_the_memory_limit() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().to_str().unwrap();
    let flip = dir.path().join("flip4x4");
    let files = || {
        let mut names: Vec<String> = std::fs::read_dir(&flip)
            .map(|d| {
                d.flatten()
                    .map(|e| e.file_name().to_string_lossy().into_owned())
                    .collect()
            })
            .unwrap_or_default();
        names.sort();
        names
    };
    let gen = |extra: &[&str]| {
        let args = [
            &[
                "gen",
                "--rules",
                "flip4x4",
                "--material",
                "LvE-T",
                "--out",
                root,
                "--quiet",
            ][..],
            extra,
        ]
        .concat();
        jtb(&args)
    };

    let o = gen(&["--memory-limit", "100"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("needs about") && stderr(&o).contains("100 MiB allowed"),
        "{}",
        stderr(&o)
    );
    assert!(files().is_empty(), "wrote {:?}", files());

    let o = gen(&[]);
    assert!(o.status.success(), "{}", stderr(&o));
    let all = files();
    assert!(all.contains(&"Ev-t.chance".to_owned()), "{all:?}");

    // Only the table named is made again.
    std::fs::remove_file(flip.join("LvE-T.chance")).unwrap();
    let o = gen(&["--no-deps"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(files(), all);

    // A smaller chance table missing: named, nothing written.
    for name in ["LvE-T.chance", "Ev-t.chance"] {
        std::fs::remove_file(flip.join(name)).unwrap();
    }
    let before = files();
    let o = gen(&["--no-deps"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("Ev-t is missing"), "{}", stderr(&o));
    assert_eq!(files(), before);

    // The revealed table of its last flip missing: named, nothing written.
    let o = jtb(&[
        "gen",
        "--rules",
        "flip4x4",
        "--material",
        "Ev-t",
        "--out",
        root,
        "--quiet",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    for ext in ["dtc", "dtm", "wdl"] {
        std::fs::remove_file(flip.join(format!("LTvE.{ext}"))).unwrap();
    }
    let before = files();
    let o = gen(&["--no-deps"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("LTvE is missing"), "{}", stderr(&o));
    assert_eq!(files(), before);
}

/// A revealed table of the flip game is made with its DTE file (RULES.md 8), and a revealed
/// position's answer gives its score and DTE; a set without the file still answers, the DTE
/// `null` and the file named with the command that makes it.
#[test]
fn a_revealed_flip_table_holds_its_distances_to_the_end() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().to_str().unwrap();
    let gen = || {
        let o = jtb(&[
            "gen",
            "--rules",
            "flip4x4",
            "--material",
            "LRvE",
            "--out",
            root,
            "--quiet",
        ]);
        assert!(o.status.success(), "{}", stderr(&o));
    };
    gen();
    let dte = dir.path().join("flip4x4/LRvE.dte");
    assert!(dte.exists());
    let probe = |text: &str| -> Json {
        let o = jtb(&[
            "probe", "--tables", root, "--rules", "flip4x4", "--json", text,
        ]);
        serde_json::from_str(&stdout(&o)).unwrap()
    };
    // Red's lion takes Blue's last animal at once, at any clock below the limit.
    let won = probe("4/1LRe/4/4 r 30");
    assert_eq!(won["score"], "1", "{won}");
    assert_eq!(won["dte"], 1, "{won}");
    assert!(won.get("missing").is_none(), "{won}");
    let o = jtb(&[
        "probe",
        "--tables",
        root,
        "--rules",
        "flip4x4",
        "4/1LRe/4/4 r 30",
    ]);
    assert!(
        stdout(&o).contains("certain: win in 1 ply to the end"),
        "{}",
        stdout(&o)
    );

    std::fs::remove_file(&dte).unwrap();
    let partial = probe("4/1LRe/4/4 r 30");
    assert_eq!(partial["wdl"], "win", "{partial}");
    assert_eq!(partial["dte"], Json::Null, "{partial}");
    let note = partial["missing"].as_str().unwrap_or_default();
    assert!(
        note.contains("LRvE.dte") && note.contains("jtb gen --rules flip4x4 --material LRvE"),
        "{partial}"
    );
    gen();
    assert_eq!(probe("4/1LRe/4/4 r 30"), won);
}

/// `jtb stats --chance` gives a line per chance table, or only the tables `--material` names
/// (in either orientation); a table that is not there is named.
#[test]
fn chance_stats_of_chosen_tables() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().to_str().unwrap();
    let o = jtb(&[
        "gen",
        "--rules",
        "flip4x4",
        "--material",
        "LvE-T",
        "--out",
        root,
        "--quiet",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let stats = |extra: &[&str]| {
        let args = [
            &[
                "stats", "--rules", "flip4x4", "--tables", root, "--chance", "--json",
            ][..],
            extra,
        ]
        .concat();
        jtb(&args)
    };
    let lines = |o: &std::process::Output| -> Vec<Json> {
        assert!(o.status.success(), "{}", stderr(o));
        stdout(o)
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect()
    };
    let all = lines(&stats(&[]));
    assert_eq!(all.len(), 2, "{all:?}");
    let one = lines(&stats(&["--material", "LvE-T"]));
    assert_eq!(one.len(), 1);
    assert_eq!(one[0]["material"], "LvE-T");
    assert!(all.contains(&one[0]), "{all:?}");
    assert!(one[0]["positions"].as_u64().unwrap() > 0);
    let o = stats(&["--material", "WvE-T"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("no chance table"), "{}", stderr(&o));
}
