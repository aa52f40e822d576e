//! The public probing API: a directory of tables for one rule set.

use std::{
    error::Error,
    fmt,
    path::{Path, PathBuf},
};

use crate::{
    clock::{self, Category, RuleValue},
    file::TableFile,
    format::{table_path, Kind, TableError},
    index::Layout,
    material::Material,
    moves::{Move, Outcome},
    position::Position,
    rules::RuleSet,
    store::{Miss, Store},
    value::{Value, Wdl},
    ClestoValue,
};

/// Default bound of the decoded-block cache, in bytes.
pub const DEFAULT_CACHE_BYTES: u64 = 64 << 20;

/// Why a probe could not answer.
#[derive(Debug)]
pub enum ProbeError {
    /// The table directory does not exist or cannot be read.
    NoDirectory(PathBuf, std::io::Error),
    /// A probe that the rule set's values do not have (Clesto has no clock rule, and its ban
    /// values no distance to mate: [`Tablebase::probe_clesto`] answers for it).
    NotForRules {
        /// The rule set.
        rules: RuleSet,
        /// What was asked.
        what: &'static str,
    },
    /// The game is over (a side has no piece): there is nothing to probe.
    GameOver,
    /// A flip position with face-down tiles: outside every table.
    HiddenTiles,
    /// The position is of another rule set than the tablebase.
    WrongRules {
        /// The tablebase's rule set.
        tablebase: RuleSet,
        /// The position's rule set.
        position: RuleSet,
    },
    /// More pieces than any table in the directory holds.
    TooManyPieces {
        /// Pieces in the position.
        pieces: usize,
        /// The most pieces of any table present.
        max: usize,
    },
    /// The table of this material is not in the directory.
    MissingTable {
        /// The rule set whose table it is.
        rules: RuleSet,
        /// The material, in the orientation that names its table.
        material: Material,
        /// Where its file was looked for.
        path: PathBuf,
    },
    /// A table file is unreadable, corrupted, or of the wrong kind.
    Table(Box<TableError>),
    /// A position's stored value contradicts its moves' values: some file is corrupted.
    Inconsistent {
        /// The position, as text.
        position: String,
        /// Which file's value: DTM or DTC.
        kind: Kind,
        /// The value stored for the position.
        stored: Value,
        /// What its best move gives (`None`: no move keeps the stored value).
        best: Option<Value>,
    },
}

impl fmt::Display for ProbeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ProbeError::NoDirectory(p, e) => write!(f, "table directory {}: {e}", p.display()),
            ProbeError::NotForRules { rules, what } => write!(
                f,
                "{what} is not a value of rule set {rules} (its values are win or loss, with \
                 a distance to mate or by the repetition ban)"
            ),
            ProbeError::GameOver => f.write_str("game over: a side has no piece left"),
            ProbeError::HiddenTiles => f.write_str(
                "face-down tiles left: flip positions with hidden tiles are outside the tables",
            ),
            ProbeError::WrongRules {
                tablebase,
                position,
            } => write!(
                f,
                "position of rule set {position} probed in tables of rule set {tablebase}"
            ),
            ProbeError::TooManyPieces { pieces, max } => write!(
                f,
                "{pieces} pieces: more than the tables cover (at most {max} here)"
            ),
            // The one wording of a missing table (`jtb probe` and `jtb serve` alike): which
            // table, which file is not there, and the command that makes it.
            ProbeError::MissingTable {
                rules,
                material,
                path,
            } => write!(
                f,
                "missing table {material}: {} is not there (make it with `jtb gen --rules \
                 {rules} --material {material}`)",
                path.display()
            ),
            ProbeError::Table(e) => e.fmt(f),
            ProbeError::Inconsistent {
                position,
                kind,
                stored,
                best,
            } => {
                write!(
                    f,
                    "inconsistent tables: {position}: {kind} file says {stored}, "
                )?;
                match best {
                    Some(v) => write!(f, "its best move gives {v}"),
                    None => f.write_str("no move agrees"),
                }
            }
        }
    }
}

