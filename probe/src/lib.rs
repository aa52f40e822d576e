//! Endgame tablebases of four games: Jungle (Dou Shou Qi), the Mistboard 4x4 flip game,
//! Clesto and Animal Gambit. The rules, position text and legal moves of every rule set, the
//! table format, and probing: values, distance to mate, and for Jungle and the flip game the
//! clock rule exact at every half-move clock ([`clock`]).
//!
//! Probe a directory of tables written by `jtb gen` (the `jtb-gen` crate):
//!
//! ```no_run
//! use jtb_probe::{Category, Jungle, Position, Tablebase, Value, Wdl};
//!
//! let tb = Tablebase::open("tables", Jungle::Mistboard)?; // tables/mistboard/*.{wdl,dtm,dtc}
//! let pos: Position = "7/7/7/7/7/7/2L4/1e5/R6 r".parse()?;
//! assert_eq!(tb.probe_wdl(&pos)?, Wdl::Win);
//! assert_eq!(tb.probe_dtm(&pos)?, Value::Win(35));
//! assert_eq!(tb.best_move(&pos)?.unwrap().mv.to_string(), "a1b1");
//! assert_eq!(tb.line(&pos)?.len(), 35);
//!
//! // The clock rule: 100 half-moves without a capture draw the game. Red forces the first
//! // capture in 7 plies, so the win holds up to clock 93 and is a dead draw from clock 94.
//! let mut pos = pos;
//! pos.set_clock(Some(94))?;
//! let rule = tb.probe_rule(&pos)?;
//! assert_eq!((rule.dtc, rule.wdl, rule.category), (Value::Win(7), Wdl::Draw, Category::Win));
//! assert!(jtb_probe::adjudicate(Some(&tb), &pos)?.dead_draw);
//! # Ok::<_, Box<dyn std::error::Error>>(())
//! ```
//!
//! The rules and the flip game's dead-draw check need no tables:
//!
//! ```
//! use jtb_probe::{dead_draw, Adjudication, Color, DeadReason, Position, RuleSet};
//!
//! let pos: Position = "7/7/7/7/7/7/7/3R3/2e4 b".parse()?;
//! assert_eq!(pos.rules(), RuleSet::Mistboard);
//! let moves: Vec<String> = pos.legal_moves().iter().map(|m| m.to_string()).collect();
//! assert_eq!(moves, ["c1b1", "c1c2", "c1d1"]); // c1d1 enters the red den
//!
//! let flip: Position = "4/4/4/c2L r".parse()?;
//! assert_eq!(dead_draw(&flip, None), Adjudication::PlayOn { winner: Color::Red, dtm: 9 });
//! assert_eq!(
//!     dead_draw(&flip, Some(32)),
//!     Adjudication::DeadDraw(DeadReason::TooSlow { dtm: 9, clock: 32 })
//! );
//! # Ok::<_, Box<dyn std::error::Error>>(())
//! ```
//!
//! Every game's tables are probed through one [`Tablebase`], generic over the game ([`Game`]):
//! the same lazy opening, block caches, errors, best moves and lines. What only one game
//! answers is an `impl` for that game: the clock rule for the Jungle family, Clesto's values
//! with the repetition ban, Animal Gambit's verdicts. Animal Gambit (Arimaa under another
//! name) has its own game model in [`gambit`]: position text, turns of one to four steps with
//! their canonical text, and the end-of-turn checks; its tables are probed as
//! `Tablebase<gambit::AnimalGambit>`, with distances in turns.
//!
//! ```no_run
//! use jtb_probe::gambit::{AnimalGambit, Category, Position};
//! use jtb_probe::{Tablebase, Value};
//!
//! let tb = Tablebase::open("tables", AnimalGambit)?; // tables/animal-gambit/*.{wdl,dtm}
//! let pos: Position = "8/3r4/8/8/8/8/4R3/8 g".parse()?;
//! assert_eq!(tb.probe_dtm(&pos)?, Value::Win(3)); // three turns: Gold, Silver, Gold
//! assert_eq!(tb.adjudicate(&pos)?.category, Category::Win);
//! assert_eq!(tb.best_move(&pos)?.unwrap().mv.to_string(), "Re2n Re3n Re4e Rf4n");
//! # Ok::<_, Box<dyn std::error::Error>>(())
//! ```
//!
//! # Errors
//! Position text that breaks any rule gives a [`ParseError`] naming the problem; probes give a
//! [`ProbeError`], one type for every game (game over, too many pieces, missing table, wrong
//! rule set), with a
//! [`TableError`] naming the file for unreadable, truncated, corrupted or foreign files.
//! Nothing here panics on user input or on a damaged file.
//!
//! # Features
//! None: the crate always reads zstd-compressed, memory-mapped table files.

