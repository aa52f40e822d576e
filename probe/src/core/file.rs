//! Reading table files (WDL, DTM or DTC): checked on open, blocks decompressed on demand.
//!
//! A file's bytes come from a [`ByteSource`]: positioned reads of a local file
//! ([`TableFile::open`], safe whatever happens to the file meanwhile), a memory map
//! ([`TableFile::open_mapped`], `unsafe`: a file truncated by another process while mapped makes
//! the next read of the lost pages a SIGBUS), bytes in memory, or a source of the caller's
//! ([`TableFile::from_source`]).

use std::{borrow::Cow, fs::File, io, path::Path, path::PathBuf};

use xxhash_rust::xxh3::Xxh3;

use super::source::ByteSource;
use crate::{
    format::{BlockFault, Encoding, Family, Header, Kind, TableError, TableErrorKind, HEADER_LEN},
    value::{Value, Wdl},
};

/// Decompresses one zstd frame of at most `capacity` bytes with the C zstd, reusing this
/// thread's decompression context (creating one per block costs as much as a small block's
/// decoding).
#[cfg(feature = "zstd")]
fn decompress(frame: &[u8], capacity: usize) -> io::Result<Vec<u8>> {
    use std::cell::RefCell;
    thread_local! {
        static CONTEXT: RefCell<Option<zstd::bulk::Decompressor<'static>>> = const { RefCell::new(None) };
    }
    CONTEXT.with(|cell| {
        let mut slot = cell.borrow_mut();
        if slot.is_none() {
            *slot = Some(zstd::bulk::Decompressor::new()?);
        }
        slot.as_mut().expect("just set").decompress(frame, capacity)
    })
}

/// Decompresses one zstd frame of at most `capacity` bytes in pure Rust (ruzstd).
#[cfg(not(feature = "zstd"))]
fn decompress(frame: &[u8], capacity: usize) -> io::Result<Vec<u8>> {
    decompress_in_rust(frame, capacity)
}

/// Decompresses one zstd frame of at most `capacity` bytes in pure Rust (ruzstd: what the probe
/// uses without the `zstd` feature, as on `wasm32-unknown-unknown`). A frame that would
/// decode to more than `capacity`, has bytes after it, or fails its content checksum is an
/// error, as with the C zstd.
#[cfg_attr(feature = "zstd", allow(dead_code))]
fn decompress_in_rust(frame: &[u8], capacity: usize) -> io::Result<Vec<u8>> {
    use ruzstd::decoding::FrameDecoder;
    let invalid =
        |e: &dyn std::fmt::Display| io::Error::new(io::ErrorKind::InvalidData, e.to_string());
    let mut decoder = FrameDecoder::new();
    // A block's window never exceeds the block: a frame asking for more is not ours.
    decoder.set_max_window_size(capacity.max(1 << 10) as u64);
    let mut out = vec![0; capacity];
    let written = decoder
        .decode_all(frame, &mut out)
        .map_err(|e| invalid(&e))?;
    if let (Some(stored), Some(computed)) = (
        decoder.get_checksum_from_data(),
        decoder.get_calculated_checksum(),
    ) {
        if stored != computed {
            return Err(invalid(&"zstd frame checksum mismatch"));
        }
    }
    out.truncate(written);
    Ok(out)
}

/// `len` bytes of `source` at `offset`: borrowed where it holds them in memory, else read.
fn bytes(source: &dyn ByteSource, offset: u64, len: usize) -> io::Result<Cow<'_, [u8]>> {
    if let Some(held) = source.slice(offset, len) {
        return Ok(Cow::Borrowed(held));
    }
    let mut buf = vec![0; len];
    source.read_at(offset, &mut buf)?;
    Ok(Cow::Owned(buf))
}

/// An open table file of any kind (WDL, DTM, DTC, ...) of the family of rule sets `R` (its
/// game's [`Family`]): every family's files are read by this one reader.
#[derive(Debug)]
pub struct TableFile<R: Family> {
    path: PathBuf,
    source: Box<dyn ByteSource>,
    len: u64,
    header: Header<R>,
    /// Offsets of the blocks relative to the end of the index, `blocks + 1` of them.
    offsets: Vec<u64>,
    /// `log2(block_entries)` when that is a power of two (as every writer so far makes it):
    /// locating an entry is then a shift and a mask, not a division.
    block_shift: Option<u32>,
}

impl<R: Family> TableFile<R> {
    /// Opens and checks the file at `path`: magic, version, header fields, size, the block index
    /// and the header checksum. Blocks are read with positioned reads and checked as they are
    /// read ([`TableFile::block`]); the whole file by [`TableFile::verify_checksum`].
    ///
    /// # Errors
    /// A [`TableError`] naming the file and what is wrong with it.
    pub fn open(path: &Path) -> Result<TableFile<R>, TableError> {
        let file = File::open(path).map_err(|e| TableError::new(path, TableErrorKind::Io(e)))?;
        TableFile::from_source(path, Box::new(file))
    }

