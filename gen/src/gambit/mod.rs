//! Animal Gambit tables (RULES.md section 7): exact values with their distance to mate in
//! turns, for both sides to move, written in the shared table format (rule-set id
//! `animal-gambit`) by the shared writer.
//!
//! The solver ([`retro`]) works on the steps of a turn, not on whole turns: a board's dozen
//! actions instead of a position's hundred turns, so a table costs a few passes over its
//! reversed actions and about 190 bytes an entry. Turns that remove a piece on a trap continue
//! in the smaller material, valued there by its [`Continuation`]; the end-of-turn checks
//! value the turns that end the game (a win or a loss in 1, also a turn that loses). What the
//! tables cannot see (the repetition rule) leaves a draw.
//!
//! [`solve_by_graph`] is the other way, kept to check the first: each position's distinct end
//! boards from the probe library's [`TurnGenerator`], solved as a successor graph of whole
//! turns ([`Graph::solve`]); it needs some 430 bytes an entry.

use std::{
    cell::RefCell,
    collections::HashMap,
    error::Error,
    fmt, io,
    path::{Path, PathBuf},
    time::{Duration, Instant},
};

use jtb_probe::{
    format::{self, family_table_path, Encoding, Family, Header, Kind, SideStats, INDEX_SCHEME},
    gambit::{AnimalGambit, Board, Color, Layout, Material, Position, TurnGenerator},
    SideHistogram, TableError, TableFile, Value,
};
use rayon::prelude::*;

mod continuation;
mod retro;

pub use self::continuation::Continuation;

use crate::{
    driver::{self, Progress, Summary},
    graph::{Entry, Graph, TooManyEntries},
    write::compress_kinds,
    Codes, Metric, UNUSED,
};

/// The files of an Animal Gambit table, in the order they are written: the WDL file last (a
/// table is complete once it is there).
pub const KINDS: [Kind; 2] = [Kind::Dtm, Kind::Wdl];

/// What can stop an Animal Gambit generation.
#[derive(Debug)]
pub enum GambitError {
    /// A smaller table that trap removals lead into has not been generated.
    MissingTable(Material),
    /// A table has more entries per side to move than the solver indexes
    /// (2^28).
    TooManyEntries(Material, usize),
    /// A table has a value past the 255 turns the solver counts.
    TooDeep(Material),
    /// A table needs more memory than allowed.
    TooLarge {
        /// The table.
        material: Material,
        /// Estimated bytes ([`memory_estimate`]).
        need: u64,
        /// Bytes allowed.
        limit: u64,
    },
    /// Generating only the targets, smaller tables they need are absent (`None`) or unusable
    /// (why).
    NeededTables(Vec<(Material, Option<String>)>),
    /// Writing failed.
    Io(io::Error),
    /// A table file could not be read back.
    Table(TableError),
}

impl fmt::Display for GambitError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GambitError::MissingTable(m) => {
                write!(f, "table {m} is needed first (trap removals lead into it)")
            }
            GambitError::TooManyEntries(m, n) => write!(
                f,
                "table {m} has {n} entries, more than this solver indexes (2^28 a side to move)"
            ),
            GambitError::TooDeep(m) => write!(
                f,
                "table {m} has a win longer than the 255 turns this solver counts"
            ),
            GambitError::TooLarge {
                material,
                need,
                limit,
            } => write!(
                f,
                "table {material} needs about {} MiB of memory, more than the {} MiB allowed \
                 (by --memory-limit, or the memory available); this solver keeps each board's \
                 nodes and reversed actions in memory",
                need >> 20,
                limit >> 20
            ),
            GambitError::NeededTables(tables) => crate::write_needed_tables(f, tables),
            GambitError::Io(e) => write!(f, "{e}"),
            GambitError::Table(e) => write!(f, "{e}"),
        }
    }
}

