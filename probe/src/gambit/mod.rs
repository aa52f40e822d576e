//! Animal Gambit (Arimaa under another name), rule set `animal-gambit` (RULES.md section 7):
//! the 8x8 board with its traps, pieces, position text, steps, pushes and pulls, turns with
//! their canonical text, and the end-of-turn checks; its materials ([`Material`]), its table
//! index ([`Layout`]), its rule set in the shared table format ([`AnimalGambit`]) and what its
//! probes ([`crate::Tablebase`]`<`[`AnimalGambit`]`>`) need. Everything about Animal Gambit is
//! in this folder; the file format, the block caches and the CLI are the ones every game
//! shares.
//!
//! ```
//! use jtb_probe::gambit::{Next, Position, TurnEnd};
//!
//! let pos: Position = "8/3r4/8/8/8/8/4R3/8 g".parse()?;
//! let turns = pos.turns();
//! assert_eq!(turns.len(), 22);
//! assert_eq!(turns[0].to_string(), "Re2e");
//!
//! // A Gold rabbit one step from its goal wins at once.
//! let pos: Position = "7r/R7/8/8/8/8/8/8 g".parse()?;
//! let win = pos.turns().into_iter().find(|t| t.to_string() == "Ra7n").unwrap();
//! assert_eq!(pos.play(&win), Next::Over(TurnEnd::Goal));
//! # Ok::<_, Box<dyn std::error::Error>>(())
//! ```
//!
//! Everything is on bitboards ([`Bitboard`], one `u64` per colour and per kind), and a
//! [`TurnGenerator`] keeps its buffers between positions: no allocation per step.
//!
//! Where the rule text leaves the model a choice:
//! - The sides are a [`Color`] of their own, Gold (index 0, moves first) and Silver, not the
//!   Jungle colours.
//! - A [`Position`] is a board at the start of a turn. A rabbit on its goal, or a side without
//!   rabbits, is a game already over: the text is refused ([`PositionError`]), so nothing
//!   downstream (probing included) can be handed one. A position whose side to move has no
//!   legal turn parses and has no turns: the opponent's last turn won by check 5.
//! - Position text is canonical only: digits 1 to 8, never two side by side, exactly two
//!   fields, so printing a parsed text gives it back.
//! - Turns are atomic actions (a step, a push, a pull) searched by step count; a piece's
//!   frozenness is judged before each action, which is before each of its own steps (a push's
//!   second step is the pusher's, which its victim's step cannot freeze; a pull's second step
//!   is the victim's, which may be frozen).

mod board;
mod index;
mod material;
mod notation;
mod piece;
mod position;
mod step;
mod tablebase;
mod text;
mod turn;

pub use self::{
    board::{neighbours, Bitboard, Direction, Square, TRAPS},
    index::{AnimalGambit, Layout},
    material::{BadMaterial, Material},
    notation::{NextStep, PartialTurn, TurnError},
    piece::{Animal, Color, Piece},
    position::{Board, Position, PositionError},
    step::{Action, Removal, Step, Token},
    tablebase::{Category, Verdict},
    text::ParseError,
    turn::{BoardHasher, Next, Turn, TurnEnd, TurnGenerator, MAX_STEPS},
};
