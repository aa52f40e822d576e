//! Retrograde analysis over an explicit successor graph, for games whose moves are easier to
//! generate forward than backward: the simplest correct solver of a game, over whole moves.
//! Animal Gambit's turn-graph solver (`gambit::solve_by_graph`), kept to check its step-level
//! solver, runs on it.
//!
//! A game's solver scans every entry once ([`Graph::scan`]): the successors that stay in the
//! table become edges, and every other move (one that ends the game, or leaves the table into
//! a smaller, solved one) is folded into the entry's best exit value. [`Graph::solve`] then
//! finds every value with its distance to mate, exactly: wins in `n` from a move into a loss in
//! `n - 1` or an exit worth a win in `n`; losses once every move is known to lose, at the
//! longest of their distances; the rest draws. It is the pass Clesto's plain values used while
//! `clesto.rs` kept a move graph (it now finds predecessors by moving pieces back), written
//! once here over any game's graph.
//!
//! Distances are in plies of the game: a move that ends the game is worth a win or loss in 1,
//! a position without moves a loss in 0 (its scan has no exit and no successor).

use rayon::prelude::*;

use jtb_probe::Value;

/// What one entry of a table is, for the scan.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Entry {
    /// No position (pieces on one square, an illegal placement, or a symmetric image).
    Unused,
    /// A position; the best value for the mover of its moves that do not stay in the table
    /// (`None`: every move stays in it, or there is no move).
    Used(Option<Value>),
}

/// Every entry's moves that stay in the table, with the best value of the others.
#[derive(Debug)]
pub struct Graph {
    /// Per entry, the range of `succs` holding its successors (`offsets[i]..offsets[i + 1]`).
    offsets: Vec<u64>,
    succs: Vec<u32>,
    exits: Vec<Option<Value>>,
    used: Vec<bool>,
}

/// Entries per parallel task of a scan.
const SCAN_CHUNK: usize = 1 << 10;

/// An entry count or an edge a graph cannot hold (successors are stored in 32 bits).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TooManyEntries(pub usize);

impl Graph {
    /// Scans entries `0..n` in parallel chunks: `visit(idx, succs)` pushes entry `idx`'s
    /// successors in the table onto `succs` (each once) and says what the entry is. The graph
    /// is the same whatever the number of threads.
    ///
    /// # Errors
    /// The first error of `visit`, in entry order; [`TooManyEntries`] (converted into `E`)
    /// when `n` does not fit 32 bits.
    pub fn scan<E: Send + From<TooManyEntries>>(
        n: usize,
        visit: impl Fn(usize, &mut Vec<u32>) -> Result<Entry, E> + Sync,
    ) -> Result<Graph, E> {
        u32::try_from(n).map_err(|_| E::from(TooManyEntries(n)))?;
        type Chunk = (Vec<u32>, Vec<u32>, Vec<Option<Value>>, Vec<bool>);
        let chunks: Vec<Chunk> = (0..n.div_ceil(SCAN_CHUNK))
            .into_par_iter()
            .map(|c| {
                let range = c * SCAN_CHUNK..((c + 1) * SCAN_CHUNK).min(n);
                let mut chunk: Chunk = (
                    Vec::with_capacity(range.len()),
                    Vec::new(),
                    Vec::with_capacity(range.len()),
                    Vec::with_capacity(range.len()),
                );
                for idx in range {
                    let before = chunk.1.len();
                    let entry = visit(idx, &mut chunk.1)?;
                    chunk.0.push((chunk.1.len() - before) as u32);
                    let (exit, used) = match entry {
                        Entry::Unused => (None, false),
                        Entry::Used(exit) => (exit, true),
                    };
                    chunk.2.push(exit);
                    chunk.3.push(used);
                }
                Ok(chunk)
            })
            .collect::<Result<_, E>>()?;
        let total: usize = chunks.iter().map(|c| c.1.len()).sum();
        let mut graph = Graph {
            offsets: Vec::with_capacity(n + 1),
            succs: Vec::with_capacity(total),
            exits: Vec::with_capacity(n),
            used: Vec::with_capacity(n),
        };
        graph.offsets.push(0);
        for (counts, succs, exits, used) in chunks {
            let mut at = *graph.offsets.last().expect("starts at 0");
            for c in counts {
                at += u64::from(c);
                graph.offsets.push(at);
            }
            graph.succs.extend(succs);
            graph.exits.extend(exits);
            graph.used.extend(used);
        }
        Ok(graph)
    }

    /// Entries of the graph.
    #[must_use]
    pub fn len(&self) -> usize {
        self.used.len()
    }

