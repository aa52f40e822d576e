//! The files under every game's probes: a directory of one rule set's tables, opened lazily,
//! with a shared cache of decoded blocks and a lock-free front cache per thread. The one
//! `Tablebase<G>` holds one; only how a position finds its table and entry is the game's.

use std::{
    cell::{Cell, RefCell},
    marker::PhantomData,
    path::{Path, PathBuf},
    sync::{
        atomic::{AtomicU64, Ordering},
        Arc, OnceLock,
    },
};

use quick_cache::{sync::Cache, Weighter};

use super::{source::Storage, Indexed, FILE_SLOTS};
use crate::{
    file::TableFile,
    format::{family_table_path, Family, Kind, TableError, TableErrorKind},
};

#[derive(Clone)]
struct BlockWeight;

impl Weighter<u64, Arc<[u8]>> for BlockWeight {
    fn weight(&self, _key: &u64, val: &Arc<[u8]>) -> u64 {
        val.len() as u64 + 64
    }
}

/// Slots of each thread's front cache of decoded blocks (see [`Store::with_entry`]).
const FRONT_SLOTS: usize = 1024;
/// The smallest shared cache that gets a front cache: the front may hold `FRONT_SLOTS` blocks
/// of 16 KiB per thread, which a smaller bound would not allow.
const FRONT_MIN_CACHE: u64 = (FRONT_SLOTS as u64) << 14;

/// A decoded block in a thread's front cache: which tablebase and block it is, and the bytes.
struct FrontSlot {
    owner: u64,
    key: u64,
    block: Option<Arc<[u8]>>,
}

thread_local! {
    /// A direct-mapped cache in front of the shared one: a cached probe then takes no lock and
    /// touches no shared counter. It holds at most `FRONT_SLOTS` blocks (16 MiB) per thread.
    static FRONT: RefCell<[FrontSlot; FRONT_SLOTS]> = const {
        RefCell::new([const { FrontSlot { owner: 0, key: 0, block: None } }; FRONT_SLOTS])
    };
}

thread_local! {
    /// Whether this thread is inside [`in_memory_only`], and whether a probe there was refused.
    static MEMORY_ONLY: Cell<MemoryOnly> = const { Cell::new(MemoryOnly::Off) };
}

/// This thread's state for [`in_memory_only`].
#[derive(Clone, Copy, PartialEq, Eq)]
enum MemoryOnly {
    /// Probes open files and read blocks as they need.
    Off,
    /// Probes read only what is in memory; none has been refused yet.
    On,
    /// As `On`, and a probe was refused: the result is to be thrown away.
    Refused,
}

/// Runs `f` with this thread's probes held to what is in memory: a probe that would open a
/// table file or read and decode a block (a file read, perhaps a wait on the disk) fails with
/// [`ProbeError::NotInMemory`](crate::ProbeError::NotInMemory) instead, and then `f`'s result,
/// whatever it made of that error, is thrown away: `None`. Otherwise `Some` of `f`'s result,
/// the same as without this wrapper.
///
/// For a caller that must not block, such as an async server's event loop: it answers from
/// memory where it can, and sends only the rest to a thread that may block. Calls may nest.
///
/// ```no_run
/// use jtb_probe::{in_memory_only, Jungle, Position, Tablebase};
///
/// let tb = Tablebase::open("tables", Jungle::Mistboard)?;
/// let pos = Position::parse("7/7/7/7/7/3l3/7/3E3/7 r", None)?;
/// let value = match in_memory_only(|| tb.probe_wdl(&pos)) {
///     Some(value) => value,
///     None => tb.probe_wdl(&pos), // the block was not in memory: read it (on a thread that may block)
/// };
/// # Ok::<_, Box<dyn std::error::Error>>(())
/// ```
pub fn in_memory_only<T>(f: impl FnOnce() -> T) -> Option<T> {
    let outer = MEMORY_ONLY.replace(MemoryOnly::On);
    // Restored even if `f` unwinds, so that a caught panic does not leave the thread held.
    struct Restore(MemoryOnly);
    impl Drop for Restore {
        fn drop(&mut self) {
            let refused = MEMORY_ONLY.get() == MemoryOnly::Refused;
            MEMORY_ONLY.set(match self.0 {
                MemoryOnly::Off => MemoryOnly::Off,
                // An inner refusal is the outer call's too: its result rests on the inner one.
                _ if refused => MemoryOnly::Refused,
                outer => outer,
            });
        }
    }
    let restore = Restore(outer);
    let result = f();
    let refused = MEMORY_ONLY.get() == MemoryOnly::Refused;
    drop(restore);
    (!refused).then_some(result)
}

