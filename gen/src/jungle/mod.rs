//! The Jungle family's solver (Jungle, the flip game, and Clesto's tables through it): the
//! bitboard retrograde with DTM and DTC, its tables in memory, the generation driver and plan,
//! what to write, and the one-ply verification.

pub(crate) mod bits;
pub mod codes;
pub mod plan;
pub mod run;
pub(crate) mod solve;
pub(crate) mod tables;
pub mod verify;
pub mod write;
