//! The table file format: one reader's and one writer's idea of the bytes.
//!
//! ```text
//! header      HEADER_LEN bytes, little-endian fields (see Header)
//! block index (blocks + 1) u64 offsets of the blocks, relative to the end of the index
//! blocks      zstd frames (with content checksums), one per block of `block_entries` entries
//! trailer     u64 xxh3 of every byte before it
//! ```
//! The header ends with an xxh3 of the header and block index, checked on open; each block's
//! frame checksum is checked when it is read; the trailer is checked by `verify`.
//!
//! Three kinds of file hold a table: a small WDL file (2 bits per entry: 0 draw, 1 win, 2 loss),
//! a DTM file and a DTC file (value codes of [`crate::Value::code`], one or two bytes per entry:
//! distance to mate, and distance to conversion under the clock rule). Unused entries (two pieces
//! on one square) repeat the entry before them, which compresses best.

use std::{
    error::Error,
    fmt, io,
    path::{Path, PathBuf},
};

use xxhash_rust::xxh3::{xxh3_64, Xxh3};

use crate::value::Wdl;

/// What a game family's rule sets tell the one table format: their ids, their material
/// names, and how many entries a material's table holds. The rule-set type names the family;
/// each game's folder implements it on its own types. Everything else of a file (header,
/// block index, blocks, checksums) is the same bytes for every game: the reader, the writer
/// and the probe caches are written once, over this trait.
pub trait Family: Copy + Eq + fmt::Debug + fmt::Display + Send + Sync + 'static {
    /// A material of the family (which pieces each side has).
    type Material: Copy + Eq + fmt::Debug + fmt::Display + Send + Sync + 'static;
    /// The names of the first and the second player (the order of [`Header::stats`]).
    const SIDES: [&'static str; 2];
    /// What the distances of its tables count: `plies`, or Animal Gambit's `turns`; `None` for
    /// tables that hold no distances (the flip game's chance tables: exact fractions).
    const DISTANCE_UNIT: Option<&'static str>;
    /// The rule set of a header's id; `None` when the id is none of this family's.
    fn from_id(id: &str) -> Option<Self>;
    /// The id stored in headers and used as the directory name.
    fn id(self) -> &'static str;
    /// The material of a header's (or a file name's) text; `None` when it is none.
    fn material_named(name: &str) -> Option<Self::Material>;
    /// The orientation of `material` that names its table under these rules.
    fn table_of(self, material: Self::Material) -> Self::Material;
    /// Entries in the table of `material`.
    fn entries(self, material: Self::Material) -> u64;
}

/// The first eight bytes of every table file.
pub const MAGIC: [u8; 8] = *b"JTBTABLE";
/// The format version this library reads and writes.
pub const FORMAT_VERSION: u16 = 1;
/// The only index scheme so far (see [`crate::Layout`]).
pub const INDEX_SCHEME: u8 = 1;
/// Bytes in the header, its checksum included.
pub(crate) const HEADER_LEN: usize = 512;
const TEXT_LEN: usize = 96;
/// Bounds that no table reaches, so that a damaged header cannot ask for absurd allocations.
const MAX_BLOCK_ENTRIES: u32 = 1 << 20;
const MAX_ENTRIES: u64 = 1 << 40;
/// Decompressed bytes per block written ([`Encoding::block_entries`]).
const BLOCK_BYTES: usize = 1 << 14;

/// The path of the `kind` file of `material` under `rules` of any game family:
/// `root/<rules>/<material>.<extension>`, the material in the orientation that names its table.
#[must_use]
pub fn family_table_path<R: Family>(
    root: &Path,
    rules: R,
    material: R::Material,
    kind: Kind,
) -> PathBuf {
    root.join(rules.id())
        .join(format!("{}.{}", rules.table_of(material), kind.extension()))
}

