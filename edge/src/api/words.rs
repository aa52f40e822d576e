//! What the API says of the edge's tables: a rule set without tables, a table missing or
//! damaged, a position no table holds, each file named relative to the table root.

use std::{
    path::{Path, PathBuf},
    sync::Arc,
};

use jtb_probe::{Family, ProbeError, TableError, TableErrorKind};

use super::{ApiError, Problem};
use crate::{AnyPosition, EdgeError, MissingFiles, Rules, Tables};

/// Longer position text is refused before it is parsed: the longest canonical text of a Jungle
/// position with its clocks is under 100 bytes.
pub const MAX_POSITION_BYTES: usize = 256;

/// The position `text` of `rules` with its clock (the text `clock`, else the position text's,
/// else 0; none in a game without a clock), as the position routes read them.
///
/// # Errors
/// 400 for text too long to parse, bad position text, or a clock that is no number, above the
/// limit or given for a game without one.
pub fn position(rules: Rules, text: &str, clock: Option<&str>) -> Result<AnyPosition, ApiError> {
    if text.len() > MAX_POSITION_BYTES {
        return Err(ApiError::bad_query(format!(
            "position text of {} bytes: at most {MAX_POSITION_BYTES}",
            text.len()
        )));
    }
    let clock = clock.map(|c| parse_clock(c, rules)).transpose()?;
    Ok(AnyPosition::parse(text, Some(rules), clock)?)
}

/// A `clock` parameter: a whole number of half-moves (the limit is checked with the position).
fn parse_clock(text: &str, rules: Rules) -> Result<u32, ApiError> {
    let shown: String = text.chars().take(20).collect();
    let Some(limit) = rules.clock_limit() else {
        return Err(ApiError::new(
            Problem::BadClock,
            format!("rule set {rules} has no clock rule: no `clock` parameter"),
        ));
    };
    let digits = !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit());
    match text.parse::<u32>() {
        Ok(c) if digits => Ok(c),
        _ if digits => Err(ApiError::new(
            Problem::BadClock,
            format!("clock {shown} is above the limit of {limit} for {rules}"),
        )),
        _ => Err(ApiError::new(
            Problem::BadClock,
            format!(
                "clock `{}` is not a number of half-moves (0 to {limit} for {rules})",
                shown.escape_debug()
            ),
        )),
    }
}

/// The answer of `/steps` (Animal Gambit's turn played one step at a time): the board after
/// `steps`, the steps that may follow, the turn they make where it may end.
///
/// # Errors
/// 400 for steps that are no legal beginning of a turn, and for the rule sets whose moves are
/// single steps.
pub fn turn_steps(pos: &AnyPosition, steps: &str) -> Result<serde_json::Value, ApiError> {
    match pos.steps_json(steps) {
        Some(Ok(answer)) => Ok(answer),
        Some(Err(why)) => Err(ApiError::new(Problem::BadTurn, why)),
        None => Err(not_turns(pos.rules())),
    }
}

/// The answer of `/steps` under a rule set whose moves are single steps.
#[must_use]
pub fn not_turns(rules: Rules) -> ApiError {
    ApiError::new(
        Problem::NotForRules,
        format!(
            "rule set {rules} has no turns of several steps: a move is one step (from-square \
             to-square), listed by /api/v1/{rules}/moves"
        ),
    )
}

/// The rule set called `name`.
///
/// # Errors
/// 404 when there is none, naming the known ones.
pub fn rule_set(name: &str) -> Result<Rules, ApiError> {
    name.parse().map_err(|_| {
        let known: Vec<&str> = Rules::all().into_iter().map(Rules::name).collect();
        let shown: String = name.chars().take(40).collect();
        ApiError::new(
            Problem::UnknownRules,
            format!(
                "unknown rule set `{}` (known: {})",
                shown.escape_debug(),
                known.join(", ")
            ),
        )
    })
}

/// The API's error for a rule set whose tables could not be opened: 404 naming its folder;
/// 500 for tables held as another game's (a bug).
#[must_use]
pub fn open_error(rules: Rules, e: &EdgeError) -> ApiError {
    match e {
        EdgeError::Open(why) if matches!(**why, ProbeError::NotForRules { .. }) => {
            ApiError::internal(format!("{rules}: its tables are held as another game's"))
        }
        _ => ApiError::new(Problem::MissingTable, no_tables(rules.name())),
    }
}

/// A rule set (by name) without a table directory, in the one wording
/// ([`ProbeError::NoDirectory`]), its folder named relative to the root.
#[must_use]
pub fn no_tables(rules: &str) -> String {
    let folder = PathBuf::from(format!("{rules}/"));
    ProbeError::NoDirectory(folder, std::io::ErrorKind::NotFound.into()).to_string()
}

