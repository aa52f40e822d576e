//! Where table bytes come from: a table file is a [`ByteSource`] (positioned reads of a local
//! file, a memory map, bytes in memory, or whatever a caller implements: a network range
//! reader, a host's callback), and a tablebase finds its files through a [`Storage`], which
//! lists a rule set's folder and opens a file by its path. The probe reads only the header, the
//! block index and the blocks it needs, each once (decoded blocks are cached above this).

use super::open_files::LocalFile;
use std::{
    collections::BTreeMap,
    fmt,
    fs::File,
    io,
    path::{Path, PathBuf},
    sync::Arc,
};

/// The bytes of one table file, read at any offset from any thread.
///
/// Implement it to serve tables from elsewhere than a local file: reads are made on opening
/// (the header and the block index) and on a cache miss (one block), never for a cached probe.
pub trait ByteSource: fmt::Debug + Send + Sync {
    /// The size of the file in bytes.
    ///
    /// # Errors
    /// When the size cannot be known.
    fn size(&self) -> io::Result<u64>;

    /// Fills `buf` with the bytes at `offset`.
    ///
    /// # Errors
    /// A failed or short read ([`io::ErrorKind::UnexpectedEof`] past the end): the probe then
    /// fails with an error naming the file, never with a wrong value.
    fn read_at(&self, offset: u64, buf: &mut [u8]) -> io::Result<()>;

    /// The `len` bytes at `offset` where the source holds them in memory (a map, a buffer), so
    /// that reading them copies nothing; `None` to have them read with [`ByteSource::read_at`].
    fn slice(&self, offset: u64, len: usize) -> Option<&[u8]> {
        let _ = (offset, len);
        None
    }
}

/// Where a tablebase's files are: the names in a rule set's folder, and each file by its path.
pub trait Storage: fmt::Debug + Send + Sync {
    /// The names of the files in the folder `dir` (`root/<rules>`).
    ///
    /// # Errors
    /// When the folder is not there ([`io::ErrorKind::NotFound`]) or cannot be read.
    fn list(&self, dir: &Path) -> io::Result<Vec<String>>;

    /// The file at `path`, `Ok(None)` where there is none.
    ///
    /// # Errors
    /// When it is there but cannot be opened.
    fn open(&self, path: &Path) -> io::Result<Option<Box<dyn ByteSource>>>;
}

/// Positioned reads of an open file (`pread` on Unix): safe whatever happens to the file meanwhile.
impl ByteSource for File {
    fn size(&self) -> io::Result<u64> {
        Ok(self.metadata()?.len())
    }

    #[cfg(unix)]
    fn read_at(&self, offset: u64, buf: &mut [u8]) -> io::Result<()> {
        std::os::unix::fs::FileExt::read_exact_at(self, buf, offset)
    }

    #[cfg(windows)]
    fn read_at(&self, mut offset: u64, mut buf: &mut [u8]) -> io::Result<()> {
        while !buf.is_empty() {
            match std::os::windows::fs::FileExt::seek_read(self, buf, offset)? {
                0 => return Err(io::ErrorKind::UnexpectedEof.into()),
                n => {
                    buf = &mut buf[n..];
                    offset += n as u64;
                }
            }
        }
        Ok(())
    }

    #[cfg(not(any(unix, windows)))]
    fn read_at(&self, _: u64, _: &mut [u8]) -> io::Result<()> {
        Err(io::Error::new(
            io::ErrorKind::Unsupported,
            "positioned reads of local files are not available on this platform",
        ))
    }
}

/// Byte sources whose bytes are all in memory: a read copies them, a slice borrows them.
macro_rules! held_in_memory {
    ($source:ty, $doc:literal) => {
        #[doc = $doc]
        impl ByteSource for $source {
            fn size(&self) -> io::Result<u64> {
                Ok(self.len() as u64)
            }

            fn read_at(&self, offset: u64, buf: &mut [u8]) -> io::Result<()> {
                read_slice(self, offset, buf)
            }

            fn slice(&self, offset: u64, len: usize) -> Option<&[u8]> {
                slice_of(self, offset, len)
            }
        }
    };
}

#[cfg(feature = "mmap")]
held_in_memory!(memmap2::Mmap, "A read-only memory map of a whole file.");
held_in_memory!(Arc<[u8]>, "The bytes of a file held in memory.");

