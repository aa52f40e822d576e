//! The generator's retrograde solve against the naive forward solver ([`jtb_tests::forward`]),
//! side by side on one material and every table it needs (`LRvET` by default, whose wins run
//! to 83 plies).
//!
//! `cargo bench -p jtb-tests --bench frontier [-- MATERIAL]`
//!
//! It times, best of three, `jtb_gen::solve_all` (in memory) and `jtb_gen::run::generate`
//! (with the files written), then once the forward solver over the same tables, numbering
//! positions by the table layout (so it needs no hash map), and checks that every value
//! agrees.

use std::{
    collections::HashMap,
    time::{Duration, Instant},
};

use jtb_gen::{
    run::{generate, GenOptions, Silent},
    solve_all,
};
use jtb_probe::{Layout, Material, RuleSet, Value};
use jtb_tests::forward;

fn best_of_three(mut f: impl FnMut()) -> Duration {
    (0..3)
        .map(|_| {
            let start = Instant::now();
            f();
            start.elapsed()
        })
        .min()
        .expect("three runs")
}

fn main() {
    let name = std::env::args()
        .skip(1)
        .find(|a| !a.starts_with('-'))
        .unwrap_or_else(|| "LRvET".to_owned());
    let target: Material = name.parse().expect("a material");
    let rules = RuleSet::Mistboard;
    let groups = jtb_gen::plan::closure(rules, &[target]);
    let entries: usize = groups
        .iter()
        .flatten()
        .map(|&m| Layout::new(rules, m).len())
        .sum();
    println!(
        "{target} and the {} tables it needs: {entries} entries, {} threads",
        groups.iter().flatten().count() - 1,
        rayon::current_num_threads()
    );

    let mut solved = None;
    let in_memory = best_of_three(|| solved = Some(solve_all(rules, &[target]).unwrap()));
    let with_files = best_of_three(|| {
        let dir = tempfile::tempdir().unwrap();
        let opts = GenOptions {
            rules,
            targets: vec![target],
            out: dir.path().to_owned(),
            memory_limit: u64::MAX,
            only_targets: false,
        };
        generate(&opts, &Silent).unwrap();
    });
    let solved = solved.expect("solved");

    let start = Instant::now();
    let mut values: HashMap<Material, (Layout, Vec<Value>)> = HashMap::new();
    for &m in groups.iter().flatten() {
        let layout = Layout::new(rules, m);
        let mut number = vec![u32::MAX; layout.len()];
        let mut nodes = Vec::new();
        layout.for_each_used_entry(|idx, _| {
            number[idx] = nodes.len() as u32;
            nodes.push(idx);
        });
        let smaller = |q: &jtb_probe::Position| {
            let (layout, v) = &values[&Material::of(q).canonical()];
            v[layout.index_of(q).expect("a legal position")]
        };
        let succs: Vec<Vec<forward::Succ>> = nodes
            .iter()
            .map(|&idx| {
                let pos = layout.position(idx).expect("a used entry");
                let own = |q: &jtb_probe::Position| {
                    (Material::of(q).canonical() == m)
                        .then(|| number[layout.index_of(q).expect("a legal position")] as usize)
                };
                forward::successors(&pos, own, smaller)
            })
            .collect();
        let found = forward::iterate(&succs);
        let mut table = vec![Value::Draw; layout.len()];
        for (&idx, v) in nodes.iter().zip(found) {
            table[idx] = v;
            assert_eq!(solved.get(m).unwrap().value(idx), v, "{m} entry {idx}");
        }
        values.insert(m, (layout, table));
    }
    let naive = start.elapsed();
    println!(
        "generator, in memory:        {:>9.3} s",
        in_memory.as_secs_f64()
    );
    println!(
        "generator, files written:    {:>9.3} s",
        with_files.as_secs_f64()
    );
    println!(
        "naive forward solver:        {:>9.3} s (every value agrees)",
        naive.as_secs_f64()
    );
    println!(
        "ratio: {:.0}x in memory, {:.0}x with files",
        naive.as_secs_f64() / in_memory.as_secs_f64(),
        naive.as_secs_f64() / with_files.as_secs_f64()
    );
}
