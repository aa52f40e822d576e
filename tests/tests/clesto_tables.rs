//! Clesto tables (RULES.md section 6) from the generator, checked one ply deep and against the
//! symmetries.

use jtb_gen::{solve_all, SubTables};
use jtb_probe::{
    bit, value_by_lookahead, Animal, Clesto, ClestoValue, Color, Material, Move, Outcome, Piece,
    Position, RuleSet, Square, Tablebase, Value, JUNGLE,
};

fn materials(names: &[&str]) -> Vec<Material> {
    names.iter().map(|n| n.parse().unwrap()).collect()
}

/// Every used entry of every table of `tables` equals what its moves give one ply deep, and
/// its mirror image has the same value.
fn check_one_ply(tables: &SubTables, targets: &[Material]) -> [u64; 4] {
    let mut categories = [0u64; 4];
    for group in jtb_gen::plan::closure(RuleSet::Clesto, targets) {
        for m in group {
            let table = tables.get(m).unwrap();
            let layout = &table.layout;
            for idx in 0..layout.len() {
                let Some(pos) = layout.position(idx) else {
                    continue;
                };
                let stored = table.clesto_value(idx);
                let deep = value_by_lookahead(&pos, |next| tables.clesto_value(next)).unwrap();
                assert_eq!(stored, deep, "{pos}");
                assert_eq!(
                    tables.clesto_value(&pos.mirrored()).unwrap(),
                    stored,
                    "{pos}"
                );
                categories[category(stored)] += 1;
            }
        }
    }
    categories
}

/// The index of a value's category in the counts: win, loss, ban win, ban loss.
fn category(v: ClestoValue) -> usize {
    match v {
        ClestoValue::Plain(Value::Win(_)) => 0,
        ClestoValue::Plain(_) => 1,
        ClestoValue::BanWin { .. } => 2,
        ClestoValue::BanLoss { .. } => 3,
    }
}

/// Every table that `targets` need, checked one ply deep by the generator's verifier
/// ([`jtb_gen::clesto::verify`]: each entry against its moves through the probe library's
/// positions, a non-canonical hungry set valued one move ahead).
fn verify_all(tables: &SubTables, targets: &[Material]) {
    for group in jtb_gen::plan::closure(RuleSet::Clesto, targets) {
        for m in group {
            let mismatches = jtb_gen::clesto::verify(tables.get(m).unwrap(), tables, 5).unwrap();
            assert!(mismatches.is_empty(), "{m}: {mismatches:?}");
        }
    }
}

fn sq(name: &str) -> Square {
    Square::parse(name, &JUNGLE).unwrap()
}

/// Clesto's tables on disk read back through `Tablebase<Clesto>` as the generator solved them:
/// every position of every table up to 3 pieces has the solved value with the ban, and its WDL
/// (one read of the WDL file) is that value's; a `Tablebase<Jungle>` cannot name them, so
/// that no question Clesto's values cannot answer (a DTM for every position, the clock rule)
/// reaches them.
#[test]
fn clesto_tables_probe_as_their_own_game() {
    let dir = tempfile::tempdir().unwrap();
    let targets = Material::all_tables(RuleSet::Clesto, 2, 3);
    let opts = jtb_gen::run::GenOptions {
        rules: RuleSet::Clesto,
        targets: targets.clone(),
        out: dir.path().to_owned(),
        memory_limit: u64::MAX,
        only_targets: false,
    };
    jtb_gen::run::generate(&opts, &jtb_gen::driver::Silent).unwrap();
    let solved = solve_all(RuleSet::Clesto, &targets).unwrap();
    let tb = Tablebase::open(dir.path(), Clesto).unwrap();
    assert_eq!(tb.materials().len(), targets.len());
    let mut probed = 0u64;
    for &m in &targets {
        let table = solved.get(m).unwrap();
        for idx in 0..table.layout.len() {
            let Some(pos) = table.layout.position(idx) else {
                continue;
            };
            let value = tb.probe_clesto(&pos).unwrap();
            assert_eq!(value, table.clesto_value(idx), "{pos}");
            assert_eq!(tb.probe_wdl(&pos).unwrap(), value.wdl(), "{pos}");
            probed += 1;
        }
    }
    assert!(probed > 1_000_000, "{probed}");
    // Opened as a Jungle rule set's tables (`Tablebase<Jungle>`), Clesto's do not compile: the
    // doctests of `jtb_probe::Clesto` and `jtb_probe::Jungle`.
}

#[test]
fn two_and_three_piece_tables_agree_one_ply_deep() {
    let targets = materials(&["LvE", "EvL", "RvE", "DvR", "LRvE", "EvDR", "TDvP"]);
    let tables = solve_all(RuleSet::Clesto, &targets).unwrap();
    let counts = check_one_ply(&tables, &targets);
    eprintln!("win, loss, ban-win, ban-loss: {counts:?}");
    assert!(
        counts[2] > 0 && counts[3] > 0,
        "some values come from the ban"
    );
}

