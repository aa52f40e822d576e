//! A rule set as a user names it ([`Rules`]): one of a type of rule sets, each a
//! [`RuleFamily`] (the Jungle family's [`RuleSet`], Animal Gambit's [`AnimalGambit`]), listed
//! once by [`each_family!`](crate::each_family).

use std::{fmt, path::Path, str::FromStr, sync::Arc};

use jtb_probe::{gambit::AnimalGambit, Family, ProbeError, RuleSet, Storage, UnknownRuleSet};

use crate::{AnyPosition, AnyTablebase, PositionError, TableName, TableNameError, Targets};

/// The id of the Animal Gambit rule set.
pub const ANIMAL_GAMBIT: &str = AnimalGambit::NAME;

/// A rule set as `--rules` names it: one of the Jungle family's (Jungle, the flip game and
/// Clesto), or Animal Gambit's.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Rules {
    /// A rule set of the Jungle family.
    Jungle(RuleSet),
    /// Animal Gambit (Arimaa), rule set `animal-gambit`.
    AnimalGambit,
}

/// Evaluates `$body` for the type of rule sets of `$rules` (a [`Rules`]), with the rule set
/// bound to `$x` and `$F` naming its [`RuleFamily`] type; or, in the form `each_family!(|F|
/// body)`, evaluates `body` once for each type in turn. The one list of the types of rule
/// sets: a type added to the edge is one line here and one variant of [`Rules`].
///
/// ```
/// use jtb_edge::{each_family, Rules, RuleFamily};
/// use jtb_probe::Family;
///
/// let rules: Rules = "flip4x4".parse().unwrap();
/// assert_eq!(each_family!(rules, |r, F| <F as Family>::id(r)), "flip4x4");
/// let mut types = 0;
/// each_family!(|F| types += usize::from(!F::RULE_SETS.is_empty()));
/// assert_eq!(types, 2);
/// ```
#[macro_export]
macro_rules! each_family {
    ($rules:expr, |$x:pat_param, $F:ident| $body:expr) => {
        match $rules {
            $crate::Rules::Jungle($x) => {
                #[allow(dead_code)]
                type $F = $crate::__families::RuleSet;
                $body
            }
            $crate::Rules::AnimalGambit => {
                let $x = $crate::__families::AnimalGambit;
                #[allow(dead_code)]
                type $F = $crate::__families::AnimalGambit;
                $body
            }
        }
    };
    (|$F:ident| $body:expr) => {{
        {
            #[allow(dead_code)]
            type $F = $crate::__families::RuleSet;
            $body
        }
        {
            #[allow(dead_code)]
            type $F = $crate::__families::AnimalGambit;
            $body
        }
    }};
}

/// What the edge asks of a type of rule sets beside what the file format does ([`Family`]: its
/// ids, its materials): its positions as texts, its tables as the user names them, and the
/// tablebase its tables open as. Implemented once per type, in its game's module of `games/`.
pub trait RuleFamily: Family {
    /// Every rule set of the type, in the order `jtb --help` lists them.
    const RULE_SETS: &'static [Self];

    /// Whether a move is a turn of several steps, played one step at a time in the explorer
    /// (Animal Gambit's; a move of the others is one step).
    const TURNS_OF_STEPS: bool = false;

    /// The rule set as the edge names it.
    fn rules(self) -> Rules;

    /// The draw limit of the move-count rule, in half-moves: `None` for a game without one,
    /// which takes no clock.
    fn move_count_limit(self) -> Option<u32>;

    /// The rule set whose board `text` has, where the shape tells it from the other types'
    /// (Animal Gambit's 8 ranks). Provided: none; the Jungle family's parser is the one for
    /// texts that no type claims, and tells its own shapes apart.
    fn of_shape(_text: &str) -> Option<Self> {
        None
    }

    /// `text` as a position of `rules` (or, without, of the type, its rule set told by the
    /// board's shape), with the half-move clock set to `clock` when given (else the text's,
    /// else 0).
    ///
    /// # Errors
    /// As [`AnyPosition::parse`].
    fn parse(
        text: &str,
        rules: Option<Self>,
        clock: Option<u32>,
    ) -> Result<AnyPosition, PositionError>;

