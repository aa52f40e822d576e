//! Positions from the command line or, for `-`, from standard input, one per line.

use std::{
    error::Error,
    fmt,
    io::{self, BufRead, Write},
    path::PathBuf,
};

use jtb_probe::Layout;
use serde_json::json;

pub use jtb_edge::Rules;
use jtb_edge::TableNameError;

/// Some position had no tables to answer it, and every other input was answered: the command
/// ends with exit status 3 (each such position's error line already says why).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Uncovered;

impl fmt::Display for Uncovered {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("some positions are not covered by the tables")
    }
}

impl Error for Uncovered {}

/// Options of the commands that answer positions one per line.
#[derive(clap::Args)]
pub struct PositionArgs {
    /// Rule set; by default the board's shape decides (9 ranks: mistboard, 4x4: flip4x4,
    /// 8x8: animal-gambit).
    #[arg(long)]
    pub rules: Option<Rules>,
    /// One JSON object per line.
    #[arg(long)]
    pub json: bool,
    /// Positions in position text; `-` reads one per line from standard input.
    #[arg(required = true, value_name = "POSITION")]
    pub positions: Vec<String>,
}

/// The table root directory.
#[derive(clap::Args)]
pub struct TablesArg {
    /// Table root directory (a rule set's tables are in DIR/<rules>/).
    #[arg(long = "tables", default_value = "tables", value_name = "DIR")]
    pub dir: PathBuf,
}

/// The tables of one rule set, for the commands that work on whole tables.
#[derive(clap::Args)]
pub struct TableSetArgs {
    #[command(flatten)]
    pub tables: TablesArg,
    /// Rule set.
    #[arg(long, default_value = "mistboard")]
    pub rules: Rules,
}

/// Which tables a generation or a plan covers: every material up to a piece count, or the
/// materials named (with the tables they need).
#[derive(clap::Args)]
pub struct TableChoice {
    /// Rule set.
    #[arg(long, default_value = "mistboard")]
    pub rules: Rules,
    /// Every material of 2 up to this many pieces (ignored with --material); under flip4x4
    /// also every chance table of 2 up to this many tiles, face up and face down.
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u8).range(2..=Layout::MAX_PIECES as i64))]
    pub max_pieces: u8,
    /// A material, e.g. `LRvE` (Red's animals, `v`, Blue's; either orientation), under
    /// flip4x4 also a chance table `LvE-Tw` (the revealed animals, `-`, the face-down ones as
    /// in the `?:` field), or under animal-gambit `ERvRR` (Gold's pieces, `v`, Silver's, upper
    /// case); repeatable. The tables it needs come first.
    #[arg(long = "material", value_name = "M")]
    pub materials: Vec<String>,
}

pub use jtb_edge::Targets;

impl TableChoice {
    /// The tables asked for: the materials named, else every material of 2 up to
    /// `--max-pieces`.
    ///
    /// # Errors
    /// A `--material` that is not a material of the rule set's game.
    pub fn targets(&self) -> Result<Targets, TableNameError> {
        self.rules
            .targets(&self.materials, usize::from(self.max_pieces))
    }

    /// The tables asked for and no others (`--no-deps`: [`Rules::named_targets`]).
    ///
    /// # Errors
    /// As [`TableChoice::targets`].
    pub fn named_targets(&self) -> Result<Targets, TableNameError> {
        self.rules
            .named_targets(&self.materials, usize::from(self.max_pieces))
    }
}

/// The worker threads of a command that works through whole tables.
#[derive(clap::Args)]
pub struct ThreadsArg {
    /// Worker threads (default: all cores).
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..))]
    threads: Option<u16>,
}

impl ThreadsArg {
    /// Sizes the global thread pool as asked; without `--threads` it keeps rayon's default.
    ///
    /// # Errors
    /// The pool was already built.
    pub fn apply(&self) -> Result<(), rayon::ThreadPoolBuildError> {
        match self.threads {
            Some(n) => rayon::ThreadPoolBuilder::new()
                .num_threads(n.into())
                .build_global(),
            None => Ok(()),
        }
    }
}

/// The positions named on the command line, with `-` expanded to the lines of standard input
/// (blank lines skipped). Calls `f` with each input text in order.
///
/// # Errors
/// Reading standard input failed.
pub fn for_each_input(args: &[String], mut f: impl FnMut(&str)) -> io::Result<()> {
    for arg in args {
        if arg == "-" {
            for line in io::stdin().lock().split(b'\n') {
                // A line that is not UTF-8 becomes a bad position (its error line says so),
                // not the end of the command.
                let line = String::from_utf8_lossy(&line?).into_owned();
                let text = line.trim();
                if !text.is_empty() {
                    f(text);
                }
            }
        } else {
            f(arg);
        }
    }
    Ok(())
}

/// Why one input line got no answer.
#[derive(Debug)]
pub enum AnswerError {
    /// `jtb adjudicate`: no tables cover the position (the message says why).
    NotCovered(String),
    /// The edge's answer failed (bad position, tables missing or damaged).
    Edge(jtb_edge::EdgeError),
}

impl fmt::Display for AnswerError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AnswerError::NotCovered(why) => f.write_str(why),
            AnswerError::Edge(e) => e.fmt(f),
        }
    }
}

impl Error for AnswerError {
    fn source(&self) -> Option<&(dyn Error + 'static)> {
        match self {
            AnswerError::NotCovered(_) => None,
            AnswerError::Edge(e) => Some(e),
        }
    }
}

impl From<jtb_edge::EdgeError> for AnswerError {
    fn from(e: jtb_edge::EdgeError) -> AnswerError {
        match e {
            // `jtb adjudicate` tells this one apart: exit status 3.
            jtb_edge::EdgeError::NotCovered(why) => AnswerError::NotCovered(why),
            e => AnswerError::Edge(e),
        }
    }
}

impl From<jtb_edge::PositionError> for AnswerError {
    fn from(e: jtb_edge::PositionError) -> AnswerError {
        AnswerError::Edge(e.into())
    }
}

/// Prints one answer per input position: `answer` gives the text to print, or an error message,
/// printed as `{"position": ..., "error": ...}` with `json` and as `error: <message>` otherwise
/// (`error: <position>: <message>` with `name_input`).
/// Returns whether every position was answered.
///
/// # Errors
/// Reading standard input or writing standard output failed.
pub fn answer_each(
    positions: &[String],
    json: bool,
    name_input: bool,
    mut answer: impl FnMut(&str) -> Result<String, AnswerError>,
) -> io::Result<bool> {
    let mut out = io::stdout().lock();
    let mut all_good = true;
    let mut written = Ok(());
    for_each_input(positions, |text| {
        if written.is_err() {
            return;
        }
        let line = answer(text).unwrap_or_else(|e| {
            all_good = false;
            if json {
                json!({"position": text, "error": e.to_string()}).to_string()
            } else if name_input {
                format!("error: {text}: {e}")
            } else {
                format!("error: {e}")
            }
        });
        written = writeln!(out, "{line}");
    })?;
    written?;
    Ok(all_good)
}
