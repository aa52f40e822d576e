//! The run-time edge over the four games: a rule set named at run time ([`Rules`]), a position
//! of any game ([`AnyPosition`], like shakmaty's `VariantPosition`), a rule set's tables as its
//! game's own type ([`AnyTablebase`]), the tables of every rule set under one directory, opened
//! on first use and shared between threads ([`Tables`]), a table as a user names it
//! ([`TableName`]), and the answers `jtb probe` and `jtb adjudicate` give ([`Answer`],
//! [`Verdict`]), each with the JSON object and the text the CLI prints. The games are matched
//! here, once; the CLI, the server, the Python package and the C ABI are written over it.
//!
//! Each game's part is a module of `games/` (`jungle`, `clesto`, `gambit`, and `flip` for the
//! flip game's positions with face-down tiles): its positions' moves and play, its tables'
//! probes and its answers, behind one trait ([`games::EdgeGame`]), and its type of rule sets
//! behind another ([`RuleFamily`]). The enums dispatch through one list of the games
//! ([`each_game!`]) and one of the types of rule sets ([`each_family!`]), so a game added here is
//! its module, a line in those lists and a variant in each enum.

#[macro_use]
pub mod games;
#[macro_use]
mod rules;

mod answer;
pub mod api;
mod board;
mod error;
pub(crate) mod packed;
mod position;
pub(crate) mod scan;
mod table_name;
mod tables;

pub use answer::{Answer, JungleGameAnswer, MissingFiles, Verdict};
pub use error::{EdgeError, PositionError};
pub use games::{
    clesto::{
        banned_of, clesto_fields, line_stops_at_ban, square_names, starvations, ClestoAnswer,
        ClestoMove, ClestoStep,
    },
    flip::{
        chance_json, flips_json, outcomes_json, ChanceAnswer, ChanceFlip, ChanceLine,
        ChanceMoveAnswer, ChanceStep,
    },
    gambit::{gambit_fields, turn_json, GambitAnswer, GambitStep, GambitTurn, GambitVerdict},
    jungle::{kind_name, JungleAnswer, JungleMove, JungleVerdict, MoveAfter, NextValues, Values},
    Asked,
};
pub use jtb_probe::Targets;
pub use packed::{PACKED_LEN, RULE_CODES};
pub use position::{AnyPosition, GameEnd, Played};
pub use rules::{is_gambit_shape, RuleFamily, Rules, ANIMAL_GAMBIT};
pub use scan::{table_records, Pick, ScanError};
pub use table_name::{table_material, JungleTable, TableName, TableNameError};
pub use tables::{jungle_materials, AnyTablebase, Memo, Pinned, Tables};

/// The types of rule sets that [`each_family!`] names, for its expansion in other crates.
#[doc(hidden)]
pub mod __families {
    pub use jtb_probe::{gambit::AnimalGambit, RuleSet};
}
