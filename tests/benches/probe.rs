//! Probe latency over uniformly random legal positions: WDL, DTM and the clock rule (DTC with the
//! rule value at a random clock), cached and first touch, best move and line, the flip
//! dead-draw check, and throughput at 1 and 2 threads; Animal Gambit's cached WDL and DTM, best
//! turn and line in the same run (group `gambit`, on `ERvR`); the flip game's chance tables
//! (group `chance`, on `LvE-Tw`); Clesto's cached WDL and value with the ban (group `clesto`, on
//! `LRvE`); and the parse-and-probe loop over a million texts that the
//! Python package's batch probes are measured against (group `batch`: parsing and probing
//! texts, probing positions parsed beforehand, one by one and in bulk).
//!
//! Tables: `JTB_TABLES` (a root holding `mistboard/`) when set, else a temporary directory with
//! `LRvET` and the tables it needs, generated first. `JTB_BENCH_MATERIAL` picks the table.

use std::{hint::black_box, path::PathBuf, sync::Arc, time::Instant};

use criterion::{
    criterion_group, criterion_main, measurement::WallTime, BenchmarkGroup, Criterion,
};
use jtb_gen::{
    driver::Silent,
    run::{generate, GenOptions},
};
use jtb_probe::{
    dead_draw,
    flip::{ChanceLayout, ChanceMaterial, ChanceTables},
    Clesto, Jungle, Layout, Material, Position, RuleSet, Tablebase,
};

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

fn tables(material: Material) -> (PathBuf, Option<tempfile::TempDir>) {
    if let Some(dir) = std::env::var_os("JTB_TABLES") {
        return (PathBuf::from(dir), None);
    }
    let tmp = tempfile::tempdir().unwrap();
    let opts = GenOptions {
        rules: RuleSet::Mistboard,
        targets: vec![material],
        out: tmp.path().to_owned(),
        memory_limit: u64::MAX,
        only_targets: false,
    };
    generate(&opts, &Silent).unwrap();
    (tmp.path().to_owned(), Some(tmp))
}

/// `n` uniformly random legal positions of `material` under `rules` (both orientations, both
/// sides to move, before symmetry).
fn random_positions(rules: RuleSet, material: Material, n: usize) -> Vec<Position> {
    let layout = Layout::new(rules, material);
    let mut used = Vec::new();
    layout.for_each_used_entry(|idx, squares| {
        // An entry off the mirror axis stands for two positions: count it twice.
        let copies = if layout.on_mirror_axis(squares) { 1 } else { 2 };
        for c in 0..copies {
            used.push((idx, c == 1));
        }
    });
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    (0..n)
        .map(|_| {
            let (idx, mirror) = used[(rng.next() % used.len() as u64) as usize];
            let mut p = layout.position(idx).unwrap();
            if mirror {
                p = p.mirrored();
            }
            if rng.next() % 2 == 0 && !material.is_symmetric() {
                p = p.color_flipped();
            }
            p
        })
        .collect()
}

/// Benchmarks `probe` over `positions` in turn (a power of two of them: the loop steps with a
/// mask, keeping a division out of the figures).
fn cycle<P, R>(
    g: &mut BenchmarkGroup<'_, WallTime>,
    name: &str,
    positions: &[P],
    probe: impl Fn(&P) -> R,
) {
    assert!(positions.len().is_power_of_two());
    let mut i = 0;
    g.bench_function(name, |b| {
        b.iter(|| {
            i = (i + 1) & (positions.len() - 1);
            black_box(probe(&positions[i]))
        })
    });
}