impl Error for GambitError {
    fn source(&self) -> Option<&(dyn Error + 'static)> {
        match self {
            GambitError::Io(e) => Some(e),
            GambitError::Table(e) => Some(e),
            _ => None,
        }
    }
}

impl From<io::Error> for GambitError {
    fn from(e: io::Error) -> GambitError {
        GambitError::Io(e)
    }
}

impl From<TableError> for GambitError {
    fn from(e: TableError) -> GambitError {
        GambitError::Table(e)
    }
}

/// The error of one scan, before it knows its material.
#[derive(Debug)]
enum ScanError {
    Missing(Material),
    Size(usize),
}

impl From<TooManyEntries> for ScanError {
    fn from(e: TooManyEntries) -> ScanError {
        ScanError::Size(e.0)
    }
}

/// A solved Animal Gambit table: its layout and one DTM code ([`Value::code`]) per entry,
/// [`UNUSED`] for unused entries.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Solved {
    /// The index.
    pub layout: Layout,
    /// Value codes, one per entry.
    pub codes: Vec<u16>,
}

impl Solved {
    /// The value of a position of the table's material (or its colour flip); `None` for
    /// another material.
    #[must_use]
    pub fn value(&self, board: &Board, turn: Color) -> Option<Value> {
        let idx = self.layout.index_of_board(board, turn)?;
        Value::from_code(self.codes[idx])
    }
}

/// Solved tables by material (canonical orientation), for the values of the smaller tables,
/// with the continuations of turns that trap removals take into them.
#[derive(Debug, Default)]
pub struct SubTables {
    tables: HashMap<Material, Solved>,
    continuations: HashMap<Material, Continuation>,
}

impl SubTables {
    /// No tables.
    #[must_use]
    pub fn new() -> SubTables {
        SubTables::default()
    }

    /// Adds a solved table.
    pub fn insert(&mut self, table: Solved) {
        self.tables.insert(table.layout.material(), table);
    }

    /// The table of `material` (either orientation).
    #[must_use]
    pub fn get(&self, material: Material) -> Option<&Solved> {
        self.tables.get(&material.canonical())
    }

    /// The continuation of `material` (either orientation), once [`SubTables::prepare`] made
    /// it.
    #[must_use]
    pub fn continuation(&self, material: Material) -> Option<&Continuation> {
        self.continuations.get(&material.canonical())
    }

    /// Makes the continuations solving `material` needs: those of every material with fewer
    /// pieces it leads into (also those where a side lost its last rabbit, whose turns end
    /// the game), fewest pieces first.
    ///
    /// # Errors
    /// [`GambitError::MissingTable`] when one of their tables is absent.
    pub fn prepare(&mut self, material: Material) -> Result<(), GambitError> {
        let mut below: Vec<Material> = Vec::new();
        let mut todo = material.canonical().fewer();
        while let Some(m) = todo.pop() {
            let m = m.canonical();
            if !below.contains(&m) {
                below.push(m);
                todo.extend(m.fewer());
            }
        }
        below.sort_by_key(|m| m.total());
        for m in below {
            if !self.continuations.contains_key(&m) {
                let cont = Continuation::build(m, self)?;
                self.continuations.insert(m, cont);
            }
        }
        Ok(())
    }

    /// The value of `board` with `turn` to move, from its material's table.
    ///
    /// # Errors
    /// The material's table, as [`GambitError::MissingTable`].
    pub fn value(&self, board: &Board, turn: Color) -> Result<Value, GambitError> {
        let material = Material::of(board);
        self.get(material)
            .and_then(|t| t.value(board, turn))
            .ok_or(GambitError::MissingTable(material.canonical()))
    }
}

thread_local! {
    /// Each thread's turn generator: its buffers serve every position the thread scans.
    static TURNS: RefCell<TurnGenerator> = RefCell::new(TurnGenerator::new());
}

/// Where a turn leads, for the solver.
enum Step {
    /// It ends the game or leaves the material: its value for the mover.
    Exit(Value),
    /// It stays in the material: the entry of the position it gives.
    Stays(usize),
}

