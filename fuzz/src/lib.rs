//! What the fuzz targets share: the rule set a first byte picks, table bytes with their checksums
//! made right again (so that a mutation reaches the parser behind them), and a small real table
//! set of each game, generated once per fuzzing process.

use std::{
    fs,
    path::{Path, PathBuf},
    sync::OnceLock,
};

use jtb_edge::Rules;
use jtb_gen::{
    driver::Silent,
    targets::{generate, Options},
};
use xxhash_rust::xxh3::xxh3_64;

/// Bytes in a table file's header, its checksum (the last 8 bytes) included (`HEADER_LEN` of
/// `probe/src/core/format.rs`).
pub const HEADER_LEN: usize = 512;
/// Where the header's block count (`u32`, little-endian) is: after the magic, version, kind,
/// index scheme, encoding, padding, rule set, material, entries and entries per block.
const BLOCKS_AT: usize = 68;

/// The rule set `byte` picks among [`Rules::all`], or none (the text's shape decides) for the
/// byte values past them.
#[must_use]
pub fn rules_of_byte(byte: u8) -> Option<Rules> {
    let all = Rules::all();
    all.get(usize::from(byte) % (all.len() + 1)).copied()
}

/// Writes the header checksum (an xxh3 of the header before it and the block index, which the
/// header's block count sizes) and the trailer (an xxh3 of everything before it) of a table
/// file, where the file is long enough to have them: the reader then checks everything else.
pub fn fix_checksums(bytes: &mut [u8]) {
    if bytes.len() < HEADER_LEN {
        return;
    }
    let blocks = u32::from_le_bytes(bytes[BLOCKS_AT..BLOCKS_AT + 4].try_into().expect("4 bytes"));
    let data_start = HEADER_LEN as u64 + 8 * (u64::from(blocks) + 1);
    if (bytes.len() as u64) < data_start + 8 {
        return;
    }
    let data_start = data_start as usize;
    let mut covered = bytes[..HEADER_LEN - 8].to_vec();
    covered.extend_from_slice(&bytes[HEADER_LEN..data_start]);
    bytes[HEADER_LEN - 8..HEADER_LEN].copy_from_slice(&xxh3_64(&covered).to_le_bytes());
    let body = bytes.len() - 8;
    let sum = xxh3_64(&bytes[..body]);
    bytes[body..].copy_from_slice(&sum.to_le_bytes());
}

/// The files of one rule set's small table set, read into memory.
#[derive(Debug)]
pub struct TableSet {
    /// The rule set's folder under [`ROOT`] (`fuzz/mistboard`).
    pub dir: PathBuf,
    /// Each file's name (`LvE.dtm`) and bytes, by name.
    pub files: Vec<(String, Vec<u8>)>,
}

/// The table root the sets are held under in memory (no file is read there).
pub const ROOT: &str = "fuzz";

/// The rule sets and materials of the small sets: a table of each game, the flip game's with a
/// chance table (which brings the revealed tables it leads into).
pub const SETS: [(&str, &str); 4] = [
    ("mistboard", "LvE"),
    ("clesto", "LvE"),
    ("animal-gambit", "RvR"),
    ("flip4x4", "LvE-Tw"),
];

/// The small table sets of [`SETS`], in that order: generated into a temporary folder by the
/// first call of a process (a second or so), then served from memory.
///
/// # Panics
/// If the generation fails.
pub fn table_sets() -> &'static [TableSet] {
    static SETS_READ: OnceLock<Vec<TableSet>> = OnceLock::new();
    SETS_READ.get_or_init(|| {
        let out = tempfile::tempdir().expect("a temporary folder");
        SETS.iter()
            .map(|&(rules, material)| generate_set(out.path(), rules, material))
            .collect()
    })
}

fn generate_set(out: &Path, rules: &str, material: &str) -> TableSet {
    let rules: Rules = rules.parse().expect("a rule set");
    let targets = rules.targets(&[material], 5).expect("a material");
    let opts = Options {
        out,
        memory_limit: 1 << 30,
        only_targets: false,
    };
    generate(&targets, opts, &Silent).expect("generation");
    let mut files: Vec<(String, Vec<u8>)> = fs::read_dir(out.join(rules.name()))
        .expect("the generated folder")
        .map(|entry| {
            let entry = entry.expect("a folder entry");
            let name = entry.file_name().into_string().expect("a UTF-8 name");
            (name, fs::read(entry.path()).expect("a generated file"))
        })
        .filter(|(name, _)| !name.ends_with(".tmp"))
        .collect();
    files.sort();
    TableSet {
        dir: Path::new(ROOT).join(rules.name()),
        files,
    }
}
