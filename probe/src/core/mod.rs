//! What every game shares above the file format: the [`Game`] trait, the one [`Tablebase`]
//! and its one error type.

mod error;
mod game;
mod tablebase;

pub use self::{
    error::{ProbeError, ProbeResult},
    game::{Game, MaterialSlots, Successor},
    tablebase::{LineStep, ScoredMove, Tablebase, DEFAULT_CACHE_BYTES},
};
