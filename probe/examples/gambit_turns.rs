//! Lists the turns of Animal Gambit positions and times turn generation.
//!
//! `cargo run --release -p jtb-probe --example gambit_turns -- [POSITION...]`: for each position
//! (default: a few built in), the number of distinct turns, then positions and turns per second
//! for the bare end-board search (`TurnGenerator::end_boards`) and for the full list with
//! canonical text (`Position::turns`), on one thread.

use std::time::{Duration, Instant};

use jtb_probe::gambit::{Position, TurnGenerator};

const DEFAULT: [&str; 4] = [
    // A lone rabbit each side.
    "8/3r4/8/8/8/8/4R3/8 g",
    // A small ending: elephant and rabbit against dog, cat and rabbit.
    "8/2r5/3d4/4c3/8/3E4/4R3/8 g",
    // A middle game with 16 pieces a side on the board.
    "rrrddrrr/rhcemchr/8/8/8/8/RHCMECHR/RRRDDRRR g",
    // An open position with pieces in contact.
    "r1r2rr1/1d1cm1r1/rhH1e2r/R1R1h3/2E1Md2/2D2r2/1R1C2RR/3R3R s",
];

/// Calls per second of `f`: the best of 20 batches of about 25 ms each, so that other work on
/// a shared machine disturbs the figure less. Also gives what `f` returned.
fn rate(mut f: impl FnMut() -> usize) -> (f64, usize) {
    let mut best = 0f64;
    let mut result = 0;
    for _ in 0..20 {
        let start = Instant::now();
        let mut calls = 0u64;
        while start.elapsed() < Duration::from_millis(25) {
            result = f();
            calls += 1;
        }
        best = best.max(calls as f64 / start.elapsed().as_secs_f64());
    }
    (best, result)
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let texts: Vec<&str> = if args.is_empty() {
        DEFAULT.to_vec()
    } else {
        args.iter().map(String::as_str).collect()
    };
    let mut gen = TurnGenerator::new();
    for text in texts {
        let pos: Position = match text.parse() {
            Ok(p) => p,
            Err(e) => {
                eprintln!("{text}: {e}");
                continue;
            }
        };
        let (boards_per_s, n) = rate(|| gen.end_boards(&pos).len());
        let (lists_per_s, m) = rate(|| pos.turns().len());
        assert_eq!(n, m, "the two searches agree");
        println!(
            "{pos}\n  {n} turns; end boards: {boards_per_s:.0} positions/s ({:.2} M turns/s); \
             with text: {lists_per_s:.0} positions/s ({:.2} M turns/s)",
            boards_per_s * n as f64 / 1e6,
            lists_per_s * n as f64 / 1e6,
        );
    }
}