/// Whether this thread's probes may not load, having noted that one was about to.
fn refuse_load() -> bool {
    match MEMORY_ONLY.get() {
        MemoryOnly::Off => false,
        MemoryOnly::On | MemoryOnly::Refused => {
            MEMORY_ONLY.set(MemoryOnly::Refused);
            true
        }
    }
}

/// Numbers the tablebases of this process, for the front caches (0 is never used).
static NEXT_OWNER: AtomicU64 = AtomicU64::new(1);

/// Each kind's slot among a table's files in a game's tablebase, by kind: its place in
/// [`Indexed::FILE_KINDS`], [`FILE_SLOTS`] (none) for a kind the game has no file of. Made at
/// compile time, so that finding a file's slot on a probe is one lookup in a constant table.
struct SlotOf<R>(PhantomData<R>);

impl<R: Indexed> SlotOf<R> {
    const KIND: [usize; Kind::ALL.len()] = {
        assert!(
            R::FILE_KINDS.len() <= FILE_SLOTS,
            "more kinds of file than slots"
        );
        let mut slots = [FILE_SLOTS; Kind::ALL.len()];
        let mut at = 0;
        while at < R::FILE_KINDS.len() {
            let kind = R::FILE_KINDS[at] as usize;
            assert!(slots[kind] == FILE_SLOTS, "a kind of file listed twice");
            slots[kind] = at;
            at += 1;
        }
        assert!(
            slots[R::TABLE_KIND as usize] < FILE_SLOTS,
            "the kind of file a missing table's error names is one of the game's"
        );
        slots
    };
}

/// One material's table: its lazily opened files, each kind in the game's slot for it
/// ([`Indexed::FILE_KINDS`]).
#[derive(Debug)]
pub(crate) struct StoredTable<R: Family> {
    id: u64,
    material: R::Material,
    files: [OnceLock<TableFile<R>>; FILE_SLOTS],
}

impl<R: Family> StoredTable<R> {
    /// The material, in the orientation that names the table.
    pub(crate) const fn material(&self) -> R::Material {
        self.material
    }
}

/// Why a store has no entry to read.
#[derive(Debug)]
pub(crate) enum Miss {
    /// The table's file of that kind is not in the directory.
    Missing(PathBuf),
    /// It is there but unusable.
    Table(TableError),
    /// Its file is not open yet, or the block is not decoded, inside [`in_memory_only`].
    NotInMemory,
}

impl From<TableError> for Miss {
    fn from(e: TableError) -> Miss {
        Miss::Table(e)
    }
}

/// The tables of one rule set under a root, with the caches of their decoded blocks.
pub(crate) struct Store<R: Indexed> {
    rules: R,
    /// The table root; this rule set's files are in `root/<rules>/`.
    root: PathBuf,
    owner: u64,
    tables: Vec<StoredTable<R>>,
    cache: Cache<u64, Arc<[u8]>, BlockWeight>,
    /// Where the files are (local files by default).
    storage: Arc<dyn Storage>,
    /// Whether probes use the per-thread front cache (a shared cache of `FRONT_MIN_CACHE` or more).
    front: bool,
    /// Lookups in the shared cache (the front caches' misses), and blocks decoded (its misses).
    lookups: AtomicU64,
    decodes: AtomicU64,
}

/// What a tablebase's block caches and files hold now ([`crate::Tablebase::cache_stats`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct CacheStats {
    /// Decoded blocks in the shared cache.
    pub blocks: u64,
    /// Their bytes, as the cache weighs them (the bound given at opening).
    pub bytes: u64,
    /// Lookups in the shared cache since opening. A probe whose block is in its thread's front
    /// cache makes none (counting those would cost every cached probe a shared counter).
    pub lookups: u64,
    /// Blocks read and decoded since opening: the shared cache's misses.
    pub decodes: u64,
    /// Table files open.
    pub open_files: u64,
}

