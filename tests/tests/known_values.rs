//! Positions with values and distances known from a solver outside this project
//! (`tests/data/reference/known-values.tsv`).

use std::collections::BTreeMap;

use jtb_gen::solve_all;
use jtb_probe::{Layout, Material, Position, RuleSet, Value};

#[test]
fn known_values_match() {
    let text = jtb_tests::KNOWN_VALUES;
    let mut by_rules: BTreeMap<RuleSet, Vec<(Position, String, String)>> = BTreeMap::new();
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let f: Vec<&str> = line.split('\t').collect();
        let rules: RuleSet = f[0].parse().unwrap();
        let pos = Position::parse(f[1], Some(rules)).unwrap();
        by_rules
            .entry(rules)
            .or_default()
            .push((pos, f[2].to_owned(), f[3].to_owned()));
    }
    let mut checked = 0;
    for (rules, cases) in by_rules {
        let materials: Vec<Material> = cases.iter().map(|(p, _, _)| Material::of(p)).collect();
        let tables = solve_all(rules, &materials).unwrap();
        for (pos, wdl, dtm) in cases {
            let table = tables.get(Material::of(&pos)).unwrap();
            let layout: &Layout = &table.layout;
            let value = table.value(layout.index_of(&pos).unwrap());
            let expected = match (wdl.as_str(), dtm.parse::<u16>()) {
                ("win", Ok(d)) => Value::Win(d),
                ("loss", Ok(d)) => Value::Loss(d),
                ("draw", _) => Value::Draw,
                other => panic!("bad row {other:?}"),
            };
            assert_eq!(value, expected, "{rules} {pos}");
            checked += 1;
        }
    }
    assert!(checked >= 50);
}
