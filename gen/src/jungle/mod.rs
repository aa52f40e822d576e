//! The Jungle family's generation (Jungle, the flip game and Clesto share its rule-set type):
//! the bitboard retrograde with DTM and DTC, its tables in memory, its generation (solver and
//! plan), what to write, and the one-ply verification, over [`game::FamilyGame`] where a game
//! makes its tables its own way (Clesto's in `crate::clesto`).

pub(crate) mod bits;
pub mod codes;
pub mod game;
pub mod plan;
pub mod run;
pub(crate) mod solve;
pub(crate) mod tables;
pub mod verify;
pub mod write;
