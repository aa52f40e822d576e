//! Retrograde generation of endgame tables of Jungle, the Mistboard flip game, Clesto and
//! Animal Gambit.
//!
//! [`solve`] solves one material, given the smaller tables its captures lead into
//! ([`SubTables`]): values with their distance to mate (RULES.md section 3) and distance to
//! conversion under the clock rule (section 5), exactly. [`solve_all`] does a
//! whole closure in memory; [`run::generate`] writes files (resumable), [`verify`] checks tables
//! one ply deep, and [`dead_draw`] builds the flip game's built-in one-each table.
//! [`targets`] makes or plans the tables of any game named at run time: what `jtb gen`, `jtb
//! plan` and the Python package call.
//!
//! ```
//! use jtb_gen::solve_all;
//! use jtb_probe::{Material, Position, RuleSet, Value};
//!
//! let lve: Material = "LvE".parse()?;
//! let tables = solve_all(RuleSet::Mistboard, &[lve])?;
//! let pos: Position = "7/7/7/7/7/3l3/7/3E3/7 r".parse()?;
//! assert_eq!(tables.value_of_position(&pos)?, Value::Win(17));
//! # Ok::<_, Box<dyn std::error::Error>>(())
//! ```
//!
//! # Errors
//! Everything that can stop a generation is a [`GenError`].

#![warn(missing_docs)]

pub mod clesto;
mod core;
pub mod driver;
mod flip;
pub mod gambit;
mod jungle;
pub mod targets;

// Each module's path in the crate: what every game's solver shares, and each game's folder.
use self::jungle::{bits, solve, tables};
pub use self::{
    core::graph,
    flip::{chance, dead_draw, dte},
    jungle::{codes, game, plan, run, verify, write},
};

use std::{error::Error, fmt};

use jtb_probe::{flip::ChanceMaterial, Material};

pub use crate::{
    codes::Codes,
    solve::solve,
    tables::{Metric, Solved, SubTables, UNUSED},
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
        let group: Vec<Material> = group.into_iter().filter(|&m| !done.contains(m)).collect();
        let solved: Vec<[Option<Solved>; 2]> = plan::with_flips(rules, &group)
            .par_iter()
            .map(|&(m, flip)| {
                let first = solve(rules, m, &done)?;
                let second = flip
                    .map(|_| game::game_of(rules).solve_flip_of(&first, &done))
                    .transpose()?;
                Ok([Some(first), second])
            })
            .collect::<Result<_, GenError>>()?;
        for s in solved.into_iter().flatten().flatten() {
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
    /// A table needs more memory than allowed.
    TooLarge {
        /// The table.
        material: Material,
        /// Estimated bytes.
        need: u64,
        /// Bytes allowed.
        limit: u64,
    },
    /// Writing failed (full disk, missing directory, permissions).
    Io(std::io::Error),
    /// A table file could not be read back.
    Table(jtb_probe::TableError),
    /// Generating only the targets, smaller tables they need are absent (`None`) or unusable.
    NeededTables(Vec<(Material, Option<run::Unusable>)>),
    /// A table a chance table leads into could not be probed (missing or damaged).
    Probe(Box<jtb_probe::ProbeError>),
    /// The chance tables' plan refused: the smaller chance tables the targets need are missing
    /// or damaged (generating only the targets), or a table needs more memory than allowed.
    ChancePlan(driver::Refused<ChanceMaterial, jtb_probe::TableError>),
    /// An Animal Gambit generation stopped.
    Gambit(gambit::GambitError),
}

impl From<gambit::GambitError> for GenError {
    fn from(e: gambit::GambitError) -> GenError {
        GenError::Gambit(e)
    }
}

impl From<std::io::Error> for GenError {
    fn from(e: std::io::Error) -> GenError {
        GenError::Io(e)
    }
}

impl From<jtb_probe::TableError> for GenError {
    fn from(e: jtb_probe::TableError) -> GenError {
        GenError::Table(e)
    }
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
            GenError::TooLarge {
                material,
                need,
                limit,
            } => write_too_large(f, material, *need, *limit, MEMORY_LIMIT_BY),
            GenError::Io(e) => write!(f, "{e}"),
            GenError::Table(e) => write!(f, "{e}"),
            GenError::NeededTables(tables) => write_needed_tables(f, tables),
            GenError::Probe(e) => write!(f, "{e}"),
            GenError::ChancePlan(driver::Refused::Needed(tables)) => write_needed_tables(f, tables),
            GenError::ChancePlan(driver::Refused::TooLarge { table, need, limit }) => {
                write_too_large(f, table, *need, *limit, MEMORY_LIMIT_BY)
            }
            GenError::Gambit(e) => e.fmt(f),
        }
    }
}

impl Error for GenError {
    fn source(&self) -> Option<&(dyn Error + 'static)> {
        match self {
            GenError::Io(e) => Some(e),
            GenError::Table(e) => Some(e),
            GenError::Probe(e) => Some(e.as_ref()),
            GenError::Gambit(e) => e.source(),
            _ => None,
        }
    }
}

/// What sets a generation's memory limit, as its refusal says it.
const MEMORY_LIMIT_BY: &str = "by --memory-limit, or the memory available: the machine's, its \
                               control group's, or the Slurm job's --mem";

/// That `table` needs `need` bytes of memory, more than the `limit` allowed (`by`: what set it).
/// One wording for every game's generation and `jtb verify`.
pub(crate) fn write_too_large(
    f: &mut fmt::Formatter<'_>,
    table: impl fmt::Display,
    need: u64,
    limit: u64,
    by: &str,
) -> fmt::Result {
    write!(
        f,
        "table {table} needs about {} MiB of memory, more than the {} MiB allowed ({by})",
        need >> 20,
        limit >> 20
    )
}

/// Names each table a generation needs and cannot use: missing (`None`) or unusable, and why.
/// One wording for every game's generator.
pub(crate) fn write_needed_tables<M: fmt::Display, W: fmt::Display>(
    f: &mut fmt::Formatter<'_>,
    tables: &[(M, Option<W>)],
) -> fmt::Result {
    write!(f, "the tables it needs must be generated first:")?;
    write_table_problems(f, tables)
}

/// Each table of `tables` as missing (`None`) or unusable and why, `; ` between them: one
/// wording for the generator and `jtb verify`.
pub(crate) fn write_table_problems<M: fmt::Display, W: fmt::Display>(
    f: &mut fmt::Formatter<'_>,
    tables: &[(M, Option<W>)],
) -> fmt::Result {
    for (i, (m, why)) in tables.iter().enumerate() {
        let sep = if i == 0 { "" } else { ";" };
        match why {
            None => write!(f, "{sep} {m} is missing")?,
            Some(why) => write!(f, "{sep} {m} is unusable ({why})")?,
        }
    }
    Ok(())
}
