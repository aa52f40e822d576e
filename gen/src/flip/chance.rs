//! The chance tables of the flip game (RULES.md 8): every position with face-down tiles of a
//! material, at every clock 0..=39, by backward induction over the clock.
//!
//! A flip and a capture leave the material (one face-down tile or one animal fewer), so their
//! worth does not depend on the clock: it is read once per position from the tables already
//! made (chance tables of smaller materials, the revealed tables after the last flip). Only the
//! plain steps stay inside the material, one clock later. So a position's value at clock c is
//! the best of its exits and of its steps' values at c + 1, clock 40 being a draw: 40 sweeps
//! over the positions at most, and fewer where a sweep changes nothing (every lower clock then
//! has the same values).

use std::{
    collections::BTreeSet,
    path::{Path, PathBuf},
    sync::OnceLock,
    time::Instant,
};

use jtb_probe::{
    flip::{Chance, ChanceLayout, ChanceMaterial, ChanceTables, ChanceValue, Dte, CLOCKS},
    format::{self, family_table_path, Encoding, Header, Kind, SideStats, INDEX_SCHEME},
    HiddenSet, Material, Outcome, Piece, ProbeError, TableError, TableFile, DEFAULT_CACHE_BYTES,
};
use rayon::prelude::*;

use super::dte::probe_error;
use crate::{
    driver::{self, Progress, Summary},
    write, GenError,
};

/// The revealed tables chance tables lead into once every tile is face up: the generator's
/// name for the probe library's [`jtb_probe::flip::revealed_needs`].
pub use jtb_probe::flip::revealed_needs;

/// A solved chance table: the value of every position (unused ones a draw) at every clock,
/// entry `position * CLOCKS + clock`.
pub struct ChanceSolved {
    /// The table's layout.
    pub layout: ChanceLayout,
    /// The values, [`CLOCKS`] per position.
    pub values: Vec<ChanceValue>,
    /// The DTE codes ([`Dte::code`]) of every position at every clock, as `values`.
    pub dte: Vec<u16>,
    /// Per position, whether it is used (no two tiles on one square).
    pub used: Vec<bool>,
    /// The sweeps over the clock that changed a value (at most [`CLOCKS`]).
    pub sweeps: usize,
}

impl ChanceSolved {
    /// The value of position `idx` at `clock`.
    #[must_use]
    pub fn value(&self, idx: usize, clock: usize) -> ChanceValue {
        self.values[idx * CLOCKS + clock]
    }
}

/// What a position does in one ply: the worth of its best flip and the largest swing of one
/// flip's outcomes (clock-free: a flip leaves the material), the best worth of the steps that
/// leave it or end the game (captures, trades), and the positions of the same material its
/// plain steps lead to.
struct Node {
    best_flip: ChanceValue,
    swing: u32,
    best_exit_step: Option<ChanceValue>,
    steps: Vec<u32>,
    /// The DTE worths of the flips that win or lose for certain.
    flip_dte: Distances,
    /// The DTE worths of the steps that leave the material (or end the game) and win or lose
    /// for certain.
    step_dte: Distances,
    /// Both, for the sweep: made once, read at every clock.
    exit_dte: Distances,
}

/// Of some moves of certain worth: the smallest DTE worth of those that win, the largest of
/// those that lose (what a certain win and a certain loss choose).
#[derive(Debug, Clone, Copy, Default)]
struct Distances {
    win: Option<u32>,
    loss: Option<u32>,
}

impl Distances {
    /// Adds a move of worth `worth` (a certain win or loss) and DTE worth `dte`.
    fn add(&mut self, worth: ChanceValue, dte: u32) {
        match worth {
            ChanceValue::WIN => self.win = Some(self.win.map_or(dte, |d| d.min(dte))),
            ChanceValue::LOSS => self.loss = Some(self.loss.map_or(dte, |d| d.max(dte))),
            _ => {}
        }
    }

    /// Both sets of moves as one.
    fn and(self, other: Distances) -> Distances {
        let mut both = self;
        for (worth, d) in [
            (ChanceValue::WIN, other.win),
            (ChanceValue::LOSS, other.loss),
        ] {
            if let Some(d) = d {
                both.add(worth, d);
            }
        }
        both
    }
}

impl Node {
    /// The best worth of the moves that leave the material.
    fn exit(&self) -> ChanceValue {
        self.best_exit_step
            .map_or(self.best_flip, |s| s.max(self.best_flip))
    }

    /// The position's value at a clock, `later` giving each step's position one clock on.
    fn value(&self, later: impl Fn(usize) -> ChanceValue) -> ChanceValue {
        self.steps
            .iter()
            .map(|&j| later(j as usize).for_mover())
            .fold(self.exit(), Ord::max)
    }