/// Packs `wdl` as entry `i` of a WDL2 block (four entries a byte, lowest bits first: 0 draw,
/// 1 win, 2 loss); the entry's bits must be clear.
pub fn wdl2_put(raw: &mut [u8], i: usize, wdl: Wdl) {
    let code = match wdl {
        Wdl::Draw => 0,
        Wdl::Win => 1,
        Wdl::Loss => 2,
    };
    raw[i / 4] |= code << (2 * (i % 4));
}

/// The 2-bit code of entry `i` of a WDL2 block.
pub(crate) const fn wdl2_get(block: &[u8], i: usize) -> u8 {
    (block[i / 4] >> (2 * (i % 4))) & 3
}

/// The value of a 2-bit WDL code; `None` for the unused code 3.
pub(crate) const fn wdl_of_wdl2(code: u8) -> Option<Wdl> {
    match code {
        0 => Some(Wdl::Draw),
        1 => Some(Wdl::Win),
        2 => Some(Wdl::Loss),
        _ => None,
    }
}

/// The bytes of a whole table file: `header` (its block count and size set here), the block
/// index, the compressed `blocks` (each one zstd frame of [`Encoding::block_entries`] entries,
/// the last maybe fewer), and the trailing checksum.
///
/// # Panics
/// If there are more blocks than a `u32` counts.
#[must_use]
pub fn file_bytes<R: Family>(header: &Header<R>, blocks: &[Vec<u8>]) -> Vec<u8> {
    let header = Header {
        block_entries: header.encoding.block_entries(),
        blocks: u32::try_from(blocks.len()).expect("fewer than 2^32 blocks"),
        ..header.clone()
    };
    let mut index = Vec::with_capacity(8 * (blocks.len() + 1));
    let mut offset = 0u64;
    index.extend_from_slice(&offset.to_le_bytes());
    for b in blocks {
        offset += b.len() as u64;
        index.extend_from_slice(&offset.to_le_bytes());
    }
    let mut out = Vec::with_capacity(HEADER_LEN + index.len() + offset as usize + 8);
    out.extend_from_slice(&header.encode());
    out.extend_from_slice(&[0; 8]);
    out.extend_from_slice(&index);
    for b in blocks {
        out.extend_from_slice(b);
    }
    out.extend_from_slice(&[0; 8]);
    seal(&mut out);
    out
}

/// Where the header's block count (a `u32`, little-endian) is, by the layout above:
/// [`seal`] sizes the block index by it.
const BLOCKS_AT: usize = 68;

/// Writes the two checksums of a table file's `bytes`: the header's (an xxh3 of the header
/// before it and of the block index, which the header's block count sizes) and the trailer's
/// (an xxh3 of every byte before it). Bytes too short to hold what the block count says are
/// left as they are. [`file_bytes`] seals every file it makes; a tool that changes a file's
/// bytes (the fuzz targets) seals them again, so that the reader looks past the checksums.
pub fn seal(bytes: &mut [u8]) {
    let Some(count) = bytes.get(BLOCKS_AT..BLOCKS_AT + 4) else {
        return;
    };
    let blocks = u32::from_le_bytes(count.try_into().expect("4 bytes"));
    let data_start = HEADER_LEN as u64 + 8 * (u64::from(blocks) + 1);
    let Ok(data_start) = usize::try_from(data_start) else {
        return;
    };
    if bytes.len() < data_start.saturating_add(8) {
        return;
    }
    let mut h = Xxh3::new();
    h.update(&bytes[..HEADER_LEN - 8]);
    h.update(&bytes[HEADER_LEN..data_start]);
    bytes[HEADER_LEN - 8..HEADER_LEN].copy_from_slice(&h.digest().to_le_bytes());
    let body = bytes.len() - 8;
    let sum = xxh3_64(&bytes[..body]);
    bytes[body..].copy_from_slice(&sum.to_le_bytes());
}

