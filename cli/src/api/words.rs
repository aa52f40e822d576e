//! The server's words over the edge's tables ([`jtb_edge::Tables`], which find, open, rescan
//! and memo them for every front end): what a request is answered when a rule set has no
//! tables, a table is missing or damaged, or a position is one no table holds, each file named
//! relative to the table root ([`ApiTables`]).

use std::{
    path::{Path, PathBuf},
    sync::Arc,
};

use jtb_edge::{games::EdgeGame, MissingFiles, Rules, Tables};
use jtb_probe::{Family, Material, ProbeError, RuleSet, TableError, TableErrorKind, Tablebase};

use super::{ApiError, Problem};

/// What the server says of the edge's tables, in the API's errors.
pub trait ApiTables {
    /// Runs `answer`, and once more if it met a missing table and the table directory has
    /// changed since it was scanned: a table generated while the server runs is found on the
    /// first request that needs it.
    ///
    /// # Errors
    /// `answer`'s error.
    fn answer<T>(&self, answer: impl Fn(&Tables) -> Result<T, ApiError>) -> Result<T, ApiError>;

    /// The tables of `rules`, of its game `G`'s type, or why there are none.
    ///
    /// # Errors
    /// 404 naming the missing directory and the command that makes the tables; 500 for a rule
    /// set that is not `G`'s.
    fn game_tables<G: EdgeGame>(&self, rules: Rules)
        -> Result<Arc<Tablebase<G::Tables>>, ApiError>;

    /// The materials of a Jungle-family rule set's tables (Clesto's included), fewest pieces
    /// first, or why there are none.
    ///
    /// # Errors
    /// As [`ApiTables::game_tables`].
    fn materials(&self, rules: RuleSet) -> Result<Vec<Material>, ApiError>;

    /// The number of tables of `rules` and the most pieces of any, or why it has none.
    ///
    /// # Errors
    /// As [`ApiTables::game_tables`].
    fn table_size(&self, rules: Rules) -> Result<(usize, usize), ApiError>;

    /// `path` as the API shows it: relative to the table root, so that an answer names the
    /// table file without telling where the server keeps it.
    fn show(&self, path: &Path) -> String;

    /// A missing table in the one wording ([`ProbeError::MissingTable`], as `jtb probe` says
    /// it), its file named relative to the root.
    fn missing<G: Family>(&self, rules: G, material: G::Material, path: &Path) -> ApiError {
        let missing = ProbeError::MissingTable {
            rules: rules.id(),
            material: rules.table_of(material).to_string(),
            path: PathBuf::from(self.show(path)),
        };
        ApiError::new(Problem::MissingTable, missing.to_string())
    }

    /// A table file's error, naming the file relative to the root: a file that is not there
    /// as [`ApiTables::missing`], any other as a damaged table.
    fn table_error<G: Family>(
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
    fn error<G: Family>(&self, e: ProbeError, rules: G) -> ApiError {
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
                ApiError::new(Problem::MissingTable, no_tables(rules.id()))
            }
            // The one wording, the file named relative to the root.
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

    /// [`ApiTables::error`] for a rule set named at run time.
    fn api_error(&self, e: ProbeError, rules: Rules) -> ApiError {
        jtb_edge::each_family!(rules, |r, _F| self.error(e, r))
    }

    /// The `missing` note of an answer in the API's words (each file named relative to the
    /// root); `None` when nothing is missing.
    fn missing_note(&self, rules: Rules, missing: &MissingFiles) -> Option<String> {
        missing.note_with(|e| self.api_error(e, rules).message)
    }
}

impl ApiTables for Tables {
    fn answer<T>(&self, answer: impl Fn(&Tables) -> Result<T, ApiError>) -> Result<T, ApiError> {
        match answer(self) {
            Err(e) if e.problem == Problem::MissingTable && self.refresh() => answer(self),
            other => other,
        }
    }

    fn game_tables<G: EdgeGame>(
        &self,
        rules: Rules,
    ) -> Result<Arc<Tablebase<G::Tables>>, ApiError> {
        self.of::<G>(rules).map_err(|e| open_error(rules, &e))
    }

    fn materials(&self, rules: RuleSet) -> Result<Vec<Material>, ApiError> {
        let rules = Rules::Jungle(rules);
        self.with_any(rules, jtb_edge::AnyTablebase::family_materials)
            .map_err(|e| open_error(rules, &e))?
            .ok_or_else(|| {
                ApiError::internal(format!("{rules}: its tables are held as another game's"))
            })
    }

    fn table_size(&self, rules: Rules) -> Result<(usize, usize), ApiError> {
        self.size(rules).map_err(|e| open_error(rules, &e))
    }

    fn show(&self, path: &Path) -> String {
        path.strip_prefix(self.root())
            .unwrap_or(path)
            .display()
            .to_string()
    }
}

/// The API's error for a rule set whose tables could not be opened: 404 naming its folder;
/// 500 for tables held as another game's (a bug).
fn open_error(rules: Rules, e: &jtb_edge::EdgeError) -> ApiError {
    match e {
        jtb_edge::EdgeError::Open(why) if matches!(**why, ProbeError::NotForRules { .. }) => {
            ApiError::internal(format!("{rules}: its tables are held as another game's"))
        }
        _ => ApiError::new(Problem::MissingTable, no_tables(rules.name())),
    }
}

/// A rule set (by name) without a table directory, in the one wording
/// ([`ProbeError::NoDirectory`]), its folder named relative to the root.
fn no_tables(rules: &str) -> String {
    let folder = PathBuf::from(format!("{rules}/"));
    ProbeError::NoDirectory(folder, std::io::ErrorKind::NotFound.into()).to_string()
}