/// The generator against the independent forward solver ([`jtb_tests::clesto_forward`]), which
/// shares only the probe library's moves: every position of every 2-piece table, and of several
/// 3-piece tables (both banned sides, swimmers, jumpers, ban wins with exit distances) and the
/// tables they lead into, has the same value, category and exit distance.
#[test]
fn the_generator_agrees_with_the_forward_solver() {
    let mut targets = Material::all_tables(RuleSet::Clesto, 2, 2);
    targets.extend(materials(&[
        "CvDR", "DRvC", "DvCR", "LRvE", "EvLR", "TDvP", "PvWD",
    ]));
    let forward = jtb_tests::clesto_forward::solve_all(&targets);
    let tables = solve_all(RuleSet::Clesto, &targets).unwrap();
    let mut compared = 0u64;
    for &m in forward.materials() {
        for (pos, value) in forward.positions(m) {
            assert_eq!(tables.clesto_value(&pos).unwrap(), value, "{pos}");
            compared += 1;
        }
    }
    assert!(
        forward.materials().len() == 71 && compared > 2_000_000,
        "{compared}"
    );
    verify_all(&tables, &targets);
}

/// The generator against the forward solver on every entry of one 4-piece table and of the
/// tables it leads into. `ETvLC` has no swimmer, so its 2 * 49 * 48 * 47 * 46 placements are
/// the fewest of any 4-piece material; it has plain wins and losses, ban wins and ban losses
/// of both sides (exit distances up to 28), and moves that starve into a non-canonical hungry
/// set whose value is not the canonical entry's (the forward solver counts them).
#[test]
fn a_four_piece_table_agrees_with_the_forward_solver() {
    let m: Material = "ETvLC".parse().unwrap();
    let forward = jtb_tests::clesto_forward::solve(m);
    assert_eq!(forward.len(m), 2 * 49 * 48 * 47 * 46);
    let tables = solve_all(RuleSet::Clesto, &[m]).unwrap();
    let mut categories = [0u64; 4];
    let mut compared = 0u64;
    for &sub in forward.materials() {
        for (pos, value) in forward.positions(sub) {
            assert_eq!(tables.clesto_value(&pos).unwrap(), value, "{pos}");
            if sub == m {
                categories[category(value)] += 1;
            }
            compared += 1;
        }
    }
    let non_canonical = forward.non_canonical(m);
    eprintln!(
        "{compared} entries of {} tables; {m}: win, loss, ban-win, ban-loss {categories:?}; \
         {non_canonical:?}",
        forward.materials().len()
    );
    assert!(categories.iter().all(|&c| c > 0), "{categories:?}");
    assert!(non_canonical.changed > 0, "{non_canonical:?}");
}

/// A generation solves a table whose colour flip it also makes from the flip's plain values
/// ([`jtb_gen::clesto::solve_flip_of`]): the same files, byte for byte in memory, as the table
/// solved alone, and each agrees one ply deep with its moves through the probe library (a check
/// that shares none of the generator's scan). Both orientations of a 1v1, a 2v1 and a 2v2
/// material (where the ban binds the other colour's animals in the flip) and a 3v1 one.
#[test]
fn a_table_solved_from_its_flip_is_the_table_solved_alone() {
    for name in ["LvE", "DvCR", "ETvLC", "LCRvE"] {
        let m: Material = name.parse().unwrap();
        let tables = solve_all(RuleSet::Clesto, &[m, m.flipped()]).unwrap();
        let mut ban_values = [0usize; 2];
        for (k, (from, to)) in [(m, m.flipped()), (m.flipped(), m)].into_iter().enumerate() {
            let alone = jtb_gen::clesto::solve(to, &tables).unwrap();
            let flipped =
                jtb_gen::clesto::solve_flip_of(tables.get(from).unwrap(), &tables).unwrap();
            assert_eq!(flipped.layout.material(), to);
            assert!(flipped.codes == alone.codes, "{to}: plain values");
            assert!(
                flipped.second_codes == alone.second_codes,
                "{to}: the ban's"
            );
            // And independently of the generator's scan: every entry against its moves
            // through the probe library's positions.
            let mismatches = jtb_gen::clesto::verify(&flipped, &tables, 5).unwrap();
            assert!(mismatches.is_empty(), "{to}: {mismatches:?}");
            ban_values[k] = (0..alone.layout.len())
                .filter(|&i| alone.layout.position(i).is_some())
                .filter(|&i| alone.clesto_value(i).dtm().is_none())
                .count();
        }
        assert!(ban_values.iter().all(|&c| c > 0), "{name}: {ban_values:?}");
    }
}

