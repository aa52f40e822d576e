//! A rule set as a user names it: one of the Jungle family's, or Animal Gambit's.

use std::{fmt, str::FromStr};

use jtb_probe::{gambit, RuleSet, UnknownRuleSet};

/// The id of the Animal Gambit rule set.
pub const ANIMAL_GAMBIT: &str = gambit::AnimalGambit::NAME;

/// A rule set as `--rules` names it: one of the Jungle family's (Jungle, the flip game and
/// Clesto), or Animal Gambit's.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Rules {
    /// A rule set of the Jungle family.
    Jungle(RuleSet),
    /// Animal Gambit (Arimaa), rule set `animal-gambit`.
    AnimalGambit,
}

impl Rules {
    /// Every rule set, in the order `jtb --help` lists them.
    #[must_use]
    pub fn all() -> Vec<Rules> {
        RuleSet::ALL
            .iter()
            .map(|&r| Rules::Jungle(r))
            .chain([Rules::AnimalGambit])
            .collect()
    }

    /// The rule set's id (`mistboard`, `animal-gambit`), its table folder's name.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Rules::Jungle(r) => r.name(),
            Rules::AnimalGambit => ANIMAL_GAMBIT,
        }
    }

    /// The draw limit of the move-count rule, in half-moves: `None` for a game without one
    /// (Clesto, Animal Gambit), which takes no clock.
    #[must_use]
    pub fn clock_limit(self) -> Option<u32> {
        match self {
            Rules::Jungle(r) => r.has_clock().then(|| r.clock_limit()),
            Rules::AnimalGambit => None,
        }
    }

    /// The rule set that a position text's board shape names when none is given: 8 ranks are
    /// Animal Gambit's board; the Jungle family's parser tells its own shapes apart.
    #[must_use]
    pub fn of_text(text: &str) -> Option<Rules> {
        is_gambit_shape(text).then_some(Rules::AnimalGambit)
    }
}

impl FromStr for Rules {
    type Err = UnknownRuleSet;

    fn from_str(s: &str) -> Result<Rules, UnknownRuleSet> {
        if s == ANIMAL_GAMBIT {
            Ok(Rules::AnimalGambit)
        } else {
            s.parse().map(Rules::Jungle)
        }
    }
}

impl fmt::Display for Rules {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Whether the board field of `text` has 8 ranks, the shape of an Animal Gambit board (the
/// Jungle boards have 9 and 4).
#[must_use]
pub fn is_gambit_shape(text: &str) -> bool {
    text.split_whitespace()
        .next()
        .is_some_and(|board| board.split('/').count() == 8)
}
