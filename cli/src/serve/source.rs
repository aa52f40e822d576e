//! The server's tables: each rule set's under one directory, opened once and shared by every
//! request, found again when the directories change, with the flip game's chance tables; what
//! each game keeps of its tables per scan ([`Memo`]); and the API's words for what is missing
//! or damaged. Where a game's answers take their values is its own module's
//! ([`super::jungle`]'s `Source`, with the flip game's built-in check of one animal each;
//! [`super::clesto`]'s `ClestoSource`), with the checks of a position of the Jungle family's
//! type they share here ([`Library::check_probeable`], [`Library::holding`]).

use std::{
    any::Any,
    collections::HashMap,
    fmt,
    path::{Path, PathBuf},
    sync::{
        atomic::{AtomicU64, Ordering},
        Arc, Mutex, PoisonError, RwLock,
    },
    time::{Instant, SystemTime},
};

use jtb_edge::{
    games::{EdgeGame, Jungle},
    AnyTablebase, MissingFiles, Rules,
};
use jtb_probe::{
    flip::ChanceTables, format::table_path, Family, Material, Position, ProbeError, RuleSet,
    TableError, TableErrorKind, Tablebase,
};

use super::error::{ApiError, Problem};

/// How long after a change a directory's modification time is not trusted to mark it.
const FRESH: std::time::Duration = std::time::Duration::from_secs(2);