    /// The DTE of the position at a clock where its value is `value` (RULES.md 8), `later`
    /// giving each step's position's value and DTE one clock on: in a certain win the smallest
    /// DTE worth of the moves that keep it, in a certain loss the largest of all; `Ok(None)`
    /// otherwise. `Err` where a certain value has no move that gives its distance.
    fn dte(
        &self,
        value: ChanceValue,
        later: impl Fn(usize) -> (ChanceValue, Option<u32>),
    ) -> Result<Option<u32>, ()> {
        let steps = self.steps.iter().map(|&j| {
            let (v, d) = later(j as usize);
            (v.for_mover(), d.map(|d| d + 1))
        });
        match value {
            ChanceValue::WIN => {
                let mut shortest = self.exit_dte.win;
                for (_, d) in steps.filter(|&(v, _)| v == ChanceValue::WIN) {
                    let d = d.ok_or(())?;
                    shortest = Some(shortest.map_or(d, |s| s.min(d)));
                }
                shortest.map(Some).ok_or(())
            }
            ChanceValue::LOSS => {
                let mut longest = self.exit_dte.loss.ok_or(())?;
                for (_, d) in steps {
                    longest = longest.max(d.ok_or(())?);
                }
                Ok(Some(longest))
            }
            _ => Ok(None),
        }
    }
}

/// Solves `material`, the smaller tables it leads into being readable in `tables`.
///
/// # Errors
/// A table it leads into is missing or damaged ([`GenError::Probe`]).
pub fn solve(tables: &ChanceTables, material: ChanceMaterial) -> Result<ChanceSolved, GenError> {
    let layout = ChanceLayout::new(material);
    let nodes: Vec<Option<Node>> = (0..layout.positions())
        .into_par_iter()
        .map(|idx| {
            layout
                .position(idx)
                .map(|pos| node(tables, &layout, &pos))
                .transpose()
        })
        .collect::<Result<_, _>>()
        .map_err(probe_error)?;
    let used: Vec<bool> = nodes.iter().map(Option::is_some).collect();
    let n = nodes.len();
    let mut values = vec![ChanceValue::DRAW; n * CLOCKS];
    let mut dte = vec![0u16; n * CLOCKS];
    // Clock 40: drawn, no distance.
    let mut later: Vec<(ChanceValue, Option<u32>)> = vec![(ChanceValue::DRAW, None); n];
    let mut sweeps = 0;
    for clock in (0..CLOCKS).rev() {
        let now: Vec<(ChanceValue, Option<u32>)> = nodes
            .par_iter()
            .enumerate()
            .map(|(idx, node)| match node {
                None => Ok((ChanceValue::DRAW, None)),
                Some(node) => {
                    let v = node.value(|j| later[j].0);
                    let d = node
                        .dte(v, |j| later[j])
                        .map_err(|()| no_distance(&layout, idx, clock, v))?;
                    Ok((v, d))
                }
            })
            .collect::<Result<_, GenError>>()?;
        let settled = now == later;
        let codes = now
            .iter()
            .map(|&(_, d)| super::dte::code(d))
            .collect::<Result<Vec<u16>, GenError>>()?;
        let lowest = if settled { 0 } else { clock };
        for (idx, (&(v, _), &c)) in now.iter().zip(&codes).enumerate() {
            // Settled: every lower clock has the same values and distances.
            values[idx * CLOCKS + lowest..=idx * CLOCKS + clock].fill(v);
            dte[idx * CLOCKS + lowest..=idx * CLOCKS + clock].fill(c);
        }
        if settled {
            break;
        }
        sweeps += 1;
        later = now;
    }
    Ok(ChanceSolved {
        layout,
        values,
        dte,
        used,
        sweeps,
    })
}

/// The error of a certain value that no move gives a distance to: the tables it reads
/// contradict each other.
fn no_distance(layout: &ChanceLayout, idx: usize, clock: usize, v: ChanceValue) -> GenError {
    let mut pos = layout.position(idx).expect("a used entry");
    pos.set_clock(Some(clock as u32)).expect("below the limit");
    probe_error(ProbeError::Inconsistent {
        position: pos.to_string(),
        noun: "move",
        kind: Kind::Dte,
        stored: if v == ChanceValue::WIN {
            jtb_probe::Value::Win(0)
        } else {
            jtb_probe::Value::Loss(0)
        },
        best: None,
    })
}

