//! The tables of every rule set under one directory ([`Tables`]): each rule set's opened on
//! first use and shared between threads, found again when its directory changes
//! ([`Tables::refresh`]), with what a front end keeps of them per scan ([`Memo`]). `jtb probe`,
//! `jtb adjudicate`, `jtb stats`, `jtb verify`, the server and the Python package read their
//! tables through it; the C ABI holds one rule set's as its [`AnyTablebase`].

mod any;
mod memo;
mod shelf;

use std::{
    path::{Path, PathBuf},
    sync::{
        atomic::{AtomicU64, Ordering},
        Arc, OnceLock,
    },
    time::{Duration, Instant},
};

use arc_swap::ArcSwap;
use jtb_probe::{
    flip::ChanceTables, gambit, CacheStats, Clesto, Jungle, LocalFiles, Material, Placement,
    ProbeError, RuleSet, Storage, Tablebase, Wdl, DEFAULT_CACHE_BYTES,
};

pub use any::AnyTablebase;
pub use memo::Memo;
use shelf::Shelf;

use crate::{
    games::{self, EdgeGame},
    Answer, AnyPosition, EdgeError, MissingFiles, Rules, Verdict, PACKED_LEN,
};

/// How often [`Tables::due_for_check`] says to look at the directories again.
const RECHECK: Duration = Duration::from_secs(1);

/// The tables of every rule set under one root (a rule set's tables are in `root/<rules>/`, as
/// `jtb gen` writes them), each rule set's opened on its first probe. A probe takes no lock: it
/// finds its rule set's shelf with one load of an [`ArcSwap`]. The files are read with
/// positioned reads, not memory maps, so that a file replaced while it is open cannot crash
/// the process; a table whose file is damaged fails alone, its rule set's other tables still
/// answer.
pub struct Tables {
    root: PathBuf,
    cache_bytes: u64,
    /// Where the files are: local files unless [`Tables::with_storage`] says otherwise.
    storage: Arc<dyn Storage>,
    /// Every rule set's, in the order of [`Rules::all`].
    shelves: Vec<(Rules, ArcSwap<Shelf<AnyTablebase>>)>,
    /// The flip game's chance tables (positions with face-down tiles).
    chance: ArcSwap<Shelf<Arc<ChanceTables>>>,
    memo: Memo,
    /// When the directories were last looked at ([`Tables::due_for_check`]), in milliseconds
    /// since `made`.
    checked_ms: AtomicU64,
    /// Set on the first check: a host without a clock (the browser's WebAssembly) never asks.
    made: OnceLock<Instant>,
}

impl Tables {
    /// The tables under `root`, each rule set with a cache of decoded blocks of up to
    /// `cache_bytes`. Nothing is read until the first probe.
    #[must_use]
    pub fn new(root: impl Into<PathBuf>, cache_bytes: u64) -> Tables {
        Tables::with_storage(root, cache_bytes, Arc::new(LocalFiles::default()))
    }

    /// As [`Tables::new`], the files found and read through `storage` (files in memory, or a
    /// storage of the caller's: a host without a file system, tables fetched by range).
    /// [`Tables::refresh`] looks for changes in the local directories only.
    #[must_use]
    pub fn with_storage(
        root: impl Into<PathBuf>,
        cache_bytes: u64,
        storage: Arc<dyn Storage>,
    ) -> Tables {
        let root = root.into();
        let shelves = Rules::all()
            .into_iter()
            .map(|r| (r, ArcSwap::from_pointee(Shelf::new(root.join(r.name())))))
            .collect();
        let chance = ArcSwap::from_pointee(Shelf::new(root.join(RuleSet::Flip4x4.name())));
        Tables {
            root,
            cache_bytes,
            storage,
            shelves,
            chance,
            memo: Memo::default(),
            checked_ms: AtomicU64::new(0),
            made: OnceLock::new(),
        }
    }

    /// The root directory.
    #[must_use]
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// What front ends keep of the tables per scan (a table's statistics, its histograms).
    #[must_use]
    pub fn memo(&self) -> &Memo {
        &self.memo
    }

