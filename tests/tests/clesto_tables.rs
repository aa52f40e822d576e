//! Clesto tables (RULES.md section 6) from the generator, checked one ply deep and against the
//! symmetries.

use jtb_gen::{solve_all, SubTables};
use jtb_probe::{
    value_by_lookahead, ClestoValue, Material, Move, Outcome, Position, RuleSet, Value,
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
                categories[match stored {
                    ClestoValue::Plain(Value::Win(_)) => 0,
                    ClestoValue::Plain(_) => 1,
                    ClestoValue::BanWin { .. } => 2,
                    ClestoValue::BanLoss { .. } => 3,
                }] += 1;
            }
        }
    }
    categories
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
            assert_eq!(tables.clesto_value(pos).unwrap(), value, "{pos}");
            compared += 1;
        }
    }
    assert!(
        forward.materials().len() == 71 && compared > 2_000_000,
        "{compared}"
    );
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
    // The whole table, one ply deep on a sample of its entries.
    let table = tables.get(m).unwrap();
    let layout = &table.layout;
    for idx in (0..layout.len()).step_by(61) {
        if let Some(p) = layout.position(idx) {
            let deep = value_by_lookahead(&p, |next| tables.clesto_value(next)).unwrap();
            assert_eq!(table.clesto_value(idx), deep, "{p}");
        }
    }
}
