//! What the tables say of a position: [`Answer`] for `jtb probe`, [`Verdict`] for
//! `jtb adjudicate`, each with the JSON object the CLI prints (the Python package returns the
//! same objects) and, for [`Answer`], the CLI's text. Each game's answer and verdict are in its
//! module of `games/`.

use jtb_probe::{ProbeError, ProbeResult};
use serde_json::Value as Json;

use crate::{
    games::{EdgeGame, GameAnswer, GameVerdict},
    AnyPosition, AnyTablebase, ChanceAnswer, ClestoAnswer, EdgeError, GambitAnswer, GambitVerdict,
    JungleAnswer, JungleVerdict,
};

/// The answer of `jtb probe` for a position of one of the games (one variant per game, as
/// [`AnyPosition`]'s).
#[derive(Debug, Clone, PartialEq)]
pub enum Answer {
    /// Jungle and the flip game: the value with its distance to mate and under the clock rule,
    /// or with face-down tiles the flip game's chance values.
    Jungle(JungleGameAnswer),
    /// Clesto: no draws and no clock; wins by the repetition ban.
    Clesto(ClestoAnswer),
    /// Animal Gambit: the distance to mate in turns.
    Gambit(GambitAnswer),
}

/// The answer for a position of Jungle or the flip game.
// One answer at a time, never stored in bulk: boxing the larger variant would only add an
// allocation.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone, PartialEq)]
pub enum JungleGameAnswer {
    /// All pieces revealed: the value with its distance to mate, and the value under the
    /// clock rule at the position's clock.
    Revealed(JungleAnswer),
    /// The flip game with face-down tiles: exact chance values at the position's clock (boxed:
    /// it carries every move's outcomes).
    Chance(Box<ChanceAnswer>),
}

impl JungleGameAnswer {
    fn game(&self) -> &dyn GameAnswer {
        match self {
            JungleGameAnswer::Revealed(a) => a,
            JungleGameAnswer::Chance(a) => &**a,
        }
    }
}

impl GameAnswer for JungleGameAnswer {
    fn json(&self, text: &str) -> Json {
        self.game().json(text)
    }

    fn best(&self) -> Option<&str> {
        self.game().best()
    }

    fn line(&self) -> Option<Vec<String>> {
        self.game().line()
    }

    fn missing(&self) -> Option<String> {
        self.game().missing()
    }

    fn exact_fractions(&self) -> &'static [&'static str] {
        self.game().exact_fractions()
    }

    fn text(&self, text: &str) -> String {
        self.game().text(text)
    }
}

impl Answer {
    /// The JSON object `jtb probe --json` prints for the input `text`.
    #[must_use]
    pub fn json(&self, text: &str) -> Json {
        self.game().json(text)
    }

    /// What `jtb probe` prints for the input `text` (without `--json`).
    #[must_use]
    pub fn text(&self, text: &str) -> String {
        self.game().text(text)
    }

    /// The best move, where there is one.
    #[must_use]
    pub fn best(&self) -> Option<&str> {
        self.game().best()
    }

    /// The best line (Animal Gambit's turns), when it was asked; `None` for a position with
    /// face-down tiles, whose flips are chance.
    #[must_use]
    pub fn line(&self) -> Option<Vec<String>> {
        self.game().line()
    }

    /// The note naming the files of the position's tables that the set does not hold (a set
    /// of WDL files alone), where the answer needed one: its fields that need them are `null`.
    #[must_use]
    pub fn missing(&self) -> Option<String> {
        self.game().missing()
    }

    /// The fields of [`Answer::json`] whose strings are exact fractions (`"5/8"`), at every
    /// depth: a chance position's values and its flips' probabilities; none elsewhere.
    #[must_use]
    pub fn exact_fractions(&self) -> &'static [&'static str] {
        self.game().exact_fractions()
    }

    fn game(&self) -> &dyn GameAnswer {
        each_game!(self, Answer, |a, _G| a as &dyn GameAnswer)
    }
}

/// Whether a position can be stopped: `jtb adjudicate`'s answer.
// One answer at a time, never stored in bulk: boxing would only add an allocation.
#[allow(clippy::large_enum_variant)]
#[derive(Debug)]
pub enum Verdict {
    /// A position of Jungle or the flip game: whether it is a dead draw at its clock, and why.
    Jungle(JungleVerdict),
    /// A Clesto position: the same, under Clesto's rules (its tables decide what they cover).
    Clesto(JungleVerdict),
    /// An Animal Gambit position the tables settle (it has no move-count draw).
    Gambit(GambitVerdict),
}

impl Verdict {
    /// The position adjudicated.
    #[must_use]
    pub fn position(&self) -> AnyPosition {
        self.game().position()
    }

