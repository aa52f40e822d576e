//! One-ply verification: every entry equals the best of its successors.

use jtb_probe::{Outcome, Position, Value};
use rayon::prelude::*;

use crate::{write::for_each_used_entry, GenError, Solved, SubTables};

/// An entry that disagrees with its successors.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mismatch {
    /// The position, as text.
    pub position: String,
    /// The value stored in the table.
    pub stored: Value,
    /// The value its successors give.
    pub computed: Value,
}

/// The value of `pos` from its successors' values in `tables` (which must hold `pos`'s own
/// table and every table its captures lead into).
///
/// # Errors
/// [`GenError::MissingTable`] when a successor's table is absent.
pub fn one_ply(pos: &Position, tables: &SubTables) -> Result<Value, GenError> {
    let mut best = Ok(Value::Loss(0));
    pos.for_each_outcome(|_, outcome| {
        let Ok(so_far) = best else { return };
        let v = match outcome {
            Outcome::Over { result, .. } => Ok(result.of_final_move()),
            Outcome::Ongoing(next) => tables.value_of_position(&next).map(Value::back_one_ply),
        };
        best = v.map(|v| so_far.max(v));
    });
    best
}

/// Checks every used entry of `table` against its successors; `tables` must hold `table`
/// itself and the tables its captures lead into. Returns the mismatches, at most `limit`.
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
    for_each_used_entry(layout, |idx, _| used.push(idx as u32));
    let mismatches: Vec<Mismatch> = used
        .par_chunks(4096)
        .map(|chunk| -> Result<Vec<Mismatch>, GenError> {
            let mut out = Vec::new();
            for &idx in chunk {
                let pos = layout.position(idx as usize).expect("used entry");
                let stored = table.value(idx as usize);
                let computed = one_ply(&pos, tables)?;
                if stored != computed && out.len() < limit {
                    out.push(Mismatch {
                        position: pos.to_string(),
                        stored,
                        computed,
                    });
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