/// Which form of a table a file holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Kind {
    /// Win/draw/loss, 2 bits per entry.
    Wdl,
    /// Distance to mate: value codes.
    Dtm,
    /// Distance to conversion (the clock rule): value codes.
    Dtc,
    /// Clesto: the repetition ban's resolution of the plain draws, value codes of B's exit
    /// distance ([`crate::ClestoValue::ban_part`]).
    Ban,
    /// The flip game with face-down tiles: the chance value of every position at every clock
    /// (RULES.md 8), codes of [`crate::flip::ChanceValue`].
    Chance,
    /// The flip game's distance to the end of its certain results (DTE, RULES.md 8), at every
    /// clock: codes of [`crate::flip::Dte`], beside a chance table and beside a revealed table.
    Dte,
}

impl Kind {
    /// Every kind, in the order of its variants (`kind as usize` is its place here, checked
    /// at compile time).
    pub const ALL: [Kind; 6] = {
        let all = [
            Kind::Wdl,
            Kind::Dtm,
            Kind::Dtc,
            Kind::Ban,
            Kind::Chance,
            Kind::Dte,
        ];
        let mut at = 0;
        while at < all.len() {
            assert!(
                all[at] as usize == at,
                "Kind::ALL in the order of the variants"
            );
            at += 1;
        }
        all
    };

    /// The file-name extension.
    #[must_use]
    pub const fn extension(self) -> &'static str {
        match self {
            Kind::Wdl => "wdl",
            Kind::Dtm => "dtm",
            Kind::Dtc => "dtc",
            Kind::Ban => "ban",
            Kind::Chance => "chance",
            Kind::Dte => "dte",
        }
    }

    /// The kind whose files have the extension `ext` (`dtm`), if one has.
    ///
    /// ```
    /// use jtb_probe::Kind;
    ///
    /// for kind in Kind::ALL {
    ///     assert_eq!(Kind::from_extension(kind.extension()), Some(kind));
    /// }
    /// assert_eq!(Kind::from_extension("txt"), None);
    /// ```
    #[must_use]
    pub fn from_extension(ext: &str) -> Option<Kind> {
        Kind::ALL.into_iter().find(|k| k.extension() == ext)
    }

    const fn byte(self) -> u8 {
        match self {
            Kind::Wdl => 1,
            Kind::Dtm => 2,
            Kind::Dtc => 3,
            Kind::Ban => 4,
            Kind::Chance => 5,
            Kind::Dte => 6,
        }
    }

    fn from_byte(b: u8) -> Option<Kind> {
        match b {
            1 => Some(Kind::Wdl),
            2 => Some(Kind::Dtm),
            3 => Some(Kind::Dtc),
            4 => Some(Kind::Ban),
            5 => Some(Kind::Chance),
            6 => Some(Kind::Dte),
            _ => None,
        }
    }
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Kind::Wdl => "WDL",
            Kind::Dtm => "DTM",
            Kind::Dtc => "DTC",
            Kind::Ban => "ban",
            Kind::Chance => "chance",
            Kind::Dte => "DTE",
        })
    }
}

/// How entries are stored in the decompressed blocks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Encoding {
    /// Four entries per byte, lowest bits first: 0 draw, 1 win, 2 loss.
    Wdl2,
    /// One byte per entry: a value code below 256.
    Code8,
    /// Two bytes per entry, little-endian value codes.
    Code16,
}

impl Encoding {
    const fn byte(self) -> u8 {
        match self {
            Encoding::Wdl2 => 1,
            Encoding::Code8 => 2,
            Encoding::Code16 => 3,
        }
    }

    fn from_byte(b: u8) -> Option<Encoding> {
        match b {
            1 => Some(Encoding::Wdl2),
            2 => Some(Encoding::Code8),
            3 => Some(Encoding::Code16),
            _ => None,
        }
    }

    /// Entries per block: 16 KiB of decompressed entries, which zstd compresses well and a
    /// probe decodes in microseconds.
    #[must_use]
    pub const fn block_entries(self) -> u32 {
        (BLOCK_BYTES * 4 / self.bytes_for(4)) as u32
    }

    /// Bytes that `entries` entries take decompressed.
    #[must_use]
    pub const fn bytes_for(self, entries: usize) -> usize {
        match self {
            Encoding::Wdl2 => entries.div_ceil(4),
            Encoding::Code8 => entries,
            Encoding::Code16 => 2 * entries,
        }
    }
}

