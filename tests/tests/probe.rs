//! The probe library against the generator: every position of every table up to 3 pieces,
//! lines that play out to the promised end, symmetry, many threads at once, and a sample of a
//! 5-piece table checked one ply deep.

use std::sync::Arc;

use jtb_gen::{
    driver::Silent,
    run::{generate, GenOptions},
    solve_all,
};
use jtb_probe::{Jungle, Material, Outcome, Position, RuleSet, Tablebase, Value, Wdl};
use rayon::prelude::*;

fn generate_into(dir: &std::path::Path, rules: RuleSet, targets: &[Material]) {
    let opts = GenOptions {
        rules,
        targets: targets.to_vec(),
        out: dir.to_owned(),
        memory_limit: u64::MAX,
        only_targets: false,
    };
    generate(&opts, &Silent).unwrap();
}

#[test]
fn every_position_up_to_three_pieces_probes_as_generated() {
    let dir = tempfile::tempdir().unwrap();
    for rules in [RuleSet::Mistboard, RuleSet::Flip4x4] {
        let targets = Material::all(2, 3);
        generate_into(dir.path(), rules, &targets);
        let solved = solve_all(rules, &targets).unwrap();
        let tb = Tablebase::open(dir.path(), Jungle::of(rules).unwrap()).unwrap();
        assert_eq!(tb.materials().len(), 260);
        tb.materials().par_iter().for_each(|&m| {
            let table = solved.get(m).unwrap();
            let mut n = 0usize;
            table.layout.for_each_used_entry(|idx, _| {
                let pos = table.layout.position(idx).unwrap();
                let expected = table.value(idx);
                assert_eq!(tb.probe_dtm(&pos).unwrap(), expected, "{pos}");
                assert_eq!(tb.probe_dtc(&pos).unwrap(), table.dtc(idx), "DTC of {pos}");
                // WDL and the symmetric positions on a sample (every position would double the
                // test's time for little more evidence).
                if n % 5 == 0 {
                    assert_eq!(tb.probe_wdl(&pos).unwrap(), expected.wdl(), "{pos}");
                    assert_eq!(
                        tb.probe_dtm(&pos.mirrored()).unwrap(),
                        expected,
                        "mirror of {pos}"
                    );
                    assert_eq!(
                        tb.probe_dtm(&pos.color_flipped()).unwrap(),
                        expected,
                        "flip of {pos}"
                    );
                    assert_eq!(
                        tb.probe_dtc(&pos.color_flipped().mirrored()).unwrap(),
                        table.dtc(idx),
                        "DTC of the flip and mirror of {pos}"
                    );
                }
                n += 1;
            });
        });
    }
}

/// Plays the best line from `pos` and checks it move by move.
fn check_line(tb: &Tablebase, pos: &Position) {
    let value = tb.probe_dtm(pos).unwrap();
    let line = tb.line(pos).unwrap();
    match value {
        Value::Draw => assert!(line.is_empty()),
        Value::Win(d) | Value::Loss(d) => assert_eq!(line.len(), usize::from(d), "{pos}"),
    }
    let mut current = pos.clone();
    let mut expected = value;
    for (i, step) in line.iter().enumerate() {
        let best = tb.best_move(&current).unwrap().unwrap();
        assert_eq!(best.mv, step.mv);
        assert_eq!(best.value, expected, "{current}");
        match current.play(step.mv).expect("legal") {
            Outcome::Over { result, .. } => {
                assert_eq!(
                    i + 1,
                    line.len(),
                    "the game ends only at the end of the line"
                );
                assert_eq!(
                    result,
                    if value.wdl() == Wdl::Win {
                        if i % 2 == 0 {
                            Wdl::Win
                        } else {
                            Wdl::Loss
                        }
                    } else if i % 2 == 0 {
                        Wdl::Loss
                    } else {
                        Wdl::Win
                    }
                );
            }
            Outcome::Ongoing(next) => {
                let after = tb.probe_dtm(&next).unwrap();
                assert_eq!(Some(after), step.value);
                // One ply on, from the other side.
                assert_eq!(after.back_one_ply(), expected, "{current} {}", step.mv);
                expected = after;
                current = next;
            }
        }
    }
    if !matches!(value, Value::Draw) && line.len() % 2 == 0 {
        // A loss ends with the opponent's winning move; a loss in 0 has no move at all.
        assert!(current.legal_moves().is_empty() || !line.is_empty());
    }
}

