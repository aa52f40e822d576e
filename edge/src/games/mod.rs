//! The games the edge serves, one module each. What the edge's enums
//! ([`AnyPosition`](crate::AnyPosition), [`AnyTablebase`]) and [`Tables`] ask of a game is
//! [`EdgeGame`], implemented by [`Jungle`], [`Clesto`] and [`Gambit`];
//! [`each_game!`](crate::each_game) is the one list of the games, and each question matches it
//! once. A front end with questions of its own (the server's routes) implements a trait of its
//! own on the same types and dispatches through the same macro. Each game's answers to
//! `jtb probe` and `jtb adjudicate` implement [`GameAnswer`] and [`GameVerdict`].

use std::sync::Arc;

use jtb_probe::{Indexed, ProbeResult, Tablebase, Wdl};

use crate::{
    Answer, AnyTablebase, EdgeError, MissingFiles, Played, PositionError, Rules, Tables, Verdict,
};

/// Evaluates `$body` for the game of `$value`, a value of one of the edge's enums with a
/// variant per game ([`AnyPosition`](crate::AnyPosition), [`AnyTablebase`](crate::AnyTablebase)),
/// with the variant's contents bound to `$x` and `$G` naming the game's
/// [`EdgeGame`](crate::games::EdgeGame) type. The one list of the games: a game added to the
/// edge is one line here and one variant in each of those enums.
///
/// ```
/// use jtb_edge::{each_game, games::EdgeGame, AnyPosition};
///
/// let pos = AnyPosition::parse("7/7/7/7/7/3l3/7/3E3/7 r", None, None).unwrap();
/// let side = each_game!(&pos, AnyPosition, |p, G| G::side_to_move(p));
/// assert_eq!(side, "red");
/// ```
#[macro_export]
macro_rules! each_game {
    ($value:expr, $Enum:ident, |$x:pat_param, $G:ident| $body:expr) => {
        match $value {
            $Enum::Jungle($x) => {
                #[allow(dead_code)]
                type $G = $crate::games::Jungle;
                $body
            }
            $Enum::Clesto($x) => {
                #[allow(dead_code)]
                type $G = $crate::games::Clesto;
                $body
            }
            $Enum::Gambit($x) => {
                #[allow(dead_code)]
                type $G = $crate::games::Gambit;
                $body
            }
        }
    };
}

pub(crate) mod clesto;
pub(crate) mod flip;
pub(crate) mod gambit;
pub(crate) mod jungle;

pub use clesto::Clesto;
pub use gambit::Gambit;
pub use jungle::Jungle;

/// What the edge asks of one game: its positions as texts and moves, its tables' answers.
/// Implemented once per game, in the game's module, on a type of its own ([`Jungle`] serves
/// Jungle and the flip game, whose positions with face-down tiles it hands to the flip game's
/// chance tables).
pub trait EdgeGame {
    /// The game's position type.
    type Position;
    /// The type its tables are a [`Tablebase`] of.
    type Tables: Indexed;

    /// Whether every value of its tables has a distance to mate ([`EdgeGame::value`] is never
    /// `None`): not in Clesto, where the repetition ban decides without one.
    const DTM_OF_EVERY_VALUE: bool = true;

    /// The position's rule set.
    fn rules(pos: &Self::Position) -> Rules;

    /// The side to move (`red`, `blue`; `gold`, `silver`).
    fn side_to_move(pos: &Self::Position) -> &'static str;

    /// The half-move clock of the position (`None` where its text gave none, and in a game
    /// without a clock).
    fn clock(pos: &Self::Position) -> Option<u32>;

    /// The legal moves (turns) in their canonical text, sorted as ASCII strings; none once the
    /// game is over.
    fn moves(pos: &Self::Position) -> Vec<String>;

    /// The API's object of the legal moves (`GET /api/v1/{rules}/moves`; no tables needed):
    /// each with the position it gives or how it ends the game, and what the game adds (the
    /// flips of face-down tiles and their outcomes, Clesto's starvations and hungry set).
    fn moves_json(pos: &Self::Position) -> serde_json::Value;

    /// Whether no move can be played.
    fn is_game_over(pos: &Self::Position) -> bool;

    /// Plays the move or turn `mv`.
    ///
    /// # Errors
    /// As [`AnyPosition::play`](crate::AnyPosition::play).
    fn play(pos: &Self::Position, mv: &str) -> Result<Played, PositionError>;

    /// Writes `pos` into bytes 1.. of its packed record (byte 0, the rule set's code, is
    /// written by [`AnyPosition::pack`](crate::AnyPosition::pack)).
    fn pack(pos: &Self::Position, out: &mut [u8; crate::PACKED_LEN]);