/// The flips, exits and steps of `pos` (clock 0, a position of `layout`).
fn node(
    tables: &ChanceTables,
    layout: &ChanceLayout,
    pos: &jtb_probe::Position,
) -> Result<Node, ProbeError> {
    // A flip is always possible, so there is always an exit.
    let mut best_flip = ChanceValue::LOSS;
    let mut swing = 0;
    let mut flip_dte = Distances::default();
    let mut step_dte = Distances::default();
    for sq in pos.flips() {
        let revealed = pos
            .flip_outcomes(sq)
            .expect("a face-down tile of a position with its hidden set");
        let given = revealed
            .iter()
            .map(|o| tables.after_move_with_dte(&o.position))
            .collect::<Result<Vec<_>, ProbeError>>()?;
        let outcomes: Vec<ChanceValue> = given.iter().map(|&(v, _)| v.for_mover()).collect();
        let flip = ChanceValue::average(&outcomes).expect("up to five equally likely outcomes");
        best_flip = best_flip.max(flip);
        let scores = outcomes.iter().map(|o| o.parts()[0]);
        swing = swing.max(scores.clone().max().unwrap_or(0) - scores.min().unwrap_or(0));
        if is_certain_end(flip) {
            let positions = revealed.iter().map(|o| &o.position);
            flip_dte.add(flip, dte_worth(positions.zip(given.iter().map(|g| g.1)))?);
        }
    }
    let mut best_exit_step: Option<ChanceValue> = None;
    let mut steps = Vec::new();
    for mv in pos.revealed_moves() {
        let exit = match pos.play(mv).expect("a listed move is legal") {
            Outcome::Over { result, .. } => {
                let worth = ChanceValue::certain(result);
                step_dte.add(worth, 1);
                worth
            }
            Outcome::Ongoing(next) => match layout.index_of(&next) {
                Some(j) => {
                    steps.push(u32::try_from(j).expect("tables of fewer than 2^32"));
                    continue;
                }
                // A capture or trade: a smaller material, at clock 0.
                None => {
                    let (value, dte) = tables.after_move_with_dte(&next)?;
                    let worth = value.for_mover();
                    if is_certain_end(worth) {
                        step_dte.add(worth, dte_worth([(&next, dte)])?);
                    }
                    worth
                }
            },
        };
        best_exit_step = Some(best_exit_step.map_or(exit, |b| b.max(exit)));
    }
    Ok(Node {
        best_flip,
        swing,
        best_exit_step,
        steps,
        flip_dte,
        step_dte,
        exit_dte: flip_dte.and(step_dte),
    })
}

/// Whether a move of this worth has a DTE worth: a certain win or loss for the mover.
fn is_certain_end(worth: ChanceValue) -> bool {
    worth == ChanceValue::WIN || worth == ChanceValue::LOSS
}

/// The DTE worth of a move whose worth is certain: 1 + the longest DTE of the positions it can
/// give, each with its DTE (a game it ends counting 0); an error where one has none.
fn dte_worth<'a>(
    gives: impl IntoIterator<Item = (&'a jtb_probe::Position, Option<u32>)>,
) -> Result<u32, ProbeError> {
    let mut longest = 0;
    for (next, d) in gives {
        let d = d.ok_or_else(|| ProbeError::Inconsistent {
            position: next.to_string(),
            noun: "move",
            kind: Kind::Dte,
            stored: jtb_probe::Value::Draw,
            best: None,
        })?;
        longest = longest.max(d);
    }
    Ok(1 + longest)
}

/// The bytes of the file of a solved table.
///
/// # Errors
/// Compression failed.
pub fn encode(solved: &ChanceSolved) -> std::io::Result<Vec<u8>> {
    let hidden = solved.layout.hidden();
    let max = ChanceValue::max_code(hidden).expect("one to five face-down tiles");
    let encoding = if max < 256 {
        Encoding::Code8
    } else {
        Encoding::Code16
    };
    let code = |v: ChanceValue| v.code(hidden).expect("a value of the table's denominators");
    let mut raw = Vec::with_capacity(encoding.bytes_for(solved.values.len()));
    for &v in &solved.values {
        match encoding {
            Encoding::Code8 => raw.push(code(v) as u8),
            _ => raw.extend_from_slice(&code(v).to_le_bytes()),
        }
    }
    let blocks = write::compress_raw(encoding, &raw)?;
    let header = Header {
        kind: Kind::Chance,
        rules: Chance,
        material: solved.layout.material(),
        index_scheme: INDEX_SCHEME,
        encoding,
        entries: solved.values.len() as u64,
        block_entries: 0,
        blocks: 0,
        stats: stats(solved),
        generator: concat!("jtb-gen ", env!("CARGO_PKG_VERSION")).to_owned(),
    };
    Ok(format::file_bytes(&header, &blocks))
}