    /// As [`TableFile::open`], with the file memory-mapped.
    ///
    /// # Errors
    /// As [`TableFile::open`].
    ///
    /// # Safety
    /// The file must not be truncated or modified while the returned value lives (table files
    /// are written once, atomically, and never changed in place; replacing one by rename is
    /// fine). A mapped file truncated by another process makes reading it a SIGBUS, and a file
    /// modified in place may be read half old, half new.
    #[cfg(feature = "mmap")]
    pub unsafe fn open_mapped(path: &Path) -> Result<TableFile<R>, TableError> {
        let err = |e| TableError::new(path, TableErrorKind::Io(e));
        let file = File::open(path).map_err(err)?;
        // Safety: read-only and private; the caller promises the file stays as it is.
        let map = unsafe { memmap2::Mmap::map(&file) }.map_err(err)?;
        TableFile::from_source(path, Box::new(map))
    }

    /// Reads and checks the header and block index of the file whose bytes `source` gives
    /// (`path` names it in errors): as [`TableFile::open`], from any byte source.
    ///
    /// # Errors
    /// As [`TableFile::open`].
    pub fn from_source(
        path: &Path,
        source: Box<dyn ByteSource>,
    ) -> Result<TableFile<R>, TableError> {
        let err = |kind| TableError::new(path, kind);
        let io = |e| err(TableErrorKind::Io(e));
        let len = source.size().map_err(io)?;
        let head_len = len.min(HEADER_LEN as u64) as usize;
        let head = bytes(&*source, 0, head_len).map_err(io)?;
        let header = Header::<R>::decode(&head).map_err(err)?;
        let data_start = header.data_start();
        if len < data_start + 8 {
            return Err(err(TableErrorKind::Truncated {
                expected: data_start + 8,
                actual: len,
            }));
        }
        // A file this long is there, but its index may not fit in memory (a 32-bit target).
        let index_len = usize::try_from(data_start - HEADER_LEN as u64)
            .map_err(|_| io(io::ErrorKind::OutOfMemory.into()))?;
        let index = bytes(&*source, HEADER_LEN as u64, index_len).map_err(io)?;
        let mut h = Xxh3::new();
        h.update(&head[..HEADER_LEN - 8]);
        h.update(&index);
        let stored = u64::from_le_bytes(head[HEADER_LEN - 8..].try_into().expect("8 bytes"));
        if h.digest() != stored {
            return Err(err(TableErrorKind::HeaderChecksum));
        }
        let offsets: Vec<u64> = index
            .chunks_exact(8)
            .map(|c| u64::from_le_bytes(c.try_into().expect("8 bytes")))
            .collect();
        if offsets.windows(2).any(|w| w[0] > w[1]) {
            return Err(err(TableErrorKind::BlockIndexOutOfOrder));
        }
        let expected = data_start
            .saturating_add(*offsets.last().expect("blocks + 1 offsets"))
            .saturating_add(8);
        if len != expected {
            return Err(err(TableErrorKind::Truncated {
                expected,
                actual: len,
            }));
        }
        drop((head, index));
        let block_shift = header
            .block_entries
            .is_power_of_two()
            .then(|| header.block_entries.trailing_zeros());
        Ok(TableFile {
            path: path.to_owned(),
            source,
            len,
            header,
            offsets,
            block_shift,
        })
    }

    /// Opens `path` (as [`TableFile::open`]) and checks that it holds the `kind` form of
    /// `material` under `rules`, with the entries of its layout.
    ///
    /// # Errors
    /// As [`TableFile::open`], and a [`TableError`] when the file holds another rule set,
    /// material, kind or number of entries.
    pub fn open_expecting(
        path: &Path,
        rules: R,
        material: R::Material,
        kind: Kind,
    ) -> Result<TableFile<R>, TableError> {
        TableFile::open(path)?.expecting(rules, material, kind)
    }

