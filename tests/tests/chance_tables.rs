//! The flip game's chance tables (RULES.md 8), generated here for every set of up to three
//! tiles: one ply deep at every clock, against the forward solver written apart
//! (`chance_forward`), under the board's symmetries and the colour swap, and against the
//! revealed tables where every tile is face up.

use std::sync::OnceLock;

use jtb_gen::{chance, dte, run};
use jtb_probe::{
    flip::{ChanceLayout, ChanceMaterial, ChanceTables, ChanceValue, CLOCKS},
    Material, Piece, Position, RuleSet, Square,
};
use jtb_tests::chance_forward::Solver;

/// Generates under `dir` the revealed flip tables `revealed` with those they need, then the
/// chance tables `chance` with those they lead into; returns how many chance tables it kept.
fn generate(dir: &std::path::Path, revealed: Vec<Material>, chance: &[ChanceMaterial]) -> usize {
    let opts = run::GenOptions {
        rules: RuleSet::Flip4x4,
        targets: revealed,
        out: dir.to_path_buf(),
        memory_limit: u64::MAX,
        only_targets: false,
    };
    run::generate(&opts, &jtb_gen::driver::Silent).unwrap();
    if chance.is_empty() {
        return 0;
    }
    chance::generate(dir, chance, u64::MAX, false, &jtb_gen::driver::Silent)
        .unwrap()
        .kept
        .len()
}

/// Every revealed table of up to three pieces and every chance table of up to three tiles,
/// generated once for the whole file.
fn tables() -> &'static (tempfile::TempDir, ChanceTables) {
    static TABLES: OnceLock<(tempfile::TempDir, ChanceTables)> = OnceLock::new();
    TABLES.get_or_init(|| {
        let dir = tempfile::tempdir().unwrap();
        let kept = generate(
            dir.path(),
            Material::all_tables(RuleSet::Flip4x4, 2, 3),
            &ChanceMaterial::all(2, 3),
        );
        assert_eq!(kept, 0);
        let tables = ChanceTables::open(dir.path()).unwrap();
        (dir, tables)
    })
}

fn at_clock(pos: &Position, clock: usize) -> Position {
    let mut p = pos.clone();
    p.set_clock(Some(clock as u32)).unwrap();
    p
}

/// Every stored value is its best move's worth, a flip's worth the exact average of its
/// outcomes: every position of every table of two tiles at every clock, and a sample of the
/// three-tile ones.
#[test]
fn every_value_is_its_best_moves_worth() {
    let (_, tables) = tables();
    let mut checked = 0u64;
    for m in ChanceMaterial::all(2, 3) {
        let layout = ChanceLayout::new(m);
        let step = if m.tiles() == 2 { 1 } else { 29 };
        for idx in (0..layout.positions()).step_by(step) {
            let Some(pos) = layout.position(idx) else {
                continue;
            };
            for clock in 0..=CLOCKS {
                if m.tiles() == 3 && clock % 13 != 0 && clock < 38 {
                    continue;
                }
                let pos = at_clock(&pos, clock);
                let value = tables.probe(&pos).unwrap();
                let moves = tables.moves(&pos).unwrap();
                let best = moves.iter().map(|m| m.value).max();
                if clock == CLOCKS {
                    assert_eq!(value, ChanceValue::DRAW);
                    assert!(moves.is_empty());
                } else {
                    assert_eq!(Some(value), best, "{pos}");
                }
                for mv in &moves {
                    if !mv.outcomes.is_empty() {
                        let outcomes: Vec<ChanceValue> = mv.outcomes.iter().map(|o| o.1).collect();
                        assert_eq!(ChanceValue::average(&outcomes), Some(mv.value));
                    }
                }
                checked += 1;
            }
        }
    }
    assert!(checked > 50_000, "{checked}");
}

