//! A Jungle-family generation: its plan's view of the tables on disk, and its solver (a piece
//! count at a time, in parallel), run by [`crate::driver::run`].

use std::{
    collections::{BTreeSet, HashMap},
    path::{Path, PathBuf},
    sync::Arc,
};

use jtb_probe::{
    format::{table_path, Encoding},
    Kind, Layout, Material, RuleSet, TableFile, Value,
};
use rayon::prelude::*;

use crate::{
    driver::{self, Made, Out, Progress, Refused, Tables},
    game::game_of,
    plan, write, Codes, GenError, Metric, Solved, SubTables,
};

/// What to generate.
#[derive(Debug, Clone)]
pub struct GenOptions {
    /// The rule set.
    pub rules: RuleSet,
    /// The tables asked for (either orientation); the tables they need come first.
    pub targets: Vec<Material>,
    /// The table root directory (files go to `out/<rules>/`).
    pub out: PathBuf,
    /// Bytes of memory the generation may use; a table whose estimate exceeds it is refused.
    pub memory_limit: u64,
    /// Generate the targets only: the smaller tables they need must be present and intact, or
    /// the generation fails naming them before it writes anything (one task of a plan).
    pub only_targets: bool,
}

/// Why a table on disk cannot be kept.
#[derive(Debug)]
pub enum Unusable {
    /// Some of its files are there, these are not.
    Missing(Vec<Kind>),
    /// A file is damaged, foreign or of another table.
    Damaged(jtb_probe::TableError),
}

impl std::fmt::Display for Unusable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Unusable::Missing(kinds) => {
                let names: Vec<&str> = kinds.iter().map(|k| k.extension()).collect();
                write!(f, "its .{} file is missing", names.join(" and ."))
            }
            Unusable::Damaged(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for Unusable {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Unusable::Missing(_) => None,
            Unusable::Damaged(e) => Some(e),
        }
    }
}

/// Whether every file of a table (DTC, DTM, WDL) is present and intact (checksums included).
/// `Ok(false)` when none is present.
///
/// # Errors
/// [`Unusable`] when some file is absent, or present but damaged or foreign.
pub fn check_table(root: &Path, rules: RuleSet, material: Material) -> Result<bool, Unusable> {
    let mut absent = Vec::new();
    for kind in rules.table_kinds() {
        let path = table_path(root, rules, material, kind);
        if !path.exists() {
            absent.push(kind);
            continue;
        }
        TableFile::open_expecting(&path, rules, material, kind)
            .and_then(|file| file.verify_checksum())
            .map_err(Unusable::Damaged)?;
    }
    match absent.len() {
        0 => Ok(true),
        n if n == rules.table_kinds().len() => Ok(false),
        _ => Err(Unusable::Missing(absent)),
    }
}

/// Reads a table's DTM and DTC files back into memory.
///
/// # Errors
/// [`GenError::Table`] for an unreadable or corrupted file.
pub fn load(root: &Path, rules: RuleSet, material: Material) -> Result<Solved, GenError> {
    let layout = Layout::new(rules, material);
    let codes = load_codes(root, &layout, Kind::Dtm)?;
    let second_codes = load_codes(root, &layout, rules.second_kind())?;
    Ok(Solved {
        layout,
        codes,
        second_codes,
    })
}

/// The value codes of a table's DTM or DTC file.
fn load_codes(root: &Path, layout: &Layout, kind: Kind) -> Result<Codes, GenError> {
    let (rules, material) = (layout.rules(), layout.material());
    let path = table_path(root, rules, material, kind);
    // The file's entries are the layout's: `open_expecting` checks the count.
    let file = TableFile::open_expecting(&path, rules, material, kind)?;
    // The blocks decode in parallel, each into its own run of entries.
    let per = file.header().block_entries as usize;
    let codes = Codes::try_from_runs(layout.len(), per, |b, out| {
        let block = file.block(b as u32)?;
        file.for_each_code(&block, |code| out.push(code))
    })?;
    Ok(codes)
}