    /// Checks that this file holds the `kind` form of `material` under `rules`, with the
    /// entries of its layout.
    ///
    /// # Errors
    /// A [`TableError`] naming what differs.
    pub fn expecting(
        self,
        rules: R,
        material: R::Material,
        kind: Kind,
    ) -> Result<TableFile<R>, TableError> {
        let h = &self.header;
        let material = rules.table_of(material);
        let fault = if h.rules != rules {
            TableErrorKind::WrongRules {
                expected: rules.id(),
                found: h.rules.id(),
            }
        } else if h.material != material {
            TableErrorKind::WrongMaterial {
                expected: material.to_string(),
                found: h.material.to_string(),
            }
        } else if h.kind != kind {
            TableErrorKind::WrongKind {
                expected: kind,
                found: h.kind,
            }
        } else {
            let expected = rules.entries(material);
            if h.entries == expected {
                return Ok(self);
            }
            TableErrorKind::WrongEntryCount {
                expected,
                found: h.entries,
            }
        };
        Err(TableError::new(&self.path, fault))
    }

    /// The file's path.
    #[must_use]
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The header.
    #[must_use]
    pub const fn header(&self) -> &Header<R> {
        &self.header
    }

    /// Size of the file in bytes.
    #[must_use]
    pub const fn len(&self) -> u64 {
        self.len
    }

    /// Never true for an opened table.
    #[must_use]
    pub const fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The block holding entry `idx`, and the entry's place in it.
    #[must_use]
    pub fn locate(&self, idx: usize) -> (u32, usize) {
        match self.block_shift {
            Some(shift) => ((idx >> shift) as u32, idx & ((1 << shift) - 1)),
            None => {
                let per = self.header.block_entries as usize;
                ((idx / per) as u32, idx % per)
            }
        }
    }

    /// The decompressed bytes of block `b`.
    ///
    /// # Errors
    /// A [`TableError`] when the block cannot be read or does not decompress to its expected
    /// size (its zstd frame checksum included).
    ///
    /// # Panics
    /// If `b` is not a block of the table.
    pub fn block(&self, b: u32) -> Result<Vec<u8>, TableError> {
        assert!(b < self.header.blocks, "block {b} out of range");
        let (start, end) = (self.offsets[b as usize], self.offsets[b as usize + 1]);
        let expected = self.header.encoding.bytes_for(self.header.entries_in(b));
        let corrupt =
            |fault| TableError::new(&self.path, TableErrorKind::CorruptBlock { block: b, fault });
        let frame = bytes(
            &*self.source,
            self.header.data_start() + start,
            (end - start) as usize,
        )
        .map_err(|e| TableError::new(&self.path, TableErrorKind::Io(e)))?;
        let data = decompress(&frame, expected).map_err(|e| corrupt(BlockFault::Zstd(e)))?;
        if data.len() != expected {
            return Err(corrupt(BlockFault::Size {
                expected,
                found: data.len(),
            }));
        }
        Ok(data)
    }

    /// Checks the checksum of the whole file.
    ///
    /// # Errors
    /// [`TableErrorKind::FileChecksum`] on a mismatch, [`TableErrorKind::Io`] when reading
    /// fails.
    pub fn verify_checksum(&self) -> Result<(), TableError> {
        const CHUNK: usize = 1 << 20;
        let io = |e| TableError::new(&self.path, TableErrorKind::Io(e));
        let body = self.len - 8;
        let mut h = Xxh3::new();
        let mut at = 0;
        while at < body {
            let n = (body - at).min(CHUNK as u64) as usize;
            h.update(&bytes(&*self.source, at, n).map_err(io)?);
            at += n as u64;
        }
        let stored = bytes(&*self.source, body, 8).map_err(io)?;
        if h.digest() == u64::from_le_bytes(stored[..].try_into().expect("8 bytes")) {
            Ok(())
        } else {
            Err(TableError::new(&self.path, TableErrorKind::FileChecksum))
        }
    }

    /// Entry `i` of a decompressed block of a file of codes, as its code: what a game that
    /// stores its own codes (the flip game's chance values) reads and checks itself.
    ///
    /// # Errors
    /// A [`TableError`] for a block of a WDL file.
    pub fn code_entry(&self, block: &[u8], i: usize) -> Result<u16, TableError> {
        match self.header.encoding {
            Encoding::Code8 => Ok(u16::from(block[i])),
            Encoding::Code16 => Ok(u16::from_le_bytes([block[2 * i], block[2 * i + 1]])),
            Encoding::Wdl2 => Err(self.not_codes()),
        }
    }

    /// Entry `i` of a decompressed block of a DTM or DTC file, as a value.
    ///
    /// # Errors
    /// A [`TableError`] for a code that no table holds.
    pub fn value_entry(&self, block: &[u8], i: usize) -> Result<Value, TableError> {
        let code = match self.header.encoding {
            Encoding::Code8 => u16::from(block[i]),
            Encoding::Code16 => u16::from_le_bytes([block[2 * i], block[2 * i + 1]]),
            Encoding::Wdl2 => return Err(self.not_codes()),
        };
        Value::from_code(code).ok_or_else(|| self.bad_code(code))
    }

