//! Why a probe could not answer: one error type for every game.

use std::{
    error::Error,
    fmt,
    path::{Path, PathBuf},
};

use crate::{
    format::{Kind, TableError},
    value::Value,
};

/// Why a probe could not answer.
#[derive(Debug)]
pub enum ProbeError {
    /// The table directory does not exist or cannot be read.
    NoDirectory(PathBuf, std::io::Error),
    /// A question the rule set's tables do not answer, asked where the types cannot say so (at
    /// run time: a C caller's handle, a Clesto position given to the clock rule's
    /// adjudication, which takes the Jungle family's position type).
    NotForRules {
        /// The rule set's id.
        rules: &'static str,
        /// Why not, as a clause (`its tables are Clesto's, ...`).
        what: &'static str,
    },
    /// The game is over (a side has no piece): there is nothing to probe.
    GameOver,
    /// A flip position with face-down tiles probed in the revealed tables (its values are in
    /// the chance tables, [`crate::flip::ChanceTables`]).
    HiddenTiles,
    /// A flip position with face-down tiles whose hidden set is not known: its text needs the
    /// `?:` field.
    HiddenSetUnknown,
    /// A position without face-down tiles probed in the chance tables alone.
    NoFaceDownTiles,
    /// The position is of another rule set than the tablebase.
    WrongRules {
        /// The tablebase's rule set.
        tablebase: &'static str,
        /// The position's rule set.
        position: &'static str,
    },
    /// The table of this material is not in the directory.
    MissingTable {
        /// The id of the rule set whose table it is.
        rules: &'static str,
        /// The material, in the orientation that names its table.
        material: String,
        /// Where its file was looked for.
        path: PathBuf,
    },
    /// The table of this material is there, but not its file of this kind: a set that holds
    /// only some of each table's files (an engine's WDL files alone) asked a question that needs
    /// another (a distance to mate, a best move).
    MissingFile {
        /// The id of the rule set whose table it is.
        rules: &'static str,
        /// The material, in the orientation that names its table.
        material: String,
        /// The kind of file the question needs.
        kind: Kind,
        /// Where it was looked for.
        path: PathBuf,
    },
    /// A table file is unreadable, corrupted, or of the wrong kind.
    Table(Box<TableError>),
    /// Inside [`in_memory_only`](crate::in_memory_only), a probe that would have opened a
    /// file or read a block (the wrapper then gives `None`; no other caller meets it).
    NotInMemory,
    /// A position's stored value contradicts its moves' values: some file is corrupted.
    Inconsistent {
        /// The position, as text.
        position: String,
        /// Which file's value.
        kind: Kind,
        /// The value stored for the position.
        stored: Value,
        /// What its best move gives (`None`: no move keeps the stored value).
        best: Option<Value>,
        /// What a move is called in the game (`move`, `turn`).
        noun: &'static str,
    },
}

impl fmt::Display for ProbeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            // A rule set without a folder is a set not made yet: say how to make it, as a
            // missing table does.
            ProbeError::NoDirectory(dir, e) if e.kind() == std::io::ErrorKind::NotFound => {
                let rules = dir.file_name().unwrap_or_default().to_string_lossy();
                write!(
                    f,
                    "no tables for rule set {rules}: {} is not there (make them with `jtb gen \
                     --rules {rules}",
                    dir.display()
                )?;
                gen_out(f, dir.parent())
            }
            ProbeError::NoDirectory(p, e) => write!(f, "table directory {}: {e}", p.display()),
            ProbeError::NotForRules { rules, what } => write!(f, "rule set {rules}: {what}"),
            ProbeError::GameOver => f.write_str("game over: a side has no piece left"),
            ProbeError::HiddenTiles => f.write_str(
                "face-down tiles left: their values are in the chance tables, not in these",
            ),
            ProbeError::HiddenSetUnknown => f.write_str(
                "face-down tiles whose animals are not known: animals were captured, so the \
                 position needs the `?:` field naming the hidden set (e.g. `?:Tw`)",
            ),
            ProbeError::NoFaceDownTiles => {
                f.write_str("no face-down tiles: the position's value is in the revealed tables")
            }
            ProbeError::WrongRules {
                tablebase,
                position,
            } => write!(
                f,
                "position of rule set {position} probed in tables of rule set {tablebase}"
            ),
            // The one wording of a missing table (`jtb probe` and `jtb serve` alike): which
            // table, which file is not there, and the command that makes it.
            ProbeError::MissingTable {
                rules,
                material,
                path,
            } => {
                write!(
                    f,
                    "missing table {material}: {} is not there (make it with `jtb gen --rules \
                     {rules} --material {material}",
                    path.display()
                )?;
                gen_out(f, path.parent().and_then(Path::parent))
            }
            ProbeError::MissingFile {
                rules,
                material,
                kind,
                path,
            } => {
                write!(
                    f,
                    "no {kind} file for table {material}: {} is not there (this set holds only \
                     some of the table's files; make them with `jtb gen --rules {rules} \
                     --material {material}",
                    path.display()
                )?;
                gen_out(f, path.parent().and_then(Path::parent))
            }
            ProbeError::Table(e) => e.fmt(f),
            ProbeError::NotInMemory => {
                f.write_str("the table block is not in memory (a probe held to memory)")
            }
            ProbeError::Inconsistent {
                position,
                kind,
                stored,
                best,
                noun,
            } => {
                write!(
                    f,
                    "inconsistent tables: {position}: the {kind} file says {stored}, "
                )?;
                match best {
                    Some(v) => write!(f, "its best {noun} gives {v}"),
                    None => write!(f, "no {noun} agrees"),
                }
            }
        }
    }
}

impl ProbeError {
    /// Whether the tables present do not hold what the question needs: a missing table, or a
    /// missing file of a table that is there (what python-chess calls a missing table).
    #[must_use]
    pub const fn is_missing(&self) -> bool {
        matches!(
            self,
            ProbeError::MissingTable { .. } | ProbeError::MissingFile { .. }
        )
    }
}

/// Ends the `jtb gen` command of a message: `jtb gen` writes under `tables` unless told, so any
/// other table root is named with `--out`.
fn gen_out(f: &mut fmt::Formatter<'_>, root: Option<&Path>) -> fmt::Result {
    match root {
        Some(root) if !root.as_os_str().is_empty() && root != Path::new("tables") => {
            write!(f, " --out {}`)", root.display())
        }
        _ => f.write_str("`)"),
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