/// The bytes of the DTE file of a solved table: its header's statistics those of the chance
/// file, with the longest distance of a certain win at clock 0 and the smallest position text
/// that has it.
///
/// # Errors
/// Compression failed.
pub fn encode_dte(solved: &ChanceSolved) -> std::io::Result<Vec<u8>> {
    let mut stats = stats(solved);
    for (idx, _) in solved.used.iter().enumerate().filter(|(_, &u)| u) {
        if solved.value(idx, 0) != ChanceValue::WIN {
            continue;
        }
        let side = &mut stats[usize::from(idx >= solved.used.len() / 2)];
        let d = Dte::from_code(solved.dte[idx * CLOCKS]).unwrap_or(0);
        let d = u16::try_from(d).unwrap_or(u16::MAX);
        if d < side.longest_win {
            continue;
        }
        let text = solved
            .layout
            .position(idx)
            .expect("a used entry")
            .to_string();
        if d > side.longest_win || text < side.longest_win_position {
            side.longest_win = d;
            side.longest_win_position = text;
        }
    }
    super::dte::encode(Chance, solved.layout.material(), &solved.dte, stats)
}

/// Per side to move, over the stored positions at clock 0: the certain wins, certain draws and
/// certain losses (the other positions are uncertain: a flip still decides them).
fn stats(solved: &ChanceSolved) -> [SideStats; 2] {
    let mut stats = [SideStats::default(), SideStats::default()];
    let half = solved.used.len() / 2;
    for (idx, _) in solved.used.iter().enumerate().filter(|(_, &u)| u) {
        let side = &mut stats[usize::from(idx >= half)];
        match solved.value(idx, 0) {
            ChanceValue::WIN => side.wins += 1,
            ChanceValue::DRAW => side.draws += 1,
            ChanceValue::LOSS => side.losses += 1,
            _ => {}
        }
    }
    stats
}

/// The path of the chance table of `material` under `root`.
#[must_use]
pub fn table_path(root: &Path, material: ChanceMaterial) -> PathBuf {
    family_table_path(root, Chance, material, Kind::Chance)
}

/// The path of the DTE file of the chance table of `material` under `root`.
#[must_use]
pub fn dte_path(root: &Path, material: ChanceMaterial) -> PathBuf {
    family_table_path(root, Chance, material, Kind::Dte)
}

/// The plan's tasks of the chance tables `targets` and every chance table they lead into,
/// written under `root`: a level per count of face-down tiles and of tiles, fewest first. A
/// table needs the chance tables its flips and captures lead into, and the revealed table its
/// last flips lead into (planned before them).
#[must_use]
pub fn tasks(targets: &[ChanceMaterial], root: &Path) -> Vec<Vec<driver::Task>> {
    let chance_named = |m: ChanceMaterial| (m.to_string(), table_path(root, m));
    let revealed_named = |m: Material| {
        let file = format::table_path(root, jtb_probe::RuleSet::Flip4x4, m, Kind::Wdl);
        (m.to_string(), file)
    };
    let task = |m: ChanceMaterial| {
        let (children, last_flip) = successors(m);
        driver::Task {
            material: m.to_string(),
            pieces: m.tiles(),
            file: table_path(root, m),
            needs: children
                .into_iter()
                .map(chance_named)
                .chain(last_flip.map(revealed_named))
                .collect(),
        }
    };
    levels(targets)
        .into_iter()
        .map(|level| level.into_iter().map(task).collect())
        .collect()
}

/// `targets` and every chance table they lead into ([`closure`]), a level per count of face-down
/// tiles and of tiles: a level's tables lead only into those of earlier levels.
fn levels(targets: &[ChanceMaterial]) -> Vec<Vec<ChanceMaterial>> {
    driver::levels_by(closure(targets), |m| (m.hidden().len(), m.tiles()))
}

/// Whether the table of `material` under `root` is present and intact (its header, block index
/// and whole-file checksum): `Ok(false)` when it is absent.
///
/// # Errors
/// Why a file that is there cannot be kept (damaged, foreign, of another table).
pub fn check(root: &Path, material: ChanceMaterial) -> Result<bool, TableError> {
    for kind in [Kind::Chance, Kind::Dte] {
        let path = family_table_path(root, Chance, material, kind);
        if !path.exists() {
            return Ok(false);
        }
        let file = TableFile::<Chance>::open_expecting(&path, Chance, material.canonical(), kind)?;
        file.verify_checksum()?;
    }
    Ok(true)
}

/// The tables a chance table leads into in one move: the chance tables of a flip (one animal
/// face up) and of a capture or trade (one or two fewer), canonical, and the revealed table of
/// its last flip (where one tile is face down).
#[must_use]
pub fn successors(material: ChanceMaterial) -> (Vec<ChanceMaterial>, Option<Material>) {
    let (revealed, hidden) = (material.revealed(), material.hidden());
    let mut chance = Vec::new();
    let mut push = |revealed: Material, hidden: HiddenSet| {
        if let Ok(child) = ChanceMaterial::new(revealed, hidden) {
            let child = child.canonical();
            if !chance.contains(&child) {
                chance.push(child);
            }
        }
    };
    // A flip: one hidden animal face up.
    for p in hidden.pieces() {
        push(revealed.with(p), hidden.without(p));
    }
    // A capture (one revealed animal fewer) or a trade (two).
    let pieces: Vec<Piece> = revealed.pieces().collect();
    for &p in &pieces {
        push(revealed.without(p), hidden);
        for &q in pieces
            .iter()
            .filter(|q| q.color != p.color && q.animal == p.animal)
        {
            push(revealed.without(p).without(q), hidden);
        }
    }
    let last_flip = (hidden.len() == 1).then(|| material.face_up().canonical());
    (chance, last_flip)
}