/// `jtb verify`'s check ([`chance::analyse`]) on every chance table generated here: every entry
/// at every clock 0..=39 is its best move's worth, a flip the exact average of its outcomes read
/// from the tables it leads into.
#[test]
fn every_table_passes_the_one_ply_check_at_every_clock() {
    let (dir, tables) = tables();
    let mut entries = 0;
    for m in ChanceMaterial::all(2, 3) {
        let report = chance::analyse(tables, dir.path(), m).unwrap();
        assert!(report.mismatch.is_none(), "{m}: {:?}", report.mismatch);
        assert!(
            report.dte_mismatch.is_none(),
            "{m}: {:?}",
            report.dte_mismatch
        );
        assert!(report.positions > 0, "{m}");
        entries += report.checked;
    }
    assert!(entries > 1_000_000, "{entries}");
    // The revealed tables' DTE files, one ply deep at every clock.
    let mut revealed = 0;
    for m in Material::all_tables(RuleSet::Flip4x4, 2, 3) {
        let (checked, wrong) = dte::verify_revealed(tables, dir.path(), m).unwrap();
        assert_eq!(wrong, None, "{m}");
        revealed += checked;
    }
    assert!(revealed > 1_000_000, "{revealed}");
}

/// `jtb stats --chance`'s count of positions whose best move is a flip (at clock 0) is what
/// the probe's best move says, position by position, on every table of two tiles and a few of
/// three; and its longest certain win is the largest DTE of a certain win.
#[test]
fn the_figures_of_a_table_are_its_positions_best_moves() {
    let (dir, tables) = tables();
    let three = ["Lv-Tw", "EvR-e", "CvW-p", "Ev-c"].map(|m| m.parse::<ChanceMaterial>().unwrap());
    for m in ChanceMaterial::all(2, 2).into_iter().chain(three) {
        let m = m.canonical();
        let report = chance::analyse(tables, dir.path(), m).unwrap();
        let layout = ChanceLayout::new(m);
        let (mut flips, mut longest) = (0, 0);
        for idx in 0..layout.positions() {
            let Some(pos) = layout.position(idx) else {
                continue;
            };
            let pos = at_clock(&pos, 0);
            let best = tables.best_move(&pos).unwrap().unwrap();
            if best.mv.to_string().starts_with('?') {
                flips += 1;
            }
            if tables.probe(&pos).unwrap() == ChanceValue::WIN {
                longest = longest.max(tables.dte(&pos).unwrap().unwrap());
            }
        }
        assert_eq!(report.flip_best, flips, "{m}");
        assert_eq!(report.longest_win.0, longest, "{m}");
    }
}

/// `jtb verify`'s check finds a DTE that is not what its moves give, in a file whose checksums
/// are intact (made again with one entry changed): in a chance table's DTE file and in a
/// revealed table's.
#[test]
fn the_one_ply_check_finds_a_wrong_distance() {
    let dir = tempfile::tempdir().unwrap();
    let target: ChanceMaterial = "Ev-c".parse::<ChanceMaterial>().unwrap().canonical();
    generate(dir.path(), chance::revealed_needs(&[target]), &[target]);
    let tables = ChanceTables::open(dir.path()).unwrap();
    let report = chance::analyse(&tables, dir.path(), target).unwrap();
    assert_eq!(report.dte_mismatch, None);
    // A certain win whose distance is made one longer.
    let path = chance::dte_path(dir.path(), target);
    let file = jtb_probe::TableFile::<jtb_probe::flip::Chance>::open(&path).unwrap();
    let mut codes = dte::read_codes(&file).unwrap();
    let at = codes.iter().position(|&c| c > 1).unwrap();
    codes[at] += 1;
    let bytes = dte::encode(
        jtb_probe::flip::Chance,
        target,
        &codes,
        file.header().stats.clone(),
    )
    .unwrap();
    drop(file);
    std::fs::write(&path, bytes).unwrap();
    let tables = ChanceTables::open(dir.path()).unwrap();
    let report = chance::analyse(&tables, dir.path(), target).unwrap();
    let (position, stored, best) = report.dte_mismatch.expect("found");
    assert_eq!(stored.map(|d| d - 1), best, "{position}");
    // The same in a revealed table's file.
    let m: Material = "EvC".parse().unwrap();
    let path = dte::revealed_dte_path(dir.path(), m);
    let mut codes = dte::load_revealed(dir.path(), m).unwrap();
    let at = codes.iter().position(|&c| c > 2).unwrap();
    codes[at] -= 1;
    let stats = Default::default();
    let bytes = dte::encode(jtb_probe::flip::RevealedDte, m, &codes, stats).unwrap();
    std::fs::write(&path, bytes).unwrap();
    let tables = ChanceTables::open(dir.path()).unwrap();
    let (_, wrong) = dte::verify_revealed(&tables, dir.path(), m).unwrap();
    let (position, stored, best) = wrong.expect("found");
    assert_eq!(stored.map(|d| d + 1), best, "{position}");
}

