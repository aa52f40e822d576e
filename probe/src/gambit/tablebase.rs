//! Probing Animal Gambit tables: values with their distance to mate in turns, the category
//! the repetition rule gives a table draw, the best turn and the whole best line. The files,
//! their checks and the block caches are the ones every game shares (`store.rs`); only how a
//! position finds its entry ([`Layout`]) is Animal Gambit's.

use std::{
    collections::HashMap,
    error::Error,
    fmt,
    path::{Path, PathBuf},
};

use super::{
    index::{Layout, Rules},
    material::Material,
    position::Position,
    turn::{Next, Turn},
};
use crate::{
    format::{Kind, TableError},
    store::{Miss, Store},
    tablebase::DEFAULT_CACHE_BYTES,
    value::{Value, Wdl},
};

/// Why an Animal Gambit probe could not answer.
#[derive(Debug)]
pub enum ProbeError {
    /// The table directory does not exist or cannot be read.
    NoDirectory(PathBuf, std::io::Error),
    /// More pieces than any table in the directory holds.
    TooManyPieces {
        /// Pieces in the position.
        pieces: usize,
        /// The most pieces of any table present.
        max: usize,
    },
    /// The table of this material is not in the directory.
    MissingTable {
        /// The material, in the orientation that names its table.
        material: Material,
        /// Where its file was looked for.
        path: PathBuf,
    },
    /// A table file is unreadable, corrupted, or of the wrong kind.
    Table(Box<TableError>),
    /// A position's stored value contradicts its turns' values: some file is corrupted.
    Inconsistent {
        /// The position, as text.
        position: String,
        /// The value stored for it.
        stored: Value,
        /// The best of its turns' values.
        best: Value,
    },
}

impl fmt::Display for ProbeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ProbeError::NoDirectory(p, e) => write!(f, "table directory {}: {e}", p.display()),
            ProbeError::TooManyPieces { pieces, max } => write!(
                f,
                "{pieces} pieces: more than the Animal Gambit tables cover (at most {max} here)"
            ),
            // The wording of a missing Jungle table, for this game's command.
            ProbeError::MissingTable { material, path } => write!(
                f,
                "missing table {material}: {} is not there (make it with `jtb gen --rules \
                 {} --material {material}`)",
                path.display(),
                Rules::NAME
            ),
            ProbeError::Table(e) => e.fmt(f),
            ProbeError::Inconsistent {
                position,
                stored,
                best,
            } => write!(
                f,
                "inconsistent tables: {position}: the DTM file says {stored}, its best turn gives {best}"
            ),
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

/// What a value means in the game (RULES.md section 7, "Values in a table").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Category {
    /// The side to move forces the end of the game in its favour.
    Win,
    /// The opponent does.
    Loss,
    /// Neither side can force an end: the real game is decided by the repetition rule, which
    /// depends on the history the table does not see.
    Repetition,
}

impl Category {
    /// The category of a table value.
    #[must_use]
    pub const fn of(value: Value) -> Category {
        match value {
            Value::Win(_) => Category::Win,
            Value::Loss(_) => Category::Loss,
            Value::Draw => Category::Repetition,
        }
    }

    /// `win`, `loss` or `repetition`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Category::Win => "win",
            Category::Loss => "loss",
            Category::Repetition => "repetition",
        }
    }
}

impl fmt::Display for Category {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A turn with what it is worth for the side that plays it (distances in turns).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ScoredTurn {
    /// The turn.
    pub turn: Turn,
    /// Its value for the mover: a win or loss in 1 when it ends the game.
    pub value: Value,
}

/// A turn of a best line, and the position it leads to (`None`: the turn ended the game).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LineTurn {
    /// The turn played.
    pub turn: Turn,
    /// The position after it, or `None` when the turn ended the game.
    pub position: Option<Position>,
    /// The value after it for the side then to move (`None` when the game ended).
    pub value: Option<Value>,
}

/// What the tables say of a game: Animal Gambit has no move-count draw, so a covered position
/// is always settled, by a forced win or loss with its distance in turns, or as a game the
/// repetition rule decides.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Verdict {
    /// Win, loss, or repetition (neither side can force an end).
    pub category: Category,
    /// Turns to the end of the game with best play (`None` for a repetition).
    pub dtm: Option<u16>,
}

/// One material's table: its index and its place in the store.
#[derive(Debug)]
struct Table {
    id: usize,
    layout: Layout,
}

