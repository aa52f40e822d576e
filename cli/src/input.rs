//! Positions from the command line or, for `-`, from standard input, one per line.

use std::{
    collections::HashMap,
    error::Error,
    fmt,
    hash::Hash,
    io::{self, BufRead, Write},
    path::PathBuf,
    sync::Arc,
};

use jtb_probe::{
    gambit, ClockError, Game, Layout, Material, ParseError, Position, ProbeError, RuleSet,
    Tablebase, UnknownRuleSet,
};
use serde_json::json;

/// The id of the Animal Gambit rule set.
pub const ANIMAL_GAMBIT: &str = "animal-gambit";

/// A rule set as `--rules` names it: one of the Jungle family's, or Animal Gambit's.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rules {
    /// A rule set of the Jungle family (Jungle, the flip game and Clesto).
    Jungle(RuleSet),
    /// Animal Gambit (Arimaa), rule set `animal-gambit`.
    AnimalGambit,
}

impl std::str::FromStr for Rules {
    type Err = UnknownRuleSet;

    fn from_str(s: &str) -> Result<Rules, UnknownRuleSet> {
        if s == ANIMAL_GAMBIT {
            Ok(Rules::AnimalGambit)
        } else {
            s.parse().map(Rules::Jungle)
        }
    }
}

/// A command without an Animal Gambit side was asked for Animal Gambit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NoGambitTables;

impl fmt::Display for NoGambitTables {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(
            "this command has no Animal Gambit side yet (gen, probe, adjudicate, stats, info \
             and verify take --rules animal-gambit; `jtb moves` lists a position's turns)",
        )
    }
}

impl Error for NoGambitTables {}

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
    /// Every material of 2 up to this many pieces (ignored with --material).
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u8).range(2..=Layout::MAX_PIECES as i64))]
    pub max_pieces: u8,
    /// A material, e.g. `LRvE` (Red's animals, `v`, Blue's; either orientation), or under
    /// animal-gambit `ERvRR` (Gold's pieces, `v`, Silver's, upper case); repeatable. The
    /// tables it needs come first.
    #[arg(long = "material", value_name = "M")]
    pub materials: Vec<String>,
}

/// The tables asked for, in their game's materials.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Targets {
    /// Tables of a Jungle-family rule set.
    Jungle(RuleSet, Vec<Material>),
    /// Animal Gambit tables.
    Gambit(Vec<gambit::Material>),
}

impl TableChoice {
    /// The tables asked for: the materials named, else every material of 2 up to
    /// `--max-pieces`.
    ///
    /// # Errors
    /// A `--material` that is not a material of the rule set's game.
    pub fn targets(&self) -> Result<Targets, MaterialArgError> {
        match self.rules {
            Rules::Jungle(rules) => Ok(Targets::Jungle(
                rules,
                if self.materials.is_empty() {
                    Material::all_tables(rules, 2, self.max_pieces.into())
                } else {
                    self.materials
                        .iter()
                        .map(|m| table_material(m))
                        .collect::<Result<_, _>>()?
                },
            )),
            Rules::AnimalGambit => Ok(Targets::Gambit(if self.materials.is_empty() {
                gambit::Material::all(2, self.max_pieces.into())
            } else {
                self.materials
                    .iter()
                    .map(|m| m.parse().map_err(MaterialArgError::Gambit))
                    .collect::<Result<_, _>>()?
            })),
        }
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

/// Why a `--material` is refused.
#[derive(Debug)]
pub enum MaterialArgError {
    /// Not a material.
    Bad(jtb_probe::BadMaterial),
    /// Not an Animal Gambit material.
    Gambit(gambit::BadMaterial),
    /// More pieces than a table holds.
    TooManyPieces(Material),
}

impl fmt::Display for MaterialArgError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MaterialArgError::Bad(e) => e.fmt(f),
            MaterialArgError::Gambit(e) => e.fmt(f),
            MaterialArgError::TooManyPieces(m) => write!(
                f,
                "{m} has {} pieces; tables hold at most {}",
                m.total(),
                Layout::MAX_PIECES
            ),
        }
    }
}

impl Error for MaterialArgError {
    fn source(&self) -> Option<&(dyn Error + 'static)> {
        match self {
            MaterialArgError::Bad(e) => Some(e),
            MaterialArgError::Gambit(e) => Some(e),
            MaterialArgError::TooManyPieces(_) => None,
        }
    }
}

/// A material that tables can hold (clap's parser of `--material`): a side of each colour and
/// at most [`Layout::MAX_PIECES`] pieces.
pub fn table_material(text: &str) -> Result<Material, MaterialArgError> {
    let m: Material = text.parse().map_err(MaterialArgError::Bad)?;
    if m.total() > Layout::MAX_PIECES {
        return Err(MaterialArgError::TooManyPieces(m));
    }
    Ok(m)
}

impl PositionArgs {
    /// Whether `text` is to be read as an Animal Gambit position: `--rules animal-gambit`, or
    /// no `--rules` and an 8x8 board.
    pub fn is_gambit(&self, text: &str) -> bool {
        match self.rules {
            Some(Rules::AnimalGambit) => true,
            Some(Rules::Jungle(_)) => false,
            None => is_gambit_shape(text),
        }
    }

