//! What every game shares, naming none: the file format and its reader, the store of open files
//! and block caches, the value types, the [`Game`] trait, the one [`Tablebase`] and its one
//! error type. The crate's root names each of these again, with the Jungle family's game as
//! the default game of [`crate::Tablebase`].

mod error;
pub(crate) mod file;
pub mod format;
mod game;
mod open_files;
mod source;
pub(crate) mod store;
mod tablebase;
pub(crate) mod value;

pub use self::{
    error::{ProbeError, ProbeResult},
    game::{Game, Indexed, MaterialSlots, Moves, Successor, FILE_SLOTS},
    source::{ByteSource, LocalFiles, MemoryFiles, Storage},
    store::{in_memory_only, CacheStats},
    tablebase::{LineStep, ScoredMove, Tablebase, DEFAULT_CACHE_BYTES, PREFETCH_AHEAD},
};