/// Where a turn of `pos` that ends on `board` leads: a win or loss in 1 when the turn ends the
/// game, else one turn more than the smaller table's value, or the entry it gives in the
/// material of `layout`. `Err`: the smaller table (named) is absent.
fn step(
    pos: &Position,
    board: &Board,
    layout: &Layout,
    subs: &SubTables,
) -> Result<Step, Material> {
    if let Some(end) = pos.turn_end(board) {
        return Ok(Step::Exit(if end.mover_wins() {
            Value::Win(1)
        } else {
            Value::Loss(1)
        }));
    }
    let next = pos.turn().other();
    if let Some(j) = layout.index_of_board(board, next) {
        return Ok(Step::Stays(j));
    }
    subs.value(board, next)
        .map(|v| Step::Exit(v.back_one_ply()))
        .map_err(|_| Material::of(board).canonical())
}

/// The successor graph of `layout`'s material.
fn scan(layout: &Layout, subs: &SubTables) -> Result<Graph, ScanError> {
    Graph::scan(layout.len(), |idx, succs| {
        let Some(pos) = layout.position(idx) else {
            return Ok(Entry::Unused);
        };
        let before = succs.len();
        let mut best: Option<Value> = None;
        TURNS.with(|turns| {
            let mut turns = turns.borrow_mut();
            for board in turns.end_boards(&pos) {
                match step(&pos, board, layout, subs).map_err(ScanError::Missing)? {
                    Step::Exit(v) => best = Some(best.map_or(v, |b| b.max(v))),
                    // Entry counts fit 32 bits (checked by the scan).
                    Step::Stays(j) => succs.push(j as u32),
                }
            }
            Ok::<_, ScanError>(())
        })?;
        // Mirror images of end boards are one entry: each successor once.
        let mine = &mut succs[before..];
        mine.sort_unstable();
        let distinct = before + dedup_sorted(mine);
        succs.truncate(distinct);
        Ok(Entry::Used(best))
    })
}

/// Moves the distinct values of a sorted slice to its front; returns how many there are.
fn dedup_sorted(s: &mut [u32]) -> usize {
    let mut n = 0;
    for i in 0..s.len() {
        if n == 0 || s[i] != s[n - 1] {
            s[n] = s[i];
            n += 1;
        }
    }
    n
}

/// Solves `material` (either orientation; the table is its canonical one), given every
/// smaller table its trap removals lead into (their continuations are made in `subs` as
/// needed).
///
/// # Errors
/// [`GambitError::MissingTable`] when a smaller table is absent;
/// [`GambitError::TooManyEntries`] or [`GambitError::TooDeep`] for a table past the solver.
pub fn solve(material: Material, subs: &mut SubTables) -> Result<Solved, GambitError> {
    solve_with_cost(material, subs, &mut Cost::default())
}

/// Where the time of generating tables went.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Cost {
    /// Generating every board's actions (with the continuations of the smaller materials).
    pub actions: Duration,
    /// The solve proper: the levels run back through the reversed actions.
    pub levels: Duration,
}

impl std::ops::AddAssign for Cost {
    fn add_assign(&mut self, other: Cost) {
        self.actions += other.actions;
        self.levels += other.levels;
    }
}

/// [`solve`], adding where its time went to `cost`.
///
/// # Errors
/// As [`solve`].
pub fn solve_with_cost(
    material: Material,
    subs: &mut SubTables,
    cost: &mut Cost,
) -> Result<Solved, GambitError> {
    let layout = Layout::new(material);
    if layout.side_len() > retro::MAX_SIDE_ENTRIES {
        return Err(GambitError::TooManyEntries(layout.material(), layout.len()));
    }
    let clock = Instant::now();
    subs.prepare(layout.material())?;
    cost.actions += clock.elapsed();
    let codes = retro::solve_codes(&layout, subs, cost)?;
    Ok(Solved { layout, codes })
}

