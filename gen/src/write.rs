//! Writing a solved table as its two files (DTM and WDL), atomically.

use std::{
    fs::{self, File},
    io::{self, Write},
    path::{Path, PathBuf},
};

use jtb_probe::{
    format::{checksum, Encoding, Header, Kind, SideStats, HEADER_LEN, INDEX_SCHEME},
    Layout, Material, RuleSet, Square, Value,
};
use rayon::prelude::*;
use xxhash_rust::xxh3::Xxh3;

use crate::Solved;

/// zstd level of the blocks. Level 12 is within 4% of level 19's size on 4-piece tables at a
/// fifth of its time; decompression speed is the same.
const ZSTD_LEVEL: i32 = 12;

/// The path of the `kind` file of `material` under `rules` in the table directory `root`:
/// `root/<rules>/<material>.<wdl|dtm>`.
#[must_use]
pub fn table_path(root: &Path, rules: RuleSet, material: Material, kind: Kind) -> PathBuf {
    root.join(rules.name())
        .join(format!("{}.{}", material.canonical(), kind.extension()))
}

/// Calls `f(idx, squares)` for every used entry of `layout` (no two pieces on a square), in
/// index order; `squares` are in table order.
pub fn for_each_used_entry(layout: &Layout, mut f: impl FnMut(usize, &[Square])) {
    let k = layout.pieces().len();
    let domains: Vec<&[Square]> = (0..k).map(|i| layout.domain(i)).collect();
    let mut slots = vec![0usize; k];
    let mut squares: Vec<Square> = domains.iter().map(|d| d[0]).collect();
    for idx in 0..layout.len() {
        let used = (1..k).all(|i| !squares[..i].contains(&squares[i]));
        if used {
            f(idx, &squares);
        }
        // Advance the odometer; it wraps to all zeros between the two sides to move.
        for i in (0..k).rev() {
            slots[i] += 1;
            if slots[i] < domains[i].len() {
                squares[i] = domains[i][slots[i]];
                break;
            }
            slots[i] = 0;
            squares[i] = domains[i][0];
        }
    }
}