/// Every position of every table of two tiles, and of six tables of three, at every clock
/// 0..=40: the tables' value and best move are the forward solver's.
#[test]
fn the_tables_agree_with_the_forward_solver() {
    let (_, tables) = tables();
    let three = ["Lv-Tw", "Rv-Ee", "DvD-E", "v-ERr", "EvR-e", "CvW-p"]
        .map(|m| m.parse::<ChanceMaterial>().unwrap().canonical());
    let mut solver = Solver::new();
    // One deep-stack thread for all the solver's queries.
    let checked = solver.on_deep_stack(|solver| {
        let mut checked = 0u64;
        for m in ChanceMaterial::all(2, 2).into_iter().chain(three) {
            let layout = ChanceLayout::new(m);
            for idx in 0..layout.positions() {
                let Some(pos) = layout.position(idx) else {
                    continue;
                };
                for clock in 0..=CLOCKS {
                    let pos = at_clock(&pos, clock);
                    let expected = solver.value(&pos, clock as u32);
                    let found = tables.probe(&pos).unwrap();
                    assert_eq!(
                        found.parts(),
                        [expected.score, expected.win, expected.draw],
                        "{pos}"
                    );
                    let dte = tables.dte(&pos).unwrap();
                    assert_eq!(dte, solver.dte(&pos, clock as u32), "{pos}");
                    let best = tables.best_move(&pos).unwrap().map(|m| m.mv.to_string());
                    assert_eq!(best, solver.best_move(&pos, clock as u32), "{pos}");
                    // Every move's worth and DTE worth.
                    let mut moves: Vec<(String, [u32; 3], Option<u32>)> = tables
                        .moves(&pos)
                        .unwrap()
                        .into_iter()
                        .map(|m| (m.mv.to_string(), m.value.parts(), m.dte))
                        .collect();
                    moves.sort();
                    let expected: Vec<(String, [u32; 3], Option<u32>)> = solver
                        .moves_with_dte(&pos, clock as u32)
                        .into_iter()
                        .map(|(text, v, dte)| (text, [v.score, v.win, v.draw], dte))
                        .collect();
                    assert_eq!(moves, expected, "{pos}");
                    checked += 1;
                }
            }
        }
        checked
    });
    assert!(checked > 200_000, "{checked}");
}

/// A position with its squares mapped by `map`, the colours swapped where `swap` (with the side
/// to move and the hidden set), built square by square.
fn transformed(pos: &Position, map: impl Fn(Square) -> Square, swap: bool) -> Position {
    let colour = |p: Piece| {
        let c = if swap { p.color.other() } else { p.color };
        Piece::new(c, p.animal)
    };
    let mut out = Position::empty(
        RuleSet::Flip4x4,
        if swap { pos.turn().other() } else { pos.turn() },
    );
    for (p, sq) in pos.pieces() {
        out.put(colour(p), map(sq)).unwrap();
    }
    for sq in pos.flips() {
        out.put_hidden(map(sq)).unwrap();
    }
    let hidden = pos.hidden_set().unwrap();
    let hidden = hidden
        .pieces()
        .map(colour)
        .fold(jtb_probe::HiddenSet::EMPTY, |h, p| h.with(p));
    out.set_hidden_set(Some(hidden)).unwrap();
    out.set_clock(pos.clock()).unwrap();
    out
}