/// Win/draw/loss counts and the longest win of one side to move, over every legal position of
/// the material (before symmetry).
///
/// In WDL and DTM files these are the plain values. In a DTC file they are the values under the
/// clock rule at clock 0 (a cursed win counts as a draw), the longest win is the longest DTC of a
/// win, and the cursed wins and blessed losses are counted too (they are 0 in the other files).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SideStats {
    /// Positions the side to move wins.
    pub wins: u64,
    /// Drawn positions.
    pub draws: u64,
    /// Positions the side to move loses.
    pub losses: u64,
    /// The longest win in plies (0 when there is no win).
    pub longest_win: u16,
    /// The smallest position text (ASCII order) of a longest win; empty when there is no win.
    pub longest_win_position: String,
    /// DTC files: plain wins that are rule draws at clock 0.
    pub cursed_wins: u64,
    /// DTC files: plain losses that are rule draws at clock 0.
    pub blessed_losses: u64,
}

/// Everything a table file says about itself, for a table of the game family of rule sets
/// `R`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Header<R: Family> {
    /// WDL, DTM or DTC.
    pub kind: Kind,
    /// The rule set.
    pub rules: R,
    /// The material, canonical orientation.
    pub material: R::Material,
    /// The index scheme ([`INDEX_SCHEME`]).
    pub index_scheme: u8,
    /// Entry encoding.
    pub encoding: Encoding,
    /// Entries in the table.
    pub entries: u64,
    /// Entries per block (the last block may hold fewer).
    pub block_entries: u32,
    /// Number of blocks.
    pub blocks: u32,
    /// The first player to move (Red, Gold), then the second.
    pub stats: [SideStats; 2],
    /// The program that wrote the file.
    pub generator: String,
}