/// `targets` and every chance table they lead into (by flips and captures), in the order they
/// can be solved: fewest face-down tiles first, then fewest tiles.
#[must_use]
pub fn closure(targets: &[ChanceMaterial]) -> Vec<ChanceMaterial> {
    let mut seen: BTreeSet<String> = BTreeSet::new();
    let mut out = Vec::new();
    let mut todo: Vec<ChanceMaterial> = targets.iter().map(|m| m.canonical()).collect();
    while let Some(m) = todo.pop() {
        if seen.insert(m.to_string()) {
            out.push(m);
            todo.extend(successors(m).0);
        }
    }
    out.sort_by_cached_key(|m| (m.hidden().len(), m.tiles(), m.to_string()));
    out
}

/// Generates the chance tables of `targets` and every one they lead into under `root`
/// (`root/flip4x4/<material>.chance`), resumably: a table present and intact is kept, a damaged
/// one made again. With `only_targets`, the targets alone: the smaller chance tables they lead
/// into must be there and intact. The revealed tables they lead into must be there. A table
/// whose [`memory_estimate`] exceeds `memory_limit` is refused before anything is written.
/// Tables with as many face-down tiles and tiles are solved in parallel; `progress` hears of
/// each. The summary's phases are `solving` (reading the exits and sweeping over the clocks)
/// and `writing` (encoding and writing), summed over the tables.
///
/// # Errors
/// A table it needs is missing or damaged ([`GenError::NeededTables`] for the revealed tables
/// and [`GenError::ChancePlan`] for the chance tables, with `only_targets`), a table needs
/// more memory than allowed ([`GenError::ChancePlan`]), or writing failed.
pub fn generate(
    root: &Path,
    targets: &[ChanceMaterial],
    memory_limit: u64,
    only_targets: bool,
    progress: &dyn Progress<ChanceMaterial>,
) -> Result<Summary<ChanceMaterial>, GenError> {
    if only_targets {
        // The revealed tables the targets' last flips lead into must be there too.
        let problems: Vec<_> = jtb_probe::flip::revealed_needs(targets)
            .into_iter()
            .filter_map(
                |m| match crate::run::check_table(root, jtb_probe::RuleSet::Flip4x4, m) {
                    Ok(true) => None,
                    Ok(false) => Some((m, None)),
                    Err(why) => Some((m, Some(why))),
                },
            )
            .collect();
        if !problems.is_empty() {
            return Err(GenError::NeededTables(problems));
        }
    }
    let mut summary = Summary::default();
    let plan = driver::plan(
        &OnDisk::new(root),
        targets,
        only_targets,
        memory_limit,
        progress,
        &mut summary,
    )
    .map_err(GenError::ChancePlan)?;
    // The levels read the directory's tables from the first.
    driver::files::create_dir(&root.join(jtb_probe::RuleSet::Flip4x4.name()))?;
    // The DTE files of the revealed tables the last flips lead into, and of those their
    // captures lead into, before the chance tables that read them.
    let t0 = Instant::now();
    super::dte::generate_revealed(root, &revealed_needs(&closure(targets)))?;
    summary.phases.push(("revealed DTE", t0.elapsed()));
    driver::run(&mut Levels { root }, &plan.todo, progress, &mut summary)?;
    Ok(summary)
}

/// The chance tables' solver: a level's tables side by side, each from the files of the levels
/// before it and of the revealed tables.
struct Levels<'a> {
    root: &'a Path,
}

impl driver::Solver for Levels<'_> {
    type Table = ChanceMaterial;
    type Error = GenError;

    fn dir(&self) -> PathBuf {
        self.root.join(jtb_probe::RuleSet::Flip4x4.name())
    }

    fn reads_written(&self) -> bool {
        true
    }

    fn solve_group(
        &mut self,
        level: &[ChanceMaterial],
        _: &[Vec<ChanceMaterial>],
        out: &driver::Out<'_, ChanceMaterial>,
    ) -> Result<(), GenError> {
        // Opened anew for each level: it sees the tables the levels before wrote.
        let tables = ChanceTables::open(self.root).map_err(probe_error)?;
        level.par_iter().try_for_each(|&m| {
            let started = out.start(m, entries(m))?;
            let t0 = Instant::now();
            let solved = solve(&tables, m)?;
            let t1 = Instant::now();
            let bytes = encode(&solved)?;
            let dte = encode_dte(&solved)?;
            out.write(driver::Made {
                started,
                files: vec![
                    (dte_path(self.root, m), dte),
                    (table_path(self.root, m), bytes),
                ],
                from_flip: false,
                phases: vec![("solving", t1 - t0), ("writing", t1.elapsed())],
            })?;
            Ok(())
        })
    }
}