#![warn(missing_docs)]

mod clesto;
pub mod core;
pub mod flip;
pub mod gambit;
mod jungle;
mod targets;
#[doc = include_str!("../RULES.md")]
// RULES.md is copied verbatim from the project's rule text, whose lists run on into the next
// paragraph; the lint would have it reflowed.
#[allow(clippy::doc_lazy_continuation)]
pub mod rulebook {}

// Each module's path in the crate: the core every game shares, and the Jungle family's folder.
pub use self::jungle::clock;
use self::{
    clesto as ban,
    core::{file, store, value},
    jungle::{
        adjudicate, board, game, histogram, index, material, moves, piece, placement, position,
        rules, tablebase, text,
    },
};

/// The one table format of every game: header, block index, blocks and checksums, over a
/// [`Family`] of rule sets; and the Jungle family's table paths.
pub mod format {
    pub use crate::{core::format::*, jungle::files::table_path};
}

pub use crate::{
    adjudicate::{adjudicate, Verdict, VerdictReason},
    ban::{
        adjudicate_clesto, banned_side, for_each_move_value, value_by_lookahead, Clesto,
        ClestoValue,
    },
    board::{bit, Axis, Board, Jump, Square, SquareSet, FLIP, JUNGLE},
    clock::{Category, RuleValue},
    core::{
        in_memory_only, ByteSource, CacheStats, Game, Indexed, LocalFiles, MaterialSlots,
        MemoryFiles, Moves, ProbeError, ProbeResult, Storage, Successor, DEFAULT_CACHE_BYTES,
        FILE_SLOTS, PREFETCH_AHEAD,
    },
    file::TableFile,
    flip::{
        dead_draw, Adjudication, DeadReason, FlipOutcome, HiddenSet, HiddenSetError, NotApplicable,
    },
    format::{BlockFault, Family, Header, Kind, SideStats, TableError, TableErrorKind},
    game::{Jungle, JungleSlots, LineStep, ScoredMove, Tablebase},
    histogram::{histogram, SideHistogram},
    index::{Entry, FreePieceIndex, Layout},
    material::{BadMaterial, Material},
    moves::{for_each_move_of, EndReason, IllegalMove, Move, MoveKind, Occupancy, Outcome},
    piece::{Animal, Color, Piece},
    placement::Placement,
    position::{ClockError, Position, PositionError},
    rules::{Capture, RuleSet, UnknownRuleSet},
    tablebase::{RuleMove, RuleStep},
    targets::Targets,
    text::ParseError,
    value::{Plies, Turns, Value, Wdl},
};

#[cfg(test)]
mod tests {
    use crate::{core::store::slots_of, flip::Chance, gambit::AnimalGambit, Clesto, Jungle};

    /// Each game's files in slots of their own, in its order; the kinds it has no file of in
    /// none (the DTC file is Jungle's, the ban file Clesto's).
    #[test]
    fn each_game_keeps_its_own_kinds_of_file_in_its_own_slots() {
        const NONE: usize = crate::FILE_SLOTS;
        // By kind: WDL, DTM, DTC, ban, chance, DTE.
        assert_eq!(slots_of::<Jungle>(), [0, 1, 2, NONE, NONE, NONE]);
        assert_eq!(slots_of::<Clesto>(), [0, 1, NONE, 2, NONE, NONE]);
        assert_eq!(slots_of::<AnimalGambit>(), [0, 1, NONE, NONE, NONE, NONE]);
        assert_eq!(slots_of::<Chance>(), [NONE, NONE, NONE, NONE, 0, 1]);
        assert_eq!(
            slots_of::<crate::flip::RevealedDte>(),
            [NONE, NONE, NONE, NONE, NONE, 0]
        );
    }
}
