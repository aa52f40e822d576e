//! The DTE files of the flip game's revealed tables (RULES.md 8, "Certain results and their
//! distance"): for every fully revealed position and clock whose rule value is a win or a loss,
//! the plies within which the winner ends the game, the winner shortest and the loser longest,
//! under the clock. A last flip leads into them at clock 0, and a step inside a revealed table
//! one clock on, so each table is solved at every clock, as the chance tables are.
//!
//! The win, draw or loss at each clock is the revealed table's rule value (its DTC against the
//! plies left, RULES.md 5.4); only the distance is solved here, by backward induction over the
//! clock. Each position's moves are checked against its rule value on the way (a win has a
//! move to a loss of the opponent, a loss only moves to the opponent's wins): a revealed table
//! that contradicts itself stops the generation.

use std::path::{Path, PathBuf};

use jtb_probe::{
    clock::rule_wdl,
    flip::{ChanceTables, Dte, RevealedDte, CLOCKS},
    format::{self, family_table_path, Encoding, Header, Kind, SideStats, INDEX_SCHEME},
    Layout, Material, Outcome, Position, ProbeError, RuleSet, TableError, TableFile, Value, Wdl,
};
use rayon::prelude::*;

use crate::{driver, write, GenError};

/// An entry whose DTE is not what its moves give one ply deep: the position's text with its
/// clock, the stored DTE and the DTE its moves give (`None`: no distance).
pub type DteMismatch = (String, Option<u32>, Option<u32>);

/// The clock limit of the flip game.
const LIMIT: u32 = CLOCKS as u32;

/// The path of the DTE file of the revealed table of `material` under `root`.
#[must_use]
pub fn revealed_dte_path(root: &Path, material: Material) -> PathBuf {
    family_table_path(root, RevealedDte, material, Kind::Dte)
}

/// A move of a revealed position: to a position of the same table one clock on, or out of it
/// (a capture into a smaller table at clock 0, or the end of the game) with its worth for the
/// mover and its DTE worth.
#[derive(Debug, Clone, Copy)]
enum Exit {
    /// A plain step to the position of this index.
    Step(u32),
    /// A move that leaves the table: win, draw or loss for the mover, with 1 + the distance of
    /// the position it gives where that is certain.
    Out(Wdl, u32),
}

/// A revealed position's DTC and moves.
struct RevealedNode {
    dtc: Value,
    exits: Vec<Exit>,
}

impl RevealedNode {
    /// The DTE at `clock`, `later` giving each step's position's DTC and DTE at `clock + 1`:
    /// `None` where the rule value at `clock` is a draw; an error naming the position where
    /// the moves contradict the rule value.
    fn dte_at(
        &self,
        clock: u32,
        later: impl Fn(usize) -> (Value, Option<u32>),
    ) -> Result<Option<u32>, ()> {
        let worth = |exit: &Exit| -> (Wdl, Option<u32>) {
            match *exit {
                Exit::Out(wdl, dte) => (wdl, Some(dte)),
                Exit::Step(j) => {
                    let (dtc, dte) = later(j as usize);
                    if dtc == Value::Loss(0) {
                        // The opponent has no move: the game has ended, also at clock 40
                        // (RULES.md 8: end rule 2 before rule 4).
                        return (Wdl::Win, Some(1));
                    }
                    let wdl = rule_wdl(dtc, clock + 1, LIMIT).flipped();
                    (wdl, dte.map(|d| d + 1))
                }
            }
        };
        match rule_wdl(self.dtc, clock, LIMIT) {
            Wdl::Draw => Ok(None),
            Wdl::Win => {
                let mut shortest: Option<u32> = None;
                for exit in &self.exits {
                    if let (Wdl::Win, d) = worth(exit) {
                        let d = d.ok_or(())?;
                        shortest = Some(shortest.map_or(d, |s| s.min(d)));
                    }
                }
                shortest.map(Some).ok_or(())
            }
            Wdl::Loss => {
                let mut longest = 0;
                for exit in &self.exits {
                    match worth(exit) {
                        (Wdl::Loss, Some(d)) => longest = longest.max(d),
                        _ => return Err(()),
                    }
                }
                Ok(Some(longest))
            }
        }
    }
}

