//! The native side of the package's probe benchmark (`wasm/bench/probe.mjs`): the same texts
//! probed for WDL through the same edge (`Tables::wdl` of the text parsed under its rule set),
//! natively, every block cached. Prints nanoseconds per probe as JSON.
//!
//! `cargo run --release -p jtb-wasm --example native_probe -- TABLES RULES TEXTS_FILE ROUNDS`

use std::{hint::black_box, time::Instant};

use jtb_edge::{api, AnyPosition, Tables};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let [_, tables, rules, texts, rounds] = &args[..] else {
        eprintln!("usage: native_probe TABLES RULES TEXTS_FILE ROUNDS");
        std::process::exit(2);
    };
    let rules = api::rule_set(rules).expect("a rule set");
    let texts: Vec<String> = std::fs::read_to_string(texts)
        .expect("the texts")
        .lines()
        .map(str::to_owned)
        .collect();
    let rounds: usize = rounds.parse().expect("a number of rounds");
    let tables = Tables::new(tables, 64 << 20);
    let parsed: Vec<AnyPosition> = texts
        .iter()
        .map(|t| AnyPosition::parse(t, Some(rules), None).expect("a position"))
        .collect();
    // Every block read once.
    for pos in &parsed {
        tables.wdl(pos).expect("a value");
    }
    // The best of three timings of `rounds` rounds each, as the Node side takes its own.
    let time = |f: &dyn Fn() -> i64| {
        (0..3)
            .map(|_| {
                let start = Instant::now();
                let mut sum = 0;
                for _ in 0..rounds {
                    sum += f();
                }
                black_box(sum);
                start.elapsed().as_nanos() as f64 / (rounds * texts.len()) as f64
            })
            .fold(f64::INFINITY, f64::min)
    };
    let text = time(&|| {
        texts
            .iter()
            .map(|t| {
                let pos = AnyPosition::parse(t, Some(rules), None).unwrap();
                tables.wdl(&pos).unwrap() as i64
            })
            .sum()
    });
    let position = time(&|| parsed.iter().map(|p| tables.wdl(p).unwrap() as i64).sum());
    println!("{{\"text_ns\": {text:.1}, \"position_ns\": {position:.1}}}");
}
