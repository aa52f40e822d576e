//! The naive forward solver ([`jtb_tests::forward`]) over every position of a material, with
//! no un-moves, no symmetry and no table layout (positions are numbered by a hash map): its
//! values must equal the generator's on every position.

use std::collections::HashMap;

use jtb_gen::solve_all;
use jtb_probe::{Material, Position, RuleSet, Value};
use jtb_tests::forward;

/// Solves `target` and everything it needs both ways and compares every position.
fn agree(rules: RuleSet, target: &str) {
    let target: Material = target.parse().unwrap();
    let tables = solve_all(rules, &[target]).unwrap();
    let mut known: HashMap<Position, Value> = HashMap::new();
    for group in jtb_gen::plan::closure(rules, &[target]) {
        for m in group {
            let solved = forward::solve_by_hash_map(rules, m, &known);
            let table = tables.get(m).unwrap();
            let mut compared = 0;
            for (pos, v) in &solved {
                let idx = table.layout.index_of(pos).unwrap();
                assert_eq!(table.value(idx), *v, "{rules} {m}: {pos}");
                compared += 1;
            }
            assert!(compared > 0);
            known.extend(solved);
        }
    }
}

#[test]
fn mistboard_lion_rat_against_elephant() {
    agree(RuleSet::Mistboard, "LRvE");
}

#[test]
fn mistboard_wolf_dog_against_tiger() {
    agree(RuleSet::Mistboard, "WDvT");
}

#[test]
fn tiger_lengthwise_tiger_rat_against_leopard() {
    agree(RuleSet::TigerLengthwise, "TRvP");
}

#[test]
fn leiden_elephant_rat_against_rat() {
    agree(RuleSet::Leiden, "ERvR");
}

#[test]
fn flip_game_small_tables() {
    agree(RuleSet::Flip4x4, "ERvE");
    agree(RuleSet::Flip4x4, "LRvL");
    agree(RuleSet::Flip4x4, "CvC");
}
