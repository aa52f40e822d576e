//! Encoding a solved table as its three files (DTC or the ban, DTM and WDL); [`write_table`]
//! writes them outside a generation.

use std::{io, path::Path};

use jtb_probe::{
    clock::Category,
    format::{self, table_path, Encoding, Header, Kind, SideStats, INDEX_SCHEME},
    Layout, RuleSet, Value, Wdl,
};
use rayon::prelude::*;

use crate::{
    driver::files::{create_dir, write_atomic},
    game::game_of,
    Codes, Metric, Solved, UNUSED,
};

/// zstd level of the blocks of the files. Level 12 made files about 10% smaller than level 5
/// at twelve times the time, when compression was half of a generation. On `ETvLR`'s DTM and
/// DTC images in 16 KiB blocks (`zstd -b3 -e5 -B16384`), level 4 compresses at 309 MB/s to
/// 2.01 MB, level 5 at 216 MB/s to 1.93 MB (4% smaller, 1.4 times the time), level 3 at 515
/// MB/s to 2.12 MB; compression is the largest part of the last table's time. Decompression
/// is within 10% at every level.
const ZSTD_LEVEL: i32 = 4;

/// The longest win of one side and the entries that have it.
#[derive(Default)]
pub(crate) struct Longest {
    plies: u16,
    entries: Vec<usize>,
}

impl Longest {
    pub(crate) fn note(&mut self, plies: u16, idx: usize) {
        if plies > self.plies {
            self.plies = plies;
            self.entries.clear();
        }
        if plies == self.plies {
            self.entries.push(idx);
        }
    }

    fn merge(&mut self, other: Longest) {
        if other.plies > self.plies {
            *self = other;
        } else if other.plies == self.plies {
            self.entries.extend(other.entries);
        }
    }

    /// The smallest position text (ASCII order) of the longest win, over both mirror images.
    fn position(&self, layout: &Layout) -> String {
        self.entries
            .iter()
            .flat_map(|&i| {
                let p = layout.position(i).expect("used entry");
                [p.to_string(), p.mirrored().to_string()]
            })
            .min()
            .unwrap_or_default()
    }
}

/// Counts and longest wins of part of a table: plain values, then values under the clock rule
/// at clock 0, per side to move.
#[derive(Default)]
pub(crate) struct Tally {
    pub(crate) stats: [[SideStats; 2]; 2],
    pub(crate) longest: [[Longest; 2]; 2],
}

impl Tally {
    /// Notes entry `idx`, of side to move `side`, counted `weight` times.
    fn note(&mut self, idx: usize, side: usize, weight: u64, [value, dtc]: [Value; 2], limit: u32) {
        self.count(side, value.wdl(), dtc, weight, limit);
        if let Value::Win(d) = value {
            self.longest[0][side].note(d, idx);
        }
        if let Value::Win(d) = dtc {
            self.longest[1][side].note(d, idx);
        }
    }

    /// Counts `n` entries of side to move `side` with the plain value `plain` and the DTC
    /// `dtc`.
    fn count(&mut self, side: usize, plain: Wdl, dtc: Value, n: u64, limit: u32) {
        let s = &mut self.stats[0][side];
        match plain {
            Wdl::Win => s.wins += n,
            Wdl::Draw => s.draws += n,
            Wdl::Loss => s.losses += n,
        }
        let s = &mut self.stats[1][side];
        match Category::of(plain, dtc, limit) {
            Category::Win => s.wins += n,
            Category::Loss => s.losses += n,
            Category::Draw => s.draws += n,
            Category::CursedWin => {
                s.draws += n;
                s.cursed_wins += n;
            }
            Category::BlessedLoss => {
                s.draws += n;
                s.blessed_losses += n;
            }
        }
    }

    /// Whether a win of code `code` is at least as long as the longest of `metric` for `side`
    /// so far (it must then be noted with its entry).
    fn long_win(&self, metric: usize, side: usize, code: u16) -> bool {
        code % 2 == 1 && code / 2 >= self.longest[metric][side].plies
    }

    /// The counts with each longest win and the smallest position text that has it.
    pub(crate) fn into_summary(self, layout: &Layout) -> Summary {
        let Tally {
            stats: [mut plain, mut rule],
            longest,
        } = self;
        for (stats, longest) in [&mut plain, &mut rule].into_iter().zip(&longest) {
            for (s, l) in stats.iter_mut().zip(longest) {
                s.longest_win = l.plies;
                s.longest_win_position = l.position(layout);
            }
        }
        Summary { plain, rule }
    }

