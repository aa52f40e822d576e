//! One module per command: its arguments, and how it answers over the games.

pub mod adjudicate;
pub mod gen;
pub mod info;
pub mod moves;
pub mod plan;
pub mod probe;
pub mod stats;
pub mod verify;