    /// Whether the graph has no entry.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.used.is_empty()
    }

    /// Edges (moves that stay in the table) in all.
    #[must_use]
    pub fn edges(&self) -> usize {
        self.succs.len()
    }

    /// Bytes the graph holds, for memory figures.
    #[must_use]
    pub fn heap_bytes(&self) -> usize {
        self.offsets.len() * 8 + self.succs.len() * 4 + self.exits.len() * 6 + self.used.len()
    }

    /// Whether entry `i` is a position.
    #[must_use]
    pub fn is_used(&self, i: usize) -> bool {
        self.used[i]
    }

    fn succs(&self, i: usize) -> &[u32] {
        &self.succs[self.offsets[i] as usize..self.offsets[i + 1] as usize]
    }

    /// The reverse graph: per entry, the entries with a move into it (offsets, predecessors).
    fn predecessors(&self) -> (Vec<u64>, Vec<u32>) {
        let n = self.len();
        let mut offsets = vec![0u64; n + 1];
        for &s in &self.succs {
            offsets[s as usize + 1] += 1;
        }
        for i in 0..n {
            offsets[i + 1] += offsets[i];
        }
        let mut next = offsets.clone();
        let mut preds = vec![0u32; self.succs.len()];
        for i in 0..n {
            for &s in self.succs(i) {
                let slot = &mut next[s as usize];
                // Entry counts fit 32 bits ([`Graph::scan`]).
                preds[*slot as usize] = i as u32;
                *slot += 1;
            }
        }
        (offsets, preds)
    }

    /// Every entry's value with its distance to mate: `None` for an unused entry; a draw where
    /// neither side can force the end of the game.
    #[must_use]
    pub fn solve(&self) -> Vec<Option<Value>> {
        let n = self.len();
        let (pred_offsets, preds) = self.predecessors();
        let preds_of = |i: usize| &preds[pred_offsets[i] as usize..pred_offsets[i + 1] as usize];
        let mut value: Vec<Option<Value>> = vec![None; n];
        let mut open: Vec<u32> = (0..n).map(|i| self.succs(i).len() as u32).collect();
        // calendar[d]: entries that become a win or loss in d unless settled sooner.
        let mut calendar: Vec<Vec<(u32, Value)>> = Vec::new();
        let schedule = |calendar: &mut Vec<Vec<(u32, Value)>>, i: usize, v: Value| {
            let d = usize::from(v.dtm().expect("a win or loss"));
            if calendar.len() <= d {
                calendar.resize(d + 1, Vec::new());
            }
            calendar[d].push((i as u32, v));
        };
        for i in (0..n).filter(|&i| self.used[i]) {
            match (self.exits[i], open[i]) {
                (Some(v @ Value::Win(_)), _) => schedule(&mut calendar, i, v),
                (None, 0) => schedule(&mut calendar, i, Value::Loss(0)),
                (Some(v @ Value::Loss(_)), 0) => schedule(&mut calendar, i, v),
                _ => {}
            }
        }
        let mut level = 0;
        while level < calendar.len() {
            let due = std::mem::take(&mut calendar[level]);
            for (i, v) in due {
                let i = i as usize;
                if value[i].is_some() {
                    continue;
                }
                value[i] = Some(v);
                for &p in preds_of(i) {
                    let p = p as usize;
                    if value[p].is_some() {
                        continue;
                    }
                    match v {
                        // A move into a loss in d is a win in d + 1.
                        Value::Loss(d) => schedule(&mut calendar, p, Value::Win(d + 1)),
                        Value::Win(d) => {
                            open[p] -= 1;
                            // Every move in the table loses; the exits decide the rest.
                            if open[p] == 0 {
                                match self.exits[p] {
                                    None => schedule(&mut calendar, p, Value::Loss(d + 1)),
                                    Some(Value::Loss(e)) => {
                                        schedule(&mut calendar, p, Value::Loss(e.max(d + 1)));
                                    }
                                    // A draw or a win through an exit: not a loss.
                                    Some(_) => {}
                                }
                            }
                        }
                        Value::Draw => unreachable!("the calendar holds wins and losses"),
                    }
                }
            }
            level += 1;
        }
        for (v, &used) in value.iter_mut().zip(&self.used) {
            if used && v.is_none() {
                *v = Some(Value::Draw);
            }
        }
        value
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A hand-made graph: 0 -> 1 -> 2 (no moves: lost), 3 <-> 4 (a cycle: drawn), 5 -> 3 with
    /// an exit worth a loss in 4 (the draw is better), 6 -> 2 and an exit winning in 5 (the
    /// shorter win through 2), 7 only an exit losing in 3, 8 -> 1 and an exit losing in 9 (the
    /// longer loss), and 9 unused.
    #[test]
    fn values_of_a_small_graph() {
        let succs: [&[u32]; 10] = [&[1], &[2], &[], &[4], &[3], &[3], &[2], &[], &[1], &[]];
        let exits = [
            None,
            None,
            None,
            None,
            None,
            Some(Value::Loss(4)),
            Some(Value::Win(5)),
            Some(Value::Loss(3)),
            Some(Value::Loss(9)),
            None,
        ];
        let graph = Graph::scan::<TooManyEntries>(10, |i, out| {
            out.extend_from_slice(succs[i]);
            Ok(if i == 9 {
                Entry::Unused
            } else {
                Entry::Used(exits[i])
            })
        })
        .unwrap();
        assert_eq!(graph.edges(), 7);
        let v = graph.solve();
        assert_eq!(
            v,
            [
                Some(Value::Loss(2)),
                Some(Value::Win(1)),
                Some(Value::Loss(0)),
                Some(Value::Draw),
                Some(Value::Draw),
                Some(Value::Draw),
                Some(Value::Win(1)),
                Some(Value::Loss(3)),
                Some(Value::Loss(9)),
                None,
            ]
        );
    }
}