/// RULES.md 6: a starvation can leave the opponent hungry with nothing to eat, and from four
/// pieces on that changes values. In `CRvDR` below the red cat takes the blue rat; the red rat,
/// hungry for the blue dog on the trap c1, starves; but Blue's hunger was declared with the red
/// rat still there, so the dog is hungry with no target: it may not enter the red den next to
/// it and must starve, Blue's last animal. The same board with a canonical (empty) hungry set
/// would be Blue's win by den entry.
#[test]
fn a_non_canonical_hungry_set_changes_a_four_piece_value() {
    let m: Material = "CRvDR".parse().unwrap();
    let tables = solve_all(RuleSet::Clesto, &[m]).unwrap();
    let pos = Position::parse("7/7/7/7/7/7/7/r6/CRd4 r", Some(RuleSet::Clesto)).unwrap();
    assert_eq!(pos.hungry(), pos.canonical_hungry());
    let Outcome::Ongoing(after) = pos.play(Move::parse("a1a2", &pos).unwrap()).unwrap() else {
        panic!("the game goes on");
    };
    assert_eq!(after.to_string(), "7/7/7/7/7/7/7/C6/2d4 b h:c1");
    assert_eq!(
        tables.clesto_value(&after).unwrap(),
        ClestoValue::Plain(Value::Loss(1))
    );
    let mut canonical = after.clone();
    canonical.set_hungry(None).unwrap();
    assert_eq!(
        tables.clesto_value(&canonical).unwrap(),
        ClestoValue::Plain(Value::Win(1))
    );
    // The 4-piece table counts the move as a win in 2, and it is the best move: no other red
    // move wins at once.
    assert_eq!(
        tables.clesto_value(&pos).unwrap(),
        ClestoValue::Plain(Value::Win(2))
    );
    // The whole table and those it leads into, one ply deep.
    verify_all(&tables, &[m]);
}

/// RULES.md 6: a starvation can also leave the opponent's hungry set short of an animal, whose
/// jump a starved swimmer blocked. In `DCvLC` below the red dog in the river on c6 is hungry for
/// the blue cat on c7; Red steps its cat d5-d6 instead, and the dog starves. Blue's hunger was
/// declared with the dog still blocking the lion's jump a6-d6, so the lion is not hungry,
/// although it can now take the cat: its other moves do not starve it. The generator values
/// that set one move ahead. Here the jump takes Red's last animal, a win in 1 either way: after
/// a starvation in a 4-piece table the side that starved has one animal left (a swimmer in the
/// river can only be hungry for an animal of rank 3 or less, so the other side keeps two), and
/// any capture of it wins, so this case changes no 4-piece value; the table must still agree
/// with its moves one ply deep, this entry among them.
#[test]
fn a_hungry_set_missing_an_animal_whose_jump_a_starved_swimmer_blocked() {
    let m: Material = "DCvLC".parse().unwrap();
    let tables = solve_all(RuleSet::Clesto, &[m]).unwrap();
    let piece = |color, animal, square| (Piece::new(color, animal), sq(square));
    let pos = Position::from_pieces(
        RuleSet::Clesto,
        Color::Red,
        [
            piece(Color::Red, Animal::Dog, "c6"),
            piece(Color::Red, Animal::Cat, "d5"),
            piece(Color::Blue, Animal::Lion, "a6"),
            piece(Color::Blue, Animal::Cat, "c7"),
        ],
    )
    .unwrap();
    assert_eq!(pos.hungry(), bit(sq("c6")), "{pos}");
    let Outcome::Ongoing(after) = pos.play(Move::parse("d5d6", &pos).unwrap()).unwrap() else {
        panic!("the game goes on");
    };
    assert!(after.to_string().ends_with(" b h:-"), "{after}");
    assert_eq!(after.canonical_hungry(), bit(sq("a6")), "{after}");
    // The lion's step keeps it on the board; at the canonical set it would starve.
    let step = Move::parse("a6a7", &after).unwrap();
    assert!(after.starvations(step).unwrap().is_empty());
    let mut canonical = after.clone();
    canonical.set_hungry(None).unwrap();
    assert_eq!(canonical.starvations(step).unwrap().len(), 1);
    let value = tables.clesto_value(&after).unwrap();
    assert_eq!(value, ClestoValue::Plain(Value::Win(1)));
    assert_eq!(
        value,
        value_by_lookahead(&after, |next| tables.clesto_value(next)).unwrap()
    );
    // The entry it came from agrees with its moves one ply deep.
    let deep = value_by_lookahead(&pos, |next| tables.clesto_value(next)).unwrap();
    assert_eq!(tables.clesto_value(&pos).unwrap(), deep, "{pos}");
    verify_all(&tables, &[m]);
}
