//! One rule set's tables as last found: opened on first use, and replaced by a fresh shelf when
//! the rule set's directory changes ([`Shelf::is_stale`]), with a digest of its table files
//! ([`fingerprint`]) for answers' tags.

use std::{
    path::{Path, PathBuf},
    sync::{Arc, OnceLock},
    time::{Duration, SystemTime},
};

use jtb_probe::ProbeError;

/// How long after a change a directory's modification time is not trusted to mark it.
const FRESH: Duration = Duration::from_secs(2);

/// A rule set's tables (of type `T`), opened on the first ask, with the directory's
/// modification time when the shelf was made.
pub(super) struct Shelf<T> {
    dir: PathBuf,
    /// The tables, or why there are none (the directory is not there or cannot be read).
    tables: OnceLock<Result<T, Arc<ProbeError>>>,
    /// The directory's modification time when the shelf was made.
    stamp: Stamp,
    /// What the table files were when first asked ([`fingerprint`]).
    fingerprint: OnceLock<u64>,
}

impl<T> Shelf<T> {
    /// An empty shelf for the tables in `dir`, stamped with the directory's time now.
    pub(super) fn new(dir: PathBuf) -> Shelf<T> {
        let stamp = match stamp(&dir) {
            None => Stamp::Absent,
            // A directory changed within the last seconds may change again within the same
            // tick of its file system's clock: not trusted, so that the next look scans again.
            Some(t)
                if SystemTime::now()
                    .duration_since(t)
                    .map_or(true, |age| age < FRESH) =>
            {
                Stamp::Untrusted
            }
            Some(t) => Stamp::At(t),
        };
        Shelf {
            dir,
            tables: OnceLock::new(),
            stamp,
            fingerprint: OnceLock::new(),
        }
    }

    /// The tables, opened by `open` on the first ask.
    ///
    /// # Errors
    /// `open`'s error, kept: a missing directory is not looked for again until the shelf is
    /// replaced.
    pub(super) fn get(
        &self,
        open: impl FnOnce() -> Result<T, ProbeError>,
    ) -> Result<&T, &Arc<ProbeError>> {
        self.tables
            .get_or_init(|| open().map_err(Arc::new))
            .as_ref()
    }

    /// Whether the directory changed (or appeared, or went) since the shelf was made.
    pub(super) fn is_stale(&self) -> bool {
        match (self.stamp, stamp(&self.dir)) {
            (Stamp::Untrusted, _) => true,
            (Stamp::Absent, now) => now.is_some(),
            (Stamp::At(then), now) => now != Some(then),
        }
    }

    /// The digest of the table files as they were at the first ask.
    pub(super) fn fingerprint(&self) -> u64 {
        *self.fingerprint.get_or_init(|| fingerprint(&self.dir))
    }
}

/// What a shelf knows of its directory's modification time.
#[derive(Clone, Copy)]
enum Stamp {
    /// The directory was not there (or could not be read).
    Absent,
    /// Changed too recently to be trusted: looked at again on every refresh.
    Untrusted,
    /// Last changed then.
    At(SystemTime),
}

/// When `dir` was last changed (a table written by `jtb gen` is renamed into it).
fn stamp(dir: &Path) -> Option<SystemTime> {
    std::fs::metadata(dir).and_then(|m| m.modified()).ok()
}

/// A digest of the table files in `dir`: each file's name, size, modification time and trailing
/// checksum (the xxh3 of all its other bytes, written by `jtb gen`), so that any table written,
/// replaced or rewritten since changes it. 0 when the directory cannot be read.
fn fingerprint(dir: &Path) -> u64 {
    use std::io::{Read, Seek, SeekFrom};
    let Ok(entries) = std::fs::read_dir(dir) else {
        return 0;
    };
    let mut files: Vec<(String, u64, u128, [u8; 8])> = entries
        .flatten()
        .filter_map(|entry| {
            let name = entry.file_name().into_string().ok()?;
            let table = [".wdl", ".dtm", ".dtc", ".ban", ".chance", ".dte"]
                .iter()
                .any(|ext| name.ends_with(ext));
            if !table {
                return None;
            }
            let mut trailer = [0u8; 8];
            let mut file = std::fs::File::open(entry.path()).ok()?;
            let meta = file.metadata().ok()?;
            let len = meta.len();
            let modified = meta
                .modified()
                .ok()
                .and_then(|t| t.duration_since(SystemTime::UNIX_EPOCH).ok())
                .map_or(0, |d| d.as_nanos());
            if len >= 8 {
                file.seek(SeekFrom::Start(len - 8)).ok()?;
                file.read_exact(&mut trailer).ok()?;
            }
            Some((name, len, modified, trailer))
        })
        .collect();
    files.sort_unstable();
    let mut h = xxhash_rust::xxh3::Xxh3::new();
    for (name, len, modified, trailer) in &files {
        h.update(name.as_bytes());
        h.update(&len.to_le_bytes());
        h.update(&modified.to_le_bytes());
        h.update(trailer);
    }
    h.digest()
}