    pub(crate) fn merge(mut self, other: Tally) -> Tally {
        for (mine, theirs) in self
            .stats
            .iter_mut()
            .flatten()
            .zip(other.stats.iter().flatten())
        {
            mine.wins += theirs.wins;
            mine.draws += theirs.draws;
            mine.losses += theirs.losses;
            mine.cursed_wins += theirs.cursed_wins;
            mine.blessed_losses += theirs.blessed_losses;
        }
        for (mine, theirs) in self
            .longest
            .iter_mut()
            .flatten()
            .zip(other.longest.into_iter().flatten())
        {
            mine.merge(theirs);
        }
        self
    }
}

/// What the headers of a solved table's files say of it.
pub struct Summary {
    /// Plain values (for the WDL and DTM files).
    pub plain: [SideStats; 2],
    /// Values under the clock rule at clock 0 (for the DTC file).
    pub rule: [SideStats; 2],
}

/// Statistics of a solved table: plain values (for the WDL and DTM files), and values under
/// the clock rule at clock 0 (for the DTC file).
///
/// # Panics
/// If the table was not made by the solver (its unused entries must hold [`UNUSED`]).
pub fn summarize(solved: &Solved) -> Summary {
    let layout = &solved.layout;
    let limit = layout.rules().clock_limit();
    let side_len = layout.side_len();
    let (run, weights) = first_piece_runs(layout);
    let tally = (0..layout.len() / run)
        .into_par_iter()
        .with_min_len(SUMMARY_MIN_ENTRIES.div_ceil(run))
        .map(|r| {
            let start = r * run;
            let side = usize::from(start >= side_len);
            let weight = weights[start % side_len / run];
            let codes = solved.codes.iter_range(start..start + run);
            let dtc_codes = solved.second_codes.iter_range(start..start + run);
            let mut tally = Tally::default();
            // Most entries are only counted, by plain value and DTC code; the rest (long wins,
            // codes past a byte) are noted one by one.
            let mut counts = [[0u64; 256]; 3];
            let value = |c| Value::from_code(c).expect("a solved entry");
            for (i, (dtm, dtc)) in codes.zip(dtc_codes).enumerate() {
                if dtm == UNUSED {
                    continue;
                }
                if dtm < 256
                    && dtc < 256
                    && !tally.long_win(0, side, dtm)
                    && !tally.long_win(1, side, dtc)
                {
                    let plain = match dtm {
                        0 => 0,
                        c if c % 2 == 1 => 1,
                        _ => 2,
                    };
                    counts[plain][usize::from(dtc)] += 1;
                } else {
                    tally.note(start + i, side, weight, [value(dtm), value(dtc)], limit);
                }
            }
            for (plain, by_dtc) in [Wdl::Draw, Wdl::Win, Wdl::Loss].into_iter().zip(&counts) {
                for (dtc, &n) in (0u16..).zip(by_dtc) {
                    if n != 0 {
                        tally.count(side, plain, value(dtc), n * weight, limit);
                    }
                }
            }
            tally
        })
        .reduce(Tally::default, Tally::merge);
    tally.into_summary(layout)
}

/// The runs of entries with the first piece on one square, as their length, and per square of
/// the first piece's domain how many positions an entry there counts for: once when that square
/// is on the mirror axis (its mirror image is in the table too), else twice.
pub(crate) fn first_piece_runs(layout: &Layout) -> (usize, Vec<u64>) {
    let weights = layout
        .domain(0)
        .iter()
        .map(|&sq| if layout.on_mirror_axis(&[sq]) { 1 } else { 2 })
        .collect();
    (layout.stride(0), weights)
}

/// The fewest entries a parallel task of [`summarize`] takes.
const SUMMARY_MIN_ENTRIES: usize = 1 << 14;