/// The bytes the smaller tables that `material`'s captures lead into take once loaded (a
/// byte a code, both metrics).
fn sub_table_bytes(rules: RuleSet, material: Material) -> u64 {
    plan::successors(rules, material)
        .into_iter()
        .map(|m| Layout::new(rules, m).len() as u64 * CODE_BYTES_LOADED)
        .sum()
}

/// Bytes a loaded table takes an entry: a byte a code, of both metrics ([`Codes`]).
const CODE_BYTES_LOADED: u64 = 2;

/// Room for codes past a byte (wins and losses longer than [`Codes::NARROW_PLIES`] plies):
/// one entry in this many, per metric. The sampled 5-piece table with the most, `EDRvPR`, has
/// one in 71 in its distance to mate.
const WIDE_SHARE: u64 = 64;

/// An estimate, from above, of the bytes needed to solve and write `material` with its smaller
/// tables loaded ([`crate::game::FamilyGame::solve_bytes`] and the smaller tables).
#[must_use]
pub fn memory_estimate(rules: RuleSet, material: Material) -> u64 {
    game_of(rules).solve_bytes(rules, material) + sub_table_bytes(rules, material)
}

/// The bytes needed to solve and write a Jungle or flip table of `layout`, its smaller tables
/// aside: the largest 5-piece tables (both rats) are estimated at 2,002 MiB with them; `ECRvCR`
/// peaks at 1,824 MiB, `EDRvPR` (codes past a byte) at 1,936 MiB.
///
/// A large table solves its metrics in turn: the peak is the distance-to-mate solve (its
/// capture distances and codes, both metrics' capture masks) or the distance-to-conversion
/// solve (the codes of both metrics), whichever is larger. A table that solves both at once
/// (under 2^24 entries) holds both at once.
pub(crate) fn plain_solve_bytes(layout: &Layout) -> u64 {
    /// Words of 8 bytes per configuration and side to move: the side's state (open, not won),
    /// the capture masks (2 of distance to mate, 3 of distance to conversion), two levels'
    /// lists of what was found (12 bytes a configuration that wins or loses, 8 where a capture
    /// comes due: in `ECRvCR` at most 0.9 of the configurations a level), and the frame's and
    /// frontier's share (legal squares, mirror images, pushed wins, the level's tasks).
    const WORDS: u64 = 2 + 5 + 3 + 3;
    /// The distance-to-mate capture masks' share of [`WORDS`], dropped with its solve.
    const DTM_MASK_WORDS: u64 = 2;
    let k = layout.pieces().len();
    // Configurations per side, and entries.
    let configs = (layout.side_len() / layout.domain(k - 1).len()) as u64;
    let entries = layout.len() as u64;
    let words = |w: u64| 2 * configs * 8 * w;
    // Per position slot (64 a configuration), per side: one byte of capture distance.
    let capture_distances = 2 * configs * 64;
    let codes = entries + entries / WIDE_SHARE * Codes::WIDE_BYTES;
    // The files take under a quarter of a byte an entry, compressed.
    let writer = entries / 4;
    let dtm_solve = words(WORDS) + capture_distances + codes;
    let dtc_solve = words(WORDS - DTM_MASK_WORDS) + 2 * codes + writer;
    let solve = if layout.len() <= crate::solve::BOTH_METRICS_AT_ONCE {
        dtm_solve + dtc_solve
    } else {
        dtm_solve.max(dtc_solve)
    };
    solve + PROCESS_BYTES
}

/// The process beside its tables: the program, thread stacks, buffers of the file reader.
pub(crate) const PROCESS_BYTES: u64 = 32 << 20;

/// An estimate, from above, of the bytes `jtb verify` needs for `material`: the table and the
/// smaller tables its captures lead into, loaded a byte a code. `wide_files` is how many of
/// the table's DTM and DTC files hold two bytes a code (some distance past
/// [`Codes::NARROW_PLIES`]): each is given room for one entry in 8 past a byte (the sampled
/// table with the most, `EDRvPR`, has about one in 20). `ECRvCR` (one byte a code): 1,105 MiB
/// estimated, 1,052 MiB measured; `EDRvPR`: 2,030 MiB estimated, 1,239 MiB measured.
#[must_use]
pub fn verify_memory_estimate(rules: RuleSet, material: Material, wide_files: u64) -> u64 {
    let entries = Layout::new(rules, material).len() as u64;
    let wide = wide_files * (entries / 8) * Codes::WIDE_BYTES;
    let codes = entries * CODE_BYTES_LOADED + wide;
    codes + sub_table_bytes(rules, material) + PROCESS_BYTES
}

