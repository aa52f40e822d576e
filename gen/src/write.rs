//! Writing a solved table as its three files (DTC, DTM and WDL), atomically.

use std::{
    fs::{self, File},
    io::{self, Write},
    path::Path,
};

use jtb_probe::{
    clock::Category,
    format::{self, table_path, Encoding, Header, Kind, SideStats, INDEX_SCHEME},
    Layout, Value, Wdl,
};
use rayon::prelude::*;

use crate::{Solved, UNUSED};

/// zstd level of the blocks of the files. On a seventh of the 4-piece files, level 5 against
/// level 12 makes DTM files 10% larger at a twelfth of the time (3.96 s against 48 s), WDL
/// files 10% larger; DTC files are 3.5% larger than at level 6. At level 12, compression was
/// half of the whole generation. Decompression speed is the same at every level.
const ZSTD_LEVEL: i32 = 5;

/// The longest win of one side and the entries that have it.
#[derive(Default)]
struct Longest {
    plies: u16,
    entries: Vec<usize>,
}

impl Longest {
    fn note(&mut self, plies: u16, idx: usize) {
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
struct Tally {
    stats: [[SideStats; 2]; 2],
    longest: [[Longest; 2]; 2],
    /// Per metric, whether a code needs two bytes.
    wide: [bool; 2],
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

    fn merge(mut self, other: Tally) -> Tally {
        for (mine, theirs) in self.wide.iter_mut().zip(other.wide) {
            *mine |= theirs;
        }
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

/// What the headers of a solved table's files say of it, and how wide its codes are.
pub struct Summary {
    /// Plain values (for the WDL and DTM files).
    pub plain: [SideStats; 2],
    /// Values under the clock rule at clock 0 (for the DTC file).
    pub rule: [SideStats; 2],
    /// The encodings of the DTM and the DTC file: one byte an entry where every code fits.
    pub encodings: [Encoding; 2],
}

/// Statistics of a solved table: plain values (for the WDL and DTM files), and values under
/// the clock rule at clock 0 (for the DTC file); and the encodings its codes need.
///
/// # Panics
/// If the table was not made by the solver (its unused entries must hold [`UNUSED`]).
pub fn summarize(solved: &Solved) -> Summary {
    let layout = &solved.layout;
    let limit = layout.rules().clock_limit();
    let side_len = layout.side_len();
    // Runs of entries with the first piece on one square: a position counts once when that
    // square is on the mirror axis (its mirror image is in the table too), else twice.
    let run = layout.stride(0);
    let weights: Vec<u64> = layout
        .domain(0)
        .iter()
        .map(|&sq| if layout.on_mirror_axis(&[sq]) { 1 } else { 2 })
        .collect();
    let tally = (0..layout.len() / run)
        .into_par_iter()
        .with_min_len(SUMMARY_MIN_ENTRIES.div_ceil(run))
        .map(|r| {
            let start = r * run;
            let side = usize::from(start >= side_len);
            let weight = weights[start % side_len / run];
            let codes = &solved.codes[start..start + run];
            let dtc_codes = &solved.dtc_codes[start..start + run];
            let mut tally = Tally::default();
            // Most entries are only counted, by plain value and DTC code; the rest (long wins,
            // codes past a byte) are noted one by one.
            let mut counts = [[0u64; 256]; 3];
            let value = |c| Value::from_code(c).expect("a solved entry");
            for (i, (&dtm, &dtc)) in codes.iter().zip(dtc_codes).enumerate() {
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
                    tally.wide[0] |= dtm > 0xff;
                    tally.wide[1] |= dtc > 0xff;
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
    let Tally {
        stats: [mut plain, mut rule],
        longest,
        wide,
    } = tally;
    for (stats, longest) in [&mut plain, &mut rule].into_iter().zip(&longest) {
        for (s, l) in stats.iter_mut().zip(longest) {
            s.longest_win = l.plies;
            s.longest_win_position = l.position(layout);
        }
    }
    Summary {
        plain,
        rule,
        encodings: wide.map(|w| if w { Encoding::Code16 } else { Encoding::Code8 }),
    }
}

/// The fewest entries a parallel task of [`summarize`] takes.
const SUMMARY_MIN_ENTRIES: usize = 1 << 14;

/// Fills `raw`, the decompressed bytes of a block in `encoding`, with the codes of `codes`
/// from entry `start` on (WDL: their plain values). Entries not in use (`used` holds
/// [`UNUSED`]) take the code of the entry in use before them (0 at the start): they continue
/// the runs around them, which compresses best.
fn fill_block(raw: &mut [u8], encoding: Encoding, codes: &[u16], used: &[u16], start: usize) {
    let entries = raw.len() * 4 / encoding.bytes_for(4);
    let end = (start + entries).min(codes.len());
    let mut last = (0..start)
        .rev()
        .find(|&i| used[i] != UNUSED)
        .map_or(0, |i| codes[i]);
    let in_block = codes[start..end].iter().zip(&used[start..end]);
    for (i, (&code, &use_code)) in in_block.enumerate() {
        if use_code != UNUSED {
            last = code;
        }
        match encoding {
            Encoding::Code8 => raw[i] = last as u8,
            Encoding::Code16 => raw[2 * i..2 * i + 2].copy_from_slice(&last.to_le_bytes()),
            Encoding::Wdl2 => {
                let wdl = Value::from_code(last).map_or(Wdl::Draw, Value::wdl);
                format::wdl2_put(raw, i, wdl);
            }
        }
    }
}

/// The bytes of the files of a solved table, in the order [`Kind::ALL`] writes them: DTC, DTM,
/// WDL. The same table always gives the same bytes.
///
/// Each block is filled from the codes and compressed in one parallel task, the blocks of the
/// three files together: no file image is ever whole in memory, and the cores stay busy to
/// the end.
///
/// # Errors
/// Compression failed.
pub fn encode(solved: &Solved) -> io::Result<[(Kind, Vec<u8>); 3]> {
    let layout = &solved.layout;
    let Summary {
        plain,
        rule,
        encodings: [dtm_encoding, dtc_encoding],
    } = summarize(solved);
    let header = |kind, encoding: Encoding, stats: &[SideStats; 2]| Header {
        kind,
        rules: layout.rules(),
        material: layout.material(),
        index_scheme: INDEX_SCHEME,
        encoding,
        entries: layout.len() as u64,
        block_entries: encoding.block_entries(),
        blocks: 0,
        stats: stats.clone(),
        generator: concat!("jtb-gen ", env!("CARGO_PKG_VERSION")).to_owned(),
    };
    // In the order of Kind::ALL, with the codes each file shows.
    let files = [
        (header(Kind::Dtc, dtc_encoding, &rule), &solved.dtc_codes),
        (header(Kind::Dtm, dtm_encoding, &plain), &solved.codes),
        (header(Kind::Wdl, Encoding::Wdl2, &plain), &solved.codes),
    ];
    let len = layout.len();
    let blocks_of = |h: &Header| len.div_ceil(h.block_entries as usize);
    let tasks: Vec<(usize, usize)> = files
        .iter()
        .enumerate()
        .flat_map(|(f, (h, _))| (0..blocks_of(h)).map(move |b| (f, b)))
        .collect();
    let compressor = || {
        let mut c = zstd::bulk::Compressor::new(ZSTD_LEVEL)?;
        c.include_checksum(true)?;
        Ok(c)
    };
    let blocks: Vec<Vec<u8>> = tasks
        .into_par_iter()
        .map_init(
            || (compressor(), Vec::new()),
            |(c, raw): &mut (io::Result<zstd::bulk::Compressor>, Vec<u8>), (f, b)| {
                let (h, codes) = &files[f];
                let start = b * h.block_entries as usize;
                let entries = (len - start).min(h.block_entries as usize);
                raw.clear();
                raw.resize(h.encoding.bytes_for(entries), 0);
                fill_block(raw, h.encoding, codes, &solved.codes, start);
                match c {
                    Ok(c) => c.compress(raw),
                    Err(e) => Err(io::Error::new(e.kind(), e.to_string())),
                }
            },
        )
        .collect::<io::Result<_>>()?;
    let mut blocks = blocks.into_iter();
    Ok(files.map(|(h, _)| {
        let mine: Vec<Vec<u8>> = blocks.by_ref().take(blocks_of(&h)).collect();
        (h.kind, format::file_bytes(&h, &mine))
    }))
}

/// This host's name as it goes into temporary file names: letters, digits and `-` only
/// (`localhost` where the system does not tell).
#[must_use]
pub fn host_name() -> String {
    let name = fs::read_to_string("/proc/sys/kernel/hostname").unwrap_or_default();
    let name: String = name
        .trim()
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .collect();
    if name.is_empty() {
        "localhost".to_owned()
    } else {
        name
    }
}

/// Writes `bytes` to `path` atomically: a temporary file in the same directory (named after the
/// file, the host and the process), synced, then renamed over `path`. A crash leaves either the old file, the new one, or a stray temporary
/// (never a partial file under the final name).
///
/// # Errors
/// Any I/O error, with the path in its message.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let dir = path.parent().unwrap_or(Path::new("."));
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("table");
    let tmp = dir.join(format!(
        ".{name}.{}.{}.tmp",
        host_name(),
        std::process::id()
    ));
    let with_path =
        |e: io::Error, p: &Path| io::Error::new(e.kind(), format!("{}: {e}", p.display()));
    let result = (|| {
        let mut f = File::create(&tmp)?;
        f.write_all(bytes)?;
        f.sync_all()?;
        drop(f);
        fs::rename(&tmp, path)
    })();
    if let Err(e) = result {
        let _ = fs::remove_file(&tmp);
        return Err(with_path(e, path));
    }
    // Make the rename durable; not every platform can sync a directory.
    if let Ok(d) = File::open(dir) {
        let _ = d.sync_all();
    }
    Ok(())
}

/// Writes the files of a solved table under `root` in the order of [`Kind::ALL`] (the WDL file
/// last: a table counts as present only when all are).
///
/// # Errors
/// Any I/O error, naming the file.
pub fn write_table(root: &Path, solved: &Solved) -> io::Result<()> {
    let layout = &solved.layout;
    write_files(root, layout.rules(), layout.material(), &encode(solved)?)
}

/// Writes the encoded files of a table ([`encode`]) under `root`, atomically each, in the
/// order given (the WDL file last).
///
/// # Errors
/// Any I/O error, naming the file.
pub fn write_files(
    root: &Path,
    rules: jtb_probe::RuleSet,
    material: jtb_probe::Material,
    files: &[(Kind, Vec<u8>)],
) -> io::Result<()> {
    let dir = root.join(rules.name());
    fs::create_dir_all(&dir)
        .map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", dir.display())))?;
    for (kind, bytes) in files {
        write_atomic(&table_path(root, rules, material, *kind), bytes)?;
    }
    Ok(())
}