#[test]
fn lines_play_out_to_the_promised_end() {
    let dir = tempfile::tempdir().unwrap();
    let rules = RuleSet::Mistboard;
    let targets: Vec<Material> = ["LRvET", "WDvT"]
        .iter()
        .map(|m| m.parse().unwrap())
        .collect();
    generate_into(dir.path(), rules, &targets);
    let tb = Tablebase::open(dir.path(), Jungle::of(rules).unwrap()).unwrap();
    for text in [
        "7/5e1/7/7/7/7/t6/5R1/L6 r",
        "7/5e1/t6/7/7/7/7/5R1/L6 b",
        "7/7/2w4/3d3/7/7/7/7/1T5 r",
        "cE5/L6/7/7/7/7/7/7/7 b",
    ] {
        let pos = Position::parse(text, Some(rules)).unwrap();
        if pos.count(jtb_probe::Color::Red) + pos.count(jtb_probe::Color::Blue) <= 4
            && tb.probe_dtm(&pos).is_ok()
        {
            check_line(&tb, &pos);
        }
    }
    // A sample of every 4-piece entry's neighbourhood.
    let table = solve_all(rules, &targets[..1]).unwrap();
    let lr = table.get(targets[0]).unwrap();
    let mut n = 0;
    lr.layout.for_each_used_entry(|idx, _| {
        n += 1;
        if n % 50_021 == 0 {
            check_line(&tb, &lr.layout.position(idx).unwrap());
        }
    });
    let pos = Position::parse("7/5e1/7/7/7/7/t6/5R1/L6 r", None).unwrap();
    assert_eq!(tb.line(&pos).unwrap().len(), 83);
}

#[test]
fn many_threads_agree_with_one() {
    let dir = tempfile::tempdir().unwrap();
    let rules = RuleSet::Mistboard;
    let targets: Vec<Material> = ["LRvE", "TDvW"]
        .iter()
        .map(|m| m.parse().unwrap())
        .collect();
    generate_into(dir.path(), rules, &targets);
    // A small cache, so that threads evict each other's blocks.
    let tb =
        Arc::new(Tablebase::with_cache(dir.path(), Jungle::of(rules).unwrap(), 64 << 10).unwrap());
    let solved = solve_all(rules, &targets).unwrap();
    let mut positions = Vec::new();
    for m in &targets {
        let t = solved.get(*m).unwrap();
        t.layout.for_each_used_entry(|idx, _| {
            if idx % 97 == 0 {
                positions.push((t.layout.position(idx).unwrap(), t.value(idx)));
            }
        });
    }
    let single: Vec<Value> = positions
        .iter()
        .map(|(p, _)| tb.probe_dtm(p).unwrap())
        .collect();
    let threads: Vec<_> = (0..8)
        .map(|t| {
            let tb = Arc::clone(&tb);
            let positions = positions.clone();
            std::thread::spawn(move || {
                let mut out = vec![None; positions.len()];
                for k in 0..positions.len() {
                    let i = (k * 7919 + t * 1013) % positions.len();
                    out[i] = Some((
                        tb.probe_dtm(&positions[i].0).unwrap(),
                        tb.probe_wdl(&positions[i].0).unwrap(),
                    ));
                }
                out
            })
        })
        .collect();
    for h in threads {
        for (i, got) in h.join().unwrap().into_iter().enumerate() {
            let (dtm, wdl) = got.unwrap();
            assert_eq!(dtm, single[i]);
            assert_eq!(dtm, positions[i].1);
            assert_eq!(wdl, dtm.wdl());
        }
    }
}