    fn shelf(&self, rules: Rules) -> &ArcSwap<Shelf<AnyTablebase>> {
        let (_, shelf) = self
            .shelves
            .iter()
            .find(|(r, _)| *r == rules)
            .expect("every rule set is in Rules::all");
        shelf
    }

    /// `f` of the tables of `rules` (opened on the first call), without taking a reference
    /// to them: the fast path of a probe.
    ///
    /// # Errors
    /// [`EdgeError::Open`]: the rule set's directory cannot be read.
    pub fn with_any<T>(
        &self,
        rules: Rules,
        f: impl FnOnce(&AnyTablebase) -> T,
    ) -> Result<T, EdgeError> {
        let shelf = self.shelf(rules).load();
        let tables = shelf.get(|| self.open(rules));
        tables.map(f).map_err(|e| EdgeError::Open(Arc::clone(e)))
    }

    /// The tables of `rules`, opened on the first call.
    ///
    /// # Errors
    /// [`EdgeError::Open`]: the rule set's directory cannot be read.
    pub fn any(&self, rules: Rules) -> Result<AnyTablebase, EdgeError> {
        self.with_any(rules, Clone::clone)
    }

    /// The tables of `rules`, opened on the first call, as the game `G`'s.
    ///
    /// # Errors
    /// [`EdgeError::Open`]: the rule set's directory cannot be read, or its tables are another
    /// game's.
    pub fn of<G: EdgeGame>(&self, rules: Rules) -> Result<Arc<Tablebase<G::Tables>>, EdgeError> {
        self.with_any(rules, |any| G::tables(any).cloned())?
            .ok_or_else(|| another_game(rules))
    }

    /// The tables of a Jungle or flip rule set (Clesto's are [`Tables::clesto`]: a Clesto
    /// rule set is no [`Jungle`], so asking for its tables here does not compile).
    ///
    /// ```compile_fail
    /// use jtb_edge::Tables;
    /// use jtb_probe::Jungle;
    ///
    /// let tables = Tables::new("tables", 1 << 20);
    /// let _ = tables.jungle(Jungle::Clesto);
    /// ```
    ///
    /// # Errors
    /// [`EdgeError::Open`]: the rule set's directory cannot be read.
    pub fn jungle(&self, rules: Jungle) -> Result<Arc<Tablebase>, EdgeError> {
        self.of::<games::jungle::Jungle>(Rules::Jungle(rules.rule_set()))
    }

    /// Clesto's tables.
    ///
    /// # Errors
    /// [`EdgeError::Open`]: the directory cannot be read.
    pub fn clesto(&self) -> Result<Arc<Tablebase<Clesto>>, EdgeError> {
        self.of::<games::clesto::Clesto>(Rules::Jungle(Clesto::RULES))
    }

    /// The Animal Gambit tables.
    ///
    /// # Errors
    /// [`EdgeError::Open`]: the directory cannot be read.
    pub fn gambit(&self) -> Result<Arc<Tablebase<gambit::AnimalGambit>>, EdgeError> {
        self.of::<games::gambit::Gambit>(Rules::AnimalGambit)
    }

    /// The flip game's tables for positions with face-down tiles (and the revealed ones a last
    /// flip leads into).
    ///
    /// # Errors
    /// [`EdgeError::Open`]: the directory cannot be read.
    pub fn chance(&self) -> Result<Arc<ChanceTables>, EdgeError> {
        let shelf = self.chance.load();
        let tables = shelf.get(|| self.open_chance());
        tables.cloned().map_err(|e| EdgeError::Open(Arc::clone(e)))
    }

    fn open_chance(&self) -> Result<Arc<ChanceTables>, ProbeError> {
        ChanceTables::with_storage(&self.root, self.cache_bytes, Arc::clone(&self.storage))
            .map(Arc::new)
    }

    /// The tables of `rules`, opened now.
    fn open(&self, rules: Rules) -> Result<AnyTablebase, ProbeError> {
        AnyTablebase::with_storage(
            &self.root,
            rules,
            self.cache_bytes,
            Arc::clone(&self.storage),
        )
    }

