//! What the tables say of a position: [`Answer`] for `jtb probe`, [`Verdict`] for
//! `jtb adjudicate`, each with the JSON object the CLI prints (the Python package returns the
//! same objects). Each game's answer and verdict are in its module of `games/`.

use serde_json::Value as Json;

use crate::{
    games::{GameAnswer, GameVerdict},
    AnyPosition, ChanceAnswer, ClestoAnswer, GambitAnswer, GambitVerdict, JungleAnswer,
    JungleVerdict,
};

/// The answer of `jtb probe` for a position of one of the games.
#[derive(Debug, Clone, PartialEq)]
pub enum Answer {
    /// Jungle and the flip game: the value with its distance to mate, and the value under the
    /// clock rule at the position's clock.
    Jungle(JungleAnswer),
    /// Clesto: no draws and no clock; wins by the repetition ban.
    Clesto(ClestoAnswer),
    /// Animal Gambit: the distance to mate in turns.
    Gambit(GambitAnswer),
    /// The flip game with face-down tiles: exact chance values at the position's clock (boxed:
    /// it carries every move's outcomes).
    Chance(Box<ChanceAnswer>),
}

impl Answer {
    /// The JSON object `jtb probe --json` prints for the input `text`.
    #[must_use]
    pub fn json(&self, text: &str) -> Json {
        self.game().json(text)
    }

    /// The best move, where there is one.
    #[must_use]
    pub fn best(&self) -> Option<&str> {
        self.game().best()
    }

    /// The best line (Animal Gambit's turns), when it was asked; `None` for a position with
    /// face-down tiles, whose flips are chance.
    #[must_use]
    pub fn line(&self) -> Option<&[String]> {
        self.game().line()
    }

    fn game(&self) -> &dyn GameAnswer {
        match self {
            Answer::Jungle(a) => a,
            Answer::Clesto(a) => a,
            Answer::Gambit(a) => a,
            Answer::Chance(a) => &**a,
        }
    }
}

/// Whether a position can be stopped: `jtb adjudicate`'s answer.
// One answer at a time, never stored in bulk: boxing would only add an allocation.
#[allow(clippy::large_enum_variant)]
#[derive(Debug)]
pub enum Verdict {
    /// A position of the Jungle family's type (Jungle, the flip game, Clesto): whether it is a
    /// dead draw at its clock, and why.
    Jungle(JungleVerdict),
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
        match self {
            Verdict::Jungle(v) => v,
            Verdict::Gambit(v) => v,
        }
    }
}