impl<R: Indexed> Store<R> {
    /// The directory of `rules`' tables under `root`: `root/<rules>`.
    pub(crate) fn dir(root: &Path, rules: R) -> PathBuf {
        root.join(rules.id())
    }

    /// A store of the tables of `materials` (each in the orientation that names its table),
    /// whose files are opened from `storage` on first use.
    pub(crate) fn new(
        root: &Path,
        rules: R,
        materials: impl IntoIterator<Item = R::Material>,
        cache_bytes: u64,
        storage: Arc<dyn Storage>,
    ) -> Store<R> {
        let tables = materials
            .into_iter()
            .enumerate()
            .map(|(id, material)| StoredTable {
                id: id as u64,
                material,
                files: Default::default(),
            })
            .collect();
        Store {
            rules,
            root: root.to_owned(),
            owner: NEXT_OWNER.fetch_add(1, Ordering::Relaxed),
            tables,
            cache: Cache::with_weighter(1024, cache_bytes, BlockWeight),
            storage,
            front: cache_bytes >= FRONT_MIN_CACHE,
            lookups: AtomicU64::new(0),
            decodes: AtomicU64::new(0),
        }
    }

    /// What the caches and files hold now.
    pub(crate) fn stats(&self) -> CacheStats {
        CacheStats {
            blocks: self.cache.len() as u64,
            bytes: self.cache.weight(),
            lookups: self.lookups.load(Ordering::Relaxed),
            decodes: self.decodes.load(Ordering::Relaxed),
            open_files: self
                .tables
                .iter()
                .flat_map(|t| &t.files)
                .filter(|f| f.get().is_some())
                .count() as u64,
        }
    }

    /// The table root.
    pub(crate) fn root(&self) -> &Path {
        &self.root
    }

    /// The tables, in the order they were given.
    pub(crate) fn tables(&self) -> &[StoredTable<R>] {
        &self.tables
    }

    /// Where the `kind` file of `material` is (or would be).
    pub(crate) fn path_of(&self, material: R::Material, kind: Kind) -> PathBuf {
        family_table_path(&self.root, self.rules, material, kind)
    }

    /// A kind of file the game's tables do not have: a file that is not there. Out of line, to
    /// keep the probe's path short.
    #[cold]
    #[inline(never)]
    fn no_such_file(&self, table: &StoredTable<R>, kind: Kind) -> Miss {
        Miss::Missing(self.path_of(table.material, kind))
    }