    /// Sets the clock the clock rule reads: the position's own, else 0 (a game without a clock
    /// has nothing to set).
    ///
    /// # Errors
    /// The clock is above the rule set's limit.
    fn set_rule_clock(pos: &mut Self::Position) -> Result<(), PositionError>;

    /// The game's tables among every rule set's; `None` for another game's.
    fn tables(any: &AnyTablebase) -> Option<&Arc<Tablebase<Self::Tables>>>;

    /// The rule set of `tb`.
    fn tables_rules(tb: &Tablebase<Self::Tables>) -> Rules;

    /// The game's position of `pos`, where it is one.
    fn position_of(pos: &crate::AnyPosition) -> Option<&Self::Position>;

    /// As [`AnyTablebase::wdl`].
    ///
    /// # Errors
    /// As the game's probe.
    fn wdl(tb: &Tablebase<Self::Tables>, pos: &Self::Position) -> ProbeResult<Wdl>;

    /// [`EdgeGame::wdl`] of each of `positions`, `each(i, wdl)` in order. Provided: one by
    /// one; a game whose WDL is its WDL file's entry reads them in bulk
    /// ([`Tablebase::probe_wdl_many`]).
    fn wdl_many(
        tb: &Tablebase<Self::Tables>,
        positions: &[&Self::Position],
        each: &mut dyn FnMut(usize, ProbeResult<Wdl>),
    ) {
        for (i, pos) in positions.iter().enumerate() {
            each(i, Self::wdl(tb, pos));
        }
    }

    /// As [`AnyTablebase::value`].
    ///
    /// # Errors
    /// As the game's probe.
    fn value(
        tb: &Tablebase<Self::Tables>,
        pos: &Self::Position,
    ) -> ProbeResult<Option<jtb_probe::Value>>;

    /// As [`AnyTablebase::best_move`].
    ///
    /// # Errors
    /// As the game's probe.
    fn best_move(tb: &Tablebase<Self::Tables>, pos: &Self::Position)
        -> ProbeResult<Option<String>>;

    /// As [`Tables::probe`].
    ///
    /// # Errors
    /// As [`Tables::probe`].
    fn probe(tables: &Tables, pos: Self::Position, line: bool) -> Result<Answer, EdgeError>;

    /// A turn of several steps played one step at a time (the API's `/steps`): `None` in a
    /// game whose moves are single steps.
    ///
    /// # Errors
    /// The steps are no legal beginning of a turn (the message names the first that does not
    /// follow).
    fn steps_json(pos: &Self::Position, steps: &str) -> Option<Result<serde_json::Value, String>> {
        let _ = (pos, steps);
        None
    }

    /// As [`Tables::api_text`].
    ///
    /// # Errors
    /// As [`Tables::api_text`].
    fn api_text(
        tables: &Tables,
        pos: &Self::Position,
        lines: bool,
        note: &dyn Fn(&MissingFiles) -> Option<String>,
    ) -> ProbeResult<String>;

    /// As [`Tables::adjudicate`], with the game's tables of the position's rule set as they
    /// opened, or why they did not.
    ///
    /// # Errors
    /// As [`Tables::adjudicate`].
    fn adjudicate(
        tables: Result<&Tablebase<Self::Tables>, EdgeError>,
        pos: Self::Position,
    ) -> Result<Verdict, EdgeError>;
}

/// What a probe of a position is asked for beyond its value and best move: what the front end
/// prints of the one answer.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Asked {
    /// The best lines (`jtb probe --line`).
    pub lines: bool,
    /// Every move with the position it gives and that position's values (and, under the
    /// clock rule, the best move at the position's clock): the API's answer.
    pub moves: bool,
}

impl Asked {
    /// The lines alone (the API's line routes).
    pub const LINES: Asked = Asked {
        lines: true,
        moves: false,
    };
    /// The moves alone (the API's answer).
    pub const MOVES: Asked = Asked {
        lines: false,
        moves: true,
    };
}

/// What every game's answer to `jtb probe` gives ([`Answer`] asks it).
pub trait GameAnswer {
    /// The JSON object `jtb probe --json` prints for the input `text`.
    fn json(&self, text: &str) -> serde_json::Value;

    /// The best move, where there is one.
    fn best(&self) -> Option<&str>;

    /// The best line, when it was asked and the game has one.
    fn line(&self) -> Option<Vec<String>>;

