//! The public probing API, written once for every game: a directory of one rule set's tables,
//! opened lazily, probed from any number of threads. What only one game answers (the clock
//! rule, Clesto's ban, Animal Gambit's verdicts) is an `impl` block for that game, in its own
//! folder.

use std::{fmt, path::Path, sync::Arc};

use super::{
    error::{ProbeError, ProbeResult},
    game::{Game, Indexed, MaterialSlots, Moves, Successor},
    source::{LocalFiles, Storage},
};
use crate::{
    file::TableFile,
    format::{Kind, TableError},
    store::{CacheStats, Miss, Store},
    value::{Value, Wdl},
};

/// How many probes ahead [`Tablebase::probe_wdl_many`] asks for an entry's memory: enough for the memory's latency to pass during the probes
/// between, few enough that the fetched lines are still cached when read.
pub const PREFETCH_AHEAD: usize = 8;

/// Default bound of the decoded-block cache, in bytes.
pub const DEFAULT_CACHE_BYTES: u64 = 64 << 20;

/// An entry found: its table, and its index there.
pub(crate) type Located<'t, G> = (&'t Table<G>, usize);

/// One material's table: its layout, and its place in the store (the same in both lists).
pub(crate) struct Table<G: Indexed> {
    id: usize,
    pub(crate) layout: G::Layout,
}

/// A move with the value it leads to, for the side that made it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ScoredMove<G: Game> {
    /// The move (a turn in Animal Gambit).
    pub mv: G::Move,
    /// Its value for the mover (as the position's value when the move is best).
    pub value: Value,
}

impl<G: Game> ScoredMove<G> {
    /// Sorts moves given in move order best first, in the order [`Tablebase::best_move`]
    /// chooses by: the shortest win, then draws, then the longest loss (the order of
    /// [`Value`]); equal values keep their move order (the smallest text first).
    pub fn sort_best_first(moves: &mut [ScoredMove<G>]) {
        moves.sort_by_key(|m| std::cmp::Reverse(m.value));
    }
}

/// A step of a line: the move, and the position after it with its value for the side then to
/// move (`None` once the move ended the game). A best line's values are [`Value`]s; a line under
/// the clock rule ([`crate::RuleStep`]) carries [`crate::RuleValue`]s and positions with their
/// clocks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LineStep<V, G: Moves> {
    /// The move played.
    pub mv: G::Move,
    /// The position after it, or `None` when the move ended the game.
    pub position: Option<G::Position>,
    /// The value after the move for the side then to move (`None` when the game ended).
    pub value: Option<V>,
}

/// The tables of one rule set in a directory, opened lazily, probed from any number of threads.
pub struct Tablebase<G: Indexed> {
    rules: G,
    tables: Vec<Table<G>>,
    slots: G::Slots,
    max_pieces: usize,
    /// The files and their caches.
    store: Store<G>,
}

impl<G: Indexed> fmt::Debug for Tablebase<G> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Tablebase")
            .field("rules", &self.rules)
            .field("root", &self.store.root())
            .field("tables", &self.tables.len())
            .finish_non_exhaustive()
    }
}

impl<G: Indexed> Tablebase<G> {
    /// The tables of `rules` under `root` (in `root/<rules>/`, as `jtb gen` writes them). Files
    /// are found now and opened on first use; blocks are read with positioned reads
    /// (`pread`), which never read a wrong value whatever happens to the files meanwhile (a
    /// file replaced after its descriptor was closed to stay within the process's 512 is an
    /// error, [`crate::LocalFiles`]). A block read once stays in the cache: cached probes never
    /// touch the file.
    ///
    /// # Errors
    /// [`ProbeError::NoDirectory`] when `root/<rules>` cannot be read.
    pub fn open(root: impl AsRef<Path>, rules: G) -> ProbeResult<Tablebase<G>> {
        Tablebase::with_cache(root, rules, DEFAULT_CACHE_BYTES)
    }

