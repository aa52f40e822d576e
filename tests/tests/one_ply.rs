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

/// A wrong entry in either metric is caught at that entry, with both values.
#[test]
fn a_changed_entry_is_caught() {
    use jtb_gen::{verify::Check, Codes, Metric, Solved};
    use jtb_probe::Value;
    use std::sync::Arc;
    let rules = RuleSet::Mistboard;
    let material: Material = "LRvE".parse().unwrap();
    let solved = solve_all(rules, &[material]).unwrap();
    let table = solved.get(material).unwrap();
    let mut used = Vec::new();
    table.layout.for_each_used_entry(|idx, _| used.push(idx));
    // A win and an entry of another value, whose codes are swapped in.
    let win = *used
        .iter()
        .find(|&&i| matches!(table.value(i), Value::Win(d) if d > 3))
        .unwrap();
    let other = *used
        .iter()
        .find(|&&i| table.value(i) != table.value(win) && table.dtc(i) != table.dtc(win))
        .unwrap();
    for metric in [Metric::Dtm, Metric::Dtc] {
        let mut tampered = Solved::clone(table);
        let codes = match metric {
            Metric::Dtm => &mut tampered.codes,
            Metric::Dtc | Metric::Ban => &mut tampered.second_codes,
        };
        let mut plain: Vec<u16> = codes.iter_range(0..codes.len()).collect();
        plain[win] = plain[other];
        *codes = Codes::from(&plain[..]);
        let tampered = Arc::new(tampered);
        let mut tables = solved.clone();
        tables.insert(Arc::clone(&tampered));
        let bad = verify_table(&tampered, &tables, usize::MAX).unwrap();
        let pos = table.layout.position(win).unwrap().to_string();
        let found = bad
            .iter()
            .find(|m| m.position == pos && m.check == Check::OnePly(metric))
            .unwrap_or_else(|| panic!("{metric:?} change at {pos} not caught: {bad:?}"));
        assert_eq!(found.stored, tampered.value_in(metric, win));
        assert_eq!(found.computed, table.value_in(metric, win));
    }
}

/// A DTC win or loss where the plain value (DTM) is something else is caught, with both values.
#[test]
fn a_dtc_that_contradicts_the_plain_value_is_caught() {
    use jtb_gen::{verify::Check, Codes, Solved};
    use jtb_probe::Value;
    use std::sync::Arc;
    let rules = RuleSet::Mistboard;
    let material: Material = "LRvE".parse().unwrap();
    let solved = solve_all(rules, &[material]).unwrap();
    let table = solved.get(material).unwrap();
    let mut used = Vec::new();
    table.layout.for_each_used_entry(|idx, _| used.push(idx));
    let find = |f: fn(Value) -> bool| *used.iter().find(|&&i| f(table.value(i))).unwrap();
    let cases = [
        (find(|v| v == Value::Draw), Value::Win(5)),
        (find(|v| matches!(v, Value::Win(_))), Value::Loss(4)),
        (find(|v| matches!(v, Value::Loss(_))), Value::Win(3)),
    ];
    for (idx, dtc) in cases {
        let mut tampered = Solved::clone(table);
        let mut codes: Vec<u16> = tampered
            .second_codes
            .iter_range(0..table.layout.len())
            .collect();
        codes[idx] = dtc.code();
        tampered.second_codes = Codes::from(&codes[..]);
        let tampered = Arc::new(tampered);
        let mut tables = solved.clone();
        tables.insert(Arc::clone(&tampered));
        let bad = verify_table(&tampered, &tables, usize::MAX).unwrap();
        let pos = table.layout.position(idx).unwrap().to_string();
        let found = bad
            .iter()
            .find(|m| m.position == pos && m.check == Check::DtcImpliesPlain)
            .unwrap_or_else(|| panic!("DTC {dtc} at {pos} not caught: {bad:?}"));
        assert_eq!((found.stored, found.computed), (dtc, table.value(idx)));
    }
}