    /// `text` as a position of `rules`, its clock as the text gives it (none when it gives
    /// none).
    ///
    /// # Errors
    /// As [`AnyPosition::from_text`].
    fn from_text(text: &str, rules: Option<Self>) -> Result<AnyPosition, PositionError>;

    /// A table of the type's, as a user names it.
    type Table: Into<TableName> + Copy;

    /// The table `text` names under these rules.
    ///
    /// # Errors
    /// `text` is no table of these rules.
    fn table_name(self, text: &str) -> Result<Self::Table, TableNameError>;

    /// The tables `named` (or without names every table of 2 up to `max_pieces` pieces), with
    /// what they need added if `with_needs` ([`Rules::targets`]).
    ///
    /// # Errors
    /// A table named, or needed, holds more pieces than a table can.
    fn targets_of(
        self,
        named: &[Self::Table],
        max_pieces: usize,
        with_needs: bool,
    ) -> Result<Targets, TableNameError>;

    /// The tables of these rules under `root`, as their game's tablebase type.
    ///
    /// # Errors
    /// As [`AnyTablebase::open`].
    fn open(
        self,
        root: &Path,
        cache_bytes: u64,
        storage: Arc<dyn Storage>,
    ) -> Result<AnyTablebase, ProbeError>;

    /// The position of a packed record of these rules, its bytes 0 and 1 (the rule set, a side
    /// of 0 or 1) already checked ([`AnyPosition::unpack`]).
    ///
    /// # Errors
    /// As [`AnyPosition::unpack`].
    fn unpack(self, record: &[u8; crate::PACKED_LEN]) -> Result<AnyPosition, PositionError>;

    /// Gives `keep` the positions the table `name` stores, all or `pick`ed
    /// ([`crate::table_records`]).
    ///
    /// # Errors
    /// As [`crate::table_records`].
    fn table_positions(
        self,
        name: &str,
        pick: crate::Pick,
        keep: &mut dyn FnMut(AnyPosition),
    ) -> Result<(), crate::ScanError>;
}

impl Rules {
    /// Every rule set, in the order `jtb --help` lists them.
    #[must_use]
    pub fn all() -> Vec<Rules> {
        let mut all = Vec::new();
        each_family!(|F| all.extend(F::RULE_SETS.iter().map(|&r| RuleFamily::rules(r))));
        all
    }

    /// The rule set's id (`mistboard`, `animal-gambit`), its table folder's name.
    #[must_use]
    pub fn name(self) -> &'static str {
        each_family!(self, |r, F| <F as Family>::id(r))
    }

    /// The draw limit of the move-count rule, in half-moves: `None` for a game without one
    /// (Clesto, Animal Gambit), which takes no clock.
    #[must_use]
    pub fn clock_limit(self) -> Option<u32> {
        each_family!(self, |r, F| F::move_count_limit(r))
    }

    /// Whether a move is a turn of several steps ([`RuleFamily::TURNS_OF_STEPS`]).
    #[must_use]
    pub fn has_turns_of_steps(self) -> bool {
        each_family!(self, |_r, F| F::TURNS_OF_STEPS)
    }

    /// The rule set that a position text's board shape names when none is given: 8 ranks are
    /// Animal Gambit's board; the Jungle family's parser tells its own shapes apart.
    #[must_use]
    pub fn of_text(text: &str) -> Option<Rules> {
        let mut claimed = None;
        each_family!(|F| claimed = claimed.or_else(|| F::of_shape(text).map(RuleFamily::rules)));
        claimed
    }
}

impl FromStr for Rules {
    type Err = UnknownRuleSet;

    fn from_str(s: &str) -> Result<Rules, UnknownRuleSet> {
        let mut named = None;
        each_family!(|F| named = named.or_else(|| F::from_id(s).map(RuleFamily::rules)));
        named.ok_or_else(|| UnknownRuleSet(s.to_owned()))
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
