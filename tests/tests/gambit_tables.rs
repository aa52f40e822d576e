//! Animal Gambit tables end to end: generated to files (resumable, the same bytes at any
//! thread count), every table checked one ply deep, probed back through the shared store and
//! caches (values, categories, best turns and lines), and damaged, truncated or foreign files
//! refused.

use std::path::Path;

use jtb_gen::{
    driver::{Silent, Summary},
    gambit::{generate, histogram, load, path, solve_all, summarize, verify, SubTables},
};
use jtb_probe::{
    gambit::{AnimalGambit, Board, Category, Color, Material, Next, Piece, Position, Square},
    Kind, ProbeError, RuleSet, SideHistogram, TableErrorKind, TableFile, Tablebase, Value,
};

/// Every table of 2 and 3 pieces.
fn set() -> Vec<Material> {
    Material::all(2, 3)
}

fn generate_quietly(dir: &Path, targets: &[Material]) -> Summary<Material> {
    generate(dir, targets, u64::MAX, false, &Silent).unwrap()
}

fn files(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut out: Vec<(String, Vec<u8>)> = std::fs::read_dir(dir.join(AnimalGambit::NAME))
        .unwrap()
        .map(|e| {
            let p = e.unwrap().path();
            (p.display().to_string(), std::fs::read(&p).unwrap())
        })
        .collect();
    out.sort();
    out
}

#[test]
fn the_set_up_to_three_pieces_is_resumable_and_the_same_at_any_thread_count() {
    let (a, b) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let done = generate_quietly(a.path(), &set());
    assert_eq!((done.generated.len(), done.kept.len()), (7, 0));
    // Again: every table is kept.
    let again = generate_quietly(a.path(), &set());
    assert_eq!((again.generated.len(), again.kept.len()), (0, 7));
    // On one thread: the same bytes (file names aside).
    rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap()
        .install(|| generate_quietly(b.path(), &set()));
    let strip =
        |fs: Vec<(String, Vec<u8>)>| -> Vec<Vec<u8>> { fs.into_iter().map(|f| f.1).collect() };
    assert_eq!(strip(files(a.path())), strip(files(b.path())));
}

#[test]
fn a_table_beyond_the_memory_limit_is_refused_before_it_starts() {
    let dir = tempfile::tempdir().unwrap();
    let m: Material = "RRvR".parse().unwrap();
    let err = generate(dir.path(), &[m], 10 << 20, false, &Silent).unwrap_err();
    assert!(
        matches!(err, jtb_gen::gambit::GambitError::TooLarge { material, .. } if material == m),
        "{err}"
    );
    assert!(err.to_string().contains("needs about 25 MiB"), "{err}");
}

#[test]
fn every_table_agrees_one_ply_deep_and_its_files_read_back() {
    let dir = tempfile::tempdir().unwrap();
    generate_quietly(dir.path(), &set());
    let mut tables = SubTables::new();
    for m in set() {
        tables.insert(load(dir.path(), m).unwrap().expect("written"));
    }
    let in_memory = solve_all(&set()).unwrap();
    for m in set() {
        assert_eq!(verify(m, &tables, 5).unwrap(), vec![], "{m}");
        assert_eq!(tables.get(m), in_memory.get(m), "{m}: read back");
    }
}

/// Calls `f` with every board holding `pieces` on distinct squares, identical pieces in one
/// order only (each after the one before it).
fn each_placement(pieces: &[Piece], board: Board, from: usize, f: &mut impl FnMut(&Board)) {
    let Some((&piece, rest)) = pieces.split_first() else {
        f(&board);
        return;
    };
    for i in from..64 {
        let sq = Square::from_index(i as u8);
        if board.piece_at(sq).is_some() {
            continue;
        }
        let mut next = board;
        next.put(piece, sq);
        let from = if rest.first() == Some(&piece) {
            i + 1
        } else {
            0
        };
        each_placement(rest, next, from, f);
    }
}

#[test]
fn histograms_count_every_legal_position_once_by_its_distance() {
    // Against a count of every legal position placed square by square: no index and no
    // mirror pairs, so the histogram's weights are checked as well as its distances.
    let tables = solve_all(&set()).unwrap();
    for m in set() {
        let solved = tables.get(m).unwrap();
        let m = solved.layout.material();
        let pieces: Vec<Piece> = m
            .groups()
            .flat_map(|(p, n)| std::iter::repeat_n(p, n.into()))
            .collect();
        let mut counted: [SideHistogram; 2] = Default::default();
        each_placement(&pieces, Board::EMPTY, 0, &mut |board| {
            for (side, turn) in [Color::Gold, Color::Silver].into_iter().enumerate() {
                if Position::new(*board, turn).is_ok() {
                    counted[side].add(solved.value(board, turn).unwrap(), 1);
                }
            }
        });
        let sides = histogram(solved);
        assert_eq!(sides, counted, "{m}");
        // And the header's counts are the histogram's totals.
        for (h, s) in sides.iter().zip(summarize(solved)) {
            let sum = |v: &[u64]| v.iter().sum::<u64>();
            assert_eq!(
                (sum(&h.wins), h.draws, sum(&h.losses)),
                (s.wins, s.draws, s.losses)
            );
            assert_eq!(
                h.wins.len().saturating_sub(1),
                usize::from(s.longest_win),
                "{m}"
            );
        }
    }
}