/// Fills `raw`, the decompressed bytes of a block in `encoding`, with the codes of `codes`
/// from entry `start` on (WDL: their plain values). Unused entries ([`UNUSED`]) take the code
/// of the entry in use before them (0 at the start): they continue the runs around them,
/// which compresses best.
fn fill_block(raw: &mut [u8], encoding: Encoding, codes: &Codes, start: usize) {
    let entries = raw.len() * 4 / encoding.bytes_for(4);
    let end = (start + entries).min(codes.len());
    let mut last = codes.last_before(start, UNUSED).unwrap_or(0);
    let mut filled = codes.iter_range(start..end).map(|code| {
        if code != UNUSED {
            last = code;
        }
        last
    });
    match encoding {
        Encoding::Code8 => raw.iter_mut().zip(filled).for_each(|(r, c)| *r = c as u8),
        Encoding::Code16 => raw
            .chunks_exact_mut(2)
            .zip(filled)
            .for_each(|(r, c)| r.copy_from_slice(&c.to_le_bytes())),
        Encoding::Wdl2 => {
            let wdl_of = |c: u16| Value::from_code(c).map_or(Wdl::Draw, Value::wdl);
            for byte in raw.iter_mut() {
                *byte = 0;
                for (i, c) in filled.by_ref().take(4).enumerate() {
                    format::wdl2_put(std::slice::from_mut(byte), i, wdl_of(c));
                }
            }
        }
    }
}

/// The compressed blocks of the files that show one metric's codes: the DTM and WDL files for
/// distance to mate, the DTC file for distance to conversion ([`compress`]).
pub struct Compressed {
    metric: Metric,
    /// Per file: its kind, its entries' encoding and its compressed blocks.
    pub(crate) files: Vec<(Kind, Encoding, Vec<Vec<u8>>)>,
}

/// Compresses the blocks of the files that show `codes`, one metric's codes of a solved table
/// (unused entries hold [`UNUSED`]). Each block is filled and compressed in one parallel task:
/// no file image is ever whole in memory. The generator calls this as soon as a metric is
/// solved, while the other one may still be solving ([`crate::game::FamilyGame::solve_then`]).
///
/// # Errors
/// Compression failed.
pub fn compress(rules: RuleSet, metric: Metric, codes: &Codes) -> io::Result<Compressed> {
    // One byte an entry where every code fits.
    let code_encoding = if codes.has_wide() {
        Encoding::Code16
    } else {
        Encoding::Code8
    };
    let kinds: &[(Kind, Encoding)] = match metric {
        // A WDL file made from both metrics (Clesto's shows the ban's results too) is not
        // the DTM codes'.
        Metric::Dtm if !game_of(rules).wdl_with_dtm() => &[(Kind::Dtm, code_encoding)],
        Metric::Dtm => &[(Kind::Dtm, code_encoding), (Kind::Wdl, Encoding::Wdl2)],
        Metric::Dtc | Metric::Ban => &[(metric.kind(), code_encoding)],
    };
    compress_kinds(metric, kinds, codes)
}

/// Compresses the blocks of the files `kinds` (each with its encoding) that show `codes`
/// (unused entries hold [`UNUSED`]), every game's tables alike.
pub(crate) fn compress_kinds(
    metric: Metric,
    kinds: &[(Kind, Encoding)],
    codes: &Codes,
) -> io::Result<Compressed> {
    let blocks_of = |e: Encoding| codes.len().div_ceil(e.block_entries() as usize);
    let tasks: Vec<(Encoding, usize)> = kinds
        .iter()
        .flat_map(|&(_, e)| (0..blocks_of(e)).map(move |b| (e, b)))
        .collect();

    // Per task: a compressor, the block's bytes, and room for the worst case of its
    // compression (the block kept takes only what it needs: a large table holds its first
    // metric's blocks while the second one solves).
    let scratch = || (block_compressor(), Vec::new(), Vec::new());
    type Scratch = (
        io::Result<zstd::bulk::Compressor<'static>>,
        Vec<u8>,
        Vec<u8>,
    );
    let blocks: Vec<Vec<u8>> = tasks
        .into_par_iter()
        .map_init(scratch, |(c, raw, out): &mut Scratch, (encoding, b)| {
            let start = b * encoding.block_entries() as usize;
            let entries = (codes.len() - start).min(encoding.block_entries() as usize);
            raw.clear();
            raw.resize(encoding.bytes_for(entries), 0);
            fill_block(raw, encoding, codes, start);
            out.clear();
            out.reserve(zstd::zstd_safe::compress_bound(raw.len()));
            match c {
                Ok(c) => c.compress_to_buffer(raw, out).map(|_| out.clone()),
                Err(e) => Err(io::Error::new(e.kind(), e.to_string())),
            }
        })
        .collect::<io::Result<_>>()?;
    let mut blocks = blocks.into_iter();
    let files = kinds
        .iter()
        .map(|&(kind, e)| (kind, e, blocks.by_ref().take(blocks_of(e)).collect()))
        .collect();
    Ok(Compressed { metric, files })
}

