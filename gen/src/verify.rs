//! One-ply verification: every entry equals the best of its successors, in both metrics, and
//! every win or loss under the clock rule is a plain win or loss.

use std::ops::Range;

use jtb_probe::{Animal, Color, Layout, Material, Outcome, Piece, Position, Square, Value};
use rayon::prelude::*;

use crate::{GenError, Metric, Solved, SubTables};

/// Which check an entry failed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Check {
    /// The entry in this metric is not the best of its successors.
    OnePly(Metric),
    /// The DTC is a win or loss but the plain value (DTM) is not the same.
    DtcImpliesPlain,
}

/// An entry that fails a check.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mismatch {
    /// The position, as text.
    pub position: String,
    /// The check it fails.
    pub check: Check,
    /// The value stored in the table (for [`Check::DtcImpliesPlain`], the DTC).
    pub stored: Value,
    /// The value its successors give (for [`Check::DtcImpliesPlain`], the plain value).
    pub computed: Value,
}

/// The value of `pos` in both metrics (distance to mate, distance to conversion) from its
/// successors' values in `tables` (which must hold `pos`'s own table and every table its
/// captures lead into), from one pass over its moves.
///
/// # Errors
/// [`GenError::MissingTable`] when a successor's table is absent.
pub fn one_ply(pos: &Position, tables: &SubTables) -> Result<[Value; 2], GenError> {
    let material = Material::of(pos);
    let mut best = Ok([Value::Loss(0); 2]);
    pos.for_each_outcome(|_, outcome| {
        let Ok([dtm, dtc]) = best else { return };
        let values = match outcome {
            Outcome::Over { result, .. } => Ok([result.of_final_move(); 2]),
            Outcome::Ongoing(next) => {
                // On the stack, as many as a position can hold (each animal once a colour):
                // this runs for every move of every entry.
                const MOST: usize = Color::ALL.len() * Animal::ALL.len();
                let mut buf = [(Piece::new(Color::Red, Animal::Rat), Square::new(0, 0)); MOST];
                let mut n = 0;
                for placed in next.pieces() {
                    buf[n] = placed;
                    n += 1;
                }
                let placed = &buf[..n];
                if Material::of(&next) == material {
                    tables
                        .values(next.turn(), placed)
                        .map(|v| v.map(Value::back_one_ply))
                } else {
                    tables.exit_values(next.turn(), placed)
                }
            }
        };
        best = values.map(|[m, c]| [dtm.max(m), dtc.max(c)]);
    });
    best
}

/// The index space of `layout` as ranges of consecutive entries, in parallel: walk each with
/// [`Layout::for_each_used_entry_in`]. No list of used entries is built (for a 5-piece table
/// that list alone would take more than a gigabyte).
pub fn entry_ranges(layout: &Layout) -> impl IndexedParallelIterator<Item = Range<usize>> {
    const RANGE: usize = 1 << 14;
    let len = layout.len();
    (0..len.div_ceil(RANGE))
        .into_par_iter()
        .map(move |i| i * RANGE..((i + 1) * RANGE).min(len))
}

/// Checks every used entry of `table` against its successors, in both metrics, and its DTC
/// against its plain value; `tables` must hold `table` itself and the tables its captures lead
/// into. Returns the mismatches, at most `limit`.
///
/// # Errors
/// [`GenError::MissingTable`] when a successor's table is absent.
pub fn verify_table(
    table: &Solved,
    tables: &SubTables,
    limit: usize,
) -> Result<Vec<Mismatch>, GenError> {
    let layout = &table.layout;
    let mismatches: Vec<Mismatch> = entry_ranges(layout)
        .map(|range| -> Result<Vec<Mismatch>, GenError> {
            let mut out = Vec::new();
            let mut failed = None;
            layout.for_each_used_entry_in(range, |idx, _| {
                if failed.is_some() {
                    return;
                }
                let pos = layout.position(idx).expect("used entry");
                let mut report = |check, stored, computed| {
                    if out.len() < limit {
                        out.push(Mismatch {
                            position: pos.to_string(),
                            check,
                            stored,
                            computed,
                        });
                    }
                };
                let computed = match one_ply(&pos, tables) {
                    Ok(computed) => computed,
                    Err(e) => {
                        failed = Some(e);
                        return;
                    }
                };
                for (metric, computed) in [Metric::Dtm, Metric::Dtc].into_iter().zip(computed) {
                    let stored = table.value_in(metric, idx);
                    if stored != computed {
                        report(Check::OnePly(metric), stored, computed);
                    }
                }
                let (dtc, plain) = (table.dtc(idx), table.value(idx));
                if dtc != Value::Draw && dtc.wdl() != plain.wdl() {
                    report(Check::DtcImpliesPlain, dtc, plain);
                }
            });
            failed.map_or(Ok(out), Err)
        })
        .collect::<Result<Vec<_>, _>>()?
        .into_iter()
        .flatten()
        .take(limit)
        .collect();
    Ok(mismatches)
}