/// The memory this process may use: the least of what the machine has available
/// (`/proc/meminfo`), its control group's limit (cgroup v2 `memory.max`, or v1), and a Slurm
/// job's memory (`SLURM_MEM_PER_NODE`, or `SLURM_MEM_PER_CPU` times the task's CPUs), so that
/// a task that would run out of its allocation is refused before it starts, not killed.
/// `None` where none of them is known.
#[must_use]
pub fn available_memory() -> Option<u64> {
    [meminfo_available(), cgroup_limit(), slurm_limit()]
        .into_iter()
        .flatten()
        .min()
}

fn meminfo_available() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = text.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

/// The memory limit of this process's control group, if it has one.
fn cgroup_limit() -> Option<u64> {
    let groups = std::fs::read_to_string("/proc/self/cgroup").ok()?;
    groups.lines().find_map(|line| {
        let mut parts = line.splitn(3, ':');
        let (_, controllers, path) = (parts.next()?, parts.next()?, parts.next()?);
        let path = path.trim_start_matches('/');
        let file = if controllers.is_empty() {
            Path::new("/sys/fs/cgroup").join(path).join("memory.max")
        } else if controllers.split(',').any(|c| c == "memory") {
            Path::new("/sys/fs/cgroup/memory")
                .join(path)
                .join("memory.limit_in_bytes")
        } else {
            return None;
        };
        // "max", or v1's "no limit" (a number near 2^63), is no limit.
        let limit: u64 = std::fs::read_to_string(file).ok()?.trim().parse().ok()?;
        (limit < 1 << 62).then_some(limit)
    })
}

/// The memory of the Slurm job this process runs in, if it asked for some (MiB in the
/// environment).
fn slurm_limit() -> Option<u64> {
    let mib = |name: &str| std::env::var(name).ok()?.parse::<u64>().ok();
    let limit = mib("SLURM_MEM_PER_NODE").or_else(|| {
        let cpus = mib("SLURM_CPUS_PER_TASK").unwrap_or(1);
        Some(mib("SLURM_MEM_PER_CPU")? * cpus)
    })?;
    Some(limit).filter(|&l| l > 0)?.checked_mul(1 << 20)
}

/// Generates the tables of `opts` and everything they need, skipping tables already complete.
///
/// # Errors
/// The first [`GenError`]: I/O (full disk, missing permissions), a table too large for the
/// memory limit, or a corrupted smaller table that cannot be read.
pub fn generate(opts: &GenOptions, progress: &dyn Progress<Material>) -> Result<Summary, GenError> {
    let rules = opts.rules;
    let mut summary = Summary::default();
    let family = Family {
        root: &opts.out,
        rules,
    };
    let todo = driver::plan(
        &family,
        &opts.targets,
        opts.only_targets,
        opts.memory_limit,
        progress,
        &mut summary,
    )?
    .todo;
    let mut solver = FamilySolver {
        root: &opts.out,
        rules,
        solved_here: HashMap::new(),
    };
    driver::run(&mut solver, &todo, progress, &mut summary)?;
    Ok(summary)
}

/// What a Jungle-family generation did.
pub type Summary = crate::driver::Summary<Material>;

/// The Jungle family's solver, group by group: the tables of one piece count in parallel, from
/// the smaller tables of this run (kept in memory while a later group captures into them) or
/// on disk.
struct FamilySolver<'a> {
    root: &'a Path,
    rules: RuleSet,
    solved_here: HashMap<Material, Arc<Solved>>,
}