/// The eight symmetries of the board and the colour swap give every position of a sample of
/// three-tile tables the same values at several clocks (the table stores positions on the
/// diagonal twice, each solved on its own).
#[test]
fn values_have_the_boards_eight_symmetries_and_the_colour_swap() {
    let (_, tables) = tables();
    let maps: [fn(Square) -> Square; 8] = [
        |s| s,
        |s| Square::new(3 - s.file(), s.rank()),
        |s| Square::new(s.file(), 3 - s.rank()),
        |s| Square::new(3 - s.file(), 3 - s.rank()),
        |s| Square::new(s.rank(), s.file()),
        |s| Square::new(3 - s.rank(), s.file()),
        |s| Square::new(s.rank(), 3 - s.file()),
        |s| Square::new(3 - s.rank(), 3 - s.file()),
    ];
    let mut checked = 0;
    for m in ChanceMaterial::all(3, 3).into_iter().step_by(23) {
        let layout = ChanceLayout::new(m);
        for idx in (0..layout.positions()).step_by(5) {
            let Some(pos) = layout.position(idx) else {
                continue;
            };
            for clock in [0, 21, 38, 39] {
                let pos = at_clock(&pos, clock);
                let v = tables.probe(&pos).unwrap();
                for map in maps {
                    for swap in [false, true] {
                        let other = transformed(&pos, map, swap);
                        assert_eq!(tables.probe(&other).unwrap(), v, "{pos} -> {other}");
                        checked += 1;
                    }
                }
            }
        }
    }
    assert!(checked > 10_000, "{checked}");
}

/// A fully revealed position's value is its rule value from the revealed tables as a certain
/// result, at every clock: the forward solver, which knows no tables, agrees on every position
/// of six revealed materials.
#[test]
fn a_fully_revealed_position_is_its_rule_value_at_every_clock() {
    let (dir, tables) = tables();
    // The answers of `jtb probe --json` and of the API, through the edge's table library.
    let edge = jtb_edge::Tables::new(dir.path(), 1 << 24);
    let mut solver = Solver::new();
    let checked = solver.on_deep_stack(|solver| {
        let mut checked = 0;
        for m in ["LvE", "RvE", "CvC", "ERvR", "DvCW", "LvTR"] {
            let m: Material = m.parse().unwrap();
            for turn in [jtb_probe::Color::Red, jtb_probe::Color::Blue] {
                for pos in jtb_tests::placements(RuleSet::Flip4x4, m, turn) {
                    for clock in (0..=CLOCKS).step_by(3) {
                        let pos = at_clock(&pos, clock);
                        let rule = tables.revealed().probe_rule(&pos).unwrap();
                        let expected = solver.value(&pos, clock as u32);
                        assert_eq!(
                            ChanceValue::certain(rule.wdl).parts(),
                            [expected.score, expected.win, expected.draw],
                            "{pos}"
                        );
                        assert_eq!(tables.probe(&pos).unwrap(), ChanceValue::certain(rule.wdl));
                        let dte = tables.dte(&pos).unwrap();
                        assert_eq!(dte, solver.dte(&pos, clock as u32), "{pos}");
                        let text = pos.to_string();
                        let any = jtb_edge::AnyPosition::parse(&text, None, None).unwrap();
                        let api = edge.api_text(&any, false, &|_| None).unwrap();
                        let api: serde_json::Value = serde_json::from_str(&api).unwrap();
                        let probed = edge.probe(any, false).unwrap().json(&text);
                        let score = ChanceValue::certain(rule.wdl).score().to_string();
                        for answer in [&api, &probed] {
                            assert_eq!(answer["dte"], serde_json::json!(dte), "{pos}: {answer}");
                            assert_eq!(answer["score"], serde_json::json!(score), "{pos}");
                        }
                        // RULES.md 8: the clock only holds the winner back, so a revealed
                        // certain result is at least its DTM away.
                        if let Some(d) = dte {
                            let dtm = tables.revealed().probe_dtm(&pos).unwrap();
                            assert!(
                                dtm.dtm().is_some_and(|m| d >= u32::from(m)),
                                "{pos}: DTE {d}, {dtm}"
                            );
                        }
                        // Its best move is the clock rule's (RULES.md 8: kept from section 5).
                        let best = tables.best_move(&pos).unwrap().map(|m| m.mv.to_string());
                        let rule = tables.revealed().rule_best_move(&pos).unwrap();
                        assert_eq!(best, rule.map(|m| m.mv.to_string()), "{pos}");
                        checked += 1;
                    }
                }
            }
        }
        checked
    });
    assert!(checked > 10_000, "{checked}");
}