/// One rule set's tables as last found, and when its directory was last changed then.
struct Found<T> {
    /// The tables, or why there are none (the directory is not there or cannot be read).
    tables: Result<T, String>,
    /// The directory's modification time at the scan (`None`: it could not be read, or was
    /// too recent to trust).
    stamp: Option<SystemTime>,
    /// What the table files were at the scan ([`fingerprint`]): answers' ETags carry it.
    fingerprint: u64,
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

/// What the server keeps of a table besides its blocks (its headers' statistics, its
/// histograms), computed once per scan of its rule set, for every game: each under its rule
/// set, what it is, and the table's name.
#[derive(Default)]
pub struct Memo(Mutex<Memos>);

/// What [`Memo`] holds: by rule set, what, and table.
type Memos = HashMap<(Rules, &'static str, String), Arc<dyn Any + Send + Sync>>;

impl Memo {
    /// What `compute` gives for `what` of table `table` under `rules`, computed on the first
    /// ask after each scan of the rule set.
    ///
    /// # Errors
    /// `compute`'s error (not kept: the next ask computes again).
    pub fn get<T: Send + Sync + 'static>(
        &self,
        rules: Rules,
        what: &'static str,
        table: &dyn fmt::Display,
        compute: impl FnOnce() -> Result<T, ApiError>,
    ) -> Result<Arc<T>, ApiError> {
        let key = (rules, what, table.to_string());
        if let Some(found) = self.lock().get(&key).cloned() {
            // `what` names one type of value: another type under it is a bug.
            match found.downcast::<T>() {
                Ok(found) => return Ok(found),
                Err(_) => debug_assert!(false, "memo {what} asked as two types"),
            }
        }
        // Computed without the lock: two requests may both compute it, and either copy serves.
        let value = Arc::new(compute()?);
        self.lock()
            .insert(key, Arc::clone(&value) as Arc<dyn Any + Send + Sync>);
        Ok(value)
    }

    /// Drops what is kept of `rules`' tables.
    fn forget(&self, rules: Rules) {
        self.lock().retain(|(r, _, _), _| *r != rules);
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Memos> {
        self.0.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// A rule set's tables asked for as another game's ([`AnyTablebase::open`] opens each as its
/// own, so only a bug gets here).
fn not_shelved(id: &str) -> ApiError {
    ApiError::internal(format!("{id}: its tables are held as another game's"))
}

/// The tables of every rule set under one root directory.
pub struct Library {
    root: PathBuf,
    cache_bytes: u64,
    /// Per rule set (in [`Rules::all`] order): its tables as last found.
    shelves: Vec<(Rules, RwLock<Found<AnyTablebase>>)>,
    /// The flip game's chance tables (positions with face-down tiles) as last found.
    chance: RwLock<Found<Arc<ChanceTables>>>,
    /// What each game keeps of its tables per scan ([`Memo::get`]).
    pub memo: Memo,
    /// When the directories were last looked at ([`Library::due_for_check`]), in milliseconds
    /// since `opened`.
    checked_ms: AtomicU64,
    opened: Instant,
}

/// How often the server looks whether table files were added, replaced or removed.
const RECHECK: std::time::Duration = std::time::Duration::from_secs(1);

impl Library {
    /// Finds the tables of every rule set under `root` (`root/<rules>/`), each with a shared
    /// cache of `cache_bytes` decoded bytes. A rule set without a directory is remembered with
    /// the reason: its requests answer 404 until its tables appear ([`Library::refresh`]), and
    /// the flip game still has its built-in check.
    #[must_use]
    pub fn open(root: &Path, cache_bytes: u64) -> Library {
        let mut lib = Library {
            root: root.to_owned(),
            cache_bytes,
            shelves: Vec::new(),
            chance: RwLock::new(Found {
                tables: Err(String::new()),
                stamp: None,
                fingerprint: 0,
            }),
            memo: Memo::default(),
            checked_ms: AtomicU64::new(0),
            opened: Instant::now(),
        };
        lib.shelves = Rules::all()
            .into_iter()
            .map(|rules| (rules, RwLock::new(lib.scan(rules))))
            .collect();
        lib.chance = RwLock::new(lib.scan_chance());
        lib
    }

    /// The flip game's chance tables as they are now.
    fn scan_chance(&self) -> Found<Arc<ChanceTables>> {
        let id = RuleSet::Flip4x4.name();
        let tables = ChanceTables::with_cache(&self.root, self.cache_bytes)
            .map(Arc::new)
            .map_err(|_| self.no_tables(id));
        self.found(id, tables)
    }

    /// The flip game's chance tables, or why there are none.
    ///
    /// # Errors
    /// 404 naming the missing directory and the command that makes the tables.
    pub fn chance_tables(&self) -> Result<Arc<ChanceTables>, ApiError> {
        let set = self.chance.read().unwrap_or_else(PoisonError::into_inner);
        set.tables
            .clone()
            .map_err(|why| ApiError::new(Problem::MissingTable, why))
    }

    /// How many chance tables of the flip game were found at the last scan.
    #[must_use]
    pub fn chance_count(&self) -> usize {
        let set = self.chance.read().unwrap_or_else(PoisonError::into_inner);
        set.tables
            .as_ref()
            .map_or(0, |t| t.chance().materials().len())
    }

    /// The tables of `rules` as they are now.
    fn scan(&self, rules: Rules) -> Found<AnyTablebase> {
        let id = rules.name();
        let tables =
            AnyTablebase::open(&self.root, rules, self.cache_bytes).map_err(|_| self.no_tables(id));
        self.found(id, tables)
    }

    /// Scans the tables of `rules` again if their directory changed since `set` was found;
    /// returns whether it did.
    fn rescan(&self, rules: Rules, set: &RwLock<Found<AnyTablebase>>) -> bool {
        let stamp = self.stamp(rules.name());
        if set.read().unwrap_or_else(PoisonError::into_inner).stamp == stamp {
            return false;
        }
        let found = self.scan(rules);
        *set.write().unwrap_or_else(PoisonError::into_inner) = found;
        true
    }

    /// `tables` as found now, stamped with the time `root/<name>` was last changed.
    fn found<T>(&self, name: &str, tables: Result<T, String>) -> Found<T> {
        let mut stamp = self.stamp(name);
        // A directory changed within the last seconds may change again within the same tick
        // of its file system's clock: keep no stamp, so that the next miss looks again.
        let fresh = stamp.is_some_and(|t| {
            SystemTime::now()
                .duration_since(t)
                .map_or(true, |age| age < FRESH)
        });
        if fresh {
            stamp = None;
        }
        let fingerprint = fingerprint(&self.root.join(name));
        Found {
            tables,
            stamp,
            fingerprint,
        }
    }

    /// When `root/<name>` was last changed (a table written by `jtb gen` is renamed into it).
    fn stamp(&self, name: &str) -> Option<SystemTime> {
        std::fs::metadata(self.root.join(name))
            .and_then(|m| m.modified())
            .ok()
    }

    /// Looks again at every rule set whose directory changed since it was last scanned (or
    /// appeared), so that tables generated while the server runs are served. One `stat` per
    /// rule set when nothing changed. Returns whether any rule set was scanned again.
    pub fn refresh(&self) -> bool {
        let mut changed = false;
        for &(rules, ref set) in &self.shelves {
            if self.rescan(rules, set) {
                self.memo.forget(rules);
                changed = true;
            }
        }
        let stamp = self.stamp(RuleSet::Flip4x4.name());
        if self
            .chance
            .read()
            .unwrap_or_else(PoisonError::into_inner)
            .stamp
            != stamp
        {
            let found = self.scan_chance();
            *self.chance.write().unwrap_or_else(PoisonError::into_inner) = found;
            changed = true;
        }
        changed
    }

    /// Whether it is time to look at the table directories again ([`Library::refresh`]): true
    /// for one caller at most once a [`RECHECK`], so that a table replaced (renamed over the
    /// old file) or damaged while the server runs is served as it now is within about a second.
    pub fn due_for_check(&self) -> bool {
        let now = u64::try_from(self.opened.elapsed().as_millis()).unwrap_or(u64::MAX);
        let last = self.checked_ms.load(Ordering::Relaxed);
        now.saturating_sub(last) >= RECHECK.as_millis() as u64
            && self
                .checked_ms
                .compare_exchange(last, now, Ordering::Relaxed, Ordering::Relaxed)
                .is_ok()
    }

    /// Runs `answer`, and once more if it met a missing table and the table directory has
    /// changed since it was scanned: a table generated while the server runs is found on the
    /// first request that needs it.
    ///
    /// # Errors
    /// `answer`'s error.
    pub fn answer<T>(
        &self,
        answer: impl Fn(&Library) -> Result<T, ApiError>,
    ) -> Result<T, ApiError> {
        match answer(self) {
            Err(e) if e.problem == Problem::MissingTable && self.refresh() => answer(self),
            other => other,
        }
    }

    /// The tables of the rule set `id` as last found, or why it has none (404).
    fn shelf(&self, id: &str) -> Result<AnyTablebase, ApiError> {
        let (_, set) = self
            .shelves
            .iter()
            .find(|(rules, _)| rules.name() == id)
            .ok_or_else(|| ApiError::internal(format!("{id} is none of the server's rule sets")))?;
        let set = set.read().unwrap_or_else(PoisonError::into_inner);
        set.tables
            .clone()
            .map_err(|why| ApiError::new(Problem::MissingTable, why))
    }

    /// The tables of `rules`, of its game `G`'s type, or why there are none.
    ///
    /// # Errors
    /// 404 naming the missing directory and the command that makes the tables; 500 for a rule
    /// set that is not `G`'s.
    pub fn game_tables<G: EdgeGame>(
        &self,
        rules: Rules,
    ) -> Result<Arc<Tablebase<G::Tables>>, ApiError> {
        let id = rules.name();
        G::tables(&self.shelf(id)?)
            .cloned()
            .ok_or_else(|| not_shelved(id))
    }

    /// The tables of a Jungle or flip rule set, or why there are none.
    ///
    /// # Errors
    /// As [`Library::game_tables`].
    pub fn tables(&self, rules: RuleSet) -> Result<Arc<Tablebase>, ApiError> {
        self.game_tables::<Jungle>(Rules::Jungle(rules))
    }

    /// The materials of a Jungle-family rule set's tables (Clesto's included), fewest pieces
    /// first, or why there are none.
    ///
    /// # Errors
    /// As [`Library::tables`].
    pub fn materials(&self, rules: RuleSet) -> Result<Vec<Material>, ApiError> {
        self.shelf(rules.name())?
            .family_materials()
            .ok_or_else(|| not_shelved(rules.name()))
    }

    /// The number of tables of the rule set `id` and the most pieces of any, or why it has none.
    ///
    /// # Errors
    /// As [`Library::tables`].
    pub fn size(&self, id: &str) -> Result<(usize, usize), ApiError> {
        Ok(self.shelf(id)?.size())
    }

    /// The ids of every rule set the server serves (the Jungle family's, then Animal
    /// Gambit's): the one list the answers' tags and `/metrics` go by.
    pub fn ids() -> impl Iterator<Item = &'static str> {
        Rules::all().into_iter().map(Rules::name)
    }

    /// What the table files of the rule set `id` were when last scanned (0 for a rule set
    /// without tables, or none of the server's): an answer about them is the same as long as
    /// this is.
    #[must_use]
    pub fn fingerprint(&self, id: &str) -> u64 {
        let shelf = self.shelves.iter().find(|(rules, _)| rules.name() == id);
        shelf.map_or(0, |(_, set)| {
            set.read()
                .unwrap_or_else(PoisonError::into_inner)
                .fingerprint
        })
    }

    /// Each rule set's id with the number of tables found at its last scan (0 without any).
    #[must_use]
    pub fn table_counts(&self) -> Vec<(&'static str, usize)> {
        self.shelves
            .iter()
            .map(|(rules, set)| {
                let set = set.read().unwrap_or_else(PoisonError::into_inner);
                (rules.name(), set.tables.as_ref().map_or(0, |t| t.size().0))
            })
            .collect()
    }

    /// Each rule set's id with what its block caches and files hold now (rule sets without
    /// tables left out).
    #[must_use]
    pub fn cache_stats(&self) -> Vec<(&'static str, jtb_probe::CacheStats)> {
        self.shelves
            .iter()
            .filter_map(|(rules, set)| {
                let set = set.read().unwrap_or_else(PoisonError::into_inner);
                Some((rules.name(), set.tables.as_ref().ok()?.cache_stats()))
            })
            .collect()
    }

    /// The table root.
    #[must_use]
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// `path` as the API shows it: relative to the table root, so that an answer names the
    /// table file without telling where the server keeps it.
    #[must_use]
    pub fn show(&self, path: &Path) -> String {
        path.strip_prefix(&self.root)
            .unwrap_or(path)
            .display()
            .to_string()
    }

    /// A missing table in the library's one wording ([`ProbeError::MissingTable`], as `jtb
    /// probe` says it), its file named relative to the root.
    #[must_use]
    pub fn missing<G: Family>(&self, rules: G, material: G::Material, path: &Path) -> ApiError {
        let missing = ProbeError::MissingTable {
            rules: rules.id(),
            material: rules.table_of(material).to_string(),
            path: PathBuf::from(self.show(path)),
        };
        ApiError::new(Problem::MissingTable, missing.to_string())
    }

    /// A rule set (by name) without a table directory, in the library's one wording
    /// ([`ProbeError::NoDirectory`]), its folder named relative to the root.
    fn no_tables(&self, rules: &str) -> String {
        let folder = PathBuf::from(format!("{rules}/"));
        ProbeError::NoDirectory(folder, std::io::ErrorKind::NotFound.into()).to_string()
    }

    /// A table file's error, naming the file relative to the root: a file that is not there
    /// as [`Library::missing`], any other as a damaged table.
    #[must_use]
    pub fn table_error<G: Family>(
        &self,
        mut e: TableError,
        rules: G,
        material: G::Material,
    ) -> ApiError {
        if matches!(&e.kind, TableErrorKind::Io(io) if io.kind() == std::io::ErrorKind::NotFound) {
            return self.missing(rules, material, &e.path);
        }
        e.path = PathBuf::from(self.show(&e.path));
        ApiError::new(Problem::DamagedTable, e.to_string())
    }

    /// The API error of a failed probe of a position of `rules`: 400 for a position no table
    /// can hold (a finished game, face-down tiles), 404 for a table that is not there, 500 for
    /// damaged or inconsistent tables. Every message names the table file where there is one.
    #[must_use]
    pub fn error<G: Family>(&self, e: ProbeError, rules: G) -> ApiError {
        match e {
            ProbeError::GameOver => ApiError::new(Problem::GameOver, e.to_string()),
            ProbeError::HiddenTiles
            | ProbeError::HiddenSetUnknown
            | ProbeError::NoFaceDownTiles => ApiError::new(Problem::HiddenTiles, e.to_string()),
            ProbeError::WrongRules { .. } => ApiError::internal(e.to_string()),
            // A value Clesto's tables do not hold (DTC, a draw): the Clesto endpoints ask for
            // Clesto values, so only a bug gets here, and it is still no 500.
            ProbeError::NotForRules { .. } => ApiError::new(Problem::NotForRules, e.to_string()),
            ProbeError::NoDirectory(..) => {
                ApiError::new(Problem::MissingTable, self.no_tables(rules.id()))
            }
            // The library's one wording, the file named relative to the root.
            mut missing @ (ProbeError::MissingTable { .. } | ProbeError::MissingFile { .. }) => {
                if let ProbeError::MissingTable { path, .. }
                | ProbeError::MissingFile { path, .. } = &mut missing
                {
                    *path = PathBuf::from(self.show(path));
                }
                ApiError::new(Problem::MissingTable, missing.to_string())
            }
            ProbeError::Table(t) => {
                let material = t
                    .path
                    .file_stem()
                    .and_then(|s| G::material_named(s.to_str()?));
                match material {
                    Some(m) => self.table_error(*t, rules, m),
                    None => ApiError::new(Problem::DamagedTable, t.to_string()),
                }
            }
            ProbeError::Inconsistent { .. } => ApiError::new(Problem::DamagedTable, e.to_string()),
            // Only inside `in_memory_only`, whose refused answers are never sent.
            ProbeError::NotInMemory => ApiError::internal(e.to_string()),
        }
    }

    /// The `missing` note of an answer in the API's words (each file named relative to the
    /// root); `None` when nothing is missing.
    #[must_use]
    pub fn missing_note<G: Family>(&self, rules: G, missing: &MissingFiles) -> Option<String> {
        missing.note_with(|e| self.error(e, rules).message)
    }

    /// 400 for a finished game or face-down tiles: no table holds such a position.
    pub(super) fn check_probeable(&self, pos: &Position) -> Result<(), ApiError> {
        if pos.is_game_over() {
            return Err(self.error(ProbeError::GameOver, pos.rules()));
        }
        if pos.hidden() != 0 {
            return Err(self.error(ProbeError::HiddenTiles, pos.rules()));
        }
        Ok(())
    }

    /// `tables` if they may hold the table of `pos` (of `max_pieces` or fewer pieces); else, or
    /// when there are none, 404 naming the position's own table.
    pub(super) fn holding<T>(
        &self,
        pos: &Position,
        tables: Result<T, ApiError>,
        max_pieces: impl Fn(&T) -> usize,
    ) -> Result<T, ApiError> {
        let rules = pos.rules();
        let material = Material::of(pos);
        let missing = || {
            let path = table_path(
                &self.root,
                rules,
                material.table_of(rules),
                jtb_probe::Kind::Dtm,
            );
            self.missing(rules, material, &path)
        };
        match tables {
            Ok(tb) if material.total() <= max_pieces(&tb) => Ok(tb),
            _ => Err(missing()),
        }
    }
}