/// A compressor of table blocks: zstd frames with content checksums.
fn block_compressor() -> io::Result<zstd::bulk::Compressor<'static>> {
    let mut c = zstd::bulk::Compressor::new(ZSTD_LEVEL)?;
    c.include_checksum(true)?;
    Ok(c)
}

/// The compressed blocks of a whole file's decompressed entries `raw` in `encoding`, each block
/// in one parallel task: for tables small enough to be whole in memory (the chance tables).
///
/// # Errors
/// Compression failed.
pub(crate) fn compress_raw(encoding: Encoding, raw: &[u8]) -> io::Result<Vec<Vec<u8>>> {
    let block_bytes = encoding.bytes_for(encoding.block_entries() as usize);
    raw.par_chunks(block_bytes)
        .map_init(block_compressor, |c, chunk| match c {
            Ok(c) => c.compress(chunk),
            Err(e) => Err(io::Error::new(e.kind(), e.to_string())),
        })
        .collect()
}

/// The bytes of the files of a solved table, in the order of [`RuleSet::table_kinds`]: DTC, DTM,
/// WDL. The same table always gives the same bytes.
///
/// # Errors
/// Compression failed.
pub fn encode(solved: &Solved) -> io::Result<[(Kind, Vec<u8>); 3]> {
    let rules = solved.layout.rules();
    let dtm = compress(rules, Metric::Dtm, &solved.codes)?;
    let second = compress(rules, Metric::second(rules), &solved.second_codes)?;
    assemble(solved, [dtm, second])
}

/// The bytes of the files of a solved table from their compressed blocks (of both metrics, in
/// either order), in the order of [`RuleSet::table_kinds`]: the headers need the whole table.
///
/// # Errors
/// Compressing a WDL file made from both metrics ([`crate::game::FamilyGame::summarize`])
/// failed.
///
/// # Panics
/// If `compressed` does not hold each metric once.
pub fn assemble(solved: &Solved, compressed: [Compressed; 2]) -> io::Result<[(Kind, Vec<u8>); 3]> {
    assert!(
        compressed[0].metric != compressed[1].metric,
        "the blocks of both metrics"
    );
    let layout = &solved.layout;
    let rules = layout.rules();
    let game = game_of(rules);
    let (summary, wdl) = game.summarize(solved)?;
    let mut files: Vec<(Kind, Vec<u8>)> = compressed
        .into_iter()
        .chain(wdl)
        .flat_map(|c| c.files)
        .map(|(kind, encoding, blocks)| {
            let header = Header {
                kind,
                rules: layout.rules(),
                material: layout.material(),
                index_scheme: INDEX_SCHEME,
                encoding,
                entries: layout.len() as u64,
                block_entries: 0,
                blocks: 0,
                stats: match kind {
                    Kind::Dtc | Kind::Ban => summary.rule.clone(),
                    Kind::Wdl => game.wdl_stats(&summary),
                    _ => summary.plain.clone(),
                },
                generator: concat!("jtb-gen ", env!("CARGO_PKG_VERSION")).to_owned(),
            };
            (kind, format::file_bytes(&header, &blocks))
        })
        .collect();
    let order = rules.table_kinds();
    files.sort_by_key(|&(kind, _)| order.iter().position(|&k| k == kind));
    Ok(files.try_into().expect("three files"))
}

/// Writes the files of a solved table under `root` in the order of [`RuleSet::table_kinds`]
/// (the WDL file last: a table counts as present only when all are), atomically each. A
/// generation writes its tables through [`crate::driver::run`] instead.
///
/// # Errors
/// Any I/O error, naming the file.
pub fn write_table(root: &Path, solved: &Solved) -> io::Result<()> {
    let (rules, material) = (solved.layout.rules(), solved.layout.material());
    create_dir(&root.join(rules.name()))?;
    for (kind, bytes) in encode(solved)? {
        write_atomic(&table_path(root, rules, material, kind), &bytes)?;
    }
    Ok(())
}