/// `in_memory_only` answers exactly what a plain probe answers, or nothing: `None` while a
/// probe needs a file opened or a block read (whatever the closure made of the refusal), and
/// the same value once the block is in memory; nested calls pass a refusal out; the thread
/// probes freely again afterwards. With the per-thread front cache (the default cache) and
/// without it (a cache under 16 MiB).
#[test]
fn probes_held_to_memory_answer_as_plain_ones_or_not_at_all() {
    let dir = tempfile::tempdir().unwrap();
    let rules = RuleSet::Mistboard;
    let material: Material = "LRvE".parse().unwrap();
    generate_into(dir.path(), rules, &[material]);
    let solved = solve_all(rules, &[material]).unwrap();
    let table = solved.get(material).unwrap();
    let mut positions = Vec::new();
    table.layout.for_each_used_entry(|idx, _| {
        if idx % 101 == 0 {
            positions.push((table.layout.position(idx).unwrap(), table.value(idx)));
        }
    });
    for tb in [
        Tablebase::open(dir.path(), Jungle::of(rules).unwrap()).unwrap(),
        Tablebase::with_cache(dir.path(), Jungle::of(rules).unwrap(), 4 << 20).unwrap(),
    ] {
        let (first, _) = &positions[0];
        // Nothing open yet: refused, even where the closure swallows the error.
        assert_eq!(
            jtb_probe::in_memory_only(|| tb.probe_dtm(first).is_ok()),
            None
        );
        assert_eq!(tb.cache_stats().open_files, 0);
        let (mut refused, mut answered) = (0, 0);
        for (pos, expected) in &positions {
            match jtb_probe::in_memory_only(|| tb.probe_dtm(pos)) {
                Some(got) => {
                    assert_eq!(got.unwrap(), *expected);
                    answered += 1;
                }
                None => {
                    refused += 1;
                    // Nested: the inner refusal is the outer call's too.
                    let nested = jtb_probe::in_memory_only(|| {
                        jtb_probe::in_memory_only(|| tb.probe_dtm(pos)).is_none()
                    });
                    assert_eq!(nested, None);
                    // Outside, the thread reads the block; then memory holds it.
                    assert_eq!(tb.probe_dtm(pos).unwrap(), *expected);
                    let again = jtb_probe::in_memory_only(|| tb.probe_dtm(pos));
                    assert_eq!(again.map(Result::unwrap), Some(*expected));
                }
            }
        }
        assert!(
            refused >= 2 && answered >= 1,
            "{refused} refused, {answered} answered"
        );
        // A panic inside leaves the thread free to read blocks again.
        let cold = Tablebase::open(dir.path(), Jungle::of(rules).unwrap()).unwrap();
        let caught = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            jtb_probe::in_memory_only(|| panic!("inside"))
        }));
        assert!(caught.is_err());
        assert_eq!(cold.probe_dtm(first).unwrap(), positions[0].1);
    }
}

/// The statistics in the file headers, counted again here from every legal placement of the
/// material (no layout, no symmetry weights) probed through the files: plain values for the
/// `.dtm` header, categories at clock 0 for the `.dtc` header, longest wins and their smallest
/// position text.
#[test]
fn header_statistics_count_every_legal_position() {
    use jtb_probe::{format::table_path, Category, Color, Kind, TableFile};
    let dir = tempfile::tempdir().unwrap();
    for (rules, names) in [
        (RuleSet::Mistboard, &["LRvE", "EvL", "WDvT", "RvR"][..]),
        (RuleSet::Flip4x4, &["LRvL", "CvC"][..]),
    ] {
        let targets: Vec<Material> = names.iter().map(|n| n.parse().unwrap()).collect();
        generate_into(dir.path(), rules, &targets);
        let tb = Tablebase::open(dir.path(), Jungle::of(rules).unwrap()).unwrap();
        for m in targets.iter().map(|m| m.canonical()) {
            let header = |kind| {
                let path = table_path(dir.path(), rules, m, kind);
                TableFile::<RuleSet>::open(&path)
                    .unwrap()
                    .header()
                    .stats
                    .clone()
            };
            let (plain, rule) = (header(Kind::Dtm), header(Kind::Dtc));
            for (side, turn) in Color::ALL.into_iter().enumerate() {
                let mut counts = [[0u64; 3]; 2];
                let (mut cursed, mut blessed) = (0u64, 0u64);
                let mut longest: [(u16, String); 2] = Default::default();
                for pos in jtb_tests::placements(rules, m, turn) {
                    let value = tb.probe_dtm(&pos).unwrap();
                    let r = tb.probe_rule(&pos).unwrap();
                    counts[0][value.wdl() as usize] += 1;
                    let rule_wdl = match r.category {
                        Category::Win => Wdl::Win,
                        Category::Loss => Wdl::Loss,
                        Category::CursedWin => {
                            cursed += 1;
                            Wdl::Draw
                        }
                        Category::BlessedLoss => {
                            blessed += 1;
                            Wdl::Draw
                        }
                        Category::Draw => Wdl::Draw,
                    };
                    counts[1][rule_wdl as usize] += 1;
                    for (l, v) in longest.iter_mut().zip([value, r.dtc]) {
                        if let Value::Win(d) = v {
                            let text = pos.to_string();
                            if d > l.0 || (d == l.0 && text < l.1) {
                                *l = (d, text);
                            }
                        }
                    }
                }
                for (k, stats) in [&plain[side], &rule[side]].into_iter().enumerate() {
                    let got = [
                        (Wdl::Win, stats.wins),
                        (Wdl::Draw, stats.draws),
                        (Wdl::Loss, stats.losses),
                    ];
                    for (wdl, n) in got {
                        assert_eq!(n, counts[k][wdl as usize], "{rules} {m} {turn} {wdl:?}");
                    }
                    assert_eq!(
                        (stats.longest_win, stats.longest_win_position.as_str()),
                        (longest[k].0, longest[k].1.as_str()),
                        "{rules} {m} {turn}"
                    );
                }
                assert_eq!(
                    (rule[side].cursed_wins, rule[side].blessed_losses),
                    (cursed, blessed)
                );
            }
        }
    }
}