impl driver::Solver for FamilySolver<'_> {
    type Table = Material;
    type Error = GenError;

    fn dir(&self) -> PathBuf {
        self.root.join(self.rules.name())
    }

    fn solve_group(
        &mut self,
        group: &[Material],
        later: &[Vec<Material>],
        out: &Out<'_, Material>,
    ) -> Result<(), GenError> {
        let rules = self.rules;
        // The smaller tables these captures lead into, from this run or from disk.
        let mut subs = SubTables::new();
        let needed: BTreeSet<Material> = group
            .iter()
            .flat_map(|&m| plan::successors(rules, m))
            .collect();
        for &m in &needed {
            let table = match self.solved_here.get(&m) {
                Some(t) => Arc::clone(t),
                None => Arc::new(load(self.root, rules, m)?),
            };
            subs.insert(table);
        }
        // Only tables that later groups capture into stay in memory.
        let needed_later: BTreeSet<Material> = later
            .iter()
            .flatten()
            .flat_map(|&m| plan::successors(rules, m))
            .collect();
        self.solved_here.retain(|m, _| needed_later.contains(m));
        let keep = |m: Material| needed_later.contains(&m);
        for solved in solve_group(self.root, rules, out, group, &subs, keep)? {
            self.solved_here
                .insert(solved.layout.material(), Arc::new(solved));
        }
        Ok(())
    }
}

/// The tables of one rule set of the Jungle family under a root, as the plan and `jtb verify`
/// see them.
pub struct Family<'a> {
    root: &'a Path,
    rules: RuleSet,
}

impl<'a> Family<'a> {
    /// The tables of `rules` under `root` (in `root/<rules>/`).
    #[must_use]
    pub fn new(root: &'a Path, rules: RuleSet) -> Family<'a> {
        Family { root, rules }
    }
}

impl driver::Verify for Family<'_> {
    fn checked_against(&self, _: Material) -> &'static str {
        game_of(self.rules).checked_against()
    }

    fn verify_memory(&self, m: Material) -> Result<Option<u64>, driver::verify::Failure> {
        let wide_files = [Kind::Dtm, self.rules.second_kind()]
            .into_iter()
            .map(|kind| {
                let path = table_path(self.root, self.rules, m, kind);
                TableFile::open_expecting(&path, self.rules, m, kind)
                    .map(|f| u64::from(f.header().encoding == Encoding::Code16))
            })
            .sum::<Result<u64, _>>()?;
        Ok(Some(verify_memory_estimate(self.rules, m, wide_files)))
    }

    fn check_entries(
        &self,
        m: Material,
        _: Vec<(Material, ())>,
        limit: usize,
    ) -> Result<driver::Checked, driver::verify::Failure> {
        let (root, rules) = (self.root, self.rules);
        let mut tables = SubTables::new();
        let table = load(root, rules, m)?;
        for needs in plan::successors(rules, m) {
            tables.insert(Arc::new(load(root, rules, needs)?));
        }
        let mut failures = Vec::new();
        // The WDL file against the DTM file (in Clesto, against both files' values).
        let path = table_path(root, rules, m, Kind::Wdl);
        let checked = TableFile::open_expecting(&path, rules, m, Kind::Wdl)
            .and_then(|file| crate::verify::check_wdl_file(&table, &file));
        match checked {
            Ok(None) => {}
            Ok(Some(x)) => failures.push(format!(
                "{}: {}: WDL file says {}, DTM file says {}",
                path.display(),
                x.position,
                x.wdl,
                x.plain
            )),
            Err(e) => failures.push(format!("{}: {e}", path.display())),
        }
        let entries = table.codes.len() as u64;
        failures.extend(game_of(rules).one_ply_failures(root, table, tables, limit)?);
        Ok(driver::Checked { entries, failures })
    }
}

impl Tables for Family<'_> {
    type Table = Material;
    type Kept = ();
    type Why = Unusable;

    fn table_of(&self, name: Material) -> Material {
        name.table_of(self.rules)
    }
    fn closure(&self, targets: &[Material]) -> Vec<Vec<Material>> {
        plan::closure(self.rules, targets)
    }
    fn needs(&self, table: Material) -> Vec<Material> {
        plan::successors(self.rules, table)
    }
    fn entries(&self, table: Material) -> u64 {
        Layout::new(self.rules, table).len() as u64
    }
    fn memory_estimate(&self, table: Material) -> Option<u64> {
        Some(memory_estimate(self.rules, table))
    }
    fn check(&self, table: Material) -> Result<Option<()>, Unusable> {
        check_table(self.root, self.rules, table).map(|complete| complete.then_some(()))
    }
}