    /// The `kind` file of `table`, opened and checked on first use.
    pub(crate) fn file<'a>(
        &self,
        table: &'a StoredTable<R>,
        kind: Kind,
    ) -> Result<&'a TableFile<R>, Miss> {
        let Some(slot) = table.files.get(SlotOf::<R>::KIND[kind as usize]) else {
            return Err(self.no_such_file(table, kind));
        };
        if let Some(f) = slot.get() {
            return Ok(f);
        }
        if refuse_load() {
            return Err(Miss::NotInMemory);
        }
        let path = self.path_of(table.material, kind);
        let source = match self.storage.open(&path) {
            Ok(Some(source)) => source,
            Ok(None) => return Err(Miss::Missing(path)),
            Err(e) => return Err(TableError::new(&path, TableErrorKind::Io(e)).into()),
        };
        let opened =
            TableFile::from_source(&path, source)?.expecting(self.rules, table.material, kind)?;
        // Another thread may have opened it meanwhile; either copy serves.
        let _ = slot.set(opened);
        Ok(slot.get().expect("just set"))
    }

    /// Block `b` of `file` (cache key `key`) from the shared cache, decoded on a miss; inside
    /// [`in_memory_only`], only if it is there. Out of line: a probe whose block is in the
    /// front cache does not pay for setting it up.
    #[inline(never)]
    fn shared_block(&self, file: &TableFile<R>, key: u64, b: u32) -> Result<Arc<[u8]>, Miss> {
        self.lookups.fetch_add(1, Ordering::Relaxed);
        if MEMORY_ONLY.get() != MemoryOnly::Off {
            // Only a look: `get_or_insert_with` would wait for another thread's decode.
            return match self.cache.get(&key) {
                Some(block) => Ok(block),
                None => {
                    refuse_load();
                    Err(Miss::NotInMemory)
                }
            };
        }
        self.cache
            .get_or_insert_with(&key, || {
                self.decodes.fetch_add(1, Ordering::Relaxed);
                file.block(b).map(Arc::from)
            })
            .map_err(Miss::from)
    }

    /// Calls `read` with `table`'s `kind` file, the decoded block holding entry `idx`, and the
    /// entry's offset in it. Blocks come from this thread's front cache, else from the shared
    /// cache (decoding them on a miss).
    pub(crate) fn with_entry<T>(
        &self,
        table: &StoredTable<R>,
        kind: Kind,
        idx: usize,
        read: impl FnOnce(&TableFile<R>, &[u8], usize) -> Result<T, TableError>,
    ) -> Result<T, Miss> {
        let file = self.file(table, kind)?;
        let (b, at) = file.locate(idx);
        let key = block_key(table, kind, b);
        if !self.front {
            return Ok(read(file, &self.shared_block(file, key, b)?, at)?);
        }
        FRONT.with(|front| {
            let mut front = front.borrow_mut();
            let slot = &mut front[self.front_slot(key)];
            let hit = slot.owner == self.owner && slot.key == key;
            let block = match &slot.block {
                Some(block) if hit => block,
                _ => {
                    *slot = FrontSlot {
                        owner: self.owner,
                        key,
                        block: Some(self.shared_block(file, key, b)?),
                    };
                    slot.block.as_ref().expect("just stored")
                }
            };
            Ok(read(file, block, at)?)
        })
    }

    /// Asks the processor to fetch the memory of entry `idx` of `table`'s `kind` file, where
    /// its block is in this thread's front cache: a hint, doing nothing otherwise, so that a
    /// batch of probes waits for memory once for several of them ([`prefetch`]).
    #[inline]
    pub(crate) fn prefetch_entry(&self, table: &StoredTable<R>, kind: Kind, idx: usize) {
        if !self.front {
            return;
        }
        let Some(Some(file)) = table
            .files
            .get(SlotOf::<R>::KIND[kind as usize])
            .map(OnceLock::get)
        else {
            return;
        };
        let (b, at) = file.locate(idx);
        let key = block_key(table, kind, b);
        FRONT.with(|front| {
            let front = front.borrow();
            let slot = &front[self.front_slot(key)];
            let hit = slot.owner == self.owner && slot.key == key;
            if let Some(byte) = slot
                .block
                .as_ref()
                .filter(|_| hit)
                .and_then(|block| block.get(file.entry_byte(at)))
            {
                prefetch(byte);
            }
        });
    }

    /// The slot of this thread's front cache that may hold the block of cache key `key`.
    #[inline]
    fn front_slot(&self, key: u64) -> usize {
        // Fibonacci hashing spreads neighbouring blocks and tables over the slots.
        let mix = (key ^ self.owner.rotate_left(40)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        (mix >> 32) as usize % FRONT_SLOTS
    }
}

/// The caches' key of block `b` of `table`'s `kind` file.
#[inline]
fn block_key<R: Indexed>(table: &StoredTable<R>, kind: Kind, b: u32) -> u64 {
    // The kind's discriminant (below 8, checked here) tells a table's files apart in the
    // shared cache.
    const _: () = assert!(Kind::ALL.len() <= 8);
    table.id << 35 | (kind as u64) << 32 | u64::from(b)
}

/// Asks the processor to bring the cache line of `byte` into its caches, without waiting for it
/// (where the target has such a hint; elsewhere nothing).
#[inline]
fn prefetch(byte: &u8) {
    #[cfg(target_arch = "x86_64")]
    // Safety: a prefetch only hints the cache; it reads nothing and cannot fault, and `byte` is
    // a valid reference anyway.
    unsafe {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        _mm_prefetch::<_MM_HINT_T0>(std::ptr::from_ref(byte).cast());
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = byte;
}

/// The slot a table of `R` keeps each kind of file in ([`FILE_SLOTS`] for a kind it has none
/// of), by kind: for the games' tests.
#[cfg(test)]
pub(crate) const fn slots_of<R: Indexed>() -> [usize; Kind::ALL.len()] {
    SlotOf::<R>::KIND
}