/// A probe's error as the generator's.
pub(super) fn probe_error(e: ProbeError) -> GenError {
    GenError::Probe(Box::new(e))
}

/// The moves of every position of `material`'s revealed table (`None` for an unused entry),
/// the smaller tables' rule values and DTE files being readable in `tables`.
fn nodes(tables: &ChanceTables, layout: &Layout) -> Result<Vec<Option<RevealedNode>>, GenError> {
    let material = layout.material();
    (0..layout.len())
        .into_par_iter()
        .map(|idx| {
            let Some(mut pos) = layout.position(idx) else {
                return Ok(None);
            };
            pos.set_clock(Some(0)).expect("the flip game has a clock");
            node(tables, layout, material, &pos).map(Some)
        })
        .collect::<Result<_, ProbeError>>()
        .map_err(probe_error)
}

fn node(
    tables: &ChanceTables,
    layout: &Layout,
    material: Material,
    pos: &Position,
) -> Result<RevealedNode, ProbeError> {
    let dtc = tables.revealed().probe_dtc(pos)?;
    let mut exits = Vec::new();
    for mv in pos.legal_moves() {
        let exit = match pos.play(mv).expect("a listed move is legal") {
            Outcome::Over { result, .. } => Exit::Out(result, 1),
            // A step inside the table (one into a position without a move: see `dte_at`).
            Outcome::Ongoing(next) if Material::of(&next) == material => {
                let j = layout.index_of(&next).expect("a position of the table");
                Exit::Step(u32::try_from(j).expect("tables of fewer than 2^32 positions"))
            }
            Outcome::Ongoing(next) => {
                // A capture or trade into a smaller table, at clock 0 (or a position whose
                // mover has no move: the game has ended).
                let (value, dte) = tables.after_move_with_dte(&next)?;
                let wdl = certain_wdl(value.for_mover());
                let dte = match wdl {
                    Wdl::Draw => 0,
                    _ => 1 + dte.unwrap_or(0),
                };
                Exit::Out(wdl, dte)
            }
        };
        exits.push(exit);
    }
    Ok(RevealedNode { dtc, exits })
}

/// Win, draw or loss of a certain chance value (a revealed position's value is certain).
fn certain_wdl(v: jtb_probe::flip::ChanceValue) -> Wdl {
    use jtb_probe::flip::ChanceValue;
    match v {
        ChanceValue::WIN => Wdl::Win,
        ChanceValue::LOSS => Wdl::Loss,
        _ => Wdl::Draw,
    }
}

/// The DTE of every position of `material`'s revealed table at every clock, as stored codes
/// ([`Dte::code`], entry `index * CLOCKS + clock`), with the file header's statistics, by backward induction from clock 39: the
/// revealed tables of `material` and those its captures lead into, and the DTE files of the
/// latter, being readable in `tables`.
///
/// # Errors
/// A table it reads is missing or damaged, or a position's moves contradict its rule value.
pub fn solve_revealed(
    tables: &ChanceTables,
    material: Material,
) -> Result<(Vec<u16>, [SideStats; 2]), GenError> {
    let layout = Layout::new(RuleSet::Flip4x4, material);
    let nodes = nodes(tables, &layout)?;
    let n = nodes.len();
    let mut codes = vec![0u16; n * CLOCKS];
    // At clock 40 the game is drawn: no distance.
    let mut later: Vec<Option<u32>> = vec![None; n];
    let dtc = |j: usize| nodes[j].as_ref().map_or(Value::Draw, |node| node.dtc);
    for clock in (0..CLOCKS).rev() {
        let now: Vec<Option<u32>> = nodes
            .par_iter()
            .enumerate()
            .map(|(idx, node)| match node {
                None => Ok(None),
                Some(node) => node
                    .dte_at(clock as u32, |j| (dtc(j), later[j]))
                    .map_err(|()| contradiction(&layout, idx, clock, node.dtc)),
            })
            .collect::<Result<_, GenError>>()?;
        for (idx, d) in now.iter().enumerate() {
            codes[idx * CLOCKS + clock] = code(*d)?;
        }
        later = now;
    }
    let stats = revealed_stats(&layout, &nodes, &codes);
    Ok((codes, stats))
}