    /// As [`Tablebase::open`], with a bound on the shared cache of decoded blocks in bytes. With
    /// a bound of 16 MiB or more, each probing thread also keeps up to 1024 recently used blocks
    /// (16 MiB) in a front cache that takes no lock; below it, none.
    ///
    /// # Errors
    /// As [`Tablebase::open`].
    pub fn with_cache(
        root: impl AsRef<Path>,
        rules: G,
        cache_bytes: u64,
    ) -> ProbeResult<Tablebase<G>> {
        Tablebase::with_storage(root, rules, cache_bytes, Arc::new(LocalFiles::default()))
    }

    /// As [`Tablebase::with_cache`], with the files found and read through `storage`: files in
    /// memory ([`crate::MemoryFiles`]), or a storage of the caller's (a host without a file
    /// system, tables fetched by range from a server). `root` is the path `storage` takes
    /// the rule set's folder under (`root/<rules>/`).
    ///
    /// # Errors
    /// [`ProbeError::NoDirectory`] when `storage` cannot list `root/<rules>`.
    pub fn with_storage(
        root: impl AsRef<Path>,
        rules: G,
        cache_bytes: u64,
        storage: Arc<dyn Storage>,
    ) -> ProbeResult<Tablebase<G>> {
        Tablebase::find(root.as_ref(), rules, cache_bytes, storage)
    }

    /// As [`Tablebase::with_cache`], with the table files memory-mapped: a block read on a
    /// cache miss is a slice of memory, not a system call.
    ///
    /// # Errors
    /// As [`Tablebase::open`].
    ///
    /// # Safety
    /// The table files must not be truncated or modified in place while the tablebase lives
    /// (see [`TableFile::open_mapped`]): a mapped file truncated by another process makes the
    /// next probe that reads it a SIGBUS. Files written by `jtb gen` are only ever replaced by
    /// rename, which is safe.
    #[cfg(feature = "mmap")]
    pub unsafe fn open_mapped(
        root: impl AsRef<Path>,
        rules: G,
        cache_bytes: u64,
    ) -> ProbeResult<Tablebase<G>> {
        // Safety: the caller promises what `LocalFiles::mapped` asks.
        let storage = Arc::new(unsafe { LocalFiles::mapped() });
        Tablebase::find(root.as_ref(), rules, cache_bytes, storage)
    }

    /// Finds the tables under `root`, to be opened mapped or read. A table is there when any
    /// of its files ([`Indexed::FILE_KINDS`]) is: a set may hold some kinds alone (an engine's
    /// WDL files without the larger DTM and DTC files), and a question needing a file it lacks
    /// is [`ProbeError::MissingFile`].
    fn find(
        root: &Path,
        rules: G,
        cache_bytes: u64,
        storage: Arc<dyn Storage>,
    ) -> ProbeResult<Tablebase<G>> {
        let dir = Store::dir(root, rules);
        let names = storage
            .list(&dir)
            .map_err(|e| ProbeError::NoDirectory(dir.clone(), e))?;
        let mut materials: Vec<G::Material> = names
            .iter()
            .filter_map(|name| {
                let (stem, extension) = name.rsplit_once('.')?;
                let kind = Kind::from_extension(extension)?;
                if !G::FILE_KINDS.contains(&kind) {
                    return None;
                }
                let material = G::material_named(stem)?;
                rules.is_table_material(material).then_some(material)
            })
            .collect();
        materials.sort_by_cached_key(|&m| (G::pieces(m), m.to_string()));
        materials.dedup();
        let mut slots = G::Slots::default();
        for (place, &material) in materials.iter().enumerate() {
            slots.insert(material, place);
            if let Some(alias) = rules.alias(material) {
                slots.insert(alias, place);
            }
        }
        let tables = materials
            .iter()
            .enumerate()
            .map(|(id, &material)| Table {
                id,
                layout: rules.layout(material),
            })
            .collect();
        Ok(Tablebase {
            rules,
            tables,
            slots,
            max_pieces: materials.iter().map(|&m| G::pieces(m)).max().unwrap_or(0),
            store: Store::new(root, rules, materials, cache_bytes, storage),
        })
    }

    /// The rule set.
    #[must_use]
    pub const fn rules(&self) -> G {
        self.rules
    }

    /// The materials present (the orientation that names each table), fewest pieces first,
    /// then by name.
    #[must_use]
    pub fn materials(&self) -> Vec<G::Material> {
        self.store.tables().iter().map(|t| t.material()).collect()
    }