    /// Whether the game can be stopped now: a dead draw at the clock, or (Animal Gambit) a
    /// result the tables settle.
    #[must_use]
    pub fn is_settled(&self) -> bool {
        self.game().is_settled()
    }

    /// Adjudicates `pos` with one rule set's `tables` (or none: a one-animal-each flip position
    /// needs none), as [`Tables::adjudicate`](crate::Tables::adjudicate) does with a directory
    /// of every rule set's: for a caller that holds one rule set's tables (the C ABI's handle).
    ///
    /// # Errors
    /// As [`Tables::adjudicate`](crate::Tables::adjudicate); tables of another game than the
    /// position's, or none where they are needed, are [`EdgeError::NotCovered`].
    pub fn with(tables: Option<&AnyTablebase>, pos: AnyPosition) -> Result<Verdict, EdgeError> {
        each_game!(pos, AnyPosition, |pos, G| {
            let tables = match tables {
                Some(any) => G::tables(any).map(|tb| &**tb).ok_or_else(|| {
                    EdgeError::NotCovered(format!(
                        "{} tables given for a position of {}",
                        any.rules().name(),
                        G::rules(&pos).name()
                    ))
                }),
                None => Err(EdgeError::NotCovered("no tables".to_owned())),
            };
            G::adjudicate(tables, pos)
        })
    }

    /// Whether the position is drawn at once by the move-count rule (never in Animal Gambit).
    #[must_use]
    pub fn is_dead_draw(&self) -> bool {
        self.game().is_dead_draw()
    }

    /// The value without the clock for the side to move, where the tables give one by force
    /// ([`GameVerdict::value`]).
    #[must_use]
    pub fn value(&self) -> Option<jtb_probe::Value> {
        self.game().value()
    }

    /// The verdict in a few words: `dead draw` or `play on`; `settled by the tables`.
    #[must_use]
    pub fn status(&self) -> &'static str {
        self.game().status()
    }

    /// Why, in words.
    #[must_use]
    pub fn reason(&self) -> String {
        self.game().reason()
    }

    /// The JSON object `jtb adjudicate --json` prints for the input `text`.
    #[must_use]
    pub fn json(&self, text: &str) -> Json {
        self.game().json(text)
    }

    fn game(&self) -> &dyn GameVerdict {
        each_game!(self, Verdict, |v, _G| v as &dyn GameVerdict)
    }
}

/// The files of a position's tables that a set does not hold (a set of WDL files alone, as an
/// engine ships it): each answer field that needs one is `null`, and the answer's `"missing"`
/// note names them ([`ProbeError::MissingFile`]'s words, one per file).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct MissingFiles(Vec<MissingFile>);

/// One file a set does not hold: [`ProbeError::MissingFile`]'s fields.
#[derive(Debug, Clone, PartialEq, Eq)]
struct MissingFile {
    rules: &'static str,
    material: String,
    kind: jtb_probe::Kind,
    path: std::path::PathBuf,
}

impl MissingFiles {
    /// `probed`'s value; `None`, noted, where it needs a file the set does not hold.
    ///
    /// # Errors
    /// `probed`'s other errors (a table that is not there at all, a damaged file).
    pub fn or_note<T>(&mut self, probed: ProbeResult<T>) -> ProbeResult<Option<T>> {
        match probed {
            Ok(value) => Ok(Some(value)),
            Err(ProbeError::MissingFile {
                rules,
                material,
                kind,
                path,
            }) => {
                let file = MissingFile {
                    rules,
                    material,
                    kind,
                    path,
                };
                if !self.0.contains(&file) {
                    self.0.push(file);
                }
                Ok(None)
            }
            Err(e) => Err(e),
        }
    }

    /// The note: every missing file's words, joined; `None` when nothing is missing.
    #[must_use]
    pub fn note(&self) -> Option<String> {
        self.note_with(|e| e.to_string())
    }

    /// The note with each missing file's error in `words` (a server names the file relative
    /// to its table root); `None` when nothing is missing.
    #[must_use]
    pub fn note_with(&self, words: impl Fn(ProbeError) -> String) -> Option<String> {
        let notes: Vec<String> = self
            .0
            .iter()
            .map(|f| {
                words(ProbeError::MissingFile {
                    rules: f.rules,
                    material: f.material.clone(),
                    kind: f.kind,
                    path: f.path.clone(),
                })
            })
            .collect();
        (!notes.is_empty()).then(|| notes.join("; "))
    }

    /// Adds the `"missing"` note to an answer's JSON object, where a file is missing (a whole
    /// set's answers keep their keys).
    pub fn add_to(&self, obj: &mut Json) {
        crate::games::add_missing(obj, self.note());
    }

    /// The note as a line of `jtb probe`'s text, where a file is missing.
    #[must_use]
    pub fn text(&self) -> String {
        self.note()
            .map_or_else(String::new, |note| format!("missing: {note}\n"))
    }
}