/// Checks every entry of `material`'s revealed DTE file at every clock one ply deep: each is
/// what its moves give from the file's entries one clock on. Returns the entries checked and
/// the first entry found wrong (position text with its clock, stored, and what the moves give).
///
/// # Errors
/// A table it reads is missing or damaged, or a position's moves contradict its rule value.
pub fn verify_revealed(
    tables: &ChanceTables,
    root: &Path,
    material: Material,
) -> Result<(u64, Option<DteMismatch>), GenError> {
    let layout = Layout::new(RuleSet::Flip4x4, material);
    let stored = load_revealed(root, material)?;
    let nodes = nodes(tables, &layout)?;
    let dtc = |j: usize| nodes[j].as_ref().map_or(Value::Draw, |node| node.dtc);
    let at = |j: usize, clock: usize| {
        if clock >= CLOCKS {
            None
        } else {
            Dte::from_code(stored[j * CLOCKS + clock])
        }
    };
    let found = nodes
        .par_iter()
        .enumerate()
        .filter_map(|(idx, node)| node.as_ref().map(|node| (idx, node)))
        .map(|(idx, node)| -> Result<_, GenError> {
            let mut checked = 0;
            for clock in 0..CLOCKS {
                checked += 1;
                let best = node
                    .dte_at(clock as u32, |j| (dtc(j), at(j, clock + 1)))
                    .map_err(|()| contradiction(&layout, idx, clock, node.dtc))?;
                if best != at(idx, clock) {
                    let text = text_at(&layout, idx, clock);
                    return Ok((checked, Some((text, at(idx, clock), best))));
                }
            }
            Ok((checked, None))
        })
        .try_reduce(
            || (0, None),
            |a, b| {
                let first = match (a.1, b.1) {
                    (Some(x), Some(y)) => Some(if y.0 < x.0 { y } else { x }),
                    (x, y) => x.or(y),
                };
                Ok((a.0 + b.0, first))
            },
        )?;
    Ok(found)
}

/// The stored codes of `material`'s revealed DTE file under `root`, read back whole.
///
/// # Errors
/// The file is missing, of another table, or damaged.
pub fn load_revealed(root: &Path, material: Material) -> Result<Vec<u16>, GenError> {
    let path = revealed_dte_path(root, material);
    let file = TableFile::open_expecting(&path, RevealedDte, material, Kind::Dte)?;
    read_codes(&file)
}

/// Every code of a DTE file, in entry order.
///
/// # Errors
/// A damaged block.
pub fn read_codes<R: format::Family>(file: &TableFile<R>) -> Result<Vec<u16>, GenError> {
    let mut codes = Vec::with_capacity(file.header().entries as usize);
    for b in 0..file.header().blocks {
        let block = file.block(b)?;
        for i in 0..file.header().entries_in(b) {
            codes.push(file.code_entry(&block, i)?);
        }
    }
    Ok(codes)
}

fn text_at(layout: &Layout, idx: usize, clock: usize) -> String {
    let mut pos = layout.position(idx).expect("a used entry");
    pos.set_clock(Some(clock as u32)).expect("below the limit");
    pos.to_string()
}

/// The error of a position whose moves contradict its rule value (from its DTC).
fn contradiction(layout: &Layout, idx: usize, clock: usize, dtc: Value) -> GenError {
    probe_error(ProbeError::Inconsistent {
        position: text_at(layout, idx, clock),
        noun: "move",
        kind: Kind::Dtc,
        stored: dtc,
        best: None,
    })
}

/// The stored code of a distance ([`Dte::code`]), as the files hold it.
pub(super) fn code(d: Option<u32>) -> Result<u16, GenError> {
    u16::try_from(Dte::code(d)).map_err(|_| {
        GenError::Io(std::io::Error::other(
            "a distance to the end above 65,534 plies",
        ))
    })
}

