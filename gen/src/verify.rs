//! One-ply verification: every entry equals the best of its successors, in both metrics, and
//! every win or loss under the clock rule is a plain win or loss.

use jtb_probe::{Material, Outcome, Piece, Position, Square, Value};
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

/// The value of `pos` in `metric` from its successors' values in `tables` (which must hold
/// `pos`'s own table and every table its captures lead into).
///
/// # Errors
/// [`GenError::MissingTable`] when a successor's table is absent.
pub fn one_ply(pos: &Position, tables: &SubTables, metric: Metric) -> Result<Value, GenError> {
    let material = Material::of(pos);
    let mut best = Ok(Value::Loss(0));
    pos.for_each_outcome(|_, outcome| {
        let Ok(so_far) = best else { return };
        let v = match outcome {
            Outcome::Over { result, .. } => Ok(result.of_final_move()),
            Outcome::Ongoing(next) => {
                let placed: Vec<(Piece, Square)> = next.pieces().collect();
                if Material::of(&next) == material {
                    tables
                        .value_in(metric, next.turn(), &placed)
                        .map(Value::back_one_ply)
                } else {
                    tables.exit_value(metric, next.turn(), &placed)
                }
            }
        };
        best = v.map(|v| so_far.max(v));
    });
    best
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
    let mut used = Vec::new();
    layout.for_each_used_entry(|idx, _| used.push(idx as u32));
    let mismatches: Vec<Mismatch> = used
        .par_chunks(4096)
        .map(|chunk| -> Result<Vec<Mismatch>, GenError> {
            let mut out = Vec::new();
            for &idx in chunk {
                let idx = idx as usize;
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
                for metric in [Metric::Dtm, Metric::Dtc] {
                    let stored = table.value_in(metric, idx);
                    let computed = one_ply(&pos, tables, metric)?;
                    if stored != computed {
                        report(Check::OnePly(metric), stored, computed);
                    }
                }
                let (dtc, plain) = (table.dtc(idx), table.value(idx));
                if dtc != Value::Draw && dtc.wdl() != plain.wdl() {
                    report(Check::DtcImpliesPlain, dtc, plain);
                }
            }
            Ok(out)
        })
        .collect::<Result<Vec<_>, _>>()?
        .into_iter()
        .flatten()
        .take(limit)
        .collect();
    Ok(mismatches)
}
