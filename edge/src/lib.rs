//! The run-time edge over the four games: a rule set named at run time ([`Rules`]), a position
//! of any game ([`AnyPosition`], like shakmaty's `VariantPosition`), a rule set's tables as its
//! game's own type ([`AnyTablebase`]), the tables of every rule set under one directory, opened
//! on first use and shared between threads ([`Tables`]), a
//! table as a user names it ([`TableName`]), and
//! the answers `jtb probe` and `jtb adjudicate` give ([`Answer`], [`Verdict`]), each with the
//! JSON object the CLI prints. The games are matched here, once; the CLI and the Python package
//! are written over it.

mod answer;
mod error;
mod position;
mod rules;
mod table_name;
mod tables;

pub use answer::{
    chance_json, line_stops_at_ban, Answer, ChanceAnswer, ChanceMoveAnswer, ClestoAnswer,
    GambitAnswer, JungleAnswer, Verdict,
};
pub use error::{EdgeError, PositionError};
pub use position::{AnyPosition, GameEnd, Played};
pub use rules::{is_gambit_shape, Rules, ANIMAL_GAMBIT};
pub use table_name::{table_material, TableName, TableNameError, Targets};
pub use tables::{jungle_materials, AnyTablebase, Tables};
