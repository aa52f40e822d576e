//! The Jungle family (Jungle and its rule variants, the flip game, Clesto): board, pieces,
//! positions, moves, position text, materials, the table index, the rule sets, the clock rule,
//! adjudication, and its probes.

pub(crate) mod adjudicate;
pub(crate) mod board;
pub mod clock;
pub(crate) mod files;
pub(crate) mod game;
pub(crate) mod histogram;
pub(crate) mod index;
pub(crate) mod material;
pub(crate) mod moves;
pub(crate) mod piece;
pub(crate) mod placement;
pub(crate) mod position;
pub(crate) mod rules;
pub(crate) mod tablebase;
pub(crate) mod text;
