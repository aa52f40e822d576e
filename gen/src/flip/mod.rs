//! The flip game's own tables: the chance tables of positions with face-down tiles
//! ([`chance`]), and the built-in one-animal-each dead-draw table.

pub mod chance;
pub mod dead_draw;
pub mod dte;