/// What is wrong with a table file.
#[derive(Debug)]
pub enum TableErrorKind {
    /// Reading failed.
    Io(io::Error),
    /// The file does not start with the table magic: not a table file.
    NotATable,
    /// A format version this library does not read.
    UnsupportedVersion(u16),
    /// A field the format does not know.
    UnknownField(&'static str, u64),
    /// The header names a rule set this library does not know, or one of another game than
    /// the one asked for.
    UnknownRuleSet(String),
    /// The header's material is not a material.
    BadMaterial(String),
    /// The header's block count does not fit its entries and block size.
    BadBlockLayout {
        /// Entries in the table.
        entries: u64,
        /// Entries per block.
        block_entries: u32,
        /// Blocks.
        blocks: u32,
    },
    /// The block index is not in increasing order.
    BlockIndexOutOfOrder,
    /// The file holds a table of another rule set.
    WrongRules {
        /// The rule set asked for (its id).
        expected: &'static str,
        /// The rule set in the file (its id).
        found: &'static str,
    },
    /// The file holds another material than its name says.
    WrongMaterial {
        /// The material asked for.
        expected: String,
        /// The material in the file.
        found: String,
    },
    /// The file holds another kind (WDL, DTM, DTC) than its name says.
    WrongKind {
        /// The kind asked for.
        expected: Kind,
        /// The kind in the file.
        found: Kind,
    },
    /// The file holds another number of entries than the material's layout.
    WrongEntryCount {
        /// Entries of the layout.
        expected: u64,
        /// Entries in the file.
        found: u64,
    },
    /// The file is shorter or longer than its header says.
    Truncated {
        /// Size the header implies.
        expected: u64,
        /// Actual size.
        actual: u64,
    },
    /// The header or block index fails its checksum.
    HeaderChecksum,
    /// The whole-file checksum fails.
    FileChecksum,
    /// A block does not decompress to what the header says.
    CorruptBlock {
        /// The block.
        block: u32,
        /// What is wrong with it.
        fault: BlockFault,
    },
    /// An entry's value differs from the same entry's in another file of the table (the WDL
    /// file against the DTM file).
    Disagrees {
        /// The entry.
        entry: u64,
        /// The other file.
        other: PathBuf,
    },
    /// An entry holds a code that no table of its kind holds.
    InvalidCode {
        /// The kind of file.
        kind: Kind,
        /// The code.
        code: u16,
    },
}

/// What is wrong with a block.
#[derive(Debug)]
pub enum BlockFault {
    /// zstd refused the frame (its content checksum included).
    Zstd(io::Error),
    /// It decompressed to another size than its entries take.
    Size {
        /// Bytes its entries take.
        expected: usize,
        /// Bytes it holds.
        found: usize,
    },
}

/// An error of one table file, naming the file.
#[derive(Debug)]
pub struct TableError {
    /// The file.
    pub path: PathBuf,
    /// What is wrong.
    pub kind: TableErrorKind,
}

impl TableError {
    /// An error of `path`.
    #[must_use]
    pub fn new(path: impl Into<PathBuf>, kind: TableErrorKind) -> TableError {
        TableError {
            path: path.into(),
            kind,
        }
    }
}

impl fmt::Display for TableError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: ", self.path.display())?;
        match &self.kind {
            TableErrorKind::Io(e) => write!(f, "{e}"),
            TableErrorKind::NotATable => f.write_str("not a jungle-tablebase table file (bad magic)"),
            TableErrorKind::UnsupportedVersion(v) => write!(
                f,
                "table format version {v} is not supported (this build reads version {FORMAT_VERSION})"
            ),
            TableErrorKind::UnknownField(name, v) => write!(f, "unknown {name} {v} in header"),
            TableErrorKind::UnknownRuleSet(name) => write!(
                f,
                "rule set `{name}` in header is not a rule set of the game asked for (a table of another game, or unknown)"
            ),
            TableErrorKind::BadMaterial(name) => write!(f, "bad material `{name}` in header"),
            TableErrorKind::BadBlockLayout { entries, block_entries, blocks } => write!(
                f,
                "header says {blocks} blocks of {block_entries} entries for {entries} entries"
            ),
            TableErrorKind::BlockIndexOutOfOrder => f.write_str("block index out of order"),
            TableErrorKind::WrongRules { expected, found } => {
                write!(f, "table of rule set `{found}`, but rule set `{expected}` was asked for")
            }
            TableErrorKind::WrongMaterial { expected, found } => {
                write!(f, "file holds the table of {found}, expected {expected}")
            }
            TableErrorKind::WrongKind { expected, found } => {
                write!(f, "file holds a {found} table, expected a {expected} table")
            }
            TableErrorKind::WrongEntryCount { expected, found } => {
                write!(f, "file holds {found} entries, the table has {expected}")
            }
            TableErrorKind::Truncated { expected, actual } => write!(
                f,
                "file is {actual} bytes, its header says {expected}: truncated or damaged"
            ),
            TableErrorKind::HeaderChecksum => f.write_str("header checksum mismatch: file is corrupted"),
            TableErrorKind::FileChecksum => f.write_str("file checksum mismatch: file is corrupted"),
            // The decoder's own words are the error's source: they differ between the C decoder
            // and the pure-Rust one, and a message should not depend on the build.
            TableErrorKind::CorruptBlock { block, fault: BlockFault::Zstd(_) } => {
                write!(f, "block {block} is corrupted: its zstd frame does not decode")
            }
            TableErrorKind::CorruptBlock { block, fault: BlockFault::Size { expected, found } } => {
                write!(f, "block {block} is corrupted: {found} bytes, expected {expected}")
            }
            TableErrorKind::Disagrees { entry, other } => {
                write!(f, "entry {entry} disagrees with {}: file is corrupted", other.display())
            }
            TableErrorKind::InvalidCode { kind, code } => {
                write!(f, "corrupted entry: code {code} is not a {kind} value")
            }
        }
    }
}