/// Solves `material` the old way, over its whole successor graph of turns (for comparing).
///
/// # Errors
/// As [`solve`].
pub fn solve_by_graph(material: Material, subs: &SubTables) -> Result<Solved, GambitError> {
    let layout = Layout::new(material);
    let material = layout.material();
    let graph = scan(&layout, subs).map_err(|e| match e {
        ScanError::Missing(m) => GambitError::MissingTable(m),
        ScanError::Size(n) => GambitError::TooManyEntries(material, n),
    })?;
    let codes = graph
        .solve()
        .into_iter()
        .map(|v| v.map_or(UNUSED, Value::code))
        .collect();
    Ok(Solved { layout, codes })
}

/// A generous estimate of the bytes solving `material` takes: four nodes of 24 bytes a board
/// and its reversed actions (4 bytes each) dominate. `jtb gen --rules animal-gambit
/// --material ERvMR` (16,777,216 entries) peaks at 3,022 MiB, 189 bytes an entry.
#[must_use]
pub fn memory_estimate(material: Material) -> u64 {
    const BYTES_PER_ENTRY: u64 = 210;
    Layout::new(material).len() as u64 * BYTES_PER_ENTRY
}

/// Every material `targets` need (themselves included), canonical, fewest pieces first:
/// the order to solve them in.
#[must_use]
pub fn closure(targets: &[Material]) -> Vec<Material> {
    let mut all: Vec<Material> = Vec::new();
    let mut todo: Vec<Material> = targets.iter().map(|m| m.canonical()).collect();
    while let Some(m) = todo.pop() {
        if all.contains(&m) {
            continue;
        }
        all.push(m);
        todo.extend(one_removal(m));
    }
    all.sort_by_key(|m| (m.total(), m.to_string()));
    all
}

/// The tables one trap removal from `material` leads into, by name.
fn one_removal(material: Material) -> Vec<Material> {
    let mut next: Vec<Material> = material
        .smaller()
        .into_iter()
        .map(Material::canonical)
        .collect();
    next.sort_by_key(ToString::to_string);
    next.dedup();
    next
}

/// The plan's tasks of `targets` and every table they need, written under `root`, by piece
/// count, fewest first: a table needs the tables one trap removal leads into.
#[must_use]
pub fn tasks(targets: &[Material], root: &Path) -> Vec<Vec<driver::Task>> {
    let named = |m: Material| (m.to_string(), path(root, m, Kind::Wdl));
    let task = |m: Material| {
        let (material, file) = named(m);
        driver::Task {
            material,
            pieces: m.total(),
            file,
            needs: one_removal(m).into_iter().map(named).collect(),
        }
    };
    driver::levels_by(closure(targets), |m| m.total())
        .into_iter()
        .map(|level| level.into_iter().map(task).collect())
        .collect()
}

/// Solves `targets` and every table they need, in memory.
///
/// # Errors
/// As [`solve`].
pub fn solve_all(targets: &[Material]) -> Result<SubTables, GambitError> {
    let mut done = SubTables::new();
    for m in closure(targets) {
        let solved = solve(m, &mut done)?;
        done.insert(solved);
    }
    Ok(done)
}

/// Counts and longest wins per side to move, over every position (a stored entry stands for
/// itself and its mirror image, once when they are the same board).
#[must_use]
pub fn summarize(table: &Solved) -> [SideStats; 2] {
    let layout = &table.layout;
    let mut stats: [SideStats; 2] = Default::default();
    let mut longest: [Vec<usize>; 2] = Default::default();
    for (idx, side, value, weight) in weighted_values(table) {
        let s = &mut stats[side];
        match value {
            Value::Win(d) => {
                s.wins += weight;
                if d > s.longest_win {
                    s.longest_win = d;
                    longest[side].clear();
                }
                if d == s.longest_win {
                    longest[side].push(idx);
                }
            }
            Value::Draw => s.draws += weight,
            Value::Loss(_) => s.losses += weight,
        }
    }
    for (s, entries) in stats.iter_mut().zip(&longest) {
        s.longest_win_position = entries
            .iter()
            .filter_map(|&i| layout.position(i))
            .flat_map(|p| [p.to_string(), p.mirror().to_string()])
            .min()
            .unwrap_or_default();
    }
    stats
}

