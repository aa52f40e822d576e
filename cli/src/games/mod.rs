//! What a game prints and puts in its JSON where the games differ (Animal Gambit's side of
//! the table commands; the Jungle family's printers are still in the commands).

pub mod gambit;