/// A second generation keeps every intact table; a damaged or truncated one is made again,
/// byte for byte the same; the revealed tables it needs missing, it names the table.
#[test]
fn generation_resumes_and_replaces_damaged_tables() {
    let dir = tempfile::tempdir().unwrap();
    let targets = ChanceMaterial::all(2, 2);
    let none = &jtb_gen::driver::Silent;
    let missing = chance::generate(dir.path(), &targets, u64::MAX, false, none)
        .err()
        .unwrap();
    assert!(missing.to_string().contains("missing table"), "{missing}");
    generate(
        dir.path(),
        Material::all_tables(RuleSet::Flip4x4, 2, 2),
        &[],
    );
    let first = chance::generate(dir.path(), &targets, u64::MAX, false, none).unwrap();
    assert_eq!(first.generated.len(), targets.len());
    let again = chance::generate(dir.path(), &targets, u64::MAX, false, none).unwrap();
    assert_eq!(
        (again.generated.len(), again.kept.len()),
        (0, targets.len())
    );
    let path = chance::table_path(dir.path(), targets[5]);
    let good = std::fs::read(&path).unwrap();
    let mut bad = good.clone();
    let last = bad.len() - 20;
    bad[last] ^= 0x40;
    std::fs::write(&path, &bad).unwrap();
    let other = chance::table_path(dir.path(), targets[9]);
    let other_good = std::fs::read(&other).unwrap();
    std::fs::write(&other, &other_good[..other_good.len() / 2]).unwrap();
    let repaired = chance::generate(dir.path(), &targets, u64::MAX, false, none).unwrap();
    assert_eq!(repaired.generated.len(), 2);
    assert_eq!(std::fs::read(&path).unwrap(), good);
    assert_eq!(std::fs::read(&other).unwrap(), other_good);
}

/// RULES.md 8's tie-break, pinned: among the moves of the best score, the one with the highest
/// chance of a win. Red's wolf faces three face-down tiles (a red leopard, a blue leopard, a
/// blue cat): every step of the wolf and the flip of `d4` score 7/12 alike, but the steps win a
/// third of the time and the flip a sixth, so a step is best, though a flip sorts first.
#[test]
fn among_equal_scores_the_higher_chance_of_a_win_is_chosen() {
    let dir = tempfile::tempdir().unwrap();
    let target: ChanceMaterial = "Wv-Ppc".parse().unwrap();
    generate(dir.path(), chance::revealed_needs(&[target]), &[target]);
    let tables = ChanceTables::open(dir.path()).unwrap();
    let pos: Position = "3?/1?W1/4/?3 r 0 ?:cpP".parse().unwrap();
    let value = tables.probe(&pos).unwrap();
    assert_eq!(
        value.to_string(),
        "score 7/12 (win 1/3, draw 1/2, loss 1/6)"
    );
    let moves = tables.moves(&pos).unwrap();
    let flip = moves.iter().find(|m| m.mv.to_string() == "?d4").unwrap();
    assert_eq!(
        flip.value.to_string(),
        "score 7/12 (win 1/6, draw 5/6, loss 0)"
    );
    let best = tables.best_move(&pos).unwrap().unwrap();
    assert_eq!(best.mv.to_string(), "c3c2");
    assert_eq!(best.value, value);
    assert_eq!(tables.ranked_moves(&pos).unwrap()[3].mv.to_string(), "?d4");
}

/// RULES.md 8's tie-break of certain results, pinned: Red's elephant takes Blue's last animal
/// at once (DTE worth 1), and the flip of Red's own leopard wins as surely but later, so the
/// capture is best though a flip sorts first; the position's DTE is 1.
#[test]
fn a_certain_win_is_played_by_its_shortest_distance() {
    let (_, tables) = tables();
    let pos: Position = "4/2cE/2?1/4 r 34 ?:P".parse().unwrap();
    assert_eq!(tables.probe(&pos).unwrap(), ChanceValue::WIN);
    assert_eq!(tables.dte(&pos).unwrap(), Some(1));
    let ranked = tables.ranked_moves(&pos).unwrap();
    let texts: Vec<String> = ranked.iter().map(|m| m.mv.to_string()).collect();
    assert_eq!(texts[0], "d3c3");
    assert!(ranked.iter().all(|m| m.value == ChanceValue::WIN));
    let flip = ranked.iter().find(|m| m.mv.to_string() == "?c2").unwrap();
    assert!(flip.dte.unwrap() > 1, "{:?}", flip.dte);
    // Each worth is 1 + the distance of what it gives, whatever the flip shows.
    let revealed: Position = "4/2cE/2P1/4 b 0".parse().unwrap();
    assert_eq!(flip.dte, tables.dte(&revealed).unwrap().map(|d| d + 1));
    // For the loser, the longest: Blue to move in the revealed position keeps the game going.
    let blue = tables.ranked_moves(&revealed).unwrap();
    let longest = blue.iter().filter_map(|m| m.dte).max();
    assert_eq!(tables.dte(&revealed).unwrap(), longest);
}