impl Error for ProbeError {
    fn source(&self) -> Option<&(dyn Error + 'static)> {
        match self {
            ProbeError::NoDirectory(_, e) => Some(e),
            ProbeError::Table(e) => Some(e.as_ref()),
            _ => None,
        }
    }
}

impl From<TableError> for ProbeError {
    fn from(e: TableError) -> ProbeError {
        ProbeError::Table(Box::new(e))
    }
}

/// The result type of probes.
pub type ProbeResult<T> = Result<T, ProbeError>;

/// The tables present, found by material in one array lookup (a material is two bytes).
struct MaterialMap {
    tables: Vec<Table>,
    /// Per material key, the table's position in `tables` plus one (0: absent).
    slots: Box<[u16]>,
}

impl MaterialMap {
    fn key(m: Material) -> usize {
        usize::from(m.set(crate::piece::Color::Red)) << 8
            | usize::from(m.set(crate::piece::Color::Blue))
    }

    fn get(&self, m: Material) -> Option<&Table> {
        match self.slots[MaterialMap::key(m)] {
            0 => None,
            i => Some(&self.tables[usize::from(i) - 1]),
        }
    }
}

/// One material's table: its layout, and its place in the store (the same in both).
struct Table {
    id: usize,
    layout: Layout,
}

/// A move with the value it leads to, for the side that made it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ScoredMove {
    /// The move.
    pub mv: Move,
    /// Its value for the mover (as the position's value when the move is best).
    pub value: Value,
}

impl ScoredMove {
    /// Sorts moves best first, in the order [`Tablebase::best_move`] chooses by: the shortest
    /// win, then draws, then the longest loss (the order of [`Value`]); among equal values the
    /// smallest move in ASCII order first.
    pub fn sort_best_first(moves: &mut [ScoredMove]) {
        moves.sort_unstable_by(|a, b| b.value.cmp(&a.value).then(a.mv.cmp(&b.mv)));
    }
}

/// A step of a line: the move, and the position after it with its value for the side then to
/// move (`None` once the move ended the game). A best line's values are [`Value`]s; a line under
/// the clock rule ([`RuleStep`]) carries [`RuleValue`]s and positions with their clocks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LineStep<V = Value> {
    /// The move played.
    pub mv: Move,
    /// The position after it, or `None` when the move ended the game.
    pub position: Option<Position>,
    /// The value after the move for the side then to move (`None` when the game ended).
    pub value: Option<V>,
}

/// A step of a line under the clock rule.
pub type RuleStep = LineStep<RuleValue>;

/// A move with what it is worth under the clock rule, for the side that makes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RuleMove {
    /// The move.
    pub mv: Move,
    /// Its DTC value for the mover: a capture, trade or game end is a win, draw or loss in 1.
    pub dtc: Value,
    /// The rule value for the mover after it, at the clock it leaves (0 after a capture).
    pub wdl: Wdl,
}

/// The tables of one rule set in a directory, opened lazily, probed from any number of threads.
pub struct Tablebase {
    rules: RuleSet,
    tables: MaterialMap,
    max_pieces: usize,
    /// The files and their caches, shared with every game family's probes.
    store: Store<RuleSet>,
}

impl fmt::Debug for Tablebase {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Tablebase")
            .field("rules", &self.rules)
            .field("root", &self.store.root())
            .field("tables", &self.tables.tables.len())
            .finish_non_exhaustive()
    }
}

