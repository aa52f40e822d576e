//! Reading table files (WDL, DTM, DTC): checked on open, blocks decompressed on demand.
//!
//! Two ways in. [`TableFile::open`] reads blocks with positioned reads (`pread`): safe whatever
//! happens to the file meanwhile. [`TableFile::open_mapped`] maps the file: a block is then a
//! slice of memory, but a file truncated by another process while mapped makes the next read
//! of the lost pages a SIGBUS, which is why that constructor is `unsafe`.

use std::{cell::RefCell, fs::File, io, os::unix::fs::FileExt, path::Path, path::PathBuf};

use memmap2::Mmap;
use xxhash_rust::xxh3::Xxh3;

use crate::{
    format::{BlockFault, Encoding, Family, Header, Kind, TableError, TableErrorKind, HEADER_LEN},
    rules::RuleSet,
    value::{Value, Wdl},
};

/// Decompresses one zstd frame of at most `capacity` bytes, reusing this thread's
/// decompression context (creating one per block costs as much as a small block's decoding).
fn decompress(frame: &[u8], capacity: usize) -> io::Result<Vec<u8>> {
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

/// Where a table file's bytes come from.
#[derive(Debug)]
enum Source {
    /// Positioned reads of the open file.
    Read(File),
    /// A read-only memory map of the whole file.
    Mapped(Mmap),
}

impl Source {
    /// `len` bytes at `offset`; the caller has checked that they are within the file.
    fn bytes(&self, offset: u64, len: usize) -> io::Result<std::borrow::Cow<'_, [u8]>> {
        match self {
            Source::Read(file) => {
                let mut buf = vec![0; len];
                file.read_exact_at(&mut buf, offset)?;
                Ok(buf.into())
            }
            Source::Mapped(map) => {
                let start = usize::try_from(offset).map_err(io::Error::other)?;
                map.get(start..start + len)
                    .map(Into::into)
                    .ok_or_else(|| io::ErrorKind::UnexpectedEof.into())
            }
        }
    }
}

/// An open table file (WDL, DTM or DTC form) of the game family of rule sets `R` (Jungle's
/// [`RuleSet`] unless said otherwise): every family's files are read by this one reader.
#[derive(Debug)]
pub struct TableFile<R: Family = RuleSet> {
    path: PathBuf,
    source: Source,
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
        TableFile::check(path, Source::Read(file))
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
    pub unsafe fn open_mapped(path: &Path) -> Result<TableFile<R>, TableError> {
        let err = |e| TableError::new(path, TableErrorKind::Io(e));
        let file = File::open(path).map_err(err)?;
        // Safety: read-only and private; the caller promises the file stays as it is.
        let map = unsafe { Mmap::map(&file) }.map_err(err)?;
        TableFile::check(path, Source::Mapped(map))
    }

    /// Reads and checks the header and block index of `source`.
    fn check(path: &Path, source: Source) -> Result<TableFile<R>, TableError> {
        let err = |kind| TableError::new(path, kind);
        let io = |e| err(TableErrorKind::Io(e));
        let len = match &source {
            Source::Read(file) => file.metadata().map_err(io)?.len(),
            Source::Mapped(map) => map.len() as u64,
        };
        let head_len = len.min(HEADER_LEN as u64) as usize;
        let head = source.bytes(0, head_len).map_err(io)?;
        let header = Header::<R>::decode(&head).map_err(err)?;
        let data_start = header.data_start() as u64;
        if len < data_start + 8 {
            return Err(err(TableErrorKind::Truncated {
                expected: data_start + 8,
                actual: len,
            }));
        }
        let index = source
            .bytes(HEADER_LEN as u64, (data_start - HEADER_LEN as u64) as usize)
            .map_err(io)?;
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
        let frame = self
            .source
            .bytes(
                self.header.data_start() as u64 + start,
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
            h.update(&self.source.bytes(at, n).map_err(io)?);
            at += n as u64;
        }
        let stored = self.source.bytes(body, 8).map_err(io)?;
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