    /// The Jungle-family rule set asked for, if any (`None` also under animal-gambit, whose
    /// positions [`PositionArgs::is_gambit`] sends elsewhere).
    pub fn jungle(&self) -> Option<RuleSet> {
        match self.rules {
            Some(Rules::Jungle(r)) => Some(r),
            _ => None,
        }
    }
}

/// Whether the board field of `text` has 8 ranks, the shape of an Animal Gambit board (the
/// Jungle boards have 9 and 4).
pub fn is_gambit_shape(text: &str) -> bool {
    text.split_whitespace()
        .next()
        .is_some_and(|board| board.split('/').count() == 8)
}

/// Parses `text` under `rules`, or by the board's shape when no rule set was given.
pub fn parse(text: &str, rules: Option<RuleSet>) -> Result<Position, ParseError> {
    Position::parse(text, rules)
}

/// The tables of each rule set of one game under one root, opened on first use.
pub struct Tablebases<G: Game> {
    root: PathBuf,
    open: HashMap<G, Result<Tablebase<G>, Arc<ProbeError>>>,
}

impl<G: Game + Hash> Tablebases<G> {
    pub fn new(root: PathBuf) -> Tablebases<G> {
        Tablebases {
            root,
            open: HashMap::new(),
        }
    }

    /// The tables of `rules`, or why the directory could not be opened. The CLI reads table
    /// files with positioned reads, not memory maps: it probes a few positions per run, where
    /// a map saves nothing, and a file replaced while it runs cannot crash it.
    pub fn get(&mut self, rules: G) -> Result<&Tablebase<G>, AnswerError> {
        let root = &self.root;
        self.open
            .entry(rules)
            .or_insert_with(|| Tablebase::open(root, rules).map_err(Arc::new))
            .as_ref()
            .map_err(|e| AnswerError::Open(Arc::clone(e)))
    }
}

/// Why one input line got no answer.
#[derive(Debug)]
pub enum AnswerError {
    /// The position text is malformed.
    Parse(ParseError),
    /// The clock is above the rule set's limit.
    Clock(ClockError),
    /// The Animal Gambit position text is malformed.
    Gambit(gambit::ParseError),
    /// An Animal Gambit position given to a command that has no Animal Gambit side yet.
    NoGambitTables,
    /// `jtb adjudicate`: no tables cover the position (the message says why).
    NotCovered(String),
    /// The table directory could not be opened.
    Open(Arc<ProbeError>),
    /// A probe failed.
    Probe(ProbeError),
}

impl fmt::Display for AnswerError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AnswerError::Parse(e) => e.fmt(f),
            AnswerError::Clock(e) => e.fmt(f),
            AnswerError::Gambit(e) => e.fmt(f),
            AnswerError::NoGambitTables => NoGambitTables.fmt(f),
            AnswerError::NotCovered(why) => f.write_str(why),
            AnswerError::Open(e) => e.fmt(f),
            AnswerError::Probe(e) => e.fmt(f),
        }
    }
}

impl Error for AnswerError {
    fn source(&self) -> Option<&(dyn Error + 'static)> {
        match self {
            AnswerError::Parse(e) => Some(e),
            AnswerError::Clock(e) => Some(e),
            AnswerError::NoGambitTables | AnswerError::NotCovered(_) => None,
            AnswerError::Gambit(e) => Some(e),
            AnswerError::Open(e) => Some(e.as_ref()),
            AnswerError::Probe(e) => Some(e),
        }
    }
}

impl From<ParseError> for AnswerError {
    fn from(e: ParseError) -> AnswerError {
        AnswerError::Parse(e)
    }
}

impl From<ProbeError> for AnswerError {
    fn from(e: ProbeError) -> AnswerError {
        AnswerError::Probe(e)
    }
}

impl From<gambit::ParseError> for AnswerError {
    fn from(e: gambit::ParseError) -> AnswerError {
        AnswerError::Gambit(e)
    }
}

/// Refuses a clock for a rule set without a move-count rule (Animal Gambit), as
/// [`Position::set_rule_clock`] refuses one for Clesto.
///
/// # Errors
/// [`AnswerError::Clock`] when a clock was given.
pub fn refuse_clock(rules: &'static str, clock: Option<u32>) -> Result<(), AnswerError> {
    match clock {
        Some(clock) => Err(AnswerError::Clock(ClockError {
            rules,
            clock,
            limit: 0,
        })),
        None => Ok(()),
    }
}

/// As [`parse`], with the half-move clock set to `clock` when given (else the text's, else 0).
/// Without a rule set, an 8x8 board is an Animal Gambit position, which has no tables yet.
pub fn parse_with_clock(
    text: &str,
    rules: Option<RuleSet>,
    clock: Option<u32>,
) -> Result<Position, AnswerError> {
    if rules.is_none() && is_gambit_shape(text) {
        return Err(AnswerError::NoGambitTables);
    }
    let mut pos = parse(text, rules)?;
    pos.set_rule_clock(clock).map_err(AnswerError::Clock)?;
    Ok(pos)
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
