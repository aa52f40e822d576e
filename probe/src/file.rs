//! Reading table files (WDL, DTM, DTC): memory-mapped, checked on open, blocks decompressed on demand.

use std::{cell::RefCell, fs::File, path::Path, path::PathBuf};

use memmap2::Mmap;
use xxhash_rust::xxh3::Xxh3;

use crate::{
    format::{checksum, Encoding, Header, Kind, TableError, TableErrorKind, HEADER_LEN},
    material::Material,
    rules::RuleSet,
    value::{Value, Wdl},
};

/// Decompresses one zstd frame of at most `capacity` bytes, reusing this thread's
/// decompression context (creating one per block costs as much as a small block's decoding).
fn decompress(frame: &[u8], capacity: usize) -> std::io::Result<Vec<u8>> {
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

/// An open table file (WDL or DTM form).
#[derive(Debug)]
pub struct TableFile {
    path: PathBuf,
    map: Mmap,
    header: Header,
    /// `log2(block_entries)` when that is a power of two (as every writer so far makes it):
    /// locating an entry is then a shift and a mask, not a division.
    block_shift: Option<u32>,
}

impl TableFile {
    /// Opens and checks the file at `path`: magic, version, header fields, size and the header
    /// checksum. Blocks are checked as they are read ([`TableFile::block`]), the whole file by
    /// [`TableFile::verify_checksum`].
    ///
    /// # Errors
    /// A [`TableError`] naming the file and what is wrong with it.
    pub fn open(path: &Path) -> Result<TableFile, TableError> {
        let err = |kind| TableError::new(path, kind);
        let file = File::open(path).map_err(|e| err(TableErrorKind::Io(e)))?;
        // Safety: the map is read-only and private to this process. Table files are written once
        // (atomically, by rename) and never modified in place; a file changed underneath a
        // running probe is outside what this library supports, as for every mmap-based reader.
        let map = unsafe { Mmap::map(&file) }.map_err(|e| err(TableErrorKind::Io(e)))?;
        let header = Header::decode(&map).map_err(err)?;
        let data_start = header.data_start();
        let index_end = data_start as u64;
        let actual = map.len() as u64;
        if actual < index_end + 8 {
            return Err(err(TableErrorKind::Truncated {
                expected: index_end + 8,
                actual,
            }));
        }
        let block_shift = header
            .block_entries
            .is_power_of_two()
            .then(|| header.block_entries.trailing_zeros());
        let table = TableFile {
            path: path.to_owned(),
            map,
            header,
            block_shift,
        };
        let expected = index_end
            .saturating_add(table.offset(table.header.blocks))
            .saturating_add(8);
        if actual != expected {
            return Err(err(TableErrorKind::Truncated { expected, actual }));
        }
        let mut h = Xxh3::new();
        h.update(&table.map[..HEADER_LEN - 8]);
        h.update(&table.map[HEADER_LEN..data_start]);
        let stored = u64::from_le_bytes(
            table.map[HEADER_LEN - 8..HEADER_LEN]
                .try_into()
                .expect("8 bytes"),
        );
        if h.digest() != stored {
            return Err(err(TableErrorKind::HeaderChecksum));
        }
        if (0..table.header.blocks).any(|b| table.offset(b) > table.offset(b + 1)) {
            return Err(err(TableErrorKind::Mismatch(
                "block index out of order".into(),
            )));
        }
        Ok(table)
    }

    /// Opens `path` and checks that it holds the `kind` form of `material` under `rules`.
    ///
    /// # Errors
    /// As [`TableFile::open`], and a [`TableError`] when the file holds another rule set,
    /// material or kind.
    pub fn open_expecting(
        path: &Path,
        rules: RuleSet,
        material: Material,
        kind: Kind,
    ) -> Result<TableFile, TableError> {
        let table = TableFile::open(path)?;
        let h = &table.header;
        let err = |kind| Err(TableError::new(path, kind));
        if h.rules != rules {
            return err(TableErrorKind::WrongRules {
                expected: rules,
                found: h.rules.name().to_owned(),
            });
        }
        if h.material != material.canonical() || h.kind != kind {
            return err(TableErrorKind::Mismatch(format!(
                "file holds the {} table of {}, expected the {} table of {}",
                h.kind,
                h.material,
                kind,
                material.canonical()
            )));
        }
        Ok(table)
    }

    /// The file's path.
    #[must_use]
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The header.
    #[must_use]
    pub const fn header(&self) -> &Header {
        &self.header
    }

    /// Size of the file in bytes.
    #[must_use]
    pub fn len(&self) -> usize {
        self.map.len()
    }

    /// Never true for an opened table.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.map.is_empty()
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

    fn offset(&self, b: u32) -> u64 {
        let at = HEADER_LEN + 8 * b as usize;
        u64::from_le_bytes(self.map[at..at + 8].try_into().expect("8 bytes"))
    }

    /// The decompressed bytes of block `b`.
    ///
    /// # Errors
    /// A [`TableError`] when the block does not decompress to its expected size (its zstd frame
    /// checksum included).
    ///
    /// # Panics
    /// If `b` is not a block of the table.
    pub fn block(&self, b: u32) -> Result<Vec<u8>, TableError> {
        assert!(b < self.header.blocks, "block {b} out of range");
        let start = self.header.data_start() + self.offset(b) as usize;
        let end = self.header.data_start() + self.offset(b + 1) as usize;
        let expected = self.header.encoding.bytes_for(self.header.entries_in(b));
        let corrupt =
            |why: String| TableError::new(&self.path, TableErrorKind::CorruptBlock(b, why));
        let data =
            decompress(&self.map[start..end], expected).map_err(|e| corrupt(e.to_string()))?;
        if data.len() != expected {
            return Err(corrupt(format!(
                "{} bytes, expected {expected}",
                data.len()
            )));
        }
        Ok(data)
    }

    /// Checks the checksum of the whole file.
    ///
    /// # Errors
    /// [`TableErrorKind::FileChecksum`] on a mismatch.
    pub fn verify_checksum(&self) -> Result<(), TableError> {
        let n = self.map.len() - 8;
        let stored = u64::from_le_bytes(self.map[n..].try_into().expect("8 bytes"));
        if checksum(&self.map[..n]) == stored {
            Ok(())
        } else {
            Err(TableError::new(&self.path, TableErrorKind::FileChecksum))
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
            Encoding::Wdl2 => return Err(self.bad_entry("a WDL file holds no distances")),
        };
        Value::from_code(code).ok_or_else(|| self.bad_entry("invalid value code"))
    }

    /// Entry `i` of a decompressed block of a WDL file.
    ///
    /// # Errors
    /// A [`TableError`] for a code that no table holds.
    pub fn wdl_entry(&self, block: &[u8], i: usize) -> Result<Wdl, TableError> {
        if self.header.encoding != Encoding::Wdl2 {
            return Ok(self.value_entry(block, i)?.wdl());
        }
        match (block[i / 4] >> (2 * (i % 4))) & 3 {
            0 => Ok(Wdl::Draw),
            1 => Ok(Wdl::Win),
            2 => Ok(Wdl::Loss),
            _ => Err(self.bad_entry("invalid WDL code")),
        }
    }

    fn bad_entry(&self, why: &str) -> TableError {
        TableError::new(
            &self.path,
            TableErrorKind::Mismatch(format!("corrupted entry: {why}")),
        )
    }
}