/// A table whose stored value is changed is caught by the one-ply check.
#[test]
fn the_one_ply_check_catches_a_wrong_value() {
    let tables = solve_all(&["RRvR".parse().unwrap()]).unwrap();
    let m: Material = "RRvR".parse().unwrap();
    let mut damaged = SubTables::new();
    let mut table = tables.get(m).unwrap().clone();
    let idx = (0..table.codes.len())
        .find(|&i| table.codes[i] == Value::Win(3).code())
        .unwrap();
    table.codes[idx] = Value::Win(5).code();
    damaged.insert(table);
    damaged.insert(tables.get("RvR".parse().unwrap()).unwrap().clone());
    let mismatches = verify(m, &damaged, 5).unwrap();
    assert!(!mismatches.is_empty());
    assert!(mismatches.iter().any(|x| x.stored == Value::Win(5)));
}

#[test]
fn probes_give_the_tables_values_best_turns_and_lines() {
    let dir = tempfile::tempdir().unwrap();
    generate_quietly(dir.path(), &set());
    let tb = Tablebase::open(dir.path(), AnimalGambit).unwrap();
    assert_eq!(tb.materials(), set());
    assert_eq!(tb.max_pieces(), 3);
    let tables = solve_all(&set()).unwrap();
    let mut lines = 0;
    for m in set() {
        let table = tables.get(m).unwrap();
        // Every 5th entry of each table, both sides to move, and its images under the
        // mirror and the colour flip.
        for idx in (0..table.layout.len()).step_by(11) {
            let Some(pos) = table.layout.position(idx) else {
                continue;
            };
            let want = Value::from_code(table.codes[idx]).unwrap();
            for p in [pos, pos.mirror(), pos.flip(), pos.flip().mirror()] {
                assert_eq!(tb.probe_dtm(&p).unwrap(), want, "{p}");
                assert_eq!(tb.probe_wdl(&p).unwrap(), want.wdl(), "{p}");
                assert_eq!(tb.adjudicate(&p).unwrap().category, Category::of(want));
            }
            if idx % 89 != 0 {
                continue;
            }
            // The best turn keeps the value, and the line plays it out to the end.
            let best = tb.best_move(&pos).unwrap();
            assert_eq!(best.map_or(Value::Loss(0), |b| b.value), want, "{pos}");
            let line = tb.line(&pos).unwrap();
            match want.dtm() {
                None => assert!(line.is_empty()),
                Some(d) => {
                    lines += 1;
                    assert_eq!(line.len(), usize::from(d), "{pos}");
                    let mut at = pos;
                    for (i, step) in line.iter().enumerate() {
                        match at.play(&step.mv) {
                            Next::Over(end) => {
                                assert_eq!(i + 1, line.len());
                                // The side that ends the game wins it where the first mover
                                // was to win: an odd number of turns later for the loser.
                                let first_mover_ends = i % 2 == 0;
                                assert_eq!(
                                    end.mover_wins() == first_mover_ends,
                                    want.wdl() == jtb_probe::Wdl::Win,
                                    "{pos}"
                                );
                            }
                            Next::Continues(next) => {
                                assert_eq!(step.position, Some(next));
                                at = next;
                            }
                        }
                    }
                }
            }
        }
    }
    assert!(lines > 50, "{lines}");
}

#[test]
fn the_best_turn_is_the_smallest_text_among_the_optimal_ones() {
    let dir = tempfile::tempdir().unwrap();
    generate_quietly(dir.path(), &["RvR".parse().unwrap()]);
    let tb = Tablebase::open(dir.path(), AnimalGambit).unwrap();
    // Gold's rabbit on a7 reaches a8 in one step; longer texts also win at once.
    let pos: Position = "8/R7/8/8/8/8/7r/8 g".parse().unwrap();
    let scored = tb.scored_moves(&pos).unwrap();
    let wins: Vec<String> = scored
        .iter()
        .filter(|t| t.value == Value::Win(1))
        .map(|t| t.mv.to_string())
        .collect();
    assert!(wins.len() > 1, "{wins:?}");
    let best = tb.best_move(&pos).unwrap().unwrap();
    assert_eq!(best.mv.to_string(), *wins.iter().min().unwrap());
    assert_eq!(best.mv.to_string(), "Ra7e Rb7e Rc7e Rd7n");
}