impl Tablebase {
    /// The tables of `rules` under `root` (in `root/<rules>/`, as `jtb gen` writes them). Files
    /// are found now and opened on first use; blocks are read with positioned reads
    /// (`pread`), which is safe whatever happens to the files meanwhile. A block read once stays
    /// in the cache: cached probes never touch the file.
    ///
    /// # Errors
    /// [`ProbeError::NoDirectory`] when `root/<rules>` cannot be read.
    pub fn open(root: impl AsRef<Path>, rules: RuleSet) -> ProbeResult<Tablebase> {
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
        rules: RuleSet,
        cache_bytes: u64,
    ) -> ProbeResult<Tablebase> {
        Tablebase::find(root.as_ref(), rules, cache_bytes, false)
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
    pub unsafe fn open_mapped(
        root: impl AsRef<Path>,
        rules: RuleSet,
        cache_bytes: u64,
    ) -> ProbeResult<Tablebase> {
        Tablebase::find(root.as_ref(), rules, cache_bytes, true)
    }

    /// Finds the tables under `root`, to be opened mapped or read.
    fn find(root: &Path, rules: RuleSet, cache_bytes: u64, mapped: bool) -> ProbeResult<Tablebase> {
        let dir = Store::dir(root, rules);
        let entries =
            std::fs::read_dir(&dir).map_err(|e| ProbeError::NoDirectory(dir.clone(), e))?;
        let mut tables: Vec<Table> = Vec::new();
        let mut slots = vec![0u16; 1 << 16].into_boxed_slice();
        for entry in entries.flatten() {
            let name = entry.file_name();
            let Some(stem) = name.to_str().and_then(|n| n.strip_suffix(".dtm")) else {
                continue;
            };
            let Ok(material) = stem.parse::<Material>() else {
                continue;
            };
            let plausible = material.total() <= Layout::MAX_PIECES
                && material.count(crate::piece::Color::Red) > 0
                && material.count(crate::piece::Color::Blue) > 0;
            let slot = &mut slots[MaterialMap::key(material)];
            if !plausible || material != material.table_of(rules) || *slot != 0 {
                continue;
            }
            tables.push(Table {
                id: tables.len(),
                layout: Layout::new(rules, material),
            });
            *slot = u16::try_from(tables.len()).expect("fewer tables than materials");
            if rules.colour_symmetric() {
                // The colour flip names the same table.
                let flipped = &mut slots[MaterialMap::key(material.flipped())];
                if *flipped == 0 {
                    *flipped = u16::try_from(tables.len()).expect("fewer tables");
                }
            }
        }
        let max_pieces = tables
            .iter()
            .map(|t| t.layout.material().total())
            .max()
            .unwrap_or(0);
        let store = Store::new(
            root,
            rules,
            tables.iter().map(|t| t.layout.material()),
            cache_bytes,
            mapped,
        );
        Ok(Tablebase {
            rules,
            tables: MaterialMap { tables, slots },
            max_pieces,
            store,
        })
    }

    /// The rule set.
    #[must_use]
    pub const fn rules(&self) -> RuleSet {
        self.rules
    }

    /// The materials present, canonical orientation, sorted.
    #[must_use]
    pub fn materials(&self) -> Vec<Material> {
        let mut m: Vec<Material> = self
            .tables
            .tables
            .iter()
            .map(|t| t.layout.material())
            .collect();
        m.sort_by_key(|m| (m.total(), m.to_string()));
        m
    }

    /// The most pieces of any table present.
    #[must_use]
    pub const fn max_pieces(&self) -> usize {
        self.max_pieces
    }

    fn table_for(&self, pos: &Position) -> ProbeResult<&Table> {
        if pos.rules() != self.rules {
            return Err(ProbeError::WrongRules {
                tablebase: self.rules,
                position: pos.rules(),
            });
        }
        if pos.hidden() != 0 {
            return Err(ProbeError::HiddenTiles);
        }
        if pos.is_game_over() {
            return Err(ProbeError::GameOver);
        }
        let material = Material::of(pos);
        if let Some(t) = self.tables.get(material) {
            return Ok(t);
        }
        let material = material.table_of(self.rules);
        let pieces = material.total();
        if pieces > self.max_pieces {
            return Err(ProbeError::TooManyPieces {
                pieces,
                max: self.max_pieces,
            });
        }
        Err(ProbeError::MissingTable {
            rules: self.rules,
            material,
            path: self.path_of(material, Kind::Dtm),
        })
    }

    fn path_of(&self, material: Material, kind: Kind) -> PathBuf {
        table_path(self.store.root(), self.rules, material, kind)
    }

    /// Calls `read` with `table`'s `kind` file, the decoded block holding entry `idx`, and the
    /// entry's offset in it, through the store's caches.
    fn with_entry<R>(
        &self,
        table: &Table,
        kind: Kind,
        idx: usize,
        read: impl FnOnce(&TableFile, &[u8], usize) -> Result<R, TableError>,
    ) -> ProbeResult<R> {
        let stored = &self.store.tables()[table.id];
        self.store
            .with_entry(stored, kind, idx, read)
            .map_err(|miss| match miss {
                Miss::Missing(path) => ProbeError::MissingTable {
                    rules: self.rules,
                    material: stored.material(),
                    path,
                },
                Miss::Table(e) => e.into(),
            })
    }

    fn index(table: &Table, pos: &Position) -> usize {
        table
            .layout
            .index_of(pos)
            .expect("a legal position of the table's material has an index")
    }

    /// Win, draw or loss for the side to move, from the small WDL file.
    ///
    /// # Errors
    /// A [`ProbeError`]: finished game, face-down tiles, wrong rule set, too many pieces,
    /// missing table, or a bad file.
    pub fn probe_wdl(&self, pos: &Position) -> ProbeResult<Wdl> {
        if !pos.hungry_is_canonical() {
            return Ok(self.probe_clesto(pos)?.wdl());
        }
        let table = self.table_for(pos)?;
        self.with_entry(
            table,
            Kind::Wdl,
            Tablebase::index(table, pos),
            |file, block, i| file.wdl_entry(block, i),
        )
    }

    /// The value with its distance to mate, for the side to move, from the DTM file.
    ///
    /// # Errors
    /// As [`Tablebase::probe_wdl`].
    pub fn probe_dtm(&self, pos: &Position) -> ProbeResult<Value> {
        self.probe_value(pos, Kind::Dtm)
    }

    /// The distance to conversion for the side to move, from the DTC file (RULES.md 5.3): a win
    /// or loss in so many plies to the first capture, trade or end of the game, with captures
    /// valued by the clock rule; a draw where neither can be forced. The clock is ignored.
    ///
    /// # Errors
    /// As [`Tablebase::probe_wdl`].
    pub fn probe_dtc(&self, pos: &Position) -> ProbeResult<Value> {
        self.probe_value(pos, Kind::Dtc)
    }

    /// The entry of `pos` in its table's DTM or DTC file.
    fn probe_value(&self, pos: &Position, kind: Kind) -> ProbeResult<Value> {
        self.not_clesto(match kind {
            Kind::Dtc => "the distance to conversion",
            _ => "a distance to mate for every position",
        })?;
        let table = self.table_for(pos)?;
        self.with_entry(
            table,
            kind,
            Tablebase::index(table, pos),
            |file, block, i| file.value_entry(block, i),
        )
    }

    /// The value under the clock rule at the position's half-move clock (0 when it has none):
    /// win, draw or loss, with the DTC and the category at clock 0 (RULES.md 5.4, 5.5). One DTC
    /// lookup; a DTC draw also reads the WDL file for its category.
    ///
    /// # Errors
    /// As [`Tablebase::probe_wdl`].
    pub fn probe_rule(&self, pos: &Position) -> ProbeResult<RuleValue> {
        let dtc = self.probe_dtc(pos)?;
        let limit = self.rules.clock_limit();
        let category = match Category::of_decided_dtc(dtc, limit) {
            Some(c) => c,
            None => Category::of(self.probe_wdl(pos)?, dtc, limit),
        };
        Ok(RuleValue::new(
            self.rules,
            pos.clock().unwrap_or(0),
            dtc,
            category,
        ))
    }

    /// Every legal move with what it is worth under the clock rule at the position's clock, in
    /// move order (ASCII). A position at the clock limit is drawn and has no such moves.
    ///
    /// # Errors
    /// As [`Tablebase::probe_dtc`], for the position or any successor.
    pub fn rule_moves(&self, pos: &Position) -> ProbeResult<Vec<RuleMove>> {
        self.not_clesto("the value under the clock rule")?;
        self.table_for(pos)?;
        let limit = self.rules.clock_limit();
        let clock = pos.clock().unwrap_or(0);
        if clock >= limit {
            return Ok(Vec::new());
        }
        let material = Material::of(pos);
        let mut outcomes = Vec::new();
        pos.for_each_outcome(|mv, outcome| outcomes.push((mv, outcome)));
        outcomes.sort_unstable_by_key(|&(mv, _)| mv);
        outcomes
            .into_iter()
            .map(|(mv, outcome)| {
                let (dtc, wdl) = match outcome {
                    Outcome::Over { result, .. } => (result.of_final_move(), result),
                    Outcome::Ongoing(next) => {
                        let after = self.probe_dtc(&next)?;
                        if Material::of(&next) != material {
                            let at_zero = clock::rule_wdl(after, 0, limit);
                            (clock::conversion_value(at_zero), at_zero.flipped())
                        } else {
                            let wdl = clock::rule_wdl(after, clock + 1, limit).flipped();
                            (after.back_one_ply(), wdl)
                        }
                    }
                };
                Ok(RuleMove { mv, dtc, wdl })
            })
            .collect()
    }

    /// The best move under the clock rule at the position's clock (RULES.md 5.6): in a rule win
    /// the move that keeps it with the smallest DTC, in a rule loss the largest DTC, in a rule
    /// draw the first move that keeps the draw; among equals the smallest in ASCII order.
    /// `None` when the side to move has no move, or the clock has reached the limit (the game
    /// is drawn).
    ///
    /// # Errors
    /// As [`Tablebase::rule_moves`], and [`ProbeError::Inconsistent`] when the moves contradict
    /// the position's stored DTC.
    pub fn rule_best_move(&self, pos: &Position) -> ProbeResult<Option<RuleMove>> {
        let root = self.probe_rule(pos)?;
        let moves = self.rule_moves(pos)?;
        if moves.is_empty() {
            return Ok(None);
        }
        let best = match root.wdl {
            Wdl::Draw => moves.into_iter().find(|m| m.wdl == Wdl::Draw),
            wdl => moves
                .into_iter()
                .rev()
                .filter(|m| m.wdl == wdl)
                .max_by_key(|m| m.dtc)
                .filter(|m| m.dtc == root.dtc),
        };
        match best {
            Some(m) => Ok(Some(m)),
            None => Err(ProbeError::Inconsistent {
                position: pos.to_string(),
                kind: Kind::Dtc,
                stored: root.dtc,
                best: None,
            }),
        }
    }

    /// The whole line under the clock rule from `pos` at its clock to the end of the game: rule
    /// best moves by both sides, the clock advancing and restarting at each capture (empty for a
    /// rule draw). It reaches the first conversion after exactly DTC plies.
    ///
    /// # Errors
    /// As [`Tablebase::rule_best_move`].
    pub fn rule_line(&self, pos: &Position) -> ProbeResult<Vec<RuleStep>> {
        if self.probe_rule(pos)?.is_draw() {
            return Ok(Vec::new());
        }
        let mut start = pos.clone();
        start
            .set_rule_clock(None)
            .expect("the position's own clock is within the limit");
        self.play_line(
            start,
            |p| Ok(self.rule_best_move(p)?.map(|m| m.mv)),
            |p| self.probe_rule(p),
        )
    }

    /// Plays `best` moves from `start` to the end of the game (or until `best` has none),
    /// each step with the `value` of the position after it.
    fn play_line<V>(
        &self,
        start: Position,
        best: impl Fn(&Position) -> ProbeResult<Option<Move>>,
        value: impl Fn(&Position) -> ProbeResult<V>,
    ) -> ProbeResult<Vec<LineStep<V>>> {
        let mut line = Vec::new();
        let mut current = start;
        while let Some(mv) = best(&current)? {
            match current.play(mv).expect("best move is legal") {
                Outcome::Over { .. } => {
                    line.push(LineStep {
                        mv,
                        position: None,
                        value: None,
                    });
                    break;
                }
                Outcome::Ongoing(next) => {
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

    /// Every legal move with the value it leads to for the mover, in move order (ASCII).
    ///
    /// # Errors
    /// As [`Tablebase::probe_dtm`], for the position or any successor.
    pub fn scored_moves(&self, pos: &Position) -> ProbeResult<Vec<ScoredMove>> {
        self.not_clesto("a distance to mate for every move")?;
        self.table_for(pos)?;
        let pos = pos.without_clocks();
        let mut outcomes = Vec::new();
        pos.for_each_outcome(|mv, outcome| outcomes.push((mv, outcome)));
        outcomes.sort_unstable_by_key(|&(mv, _)| mv);
        outcomes
            .into_iter()
            .map(|(mv, outcome)| {
                let value = match outcome {
                    Outcome::Over { result, .. } => result.of_final_move(),
                    Outcome::Ongoing(next) => self.probe_dtm(&next)?.back_one_ply(),
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
    pub fn ranked_moves(&self, pos: &Position) -> ProbeResult<Vec<ScoredMove>> {
        let root = self.probe_dtm(pos)?;
        let mut moves = self.scored_moves(pos)?;
        ScoredMove::sort_best_first(&mut moves);
        let found = moves.first().map_or(Value::Loss(0), |m| m.value);
        if found != root {
            return Err(ProbeError::Inconsistent {
                position: pos.to_string(),
                kind: Kind::Dtm,
                stored: root,
                best: Some(found),
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
    pub fn best_move(&self, pos: &Position) -> ProbeResult<Option<ScoredMove>> {
        Ok(self.ranked_moves(pos)?.into_iter().next())
    }

    /// The whole best line from `pos` to the end of the game (empty for a draw and for a loss
    /// in 0). Its length is the distance to mate.
    ///
    /// # Errors
    /// As [`Tablebase::best_move`].
    pub fn line(&self, pos: &Position) -> ProbeResult<Vec<LineStep>> {
        if self.probe_dtm(pos)? == Value::Draw {
            return Ok(Vec::new());
        }
        self.play_line(
            pos.without_clocks(),
            |p| Ok(self.best_move(p)?.map(|m| m.mv)),
            |p| self.probe_dtm(p),
        )
    }

    /// [`ProbeError::NotForRules`] for Clesto, whose values the other probes do not describe.
    fn not_clesto(&self, what: &'static str) -> ProbeResult<()> {
        if self.rules.has_hunger() {
            return Err(ProbeError::NotForRules {
                rules: self.rules,
                what,
            });
        }
        Ok(())
    }

    /// The value of a Clesto position (RULES.md 6): a plain win or loss with its distance to
    /// mate, or a win or loss by the repetition ban, with B's exit distance on B's side. A
    /// position at a non-canonical hungry set is valued one move ahead.
    ///
    /// # Errors
    /// As [`Tablebase::probe_wdl`]; [`ProbeError::NotForRules`] outside Clesto;
    /// [`ProbeError::Inconsistent`] when the DTM and ban files contradict each other.
    pub fn probe_clesto(&self, pos: &Position) -> ProbeResult<ClestoValue> {
        if !self.rules.has_hunger() {
            return Err(ProbeError::NotForRules {
                rules: self.rules,
                what: "a Clesto value",
            });
        }
        if !pos.hungry_is_canonical() {
            self.table_for(pos)?;
            return crate::ban::value_by_lookahead(pos, |next| self.probe_clesto(next));
        }
        let table = self.table_for(pos)?;
        let idx = Tablebase::index(table, pos);
        let read = |kind| {
            self.with_entry(table, kind, idx, |file, block, i| {
                file.value_entry(block, i)
            })
        };
        let (plain, ban) = (read(Kind::Dtm)?, read(Kind::Ban)?);
        let banned = pos.turn() == crate::ban::banned_side(table.layout.material());
        ClestoValue::from_parts(plain, ban, banned).ok_or_else(|| ProbeError::Inconsistent {
            position: pos.to_string(),
            kind: Kind::Ban,
            stored: ban,
            best: Some(plain),
        })
    }

    /// Every legal move of a Clesto position with its value for the mover
    /// ([`ClestoValue::after_move`]), in move order (ASCII).
    ///
    /// # Errors
    /// As [`Tablebase::probe_clesto`], for the position or any successor.
    pub fn clesto_moves(&self, pos: &Position) -> ProbeResult<Vec<(Move, ClestoValue)>> {
        self.probe_clesto(pos)?;
        let mut moves = Vec::new();
        crate::ban::for_each_move_value(
            pos,
            |next| self.probe_clesto(next),
            |mv, v| moves.push((mv, v)),
        )?;
        moves.sort_unstable_by_key(|&(mv, _)| mv);
        Ok(moves)
    }

    /// The best move of a Clesto position (RULES.md 6.6) and its value: the best value for the
    /// mover (shortest plain win; B's shortest way out of the material; U's moves that keep B
    /// from winning; the longest loss), the smallest in ASCII order among equals. `None` without
    /// a move.
    ///
    /// # Errors
    /// As [`Tablebase::clesto_moves`], and [`ProbeError::Inconsistent`] when the best move's
    /// value is not the position's.
    pub fn clesto_best_move(&self, pos: &Position) -> ProbeResult<Option<(Move, ClestoValue)>> {
        let root = self.probe_clesto(pos)?;
        let moves = self.clesto_moves(pos)?;
        // The first of the best: `max_by_key` keeps the last maximum, so go from the end.
        let best = moves.into_iter().rev().max_by_key(|&(_, v)| v);
        match best {
            Some((_, v)) if v != root => Err(ProbeError::Inconsistent {
                position: pos.to_string(),
                kind: Kind::Ban,
                stored: root.ban_part(),
                best: Some(v.ban_part()),
            }),
            None if root != ClestoValue::Plain(Value::Loss(0)) => Err(ProbeError::Inconsistent {
                position: pos.to_string(),
                kind: Kind::Dtm,
                stored: root.plain_part(),
                best: None,
            }),
            best => Ok(best),
        }
    }

    /// The best line of a Clesto position: best moves by both sides to the end of the game, or
    /// up to the first position that the unbanned side wins only by the ban (from there the
    /// game ends only by the ban; RULES.md 6.6). Empty when `pos` is such a position.
    ///
    /// # Errors
    /// As [`Tablebase::clesto_best_move`].
    pub fn clesto_line(&self, pos: &Position) -> ProbeResult<Vec<LineStep<ClestoValue>>> {
        let u_wins = |v: ClestoValue| {
            matches!(
                v,
                ClestoValue::BanWin { exit: None } | ClestoValue::BanLoss { exit: None }
            )
        };
        // From a position the unbanned side wins only by the ban, the line goes no further.
        self.play_line(
            pos.clone(),
            |p| {
                if u_wins(self.probe_clesto(p)?) {
                    return Ok(None);
                }
                Ok(self.clesto_best_move(p)?.map(|(mv, _)| mv))
            },
            |p| self.probe_clesto(p),
        )
    }
}
