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
    time::{Duration, Instant},
};

use jtb_probe::{
    flip::{Chance, ChanceLayout, ChanceMaterial, ChanceTables, ChanceValue, CLOCKS},
    format::{self, family_table_path, Encoding, Header, Kind, SideStats, INDEX_SCHEME},
    Color, HiddenSet, Material, Outcome, Piece, ProbeError, TableFile,
};
use rayon::prelude::*;

use crate::{write, GenError};

/// A solved chance table: the value of every position (unused ones a draw) at every clock,
/// entry `position * CLOCKS + clock`.
pub struct ChanceSolved {
    /// The table's layout.
    pub layout: ChanceLayout,
    /// The values, [`CLOCKS`] per position.
    pub values: Vec<ChanceValue>,
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

/// What a position does in one ply: the best worth of the moves that leave the material, and
/// the positions of the same material its plain steps lead to.
struct Node {
    exit: ChanceValue,
    steps: Vec<u32>,
}

fn probe_error(e: ProbeError) -> GenError {
    GenError::Probe(Box::new(e))
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
    let mut later = vec![ChanceValue::DRAW; n]; // clock 40: drawn
    let mut sweeps = 0;
    for clock in (0..CLOCKS).rev() {
        let now: Vec<ChanceValue> = nodes
            .par_iter()
            .map(|node| match node {
                None => ChanceValue::DRAW,
                Some(node) => node
                    .steps
                    .iter()
                    .map(|&j| later[j as usize].for_mover())
                    .fold(node.exit, Ord::max),
            })
            .collect();
        let settled = now == later;
        for (idx, &v) in now.iter().enumerate() {
            values[idx * CLOCKS + clock] = v;
        }
        if settled {
            // Every lower clock has the same values.
            for (idx, &v) in now.iter().enumerate() {
                values[idx * CLOCKS..idx * CLOCKS + clock].fill(v);
            }
            break;
        }
        sweeps += 1;
        later = now;
    }
    Ok(ChanceSolved {
        layout,
        values,
        used,
        sweeps,
    })
}

/// The exits and steps of `pos` (clock 0, a position of `layout`).
fn node(
    tables: &ChanceTables,
    layout: &ChanceLayout,
    pos: &jtb_probe::Position,
) -> Result<Node, ProbeError> {
    // A flip is always possible, so there is always an exit.
    let mut exit = ChanceValue::LOSS;
    for sq in pos.flips() {
        let outcomes = pos
            .flip_outcomes(sq)
            .expect("a face-down tile of a position with its hidden set")
            .iter()
            .map(|o| Ok(tables.after_move(&o.position)?.for_mover()))
            .collect::<Result<Vec<_>, ProbeError>>()?;
        let flip = ChanceValue::average(&outcomes).expect("up to five equally likely outcomes");
        exit = exit.max(flip);
    }
    let mut steps = Vec::new();
    for mv in pos.revealed_moves() {
        match pos.play(mv).expect("a listed move is legal") {
            Outcome::Over { result, .. } => exit = exit.max(ChanceValue::certain(result)),
            Outcome::Ongoing(next) => match layout.index_of(&next) {
                Some(j) => steps.push(u32::try_from(j).expect("tables of fewer than 2^32")),
                // A capture or trade: a smaller material, at clock 0.
                None => exit = exit.max(tables.after_move(&next)?.for_mover()),
            },
        }
    }
    Ok(Node { exit, steps })
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

/// Whether the table of `material` under `root` is present and intact (its header, block index
/// and whole-file checksum).
#[must_use]
pub fn is_intact(root: &Path, material: ChanceMaterial) -> bool {
    TableFile::<Chance>::open(&table_path(root, material))
        .is_ok_and(|f| f.header().material == material.canonical() && f.verify_checksum().is_ok())
}

/// The revealed material a chance material becomes once every tile is face up.
#[must_use]
pub fn revealed_of(material: ChanceMaterial) -> Material {
    let (r, h) = (material.revealed(), material.hidden());
    Material::from_sets(
        r.set(Color::Red) | h.set(Color::Red),
        r.set(Color::Blue) | h.set(Color::Blue),
    )
}

/// `targets` and every chance table they lead into (by flips and captures), in the order they
/// can be solved: fewest face-down tiles first, then fewest tiles.
#[must_use]
pub fn closure(targets: &[ChanceMaterial]) -> Vec<ChanceMaterial> {
    let mut seen: BTreeSet<String> = BTreeSet::new();
    let mut out = Vec::new();
    let mut todo: Vec<ChanceMaterial> = targets.iter().map(|m| m.canonical()).collect();
    while let Some(m) = todo.pop() {
        if !seen.insert(m.to_string()) {
            continue;
        }
        out.push(m);
        let (revealed, hidden) = (m.revealed(), m.hidden());
        // A flip: one hidden animal face up.
        for p in hidden.pieces() {
            if let Ok(child) = ChanceMaterial::new(revealed.with(p), hidden.without(p)) {
                todo.push(child.canonical());
            }
        }
        // A capture (one revealed animal fewer) or a trade (two).
        let pieces: Vec<Piece> = revealed.pieces().collect();
        for &p in &pieces {
            push_child(&mut todo, revealed.without(p), hidden);
            for &q in pieces
                .iter()
                .filter(|q| q.color != p.color && q.animal == p.animal)
            {
                push_child(&mut todo, revealed.without(p).without(q), hidden);
            }
        }
    }
    out.sort_by_cached_key(|m| (m.hidden().len(), m.tiles(), m.to_string()));
    out
}

fn push_child(todo: &mut Vec<ChanceMaterial>, revealed: Material, hidden: HiddenSet) {
    if let Ok(child) = ChanceMaterial::new(revealed, hidden) {
        todo.push(child.canonical());
    }
}

/// What a chance generation did.
#[derive(Debug, Default)]
pub struct ChanceSummary {
    /// Tables solved and written, with their entries.
    pub generated: Vec<(ChanceMaterial, u64)>,
    /// Tables present and intact, kept.
    pub kept: Vec<ChanceMaterial>,
    /// Time spent reading the smaller tables (the exits) and sweeping over the clocks, summed
    /// over the tables (and threads), and in writing.
    pub solving: Duration,
    /// Time spent encoding and writing files.
    pub writing: Duration,
}

/// Generates the chance tables of `targets` and every one they lead into under `root`
/// (`root/flip4x4/<material>.chance`), resumably: a table present and intact is kept. The
/// revealed tables they lead into must be there. Tables with as many face-down tiles and tiles
/// are solved in parallel; `report` hears of each one done (`Some(entries)` when solved, `None`
/// when kept), with the count done and the total.
///
/// # Errors
/// A table it needs is missing or damaged, or writing failed.
pub fn generate(
    root: &Path,
    targets: &[ChanceMaterial],
    report: &(dyn Fn(ChanceMaterial, Option<u64>, usize, usize) + Sync),
) -> Result<ChanceSummary, GenError> {
    let all = closure(targets);
    let total = all.len();
    let done = std::sync::atomic::AtomicUsize::new(0);
    let mut summary = ChanceSummary::default();
    let dir = root.join(jtb_probe::RuleSet::Flip4x4.name());
    std::fs::create_dir_all(&dir)
        .map_err(|e| std::io::Error::new(e.kind(), format!("{}: {e}", dir.display())))?;
    let mut start = 0;
    while start < all.len() {
        let level = (all[start].hidden().len(), all[start].tiles());
        let end = start
            + all[start..]
                .iter()
                .take_while(|m| (m.hidden().len(), m.tiles()) == level)
                .count();
        // Opened anew for each level: it sees the tables the levels before wrote.
        let tables = ChanceTables::open(root).map_err(probe_error)?;
        let results = all[start..end]
            .par_iter()
            .map(|&m| {
                let result = if is_intact(root, m) {
                    Ok((m, None))
                } else {
                    let t0 = Instant::now();
                    let solved = solve(&tables, m)?;
                    let t1 = Instant::now();
                    let bytes = encode(&solved)?;
                    write::write_atomic(&table_path(root, m), &bytes)?;
                    let entries = solved.values.len() as u64;
                    Ok((m, Some((entries, t1 - t0, t1.elapsed()))))
                };
                if let Ok((m, solved)) = &result {
                    let n = done.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
                    report(*m, solved.map(|s| s.0), n, total);
                }
                result
            })
            .collect::<Result<Vec<_>, GenError>>()?;
        for (m, solved) in results {
            match solved {
                None => summary.kept.push(m),
                Some((entries, solving, writing)) => {
                    summary.generated.push((m, entries));
                    summary.solving += solving;
                    summary.writing += writing;
                }
            }
        }
        start = end;
    }
    Ok(summary)
}
