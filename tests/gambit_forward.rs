//! A slow forward solver of Animal Gambit materials, independent of the generator and of the
//! probe library's game model: positions are the naive enumerator's grids
//! ([`crate::gambit_naive`]), placed square by square with no index and no symmetry; each
//! position's successors are the naive enumerator's end boards and end-of-turn checks; values
//! come from passes over every position until nothing changes.
//!
//! Pass `d` settles the values at distance `d` from those below it: a win in `d` where some
//! turn is worth a win in `d` (a turn that ends the game is worth a win or loss in 1, a turn
//! into a position lost in `d - 1` a win in `d`, a turn into a smaller material one turn more
//! than that material's value), a loss in `d` where every turn is known to lose and the
//! longest loss is `d`. A position without turns is lost in 0. The passes stop once one
//! settles nothing and no turn into a smaller material is worth more than `d` turns; what is
//! left is a draw.

use std::collections::HashMap;

use jtb_probe::Value;
use rayon::prelude::*;

use crate::gambit_naive::{self as naive, Grid};

/// Pieces of each strength (rabbit first) per side, Gold first.
pub type Counts = [[u8; 6]; 2];

/// A position: the board and whether Gold is to move.
pub type Key = (Grid, bool);

/// The counts of a grid's pieces.
#[must_use]
pub fn counts(g: &Grid) -> Counts {
    let mut c = [[0; 6]; 2];
    for (gold, s) in g.iter().flatten() {
        c[usize::from(!gold)][usize::from(*s)] += 1;
    }
    c
}

/// Every position of `counts`, both sides to move: each piece on its own square (identical
/// pieces in increasing square order), kept where a turn may start there.
#[must_use]
pub fn positions(counts: &Counts) -> Vec<Key> {
    let mut pieces = Vec::new();
    for (side, row) in counts.iter().enumerate() {
        for (s, &n) in row.iter().enumerate() {
            for _ in 0..n {
                pieces.push((side == 0, s as u8));
            }
        }
    }
    let mut grids = vec![([None; 64], 0usize)];
    for (i, &p) in pieces.iter().enumerate() {
        let same_as_before = i > 0 && pieces[i - 1] == p;
        grids = grids
            .into_iter()
            .flat_map(|(g, last)| {
                let from = if same_as_before { last + 1 } else { 0 };
                (from..64)
                    .filter(move |&sq| g[sq].is_none())
                    .map(move |sq| {
                        let mut g = g;
                        g[sq] = Some(p);
                        (g, sq)
                    })
            })
            .collect();
    }
    grids
        .into_iter()
        .map(|(g, _)| g)
        .filter(naive::valid)
        .flat_map(|g| [(g, true), (g, false)])
        .collect()
}

/// The materials a removal of one piece leads to with the game going on (each side keeps a
/// rabbit).
fn smaller(counts: &Counts) -> Vec<Counts> {
    let mut out = Vec::new();
    for side in 0..2 {
        for s in 0..6 {
            if counts[side][s] > u8::from(s == 0) {
                let mut c = *counts;
                c[side][s] -= 1;
                if !out.contains(&c) {
                    out.push(c);
                }
            }
        }
    }
    out
}

/// One position's turns, seen by the forward solver.
struct Node {
    /// Values of the turns that end the game or leave the material, for the mover.
    exits: Vec<Value>,
    /// Positions of the material the other turns lead to.
    succs: Vec<usize>,
}

/// Solved materials, in the orientation each was asked for.
#[derive(Default)]
pub struct Forward {
    tables: HashMap<Counts, HashMap<Key, Value>>,
}

impl Forward {
    /// No material solved yet.
    #[must_use]
    pub fn new() -> Forward {
        Forward::default()
    }

    /// The values of every position of `counts` (solved first, with the smaller materials it
    /// needs, when not yet).
    pub fn values(&mut self, counts: &Counts) -> &HashMap<Key, Value> {
        if !self.tables.contains_key(counts) {
            for c in smaller(counts) {
                self.values(&c);
            }
            let solved = self.solve(counts);
            self.tables.insert(*counts, solved);
        }
        &self.tables[counts]
    }

    fn solve(&self, counts: &Counts) -> HashMap<Key, Value> {
        let keys = positions(counts);
        let at: HashMap<Key, usize> = keys.iter().enumerate().map(|(i, k)| (*k, i)).collect();
        let nodes: Vec<Node> = keys
            .par_iter()
            .map(|&(g, gold)| {
                let mut node = Node {
                    exits: Vec::new(),
                    succs: Vec::new(),
                };
                for end in naive::turns(&g, gold, 4).into_keys() {
                    match naive::end(&end, gold) {
                        Some("goal" | "elimination" | "immobilization") => {
                            node.exits.push(Value::Win(1));
                        }
                        Some(_) => node.exits.push(Value::Loss(1)),
                        None if crate::gambit_forward::counts(&end) == *counts => {
                            node.succs.push(at[&(end, !gold)]);
                        }
                        None => {
                            let sub = &self.tables[&crate::gambit_forward::counts(&end)];
                            node.exits.push(flip(sub[&(end, !gold)]));
                        }
                    }
                }
                node
            })
            .collect();
        let longest_exit = nodes
            .iter()
            .flat_map(|n| n.exits.iter().filter_map(|v| v.dtm()))
            .max()
            .unwrap_or(0);
        let mut value: Vec<Option<Value>> = nodes
            .iter()
            .map(|n| (n.exits.is_empty() && n.succs.is_empty()).then_some(Value::Loss(0)))
            .collect();
        let mut d = 1u16;
        loop {
            let settled: Vec<(usize, Value)> = (0..nodes.len())
                .into_par_iter()
                .filter(|&i| value[i].is_none())
                .filter_map(|i| {
                    let n = &nodes[i];
                    let options: Vec<Option<Value>> = n
                        .exits
                        .iter()
                        .map(|&v| Some(v))
                        .chain(n.succs.iter().map(|&s| value[s].map(flip)))
                        .collect();
                    if options.contains(&Some(Value::Win(d))) {
                        return Some((i, Value::Win(d)));
                    }
                    let all_lose = options.iter().all(|o| matches!(o, Some(Value::Loss(_))));
                    let longest = options.iter().filter_map(|o| o.and_then(Value::dtm)).max();
                    (all_lose && longest == Some(d)).then_some((i, Value::Loss(d)))
                })
                .collect();
            if settled.is_empty() && d > longest_exit {
                break;
            }
            for (i, v) in settled {
                value[i] = Some(v);
            }
            d += 1;
        }
        keys.into_iter()
            .zip(value)
            .map(|(k, v)| (k, v.unwrap_or(Value::Draw)))
            .collect()
    }
}

/// The value of a turn into a position of value `v` (for the side then to move), for the side
/// that played it: one turn more, the other way round.
fn flip(v: Value) -> Value {
    match v {
        Value::Win(d) => Value::Loss(d + 1),
        Value::Draw => Value::Draw,
        Value::Loss(d) => Value::Win(d + 1),
    }
}
