//! Local table files read with positioned reads, with a bound on the descriptors they hold open
//! together: a set can hold more files than a process may open (the flip game's four-tile set is
//! 33,076 files, and the usual limit 1,024), and a generation, a verification or a server may
//! read them all. A file whose descriptor was closed to make room is opened again on its next
//! read, and refused if it is no longer the file that was opened (replaced since).

use std::{
    fs::{File, Metadata},
    io,
    path::{Path, PathBuf},
    sync::{
        atomic::{AtomicU64, Ordering},
        Arc, Mutex, MutexGuard, Weak,
    },
};

use super::source::ByteSource;

/// The most descriptors of table files the process keeps open: half the usual limit of 1,024,
/// leaving the rest to the program (sockets, its own files).
pub(crate) const MAX_OPEN_TABLE_FILES: usize = 512;

/// A local file read with positioned reads, its descriptor kept only while it is among the
/// [`MAX_OPEN_TABLE_FILES`] most recently read.
#[derive(Debug)]
pub(crate) struct LocalFile(Arc<Shared>);

#[derive(Debug)]
struct Shared {
    path: PathBuf,
    identity: Identity,
    /// The open descriptor, if it is; reads clone it, so that closing waits for none.
    handle: Mutex<Option<Arc<File>>>,
    /// When it was last read, on the registry's clock.
    last_read: AtomicU64,
}

/// What tells a file from another put in its place: its size and time of change, and on Unix
/// its device, inode and inode change time.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Identity {
    len: u64,
    modified: Option<std::time::SystemTime>,
    /// Device, inode and time of the inode's last change (a copy that kept the modification
    /// time, put where a file of the same size was, still differs there).
    #[cfg(unix)]
    inode: (u64, u64, i64, i64),
}

impl Identity {
    fn of(meta: &Metadata) -> Identity {
        Identity {
            len: meta.len(),
            modified: meta.modified().ok(),
            #[cfg(unix)]
            inode: {
                use std::os::unix::fs::MetadataExt;
                (meta.dev(), meta.ino(), meta.ctime(), meta.ctime_nsec())
            },
        }
    }
}

/// The files whose descriptors are open, to close the least recently read when one more is
/// needed.
struct Registry {
    open: Vec<Weak<Shared>>,
}

static REGISTRY: Mutex<Registry> = Mutex::new(Registry { open: Vec::new() });
static CLOCK: AtomicU64 = AtomicU64::new(0);

/// The registry, whatever a thread that panicked holding it left (a list of weak references
/// stays whole).
fn registry() -> MutexGuard<'static, Registry> {
    REGISTRY.lock().unwrap_or_else(|e| e.into_inner())
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl Registry {
    /// Notes `file` as open, first closing the least recently read files until fewer than
    /// `limit` are. Lock order: the registry, then a file's handle.
    fn admit(&mut self, file: &Arc<Shared>, limit: usize) {
        // Files closed by eviction left the list then; those dropped since leave it here.
        self.open.retain(|w| w.strong_count() > 0);
        while self.open.len() >= limit {
            let oldest = self
                .open
                .iter()
                .enumerate()
                .filter_map(|(i, w)| Some((i, w.upgrade()?)))
                .min_by_key(|(_, f)| f.last_read.load(Ordering::Relaxed));
            let Some((i, f)) = oldest else { break };
            *lock(&f.handle) = None;
            self.open.swap_remove(i);
        }
        self.open.push(Arc::downgrade(file));
    }
}

/// How many table files have a descriptor open now.
#[cfg(test)]
fn open_table_files() -> usize {
    registry()
        .open
        .iter()
        .filter(|w| w.upgrade().is_some_and(|f| lock(&f.handle).is_some()))
        .count()
}

impl LocalFile {
    /// The file at `path`, opened now; `Ok(None)` where there is none.
    pub(crate) fn open(path: &Path) -> io::Result<Option<LocalFile>> {
        let file = match File::open(path) {
            Ok(file) => file,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(e),
        };
        let shared = Arc::new(Shared {
            // Absolute: a later change of the working directory must not move the file.
            path: std::path::absolute(path)?,
            identity: Identity::of(&file.metadata()?),
            handle: Mutex::new(None),
            last_read: AtomicU64::new(CLOCK.fetch_add(1, Ordering::Relaxed)),
        });
        shared.install(file);
        Ok(Some(LocalFile(shared)))
    }
}

impl Shared {
    /// Puts `file` in as the open descriptor, making room for it.
    fn install(self: &Arc<Self>, file: File) -> Arc<File> {
        let mut registry = registry();
        let mut handle = lock(&self.handle);
        if let Some(open) = handle.as_ref() {
            // Another thread opened it meanwhile.
            return Arc::clone(open);
        }
        drop(handle);
        registry.admit(self, MAX_OPEN_TABLE_FILES);
        handle = lock(&self.handle);
        Arc::clone(handle.insert(Arc::new(file)))
    }

    /// The open descriptor, opening the file again where it was closed: refused if another
    /// file took its place meanwhile (its header and block index, read on opening, would not
    /// be this one's).
    fn descriptor(self: &Arc<Self>) -> io::Result<Arc<File>> {
        self.last_read
            .store(CLOCK.fetch_add(1, Ordering::Relaxed), Ordering::Relaxed);
        if let Some(open) = lock(&self.handle).as_ref() {
            return Ok(Arc::clone(open));
        }
        let file = File::open(&self.path)?;
        if Identity::of(&file.metadata()?) != self.identity {
            return Err(io::Error::other(
                "the file was replaced since the tablebase opened it: open the tablebase again",
            ));
        }
        Ok(self.install(file))
    }
}

impl ByteSource for LocalFile {
    fn size(&self) -> io::Result<u64> {
        Ok(self.0.identity.len)
    }

    fn read_at(&self, offset: u64, buf: &mut [u8]) -> io::Result<()> {
        self.0.descriptor()?.read_at(offset, buf)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// More files than the bound, each read twice in turn: every read succeeds, and never more
    /// than the bound are open at once. A file replaced while its descriptor was closed is
    /// refused, never read as the old one.
    #[test]
    fn descriptors_stay_within_the_bound() {
        let dir = tempfile::tempdir().unwrap();
        let n = MAX_OPEN_TABLE_FILES + 40;
        let files: Vec<LocalFile> = (0..n)
            .map(|i| {
                let path = dir.path().join(format!("{i}.bin"));
                std::fs::write(&path, (i as u32).to_le_bytes()).unwrap();
                LocalFile::open(&path).unwrap().unwrap()
            })
            .collect();
        assert!(open_table_files() <= MAX_OPEN_TABLE_FILES);
        for _ in 0..2 {
            for (i, f) in files.iter().enumerate() {
                let mut buf = [0; 4];
                f.read_at(0, &mut buf).unwrap();
                assert_eq!(u32::from_le_bytes(buf), i as u32);
                assert!(open_table_files() <= MAX_OPEN_TABLE_FILES);
            }
        }
        // File 0 was read longest ago: its descriptor is closed. Replaced by a rename, it is
        // refused.
        assert!(lock(&files[0].0.handle).is_none());
        let replacement = dir.path().join("new.bin");
        std::fs::write(&replacement, 7u32.to_le_bytes()).unwrap();
        std::fs::rename(&replacement, dir.path().join("0.bin")).unwrap();
        let mut buf = [0; 4];
        let e = files[0].read_at(0, &mut buf).unwrap_err();
        assert!(e.to_string().contains("replaced"), "{e}");
        assert!(LocalFile::open(&dir.path().join("none.bin"))
            .unwrap()
            .is_none());
    }
}