/// Positions per distance in turns of a solved table, Gold to move first, counted as
/// [`summarize`] counts the header's wins, draws and losses (a position and its mirror image
/// share an entry).
#[must_use]
pub fn histogram(table: &Solved) -> [SideHistogram; 2] {
    let mut sides: [SideHistogram; 2] = Default::default();
    for (_, side, value, weight) in weighted_values(table) {
        sides[side].add(value, weight);
    }
    sides
}

/// Every used entry of `table`: its index, its side to move (0 Gold), its value, and how many
/// positions it stands for (2 for a mirror pair, 1 for a position that is its own mirror).
fn weighted_values(table: &Solved) -> impl Iterator<Item = (usize, usize, Value, u64)> + '_ {
    let layout = &table.layout;
    table
        .codes
        .iter()
        .enumerate()
        .filter(|&(_, &code)| code != UNUSED)
        .map(move |(idx, &code)| {
            let value = Value::from_code(code).expect("a solved entry");
            let weight = match layout.position(idx) {
                Some(p) if p.mirror() == p => 1,
                _ => 2,
            };
            (idx, idx / layout.side_len(), value, weight)
        })
}

/// The bytes of a solved table's files, in the order of [`KINDS`]. The same table always
/// gives the same bytes.
///
/// # Errors
/// Compression failed.
pub fn encode(table: &Solved) -> io::Result<Vec<(Kind, Vec<u8>)>> {
    let codes = Codes::from(&table.codes[..]);
    let encoding = if codes.has_wide() {
        Encoding::Code16
    } else {
        Encoding::Code8
    };
    let compressed = compress_kinds(
        Metric::Dtm,
        &[(Kind::Dtm, encoding), (Kind::Wdl, Encoding::Wdl2)],
        &codes,
    )?;
    let stats = summarize(table);
    Ok(compressed
        .files
        .into_iter()
        .map(|(kind, encoding, blocks)| {
            let header = Header {
                kind,
                rules: AnimalGambit,
                material: table.layout.material(),
                index_scheme: INDEX_SCHEME,
                encoding,
                entries: table.layout.len() as u64,
                block_entries: 0,
                blocks: 0,
                stats: stats.clone(),
                generator: concat!("jtb-gen ", env!("CARGO_PKG_VERSION")).to_owned(),
            };
            (kind, format::file_bytes(&header, &blocks))
        })
        .collect())
}

/// The path of a table's `kind` file under `root`.
#[must_use]
pub fn path(root: &Path, material: Material, kind: Kind) -> PathBuf {
    family_table_path(root, AnimalGambit, material, kind)
}

/// Reads a table's values back from its DTM file alone under `root`, checking it (header,
/// entry count, every block and the whole-file checksum). `Ok(None)` when the file is absent.
///
/// # Errors
/// A [`TableError`] for a file that is present but unusable.
pub fn load_dtm(root: &Path, material: Material) -> Result<Option<Solved>, TableError> {
    let layout = Layout::new(material);
    let material = layout.material();
    let at = path(root, material, Kind::Dtm);
    if !at.exists() {
        return Ok(None);
    }
    let dtm = TableFile::open_expecting(&at, AnimalGambit, material, Kind::Dtm)?;
    dtm.verify_checksum()?;
    let mut codes = Vec::with_capacity(layout.len());
    for b in 0..dtm.header().blocks {
        dtm.for_each_code(&dtm.block(b)?, |c| codes.push(c))?;
    }
    // Unused entries read back as the codes around them; the solver's marks are restored.
    for (idx, code) in codes.iter_mut().enumerate() {
        if layout.position(idx).is_none() {
            *code = UNUSED;
        }
    }
    Ok(Some(Solved { layout, codes }))
}

