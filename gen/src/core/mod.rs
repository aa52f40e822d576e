//! What every game's solver shares: the game-independent graph retrograde and the memory
//! helpers of its buffers.

pub mod graph;
pub(crate) mod memory;