/// A chance table's entries: its positions at every clock.
fn entries(m: ChanceMaterial) -> u64 {
    (ChanceLayout::new(m).positions() * CLOCKS) as u64
}

/// Refuses `targets` where a chance table they lead into would need more memory than
/// `memory_limit` ([`memory_estimate`]): for a front end to ask before it makes the revealed
/// tables, so that a refused generation writes nothing.
///
/// # Errors
/// [`GenError::ChancePlan`] naming the largest such table.
pub fn check_memory(targets: &[ChanceMaterial], memory_limit: u64) -> Result<(), GenError> {
    let largest = closure(targets)
        .into_iter()
        .map(|m| (memory_estimate(m), m))
        .max();
    match largest {
        Some((need, table)) if need > memory_limit => {
            Err(GenError::ChancePlan(driver::Refused::TooLarge {
                table,
                need,
                limit: memory_limit,
            }))
        }
        _ => Ok(()),
    }
}

/// Steps a position of the 4x4 board can have at most: four for each revealed animal.
const MAX_STEPS_PER_ANIMAL: usize = 4;

/// The heap's own bytes on each allocation (a node's list of steps).
const ALLOCATION_OVERHEAD: usize = 16;

/// An estimate, from above, of the bytes [`solve`], [`encode`] and [`encode_dte`] take for `m`:
/// per position its node (moves and exits, its steps' list at most four an animal), its values
/// and DTE codes at every clock, two clocks' sweep and its share of the encoded files (at most
/// the values' and codes' size), once for
/// each worker thread (a level's tables are solved side by side, none larger than `m` where
/// `m` is the level's largest); and the two block caches of the tables it probes, full.
#[must_use]
pub fn memory_estimate(m: ChanceMaterial) -> u64 {
    let positions = ChanceLayout::new(m).positions();
    let steps = m.face_up().total() * MAX_STEPS_PER_ANIMAL;
    let node = std::mem::size_of::<Option<Node>>()
        + steps * std::mem::size_of::<u32>()
        + ALLOCATION_OVERHEAD
        + 1;
    // Its values and DTE codes at every clock, and the encoded files' share of each.
    let values = CLOCKS * (std::mem::size_of::<ChanceValue>() + std::mem::size_of::<u16>());
    // Two clocks of the sweep (value and distance), and one clock's codes.
    let sweep = 2 * std::mem::size_of::<(ChanceValue, Option<u32>)>() + std::mem::size_of::<u16>();
    let per_position = node + 2 * values + sweep;
    let threads = rayon::current_num_threads() as u64;
    threads * (positions * per_position) as u64
        + 2 * DEFAULT_CACHE_BYTES
        + crate::run::PROCESS_BYTES
}

/// The chance tables under a root, as the plan sees them: in levels of as many face-down tiles
/// and tiles (solved in parallel), each checked by its header, block index and checksum.
pub struct OnDisk<'a> {
    root: &'a Path,
    /// The tables a check probes, opened on the first check.
    opened: OnceLock<ChanceTables>,
}

impl<'a> OnDisk<'a> {
    /// The chance tables under `root` (in `root/flip4x4/`).
    #[must_use]
    pub fn new(root: &'a Path) -> OnDisk<'a> {
        OnDisk {
            root,
            opened: OnceLock::new(),
        }
    }
}

impl driver::Verify for OnDisk<'_> {
    fn checked_against(&self, _: ChanceMaterial) -> &'static str {
        "their moves (flips as the average of their outcomes), values and DTE"
    }

    fn verify_memory(&self, _: ChanceMaterial) -> Result<Option<u64>, driver::verify::Failure> {
        Ok(None)
    }

    /// Every entry at every clock against its moves' worth ([`analyse`]); the first entry found
    /// wrong is the one failure listed.
    fn check_entries(
        &self,
        m: ChanceMaterial,
        _: Vec<(ChanceMaterial, ())>,
        _: usize,
    ) -> Result<driver::Checked, driver::verify::Failure> {
        let tables = match self.opened.get() {
            Some(tables) => tables,
            None => {
                let opened = ChanceTables::open(self.root).map_err(probe_error)?;
                self.opened.get_or_init(|| opened)
            }
        };
        let report = analyse(tables, self.root, m)?;
        let path = table_path(self.root, m);
        let distance = |d: &Option<u32>| d.map_or("none".to_owned(), |d| d.to_string());
        let failures = report
            .mismatch
            .iter()
            .map(|(position, stored, best)| {
                format!(
                    "{}: {position}: stored {stored}, its moves give {best}",
                    path.display()
                )
            })
            .chain(report.dte_mismatch.iter().map(|(position, stored, best)| {
                format!(
                    "{}: {position}: stored DTE {}, its moves give {}",
                    dte_path(self.root, m).display(),
                    distance(stored),
                    distance(best)
                )
            }))
            .collect();
        Ok(driver::Checked {
            entries: report.checked,
            failures,
        })
    }
}