fn benches(c: &mut Criterion) {
    let material: Material = std::env::var("JTB_BENCH_MATERIAL")
        .unwrap_or_else(|_| "LRvET".into())
        .parse()
        .unwrap();
    let (root, _keep) = tables(material);
    let positions = random_positions(RuleSet::Mistboard, material, 1 << 14);
    let tb = Tablebase::open(&root, Jungle::Mistboard).unwrap();
    for p in &positions {
        tb.probe_wdl(p).unwrap();
        tb.probe_dtm(p).unwrap();
        let _ = tb.probe_rule(p).unwrap();
    }
    let mut rng = Rng(0x2545_F491_4F6C_DD1D);
    let clocked: Vec<Position> = positions
        .iter()
        .map(|p| {
            let mut p = p.clone();
            p.set_clock(Some((rng.next() % 101) as u32)).unwrap();
            p
        })
        .collect();
    let mut g = c.benchmark_group("probe");
    cycle(&mut g, "wdl cached", &positions, |p| {
        tb.probe_wdl(p).unwrap()
    });
    cycle(&mut g, "dtm cached", &positions, |p| {
        tb.probe_dtm(p).unwrap()
    });
    cycle(&mut g, "rule cached", &clocked, |p| {
        tb.probe_rule(p).unwrap()
    });
    // A cache too small for any block: every probe decompresses its block (the file itself is
    // in the page cache after the warm-up above).
    let cold = Tablebase::with_cache(&root, Jungle::Mistboard, 1).unwrap();
    cycle(&mut g, "wdl first touch", &positions, |p| {
        cold.probe_wdl(p).unwrap()
    });
    cycle(&mut g, "dtm first touch", &positions, |p| {
        cold.probe_dtm(p).unwrap()
    });
    g.sample_size(20);
    cycle(&mut g, "best move", &positions, |p| {
        tb.best_move(p).unwrap()
    });
    cycle(&mut g, "line", &positions, |p| tb.line(p).unwrap());
    cycle(&mut g, "rule best move", &clocked, |p| {
        tb.rule_best_move(p).unwrap()
    });
    cycle(&mut g, "rule line", &clocked, |p| tb.rule_line(p).unwrap());
    g.finish();

    // The Python package's batch target: the same parse-and-probe loop over a million texts,
    // blocks cached (written to JTB_BENCH_TEXTS when set, for `python/benches/batch.py`).
    let texts: Vec<String> = random_positions(RuleSet::Mistboard, material, 1 << 20)
        .iter()
        .map(ToString::to_string)
        .collect();
    if let Some(path) = std::env::var_os("JTB_BENCH_TEXTS") {
        std::fs::write(path, texts.join("\n") + "\n").unwrap();
    }
    let mut g = c.benchmark_group("batch");
    g.sample_size(10);
    g.bench_function("parse and probe wdl, 1M texts", |b| {
        b.iter(|| {
            for t in &texts {
                let pos: Position = t.parse().unwrap();
                black_box(tb.probe_wdl(&pos).unwrap());
            }
        })
    });
    // What the batch over packed positions is measured against: the library's own loop over the
    // same positions, parsed beforehand.
    let parsed: Vec<Position> = texts.iter().map(|t| t.parse().unwrap()).collect();
    g.bench_function("probe wdl, 1M parsed positions", |b| {
        b.iter(|| {
            for pos in &parsed {
                black_box(tb.probe_wdl(pos).unwrap());
            }
        })
    });
    // The library's bulk read of the same positions (each entry's memory asked for ahead).
    let refs: Vec<&Position> = parsed.iter().collect();
    g.bench_function("probe_wdl_many, 1M parsed positions", |b| {
        b.iter(|| {
            tb.probe_wdl_many(&refs, |_, wdl| {
                black_box(wdl.unwrap());
            })
        })
    });
    g.finish();

    let flip: Vec<Position> = [
        "4/4/4/c2L r",
        "4/4/4/c1L1 r",
        "4/4/4/R2e b",
        "4/1l2/4/2C1 b 12",
    ]
    .iter()
    .map(|t| t.parse().unwrap())
    .collect();
    // Animal Gambit, in the same run: random positions of ERvR's table (and the images under
    // the mirror and the colour flip), through the same store and caches.
    let gambit_dir = tempfile::tempdir().unwrap();
    let erv: jtb_probe::gambit::Material = "ERvR".parse().unwrap();
    jtb_gen::gambit::generate(gambit_dir.path(), &[erv], u64::MAX, false, &Silent).unwrap();
    let layout = jtb_probe::gambit::Layout::new(erv);
    let used: Vec<jtb_probe::gambit::Position> = (0..layout.len())
        .filter_map(|i| layout.position(i))
        .collect();
    let mut rng = Rng(0x0123_4567_89AB_CDEF);
    let gambit_positions: Vec<jtb_probe::gambit::Position> = (0..1 << 14)
        .map(|_| {
            let mut p = used[(rng.next() % used.len() as u64) as usize];
            if rng.next() % 2 == 0 {
                p = p.mirror();
            }
            if rng.next() % 2 == 0 {
                p = p.flip();
            }
            p
        })
        .collect();
    let gtb =
        jtb_probe::Tablebase::open(gambit_dir.path(), jtb_probe::gambit::AnimalGambit).unwrap();
    for p in &gambit_positions {
        gtb.probe_wdl(p).unwrap();
        gtb.probe_dtm(p).unwrap();
    }
    let mut g = c.benchmark_group("gambit");
    cycle(&mut g, "wdl cached", &gambit_positions, |p| {
        gtb.probe_wdl(p).unwrap()
    });
    cycle(&mut g, "dtm cached", &gambit_positions, |p| {
        gtb.probe_dtm(p).unwrap()
    });
    g.sample_size(20);
    cycle(&mut g, "best turn", &gambit_positions, |p| {
        gtb.best_move(p).unwrap()
    });
    cycle(&mut g, "line", &gambit_positions, |p| gtb.line(p).unwrap());
    g.finish();

    let mut g = c.benchmark_group("flip");
    cycle(&mut g, "dead_draw", &flip, |p| dead_draw(p, None));
    g.finish();

    // The flip game's chance tables (RULES.md 8): a cached probe of a position with face-down
    // tiles at a random clock, on `LvE-Tw` (four tiles, two face down) and the tables it needs,
    // against the cached Jungle WDL probe of the group `probe` in the same run.
    let chance_dir = tempfile::tempdir().unwrap();
    let flip_opts = GenOptions {
        rules: RuleSet::Flip4x4,
        targets: vec!["LTvEW".parse().unwrap()],
        out: chance_dir.path().to_owned(),
        memory_limit: u64::MAX,
        only_targets: false,
    };
    generate(&flip_opts, &Silent).unwrap();
    let lve_tw: ChanceMaterial = "LvE-Tw".parse().unwrap();
    jtb_gen::chance::generate(chance_dir.path(), &[lve_tw], u64::MAX, false, &Silent).unwrap();
    let chance = ChanceTables::open(chance_dir.path()).unwrap();
    let layout = ChanceLayout::new(lve_tw);
    let mut rng = Rng(0x5851_F42D_4C95_7F2D);
    let mut chance_positions: Vec<Position> = Vec::new();
    while chance_positions.len() < 1 << 14 {
        let idx = (rng.next() % layout.positions() as u64) as usize;
        let Some(mut p) = layout.position(idx) else {
            continue;
        };
        p.set_clock(Some((rng.next() % 40) as u32)).unwrap();
        chance_positions.push(if rng.next() % 2 == 0 {
            p.color_flipped()
        } else {
            p
        });
    }
    for p in &chance_positions {
        chance.probe(p).unwrap();
    }
    let mut g = c.benchmark_group("chance");
    cycle(&mut g, "probe cached", &chance_positions, |p| {
        chance.probe(p).unwrap()
    });
    g.sample_size(20);
    cycle(&mut g, "best move", &chance_positions, |p| {
        chance.best_move(p).unwrap()
    });
    g.finish();

    // Clesto, in the same run: random positions of LRvE's table and its colour flip's (a table
    // of its own: RULES.md 6 is not symmetric under the flip), through the same store and
    // caches.
    let clesto_dir = tempfile::tempdir().unwrap();
    let lrve: Material = "LRvE".parse().unwrap();
    let opts = GenOptions {
        rules: RuleSet::Clesto,
        targets: vec![lrve, lrve.flipped()],
        out: clesto_dir.path().to_owned(),
        memory_limit: u64::MAX,
        only_targets: false,
    };
    generate(&opts, &Silent).unwrap();
    let ctb = Tablebase::open(clesto_dir.path(), Clesto).unwrap();
    let clesto_positions = random_positions(RuleSet::Clesto, lrve, 1 << 14);
    for p in &clesto_positions {
        ctb.probe_wdl(p).unwrap();
        ctb.probe_clesto(p).unwrap();
    }
    let mut g = c.benchmark_group("clesto");
    cycle(&mut g, "wdl cached", &clesto_positions, |p| {
        ctb.probe_wdl(p).unwrap()
    });
    cycle(&mut g, "value cached", &clesto_positions, |p| {
        ctb.probe_clesto(p).unwrap()
    });
    g.finish();

    // Throughput: cached DTM probes per second at 1 and 2 threads.
    let tb = Arc::new(tb);
    let positions = Arc::new(positions);
    for threads in [1, 2] {
        let per_thread = 2_000_000;
        let start = Instant::now();
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                let (tb, positions) = (Arc::clone(&tb), Arc::clone(&positions));
                std::thread::spawn(move || {
                    for k in 0..per_thread {
                        let p = &positions[(k * 31 + t * 7) % positions.len()];
                        black_box(tb.probe_dtm(p).unwrap());
                    }
                })
            })
            .collect();
        for h in handles {
            h.join().unwrap();
        }
        let rate = (threads * per_thread) as f64 / start.elapsed().as_secs_f64();
        println!("throughput: {threads} thread(s): {rate:.0} DTM probes per second");
    }
}

criterion_group!(probe_benches, benches);
criterion_main!(probe_benches);