    /// Calls `f` with the code ([`Value::code`]) of every entry of a decompressed block of a
    /// DTM or DTC file, in order: what [`TableFile::value_entry`] checks, entry by entry, in one
    /// pass (reading a whole table back).
    ///
    /// # Errors
    /// A [`TableError`] for a code that no table holds, or a block of a WDL file.
    pub fn for_each_code(&self, block: &[u8], mut f: impl FnMut(u16)) -> Result<(), TableError> {
        let check = |code: u16| {
            Value::from_code(code)
                .map(|_| code)
                .ok_or_else(|| self.bad_code(code))
        };
        match self.header.encoding {
            Encoding::Code8 => {
                for &b in block {
                    f(check(u16::from(b))?);
                }
            }
            Encoding::Code16 => {
                for pair in block.chunks_exact(2) {
                    f(check(u16::from_le_bytes([pair[0], pair[1]]))?);
                }
            }
            Encoding::Wdl2 => return Err(self.not_codes()),
        }
        Ok(())
    }

    /// The byte of a decompressed block where entry `i` starts.
    #[must_use]
    #[inline]
    pub fn entry_byte(&self, i: usize) -> usize {
        match self.header.encoding {
            Encoding::Wdl2 => i / 4,
            Encoding::Code8 => i,
            Encoding::Code16 => 2 * i,
        }
    }

    /// Entry `i` of a decompressed block of a WDL file.
    ///
    /// # Errors
    /// A [`TableError`] for a code that no table holds.
    pub fn wdl_entry(&self, block: &[u8], i: usize) -> Result<Wdl, TableError> {
        if self.header.encoding != Encoding::Wdl2 {
            return Ok(self.value_entry(block, i)?.wdl());
        }
        let code = crate::format::wdl2_get(block, i);
        crate::format::wdl_of_wdl2(code).ok_or_else(|| self.bad_code(code.into()))
    }

    /// The error of asking a WDL file for distance codes.
    fn not_codes(&self) -> TableError {
        TableError::new(
            &self.path,
            TableErrorKind::WrongKind {
                expected: Kind::Dtm,
                found: Kind::Wdl,
            },
        )
    }

    /// A [`TableError`] for `code`, which no table of this file's kind holds.
    #[must_use]
    pub fn bad_code(&self, code: u16) -> TableError {
        TableError::new(
            &self.path,
            TableErrorKind::InvalidCode {
                kind: self.header.kind,
                code,
            },
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Blocks as the writer makes them (level 19, content checksums) of entries like a table's:
    /// long runs with noise, and one of a single code repeated.
    fn frames() -> Vec<(Vec<u8>, Vec<u8>)> {
        let mut seed = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let mut blocks: Vec<Vec<u8>> = (0..6)
            .map(|n| {
                (0..16_384 + n * 1000)
                    .map(|i| {
                        if next() % 16 == 0 {
                            next() as u8
                        } else {
                            (i / 300) as u8
                        }
                    })
                    .collect()
            })
            .collect();
        blocks.push(vec![0x55; 16_384]);
        let mut c = zstd::bulk::Compressor::new(19).unwrap();
        c.include_checksum(true).unwrap();
        blocks
            .into_iter()
            .map(|raw| (c.compress(&raw).unwrap(), raw))
            .collect()
    }

    /// The pure-Rust decoder reads what the writer's zstd wrote, as the C decoder does.
    #[test]
    fn both_decoders_agree_on_every_block() {
        for (frame, raw) in frames() {
            assert_eq!(decompress_in_rust(&frame, raw.len()).unwrap(), raw);
            assert_eq!(decompress(&frame, raw.len()).unwrap(), raw);
        }
    }

    /// A frame never decodes to more than its block's size, bytes after it are refused, and
    /// damage is an error or at worst a block no larger than its size (the file's checksum and
    /// the entries' codes catch the rest).
    #[test]
    fn the_pure_rust_decoder_refuses_oversized_and_damaged_frames() {
        let (frame, raw) = frames().swap_remove(0);
        assert!(decompress_in_rust(&frame, raw.len() - 1).is_err());
        let mut trailing = frame.clone();
        trailing.extend_from_slice(&[0x55; 7]);
        assert!(decompress_in_rust(&trailing, raw.len()).is_err());
        let mut caught = 0;
        for at in 0..frame.len() {
            let mut bad = frame.clone();
            bad[at] ^= 0x41;
            match decompress_in_rust(&bad, raw.len()) {
                Ok(data) => assert!(data.len() <= raw.len()),
                Err(_) => caught += 1,
            }
        }
        // The content checksum catches damage to the compressed data.
        assert!(caught > frame.len() * 9 / 10, "{caught} of {}", frame.len());
    }
}