    /// Everything `jtb probe` says of `pos` (with `line`, the best lines too).
    ///
    /// # Errors
    /// The tables cannot be opened, do not hold the position, or are damaged.
    pub fn probe(&self, pos: AnyPosition, line: bool) -> Result<Answer, EdgeError> {
        each_game!(pos, AnyPosition, |pos, G| G::probe(self, pos, line))
    }

    /// Win, draw or loss for the side to move (the clock rule aside; Clesto's wins by the ban
    /// are wins).
    ///
    /// # Errors
    /// As [`Tables::probe`].
    pub fn wdl(&self, pos: &AnyPosition) -> Result<Wdl, EdgeError> {
        Ok(self.with_any(pos.rules(), |tb| tb.wdl(pos))??)
    }

    /// The distance to mate for the side to move, signed: positive when it wins, negative when
    /// it loses, 0 for a draw and for a loss at once (no move), in the game's unit (plies;
    /// Animal Gambit's turns). `None` for a Clesto position that only the repetition ban
    /// decides (it has no distance to mate).
    ///
    /// # Errors
    /// As [`Tables::probe`].
    pub fn dtm(&self, pos: &AnyPosition) -> Result<Option<i32>, EdgeError> {
        Ok(self.with_any(pos.rules(), |tb| tb.dtm(pos))??)
    }

    /// The answer of the HTTP API's position route for `pos` (`GET /api/v1/{rules}`: its value
    /// with every move, best first) or, with `lines`, of its line route, as JSON text: the
    /// game's answer, filled once and printed by its API printer, with the `missing` note
    /// `note` makes of the files a partial set lacks (the server names them relative to its
    /// root).
    ///
    /// # Errors
    /// A finished game ([`ProbeError::GameOver`]); the position's table missing
    /// ([`ProbeError::MissingTable`], named by its DTM file, also where the rule set has no
    /// tables; [`ProbeError::NoDirectory`] for a position with face-down tiles without the flip
    /// game's folder), damaged or inconsistent.
    pub fn api_text(
        &self,
        pos: &AnyPosition,
        lines: bool,
        note: &dyn Fn(&MissingFiles) -> Option<String>,
    ) -> Result<String, ProbeError> {
        each_game!(pos, AnyPosition, |pos, G| G::api_text(
            self, pos, lines, note
        ))
    }

    /// Whether the game can be stopped at the position's clock: `jtb adjudicate`'s answer.
    ///
    /// # Errors
    /// [`EdgeError::NotCovered`] where no tables cover the position; a finished game, face-down
    /// tiles, damaged tables.
    pub fn adjudicate(&self, pos: AnyPosition) -> Result<Verdict, EdgeError> {
        each_game!(pos, AnyPosition, |pos, G| {
            let tables = self.of::<G>(G::rules(&pos));
            G::adjudicate(tables.as_deref().map_err(Clone::clone), pos)
        })
    }