/// Reads a table back from its DTM file under `root`, checking both files (header, entry
/// count, every block and the whole-file checksums) and that every used entry's WDL file
/// value is its DTM file value's. `Ok(None)` when a file is absent.
///
/// # Errors
/// A [`TableError`] for a file that is present but unusable.
pub fn load(root: &Path, material: Material) -> Result<Option<Solved>, TableError> {
    let material = material.canonical();
    if KINDS.iter().any(|&k| !path(root, material, k).exists()) {
        return Ok(None);
    }
    let Some(solved) = load_dtm(root, material)? else {
        return Ok(None);
    };
    let wdl_path = path(root, material, Kind::Wdl);
    let wdl = TableFile::open_expecting(&wdl_path, AnimalGambit, material, Kind::Wdl)?;
    wdl.verify_checksum()?;
    let mut block = (u32::MAX, Vec::new());
    for (idx, &code) in solved.codes.iter().enumerate() {
        // No file holds the unused mark: it is where `load_dtm` restored it.
        if code == UNUSED {
            continue;
        }
        let (b, at) = wdl.locate(idx);
        if block.0 != b {
            block = (b, wdl.block(b)?);
        }
        // The codes were checked as they were read.
        if Value::from_code(code).map(Value::wdl) != Some(wdl.wdl_entry(&block.1, at)?) {
            return Err(TableError::new(
                wdl.path(),
                jtb_probe::TableErrorKind::Disagrees {
                    entry: idx as u64,
                    other: path(root, material, Kind::Dtm),
                },
            ));
        }
    }
    Ok(Some(solved))
}

/// Generates `targets` and every table they need under `root`: tables whose files are present
/// and intact are read back, not solved again (a generation stopped anywhere resumes), and
/// damaged ones are solved again. `progress` hears of each table as it is done; the summary's
/// phases are [`Cost`]'s (`actions`, `levels`) and `writing` (encoding and writing the files).
/// A table whose [`memory_estimate`] is above `memory_limit` bytes is refused before anything
/// is solved. With `only_targets`, the smaller tables must all be present and intact: else
/// nothing is solved and the error names each (one task of a plan).
///
/// # Errors
/// The first [`GambitError`].
pub fn generate(
    root: &Path,
    targets: &[Material],
    memory_limit: u64,
    only_targets: bool,
    progress: &dyn Progress<Material>,
) -> Result<Summary<Material>, GambitError> {
    let targets: Vec<Material> = targets.iter().map(|m| m.canonical()).collect();
    let mut summary = Summary::default();
    let plan = driver::plan(
        &OnDisk { root },
        &targets,
        only_targets,
        memory_limit,
        progress,
        &mut summary,
    )?;
    // Every table of the closure not to be solved was read back whole by the plan: kept, or
    // (generating only the targets) one they need.
    let mut solver = Solver {
        root,
        order: closure(&targets),
        next: 0,
        on_disk: plan.kept.into_iter().chain(plan.needed).collect(),
        subs: SubTables::new(),
    };
    driver::run(&mut solver, &plan.todo, progress, &mut summary)?;
    Ok(summary)
}

/// Animal Gambit's solver: the tables one after the other (each on every thread), fewest pieces
/// first, each read by the later ones that lead into it (from this run, or read back whole by
/// the plan).
struct Solver<'a> {
    root: &'a Path,
    /// Every table of the plan, in the order they are solved or read.
    order: Vec<Material>,
    /// Where in `order` the next table to solve is sought.
    next: usize,
    /// The tables of the plan on disk, not yet taken into `subs` (or dropped).
    on_disk: HashMap<Material, Solved>,
    subs: SubTables,
}