impl Tables {
    /// The API error of a question the tables could not answer ([`EdgeError`]).
    #[must_use]
    pub fn edge_error(&self, e: EdgeError, rules: Rules) -> ApiError {
        match e {
            EdgeError::Position(e) => e.into(),
            EdgeError::Open(_) => open_error(rules, &e),
            EdgeError::Probe(e) => match Arc::try_unwrap(e) {
                Ok(e) => self.api_error(e, rules),
                // Shared (kept by a memo): its own words.
                Err(shared) => ApiError::new(problem_of(&shared), shared.to_string()),
            },
            EdgeError::NotCovered(why) => ApiError::new(Problem::MissingTable, why),
        }
    }

    /// `path` as the API shows it: relative to the table root, so that an answer names the
    /// table file without telling where the server keeps it.
    #[must_use]
    pub fn show(&self, path: &Path) -> String {
        path.strip_prefix(self.root())
            .unwrap_or(path)
            .display()
            .to_string()
    }

    /// A missing table in the one wording ([`ProbeError::MissingTable`], as `jtb probe` says
    /// it), its file named relative to the root.
    #[must_use]
    pub fn missing_table<G: Family>(
        &self,
        rules: G,
        material: G::Material,
        path: &Path,
    ) -> ApiError {
        let missing = ProbeError::MissingTable {
            rules: rules.id(),
            material: rules.table_of(material).to_string(),
            path: PathBuf::from(self.show(path)),
        };
        ApiError::new(Problem::MissingTable, missing.to_string())
    }

    /// A table file's error, naming the file relative to the root: a file that is not there
    /// as [`Tables::missing_table`], any other as a damaged table.
    #[must_use]
    pub fn table_error<G: Family>(
        &self,
        mut e: TableError,
        rules: G,
        material: G::Material,
    ) -> ApiError {
        if matches!(&e.kind, TableErrorKind::Io(io) if io.kind() == std::io::ErrorKind::NotFound) {
            return self.missing_table(rules, material, &e.path);
        }
        e.path = PathBuf::from(self.show(&e.path));
        ApiError::new(Problem::DamagedTable, e.to_string())
    }

    /// The API error of a failed probe of a position of `rules`: 400 for a position no table
    /// can hold (a finished game, face-down tiles), 404 for a table that is not there, 500 for
    /// damaged or inconsistent tables. Every message names the table file where there is one.
    #[must_use]
    pub fn api_error(&self, e: ProbeError, rules: Rules) -> ApiError {
        crate::each_family!(rules, |r, _F| self.family_error(e, r))
    }

    /// [`Tables::api_error`] for a type of rule sets.
    fn family_error<G: Family>(&self, e: ProbeError, rules: G) -> ApiError {
        let problem = problem_of(&e);
        let message = match e {
            ProbeError::NoDirectory(..) => no_tables(rules.id()),
            // The one wording, the file named relative to the root.
            mut missing @ (ProbeError::MissingTable { .. } | ProbeError::MissingFile { .. }) => {
                if let ProbeError::MissingTable { path, .. }
                | ProbeError::MissingFile { path, .. } = &mut missing
                {
                    *path = PathBuf::from(self.show(path));
                }
                missing.to_string()
            }
            ProbeError::Table(t) => {
                let material = t
                    .path
                    .file_stem()
                    .and_then(|s| G::material_named(s.to_str()?));
                return match material {
                    Some(m) => self.table_error(*t, rules, m),
                    None => ApiError::new(problem, t.to_string()),
                };
            }
            e => e.to_string(),
        };
        ApiError::new(problem, message)
    }

    /// The `missing` note of an answer in the API's words (each file named relative to the
    /// root); `None` when nothing is missing.
    #[must_use]
    pub fn missing_note(&self, rules: Rules, missing: &MissingFiles) -> Option<String> {
        missing.note_with(|e| self.api_error(e, rules).message)
    }
}

/// The kind of problem a failed probe is: 400 for a position no table can hold (a finished
/// game, face-down tiles), 404 for a table that is not there, 500 for damaged or inconsistent
/// tables.
fn problem_of(e: &ProbeError) -> Problem {
    match e {
        ProbeError::GameOver => Problem::GameOver,
        ProbeError::HiddenTiles | ProbeError::HiddenSetUnknown | ProbeError::NoFaceDownTiles => {
            Problem::HiddenTiles
        }
        // A value Clesto's tables do not hold (DTC, a draw): the Clesto endpoints ask for
        // Clesto values, so only a bug gets here, and it is still no 500.
        ProbeError::NotForRules { .. } => Problem::NotForRules,
        ProbeError::NoDirectory(..)
        | ProbeError::MissingTable { .. }
        | ProbeError::MissingFile { .. } => Problem::MissingTable,
        ProbeError::Table(_) | ProbeError::Inconsistent { .. } => Problem::DamagedTable,
        // Only inside `in_memory_only`, whose refused answers are never sent.
        ProbeError::WrongRules { .. } | ProbeError::NotInMemory => Problem::Internal,
    }
}