    /// The tables as they are now, held for a run of probes (a batch): a probe through it
    /// reads no shared state after the first of its rule set, where [`Tables::wdl`] loads the
    /// rule set's shelf on every call. A refresh meanwhile is seen by the next run.
    #[must_use]
    pub fn pinned(&self) -> Pinned<'_> {
        Pinned {
            tables: self,
            held: Vec::new(),
        }
    }

    /// The number of tables of `rules` and the most pieces of any.
    ///
    /// # Errors
    /// [`EdgeError::Open`]: the rule set's directory cannot be read.
    pub fn size(&self, rules: Rules) -> Result<(usize, usize), EdgeError> {
        self.with_any(rules, AnyTablebase::size)
    }

    /// Each rule set with its number of tables (0 without its directory).
    #[must_use]
    pub fn table_counts(&self) -> Vec<(Rules, usize)> {
        Rules::all()
            .into_iter()
            .map(|rules| (rules, self.size(rules).map_or(0, |(n, _)| n)))
            .collect()
    }

    /// How many chance tables of the flip game there are (0 without their directory).
    #[must_use]
    pub fn chance_count(&self) -> usize {
        self.chance()
            .map_or(0, |tables| tables.chance().materials().len())
    }

    /// Each rule set with what its block caches and files hold now (rule sets without tables
    /// left out).
    #[must_use]
    pub fn cache_stats(&self) -> Vec<(Rules, CacheStats)> {
        Rules::all()
            .into_iter()
            .filter_map(|rules| {
                Some((rules, self.with_any(rules, AnyTablebase::cache_stats).ok()?))
            })
            .collect()
    }

    /// What the table files of `rules` were when its tables were last found: an answer about
    /// them is the same as long as this is (0 for a rule set without tables).
    #[must_use]
    pub fn fingerprint(&self, rules: Rules) -> u64 {
        self.shelf(rules).load().fingerprint()
    }

    /// Opens every rule set's tables and digests their files now rather than on first use, as
    /// a long-running front end (the server) wants before its first answer.
    pub fn open_all(&self) {
        for (rules, shelf) in &self.shelves {
            let _ = self.size(*rules);
            shelf.load().fingerprint();
        }
        let _ = self.chance();
    }

    /// Looks again at every rule set whose directory changed since its tables were found (or
    /// appeared, or went): its tables are opened afresh and its files digested here, off a
    /// probe's path, and what [`Memo`] kept of them is dropped. One `stat` per rule set when
    /// nothing changed. Returns whether any rule set changed since the caller last looked (also
    /// where a refresh at the same time swapped its tables in first).
    pub fn refresh(&self) -> bool {
        let mut changed = false;
        for (rules, shelf) in &self.shelves {
            let seen = shelf.load_full();
            if seen.is_stale() {
                let found = Shelf::new(self.root.join(rules.name()));
                let _ = found.get(|| self.open(*rules));
                found.fingerprint();
                // Two refreshes at once: the first to swap wins, the other's work is dropped.
                let before = shelf.compare_and_swap(&seen, Arc::new(found));
                if Arc::ptr_eq(&before, &seen) {
                    self.memo.forget(*rules);
                }
                changed = true;
            }
        }
        let seen = self.chance.load_full();
        if seen.is_stale() {
            let found = Shelf::new(self.root.join(RuleSet::Flip4x4.name()));
            let _ = found.get(|| self.open_chance());
            self.chance.compare_and_swap(&seen, Arc::new(found));
            changed = true;
        }
        changed
    }

    /// Whether it is time to look at the table directories again ([`Tables::refresh`]): true
    /// for one caller at most once a second, so that a long-running front end (the server)
    /// serves a table replaced (renamed over the old file) or damaged as it now is within
    /// about a second.
    pub fn due_for_check(&self) -> bool {
        let made = self.made.get_or_init(Instant::now);
        let now = u64::try_from(made.elapsed().as_millis()).unwrap_or(u64::MAX);
        let last = self.checked_ms.load(Ordering::Relaxed);
        now.saturating_sub(last) >= RECHECK.as_millis() as u64
            && self
                .checked_ms
                .compare_exchange(last, now, Ordering::Relaxed, Ordering::Relaxed)
                .is_ok()
    }
}

/// The tables of some rule sets as they were when first asked in a run of probes
/// ([`Tables::pinned`]).
pub struct Pinned<'a> {
    tables: &'a Tables,
    held: Vec<(Rules, Result<AnyTablebase, EdgeError>)>,
}