impl Solver<'_> {
    /// Whether a table after `order[i]` leads into it: it is kept in memory for them. (A turn
    /// that removes two pieces leads two materials down; the one between is a later table that
    /// leads into it, so it is kept.)
    fn needed_later(&self, i: usize) -> bool {
        let m = self.order[i];
        self.order[i + 1..]
            .iter()
            .any(|later| later.smaller().iter().any(|s| s.canonical() == m))
    }
}

impl driver::Solver for Solver<'_> {
    type Table = Material;
    type Error = GambitError;

    fn dir(&self) -> PathBuf {
        self.root.join(AnimalGambit.id())
    }

    fn solve_group(
        &mut self,
        group: &[Material],
        _: &[Vec<Material>],
        out: &driver::Out<'_, Material>,
    ) -> Result<(), GambitError> {
        for &m in group {
            // The tables on disk before it, taken in where a later table leads into them and
            // dropped otherwise.
            let i = self.order[self.next..]
                .iter()
                .position(|&t| t == m)
                .map(|at| self.next + at)
                .ok_or(GambitError::MissingTable(m))?;
            for before in self.next..i {
                let table = self.order[before];
                let table = self
                    .on_disk
                    .remove(&table)
                    .ok_or(GambitError::MissingTable(table))?;
                if self.needed_later(before) {
                    self.subs.insert(table);
                }
            }
            self.next = i + 1;
            let started = out.start(m, Layout::new(m).len() as u64)?;
            let mut cost = Cost::default();
            let table = solve_with_cost(m, &mut self.subs, &mut cost)?;
            let clock = Instant::now();
            let files = encode(&table)?
                .into_iter()
                .map(|(kind, bytes)| (path(self.root, m, kind), bytes))
                .collect();
            out.write(driver::Made {
                started,
                files,
                from_flip: false,
                phases: vec![
                    ("actions", cost.actions),
                    ("levels", cost.levels),
                    ("writing", clock.elapsed()),
                ],
            })?;
            if self.needed_later(i) {
                self.subs.insert(table);
            }
        }
        Ok(())
    }
}

/// The Animal Gambit tables under a root, as the plan sees them: each table a group of its
/// own (solved one after the other, each on every thread), checked by reading it back whole.
pub struct OnDisk<'a> {
    root: &'a Path,
}

impl<'a> OnDisk<'a> {
    /// The Animal Gambit tables under `root` (in `root/animal-gambit/`).
    #[must_use]
    pub fn new(root: &'a Path) -> OnDisk<'a> {
        OnDisk { root }
    }
}

impl driver::Verify for OnDisk<'_> {
    fn checked_against(&self, _: Material) -> &'static str {
        "their turns"
    }

    fn verify_memory(&self, _: Material) -> Result<Option<u64>, driver::verify::Failure> {
        Ok(None)
    }

    /// The table read back whole (its WDL file against its DTM file too), then each entry
    /// against its distinct turns ([`verify`]), over `needed`, every smaller table read back.
    fn check_entries(
        &self,
        m: Material,
        needed: Vec<(Material, Solved)>,
        limit: usize,
    ) -> Result<driver::Checked, driver::verify::Failure> {
        let mut tables = SubTables::new();
        for (_, table) in needed {
            tables.insert(table);
        }
        let own = load(self.root, m)?.ok_or_else(|| format!("{m} is missing"))?;
        let entries = own.layout.len() as u64;
        tables.insert(own);
        let path = path(self.root, m.canonical(), Kind::Dtm);
        let failures = verify(m, &tables, limit)?
            .iter()
            .map(|x| {
                format!(
                    "{}: {}: stored {}, its turns give {}",
                    path.display(),
                    x.position,
                    x.stored,
                    x.best
                )
            })
            .collect();
        Ok(driver::Checked { entries, failures })
    }
}