    /// The most pieces of any table present.
    #[must_use]
    pub const fn max_pieces(&self) -> usize {
        self.max_pieces
    }

    /// What the block caches and the files hold now: decoded blocks and their bytes, lookups in
    /// the shared cache and blocks decoded since opening, files open. For an operator's view
    /// (`jtb serve`'s `/metrics`).
    #[must_use]
    pub fn cache_stats(&self) -> CacheStats {
        self.store.stats()
    }

    /// The table root.
    #[must_use]
    pub fn root(&self) -> &Path {
        self.store.root()
    }

    /// Whether a table here holds `pos`.
    ///
    /// # Errors
    /// Why not, as [`Tablebase::probe_wdl`] says it.
    pub(crate) fn covers(&self, pos: &G::Position) -> ProbeResult<()> {
        self.table_for(pos).map(|_| ())
    }

    /// The table that holds `pos`.
    fn table_for(&self, pos: &G::Position) -> ProbeResult<&Table<G>> {
        self.rules.check_position(pos)?;
        let material = G::material_of(pos);
        if let Some(table) = self.table_of_material(material) {
            return Ok(table);
        }
        if let Some(beyond) = self.rules.beyond_tables(pos) {
            return Err(beyond);
        }
        let material = self.rules.table_of(material);
        Err(self.missing(material, self.store.path_of(material, G::TABLE_KIND)))
    }

    /// The table of `material` in either orientation, if present.
    #[inline]
    pub(crate) fn table_of_material(&self, material: G::Material) -> Option<&Table<G>> {
        let place = self
            .slots
            .get(material)
            .or_else(|| self.slots.get(self.rules.table_of(material)))?;
        Some(&self.tables[place])
    }

    fn missing(&self, material: G::Material, path: std::path::PathBuf) -> ProbeError {
        ProbeError::MissingTable {
            rules: self.rules.id(),
            material: self.rules.table_of(material).to_string(),
            path,
        }
    }

    /// Calls `read` with the `kind` file of the table of `pos`, the decoded block holding the
    /// position's entry, and the entry's offset in it, through the store's caches.
    pub(crate) fn with_entry<R>(
        &self,
        pos: &G::Position,
        kind: Kind,
        read: impl FnOnce(&TableFile<G>, &[u8], usize) -> Result<R, TableError>,
    ) -> ProbeResult<R> {
        let table = self.table_for(pos)?;
        self.read_at(table, G::index_of(&table.layout, pos), kind, read)
    }

    /// Entry `idx` of `table`'s `kind` file, read with `read`.
    fn read_at<R>(
        &self,
        table: &Table<G>,
        idx: usize,
        kind: Kind,
        read: impl FnOnce(&TableFile<G>, &[u8], usize) -> Result<R, TableError>,
    ) -> ProbeResult<R> {
        let stored = &self.store.tables()[table.id];
        self.store
            .with_entry(stored, kind, idx, read)
            .map_err(|miss| self.miss_error(stored.material(), kind, miss))
    }

    /// The error of a read that missed. Out of line, to keep the probe's path short.
    #[cold]
    #[inline(never)]
    fn miss_error(&self, material: G::Material, kind: Kind, miss: Miss) -> ProbeError {
        match miss {
            Miss::Missing(path) => ProbeError::MissingFile {
                rules: self.rules.id(),
                material: material.to_string(),
                kind,
                path,
            },
            Miss::Table(e) => e.into(),
            Miss::NotInMemory => ProbeError::NotInMemory,
        }
    }

    /// The entries of `pos` in two of its table's files of value codes (Clesto's DTM and ban),
    /// the table found and the index computed once, with the material that names the table.
    pub(crate) fn stored_value_pair(
        &self,
        pos: &G::Position,
        kinds: [Kind; 2],
    ) -> ProbeResult<(G::Material, [Value; 2])> {
        let table = self.table_for(pos)?;
        let idx = G::index_of(&table.layout, pos);
        let read = |kind| self.read_at(table, idx, kind, |f, block, i| f.value_entry(block, i));
        let material = self.store.tables()[table.id].material();
        Ok((material, [read(kinds[0])?, read(kinds[1])?]))
    }

