//! Table bytes that JavaScript fetches ([`Fetched`]): a [`Storage`] over the listings, sizes
//! and byte ranges supplied so far. A read of anything not yet supplied fails and is recorded
//! as a need; the caller fetches what is needed (a directory listing, a file's first bytes and
//! size, a range), supplies it, and asks again. The probe keeps nothing of a failed read (no
//! table file is kept half open, no block half decoded), so the second ask goes further.
//!
//! Supplied ranges are raw table bytes: a file's header and block index are read once, when it
//! opens, and a block once, before it is decoded into the probe's own cache. So they are held
//! only up to a bound in bytes, the oldest dropped first, and never those supplied since the
//! last answer was completed (the answer being computed may still read them).

use std::{
    collections::{HashMap, VecDeque},
    io,
    path::Path,
    sync::{Arc, Mutex, MutexGuard},
};

use jtb_probe::{ByteSource, Storage};

/// The first bytes of a file fetched with its size: its header and, for most tables, its
/// whole block index.
pub const HEAD_BYTES: u64 = 16 << 10;

/// Something a probe read and JavaScript has not supplied yet.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Need {
    /// The names of the files in a folder (a rule set's).
    List(String),
    /// A file's size and its first bytes (up to [`HEAD_BYTES`]), or that it is not there.
    Head(String),
    /// `length` bytes of a file at `offset`.
    Range {
        path: String,
        offset: u64,
        length: u64,
    },
}

impl Need {
    /// The need as JSON, for the JavaScript that fetches it.
    pub fn json(&self) -> serde_json::Value {
        match self {
            Need::List(dir) => serde_json::json!({ "list": dir }),
            Need::Head(path) => serde_json::json!({ "head": path, "length": HEAD_BYTES }),
            Need::Range {
                path,
                offset,
                length,
            } => serde_json::json!({ "path": path, "offset": offset, "length": length }),
        }
    }
}

/// A range of a file's bytes as supplied.
#[derive(Debug)]
struct Chunk {
    path: String,
    offset: u64,
    bytes: Vec<u8>,
    /// The answers completed before it was supplied.
    era: u64,
}

#[derive(Debug, Default)]
struct State {
    /// Each folder's file names, `None` where it is not there.
    listings: HashMap<String, Option<Vec<String>>>,
    /// Each file's size, `None` where it is not there.
    sizes: HashMap<String, Option<u64>>,
    /// Supplied ranges, oldest first.
    chunks: VecDeque<Chunk>,
    held: u64,
    /// The bound on `held`.
    bound: u64,
    /// The answers completed so far.
    era: u64,
    needs: Vec<Need>,
}

impl State {
    fn need(&mut self, need: Need) -> io::Error {
        if !self.needs.contains(&need) {
            self.needs.push(need);
        }
        io::Error::other("not fetched yet")
    }

    /// Drops the oldest ranges while over the bound, none supplied in this era.
    fn shrink(&mut self) {
        while self.held > self.bound {
            match self.chunks.front() {
                Some(c) if c.era < self.era => {
                    self.held -= c.bytes.len() as u64;
                    self.chunks.pop_front();
                }
                _ => break,
            }
        }
    }
}

/// What JavaScript has fetched of the tables, shared by the storage and the files it opens.
#[derive(Debug, Clone)]
pub struct Fetched(Arc<Mutex<State>>);

impl Fetched {
    /// Nothing fetched yet; supplied ranges held up to `bound` bytes.
    pub fn new(bound: u64) -> Fetched {
        Fetched(Arc::new(Mutex::new(State {
            bound,
            ..State::default()
        })))
    }

    fn state(&self) -> MutexGuard<'_, State> {
        // A panic while holding the lock leaves plain data behind: still usable.
        self.0
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Whether the listing of `dir` has been supplied.
    pub fn is_listed(&self, dir: &str) -> bool {
        self.state().listings.contains_key(dir)
    }

    /// Records that the listing of `dir` is needed.
    pub fn need_listing(&self, dir: &str) {
        self.state().need(Need::List(dir.to_owned()));
    }

    /// The names in `dir`, or `None`: the folder is not there.
    pub fn supply_listing(&self, dir: &str, names: Option<Vec<String>>) {
        self.state().listings.insert(dir.to_owned(), names);
    }

    /// The size of the file at `path`, or `None`: it is not there.
    pub fn supply_size(&self, path: &str, size: Option<u64>) {
        self.state().sizes.insert(path.to_owned(), size);
    }

    /// The bytes of `path` at `offset`.
    pub fn supply_bytes(&self, path: &str, offset: u64, bytes: Vec<u8>) {
        let mut state = self.state();
        state.held += bytes.len() as u64;
        let era = state.era;
        state.chunks.push_back(Chunk {
            path: path.to_owned(),
            offset,
            bytes,
            era,
        });
        state.shrink();
    }

    /// Whether a probe since the last [`Fetched::take_needs`] needed something not fetched.
    pub fn has_needs(&self) -> bool {
        !self.state().needs.is_empty()
    }

    /// What the probes since the last call needed and did not find, taken.
    pub fn take_needs(&self) -> Vec<Need> {
        std::mem::take(&mut self.state().needs)
    }

    /// Marks an answer completed: the ranges supplied for it may go.
    pub fn answered(&self) {
        let mut state = self.state();
        state.era += 1;
        state.shrink();
    }

    /// The bytes of supplied ranges held now.
    pub fn held_bytes(&self) -> u64 {
        self.state().held
    }
}

/// A path as the JavaScript side names files: `rules/file`, with `/`.
fn key(path: &Path) -> String {
    path.to_string_lossy().replace('\\', "/")
}

impl Storage for Fetched {
    fn list(&self, dir: &Path) -> io::Result<Vec<String>> {
        let dir = key(dir);
        let mut state = self.state();
        match state.listings.get(&dir) {
            Some(Some(names)) => Ok(names.clone()),
            Some(None) => Err(io::ErrorKind::NotFound.into()),
            None => Err(state.need(Need::List(dir))),
        }
    }

    fn open(&self, path: &Path) -> io::Result<Option<Box<dyn ByteSource>>> {
        let path = key(path);
        let mut state = self.state();
        match state.sizes.get(&path) {
            Some(Some(size)) => Ok(Some(Box::new(FetchedFile {
                size: *size,
                path,
                fetched: self.clone(),
            }))),
            Some(None) => Ok(None),
            None => Err(state.need(Need::Head(path))),
        }
    }
}

/// A table file read from the ranges supplied.
#[derive(Debug)]
struct FetchedFile {
    path: String,
    size: u64,
    fetched: Fetched,
}

impl ByteSource for FetchedFile {
    fn size(&self) -> io::Result<u64> {
        Ok(self.size)
    }

    fn read_at(&self, offset: u64, buf: &mut [u8]) -> io::Result<()> {
        let length = buf.len() as u64;
        let end = offset
            .checked_add(length)
            .filter(|&end| end <= self.size)
            .ok_or(io::ErrorKind::UnexpectedEof)?;
        let mut state = self.fetched.state();
        let held = state.chunks.iter().find(|c| {
            c.path == self.path && c.offset <= offset && end <= c.offset + c.bytes.len() as u64
        });
        if let Some(chunk) = held {
            let at = (offset - chunk.offset) as usize;
            buf.copy_from_slice(&chunk.bytes[at..at + buf.len()]);
            return Ok(());
        }
        Err(state.need(Need::Range {
            path: self.path.clone(),
            offset,
            length,
        }))
    }
}
