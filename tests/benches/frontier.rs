//! The generator's retrograde solve against the naive forward solver ([`jtb_tests::forward`]),
//! side by side on one material and every table it needs (`LRvET` by default, whose wins run
//! to 83 plies).
//!
//! `cargo bench -p jtb-tests --bench frontier [-- MATERIAL]`
//!
//! `cargo bench -p jtb-tests --bench frontier -- --hash-map` also times the hash-map form
//! (for `LRvET`: about 5 minutes and 17 GiB of memory).
//!
//! It times, best of three, `jtb_gen::solve_all` (in memory) and `jtb_gen::run::generate`
//! (with the files written), then once the forward solver over the same tables, numbering
//! positions by the table layout (so it needs no hash map); with `--hash-map`, also once over
//! every position of both orientations numbered by a hash map (the most naive form, as in
//! `tests/forward_solver.rs`). It checks that every value agrees.

use std::{
    collections::HashMap,
    time::{Duration, Instant},
};

use jtb_gen::{
    driver::Silent,
    run::{generate, GenOptions},
    solve_all,
};
use jtb_probe::{Layout, Material, Position, RuleSet, Value};
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
    let args: Vec<String> = std::env::args().skip(1).collect();
    let name = args
        .iter()
        .find(|a| !a.starts_with('-'))
        .map_or("LRvET", String::as_str);
    let by_hash_map = args.iter().any(|a| a == "--hash-map");
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
        let smaller = |q: &Position| {
            let (layout, v) = &values[&Material::of(q).canonical()];
            v[layout.index_of(q).expect("a legal position")]
        };
        let succs: Vec<Vec<forward::Succ>> = nodes
            .iter()
            .map(|&idx| {
                let pos = layout.position(idx).expect("a used entry");
                let own = |q: &Position| {
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
    drop(values);

    let hashed = by_hash_map.then(|| {
        let start = Instant::now();
        let mut known: HashMap<Position, Value> = HashMap::new();
        for &m in groups.iter().flatten() {
            let found = forward::solve_by_hash_map(rules, m, &known);
            known.extend(found);
        }
        let elapsed = start.elapsed();
        for (pos, &v) in &known {
            let table = solved.get(Material::of(pos).canonical()).unwrap();
            let idx = table.layout.index_of(pos).expect("a legal position");
            assert_eq!(table.value(idx), v, "{pos}");
        }
        elapsed
    });
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
    if let Some(hashed) = hashed {
        println!(
            "  the same by hash map:      {:>9.3} s (every value agrees)",
            hashed.as_secs_f64()
        );
    }
    let solvers = [("", Some(naive)), (", by hash map", hashed)];
    for (what, solver) in solvers.into_iter().filter_map(|(w, s)| Some((w, s?))) {
        println!(
            "ratio{what}: {:.0}x in memory, {:.0}x with files",
            solver.as_secs_f64() / in_memory.as_secs_f64(),
            solver.as_secs_f64() / with_files.as_secs_f64()
        );
    }
}
