//! Clesto tables (RULES.md section 6) from the generator, checked one ply deep and against the
//! symmetries.

use jtb_gen::{solve_all, SubTables};
use jtb_probe::{value_by_lookahead, ClestoValue, Material, RuleSet, Value};

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