/// Statistics of a solved table, and a bitmap of its used entries.
pub fn summarize(solved: &Solved) -> ([SideStats; 2], Vec<u64>) {
    let layout = &solved.layout;
    let mut stats: [SideStats; 2] = Default::default();
    let mut longest: [Vec<usize>; 2] = Default::default();
    let mut used = vec![0u64; layout.len().div_ceil(64)];
    for_each_used_entry(layout, |idx, squares| {
        used[idx / 64] |= 1 << (idx % 64);
        let side = idx / layout.side_len();
        let weight = if layout.on_mirror_axis(squares) { 1 } else { 2 };
        let s = &mut stats[side];
        match solved.value(idx) {
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
    });
    for (s, idxs) in stats.iter_mut().zip(&longest) {
        s.longest_win_position = idxs
            .iter()
            .flat_map(|&i| {
                let p = layout.position(i).expect("used entry");
                [p.to_string(), p.mirrored().to_string()]
            })
            .min()
            .unwrap_or_default();
    }
    (stats, used)
}

/// `values` with every entry that `keep` rejects replaced by the entry before it (0 at the
/// start): don't-care entries continue the runs around them, which compresses best.
fn fill_dont_care<T: Copy + Default>(
    values: impl Iterator<Item = T>,
    keep: impl Fn(usize) -> bool,
) -> Vec<T> {
    let mut last = T::default();
    values
        .enumerate()
        .map(|(i, v)| {
            if keep(i) {
                last = v;
            }
            last
        })
        .collect()
}

/// Compresses `raw` in blocks of `block_bytes` and lays out the whole file.
fn assemble(
    mut header: Header,
    raw: &[u8],
    block_bytes: usize,
    block_entries: u32,
) -> io::Result<Vec<u8>> {
    let blocks: Vec<Vec<u8>> = raw
        .par_chunks(block_bytes)
        .map(|chunk| {
            let mut c = zstd::bulk::Compressor::new(ZSTD_LEVEL)?;
            c.include_checksum(true)?;
            c.compress(chunk)
        })
        .collect::<io::Result<_>>()?;
    header.block_entries = block_entries;
    header.blocks = u32::try_from(blocks.len()).map_err(|_| io::Error::other("too many blocks"))?;
    let mut index = Vec::with_capacity(8 * (blocks.len() + 1));
    let mut offset = 0u64;
    index.extend_from_slice(&offset.to_le_bytes());
    for b in &blocks {
        offset += b.len() as u64;
        index.extend_from_slice(&offset.to_le_bytes());
    }
    let head = header.encode();
    let mut h = Xxh3::new();
    h.update(&head);
    h.update(&index);
    let mut out = Vec::with_capacity(HEADER_LEN + index.len() + offset as usize + 8);
    out.extend_from_slice(&head);
    out.extend_from_slice(&h.digest().to_le_bytes());
    out.extend_from_slice(&index);
    for b in &blocks {
        out.extend_from_slice(b);
    }
    let sum = checksum(&out);
    out.extend_from_slice(&sum.to_le_bytes());
    Ok(out)
}

/// The bytes of both files of a solved table: `(dtm, wdl)`. The same table always gives the
/// same bytes.
///
/// # Errors
/// Compression failed.
pub fn encode(solved: &Solved) -> io::Result<(Vec<u8>, Vec<u8>)> {
    let layout = &solved.layout;
    let (stats, used) = summarize(solved);
    let is_used = |i: usize| used[i / 64] >> (i % 64) & 1 != 0;
    let codes = fill_dont_care(solved.codes.iter().copied(), is_used);
    let header = |kind, encoding| Header {
        kind,
        rules: layout.rules(),
        material: layout.material(),
        index_scheme: INDEX_SCHEME,
        encoding,
        entries: codes.len() as u64,
        block_entries: 0,
        blocks: 0,
        stats: stats.clone(),
        generator: concat!("jtb-gen ", env!("CARGO_PKG_VERSION")).to_owned(),
    };
    let wide = codes.iter().any(|&c| c > 0xff);
    let dtm = if wide {
        let raw: Vec<u8> = codes.iter().flat_map(|c| c.to_le_bytes()).collect();
        assemble(header(Kind::Dtm, Encoding::Code16), &raw, 1 << 14, 1 << 13)?
    } else {
        let raw: Vec<u8> = codes.iter().map(|&c| c as u8).collect();
        assemble(header(Kind::Dtm, Encoding::Code8), &raw, 1 << 14, 1 << 14)?
    };
    let wdl2 = |c: u16| match Value::from_code(c) {
        Some(Value::Win(_)) => 1u8,
        Some(Value::Loss(_)) => 2,
        _ => 0,
    };
    let raw: Vec<u8> = codes
        .chunks(4)
        .map(|q| {
            q.iter()
                .enumerate()
                .fold(0u8, |b, (i, &c)| b | wdl2(c) << (2 * i))
        })
        .collect();
    let wdl = assemble(header(Kind::Wdl, Encoding::Wdl2), &raw, 1 << 14, 1 << 16)?;
    Ok((dtm, wdl))
}

/// Writes `bytes` to `path` atomically: a temporary file in the same directory, synced, then
/// renamed over `path`. A crash leaves either the old file, the new one, or a stray temporary
/// (never a partial file under the final name).
///
/// # Errors
/// Any I/O error, with the path in its message.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let dir = path.parent().unwrap_or(Path::new("."));
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("table");
    let tmp = dir.join(format!(".{name}.{}.tmp", std::process::id()));
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

/// Writes both files of a solved table under `root` (DTM first, then WDL: a table counts as
/// present only when both are).
///
/// # Errors
/// Any I/O error, naming the file.
pub fn write_table(root: &Path, solved: &Solved) -> io::Result<()> {
    let layout = &solved.layout;
    let (dtm, wdl) = encode(solved)?;
    let dir = root.join(layout.rules().name());
    fs::create_dir_all(&dir)
        .map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", dir.display())))?;
    write_atomic(
        &table_path(root, layout.rules(), layout.material(), Kind::Dtm),
        &dtm,
    )?;
    write_atomic(
        &table_path(root, layout.rules(), layout.material(), Kind::Wdl),
        &wdl,
    )
}
