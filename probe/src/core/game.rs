//! What a game tells the one probe path ([`crate::Tablebase`]): its positions and moves, how a
//! position finds its table and entry, and what a move leads to. Everything a table's bytes
//! need is [`Family`]'s; this trait adds what probing needs on top. Each game implements it in
//! its own folder; the probe code is written once, generic over it, and monomorphised.

use std::{collections::HashMap, fmt, hash::Hash};

use super::{
    error::{ProbeError, ProbeResult},
    tablebase::Tablebase,
};
use crate::{
    format::{Family, Kind},
    value::{Value, Wdl},
};

/// The most files a table of any game has (Jungle's WDL, DTM and DTC; Clesto's WDL, DTM and ban
/// files): the slots of a table's open files in a tablebase ([`Indexed::FILE_KINDS`]).
pub const FILE_SLOTS: usize = 3;

/// What a move leads to, for the side that makes it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Successor<P> {
    /// The game goes on from this position, the opponent to move.
    Next(P),
    /// The move ended the game with this result for the mover.
    End(Wdl),
}

/// The tables present, found by material: a material's place in the tablebase's list.
pub trait MaterialSlots<M>: Default + Send + Sync {
    /// The place of `material`'s table, if it has one.
    fn get(&self, material: M) -> Option<usize>;
    /// Records `material`'s table at `place` (a material already recorded keeps its place).
    fn insert(&mut self, material: M, place: usize);
}

impl<M: Copy + Eq + Hash + Send + Sync> MaterialSlots<M> for HashMap<M, usize> {
    fn get(&self, material: M) -> Option<usize> {
        HashMap::get(self, &material).copied()
    }

    fn insert(&mut self, material: M, place: usize) {
        self.entry(material).or_insert(place);
    }
}

/// A game whose tables [`Tablebase`] finds and reads. Its game type is a [`Family`] (the file
/// format's view: `Jungle`, `Clesto`, `AnimalGambit`, `Chance`); this adds positions and the index. What a table holds
/// is the business of the `impl` blocks of [`Tablebase`] for the game: distances to mate
/// ([`Game`]), Clesto's values with the repetition ban, or the flip game's chance values.
pub trait Indexed: Family {
    /// A position (the side to move included).
    type Position: Clone + Eq + fmt::Debug + fmt::Display + Send + Sync;
    /// Where each position of a material is stored in its table.
    type Layout: Send + Sync;
    /// How the tablebase finds a material's table.
    type Slots: MaterialSlots<Self::Material>;

    /// The kind of file a missing table's error names (a table is found by any of its files,
    /// [`Indexed::FILE_KINDS`]).
    const TABLE_KIND: Kind = Kind::Dtm;

    /// The kinds of file a table of the game has, in the order of the slots that a tablebase
    /// keeps them open in (at most [`FILE_SLOTS`]): each game its own, so that no kind stands in
    /// another's slot (Clesto's ban file is in Clesto's third slot, not in the DTC file's).
    const FILE_KINDS: &'static [Kind];

    /// The layout of `material`'s table (the orientation that names it).
    fn layout(self, material: Self::Material) -> Self::Layout;

    /// Pieces in `material`.
    fn pieces(material: Self::Material) -> usize;

    /// Whether a file named after `material` can be a table of these rules (both sides have
    /// pieces, no more than a table holds, the orientation that names the table).
    fn is_table_material(self, material: Self::Material) -> bool;

    /// Another orientation of `material` that names the same table (the colour flip, where the
    /// rules are colour-symmetric), so that either is found in one lookup.
    fn alias(self, material: Self::Material) -> Option<Self::Material>;

    /// The material on the board of `pos`, in its own orientation.
    fn material_of(pos: &Self::Position) -> Self::Material;

    /// Whether `pos` can be probed in these rules' tables at all.
    ///
    /// # Errors
    /// Why not: a position of another rule set, a finished game, face-down tiles.
    fn check_position(self, pos: &Self::Position) -> ProbeResult<()>;

    /// Why no table of these rules can hold `pos` at all (more pieces than any table has), where
    /// that is so: asked only when its table is not there, so that the error says so instead of
    /// naming a table no generation makes. `None` by default.
    fn beyond_tables(self, pos: &Self::Position) -> Option<ProbeError> {
        let _ = pos;
        None
    }

    /// The entry of `pos` in the table of `layout`, which holds its material.
    fn index_of(layout: &Self::Layout, pos: &Self::Position) -> usize;
}

/// A game whose positions the probe path plays move by move: the moves of a position and what
/// each leads to, so that best moves and lines are found one ply deep.
pub trait Moves: Indexed {
    /// A move: a Jungle move, or an Animal Gambit turn of up to four steps.
    type Move: Copy + Eq + fmt::Debug + fmt::Display + Send + Sync;

    /// What one move is called in messages: `move`, or Animal Gambit's `turn`.
    const MOVE_NOUN: &'static str;

    /// `pos` as the values of the tables see it: without the clocks a game may keep.
    fn without_clocks(pos: &Self::Position) -> Self::Position;

    /// Every legal move of `pos` in move order (ASCII order of their texts) with what it leads
    /// to. Positions after a move carry no clocks: the tables' values do not see them.
    fn successors(pos: &Self::Position) -> Vec<(Self::Move, Successor<Self::Position>)>;

    /// What `mv`, one of the moves [`Moves::successors`] gives for `pos`, leads to (clocks
    /// advanced where the game has them); `None` where the game sees that it is not legal.
    fn play(pos: &Self::Position, mv: Self::Move) -> Option<Successor<Self::Position>>;
}

/// A game whose tables hold a value with its distance to mate for every position: the best
/// move and the whole line follow from the values one ply deep. Clesto's tables do not (where
/// the repetition ban decides, the DTM file holds a draw), so Clesto is [`Moves`] only and
/// has its own probes.
pub trait Game: Moves {
    /// Win, draw or loss of `pos` for the side to move. Provided: the WDL file's entry.
    ///
    /// # Errors
    /// As [`Tablebase::probe_wdl`].
    fn probe_wdl(tb: &Tablebase<Self>, pos: &Self::Position) -> ProbeResult<Wdl> {
        tb.stored_wdl(pos)
    }

    /// The value with its distance to mate of `pos`. Provided: the DTM file's entry.
    ///
    /// # Errors
    /// As [`Tablebase::probe_dtm`].
    fn probe_dtm(tb: &Tablebase<Self>, pos: &Self::Position) -> ProbeResult<Value> {
        tb.stored_value(pos, Kind::Dtm)
    }
}
