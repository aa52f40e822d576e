//! The clock rule checked by a second, independent computation: backward induction over the
//! clock (RULES.md section 5).
//!
//! The state is (position, clock). A position at the limit `L` is drawn; below it, a move that
//! ends the game is worth its result, a capture or trade is worth the smaller position's value
//! at clock 0 (computed the same way, material by material), and a quiet move is worth the next
//! position's value at clock + 1. So V(·, c) needs only V(·, c + 1): no DTC, no fixpoint, no
//! distance. It shares with the generator only the move generator (`Position::play`) and the
//! table layout as a map from positions to numbers (checked by the index round-trip tests).
//! Its value must equal the DTC-derived rule value on every (position, clock) pair.

use std::collections::HashMap;

use jtb_gen::{solve_all, Solved, SubTables};
use jtb_probe::{clock::rule_wdl, Layout, Material, Outcome, RuleSet, Wdl};
use rayon::prelude::*;

/// A move's worth as the induction sees it, packed in a `u32`: a known result for the mover
/// (game end or conversion), or the index of the next position in the same table.
const KNOWN: u32 = 1 << 31;

fn known(w: Wdl) -> u32 {
    KNOWN | w as u32
}

fn wdl_of(code: u32) -> Wdl {
    [Wdl::Loss, Wdl::Draw, Wdl::Win][(code & !KNOWN) as usize]
}

/// Values at clock 0 of every table solved so far, by canonical material.
type AtZero = HashMap<Material, Vec<Wdl>>;

/// Solves `material` by backward induction over the clock, checking each clock's values
/// against the DTC of `solved` as it goes; returns the values at clock 0 and the number of
/// (position, clock) pairs checked.
fn induct(
    rules: RuleSet,
    material: Material,
    solved: &Solved,
    smaller: &AtZero,
) -> (Vec<Wdl>, u64) {
    let layout = Layout::new(rules, material);
    let limit = rules.clock_limit();
    let mut used = Vec::new();
    layout.for_each_used_entry(|idx, _| used.push(idx));
    // Successors in compressed rows: `moves[starts[k]..starts[k + 1]]` for used entry k.
    let rows: Vec<Vec<u32>> = used
        .par_iter()
        .map(|&idx| {
            let pos = layout.position(idx).expect("used entry");
            let mut row = Vec::new();
            pos.for_each_outcome(|_, outcome| {
                row.push(match outcome {
                    Outcome::Over { result, .. } => known(result),
                    Outcome::Ongoing(next) => {
                        let m = Material::of(&next).canonical();
                        if m == layout.material() {
                            layout.index_of(&next).expect("same material") as u32
                        } else {
                            let sub = Layout::new(rules, m);
                            let at_zero = smaller[&m][sub.index_of(&next).expect("in table")];
                            known(at_zero.flipped())
                        }
                    }
                });
            });
            row
        })
        .collect();
    let mut starts = Vec::with_capacity(rows.len() + 1);
    starts.push(0usize);
    let mut moves = Vec::new();
    for row in rows {
        moves.extend(row);
        starts.push(moves.len());
    }
    // V(·, L) is a draw everywhere.
    let mut next = vec![Wdl::Draw; layout.len()];
    let mut pairs = used.len() as u64;
    for clock in (0..limit).rev() {
        let values: Vec<(usize, Wdl)> = used
            .par_iter()
            .enumerate()
            .map(|(k, &idx)| {
                let value = moves[starts[k]..starts[k + 1]]
                    .iter()
                    .map(|&m| {
                        if m & KNOWN != 0 {
                            wdl_of(m)
                        } else {
                            next[m as usize].flipped()
                        }
                    })
                    .max()
                    .unwrap_or(Wdl::Loss);
                let expected = rule_wdl(solved.dtc(idx), clock, limit);
                assert_eq!(
                    value,
                    expected,
                    "{rules} {material}: {} at clock {clock}: induction {value}, DTC {} gives \
                     {expected}",
                    layout.position(idx).expect("used entry"),
                    solved.dtc(idx)
                );
                (idx, value)
            })
            .collect();
        for (idx, v) in values {
            next[idx] = v;
        }
        pairs += used.len() as u64;
    }
    (next, pairs)
}

/// Checks `targets` and every table they need, smallest first; returns the pairs checked.
fn check(rules: RuleSet, targets: &[&str]) -> u64 {
    let targets: Vec<Material> = targets.iter().map(|m| m.parse().unwrap()).collect();
    let solved: SubTables = solve_all(rules, &targets).unwrap();
    let mut at_zero = AtZero::new();
    let mut pairs = 0;
    for group in jtb_gen::plan::closure(rules, &targets) {
        for m in group {
            let (values, n) = induct(rules, m, solved.get(m).unwrap(), &at_zero);
            at_zero.insert(m, values);
            pairs += n;
        }
    }
    eprintln!("{rules}: {pairs} (position, clock) pairs agree");
    pairs
}

#[test]
fn mistboard_two_and_three_pieces() {
    assert_eq!(
        check(
            RuleSet::Mistboard,
            &["LvE", "RvE", "TvL", "LRvE", "ERvC", "DCvW"]
        ),
        46_831_680
    );
}

#[test]
fn tiger_lengthwise_two_and_three_pieces() {
    assert_eq!(
        check(RuleSet::TigerLengthwise, &["TvL", "TRvE", "LvTR"]),
        33_257_280
    );
}

#[test]
fn leiden_two_and_three_pieces() {
    assert_eq!(check(RuleSet::Leiden, &["EvR", "ERvR", "RvLR"]), 41_135_280);
}

#[test]
fn flip_game_up_to_four_animals() {
    let all: Vec<String> = Material::all(2, 3)
        .iter()
        .map(ToString::to_string)
        .collect();
    let mut targets: Vec<&str> = all.iter().map(String::as_str).collect();
    targets.extend(["ERvER", "LCvTR", "WDCvP"]);
    assert_eq!(check(RuleSet::Flip4x4, &targets), 36_585_120);
}

/// 4-piece tables with the long wins: 83 plies (`LRvET`) and 93, the longest up to four pieces
/// (`DCvDC`). Under a minute on 2 cores.
#[test]
fn mistboard_four_pieces_with_long_wins() {
    assert_eq!(
        check(RuleSet::Mistboard, &["LRvET", "DCvDC"]),
        1_415_402_688
    );
}
