//! Jungle (Dou Shou Qi) and Mistboard flip-game endgame tablebases: the rules, position text,
//! legal moves, and (as they land) table files and probing.
//!
//! ```
//! use jtb_probe::{Position, RuleSet};
//!
//! let pos: Position = "7/7/7/7/7/7/7/3R3/2e4 b".parse()?;
//! assert_eq!(pos.rules(), RuleSet::Mistboard);
//! let moves: Vec<String> = pos.legal_moves().iter().map(|m| m.to_string()).collect();
//! assert_eq!(moves, ["c1b1", "c1c2", "c1d1"]); // c1d1 enters the red den
//! # Ok::<_, Box<dyn std::error::Error>>(())
//! ```
//!
//! # Errors
//! Position text that breaks any rule gives a [`ParseError`] naming the problem; nothing here
//! panics on user input.

#![warn(missing_docs)]

mod board;
mod file;
pub mod flip;
pub mod format;
mod index;
mod material;
mod moves;
mod piece;
mod position;
mod rules;
mod tablebase;
mod text;
mod value;

pub use crate::{
    board::{bit, Axis, Board, Jump, Square, SquareSet, FLIP, JUNGLE},
    file::TableFile,
    flip::{dead_draw, Adjudication, DeadReason, NotApplicable},
    format::{Header, Kind, SideStats, TableError, TableErrorKind},
    index::{Entry, Layout},
    material::{BadMaterial, Material},
    moves::{EndReason, IllegalMove, Move, MoveKind, Outcome},
    piece::{Animal, Color, Piece},
    position::{ClockError, Position, PositionError},
    rules::{Capture, RuleSet, UnknownRuleSet},
    tablebase::{LineStep, ProbeError, ProbeResult, ScoredMove, Tablebase, DEFAULT_CACHE_BYTES},
    text::ParseError,
    value::{Value, Wdl},
};