    /// The note naming the files of the position's tables that the set does not hold, where
    /// the answer needed one ([`crate::MissingFiles`]).
    fn missing(&self) -> Option<String> {
        None
    }

    /// The fields of [`GameAnswer::json`] whose strings are exact fractions (`"5/8"`), at every
    /// depth of the object: for a printer that gives them as numbers of its own (Python's
    /// `Fraction`s). None in a game whose values are distances.
    fn exact_fractions(&self) -> &'static [&'static str] {
        &[]
    }

    /// What `jtb probe` prints for the input `text`: the value in words (Jungle's and Clesto's
    /// with the board drawn, and a line end after their last line, as `jtb probe` has always
    /// printed them), the best move and the lines asked for.
    fn text(&self, text: &str) -> String;
}

/// What every game's verdict for `jtb adjudicate` gives ([`Verdict`] asks it).
pub trait GameVerdict {
    /// The position adjudicated.
    fn position(&self) -> crate::AnyPosition;

    /// Whether the game can be stopped now.
    fn is_settled(&self) -> bool;

    /// The verdict in a few words (`dead draw`, `play on`, `settled by the tables`).
    fn status(&self) -> &'static str;

    /// Whether the position is drawn at once by the move-count rule (never, in a game without
    /// one).
    fn is_dead_draw(&self) -> bool;

    /// The value without the clock for the side to move, where the tables give one by force:
    /// `None` where it is not known (no tables needed, none read) or a repetition rule decides
    /// (Clesto's ban, Animal Gambit's repetition).
    fn value(&self) -> Option<jtb_probe::Value>;

    /// Why, in words.
    fn reason(&self) -> String;

    /// The JSON object `jtb adjudicate --json` prints for the input `text`.
    fn json(&self, text: &str) -> serde_json::Value;
}

/// `Win(n)` as `n`, `Loss(n)` as `-n`, a draw as 0.
pub(crate) fn signed(value: jtb_probe::Value) -> i32 {
    match value {
        jtb_probe::Value::Win(n) => i32::from(n),
        jtb_probe::Value::Draw => 0,
        jtb_probe::Value::Loss(n) => -i32::from(n),
    }
}

/// The tables if they opened, else none and why.
fn split_opened<T>(opened: Result<&T, EdgeError>) -> (Option<&T>, Option<String>) {
    match opened {
        Ok(tb) => (Some(tb), None),
        Err(e) => (None, Some(e.to_string())),
    }
}

/// Adds the `"missing"` note to an answer's JSON object, where there is one (a whole set's
/// answers keep their keys).
pub(crate) fn add_missing(obj: &mut serde_json::Value, note: Option<String>) {
    if let Some(note) = note {
        obj["missing"] = serde_json::Value::String(note);
    }
}

/// Adds the fields of the JSON object `more` to the object `obj`, in their order (the answers'
/// shared fields written once).
pub(crate) fn extend(obj: &mut serde_json::Value, more: serde_json::Value) {
    if let (serde_json::Value::Object(obj), serde_json::Value::Object(more)) = (obj, more) {
        obj.extend(more);
    }
}

/// The game's tables for a position of `material` under `family`, or the missing-table error
/// naming the position's own table by its DTM file: where the rule set has no tables, or none
/// of that many pieces (the HTTP API's 404).
///
/// # Errors
/// As said.
pub(crate) fn holding<G: EdgeGame, F: jtb_probe::Family>(
    tables: &Tables,
    rules: Rules,
    family: F,
    material: F::Material,
    pieces: usize,
) -> ProbeResult<Arc<Tablebase<G::Tables>>> {
    match tables.of::<G>(rules) {
        Ok(tb) if pieces <= tb.max_pieces() => Ok(tb),
        _ => Err(jtb_probe::ProbeError::MissingTable {
            rules: family.id(),
            material: family.table_of(material).to_string(),
            path: jtb_probe::format::family_table_path(
                tables.root(),
                family,
                material,
                jtb_probe::Kind::Dtm,
            ),
        }),
    }
}

/// No table holds a finished game or one with face-down tiles (the Jungle family's positions;
/// the flip game's chance tables hold the latter).
///
/// # Errors
/// [`jtb_probe::ProbeError::GameOver`], [`jtb_probe::ProbeError::HiddenTiles`].
pub(crate) fn check_probeable(pos: &jtb_probe::Position) -> ProbeResult<()> {
    if pos.is_game_over() {
        return Err(jtb_probe::ProbeError::GameOver);
    }
    if pos.hidden() != 0 {
        return Err(jtb_probe::ProbeError::HiddenTiles);
    }
    Ok(())
}