impl driver::Tables for OnDisk<'_> {
    type Table = ChanceMaterial;
    type Kept = ();
    type Why = TableError;

    fn table_of(&self, name: ChanceMaterial) -> ChanceMaterial {
        name.canonical()
    }
    fn closure(&self, targets: &[ChanceMaterial]) -> Vec<Vec<ChanceMaterial>> {
        levels(targets)
    }
    fn needs(&self, table: ChanceMaterial) -> Vec<ChanceMaterial> {
        successors(table).0
    }
    fn entries(&self, table: ChanceMaterial) -> u64 {
        entries(table)
    }
    fn memory_estimate(&self, table: ChanceMaterial) -> Option<u64> {
        Some(memory_estimate(table))
    }
    fn check(&self, table: ChanceMaterial) -> Result<Option<()>, TableError> {
        check(self.root, table).map(|intact| intact.then_some(()))
    }
}

/// The values of `material`'s table under `root`, read back whole: [`CLOCKS`] per position.
///
/// # Errors
/// The file is missing, of another table, or damaged (a block's checksum, a code no table of
/// its face-down tiles holds).
pub fn load(root: &Path, material: ChanceMaterial) -> Result<Vec<ChanceValue>, GenError> {
    let path = table_path(root, material);
    let file =
        TableFile::<Chance>::open_expecting(&path, Chance, material.canonical(), Kind::Chance)?;
    let hidden = material.hidden().len();
    let mut values = Vec::with_capacity(file.header().entries as usize);
    for b in 0..file.header().blocks {
        let block = file.block(b)?;
        for i in 0..file.header().entries_in(b) {
            let code = file.code_entry(&block, i)?;
            let v = ChanceValue::from_code(code, hidden).ok_or_else(|| file.bad_code(code))?;
            values.push(v);
        }
    }
    Ok(values)
}

/// What [`analyse`] finds in one chance table: its figures, and the first entry that is not
/// the best of its moves one ply deep (none in a correct table).
#[derive(Debug, Clone, Default)]
pub struct ChanceReport {
    /// Positions stored (both sides to move; a position on the diagonal of the first revealed
    /// animal is stored twice).
    pub positions: u64,
    /// Entries checked one ply deep (positions times clocks).
    pub checked: u64,
    /// The sum of the scores at clock 0, over [`jtb_probe::flip::DENOMINATOR`].
    pub score_sum: u64,
    /// Positions at clock 0 won, drawn and lost for certain.
    pub certain: [u64; 3],
    /// Positions at clock 0 whose best move is a flip.
    pub flip_best: u64,
    /// The largest swing of one flip at clock 0 (the best outcome's score minus the worst, over
    /// the denominator), with a position that has it.
    pub largest_swing: (u32, String),
    /// The largest gap at clock 0 between the best flip and the best step (score over the
    /// denominator, the flip better), with a position that has it.
    pub largest_gap: (u32, String),
    /// The first entry that is not its best move's worth: position text with clock, stored
    /// value, and the value one ply deep.
    pub mismatch: Option<(String, ChanceValue, ChanceValue)>,
    /// The longest DTE of a certain win at clock 0, with a position that has it.
    pub longest_win: (u32, String),
    /// The first entry whose DTE is not what its moves give one ply deep: position text with
    /// clock, the stored DTE and the DTE its moves give (`None`: no distance).
    pub dte_mismatch: Option<super::dte::DteMismatch>,
}