impl Error for TableError {
    fn source(&self) -> Option<&(dyn Error + 'static)> {
        match &self.kind {
            TableErrorKind::Io(e)
            | TableErrorKind::CorruptBlock {
                fault: BlockFault::Zstd(e),
                ..
            } => Some(e),
            _ => None,
        }
    }
}

fn put_text(out: &mut Vec<u8>, s: &str, len: usize) {
    let b = s.as_bytes();
    assert!(b.len() <= len, "header text too long: {s}");
    out.extend_from_slice(b);
    out.resize(out.len() + len - b.len(), 0);
}

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn take(&mut self, n: usize) -> &[u8] {
        let s = &self.bytes[self.at..self.at + n];
        self.at += n;
        s
    }
    fn u8(&mut self) -> u8 {
        self.take(1)[0]
    }
    fn u16(&mut self) -> u16 {
        u16::from_le_bytes(self.take(2).try_into().expect("2 bytes"))
    }
    fn u32(&mut self) -> u32 {
        u32::from_le_bytes(self.take(4).try_into().expect("4 bytes"))
    }
    fn u64(&mut self) -> u64 {
        u64::from_le_bytes(self.take(8).try_into().expect("8 bytes"))
    }
    fn text(&mut self, len: usize) -> String {
        let raw = self.take(len);
        let end = raw.iter().position(|&b| b == 0).unwrap_or(len);
        String::from_utf8_lossy(&raw[..end]).into_owned()
    }
}

impl<R: Family> Header<R> {
    /// The header bytes without the trailing checksum (`HEADER_LEN - 8` bytes).
    fn encode(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(HEADER_LEN);
        out.extend_from_slice(&MAGIC);
        out.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
        out.push(self.kind.byte());
        out.push(self.index_scheme);
        out.push(self.encoding.byte());
        out.extend_from_slice(&[0; 3]);
        put_text(&mut out, self.rules.id(), 16);
        put_text(&mut out, &self.material.to_string(), 24);
        out.extend_from_slice(&self.entries.to_le_bytes());
        out.extend_from_slice(&self.block_entries.to_le_bytes());
        out.extend_from_slice(&self.blocks.to_le_bytes());
        for s in &self.stats {
            out.extend_from_slice(&s.wins.to_le_bytes());
            out.extend_from_slice(&s.draws.to_le_bytes());
            out.extend_from_slice(&s.losses.to_le_bytes());
            out.extend_from_slice(&s.longest_win.to_le_bytes());
            put_text(&mut out, &s.longest_win_position, TEXT_LEN);
        }
        put_text(&mut out, &self.generator, 32);
        // Added with the DTC files in the header's free space, zero in the other kinds: files
        // written before keep their bytes and their meaning.
        for s in &self.stats {
            out.extend_from_slice(&s.cursed_wins.to_le_bytes());
            out.extend_from_slice(&s.blessed_losses.to_le_bytes());
        }
        assert!(out.len() <= HEADER_LEN - 8);
        out.resize(HEADER_LEN - 8, 0);
        out
    }