/// A 5-piece table through the files: a sample of its entries, in both orientations and
/// mirrored, each equal in DTM and DTC to the best of its successors probed the same way (into
/// the 4-piece tables for captures), and best lines that play out.
#[test]
fn a_five_piece_table_probes_one_ply_deep() {
    use jtb_probe::{
        clock::{conversion_value, rule_wdl},
        Layout,
    };
    let dir = tempfile::tempdir().unwrap();
    let rules = RuleSet::Mistboard;
    let material: Material = "EDCvTP".parse().unwrap();
    generate_into(dir.path(), rules, &[material]);
    let tb = Tablebase::open(dir.path(), Jungle::of(rules).unwrap()).unwrap();
    let limit = rules.clock_limit();
    let layout = Layout::new(rules, material);
    // Every 16,411th entry (a prime, so the sample crosses every piece's squares).
    let positions: Vec<Position> = (0..layout.len())
        .step_by(16_411)
        .filter_map(|idx| layout.position(idx))
        .collect();
    assert!(positions.len() > 15_000, "{}", positions.len());
    let decided = positions
        .par_iter()
        .filter(|pos| {
            let (dtm, dtc) = (tb.probe_dtm(pos).unwrap(), tb.probe_dtc(pos).unwrap());
            let (mut best_dtm, mut best_dtc) = (Value::Loss(0), Value::Loss(0));
            pos.for_each_outcome(|_, outcome| {
                let (m, c) = match outcome {
                    Outcome::Over { result, .. } => {
                        (result.of_final_move(), result.of_final_move())
                    }
                    Outcome::Ongoing(next) => {
                        let (m, c) = (tb.probe_dtm(&next).unwrap(), tb.probe_dtc(&next).unwrap());
                        if Material::of(&next) == Material::of(pos) {
                            (m.back_one_ply(), c.back_one_ply())
                        } else {
                            (m.back_one_ply(), conversion_value(rule_wdl(c, 0, limit)))
                        }
                    }
                };
                best_dtm = best_dtm.max(m);
                best_dtc = best_dtc.max(c);
            });
            assert_eq!(dtm, best_dtm, "DTM of {pos}");
            assert_eq!(dtc, best_dtc, "DTC of {pos}");
            assert_eq!(tb.probe_wdl(pos).unwrap(), dtm.wdl(), "{pos}");
            let flipped = pos.color_flipped();
            assert_eq!(tb.probe_dtm(&flipped).unwrap(), dtm, "flip of {pos}");
            assert_eq!(
                tb.probe_dtc(&flipped.mirrored()).unwrap(),
                dtc,
                "DTC of the flip and mirror of {pos}"
            );
            dtm != Value::Draw
        })
        .count();
    assert!(decided > 1000, "{decided} decided");
    for pos in positions.iter().step_by(500) {
        check_line(&tb, pos);
    }
}
