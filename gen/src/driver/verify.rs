//! What `jtb verify` does with a table of any game once its checksums passed, written once: the
//! tables it reads must be there and intact, the check must fit in memory, then the game checks
//! every entry one ply deep ([`Verify::check_entries`]).

use std::fmt::{self, Display};

use super::plan::{check_needed, Tables};
use crate::run::available_memory;

/// Why a table could not be read for its check: the game's own error.
pub type Failure = Box<dyn std::error::Error + Send + Sync>;

/// A game whose tables are checked one ply deep, on top of what its generation plan knows of
/// them ([`Tables`]: what a table reads, and how a table on disk is checked).
pub trait Verify: Tables {
    /// What each entry of `table` is checked against, as the report says it (`their turns`).
    fn checked_against(&self, table: Self::Table) -> &'static str;

    /// An estimate from above of the bytes checking `table` takes (`None`: the game has none).
    ///
    /// # Errors
    /// Reading the table's headers failed.
    fn verify_memory(&self, table: Self::Table) -> Result<Option<u64>, Failure>;

    /// Checks every entry of `table` one ply deep against the best of its moves, the tables it
    /// reads being there and intact (`needed`: each with what checking it on disk gave).
    ///
    /// # Errors
    /// Reading the table failed.
    fn check_entries(
        &self,
        table: Self::Table,
        needed: Vec<(Self::Table, Self::Kept)>,
        limit: usize,
    ) -> Result<Checked, Failure>;
}

/// What the one-ply check of a table found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Checked {
    /// The entries checked.
    pub entries: u64,
    /// Each entry found wrong (up to the limit asked for), as a line naming the file, the
    /// position, what is stored and what the moves give.
    pub failures: Vec<String>,
}

/// Why a table gets no verdict.
#[derive(Debug)]
pub enum Unchecked<T, W> {
    /// Tables it reads are missing (`None`) or unusable.
    Needs {
        /// The table to verify.
        table: T,
        /// Each table it needs that is missing or unusable, and why.
        problems: Vec<(T, Option<W>)>,
    },
    /// Checking it would take more memory than this process may use.
    TooLarge {
        /// The table to verify.
        table: T,
        /// The estimate, in bytes.
        need: u64,
        /// The memory available, in bytes.
        limit: u64,
    },
    /// The table itself could not be read.
    Failed(Failure),
}

impl<T: Display, W: Display> Display for Unchecked<T, W> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Unchecked::Needs { table, problems } => {
                write!(f, "cannot verify {table}: the tables it needs:")?;
                crate::write_table_problems(f, problems)
            }
            Unchecked::TooLarge { table, need, limit } => {
                write!(f, "cannot verify {table}: ")?;
                let by = "the memory available: the machine's, its control group's, or the \
                          Slurm job's --mem";
                crate::write_too_large(f, table, *need, *limit, by)
            }
            Unchecked::Failed(e) => write!(f, "{e}"),
        }
    }
}

impl<T: fmt::Debug + Display, W: fmt::Debug + Display> std::error::Error for Unchecked<T, W> {}

/// Checks `table` one ply deep, after its needs and the memory it takes (at most `limit`
/// failures are listed).
///
/// # Errors
/// [`Unchecked`]: the tables it needs are missing or unusable, it does not fit in memory, or it
/// could not be read.
pub fn verify<G: Verify>(
    game: &G,
    table: G::Table,
    limit: usize,
) -> Result<Checked, Unchecked<G::Table, G::Why>> {
    let table = game.table_of(table);
    // Every table it needs must be there and intact (checksums included) before anything is
    // checked: a verdict on the table needs them all.
    let (needed, problems) = check_needed(game, &[table]);
    if !problems.is_empty() {
        return Err(Unchecked::Needs { table, problems });
    }
    if let Some(need) = game.verify_memory(table).map_err(Unchecked::Failed)? {
        let available = available_memory().unwrap_or(u64::MAX);
        if need > available {
            return Err(Unchecked::TooLarge {
                table,
                need,
                limit: available,
            });
        }
    }
    game.check_entries(table, needed, limit)
        .map_err(Unchecked::Failed)
}