/// Overwrites byte `at` of the file at `p` (its middle when `None`: inside a block).
fn damage(p: &Path, at: Option<usize>) {
    let mut bytes = std::fs::read(p).unwrap();
    let i = at.unwrap_or(bytes.len() / 2);
    bytes[i] ^= 0x5a;
    std::fs::write(p, bytes).unwrap();
}

#[test]
fn damaged_truncated_and_foreign_files_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let m: Material = "RRvR".parse().unwrap();
    generate_quietly(root, &[m]);
    let dtm = path(root, m, Kind::Dtm);
    let open = |p: &Path, kind| TableFile::open_expecting(p, AnimalGambit, m, kind);
    assert!(open(&dtm, Kind::Dtm).is_ok());

    // A Jungle reader refuses an Animal Gambit file by its rule set, and the reverse.
    let err = TableFile::<RuleSet>::open(&dtm).unwrap_err();
    assert!(
        matches!(&err.kind, TableErrorKind::UnknownRuleSet(id) if id == "animal-gambit"),
        "{err}"
    );
    let jungle = tempfile::tempdir().unwrap();
    let lve: jtb_probe::Material = "LvE".parse().unwrap();
    let solved = jtb_gen::solve_all(RuleSet::Mistboard, &[lve]).unwrap();
    jtb_gen::write::write_table(jungle.path(), solved.get(lve).unwrap()).unwrap();
    let jungle_file =
        jtb_probe::format::table_path(jungle.path(), RuleSet::Mistboard, lve, Kind::Dtm);
    let err = TableFile::<AnimalGambit>::open(&jungle_file).unwrap_err();
    assert!(
        matches!(&err.kind, TableErrorKind::UnknownRuleSet(id) if id == "mistboard"),
        "{err}"
    );
    // Another material's file under this name.
    std::fs::copy(
        path(root, "RvR".parse().unwrap(), Kind::Dtm),
        root.join("other.dtm"),
    )
    .unwrap();
    let err = open(&root.join("other.dtm"), Kind::Dtm).unwrap_err();
    assert!(
        matches!(err.kind, TableErrorKind::WrongMaterial { .. }),
        "{err}"
    );
    // The WDL file where the DTM file should be.
    let err = open(&path(root, m, Kind::Wdl), Kind::Dtm).unwrap_err();
    assert!(
        matches!(err.kind, TableErrorKind::WrongKind { .. }),
        "{err}"
    );

    // Truncated.
    let bytes = std::fs::read(&dtm).unwrap();
    let cut = root.join("cut.dtm");
    std::fs::write(&cut, &bytes[..bytes.len() - 100]).unwrap();
    let err = open(&cut, Kind::Dtm).unwrap_err();
    assert!(
        matches!(err.kind, TableErrorKind::Truncated { .. }),
        "{err}"
    );

    // A damaged block: refused by the probe, by the checksum, and made again by `gen`.
    damage(&dtm, None);
    let file = open(&dtm, Kind::Dtm).unwrap();
    assert!(matches!(
        file.verify_checksum().unwrap_err().kind,
        TableErrorKind::FileChecksum
    ));
    assert!(load(root, m).is_err());
    let tb = Tablebase::open(root, AnimalGambit).unwrap();
    let mut refused = 0;
    let table = solve_all(&[m]).unwrap();
    let layout = &table.get(m).unwrap().layout;
    for idx in (0..layout.len()).step_by(101) {
        if let Some(p) = layout.position(idx) {
            match tb.probe_dtm(&p) {
                Ok(_) => {}
                Err(ProbeError::Table(e)) => {
                    assert!(matches!(e.kind, TableErrorKind::CorruptBlock { .. }), "{e}");
                    refused += 1;
                }
                Err(e) => panic!("{e}"),
            }
        }
    }
    assert!(refused > 0);
    let redone = generate_quietly(root, &[m]);
    assert!(redone.generated.contains(&m));
    assert!(load(root, m).unwrap().is_some());

    // A damaged header.
    damage(&dtm, Some(40));
    assert!(open(&dtm, Kind::Dtm).is_err());
    // A missing file is named; more pieces than any table are said so.
    std::fs::remove_file(path(root, m, Kind::Wdl)).unwrap();
    let tb = Tablebase::open(root, AnimalGambit).unwrap();
    let pos: Position = "8/3r4/8/8/8/8/3RR3/8 g".parse().unwrap();
    let err = tb.probe_wdl(&pos).unwrap_err();
    assert!(
        matches!(&err, ProbeError::MissingFile { kind: Kind::Wdl, path, .. }
            if path.ends_with("RRvR.wdl")),
        "{err}"
    );
    let pos: Position = "8/3rr3/8/8/8/8/3RR3/8 g".parse().unwrap();
    let err = tb.probe_dtm(&pos).unwrap_err();
    assert!(
        matches!(&err, ProbeError::MissingTable { path, .. } if path.ends_with("RRvRR.dtm")),
        "{err}"
    );
}