/// The Animal Gambit tables in a directory (`root/animal-gambit/*.{dtm,wdl}`), opened lazily,
/// probed from any number of threads through the shared block caches.
pub struct Tablebase {
    tables: HashMap<Material, Table>,
    max_pieces: usize,
    store: Store<Rules>,
}

impl fmt::Debug for Tablebase {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("gambit::Tablebase")
            .field("root", &self.store.root())
            .field("tables", &self.tables.len())
            .finish_non_exhaustive()
    }
}

impl Tablebase {
    /// The tables under `root` (in `root/animal-gambit/`, as `jtb gen --rules animal-gambit`
    /// writes them), with the default cache bound. Files are found now and opened on first
    /// use, read with positioned reads.
    ///
    /// # Errors
    /// [`ProbeError::NoDirectory`] when `root/animal-gambit` cannot be read.
    pub fn open(root: impl AsRef<Path>) -> Result<Tablebase, ProbeError> {
        Tablebase::with_cache(root, DEFAULT_CACHE_BYTES)
    }

    /// As [`Tablebase::open`], with a bound on the shared cache of decoded blocks in bytes
    /// (as [`crate::Tablebase::with_cache`]).
    ///
    /// # Errors
    /// As [`Tablebase::open`].
    pub fn with_cache(root: impl AsRef<Path>, cache_bytes: u64) -> Result<Tablebase, ProbeError> {
        let root = root.as_ref();
        let dir = Store::dir(root, Rules);
        let entries =
            std::fs::read_dir(&dir).map_err(|e| ProbeError::NoDirectory(dir.clone(), e))?;
        let mut materials: Vec<Material> = entries
            .flatten()
            .filter_map(|e| {
                let name = e.file_name();
                let m: Material = name.to_str()?.strip_suffix(".dtm")?.parse().ok()?;
                // Only the orientation that names a table; other names are not tables.
                (m.canonical() == m).then_some(m)
            })
            .collect();
        materials.sort_by_key(|m| (m.total(), m.to_string()));
        let max_pieces = materials.iter().map(|m| m.total()).max().unwrap_or(0);
        let tables = materials
            .iter()
            .enumerate()
            .map(|(id, &m)| {
                (
                    m,
                    Table {
                        id,
                        layout: Layout::new(m),
                    },
                )
            })
            .collect();
        Ok(Tablebase {
            tables,
            max_pieces,
            store: Store::new(root, Rules, materials, cache_bytes, false),
        })
    }

    /// The materials present (the orientation that names each table), fewest pieces first,
    /// then by name.
    #[must_use]
    pub fn materials(&self) -> Vec<Material> {
        self.store.tables().iter().map(|t| t.material()).collect()
    }

    /// The most pieces of any table present.
    #[must_use]
    pub const fn max_pieces(&self) -> usize {
        self.max_pieces
    }

    fn table_for(&self, pos: &Position) -> Result<&Table, ProbeError> {
        let material = Material::of(pos.board()).canonical();
        if let Some(t) = self.tables.get(&material) {
            return Ok(t);
        }
        if material.total() > self.max_pieces {
            return Err(ProbeError::TooManyPieces {
                pieces: material.total(),
                max: self.max_pieces,
            });
        }
        Err(ProbeError::MissingTable {
            material,
            path: self.store.path_of(material, Kind::Dtm),
        })
    }

    fn entry<T>(
        &self,
        pos: &Position,
        kind: Kind,
        read: impl FnOnce(&crate::TableFile<Rules>, &[u8], usize) -> Result<T, TableError>,
    ) -> Result<T, ProbeError> {
        let table = self.table_for(pos)?;
        let idx = table
            .layout
            .index_of(pos)
            .expect("a position of the table's material has an entry");
        let stored = &self.store.tables()[table.id];
        self.store
            .with_entry(stored, kind, idx, read)
            .map_err(|miss| match miss {
                Miss::Missing(path) => ProbeError::MissingTable {
                    material: stored.material(),
                    path,
                },
                Miss::Table(e) => e.into(),
            })
    }

    /// Win, draw or loss for the side to move, from the small WDL file (a draw is a game
    /// the repetition rule decides).
    ///
    /// # Errors
    /// A [`ProbeError`]: too many pieces, missing table, or a bad file.
    pub fn probe_wdl(&self, pos: &Position) -> Result<Wdl, ProbeError> {
        self.entry(pos, Kind::Wdl, |file, block, i| file.wdl_entry(block, i))
    }