/// `len` bytes of `bytes` at `offset`, if they are all there.
fn slice_of(bytes: &[u8], offset: u64, len: usize) -> Option<&[u8]> {
    let start = usize::try_from(offset).ok()?;
    bytes.get(start..start.checked_add(len)?)
}

/// Fills `buf` from `bytes` at `offset`.
fn read_slice(bytes: &[u8], offset: u64, buf: &mut [u8]) -> io::Result<()> {
    let found = slice_of(bytes, offset, buf.len()).ok_or(io::ErrorKind::UnexpectedEof)?;
    buf.copy_from_slice(found);
    Ok(())
}

/// Table files in the local file system, read with positioned reads (the default), or
/// memory-mapped ([`LocalFiles::mapped`]).
///
/// Read files keep a descriptor open only while they are among the 512 most recently read in
/// the process (a set may hold more files than a process may open: the flip game's four-tile
/// set is 33,076); another is opened again on its next read, and refused with an error if it is
/// no longer the file first opened (replaced since). Mapped files hold no descriptor.
#[derive(Debug, Clone, Copy, Default)]
pub struct LocalFiles {
    #[cfg(feature = "mmap")]
    mapped: bool,
}

impl LocalFiles {
    /// Local files, memory-mapped: a block read on a cache miss is a slice of memory, not a
    /// system call.
    ///
    /// # Safety
    /// The files must not be truncated or modified in place while they are open: a mapped file
    /// truncated by another process makes the next read of the lost pages a SIGBUS, and a file
    /// modified in place may be read half old, half new. Files written by `jtb gen` are only
    /// ever replaced by rename, which is safe.
    #[cfg(feature = "mmap")]
    #[must_use]
    pub const unsafe fn mapped() -> LocalFiles {
        LocalFiles { mapped: true }
    }
}

impl Storage for LocalFiles {
    fn list(&self, dir: &Path) -> io::Result<Vec<String>> {
        Ok(std::fs::read_dir(dir)?
            .flatten()
            .filter_map(|entry| entry.file_name().into_string().ok())
            .collect())
    }

    fn open(&self, path: &Path) -> io::Result<Option<Box<dyn ByteSource>>> {
        #[cfg(feature = "mmap")]
        if self.mapped {
            let file = match File::open(path) {
                Ok(file) => file,
                Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
                Err(e) => return Err(e),
            };
            // Safety: read-only and private; the maker of this storage promised
            // (`LocalFiles::mapped`) that the file stays as it is. The map outlives the
            // descriptor, which closes here.
            return Ok(Some(Box::new(unsafe { memmap2::Mmap::map(&file) }?)));
        }
        // A descriptor kept among the most recently read only: a set may hold more files than
        // the process may open.
        Ok(LocalFile::open(path)?.map(|f| Box::new(f) as Box<dyn ByteSource>))
    }
}

/// Table files held in memory, by path: tables bundled into a program, fetched whole by a host
/// without a file system (a browser), or made up by a test.
#[derive(Debug, Clone, Default)]
pub struct MemoryFiles {
    files: BTreeMap<PathBuf, Arc<[u8]>>,
}

impl MemoryFiles {
    /// No files.
    #[must_use]
    pub fn new() -> MemoryFiles {
        MemoryFiles::default()
    }

    /// Holds `bytes` as the file at `path` (`root/<rules>/<table>.<kind>`, as `jtb gen` lays
    /// them out), in place of any file there.
    pub fn insert(&mut self, path: impl Into<PathBuf>, bytes: impl Into<Arc<[u8]>>) {
        self.files.insert(path.into(), bytes.into());
    }
}

impl Storage for MemoryFiles {
    fn list(&self, dir: &Path) -> io::Result<Vec<String>> {
        let names: Vec<String> = self
            .files
            .keys()
            .filter(|path| path.parent() == Some(dir))
            .filter_map(|path| Some(path.file_name()?.to_str()?.to_owned()))
            .collect();
        if names.is_empty() {
            return Err(io::ErrorKind::NotFound.into());
        }
        Ok(names)
    }

    fn open(&self, path: &Path) -> io::Result<Option<Box<dyn ByteSource>>> {
        Ok(self
            .files
            .get(path)
            .map(|bytes| Box::new(Arc::clone(bytes)) as Box<dyn ByteSource>))
    }
}