/// The bytes of a DTE file of `entries` codes for the table of `material` in `rules`' family,
/// with the header's statistics.
///
/// # Errors
/// Compression failed.
pub fn encode<R: format::Family>(
    rules: R,
    material: R::Material,
    codes: &[u16],
    stats: [SideStats; 2],
) -> std::io::Result<Vec<u8>> {
    let encoding = if codes.iter().all(|&c| c < 256) {
        Encoding::Code8
    } else {
        Encoding::Code16
    };
    let mut raw = Vec::with_capacity(encoding.bytes_for(codes.len()));
    for &c in codes {
        match encoding {
            Encoding::Code8 => raw.push(c as u8),
            _ => raw.extend_from_slice(&c.to_le_bytes()),
        }
    }
    let blocks = write::compress_raw(encoding, &raw)?;
    let header = Header {
        kind: Kind::Dte,
        rules,
        material,
        index_scheme: INDEX_SCHEME,
        encoding,
        entries: codes.len() as u64,
        block_entries: 0,
        blocks: 0,
        stats,
        generator: concat!("jtb-gen ", env!("CARGO_PKG_VERSION")).to_owned(),
    };
    Ok(format::file_bytes(&header, &blocks))
}

/// Per side to move, over the used entries at clock 0: the rule wins, draws and losses, and
/// the longest distance of a win with the smallest position text that has it.
fn revealed_stats(
    layout: &Layout,
    nodes: &[Option<RevealedNode>],
    codes: &[u16],
) -> [SideStats; 2] {
    let mut stats = [SideStats::default(), SideStats::default()];
    for (idx, node) in nodes.iter().enumerate() {
        let Some(node) = node else { continue };
        let side = &mut stats[usize::from(idx >= layout.side_len())];
        match rule_wdl(node.dtc, 0, LIMIT) {
            Wdl::Draw => side.draws += 1,
            Wdl::Loss => side.losses += 1,
            Wdl::Win => {
                side.wins += 1;
                let d = Dte::from_code(codes[idx * CLOCKS]).unwrap_or(0);
                let d = u16::try_from(d).unwrap_or(u16::MAX);
                if d < side.longest_win {
                    continue;
                }
                // A position's text only for a candidate: text is dear beside the rest.
                let text = text_at(layout, idx, 0);
                if d > side.longest_win || text < side.longest_win_position {
                    side.longest_win = d;
                    side.longest_win_position = text;
                }
            }
        }
    }
    stats
}

/// Whether `material`'s revealed DTE file under `root` is present and intact.
///
/// # Errors
/// Why a file that is there cannot be kept.
pub fn check_revealed(root: &Path, material: Material) -> Result<bool, TableError> {
    let path = revealed_dte_path(root, material);
    if !path.exists() {
        return Ok(false);
    }
    TableFile::open_expecting(&path, RevealedDte, material, Kind::Dte)?.verify_checksum()?;
    Ok(true)
}

/// Makes the revealed DTE files of `materials` and of every revealed table their captures lead
/// into, under `root`, fewest pieces first, those of one piece count side by side; a file
/// present and intact is kept. The revealed tables themselves must be there. Returns the
/// tables made.
///
/// # Errors
/// A revealed table is missing or damaged, or writing failed.
pub fn generate_revealed(root: &Path, materials: &[Material]) -> Result<Vec<Material>, GenError> {
    let mut made = Vec::new();
    for level in crate::jungle::plan::closure(RuleSet::Flip4x4, materials) {
        let todo: Vec<Material> = level
            .into_iter()
            .filter(|&m| !matches!(check_revealed(root, m), Ok(true)))
            .collect();
        if todo.is_empty() {
            continue;
        }
        // Opened anew for each level: it sees the files of the levels before.
        let tables = ChanceTables::open(root).map_err(probe_error)?;
        todo.par_iter().try_for_each(|&m| -> Result<(), GenError> {
            let (codes, stats) = solve_revealed(&tables, m)?;
            let bytes = encode(RevealedDte, m, &codes, stats)?;
            driver::files::write_atomic(&revealed_dte_path(root, m), &bytes)?;
            Ok(())
        })?;
        made.extend(todo);
    }
    Ok(made)
}