    /// The entry of `pos` in its table's `kind` file of value codes (DTM, DTC, ban).
    pub(crate) fn stored_value(&self, pos: &G::Position, kind: Kind) -> ProbeResult<Value> {
        self.with_entry(pos, kind, |file, block, i| file.value_entry(block, i))
    }

    /// The entry of `pos` in its table's WDL file.
    pub(crate) fn stored_wdl(&self, pos: &G::Position) -> ProbeResult<Wdl> {
        self.with_entry(pos, Kind::Wdl, |file, block, i| file.wdl_entry(block, i))
    }

    /// Asks the processor to fetch the memory of entry `idx` of `table`'s `kind` file.
    #[inline]
    fn prefetch_entry(&self, table: &Table<G>, kind: Kind, idx: usize) {
        self.store
            .prefetch_entry(&self.store.tables()[table.id], kind, idx);
    }

    /// The WDL entries of `n` items, item `i` found in its table by `locate(i)` (the table and
    /// the entry's index), `each(i, wdl)` in order: each entry is located, and its memory
    /// asked for, [`PREFETCH_AHEAD`] items before it is read, so that a batch over a large
    /// table waits for memory once for several entries.
    pub(crate) fn wdl_entries<'t>(
        &'t self,
        n: usize,
        mut locate: impl FnMut(usize) -> ProbeResult<Located<'t, G>>,
        mut each: impl FnMut(usize, ProbeResult<Wdl>),
    ) {
        // The entries located and not yet read, by item modulo PREFETCH_AHEAD; the errors of
        // items that have none apart (an error is large, and rare).
        let mut ahead: [Option<Located<'t, G>>; PREFETCH_AHEAD] = [None; PREFETCH_AHEAD];
        let mut failed: [Option<ProbeError>; PREFETCH_AHEAD] = std::array::from_fn(|_| None);
        for i in 0..n + PREFETCH_AHEAD {
            let k = i % PREFETCH_AHEAD;
            if i >= PREFETCH_AHEAD {
                let wdl = match ahead[k].take() {
                    Some((table, idx)) => {
                        self.read_at(table, idx, Kind::Wdl, |f, block, at| f.wdl_entry(block, at))
                    }
                    None => Err(failed[k].take().expect("an item not located failed")),
                };
                each(i - PREFETCH_AHEAD, wdl);
            }
            if i < n {
                match locate(i) {
                    Ok((table, idx)) => {
                        self.prefetch_entry(table, Kind::Wdl, idx);
                        ahead[k] = Some((table, idx));
                    }
                    Err(e) => failed[k] = Some(e),
                }
            }
        }
    }
}

impl<G: Game> Tablebase<G> {
    /// Win, draw or loss for the side to move, from the small WDL file.
    ///
    /// # Errors
    /// A [`ProbeError`]: a position no table holds (a finished game, face-down tiles, another
    /// rule set), too many pieces, a missing table, or a bad file.
    pub fn probe_wdl(&self, pos: &G::Position) -> ProbeResult<Wdl> {
        G::probe_wdl(self, pos)
    }

    /// [`Tablebase::probe_wdl`] of each of `positions`, `each(i, wdl)` in order: the same
    /// answers, faster over a large table whose blocks are cached, as each entry's memory is
    /// asked for a few probes before it is read ([`Tablebase::prefetch_wdl`]).
    pub fn probe_wdl_many(
        &self,
        positions: &[&G::Position],
        each: impl FnMut(usize, ProbeResult<Wdl>),
    ) {
        // The provided probe's read (every game's WDL is its WDL file's entry), batched.
        self.wdl_entries(
            positions.len(),
            |i| {
                let table = self.table_for(positions[i])?;
                Ok((table, G::index_of(&table.layout, positions[i])))
            },
            each,
        );
    }

    /// The value with its distance to mate (in the game's unit, [`crate::Family::DISTANCE_UNIT`])
    /// for the side to move, from the DTM file.
    ///
    /// # Errors
    /// As [`Tablebase::probe_wdl`].
    pub fn probe_dtm(&self, pos: &G::Position) -> ProbeResult<Value> {
        G::probe_dtm(self, pos)
    }