impl From<Refused<Material, Unusable>> for GenError {
    fn from(refused: Refused<Material, Unusable>) -> GenError {
        match refused {
            Refused::Needed(tables) => GenError::NeededTables(tables),
            Refused::TooLarge { table, need, limit } => GenError::TooLarge {
                material: table,
                need,
                limit,
            },
        }
    }
}

/// Solves and encodes the tables of one piece count, which are independent of each other: in
/// parallel, the larger first (a pair by its larger table) so that the last one to finish is
/// small; each goes to `out` when done. Where the game solves a table's colour flip from it
/// (Clesto: [`crate::game::FamilyGame::solves_flips`]), a table whose flip is also in the group
/// is solved with it, and one whose flip is complete under `root` from it.
/// Returns the solved tables that `keep` says a later group needs (the others are dropped as
/// soon as they are encoded).
fn solve_group(
    root: &Path,
    rules: RuleSet,
    out: &Out<'_, Material>,
    group: &[Material],
    subs: &SubTables,
    keep: impl Fn(Material) -> bool + Sync,
) -> Result<Vec<Solved>, GenError> {
    let game = game_of(rules);
    let compress = |metric, codes: &Codes| write::compress(rules, metric, codes);
    let entries = |m: Material| Layout::new(rules, m).len() as u64;
    let write = |started, solved: &Solved, files: [(Kind, Vec<u8>); 3], from_flip| {
        let m = solved.layout.material();
        let files = files
            .into_iter()
            .map(|(kind, bytes)| (table_path(root, rules, m, kind), bytes))
            .collect();
        out.write(Made {
            started,
            files,
            from_flip,
            phases: Vec::new(),
        })
    };
    // Solves `m` from its flip `from`, solved, and hands it to the writer.
    let from_flip = |m: Material, from: &Solved| -> Result<Option<Solved>, GenError> {
        let started = out.start(m, entries(m))?;
        let solved = game.solve_flip_of(from, subs)?;
        let dtm = compress(Metric::Dtm, &solved.codes);
        let second = compress(Metric::second(rules), &solved.second_codes);
        let files = write::assemble(&solved, [dtm?, second?])?;
        write(started, &solved, files, true)?;
        Ok(keep(m).then_some(solved))
    };
    let jobs = plan::with_flips(rules, group);
    let solved: Vec<[Option<Solved>; 2]> = jobs
        .par_iter()
        .map(|&(m, flip)| {
            if flip.is_none() {
                if let Some(from) = complete_flip(root, rules, m) {
                    return Ok([from_flip(m, &from)?, None]);
                }
            }
            let started = out.start(m, entries(m))?;
            let (solved, [dtm, second]) = game.solve_then(rules, m, subs, &compress)?;
            let files = write::assemble(&solved, [dtm?, second?])?;
            write(started, &solved, files, false)?;
            let second = flip.map(|f| from_flip(f, &solved)).transpose()?.flatten();
            Ok([keep(m).then_some(solved), second])
        })
        .collect::<Result<_, GenError>>()?;
    Ok(solved.into_iter().flatten().flatten().collect())
}

/// The colour flip of table `m`, read back, where the game solves flips from their tables, it is
/// a table of its own and complete under `root` (checksums included); `None` otherwise, or
/// where it cannot be read.
fn complete_flip(root: &Path, rules: RuleSet, m: Material) -> Option<Solved> {
    let flip = m.flipped();
    let solves_flips = game_of(rules).solves_flips();
    if !solves_flips || flip == m || !matches!(check_table(root, rules, flip), Ok(true)) {
        return None;
    }
    load(root, rules, flip).ok()
}

/// The value of a position's entry in a solved table (tests and verification).
#[must_use]
pub fn value_of(table: &Solved, pos: &jtb_probe::Position) -> Option<Value> {
    table.layout.index_of(pos).map(|i| table.value(i))
}
