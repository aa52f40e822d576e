//! One-ply verification: every entry of every table up to 3 pieces (mistboard, leiden), of every
//! flip table up to 4 animals, and of some 4-piece Jungle tables, equals the best of its
//! successors.

use jtb_gen::{solve_all, verify::verify_table};
use jtb_probe::{Material, RuleSet};

fn verify_all(rules: RuleSet, targets: &[Material]) -> usize {
    let tables = solve_all(rules, targets).unwrap();
    let mut checked = 0;
    for group in jtb_gen::plan::closure(rules, targets) {
        for m in group {
            let table = tables.get(m).unwrap();
            let bad = verify_table(table, &tables, 5).unwrap();
            assert!(bad.is_empty(), "{rules} {m}: {bad:?}");
            checked += 1;
        }
    }
    checked
}

#[test]
fn mistboard_up_to_three_pieces() {
    assert_eq!(verify_all(RuleSet::Mistboard, &Material::all(2, 3)), 260);
}

#[test]
fn leiden_up_to_three_pieces() {
    assert_eq!(verify_all(RuleSet::Leiden, &Material::all(2, 3)), 260);
}

#[test]
fn tiger_lengthwise_up_to_two_pieces() {
    assert_eq!(
        verify_all(RuleSet::TigerLengthwise, &Material::all(2, 2)),
        36
    );
}

#[test]
fn some_four_piece_tables() {
    let targets: Vec<Material> = ["LRvET", "TDvTD", "ERvRC"]
        .iter()
        .map(|m| m.parse().unwrap())
        .collect();
    assert!(verify_all(RuleSet::Mistboard, &targets) > 3);
    let targets: Vec<Material> = ["LRvTW"].iter().map(|m| m.parse().unwrap()).collect();
    assert!(verify_all(RuleSet::TigerLengthwise, &targets) > 1);
}

#[test]
fn flip_tables_up_to_four_animals_in_part() {
    assert_eq!(verify_all(RuleSet::Flip4x4, &Material::all(2, 3)), 260);
    let targets: Vec<Material> = ["ERvER", "LCvTR", "WDCvP"]
        .iter()
        .map(|m| m.parse().unwrap())
        .collect();
    assert!(verify_all(RuleSet::Flip4x4, &targets) > 3);
}
