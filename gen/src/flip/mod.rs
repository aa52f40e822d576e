//! The flip game's own table: the built-in one-animal-each dead-draw table.

pub mod dead_draw;