/// Too many tiles for the tables present: a five-tile position names the `jtb gen` command that
/// makes its table; six tiles are more than any table holds, and say so.
#[test]
fn too_many_tiles_say_what_to_do() {
    let (dir, tables) = tables();
    let five: Position = "?3/4/1LT1/1wc1 r 7 ?:e".parse().unwrap();
    let e = tables.probe(&five).unwrap_err().to_string();
    let command = format!(
        "jtb gen --rules flip4x4 --material WCvLT-E --out {}",
        dir.path().display()
    );
    assert!(e.contains(&command), "{e}");
    let six: Position = "??2/??2/??2/4 r 7 ?:eLcTtE".parse().unwrap();
    let e = tables.probe(&six).unwrap_err().to_string();
    assert!(e.contains("at most 5 tiles"), "{e}");
    assert!(!e.contains("jtb gen"), "{e}");
}

/// Any set of five tiles on request: a five-tile chance table with the tables it leads into
/// (four-tile chance tables by captures, the five-piece revealed table by the last flip), every
/// entry at every clock its best move's worth.
#[test]
fn a_five_tile_table_on_request() {
    let dir = tempfile::tempdir().unwrap();
    let target: ChanceMaterial = "LTvWC-e".parse().unwrap();
    assert_eq!(target.tiles(), 5);
    generate(dir.path(), chance::revealed_needs(&[target]), &[target]);
    let tables = ChanceTables::open(dir.path()).unwrap();
    let report = chance::analyse(&tables, dir.path(), target).unwrap();
    assert!(report.mismatch.is_none(), "{:?}", report.mismatch);
    assert!(report.positions > 100_000, "{}", report.positions);
    let pos: Position = "?3/4/1LT1/1wc1 r 7 ?:e".parse().unwrap();
    let best = tables.best_move(&pos).unwrap().unwrap();
    assert_eq!(best.value, tables.probe(&pos).unwrap());
}

/// RULES.md 8, a fully revealed position's DTE under the clock, pinned: in `4/1R2/2C1/L1e1 r`
/// Red mates in 9 (its first capture, `c2c1`, is the ninth ply). At clock 0 that line fits
/// within the 40 plies and DTE is the DTM, 9. At clock 33 only 7 plies are left before a
/// capture must come: Red must convert sooner (its DTC is 7), and Blue's best defence lets its
/// elephant capture in the meantime, so the game ends later: DTE 11, more than the DTM. The
/// forward solver, from the rules alone, agrees at both clocks.
#[test]
fn the_clock_makes_a_revealed_win_end_later() {
    let dir = tempfile::tempdir().unwrap();
    let targets = jtb_edge::Rules::Jungle(RuleSet::Flip4x4)
        .targets(&["LCRvE"], 0)
        .unwrap();
    let opts = jtb_gen::targets::Options {
        out: dir.path(),
        memory_limit: u64::MAX,
        only_targets: false,
    };
    jtb_gen::targets::generate(&targets, opts, &jtb_gen::driver::Silent).unwrap();
    let tables = ChanceTables::open(dir.path()).unwrap();
    let mut solver = Solver::new();
    solver.on_deep_stack(|solver| {
        for (clock, dte) in [(0, 9), (33, 11)] {
            let pos: Position = format!("4/1R2/2C1/L1e1 r {clock}").parse().unwrap();
            assert_eq!(
                tables.revealed().probe_dtm(&pos).unwrap(),
                jtb_probe::Value::Win(9)
            );
            assert_eq!(tables.probe(&pos).unwrap(), ChanceValue::WIN, "{pos}");
            assert_eq!(tables.dte(&pos).unwrap(), Some(dte), "{pos}");
            assert_eq!(solver.dte(&pos, clock), Some(dte), "{pos}");
        }
    });
}