impl Pinned<'_> {
    fn held(&mut self, rules: Rules) -> Result<&AnyTablebase, EdgeError> {
        let at = match self.held.iter().position(|(r, _)| *r == rules) {
            Some(at) => at,
            None => {
                self.held.push((rules, self.tables.any(rules)));
                self.held.len() - 1
            }
        };
        self.held[at].1.as_ref().map_err(Clone::clone)
    }

    /// As [`Tables::wdl`].
    ///
    /// # Errors
    /// As [`Tables::wdl`].
    pub fn wdl(&mut self, pos: &AnyPosition) -> Result<Wdl, EdgeError> {
        Ok(self.held(pos.rules())?.wdl(pos)?)
    }

    /// [`Pinned::wdl`] of each of `positions`, `each(i, wdl)` in order: the same answers,
    /// faster over large tables whose blocks are cached, as each run of positions of one rule
    /// set is read in bulk ([`AnyTablebase::wdl_many`]).
    pub fn wdl_many(
        &mut self,
        positions: &[&AnyPosition],
        mut each: impl FnMut(usize, Result<Wdl, EdgeError>),
    ) {
        for (start, run) in runs(positions, |p| p.rules()) {
            match self.held(run[0].rules()) {
                Ok(tb) => tb.wdl_many(run, |i, wdl| each(start + i, wdl.map_err(Into::into))),
                Err(e) => (0..run.len()).for_each(|i| each(start + i, Err(e.clone()))),
            }
        }
    }

    /// [`Pinned::wdl`] of the position of each of `records` (packed, [`crate::packed`]),
    /// `each(i, wdl)` in order, or why it has none (a record that is no position among them):
    /// the fast path of a batch, where a record of a Jungle-type rule set with no face-down
    /// tile, clock or named set is probed with no position built
    /// ([`Tablebase::probe_wdl_placements`]).
    pub fn wdl_packed(
        &mut self,
        records: &[&[u8; PACKED_LEN]],
        mut each: impl FnMut(usize, Result<Wdl, EdgeError>),
    ) {
        let placed: Vec<Option<(Rules, Placement)>> = records
            .iter()
            .map(|r| crate::packed::placement(r))
            .collect();
        for (start, run) in runs(&placed, |p| p.map(|(rules, _)| rules)) {
            let Some((rules, _)) = run[0] else {
                for (i, record) in records[start..start + run.len()].iter().enumerate() {
                    let wdl = AnyPosition::unpack(*record)
                        .map_err(EdgeError::Position)
                        .and_then(|pos| self.wdl(&pos));
                    each(start + i, wdl);
                }
                continue;
            };
            let placements: Vec<Placement> = run.iter().flatten().map(|&(_, p)| p).collect();
            match self.held(rules) {
                Ok(tb) => games::Jungle::tables(tb)
                    .expect("a Jungle-type rule set's tables are Jungle's")
                    .probe_wdl_placements(&placements, |i, wdl| {
                        each(start + i, wdl.map_err(Into::into));
                    }),
                Err(e) => (0..run.len()).for_each(|i| each(start + i, Err(e.clone()))),
            }
        }
    }

    /// As [`Tables::dtm`].
    ///
    /// # Errors
    /// As [`Tables::dtm`].
    pub fn dtm(&mut self, pos: &AnyPosition) -> Result<Option<i32>, EdgeError> {
        Ok(self.held(pos.rules())?.dtm(pos)?)
    }
}

/// The runs of consecutive items of `items` with the same `key`, each with where it starts.
fn runs<T, K: PartialEq>(
    items: &[T],
    key: impl Fn(&T) -> K,
) -> impl Iterator<Item = (usize, &[T])> {
    let mut start = 0;
    std::iter::from_fn(move || {
        let first = items.get(start)?;
        let k = key(first);
        let len = items[start..]
            .iter()
            .take_while(|item| key(item) == k)
            .count();
        let run = (start, &items[start..start + len]);
        start += len;
        Some(run)
    })
}

/// The materials of the tables of a rule set of the Jungle family's type under `root` (Clesto's
/// opened as Clesto's), fewest pieces first, then by name.
///
/// # Errors
/// [`ProbeError::NoDirectory`] when `root/<rules>` cannot be read.
pub fn jungle_materials(root: &Path, rules: RuleSet) -> Result<Vec<Material>, ProbeError> {
    AnyTablebase::open(root, Rules::Jungle(rules), DEFAULT_CACHE_BYTES)?
        .family_materials()
        .ok_or(ProbeError::NotForRules {
            rules: rules.name(),
            what: ANOTHER_GAME,
        })
}

/// Why a rule set's tables are not the tablebase type asked for (a caller's bug: each game asks
/// for its own rule sets' tables).
fn another_game(rules: Rules) -> EdgeError {
    EdgeError::Open(Arc::new(ProbeError::NotForRules {
        rules: rules.name(),
        what: ANOTHER_GAME,
    }))
}

const ANOTHER_GAME: &str = "its tables are another game's";