/// Reads `material`'s table under `root` and checks every entry at every clock one ply deep
/// (each value is its best move's worth: a flip the exact average of its outcomes from the
/// tables it leads into, a step this table's value of the position it leads to one clock on),
/// gathering its figures on the way.
///
/// # Errors
/// The table or one it leads into is missing or damaged.
pub fn analyse(
    tables: &ChanceTables,
    root: &Path,
    material: ChanceMaterial,
) -> Result<ChanceReport, GenError> {
    let layout = ChanceLayout::new(material);
    let stored = load(root, material)?;
    let dte_file = TableFile::<Chance>::open_expecting(
        &dte_path(root, material),
        Chance,
        material.canonical(),
        Kind::Dte,
    )?;
    let distances = super::dte::read_codes(&dte_file)?;
    let at = |idx: usize, clock: usize| {
        if clock >= CLOCKS {
            (ChanceValue::DRAW, None)
        } else {
            let entry = idx * CLOCKS + clock;
            (stored[entry], Dte::from_code(distances[entry]))
        }
    };
    let reports = (0..layout.positions())
        .into_par_iter()
        .filter_map(|idx| layout.position(idx).map(|pos| (idx, pos)))
        .map(|(idx, pos)| -> Result<ChanceReport, ProbeError> {
            let mut r = ChanceReport {
                positions: 1,
                ..ChanceReport::default()
            };
            let node = node(tables, &layout, &pos)?;
            let text_at = |clock: usize| {
                let mut p = pos.clone();
                p.set_clock(Some(clock as u32)).expect("below the limit");
                p.to_string()
            };
            for clock in 0..CLOCKS {
                let (value, dte) = at(idx, clock);
                let best = node.value(|j| at(j, clock + 1).0);
                r.checked += 1;
                if best != value && r.mismatch.is_none() {
                    r.mismatch = Some((text_at(clock), value, best));
                }
                // The distance its moves give for the value stored (a certain value that no
                // move gives a distance to reads as none).
                let distance = node.dte(value, |j| at(j, clock + 1)).unwrap_or(None);
                if distance != dte && r.dte_mismatch.is_none() {
                    r.dte_mismatch = Some((text_at(clock), dte, distance));
                }
            }
            let (v, dte) = at(idx, 0);
            if v == ChanceValue::WIN {
                r.longest_win = (dte.unwrap_or(0), pos.to_string());
            }
            r.score_sum = u64::from(v.parts()[0]);
            match v {
                ChanceValue::WIN => r.certain[0] = 1,
                ChanceValue::DRAW => r.certain[1] = 1,
                ChanceValue::LOSS => r.certain[2] = 1,
                _ => {}
            }
            // The best flip against the best step at clock 0, and the largest swing.
            r.largest_swing = (node.swing, pos.to_string());
            let best_step = node
                .steps
                .iter()
                .map(|&j| at(j as usize, 1).0.for_mover())
                .chain(node.best_exit_step)
                .max();
            // A flip sorts before every step: it is best when no step is strictly better, by
            // worth, or in a certain result by distance (RULES.md 8).
            let mut step_dte = node.step_dte;
            for &j in &node.steps {
                let (v, d) = at(j as usize, 1);
                if let Some(d) = d {
                    step_dte.add(v.for_mover(), d + 1);
                }
            }
            let flip_first = match best_step {
                Some(s) if s > node.best_flip => false,
                Some(s) if s == node.best_flip && s == ChanceValue::WIN => {
                    node.flip_dte.win <= step_dte.win
                }
                Some(s) if s == node.best_flip && s == ChanceValue::LOSS => {
                    node.flip_dte.loss >= step_dte.loss
                }
                _ => true,
            };
            if flip_first {
                r.flip_best = 1;
            }
            if let Some(step) = best_step {
                let gap = node.best_flip.parts()[0].saturating_sub(step.parts()[0]);
                if gap > 0 {
                    r.largest_gap = (gap, pos.to_string());
                }
            }
            Ok(r)
        })
        .try_reduce(ChanceReport::default, |a, b| Ok(merge(a, b)))
        .map_err(probe_error)?;
    Ok(reports)
}

/// Two parts' reports as one (the larger swing and gap, the first mismatch, by position text
/// where equal, so that the result does not depend on the threads).
fn merge(a: ChanceReport, b: ChanceReport) -> ChanceReport {
    let larger = |x: (u32, String), y: (u32, String)| {
        let key = |z: &(u32, String)| (z.0, std::cmp::Reverse(z.1.clone()));
        if key(&y) > key(&x) && !y.1.is_empty() || x.1.is_empty() {
            y
        } else {
            x
        }
    };
    ChanceReport {
        positions: a.positions + b.positions,
        checked: a.checked + b.checked,
        score_sum: a.score_sum + b.score_sum,
        certain: [0, 1, 2].map(|i| a.certain[i] + b.certain[i]),
        flip_best: a.flip_best + b.flip_best,
        largest_swing: larger(a.largest_swing, b.largest_swing),
        largest_gap: larger(a.largest_gap, b.largest_gap),
        longest_win: larger(a.longest_win, b.longest_win),
        mismatch: match (a.mismatch, b.mismatch) {
            (Some(x), Some(y)) => Some(if y.0 < x.0 { y } else { x }),
            (x, y) => x.or(y),
        },
        dte_mismatch: match (a.dte_mismatch, b.dte_mismatch) {
            (Some(x), Some(y)) => Some(if y.0 < x.0 { y } else { x }),
            (x, y) => x.or(y),
        },
    }
}