impl driver::Tables for OnDisk<'_> {
    type Table = Material;
    type Kept = Solved;
    type Why = TableError;

    fn table_of(&self, name: Material) -> Material {
        name.canonical()
    }
    fn closure(&self, targets: &[Material]) -> Vec<Vec<Material>> {
        closure(targets).into_iter().map(|m| vec![m]).collect()
    }
    fn needs(&self, table: Material) -> Vec<Material> {
        // The continuations of every smaller material are made from their tables.
        let mut below = closure(&[table]);
        below.retain(|&m| m != table.canonical());
        below
    }
    fn entries(&self, table: Material) -> u64 {
        Layout::new(table).len() as u64
    }
    fn memory_estimate(&self, table: Material) -> Option<u64> {
        Some(memory_estimate(table))
    }
    fn check(&self, table: Material) -> Result<Option<Solved>, TableError> {
        load(self.root, table)
    }
}

impl From<driver::Refused<Material, TableError>> for GambitError {
    fn from(refused: driver::Refused<Material, TableError>) -> GambitError {
        match refused {
            driver::Refused::Needed(tables) => GambitError::NeededTables(
                tables
                    .into_iter()
                    .map(|(m, why)| (m, why.map(|e| e.to_string())))
                    .collect(),
            ),
            driver::Refused::TooLarge { table, need, limit } => GambitError::TooLarge {
                material: table,
                need,
                limit,
            },
        }
    }
}

/// Entries per parallel task of [`verify`].
const VERIFY_CHUNK: usize = 1 << 10;

/// An entry whose stored value is not the best of its turns' values.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mismatch {
    /// The position, as text.
    pub position: String,
    /// The value stored.
    pub stored: Value,
    /// The best of its turns' values (`Loss(0)` when it has none).
    pub best: Value,
}

/// Checks every entry of the table of `material` in `tables` one ply deep, apart from the
/// solver's graph: its value must be the best of its distinct turns' values, each from the
/// end-of-turn checks (a win or loss in 1), else one turn more than the value of the position
/// it leads to in whichever table of `tables` holds it (this one or a smaller one); a
/// position without turns is a loss in 0, and a draw's best turn a draw. Returns at most
/// `limit` mismatches (in entry order).
///
/// # Errors
/// [`GambitError::MissingTable`] when the table or a smaller one is absent from `tables`.
pub fn verify(
    material: Material,
    tables: &SubTables,
    limit: usize,
) -> Result<Vec<Mismatch>, GambitError> {
    let table = tables
        .get(material)
        .ok_or(GambitError::MissingTable(material.canonical()))?;
    let layout = &table.layout;
    let chunks: Vec<Vec<Mismatch>> = (0..layout.len().div_ceil(VERIFY_CHUNK))
        .into_par_iter()
        .map(|c| {
            let mut out = Vec::new();
            let range = c * VERIFY_CHUNK..((c + 1) * VERIFY_CHUNK).min(layout.len());
            for idx in range {
                let Some(pos) = layout.position(idx) else {
                    continue;
                };
                let stored = Value::from_code(table.codes[idx]).expect("a solved entry");
                let best = TURNS.with(|turns| {
                    let mut turns = turns.borrow_mut();
                    let mut best = Value::Loss(0);
                    for (i, board) in turns.end_boards(&pos).iter().enumerate() {
                        let v = match pos.turn_end(board) {
                            Some(end) if end.mover_wins() => Value::Win(1),
                            Some(_) => Value::Loss(1),
                            None => tables.value(board, pos.turn().other())?.back_one_ply(),
                        };
                        if i == 0 || v > best {
                            best = v;
                        }
                    }
                    Ok::<_, GambitError>(best)
                })?;
                if best != stored && out.len() < limit {
                    out.push(Mismatch {
                        position: pos.to_string(),
                        stored,
                        best,
                    });
                }
            }
            Ok(out)
        })
        .collect::<Result<_, GambitError>>()?;
    Ok(chunks.into_iter().flatten().take(limit).collect())
}
