//! Which tables a generation needs, and in what order.

use std::{collections::BTreeSet, path::Path};

use jtb_probe::{format::table_path, Color, Kind, Layout, Material, RuleSet};

use crate::{
    driver::{self, Task},
    game::game_of,
};

/// The materials a move from `material` leads into (a capture; in the flip game, a trade; in
/// Clesto, starvations too: [`crate::game::FamilyGame::next_materials`]), in canonical
/// orientation; finished games (a side without pieces) are not tables.
#[must_use]
pub fn successors(rules: RuleSet, material: Material) -> Vec<Material> {
    game_of(rules)
        .next_materials(rules, material)
        .into_iter()
        .filter(|m| m.count(Color::Red) > 0 && m.count(Color::Blue) > 0)
        .map(|m| m.table_of(rules))
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect()
}

/// `targets` and every table they need, grouped by piece count, fewest first. Tables of one
/// group depend only on earlier groups.
#[must_use]
pub fn closure(rules: RuleSet, targets: &[Material]) -> Vec<Vec<Material>> {
    let mut all = BTreeSet::new();
    let mut todo: Vec<Material> = targets.iter().map(|m| m.table_of(rules)).collect();
    while let Some(m) = todo.pop() {
        if all.insert(m) {
            todo.extend(successors(rules, m));
        }
    }
    group(all)
}

/// The plan's tasks of `targets` and every table they need, written under `root`, by piece
/// count, fewest first: each table needs the tables its moves lead into.
#[must_use]
pub fn tasks(rules: RuleSet, targets: &[Material], root: &Path) -> Vec<Vec<Task>> {
    let named = |m: Material| (m.to_string(), table_path(root, rules, m, Kind::Wdl));
    closure(rules, targets)
        .into_iter()
        .map(|group| {
            group
                .into_iter()
                .map(|material| {
                    let (name, file) = named(material);
                    Task {
                        material: name,
                        pieces: material.total(),
                        file,
                        needs: successors(rules, material).into_iter().map(named).collect(),
                    }
                })
                .collect()
        })
        .collect()
}

/// The tables of `tables` under `rules` (either orientation where the colour flip is a
/// symmetry, else as given: [`Material::table_of`]), without repeats, grouped by piece count,
/// fewest first.
#[must_use]
pub fn by_piece_count(rules: RuleSet, tables: &[Material]) -> Vec<Vec<Material>> {
    group(tables.iter().map(|m| m.table_of(rules)).collect())
}

/// The tables of `group` (tables of one piece count) as they are best solved: each with its
/// colour flip where that is a table of its own and also in `group` and the game solves it from
/// the table ([`crate::game::FamilyGame::solves_flips`]: Clesto's), else alone. Each table
/// comes once, the larger first.
#[must_use]
pub fn with_flips(rules: RuleSet, group: &[Material]) -> Vec<(Material, Option<Material>)> {
    let mut order = group.to_vec();
    order.sort_by_key(|&m| std::cmp::Reverse(Layout::new(rules, m).len()));
    let mut taken = BTreeSet::new();
    let mut out = Vec::new();
    for &m in &order {
        if !taken.insert(m) {
            continue;
        }
        let flip = m.flipped();
        let paired = game_of(rules).solves_flips()
            && flip != m
            && group.contains(&flip)
            && taken.insert(flip);
        out.push((m, paired.then_some(flip)));
    }
    out
}

fn group(all: BTreeSet<Material>) -> Vec<Vec<Material>> {
    let mut all: Vec<Material> = all.into_iter().collect();
    // Stable: each piece count keeps the set's order.
    all.sort_by_key(|m| m.total());
    driver::levels_by(all, |m| m.total())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn captures_and_trades_lead_to_smaller_tables() {
        let m: Material = "LRvET".parse().unwrap();
        let names: Vec<String> = successors(RuleSet::Mistboard, m)
            .iter()
            .map(ToString::to_string)
            .collect();
        assert_eq!(names.len(), 4);
        for n in ["LRvE", "LRvT", "ETvL", "ETvR"] {
            assert!(names.contains(&n.to_string()), "{n} in {names:?}");
        }
        let m: Material = "LRvL".parse().unwrap();
        let flip = successors(RuleSet::Flip4x4, m);
        assert!(!flip.iter().any(|s| s.total() == 1));
        assert_eq!(closure(RuleSet::Mistboard, &[m]).len(), 2);
    }

    #[test]
    fn the_targets_of_a_task_keep_their_orientation_where_the_flip_is_no_symmetry() {
        let m: Material = "PDvLR".parse().unwrap();
        let named = |rules| -> Vec<String> {
            let mut names: Vec<String> = by_piece_count(rules, &[m, m.flipped()])
                .concat()
                .iter()
                .map(ToString::to_string)
                .collect();
            names.sort();
            names
        };
        assert_eq!(named(RuleSet::Mistboard), ["LRvPD"]);
        assert_eq!(named(RuleSet::Clesto), ["LRvPD", "PDvLR"]);
    }

    #[test]
    fn a_clesto_table_is_solved_with_its_flip_where_both_are_asked_for() {
        let m = |s: &str| s.parse::<Material>().unwrap();
        let group = [m("PDvLR"), m("LRvPD"), m("LRvLR"), m("ETvLC")];
        let jobs = with_flips(RuleSet::Clesto, &group);
        let mut tables: Vec<Material> = jobs
            .iter()
            .flat_map(|&(a, b)| [Some(a), b])
            .flatten()
            .collect();
        tables.sort();
        let mut expected = group.to_vec();
        expected.sort();
        assert_eq!(tables, expected, "each table once");
        let pair = jobs
            .iter()
            .find(|j| j.0 == m("PDvLR") || j.0 == m("LRvPD"))
            .unwrap();
        assert_eq!(pair.1, Some(pair.0.flipped()));
        assert!(
            jobs.iter().filter(|j| j.0 != pair.0).all(|j| j.1.is_none()),
            "{jobs:?}"
        );
        let alone = with_flips(RuleSet::Mistboard, &[m("LRvPD"), m("ETvLC")]);
        assert!(alone.iter().all(|j| j.1.is_none()));
    }
}