    /// The value with its distance to mate in turns, for the side to move, from the DTM file.
    ///
    /// # Errors
    /// As [`Tablebase::probe_wdl`].
    pub fn probe_dtm(&self, pos: &Position) -> Result<Value, ProbeError> {
        self.entry(pos, Kind::Dtm, |file, block, i| file.value_entry(block, i))
    }

    /// Whether the tables settle `pos` and how ([`Verdict`]); the one adjudication of Animal
    /// Gambit positions the CLI (and any program) uses.
    ///
    /// # Errors
    /// As [`Tablebase::probe_dtm`]: a position the tables do not cover is an error
    /// ([`ProbeError::MissingTable`], [`ProbeError::TooManyPieces`]), not a verdict.
    pub fn adjudicate(&self, pos: &Position) -> Result<Verdict, ProbeError> {
        let value = self.probe_dtm(pos)?;
        Ok(Verdict {
            category: Category::of(value),
            dtm: value.dtm(),
        })
    }

    /// Every turn of `pos` (in the ASCII order of their canonical texts) with its value for
    /// the mover: a win or loss in 1 when it ends the game, else one turn more than the
    /// position it leads to.
    ///
    /// # Errors
    /// As [`Tablebase::probe_wdl`], for the position after any turn.
    pub fn scored_turns(&self, pos: &Position) -> Result<Vec<ScoredTurn>, ProbeError> {
        pos.turns()
            .into_iter()
            .map(|turn| {
                let value = match pos.play(&turn) {
                    Next::Over(end) if end.mover_wins() => Value::Win(1),
                    Next::Over(_) => Value::Loss(1),
                    Next::Continues(next) => self.probe_dtm(&next)?.back_one_ply(),
                };
                Ok(ScoredTurn { turn, value })
            })
            .collect()
    }

    /// The best turn (RULES.md sections 3 and 7): the shortest win, else a draw, else the
    /// longest loss; among equal values the smallest canonical text. `None` when the side to
    /// move has no turn (it has lost).
    ///
    /// # Errors
    /// As [`Tablebase::scored_turns`], and [`ProbeError::Inconsistent`] when the best turn's
    /// value is not the position's stored value.
    pub fn best_turn(&self, pos: &Position) -> Result<Option<ScoredTurn>, ProbeError> {
        Ok(self.ranked_turns(pos)?.into_iter().next())
    }

    /// Every turn of `pos` with its value, best first; equal values in text order, so the first
    /// is [`Tablebase::best_turn`].
    ///
    /// # Errors
    /// As [`Tablebase::scored_turns`], and [`ProbeError::Inconsistent`] when the best turn's
    /// value is not the position's stored value.
    pub fn ranked_turns(&self, pos: &Position) -> Result<Vec<ScoredTurn>, ProbeError> {
        let stored = self.probe_dtm(pos)?;
        let mut turns = self.scored_turns(pos)?;
        // Stable: equal values keep the text order.
        turns.sort_by_key(|t| std::cmp::Reverse(t.value));
        let best = turns.first().map_or(Value::Loss(0), |b| b.value);
        if best != stored {
            return Err(ProbeError::Inconsistent {
                position: pos.to_string(),
                stored,
                best,
            });
        }
        Ok(turns)
    }

    /// The best line: best turns (as [`Tablebase::best_turn`]) until the game ends. Empty for
    /// a draw (no side can force an end; the repetition rule decides) and for a position
    /// without turns.
    ///
    /// # Errors
    /// As [`Tablebase::best_turn`] for each position of the line.
    pub fn line(&self, pos: &Position) -> Result<Vec<LineTurn>, ProbeError> {
        let mut line = Vec::new();
        let mut at = *pos;
        if self.probe_dtm(pos)? == Value::Draw {
            return Ok(line);
        }
        while let Some(best) = self.best_turn(&at)? {
            match at.play(&best.turn) {
                Next::Over(_) => {
                    line.push(LineTurn {
                        turn: best.turn,
                        position: None,
                        value: None,
                    });
                    break;
                }
                Next::Continues(next) => {
                    let value = self.probe_dtm(&next)?;
                    line.push(LineTurn {
                        turn: best.turn,
                        position: Some(next),
                        value: Some(value),
                    });
                    at = next;
                }
            }
        }
        Ok(line)
    }
}
