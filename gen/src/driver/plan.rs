//! The plan every game's generation makes before it solves anything: the tables the targets
//! need, grouped in the order they can be solved; which are on disk and intact (kept), which
//! damaged (made again); with `only_targets` (one task of a plan), whether the tables the
//! targets need are all there; and whether each table to solve fits the memory limit. A plan
//! refused writes nothing.

use std::{
    collections::BTreeSet,
    fmt::{Debug, Display},
    path::PathBuf,
};

use super::{Progress, Summary};

/// A table of a plan of independent tasks (`jtb plan`), of any game: its name, its piece count
/// (tiles, for a flip-game chance table), the file whose presence marks it done (its WDL file,
/// written last; a chance table's one file), and the tables it needs, each by name and that
/// file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Task {
    /// The table's name (its material).
    pub material: String,
    /// Its pieces (tiles).
    pub pieces: usize,
    /// The file written last.
    pub file: PathBuf,
    /// The tables solving it reads: name and the file written last.
    pub needs: Vec<(String, PathBuf)>,
}

/// `items` in their order, cut into levels where `key` changes: a game's closure, sorted by what
/// its levels share (a piece count), as the levels of its plan.
pub fn levels_by<T, K: PartialEq>(
    items: impl IntoIterator<Item = T>,
    key: impl Fn(&T) -> K,
) -> Vec<Vec<T>> {
    let mut levels: Vec<Vec<T>> = Vec::new();
    for item in items {
        match levels.last_mut() {
            Some(level) if key(&level[0]) == key(&item) => level.push(item),
            _ => levels.push(vec![item]),
        }
    }
    levels
}

/// One game's tables, as the plan sees them.
pub trait Tables: Sync {
    /// A table's name.
    type Table: Copy + Ord + Debug + Display + Send + Sync + 'static;
    /// What checking a complete table gives (its contents, where the game reads them whole to
    /// check them).
    type Kept: Send;
    /// Why a table on disk cannot be kept.
    type Why: Debug + Display + 'static;

    /// The table a name stands for (names of either orientation name one table).
    fn table_of(&self, name: Self::Table) -> Self::Table;
    /// `targets` and every table they need, in groups: a group's tables need only those of
    /// earlier groups.
    fn closure(&self, targets: &[Self::Table]) -> Vec<Vec<Self::Table>>;
    /// The tables solving `table` reads.
    fn needs(&self, table: Self::Table) -> Vec<Self::Table>;
    /// A table's entries.
    fn entries(&self, table: Self::Table) -> u64;
    /// An estimate, from above, of the bytes solving `table` takes (`None`: the game has none).
    fn memory_estimate(&self, table: Self::Table) -> Option<u64>;
    /// The table on disk: complete and intact (`Some`), absent (`None`).
    ///
    /// # Errors
    /// Present but damaged, foreign or incomplete.
    fn check(&self, table: Self::Table) -> Result<Option<Self::Kept>, Self::Why>;
}

/// What a generation is to do.
pub struct Plan<G: Tables> {
    /// The tables to solve, in groups (a group's tables need only those of earlier groups or
    /// on disk).
    pub todo: Vec<Vec<G::Table>>,
    /// The tables of the plan found complete, with what checking them gave.
    pub kept: Vec<(G::Table, G::Kept)>,
    /// With `only_targets`: the tables the targets need (outside the plan), found complete,
    /// with what checking them gave.
    pub needed: Vec<(G::Table, G::Kept)>,
}

/// Why a plan is refused before anything is written.
#[derive(Debug)]
pub enum Refused<T, W> {
    /// Generating only the targets, tables they need are absent (`None`) or unusable.
    Needed(Vec<(T, Option<W>)>),
    /// A table needs more memory than allowed.
    TooLarge {
        /// The table.
        table: T,
        /// Estimated bytes.
        need: u64,
        /// Bytes allowed.
        limit: u64,
    },
}

/// The tables that `targets` need, other than the targets themselves: those complete (with
/// what checking them gave), and those missing (`None`) or unusable.
#[allow(clippy::type_complexity)]
pub(super) fn check_needed<G: Tables>(
    game: &G,
    targets: &[G::Table],
) -> (Vec<(G::Table, G::Kept)>, Vec<(G::Table, Option<G::Why>)>) {
    let targets: BTreeSet<G::Table> = targets.iter().map(|&t| game.table_of(t)).collect();
    let needed: BTreeSet<G::Table> = targets
        .iter()
        .flat_map(|&t| game.needs(t))
        .filter(|t| !targets.contains(t))
        .collect();
    let (mut complete, mut problems) = (Vec::new(), Vec::new());
    for t in needed {
        match game.check(t) {
            Ok(Some(kept)) => complete.push((t, kept)),
            Ok(None) => problems.push((t, None)),
            Err(why) => problems.push((t, Some(why))),
        }
    }
    (complete, problems)
}

/// Plans the generation of `targets` (with every table they need, or with `only_targets` the
/// targets alone, the others having to be there): reports a damaged table as it is found, then
/// the plan, then each table kept, and adds the kept ones to `summary`.
///
/// # Errors
/// [`Refused`]: tables the targets need are not there (`only_targets`), or a table to solve
/// needs more than `memory_limit` bytes.
pub fn plan<G: Tables>(
    game: &G,
    targets: &[G::Table],
    only_targets: bool,
    memory_limit: u64,
    progress: &dyn Progress<G::Table>,
    summary: &mut Summary<G::Table>,
) -> Result<Plan<G>, Refused<G::Table, G::Why>> {
    let mut groups = game.closure(targets);
    let mut needed = Vec::new();
    if only_targets {
        let (complete, problems) = check_needed(game, targets);
        if !problems.is_empty() {
            return Err(Refused::Needed(problems));
        }
        needed = complete;
        let targets: BTreeSet<G::Table> = targets.iter().map(|&t| game.table_of(t)).collect();
        for group in &mut groups {
            group.retain(|t| targets.contains(t));
        }
        groups.retain(|g| !g.is_empty());
    }
    let mut plan = Plan {
        todo: Vec::new(),
        kept: Vec::new(),
        needed,
    };
    let mut entries = 0;
    for group in &groups {
        let mut missing = Vec::new();
        for &t in group {
            match game.check(t) {
                Ok(Some(kept)) => plan.kept.push((t, kept)),
                Ok(None) => missing.push(t),
                Err(why) => {
                    progress.replacing(t, &why.to_string());
                    missing.push(t);
                }
            }
        }
        entries += missing.iter().map(|&t| game.entries(t)).sum::<u64>();
        plan.todo.push(missing);
    }
    for &t in plan.todo.iter().flatten() {
        if let Some(need) = game.memory_estimate(t).filter(|&n| n > memory_limit) {
            return Err(Refused::TooLarge {
                table: t,
                need,
                limit: memory_limit,
            });
        }
    }
    progress.planned(groups.iter().map(Vec::len).sum(), entries);
    for (t, _) in &plan.kept {
        progress.kept(*t);
        summary.kept.push(*t);
    }
    Ok(plan)
}
