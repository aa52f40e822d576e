//! What a game prints and puts in its JSON where the games differ: Animal Gambit's side of
//! the table commands, and Clesto's statistics without draws.
//! Jungle's and the flip game's printers are the commands' own.

pub mod clesto;
pub mod gambit;
