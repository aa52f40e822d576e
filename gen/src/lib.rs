//! Retrograde generation of Jungle and flip-game endgame tables.
//!
//! [`solve`] solves one material, given the smaller tables its captures lead into
//! ([`SubTables`]); values and distances follow RULES.md section 3 exactly.

#![warn(missing_docs)]

mod bits;
pub mod plan;
mod solve;
mod tables;

use std::{error::Error, fmt};

use jtb_probe::Material;

pub use crate::{
    solve::solve,
    tables::{Solved, SubTables},
};

/// Solves `targets` and every table they need, in memory, on all threads: tables of one piece
/// count in parallel.
///
/// # Errors
/// The first [`GenError`] of any table.
pub fn solve_all(rules: jtb_probe::RuleSet, targets: &[Material]) -> Result<SubTables, GenError> {
    use rayon::prelude::*;
    let mut done = SubTables::new();
    for group in plan::closure(rules, targets) {
        let solved: Vec<Solved> = group
            .par_iter()
            .filter(|m| !done.contains(**m))
            .map(|&m| solve(rules, m, &done))
            .collect::<Result<_, _>>()?;
        for s in solved {
            done.insert(std::sync::Arc::new(s));
        }
    }
    Ok(done)
}

/// What can stop a generation.
#[derive(Debug)]
pub enum GenError {
    /// A smaller table that captures lead into has not been generated.
    MissingTable(Material),
    /// A distance does not fit the generator's counters.
    DistanceOverflow(Material, u32),
}

impl fmt::Display for GenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GenError::MissingTable(m) => {
                write!(f, "table {m} is needed first (captures lead into it)")
            }
            GenError::DistanceOverflow(m, d) => {
                write!(
                    f,
                    "table {m}: distance {d} is beyond what the generator counts"
                )
            }
        }
    }
}

impl Error for GenError {}
