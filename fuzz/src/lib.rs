//! What the fuzz targets share: the rule set a first byte picks, table bytes with their checksums
//! made right again by the format's own sealing (so that a mutation reaches the parser behind
//! them), and a small real table set of each game, generated once per fuzzing process.

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

/// A table file's checksums made right again: the format's own sealing, as the writer does it.
pub use jtb_probe::format::seal as fix_checksums;

/// The rule set `byte` picks among [`Rules::all`], or none (the text's shape decides) for the
/// byte values past them.
#[must_use]
pub fn rules_of_byte(byte: u8) -> Option<Rules> {
    let all = Rules::all();
    all.get(usize::from(byte) % (all.len() + 1)).copied()
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

/// A folder holding every small table set of [`SETS`] as `jtb gen` lays them out (a temporary
/// folder kept for the process): for the target that serves them.
///
/// # Panics
/// If the generation or the writing fails.
pub fn table_root() -> &'static Path {
    static ROOT_DIR: OnceLock<tempfile::TempDir> = OnceLock::new();
    ROOT_DIR
        .get_or_init(|| {
            let dir = tempfile::tempdir().expect("a temporary folder");
            for (set, &(rules, _)) in table_sets().iter().zip(&SETS) {
                let folder = dir.path().join(rules);
                fs::create_dir_all(&folder).expect("a table folder");
                for (name, bytes) in &set.files {
                    fs::write(folder.join(name), bytes).expect("a table file");
                }
            }
            dir
        })
        .path()
}