    /// Every legal move with the value it leads to for the mover, in move order (ASCII): a win
    /// or loss in 1 when it ends the game, else one more than the position it leads to.
    ///
    /// # Errors
    /// As [`Tablebase::probe_dtm`], for the position or any successor.
    pub fn scored_moves(&self, pos: &G::Position) -> ProbeResult<Vec<ScoredMove<G>>> {
        // The position's own probe first: its errors (no table, no distance to mate in these
        // rules) are the answer's, even for a position without moves.
        self.probe_dtm(pos)?;
        self.successor_values(pos)
    }

    /// The moves of `pos` with their values, its own probe already made.
    fn successor_values(&self, pos: &G::Position) -> ProbeResult<Vec<ScoredMove<G>>> {
        G::successors(pos)
            .into_iter()
            .map(|(mv, next)| {
                let value = match next {
                    Successor::End(result) => result.of_final_move(),
                    Successor::Next(next) => self.probe_dtm(&next)?.back_one_ply(),
                };
                Ok(ScoredMove { mv, value })
            })
            .collect()
    }

    /// Every legal move with the value it leads to for the mover, best first
    /// ([`ScoredMove::sort_best_first`]): the first is [`Tablebase::best_move`].
    ///
    /// # Errors
    /// As [`Tablebase::scored_moves`], and [`ProbeError::Inconsistent`] when the best move's
    /// value is not the position's stored value.
    pub fn ranked_moves(&self, pos: &G::Position) -> ProbeResult<Vec<ScoredMove<G>>> {
        let root = self.probe_dtm(pos)?;
        let mut moves = self.successor_values(pos)?;
        ScoredMove::sort_best_first(&mut moves);
        let found = moves.first().map_or(Value::Loss(0), |m| m.value);
        if found != root {
            return Err(ProbeError::Inconsistent {
                position: pos.to_string(),
                kind: Kind::Dtm,
                stored: root,
                best: Some(found),
                noun: G::MOVE_NOUN,
            });
        }
        Ok(moves)
    }

    /// The best move and its value: the shortest win, else a draw, else the longest loss;
    /// among equals the smallest in ASCII order. `None` when the side to move has no move
    /// (a loss in 0).
    ///
    /// # Errors
    /// As [`Tablebase::ranked_moves`].
    pub fn best_move(&self, pos: &G::Position) -> ProbeResult<Option<ScoredMove<G>>> {
        Ok(self.ranked_moves(pos)?.into_iter().next())
    }

    /// The whole best line from `pos` to the end of the game (empty for a draw and for a loss
    /// in 0). Its length is the distance to mate.
    ///
    /// # Errors
    /// As [`Tablebase::best_move`].
    pub fn line(&self, pos: &G::Position) -> ProbeResult<Vec<LineStep<Value, G>>> {
        if self.probe_dtm(pos)? == Value::Draw {
            return Ok(Vec::new());
        }
        self.play_line(
            G::without_clocks(pos),
            |p| Ok(self.best_move(p)?.map(|m| m.mv)),
            |p| self.probe_dtm(p),
        )
    }
}

impl<G: Moves> Tablebase<G> {
    /// Plays `best` moves from `start` to the end of the game (or until `best` has none),
    /// each step with the `value` of the position after it.
    pub(crate) fn play_line<V>(
        &self,
        start: G::Position,
        best: impl Fn(&G::Position) -> ProbeResult<Option<G::Move>>,
        value: impl Fn(&G::Position) -> ProbeResult<V>,
    ) -> ProbeResult<Vec<LineStep<V, G>>> {
        let mut line = Vec::new();
        let mut current = start;
        while let Some(mv) = best(&current)? {
            match G::play(&current, mv).expect("a best move is legal") {
                Successor::End(_) => {
                    line.push(LineStep {
                        mv,
                        position: None,
                        value: None,
                    });
                    break;
                }
                Successor::Next(next) => {
                    line.push(LineStep {
                        mv,
                        value: Some(value(&next)?),
                        position: Some(next.clone()),
                    });
                    current = next;
                }
            }
        }
        Ok(line)
    }
}