    /// Decodes and checks the header of `bytes` (a whole file), without checksums. Returns the
    /// header.
    ///
    /// # Errors
    /// [`TableErrorKind`] naming the first problem.
    pub fn decode(bytes: &[u8]) -> Result<Header<R>, TableErrorKind> {
        if bytes.len() < 8 || bytes[..8] != MAGIC {
            return Err(TableErrorKind::NotATable);
        }
        if bytes.len() < HEADER_LEN {
            return Err(TableErrorKind::Truncated {
                expected: HEADER_LEN as u64,
                actual: bytes.len() as u64,
            });
        }
        let mut r = Reader { bytes, at: 8 };
        let version = r.u16();
        if version != FORMAT_VERSION {
            return Err(TableErrorKind::UnsupportedVersion(version));
        }
        let kind_byte = r.u8();
        let kind = Kind::from_byte(kind_byte)
            .ok_or(TableErrorKind::UnknownField("kind", kind_byte.into()))?;
        let index_scheme = r.u8();
        if index_scheme != INDEX_SCHEME {
            return Err(TableErrorKind::UnknownField(
                "index scheme",
                index_scheme.into(),
            ));
        }
        let enc = r.u8();
        let encoding = Encoding::from_byte(enc)
            .ok_or(TableErrorKind::UnknownField("entry encoding", enc.into()))?;
        r.take(3);
        let rules_name = r.text(16);
        let rules = R::from_id(&rules_name)
            .ok_or_else(|| TableErrorKind::UnknownRuleSet(rules_name.clone()))?;
        let material_name = r.text(24);
        let material = R::material_named(&material_name)
            .ok_or_else(|| TableErrorKind::BadMaterial(material_name.clone()))?;
        let entries = r.u64();
        let block_entries = r.u32();
        let blocks = r.u32();
        let mut stats: [SideStats; 2] = Default::default();
        for s in &mut stats {
            s.wins = r.u64();
            s.draws = r.u64();
            s.losses = r.u64();
            s.longest_win = r.u16();
            s.longest_win_position = r.text(TEXT_LEN);
        }
        let generator = r.text(32);
        for s in &mut stats {
            s.cursed_wins = r.u64();
            s.blessed_losses = r.u64();
        }
        let header = Header {
            kind,
            rules,
            material,
            index_scheme,
            encoding,
            entries,
            block_entries,
            blocks,
            stats,
            generator,
        };
        let expected_blocks = entries.div_ceil(u64::from(block_entries.max(1)));
        if block_entries == 0
            || block_entries > MAX_BLOCK_ENTRIES
            || entries > MAX_ENTRIES
            || u64::from(blocks) != expected_blocks
        {
            return Err(TableErrorKind::BadBlockLayout {
                entries,
                block_entries,
                blocks,
            });
        }
        Ok(header)
    }

    /// Where the blocks start.
    #[must_use]
    pub const fn data_start(&self) -> u64 {
        // In u64: the index of up to 2^32 - 1 blocks overflows a 32-bit usize (wasm32).
        HEADER_LEN as u64 + 8 * (self.blocks as u64 + 1)
    }

    /// Entries in block `b`.
    #[must_use]
    pub fn entries_in(&self, b: u32) -> usize {
        let start = u64::from(b) * u64::from(self.block_entries);
        (self.entries - start).min(u64::from(self.block_entries)) as usize
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A family of one rule set, for the format's own tests (the core names no game).
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    struct Plain;

    impl fmt::Display for Plain {
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("plain")
        }
    }

    impl Family for Plain {
        type Material = u8;
        const SIDES: [&'static str; 2] = ["first", "second"];
        const DISTANCE_UNIT: Option<&'static str> = Some("plies");

        fn from_id(id: &str) -> Option<Plain> {
            (id == "plain").then_some(Plain)
        }

        fn id(self) -> &'static str {
            "plain"
        }

        fn material_named(name: &str) -> Option<u8> {
            name.parse().ok()
        }

        fn table_of(self, material: u8) -> u8 {
            material
        }

        fn entries(self, _: u8) -> u64 {
            u64::from(u32::MAX)
        }
    }

    /// Where the blocks of the largest block count a header may hold start: past what a
    /// 32-bit `usize` counts, so the offset is a `u64` (computed in `usize` it overflowed on
    /// wasm32, and a damaged header's index was then read from the wrong place).
    #[test]
    fn the_blocks_of_any_block_count_start_where_the_index_ends() {
        let header = Header {
            kind: Kind::Wdl,
            rules: Plain,
            material: 1,
            index_scheme: INDEX_SCHEME,
            encoding: Encoding::Wdl2,
            entries: u64::from(u32::MAX),
            block_entries: 1,
            blocks: u32::MAX,
            stats: Default::default(),
            generator: String::new(),
        };
        assert_eq!(header.data_start(), 512 + 8 * (1 << 32));
        // The block count is where `seal` reads it.
        let at = &header.encode()[BLOCKS_AT..BLOCKS_AT + 4];
        assert_eq!(u32::from_le_bytes(at.try_into().unwrap()), u32::MAX);
    }
}
